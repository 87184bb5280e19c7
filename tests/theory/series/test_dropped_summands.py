"""Terms 1/(a_1 + ... + a_k) with positive summands growing faster than every power
(1/(n! + e^n)): the head term by term, then a majorant that keeps one summand
(theory.series.dropped_summands).  B certified and every TRF exact against mpmath sums
computed here; forms where a dropped summand or the numerator may be negative are refused."""

import json

import mpmath
import pytest

from tests.theory.series.cli_checks import assert_certified_by_terms
from theory.series.dropped_summands import dropped_summand_majorants
from theory.series.expressions import N, parse_expression
from theory.trf.cli import main

# (formula, mpmath term): every term n > 120 is below 1/120! < 10^-198 (or e^(-120^1.5),
# or n^n/(2n)! <= n^n/(2n/e)^(2n) = (e^2/(4n))^n < 10^-219),
# so the first 120 terms give B to far more than the 18 digits checked
CASES = [
    ("1/(factorial(n)+exp(n))", lambda n: 1 / (mpmath.factorial(n) + mpmath.exp(n))),
    ("1/(factorial(n)+n**5)", lambda n: 1 / (mpmath.factorial(n) + n**5)),
    (
        "n**2/(gamma(n+1/2)+2**n+n)",
        lambda n: n**2 / (mpmath.gamma(n + mpmath.mpf(1) / 2) + 2**n + n),
    ),
    (  # three summands; n*n**n (keeping 1/n) grows, n**n/(2n)! is the one to keep
        "n**n/(gamma(n+1/2)+1/n+factorial(2*n))",
        lambda n: n**n / (mpmath.gamma(n + mpmath.mpf(1) / 2) + 1 / n + mpmath.factorial(2 * n)),
    ),
    (
        "1/(factorial(2*n)+exp(n**1.5))",
        lambda n: 1 / (mpmath.factorial(2 * n) + mpmath.exp(n ** mpmath.mpf(1.5))),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_sum_and_exact_trf(capsys, case):
    formula, term = case
    args = [f"--rpe={formula}", "--json", "--time-limit", "60", "--eps", "0.1", "0.01", "1e-6"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(60):
        terms = [term(mpmath.mpf(n)) for n in range(1, 121)]
        assert_certified_by_terms(out, terms)


@pytest.mark.parametrize(
    "formula",
    [
        "1/(factorial(n) - exp(n))",  # a negative summand: no majorant by dropping it
        "sin(n)/(factorial(n) + 1)",  # a numerator of either sign
        "1/(factorial(n) + n - 2)",  # n - 2 < 0 at n = 1
        "1/(factorial(n) + log(n - 1/2))",  # log(1/2) < 0 at n = 1
    ],
)
def test_refused_where_a_summand_may_be_negative(formula):
    assert dropped_summand_majorants(parse_expression(formula)) == []


@pytest.mark.parametrize("formula", [c[0] for c in CASES])
def test_majorants_bound_the_terms(formula):
    """Each majorant offered is >= b_n at n = 1..60 (mpmath at 30 digits, independent of the
    sympy assumptions the module proves it with)."""
    b = parse_expression(formula)
    majorants = dropped_summand_majorants(b)
    assert majorants
    with mpmath.workdps(30):
        for h in majorants:
            for n in range(1, 61):
                bn = mpmath.mpf(str(b.subs(N, n).evalf(40)))
                hn = mpmath.mpf(str(h.subs(N, n).evalf(40)))
                assert 0 <= bn <= hn, (h, n)
