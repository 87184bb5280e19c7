"""Terms with a moving power, base and exponent both depending on n ((1 + 1/n)^(n^2)/3^n):
the term ratio is proved below a q < 1 by its monotonicity (theory.series.ratio_monotone),
then the head is summed and the rest is geometric (theory.series.ratio_tails.RatioTail).
B certified and every TRF exact against mpmath sums computed here."""

import json

import mpmath
import pytest

from tests.theory.series.cli_checks import assert_certified_by_terms
from theory.series.expressions import parse_expression
from theory.series.ratio_tails import power_ratio
from theory.trf.cli import main

# (formula, mpmath term, terms summed).  The rest beyond the last term is negligible:
# log(1 + x) <= x - x^2/2 + x^3/3 (x > 0, alternating series) gives
# (1 + c/n)^(n^2) <= e^(c n - c^2/2 + c^3/(3n)), and log(1 + x) >= x - x^2/2 gives
# (n/(n + 1))^(n^2) <= e^(-n + 1/2); so b_n <= K rho^n with rho = e/3, e^2/8, 1/e, and the
# rest after the last term is below 10^-45 in each case
CASES = [
    ("(1+1/n)**(n**2)/3**n", lambda n: (1 + 1 / n) ** (n**2) / 3**n, 1400),
    ("(1+2/n)**(n**2)/8**n", lambda n: (1 + 2 / n) ** (n**2) / 8**n, 1600),
    ("(1-1/(n+1))**(n**2)*n**3", lambda n: (1 - 1 / (n + 1)) ** (n**2) * n**3, 300),
    # b_1 = 0^1 = 0 exactly (exp(n^2 log 0) is not a finite ball); then as the one above
    ("(1-1/n)**(n**2)", lambda n: (1 - 1 / n) ** (n**2), 300),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_sum_and_exact_trf(capsys, case):
    formula, term, count = case
    args = [f"--rpe={formula}", "--json", "--time-limit", "60", "--eps", "0.1", "0.01", "1e-6"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(60):
        terms = [term(mpmath.mpf(n)) for n in range(1, count + 1)]
        assert_certified_by_terms(out, terms)


def test_a_ratio_tending_to_one_is_not_bounded(capsys):
    """(1 + 1/n)^(n^2)/e^n -> e^(-1/2): the series diverges, and no ratio bound is claimed."""
    assert main(["--rpe=(1+1/n)**(n**2)/exp(n)", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["converges"] is False, out


@pytest.mark.parametrize(
    "formula",
    [
        "factorial(n)/n**n",  # factorial-like: term_ratio's gammasimp, not this path
        "sin(n)**n/2**n",  # oscillating
        "n**(-2)",  # no moving power
    ],
)
def test_power_ratio_only_for_smooth_moving_powers(formula):
    assert power_ratio(parse_expression(formula)) is None
