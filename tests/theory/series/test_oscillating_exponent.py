"""Powers of n with an oscillating exponent, b_n = P(n) n^E(theta_n)
(theory.series.oscillating_exponent): divergence where E exceeds -1 - p at some angle, and
nothing claimed at the boundary or where the series converges.

The verdicts are derived by hand in the comments; the key inequality of each certificate,
b_n >= max(0, min(1, E - e*))/n, is checked against mpmath at n = 1 .. 3000 here."""

import json
import re

import mpmath
import pytest

from theory.series.expressions import N, parse_expression
from theory.series.oscillating_exponent import exponent_split, oscillating_exponent_test
from theory.trf.cli import main

DIVERGENT = [
    # sin(n) <= -1/2 on an arc of length 2 pi/3 > 1, which the angle n mod 2 pi (step 1)
    # enters at least once in every 7 consecutive n; there b_n >= n^-1: the sum over those
    # n is at least sum_j 1/(7 j + 7) = oo
    "1/n**(3/2 + sin(n))",
    # the same arc: b_n = n^(-1 - sin n) >= n^(-1/2) there
    "exp(-log(n)*sin(n))/n",
    # cos(2n) >= 1/2 on arcs of length 2 pi/3 > 2 around 0 mod 2 pi, entered by 2n (step 2)
    # once in every 4 consecutive n; there b_n >= n^(-1/2) log n
    "log(n)*n**(cos(2*n) - 1)",
    # narrow arcs: sin(n) < -0.995 has a positive density of n (Weyl equidistribution of
    # n mod 2 pi), and there b_n >= n^(-0.995); the same for cos(sqrt(2) n) < -0.95 below
    "1/n**(199/100 + sin(n))",
    "n**(-2 - cos(sqrt(2)*n) + 1/10)",
    # E = -2 sin(n) - 299/100 reaches -0.99 > -1 (sin n = -1): a very narrow arc
    "n**(-3 - 2*sin(n) + 1/100)",
]

NOT_CLAIMED = [
    "1/n**(2 + sin(n))",  # max E = -1 exactly: the boundary, not decided by this rule
    "n**(-21/10 - sin(n))",  # b_n <= n^(-11/10): converges
    "n**(-sin(n)**2)/n**(6/5)",  # b_n <= n^(-6/5): converges
    "n**(-2 - cos(pi*n/3 + 1)/2)",  # a period of 6: not equidistributed, other rules
]


@pytest.mark.parametrize("formula", DIVERGENT)
def test_divergent(formula):
    d = oscillating_exponent_test(parse_expression(formula))
    assert d is not None and d.converges is False, formula
    e_star = mpmath.mpf(
        parse_expression(re.search(r"e\* = ([-0-9/]+):", d.certificate).group(1)).evalf(40)
    )
    P, E = exponent_split(parse_expression(formula))
    with mpmath.workdps(30):
        for n in range(3, 3001):
            e = mpmath.mpf(E.subs(N, n).evalf(40))
            pn = mpmath.mpf(P.subs(N, n).evalf(40))
            h = max(0, min(1, e - e_star))
            # for these P, P n^e* >= 1/n holds from n = 3 on (p + e* > -1)
            assert pn * mpmath.mpf(n) ** e >= h / n, (formula, n)


@pytest.mark.parametrize("formula", NOT_CLAIMED)
def test_nothing_claimed(formula):
    assert oscillating_exponent_test(parse_expression(formula)) is None


@pytest.mark.parametrize("formula", ["1/n**(3/2 + sin(n))", "1/n**(199/100 + sin(n))"])
def test_the_command_says_diverges(capsys, formula):
    assert main([f"--rpe={formula}", "--verdict-only", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["converges"] is False and "oscillating exponent" in out["certificate"]


def test_convergent_side_stays_convergent(capsys):
    """n^(-21/10 - sin n) <= n^(-11/10): the command says converges, never diverges."""
    assert main(["--rpe=n**(-21/10 - sin(n))", "--verdict-only", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["converges"] is True
