"""Held-out set 8: commands as a researcher types them into ``python -m theory.trf``, with
the verdict derived by hand (the argument in each ``note``) and, where the series converges,
a reference B and TRF(eps) computed independently with mpmath (``heldout8_reference``):
closed forms (Hurwitz zeta and its derivatives, digamma, polylogarithms, theta functions,
Beta functions, Euler sums) or direct sums with a proved tail bound.

The fields of a :class:`Case` are those of set 7 (``heldout7_cases``): ``verdict`` True /
False / None (must be refused) / ``"open"``; ``B()`` -> (value, error); ``trf()`` ->
{eps: int, or ("log10", value, tol)}; ``cond`` (predicate, grid) for ``--free`` families;
``files`` written beside the run; ``error_ok`` a named refusal is honest; ``others`` the
decision lies in the sign-changing or free-parameter engines.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp
import numpy as np

try:
    from . import heldout8_reference as R
    from .heldout7_cases import Case, cached, eps_args, exact, npy_bytes, txt_bytes
except ImportError:  # run as a script from this folder
    import heldout8_reference as R
    from heldout7_cases import Case, cached, eps_args, exact, npy_bytes, txt_bytes

E3 = (0.1, 0.01, 0.001)
E2 = (0.1, 0.01)
E5 = (0.3, 0.03, 0.003)
TINY = mp.mpf(10) ** -45


def geo_trf(rate, eps_list):
    """TRF of b = C e^(-rate t): R_j/B = e^(-rate j), so the least j > ln(1/eps)/rate
    (``rate`` a number or a function evaluated at the references' precision)."""

    def trf():
        r = rate() if callable(rate) else mp.mpf(rate)
        return {e: int(mp.floor(mp.log(1 / R.eps_mp(e)) / r)) + 1 for e in eps_list}

    return cached(trf)


CASES: list[Case] = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


def fam(id_, args, pred, grid, note, others=True):
    add(id_, args, None, note, cond=(pred, grid), others=others)


# ---------------------------------------------------------------------------------------
# Named RPEs at unusual but valid parameters
# ---------------------------------------------------------------------------------------
_K3 = lambda: mp.mpf(3) / 1000  # noqa: E731 (at the working precision)
add(
    "named/alibi-k0.003-tiny-eps",
    ["--rpe", "alibi", "--param", "k=0.003", "--eps", "1e-06", "1e-09", "1e-200"],
    True,
    "b_t = e^(-k t), t >= 0, k = 3/1000: B = 1/(1 - e^-k); R_j/B = e^(-k j).",
    cached(lambda: (-1 / mp.expm1(-_K3()), TINY)),
    geo_trf(_K3, (1e-06, 1e-09, 1e-200)),
    start=0,
)
_KSUB = lambda: mp.mpf("5e-324")  # noqa: E731 (at the working precision)
add(
    "named/alibi-subnormal-slope",
    ["--rpe", "alibi", "--param", "k=5e-324", *eps_args(E3)],
    True,
    "k = 5e-324 (the decimal typed): B = 1/(1 - e^-k) ~ 2e323, beyond float64; TRF ~ "
    "ln(1/eps)/k ~ 10^323.7.",
    cached(lambda: (-1 / mp.expm1(-_KSUB()), mp.mpf(10) ** 280)),
    cached(
        lambda: {e: ("log10", float(mp.log10(mp.log(1 / R.eps_mp(e)) / _KSUB())), 1e-9) for e in E3}
    ),
    start=0,
)
add(
    "named/kerple-log-r3.5-k0.25",
    ["--rpe", "kerple-log", "--param", "r=3.5", "--param", "k=0.25", *eps_args(E3)],
    True,
    "(1 + t/4)^-3.5 = 4^3.5 (t + 4)^-3.5, t >= 0: B = 128 zeta(3.5, 4); "
    "R_j = 128 zeta(3.5, 4 + j) (Hurwitz).",
    cached(lambda: (128 * mp.zeta(3.5, 4), TINY)),
    cached(
        lambda: R.trf_from_tail(
            lambda j: 128 * mp.zeta(3.5, 4 + j), 128 * mp.zeta(3.5, 4), E3, hi=10**5
        )
    ),
    start=0,
)
add(
    "named/kerple-log-r0.999-k3",
    ["--rpe", "kerple-log", "--param", "r=0.999", "--param", "k=3"],
    False,
    "(1 + 3t)^-0.999 >= (4t)^-1 for t >= 1: harmonic minorant.",
)


def _exp3sqrt_tail(N):  # sum_{t>=N} e^(-3 sqrt t) <= e^(-3r) + int_N^oo = e^(-3r)(1 + 2(r/3 + 1/9))
    r = mp.sqrt(N)
    return mp.exp(-3 * r) * (1 + 2 * (r / 3 + mp.mpf(1) / 9))


_B_kp_half = cached(
    lambda: R.direct_sum(lambda t: mp.exp(-3 * mp.sqrt(t)), 0, 3000, _exp3sqrt_tail)
)
add(
    "named/kerple-power-r0.5-k3",
    ["--rpe", "kerple-power", "--param", "r=0.5", "--param", "k=3", *eps_args(E3)],
    True,
    "e^(-3 sqrt t), t >= 0: stretched exponential; tail by the integral test.",
    _B_kp_half,
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-3 * mp.sqrt(t)) for t in range(0, 600)], _B_kp_half()[0], E3
        )
    ),
    start=0,
)
_Q001 = lambda: mp.exp(-mp.mpf(1) / 100)  # noqa: E731
_B_kp_gauss = cached(lambda: ((mp.jtheta(3, 0, _Q001()) + 1) / 2, TINY))
add(
    "named/kerple-power-r2-k0.01",
    ["--rpe", "kerple-power", "--param", "r=2", "--param", "k=0.01", *eps_args(E3)],
    True,
    "e^(-t^2/100), t >= 0: B = (theta3(0, e^-1/100) + 1)/2 (Jacobi theta).",
    _B_kp_gauss,
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-(mp.mpf(t) ** 2) / 100) for t in range(0, 200)], _B_kp_gauss()[0], E3
        )
    ),
    start=0,
)


def _kp15_tail(N):  # t^1.5 >= sqrt(N) t for t >= N: geometric majorant
    k = mp.mpf(1) / 1000
    return mp.exp(-k * mp.mpf(N) ** 1.5) / -mp.expm1(-k * mp.sqrt(N))


_KP15 = cached(lambda: [mp.exp(-(mp.mpf(t) ** 1.5) / 1000) for t in range(0, 40000)])
_B_kp15 = cached(lambda: (mp.fsum(_KP15()) + _kp15_tail(40000) / 2, _kp15_tail(40000) / 2))
add(
    "named/kerple-power-r1.5-k0.001",
    ["--rpe", "kerple-power", "--param", "r=1.5", "--param", "k=0.001", "--eps", "0.5", "1e-08"],
    True,
    "e^(-t^1.5/1000): converges; t^1.5 >= sqrt(N) t beyond N gives a geometric tail.",
    _B_kp15,
    cached(lambda: R.trf_from_terms(_KP15(), _B_kp15()[0], (0.5, 1e-08))),
    start=0,
)
add(
    "named/sandwich-d4-r100",
    ["--rpe", "sandwich", "--param", "k=0.5", "--param", "r=100", "--param", "d=4"],
    False,
    "each cos - 1 >= -2, so b_t >= e^(-k d) = e^-2 > 0: terms do not tend to 0.",
)
add(
    "named/t5-four-buckets",
    [
        "--rpe",
        "t5",
        "--param",
        "num_buckets=4",
        "--param",
        "max_distance=16",
        "--bucket-values=-1,-2,-3,-4",
    ],
    False,
    "the last bucket holds every distance beyond max_distance: b = e^-4 forever.",
)
add(
    "named/inv-n-start-7",
    ["--rpe", "inv-n", "--start", "7"],
    False,
    "harmonic tail.",
)


# ---------------------------------------------------------------------------------------
# Positive terms with closed-form sums and tails
# ---------------------------------------------------------------------------------------
def _rat_tail(coeffs, m):
    """sum_{n>=m} sum_i c_i/(n + a_i) with sum c_i = 0: -sum_i c_i psi(m + a_i) (digamma)."""
    return -mp.fsum(c * mp.digamma(m + a) for c, a in coeffs)


