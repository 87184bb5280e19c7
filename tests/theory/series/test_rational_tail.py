"""Rational terms with rational poles (theory.series.rational_tail): tails in closed form and
TRF from them, against exact rationals and mpmath sums computed here."""

import json
from fractions import Fraction

import mpmath
import pytest
from flint import arb

from theory.series.arb_eval import NotCertified
from theory.series.expressions import parse_expression
from theory.series.rational_tail import RationalTail, partial_fractions
from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]


def _least_j(R, target: Fraction) -> int:
    """The least j >= 0 with R(j) < target, R decreasing (doubling, then bisection)."""
    hi = 1
    while not R(hi) < target:
        hi *= 2
    lo = hi // 2
    while hi - lo > 1:
        m = (lo + hi) // 2
        lo, hi = (lo, m) if R(m) < target else (m, hi)
    return hi


def test_telescoping_far_start_exact_trf(capsys):
    """2/(n(n + 2)) = 1/n - 1/(n + 2) from s = 10^15: B = 1/s + 1/(s + 1) and
    R_j = 1/(s + j) + 1/(s + j + 1) exactly (telescoping), so TRF(eps) is the least j with
    R_j < eps B, found here with Fractions."""
    s = 10**15
    assert main(["--rpe=2/(n**2 + 2*n)", "--start", str(s), "--json", "--eps", *map(str, EPS)]) == 0
    out = json.loads(capsys.readouterr().out)
    B = Fraction(1, s) + Fraction(1, s + 1)
    assert out["certified"]
    assert Fraction(out["sum_lo"]) <= B <= Fraction(out["sum_hi"])
    assert Fraction(out["sum_hi"]) - Fraction(out["sum_lo"]) < B * Fraction(1, 10**18)
    for t in out["trf"]:
        e = Fraction(repr(t["eps"]))
        j = _least_j(lambda i: Fraction(1, s + i) + Fraction(1, s + i + 1), e * B)
        assert t["exact"] and t["value"] == j, (t, j)


def test_tie_is_decided_exactly(capsys):
    """1/(n(n+1)(n+2)(n+3)): R_j = 1/(3 (j+1)(j+2)(j+3)), B = 1/18 (telescoping); at eps = 0.1
    R_2 = 1/180 = eps B exactly, so TRF = 3 (R_2 is not below eps B)."""
    assert main(["--rpe=1/(n*(n+1)*(n+2)*(n+3))", "--json", "--eps", "0.1", "0.001"]) == 0
    out = json.loads(capsys.readouterr().out)
    B = Fraction(1, 18)
    assert Fraction(out["sum_lo"]) <= B <= Fraction(out["sum_hi"])
    for t in out["trf"]:
        R = lambda j: Fraction(1, 3 * (j + 1) * (j + 2) * (j + 3))  # noqa: E731
        assert t["exact"] and t["value"] == _least_j(R, Fraction(repr(t["eps"])) * B), t
    assert out["trf"][0]["value"] == 3


@pytest.mark.parametrize(
    "formula, scale",
    [
        ("exp(5000)/(n**2 + n)", lambda: mpmath.exp(5000)),  # a ties case: R_9 = B/10 exactly
        ("pi/(n**2 + 3*n + 2)", lambda: mpmath.pi / 2),  # pi/((n + 1)(n + 2)): R_j = pi/(j + 2)
    ],
)
def test_constant_factor_keeps_exact_trf(capsys, formula, scale):
    """c/((n + a)(n + a + 1)) with an irrational c > 0: B = c/(a + 1) from the telescoping sum
    (mpmath at 40 digits) and R_j = c/(j + a + 1) exactly, so TRF(eps) = the least j with
    1/(j + a + 1) < eps/(a + 1), ties included (the constant does not change TRF)."""
    assert main([f"--rpe={formula}", "--json", "--eps", *map(str, EPS)]) == 0
    out = json.loads(capsys.readouterr().out)
    a = 0 if "n**2 + n" in formula else 1
    with mpmath.workdps(40):
        c = scale() * (a + 1)  # the constant: B = c/(a + 1)
        B = c / (a + 1)
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        assert mpmath.mpf(out["sum_hi"]) - mpmath.mpf(out["sum_lo"]) < B * mpmath.mpf(10) ** -18
    for t in out["trf"]:
        e = Fraction(repr(t["eps"]))
        j = _least_j(lambda i: Fraction(1, i + a + 1), e * Fraction(1, a + 1))
        assert t["exact"] and t["value"] == j, (t, j)


