"""Certified sums from a proved power majorant (theory.series.majorant_tail): terms such as
exp(cos(n))/n**2 oscillate too fast for the Taylor blocks, and c_- n^-p <= b_n <= c_+ n^-p
bounds their far tail.  References: Clausen-type sums (mpmath.clcos, mpmath.clsin, checked
against the polynomial closed form sum cos(nx)/n^2 = pi^2/6 - pi x/2 + x^2/4, 0 <= x <= 2 pi)
and the Bessel expansion exp(cos y) = I_0(1) + 2 sum_k I_k(1) cos(k y) (Abramowitz-Stegun
9.6.34), at 40 digits."""

import json

import mpmath
import pytest
import sympy as sp
from flint import arb

from theory.series.arb_eval import NotCertified
from theory.series.enclosure import arb_bounds
from theory.series.expressions import N
from theory.series.expressions import parse_expression as P
from theory.series.majorant_tail import MajorantTail
from theory.trf.cli import main

DPS = 40
EPS = [0.1, 0.01, 0.001]


def clcos(s, x):
    """sum_{n>=1} cos(n x)/n^s (mpmath.clcos; its argument reduced to [0, 2 pi))."""
    return mpmath.clcos(s, x)


def exp_cos_sum(s, scale=1):
    """sum_{n>=1} exp(cos(scale n))/n^s from the Bessel expansion of exp(cos y)."""
    total = mpmath.besseli(0, 1) * mpmath.zeta(s)
    for k in range(1, 60):  # I_k(1) < 1/(2^k k!): 1e-97 at k = 60
        total += 2 * mpmath.besseli(k, 1) * clcos(s, k * scale)
    return total


def exp_sin_sum(s, scale=1):
    """sum_{n>=1} exp(sin(scale n))/n^s: exp(sin y) = I_0(1) + 2 sum_k (-1)^k I_2k(1) cos(2ky)
    + 2 sum_k (-1)^k I_(2k+1)(1) sin((2k+1) y) (A&S 9.6.35 at y -> pi/2 - y)."""
    total = mpmath.besseli(0, 1) * mpmath.zeta(s)
    for k in range(1, 30):
        total += 2 * (-1) ** k * mpmath.besseli(2 * k, 1) * clcos(s, 2 * k * scale)
    for k in range(0, 30):
        total += 2 * (-1) ** k * mpmath.besseli(2 * k + 1, 1) * mpmath.clsin(s, (2 * k + 1) * scale)
    return total


def test_references_agree_with_closed_forms():
    """The references themselves: clcos against the polynomial, the Bessel expansions
    against exp(cos y), exp(sin y) at a few points."""
    with mpmath.workdps(DPS):
        assert abs(clcos(2, 1) - (mpmath.pi**2 / 6 - mpmath.pi / 2 + mpmath.mpf(1) / 4)) < 1e-35
        for y in (mpmath.mpf("0.3"), mpmath.mpf(2), mpmath.mpf(5)):
            c = mpmath.besseli(0, 1) + 2 * sum(
                mpmath.besseli(k, 1) * mpmath.cos(k * y) for k in range(1, 60)
            )
            s = mpmath.besseli(0, 1) + 2 * sum(
                (-1) ** k * mpmath.besseli(2 * k, 1) * mpmath.cos(2 * k * y) for k in range(1, 30)
            )
            s += 2 * sum(
                (-1) ** k * mpmath.besseli(2 * k + 1, 1) * mpmath.sin((2 * k + 1) * y)
                for k in range(30)
            )
            assert abs(c - mpmath.exp(mpmath.cos(y))) < 1e-35
            assert abs(s - mpmath.exp(mpmath.sin(y))) < 1e-35


def _head(text, lo, hi):
    g = sp.lambdify(N, P(text), "mpmath")
    return mpmath.fsum(g(mpmath.mpf(n)) for n in range(lo, hi))


def _reference(text, start):
    with mpmath.workdps(DPS):
        full = {
            "(2 + cos(n))/n**2": lambda: 2 * mpmath.zeta(2) + clcos(2, 1),
            "(3 - sin(n))/n**3": lambda: 3 * mpmath.zeta(3) - mpmath.clsin(3, 1),
            "(5 + 2*cos(3*n))/n**(5/2)": lambda: 5 * mpmath.zeta(2.5) + 2 * clcos(2.5, 3),
            "exp(cos(n))/n**2": lambda: exp_cos_sum(2),
            "exp(cos(n))/n**3": lambda: exp_cos_sum(3),
            "exp(sin(2*n))/n**2": lambda: exp_sin_sum(2, 2),
            "exp(cos(n))/n**2 - 1/n**3": lambda: exp_cos_sum(2) - mpmath.zeta(3),
        }[text]()
        return full - _head(text, 1, start) if start > 1 else full