_P133 = [(mp.mpf(1) / 3, 0), (-mp.mpf(1) / 2, 1), (mp.mpf(1) / 6, 3)]
add(
    "pos/partial-fractions-n-n1-n3",
    ["--rpe", "1/(n*(n+1)*(n+3))", "--eps", "0.9", "0.5", "0.05", "1e-05"],
    True,
    "1/(n(n+1)(n+3)) = 1/(3n) - 1/(2(n+1)) + 1/(6(n+3)): B = 7/36; "
    "R_j = -sum c_i psi(j + 1 + a_i).",
    exact(Fraction(7, 36)),
    cached(
        lambda: R.trf_from_tail(
            lambda j: _rat_tail(_P133, j + 1), mp.mpf(7) / 36, (0.9, 0.5, 0.05, 1e-05)
        )
    ),
)
_N2N4 = cached(lambda: [mp.mpf(n) ** 2 / (mp.mpf(n) ** 4 + 4) for n in range(1, 8000)])
_B_n2n4 = cached(lambda: (mp.pi / mp.tanh(mp.pi) / 4, TINY))
add(
    "pos/sophie-germain-rational",
    ["--rpe", "n**2/(n**4 + 4)", *eps_args(E3)],
    True,
    "n^4 + 4 = (n^2 - 2n + 2)(n^2 + 2n + 2); with f(m) = m/(m^2 + 1), g(m) = 1/(m^2 + 1): "
    "b = (f(n-1) - f(n+1) + g(n-1) + g(n+1))/4, so B = pi coth(pi)/4.",
    _B_n2n4,
    cached(lambda: R.trf_from_terms(_N2N4(), _B_n2n4()[0], E3)),
)
add(
    "pos/log-squared-over-cube",
    ["--rpe", "log(n)**2/n**3", *eps_args(E3)],
    True,
    "B = zeta''(3); R_j = zeta''(3, j + 1) (Hurwitz zeta, second derivative in s).",
    cached(lambda: (mp.zeta(3, 1, 2), TINY)),
    cached(lambda: R.trf_from_tail(lambda j: mp.zeta(3, j + 1, 2), mp.zeta(3, 1, 2), E3)),
)


def _half_gamma_partial(j):  # S_j = H_j/2 - log(prod_{n<=j} (n + 1/2)/n)
    return mp.harmonic(j) / 2 - (
        mp.loggamma(j + 1.5) - mp.loggamma(mp.mpf(1.5)) - mp.loggamma(j + 1)
    )


_B_halfg = cached(lambda: ((mp.euler + mp.log(mp.pi / 4)) / 2, TINY))
add(
    "pos/half-euler-gamma",
    ["--rpe", "1/(2*n) - log(1 + 1/(2*n))", *eps_args(E3)],
    True,
    "terms > 0 (log(1 + x) < x); S_j = H_j/2 - log(Gamma(j + 3/2)/(Gamma(3/2) j!)), and "
    "Wallis/Stirling give B = (gamma + log(pi/4))/2.",
    _B_halfg,
    cached(
        lambda: R.trf_from_tail(lambda j: _B_halfg()[0] - _half_gamma_partial(j), _B_halfg()[0], E3)
    ),
)
add(
    "pos/beta-n-three-halves",
    ["--rpe", "gamma(n)*gamma(3/2)/gamma(n + 3/2)", *eps_args(E3)],
    True,
    "b_n = Beta(n, 3/2) = int x^(n-1) (1-x)^(1/2): sum_{n>j} = int x^j (1-x)^(-1/2) = "
    "Beta(j + 1, 1/2); B = Beta(1, 1/2) = 2.",
    exact(2),
    cached(lambda: R.trf_from_tail(lambda j: mp.beta(j + 1, mp.mpf(1) / 2), mp.mpf(2), E3)),
)
add(
    "pos/product-half-over-two",
    ["--rpe", "Product((2*m - 1)/(2*m + 2), (m, 1, n))", *eps_args(E3)],
    True,
    "b_n = Gamma(n + 1/2)/(sqrt(pi) Gamma(n + 2)) = d_n - d_(n+1), d_n = 2 Gamma(n + 1/2)/"
    "(sqrt(pi) Gamma(n + 1)) -> 0: B = d_1 = 1, R_j = d_(j+1).",
    exact(1),
    cached(
        lambda: R.trf_from_tail(
            lambda j: 2 * mp.gamma(j + 1.5) / (mp.sqrt(mp.pi) * mp.gamma(j + 2)), mp.mpf(1), E3
        )
    ),
)
_CB5 = cached(lambda: [mp.binomial(2 * n, n) / mp.mpf(6) ** n for n in range(1, 800)])
add(
    "pos/central-binomial-over-6n",
    ["--rpe", "factorial(2*n)/(factorial(n)**2*6**n)", "--eps", "0.1", "0.001", "1e-12"],
    True,
    "sum_{n>=1} binom(2n, n) x^n = 1/sqrt(1 - 4x) - 1 at x = 1/6: B = sqrt(3) - 1.",
    cached(lambda: (mp.sqrt(3) - 1, TINY)),
    cached(lambda: R.trf_from_terms(_CB5(), mp.sqrt(3) - 1, (0.1, 0.001, 1e-12))),
)
add(
    "pos/bias-n2-over-3n",
    ["--bias=2*log(n) - n*log(3)", *eps_args(E3)],
    True,
    "b = n^2/3^n: sum n^2 x^n = x(1 + x)/(1 - x)^3 = 3/2 at x = 1/3.",
    exact(Fraction(3, 2)),
    cached(
        lambda: R.trf_from_terms(
            [mp.mpf(n) ** 2 / mp.mpf(3) ** n for n in range(1, 200)], mp.mpf(3) / 2, E3
        )
    ),
)


@cached
def _B_cos2_n3():
    return 1.5 * mp.zeta(3) + mp.re(mp.polylog(3, mp.expj(2))) / 2, mp.mpf(10) ** -40


add(
    "pos/one-plus-cos-squared-over-cube",
    ["--rpe", "(1 + cos(n)**2)/n**3", *eps_args(E3)],
    True,
    "0 < b <= 2/n^3; 1 + cos^2 n = 3/2 + cos(2n)/2: B = 3 zeta(3)/2 + Re Li_3(e^(2i))/2.",
    _B_cos2_n3,
    cached(
        lambda: R.trf_from_terms(
            [(1 + mp.cos(n) ** 2) / mp.mpf(n) ** 3 for n in range(1, 3000)], _B_cos2_n3()[0], E3
        )
    ),
)


@cached
def _B_exp_sin2():
    N = 200
    head = mp.fsum(mp.exp(-n * (1 + mp.sin(n) ** 2)) for n in range(1, N))
    U = mp.exp(-N) / (1 - mp.exp(-1))  # b_n <= e^-n
    return head + U / 2, U / 2


add(
    "pos/exp-n-one-plus-sin2",
    ["--rpe", "exp(-n*(1 + sin(n)**2))", *eps_args(E3)],
    True,
    "0 < b <= e^-n: geometric majorant (the tail beyond 200 below e^-200/(1 - 1/e)).",
    _B_exp_sin2,
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-n * (1 + mp.sin(n) ** 2)) for n in range(1, 200)], _B_exp_sin2()[0], E3
        )
    ),
)
add(
    "pos/stirling-limit-diverges",
    ["--rpe", "exp(n)*factorial(n)/n**(n + 1/2)"],
    False,
    "Stirling: n! e^n/n^(n + 1/2) -> sqrt(2 pi): terms do not tend to 0.",
)
_TWOF = cached(
    lambda: [mp.exp(n * mp.log(2.5) + mp.loggamma(n + 1) - n * mp.log(n)) for n in range(1, 2000)]
)
add(
    "pos/five-halves-n-factorial-over-nn",
    ["--rpe", "(5/2)**n*factorial(n)/n**n", *eps_args(E3)],
    True,
    "ratio (5/2) (n/(n+1))^n decreases to 5/(2e) < 0.92 (so the tail beyond 2000 is below "
    "b_2000/(1 - 0.92) ~ 1e-70).",
    cached(lambda: (mp.fsum(_TWOF()), mp.mpf(10) ** -80)),
    cached(lambda: R.trf_from_terms(_TWOF(), mp.fsum(_TWOF()), E3)),
)
add(
    "pos/eleven-n-factorial-over-4n-n",
    ["--rpe", "11**n*factorial(n)/(4*n)**n"],
    False,
    "ratio (11/4) (n/(n+1))^n -> 11/(4e) > 1.",
)
add(
    "pos/trinomial-27n-diverges",
    ["--rpe", "factorial(3*n)/(factorial(n)**3*27**n)"],
    False,
    "Stirling: (3n)!/(n!^3 27^n) ~ sqrt(3)/(2 pi n): harmonic.",
)
_B37 = cached(lambda: [mp.binomial(3 * n, n) / mp.mpf(7) ** n for n in range(1, 6000)])
add(
    "pos/binomial-3n-n-over-7n",
    ["--rpe", "binomial(3*n, n)/7**n", *eps_args(E3)],
    True,
    "ratio (3n+3)(3n+2)(3n+1)/(7 (n+1)(2n+2)(2n+1)) increases to 27/28: tail beyond N "
    "below 28 b_N (b_6000 ~ 1e-97).",
    cached(lambda: (mp.fsum(_B37()), mp.mpf(10) ** -80)),
    cached(lambda: R.trf_from_terms(_B37(), mp.fsum(_B37()), E3)),
)


