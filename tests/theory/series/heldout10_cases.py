"""Held-out set 10: commands as a researcher types them into ``python -m theory.trf``, with
the verdict derived by hand (the argument in each ``note``) and, where the series converges,
a reference B and TRF(eps) computed independently with mpmath at 50 digits
(``heldout10_reference``): closed forms (digamma, Hurwitz zeta, polylog, Bessel I, the tree
function, Clausen-type polynomials, telescoping sums) or direct sums with a proved tail.

The fields of a :class:`Case` are those of set 7 (``heldout7_cases``): ``verdict`` True /
False / None (must be refused); ``B()`` -> (value, error); ``trf()`` -> {eps: int, or
("log10", value, tol)}; ``cond`` (predicate, grid) for ``--free`` families; ``files``
written beside the run; ``error_ok`` a named refusal is honest; ``others`` the decision lies
in the sign-changing or free-parameter engines.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp
import numpy as np

try:
    from . import heldout10_reference as R
    from .heldout7_cases import Case, cached, eps_args, exact, npy_bytes, txt_bytes
    from .heldout9_cases import frac_tail, geo_trf
except ImportError:  # run as a script from this folder
    import heldout10_reference as R
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


# ---------------------------------------------------------------------------------------
# (a) Rational and algebraic terms, shifted indices, large starts
# ---------------------------------------------------------------------------------------
_N5 = 100000
add(
    "shift/pole-telescoping-start-1e5",
    ["--rpe", "1/((n - 7)*(n - 6))", "--start", str(_N5), *eps_args(E3)],
    True,
    "1/((n-7)(n-6)) = 1/(n-7) - 1/(n-6): B = 1/(N - 7), R_j = 1/(N + j - 7) (exact).",
    exact(Fraction(1, _N5 - 7)),
    frac_tail(lambda j: Fraction(1, _N5 + j - 7), Fraction(1, _N5 - 7), E3, hi=10**9),
    start=_N5,
)
_N9 = 10**9


def _pf(N):  # sum_{n>=N} (n-1)/(n(n+1)(n+2)) = -1/(2N) + 3/(2(N+1))  (partial fractions
    # -1/(2n) + 2/(n+1) - 3/(2(n+2)), telescoped; N = 1 gives 1/4)
    return Fraction(-1, 2 * N) + Fraction(3, 2 * (N + 1))


add(
    "shift/partial-fractions-start-1e9",
    ["--rpe", "(n - 1)/(n*(n + 1)*(n + 2))", "--start", str(_N9), *eps_args(E3)],
    True,
    "(n-1)/(n(n+1)(n+2)) = -1/(2n) + 2/(n+1) - 3/(2(n+2)): B = -1/(2N) + 3/(2(N+1)), "
    "R_j the same at N + j (exact rationals).",
    exact(_pf(_N9)),
    frac_tail(lambda j: _pf(_N9 + j), _pf(_N9), E3, hi=10**14),
    start=_N9,
)
_M = 10**6


def _near_pole_tail(j):  # sum_{n >= M+1+j} 1/(n^2 - M^2) = (psi(j + 2M + 1) - psi(j + 1))/(2M)
    return (mp.digamma(j + 2 * _M + 1) - mp.digamma(j + 1)) / (2 * _M)


add(
    "shift/near-pole-start-1e6",
    ["--rpe", "1/(n**2 - 1000000000000)", "--start", str(_M + 1), *eps_args(E3)],
    True,
    "1/(n^2 - M^2) = (1/(n - M) - 1/(n + M))/(2M), M = 10^6, n >= M + 1: B = H_(2M)/(2M), "
    "R_j = (psi(j + 2M + 1) - psi(j + 1))/(2M) (digamma).",
    cached(lambda: (_near_pole_tail(0), TINY)),
    cached(lambda: R.trf_from_tail(_near_pole_tail, _near_pole_tail(0), E3, hi=10**11)),
    start=_M + 1,
)
_GA = lambda: (3 + mp.sqrt(5)) / 2  # noqa: E731
_GB = lambda: (3 - mp.sqrt(5)) / 2  # noqa: E731


def _golden_tail(
    j,
):  # sum_{n >= 3+j} 1/((n - a)(n - b)) = (psi(3 + j - b) - psi(3 + j - a))/(a - b)
    return (mp.digamma(3 + j - _GB()) - mp.digamma(3 + j - _GA())) / mp.sqrt(5)


add(
    "shift/golden-roots-start-3",
    ["--rpe", "1/(n**2 - 3*n + 1)", "--start", "3", *eps_args(E3)],
    True,
    "roots a, b = (3 +- sqrt 5)/2 < 3 (n^2 - 3n + 1 = 1 at n = 3): partial fractions, "
    "B = (psi(3 - b) - psi(3 - a))/sqrt 5.",
    cached(lambda: (_golden_tail(0), TINY)),
    cached(lambda: R.trf_from_tail(_golden_tail, _golden_tail(0), E3)),
    start=3,
)
add(
    "shift/disguised-harmonic-cube-root",
    ["--rpe", "(n**(1/3) + 1)/(n**(4/3) + n)"],
    False,
    "n^(4/3) + n = n (n^(1/3) + 1): the term is 1/n.",
)
add(
    "shift/sqrt-difference-reciprocal",
    ["--rpe", "n - sqrt(n**2 - 1)"],
    False,
    "n - sqrt(n^2 - 1) = 1/(n + sqrt(n^2 - 1)) >= 1/(2n).",
)
add(
    "shift/algebraic-three-halves-start-1e6",
    ["--rpe", "n/(n**2 + 1)**(3/2)", "--start", "1000000"],
    True,
    "n/(n^2 + 1)^(3/2) < 1/n^2. B by Euler-Maclaurin (two splits agree), ~ 1/N.",
    cached(lambda: R.smooth_sum(lambda n: n / (n**2 + 1) ** mp.mpf(1.5), 10**6)),
    start=10**6,
)
add(
    "shift/sqrt-shift-divergent-start-1e7",
    ["--rpe", "1/sqrt(n**2 + 100000000)", "--start", "10000000"],
    False,
    "1/sqrt(n^2 + 10^8) >= 1/(2n) for n >= 10^4.",
    start=10**7,
)

# ---------------------------------------------------------------------------------------
# (b) exp / log compositions
# ---------------------------------------------------------------------------------------
_F4 = lambda n: mp.exp(-(mp.mpf(n) ** (mp.mpf(1) / 4)) * mp.log(n))  # noqa: E731


def _b_fourth():  # for n >= N: b_n <= e^(-log(N) n^(1/4)), tail by stretched_tail
    N = 20000
    return R.direct_sum(_F4, 1, N, lambda M: R.stretched_tail(mp.log(M), mp.mpf(1) / 4)(M))


_B_fourth = cached(_b_fourth)
add(
    "explog/n-pow-minus-fourth-root",
    ["--rpe", "exp(-n**(1/4)*log(n))", *eps_args(E3)],
    True,
    "b = n^(-n^(1/4)) <= n^-2 from n = 16: converges; B direct to 20000 plus the stretched "
    "bound of e^(-log(20000) n^(1/4)).",
    _B_fourth,
    cached(lambda: R.trf_from_terms([_F4(n) for n in range(1, 3000)], _B_fourth()[0], E3)),
)
add(
    "explog/loglog-exponent-start-16",
    ["--rpe", "n**(-1 - 1/log(log(n)))", "--start", "16"],
    True,
    "b = e^(-log n/log log n)/n <= 1/(n log(n)^2) once log n >= 2 (log log n)^2 (true from "
    "n = 16 on): converges.",
    start=16,
)
_FNL = lambda n: mp.exp(-n / mp.log(n) ** 2)  # noqa: E731
_B_nl = cached(
    lambda: R.direct_sum(_FNL, 2, 40000, lambda N: mp.exp(-mp.sqrt(N)) * (1 + 2 * (mp.sqrt(N) + 1)))
)
add(
    "explog/exp-n-over-log-squared",
    ["--rpe", "exp(-n/log(n)**2)", "--start", "2", *eps_args(E3)],
    True,
    "n/log(n)^2 >= sqrt(n) once n^(1/4) >= log n (n >= 5600): b <= e^-sqrt(n); tail "
    "beyond 40000 by the integral of e^-sqrt(x).",
    _B_nl,
    cached(lambda: R.trf_from_terms([_FNL(mp.mpf(n)) for n in range(2, 20000)], _B_nl()[0], E3)),
    start=2,
)
add(
    "explog/log-pow-minus-loglog",
    ["--rpe", "log(n)**(-log(log(n)))", "--start", "3"],
    False,
    "b = e^(-(log log n)^2) >= e^(-log n) = 1/n once (log log n)^2 <= log n (all n >= 3).",
    start=3,
)
add(
    "explog/exp-minus-cube-log-over-100",
    ["--rpe", "exp(-log(n)**3/100)"],
    True,
    "log(n)^3/100 >= 2 log n once log n >= sqrt(200): b <= 1/n^2 eventually.",
)
add(
    "explog/exp-minus-sqrt-over-log",
    ["--rpe", "exp(-sqrt(n)/log(n))", "--start", "2"],
    True,
    "sqrt(n)/log(n) >= 2 log n eventually (sqrt n / log(n)^2 -> oo): b <= 1/n^2.",
    start=2,
)
add(
    "explog/n-pow-minus-logloglog",
    ["--rpe", "exp(-log(n)*log(log(log(n))))", "--start", "16"],
    True,
    "b = n^(-log log log n) and log log log n >= 2 from n = e^(e^(e^2)) on: converges (the "
    "terms look like n^-0.02 for every n a machine reaches).",
    start=16,
)


def _s1001():  # the exponent typed, 1.001 = 1001/1000, at the working precision (an mpf
    # made at import time would be the 53-bit 1.00099999999999988987..., B off by 1e-10)
    return mp.mpf(1001) / 1000


_F1001 = lambda x: 1 / (x * mp.log(x) ** _s1001())  # noqa: E731


def _b_bertrand1001():  # f completely monotone on (1, oo): head to K, Euler-Maclaurin beyond
    K = 2000
    head = mp.fsum(_F1001(mp.mpf(n)) for n in range(2, K))
    val, bound = R.em_tail(_F1001, mp.mpf(K), mp.log(K) ** (1 - _s1001()) / (_s1001() - 1))
    return head + val, bound + mp.mpf(10) ** -30


add(
    "border/bertrand-1.001",
    ["--rpe", "1/(n*log(n)**1.001)", "--start", "2", "--eps", "0.5"],
    True,
    "Bertrand p = 1, q = 1.001 > 1: converges (B ~ 1000 + ...; Euler-Maclaurin with the "
    "integral log(K)^-0.001/0.001).",
    cached(_b_bertrand1001),
    start=2,
)
_HZ = lambda: mp.zeta(_s1001(), mp.mpf(3) / 2)  # noqa: E731
add(
    "border/hurwitz-1.001-half-shift",
    ["--rpe", "1/(n + 1/2)**(1 + 1e-3)", "--eps", "0.5", "0.9"],
    True,
    "B = zeta(1.001, 3/2) (Hurwitz), R_j = zeta(1.001, j + 3/2): log10 TRF ~ 301 and 46.",
    cached(lambda: (_HZ(), TINY)),
    cached(lambda: R.hurwitz_log10_trf(_s1001(), 1, _HZ(), (0.5, 0.9))),
)
add(
    "border/bertrand-0.999-loglog-squared",
    ["--rpe", "1/(n*log(n)**0.999*log(log(n))**2)", "--start", "3"],
    False,
    "u = log n: integral of du/(u^0.999 log(u)^2) diverges (u^0.001/log(u)^2 -> oo): "
    "diverges although the terms look summable at every practical n.",
    start=3,
)

# ---------------------------------------------------------------------------------------
# (c) Special functions: gamma, factorial and binomial ratios
# ---------------------------------------------------------------------------------------
add(
    "special/gamma-half-squared-harmonic",
    ["--rpe", "gamma(n + 1/2)**2/(gamma(n)*gamma(n + 1)*n)"],
    False,
    "Gamma(n + 1/2)/Gamma(n) ~ n^(1/2), Gamma(n + 1/2)/Gamma(n + 1) ~ n^(-1/2): b ~ 1/n.",
)


def _tree_terms(K):  # t_n = n^(n-1) e^-n/n!, t_(n+1)/t_n = (1 + 1/n)^(n-1)/e
    t, out = mp.exp(-1), []
    for n in range(1, K + 1):
        out.append(t)
        t = t * (1 + mp.mpf(1) / n) ** (n - 1) / mp.e
    return out


add(
    "special/tree-function-at-1-over-e",
    ["--rpe", "n**(n - 1)*exp(-n)/factorial(n)", *eps_args(E2)],
    True,
    "sum n^(n-1) x^n/n! = T(x) = -W(-x) (tree function), T(1/e) = 1: B = 1; b ~ "
    "n^(-3/2)/sqrt(2 pi) (Stirling).",
    exact(1),
    cached(lambda: R.trf_from_terms(_tree_terms(9000), mp.mpf(1), E2)),
)


def _catalan_terms(K):  # C_n/4^n, ratio (2n + 1)/(2(n + 2))
    t, out = mp.mpf(1) / 4, []
    for n in range(1, K + 1):
        out.append(t)
        t = t * (2 * n + 1) / (2 * (n + 2))
    return out


add(
    "special/catalan-over-4n",
    ["--rpe", "factorial(2*n)/(factorial(n)*factorial(n + 1)*4**n)", *eps_args(E2)],
    True,
    "Catalan numbers: sum C_n x^n = (1 - sqrt(1 - 4x))/(2x) = 2 at x = 1/4, minus C_0: B = 1.",
    exact(1),
    cached(lambda: R.trf_from_terms(_catalan_terms(17000), mp.mpf(1), E2)),
)
add(
    "special/telescoping-factorial-ratio",
    ["--rpe", "factorial(n)/factorial(n + 3)", *eps_args(E3)],
    True,
    "1/((n+1)(n+2)(n+3)): sum_{m>=k} 1/(m(m+1)(m+2)) = 1/(2k(k+1)): B = 1/12, R_j = "
    "1/(2(j+2)(j+3)).",
    exact(Fraction(1, 12)),
    frac_tail(lambda j: Fraction(1, 2 * (j + 2) * (j + 3)), Fraction(1, 12), E3),
)


def _gr_tail(j):  # sum_{n > j} Gamma(n+2)/Gamma(n+7/2) = 2 Gamma(j+3)/Gamma(j+7/2) (telescoping
    # Gamma(n+a)/Gamma(n+b) = (Gamma(n+a)/Gamma(n+b-1) - Gamma(n+a+1)/Gamma(n+b))/(b-a-1))
    return 2 * mp.gamma(j + 3) / mp.gamma(j + mp.mpf(7) / 2)


add(
    "special/gamma-ratio-three-halves",
    ["--rpe", "gamma(n + 2)/gamma(n + 7/2)", *eps_args(E3)],
    True,
    "b ~ n^(-3/2); telescoping in Gamma ratios: B = 4/Gamma(7/2) = 32/(15 sqrt(pi)), "
    "R_j = 2 Gamma(j + 3)/Gamma(j + 7/2).",
    cached(lambda: (_gr_tail(0), TINY)),
    cached(lambda: R.trf_from_tail(_gr_tail, _gr_tail(0), E3, hi=10**9)),
)
add(
    "special/inverse-factorial-squared",
    ["--rpe", "1/factorial(n)**2", *eps_args(E3)],
    True,
    "sum_{n>=0} 1/n!^2 = I_0(2) (modified Bessel): B = I_0(2) - 1.",
    cached(lambda: (mp.besseli(0, 2) - 1, TINY)),
    cached(
        lambda: R.trf_from_terms(
            [1 / mp.factorial(n) ** 2 for n in range(1, 40)], mp.besseli(0, 2) - 1, E3
        )
    ),
)
add(
    "special/central-binomial-squared",
    ["--rpe", "binomial(2*n, n)**2/16**n"],
    False,
    "binomial(2n, n)/4^n ~ 1/sqrt(pi n): b ~ 1/(pi n).",
)
add(
    "special/binomial-3n-critical",
    ["--rpe", "binomial(3*n, n)*(4/27)**n"],
    False,
    "binomial(3n, n) ~ (27/4)^n sqrt(3/(4 pi n)) (Stirling): b ~ c/sqrt(n).",
)
add(
    "special/stirling-reciprocal",
    ["--rpe", "n**n*exp(-n)/factorial(n)"],
    False,
    "n! ~ sqrt(2 pi n) n^n e^-n: b ~ 1/sqrt(2 pi n).",
)
add(
    "special/beta-n-half",
    ["--rpe", "gamma(n)*gamma(1/2)/gamma(n + 1/2)"],
    False,
    "Beta(n, 1/2) ~ Gamma(1/2) n^(-1/2).",
)
add(
    "special/gamma-third-over-sqrt",
    ["--rpe", "gamma(n + 1/3)/(gamma(n + 1)*sqrt(n))"],
    True,
    "Gamma(n + 1/3)/Gamma(n + 1) ~ n^(-2/3): b ~ n^(-7/6).",
)
add(
    "special/zeta-minus-one",
    ["--rpe", "zeta(n) - 1", "--start", "2"],
    True,
    "sum_{n>=2} (zeta(n) - 1) = 1 (a refusal of the unknown name is honest).",
    exact(1),
    error_ok=True,
)
add(
    "special/erfc-sqrt",
    ["--rpe", "erfc(sqrt(n))"],
    True,
    "erfc(x) <= e^(-x^2): b <= e^-n (a refusal of the unknown name is honest).",
    error_ok=True,
)

# ---------------------------------------------------------------------------------------
# (d) Oscillating terms
# ---------------------------------------------------------------------------------------
add(
    "osc/cos-n-over-n-0.3",
    ["--rpe", "cos(n)/n**0.3"],
    True,
    "Dirichlet (partial sums of cos n bounded by 1/sin(1/2), n^-0.3 decreasing): B = "
    "Re Li_0.3(e^i) (polylog; mpmath's nsum agrees).",
    cached(
        lambda: R.two_ways(
            lambda: mp.re(mp.polylog(mp.mpf("0.3"), mp.expj(1))),
            lambda: mp.nsum(lambda n: mp.cos(n) / n ** mp.mpf("0.3"), [1, mp.inf]),
        )
    ),
    others=True,
)
_P3 = lambda x: mp.pi**2 * x / 6 - mp.pi * x**2 / 4 + x**3 / 12  # noqa: E731
add(
    "osc/sin-n-over-n-cubed",
    ["--rpe", "sin(n)/n**3", *eps_args(E3)],
    True,
    "sum sin(nx)/n^3 = pi^2 x/6 - pi x^2/4 + x^3/12 on [0, 2 pi] (Fourier): B = "
    "pi^2/6 - pi/4 + 1/12; |R_K| <= sum_{n>K} n^-3 <= 1/(2K^2).",
    cached(lambda: (_P3(mp.mpf(1)), TINY)),
    cached(
        lambda: R.signed_terms_trf(
            lambda n: mp.sin(n) / n**3,
            1,
            _P3(mp.mpf(1)),
            E3,
            3000,
            lambda K: 1 / (2 * mp.mpf(K) ** 2),
        )
    ),
    others=True,
)
_B_s3 = lambda: (3 * _P3(mp.mpf(1)) - _P3(mp.mpf(3))) / 4  # noqa: E731
add(
    "osc/sin-cubed-over-n-cubed",
    ["--rpe", "sin(n)**3/n**3", *eps_args(E3)],
    True,
    "sin^3 = (3 sin n - sin 3n)/4 and the Fourier polynomial at x = 1, 3 (< 2 pi): "
    "B = (3 P(1) - P(3))/4; |R_K| <= 1/(2K^2).",
    cached(lambda: (_B_s3(), TINY)),
    cached(
        lambda: R.signed_terms_trf(
            lambda n: mp.sin(n) ** 3 / n**3,
            1,
            _B_s3(),
            E3,
            3000,
            lambda K: 1 / (2 * mp.mpf(K) ** 2),
        )
    ),
    others=True,
)
add(
    "osc/sin-fifth-over-n",
    ["--rpe", "sin(n)**5/n"],
    True,
    "sin^5 = (10 sin n - 5 sin 3n + sin 5n)/16 and sum sin(nx)/n = (pi - x)/2 on (0, 2 pi): "
    "B = 3 pi/16.",
    cached(lambda: (3 * mp.pi / 16, TINY)),
    others=True,
)
add(
    "osc/sin-fourth-over-n",
    ["--rpe", "sin(n)**4/n"],
    False,
    "sin^4 = 3/8 - cos(2n)/2 + cos(4n)/8: the cosines converge (Dirichlet), 3/(8n) does not.",
    others=True,
)
add(
    "osc/cos-product-over-n",
    ["--rpe", "cos(n)*cos(2*n)/n"],
    True,
    "cos n cos 2n = (cos n + cos 3n)/2 and sum cos(nx)/n = -log(2 sin(x/2)) on (0, 2 pi): "
    "B = -(log(2 sin(1/2)) + log(2 sin(3/2)))/2.",
    cached(lambda: (-(mp.log(2 * mp.sin(0.5)) + mp.log(2 * mp.sin(1.5))) / 2, TINY)),
    others=True,
)
add(
    "osc/alternating-over-n-log",
    ["--rpe", "(-1)**n/(n*log(n + 1))"],
    True,
    "1/(n log(n + 1)) decreases to 0: Leibniz. B by mpmath nsum, two methods.",
    cached(
        lambda: R.two_ways(
            lambda: mp.nsum(
                lambda n: (-1) ** int(n) / (n * mp.log(n + 1)), [1, mp.inf], method="alternating"
            ),
            lambda: mp.nsum(
                lambda n: (-1) ** int(n) / (n * mp.log(n + 1)), [1, mp.inf], method="levin"
            ),
        )
    ),
    others=True,
)
_GS = lambda n: 1 / (mp.sqrt(n + 1) + mp.sqrt(n))  # noqa: E731 (sqrt(n + 1) - sqrt(n))
_B_asd = cached(
    lambda: R.two_ways(
        lambda: mp.nsum(
            lambda n: (-1) ** int(n) * (mp.sqrt(n + 1) - mp.sqrt(n)),
            [1, mp.inf],
            method="alternating",
        ),
        lambda: mp.nsum(lambda n: (-1) ** int(n) * _GS(n), [1, mp.inf], method="levin"),
    )
)
add(
    "osc/alternating-sqrt-difference",
    ["--rpe", "(-1)**n*(sqrt(n + 1) - sqrt(n))", *eps_args(E2)],
    True,
    "sqrt(n + 1) - sqrt(n) = 1/(sqrt(n + 1) + sqrt(n)) decreases to 0: Leibniz, |R_K| <= "
    "g(K + 1). B by mpmath nsum, two methods; TRF from 50000 partial sums.",
    _B_asd,
    cached(
        lambda: R.signed_terms_trf(
            lambda n: (-1) ** int(n) * _GS(n),
            1,
            _B_asd()[0],
            E2,
            50000,
            lambda K: _GS(mp.mpf(K + 1)),
        )
    ),
    others=True,
)
add(
    "osc/alternating-log-difference",
    ["--rpe", "(-1)**n*(log(n + 2) - log(n + 1))"],
    True,
    "log((n + 2)/(n + 1)) decreases to 0: Leibniz. Wallis: sum_{m>=1} (-1)^(m+1) log((m+1)/m) "
    "= log(pi/2), so B = -(log(pi/2) - log 2) = log(pi/4).",
    cached(lambda: (mp.log(mp.pi / 4), TINY)),
    others=True,
)
add(
    "osc/alternating-no-decay",
    ["--rpe", "(-1)**n*n**2/(n**2 + 3)"],
    False,
    "|b| -> 1: the terms do not tend to 0.",
    others=True,
)
_S6 = (1, 1, -1, -1, -1, 1)  # sign of (-1)^floor(n/3) at n = 1..6 (mod 6)
add(
    "osc/floor-third-blocks",
    ["--rpe", "(-1)**floor(n/3)/n"],
    True,
    "signs ++---+ of period 6, summing to 0: B = -(1/6) sum_r s_r psi(r/6) (digamma).",
    cached(
        lambda: (-mp.fsum(s * mp.digamma(mp.mpf(r) / 6) for r, s in enumerate(_S6, 1)) / 6, TINY)
    ),
    others=True,
)
fam(
    "free/sin-over-power-plus-one",
    ["--rpe", "sin(n)/(n**p + 1)", "--free", "p"],
    lambda d: d["p"] > 0,
    [{"p": v} for v in (-1, 0, 0.5, 2)],
    "p > 0: 1/(n^p + 1) decreases to 0 (Dirichlet); p = 0: sin(n)/2; p < 0: 1/(n^p + 1) -> 1: "
    "the terms do not tend to 0.",
)

# ---------------------------------------------------------------------------------------
# (e) Near-boundary: named RPEs at unusual parameters, bias files with extreme values
# ---------------------------------------------------------------------------------------
_K9 = lambda: mp.mpf("1e-9")  # noqa: E731
add(
    "named/alibi-slope-1e-9",
    ["--rpe", "alibi", "--param", "k=1e-9", *eps_args(E3)],
    True,
    "e^(-k t), t >= 0, k = 1e-9: B = 1/(1 - e^-k) ~ 1e9, TRF = floor(ln(1/eps)/k) + 1.",
    cached(lambda: (-1 / mp.expm1(-_K9()), TINY)),
    geo_trf(_K9, E3),
    start=0,
)
_SK = lambda: mp.mpf(10001) / 10000  # noqa: E731 (at the working precision)
_CK = lambda: mp.mpf(3) ** -_SK()  # noqa: E731
_B_kl3 = lambda: _CK() * mp.zeta(_SK(), mp.mpf(1) / 3)  # noqa: E731
add(
    "named/kerple-log-r1.0001-k3",
    ["--rpe", "kerple-log", "--param", "r=1.0001", "--param", "k=3", "--eps", "0.5", "0.1"],
    True,
    "(1 + 3t)^-1.0001 = 3^-1.0001 (t + 1/3)^-1.0001: B = 3^-1.0001 zeta(1.0001, 1/3), "
    "R_j = 3^-1.0001 zeta(1.0001, j + 1/3).",
    cached(lambda: (_B_kl3(), TINY)),
    cached(lambda: R.hurwitz_log10_trf(_SK(), _CK(), _B_kl3(), (0.5, 0.1))),
    start=0,
)
_KPT = lambda t: mp.exp(-3 * mp.sqrt(t))  # noqa: E731
_B_kp = cached(lambda: R.direct_sum(_KPT, 0, 3000, R.stretched_tail(3, mp.mpf(1) / 2)))
add(
    "named/kerple-power-r0.5-k3",
    ["--rpe", "kerple-power", "--param", "r=0.5", "--param", "k=3", *eps_args(E3)],
    True,
    "e^(-3 sqrt t), t >= 0: stretched exponential; tail beyond 3000 by the integral bound.",
    _B_kp,
    cached(lambda: R.trf_from_terms([_KPT(mp.mpf(t)) for t in range(0, 3000)], _B_kp()[0], E3)),
    start=0,
)
add(
    "named/kerple-log-r0.9999",
    ["--rpe", "kerple-log", "--param", "r=0.9999"],
    False,
    "(1 + t)^-0.9999 >= 1/(1 + t): harmonic minorant.",
)
add(
    "bias/int64-npy-linear",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "int64 [0, -1, -2], slope -1: B = 1/(1 - 1/e), R_j/B = e^-j.",
    cached(lambda: (1 / -mp.expm1(-1), TINY)),
    geo_trf(1, E3),
    files={"BIAS.npy": npy_bytes(np.array([0, -1, -2], dtype=np.int64))},
    start=0,
)
add(
    "bias/zero-tail-e5000",
    ["--bias-file", "BIAS.txt", "--bias-tail", "zero", *eps_args(E3)],
    True,
    "b = e^5000, e^-5000, then 0: B = e^5000 + e^-5000, R_1 = e^-5000 < eps B: TRF 1.",
    cached(lambda: (mp.exp(5000) + mp.exp(-5000), mp.exp(5000) * TINY)),
    lambda: {e: 1 for e in E3},
    files={"BIAS.txt": txt_bytes(["5000", "-5000"])},
    start=0,
)
add(
    "bias/steep-slope-1e300",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "[0, -1e300], slope -1e300: B = 1 + e^(-1e300)/(1 - e^(-1e300)) ~ 1; TRF 1.",
    cached(lambda: (1 + mp.exp(mp.mpf("-1e300")) / -mp.expm1(mp.mpf("-1e300")), TINY)),
    lambda: {e: 1 for e in E3},
    files={"BIAS.txt": txt_bytes(["0", "-1e300"])},
    start=0,
)
add(
    "bias/float16-npy",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "float16 [0, -0.5, -1] (exact), slope -1/2: B = 1/(1 - e^-1/2); a refusal is honest.",
    cached(lambda: (1 / -mp.expm1(-mp.mpf(1) / 2), TINY)),
    geo_trf(0.5, E3),
    files={"BIAS.npy": npy_bytes(np.array([0, -0.5, -1], dtype=np.float16))},
    start=0,
    error_ok=True,
)
add(
    "bias/refuse-two-d-npy",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear"],
    None,
    "a (3, 1) array is not 1-D: refused.",
    files={"BIAS.npy": npy_bytes(np.array([[0.0], [-1.0], [-2.0]]))},
)
add(
    "bias/positive-slope-linear",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear"],
    False,
    "slope +0.001 from the last two values: the terms grow.",
    files={"BIAS.txt": txt_bytes(["0", "0.001", "0.002"])},
)
add(
    "bias/constant-tail-below-float64",
    ["--bias-file", "BIAS.txt", "--bias-tail", "constant"],
    False,
    "b = e^-800 > 0 forever (it underflows float64 to 0, but it is not 0).",
    files={"BIAS.txt": txt_bytes(["-700", "-745", "-800"])},
)
add(
    "bias/linear-minus-1e5-scaled",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "[-1e5, -1e5 - 1] and slope -1: B = e^-100000/(1 - 1/e), scaled by e^-M, M = -1e5; "
    "R_j/B = e^-j.",
    cached(lambda: (1 / -mp.expm1(-1), TINY)),
    geo_trf(1, E3),
    files={"BIAS.txt": txt_bytes(["-100000", "-100001"])},
    scaled=True,
    start=0,
)

# ---------------------------------------------------------------------------------------
# (f) Free parameters (the condition derived by hand)
# ---------------------------------------------------------------------------------------
fam(
    "free/power-over-one-plus-square",
    ["--rpe", "n**a/(1 + n**2)", "--free", "a"],
    lambda d: d["a"] < 1,
    [{"a": v} for v in (-3, 0, 0.5, 1, 1.5)],
    "b ~ n^(a-2): converges iff a < 1.",
)
fam(
    "free/cube-times-stretched",
    ["--rpe", "n**3*exp(-a*sqrt(n))", "--free", "a"],
    lambda d: d["a"] > 0,
    [{"a": v} for v in (-1, 0, 0.01, 2)],
    "a > 0: e^(-a sqrt n) beats n^5; a <= 0: b >= n^3.",
)
fam(
    "free/ratio-power-never",
    ["--rpe", "(n/(n + 1))**(a*n)", "--free", "a"],
    lambda d: False,
    [{"a": v} for v in (-1, 0, 1, 5)],
    "(1 - 1/(n + 1))^(a n) -> e^-a > 0: the terms never tend to 0, for every a.",
)
fam(
    "free/double-power-denominator",
    ["--rpe", "1/(n**a + n**(2*a))", "--free", "a"],
    lambda d: d["a"] > 0.5,
    [{"a": v} for v in (-1, 0, 0.25, 0.5, 0.75, 2)],
    "a > 0: b ~ n^(-2a), converges iff a > 1/2; a = 0: b = 1/2; a < 0: b -> oo.",
)
fam(
    "free/power-times-sin-inverse",
    ["--rpe", "n**a*sin(1/n)", "--free", "a"],
    lambda d: d["a"] < 0,
    [{"a": v} for v in (-1, -0.5, 0, 0.5)],
    "sin(1/n) ~ 1/n: b ~ n^(a-1), converges iff a < 0.",
)

#: series for the Ctrl-C trials (each runs long enough to be interrupted)
SIGINT_SERIES = [
    ["--rpe", "1/(n*log(n)**1.001)", "--start", "2", "--eps", "0.5"],
    ["--rpe", "exp(-log(n)*log(log(log(n))))", "--start", "16"],
]

#: no extra cases: the whole set runs by default
EXTRA_CASES: list[Case] = []
assert len({c.id for c in CASES}) == len(CASES)