CASES = [
    ("(2 + cos(n))/n**2", 1),
    ("exp(cos(n))/n**2", 1),
    # held out: other constants, p = 3 and 5/2, a shifted start, another frequency
    ("(3 - sin(n))/n**3", 1),
    ("(5 + 2*cos(3*n))/n**(5/2)", 1),
    ("exp(cos(n))/n**3", 4),
    ("exp(sin(2*n))/n**2", 1),
    ("(2 + cos(n))/n**2", 7),
    ("exp(cos(n))/n**2 - 1/n**3", 1),  # lower bound exp(-1)/n^2 - 1/n^3 < 0 at n = 1, 2
]


@pytest.mark.parametrize("text,start", CASES)
def test_engine_encloses_the_sum_and_far_tails(text, start):
    """T(a) for a = start (the whole sum), inside the head and beyond it (majorant alone)."""
    t = MajorantTail(P(text), start, head_terms=4096)
    B = _reference(text, start)
    with mpmath.workdps(DPS):
        for a in (start, start + 100, start + 4096, start + 5000):
            lo, hi = arb_bounds(t.tail(a))
            ref = B - (_head(text, start, a) if a > start else 0)
            assert lo <= ref <= hi, (text, a, lo, ref, hi)
        lo, hi = arb_bounds(t.tail(start))
        assert hi - lo < B * 5e-3  # a useful enclosure (head 4096 terms), not only a true one


def test_not_power_bounded_is_refused():
    with pytest.raises(NotCertified):
        MajorantTail(P("exp(cos(n))/n"), 1, head_terms=64)  # p = 1: no majorant sums
    with pytest.raises(NotCertified):
        MajorantTail(P("exp(-n)*exp(cos(n))"), 1, head_terms=64)  # not a power law


@pytest.mark.parametrize(
    "text,start,n_exact",
    [
        ("exp(cos(n))/n**2", 1, 2),
        ("exp(cos(n))/n**3", 4, 2),
        ("exp(sin(2*n))/n**2", 1, 2),
        ("exp(cos(n))/n**2 - 1/n**3", 1, 1),
    ],
)
def test_cli_certified_sum_and_exact_trfs(capsys, text, start, n_exact):
    """Before: "no guaranteed enclosure: no comparison series bounds the far tail"; now B is
    certified, every TRF marked exact is the first j with R_j < B eps (Eq. 22), and every
    other one carries a certified bracket [lower_bound, upper_bound] that holds it."""
    code = main(["--rpe", text, "--start", str(start), "--json", "--eps", *map(str, EPS)])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["certified"], out
    B = _reference(text, start)
    with mpmath.workdps(DPS):
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        assert sum(t["exact"] for t in out["trf"]) >= n_exact
        b = [_head(text, start + k, start + k + 1) for k in range(2000)]
        for t in out["trf"]:
            R, j = B, 0
            while R >= B * mpmath.mpf(repr(t["eps"])):
                R, j = R - b[j], j + 1
            if t["exact"]:
                assert t["value"] == j, (text, t, j)
            else:
                assert t["lower_bound"] <= j <= t["upper_bound"], (text, t, j)


def test_tail_beyond_head_uses_integral_bounds():
    """sum_{n >= a} n^-2 for a = M lies in [1/a, 1/a + 1/a^2]: the engine's far tail of
    (2 + cos(n))/n^2 lies in [1/a, 3 (1/a + 1/a^2)] (b_n in [1, 3]/n^2)."""
    t = MajorantTail(P("(2 + cos(n))/n**2"), 1, head_terms=1000)
    lo, hi = arb_bounds(t.tail(2000))
    assert lo >= mpmath.mpf(1) / 2000 * (1 - 1e-8)  # c_- from balls: 1 less a rounding
    assert hi <= 3 * (mpmath.mpf(1) / 2000 + mpmath.mpf(1) / 2000**2) * (1 + 1e-8)
    assert isinstance(t.tail(2000), arb)