@cached
def _prod_cube():
    N = 100000
    P, S, terms = mp.mpf(1), mp.mpf(0), []
    for n in range(1, N):
        P *= 1 + mp.mpf(2) / mp.mpf(n) ** 3
        t = P / mp.mpf(n) ** 2
        S += t
        if n < 20000:
            terms.append(t)
    # prod (1 + a^3/m^3) = 1/(Gamma(1 + a) Gamma(1 + a w) Gamma(1 + a w^2)), a^3 = 2
    a, w = mp.cbrt(2), mp.expj(2 * mp.pi / 3)
    Pinf = mp.re(1 / (mp.gamma(1 + a) * mp.gamma(1 + a * w) * mp.gamma(1 + a * w**2)))
    lo, hi = P * mp.zeta(2, N), Pinf * mp.zeta(2, N)  # P_N <= P_n <= P_inf for n >= N
    return (S + (lo + hi) / 2, (hi - lo) / 2 + mp.mpf(10) ** -40), terms


add(
    "pos/product-one-plus-two-inv-cube-over-n2",
    ["--rpe", "Product(1 + 2/m**3, (m, 1, n))/n**2", *eps_args(E3)],
    True,
    "P_n increases to 1/(Gamma(1 + a) Gamma(1 + a w) Gamma(1 + a w^2)) (a^3 = 2, w^3 = 1): "
    "b <= P_inf/n^2; tail beyond N between "
    "P_N zeta(2, N) and P_inf zeta(2, N).",
    lambda: _prod_cube()[0],
    cached(lambda: R.trf_from_terms(_prod_cube()[1], _prod_cube()[0][0], E3)),
)


def _sqrt_tail_1(N):  # n/sqrt(log(n+1)) >= sqrt(n): sum_{n>=N} e^-sqrt(n) <= e^-r (1 + 2(r + 1))
    r = mp.sqrt(N)
    return mp.exp(-r) * (1 + 2 * (r + 1))


_B_nlog = cached(
    lambda: R.direct_sum(lambda n: mp.exp(-n / mp.sqrt(mp.log(n + 1))), 1, 30000, _sqrt_tail_1)
)
add(
    "pos/exp-n-over-sqrt-log",
    ["--rpe", "exp(-n/sqrt(log(n + 1)))", *eps_args(E3)],
    True,
    "n/sqrt(log(n+1)) >= sqrt(n): b <= e^-sqrt(n); tail beyond 30000 below e^-173 (integral test).",
    _B_nlog,
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-n / mp.sqrt(mp.log(n + 1))) for n in range(1, 3000)], _B_nlog()[0], E3
        )
    ),
)


def _exp_inv_tail(j):  # sum_{n>j} (cosh(1/n) - 1) = sum_{k>=1} zeta(2k, j + 1)/(2k)!
    return mp.nsum(lambda k: mp.zeta(2 * k, j + 1) / mp.factorial(2 * k), [1, mp.inf])


add(
    "pos/cosh-inv-n-minus-1",
    ["--rpe", "cosh(1/n) - 1", *eps_args(E3)],
    True,
    "cosh x - 1 = sum_{k>=1} x^(2k)/(2k)!: B = sum_k zeta(2k)/(2k)!, R_j the same with "
    "zeta(2k, j + 1) (Hurwitz).",
    cached(lambda: (_exp_inv_tail(0), mp.mpf(10) ** -40)),
    cached(lambda: R.trf_from_tail(_exp_inv_tail, _exp_inv_tail(0), E3)),
)


def _sqrt_diff_tail(j):
    """sum_{n>j} (sqrt(n+1) - sqrt(n))/n = sum_{k>=1} binom(1/2, k) zeta(k + 1/2, j + 1)
    for j >= 1 (|1/n| <= 1/2: geometric in k); j = 0 adds b_1 = sqrt(2) - 1."""
    if j == 0:
        return mp.sqrt(2) - 1 + _sqrt_diff_tail(1)
    return mp.nsum(lambda k: mp.binomial(mp.mpf(1) / 2, k) * mp.zeta(k + 0.5, j + 1), [1, mp.inf])


add(
    "pos/sqrt-difference-over-n",
    ["--rpe", "(sqrt(n + 1) - sqrt(n))/n", *eps_args(E2)],
    True,
    "b = sqrt(n) (sqrt(1 + 1/n) - 1)/n ~ n^(-3/2)/2; binomial series in 1/n, summed with "
    "Hurwitz zeta.",
    cached(lambda: (_sqrt_diff_tail(0), mp.mpf(10) ** -40)),
    cached(lambda: R.trf_from_tail(_sqrt_diff_tail, _sqrt_diff_tail(0), E2, hi=10**9)),
)


def _log1p_sq_tail(j):
    """sum_{n>j} log(1 + 1/n)^2 with log(1 + x)^2 = sum_{k>=2} 2 (-1)^k H_(k-1) x^k/k
    (j >= 1); j = 0 adds log(2)^2."""
    if j == 0:
        return mp.log(2) ** 2 + _log1p_sq_tail(1)
    return mp.nsum(
        lambda k: 2 * (-1) ** int(k) * mp.harmonic(k - 1) / k * mp.zeta(k, j + 1), [2, mp.inf]
    )


add(
    "pos/log1p-inv-n-squared",
    ["--rpe", "log(1 + 1/n)**2", *eps_args(E3)],
    True,
    "log(1 + 1/n)^2 <= 1/n^2; series of log(1 + x)^2 summed with Hurwitz zeta.",
    cached(lambda: (_log1p_sq_tail(0), mp.mpf(10) ** -40)),
    cached(lambda: R.trf_from_tail(_log1p_sq_tail, _log1p_sq_tail(0), E3)),
)


def _atan_tail(j):
    """sum_{n>j} atan(n)/n^2 = pi/2 zeta(2, j+1) - sum_k (-1)^k zeta(2k + 3, j+1)/(2k + 1)
    (atan n = pi/2 - atan(1/n), j >= 1); j = 0 adds atan(1)."""
    if j == 0:
        return mp.pi / 4 + _atan_tail(1)
    s = mp.nsum(lambda k: (-1) ** int(k) * mp.zeta(2 * k + 3, j + 1) / (2 * k + 1), [0, mp.inf])
    return mp.pi / 2 * mp.zeta(2, j + 1) - s


add(
    "pos/atan-n-over-n2",
    ["--rpe", "atan(n)/n**2", *eps_args(E3)],
    True,
    "0 < b < pi/(2 n^2); atan(n) = pi/2 - atan(1/n) expanded in 1/n.",
    cached(lambda: (_atan_tail(0), mp.mpf(10) ** -40)),
    cached(lambda: R.trf_from_tail(_atan_tail, _atan_tail(0), E3)),
)


def _nlog_cube_tail(j):
    """sum_{n>j} n log(1 + 1/n^3) = sum_k (-1)^(k+1) zeta(3k - 1, j + 1)/k (j >= 1)."""
    if j == 0:
        return mp.log(2) + _nlog_cube_tail(1)
    return mp.nsum(lambda k: (-1) ** int(k + 1) * mp.zeta(3 * k - 1, j + 1) / k, [1, mp.inf])


add(
    "pos/n-log1p-inv-cube",
    ["--rpe", "n*log(1 + 1/n**3)", *eps_args(E3)],
    True,
    "n log(1 + 1/n^3) <= 1/n^2.",
    cached(lambda: (_nlog_cube_tail(0), mp.mpf(10) ** -40)),
    cached(lambda: R.trf_from_tail(_nlog_cube_tail, _nlog_cube_tail(0), E3)),
)
_NLF = cached(lambda: [mp.exp(mp.log(n) ** 2 - mp.loggamma(n + 1)) for n in range(1, 400)])
add(
    "pos/n-pow-log-over-factorial",
    ["--rpe", "n**log(n)/factorial(n)", *eps_args(E3)],
    True,
    "log b = log(n)^2 - log n! ~ -n log n: ratio below 1/2 beyond n = 40, so the tail "
    "beyond 400 is below 2 b_400 ~ 1e-700.",
    cached(lambda: (mp.fsum(_NLF()), mp.mpf(10) ** -45)),
    cached(lambda: R.trf_from_terms(_NLF(), mp.fsum(_NLF()), E3)),
)