def test_constant_factor_in_closed_form():
    """The engine itself takes c R(n) (before, such terms went to the slower Taylor blocks):
    sum_(n >= 1) e^5000/(n(n + 1)) = e^5000 (mpmath at 40 digits), R_3 = e^5000/4."""
    t = RationalTail(parse_expression("exp(5000)/(n**2 + n)"), 1)
    with mpmath.workdps(40):
        ref = mpmath.exp(5000)
    assert t.tail(1).overlaps(arb(mpmath.nstr(ref, 40), f"{ref * mpmath.mpf(10) ** -38}"))
    assert t.tail(1).rad() < t.tail(1).mid() * arb(10) ** -40
    assert t.tail(4).overlaps(t.tail(1) / 4) and t.exact_tail(4) == Fraction(1, 4)
    with pytest.raises(NotCertified):  # a negative constant is left to the other engines
        RationalTail(parse_expression("-exp(5)/(n**2 + n)"), 1)


# (formula, mpmath term): poles that are not integer-spaced, or repeated (ball arithmetic)
BALL_CASES = [
    (
        "1/((n + 1/2)*(n + 1/3)*(n + 2))",
        lambda n: 1 / ((n + 0.5) * (n + mpmath.mpf(1) / 3) * (n + 2)),
    ),
    ("1/(n**2*(n + 1)**2)", lambda n: 1 / (n**2 * (n + 1) ** 2)),
    ("(3*n + 1)/(n**2*(2*n + 1)**2)", lambda n: (3 * n + 1) / (n**2 * (2 * n + 1) ** 2)),
]


@pytest.mark.parametrize("case", BALL_CASES, ids=[c[0] for c in BALL_CASES])
def test_ball_tails_against_mpmath(case):
    """The closed-form tails from a = 1 and a = 7 hold mpmath.nsum at 40 digits (Richardson /
    Euler-Maclaurin extrapolation, independent of the partial fractions) and are narrow."""
    formula, term = case
    t = RationalTail(parse_expression(formula), 1)
    assert not t.exact
    for a in (1, 7):
        with mpmath.workdps(40):
            ref = mpmath.nsum(term, [a, mpmath.inf])
        enc = t.tail(a)
        assert enc.overlaps(arb(mpmath.nstr(ref, 35)) + arb(0, 1e-33)), (a, enc, ref)
        assert enc.rad() < 1e-40 * abs(enc.mid())


def test_cli_ball_case_trf(capsys):
    """TRF from the ball tails (non-integer poles): exact, and the least j with R_j < eps B
    for R_j = B - (b_1 + ... + b_j) summed with mpmath (B from mpmath.nsum at 40 digits)."""
    formula, term = BALL_CASES[0]
    assert main([f"--rpe={formula}", "--json", "--eps", "0.1", "0.01"]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(40):
        B = mpmath.nsum(term, [1, mpmath.inf])
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        for t in out["trf"]:
            eps = mpmath.mpf(repr(t["eps"]))
            j = t["value"]
            R_j = B - mpmath.fsum(term(mpmath.mpf(n)) for n in range(1, j + 1))
            R_prev = R_j + term(mpmath.mpf(j))
            assert t["exact"] and R_j < eps * B <= R_prev, t


def test_partial_fractions_refuses():
    """Irrational or complex poles, too slow a decay, and non-rational terms are not taken."""
    for text in ("1/(n**2 + 1)", "1/(n**2 - 2)", "1/(n + 1)", "exp(-n)", "1/n**2"):
        b = parse_expression(text)
        parts = partial_fractions(b)
        assert parts is None or len({r for r, _, _ in parts}) < 2, text
