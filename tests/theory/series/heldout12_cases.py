"""Held-out set 12: commands as a researcher types them into ``python -m theory.trf``, with
the verdict derived by hand (the argument in each ``note``) and, where the series converges,
a reference B and TRF(eps) computed independently with mpmath at 50 digits
(``heldout12_reference``): closed forms (Riemann and Hurwitz zeta and their derivatives,
zeta at a complex point, the q-Pochhammer symbol, Euler's constant, digamma, Gamma
telescoping, theta functions, Catalan's constant, infinite products) or direct sums and
Euler-Maclaurin tails with the bound proved in the comment beside them.

Families not in sets 5-11 (each formula grepped there first): terms analytic in e^-n or
2^-n summed through their power series, terms proved <= 0 (Taylor remainders of sin and
cos, log cos, logs of rational functions below 1), logs of rational functions telescoping
to a product, products of powers and logs, slowly converging iterated-log series from a late
start (TRF beyond 10^12: log10 references from the integral test), Gamma / binomial /
factorial ratios, named RPEs at new parameters, bias files (.npy float64 / float32, text
in exponent notation), starts 0, 2, 3, 16, 20 and 50, divergent and oscillating series
whose verdict is derived by hand (sin(log n)/n diverges although its terms tend to 0), free
parameter families with the threshold itself on the grid, refusals, and one open problem.

The fields of a :class:`Case` are those of set 7 (``heldout7_cases``): ``verdict`` True /
False / None (must be refused) / "open"; ``B()`` -> (value, error); ``trf()`` -> {eps:
int, or ("log10", value, tol)}; ``cond`` (predicate, grid) for ``--free`` families;
``files`` written beside the run; ``error_ok`` a named refusal is honest; ``others`` the
decision lies in the sign-changing or free-parameter engines.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp
import numpy as np

try:
    from . import heldout12_reference as R
    from .heldout7_cases import Case, cached, eps_args, exact, npy_bytes, txt_bytes
    from .heldout9_cases import frac_tail, geo_trf
except ImportError:  # run as a script from this folder
    import heldout12_reference as R
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
# (a) Terms analytic in e^-n (or 2^-n): summed through their power series
# ---------------------------------------------------------------------------------------
# -log(1 - x) = sum_k x^k/k, x = e^-n: sum_{n>j} = sum_k e^(-k(j+1))/(k (1 - e^-k)); the
# product prod (1 - e^-n) is mpmath's q-Pochhammer qp(1/e, 1/e) (second way for B).
_NL = R.exp_series_tail(lambda k: mp.mpf(1) / k, lambda k: mp.mpf(k))
_B_nl = cached(lambda: R.two_ways(lambda: _NL(0), lambda: -mp.log(mp.qp(1 / mp.e, 1 / mp.e))))
add(
    "expser/minus-log-one-minus-exp",
    ["--rpe", "-log(1 - exp(-n))", *eps_args(E3)],
    True,
    "-log(1 - x) <= x/(1 - x) <= 2x for x = e^-n <= 1/2 (n >= 1): geometric majorant. B = "
    "sum_k 1/(k (e^k - 1)) = -log prod (1 - e^-n) (q-Pochhammer); R_j from the double series.",
    _B_nl,
    cached(lambda: R.trf_from_tail(_NL, _NL(0), E3, hi=1000)),
)
# e^(2x) - 1 = sum_k 2^k x^k/k!, x = e^-n
_E2X = R.exp_series_tail(lambda k: mp.mpf(2) ** k / mp.factorial(k), lambda k: mp.mpf(k), 80)
add(
    "expser/exp-two-exp-minus-n-minus-one",
    ["--rpe", "exp(2*exp(-n)) - 1", *eps_args(E3)],
    True,
    "e^(2x) - 1 <= 2x e^(2x) <= 2 e^(2/e) x for x = e^-n: geometric majorant. B = sum_k "
    "2^k/(k! (e^k - 1)); R_j = sum_k 2^k e^(-kj)/(k! (e^k - 1)).",
    cached(lambda: (_E2X(0), TINY)),
    cached(lambda: R.trf_from_tail(_E2X, _E2X(0), E3, hi=1000)),
)
# sinh(x) = sum_{k odd} x^k/k!, x = 2^-n
_SH2 = R.exp_series_tail(
    lambda k: (1 / mp.factorial(k)) if k % 2 else mp.mpf(0), lambda k: k * mp.log(2), 80
)
add(
    "expser/sinh-two-to-minus-n",
    ["--rpe", "sinh(2**(-n))", *eps_args(E3)],
    True,
    "sinh x <= x cosh x <= cosh(1/2) x for x = 2^-n <= 1/2: geometric majorant. B = sum_{k odd} "
    "1/(k! (2^k - 1)); R_j = sum_{k odd} 2^(-kj)/(k! (2^k - 1)).",
    cached(lambda: (_SH2(0), TINY)),
    cached(lambda: R.trf_from_tail(_SH2, _SH2(0), E3, hi=1000)),
)
# 1/(e^n - 1) - e^-n = sum_{k >= 2} e^(-kn) (a Lambert series minus its first term)
_LM = R.exp_series_tail(lambda k: mp.mpf(0) if k == 1 else mp.mpf(1), lambda k: mp.mpf(k), 250)
_B_lm = cached(
    lambda: R.two_ways(
        lambda: _LM(0), lambda: mp.fsum(mp.exp(-2 * n) / -mp.expm1(-n) for n in range(1, 130))
    )
)
add(
    "expser/lambert-minus-first-term",
    ["--rpe", "1/(exp(n) - 1) - exp(-n)", *eps_args(E3)],
    True,
    "1/(e^n - 1) - e^-n = e^(-2n)/(1 - e^-n) in (0, 2 e^(-2n)]: converges. B = sum_{k>=2} "
    "1/(e^k - 1) (k-sum), also sum_n e^(-2n)/(1 - e^-n) directly (the terms after n = 130 "
    "are below e^-259); R_j = sum_{k>=2} e^(-kj)/(e^k - 1).",
    _B_lm,
    cached(lambda: R.trf_from_tail(_LM, _LM(0), E3, hi=1000)),
)
_LP = R.exp_series_tail(lambda k: mp.mpf((-1) ** (k + 1)) / k, lambda k: mp.mpf(k), 250)
_B_lp = cached(lambda: R.two_ways(lambda: _LP(0), lambda: mp.log(mp.qp(-1 / mp.e, 1 / mp.e))))
add(
    "expser/log-one-plus-exp-minus-n",
    ["--rpe", "log(1 + exp(-n))", *eps_args(E3)],
    True,
    "0 < log(1 + x) <= x, x = e^-n: geometric majorant. B = log prod (1 + e^-n) = log "
    "qp(-1/e, 1/e); R_j = sum_k (-1)^(k+1) e^(-kj)/(k (e^k - 1)) (absolutely convergent).",
    _B_lp,
    cached(lambda: R.trf_from_tail(_LP, _LP(0), E3, hi=1000)),
)
_ZC = lambda: mp.exp(mp.mpc(-1, 1))  # noqa: E731
_B_ec = lambda: mp.re(_ZC() / (1 - _ZC()))  # noqa: E731
add(
    "expser/exp-minus-n-cos-n",
    ["--rpe", "exp(-n)*cos(n)", *eps_args(E3)],
    True,
    "|b| <= e^-n: absolutely convergent, signs change (cos 1 > 0, cos 2 < 0, ...). B = Re "
    "z/(1 - z), z = e^(-1 + i); |R_K| <= e^-(K+1)/(1 - 1/e) (signed TRF).",
    cached(lambda: (_B_ec(), TINY)),
    cached(
        lambda: R.trf_signed(
            [mp.exp(-n) * mp.cos(n) for n in range(1, 200)],
            _B_ec(),
            E3,
            lambda K: mp.exp(-(K + 1)) / (1 - 1 / mp.e),
        )
    ),
    others=True,
)

# ---------------------------------------------------------------------------------------
# (b) Terms proved <= 0: B < 0, TRF from |R_j| (the tails of -b decrease)
# ---------------------------------------------------------------------------------------
add(
    "neg/minus-inverse-cube",
    ["--rpe=-1/n**3", *eps_args(E3)],
    True,
    "every term negative, |b| = n^-3: B = -zeta(3), |R_j| = zeta(3, j + 1).",
    cached(lambda: (-mp.zeta(3), TINY)),
    cached(lambda: R.trf_from_tail(lambda j: mp.zeta(3, j + 1), mp.zeta(3), E3, hi=10**6)),
)


def _cos_tail(j):  # sum_{n>j} (1 - cos(1/n)) = sum_{k>=1} (-1)^(k+1) zeta(2k, j+1)/(2k)!
    # (the cosine series, absolutely convergent for x = 1/n <= 1)
    return mp.fsum(
        (-1) ** (k + 1) * mp.zeta(2 * k, j + 1) / mp.factorial(2 * k) for k in range(1, 40)
    )


add(
    "neg/cos-inverse-minus-one",
    ["--rpe", "cos(1/n) - 1", *eps_args(E3)],
    True,
    "cos x - 1 in [-x^2/2, 0) for 0 < x <= 1: nonpositive, |b| <= 1/(2n^2). B = -sum_k "
    "(-1)^(k+1) zeta(2k)/(2k)!, |R_j| the same with zeta(2k, j + 1).",
    cached(lambda: (-_cos_tail(0), TINY)),
    cached(lambda: R.trf_from_tail(_cos_tail, _cos_tail(0), E3, hi=10**7)),
)


def _sin_tail(j):  # sum_{n>j} (x - sin x), x = 1/n: sum_{k>=1} (-1)^(k+1) zeta(2k+1, j+1)/(2k+1)!
    return mp.fsum(
        (-1) ** (k + 1) * mp.zeta(2 * k + 1, j + 1) / mp.factorial(2 * k + 1) for k in range(1, 40)
    )


add(
    "neg/sin-inverse-minus-inverse",
    ["--rpe", "sin(1/n) - 1/n", *eps_args(E3)],
    True,
    "x - x^3/6 <= sin x < x for 0 < x <= 1: every term in [-1/(6n^3), 0). B = -sum_k "
    "(-1)^(k+1) zeta(2k + 1)/(2k + 1)!, |R_j| with zeta(2k + 1, j + 1).",
    cached(lambda: (-_sin_tail(0), TINY)),
    cached(lambda: R.trf_from_tail(_sin_tail, _sin_tail(0), E3, hi=10**6)),
)


def _logcos_c(k):  # -log cos x = sum_k 2^(2k-1) (2^(2k) - 1) |B_2k| x^(2k)/(k (2k)!)
    return (mp.mpf(2) ** (2 * k - 1) * (mp.mpf(2) ** (2 * k) - 1) * abs(mp.bernoulli(2 * k))) / (
        k * mp.factorial(2 * k)
    )


def _logcos_tail(j):  # radius pi/2 > 1: the coefficients fall like (2/pi)^(2k); k <= 140
    # leaves < (2/pi)^280 ~ 1e-55 (times zeta(2k, j + 1) <= 2)
    return mp.fsum(_logcos_c(k) * mp.zeta(2 * k, j + 1) for k in range(1, 141))


_B_lc = cached(
    lambda: R.two_ways(
        lambda: -_logcos_tail(0),
        lambda: R.smooth_sum(lambda x: mp.log(mp.cos(1 / x)), 1)[0],
        floor=mp.mpf(10) ** -24,
    )
)
add(
    "neg/log-cos-inverse",
    ["--rpe", "log(cos(1/n))", *eps_args(E3)],
    True,
    "0 < cos(1/n) < 1 (1/n <= 1 < pi/2): every term negative, -log cos x <= x^2 (x <= 1): "
    "converges. B = -sum_k c_k zeta(2k) from the series of -log cos (Bernoulli numbers), "
    "checked by Euler-Maclaurin; |R_j| with zeta(2k, j + 1).",
    _B_lc,
    cached(lambda: R.trf_from_tail(_logcos_tail, _logcos_tail(0), E3, hi=10**6)),
)


def _lm4_abs_tail(j):  # prod_{n>=M} (n-2)(n+2)/n^2 = (M-2)(M-1)/(M(M+1)), M = 3 + j
    M = mp.mpf(3 + j)
    return mp.log(M * (M + 1) / ((M - 2) * (M - 1)))


add(
    "neg/log-one-minus-four-over-square-start-3",
    ["--rpe", "log(1 - 4/n**2)", "--start", "3", *eps_args(E3)],
    True,
    "0 < 1 - 4/n^2 < 1 for n >= 3: every term negative, ~ -4/n^2. prod_{n=3}^N (n-2)(n+2)/n^2 "
    "= 2 (N+1)(N+2)/(12 (N-1) N) -> 1/6: B = -log 6; |R_j| = log(M(M+1)/((M-2)(M-1))), M = 3 "
    "+ j.",
    cached(lambda: (-mp.log(6), TINY)),
    cached(lambda: R.trf_from_tail(_lm4_abs_tail, mp.log(6), E3, hi=10**6)),
    start=3,
)
_B_el = lambda: mp.log(1 - 1 / mp.e)  # noqa: E731
add(
    "neg/minus-exp-over-n",
    ["--rpe=-exp(-n)/n", *eps_args(E3)],
    True,
    "every term negative, |b| <= e^-n. sum x^n/n = -log(1 - x): B = log(1 - 1/e); TRF from "
    "the terms (|R_j| < e^-j/(1 - 1/e): 200 terms are plenty).",
    cached(lambda: (_B_el(), TINY)),
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-n) / n for n in range(1, 200)], -_B_el(), E3
        )  # the terms of -b, against |B|
    ),
)

# ---------------------------------------------------------------------------------------
# (c) Logs of rational functions, Euler's constant
# ---------------------------------------------------------------------------------------
add(
    "lograt/telescoping-product-to-three",
    ["--rpe", "log((n + 1)*(n + 2)/(n*(n + 3)))", *eps_args(E3)],
    True,
    "(n+1)(n+2) = n(n+3) + 2: every term > 0, ~ 2/n^2. prod_{n=M}^N (n+1)/n = (N+1)/M, "
    "prod (n+2)/(n+3) = (M+2)/(N+3): B = log 3, R_j = log((j + 3)/(j + 1)).",
    cached(lambda: (mp.log(3), TINY)),
    cached(
        lambda: R.trf_from_tail(lambda j: mp.log(mp.mpf(j + 3) / (j + 1)), mp.log(3), E3, hi=10**6)
    ),
)
_B_c3 = lambda: mp.log(mp.cosh(mp.pi * mp.sqrt(3) / 2) / mp.pi)  # noqa: E731
add(
    "lograt/log-one-plus-inverse-cube",
    ["--rpe", "log(1 + 1/n**3)", *eps_args(E3)],
    True,
    "0 < log(1 + x) <= x: b <= n^-3. prod (1 + 1/n^3) = cosh(pi sqrt(3)/2)/pi (the roots of "
    "x^3 + 1 in the sine product): B = log of it; TRF from the terms (R_j < 1/(2 j^2)).",
    cached(lambda: (_B_c3(), TINY)),
    cached(lambda: R.trf_from_terms(_terms(lambda n: mp.log1p(1 / n**3), 1, 3000), _B_c3(), E3)),
)
_B_lg = lambda: mp.log(2) - mp.euler  # noqa: E731
add(
    "lograt/log-odd-ratio-minus-harmonic",
    ["--rpe", "log(2*n + 1) - log(2*n - 1) - 1/n", *eps_args(E3)],
    True,
    "log((1 + x)/(1 - x)) = 2 atanh x = 2x + 2x^3/3 + ..., x = 1/(2n): b = 1/(12 n^3) + ... > "
    "0. S_N = log(2N + 1) - H_N -> log 2 - gamma = B; R_j = B - log(2j + 1) + H_j.",
    cached(lambda: (_B_lg(), TINY)),
    cached(
        lambda: R.trf_from_tail(
            lambda j: _B_lg() - mp.log(2 * j + 1) + mp.harmonic(j), _B_lg(), E3, hi=10**6
        )
    ),
)
add(
    "lograt/inverse-minus-log-one-plus-inverse",
    ["--rpe", "1/n - log(1 + 1/n)", *eps_args(E3)],
    True,
    "x - log(1 + x) in (0, x^2/2]: converges. S_N = H_N - log(N + 1) -> gamma: B = Euler's "
    "constant, R_j = gamma - H_j + log(j + 1).",
    cached(lambda: (+mp.euler, TINY)),
    cached(
        lambda: R.trf_from_tail(
            lambda j: mp.euler - mp.harmonic(j) + mp.log(j + 1), +mp.euler, E3, hi=10**6
        )
    ),
)

# ---------------------------------------------------------------------------------------
# (d) Products of powers and logs
# ---------------------------------------------------------------------------------------
add(
    "powlog/log-cubed-over-square",
    ["--rpe", "log(n)**3/n**2", *eps_args(E3)],
    True,
    "log(n)^3 <= C n^(1/2): b <= C n^(-3/2). d^3/ds^3 n^-s = -log(n)^3 n^-s: B = -zeta'''(2), "
    "R_j = -zeta'''(2, j + 1) (Hurwitz; TRF(0.001) near 10^6).",
    cached(lambda: (-mp.zeta(2, 1, 3), TINY)),
    cached(lambda: R.trf_from_tail(lambda j: -mp.zeta(2, j + 1, 3), -mp.zeta(2, 1, 3), E3, 10**8)),
)
# ratio b_(n+1)/b_n = (1 + 1/n)^(1/2) (log(n+1)/log(n))^2 e^(-1/2) < 0.61 for n >= 400:
# tail from N = 400 <= b_400/(1 - 0.61) < 3 b_400 (~1e-84)
_F_sl = lambda n: mp.sqrt(n) * mp.log(n) ** 2 * mp.exp(-n / 2)  # noqa: E731
_B_sl = cached(lambda: R.direct_sum(_F_sl, 1, 400, lambda N: 3 * _F_sl(mp.mpf(N))))
add(
    "powlog/sqrt-log-squared-exp-half",
    ["--rpe", "sqrt(n)*log(n)**2*exp(-n/2)", *eps_args(E3)],
    True,
    "b <= C e^(-n/3): converges (b_1 = 0). B direct to 400 plus 3 b_400.",
    _B_sl,
    cached(lambda: R.trf_from_terms(_terms(_F_sl, 1, 400), _B_sl()[0], E3)),
)

# ---------------------------------------------------------------------------------------
# (e) Slowly converging iterated-log series from a late start (integral test)
# ---------------------------------------------------------------------------------------
_f3 = lambda x: 1 / (x * mp.log(x) ** 3)  # noqa: E731
_f3p = lambda x: -(mp.log(x) + 3) / (x**2 * mp.log(x) ** 4)  # noqa: E731


def _R3(M):  # sum_{n >= M} 1/(n log(n)^3) = I + f/2 - f'/12 + e, I = 1/(2 log(M)^2); f is
    # completely monotone, so |e| <= |f'''(M)|/720 < 1e-3 f(M)/M^2 (negligible against the
    # gap f(M) between neighbouring tails)
    M = mp.mpf(M)
    return 1 / (2 * mp.log(M) ** 2) + _f3(M) / 2 - _f3p(M) / 12


def _B3():  # head 20..1999 plus Euler-Maclaurin (em_tail, p = 8, its proved bound) at 2000
    head = mp.fsum(_f3(mp.mpf(n)) for n in range(20, 2000))
    v, err = R.em_tail(_f3, mp.mpf(2000), 1 / (2 * mp.log(mp.mpf(2000)) ** 2))
    return head + v, err + mp.mpf(10) ** -40


add(
    "slow/inverse-n-log-cubed-start-20",
    ["--rpe", "1/(n*log(n)**3)", "--start", "20", *eps_args(E3)],
    True,
    "Bertrand q = 3 > 1 (integral 1/(2 log(x)^2)). B: the head to 2000 plus Euler-Maclaurin "
    "(f completely monotone); R(M) = 1/(2 log(M)^2) + f/2 - f'/12 (TRF(0.1) ~ 10^4 exact, "
    "the others beyond 10^12: log10).",
    cached(_B3),
    cached(lambda: R.trf_any(lambda j: _R3(20 + j), _B3()[0], E3)),
    start=20,
)
_fll = lambda x: mp.log(mp.log(x)) / (x * mp.log(x) ** 2)  # noqa: E731


def _fllp(x):  # f = g(u)/x, u = log x, g = log(u)/u^2: f' = (g'(u) - g(u))/x^2
    u = mp.log(x)
    return ((1 - 2 * mp.log(u)) / u**3 - mp.log(u) / u**2) / x**2


def _Ill(M):  # int_M^oo log(log x)/(x log(x)^2) dx = (log(log M) + 1)/log M  (u = log x)
    u = mp.log(mp.mpf(M))
    return (mp.log(u) + 1) / u


def _Bll_at(K):  # head 16..K-1, tail I + f/2 - f'/12 at K (next term f'''/720 ~ 1e-17 at K
    # = 20000); two K must agree
    head = mp.fsum(_fll(mp.mpf(n)) for n in range(16, K))
    K = mp.mpf(K)
    return head + _Ill(K) + _fll(K) / 2 - _fllp(K) / 12


_B_ll = cached(lambda: R.two_ways(lambda: _Bll_at(20000), lambda: _Bll_at(30000), floor=TINY))
add(
    "slow/log-log-over-n-log-squared-start-16",
    ["--rpe", "log(log(n))/(n*log(n)**2)", "--start", "16", *eps_args(E3)],
    True,
    "u = log x: int log(u)/u^2 du = -(log u + 1)/u: integral test (b decreasing for n >= 16: "
    "d/du (log u/u^2) < 0 for u > e^(1/2)), converges. B: head plus Euler-Maclaurin, two "
    "splits agree; every TRF beyond 10^21: log10 TRF = t/ln 10 with (log t + 1)/t = eps B.",
    _B_ll,
    cached(
        lambda: R.log_scale_trf(
            lambda t: (mp.log(t) + 1) / t + _fll(mp.exp(t)) / 2, _B_ll()[0], E3, 30, 10**9
        )
    ),
    start=16,
)
add(
    "slow/type2-start-50",
    ["--rpe", "type2", "--start", "50"],
    True,
    "e^(-log(n)^2) = n^(-log n) <= n^-3 from n = 21: converges. B from n = 50 by "
    "Euler-Maclaurin (two splits).",
    cached(lambda: R.smooth_sum(lambda x: mp.exp(-(mp.log(x) ** 2)), 50)),
    start=50,
)
add(
    "slow/log-n-minus-one-over-cube-start-2",
    ["--rpe", "log(n - 1)/n**3", "--start", "2"],
    True,
    "0 <= log(n - 1) <= log n <= n^(1/2): b <= n^(-5/2) (b_2 = 0). B by Euler-Maclaurin.",
    cached(lambda: R.smooth_sum(lambda x: mp.log(x - 1) / x**3, 2)),
    start=2,
)

# ---------------------------------------------------------------------------------------
# (f) Gamma, binomial and factorial ratios
# ---------------------------------------------------------------------------------------
_GT = lambda j: R.gamma_ratio_tail(mp.mpf(1) / 3, 3, j + 1)  # noqa: E731
add(
    "special/gamma-third-over-gamma-three",
    ["--rpe", "gamma(n + 1/3)/gamma(n + 3)", *eps_args(E3)],
    True,
    "Gamma(n + a)/Gamma(n + b) ~ n^(a - b) = n^(-8/3). Telescoping: sum_{n>=m} = Gamma(m + "
    "1/3)/((5/3) Gamma(m + 2)): B = 3 Gamma(4/3)/10, R_j the same at m = j + 1.",
    cached(lambda: (_GT(0), TINY)),
    cached(lambda: R.trf_from_tail(_GT, _GT(0), E3, hi=10**6)),
)
_B_f21 = lambda: 2 * mp.pi / (3 * mp.sqrt(3)) - 1  # noqa: E731
add(
    "special/factorial-squared-over-odd-factorial",
    ["--rpe", "factorial(n)**2/factorial(2*n + 1)", *eps_args(E3)],
    True,
    "ratio (n + 1)/(2 (2n + 3)) -> 1/4. sum_{n>=0} n!^2/(2n + 1)! = 2 pi/(3 sqrt 3) (the series "
    "of arcsin(x)/sqrt(1 - x^2) at x = 1/2; mpmath's nsum agrees): B = 2 pi/(3 sqrt 3) - 1.",
    cached(lambda: (_B_f21(), TINY)),
    cached(
        lambda: R.trf_from_terms(
            R.ratio_terms(mp.mpf(1) / 6, lambda n: mp.mpf(n + 1) / (2 * (2 * n + 3)), 1, 100),
            _B_f21(),
            E3,
        )
    ),
)
_B_cb = lambda: 4 * mp.log(2) - 8 * mp.catalan / mp.pi  # noqa: E731
_CB = lambda n: ((2 * n + 1) / mp.mpf(2 * n + 2)) ** 2 * n / mp.mpf(n + 1)  # noqa: E731
add(
    "special/central-binomial-squared-over-16n-n",
    ["--rpe", "binomial(2*n, n)**2/(16**n*n)", *eps_args(E3)],
    True,
    "binomial(2n, n)/4^n ~ 1/sqrt(pi n): b ~ 1/(pi n^2). sum (binomial(2n,n)/4^n)^2/n = "
    "4 log 2 - 8 G/pi (G Catalan's constant; 2K(k)/pi = sum c_n^2 k^(2n) integrated; "
    "mpmath's nsum agrees to 40 digits); TRF from the terms (exact ratio).",
    cached(lambda: (_B_cb(), TINY)),
    cached(lambda: R.trf_from_terms(R.ratio_terms(mp.mpf(1) / 4, _CB, 1, 4000), _B_cb(), E3)),
)

# ---------------------------------------------------------------------------------------
# (g) Other starts
# ---------------------------------------------------------------------------------------
add(
    "start/inverse-n-squared-minus-four-start-3",
    ["--rpe", "1/(n**2 - 4)", "--start", "3", *eps_args(E3)],
    True,
    "1/(n^2 - 4) = (1/(n - 2) - 1/(n + 2))/4: B = (1 + 1/2 + 1/3 + 1/4)/4 = 25/48, R_j = "
    "(1/(M-2) + 1/(M-1) + 1/M + 1/(M+1))/4, M = 3 + j (exact).",
    exact(Fraction(25, 48)),
    frac_tail(
        lambda j: sum(Fraction(1, 3 + j + d) for d in (-2, -1, 0, 1)) / 4, Fraction(25, 48), E3
    ),
    start=3,
)
_Z3 = lambda j: mp.zeta(3, mp.mpf(5) / 2 + j)  # noqa: E731
add(
    "start/half-shift-cube-start-3",
    ["--rpe", "1/(n - 1/2)**3", "--start", "3", *eps_args(E3)],
    True,
    "(n - 1/2)^-3 from n = 3: B = zeta(3, 5/2), R_j = zeta(3, 5/2 + j) (Hurwitz).",
    cached(lambda: (_Z3(0), TINY)),
    cached(lambda: R.trf_from_tail(_Z3, _Z3(0), E3, hi=10**6)),
    start=3,
)
_W = lambda: mp.mpc(mp.mpf(1) / 2, mp.sqrt(3) / 2)  # noqa: E731
_QT = lambda j: 2 * mp.im(mp.digamma(j + _W())) / mp.sqrt(3)  # noqa: E731
add(
    "start/quadratic-n-squared-plus-n-plus-one-start-0",
    ["--rpe", "1/(n**2 + n + 1)", "--start", "0", *eps_args(E3)],
    True,
    "n^2 + n + 1 = (n + w)(n + conj w), w = 1/2 + i sqrt(3)/2 (b_0 = 1): sum_{n>=M} = 2 Im "
    "psi(M + w)/sqrt 3 (digamma); B = (pi/sqrt 3) tanh(pi sqrt(3)/2) (checked against it).",
    cached(
        lambda: R.two_ways(
            lambda: _QT(0), lambda: mp.pi / mp.sqrt(3) * mp.tanh(mp.pi * mp.sqrt(3) / 2)
        )
    ),
    cached(lambda: R.trf_from_tail(_QT, _QT(0), E3, hi=10**6)),
    start=0,
)
_TH = lambda: (mp.jtheta(3, 0, mp.exp(-mp.mpf(1) / 10)) + 1) / 2  # noqa: E731
add(
    "start/gaussian-tenth-start-0",
    ["--rpe", "exp(-n**2/10)", "--start", "0", *eps_args(E3)],
    True,
    "sum_{n>=0} q^(n^2) = (theta_3(q) + 1)/2, q = e^(-1/10): B; TRF from the terms (b_0 = 1; "
    "e^(-n^2/10) < 1e-60 from n = 40).",
    cached(lambda: (_TH(), TINY)),
    cached(lambda: R.trf_from_terms(_terms(lambda n: mp.exp(-(n**2) / 10), 0, 60), _TH(), E3)),
    start=0,
)

# ---------------------------------------------------------------------------------------
# (h) Named RPEs at new parameters
# ---------------------------------------------------------------------------------------
add(
    "named/alibi-k0.75",
    ["--rpe", "alibi", "--param", "k=0.75", *eps_args(E3)],
    True,
    "e^(-0.75 t), t >= 0: B = 1/(1 - e^-0.75), R_j/B = e^(-0.75 j): TRF = floor(ln(1/eps)/0.75) "
    "+ 1 (3.07, 6.14, 9.21: no tie).",
    cached(lambda: (1 / -mp.expm1(-mp.mpf(3) / 4), TINY)),
    geo_trf(lambda: mp.mpf(3) / 4, E3),
    start=0,
)
_KL3 = lambda j: mp.zeta(3, j + mp.mpf(1) / 2) / 8  # noqa: E731
add(
    "named/kerple-log-r3-k2",
    ["--rpe", "kerple-log", "--param", "r=3", "--param", "k=2", *eps_args(E3)],
    True,
    "(1 + 2t)^-3, t >= 0: the odd numbers' cubes, B = (7/8) zeta(3); R_j = zeta(3, j + 1/2)/8.",
    cached(lambda: (7 * mp.zeta(3) / 8, TINY)),
    cached(lambda: R.trf_from_tail(_KL3, 7 * mp.zeta(3) / 8, E3, hi=10**6)),
    start=0,
)
_S125 = lambda: mp.mpf(5) / 4  # noqa: E731
_KL125 = lambda j: mp.mpf(4) ** -_S125() * mp.zeta(_S125(), j + mp.mpf(1) / 4)  # noqa: E731
add(
    "named/kerple-log-r1.25-k4",
    ["--rpe", "kerple-log", "--param", "r=1.25", "--param", "k=4", *eps_args(E3)],
    True,
    "(1 + 4t)^-1.25 = 4^-1.25 (t + 1/4)^-1.25: B = 4^-1.25 zeta(5/4, 1/4), R_j = 4^-1.25 "
    "zeta(5/4, j + 1/4) (TRF(0.001) ~ 10^10, by bisection).",
    cached(lambda: (_KL125(0), TINY)),
    cached(lambda: R.trf_any(_KL125, _KL125(0), E3)),
    start=0,
)
_F_kp125 = lambda t: mp.exp(-mp.mpf(3) / 10 * t ** (mp.mpf(5) / 4))  # noqa: E731
_B_kp125 = cached(
    lambda: R.direct_sum(
        _F_kp125, 0, 200, R.stretched_tail(mp.mpf(3) / 10, mp.mpf(5) / 4)
    )  # e^(-0.3 * 200^1.25) ~ e^-225
)
add(
    "named/kerple-power-r1.25-k0.3",
    ["--rpe", "kerple-power", "--param", "r=1.25", "--param", "k=0.3", *eps_args(E3)],
    True,
    "e^(-0.3 t^1.25), t >= 0: B direct to 200 plus the integral bound.",
    _B_kp125,
    cached(lambda: R.trf_from_terms(_terms(_F_kp125, 0, 200), _B_kp125()[0], E3)),
    start=0,
)
_F_kp06 = lambda t: mp.exp(-mp.mpf(3) / 2 * t ** (mp.mpf(3) / 5))  # noqa: E731
_B_kp06 = cached(
    lambda: R.direct_sum(_F_kp06, 0, 3000, R.stretched_tail(mp.mpf(3) / 2, mp.mpf(3) / 5))
)
add(
    "named/kerple-power-r0.6-k1.5",
    ["--rpe", "kerple-power", "--param", "r=0.6", "--param", "k=1.5", *eps_args(E3)],
    True,
    "e^(-1.5 t^0.6): stretched exponential. B direct to 3000 plus the integral bound "
    "(e^(-1.5 * 3000^0.6) ~ e^-183).",
    _B_kp06,
    cached(lambda: R.trf_from_terms(_terms(_F_kp06, 0, 3000), _B_kp06()[0], E3)),
    start=0,
)
add(
    "named/sandwich-d2-k2-r7",
    ["--rpe", "sandwich", "--param", "k=2", "--param", "r=7", "--param", "d=2"],
    False,
    "d = 2: b = e^(2 (cos(t/7) - 1)) >= e^-4 > 0 for every t: terms do not tend to 0.",
)
add(
    "named/t5-eight-buckets-bidirectional",
    [
        "--rpe",
        "t5",
        "--param",
        "num_buckets=8",
        "--param",
        "max_distance=20",
        "--param",
        "bidirectional=1",
        "--bucket-values=-0.5,-1,-2,-4,-8,-16,-32,-64",
    ],
    False,
    "far distances all fall in one bucket (the last of the half used): b = e^v > 0 forever, "
    "whatever v: terms do not tend to 0.",
)
add(
    "named/inv-nlogn-start-100",
    ["--rpe", "inv-nlogn", "--start", "100"],
    False,
    "1/(n log n): Bertrand q = 1 (integral log log x -> oo), from any start.",
    start=100,
)

# ---------------------------------------------------------------------------------------
# (i) Bias files
# ---------------------------------------------------------------------------------------
_LV = [repr(-0.3 * t) for t in range(20)]  # float64 products: -0.3*3 = -0.8999999999999999
_ref_lv = cached(lambda: R.linear_tail_ref(_LV))
add(
    "bias/npy-float64-linear-tail",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "20 float64 values -0.3*t (not exact multiples of 0.3 in binary); the linear tail fits "
    "the last 2 (least squares): B and R_j exactly on the binary values.",
    cached(lambda: (_ref_lv()[0], TINY)),
    cached(lambda: R.trf_from_tail(_ref_lv()[1], _ref_lv()[0], E3, hi=10**4)),
    files={"BIAS.npy": npy_bytes(np.array([float(v) for v in _LV], dtype=np.float64))},
    start=0,
)
_EN = ["-1e-3", "-2.5E+1", "0.5e0", "-7.25", "-1E2"]
_B_en = lambda: mp.fsum(mp.exp(mp.mpf(float(v))) for v in _EN)  # noqa: E731
add(
    "bias/txt-exponent-notation-zero-tail",
    ["--bias-file", "BIAS.txt", "--bias-tail", "zero", *eps_args(E3)],
    True,
    "values in exponent notation, then 0: B = sum of e^v over the five float64 values; TRF "
    "from the terms (e^0.5 third).",
    cached(lambda: (_B_en(), TINY)),
    cached(lambda: R.trf_from_terms([mp.exp(mp.mpf(float(v))) for v in _EN], _B_en(), E3)),
    files={"BIAS.txt": txt_bytes(_EN)},
    start=0,
)
_F32 = np.array([0.0, -0.1, -0.2, -0.3], dtype=np.float32)
_B_f32 = lambda: mp.fsum(mp.exp(mp.mpf(float(v))) for v in _F32)  # noqa: E731
add(
    "bias/npy-float32-zero-tail",
    ["--bias-file", "BIAS.npy", "--bias-tail", "zero", *eps_args(E3)],
    True,
    "float32 -0.1 is -0.100000001490116...: B = sum e^v over the float32 values read exactly "
    "(a refusal of float32, named, is honest).",
    cached(lambda: (_B_f32(), TINY)),
    cached(lambda: R.trf_from_terms([mp.exp(mp.mpf(float(v))) for v in _F32], _B_f32(), E3)),
    files={"BIAS.npy": npy_bytes(_F32)},
    start=0,
    error_ok=True,
)
_SQV = np.array([-np.sqrt(t) for t in range(400)], dtype=np.float64)
_B_sq = lambda: mp.fsum(mp.exp(mp.mpf(float(v))) for v in _SQV)  # noqa: E731
add(
    "bias/npy-minus-sqrt-400-zero-tail",
    ["--bias-file", "BIAS.npy", "--bias-tail", "zero", *eps_args(E3)],
    True,
    "400 float64 values -sqrt(t), then 0: B = sum e^v (float64 values exactly); TRF from the "
    "terms.",
    cached(lambda: (_B_sq(), TINY)),
    cached(lambda: R.trf_from_terms([mp.exp(mp.mpf(float(v))) for v in _SQV], _B_sq(), E3)),
    files={"BIAS.npy": npy_bytes(_SQV)},
    start=0,
)
add(
    "bias/linear-tail-rising-diverges",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear"],
    False,
    "values 0, -1, -0.5: the linear tail through the last two rises with slope 0.5: b grows.",
    files={"BIAS.txt": txt_bytes(["0", "-1", "-0.5"])},
)
add(
    "bias/npy-constant-tail-diverges",
    ["--bias-file", "BIAS.npy"],
    False,
    "default tail constant: b = e^-20 > 0 forever after the values -5, -10, -20.",
    files={"BIAS.npy": npy_bytes(np.array([-5.0, -10.0, -20.0]))},
)
add(
    "bias/txt-minus-inf-refused",
    ["--bias-file", "BIAS.txt", "--bias-tail", "zero"],
    None,
    "'-inf' is not a finite bias (the docs: a 1-D array of finite real numbers): refused.",
    files={"BIAS.txt": txt_bytes(["0", "-inf", "-1"])},
)

# ---------------------------------------------------------------------------------------
# (j) Divergent and oscillating series (verdicts by hand)
# ---------------------------------------------------------------------------------------
add(
    "div/inverse-n-plus-sqrt-log",
    ["--rpe", "1/(n + sqrt(n)*log(n))"],
    False,
    "log n <= sqrt n for every n >= 1: n + sqrt(n) log n <= 2n, b >= 1/(2n).",
)
add(
    "div/exponent-inverse-log-log",
    ["--rpe", "n**(-1 + 1/log(log(n)))", "--start", "3"],
    False,
    "log log n > 0 for n >= 3: n^(1/log log n) >= 1, b >= 1/n.",
    start=3,
)
add(
    "div/exp-minus-sqrt-log",
    ["--rpe", "exp(-sqrt(log(n)))"],
    False,
    "sqrt(log n) <= log n for n >= 3 (log n >= 1): b >= 1/n there.",
)
add(
    "div/inverse-log-tenth-power",
    ["--rpe", "1/log(n)**10", "--start", "2"],
    False,
    "log(n)^10 <= n for n large (log(n)^10/n -> 0): b >= 1/n eventually; the terms even tend "
    "to 0 only like a power of log.",
    start=2,
)
add(
    "div/n-over-n-plus-one-to-n",
    ["--rpe", "(n/(n + 1))**n"],
    False,
    "(1 + 1/n)^-n -> 1/e: the terms do not tend to 0.",
)
add(
    "div/alternating-n-over-n-plus-one",
    ["--rpe", "(-1)**n*n/(n + 1)"],
    False,
    "|b| = n/(n + 1) -> 1: the terms do not tend to 0 (partial sums oscillate).",
    others=True,
)
add(
    "div/abs-sin-over-n",
    ["--rpe", "Abs(sin(n))/n"],
    False,
    "|sin n| >= sin^2 n = (1 - cos 2n)/2: sum cos(2n)/(2n) converges (Dirichlet), sum 1/(2n) "
    "does not.",
    others=True,
)
add(
    "div/square-over-cube-plus-100",
    ["--rpe", "n**2/(n**3 + 100)"],
    False,
    "n^3 + 100 <= 101 n^3: b >= 1/(101 n).",
)
add(
    "div/exp-inverse-sqrt-taylor-remainder",
    ["--rpe", "exp(1/sqrt(n)) - 1 - 1/sqrt(n)"],
    False,
    "e^x - 1 - x >= x^2/2 for x >= 0: b >= 1/(2n) (the first two Taylor terms cancel).",
)
add(
    "div/two-plus-cos-over-n-plus-one",
    ["--rpe", "(2 + cos(n))/(n + 1)"],
    False,
    "2 + cos n >= 1: b >= 1/(n + 1).",
)
add(
    "div/sin-over-n-plus-inverse-n-log",
    ["--rpe", "sin(n)/n + 1/(n*log(n))", "--start", "2"],
    False,
    "sum sin(n)/n converges (Dirichlet), sum 1/(n log n) does not: the sum diverges.",
    start=2,
    others=True,
)
add(
    "div/alternating-cube-root-minus-two-thirds",
    ["--rpe", "(-1)**n/n**(1/3) - 1/n**(2/3)"],
    False,
    "sum (-1)^n n^(-1/3) converges (Leibniz), sum n^(-2/3) diverges: partial sums -> -oo.",
    others=True,
)
add(
    "div/sin-log-over-n",
    ["--rpe", "sin(log(n))/n"],
    False,
    "f(x) = sin(log x)/x has |f'| <= 2/x^2 (integrable), so S_N - int_1^N f converges; "
    "int_1^N f = 1 - cos(log N) has no limit: the series diverges although b -> 0.",
    others=True,
)
add(
    "div/cos-log-over-n",
    ["--rpe", "cos(log(n))/n"],
    False,
    "as sin(log n)/n: int_1^N cos(log x)/x dx = sin(log N) oscillates, |f'| <= 2/x^2: "
    "diverges (oscillates) although b -> 0.",
    others=True,
)
add(
    "div/alternating-exp-inverse",
    ["--rpe", "(-1)**n*exp(1/n)"],
    False,
    "|b| = e^(1/n) -> 1: the terms do not tend to 0.",
    others=True,
)
add(
    "div/n-times-exp-inverse-square-minus-one",
    ["--rpe", "n*(exp(1/n**2) - 1)"],
    False,
    "e^x - 1 >= x: b >= 1/n.",
)
add(
    "div/inverse-square-sin-squared",
    ["--rpe", "1/(n**2*sin(n)**2)"],
    False,
    "for the convergents p/q of pi, |sin p| = |sin(p - q pi)| <= |p - q pi| < 1/q, and q > p/4: "
    "b_p > q^2/p^2 > 1/16 infinitely often: the terms do not tend to 0 (undecided is honest).",
    others=True,
)
# convergent oscillating series (signed terms)
_CP = {1: mp.mpf(1) / 2, 2: -mp.mpf(1) / 2, 3: mp.mpf(-1), 4: -mp.mpf(1) / 2, 5: mp.mpf(1) / 2}
_CP[6] = mp.mpf(1)


def _cos_pi3_B():  # cos(pi n/3) has period 6 and mean 0: sum = 6^(-1/2) sum_r c_r
    # zeta(1/2, r/6) (Hurwitz zeta continued; the Dirichlet series of a mean-zero periodic
    # sequence converges to it for s > 0); checked by mpmath's nsum
    return R.two_ways(
        lambda: mp.fsum(_CP[r] * mp.zeta(mp.mpf(1) / 2, mp.mpf(r) / 6) for r in _CP) / mp.sqrt(6),
        lambda: mp.nsum(lambda n: mp.cos(mp.pi * n / 3) / mp.sqrt(n), [1, mp.inf]),
    )


add(
    "osc/cos-pi-n-over-3-over-sqrt",
    ["--rpe", "cos(pi*n/3)/sqrt(n)"],
    True,
    "cos(pi n/3): 1/2, -1/2, -1, -1/2, 1/2, 1 (period 6, mean 0, bounded partial sums), "
    "n^(-1/2) decreasing to 0: Dirichlet. B in Hurwitz zeta at s = 1/2.",
    cached(_cos_pi3_B),
    others=True,
)
add(
    "osc/alternating-sqrt-over-n-plus-one",
    ["--rpe", "(-1)**n*sqrt(n)/(n + 1)"],
    True,
    "sqrt(x)/(x + 1) has derivative (1 - x)/(2 sqrt(x) (x + 1)^2) <= 0 for x >= 1 and tends to "
    "0: Leibniz.",
    others=True,
)
add(
    "osc/sin-sqrt-over-n",
    ["--rpe", "sin(sqrt(n))/n"],
    True,
    "f = sin(sqrt x)/x, |f'| <= x^(-3/2): S_N - int_1^N f converges absolutely; int_1^oo f = "
    "2 int_1^oo sin(u)/u du converges: the series converges (undecided is honest).",
    others=True,
)
add(
    "osc/sin-log-over-n-squared",
    ["--rpe", "sin(log(n))/n**2"],
    True,
    "|b| <= 1/n^2. n^-2 sin(log n) = Im n^-(2 - i): B = Im zeta(2 - i) (checked by a direct "
    "sum with an Euler-Maclaurin tail: agree to 1e-15).",
    cached(lambda: (mp.im(mp.zeta(mp.mpc(2, -1))), TINY)),
    others=True,
)
add(
    "open/n-sixth-sin-fourth",
    ["--rpe", "1/(n**6*sin(n)**4)"],
    "open",
    "sum 1/(n^u |sin n|^v) converges if mu(pi) < 1 + (u - 1)/v and diverges if mu(pi) > 1 + "
    "(u - 1)/v; here 1 + 5/4 = 9/4 lies inside the known range [2, 7.103] of mu(pi): open.",
)

# ---------------------------------------------------------------------------------------
# (k) Free parameters (the condition derived by hand, the threshold on the grid)
# ---------------------------------------------------------------------------------------
fam(
    "free/exp-inverse-minus-one-power",
    ["--rpe", "(exp(1/n) - 1)**p", "--free", "p"],
    lambda d: d["p"] > 1,
    [{"p": v} for v in (-1, 0, 0.5, 1, 1.5, 2)],
    "1/n <= e^(1/n) - 1 <= (e - 1)/n: b ~ n^-p, converges iff p > 1.",
)
fam(
    "free/exp-minus-q-n-over-n-power",
    ["--rpe", "exp(-q*n)/n**p", "--free", "p", "--free", "q"],
    lambda d: d["q"] > 0 or (d["q"] == 0 and d["p"] > 1),
    [
        {"p": p, "q": q}
        for p, q in ((-3, 1), (2, 0), (1, 0), (0.5, 0), (5, -1), (-10, 0.001), (1.0001, 0))
    ],
    "q > 0: geometric; q = 0: n^-p, p > 1; q < 0: the terms grow. Converges iff q > 0 or "
    "(q = 0 and p > 1).",
)
fam(
    "free/a-to-n-over-n",
    ["--rpe", "a**n/n", "--free", "a", "--assume", "a>0"],
    lambda d: d["a"] < 1,
    [{"a": v} for v in (0.5, 0.999, 1, 2)],
    "ratio -> a: a < 1 converges; a = 1 harmonic; a > 1 the terms grow: iff a < 1.",
)
fam(
    "free/power-times-log-one-plus-inverse",
    ["--rpe", "n**p*log(1 + 1/n)", "--free", "p"],
    lambda d: d["p"] < 0,
    [{"p": v} for v in (-2, -0.5, 0, 0.5)],
    "1/(2n) <= log(1 + 1/n) <= 1/n: b ~ n^(p - 1), converges iff p < 0.",
)
fam(
    "free/power-over-one-plus-power",
    ["--rpe", "n**p/(1 + n**q)", "--free", "p", "--free", "q"],
    lambda d: (d["q"] > 0 and d["q"] - d["p"] > 1) or (d["q"] <= 0 and d["p"] < -1),
    [
        {"p": p, "q": q}
        for p, q in ((1, 2), (0.5, 2), (-1, 0), (-2, 0), (-2, -1), (-1, -1), (-0.5, 1), (3, 3))
    ],
    "q > 0: b ~ n^(p - q); q = 0: b = n^p/2; q < 0: 1 + n^q -> 1, b ~ n^p. Converges iff "
    "(q > 0 and p < q - 1) or (q <= 0 and p < -1).",
)
fam(
    "free/exp-minus-c-sqrt",
    ["--rpe", "exp(-c*sqrt(n))", "--free", "c"],
    lambda d: d["c"] > 0,
    [{"c": v} for v in (-1, 0, 0.001, 2)],
    "c > 0: e^(-c sqrt n) <= (4!/c^4) n^-2; c <= 0: b >= 1. Converges iff c > 0.",
)
fam(
    "free/square-plus-one-to-minus-s",
    ["--rpe", "(n**2 + 1)**(-s)", "--free", "s"],
    lambda d: d["s"] > 0.5,
    [{"s": v} for v in (-1, 0, 0.5, 0.51, 1)],
    "n^2 <= n^2 + 1 <= 2 n^2: b ~ n^(-2s), converges iff s > 1/2 (s = 1/2: ~ 1/n).",
)
fam(
    "free/cube-over-k-to-n",
    ["--rpe", "k**(-n)*n**3", "--free", "k", "--assume", "k>0"],
    lambda d: d["k"] > 1,
    [{"k": v} for v in (0.5, 1, 1.01, 3)],
    "ratio -> 1/k: converges iff k > 1 (k = 1: n^3).",
)
fam(
    "free/one-plus-inverse-to-p-n-over-square",
    ["--rpe", "(1 + 1/n)**(p*n)/n**2", "--free", "p"],
    lambda d: True,
    [{"p": v} for v in (-5, 0, 5)],
    "(1 + 1/n)^(pn) = e^(p n log(1 + 1/n)) lies between e^(min(p, p/2)) and e^(max(p, p/2)) "
    "(n log(1 + 1/n) in [1/2, 1)): b ~ e^p/n^2 converges for every real p.",
)
fam(
    "free/alternating-power",
    ["--rpe", "(-1)**n*n**(-p)", "--free", "p"],
    lambda d: d["p"] > 0,
    [{"p": v} for v in (-1, 0, 0.5, 2)],
    "p > 0: Leibniz; p <= 0: |b| >= 1, the terms do not tend to 0. Converges iff p > 0.",
)
fam(
    "free/log-one-plus-inverse-power",
    ["--rpe", "log(1 + 1/n)**p", "--free", "p"],
    lambda d: d["p"] > 1,
    [{"p": v} for v in (-1, 0.5, 1, 2)],
    "1/(2n) <= log(1 + 1/n) <= 1/n: b ~ n^-p, converges iff p > 1.",
)
fam(
    "free/power-log-exp-always",
    ["--rpe", "n**p*log(n)**q*exp(-n)", "--free", "p", "--free", "q", "--start", "2"],
    lambda d: True,
    [{"p": p, "q": q} for p, q in ((10, 10), (-1, -3), (0, 0), (50, -2))],
    "from n = 2 (log n > 0): e^-n beats every n^p log(n)^q, converges for every p, q.",
)
fam(
    "free/log-log-over-n-log-power",
    ["--rpe", "log(log(n))/(n*log(n)**p)", "--free", "p", "--start", "3"],
    lambda d: d["p"] > 1,
    [{"p": v} for v in (0, 1, 1.5, 2)],
    "u = log n: int log(u)/u^p du < oo iff p > 1 (p = 1: (log u)^2/2 -> oo): converges iff p > 1.",
)
fam(
    "free/inverse-power-times-sin-inverse",
    ["--rpe", "n**(-p)*sin(1/n)", "--free", "p"],
    lambda d: d["p"] > 0,
    [{"p": v} for v in (-1, 0, 0.5)],
    "(2/pi)/n <= sin(1/n) <= 1/n: b ~ n^(-p - 1), converges iff p > 0.",
)
fam(
    "free/power-plus-one-over-cube-plus-one",
    ["--rpe", "(n**a + 1)/(n**3 + 1)", "--free", "a"],
    lambda d: d["a"] < 2,
    [{"a": v} for v in (-1, 0, 1.9, 2, 3)],
    "a > 0: b ~ n^(a - 3); a <= 0: 1 <= n^a + 1 <= 2, b ~ n^-3. Converges iff a < 2.",
)
fam(
    "free/exp-minus-n-power",
    ["--rpe", "exp(-n**p)", "--free", "p"],
    lambda d: d["p"] > 0,
    [{"p": v} for v in (-1, 0, 0.1, 1)],
    "p > 0: e^(-n^p) <= C_p n^-2; p = 0: e^-1; p < 0: -> 1. Converges iff p > 0.",
)

# ---------------------------------------------------------------------------------------
# (l) Input that must be refused (exit 2, one error line)
# ---------------------------------------------------------------------------------------
add("refuse/unbalanced-parenthesis", ["--rpe", "exp(-n"], None, "a ')' is missing.")
add(
    "refuse/log-zero-at-start",
    ["--rpe", "log(n - 1)/n**3"],
    None,
    "b_1 = log(0)/1 = -oo: the series is not defined from n = 1 (from 2 it is: slow/...).",
)
add(
    "refuse/type1-start-0",
    ["--rpe", "type1", "--start", "0"],
    None,
    "b_0 = 1/0**2: not defined.",
)
add(
    "refuse/kerple-power-negative-k",
    ["--rpe", "kerple-power", "--param", "k=-3"],
    None,
    "k of kerple-power must be a positive number (--help: k scale).",
)
add(
    "refuse/sandwich-d-514",
    ["--rpe", "sandwich", "--param", "d=514"],
    None,
    "d must be even and <= 512 (--help: head size (even, <= 512)).",
)
add(
    "refuse/t5-bidirectional-2",
    [
        "--rpe",
        "t5",
        "--param",
        "num_buckets=2",
        "--param",
        "bidirectional=2",
        "--bucket-values=-1,-2",
    ],
    None,
    "bidirectional is a switch (0/1, false/true); 2 is neither.",
)
add(
    "refuse/free-on-named-rpe",
    ["--rpe", "kerple-log", "--free", "r"],
    None,
    "a named RPE takes --param values; a free parameter has no meaning there.",
)

# ---------------------------------------------------------------------------------------
# (m) Probes: exact ties, B = 0, cancellation at 1e-30, zero terms by cos(pi n), a start of
# 10^100, terms below every float, a rational parameter, r = 1 + 1e-12, more refusals
# ---------------------------------------------------------------------------------------
_T4 = (0.25, 0.0625, 0.015625)
add(
    "probe/geometric-quarter-exact-ties",
    ["--rpe", "3*4**(-n)", *eps_args(_T4)],
    True,
    "B = 3 (1/4)/(1 - 1/4) = 1, R_j = 4^-j: R_j = eps B exactly at j = 1, 2, 3 for eps = "
    "1/4, 1/16, 1/64 (decimals exact in binary): a tie is no crossing, TRF = 2, 3, 4.",
    exact(1),
    frac_tail(lambda j: Fraction(1, 4**j), Fraction(1), _T4, hi=100),
)
add(
    "probe/sum-exactly-zero",
    ["--rpe", "1/(n*(n + 1)) - 2**(-n)", *eps_args(E3)],
    True,
    "sum 1/(n(n+1)) = 1 = sum 2^-n: B = 0 exactly (b_1 = 0, b_2..b_4 < 0, b_n > 0 from n = "
    "5); |b| <= 1/n^2. No TRF is defined (|R_k| < eps |B| = 0 never holds): any certified "
    "TRF printed is wrong (checked by hand on the output).",
    cached(lambda: (mp.mpf(0), TINY)),
)
_A30 = lambda: mp.mpf(10) ** -30  # noqa: E731


def _canc_tail(j):  # sum_{n>j} a/(n^2 (n^2 + a)) = sum_k (-1)^k a^(k+1) zeta(2k + 4, j + 1)
    # (geometric expansion in a/n^2 <= 1e-30: three terms leave < 1e-90 relative)
    a = _A30()
    return mp.fsum((-1) ** k * a ** (k + 1) * mp.zeta(2 * k + 4, j + 1) for k in range(3))


def _canc_B():  # zeta(2) - sum 1/(n^2 + a), sum_{n>=1} 1/(n^2 + a) = (pi sqrt(a) coth(pi sqrt
    # a) - 1)/(2a) (partial fractions of coth), at 120 digits (the cancellation)
    with mp.workdps(120):
        a = _A30()
        r = mp.sqrt(a)
        v = mp.zeta(2) - (mp.pi * r * mp.coth(mp.pi * r) - 1) / (2 * a)
    return R.two_ways(lambda: +v, lambda: _canc_tail(0), floor=TINY * _A30())


add(
    "probe/difference-of-squares-at-1e-30",
    ["--rpe", "1/n**2 - 1/(n**2 + 10**(-30))", *eps_args(E3)],
    True,
    "b = a/(n^2 (n^2 + a)) > 0, a = 1e-30: b ~ a/n^4. B = zeta(2) - (pi sqrt(a) coth(pi "
    "sqrt a) - 1)/(2a) ~ 1.08e-30 (the partial fractions of coth, 120 digits), also a zeta(4) "
    "- a^2 zeta(6) + ...; R_j the same series at j + 1 (TRF as for 1/n^4 to 1e-30).",
    cached(_canc_B),
    cached(lambda: R.trf_from_tail(_canc_tail, _canc_tail(0), E3, hi=10**6)),
)


def _even_cube_tail(j):  # b_n = 2/n^3 for even n, 0 for odd: sum over even n > j =
    # (1/4) sum_{m > j/2} 1/m^3 = zeta(3, floor(j/2) + 1)/4
    return mp.zeta(3, j // 2 + 1) / 4


add(
    "probe/one-plus-cos-pi-n-over-cube",
    ["--rpe", "(1 + cos(pi*n))/n**3", *eps_args(E3)],
    True,
    "cos(pi n) = (-1)^n: b = 2/n^3 for even n, 0 for odd (every term >= 0). B = zeta(3)/4, "
    "R_j = zeta(3, floor(j/2) + 1)/4.",
    cached(lambda: (mp.zeta(3) / 4, TINY)),
    cached(lambda: R.trf_from_tail(_even_cube_tail, mp.zeta(3) / 4, E3, hi=10**6)),
)
_N100 = 10**100


def _B_g100():  # f = 1/(x log^3 x) completely monotone: sum_{n>=N} f = I + f/2 - f'/12 + e,
    # |e| <= |f'''(N)|/720 < f(N)/N^2 ~ 1e-307: I = 1/(2 log(N)^2)
    N = mp.mpf(_N100)
    return _R3(N), _f3(N) / N**2 + TINY * _R3(N)


add(
    "probe/inverse-n-log-cubed-start-1e100",
    ["--rpe", "1/(n*log(n)**3)", "--start", str(_N100), *eps_args(E3)],
    True,
    "B = 1/(2 log(10^100)^2) + f/2 - ... ~ 9.4e-6 (Euler-Maclaurin at N = 10^100, the "
    "remainder below 1e-300); the tail from M is 1/(2 log(M)^2) + f(M)/2 + ...: log M = "
    "1/sqrt(2 eps B), TRF = M - 10^100 ~ 10^316, 10^1000, 10^3162 (log10).",
    cached(_B_g100),
    cached(
        lambda: R.log_scale_trf(
            lambda t: 1 / (2 * t**2) + _f3(mp.exp(t)) / 2,
            _B_g100()[0],
            E3,
            mp.log(mp.mpf(_N100)) + 1,
            10**6,
        )
    ),
    start=_N100,
)
_F_g2 = lambda n: mp.exp(-(n**2) / 2)  # noqa: E731
_B_g2 = cached(
    lambda: R.direct_sum(_F_g2, 40, 60, lambda N: 2 * _F_g2(mp.mpf(N)))  # ratio < e^-40
)
add(
    "probe/half-gaussian-start-40-below-floats",
    ["--rpe", "exp(-n**2/2)", "--start", "40", *eps_args(E3)],
    True,
    "b_40 = e^-800 ~ 1e-348 (below every float64), ratio e^(-(2n + 1)/2) < e^-40: B = e^-800 "
    "(1 + e^-40.5 + ...), TRF = 1 for every eps < 1 - e^-40.5.",
    _B_g2,
    cached(lambda: R.trf_from_terms(_terms(_F_g2, 40, 20), _B_g2()[0], E3)),
    start=40,
)
add(
    "probe/alibi-k-one-third",
    ["--rpe", "alibi", "--param", "k=1/3", *eps_args(E3)],
    True,
    "k = 1/3 exactly (a rational --param): B = 1/(1 - e^(-1/3)), R_j/B = e^(-j/3): TRF = "
    "floor(3 ln(1/eps)) + 1 = 7, 14, 21 (6.91, 13.8, 20.7: no tie).",
    cached(lambda: (1 / -mp.expm1(-mp.mpf(1) / 3), TINY)),
    geo_trf(lambda: mp.mpf(1) / 3, E3),
    start=0,
)
_D12 = lambda: mp.mpf(10) ** -12  # noqa: E731


def _kl12_trf():  # zeta(1 + d, x) = x^-d/d + x^(-1-d)/2 + O(x^(-2-d)) (Euler-Maclaurin):
    # the least x with zeta(1 + d, x) < eps zeta(1 + d) has x^-d = d eps zeta(1 + d) up to a
    # relative x^-1 (x ~ 10^(10^12)): log10 TRF = -log10(d eps zeta(1 + d))/d
    with mp.workdps(60):
        B = mp.zeta(1 + _D12())
        return {e: ("log10", float(-mp.log10(_D12() * R.eps_mp(e) * B) / _D12()), 1e-9) for e in E3}


add(
    "probe/kerple-log-r-one-plus-1e-12",
    ["--rpe", "kerple-log", "--param", "r=1.000000000001", "--param", "k=1", *eps_args(E3)],
    True,
    "(1 + t)^-(1 + 1e-12), t >= 0: B = zeta(1 + 1e-12) = 1e12 + gamma + ...; R_j = zeta(1 + "
    "d, j + 1) ~ (j + 1)^-d/d: log10 TRF = -log10(d eps B)/d ~ 1e12, 2e12, 3e12.",
    cached(lambda: (mp.zeta(1 + _D12()), mp.zeta(1 + _D12()) * TINY)),
    cached(_kl12_trf),
    start=0,
)
_N6 = 10**6
_Z6 = lambda j: mp.zeta(2, _N6 + j)  # noqa: E731
add(
    "probe/minus-inverse-square-start-1e6",
    ["--rpe=-1/n**2", "--start", str(_N6), *eps_args(E3)],
    True,
    "every term negative: B = -zeta(2, 10^6) ~ -1e-6, |R_j| = zeta(2, 10^6 + j) (TRF ~ 10^6 "
    "(1/eps - 1)).",
    cached(lambda: (-_Z6(0), _Z6(0) * TINY)),
    cached(lambda: R.trf_from_tail(_Z6, _Z6(0), E3, hi=10**12)),
    start=_N6,
)
_B_s4 = lambda: mp.pi / 4  # noqa: E731
add(
    "probe/sin-fourth-over-square",
    ["--rpe", "sin(n)**4/n**2", *eps_args(E3)],
    True,
    "sin^4 = (3 - 4 cos 2n + cos 4n)/8 and sum cos(nx)/n^2 = pi^2/6 - pi x/2 + x^2/4 on [0, 2 "
    "pi] (x = 2, 4): B = (3 zeta(2) - 4 C(2) + C(4))/8 = pi/4 (the pi^2 and constants "
    "cancel; a direct sum to 2e5 agrees to 1e-12). Terms >= 0: TRF from the partial sums.",
    cached(lambda: (_B_s4(), TINY)),
    cached(
        lambda: R.trf_from_terms(_terms(lambda n: mp.sin(n) ** 4 / n**2, 1, 20000), _B_s4(), E3)
    ),
)
add(
    "probe/inverse-square-minus-1e-20",
    ["--rpe", "1/n**2 - 10**(-20)"],
    False,
    "b -> -1e-20 != 0 (b_n < 0 from n = 10^10 on): the terms do not tend to 0.",
)


def _hump_B():  # e^(n - n^2/100) = e^25 e^(-(n - 50)^2/100): sum over n >= 1 is e^25 (theta_3
    # (q) - sum_{m <= -50} q^(m^2)), q = e^(-1/100), m = n - 50
    q = mp.exp(-mp.mpf(1) / 100)
    low = mp.fsum(q ** (m * m) for m in range(50, 400))  # m = -50, -51, ... (q^(400^2) ~ 1e-695)
    return mp.e**25 * (mp.jtheta(3, 0, q) - low)


add(
    "probe/gaussian-hump-at-50",
    ["--rpe", "exp(n - n**2/100)", *eps_args(E3)],
    True,
    "n - n^2/100 = 25 - (n - 50)^2/100: the terms rise to e^25 at n = 50, then fall like a "
    "Gaussian. B = e^25 (theta_3(e^(-1/100)) - sum_{m <= -50} e^(-m^2/100)); TRF from the "
    "partial sums (terms beyond n = 400 below e^-1200).",
    cached(lambda: (_hump_B(), _hump_B() * TINY)),
    cached(
        lambda: R.trf_from_terms(_terms(lambda n: mp.exp(n - n**2 / 100), 1, 400), _hump_B(), E3)
    ),
)


def _pole_tail(j):  # b_n = 1/(n - 15/2)^2: n >= 8 gives zeta(2, 1/2) = pi^2/2, n = 1..7 the
    # values (k + 1/2)^-2, k = 6..0. R_j = zeta(2, j - 13/2) for j >= 7, else the head added
    if j >= 7:
        return mp.zeta(2, mp.mpf(j) - mp.mpf(13) / 2)
    return mp.zeta(2, mp.mpf(1) / 2) + mp.fsum(
        1 / (mp.mpf(n) - mp.mpf(15) / 2) ** 2 for n in range(j + 1, 8)
    )


add(
    "probe/shifted-square-peak-in-the-middle",
    ["--rpe", "1/(n - 15/2)**2", *eps_args(E3)],
    True,
    "no pole at an integer; the largest terms b_7 = b_8 = 4: B = pi^2/2 + sum_{k=0}^{6} (k + "
    "1/2)^-2, R_j = zeta(2, j - 13/2) from j = 7 on (Hurwitz).",
    cached(lambda: (_pole_tail(0), TINY)),
    cached(lambda: R.trf_from_tail(_pole_tail, _pole_tail(0), E3, hi=10**6)),
)
fam(
    "free/power-p-squared-minus-two",
    ["--rpe", "n**(p**2 - 2)", "--free", "p"],
    lambda d: abs(d["p"]) < 1,
    [{"p": v} for v in (-2, -1, -0.5, 0, 0.999, 1, 2)],
    "n^(p^2 - 2) converges iff p^2 - 2 < -1, i.e. -1 < p < 1 (p = +-1: harmonic).",
)
fam(
    "free/power-minus-abs-p",
    ["--rpe", "n**(-Abs(p))", "--free", "p"],
    lambda d: abs(d["p"]) > 1,
    [{"p": v} for v in (-2, -1, 0, 1, 1.5)],
    "n^-|p|: converges iff |p| > 1.",
)
fam(
    "free/exp-minus-n-p-squared",
    ["--rpe", "exp(-n*p**2)", "--free", "p"],
    lambda d: d["p"] != 0,
    [{"p": v} for v in (-1, -0.01, 0, 0.5)],
    "geometric with ratio e^(-p^2) < 1 unless p = 0 (then b = 1): converges iff p != 0.",
)
add(
    "bias/linear-tail-flat-last-values-diverges",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear"],
    False,
    "values -1, -2, -3, -3: the least-squares slope of the last max(2, 4 // 10) = 2 values is "
    "0: b = e^-3 forever.",
    files={"BIAS.txt": txt_bytes(["-1", "-2", "-3", "-3"])},
)
_SL = ["0", "-1e-300"]
_ref_sl = cached(lambda: R.linear_tail_ref(_SL))
add(
    "bias/linear-tail-slope-1e-300",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "values 0 and float64(-1e-300): slope s = that double, b_t = e^(s t): B = 1/(1 - e^s) "
    "~ 1e300, R_j/B = e^(s j): TRF = ln(1/eps)/|s| ~ 2.3e300 (log10, on the binary value).",
    cached(lambda: (_ref_sl()[0], _ref_sl()[0] * TINY)),
    cached(lambda: R.trf_any(_ref_sl()[1], _ref_sl()[0], E3, hi=10**305)),
    files={"BIAS.txt": txt_bytes(_SL)},
    start=0,
)
_C1000 = lambda: mp.log(2) - mp.mpf(1) / 1000  # noqa: E731


def _alt_small_terms():  # b_n = (-1)^(n+1)/n - c 2^-n, c = log 2 - 1/1000
    c = _C1000()
    return [(-1) ** (n + 1) / mp.mpf(n) - c / mp.mpf(2) ** n for n in range(1, 200001)]


add(
    "probe/alternating-harmonic-minus-geometric-sum-1e-3",
    ["--rpe", "(-1)**(n + 1)/n - (log(2) - 1/1000)/2**n", *eps_args(E2)],
    True,
    "sum (-1)^(n+1)/n = log 2 (Leibniz), sum c 2^-n = c: B = 1/1000 exactly, a sum of terms of "
    "size 1 (cancellation). Signed TRF against |B| = 1e-3: |R_k| <= 1/(k + 1) + c 2^-k for "
    "every k (the alternating tail bound), so 2e5 terms settle eps = 0.1, 0.01.",
    cached(lambda: (mp.mpf(1) / 1000, TINY)),
    cached(
        lambda: R.trf_signed(
            _alt_small_terms(),
            mp.mpf(1) / 1000,
            E2,
            lambda K: 1 / mp.mpf(K + 1) + _C1000() / mp.mpf(2) ** K,
        )
    ),
    others=True,
)
_KS = lambda j: mp.zeta(2, 6 + j)  # noqa: E731
add(
    "probe/kerple-log-own-start-5",
    ["--rpe", "kerple-log", "--param", "r=2", "--param", "k=1", "--start", "5", *eps_args(E3)],
    True,
    "--start 5 given with a named RPE: b_n = (1 + n)^-2 from n = 5: B = zeta(2, 6), R_j = "
    "zeta(2, 6 + j).",
    cached(lambda: (_KS(0), TINY)),
    cached(lambda: R.trf_from_tail(_KS, _KS(0), E3, hi=10**7)),
    start=5,
)
_Q4 = lambda: mp.exp(-mp.mpf(1) / 4)  # noqa: E731


def _nq_tail(j):  # sum_{n>j} n q^n = q^(j+1) ((j + 1) - j q)/(1 - q)^2
    q = _Q4()
    return q ** (j + 1) * ((j + 1) - j * q) / (1 - q) ** 2


add(
    "probe/bias-linear-plus-log",
    ["--bias=-n/4 + log(n)", *eps_args(E3)],
    True,
    "the RPE itself: b = n e^(-n/4). sum n q^n = q/(1 - q)^2, q = e^(-1/4): B; R_j = q^(j+1) "
    "((j + 1) - j q)/(1 - q)^2.",
    cached(lambda: (_nq_tail(0), TINY)),
    cached(lambda: R.trf_from_tail(_nq_tail, _nq_tail(0), E3, hi=10**5)),
)
fam(
    "free/sin-a-to-n-over-n",
    ["--rpe", "sin(a)**n/n", "--free", "a"],
    lambda d: True,
    [{"a": v} for v in (0, 1, 1.5, 3, -1.5707963)],
    "|sin a| < 1: geometric; sin a = -1: alternating harmonic, converges; sin a = 1 (a = "
    "pi/2 + 2 pi k) harmonic, diverges: converges iff sin(a) != 1 (no grid point is such an "
    "a: true on every point).",
)
_WL = lambda x: (
    (2 * x + 1) * (mp.gamma(x + mp.mpf(1) / 2) / (mp.sqrt(mp.pi) * mp.gamma(x + 1))) ** 2 / x**2
)  # noqa: E731, E501
add(
    "probe/wallis-partial-product-over-square",
    ["--rpe", "Product(1 - 1/(2*m)**2, (m, 1, n))/n**2"],
    True,
    "prod_{m<=n} (1 - 1/(4m^2)) = (2n + 1) c_n^2, c_n = Gamma(n + 1/2)/(sqrt(pi) n!) (the "
    "factors (2m-1)(2m+1)/(2m)^2 telescope), decreasing to 2/pi (Wallis): b ~ 2/(pi n^2). B by "
    "Euler-Maclaurin on the Gamma form (two splits).",
    cached(lambda: R.smooth_sum(_WL, 1)),
)


def _cube_peak_B():  # b_n = 1/(1 + |n - 10|^3): n = 1..9 give k = 9..1, n = 10 gives 1, n >
    # 10 gives sum_{k>=1} 1/(1 + k^3) (Euler-Maclaurin, two splits)
    s, err = R.smooth_sum(lambda k: 1 / (1 + k**3), 1)
    return 1 + mp.fsum(1 / mp.mpf(1 + k**3) for k in range(1, 10)) + s, err


add(
    "probe/abs-peak-at-ten",
    ["--rpe", "1/(1 + Abs(n - 10)**3)"],
    True,
    "b <= 1/|n - 10|^3 away from 10: converges; b peaks at n = 10 (b = 1). B = 1 + sum_{k=1}^9 "
    "1/(1 + k^3) + sum_{k>=1} 1/(1 + k^3).",
    cached(_cube_peak_B),
)
add(
    "refuse/empty-bias-file",
    ["--bias-file", "BIAS.txt"],
    None,
    "a text file without a value: nothing to sum, refused.",
    files={"BIAS.txt": b""},
)
add(
    "refuse/two-dimensional-npy",
    ["--bias-file", "BIAS.npy"],
    None,
    "a 2-D array is not a bias per distance (the docs: a 1-D array): refused.",
    files={"BIAS.npy": npy_bytes(np.zeros((3, 2)))},
)

#: series for the Ctrl-C trials (each runs long enough to be interrupted)
SIGINT_SERIES = [
    ["--rpe", "log(cos(1/n))"],
    ["--rpe", "log(log(n))/(n*log(n)**2)", "--start", "16"],
]

#: no extra cases: the whole set runs by default
EXTRA_CASES: list[Case] = []
assert len({c.id for c in CASES}) == len(CASES)