@cached
def _B_n2_plus_sin():
    # 1/(n^2 + s) = 1/n^2 - s/n^4 + s^2/(n^4 (n^2 + s)); the last sum beyond N is below
    # sum 1/(n^4 (n^2 - 1)) < 1/(5 (N - 1)^5)
    N = 10000
    rest = mp.fsum(
        mp.sin(n) ** 2 / (mp.mpf(n) ** 4 * (mp.mpf(n) ** 2 + mp.sin(n))) for n in range(1, N)
    )
    U = 1 / (5 * mp.mpf(N - 1) ** 5)
    return mp.zeta(2) - mp.im(mp.polylog(4, mp.expj(1))) + rest + U / 2, U / 2


add(
    "pos/inv-n2-plus-sin",
    ["--rpe", "1/(n**2 + sin(n))", *eps_args(E3)],
    True,
    "n^2 + sin n > 0; b <= 1/(n^2 - 1) beyond n = 1. B = zeta(2) - Im Li_4(e^i) + "
    "sum sin^2/(n^4 (n^2 + sin)).",
    _B_n2_plus_sin,
    cached(
        lambda: R.trf_from_terms(
            [1 / (mp.mpf(n) ** 2 + mp.sin(n)) for n in range(1, 5000)], _B_n2_plus_sin()[0], E3
        )
    ),
)


@cached
def _B_sin2_n4():
    N = 100000
    head = mp.fsum(mp.exp(-(mp.sin(n) ** 2)) / mp.mpf(n) ** 4 for n in range(1, N))
    lo, hi = mp.exp(-1) * mp.zeta(4, N), mp.zeta(4, N)
    return head + (lo + hi) / 2, (hi - lo) / 2


add(
    "pos/bias-exp-minus-sin2-over-n4",
    ["--bias=-4*log(n) - sin(n)**2", *eps_args(E3)],
    True,
    "b = e^(-sin^2 n)/n^4 in [e^-1/n^4, 1/n^4].",
    _B_sin2_n4,
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-(mp.sin(n) ** 2)) / mp.mpf(n) ** 4 for n in range(1, 200)], _B_sin2_n4()[0], E3
        )
    ),
)


def _n2_sqrt_tail(N):  # f = x^2 e^-sqrt(x) decreasing for x > 16: f(N) + 2 Gamma(6, sqrt N)
    return mp.mpf(N) ** 2 * mp.exp(-mp.sqrt(N)) + 2 * mp.gammainc(6, mp.sqrt(N))


_N2SQ = cached(lambda: [mp.mpf(n) ** 2 * mp.exp(-mp.sqrt(n)) for n in range(1, 40000)])
_B_n2sq = cached(lambda: (mp.fsum(_N2SQ()) + _n2_sqrt_tail(40000) / 2, _n2_sqrt_tail(40000) / 2))
add(
    "pos/n2-exp-minus-sqrt",
    ["--rpe", "n**2*exp(-n**0.5)", "--eps", "0.5", "0.05", "1e-06"],
    True,
    "n^2 e^-sqrt(n) ~ stretched exponential; B ~ 2 Gamma(6) = 240; tail by the integral "
    "test (x = u^2).",
    _B_n2sq,
    cached(lambda: R.trf_from_terms(_N2SQ(), _B_n2sq()[0], (0.5, 0.05, 1e-06))),
)


@cached
def _B_sin2_exp():
    q, w = mp.exp(-1), mp.exp(mp.mpc(-1, 2))
    return (q / (1 - q) - mp.re(w / (1 - w))) / 2, TINY


add(
    "pos/sin2-times-exp",
    ["--rpe", "sin(n)**2*exp(-n)", *eps_args(E3)],
    True,
    "sin^2 n = (1 - cos 2n)/2 > 0 at integers: B = (q/(1-q) - Re w/(1-w))/2, q = 1/e, "
    "w = e^(-1 + 2i).",
    _B_sin2_exp,
    cached(
        lambda: R.trf_from_terms(
            [mp.sin(n) ** 2 * mp.exp(-n) for n in range(1, 200)], _B_sin2_exp()[0], E3
        )
    ),
)


def _icbrt(n):
    k = round(n ** (1 / 3))
    while k**3 > n:
        k -= 1
    while (k + 1) ** 3 <= n:
        k += 1
    return k


@cached
def _floor_cbrt_ref():
    # sum floor(n^(1/3))/n^2 = sum_{k>=1} zeta(2, k^3); zeta(2, x) = 1/x + 1/(2x^2) +
    # 1/(6x^3) - 1/(30x^5) + 1/(42x^7) - ... (Euler-Maclaurin), summed over k > K
    K = 2000
    head = mp.fsum(mp.zeta(2, k**3) for k in range(1, K + 1))
    tail = (
        mp.zeta(3, K + 1)
        + mp.zeta(6, K + 1) / 2
        + mp.zeta(9, K + 1) / 6
        - mp.zeta(15, K + 1) / 30
        + mp.zeta(21, K + 1) / 42
    )
    return head + tail, mp.mpf(10) ** -40


add(
    "pos/floor-cbrt-over-n2",
    ["--rpe", "floor(n**(1/3))/n**2", *eps_args(E2)],
    True,
    "floor(n^(1/3)) <= n^(1/3): b <= n^(-5/3). B = sum_k zeta(2, k^3) (floor(n^(1/3)) "
    "counts the k with k^3 <= n).",
    _floor_cbrt_ref,
    cached(
        lambda: R.trf_from_terms(
            [mp.mpf(_icbrt(n)) / mp.mpf(n) ** 2 for n in range(1, 200000)],
            _floor_cbrt_ref()[0],
            E2,
        )
    ),
)
add(
    "pos/piecewise-linear-head",
    ["--rpe", "Piecewise((n, n < 5), (1/n**2, True))", *eps_args(E3)],
    True,
    "1 + 2 + 3 + 4, then 1/n^2: B = 10 + zeta(2, 5); R_j from the terms.",
    cached(lambda: (10 + mp.zeta(2, 5), TINY)),
    cached(
        lambda: R.trf_from_tail(
            lambda j: mp.fsum(range(j + 1, 5)) + mp.zeta(2, 5) if j < 4 else mp.zeta(2, j + 1),
            10 + mp.zeta(2, 5),
            E3,
        )
    ),
)


# ---------------------------------------------------------------------------------------
# Positive terms, verdict only: logs, iterated logs, exp of these, oscillating exponents
# ---------------------------------------------------------------------------------------
for _id, _args, _v, _note in [
    (
        "log/exp-minus-sqrt-log-over-n2",
        ["--rpe", "exp(-sqrt(log(n)))/n**2"],
        True,
        "b <= 1/n^2.",
    ),
    ("log/loglog-shifted-over-n2", ["--rpe", "log(log(n + 2))/n**2"], True, "b <= log(n)/n^2."),
    (
        "log/loglog-squared-over-nlog2",
        ["--rpe", "log(log(n))**2/(n*log(n)**2)", "--start", "3"],
        True,
        "log(log n)^2 <= sqrt(log n) eventually: b <= 1/(n log(n)^(3/2)): Bertrand.",
    ),
    (
        "log/exp-minus-loglog-cubed",
        ["--rpe", "exp(-log(log(n))**3)", "--start", "3"],
        False,
        "(log log n)^3 <= log n = e^(log log n) eventually: b >= 1/n.",
    ),
    (
        "log/log-pow-sqrt-log",
        ["--rpe", "1/log(n)**sqrt(log(n))", "--start", "2"],
        False,
        "b = e^(-sqrt(log n) log log n) >= 1/n once sqrt(log n) >= log log n.",
    ),
    (
        "log/exp-log2-over-loglog",
        ["--rpe", "exp(-log(n)**2/log(log(n)))", "--start", "3"],
        True,
        "log b = -log n (log n/log log n) <= -2 log n once log n >= 2 log log n.",
    ),
    (
        "log/n-pow-inv-n-over-n2",
        ["--rpe", "n**(1/n)/n**2"],
        True,
        "n^(1/n) <= e^(1/e) < 2: b <= 2/n^2.",
    ),
    (
        "log/ratio-power-limit",
        ["--rpe", "(1 + 1/n)**(n**2)*exp(-n)"],
        False,
        "n^2 log(1 + 1/n) - n = -1/2 + 1/(3n) - ...: terms -> e^(-1/2).",
    ),
    (
        "log/ratio-power-over-n2",
        ["--rpe", "(1 + 1/n)**(n**2)*exp(-n)/n**2"],
        True,
        "(1 + 1/n)^(n^2) e^-n <= 1 (n^2 log(1 + 1/n) <= n): b <= 1/n^2.",
    ),
    (
        "log/stirling-harmonic",
        ["--rpe", "exp(n)*factorial(n)/n**(n + 3/2)"],
        False,
        "Stirling: b ~ sqrt(2 pi)/n: harmonic.",
    ),
    (
        "log/n-sin2-inv-n",
        ["--rpe", "n*sin(1/n)**2"],
        False,
        "n sin(1/n)^2 >= (2/pi)^2/n (sin x >= 2x/pi on [0, pi/2]).",
    ),
    (
        "log/sqrt-difference-two-diverges",
        ["--rpe", "sqrt(n + 2) - sqrt(n)"],
        False,
        "telescopes: partial sums sqrt(N + 2) + sqrt(N + 1) - 1 - sqrt(2) -> oo.",
    ),
    (
        "osc/power-two-plus-sin",
        ["--rpe", "1/n**(2 + sin(n))"],
        False,
        "where sin n <= -1 + 1/log n (an arc of length ~ 2 sqrt(2/log n), hit by a share "
        "~ sqrt(2/log N)/pi of n in [N, 2N] by the equidistribution of n mod 2 pi with the "
        "discrepancy of a finite irrationality measure) b >= e^-1/n: the dyadic blocks sum "
        "to ~ 1/sqrt(k), whose sum diverges.",
    ),
    (
        "osc/power-three-plus-sin",
        ["--rpe", "n**(-3 - sin(n))"],
        True,
        "the exponent is >= 2: b <= 1/n^2.",
    ),
]:
    add(_id, _args, _v, _note)


