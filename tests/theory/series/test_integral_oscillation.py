"""Verdicts of sum f(n) from the integral of f when f' is integrable
(``theory.series.integral_oscillation``): each verdict derived by hand in its comment,
and the lemma behind them (S_N - F(N) converges) checked with mpmath."""

import mpmath
import pytest

from theory.series.expressions import parse_expression
from theory.series.integral_oscillation import integral_oscillation_test

CASES = [
    # F = -cos(log x): no limit
    ("sin(log(n))/n", False),
    # F = sin(2 log x)/2: no limit
    ("cos(2*log(n))/n", False),
    # F = 2 Si(sqrt x) -> pi
    ("sin(sqrt(n))/n", True),
    # F = -cos(log log x): no limit (x = e^(e^t))
    ("sin(log(log(n)))/(n*log(n))", False),
    # F = Ci(log x) -> 0
    ("cos(log(n))/(n*log(n))", True),
    # absolutely convergent: |b_n| <= 1/n^2
    ("sin(log(n))/n**2", True),
]


@pytest.mark.parametrize("formula,verdict", CASES, ids=[c[0] for c in CASES])
def test_verdicts(formula, verdict):
    d = integral_oscillation_test(parse_expression(formula))
    assert d is not None and d.converges is verdict, d


@pytest.mark.parametrize(
    "formula",
    [
        "sin(n)/n",  # f' = cos(x)/x - sin(x)/x^2: |f'| ~ 1/x, not integrable
        "sin(sqrt(n))/sqrt(n)",  # |f'| ~ 1/(2x): not integrable
        "sin(log(n))/(n - 5)",  # a pole at x = 5 >= 3: not smooth there
        "Abs(sin(log(n)))/n",  # Abs: outside the class
    ],
)
def test_outside_the_rule(formula):
    assert integral_oscillation_test(parse_expression(formula)) is None


def test_the_lemma_numerically():
    """S_N - F(N) for sin(log n)/n, F = -cos(log x): the differences at N = 10^3, 10^4 and
    10^5 agree to within int_N^oo |f'| <= 2/N (direct sums at 30 digits), while F(N)
    itself keeps moving (cos(log N) at those N differs by more than 0.1)."""
    with mpmath.workdps(30):
        S, D, n = mpmath.mpf(0), [], 1
        for top in (10**3, 10**4, 10**5):
            while n <= top:
                S += mpmath.sin(mpmath.log(n)) / n
                n += 1
            D.append(S + mpmath.cos(mpmath.log(top)))
        assert abs(D[1] - D[0]) < 2e-3 and abs(D[2] - D[1]) < 2e-4
        c = [mpmath.cos(mpmath.log(m)) for m in (10**3, 10**4, 10**5)]
        assert max(c) - min(c) > 0.1
