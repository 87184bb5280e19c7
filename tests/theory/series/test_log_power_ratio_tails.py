"""Factorial-like terms with a power whose exponent grows (n**log(n), 2**(n*log(n))): the
term ratio bounded below 1 from some n on (theory.series.ratio_monotone: the factors' ratios
one by one, signs of derivatives with real constant coefficients), so B is certified and
the TRFs exact, against mpmath sums computed here."""

import json

import mpmath
import pytest
import sympy as sp

from tests.theory.series.cli_checks import assert_certified_by_terms
from tests.theory.series.marks import fast_first
from theory.series.eventual_signs import derivative_sign
from theory.series.expressions import N, parse_expression
from theory.series.ratio_monotone import factorwise_ratio_bound
from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]


def _one(text):
    """The typed decimal as the parser reads it (exactly), at the working precision."""
    return mpmath.mpf(sp.Rational(text).p) / sp.Rational(text).q


# (formula, term): with n! >= (n/e)^n, b_n <= e^(log(n)^2 - n log(n) + n) <= e^-n for
# n >= 100 (log(n)^2 <= n (log(n) - 2) there), and
# 2^(n log n)/n!^2 <= e^(-n log(n) (2 - log 2) + 2n) <= e^-n for n >= 10 (also with the base
# 2.0000000000000004): the terms n >= 200 add less than e^-199 < 1e-80 (by hand)
CASES = [
    ("n**log(n)/factorial(n)", lambda n: n ** mpmath.log(n) / mpmath.factorial(n)),
    (
        "n**(1.0000000000000002*log(n))/factorial(n)",  # one unit in the 16th digit
        lambda n: n ** (_one("1.0000000000000002") * mpmath.log(n)) / mpmath.factorial(n),
    ),
    (
        "2**(n*log(n))/factorial(n)**2",
        lambda n: 2 ** (n * mpmath.log(n)) / mpmath.factorial(n) ** 2,
    ),
    (
        "2.0000000000000004**(n*log(n))/factorial(n)**2",
        lambda n: _one("2.0000000000000004") ** (n * mpmath.log(n)) / mpmath.factorial(n) ** 2,
    ),
]


@pytest.mark.parametrize("case", fast_first(CASES, 1), ids=[c[0] for c in CASES])
def test_sum_and_trf(capsys, case):
    formula, term = case
    assert main([f"--rpe={formula}", "--json", "--time-limit", "60", "--eps", *map(str, EPS)]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(50):
        assert_certified_by_terms(out, [term(mpmath.mpf(n)) for n in range(1, 200)])


def test_the_perturbation_is_visible():
    """The one-unit change of the typed constant moves B in its 16th digit, far outside
    the certified enclosure of the exact constant (the cases above hold both)."""
    with mpmath.workdps(50):
        exact = mpmath.fsum(CASES[0][1](mpmath.mpf(n)) for n in range(1, 200))
        moved = mpmath.fsum(CASES[1][1](mpmath.mpf(n)) for n in range(1, 200))
        assert abs(moved - exact) > exact * mpmath.mpf(10) ** -17


def test_ratio_bound_of_log_power():
    """n^(log n)/n!: the factor n^(log n) = e^(log(n)^2) has (log)'' = 2 (1 - log n)/n^2 < 0
    from n = 3 on, so its ratio is at most its value at the start; times 1/(n + 1).  The
    bound q is checked against mpmath: the ratio's supremum from P on is at P (the ratio
    decreases there), and q is at least that."""
    q, P, s, _how = factorwise_ratio_bound(parse_expression("n**log(n)/factorial(n)"), 1)
    assert s == 1 and q < 1
    with mpmath.workdps(30):
        r = [
            mpmath.mpf(n + 1) ** mpmath.log(n + 1) / (mpmath.mpf(n) ** mpmath.log(n) * (n + 1))
            for n in range(P, P + 200)
        ]
        assert max(r) == r[0] <= q


def test_signs_with_real_coefficients():
    """(2 - log 2) n - log 2 > 0 from n = 1 on (its root log 2/(2 - log 2) = 0.53...), and
    n log 2 - 1 changes sign at 1/log 2 = 1.44...: no sign from 1, + from 2."""
    lg = sp.log(2)
    assert derivative_sign((2 - lg) * N - lg, 1) == 1
    assert derivative_sign(lg * N - 1, 1) is None
    assert derivative_sign(lg * N - 1, 2) == 1
    assert derivative_sign(-(lg * N - 1), 2) == -1
