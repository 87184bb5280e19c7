"""Geometric series with extreme constants (1e300, 1e308 and their one-ulp neighbours):
B certified and TRF exact, checked against mpmath at 60 digits."""

import json
import math

import mpmath
import pytest
import sympy
from flint import ctx

from theory.trf.cli import main


def _run(capsys, *argv) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _mp(text: str) -> mpmath.mpf:
    return mpmath.mpf(text.split(" x ")[-1])


@pytest.mark.parametrize("k", [1e300, math.nextafter(1e300, 0), math.nextafter(1e300, math.inf)])
def test_huge_rate_geometric_sum_and_trf(capsys, k):
    d = _run(capsys, f"--rpe=exp(-{k!r}*n)")
    # reference: B = e^(-k) / (1 - e^(-k)), k the decimal as typed (mpmath at 400 digits:
    # the mantissa of e^(-1e300) is set by the 300th digit of 1e300 / ln 10)
    with mpmath.workdps(400):
        K = mpmath.mpf(repr(k))
        ref = mpmath.exp(-K) / -mpmath.expm1(-K)
        assert d["certified"]
        assert _mp(d["sum_lo"]) <= ref <= _mp(d["sum_hi"])
        assert abs(_mp(d["sum_hi"]) / _mp(d["sum_lo"]) - 1) < mpmath.mpf(10) ** -15
    # the tail after the first term is e^(-k) B < eps B for every eps here: TRF = 1
    assert [(t["value"], t["exact"]) for t in d["trf"]] == [(1, True)] * 3


@pytest.mark.parametrize(
    "M", [1e308, math.nextafter(1e308, 0), math.nextafter(1e308, math.inf), -1e308]
)
def test_formula_with_huge_constant_is_scaled(capsys, M):
    d = _run(capsys, f"--bias={M!r}-n")
    # the constant term M of log b_n, as typed, exactly: B = exp(M) x sum_n e^(-n) from n = 1
    M_typed = sympy.Rational(repr(M))
    assert sympy.Rational(d["sum_log_scale_exact"]) == M_typed
    assert d["sum_lo"].startswith(f"exp({d['sum_log_scale']}) x ")
    assert sympy.Rational(d["sum_log_scale"]) == M_typed  # "1e308": exact decimal
    # reference: sum_{n>=1} e^(-n) = 1/(e - 1) (geometric series; mpmath, 60 digits)
    with mpmath.workdps(60):
        ref = 1 / (mpmath.e - 1)
        assert _mp(d["sum_scaled_lo"]) <= ref <= _mp(d["sum_scaled_hi"])
        assert _mp(d["sum_scaled_hi"]) - _mp(d["sum_scaled_lo"]) < mpmath.mpf(10) ** -15
    # R_L = e^(-L) B < eps B iff L > ln(1/eps): TRF = floor(ln(1/eps)) + 1 = 3, 5, 7
    assert [(t["value"], t["exact"]) for t in d["trf"]] == [(3, True), (5, True), (7, True)]


def _poly_geometric_tail(k: int, c: mpmath.mpf, m: mpmath.mpf) -> mpmath.mpf:
    """Reference: sum_{n >= m} n^k q^n = (q d/dq)^k [q^m / (1 - q)] at q = e^c, the
    derivative by sympy (independent of the Eulerian polynomials of the engine)."""
    q, M = sympy.symbols("q M")
    f = q**M / (1 - q)
    for _ in range(k):
        f = q * sympy.diff(f, q)
    # 1 - q as -expm1(c): at c = -1e-100 the subtraction would lose every digit
    g = sympy.together(f).subs(q, sympy.exp(sympy.Symbol("c")))
    return sympy.lambdify((sympy.Symbol("c"), M), g, "mpmath")(c, m)


@pytest.mark.parametrize(
    ("formula", "k", "c"), [("n**2*exp(-1e-100*n)", 2, "-1e-100"), ("n*exp(-n)", 1, "-1")]
)
def test_polynomial_times_geometric(capsys, formula, k, c):
    d = _run(capsys, f"--rpe={formula}")
    with mpmath.workdps(600):
        C = mpmath.mpf(c)
        B = _poly_geometric_tail(k, C, 1)
        assert d["certified"] and _mp(d["sum_lo"]) <= B <= _mp(d["sum_hi"])
        for t in d["trf"]:
            # TRF = the least i with R_i = sum_{n >= 1 + i} b_n < eps B
            j, eps = int(mpmath.mpf(t["value"])), mpmath.mpf(repr(t["eps"]))
            if not t["exact"]:  # beyond the exact limit: 17 digits printed
                lo = _poly_geometric_tail(k, C, 1 + j * (1 - mpmath.mpf(1e-12))) - eps * B
                hi = _poly_geometric_tail(k, C, 1 + j * (1 + mpmath.mpf(1e-12))) - eps * B
                assert lo > 0 > hi
            else:
                assert _poly_geometric_tail(k, C, j) >= eps * B > _poly_geometric_tail(k, C, 1 + j)


