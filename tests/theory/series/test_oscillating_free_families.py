"""Oscillating families with free parameters decided by Dirichlet's test on the collected
oscillating factor, periodic signs of mean 0 and alternating quotients
(theory/series/oscillating_families.py), the same series with values put in, and the far
sign of a derivative that vanishes at t = 0 (theory/series/eventual_signs.py).  Each truth
is argued in a comment; the grids over the whole range are in test_family_parts.py (slow)."""

import itertools
import json

import mpmath
import pytest
import sympy as sp

from theory.series.convergence import decide_in_process
from theory.series.decision import SeriesError
from theory.series.eventual_signs import derivative_sign, signed_derivatives
from theory.series.expressions import N, parse_expression
from theory.series.oscillating import DirichletTail
from theory.series.oscillating_families import power_sum_zero_region
from theory.series.sign_cases import holds
from theory.trf.cli import main

R = sp.Rational
AXIS = (-1, R(-1, 2), 0, R(1, 2), 1)


def _zero_truth(terms, values):
    """sum c_i n^e_i -> 0, by collecting equal exponents (independent of the region)."""
    collected = {}
    for c, e in terms:
        v = e.subs(values)
        collected[v] = collected.get(v, 0) + c
    return all(e < 0 for e, c in collected.items() if c != 0)


@pytest.mark.parametrize(
    "coeffs",
    [(1, -1), (1, 2), (2, -2), (1, -1, 1), (1, 1, -2)],
)
def test_power_sum_zero_region_against_collecting(coeffs):
    p, q, r = sp.symbols("p q r", real=True)
    exps = (-p, -q, -r)[: len(coeffs)]
    terms = list(zip(coeffs, exps))
    region = power_sum_zero_region(terms)
    for values in itertools.product(AXIS, repeat=len(coeffs)):
        point = dict(zip((p, q, r), values))
        assert holds(region, point) == _zero_truth(terms, point), (terms, point, region)


CONDITIONS = [
    # a periodic sign of mean 0 times n^-p: its partial sums are bounded, so Dirichlet's
    # test where n^-p -> 0 (p > 0); p <= 0: the terms do not tend to 0
    ("(-1)**floor(n/2)/n**p", "p", 1, "converges iff p > 0"),
    ("(-1)**floor(n/3)/n**p", "p", 1, "converges iff p > 0"),
    # signs 1, 1, -1 over a period of 3: mean 1/3, so (1/3) sum n^-p plus a Dirichlet part
    # where n^-p -> 0: converges iff p > 1 (p <= 0: terms do not tend to 0)
    ("(-1)**floor(2*n/3)/n**p", "p", 1, "converges iff p > 1"),
    # (-1)^n/(n^p + (-1)^n) = (-1)^n n^-p - n^-2p/(1 + (-1)^n n^-p): converges iff p > 1/2;
    # p = 0: b_3 = -1/0, so the condition holds where the terms are defined
    (
        "(-1)**n/(n**p + (-1)**n)",
        "p",
        2,
        "converges iff p > 1/2 (among the values of p for which every term b_n, n >= 2, "
        "is defined)",
    ),
    # sin(a n)/n: 0 for a in pi Z, Dirichlet elsewhere: converges for every a
    ("sin(a*n)/n", "a", 1, "converges for every real a"),
]


@pytest.mark.parametrize("text, names, start, condition", CONDITIONS)
def test_condition(text, names, start, condition):
    d = decide_in_process(parse_expression(text, params=tuple(names.split())), start)
    assert d.condition == condition, d.certificate


def test_two_oscillating_parts_condition_on_a_grid():
    # sin(n)(n^-p - n^-q): all terms 0 where p = q; else n^-p - n^-q ~ +-n^-min(p, q),
    # Dirichlet iff min(p, q) > 0, terms not -> 0 otherwise
    b = parse_expression("sin(n)/n**p - sin(n)/n**q", params=("p", "q"))
    d = decide_in_process(b, 1)
    cond = d.details["condition"]
    syms = {s.name: s for s in b.free_symbols}
    for x, y in itertools.product(AXIS, AXIS):
        truth = x == y or (x > 0 and y > 0)
        assert holds(cond, {syms["p"]: x, syms["q"]: y}) == truth, (x, y, d.condition)


def test_undefined_first_term_gives_no_condition():
    # at n = 1, n^p + (-1)^n = 0 for every p: the series is defined for no value, which
    # is an error naming the term (as without parameters), never a condition
    with pytest.raises(SeriesError, match="b_1"):
        decide_in_process(parse_expression("(-1)**n/(n**p + (-1)**n)", params=("p",)), 1)


