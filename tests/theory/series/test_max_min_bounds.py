"""Max/Min terms decided through their arguments (theory.series.max_min_bounds) and summed
in their Abs-free form (theory.series.angle_means.max_min_free); references by hand:
Max(a, b) >= a, Max(a, b) <= a + b and Min(a, b) <= b for a, b >= 0, and
sum cos(n)/n = -ln(2 sin(1/2)) (Re -ln(1 - e^i))."""

import json

import mpmath
import pytest

from theory.series.convergence import decide
from theory.series.expressions import parse_expression
from theory.trf.cli import main


@pytest.mark.parametrize(
    "text, truth",
    [
        ("Max(sin(n)**2, 1/n)/n", False),  # >= sin(n)^2/n, mean 1/2 against 1/n
        ("Min(sin(n)**2, 1/n)/n", True),  # 0 <= . <= 1/n^2
        ("Max(Abs(cos(n)), 1/n**2)/n**2", True),  # <= (|cos n| + 1/n^2)/n^2
        ("Max(exp(-n), 1/n)", False),  # >= 1/n
        # Min(a, b) >= a b/M for a, b in [0, M]: >= |cos n|/n (mean 2/pi against 1/n)
        ("Min(Abs(cos(n)), 1/n)", False),
        ("Min(sin(n)**2, 1/n, 2)", False),  # >= sin(n)^2/(4n)
        ("Min(Abs(sin(n)), 1/sqrt(n))/sqrt(n)", False),  # >= |sin n|/n
        ("Min(Abs(cos(n)), 1/n**2)", True),  # <= 1/n^2
        ("Min(Abs(sin(n)), 1/n**1.5)", True),  # <= n^-1.5
    ],
)
def test_max_min_by_arguments(text, truth):
    assert decide(parse_expression(text), 1).converges is truth


def test_min_with_a_signed_argument_is_not_bounded_by_the_other():
    """Min(sin(n), 1/n)/n: Min <= 1/n only bounds it above; its negative parts
    -Max(-sin(n), 0)/n diverge, so the series diverges and must not be called convergent."""
    assert decide(parse_expression("Min(sin(n), 1/n)/n"), 1).converges is not True


def test_max_min_that_cancel_are_summed(capsys):
    code = main(["--rpe", "(Max(cos(n), 0) - Max(-cos(n), 0))/n", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["converges"] is True and out["certified"]
    with mpmath.workdps(30):
        ref = -mpmath.log(2 * mpmath.sin(mpmath.mpf(1) / 2))
        assert mpmath.mpf(out["sum_lo"]) <= ref <= mpmath.mpf(out["sum_hi"])