# ---------------------------------------------------------------------------------------
# Sign-changing and nonpositive terms
# ---------------------------------------------------------------------------------------
_B_altlog = cached(lambda: (mp.log(2) * mp.zeta(2) / 2 + mp.zeta(2, 1, 1) / 2, mp.mpf(10) ** -40))
add(
    "sign/alternating-log-over-n2",
    ["--rpe", "(-1)**n*log(n)/n**2", *eps_args(E3)],
    True,
    "log(n)/n^2 decreases from n = 2: Leibniz. B = eta'(2) with eta(s) = (1 - 2^(1-s)) "
    "zeta(s): B = log(2) zeta(2)/2 + zeta'(2)/2; |R_k| <= log(k + 1)/(k + 1)^2.",
    _B_altlog,
    cached(
        lambda: R.signed_terms_trf(
            lambda n: (-1) ** int(n) * mp.log(n) / n**2,
            1,
            _B_altlog()[0],
            E3,
            3000,
            lambda K: mp.log(K + 1) / mp.mpf(K + 1) ** 2,
        )
    ),
    others=True,
)
_B_sin2n1 = cached(lambda: (mp.im(-mp.expj(1) * mp.log(1 - mp.expj(2))), mp.mpf(10) ** -40))
add(
    "sign/sin-2n-plus-1-over-n",
    ["--rpe", "sin(2*n + 1)/n", *eps_args(E2)],
    True,
    "Dirichlet: |sum_{n=a}^b e^(2in)| <= 1/sin 1. B = Im(-e^i log(1 - e^(2i))); "
    "|R_k| <= 1/((k + 1) sin 1) (Abel summation).",
    _B_sin2n1,
    cached(
        lambda: R.signed_terms_trf(
            lambda n: mp.sin(2 * n + 1) / n,
            1,
            _B_sin2n1()[0],
            E2,
            60000,
            lambda K: 1 / ((K + 1) * mp.sin(1)),
        )
    ),
    others=True,
)
_B_sin3n2 = cached(
    lambda: (
        (3 * mp.im(mp.polylog(2, mp.expj(1))) - mp.im(mp.polylog(2, mp.expj(3)))) / 4,
        mp.mpf(10) ** -40,
    )
)
add(
    "sign/sin-cubed-over-n2",
    ["--rpe", "sin(n)**3/n**2", *eps_args(E3)],
    True,
    "|b| <= 1/n^2; sin^3 = (3 sin n - sin 3n)/4: B = (3 Cl_2(1) - Cl_2(3))/4 (Clausen, "
    "Im Li_2); |R_k| <= (3/(4 sin(1/2)) + 1/(4 sin(3/2)))/(k + 1)^2 (Abel summation).",
    _B_sin3n2,
    cached(
        lambda: R.signed_terms_trf(
            lambda n: mp.sin(n) ** 3 / n**2,
            1,
            _B_sin3n2()[0],
            E3,
            3000,
            lambda K: (3 / (4 * mp.sin(0.5)) + 1 / (4 * mp.sin(1.5))) / mp.mpf(K + 1) ** 2,
        )
    ),
    others=True,
)
_B_altexp = cached(
    lambda: (-mp.nsum(lambda k: mp.altzeta(k) / mp.factorial(k), [1, mp.inf]), mp.mpf(10) ** -40)
)
add(
    "sign/alternating-exp-inv-n-minus-1",
    ["--rpe", "(-1)**n*(exp(1/n) - 1)", *eps_args(E3)],
    True,
    "e^(1/n) - 1 decreases to 0: Leibniz. B = -sum_{k>=1} eta(k)/k! (eta(1) = log 2); "
    "|R_k| <= e^(1/(k+1)) - 1.",
    _B_altexp,
    cached(
        lambda: R.signed_terms_trf(
            lambda n: (-1) ** int(n) * mp.expm1(1 / n),
            1,
            _B_altexp()[0],
            E3,
            4000,
            lambda K: mp.expm1(mp.mpf(1) / (K + 1)),
        )
    ),
    others=True,
)
_B_altcos2 = cached(lambda: ((-mp.log(2) - mp.log(2 * mp.cos(1))) / 2, mp.mpf(10) ** -40))
add(
    "sign/alternating-cos2-over-n",
    ["--rpe", "(-1)**n*cos(n)**2/n", *eps_args(E3)],
    True,
    "(-1)^n cos^2 n = ((-1)^n + Re e^(i(pi + 2)n))/2: B = (-log 2 - log(2 cos 1))/2; "
    "|R_k| <= (1 + 1/cos 1)/(2(k + 1)).",
    _B_altcos2,
    cached(
        lambda: R.signed_terms_trf(
            lambda n: (-1) ** int(n) * mp.cos(n) ** 2 / n,
            1,
            _B_altcos2()[0],
            E3,
            60000,
            lambda K: (1 + 1 / mp.cos(1)) / (2 * (K + 1)),
        )
    ),
    others=True,
)
_B_sin4 = cached(
    lambda: (mp.log(2 * mp.sin(1)) / 2 - mp.log(2 * abs(mp.sin(2))) / 8, mp.mpf(10) ** -40)
)
add(
    "sign/sin4-over-n-minus-mean",
    ["--rpe", "sin(n)**4/n - 3/(8*n)", *eps_args(E3)],
    True,
    "sin^4 = 3/8 - cos(2n)/2 + cos(4n)/8: two divergent parts cancel to -cos(2n)/(2n) + "
    "cos(4n)/(8n); B = log(2 sin 1)/2 - log(2 |sin 2|)/8 (sum cos(an)/n = -log|2 sin(a/2)|); "
    "|R_k| <= (1/(2 sin 1) + 1/(8 |sin 2|))/(k + 1).",
    _B_sin4,
    cached(
        lambda: R.signed_terms_trf(
            lambda n: mp.sin(n) ** 4 / n - mp.mpf(3) / (8 * n),
            1,
            _B_sin4()[0],
            E3,
            40000,
            lambda K: (1 / (2 * mp.sin(1)) + 1 / (8 * abs(mp.sin(2)))) / (K + 1),
        )
    ),
    others=True,
)


@cached
def _B_n5():
    B = mp.zeta(2) - 5 * mp.zeta(3)
    return B, TINY


