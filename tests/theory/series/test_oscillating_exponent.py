"""Powers of n with an oscillating exponent, b_n = P(n) n^E(theta_n)
(theory.series.oscillating_exponent): divergence where E exceeds -1 - p at some angle, and
nothing claimed at the boundary or where the series converges.

The verdicts are derived by hand in the comments; the key inequality of each certificate,
b_n >= max(0, min(1, E - e*))/n, is checked against mpmath at n = 1 .. 3000 here."""

import json
import re

import mpmath
import pytest
import sympy as sp

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
    # cos(n) <= -1/2 on an arc of length 2 pi/3 > 1 (every 7 consecutive n); there
    # b_n >= e^-1 n^(-1/2): a bounded positive factor of the angle beside the power
    "exp(sin(n))*n**(-1 - cos(n))",
]

# max E = -1 - p exactly, a rational, P/n^p -> K in (0, oo]: near the angle theta* of the
# maximum, |theta - theta*| <= 1/log(2N) gives b_n >= c/n for n in [N, 2N), and a share
# ~ 1/(pi log N) of those n lies there (Weyl; made effective by Mahler's bound on the
# irrationality of pi), so each dyadic block adds ~ 1/j: the series diverges
BOUNDARY = [
    "1/n**(2 + sin(n))",  # theta* = 3 pi/2
    "n**(-3 - 2*sin(n))",  # theta* = 3 pi/2
    "n**(-2 - cos(n))",  # theta* = pi
    "exp(1/n)/n**(101/100 + sin(3*n)/100)",  # theta = 3n, theta* = 3 pi/2, P -> 1
    "n**(-2 - sin(n)**2)*n",  # p = 1, max E = -2 at theta* = 0
    "log(n)*n**(-2 - sin(n))",  # P/n^0 = log n -> oo
    "n**(-2 + sin(n))*(2 + cos(n))",  # theta* = pi/2, the factor 2 + cos(n) >= 1
    "(2 + cos(n/3))*n**(-2 - sin(n/2))",  # E of the angle n/2 (a = 1/2), theta* = 3 pi/2
    "n**(-1 - Abs(sin(n)))",  # theta* = 0; |sin| is Lipschitz
]

NOT_CLAIMED = [
    # b_n = n^(-2 - sin n)/log n: P/n^p = 1/log n -> 0; the blocks add ~ 1/j^(3/2) by the
    # same count, so the series (heuristically) converges: no verdict may say diverges
    "n**(-2 - sin(n))/log(n)",
    # the frequency sqrt(2) is not rational: no effective bound on its discrepancy
    "n**(-2 - sin(sqrt(2)*n))",
    "n**(-11/10 - sin(n))/n**2 + n**(-2 - sin(n))",  # a sum: not one power of n
]

# max E < -1 - p: convergent by the certified bound on E
CONVERGENT = [
    "n**(-21/10 - sin(n))",  # E <= -11/10
    "n**(-sin(n)**2)/n**(6/5)",  # E <= -6/5
    "1/n**(19/10 + sin(n)**2*cos(n))",  # E <= -19/10 + 2/(3 sqrt(3)) = -1.515 (checked below)
    "n**(-2 - cos(pi*n/3 + 1)/2)",  # E <= -3/2 (a period of 6: no equidistribution needed)
    "n**(-2 - sin(2*n)*sin(3*n))",  # E <= -2 + 0.9079 (max of -sin 2t sin 3t, checked below)
    "n**(-5/2 + sin(n))*(2 + cos(n))",  # E <= -3/2, the factor <= 3
    "n**(-2 - Max(sin(n), cos(n)))",  # E <= -2 + 1/sqrt(2) (min of max(sin, cos) at 5 pi/4)
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
        for n in range(1000, 4001):
            e = mpmath.mpf(E.subs(N, n).evalf(40))
            pn = mpmath.mpf(P.subs(N, n).evalf(40))
            h = max(0, min(1, e - e_star))
            # for these P, P n^e* >= 1/n holds from n = 1000 on (p + e* > -1)
            assert pn * mpmath.mpf(n) ** e >= h / n, (formula, n)


@pytest.mark.parametrize("formula", BOUNDARY)
def test_divergent_at_the_boundary(formula):
    d = oscillating_exponent_test(parse_expression(formula))
    assert d is not None and d.converges is False and d.test.endswith("(boundary)"), formula


@pytest.mark.parametrize("formula", NOT_CLAIMED)
def test_nothing_claimed(formula):
    assert oscillating_exponent_test(parse_expression(formula)) is None


@pytest.mark.parametrize("formula", CONVERGENT)
def test_convergent_by_the_bound_on_e(formula):
    """The verdict, and max E + p < -1 checked on 20000 angles with mpmath (the maximum of
    sin^2 cos is 2/(3 sqrt 3) at cos = -1/sqrt 3)."""
    P, E = exponent_split(parse_expression(formula))
    d = oscillating_exponent_test(parse_expression(formula))
    assert d is not None and d.converges is True, formula
    e = sp.lambdify(N, E, modules="mpmath")
    with mpmath.workdps(20):
        top = max(e(2 * mpmath.pi * j / 20000) for j in range(20000))
        free = P.as_independent(sp.sin, sp.cos, as_Add=False)[0]  # the factor of the power
        p = mpmath.mpf(str(sp.limit(sp.log(free) / sp.log(N), N, sp.oo)))
    assert top + p < -1


@pytest.mark.parametrize("formula", ["1/n**(3/2 + sin(n))", "1/n**(199/100 + sin(n))"])
def test_the_command_says_diverges(capsys, formula):
    assert main([f"--rpe={formula}", "--start", "2", "--verdict-only", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["converges"] is False and "oscillating exponent" in out["certificate"]


@pytest.mark.parametrize(
    "formula, verdict",
    [
        ("n**(-21/10 - sin(n))", True),
        ("1/n**(2 + sin(n))", False),
        ("n**(-2 - sin(n))/log(n)", None),
    ],
)
def test_the_command(capsys, formula, verdict):
    assert main([f"--rpe={formula}", "--start", "2", "--verdict-only", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["converges"] is verdict


@pytest.mark.parametrize(
    "formula,condition,values",
    [
        # max(-sin) = 1, P = 1 (p = 0): -p + 1 < -1 iff p > 2; at p = 2 the boundary diverges
        ("n**(-p - sin(n))", "converges iff p > 2", {"2": False, "201/100": True, "3/2": False}),
        # max(-sin 2theta) = 1, P = 1 + 1/n -> 1: 1 - p + 1 < -1 iff p > 3
        ("n**(1-p-sin(2*n))*(1+1/n)", "converges iff p > 3", {"3": False, "31/10": True}),
    ],
)
def test_free_parameter_condition_and_its_values(capsys, formula, condition, values):
    """The condition with --free p, and the verdict at values on both sides and at the
    threshold itself from the numeric engine with --param (the same rules at one value)."""
    assert main([f"--rpe={formula}", "--free", "p", "--verdict-only", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["condition"] == condition
    for value, verdict in values.items():
        argv = [f"--rpe={formula}", "--param", f"p={value}", "--verdict-only", "--json"]
        assert main([*argv, "--time-limit", "60"]) == 0
        assert json.loads(capsys.readouterr().out)["converges"] is verdict, value
