"""Held-out set 14: commands as a researcher types them into ``python -m theory.trf``, with
the verdict derived by hand (the argument in each ``note``) and, where the series converges,
a reference B and TRF(eps) computed independently with mpmath (``heldout14_reference``),
each checked a second way (closed form against direct summation with a proved tail bound,
two quadratures, exact integers against log-gamma, hypergeometric against elliptic
integrals).

Families not emphasised in sets 5-13, and not among the formulas of the project's own tests,
docs and benchmarks (each formula grepped there first):

1. geometric tails next to a tie: ALiBi with k = log(10) (R_m = eps B exactly), with the
   decimals just above and below ln 10; Kerple log at r = 1.1, k = 1e-6 (TRFs near 10^36) and
   at k = 0.07 (Hurwitz zeta at 100/7); Kerple power at r = 1/4 and at r = 2 with k = 1e-8;
   Type1 from n = 10^12; Sandwich with the largest head size; a bias formula with slope
   1e-12 and one with a constant term -20000 (scaled); n^3 e^(-n/10^6) (Eulerian closed form);
2. bias files whose answer hangs on the exact float64 value: slopes one ulp either side of
   -ln 10 (TRF(0.1) = 1 or 2), two values one ulp apart (TRF(0.5) = 1 or 2), values at the
   top of float64 (scaled), a sum beyond float64 from values below exp's overflow, a subnormal
   slope (TRF ~ 10^323.7), a constant tail at -max double;
3. central binomial coefficients, gamma ratios and products: telescoping tails c_j, 4 pi log 2
   - 8 G (4F3 at 1 and a complete elliptic integral), the arcsin^2 series, a product closed by
   complex gamma functions, two divergent products;
4. Max / Min / Abs of trigonometric terms: positive terms that look signed (B by Clausen
   functions, pi/2 exactly), mean-zero Abs differences (Koksma with the irrationality measure
   of pi), divergence by equidistribution, |sin n| against n^8 (termwise, Zeilberger-Zudilin),
   and two open problems of Flint Hills type;
5. slowly converging positive series with TRFs beyond 10^12 (log10): exp(-log(n)^1.02)
   written as a power of n, exp(-log(n)^(1/3))/n, exp(-sqrt(log n))/(n sqrt(log n)), a triple
   log cubed (TRF up to 10^(10^29));
6. free-parameter families whose region is proved on the whole line (Max/Min of powers, a
   product with a parameter, (-1)^n n^-p log(n)^q, gamma(n + 1/2)/gamma(n + b), (-1)^n
   atan(1/n)^p, e^(-k n) n!/n^n);
7. input that must be refused (complex bias, a gamma pole in the range, too few T5 buckets,
   --truncate 0).

The fields of a :class:`Case` are those of set 7 (``heldout7_cases``).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp
import numpy as np

try:
    from . import heldout14_reference as R
    from .heldout7_cases import Case, cached, eps_args, exact, npy_bytes, txt_bytes
except ImportError:  # run as a script from this folder
    import heldout14_reference as R
    from heldout7_cases import Case, cached, eps_args, exact, npy_bytes, txt_bytes

E3 = (0.1, 0.01, 0.001)
E_HALF = (0.5, 0.1)
TINY = mp.mpf(10) ** -35


CASES: list[Case] = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


def fam(id_, args, pred, grid, note, others=True):
    add(id_, args, None, note, cond=(pred, grid), others=others)


def expect(fn, want):
    """A reference that must equal the value derived by hand in the note (a second way)."""

    def get():
        got = fn()
        assert got == want, (got, want)
        return got

    return get


# ---------------------------------------------------------------------------------------
# 1. Geometric and named tails at extreme parameters
# ---------------------------------------------------------------------------------------
add(
    "named/alibi-k-log10-exact-ties",
    ["--rpe", "alibi", "--param", "k=log(10)", *eps_args(E3)],
    True,
    "b_t = e^(-t log 10) = 10^-t, t >= 0: B = 10/9 exactly and R_j/B = 10^-j. At eps = 10^-m "
    "the tail R_m equals eps B exactly (a tie, no crossing: Eq. 22 asks R_j < eps B), so TRF = "
    "m + 1: 2, 3, 4 (Fractions).",
    exact(Fraction(10, 9)),
    expect(
        lambda: R.trf_from_tail(lambda j: Fraction(10, 9) / 10**j, Fraction(10, 9), E3, hi=100),
        {0.1: 2, 0.01: 3, 0.001: 4},
    ),
    start=0,
)
_KUP = lambda: mp.mpf("2.302585092994046")  # noqa: E731
_KDN = lambda: mp.mpf("2.302585092994045")  # noqa: E731


def _geo_two_ways(k, eps, want):
    def get():
        a = R.geo_trf_checked(k(), eps)
        B = -1 / mp.expm1(-k())
        b = R.int_trf_checked(lambda j: B * mp.exp(-k() * j), B, eps, hi=100)
        assert a == b == want, (a, b, want)
        return a

    return cached(get)


add(
    "named/alibi-k-decimal-above-ln10",
    ["--rpe", "alibi", "--param", "k=2.302585092994046", *eps_args(E3)],
    True,
    "k = 2.302585092994046 (the decimal typed) exceeds ln 10 = 2.3025850929940456840... by "
    "3.2e-16: R_j/B = e^(-k j) < 10^-j, so R_m < eps B at eps = 10^-m: TRF = 1, 2, 3 (the "
    "comparisons clear by 7e-16 relative). B = 1/(1 - e^-k).",
    cached(lambda: (-1 / mp.expm1(-_KUP()), TINY)),
    _geo_two_ways(_KUP, E3, {0.1: 1, 0.01: 2, 0.001: 3}),
    start=0,
)
add(
    "named/alibi-k-decimal-below-ln10",
    ["--rpe", "alibi", "--param", "k=2.302585092994045", *eps_args(E3)],
    True,
    "k = 2.302585092994045 is below ln 10 by 6.8e-16: e^(-k m) > 10^-m = eps, so R_m >= eps B "
    "and R_(m+1) < eps B: TRF = 2, 3, 4. B = 1/(1 - e^-k).",
    cached(lambda: (-1 / mp.expm1(-_KDN()), TINY)),
    _geo_two_ways(_KDN, E3, {0.1: 2, 0.01: 3, 0.001: 4}),
    start=0,
)

_KL_C = lambda: mp.mpf(10) ** (6 * mp.mpf("1.1"))  # noqa: E731  (k^-r, k = 1e-6, r = 1.1)
_KL_B = cached(
    lambda: R.two_ways(
        lambda: _KL_C() * mp.zeta(mp.mpf("1.1"), 10**6),
        lambda: _KL_C() * R.hurwitz_em(mp.mpf("1.1"), 10**6),
    )
)
add(
    "named/kerple-log-r1.1-k1e-6",
    ["--rpe", "kerple-log", "--param", "r=1.1", "--param", "k=1e-6", *eps_args(E3)],
    True,
    "(1 + k t)^-r = k^-r (t + 1/k)^-r, t >= 0, 1/k = 10^6: B = 10^6.6 zeta(1.1, 10^6) ~ 1e7 "
    "(mpmath's Hurwitz zeta and Euler-Maclaurin agree), R_j = 10^6.6 zeta(1.1, 10^6 + j) ~ "
    "10^7 (1 + j/10^6)^-0.1: TRF ~ 10^6 eps^-10 (about 1e16, 1e26, 1e36), exact integers by "
    "bisection on the Hurwitz tail (neighbours differ by 1e-37 relative, computed at 50 "
    "digits, each crossing checked against Euler-Maclaurin).",
    _KL_B,
    cached(lambda: R.hurwitz_int_trf(mp.mpf("1.1"), 10**6, _KL_C(), _KL_B()[0], E3, hi=10**40)),
    start=0,
)
_A07 = lambda: mp.mpf(100) / 7  # noqa: E731
_C07 = lambda: (mp.mpf(100) / 7) ** 3  # noqa: E731
_KL3_B = cached(
    lambda: R.two_ways(
        lambda: _C07() * mp.zeta(3, _A07()),
        lambda: -_C07() * mp.psi(2, _A07()) / 2,
    )
)
add(
    "named/kerple-log-r3-k0.07",
    ["--rpe", "kerple-log", "--param", "r=3", "--param", "k=0.07", *eps_args(E3)],
    True,
    "(1 + 0.07 t)^-3 = (100/7)^3 (t + 100/7)^-3: B = (100/7)^3 zeta(3, 100/7) = -(100/7)^3 "
    "psi''(100/7)/2 ~ 7.6, R_j = (100/7)^3 zeta(3, 100/7 + j) (bisection, integers).",
    _KL3_B,
    cached(lambda: R.hurwitz_int_trf(3, _A07(), _C07(), _KL3_B()[0], E3, hi=10**6)),
    start=0,
)
_KP4 = lambda t: mp.exp(-4 * mp.mpf(t) ** (mp.mpf(1) / 4))  # noqa: E731
_KP4_B = cached(
    lambda: R.two_ways(
        lambda: R.direct_sum(_KP4, 0, 100000, R.stretched_tail(4, mp.mpf(1) / 4))[0],
        lambda: (
            mp.fsum(_KP4(t) for t in range(0, 3000))
            + R.em_tail(_KP4, mp.mpf(3000), 4 * mp.gammainc(4, 4 * mp.mpf(3000) ** 0.25) / 256)[0]
        ),
        floor=mp.mpf(10) ** -26,
    )
)
add(
    "named/kerple-power-r0.25-k4",
    ["--rpe", "kerple-power", "--param", "r=0.25", "--param", "k=4", *eps_args(E3)],
    True,
    "e^(-4 t^(1/4)), t >= 0 (completely monotone): B two ways, the sum to 10^5 plus the "
    "integral bound e^(-4 N^(1/4)) + 4 Gamma(4, 4 N^(1/4))/256 (< 1e-26), and the sum to 3000 "
    "plus Euler-Maclaurin with that integral; TRF from the partial sums (the terms > 0).",
    _KP4_B,
    cached(
        lambda: R.trf_positive_checked(
            [_KP4(t) for t in range(0, 3000)], _KP4_B()[0], _KP4_B()[1], E3
        )
    ),
    start=0,
)
_KG = lambda: mp.mpf(10) ** -8  # noqa: E731


def _gauss_terms(T):
    """e^(-k t^2), t = 0..T-1, k = 1e-8, by the ratio e^(-k (2t + 1))."""
    with mp.workdps(60):
        out, b, r, r2 = [], mp.mpf(1), mp.exp(-_KG()), mp.exp(-2 * _KG())
        for _ in range(T):
            out.append(b)
            b *= r
            r *= r2
        return out


def _gauss_B():
    closed = (1 + mp.sqrt(mp.pi / _KG())) / 2  # Poisson: theta_3 = sqrt(pi/k)(1 + 2e^(-pi^2/k) ...)
    direct = mp.fsum(_gauss_terms(120000))  # the rest < e^(-144)
    assert abs(closed - direct) < mp.mpf(10) ** -40 * closed, (closed, direct)
    return closed, closed * TINY


_KG_B = cached(_gauss_B)
add(
    "named/kerple-power-r2-k1e-8",
    ["--rpe", "kerple-power", "--param", "r=2", "--param", "k=1e-8", *eps_args(E3)],
    True,
    "e^(-k t^2), k = 1e-8, t >= 0: B = (1 + theta_3(0, e^-k))/2 = (1 + sqrt(pi/k))/2 + "
    "O(sqrt(pi/k) e^(-pi^2/k)) (Jacobi's imaginary transformation; e^(-9.8e8)), checked "
    "against the direct sum to 1.2e5; TRF from the partial sums (11632, 18215, 23268).",
    _KG_B,
    cached(lambda: R.trf_positive_checked(_gauss_terms(40000), _KG_B()[0], _KG_B()[1], E3)),
    start=0,
)
add(
    "named/sandwich-d512-diverges",
    ["--rpe", "sandwich", "--param", "d=512"],
    False,
    "b_t = exp(k sum_(j=1..256) (cos(t w_j) - 1)), w_j = 10000^(-j/256): by Dirichlet's "
    "simultaneous approximation there are infinitely many t with ||t w_j/(2 pi)|| < t^(-1/256) "
    "for every j, where b_t >= exp(-256 k (1 - cos(2 pi t^(-1/256)))) -> 1: the terms do not "
    "tend to 0.",
)
_N12 = 10**12
_T1_B = cached(lambda: R.two_ways(lambda: mp.zeta(2, _N12), lambda: R.hurwitz_em(2, _N12)))
add(
    "named/type1-start-1e12",
    ["--rpe", "type1", "--start", "1000000000000", *eps_args(E3)],
    True,
    "1/n^2 from n = 10^12: B = zeta(2, 10^12) ~ 1e-12 (mpmath and Euler-Maclaurin), R_j = "
    "zeta(2, 10^12 + j): TRF ~ 10^12 (1/eps - 1), exact integers near 9e12, 9.9e13, 9.99e14 "
    "by bisection (neighbours differ by 1e-13 relative).",
    _T1_B,
    cached(lambda: R.hurwitz_int_trf(2, _N12, 1, _T1_B()[0], E3, hi=10**16)),
    start=_N12,
)
_K12 = lambda: mp.mpf("1e-12")  # noqa: E731


def _slope12_trf():
    k = _K12()
    B = 1 / mp.expm1(k)
    a = R.geo_trf_checked(k, E3)
    b = R.int_trf_checked(lambda j: mp.exp(-k * (j + 1)) / -mp.expm1(-k), B, E3, hi=10**14)
    assert a == b == {0.1: 2302585092995, 0.01: 4605170185989, 0.001: 6907755278983}, (a, b)
    return a


add(
    "formula/bias-slope-1e-12",
    ["--bias=-1e-12*n", *eps_args(E3)],
    True,
    "b_n = e^(-k n), n >= 1, k = 10^-12 (the decimal): B = 1/(e^k - 1) ~ 1e12, R_j/B = e^(-k j): "
    "TRF = floor(10^12 ln(1/eps)) + 1 = 2302585092995, 4605170185989, 6907755278983 (ln 10 = "
    "2.302585092994045684...: no tie).",
    cached(lambda: (1 / mp.expm1(_K12()), TINY / _K12())),
    cached(_slope12_trf),
)
add(
    "formula/bias-minus-20000-scaled",
    ["--bias=-20000 - n/2", *eps_args(E3)],
    True,
    "b_n = e^-20000 e^(-n/2), n >= 1: the constant term M = -20000 is beyond 10^4, so B is "
    "reported as exp(M) x [..]: the scaled sum is sum_(n >= 1) e^(-n/2) = 1/(e^(1/2) - 1); R_j/B "
    "= e^(-j/2): TRF = floor(2 ln(1/eps)) + 1 = 5, 10, 14 (4.61, 9.21, 13.82).",
    cached(lambda: (1 / mp.expm1(mp.mpf(1) / 2), TINY)),
    _geo_two_ways(lambda: mp.mpf(1) / 2, E3, {0.1: 5, 0.01: 10, 0.001: 14}),
    scaled=True,
)
_Q6 = lambda: mp.exp(-(mp.mpf(10) ** -6))  # noqa: E731
_D6 = lambda: -mp.expm1(-(mp.mpf(10) ** -6))  # noqa: E731
_C3_B = cached(
    lambda: R.two_ways(
        lambda: R.cube_geometric_tail(1, _Q6(), _D6()),
        lambda: mp.polylog(-3, _Q6()),
    )
)
add(
    "formula/n-cubed-exp-minus-n-over-1e6",
    ["--rpe", "n**3*exp(-n/10**6)", *eps_args(E3)],
    True,
    "sum n^3 q^n, q = e^(-10^-6): B = q (1 + 4q + q^2)/(1 - q)^4 ~ 6e24 (= Li_(-3)(q), mpmath's "
    "polylog agrees); R_j = sum_(n >= j+1) n^3 q^n = q^m (m^3 S_0 + 3 m^2 S_1 + 3 m S_2 + S_3), "
    "m = j + 1 (closed form); TRF by bisection (R_j/B ~ e^-x (1 + x + x^2/2 + x^3/6), x = j "
    "10^-6: about 6.7e6, 1.0e7, 1.3e7).",
    _C3_B,
    cached(
        lambda: R.int_trf_checked(
            lambda j: R.cube_geometric_tail(j + 1, _Q6(), _D6()), _C3_B()[0], E3, hi=10**9
        )
    ),
)

# ---------------------------------------------------------------------------------------
# 2. Bias files: the exact float64 values decide
# ---------------------------------------------------------------------------------------
_LN10_TXT = ["0", "-2.302585092994046"]
_LN10_NPY = np.array([0.0, np.nextafter(-2.302585092994046, 0.0)])


def _bias_geo(values, want):
    def get():
        B, tail, s = R.linear_tail_ref(values)
        a = R.trf_from_tail(tail, B, E3, hi=100)
        b = R.geo_trf_checked(-s, E3)
        assert a == b == want, (a, b, want)
        return a

    return cached(get)


def _bias_B(values):
    def get():
        B, tail, s = R.linear_tail_ref(values)
        assert abs(B - 1 / -mp.expm1(s)) < TINY * B  # the two values lie on the line
        return B, B * TINY

    return cached(get)


add(
    "bias/txt-ln10-float-linear",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "values 0 and float64(-2.302585092994046) = -2.30258509299404590109...: the linear tail "
    "continues the slope s = that double, |s| > ln 10 by 2.2e-16, so b_t = e^(s t) and R_j/B = "
    "e^(s j) < 10^-j: TRF = 1, 2, 3 (exactly on the binary value; B = 1/(1 - e^s)).",
    _bias_B(_LN10_TXT),
    _bias_geo(_LN10_TXT, {0.1: 1, 0.01: 2, 0.001: 3}),
    files={"BIAS.txt": txt_bytes(_LN10_TXT)},
    start=0,
)
add(
    "bias/npy-ln10-one-ulp-toward-zero-linear",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "values 0 and the double one ulp above -2.302585092994046, -2.30258509299404545700...: "
    "|s| < ln 10 by 2.3e-16, so e^(s m) > 10^-m and R_m >= eps B: TRF = 2, 3, 4 (one ulp "
    "changes every TRF of the previous case).",
    _bias_B(_LN10_NPY),
    _bias_geo(_LN10_NPY, {0.1: 2, 0.01: 3, 0.001: 4}),
    files={"BIAS.npy": npy_bytes(_LN10_NPY)},
    start=0,
)
_ULP_DN = np.array([0.7, np.nextafter(0.7, -np.inf)])
_ULP_UP_TXT = ["0.7", repr(float(np.nextafter(0.7, np.inf)))]


def _two_terms(values, want):
    vals = [mp.mpf(float(v)) for v in values]

    def B():
        return mp.fsum(mp.exp(v) for v in vals), TINY

    def trf():
        b = B()
        got = R.trf_positive_checked([mp.exp(v) for v in vals], b[0], b[1], E_HALF)
        assert got == want, (got, want)
        return got

    return cached(B), cached(trf)


_UD = _two_terms(_ULP_DN, {0.5: 1, 0.1: 2})
add(
    "bias/npy-one-ulp-below-zero-tail",
    ["--bias-file", "BIAS.npy", "--bias-tail", "zero", *eps_args(E_HALF)],
    True,
    "b = e^0.7, e^v, then 0, v the double one ulp below 0.7: R_1 = e^v < B/2 exactly when v < "
    "0.7, so TRF(0.5) = 1; R_1/B ~ 1/2 >= 0.1: TRF(0.1) = 2. B = e^0.7 + e^v on the binary "
    "values.",
    *_UD,
    files={"BIAS.npy": npy_bytes(_ULP_DN)},
    start=0,
)
_UU = _two_terms(_ULP_UP_TXT, {0.5: 2, 0.1: 2})
add(
    "bias/txt-one-ulp-above-zero-tail",
    ["--bias-file", "BIAS.txt", "--bias-tail", "zero", *eps_args(E_HALF)],
    True,
    "values 0.7 and 0.7000000000000001 (the next double): R_1 = e^v > B/2, so TRF(0.5) = 2 "
    "(one ulp from the previous case's 1); TRF(0.1) = 2.",
    *_UU,
    files={"BIAS.txt": txt_bytes(_ULP_UP_TXT)},
    start=0,
)
_TOP = np.array([0.0, 1e308, np.nextafter(1e308, np.inf)])
add(
    "bias/npy-near-max-double-zero-tail-scaled",
    ["--bias-file", "BIAS.npy", "--bias-tail", "zero", *eps_args(E3)],
    True,
    "values 0, 1e308 and the next double M = 1e308 + 2^971: B = e^M (1 + e^(-2^971) + e^-M), "
    "reported scaled by exp(M) (M > 10^4): the scaled sum is 1 to within 1e-300. R_2 = e^M ~ B "
    "and R_3 = 0: TRF = 3 for every eps (the last value dominates; the first two still count).",
    lambda: (mp.mpf(1), TINY),
    expect(lambda: {e: 3 for e in E3}, {0.1: 3, 0.01: 3, 0.001: 3}),
    files={"BIAS.npy": npy_bytes(_TOP)},
    scaled=True,
    start=0,
)
_BIG = ["709.78", "-1e-320", "709.7"]
_BIG_B = cached(lambda: (mp.fsum(mp.exp(mp.mpf(float(v))) for v in _BIG), mp.mpf(10) ** 270))
add(
    "bias/txt-sum-beyond-float64-zero-tail",
    ["--bias-file", "BIAS.txt", "--bias-tail", "zero", *eps_args(E3)],
    True,
    "e^709.78 = 1.79e308 and e^709.7 = 1.66e308 are finite doubles, their sum 3.45e308 is not "
    "(the largest value 709.78 < 10^4: no scaling); the middle value is a subnormal, e^v = 1. "
    "B = sum of e^v on the binary values; R_1/B, R_2/B ~ 0.48, R_3 = 0: TRF = 3.",
    _BIG_B,
    cached(
        lambda: R.trf_positive_checked(
            [mp.exp(mp.mpf(float(v))) for v in _BIG], _BIG_B()[0], _BIG_B()[1], E3
        )
    ),
    files={"BIAS.txt": txt_bytes(_BIG)},
    start=0,
)
_SUB = ["0", "-5e-324"]
_SUB_S = lambda: mp.mpf(2) ** -1074  # noqa: E731


def _sub_B():
    B, tail, s = R.linear_tail_ref(_SUB)
    assert s == -_SUB_S()
    v = 1 / -mp.expm1(-_SUB_S())
    assert abs(B - v) < TINY * v
    return v, v * TINY


add(
    "bias/txt-subnormal-slope-linear",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "'-5e-324' is the double -2^-1074 (4.94e-324, not 5e-324): slope s = -2^-1074, B = 1/(1 - "
    "e^s) ~ 2^1074 = 2.0e323 (beyond float64), R_j/B = e^(s j): TRF = floor(2^1074 ln(1/eps)) "
    "+ 1, log10 = 323.668, 323.969, 324.145 (on the binary value; the decimal 5e-324 would give "
    "log10 TRF smaller by 0.0053).",
    cached(_sub_B),
    cached(lambda: R.geo_trf_checked(_SUB_S(), E3, as_log10_beyond=10**12)),
    files={"BIAS.txt": txt_bytes(_SUB)},
    start=0,
)
add(
    "bias/txt-minus-max-double-constant-diverges",
    ["--bias-file", "BIAS.txt", "--bias-tail", "constant"],
    False,
    "the last value is -1.7976931348623157e308 (the most negative double) and the tail keeps "
    "it: b = e^(-1.8e308) > 0 forever (it underflows every float, it is not 0): diverges.",
    files={"BIAS.txt": txt_bytes(["0", "-1.7976931348623157e308"])},
)
add(
    "refuse/bias-complex-npy",
    ["--bias-file", "BIAS.npy", "--bias-tail", "zero"],
    None,
    "a complex128 array (0, -1 + 0j): a bias is a 1-D array of finite real numbers (docs); "
    "complex values are refused, even with zero imaginary parts.",
    files={"BIAS.npy": npy_bytes(np.array([0.0, -1.0 + 0.0j], dtype=np.complex128))},
)

# ---------------------------------------------------------------------------------------
# 3. Central binomials, gamma ratios, products
# ---------------------------------------------------------------------------------------


def _cbin_trf():
    out = R.int_trf_checked(R.central, 1, E3, hi=10**8)
    for e, j in out.items():  # exactly, with integers: c_j < eps <= c_(j-1)
        assert R.central_below(j, e) and not R.central_below(j - 1, e), (e, j)
    return out


add(
    "prod/binomial-over-4n-2n-minus-1",
    ["--rpe", "binomial(2*n, n)/(4**n*(2*n - 1))", *eps_args(E3)],
    True,
    "c_n = binomial(2n, n)/4^n: c_(n-1) - c_n = c_(n-1)/(2n) = c_n/(2n - 1), so b_n = c_(n-1) - "
    "c_n telescopes: B = c_0 = 1 (also sqrt(1 - x) = 1 - sum c_n x^n/(2n - 1) at x = 1), R_j = "
    "c_j ~ 1/sqrt(pi j). TRF = least j with c_j < eps: bisection on log-gamma, the crossing "
    "checked exactly with integers (binomial(2j, j) den < num 4^j).",
    exact(1),
    cached(_cbin_trf),
)


def _gh_B():
    a = mp.pi * mp.hyper([1, 1, mp.mpf(3) / 2, mp.mpf(3) / 2], [2, 2, 2], 1) / 4
    b = mp.pi * mp.quad(lambda t: (2 / mp.pi * mp.ellipk(t) - 1) / t, [0, mp.mpf(1) / 2, 1])
    c = 4 * mp.pi * mp.log(2) - 8 * mp.catalan
    assert abs(a - c) < mp.mpf(10) ** -40 and abs(b - c) < mp.mpf(10) ** -30, (a, b, c)
    return c, mp.mpf(10) ** -45


def _gh_terms():
    c = mp.mpf(1)
    n = 0
    while True:
        c = c * (2 * n + 1) / (2 * n + 2)
        n += 1
        yield mp.pi * c * c / n


_GH_B = cached(_gh_B)
add(
    "prod/gamma-half-squared-over-n",
    ["--rpe", "gamma(n + 1/2)**2/(gamma(n + 1)**2*n)", *eps_args(E3)],
    True,
    "Gamma(n + 1/2)/Gamma(n + 1) = sqrt(pi) c_n: b = pi c_n^2/n ~ 1/n^2. sum c_n^2 x^n = (2/pi) "
    "K(x) (parameter x): sum c_n^2/n = int_0^1 ((2/pi) K(t) - 1) dt/t = 4F3(1, 1, 3/2, 3/2; 2, "
    "2, 2; 1)/4 = 4 log 2 - 8G/pi (all three agree), B = 4 pi log 2 - 8 G = 1.3826...; TRF from "
    "the partial sums (R_j ~ 1/j).",
    _GH_B,
    cached(lambda: R.trf_positive_stream(_gh_terms(), _GH_B()[0], _GH_B()[1], E3, 10**5)),
)
_S2 = lambda: mp.sqrt(2)  # noqa: E731


def _pg_inf():  # prod_(m>=1) (1 + 2/m^2)/(1 + 1/m^2) by Euler's sine product
    s2 = mp.sqrt(2)
    return (mp.sinh(mp.pi * s2) / (mp.pi * s2)) / (mp.sinh(mp.pi) / mp.pi)


def _pg_f(x):
    """P(x)/x^3 for real x >= 30: P_n = P_oo exp(-T_n), T_n = sum_(m > n) log((m^2 + 2)/(m^2
    + 1)) = sum_k (-1)^(k+1) (2^k - 1)/k zeta(2k, n + 1) (log(1 + 2/m^2) - log(1 + 1/m^2)
    expanded; the k-th term is below (2/(x+1)^2)^k: 40 terms suffice)."""
    T = mp.fsum((-1) ** (k + 1) * (2**k - 1) * mp.zeta(2 * k, x + 1) / k for k in range(1, 41))
    return _pg_inf() * mp.exp(-T) / x**3


def _pg_terms(K):
    p, out = mp.mpf(1), []
    for n in range(1, K + 1):
        p *= 1 + mp.mpf(1) / (n * n + 1)
        out.append(p / mp.mpf(n) ** 3)
    return out


def _pg_em(N, terms):
    """the first N - 1 products summed, the tail from N by Euler-Maclaurin on the smooth
    form (4 Bernoulli terms: the remainder is of the order of f^(8)(N) ~ 8! N^-11)."""
    v = mp.fsum(terms[: N - 1])
    v += mp.quad(_pg_f, [N, 2 * N, 8 * N, mp.inf]) + _pg_f(mp.mpf(N)) / 2
    for k in range(1, 5):
        v -= mp.bernoulli(2 * k) / mp.factorial(2 * k) * mp.diff(_pg_f, mp.mpf(N), 2 * k - 1)
    return v


def _pg_B():
    terms = _pg_terms(2000)
    for n in (30, 400, 2000):  # the smooth form against the products themselves
        assert abs(_pg_f(mp.mpf(n)) - terms[n - 1]) < mp.mpf(10) ** -45 * terms[n - 1], n
    a, b = _pg_em(400, terms), _pg_em(1000, terms)
    assert abs(a - b) < mp.mpf(10) ** -28, (a, b)
    # and inside the bracket of the 2000 products: P_N zeta(3, N) <= tail <= P_oo zeta(3, N)
    s, z = mp.fsum(terms[:1999]), mp.zeta(3, 2000)
    P = terms[1998] * mp.mpf(1999) ** 3
    assert s + P * z <= b <= s + _pg_inf() * z
    return b, 10 * abs(a - b) + mp.mpf(10) ** -30


_PG_B = cached(_pg_B)
add(
    "prod/product-m2-plus-2-over-m2-plus-1-over-n3",
    ["--rpe", "Product(1 + 1/(m**2 + 1), (m, 1, n))/n**3", *eps_args(E3)],
    True,
    "P_n = prod (m^2 + 2)/(m^2 + 1) increases to P_oo = sinh(pi sqrt 2)/(pi sqrt 2) / "
    "(sinh(pi)/pi) = 2.6024 (Euler's sine product); no real closed form: P_n = P_oo e^(-T_n), "
    "T_n = sum_(m>n) log((m^2 + 2)/(m^2 + 1)) = sum_k (-1)^(k+1) (2^k - 1) zeta(2k, n + 1)/k "
    "(checked against the products). B = the products summed to N plus Euler-Maclaurin on that "
    "smooth form from N = 400 and from N = 1000 (agree to 1e-28), inside [S + P_N zeta(3, N), "
    "S + P_oo zeta(3, N)] at N = 2000; TRF from the partial sums.",
    _PG_B,
    cached(lambda: R.trf_positive_checked(_pg_terms(400), _PG_B()[0], _PG_B()[1], E3)),
)


def _c2n_terms():  # c_(2n)/n, n = 1, 2, ...
    c, m, n = mp.mpf(1), 0, 0
    while True:
        c = c * (2 * m + 1) / (2 * m + 2)
        c = c * (2 * m + 3) / (2 * m + 4)
        m += 2
        n += 1
        yield c / n


def _c2n_B():
    v = 2 * mp.log(4 * (mp.sqrt(2) - 1))
    # second way: the first 2e5 terms plus the tail, between 2/sqrt(2 pi N) (1 -/+ 1/N)
    N = 200000
    it = _c2n_terms()
    s = mp.fsum(next(it) for _ in range(N))
    t = 2 / mp.sqrt(2 * mp.pi * N)
    assert s + t * (1 - mp.mpf(1) / N) <= v <= s + t * (1 + mp.mpf(1) / N), (s, v)
    return v, mp.mpf(10) ** -45


_C2N_B = cached(_c2n_B)
add(
    "prod/binomial-4n-2n-over-16n-n",
    ["--rpe", "binomial(4*n, 2*n)/(16**n*n)", *eps_args(E3)],
    True,
    "b_n = c_(2n)/n ~ 1/(sqrt(2 pi) n^(3/2)). With f(x) = sum_(m>=1) c_m x^m/m = 2 log(2/(1 + "
    "sqrt(1 - x))) (integrate ((1 - x)^(-1/2) - 1)/x), B = f(1) + f(-1) (the even m) = 2 log(4 "
    "(sqrt 2 - 1)) = 1.0098...; checked against the sum of 2e5 terms plus the tail "
    "2/sqrt(2 pi N) (1 +- 1/N). TRF from the partial sums (up to ~6e5 terms).",
    _C2N_B,
    cached(lambda: R.trf_positive_stream(_c2n_terms(), _C2N_B()[0], _C2N_B()[1], E3, 2 * 10**6)),
)
_ALT_C = lambda n: (-1) ** n * R.central(n) / n  # noqa: E731
_ALT_B = cached(
    lambda: R.two_ways(
        lambda: 2 * mp.log(2 * (mp.sqrt(2) - 1)),
        lambda: mp.nsum(_ALT_C, [1, mp.inf]),
    )
)
add(
    "prod/alt-binomial-over-4n-n",
    ["--rpe", "(-1)**n*binomial(2*n, n)/(4**n*n)", *eps_args(E3)],
    True,
    "|b| = c_n/n decreases to 0: Leibniz. B = f(-1) = 2 log(2/(1 + sqrt 2)) = 2 log(2 (sqrt 2 - "
    "1)) = -0.37645 (Abel's theorem; mpmath's alternating nsum agrees). Tail rule: |R_k| <= "
    "c_(k+1)/(k+1) beyond the 400 terms computed.",
    _ALT_B,
    cached(
        lambda: R.trf_signed_checked(
            [_ALT_C(mp.mpf(n)) for n in range(1, 401)],
            _ALT_B()[0],
            _ALT_B()[1],
            E3,
            lambda k: R.central(k + 1) / (k + 1),
        )
    ),
    others=True,
)


def _asin_terms():  # 1/(c_n n^2)
    c, n = mp.mpf(1), 0
    while True:
        n += 1
        c = c * (2 * n - 1) / (2 * n)
        yield 1 / (c * n * n)


def _asin_B():
    v = mp.pi**2 / 2
    N = 200000
    it = _asin_terms()
    s = mp.fsum(next(it) for _ in range(N))
    # tail ~ sum_(n > N) sqrt(pi) n^(-3/2) (1 + 1/(8n)): between 2 sqrt(pi/N) (1 -/+ 1/N)
    t = 2 * mp.sqrt(mp.pi / N)
    assert s + t * (1 - mp.mpf(1) / N) <= v <= s + t * (1 + mp.mpf(1) / N), (s, v)
    return v, mp.mpf(10) ** -45


_ASIN_B = cached(_asin_B)
add(
    "prod/arcsin-squared-4n-factorials-over-n2",
    ["--rpe", "4**n*factorial(n)**2/(factorial(2*n)*n**2)", *eps_args(E3)],
    True,
    "b_n = 4^n/(binomial(2n, n) n^2) = 1/(c_n n^2) ~ sqrt(pi) n^(-3/2). sum (2x)^(2n)/(n^2 "
    "binomial(2n, n)) = 2 arcsin(x)^2, at x = 1 (Abel): B = pi^2/2; checked against 2e5 terms "
    "plus the tail 2 sqrt(pi/N) (1 +- 1/N). TRF from the partial sums (up to ~5e5 terms).",
    _ASIN_B,
    cached(lambda: R.trf_positive_stream(_asin_terms(), _ASIN_B()[0], _ASIN_B()[1], E3, 2 * 10**6)),
)
add(
    "prod/div-product-shifted-inverse-square-over-n",
    ["--rpe", "Product(1 - 1/(m + 1)**2, (m, 1, n))/n"],
    False,
    "prod_(m=1..n) (1 - 1/(m+1)^2) = prod_(k=2..n+1) (k-1)(k+1)/k^2 = (n + 2)/(2(n + 1)) -> "
    "1/2: b_n = (n + 2)/(2 n (n + 1)) >= 1/(2n): diverges.",
)
add(
    "prod/div-product-one-plus-half-over-m-over-n",
    ["--rpe", "Product(1 + 1/(2*m), (m, 1, n))/n"],
    False,
    "prod (1 + 1/(2m)) = Gamma(n + 3/2)/(Gamma(3/2) n!) ~ 2 sqrt(n/pi) (and >= 1 + "
    "sum 1/(2m) >= 1): b_n >= 1/n: diverges.",
)
add(
    "refuse/gamma-pole-at-start",
    ["--rpe", "gamma(n - 3)/factorial(n)**3"],
    None,
    "Gamma(n - 3) has poles at n = 1, 2, 3 (Gamma(-2), Gamma(-1), Gamma(0)): the first terms "
    "are not defined, so the series from n = 1 is not defined.",
)

# ---------------------------------------------------------------------------------------
# 4. Max / Min / Abs of trigonometric terms
# ---------------------------------------------------------------------------------------


def _C2(theta):  # sum cos(n theta)/n^2 = pi^2/6 - pi theta/2 + theta^2/4, 0 <= theta <= 2 pi
    return mp.pi**2 / 6 - mp.pi * theta / 2 + theta**2 / 4


_COS2_B = cached(
    lambda: R.two_ways(
        lambda: mp.pi**2 / 6 - mp.pi / 2 + mp.mpf(1) / 2,
        lambda: (mp.zeta(2) + mp.clcos(2, 2)) / 2,
    )
)
_f_cos2 = lambda n: mp.cos(n) ** 2 / n**2  # noqa: E731
add(
    "trig/max-cos2-cos2-minus-1-over-n2",
    ["--rpe", "Max(cos(n)**2, cos(n)**2 - 1)/n**2", *eps_args(E3)],
    True,
    "Max(c^2, c^2 - 1) = c^2: b = cos(n)^2/n^2 = (1 + cos 2n)/(2 n^2) >= 0. B = (zeta(2) + "
    "Cl_cos(2, 2))/2 = pi^2/6 - pi/2 + 1/2 (sum cos(n t)/n^2 = pi^2/6 - pi t/2 + t^2/4 on [0, "
    "2 pi]); TRF from the partial sums (R_j ~ 1/(2j)).",
    _COS2_B,
    cached(
        lambda: R.trf_positive_checked(
            [_f_cos2(mp.mpf(n)) for n in range(1, 6001)], _COS2_B()[0], _COS2_B()[1], E3
        )
    ),
)
_SC_B = cached(
    lambda: R.two_ways(
        lambda: mp.pi**2 / 6 + mp.clsin(2, 2),
        lambda: mp.pi**2 / 6 + mp.im(mp.polylog(2, mp.exp(2j))),
    )
)
_f_sc = lambda n: (mp.sin(n) + mp.cos(n)) ** 2 / n**2  # noqa: E731
add(
    "trig/sin-plus-cos-squared-over-n2",
    ["--rpe", "(sin(n) + cos(n))**2/n**2", *eps_args(E3)],
    True,
    "(sin n + cos n)^2 = 1 + sin 2n >= 0: B = zeta(2) + Cl_2(2) (Clausen, sum sin(2n)/n^2 = Im "
    "Li_2(e^(2i)), two ways) = 2.6275...; TRF from the partial sums (R_j ~ 1/j).",
    _SC_B,
    cached(
        lambda: R.trf_positive_checked(
            [_f_sc(mp.mpf(n)) for n in range(1, 4001)], _SC_B()[0], _SC_B()[1], E3
        )
    ),
)
_OC_B = cached(
    lambda: R.two_ways(
        lambda: mp.pi / 2,
        lambda: 3 * mp.zeta(2) / 2 - 2 * mp.clcos(2, 1) + mp.clcos(2, 2) / 2,
    )
)
_f_oc = lambda n: (1 - mp.cos(n)) ** 2 / n**2  # noqa: E731
add(
    "trig/one-minus-cos-squared-over-n2",
    ["--rpe", "(1 - cos(n))**2/n**2", *eps_args(E3)],
    True,
    "(1 - cos n)^2 = 3/2 - 2 cos n + cos(2n)/2 >= 0: B = (3/2) zeta(2) - 2 C(1) + C(2)/2 with "
    "C(t) = pi^2/6 - pi t/2 + t^2/4: the pi^2 and constant parts cancel, B = pi/2 exactly "
    "(= sum 4 sin(n/2)^4/n^2; also from mpmath's Clausen functions); TRF from the partial "
    "sums (R_j ~ 3/(2j)).",
    _OC_B,
    cached(
        lambda: R.trf_positive_checked(
            [_f_oc(mp.mpf(n)) for n in range(1, 6001)], _OC_B()[0], _OC_B()[1], E3
        )
    ),
)
_KOKSMA = (
    "F is continuous, of bounded variation and of period pi; the discrepancy of n/pi mod 1 is "
    "D_N = O(N^(-1/(mu - 1) + d)), mu = mu(pi) <= 7.1033 (Zeilberger-Zudilin 2020; Kuipers-"
    "Niederreiter II.3.2), so by Koksma sum_(n<=N) F(n) = m N + O(N^0.837), m the mean of F."
)
add(
    "trig/abs-cos-minus-abs-sin-over-n",
    ["--rpe", "(Abs(cos(n)) - Abs(sin(n)))/n"],
    True,
    "F = |cos| - |sin| has mean 0 (F(y + pi/2) = -F(y)). " + _KOKSMA + " With m = 0, Abel "
    "summation: sum F(n)/n = S_N/N + sum S_n/(n(n+1)) converges (S_n = O(n^0.837)); not "
    "absolutely (|F| has positive mean).",
    others=True,
)
add(
    "trig/n8-abs-sin",
    ["--rpe", "1/(n**8*Abs(sin(n)))"],
    True,
    "|sin n| >= (2/pi) |n - k pi| = (2/pi) k |n/k - pi| >= c k^(1 - mu - d), k ~ n/pi, mu = "
    "mu(pi) <= 7.1033 (Zeilberger-Zudilin; Salikhov's 7.6063 suffices too): b_n <= C "
    "n^(-8 + 6.11 + d) = O(n^(-1.88)): converges termwise. (B: the constant of the measure "
    "is not explicit, so no reference B.)",
)
add(
    "div/min-sin2-cos2-over-n",
    ["--rpe", "Min(sin(n)**2, cos(n)**2)/n"],
    False,
    "F = min(sin^2, cos^2) >= 0 is continuous with mean (4/pi) int_0^(pi/4) sin^2 = 1/2 - 1/pi "
    "> 0: by Weyl sum_(n<=N) F(n) = m N + o(N), so by Abel summation sum F(n)/n = m log N + "
    "o(log N): diverges.",
)
add(
    "div/abs-sin-minus-two-thirds-over-sqrt",
    ["--rpe", "(Abs(sin(n)) - 2/3)/sqrt(n)"],
    False,
    "F = |sin| - 2/3 has mean 2/pi - 2/3 = -0.0301 < 0 (terms of both signs). "
    + _KOKSMA
    + " Abel: sum F(n) n^(-1/2) = m sum n^(-1/2) + O(1) -> -oo: diverges.",
    others=True,
)
add(
    "div/max-sin-sin2n-over-n",
    ["--rpe", "Max(sin(n), sin(2*n))/n"],
    False,
    "Max(a, b) = (a + b)/2 + |a - b|/2: sum (sin n + sin 2n)/(2n) converges (Dirichlet), and "
    "|sin y - sin 2y|/2 is continuous, >= 0, not 0 everywhere: positive mean, so its sum with "
    "1/n diverges (Weyl and Abel): diverges.",
    others=True,
)
add(
    "open/n3-abs-sin",
    ["--rpe", "1/(n**3*Abs(sin(n)))"],
    "open",
    "b_n -> 0 needs n^3 |sin n| -> oo, i.e. no |pi - p/q| < c q^(-4) infinitely often: true "
    "if mu(pi) < 4, false if mu(pi) > 4 (then p^-3 |sin p|^-1 ~ q^(mu - 4) does not tend to 0). "
    "Known: 2 <= mu(pi) <= 7.1033. Series of the Flint Hills type sum n^-u |sin n|^-v converge "
    "for mu(pi) < 1 + u/v and diverge for mu(pi) > 1 + u/v (Alekseyev 2011); here 1 + u/v = 4: "
    "open.",
)
add(
    "open/n4-abs-cos-three-halves",
    ["--rpe", "1/(n**4*Abs(cos(n))**(3/2))"],
    "open",
    "|cos n| ~ |n - (k + 1/2) pi| = (2k + 1)/2 |2n/(2k + 1) - pi|: the terms tend to 0 only if "
    "pi has no rational approximations 2n/(2k+1) of order beyond 1 + 4/(3/2) = 11/3; mu(pi) is "
    "known only to lie in [2, 7.1033]: neither convergence nor divergence is provable (Flint "
    "Hills type, cosine variant).",
)

# ---------------------------------------------------------------------------------------
# 5. Slowly converging positive series (TRFs beyond 10^12 as log10)
# ---------------------------------------------------------------------------------------
_Q102 = lambda: mp.mpf(51) / 50  # noqa: E731


def _I102a(U):  # int_U^oo e^(u - u^q) du
    U = mp.mpf(U)
    return mp.quad(lambda u: mp.exp(u - u ** _Q102()), [U, 2 * U, 8 * U, mp.inf])


def _I102b(U):  # w = u^q
    q = _Q102()
    W = mp.mpf(U) ** q
    return mp.quad(
        lambda w: mp.exp(w ** (1 / q) - w) * w ** (1 / q - 1) / q,
        [W, 2 * W, 8 * W, mp.inf],
    )


_S102 = R.SlowTail(lambda x: mp.exp(-(mp.log(x) ** _Q102())), 1, _I102a, _I102b)
add(
    "slow/power-disguised-exp-log-1.02",
    ["--rpe", "n**(-log(n)**(1/50))", *eps_args(E3)],
    True,
    "n^(-log(n)^(1/50)) = exp(-log(n)^(51/50)) (b_1 = 1): in u = log x the integral is int e^(u "
    "- u^1.02) du < oo (u^1.02 - u ~ 0.02 u log u -> oo faster than 2 log u): converges. B = "
    "head + Euler-Maclaurin (splits 4000, 8000), the integral in u and in w = u^1.02 (agree "
    "to 1e-30); TRF(0.1) = 5.3e11 exact (bisection on the Euler-Maclaurin tails), TRF(0.01) "
    "and TRF(0.001) beyond 10^12 as log10 from the crossing in t = log M.",
    cached(_S102.B),
    cached(lambda: _S102.trf(E3)),
)
_THIRD = lambda: mp.mpf(1) / 3  # noqa: E731


def _I3a(U):  # int_U^oo e^(-u^(1/3)) du = 3 Gamma(3, S), S = U^(1/3): elementary
    S = mp.mpf(U) ** _THIRD()
    return 3 * mp.exp(-S) * (S**2 + 2 * S + 2)


def _I3b(U):
    return 3 * mp.gammainc(3, mp.mpf(U) ** _THIRD())


_S3R = R.SlowTail(lambda x: mp.exp(-(mp.log(x) ** _THIRD())) / x, 1, _I3a, _I3b)
add(
    "slow/exp-cube-root-log-over-n",
    ["--rpe", "exp(-log(n)**(1/3))/n", *eps_args(E3)],
    True,
    "u = log x: int e^(-u^(1/3)) du = 3 Gamma(3, u^(1/3)) < oo: converges (b_1 = 1). B = head + "
    "Euler-Maclaurin with the tail integral 3 e^-S (S^2 + 2S + 2), S = (log M)^(1/3) (and by "
    "mpmath's gammainc); every TRF beyond 10^12 (log10 about 59, 244, 592).",
    cached(_S3R.B),
    cached(lambda: _S3R.trf(E3)),
)


def _Isqa(U):  # int_U^oo e^(-sqrt u)/sqrt(u) du = 2 e^(-sqrt U)
    return 2 * mp.exp(-mp.sqrt(mp.mpf(U)))


def _Isqb(U):
    U = mp.mpf(U)
    return mp.quad(lambda u: mp.exp(-mp.sqrt(u)) / mp.sqrt(u), [U, 4 * U, 16 * U, mp.inf])


_SSQ = R.SlowTail(lambda x: mp.exp(-mp.sqrt(mp.log(x))) / (x * mp.sqrt(mp.log(x))), 2, _Isqa, _Isqb)
add(
    "slow/exp-sqrt-log-over-n-sqrt-log-start-2",
    ["--rpe", "exp(-sqrt(log(n)))/(n*sqrt(log(n)))", "--start", "2", *eps_args(E3)],
    True,
    "u = log x: int e^(-sqrt u)/sqrt(u) du = 2 e^(-sqrt U): converges. B = head from 2 + "
    "Euler-Maclaurin (the integral closed and by quadrature); TRF(0.1) an exact integer "
    "(bisection on the tails), TRF(0.01), TRF(0.001) beyond 10^12 (log10).",
    cached(_SSQ.B),
    cached(lambda: _SSQ.trf(E3)),
    start=2,
)
E_LLL = (0.1, 0.03, 0.01)


def _f_lll(x):
    L1 = mp.log(x)
    L2 = mp.log(L1)
    return 1 / (x * L1 * L2 * mp.log(L2) ** 3)


def _I_lll_a(U):  # int_U^oo du/(u log u (log log u)^3) = 1/(2 (log log U)^2)
    return 1 / (2 * mp.log(mp.log(mp.mpf(U))) ** 2)


def _I_lll_b(U):  # quadrature to U^8 plus the closed form beyond (checks the antiderivative)
    U = mp.mpf(U)
    g = lambda u: 1 / (u * mp.log(u) * mp.log(mp.log(u)) ** 3)  # noqa: E731
    return mp.quad(g, [U, U**2, U**4, U**8]) + _I_lll_a(U**8)


_SLLL = R.SlowTail(_f_lll, 100, _I_lll_a, _I_lll_b)


def _lll_trf():
    B = _SLLL.B()[0]

    def R_of_t(t):  # tail from M = e^t: I + f(M)/2 (f(M)/I < e^-t: negligible beyond 1e-15)
        w = mp.log(mp.log(t))
        return 1 / (2 * w**2) + mp.exp(-t) / (2 * t * mp.log(t) * w**3)

    return R.log_scale_trf(R_of_t, B, E_LLL, mp.log(mp.mpf(10) ** 12), mp.mpf(10) ** 40)


add(
    "slow/triple-log-cubed-start-100",
    [
        "--rpe",
        "1/(n*log(n)*log(log(n))*log(log(log(n)))**3)",
        "--start",
        "100",
        *eps_args(E_LLL),
    ],
    True,
    "u = log x, w = log log u: int dw/w^3 < oo (Bertrand at the third level, exponent 3): "
    "converges; the tail from M is 1/(2 (log log log M)^2) + O(b_M). B ~ 2.8 (head from 100 + "
    "Euler-Maclaurin, the integral closed and by quadrature); log10 TRF = e^(e^w)/ln 10 with "
    "w = 1/sqrt(2 eps B): about 19.5, 4.2e4 and 2.5e29.",
    cached(_SLLL.B),
    cached(_lll_trf),
    start=100,
)

# ---------------------------------------------------------------------------------------
# 6. Free parameters (region proved on the whole line)
# ---------------------------------------------------------------------------------------
_GP = [{"p": v} for v in (-1, 0, 0.5, 1, 1.5, 2, 3)]
fam(
    "free/max-n-p-n-2",
    ["--rpe", "Max(n**(-p), n**(-2))", "--free", "p"],
    lambda d: d["p"] > 1,
    _GP,
    "for n >= 2, Max(n^-p, n^-2) = n^(-min(p, 2)): a p-series with exponent min(p, 2), "
    "convergent iff min(p, 2) > 1: converges iff p > 1.",
    others=False,
)
fam(
    "free/min-n-p-n-2",
    ["--rpe", "Min(n**(-p), n**(-2))", "--free", "p"],
    lambda d: True,
    _GP,
    "0 < Min(n^-p, n^-2) <= n^-2: converges for every real p.",
    others=False,
)
fam(
    "free/product-one-plus-a-over-m-over-n2",
    ["--rpe", "Product(1 + a/m, (m, 1, n))/n**2", "--free", "a"],
    lambda d: d["a"] < 1,
    [{"a": v} for v in (-3, -2.5, -1, -0.5, 0, 0.5, 1, 1.5, 3)],
    "prod_(m<=n) (1 + a/m) = Gamma(n + 1 + a)/(Gamma(1 + a) n!) ~ n^a/Gamma(1 + a) for a not a "
    "negative integer (then b ~ n^(a-2)/Gamma(1+a), of one sign for large n: converges iff a < "
    "1; a = 1: (n + 1)/n^2); for a = -k (k = 1, 2, ...) the factor m = k is 0 and every term "
    "from n = k on is 0: converges. Converges iff a < 1.",
)
fam(
    "free/alt-n-p-log-q-start-2",
    ["--rpe", "(-1)**n*n**(-p)*log(n)**q", "--free", "p", "--free", "q", "--start", "2"],
    lambda d: d["p"] > 0 or (d["p"] == 0 and d["q"] < 0),
    [{"p": p, "q": q} for p in (-0.5, 0, 0.5, 1) for q in (-1, 0, 2)],
    "g = n^-p log(n)^q, n >= 2. p > 0: g -> 0 and g'/g = (q/log n - p)/n < 0 for log n > q/p: "
    "Leibniz. p = 0: g = log(n)^q decreases to 0 iff q < 0 (Leibniz); q >= 0: |b| >= "
    "log(2)^q... does not tend to 0 (q = 0: |b| = 1). p < 0: |b| -> oo. Converges iff p > 0 or "
    "(p = 0 and q < 0).",
)
fam(
    "free/gamma-half-over-gamma-b",
    ["--rpe", "gamma(n + 1/2)/gamma(n + b)", "--free", "b"],
    lambda d: d["b"] > 1.5,
    [{"b": v} for v in (-2.5, -0.5, 0, 0.5, 1.5, 1.6, 2, 3)],
    "Gamma(n + 1/2)/Gamma(n + b) ~ n^(1/2 - b) (Stirling; positive once n + b > 0): converges "
    "iff b - 1/2 > 1; at b = 3/2 it is 1/(n + 1/2) (harmonic). Converges iff b > 3/2 (the "
    "grid avoids b = -1, -2, ..., where 1/Gamma(n + b) vanishes at the first terms).",
    others=False,
)
fam(
    "free/alt-atan-inverse-p",
    ["--rpe", "(-1)**n*atan(1/n)**p", "--free", "p"],
    lambda d: d["p"] > 0,
    [{"p": v} for v in (-1, -0.5, 0, 0.25, 1, 2)],
    "atan(1/n) decreases to 0: for p > 0 so does atan(1/n)^p (Leibniz); p = 0: (-1)^n; p < 0: "
    "|b| = atan(1/n)^p -> oo. Converges iff p > 0.",
)
fam(
    "free/exp-k-n-factorial-over-n-n",
    ["--rpe", "exp(-k*n)*factorial(n)/n**n", "--free", "k"],
    lambda d: d["k"] > -1,
    [{"k": v} for v in (-2, -1.5, -1, -0.5, 0, 1)],
    "n!/n^n ~ sqrt(2 pi n) e^-n (Stirling): b ~ sqrt(2 pi n) e^(-(k+1) n); ratio test: "
    "b_(n+1)/b_n = e^-k (1 + 1/n)^-n -> e^(-k-1); k = -1: b ~ sqrt(2 pi n) -> oo. Converges "
    "iff k > -1.",
    others=False,
)

# ---------------------------------------------------------------------------------------
# 7. Input that must be refused (exit 2, one error line)
# ---------------------------------------------------------------------------------------
add(
    "refuse/t5-three-values-four-buckets",
    ["--rpe", "t5", "--param", "num_buckets=4", "--bucket-values=-1,-2,-3"],
    None,
    "--bucket-values gives one value per bucket (--help); 3 values for 4 buckets leave a bucket "
    "without a bias.",
)
add(
    "refuse/truncate-zero",
    ["--rpe", "type1", "--truncate", "0"],
    None,
    "the truncated TRF (App. E) sums M terms and takes B as their sum: with M = 0 there is no "
    "term and B = 0, so TRF(eps) is not defined.",
)

#: series for the Ctrl-C trials (each runs long enough to be interrupted)
SIGINT_SERIES = [
    ["--rpe", "n**(-log(n)**(1/50))"],
    ["--rpe", "binomial(4*n, 2*n)/(16**n*n)"],
]

#: no extra cases: the whole set runs by default
EXTRA_CASES: list[Case] = []
assert len({c.id for c in CASES}) == len(CASES)