add(
    "sign/n-minus-5-over-n3",
    ["--rpe", "(n - 5)/n**3", *eps_args(E3)],
    True,
    "negative for n < 5, then positive: B = zeta(2) - 5 zeta(3); R_k = zeta(2, k+1) - "
    "5 zeta(3, k+1) lies in (0, zeta(2, k+1)) for k >= 5.",
    _B_n5,
    cached(
        lambda: R.signed_terms_trf(
            lambda n: (n - 5) / n**3, 1, _B_n5()[0], E3, 3000, lambda K: mp.zeta(2, K + 1)
        )
    ),
    others=True,
)
add(
    "sign/alternating-inv-square-start-0",
    ["--rpe", "(-1)**n/(n + 1)**2", "--start", "0", "--eps", "0.07", "0.007", "0.0007"],
    True,
    "sum_{n>=0} (-1)^n/(n+1)^2 = eta(2) = pi^2/12; |R_k| <= 1/(k + 1)^2.",
    cached(lambda: (mp.pi**2 / 12, TINY)),
    cached(
        lambda: R.signed_terms_trf(
            lambda n: (-1) ** int(n) / (n + 1) ** 2,
            0,
            mp.pi**2 / 12,
            (0.07, 0.007, 0.0007),
            200,
            lambda K: 1 / mp.mpf(K + 1) ** 2,
        )
    ),
    start=0,
    others=True,
)
for _id, _args, _v, _note in [
    ("sign/cos-over-log", ["--rpe", "cos(n)/log(n + 1)"], True, "Dirichlet: 1/log(n+1) decreases."),
    (
        "sign/alternating-n-minus-log",
        ["--rpe", "(-1)**n/(n - log(n))"],
        True,
        "n - log n increases (derivative 1 - 1/n >= 0) to oo: Leibniz.",
    ),
    (
        "sign/alternating-cuberoot-over-n5",
        ["--rpe", "(-1)**n*n**(1/3)/(n + 5)"],
        True,
        "n^(1/3)/(n + 5) decreases for n >= 3 (derivative sign of 5 - 2n) to 0: Leibniz.",
    ),
    (
        "sign/alternating-e-limit",
        ["--rpe", "(-1)**n*(1 + 1/n)**n"],
        False,
        "|b_n| -> e: terms do not tend to 0.",
    ),
    (
        "sign/period-eight-over-log",
        ["--rpe", "(-1)**floor(n/4)/log(n + 1)"],
        True,
        "signs + + + - - - - + ... (period 8, bounded partial sums) times 1/log(n+1) "
        "decreasing to 0: Dirichlet.",
    ),
    (
        "sign/beatty-sign-over-n",
        ["--rpe", "(-1)**floor(sqrt(2)*n)/n"],
        True,
        "partial sums of (-1)^floor(n sqrt 2) are O(log N) (Ostrowski; sqrt 2 has bounded "
        "partial quotients), so Abel summation against 1/n converges.",
    ),
    (
        "sign/cos-times-tanh-inv-n",
        ["--rpe", "cos(n)*tanh(1/n)"],
        True,
        "tanh(1/n) decreases to 0, partial sums of cos n bounded: Dirichlet.",
    ),
    (
        "sign/sin-over-n-plus-10sin",
        ["--rpe", "sin(n)/(n + 10*sin(n))"],
        True,
        "n + 10 sin n != 0 at integers; = sin/n - 10 sin^2/(n (n + 10 sin)): Dirichlet plus "
        "an O(1/n^2) part.",
    ),
    (
        "sign/alternating-half-limit",
        ["--rpe", "(-1)**n*(n + 1)/(2*n + 1)"],
        False,
        "|b_n| -> 1/2.",
    ),
    (
        "sign/sin-n-squared-over-n",
        ["--rpe", "sin(n**2)/n"],
        True,
        "Weyl: sum_{n<=N} e^(i n^2) = O(N^(1 - delta)) (pi has finite irrationality "
        "measure); Abel summation against 1/n converges.",
    ),
]:
    add(_id, _args, _v, _note, others=True)


# nonpositive terms: B < 0, TRF that of -b_n
_B_mlog = cached(lambda: (-mp.log(mp.sinh(mp.pi) / mp.pi), TINY))
add(
    "neg/minus-log1p-inv-n2",
    ["--rpe=-log(1 + 1/n**2)", *eps_args(E3)],
    True,
    "-log(1 + 1/n^2) <= 0: B = -log prod(1 + 1/n^2) = -log(sinh(pi)/pi).",
    _B_mlog,
    cached(
        lambda: R.trf_from_terms(
            [mp.log(1 + 1 / mp.mpf(n) ** 2) for n in range(1, 5000)], -_B_mlog()[0], E3
        )
    ),
)
add(
    "neg/minus-inv-n-n3",
    ["--rpe=-1/(n*(n + 3))", *eps_args(E3)],
    True,
    "-1/(n(n+3)) = -(1/n - 1/(n+3))/3: B = -11/18; |R_j| = (1/(j+1) + 1/(j+2) + 1/(j+3))/3.",
    exact(Fraction(-11, 18)),
    lambda: R.trf_from_tail(
        lambda j: (Fraction(1, j + 1) + Fraction(1, j + 2) + Fraction(1, j + 3)) / 3,
        Fraction(11, 18),
        E3,
    ),
)


@cached
def _B_msin2n4():
    return -(mp.zeta(4) - mp.re(mp.polylog(4, mp.expj(2)))) / 2, TINY


add(
    "neg/minus-sin2-over-n4",
    ["--rpe=-sin(n)**2/n**4", *eps_args(E3)],
    True,
    "<= 0; sin^2 = (1 - cos 2n)/2: B = -(zeta(4) - Re Li_4(e^(2i)))/2.",
    _B_msin2n4,
    cached(
        lambda: R.trf_from_terms(
            [mp.sin(n) ** 2 / mp.mpf(n) ** 4 for n in range(1, 2000)], -_B_msin2n4()[0], E3
        )
    ),
)
add(
    "neg/minus-exp-n-over-5-start-0",
    ["--rpe=-exp(-n/5)", "--start", "0", *eps_args(E3)],
    True,
    "B = -1/(1 - e^(-1/5)); |R_j|/|B| = e^(-j/5).",
    cached(lambda: (1 / mp.expm1(-mp.mpf(1) / 5), TINY)),
    geo_trf(lambda: mp.mpf(1) / 5, E3),
    start=0,
)
add(
    "neg/sin-pi-n-is-zero",
    ["--rpe", "sin(pi*n)/n"],
    True,
    "sin(pi n) = 0 at every integer: every term is 0, B = 0 (a named refusal, 'no series "
    "to analyse', is honest).",
    lambda: (mp.mpf(0), TINY),
    error_ok=True,
)
add(
    "open/cookson-hills",
    ["--rpe", "1/(n**3*cos(n)**2)"],
    "open",
    "Cookson Hills series: convergence depends on the irrationality measure of pi (open).",
)


