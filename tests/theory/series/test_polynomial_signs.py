"""Signs (-1)**P(n) with P an integer-valued polynomial: periodic, split by residue class
(theory/series/periodic.py, ``_reduce_sign``), then Dirichlet's test on the periodic sign
of mean 0, with and without a free parameter.  Truths: each sign pattern is checked
against Python's integers; the sums against closed forms."""

import json

import mpmath
import pytest
import sympy as sp

from theory.series.convergence import decide_in_process
from theory.series.expressions import N, parse_expression
from theory.series.periodic import residue_classes
from theory.trf.cli import main


def _sign(text, n):
    """(-1)**P(n) from P evaluated at the integer n in exact rationals (P(n) must be an
    integer); the text goes through the whitelist parser, never sympify."""
    v = parse_expression(text).subs(N, n)
    assert v.is_Integer, (text, n)
    return -1 if int(v) % 2 else 1


@pytest.mark.parametrize(
    "exponent, period",
    [
        ("n*(n+1)/2", 4),
        ("n*(n-1)/2", 4),
        ("(n**2+n)/2", 4),
        ("n**3", 2),
        ("n*(n+1)*(n+2)/6", 12),
        ("n**2*(n+1)**2/4", 4),
    ],
)
def test_classes_match_the_integer_parities(exponent, period):
    L, classes = residue_classes(parse_expression(f"(-1)**({exponent})/n"))
    assert L == period
    for n in range(1, 60):
        m, r = divmod(n, L)
        if m == 0:
            continue
        value = classes[r].subs(N, m)
        assert value == sp.Rational(_sign(exponent, n), n), (exponent, n, value)


@pytest.mark.parametrize("text", ["(-1)**(n**2/2)/n", "(-1)**(n/2)/n", "(-1)**(n**2/3)/n"])
def test_non_integer_exponents_are_not_reduced(text):
    # at odd n the exponent n^2/2 is not an integer: (-1)**(1/2) = I, not a sign
    assert residue_classes(parse_expression(text)) is None


VERDICTS = [
    # signs of period 4 (+, -, -, + from n = 0), mean 0: Dirichlet's test for n^-p -> 0
    ("(-1)**(n*(n+1)/2)/n**0.3", True),
    ("(-1)**(n*(n-1)/2)/n", True),
    ("(-1)**((n**2+n)/2)/n", True),
    # |b_n| = 1 does not tend to 0
    ("(-1)**(n*(n+1)/2)", False),
]


@pytest.mark.parametrize("text, truth", VERDICTS)
def test_verdicts(text, truth):
    d = decide_in_process(parse_expression(text), 1)
    assert d.converges is truth, d.certificate


def test_free_exponent_condition():
    # b_n = s(n) n^-p, s of period 4 and mean 0: Dirichlet where n^-p -> 0 (p > 0);
    # for p <= 0, |b_n| >= 1 does not tend to 0
    d = decide_in_process(parse_expression("(-1)**(n*(n+1)/2)/n**p", params=("p",)), 1)
    assert d.condition == "converges iff p > 0", d.certificate


@pytest.mark.parametrize(
    "exponent, closed",
    [
        # sum over k of -1/(4k+1) + 1/(4k+3) = -pi/4 and -1/(4k+2) + 1/(4k+4) = -log(2)/2
        ("n*(n+1)/2", lambda: -mpmath.pi / 4 - mpmath.log(2) / 2),
        # signs +, -, -, + from n = 1: pi/4 - log(2)/2
        ("n*(n-1)/2", lambda: mpmath.pi / 4 - mpmath.log(2) / 2),
    ],
)
def test_certified_sum_holds_the_closed_form(capsys, exponent, closed):
    assert main(["--rpe", f"(-1)**({exponent})/n", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["converges"] is True and out["certified"]
    with mpmath.workdps(40):
        assert mpmath.mpf(out["sum_lo"]) <= closed() <= mpmath.mpf(out["sum_hi"])
