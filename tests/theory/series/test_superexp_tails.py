"""Super-exponential terms (theory.series.superexp_tail): B from a ratio bound in log space, checked
against mpmath sums at 60 digits (the terms left out are below 1e-100 of the first), and the
huge exponents of exp(-n**(10**10)), whose B is e^-1 + e^(-2^(10^10)) + ..., with TRF = 1."""

import json

import mpmath
import pytest
from flint import arb

from theory.series.arb_eval import NotCertified, arb_function
from theory.series.enclosure import arb_bounds
from theory.series.expressions import N
from theory.series.expressions import parse_expression as P
from theory.series.superexp_tail import SuperExpTail
from theory.trf.cli import main


@pytest.mark.parametrize(
    "text,n0,f,cut",
    [  # cut: the terms from there on are below 1e-100 of the sum (left out of the reference)
        ("exp(-n**2)", 1, lambda n: mpmath.exp(-(n**2)), 20),
        ("exp(-2**n)", 1, lambda n: mpmath.exp(-(2**n)), 10),
        ("exp(-n**n)", 1, lambda n: mpmath.exp(-(n**n)), 8),
        ("exp(-exp(n**2))", 1, lambda n: mpmath.exp(-mpmath.exp(n**2)), 4),
        ("3*n**2*exp(-n**3)", 2, lambda n: 3 * n**2 * mpmath.exp(-(n**3)), 12),
        ("2**(-n**2)", 0, lambda n: mpmath.mpf(2) ** (-(n**2)), 20),
    ],
)
def test_engine_against_direct_sums(text, n0, f, cut):
    t = SuperExpTail(P(text), n0)
    with mpmath.workdps(60):
        terms = [f(mpmath.mpf(n)) for n in range(n0, cut)]
        assert f(mpmath.mpf(cut)) < mpmath.mpf(10) ** -100 * terms[0]
        for a in range(n0, n0 + 3):
            ref = mpmath.fsum(terms[a - n0 :])
            lo, hi = arb_bounds(t.tail(a))
            assert lo <= ref <= hi, (text, a, lo, ref, hi)
            assert hi - lo <= mpmath.mpf(10) ** -45 * ref, (text, a)


def test_huge_exponent_from_two_terms():
    """sum_{n>=1} exp(-n^(10^10)) = e^-1 + e^(-2^(10^10)) + ...: every term after the first is
    below 10^-(10^9) (mpmath, 50 digits, for e^-1)."""
    for text in ("exp(-n**(10**10))", "exp(-n**(15*10**9))"):
        lo, hi = arb_bounds(SuperExpTail(P(text), 1).tail(1))
        with mpmath.workdps(50):
            e1 = mpmath.exp(-1)
            assert lo <= e1 + mpmath.mpf(10) ** -48 and e1 - mpmath.mpf(10) ** -48 <= hi
            assert hi - lo < mpmath.mpf(10) ** -50


def test_exponents_with_no_digits_left_in_balls():
    """exp(-n**(10**100)), exp(-n**(10**400)): 3^(10^400) is a ball with no digits, so the
    ratio b_3/b_2 is bounded by the first slope, 1 - 2^(10^400), which concavity carries to
    every later one (before: refused, and the CLI spent its budget for a lower bound of B
    below b_1).  B = e^-1 + (terms below e^(-2^(10^100))) (mpmath, 50 digits)."""
    for text in ("exp(-n**(10**100))", "exp(-n**(10**400))"):
        t = SuperExpTail(P(text), 1)
        lo, hi = arb_bounds(t.tail(1))
        with mpmath.workdps(50):
            e1 = mpmath.exp(-1)
            assert lo <= e1 + mpmath.mpf(10) ** -48 and e1 - mpmath.mpf(10) ** -48 <= hi
            assert hi - lo < mpmath.mpf(10) ** -50
        assert t.tail(2).upper() < arb(10) ** -(10**6)


def test_cli_certifies_b_and_exact_trf(capsys):
    assert main(["--rpe", "exp(-n**(10**10))", "--eps", "0.1", "1e-30", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["certified"] is True
    with mpmath.workdps(50):  # B = e^-1 (mpmath) to far more than the printed digits
        assert mpmath.mpf(out["sum_lo"]) <= mpmath.exp(-1) <= mpmath.mpf(out["sum_hi"])
    assert [(t["value"], t["exact"]) for t in out["trf"]] == [(1, True), (1, True)]


@pytest.mark.parametrize(
    "text",
    [
        "1/n**2",  # the ratio tends to 1
        "exp(-sqrt(n))",  # likewise
        "exp(-n)",  # ratio e^-1 > 1/256 everywhere (the geometric engine's case)
        "exp(n**2)",  # growing
        # ratio e^-10 at first, but log b_n is convex: the ratios grow (and the series diverges)
        "exp(-10*n + n**2/1000)",
        "exp(-n**2)*(2 + sin(n))",  # a factor that is not c n^p e^X
    ],
)
def test_refused(text):
    with pytest.raises(NotCertified):
        SuperExpTail(P(text), 1)


def test_integer_powers_by_squaring():
    """n**(10**10) at n = 3 in ball arithmetic as python-flint's own power (it once multiplied
    10^10 times)."""
    v = arb_function(N ** (10**10))(arb(3))
    assert (
        v.overlaps(arb(3) ** (10**10)) and v.rad() < v.mid() * arb(2) ** -20
    )  # 53 bits, 34 squarings
    assert arb_function(N**7)(arb(3)) == arb(3**7)


@pytest.mark.parametrize("start", [0, 1, 5])
def test_hyperbolic_secant_by_the_log_concave_ratio_bound(capsys, start):
    # 1/cosh(n) = 2/(e^n + e^-n): log b = log 2 - log(e^n + e^-n) is concave (L'' = -sech^2,
    # proved after simplification) and the term ratio falls below 1/2 (-> 1/e).
    # Reference: direct sum at 60 digits to n = 240 (the rest is below e^-240).
    code = main(["--rpe", "1/cosh(n)", "--start", str(start), "--json", "--eps", "0.1", "0.001"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["certified"]
    with mpmath.workdps(60):
        terms = [1 / mpmath.cosh(n) for n in range(start, 240)]
        B = mpmath.fsum(terms)
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        for t, eps in zip(out["trf"], ("0.1", "0.001"), strict=True):
            j, s = 0, mpmath.mpf(0)
            while B - s >= mpmath.mpf(eps) * B:  # R_j = B - S_j >= eps B: j terms too few
                s += terms[j]
                j += 1
            assert t["exact"] and t["value"] == j