# ---------------------------------------------------------------------------------------
# Bias files (float64 and float32 values, extreme ones) and --bias formulas
# ---------------------------------------------------------------------------------------
_F32 = (np.float32(-0.1) * np.arange(30, dtype=np.float32)).astype(np.float32)
_ref_f32 = cached(lambda: R.linear_tail_ref(_F32))
add(
    "bias/float32-linear",
    ["--bias-file", "BIAS", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "float32 values -0.1 t (each an exact binary float32, not the decimal): linear tail from "
    "the last 3 of them, slope about -0.1.",
    lambda: (_ref_f32()[0], TINY),
    cached(lambda: R.trf_from_tail(_ref_f32()[1], _ref_f32()[0], E3, hi=10**4)),
    files={"BIAS": npy_bytes(_F32)},
    start=0,
)
_LONG = -0.0007 * np.arange(20000)
_ref_long = cached(lambda: R.linear_tail_ref(_LONG))
_ELONG = (0.1, 0.001, 1e-06, 1e-08)
add(
    "bias/long-file-linear",
    ["--bias-file", "BIAS", "--bias-tail", "linear", *eps_args(_ELONG)],
    True,
    "20000 values -0.0007 t (float64): B ~ 1429; TRF(1e-8) ~ 26300 lies beyond the file, in "
    "the linear tail (slope from the last 2000 values).",
    lambda: (_ref_long()[0], mp.mpf(10) ** -40),
    cached(lambda: R.trf_from_tail(_ref_long()[1], _ref_long()[0], _ELONG, hi=10**6)),
    files={"BIAS": npy_bytes(_LONG)},
    start=0,
)
_MIXED = ["700", "0", "-1e-300", "-745.2", "-1e300"]


@cached
def _B_mixed():
    vals = [mp.exp(mp.mpf(float(v))) for v in _MIXED]
    B = mp.fsum(vals)
    return B, B * mp.mpf(10) ** -45


add(
    "bias/mixed-extremes-zero-tail",
    ["--bias-file", "BIAS", "--bias-tail", "zero", *eps_args(E3)],
    True,
    "[700, 0, -1e-300, -745.2, -1e300] then nothing: B = e^700 + 1 + e^(-1e-300) + ... "
    "(below the 1e4 rescaling threshold); R_1 ~ 2 << eps e^700: TRF = 1.",
    _B_mixed,
    lambda: {e: 1 for e in E3},
    files={"BIAS": txt_bytes(_MIXED)},
)
_SUB745 = ["-745.2", "-745.7", "-746.2", "-746.7"]
_ref_745 = cached(lambda: R.linear_tail_ref(np.array([float(v) for v in _SUB745])))
add(
    "bias/below-float64-linear",
    ["--bias-file", "BIAS", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "every e^bias is below the least subnormal (B ~ 5.9e-324): slope of the last two binary "
    "values, about -1/2.",
    lambda: (_ref_745()[0], _ref_745()[0] * mp.mpf(10) ** -40),
    cached(lambda: R.trf_from_tail(_ref_745()[1], _ref_745()[0], E3, hi=10**4)),
    files={"BIAS": txt_bytes(_SUB745)},
    start=0,
)
add(
    "bias/huge-steps-zero-tail",
    ["--bias-file", "BIAS", "--bias-tail", "zero", *eps_args(E3)],
    True,
    "[0, 1e5, 2e5]: B = e^(2e5) (1 + e^-1e5 + e^-2e5), scaled by e^-M (M = 2e5 > 1e4); "
    "S_2/B ~ e^-1e5: TRF = 3 for every eps.",
    lambda: (mp.mpf(1) + mp.exp(-100000) + mp.exp(-200000), TINY),
    lambda: {e: 3 for e in E3},
    files={"BIAS": npy_bytes([0.0, 1e5, 2e5])},
    scaled=True,
    start=0,
)
add(
    "bias/rising-linear",
    ["--bias-file", "BIAS", "--bias-tail", "linear"],
    False,
    "slope +1/2: terms grow.",
    files={"BIAS": npy_bytes([0.0, 0.5, 1.0])},
)
_SUBN = ["-1e-320", "-2e-320", "-3e-320"]
_ref_subn = cached(lambda: R.linear_tail_ref(np.array([float(v) for v in _SUBN])))
add(
    "bias/subnormal-slope-linear",
    ["--bias-file", "BIAS", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "subnormal values: the slope is the exact difference of two subnormals (about -1e-320 < 0), "
    "so B ~ 1e320 (beyond float64) and TRF ~ ln(1/eps) 10^320.",
    lambda: (_ref_subn()[0], _ref_subn()[0] * mp.mpf(10) ** -30),
    lambda: {
        e: ("log10", float(mp.log10(mp.log(1 / R.eps_mp(e)) / -_ref_subn()[2])), 1e-6) for e in E3
    },
    files={"BIAS": txt_bytes(_SUBN)},
    start=0,
)
add(
    "bias/exponent-notation-text",
    ["--bias-file", "BIAS", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "'  0.0', '-1.5E+0', '-3.0e0' (exponent notation, leading blanks): b_t = e^(-1.5 t), "
    "B = 1/(1 - e^-1.5), R_j/B = e^(-1.5 j).",
    cached(lambda: (-1 / mp.expm1(-mp.mpf(1.5)), TINY)),
    geo_trf(1.5, E3),
    files={"BIAS": b"  0.0\n-1.5E+0\n-3.0e0\n"},
    start=0,
)
add(
    "bias/constant-tail-minus-1e308",
    ["--bias-file", "BIAS", "--bias-tail", "constant"],
    False,
    "the last value -1e308 forever: b = e^-1e308 > 0 constant.",
    files={"BIAS": npy_bytes([0.0, -1e308])},
)


@cached
def _B_bias_cos():
    # b = e^(cos 2n)/n^3 in [e^-1/n^3, e/n^3]
    N = 200000
    head = mp.fsum(mp.exp(mp.cos(2 * n)) / mp.mpf(n) ** 3 for n in range(1, N))
    lo, hi = mp.exp(-1) * mp.zeta(3, N), mp.e * mp.zeta(3, N)
    return head + (lo + hi) / 2, (hi - lo) / 2


add(
    "bias/formula-cos-over-cube",
    ["--bias=-3*log(n) + cos(2*n)", "--eps", "0.1", "0.01"],
    True,
    "b = e^(cos 2n)/n^3 in [e^-1/n^3, e/n^3].",
    _B_bias_cos,
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(mp.cos(2 * n)) / mp.mpf(n) ** 3 for n in range(1, 2000)],
            _B_bias_cos()[0],
            (0.1, 0.01),
        )
    ),
)
for _name, _data in [
    ("overflow-text", txt_bytes(["0", "-1e309"])),
    ("empty-npy", npy_bytes(np.zeros(0))),
    ("string-npy", npy_bytes(np.array(["0", "-1"]))),
]:
    add(
        f"bias/refuse-{_name}",
        ["--bias-file", "BIAS", "--bias-tail", "linear"],
        None,
        "not a 1-D array of finite float64 numbers (-1e309 overflows to -inf): refused.",
        files={"BIAS": _data},
    )


# ---------------------------------------------------------------------------------------
# Extreme constants, starts and tolerances
# ---------------------------------------------------------------------------------------
_Q7 = lambda: mp.mpf(1) / 9  # noqa: E731 (at the working precision)
add(
    "extreme/geometric-start-10-tiny-eps",
    ["--rpe", "exp(-n/9)", "--start", "10", "--eps", "1e-15", "1e-30", "1e-250"],
    True,
    "B = e^(-10/9)/(1 - e^(-1/9)); R_j/B = e^(-j/9).",
    cached(lambda: (mp.exp(-10 * _Q7()) / -mp.expm1(-_Q7()), TINY)),
    geo_trf(_Q7, (1e-15, 1e-30, 1e-250)),
    start=10,
)
add(
    "extreme/tiny-constant-exp-over-n",
    ["--rpe", "1e-200*exp(-n)/n", *eps_args(E3)],
    True,
    "B = -1e-200 log(1 - 1/e); R_j from the terms.",
    cached(lambda: (-mp.mpf("1e-200") * mp.log(1 - mp.exp(-1)), mp.mpf(10) ** -245)),
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-n) / n for n in range(1, 100)], -mp.log(1 - mp.exp(-1)), E3
        )
    ),
)
add(
    "extreme/exp-5000-minus-n",
    ["--rpe", "exp(5000 - n)", *eps_args(E3)],
    True,
    "B = e^4999/(1 - 1/e) ~ 1e2171 (beyond float64, below the rescaling threshold); R_j/B = e^-j.",
    cached(lambda: (mp.exp(4999) / (1 - mp.exp(-1)), mp.exp(4999) * mp.mpf(10) ** -45)),
    geo_trf(1, E3),
)
_B_e20000 = cached(lambda: ((mp.jtheta(3, 0, mp.exp(-mp.mpf(1) / 1000)) - 1) / 2, TINY))
add(
    "extreme/exp-20000-gauss-scaled",
    ["--rpe", "exp(20000 - n**2/1000)", *eps_args(E3)],
    True,
    "log b has the constant 20000 > 1e4: B = e^20000 (theta3(0, e^-1/1000) - 1)/2, "
    "scaled by e^-20000.",
    _B_e20000,
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-(mp.mpf(n) ** 2) / 1000) for n in range(1, 600)], _B_e20000()[0], E3
        )
    ),
    scaled=True,
)


@cached
def _trf_far_start():
    N, q = mp.mpf(10) ** 12, mp.exp(-mp.mpf(1) / 3)
    # R_j/B = q^j (N + j - (N + j - 1) q)/(N - (N - 1) q)  (sum_{n>=m} n q^n closed form)
    ratio = lambda j: q**j * (N + j - (N + j - 1) * q) / (N - (N - 1) * q)  # noqa: E731
    out = {}
    for e in E3:
        j = 0
        while ratio(j) >= R.eps_mp(e):
            j += 1
        out[e] = j
    return out


