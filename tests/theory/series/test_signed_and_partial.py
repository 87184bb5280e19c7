"""TRF of a signed series by the tail rule, lower bounds when B has no enclosure, and the
hypergeometric decisions; references are mpmath at 30-50 digits or closed forms."""

import json

import mpmath
import pytest
import sympy as sp

from theory.series.convergence import decide
from theory.series.expressions import N
from theory.series.expressions import parse_expression as P
from theory.trf.cli import main


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_signed_series_trf_by_the_tail_rule(capsys):
    # sin(n)/sqrt(n): the partial-sum rule said an "exact" TRF of 2; the tail |R_j| of this
    # series stays above eps B far longer (|R_j| ~ |cos(j - 1/2)| / (2 sin(1/2) sqrt(j))).
    # Reference: a brute-force scan of R_k = B - S_k in mpmath up to the k where the
    # textbook bound |R_k| <= 1/(sin(1/2) sqrt(k + 1)) falls below eps |B|
    out = run_json(capsys, "--rpe", "sin(n)/sqrt(n)", "--eps", "0.1")
    t = out["trf"][0]
    assert out["certified"] and t["exact"]
    f = sp.lambdify(N, P("sin(n)/sqrt(n)"), modules="mpmath")
    with mpmath.workdps(30):  # B = Im Li_(1/2)(e^i), mpmath polylog, 30 digits
        B = mpmath.polylog(0.5, mpmath.expj(1)).imag
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        target = mpmath.mpf("0.1") * abs(B)
        end = int((1 / (mpmath.sin(0.5) * target)) ** 2) + 2
        R, last = B, 0
        for k in range(end):
            if abs(R) >= target:
                last = k
            R -= f(mpmath.mpf(k + 1))
    assert t["value"] == last + 1 > 2


def test_signed_trf_beyond_the_range_is_a_certified_bracket(capsys):
    # (-1)**n/log(n + 1): |R_k| ~ 1/(2 log k) stays above 0.01 |B| until k ~ e^54, beyond
    # the range searched term by term (10^12): a certified log10 bracket from the bound on
    # every later tail and a proved far tail.  Reference: for g = 1/log(n + 1) completely
    # monotone, g(s+k)/2 <= |R_k| <= g(s+k-1)/2 (pair the terms), so the TRF lies between
    # the crossings of g(n)/2 and g(n-1)/2 with 0.01 |B|, n = 1 + TRF: n* = e^(1/(0.02|B|)) - 1
    out = run_json(capsys, "--rpe", "(-1)**n/log(n + 1)", "--eps", "0.01")
    t = out["trf"][0]
    assert out["certified"] and not t["exact"]
    lo, hi = t["log10_bracket"]
    assert hi - lo < 1e-9
    with mpmath.workdps(30):
        B = mpmath.nsum(lambda n: (-1) ** n / mpmath.log(n + 1), [1, mpmath.inf])
        assert mpmath.mpf(out["sum_lo"]) - 1e-25 <= B <= mpmath.mpf(out["sum_hi"]) + 1e-25
        n_star = mpmath.exp(1 / (mpmath.mpf("0.02") * abs(B))) - 1
        assert lo <= mpmath.log10(n_star - 2) and mpmath.log10(n_star + 1) <= hi


def test_positive_series_keep_exact_trfs(capsys):
    out = run_json(capsys, "--rpe", "(2 + cos(n))/n**2", "--eps", "0.1")
    assert out["trf"][0]["exact"]  # 2 + cos(n) >= 1: Eq. 22 and the tail rule agree


def test_wide_enclosure_is_a_certified_bracket_not_an_estimate(capsys):
    # exp(-sin(n)^2 - sin(sqrt(2) n)^2)/n^(3/2): frequencies in irrational ratio (no Fourier
    # tail); the power majorant's tail is too wide for the precision goal, and its enclosure
    # is printed as the certified bracket it is.  Reference: exp(-sin(y)^2) = e^(-1/2)
    # (I_0(1/2) + 2 sum_k I_k(1/2) cos(2 k y)) (Bessel series) for each factor, the products
    # of cosines as sums, and sum_n cos(t n)/n^(3/2) = Cl(3/2, t) (mpmath.clcos).  (One
    # frequency, exp(-sin(n)**2)/n**(3/2), is certified to 12 digits:
    # tests/theory/series/test_fourier_tail.py.)
    out = run_json(
        capsys,
        "--rpe",
        "exp(-sin(n)**2 - sin(sqrt(2)*n)**2)/n**(3/2)",
        "--eps",
        "0.1",
        "--time-limit",
        "30",
    )
    assert out["certified"] and out["sum_digits"] < 3
    with mpmath.workdps(20):
        h, r2 = mpmath.mpf(1) / 2, mpmath.sqrt(2)
        bessel = [mpmath.besseli(j, h) * (1 if j == 0 else 2) for j in range(10)]

        def cl(t):
            return mpmath.zeta(1.5) if t == 0 else mpmath.clcos(1.5, t)

        ref = mpmath.fsum(
            bessel[j] * bessel[k] * (cl(2 * j + 2 * r2 * k) + cl(2 * j - 2 * r2 * k)) / 2
            for j in range(10)
            for k in range(10)
        )
        ref *= mpmath.exp(-1)
        assert 0 < mpmath.mpf(out["sum_lo"]) <= ref <= mpmath.mpf(out["sum_hi"])
    t = out["trf"][0]
    assert t["value"] is None and 1 <= t["lower_bound"] <= t["upper_bound"] and not t["exact"]


def test_signed_without_enclosure_says_no_estimate(capsys):
    # sin(n)*log(n)/n is certified since g's derivatives are proved of one sign from some
    # n on (tests/theory/series/test_alternating_tails.py); log(log(n + 2)) is outside those
    out = run_json(capsys, "--rpe", "sin(n)*log(log(n + 2))/n", "--time-limit", "3")
    assert out["sum"] is None and out["sum_lo"] is None and "no estimate" in out["sum_status"]


@pytest.mark.parametrize(
    "text,conv,why",
    [
        ("gamma(n)/gamma(n + 1)", False, "= 1/n"),
        ("factorial(n)/factorial(n + 1)", False, "= 1/(n + 1)"),
        ("gamma(n)/gamma(n + 2)", True, "= 1/(n (n + 1))"),
        ("binomial(2*n, n)/4**n", False, "~ 1/sqrt(pi n)"),
        ("binomial(2*n, n)/(4**n*n)", True, "~ n^(-3/2)/sqrt(pi)"),
        ("factorial(n)**2/factorial(2*n)", True, "ratio -> 1/4"),
    ],
)
def test_hypergeometric_decisions(text, conv, why):
    assert decide(P(text), 1).converges is conv, why