def test_cosine_with_free_frequency_leaves_out_the_lattice():
    # cos(a n)/n: Dirichlet where a is not in 2 pi Z (partial sums of cos(a n) at most
    # 1/|sin(a/2)|); at a in 2 pi Z every term is 1/n (harmonic): diverges
    b = parse_expression("cos(a*n)/n", params=("a",))
    d = decide_in_process(b, 1)
    assert d.converges is None
    assert d.condition == "converges iff cos(a) != 1", d.certificate
    cond = d.details["condition"]
    (a,) = b.free_symbols - {N}
    points = [(0, False), (2 * sp.pi, False), (-4 * sp.pi, False), (sp.pi, True)]
    points += [(R(1, 2), True), (-3, True), (R(44, 7), True)]  # 44/7 is near 2 pi, not in it
    for value, truth in points:
        assert holds(cond, {a: value}) is truth, value
    # the series with the values put in: the lattice point diverges, the others converge
    for value, truth in [(2 * sp.pi, False), (R(44, 7), True)]:
        assert decide_in_process(b.subs(a, value), 1).converges is truth, value


def test_cosine_with_free_frequency_over_a_summable_envelope():
    # cos(a n)/n^2: |b_n| <= 1/n^2 for every a
    d = decide_in_process(parse_expression("cos(a*n)/n**2", params=("a",)), 1)
    assert d.condition == "converges for every real a", d.certificate


def test_cosine_sum_at_a_value_holds_the_closed_form(capsys):
    # sum cos(a n)/n = -log(2 sin(a/2)) for 0 < a < 2 pi (the real part of -log(1 - e^(ia)))
    assert main(["--rpe", "cos(n/2)/n", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["converges"] is True and out["certified"]
    with mpmath.workdps(40):
        closed = -mpmath.log(2 * mpmath.sin(mpmath.mpf(1) / 4))
        assert mpmath.mpf(out["sum_lo"]) <= closed <= mpmath.mpf(out["sum_hi"])


VALUES = [
    # sin(n)(n - sqrt(n)): n - sqrt(n) -> oo and sin(n) does not tend to 0
    ("sin(n)/n**(-1) - sin(n)/n**(-1/2)", 1, False),
    ("sin(n) - sin(n)*n**(1/5)", 1, False),
    # Dirichlet with a periodic sign of mean 0 (period 6 and 8)
    ("(-1)**floor(n/3)/n**(1/5)", 1, True),
    ("(-1)**floor(n/4)*n/(n**2 + 1)", 1, True),
    # (-1)^n/(n^p + (-1)^n) at p = 3/10, 1/2 (diverge) and 7/10 (converges)
    ("(-1)**n/(n**(3/10) + (-1)**n)", 2, False),
    ("(-1)**n/(sqrt(n) + (-1)**n)", 2, False),
    ("(-1)**n/(n**(7/10) + (-1)**n)", 2, True),
]


@pytest.mark.parametrize("text, start, truth", VALUES)
def test_values(text, start, truth):
    d = decide_in_process(parse_expression(text), start)
    assert d.converges is truth, d.certificate


def test_far_sign_past_a_zero_at_t0():
    # f(x) = 1 - cos(1/x) - 3/x^3: with t = 1/x, G(t) = t^2/2 - 3t^3 - ..., positive only
    # for t below about 1/6; G''(xi)/2 = cos(xi)/2 - 9 xi > 0 on [0, 1/64] but not on [0, 1/2]
    x = N
    f = 1 - sp.cos(1 / x) - 3 / x**3
    assert derivative_sign(f, 2, past_zero=True) is None
    assert derivative_sign(f, 64, past_zero=False) is None
    assert derivative_sign(f, 64, past_zero=True) == 1
    with mpmath.workdps(30):
        assert all(1 - mpmath.cos(mpmath.mpf(1) / k) - 3 / mpmath.mpf(k) ** 3 > 0 for k in (64, 65))
        assert 1 - mpmath.cos(mpmath.mpf(1) / 5) - 3 / mpmath.mpf(5) ** 3 < 0


def test_alternating_tail_of_n_one_minus_cos():
    # g = n (1 - cos(1/n)) = 2 n sin^2(1/(2n)): g' = 1 - cos(1/n) - sin(1/n)/n vanishes to
    # second order at t = 1/n = 0, so its sign comes from the Taylor coefficient
    g = N * (1 - sp.cos(1 / N))
    s = signed_derivatives(g, 1)
    assert s is not None and s.orders >= 2
    t = DirichletTail(parse_expression("(-1)**n*n*(1-cos(1/n))"), 1)
    b = t.tail(1)
    # mpmath.nsum(lambda n: (-1)**n*n*(1 - cos(1/n)), [1, inf], method="alternating") and
    # method="levin" at 40 digits agree on
    with mpmath.workdps(60):
        ref = mpmath.mpf("-0.3103351334745842245745888478800106275976")
        mid = mpmath.mpf(b.mid().str(55, radius=False))
        rad = mpmath.mpf(float(b.rad())) * (1 + mpmath.mpf(10) ** -4)
        # the reference carries 40 digits: allow its last-digit rounding on top of the ball
        assert abs(mid - ref) <= rad + mpmath.mpf(10) ** -39, (b, ref)
    assert b.rad() < 1e-15