@pytest.mark.parametrize("p", ["1e300", repr(math.nextafter(1e300, 0)), "2000", "1001.5"])
def test_steep_power_is_zeta(capsys, p):
    d = _run(capsys, f"--rpe=n**(-{p})")
    # reference: B = zeta(p) (mpmath, 60 digits); R_1 = zeta(p) - 1 ~ 2^-p < eps B: TRF = 1
    with mpmath.workdps(60):
        ref = mpmath.zeta(mpmath.mpf(p))
        assert d["certified"] and _mp(d["sum_lo"]) <= ref <= _mp(d["sum_hi"])
        assert _mp(d["sum_hi"]) - _mp(d["sum_lo"]) < mpmath.mpf(10) ** -18
    assert [(t["value"], t["exact"]) for t in d["trf"]] == [(1, True)] * 3


def test_steep_power_tail_encloses_hurwitz_zeta():
    from theory.series.expressions import parse_expression
    from theory.series.steep_power import SteepPowerTail

    t = SteepPowerTail(parse_expression("n**(-1001.5)"), 1)
    for m in (2, 1000):  # at m = 1000 the terms after b_m add ~ e^-1 b_m: the integral
        ball = t.tail(m)
        # reference: sum_{n >= m} n^-p = zeta(p, m) (Hurwitz; mpmath at 1500 digits, where
        # the terms after the first, 3^-1001.5 ~ 1e-478 beside 2^-1001.5 ~ 1e-302, show)
        with mpmath.workdps(1500):
            ref = mpmath.zeta(mpmath.mpf("1001.5"), m)
            ctx.prec = 5000  # the ends of the ball, not rounded to python-flint's 53 bits
            try:
                ends = [mpmath.mpf(v.str(1400, radius=False)) for v in (ball.lower(), ball.upper())]
            finally:
                ctx.prec = 53
            lo, hi = ends
            assert lo <= ref <= hi
            assert m > 2 or (hi - lo) < ref * mpmath.mpf(10) ** -60


def _em_tail_n50(k: mpmath.mpf, m: mpmath.mpf) -> mpmath.mpf:
    """sum_{n >= m} n^50 e^(-k n) by Euler-Maclaurin: int_m^oo f + f(m)/2 - f'(m)/12, the
    integral Gamma(51, k m) / k^51 (mpmath gammainc); the next term, B_4/4! f'''(m), is of
    relative size (50/m - k)^3 < 10^-800 here (m > 10^300, k <= 10^-300): independent of
    the engine's Li_(-j) closed form."""
    f = m**50 * mpmath.exp(-k * m)
    df = f * (50 / m - k)
    return mpmath.gammainc(51, k * m) / k**51 + f / 2 - df / 12


@pytest.mark.parametrize("k", ["1e-300", repr(math.nextafter(1e-300, 0))])
def test_degree_50_times_slow_geometric_is_exact(capsys, k):
    """n^50 e^(-k n), k = 1e-300 and its float neighbour as typed: B = 50!/k^51 (+ O(k),
    Euler-Maclaurin from n = 0 where f^(r)(0) = 0 for r < 50), about 3.04e15364, and the
    exact TRF integers (~6e301): R_j < eps B <= R_(j-1), R_i = sum_(n >= 1 + i) b_n, against
    the incomplete-gamma Euler-Maclaurin tail at 1200 digits."""
    d = _run(capsys, f"--rpe=n**50*exp(-{k}*n)")
    with mpmath.workdps(1200):
        K = mpmath.mpf(k)
        B = mpmath.factorial(50) / K**51
        assert d["certified"] and _mp(d["sum_lo"]) <= B <= _mp(d["sum_hi"])
        assert _mp(d["sum_hi"]) / _mp(d["sum_lo"]) - 1 < mpmath.mpf(10) ** -18
        for t in d["trf"]:
            j, eps = t["value"], mpmath.mpf(repr(t["eps"]))
            assert t["exact"] and type(j) is int and j > 10**301, t
            assert _em_tail_n50(K, 1 + j) < eps * B <= _em_tail_n50(K, j), (k, t)