add(
    "extreme/n-geometric-start-1e12",
    ["--rpe", "n*exp(-n/3)", "--start", "1000000000000", *eps_args(E3)],
    True,
    "sum_{n>=m} n q^n = q^m (m - (m-1) q)/(1 - q)^2, m = 10^12: B ~ 1e12 e^(-3.3e11) "
    "(far below float64).",
    cached(
        lambda: (
            (lambda N, q: q**N * (N - (N - 1) * q) / (1 - q) ** 2)(
                mp.mpf(10) ** 12, mp.exp(-mp.mpf(1) / 3)
            ),
            mp.exp(-(mp.mpf(10) ** 12) / 3) * mp.mpf(10) ** -25,
        )
    ),
    _trf_far_start,
    start=10**12,
)
add(
    "extreme/shifted-lorentzian-start-0",
    ["--rpe", "1/((n - 3)**2 + 1)", "--start", "0", *eps_args(E3)],
    True,
    "m = n - 3 >= -3: B = 1/10 + 1/5 + 1/2 + 1 + (pi coth(pi) - 1)/2; the tail over "
    "m >= a is Im psi(a + i) (digamma).",
    cached(lambda: (mp.mpf(18) / 10 + (mp.pi / mp.tanh(mp.pi) - 1) / 2, TINY)),
    cached(
        lambda: R.trf_from_tail(
            lambda j: (
                mp.fsum(1 / ((mp.mpf(n) - 3) ** 2 + 1) for n in range(j, 4))
                + mp.im(mp.digamma(mp.mpc(1, 1)))
                if j < 4
                else mp.im(mp.digamma(mp.mpc(j - 3, 1)))
            ),
            mp.mpf(18) / 10 + (mp.pi / mp.tanh(mp.pi) - 1) / 2,
            E3,
        )
    ),
    start=0,
)
add(
    "extreme/start-3-pole-at-2",
    ["--rpe", "1/(n**2 - 4)", "--start", "3", *eps_args(E3)],
    True,
    "1/(n^2 - 4) = (1/(n-2) - 1/(n+2))/4: B = (1 + 1/2 + 1/3 + 1/4)/4 = 25/48, "
    "R_j = (1/(j+1) + ... + 1/(j+4))/4.",
    exact(Fraction(25, 48)),
    lambda: R.trf_from_tail(
        lambda j: sum(Fraction(1, j + i) for i in range(1, 5)) / 4, Fraction(25, 48), E3
    ),
    start=3,
)


def _tele_tail(j):  # b = 1/n^3 + 1/(2n^2) - (1/n - 1/(n+2))/4, summed over n > j
    return (
        mp.zeta(3, j + 1) + mp.zeta(2, j + 1) / 2 - (mp.mpf(1) / (j + 1) + mp.mpf(1) / (j + 2)) / 4
    )


add(
    "extreme/telescoping-product-over-cube",
    ["--rpe", "Product(1 + 1/(m**2 + 2*m), (m, 1, n))/n**3", *eps_args(E3)],
    True,
    "1 + 1/(m(m+2)) = (m+1)^2/(m(m+2)): the product telescopes to 2(n+1)/(n+2), so "
    "b = 1/n^3 + 1/(2n^2) - (1/n - 1/(n+2))/4 and B = zeta(3) + zeta(2)/2 - 3/8.",
    cached(lambda: (_tele_tail(0), TINY)),
    cached(lambda: R.trf_from_tail(_tele_tail, _tele_tail(0), E3)),
)


# ---------------------------------------------------------------------------------------
# Free-parameter families with known regions
# ---------------------------------------------------------------------------------------
_P = lambda vals: [{"p": v} for v in vals]  # noqa: E731
fam(
    "free/power-times-stretched-two",
    ["--rpe", "n**a*exp(-b*sqrt(n))", "--free", "a", "--free", "b"],
    lambda d: d["b"] > 0 or (d["b"] == 0 and d["a"] < -1),
    [{"a": a, "b": b} for a in (-2, -1, 0, 1) for b in (-1, 0, 0.5)],
    "e^(-b sqrt n) beats every power for b > 0, grows for b < 0; at b = 0 the p-series.",
)
fam(
    "free/exp-rate-against-ratio-power",
    ["--rpe", "exp(-a*n)*(1 + 1/n)**(n**2)", "--free", "a"],
    lambda d: d["a"] > 1,
    [{"a": v} for v in (0, 1, 1.5, 3)],
    "(1 + 1/n)^(n^2) = e^(n - 1/2 + O(1/n)): b ~ e^(-1/2) e^((1 - a) n); at a = 1 the "
    "terms tend to e^(-1/2).",
)
fam(
    "free/central-binomial-power",
    ["--rpe", "binomial(2*n, n)*x**n", "--free", "x", "--assume", "x>0"],
    lambda d: d["x"] < 0.25,
    [{"x": v} for v in (0.1, 0.25, 0.3)],
    "binom(2n, n) ~ 4^n/sqrt(pi n): ratio 4x; at x = 1/4, ~ 1/sqrt(pi n) diverges.",
)
fam(
    "free/gamma-shift-over-n2",
    ["--rpe", "gamma(n + a)/(gamma(n)*n**2)", "--free", "a", "--assume", "a>0"],
    lambda d: d["a"] < 1,
    [{"a": v} for v in (0.5, 1, 1.5)],
    "Gamma(n + a)/Gamma(n) ~ n^a: b ~ n^(a - 2).",
)
fam(
    "free/power-plus-log",
    ["--rpe", "1/(n**p + log(n))", "--free", "p", "--assume", "p>0"],
    lambda d: d["p"] > 1,
    _P([0.5, 1, 2]),
    "~ n^-p (log n = o(n^p)).",
)
fam(
    "free/cos-3n-over-np",
    ["--rpe", "cos(3*n)/n**p", "--free", "p"],
    lambda d: d["p"] > 0,
    _P([-1, 0, 0.5, 2]),
    "Dirichlet for p > 0 (3 is not in 2 pi Z); for p <= 0 |cos 3n| >= 1/2 infinitely often "
    "and n^-p >= 1.",
)
fam(
    "free/power-times-expm1-squared",
    ["--rpe", "n**p*(exp(1/n) - 1)**2", "--free", "p"],
    lambda d: d["p"] < 1,
    _P([-1, 0, 1, 2]),
    "(e^(1/n) - 1)^2 ~ 1/n^2: b ~ n^(p - 2).",
)
fam(
    "free/log-series",
    ["--rpe", "x**n/n", "--free", "x"],
    lambda d: -1 <= d["x"] < 1,
    [{"x": v} for v in (-2, -1, -0.5, 0, 0.5, 1, 2)],
    "-log(1 - x) for -1 <= x < 1 (Leibniz at x = -1, 0 terms at x = 0); harmonic at x = 1; "
    "terms grow for |x| > 1.",
)
fam(
    "free/log-over-n-power",
    ["--rpe", "(log(n)/n)**p", "--free", "p", "--start", "2"],
    lambda d: d["p"] > 1,
    _P([0.5, 1, 2]),
    "n^-p log(n)^p: Bertrand's boundary at p = 1 with log(n)^1 diverging.",
)
fam(
    "free/even-terms-only",
    ["--rpe", "n**(-p)*(1 + (-1)**n)", "--free", "p"],
    lambda d: d["p"] > 1,
    _P([0, 1, 1.5]),
    "2/n^p on even n, 0 on odd n: 2^(1-p) zeta(p).",
)
fam(
    "free/stretched-over-log",
    ["--rpe", "exp(-n**a/log(n))", "--free", "a", "--assume", "a>0", "--start", "2"],
    lambda d: True,
    [{"a": v} for v in (0.1, 1, 2)],
    "n^a/log n >= 2 log n eventually for every a > 0: b <= n^-2.",
)
fam(
    "free/power-times-log1p-power",
    ["--rpe", "n**a*log(1 + 1/n**b)", "--free", "a", "--free", "b", "--assume", "b>0"],
    lambda d: d["b"] - d["a"] > 1,
    [{"a": a, "b": b} for a in (-1, 0, 1) for b in (0.5, 1, 2, 3)],
    "log(1 + n^-b) ~ n^-b: b_n ~ n^(a - b).",
)

# ---------------------------------------------------------------------------------------
# Refused input: exit 2 with one error line
# ---------------------------------------------------------------------------------------
for _i, _args in enumerate(
    [
        ["--rpe", "1/(n**2 - 4)"],
        ["--rpe", "1/n**2", "--eps", "0.1", "1.5"],
        ["--rpe", "kerple-log", "--param", "r=-1"],
        ["--rpe", "sandwich", "--param", "d=3"],
        ["--rpe", "1/n**2", "--free", "n"],
        ["--rpe", "x/n**2"],
        ["--rpe", "1/n**2", "--start", "2.5"],
        ["--rpe", "t5", "--bucket-values=-1,-2"],
        ["--rpe", "1/n**p", "--free", "p", "--assume", "q>0"],
        ["--rpe", "log(1 - 2*n)"],
        ["--rpe", "1/n**2", "--time-limit", "0"],
        ["--rpe", "Sum(1/k**2, (k, 1, n))/n**3"],
    ]
):
    add(f"refuse/{_i:02d}", _args, None, "malformed, undefined or out-of-range input: refused.")

#: series for the Ctrl-C trials (each runs long enough to be interrupted)
SIGINT_SERIES = [
    ["--rpe", "1/n**(2 + sin(n))"],
    ["--rpe", "(-1)**floor(sqrt(2)*n)/n"],
    ["--rpe", "n**a*log(1 + 1/n**b)", "--free", "a", "--free", "b", "--assume", "b>0"],
]

#: no extra cases: the whole set runs by default
EXTRA_CASES: list[Case] = []
assert len({c.id for c in CASES}) == len(CASES)
