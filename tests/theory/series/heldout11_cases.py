"""Held-out set 11: commands as a researcher types them into ``python -m theory.trf``, with
the verdict derived by hand (the argument in each ``note``) and, where the series converges,
a reference B and TRF(eps) computed independently with mpmath at 50 digits
(``heldout11_reference``): closed forms (Hurwitz zeta, digamma, Gamma telescoping, the
sinh product, a 3F2 at 1 that is 16/pi - 5, the Dirichlet eta function's derivative) or
direct sums with a tail bound proved in the comment beside them.

Families not in sets 5-10 (each formula grepped there first): moving powers (1 + a/n)^(n^2),
exp(1/n^2) - 1 and exp(e^-n) - 1 expanded in series, tanh / cosh / atan / asinh
compositions, square-root differences with cancellation, exponents with log log n, Max/Min
of smooth terms, Catalan squares, alternating series that are not Leibniz, floor(sqrt(n))
blocks, named RPEs at new parameters, bias files whose float64 values matter, late starts,
free-parameter families and refusals; three series whose verdict no engine can prove
(an open problem among them).

The fields of a :class:`Case` are those of set 7 (``heldout7_cases``).
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np

try:
    from . import heldout11_reference as R
    from .heldout7_cases import Case, cached, eps_args, exact, npy_bytes, txt_bytes
    from .heldout9_cases import frac_tail, geo_trf
except ImportError:  # run as a script from this folder
    import heldout11_reference as R
    from heldout7_cases import Case, cached, eps_args, exact, npy_bytes, txt_bytes
    from heldout9_cases import frac_tail, geo_trf

E3 = (0.1, 0.01, 0.001)
E2 = (0.1, 0.01)
TINY = mp.mpf(10) ** -45


CASES: list[Case] = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


def fam(id_, args, pred, grid, note, others=True):
    add(id_, args, None, note, cond=(pred, grid), others=others)


def _terms(f, s, K):
    return [f(mp.mpf(n)) for n in range(s, s + K)]


# ---------------------------------------------------------------------------------------
# (a) Moving powers: (1 + a/n)^(n^2), (n/(n + 1))^(n^2), (1 - 1/n)^(c n log n)
# ---------------------------------------------------------------------------------------
# n^2 log(1 + a/n) <= a n (log(1 + x) <= x): (1 + a/n)^(n^2)/c^n <= (e^a/c)^n, so the tail
# from N is at most q^N/(1 - q), q = e^a/c < 1.
def _mp_geo_tail(q):
    return lambda N: q() ** N / (1 - q())


_F_e3 = lambda n: (1 + 1 / n) ** (n**2) / 3**n  # noqa: E731
_B_e3 = cached(lambda: R.direct_sum(_F_e3, 1, 1400, _mp_geo_tail(lambda: mp.e / 3)))
add(
    "power/one-plus-inverse-n-squared-over-3n",
    ["--rpe", "(1 + 1/n)**(n**2)/3**n", *eps_args(E3)],
    True,
    "(1 + 1/n)^(n^2) = e^(n - 1/2 + O(1/n)) <= e^n: b <= (e/3)^n, ratio -> e/3 < 1. B direct "
    "to 1400 plus (e/3)^1400/(1 - e/3) < 1e-59.",
    _B_e3,
    cached(lambda: R.trf_from_terms(_terms(_F_e3, 1, 1400), _B_e3()[0], E3)),
)
_F_e8 = lambda n: (1 + 2 / n) ** (n**2) / 8**n  # noqa: E731
_B_e8 = cached(lambda: R.direct_sum(_F_e8, 1, 1800, _mp_geo_tail(lambda: mp.e**2 / 8)))
add(
    "power/one-plus-two-over-n-squared-over-8n",
    ["--rpe", "(1 + 2/n)**(n**2)/8**n", *eps_args(E3)],
    True,
    "(1 + 2/n)^(n^2) = e^(2n - 2 + O(1/n)) <= e^(2n): b <= (e^2/8)^n, e^2 = 7.389 < 8 (ratio "
    "0.92: slow). B direct to 1800 plus (e^2/8)^1800/(1 - e^2/8) < 1e-60.",
    _B_e8,
    cached(lambda: R.trf_from_terms(_terms(_F_e8, 1, 1800), _B_e8()[0], E3)),
)
add(
    "power/one-plus-three-over-n-squared-over-e3n",
    ["--rpe", "(1 + 3/n)**(n**2)*exp(-3*n)"],
    False,
    "n^2 log(1 + 3/n) = 3n - 9/2 + 9/n - ...: b -> e^(-9/2) > 0, the terms do not tend to 0.",
)


# n^2 log(1 + 1/n) >= n^2 (1/n - 1/(2n^2)) = n - 1/2: b <= e^(1/2) n^3 e^-n; for n >= 200
# (n+1)^3 e^-(n+1) <= (201/200)^3 e^-1 n^3 e^-n < n^3 e^-n/2: tail <= 2 e^(1/2) N^3 e^-N.
_F_nn3 = lambda n: (n / (n + 1)) ** (n**2) * n**3  # noqa: E731
_B_nn3 = cached(
    lambda: R.direct_sum(_F_nn3, 1, 300, lambda N: 2 * mp.sqrt(mp.e) * mp.mpf(N) ** 3 * mp.e**-N)
)
add(
    "power/n-over-n-plus-one-squared-power-times-cube",
    ["--rpe", "(n/(n + 1))**(n**2)*n**3", *eps_args(E3)],
    True,
    "(n/(n+1))^(n^2) = e^(-n^2 log(1 + 1/n)) <= e^(1/2 - n): b <= e^(1/2) n^3 e^-n. B direct "
    "to 300 plus 2 e^(1/2) 300^3 e^-300.",
    _B_nn3,
    cached(lambda: R.trf_from_terms(_terms(_F_nn3, 1, 300), _B_nn3()[0], E3)),
)
_F_nl2 = lambda x: mp.exp(2 * x * mp.log(x) * mp.log(1 - 1 / x))  # noqa: E731
add(
    "power/one-minus-inverse-n-to-2n-log-n",
    ["--rpe", "(1 - 1/n)**(2*n*log(n))", "--start", "2"],
    True,
    "n log(1 - 1/n) <= -1: b <= e^(-2 log n) = n^-2. B by Euler-Maclaurin (two splits agree).",
    cached(lambda: R.smooth_sum(_F_nl2, 2)),
    start=2,
)
add(
    "power/one-minus-inverse-n-to-n-log-n",
    ["--rpe", "(1 - 1/n)**(n*log(n))", "--start", "2"],
    False,
    "log(1 - x) >= -x - x^2 for x <= 1/2: n log(1 - 1/n) >= -1 - 1/n, so b >= n^(-1 - 1/n) "
    ">= e^(-1/e)/n: harmonic minorant.",
    start=2,
)

# ---------------------------------------------------------------------------------------
# (b) exp and rational functions, exp expanded in series
# ---------------------------------------------------------------------------------------
# (n^2 + 1)/(n + 2) <= n and (n + 1) e^(-(n+1)/3) <= n e^(-n/3) (201/200) e^(-1/3) < 0.73 n
# e^(-n/3) for n >= 200: tail from N <= N e^(-N/3)/(1 - 0.73) < 4 N e^(-N/3).
_F_er = lambda n: mp.exp(-n / 3) * (n**2 + 1) / (n + 2)  # noqa: E731
_B_er = cached(lambda: R.direct_sum(_F_er, 1, 500, lambda N: 4 * N * mp.exp(-mp.mpf(N) / 3)))
add(
    "exprat/exp-third-times-rational",
    ["--rpe", "exp(-n/3)*(n**2 + 1)/(n + 2)", *eps_args(E3)],
    True,
    "b <= n e^(-n/3): geometric majorant. B direct to 500 plus 4 * 500 e^(-500/3).",
    _B_er,
    cached(lambda: R.trf_from_terms(_terms(_F_er, 1, 500), _B_er()[0], E3)),
)


def _expsq_tail(j):  # sum_{n > j} (e^(1/n^2) - 1) = sum_{k >= 1} zeta(2k, j + 1)/k!  (the
    # exponential series, all terms positive: Tonelli); k <= 60 leaves < 1/60! * 2
    return mp.fsum(mp.zeta(2 * k, j + 1) / mp.factorial(k) for k in range(1, 61))


add(
    "exprat/exp-inverse-square-minus-one",
    ["--rpe", "exp(1/n**2) - 1", *eps_args(E3)],
    True,
    "e^(1/n^2) - 1 <= (e - 1)/n^2: converges. B = sum_k zeta(2k)/k!, R_j = sum_k "
    "zeta(2k, j + 1)/k! (the exponential series, summed in either order).",
    cached(lambda: (_expsq_tail(0), TINY)),
    cached(lambda: R.trf_from_tail(_expsq_tail, _expsq_tail(0), E3, hi=10**6)),
)


def _expexp_tail(j):  # sum_{n > j} (e^(e^-n) - 1) = sum_{k>=1} e^(-k j)/(k! (e^k - 1))
    return mp.fsum(mp.exp(-k * j) / (mp.factorial(k) * mp.expm1(k)) for k in range(1, 60))


add(
    "exprat/exp-of-exp-minus-n-minus-one",
    ["--rpe", "exp(exp(-n)) - 1", *eps_args(E3)],
    True,
    "e^x - 1 <= (e - 1) x on [0, 1]: b <= (e - 1) e^-n. B = sum_k 1/(k! (e^k - 1)) "
    "(exponential series, then the geometric series in n).",
    cached(lambda: (_expexp_tail(0), TINY)),
    cached(lambda: R.trf_from_tail(_expexp_tail, _expexp_tail(0), E3, hi=1000)),
)
# e^(-e^(n/10)): for n >= 10 the ratio b_(n+1)/b_n = e^(-e^(n/10) (e^0.1 - 1)) < e^(-0.28) <
# 1, and from n = 40 on < 1/2: tail from N = 80 <= 2 b_80 = 2 e^(-e^8) < 1e-1290.
_F_ee = lambda n: mp.exp(-mp.exp(n / 10))  # noqa: E731
_B_ee = cached(lambda: R.direct_sum(_F_ee, 1, 80, lambda N: 2 * _F_ee(mp.mpf(N))))
add(
    "exprat/double-exponential-slow-start",
    ["--rpe", "exp(-exp(n/10))", *eps_args(E3)],
    True,
    "e^(-e^(n/10)) <= e^-n once e^(n/10) >= n (all n >= 36): converges. B direct to 80.",
    _B_ee,
    cached(lambda: R.trf_from_terms(_terms(_F_ee, 1, 80), _B_ee()[0], E3)),
)

# ---------------------------------------------------------------------------------------
# (c) log, tanh, cosh, atan, asinh compositions
# ---------------------------------------------------------------------------------------
_SH = lambda: mp.log(mp.sinh(2 * mp.pi) / (2 * mp.pi))  # noqa: E731
add(
    "logtrig/log-one-plus-four-over-n-squared",
    ["--rpe", "log(1 + 4/n**2)", *eps_args(E3)],
    True,
    "prod (1 + x^2/n^2) = sinh(pi x)/(pi x) at x = 2: B = log(sinh(2 pi)/(2 pi)); b ~ 4/n^2.",
    cached(lambda: (_SH(), TINY)),
    cached(lambda: R.trf_from_terms(_terms(lambda n: mp.log(1 + 4 / n**2), 1, 30000), _SH(), E3)),
)


def _lm_tail(j):  # sum_{n >= j+2} log(1 - 1/n^2) = log((j + 1)/(j + 2)) (telescoping
    # product prod_{n >= m} (n - 1)(n + 1)/n^2 = (m - 1)/m)
    return mp.log(1 + mp.mpf(1) / (j + 1))  # |R_j|, R_j <= 0


add(
    "logtrig/log-one-minus-inverse-square-negative",
    ["--rpe", "log(1 - 1/n**2)", "--start", "2", *eps_args(E3)],
    True,
    "every term negative, |b| ~ 1/n^2: converges. prod_{n>=2} (1 - 1/n^2) = 1/2: B = -log 2, "
    "|R_j| = log(1 + 1/(j + 1)) decreasing (TRF: least j with |R_j| < eps log 2).",
    cached(lambda: (-mp.log(2), TINY)),
    cached(lambda: R.trf_from_tail(_lm_tail, mp.log(2), E3, hi=10**5)),
    start=2,
)
add(
    "logtrig/log-one-plus-inverse-sqrt-squared",
    ["--rpe", "log(1 + 1/sqrt(n))**2"],
    False,
    "log(1 + x) >= x/2 on [0, 1]: b >= 1/(4n).",
)
_F_th = lambda n: 2 / (mp.exp(2 * n) + 1)  # noqa: E731 (1 - tanh n, without cancellation)
_B_th = cached(lambda: R.direct_sum(_F_th, 1, 70, lambda N: 2 * mp.exp(-2 * N) / -mp.expm1(-2)))
add(
    "logtrig/one-minus-tanh",
    ["--rpe", "1 - tanh(n)", *eps_args(E3)],
    True,
    "1 - tanh n = 2/(e^(2n) + 1) <= 2 e^(-2n). B direct to 70 plus 2 e^-140/(1 - e^-2).",
    _B_th,
    cached(lambda: R.trf_from_terms(_terms(_F_th, 1, 70), _B_th()[0], E3)),
)
_F_ch = lambda n: 1 / mp.cosh(n) ** 2  # noqa: E731
_B_ch = cached(lambda: R.direct_sum(_F_ch, 1, 70, lambda N: 4 * mp.exp(-2 * N) / -mp.expm1(-2)))
add(
    "logtrig/sech-squared",
    ["--rpe", "1/cosh(n)**2", *eps_args(E3)],
    True,
    "sech^2 n = 4 e^(-2n)/(1 + e^(-2n))^2 <= 4 e^(-2n). B direct to 70.",
    _B_ch,
    cached(lambda: R.trf_from_terms(_terms(_F_ch, 1, 70), _B_ch()[0], E3)),
)
add(
    "logtrig/one-minus-tanh-half-log",
    ["--rpe", "1 - tanh(log(n)/2)"],
    False,
    "tanh(log(n)/2) = (n - 1)/(n + 1): b = 2/(n + 1).",
)
add(
    "logtrig/log-times-one-minus-tanh-log",
    ["--rpe", "log(n)*(1 - tanh(log(n)))"],
    True,
    "tanh(log n) = (n^2 - 1)/(n^2 + 1): b = 2 log(n)/(n^2 + 1). B by Euler-Maclaurin.",
    cached(lambda: R.smooth_sum(lambda x: 2 * mp.log(x) / (x**2 + 1), 1)),
)
add(
    "logtrig/half-pi-minus-atan",
    ["--rpe", "pi/2 - atan(n)"],
    False,
    "pi/2 - atan(n) = atan(1/n) >= 1/(2n) (atan x >= x/2 on [0, 1]).",
)
add(
    "logtrig/half-pi-minus-atan-squared",
    ["--rpe", "(pi/2 - atan(n))**2"],
    True,
    "atan(1/n)^2 <= 1/n^2. B by Euler-Maclaurin on atan(1/x)^2 (no cancellation).",
    cached(lambda: R.smooth_sum(lambda x: mp.atan(1 / x) ** 2, 1)),
)
add(
    "logtrig/asinh-inverse-square",
    ["--rpe", "asinh(1/n**2)"],
    True,
    "asinh x <= x: b <= 1/n^2. B by Euler-Maclaurin (a refusal of asinh, named, is honest).",
    cached(lambda: R.smooth_sum(lambda x: mp.asinh(1 / x**2), 1)),
    error_ok=True,
)
add(
    "logtrig/asinh-inverse",
    ["--rpe", "asinh(1/n)"],
    False,
    "asinh x >= x/2 on [0, 1] (asinh x = log(x + sqrt(1 + x^2))): b >= 1/(2n) (a refusal "
    "of asinh, named, is honest).",
    error_ok=True,
)

# ---------------------------------------------------------------------------------------
# (d) Square-root differences, exponents with log log n
# ---------------------------------------------------------------------------------------
_G = lambda x: 1 / (mp.sqrt(x + 1) + mp.sqrt(x))  # noqa: E731 (sqrt(x + 1) - sqrt(x))
add(
    "sqrt/difference-cubed",
    ["--rpe", "(sqrt(n + 1) - sqrt(n))**3"],
    True,
    "sqrt(n + 1) - sqrt(n) = 1/(sqrt(n + 1) + sqrt(n)) <= 1/(2 sqrt n): b <= n^(-3/2)/8. B by "
    "Euler-Maclaurin on the cancellation-free form.",
    cached(lambda: R.smooth_sum(lambda x: _G(x) ** 3, 1)),
)
add(
    "sqrt/difference-squared",
    ["--rpe", "(sqrt(n + 1) - sqrt(n))**2"],
    False,
    "b = 1/(sqrt(n + 1) + sqrt(n))^2 >= 1/(4(n + 1)).",
)
add(
    "sqrt/quadratic-minus-linear-minus-half",
    ["--rpe", "sqrt(n**2 + n) - n - 1/2"],
    False,
    "sqrt(n^2 + n) - n = 1/(1 + sqrt(1 + 1/n)) < 1/2: every term negative, and 1/2 - that = "
    "(s - 1)/(2(1 + s)), s = sqrt(1 + 1/n), >= (1/(3n))/(6) for n >= 1: b <= -1/(18 n), "
    "the partial sums tend to -oo.",
)
add(
    "sqrt/quartic-cancellation",
    ["--rpe", "sqrt(n**4 + 1) - n**2"],
    True,
    "sqrt(n^4 + 1) - n^2 = 1/(sqrt(n^4 + 1) + n^2) <= 1/(2n^2). B by Euler-Maclaurin on "
    "that form (the typed form cancels 2 log10 n digits).",
    cached(lambda: R.smooth_sum(lambda x: 1 / (mp.sqrt(x**4 + 1) + x**2), 1)),
)
add(
    "loglog/exponent-log-log-over-log",
    ["--rpe", "n**(-1 - log(log(n))/log(n))", "--start", "3"],
    False,
    "n^(-log log n/log n) = 1/log n: b = 1/(n log n), the Bertrand series with q = 1.",
    start=3,
)
add(
    "loglog/exponent-two-log-log-over-log",
    ["--rpe", "n**(-1 - 2*log(log(n))/log(n))", "--start", "3"],
    True,
    "b = 1/(n log(n)^2): Bertrand q = 2 > 1.",
    start=3,
)
add(
    "loglog/exponent-inverse-log",
    ["--rpe", "n**(-1 - 1/log(n))"],
    False,
    "n^(-1/log n) = e^-1: b = 1/(e n) (n = 1: 1^(-1 - 1/0) is 1^oo; a refusal of n = 1 is honest).",
    error_ok=True,
)
add(
    "loglog/exponent-log-log-squared-over-log",
    ["--rpe", "n**(-1 - log(log(n))**2/log(n))", "--start", "3"],
    True,
    "b = e^(-(log log n)^2)/n; u = log n, v = log u: int e^(-(log u)^2) du = int e^(v - v^2) dv "
    "< oo (integral test, b decreasing): converges, slower than every 1/(n log(n)^q), q > 1.",
    start=3,
)

# ---------------------------------------------------------------------------------------
# (e) Gamma, binomial and Catalan ratios
# ---------------------------------------------------------------------------------------
_G72 = lambda: mp.gamma(mp.mpf(7) / 2)  # noqa: E731
add(
    "special/beta-n-seven-halves",
    ["--rpe", "gamma(n)*gamma(7/2)/gamma(n + 7/2)", *eps_args(E3)],
    True,
    "Beta(n, 7/2) ~ Gamma(7/2) n^(-7/2). Telescoping: sum_{n>=m} Gamma(n)/Gamma(n + 7/2) = "
    "Gamma(m)/((5/2) Gamma(m + 5/2)): B = 2/5, R_j = Gamma(7/2) Gamma(j + 1)/((5/2) "
    "Gamma(j + 7/2)).",
    exact(Fraction(2, 5)),
    cached(
        lambda: R.trf_from_tail(
            lambda j: _G72() * R.gamma_ratio_tail(0, mp.mpf(7) / 2, j + 1),
            mp.mpf(2) / 5,
            E3,
            hi=10**6,
        )
    ),
)
_CAT2 = lambda n: ((2 * n + 1) / mp.mpf(2 * n + 2)) ** 2 * ((n + 1) / mp.mpf(n + 2)) ** 2  # noqa: E731
add(
    "special/catalan-squared-over-16n",
    ["--rpe", "binomial(2*n, n)**2/((n + 1)**2*16**n)", *eps_args(E2)],
    True,
    "C_n^2/16^n ~ 1/(pi n^3). sum_{n>=0} C_n^2 x^n at x = 1/16 is 3F2(1/2, 1/2, 1; 2, 2; 1) = "
    "16/pi - 4 (mpmath's hyp3f2 agrees to 48 digits): B = 16/pi - 5; TRF from the terms "
    "(exact ratio).",
    cached(lambda: (16 / mp.pi - 5, TINY)),
    cached(
        lambda: R.trf_from_terms(R.ratio_terms(mp.mpf(1) / 16, _CAT2, 1, 400), 16 / mp.pi - 5, E2)
    ),
)
add(
    "special/binomial-4n-critical",
    ["--rpe", "binomial(4*n, n)*(27/256)**n"],
    False,
    "binomial(4n, n) ~ sqrt(2/(3 pi n)) (256/27)^n (Stirling): b ~ c/sqrt(n).",
)
add(
    "special/binomial-4n-critical-over-n",
    ["--rpe", "binomial(4*n, n)*(27/256)**n/n"],
    True,
    "b ~ sqrt(2/(3 pi)) n^(-3/2) (Stirling).",
)

# ---------------------------------------------------------------------------------------
# (f) Sign changes that are not Leibniz, alternating with log factors
# ---------------------------------------------------------------------------------------
_B_al2 = cached(
    lambda: R.two_ways(
        lambda: -mp.diff(mp.altzeta, 1, 2),
        lambda: mp.nsum(
            lambda n: (-1) ** int(n) * mp.log(n) ** 2 / n, [1, mp.inf], method="alternating"
        ),
    )
)
add(
    "alt/log-squared-over-n",
    ["--rpe", "(-1)**n*log(n)**2/n"],
    True,
    "log(n)^2/n decreases from n = 8 (e^2 < 8) to 0: Leibniz. eta(s) = sum (-1)^(n+1) n^-s: "
    "B = -eta''(1) (mpmath's altzeta, checked against nsum).",
    _B_al2,
    others=True,
)
_B_pm2 = lambda: -mp.log(2) - mp.mpf(3) / 4  # noqa: E731


def _pm2(n):  # (-1)^n/(n + 2 (-1)^n): odd n -> -1/(n - 2), even n -> 1/(n + 2)
    n = int(n)
    return mp.mpf(1) / (n + 2) if n % 2 == 0 else -mp.mpf(1) / (n - 2)


add(
    "alt/not-leibniz-shifted-denominator",
    ["--rpe", "(-1)**n/(n + 2*(-1)**n)", "--start", "3", *eps_args(E3)],
    True,
    "terms -1, 1/6, -1/3, 1/8, -1/5, ... (|b| not monotone: no Leibniz), -> 0. Pairs (2m+1, "
    "2m+2): 1/(2m+4) - 1/(2m-1), m >= 1: B = (psi(1/2) - psi(3))/2 = -log 2 - 3/4. |R_k| <= "
    "4/(k + 1) (a pair sum <= (5/2)/(n0 - 2) plus one term).",
    cached(lambda: (_B_pm2(), TINY)),
    cached(
        lambda: R.trf_signed(
            [_pm2(n) for n in range(3, 3 + 20000)], _B_pm2(), E3, lambda K: mp.mpf(4) / (K + 1)
        )
    ),
    start=3,
    others=True,
)
_S2 = cached(lambda: R.smooth_sum(lambda x: 2 / (mp.sqrt(x) * (x - 4)), 5))
add(
    "alt/two-sqrt-sign-in-denominator",
    ["--rpe", "(-1)**n/(n + 2*(-1)**n*sqrt(n))", "--start", "5"],
    True,
    "n - 2 sqrt(n) > 0 for n >= 5; with s = (-1)^n, 1/(n + 2 s sqrt n) = (n - 2 s sqrt n)/"
    "(n(n - 4)): b = s/(n - 4) - 2/(sqrt(n)(n - 4)), a convergent alternating harmonic "
    "series plus a convergent n^(-3/2) one (|b| not monotone near the start). B = -log 2 - "
    "sum_{n>=5} 2/(sqrt(n)(n - 4)) (Euler-Maclaurin).",
    cached(lambda: (-mp.log(2) - _S2()[0], _S2()[1])),
    start=5,
    others=True,
)
add(
    "alt/cos-positive-part-over-n",
    ["--rpe", "Max(cos(n), 0)/n"],
    False,
    "Max(c, 0) >= (c + c^2)/2 on [-1, 1] and (c + c^2)/2 = 1/4 + cos(n)/2 + cos(2n)/4: "
    "sum (cos n/2 + cos 2n/4)/n converges (Dirichlet), sum 1/(4n) does not.",
    others=True,
)

# ---------------------------------------------------------------------------------------
# (g) floor / ceiling with sqrt, Max / Min of smooth terms
# ---------------------------------------------------------------------------------------


def _fs3_tail(j):  # terms b_(j+1), b_(j+2), ...: m = floor(sqrt(j + 1)), (m+1)^2 - (j+1)
    # terms 1/m^3 left in block m, then sum_{m' > m} (2m' + 1)/m'^3
    n0 = j + 1
    m = math.isqrt(n0)
    return ((m + 1) ** 2 - n0) / mp.mpf(m) ** 3 + 2 * mp.zeta(2, m + 1) + mp.zeta(3, m + 1)


add(
    "floor/inverse-floor-sqrt-cubed",
    ["--rpe", "1/floor(sqrt(n))**3", *eps_args(E3)],
    True,
    "floor(sqrt n) = m on 2m + 1 indices: B = sum (2m + 1)/m^3 = 2 zeta(2) + zeta(3); the "
    "tail after a partial block in closed form (Hurwitz zeta).",
    cached(lambda: (2 * mp.zeta(2) + mp.zeta(3), TINY)),
    cached(lambda: R.trf_from_tail(_fs3_tail, _fs3_tail(0), E3, hi=10**9)),
)
add(
    "floor/inverse-floor-sqrt-squared",
    ["--rpe", "1/floor(sqrt(n))**2"],
    False,
    "the block of m contributes (2m + 1)/m^2 >= 2/m: harmonic.",
)
add(
    "floor/inverse-ceiling-three-halves",
    ["--rpe", "1/ceiling(n**(3/2))"],
    True,
    "ceiling(n^(3/2)) >= n^(3/2): b <= n^(-3/2).",
)


def _mx_tail(j):  # 100 * 2^-n > 1/n^2 exactly for n <= 14 (n^2 100 > 2^n), not from 15 on
    # (2^n/n^2 increases for n >= 3 and 2^15 > 22500)
    geo = 100 * (mp.mpf(2) ** -j - mp.mpf(2) ** -14) if j < 14 else mp.mpf(0)
    return geo + mp.zeta(2, max(j, 14) + 1)


add(
    "maxmin/max-square-and-scaled-geometric",
    ["--rpe", "Max(1/n**2, 100*2**(-n))", *eps_args(E3)],
    True,
    "100 2^-n wins for n <= 14, 1/n^2 from 15 on: B = 100 (1 - 2^-14) + zeta(2, 15), R_j in "
    "closed form.",
    cached(lambda: (_mx_tail(0), TINY)),
    cached(lambda: R.trf_from_tail(_mx_tail, _mx_tail(0), E3, hi=10**6)),
)


def _mn_B():  # e^(-n/5) < 1/n for every n >= 13 (n/5 - log n increases for n > 5, > 0 at 13):
    # terms min(...) directly below 600, the geometric tail e^(-600/5)/(1 - e^(-1/5)) exactly
    head = mp.fsum(min(1 / mp.mpf(n), mp.exp(-mp.mpf(n) / 5)) for n in range(1, 600))
    return head + mp.exp(-120) / -mp.expm1(-mp.mpf(1) / 5), TINY


add(
    "maxmin/min-harmonic-and-slow-geometric",
    ["--rpe", "Min(1/n, exp(-n/5))", *eps_args(E3)],
    True,
    "Min <= e^(-n/5): converges; e^(-n/5) is the smaller from n = 13 on, 1/n between 2 and "
    "12. B: the head directly plus the exact geometric tail.",
    cached(_mn_B),
    cached(
        lambda: R.trf_from_terms(
            [min(1 / mp.mpf(n), mp.exp(-mp.mpf(n) / 5)) for n in range(1, 600)], _mn_B()[0], E3
        )
    ),
)

# ---------------------------------------------------------------------------------------
# (h) Named RPEs at new parameters
# ---------------------------------------------------------------------------------------
add(
    "named/alibi-k3.5",
    ["--rpe", "alibi", "--param", "k=3.5", "--eps", "0.1", "0.01", "1e-06"],
    True,
    "e^(-3.5 t), t >= 0: B = 1/(1 - e^-3.5), TRF = floor(ln(1/eps)/3.5) + 1.",
    cached(lambda: (1 / -mp.expm1(-mp.mpf(7) / 2), TINY)),
    geo_trf(lambda: mp.mpf(7) / 2, (0.1, 0.01, 1e-06)),
    start=0,
)
_KL = lambda j: 1000 * mp.zeta(mp.mpf(3) / 2, 100 + j)  # noqa: E731
add(
    "named/kerple-log-r1.5-k0.01",
    ["--rpe", "kerple-log", "--param", "r=1.5", "--param", "k=0.01", *eps_args(E3)],
    True,
    "(1 + t/100)^-1.5 = 1000 (t + 100)^-1.5: B = 1000 zeta(3/2, 100), R_j = 1000 "
    "zeta(3/2, 100 + j) (TRF(0.001) ~ 10^8).",
    cached(lambda: (_KL(0), TINY)),
    cached(lambda: R.trf_from_tail(_KL, _KL(0), E3, hi=10**12)),
    start=0,
)
_K17 = lambda: mp.mpf(2) / 100  # noqa: E731
_R17 = lambda: mp.mpf(17) / 10  # noqa: E731
_F_kp17 = lambda t: mp.exp(-_K17() * t ** _R17())  # noqa: E731
_B_kp17 = cached(lambda: R.direct_sum(_F_kp17, 0, 400, R.stretched_tail(_K17(), _R17())))
add(
    "named/kerple-power-r1.7-k0.02",
    ["--rpe", "kerple-power", "--param", "r=1.7", "--param", "k=0.02", *eps_args(E3)],
    True,
    "e^(-0.02 t^1.7), t >= 0: B direct to 400 plus the integral bound (e^-532).",
    _B_kp17,
    cached(lambda: R.trf_from_terms(_terms(_F_kp17, 0, 400), _B_kp17()[0], E3)),
    start=0,
)
_R03 = lambda: mp.mpf(3) / 10  # noqa: E731
_F_kp03 = lambda t: mp.exp(-2 * t ** _R03())  # noqa: E731
_B_kp03 = cached(lambda: R.direct_sum(_F_kp03, 0, 30000, R.stretched_tail(2, _R03())))
add(
    "named/kerple-power-r0.3-k2",
    ["--rpe", "kerple-power", "--param", "r=0.3", "--param", "k=2", "--eps", "0.1"],
    True,
    "e^(-2 t^0.3): stretched exponential, converges slowly. B direct to 30000 plus the "
    "integral bound Gamma(1/r, k N^r)/(r k^(1/r)) (~1e-14).",
    _B_kp03,
    cached(lambda: R.trf_from_terms(_terms(_F_kp03, 0, 30000), _B_kp03()[0], (0.1,))),
    start=0,
)
add(
    "named/sandwich-d8-k0.25-r5",
    ["--rpe", "sandwich", "--param", "k=0.25", "--param", "r=5", "--param", "d=8"],
    False,
    "each cos - 1 >= -2, four of them: b >= e^(-0.25 * 8) = e^-2 > 0 for every t.",
)
add(
    "named/t5-five-buckets",
    [
        "--rpe",
        "t5",
        "--param",
        "num_buckets=5",
        "--param",
        "max_distance=12",
        "--bucket-values=-0.25,-0.75,-1.5,-3,-6",
    ],
    False,
    "every distance beyond max_distance is in the last bucket: b = e^-6 forever.",
)
_T1 = lambda j: mp.zeta(2, 1000 + j)  # noqa: E731
add(
    "named/type1-start-1000",
    ["--rpe", "type1", "--start", "1000", *eps_args(E3)],
    True,
    "1/n^2 from n = 1000: B = zeta(2, 1000), R_j = zeta(2, 1000 + j).",
    cached(lambda: (_T1(0), TINY)),
    cached(lambda: R.trf_from_tail(_T1, _T1(0), E3, hi=10**9)),
    start=1000,
)


def _type2_late():  # see the note of named/type2-start-1e6; mpmath's nsum is off here (1e-81)
    N = mp.mpf(10) ** 6
    L = mp.log(N)
    f = mp.exp(-(L**2))
    integral = mp.exp(mp.mpf(1) / 4) * mp.sqrt(mp.pi) / 2 * mp.erfc(L - mp.mpf(1) / 2)
    df = 2 * L / N * f  # |f'(N)|
    return integral + f / 2 + df / 16, df / 16 + f * TINY


add(
    "named/type2-start-1e6",
    ["--rpe", "type2", "--start", "1000000"],
    True,
    "e^(-log(n)^2) from n = 10^6 (b ~ 1e-83, slowly decreasing: ratio 1 - 2 log(n)/n, B ~ "
    "5e-79). B = int_N^oo f + f(N)/2 + E, int = e^(1/4) (sqrt(pi)/2) erfc(log N - 1/2) (u = "
    "log x), 0 <= E <= |f'(N)|/8 (f convex there: the trapezoid errors telescope).",
    cached(_type2_late),
    start=10**6,
)

# ---------------------------------------------------------------------------------------
# (i) Bias files
# ---------------------------------------------------------------------------------------
_DEC = ["0", "-0.1", "-0.2", "-0.3"]
_ref_dec = cached(lambda: R.linear_tail_ref(_DEC))
add(
    "bias/decimal-tenths-linear",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "float64 values of 0, -0.1, -0.2, -0.3; slope float(-0.3) - float(-0.2) = "
    "-0.09999999999999998 (not -0.1): B and R_j exactly on those binary values.",
    cached(lambda: (_ref_dec()[0], TINY)),
    cached(lambda: R.trf_from_tail(_ref_dec()[1], _ref_dec()[0], E3, hi=10**5)),
    files={"BIAS.txt": txt_bytes(_DEC)},
    start=0,
)
_ZV = [-2.5, -1.25, 0.75, -3.0]
add(
    "bias/npy-zero-tail-bump",
    ["--bias-file", "BIAS.npy", "--bias-tail", "zero", *eps_args(E3)],
    True,
    "b = e^-2.5, e^-1.25, e^0.75, e^-3, then 0: B their sum; TRF from the terms (the largest "
    "term third).",
    cached(lambda: (mp.fsum(mp.exp(v) for v in _ZV), TINY)),
    cached(lambda: R.trf_from_terms([mp.exp(v) for v in _ZV], mp.fsum(mp.exp(v) for v in _ZV), E3)),
    files={"BIAS.npy": npy_bytes(np.array(_ZV, dtype=np.float64))},
    start=0,
)
add(
    "bias/int8-npy-linear",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "int8 [0, -3, -6], slope -3: B = 1/(1 - e^-3), R_j/B = e^(-3j) (a refusal of int8 is honest).",
    cached(lambda: (1 / -mp.expm1(-3), TINY)),
    geo_trf(3, E3),
    files={"BIAS.npy": npy_bytes(np.array([0, -3, -6], dtype=np.int8))},
    start=0,
    error_ok=True,
)
add(
    "bias/slope-lost-in-float64",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear"],
    False,
    "-100000000000000000 and -100000000000000001 are the same float64 (-1e17, spacing 16): "
    "the slope of the file's values is 0, b = e^(-1e17) > 0 forever (docs: the bias is the "
    "file's float64 values).",
    files={"BIAS.txt": txt_bytes(["-100000000000000000", "-100000000000000001"])},
)
add(
    "bias/refuse-header-line",
    ["--bias-file", "BIAS.txt"],
    None,
    "a text file whose first line is the word 'bias': not a number, refused.",
    files={"BIAS.txt": txt_bytes(["bias", "0", "-1"])},
)

# ---------------------------------------------------------------------------------------
# (j) Late starts
# ---------------------------------------------------------------------------------------
add(
    "start/telescoping-start-7",
    ["--rpe", "1/(n*(n + 1))", "--start", "7", *eps_args(E3)],
    True,
    "1/(n(n+1)) = 1/n - 1/(n+1): B = 1/7, R_j = 1/(7 + j) (exact).",
    exact(Fraction(1, 7)),
    frac_tail(lambda j: Fraction(1, 7 + j), Fraction(1, 7), E3),
    start=7,
)
_N6 = 10**6


def _cub4_tail(j):  # 1/(n(n^2 + 4)) = (1/n - n/(n^2 + 4))/4 = (1/n - (1/(n+2i) + 1/(n-2i))/2)/4;
    # sum_{n >= M} (1/(n + a) - 1/(n + b)) = psi(M + b) - psi(M + a): R = (Re psi(M + 2i) -
    # psi(M))/4, M = N + j
    M = _N6 + j
    return (mp.re(mp.digamma(mp.mpc(M, 2))) - mp.digamma(M)) / 4


add(
    "start/cubic-plus-4n-start-1e6",
    ["--rpe", "1/(n**3 + 4*n)", "--start", str(_N6), *eps_args(E3)],
    True,
    "1/(n(n^2 + 4)) ~ n^-3; partial fractions over n, n +- 2i: B = (Re psi(N + 2i) - psi(N))/4 "
    "(digamma), R_j the same at N + j.",
    cached(lambda: (_cub4_tail(0), _cub4_tail(0) * TINY)),
    cached(lambda: R.trf_from_tail(_cub4_tail, _cub4_tail(0), E3, hi=10**9)),
    start=_N6,
)

# ---------------------------------------------------------------------------------------
# (k) Free parameters (the condition derived by hand)
# ---------------------------------------------------------------------------------------
fam(
    "free/moving-power-over-exponential-never",
    ["--rpe", "(1 + a/n)**(n**2)*exp(-a*n)", "--free", "a", "--assume", "a>0"],
    lambda d: False,
    [{"a": v} for v in (0.5, 1, 3)],
    "n^2 log(1 + a/n) - a n = -a^2/2 + a^3/(3n) - ... -> -a^2/2: b -> e^(-a^2/2) > 0, never "
    "converges.",
)
fam(
    "free/one-minus-inverse-to-a-n-log-n",
    ["--rpe", "(1 - 1/n)**(a*n*log(n))", "--free", "a", "--start", "2"],
    lambda d: d["a"] > 1,
    [{"a": v} for v in (-1, 0, 0.5, 1, 1.5, 3)],
    "n log(1 - 1/n) = -1 - 1/(2n) - ...: b = n^(-a) e^(-a log(n)/(2n) + ...) ~ n^-a (a <= 0: "
    "b >= 1): converges iff a > 1.",
)
fam(
    "free/asinh-inverse-power",
    ["--rpe", "asinh(1/n**p)", "--free", "p", "--assume", "p>0"],
    lambda d: d["p"] > 1,
    [{"p": v} for v in (0.5, 1, 1.5, 2)],
    "x/2 <= asinh x <= x on [0, 1]: b ~ n^-p, converges iff p > 1 (a refusal of asinh, "
    "named, is honest).",
)
CASES[-1].error_ok = True
fam(
    "free/power-times-log-one-plus-inverse-square",
    ["--rpe", "n**p*log(1 + 1/n**2)", "--free", "p"],
    lambda d: d["p"] < 1,
    [{"p": v} for v in (-1, 0, 0.5, 1, 1.5)],
    "log(1 + 1/n^2) ~ 1/n^2 (between 1/(2n^2) and 1/n^2): b ~ n^(p-2), converges iff p < 1.",
)

# ---------------------------------------------------------------------------------------
# (l) Input that must be refused (exit 2, one error line)
# ---------------------------------------------------------------------------------------
add(
    "refuse/free-index",
    ["--rpe", "exp(-n)", "--free", "n"],
    None,
    "n is the summation index: it cannot be a free parameter.",
)
add(
    "refuse/eps-one",
    ["--rpe", "exp(-n)", "--eps", "0.1", "1"],
    None,
    "eps must lie in (0, 1): 1 is refused.",
)
add(
    "refuse/assume-unknown-relation",
    ["--rpe", "n**(-a)", "--free", "a", "--assume", "a>>1"],
    None,
    "'a>>1' is none of NAME>0, NAME<0, NAME>=0, NAME<=0.",
)
add(
    "refuse/dunder-attribute",
    ["--rpe", "n.__class__"],
    None,
    "attribute access is not in the grammar.",
)

# ---------------------------------------------------------------------------------------
# (m) Verdicts no engine can prove: undecided is the only honest answer (or the right one)
# ---------------------------------------------------------------------------------------
add(
    "open/n-fifth-sin-squared",
    ["--rpe", "1/(n**5*sin(n)**2)"],
    "open",
    "sum 1/(n^u |sin n|^v) is tied to the irrationality measure mu(pi) (converges if mu(pi) < "
    "1 + (u - 1)/v = 3, diverges if mu(pi) > 3); mu(pi) is only known to lie in [2, 7.103]: "
    "open.",
)
add(
    "open/n-fourth-sin-squared",
    ["--rpe", "1/(n**4*sin(n)**2)"],
    "open",
    "u = 4, v = 2: threshold 1 + (u - 1)/v = 5/2, inside the known range [2, 7.103] of "
    "mu(pi): open.",
)
add(
    "hard/n-squared-sin-fourth",
    ["--rpe", "1/(n**2*sin(n)**4)"],
    False,
    "the convergents p/q of pi give |sin p| = |sin(p - q pi)| < 1/q < 4/p infinitely often: "
    "b_p > p^2/256, the terms are unbounded. (undecided is honest.)",
)

# ---------------------------------------------------------------------------------------
# (n) Second round: late sign changes, poles, hidden cancellation, underflow, MRB constant
# ---------------------------------------------------------------------------------------
_B_n30 = lambda: mp.zeta(2) - 30 * mp.zeta(3)  # noqa: E731
add(
    "second/late-sign-change-n-minus-30",
    ["--rpe", "(n - 30)/n**3", *eps_args(E3)],
    True,
    "negative for n < 30, zero at 30, positive after: b = 1/n^2 - 30/n^3, B = zeta(2) - "
    "30 zeta(3) < 0; R_k = zeta(2, k + 1) - 30 zeta(3, k + 1) in closed form (signed TRF: "
    "|R_k| decreases to 0 once k >= 30 as every later term is positive).",
    cached(lambda: (_B_n30(), TINY)),
    cached(
        lambda: R.trf_signed(
            [(n - 30) / mp.mpf(n) ** 3 for n in range(1, 200001)],
            _B_n30(),
            E3,
            lambda K: mp.zeta(2, K + 1),  # |R_k| <= zeta(2, k + 1) for k >= 30
        )
    ),
    others=True,
)
add(
    "second/pole-at-six-refused",
    ["--rpe", "1/(n**2 - 21*n/2 + 27)"],
    None,
    "n^2 - 21n/2 + 27 = (n - 6)(n - 9/2): b_6 = 1/0, the series is not defined.",
)
_PT = lambda j: 2 * (mp.digamma(mp.mpf(5) / 2 + j) - mp.digamma(1 + j)) / 3  # noqa: E731
add(
    "second/poles-below-start-7",
    ["--rpe", "1/(n**2 - 21*n/2 + 27)", "--start", "7", *eps_args(E3)],
    True,
    "roots 6 and 9/2 below the start: 1/((n - 6)(n - 9/2)) = (2/3)(1/(n - 6) - 1/(n - 9/2)), "
    "B = (2/3)(psi(5/2) - psi(1)), R_j = (2/3)(psi(5/2 + j) - psi(1 + j)) (digamma).",
    cached(lambda: (_PT(0), TINY)),
    cached(lambda: R.trf_from_tail(_PT, _PT(0), E3, hi=10**6)),
    start=7,
)
_D30 = lambda: -mp.expm1(-(mp.mpf(10) ** -30))  # noqa: E731
add(
    "second/difference-of-exponentials-1e-30",
    ["--rpe", "exp(-n) - exp(-n - 10**(-30))", *eps_args(E3)],
    True,
    "b = e^-n (1 - e^(-10^-30)) > 0: B = (1 - e^(-10^-30))/(e - 1) ~ 5.8e-31, R_j/B = e^-j: "
    "TRF = floor(ln(1/eps)) + 1 (float64 would give 0 for every term).",
    cached(lambda: (_D30() / mp.expm1(1), _D30() * TINY)),
    geo_trf(1, E3),
)


def _sin2_tail(j):  # sin^2 x = sum_{k>=1} (-1)^(k+1) 2^(2k-1) x^(2k)/(2k)!: the terms k = 1, 2
    # cancel, R_j = sum_{k>=3} (-1)^(k+1) 2^(2k-1) zeta(2k, j + 1)/(2k)! (absolutely convergent)
    return mp.fsum(
        (-1) ** (k + 1) * mp.mpf(2) ** (2 * k - 1) * mp.zeta(2 * k, j + 1) / mp.factorial(2 * k)
        for k in range(3, 60)
    )


add(
    "second/sin-squared-taylor-remainder",
    ["--rpe", "sin(1/n)**2 - 1/n**2 + 1/(3*n**4)", *eps_args(E3)],
    True,
    "the Taylor series of sin^2 x alternates with decreasing terms for x <= 1: 2x^6/45 - x^8/315 "
    "<= b <= 2x^6/45, x = 1/n: converges, every term > 0. B and R_j from the series in "
    "zeta(2k) (the first two powers cancel exactly).",
    cached(lambda: (_sin2_tail(0), TINY)),
    cached(lambda: R.trf_from_tail(_sin2_tail, _sin2_tail(0), E3, hi=10**5)),
)


def _fl2_tail(j):  # b_n = 2^-floor(n/2); sum_{n >= 2k} = 4 * 2^-k, sum_{n >= 2k+1} = 3 * 2^-k
    m = j + 1
    k = m // 2
    return Fraction(4 if m % 2 == 0 else 3, 2**k)


add(
    "second/two-to-minus-floor-half",
    ["--rpe", "2**(-floor(n/2))", *eps_args(E3)],
    True,
    "terms 1, 1/2, 1/2, 1/4, 1/4, ...: B = 3, tails 3 * 2^-k or 4 * 2^-k (exact).",
    exact(3),
    frac_tail(_fl2_tail, Fraction(3), E3, hi=200),
)
_NU = 10**6
_SQ = lambda M: Fraction(2 * M * M + 4 * M + 6)  # noqa: E731


def _u_tail(j):  # 2^N * sum_{n >= N+j} n^2 2^-n = 2^-j (2M^2 + 4M + 6), M = N + j (sum_k 2^-k
    # = 2, sum_k k 2^-k = 2, sum_k k^2 2^-k = 6)
    return _SQ(_NU + j) / 2**j


add(
    "second/square-over-two-power-start-1e6",
    ["--rpe", "n**2/2**n", "--start", str(_NU), *eps_args(E3)],
    True,
    "b ~ 2^-n n^2, B = 2^-N (2N^2 + 4N + 6) ~ 10^-301018 (below every float), R_j/B = 2^-j "
    "(2M^2 + 4M + 6)/(2N^2 + 4N + 6), M = N + j (exact rationals).",
    exact(Fraction(2 * _NU * _NU + 4 * _NU + 6, 2**_NU)),
    frac_tail(_u_tail, _SQ(_NU), E3, hi=200),
    start=_NU,
)
fam(
    "free/power-times-exp-minus-power",
    ["--rpe", "n**a*exp(-n**b)", "--free", "a", "--free", "b"],
    lambda d: d["b"] > 0 or d["a"] < -1,
    [
        {"a": a, "b": b}
        for a, b in ((0, 1), (5, 0.5), (-2, 0), (-1, 0), (0, 0), (-2, -1), (-0.5, -1), (3, -1))
    ],
    "b > 0: e^(-n^b) beats every power; b = 0: b_n = n^a/e; b < 0: e^(-n^b) -> 1, b_n ~ n^a: "
    "converges iff b > 0 or a < -1.",
)
_C2 = lambda: mp.pi**2 / 6 - mp.pi + 1  # noqa: E731
add(
    "second/cos-2n-over-n-squared",
    ["--rpe", "cos(2*n)/n**2", *eps_args(E3)],
    True,
    "sum cos(nx)/n^2 = pi^2/6 - pi x/2 + x^2/4 on [0, 2 pi] (Fourier), x = 2: B = pi^2/6 - "
    "pi + 1; |R_K| <= 1/K.",
    cached(lambda: (_C2(), TINY)),
    cached(
        lambda: R.signed_terms_trf(
            lambda n: mp.cos(2 * n) / n**2, 1, _C2(), E3, 20000, lambda K: 1 / mp.mpf(K)
        )
    ),
    others=True,
)
_P3 = lambda x: mp.pi**2 * x / 6 - mp.pi * x**2 / 4 + x**3 / 12  # noqa: E731


def _sin_plus_B():  # s = sin n: s/(n + s) = s/n - s^2/n^2 + s^3/n^3 - s^4/(n^3 (n + s)); the
    # first two sums are both (pi - 1)/2 (sum sin(nx)/n = (pi - x)/2, sum cos(nx)/n^2 = pi^2/6
    # - pi x/2 + x^2/4 on [0, 2 pi]), the third (3 P(1) - P(3))/4 (sin^3 = (3 sin n - sin 3n)/4,
    # P the Fourier polynomial of sum sin(nx)/n^3); 0 <= s^4/(n^3 (n + s)) <= 2/n^4 (n >= 2):
    # direct to N, tail <= 2/(3 (N - 1)^3)
    r, err = R.direct_sum(
        lambda n: mp.sin(n) ** 4 / (n**3 * (n + mp.sin(n))),
        1,
        20000,
        lambda N: 2 / (3 * (mp.mpf(N) - 1) ** 3),
    )
    return (3 * _P3(mp.mpf(1)) - _P3(mp.mpf(3))) / 4 - r, err


add(
    "second/sin-over-n-plus-sin",
    ["--rpe", "sin(n)/(n + sin(n))"],
    True,
    "sin/(n + sin) = sin/n - sin^2/(n (n + sin)): sum sin(n)/n converges (Dirichlet), the "
    "rest is O(1/n^2) (n + sin n >= n - 1). B by the expansion in powers of sin n/n "
    "(Fourier closed forms) plus a direct sum with a proved tail (mpmath's plain nsum is off "
    "in the 4th digit here).",
    cached(_sin_plus_B),
    others=True,
)
_MRB = cached(
    lambda: R.two_ways(
        lambda: mp.nsum(
            lambda n: (-1) ** int(n) * mp.expm1(mp.log(n) / n), [1, mp.inf], method="alternating"
        ),
        lambda: mp.nsum(  # the pairs f(2m) - f(2m - 1), smooth in m: Euler-Maclaurin
            lambda m: mp.expm1(mp.log(2 * m) / (2 * m)) - mp.expm1(mp.log(2 * m - 1) / (2 * m - 1)),
            [1, mp.inf],
            method="euler-maclaurin",
        ),
    )
)
add(
    "second/mrb-constant",
    ["--rpe", "(-1)**n*(n**(1/n) - 1)"],
    True,
    "n^(1/n) - 1 decreases from n = 3 to 0: Leibniz. B = the MRB constant 0.18785964...",
    _MRB,
    others=True,
)
add(
    "second/log-squared-plus-sin-denominator",
    ["--rpe", "1/(n*(log(n)**2 + sin(n)))", "--start", "3"],
    True,
    "log(n)^2 + sin(n) >= log(n)^2 - 1 >= log(n)^2/2 for n >= 5: b <= 2/(n log(n)^2).",
    start=3,
)
add(
    "second/three-to-n-over-e-to-n",
    ["--rpe", "3**n*exp(-n)/n**5"],
    False,
    "(3/e)^n/n^5 -> oo (3/e = 1.1036 > 1).",
)
_QB = [f"{-0.001 * t * t!r}" for t in range(1000)]
_ref_q = cached(lambda: R.linear_tail_ref(_QB))
add(
    "second/bias-quadratic-1000-linear-tail",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "1000 values -0.001 t^2 (float64 of their repr); the linear tail fits the last 100 by least "
    "squares (slope ~ -1.898): B and R_j exactly on the binary values.",
    cached(lambda: (_ref_q()[0], TINY)),
    cached(lambda: R.trf_from_tail(_ref_q()[1], _ref_q()[0], E3, hi=10**4)),
    files={"BIAS.txt": txt_bytes(_QB)},
    start=0,
)

_N19 = 10**19


def _z2_log10_trf():  # R_j = zeta(2, N + j) decreasing; least j with R_j < eps zeta(2, N),
    # bisection at 60 digits (j ~ 9e19: beyond int64, the log10 compared)
    out = {}
    with mp.workdps(60):
        B = mp.zeta(2, _N19)
        for e in E3:
            thr = R.eps_mp(e) * B
            lo, hi = 0, 10 * _N19 * 1000
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if mp.zeta(2, _N19 + mid) < thr else (mid, hi)
            out[e] = ("log10", float(mp.log10(hi)), 1e-9)
    return out


add(
    "third/inverse-square-start-1e19",
    ["--rpe", "1/n**2", "--start", str(_N19), *eps_args(E3)],
    True,
    "B = zeta(2, 10^19) = 1e-19 + 5e-39 + ...; TRF(eps) ~ 10^19 (1/eps - 1) (beyond int64).",
    cached(lambda: (mp.zeta(2, _N19), mp.zeta(2, _N19) * TINY)),
    cached(_z2_log10_trf),
    start=_N19,
)
_B_pm = lambda: 1 / mp.expm1(1) - 1 / (2 * (mp.e + 1))  # noqa: E731
add(
    "third/exp-times-one-plus-half-sign",
    ["--rpe", "exp(-n)*(1 + (-1)**n/2)", *eps_args(E3)],
    True,
    "positive, not monotone (e^-n/2, 3e^-2/2, e^-3/2, ...): B = 1/(e - 1) + (1/2) sum (-1/e)^n "
    "= 1/(e - 1) - 1/(2(e + 1)); TRF from the terms (tail < 2e^-60 after 60).",
    cached(lambda: (_B_pm(), TINY)),
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-n) * (1 + mp.mpf((-1) ** n) / 2) for n in range(1, 60)], _B_pm(), E3
        )
    ),
)


def _two_sign_tail(j):  # sum_{n>j} (2 + (-1)^n)/n^2 = 2 zeta(2, j+1) + (-1)^(j+1) (zeta(2,
    # (j+1)/2) - zeta(2, (j+2)/2))/4  (n = j + 1 + 2k and j + 2 + 2k)
    a = mp.mpf(j + 1) / 2
    return (
        2 * mp.zeta(2, j + 1)
        + (-1) ** (j + 1) * (mp.zeta(2, a) - mp.zeta(2, a + mp.mpf(1) / 2)) / 4
    )


add(
    "third/two-plus-sign-over-n-squared",
    ["--rpe", "(2 + (-1)**n)/n**2", *eps_args(E3)],
    True,
    "terms 1/n^2 and 3/n^2 alternately (positive, not monotone): B = 2 zeta(2) - eta(2) = "
    "pi^2/3 - pi^2/12 = pi^2/4; R_j in Hurwitz zeta (the tail decreases: terms > 0).",
    cached(lambda: (mp.pi**2 / 4, TINY)),
    cached(lambda: R.trf_from_tail(_two_sign_tail, mp.pi**2 / 4, E3, hi=10**6)),
)

#: series for the Ctrl-C trials (each runs long enough to be interrupted)
SIGINT_SERIES = [
    ["--rpe", "1/(n**5*sin(n)**2)"],
    ["--rpe", "type2", "--start", "1000000"],
]

#: no extra cases: the whole set runs by default
EXTRA_CASES: list[Case] = []
assert len({c.id for c in CASES}) == len(CASES)
