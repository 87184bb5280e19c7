"""Stretched-exponential tails C exp(-k n^r) by the integral test in closed form
(theory.series.stretched_tail), against mpmath: nsum where it converges, and for Kerple-power
with r = 0.02 (B ~ 50!) the head plus Euler-Maclaurin from n = 1000, and TRF(eps) from the
regularized incomplete gamma function Q(50, z) = eps, TRF = z^50 (the tail R_j differs from
the integral by at most one term, e^-z, far below 1e-12 relative)."""

import json

import mpmath
import pytest

from theory.series.arb_eval import NotCertified
from theory.series.enclosure import arb_bounds
from theory.series.expressions import parse_expression as P
from theory.series.stretched_tail import StretchedExpTail
from theory.trf.cli import main


@pytest.mark.parametrize(
    "text,n0,f,cut",
    [  # cut: the terms beyond are below 1e-90 of the sum (left out of the reference)
        ("exp(-n**(1/2))", 0, lambda n: mpmath.exp(-mpmath.sqrt(n)), 50000),
        ("3*exp(-2*n**(3/2))", 1, lambda n: 3 * mpmath.exp(-2 * n**1.5), 400),
        ("exp(-n/7)/5", 3, lambda n: mpmath.exp(-n / 7) / 5, 2000),
        ("2*exp(-n**(3/4))", 2, lambda n: 2 * mpmath.exp(-(n ** mpmath.mpf(0.75))), 3000),
    ],
)
def test_engine_against_direct_sums(text, n0, f, cut):
    t = StretchedExpTail(P(text), n0, head_terms=256)
    with mpmath.workdps(80):  # beyond the 192 bits of the balls
        terms = [f(mpmath.mpf(n)) for n in range(n0, cut)]
        assert terms[-1] < mpmath.mpf(10) ** -95 * terms[0]
        for a in (n0, n0 + 100, n0 + 300):
            ref = mpmath.fsum(terms[a - n0 :])
            lo, hi = arb_bounds(t.tail(a))
            assert lo <= ref <= hi, (text, a, lo, ref, hi)


def test_not_stretched_is_refused():
    for text in ("1/n**2", "exp(n**(1/2))", "exp(-n**(1/2))*n"):
        with pytest.raises(NotCertified):
            StretchedExpTail(P(text), 1, head_terms=8)


def test_kerple_power_small_r(capsys):
    """Before: "B: [6.06e3, unknown]" and TRF >= 17954; now B ~ Gamma(51) certified and the
    TRFs to 12 digits."""
    code = main(["--rpe", "kerple-power", "--param", "r=0.02", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["certified"]
    with mpmath.workdps(60):
        r = mpmath.mpf(1) / 50

        def f(x):
            return mpmath.exp(-(x**r))

        H = 1000
        integral = 50 * mpmath.gammainc(50, H**r, mpmath.inf)  # int_H^oo e^(-x^r) dx
        ref = mpmath.fsum(f(n) for n in range(H)) + integral
        ref += f(H) / 2 - mpmath.diff(f, H) / 12 + mpmath.diff(f, H, 3) / 720
        assert mpmath.mpf(out["sum_lo"]) <= ref <= mpmath.mpf(out["sum_hi"])
        assert abs(ref / mpmath.gamma(51) - 1) < 1e-40  # B = 50! + O(1)
        for t in out["trf"]:
            eps = mpmath.mpf(repr(t["eps"]))
            z = mpmath.findroot(
                lambda z, e=eps: mpmath.gammainc(50, z, mpmath.inf, regularized=True) - e, 60
            )
            assert abs(mpmath.mpf(t["value"]) / z**50 - 1) < 1e-11, (t, z**50)
