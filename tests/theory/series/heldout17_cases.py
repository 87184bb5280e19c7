"""Held-out set 17: commands typed into ``python -m theory.trf``, with the verdict derived by
hand (the argument in each ``note``) and, where the series converges, a reference B and
TRF(eps) computed independently with mpmath at 50 digits or with exact Fractions
(``heldout17_reference``), each checked a second way (closed tails against the partial sums
and the telescoping identity R(j) - R(j + 1) = b_(s + j), closed values against direct sums
plus Euler-Maclaurin, polylogarithms against direct sums, Hurwitz zeta against
Euler-Maclaurin, a hypergeometric tail against pi/2 minus the partial sums).

Families not emphasised in sets 5-16, and not among the formulas of the project's own tests,
docs and benchmarks (each formula grepped there first, spaces ignored):

1. free-parameter families whose region is derived by hand, checked on grids that include
   the boundary and degenerate values (a = 0, x = +-1/4, c = 0, p = 0): n^b a^n with a of
   either sign, Bertrand with three levels, central binomials times x^n, exp(-c n^p),
   n^a/(1 + n^b), n! x^n/n^n, 1/binomial(n + k, n), x^(n^2), n^p e^(-c sqrt n), alternating
   n^p log^q n, n!^2 x^n/(2n)!, (n^2 + c)^-p, (1 - n^-p)^n, cos^2(n) n^p; and the boundary
   points themselves (n! e^n/n^n, (1 + 1/n)^(-n^2) e^n);
2. named RPEs at new parameter values (RPE paper App. B Eq. 30, 32, 34, 37; T5's bucket
   function): ALiBi with slope log 5 (exact ties), Kerple-log (1 + k n)^-r at k = 10, 1/2,
   1000, 10^6 (TRF ~ 10^24 and 10^94), Kerple-power e^(-k n^r) at r = 2, 1, 1/2, 3, Sandwich
   and T5 (diverge; T5 with --truncate), a T5 refusal;
3. Max / Min / Abs / floor / ceiling: exact values by residue classes of Hurwitz zeta
   (floor(n/3)/n^3, ceiling(n/2)/n^3, floor(n/2) ceiling(n/2)/n^4), Abel summation over
   floor(log n) blocks, piecewise Min/Max/Abs with closed tails, a parity indicator with exact
   ties, and trigonometric moduli (|cos n|/n^1.5 converges, |sin n|^3/n and min(|cos n|, 1/n)
   diverge);
4. sums with closed forms: telescoping rationals at several starts (1/(n(n + 5)), 1/(n(n +
   2)(n + 4)), n/(n^4 + n^2 + 1), 1/n^3 - 1/(n + 1)^3 with exact ties), n^3/2^n = 26, 1/(n!(n +
   2)) and the Catalan numbers over 4^n (exact ties), Li_3(-1/2), log(3/2), 2e - 1, Dirichlet
   beta(3) and eta(3), Leibniz's pi/4, Wallis's log(2/pi) (negative terms), arcsin(1);
   --truncate and --compare (two series of the same order, Thm 3.5);
5. cases where 'undecided' (or a refusal) is acceptable: an open problem (irrationality
   measure of pi), |sin n|^n and cos(n)^(2n) (diverge by Minkowski / Dirichlet, hard to
   certify), --start 10^30; and refusals (a pole at n = 4, an unused parameter).

The fields of a :class:`Case17` are those of set 16 (``heldout16_cases``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import mpmath as mp

try:
    from . import heldout17_reference as R
    from .heldout7_cases import Case, cached, eps_args
except ImportError:  # run as a script from this folder
    import heldout17_reference as R
    from heldout7_cases import Case, cached, eps_args

F = Fraction
E3 = (0.1, 0.01, 0.001)
TINY = mp.mpf(10) ** -40


@dataclass
class Case17(Case):
    truncated: Callable | None = None
    compare: tuple | None = None


CASES: list[Case17] = []


def add(*a, **k):
    CASES.append(Case17(*a, **k))


def fam(id_, args, pred, grid, note, others=False):
    add(id_, args, None, note, cond=(pred, grid), others=others)


def refuse(id_, args, note, files=None):
    add(id_, args, None, note, files=files or {})


def expect(fn, want):
    """A reference that must equal the value derived by hand in the note (a second way)."""

    def get():
        got = fn()
        assert got == want, (got, want)
        return got

    return get


def exact(x):
    x = F(x)
    return lambda: (R.mpq(x), mp.mpf(10) ** -45)


def closed(fn):
    return cached(lambda: (fn(), abs(fn()) * TINY))


def grid(**axes):
    """Every combination of the values on each axis (a list of points)."""
    pts = [{}]
    for name, vals in axes.items():
        pts = [{**p, name: v} for p in pts for v in vals]
    return pts


def em_B(f, N, integral, start=1):
    """sum_(n >= start) f(n): the terms below N plus Euler-Maclaurin from N (f smooth and
    completely monotone beyond N, ``integral`` = int_N^oo f)."""
    head = mp.fsum(f(mp.mpf(n)) for n in range(start, N))
    val, err = R.em_tail(f, mp.mpf(N), integral)
    assert err < mp.mpf(10) ** -30, err
    return head + val


# ---------------------------------------------------------------------------------------
# 1. Free-parameter families, regions derived by hand
# ---------------------------------------------------------------------------------------
fam(
    "free/n-pow-b-times-a-pow-n-signed-a",
    ["--rpe", "n**b*a**n", "--free", "a", "--free", "b"],
    lambda d: abs(d["a"]) < 1 or (d["a"] == 1 and d["b"] < -1) or (d["a"] == -1 and d["b"] < 0),
    grid(a=(-2, -1, -0.5, 0, 0.5, 1, 2), b=(-2, -1, -0.5, 0, 1)),
    "a real (not assumed positive). |a| < 1: root test (|b_n|^(1/n) -> |a|), converges "
    "absolutely; a = 0: every term 0^n = 0 (n >= 1), converges. |a| > 1: |b_n| -> oo. a = 1: "
    "the p-series, iff b < -1. a = -1: (-1)^n n^b, iff b < 0 (Leibniz: n^b decreases to 0; b "
    ">= 0: the terms do not tend to 0). Converges iff |a| < 1 or (a = 1, b < -1) or (a = -1, b "
    "< 0).",
)
fam(
    "free/bertrand-three-levels-start-3",
    [
        "--rpe",
        "n**p*log(n)**q*log(log(n))**r",
        "--start",
        "3",
        "--free",
        "p",
        "--free",
        "q",
        "--free",
        "r",
    ],
    lambda d: d["p"] < -1 or (d["p"] == -1 and (d["q"] < -1 or (d["q"] == -1 and d["r"] < -1))),
    grid(p=(-2, -1, 0), q=(-2, -1, 0), r=(-2, -1, 0)),
    "log log 3 = 0.094 > 0: every factor positive from n = 3. Cauchy condensation, level by "
    "level (Bertrand): converges iff p < -1, or p = -1 and q < -1, or p = q = -1 and r < -1 "
    "(at p = q = -1 the integral of x^-1 log^-1 x (log log x)^r is (log log log x) for r = -1, "
    "(log log x)^(r+1)/(r + 1) otherwise).",
)
fam(
    "free/central-binomial-x-pow-n-over-n-closed-interval",
    ["--rpe", "x**n*binomial(2*n, n)/n", "--free", "x"],
    lambda d: abs(d["x"]) <= 0.25,
    grid(x=(-1, -0.25, -0.1, 0, 0.1, 0.25, 0.3)),
    "binomial(2n, n) = 4^n c_n with c_n ~ 1/sqrt(pi n): |b_n| ~ (4|x|)^n/(sqrt(pi) n^1.5). "
    "|x| < 1/4: geometric; |x| = 1/4 (both signs): |b_n| ~ n^-1.5/sqrt(pi), absolutely "
    "convergent; |x| > 1/4: |b_n| -> oo. x = 0: all terms 0. Converges iff |x| <= 1/4, both "
    "ends included.",
)
fam(
    "free/exp-minus-c-n-pow-p",
    ["--rpe", "exp(-c*n**p)", "--free", "c", "--free", "p"],
    lambda d: d["c"] > 0 and d["p"] > 0,
    grid(c=(-1, 0, 0.5, 2), p=(-1, 0, 0.5, 1, 2)),
    "c > 0, p > 0: e^(-c n^p) <= n^-2 eventually (c n^p >= 2 log n). c = 0 or p = 0: constant "
    "terms 1 or e^-c, diverges. p < 0: c n^p -> 0, terms -> 1. c < 0, p > 0: terms -> oo. "
    "Converges iff c > 0 and p > 0.",
)
fam(
    "free/n-pow-a-over-one-plus-n-pow-b",
    ["--rpe", "n**a/(1 + n**b)", "--free", "a", "--free", "b"],
    lambda d: max(d["b"], 0) - d["a"] > 1,
    grid(a=(-3, -2, -1, 0, 1), b=(-1, 0, 1, 2, 3)),
    "1 + n^b is between max(1, n^b) and 2 max(1, n^b): b_n is within a factor 2 of "
    "n^(a - max(b, 0)). Converges iff max(b, 0) - a > 1 (b = 0: n^a/2; b < 0: ~ n^a).",
)
fam(
    "free/factorial-x-pow-n-over-n-pow-n",
    ["--rpe", "factorial(n)*x**n/n**n", "--free", "x"],
    lambda d: abs(d["x"]) < math.e,
    grid(x=(-3, -2.7, -1, 0, 1, 2.7, 3, 10)),
    "Stirling: n!/n^n = sqrt(2 pi n) e^-n (1 + O(1/n)), so |b_n| ~ sqrt(2 pi n) (|x|/e)^n: "
    "converges iff |x| < e (at |x| = e the terms grow like sqrt n; the grid avoids the "
    "irrational end: 2.7 < e < 3).",
)
fam(
    "free/inverse-binomial-n-plus-k",
    ["--rpe", "1/binomial(n + k, n)", "--free", "k", "--assume", "k>0"],
    lambda d: d["k"] > 1,
    grid(k=(0.5, 1, 1.5, 2, 3)),
    "binomial(n + k, n) = Gamma(n + k + 1)/(Gamma(n + 1) Gamma(k + 1)) ~ n^k/Gamma(k + 1) "
    "(Wendel), positive for k > 0: b_n ~ Gamma(k + 1) n^-k, converges iff k > 1 (k = 1: 1/(n + "
    "1), harmonic; k = 2: 2/((n + 1)(n + 2))).",
)
fam(
    "free/x-pow-n-squared-signed",
    ["--rpe", "x**(n**2)", "--free", "x"],
    lambda d: abs(d["x"]) < 1,
    grid(x=(-2, -1, -0.5, 0, 0.5, 0.99, 1, 1.01, 2)),
    "x^(n^2) with n^2 an integer is real for every real x; |b_n| = |x|^(n^2): |x| < 1 "
    "converges (<= |x|^n); x = 0 all terms 0; x = 1: terms 1; x = -1: (-1)^(n^2) = (-1)^n, "
    "no limit; |x| > 1: |b_n| -> oo. Converges iff |x| < 1.",
)
fam(
    "free/n-pow-p-exp-minus-c-sqrt-n",
    ["--rpe", "n**p*exp(-c*sqrt(n))", "--free", "p", "--free", "c"],
    lambda d: d["c"] > 0 or (d["c"] == 0 and d["p"] < -1),
    grid(c=(-1, 0, 0.5), p=(-2, -1, 0, 3)),
    "c > 0: e^(-c sqrt n) beats every power of n, converges for every p. c = 0: n^p, iff p < "
    "-1. c < 0: terms -> oo. Converges iff c > 0 or (c = 0 and p < -1).",
)
fam(
    "free/alternating-n-pow-p-log-pow-q-start-2",
    [
        "--rpe",
        "(-1)**n*n**p*log(n)**q",
        "--start",
        "2",
        "--free",
        "p",
        "--free",
        "q",
    ],
    lambda d: d["p"] < 0 or (d["p"] == 0 and d["q"] < 0),
    grid(p=(-2, -0.5, 0, 0.5), q=(-1, 0, 1)),
    "g(n) = n^p log(n)^q > 0 from n = 2. p < 0: g -> 0 and g' = g (p + q/log n)/n < 0 "
    "eventually: Leibniz, converges (conditionally for -1 <= p < 0). p = 0: log(n)^q decreases "
    "to 0 iff q < 0; q >= 0: the terms do not tend to 0. p > 0: |terms| -> oo. Converges iff p "
    "< 0 or (p = 0 and q < 0).",
)
fam(
    "free/inverse-central-binomial-x-pow-n",
    ["--rpe", "factorial(n)**2*x**n/factorial(2*n)", "--free", "x"],
    lambda d: abs(d["x"]) < 4,
    grid(x=(-5, -4, -3.9, 0, 3.9, 4, 5)),
    "n!^2/(2n)! = 1/binomial(2n, n) ~ sqrt(pi n)/4^n: |b_n| ~ sqrt(pi n) (|x|/4)^n. |x| < 4 "
    "converges; |x| = 4: |b_n| ~ sqrt(pi n) -> oo (both signs); |x| > 4 diverges. Converges iff "
    "|x| < 4.",
)
fam(
    "free/n-squared-plus-c-pow-minus-p",
    ["--rpe", "(n**2 + c)**(-p)", "--free", "c", "--free", "p", "--assume", "c>0"],
    lambda d: d["p"] > 0.5,
    grid(c=(0.5, 3), p=(0, 0.25, 0.5, 0.75, 1)),
    "c > 0: n^2 + c is between n^2 and (1 + c) n^2, b_n within constant factors of n^(-2p): "
    "converges iff 2p > 1 (p = 1/2: ~ 1/n; p = 0: terms 1).",
)
fam(
    "free/one-minus-n-pow-minus-p-pow-n",
    ["--rpe", "(1 - 1/n**p)**n", "--free", "p", "--assume", "p>0"],
    lambda d: d["p"] < 1,
    grid(p=(0.25, 0.5, 0.9, 1, 1.5, 3)),
    "p > 0: 0 <= 1 - n^-p < 1 (b_1 = 0). p < 1: (1 - n^-p)^n <= e^(-n^(1-p)), summable. p = 1: "
    "(1 - 1/n)^n -> 1/e. p > 1: n log(1 - n^-p) -> 0, terms -> 1. Converges iff p < 1.",
)
fam(
    "free/cos-squared-n-times-n-pow-p",
    ["--rpe", "cos(n)**2*n**p", "--free", "p"],
    lambda d: d["p"] < -1,
    grid(p=(-3, -1.5, -1, -0.5, 0, 1)),
    "0 <= cos^2 n <= 1 and cos^2 n = (1 + cos 2n)/2: p < -1 converges (<= n^p); p >= -1: the "
    "part n^p/2 diverges while sum cos(2n) n^p/2 converges for p < 0 (Dirichlet: the partial "
    "sums of cos 2n are bounded) and the terms do not tend to 0 for p >= 0 (cos^2 n >= 1/4 "
    "infinitely often). Converges iff p < -1.",
)
add(
    "boundary/factorial-e-pow-n-over-n-pow-n",
    ["--rpe", "factorial(n)*exp(n)/n**n"],
    False,
    "the end x = e of the family n! x^n/n^n: n! >= sqrt(2 pi n) (n/e)^n (Robbins), so b_n >= "
    "sqrt(2 pi n) -> oo: diverges.",
)
add(
    "boundary/one-plus-inv-n-pow-minus-n-squared-times-e-pow-n",
    ["--rpe", "(1 + 1/n)**(-n**2)*exp(n)"],
    False,
    "log b_n = n - n^2 log(1 + 1/n) = 1/2 - 1/(3n) + 1/(4n^2) - ... > 1/2 - 1/(3n) (alternating "
    "series of log(1 + x), x = 1/n): b_n > e^(1/6), terms -> e^(1/2): diverges (the root test "
    "gives 1 exactly: x = e is the end of (1 + 1/n)^(-n^2) x^n).",
)

# ---------------------------------------------------------------------------------------
# 2. Named RPEs at new parameter values
# ---------------------------------------------------------------------------------------
_A5 = (0.2, 0.04, 0.008, 1e-6)
add(
    "named/alibi-slope-log-5-ties",
    ["--rpe", "alibi", "--param", "k=log(5)", *eps_args(_A5)],
    True,
    "ALiBi (RPE paper App. B Eq. 30) b_n = e^(-k n) from n = 0 with k = log 5: b_n = 5^-n, B = "
    "5/4, R_j/B = 5^-j exactly. eps = 1/5, 1/25, 1/125 tie at j = 1, 2, 3 (S_j = B (1 - eps), "
    "not >): TRF = 2, 3, 4; 1e-6: 5^8 < 10^6 < 5^9: 9 (exact Fractions).",
    exact(F(5, 4)),
    expect(
        lambda: R.frac_checked(
            lambda n: F(1, 5**n), lambda j: F(5, 4 * 5**j), 0, F(5, 4), _A5, 10**3, far=1000
        ),
        {0.2: 2, 0.04: 3, 0.008: 4, 1e-6: 9},
    ),
    start=0,
)
_KL10 = cached(lambda: R.hurwitz_B(5, F(1, 10), mp.mpf(10) ** -5))
_E_KL10 = (0.5, 1e-6, 1e-9, 1e-12)
add(
    "named/kerple-log-k-10-r-5",
    ["--rpe", "kerple-log", "--param", "k=10", "--param", "r=5", *eps_args(_E_KL10)],
    True,
    "Kerple log (Eq. 32) b_n = (1 + 10 n)^-5 from n = 0 = 10^-5 (n + 1/10)^-5: B = 10^-5 "
    "zeta(5, 1/10) = 1.0000065...; R_j = 10^-5 zeta(5, j + 1/10) ~ 2.5e-6 j^-4: TRF(0.5) = 1, "
    "TRF(1e-12) ~ 40 (bisection on the Hurwitz tail, checked on the partial sums).",
    _KL10,
    cached(lambda: R.hurwitz_trf(5, F(1, 10), mp.mpf(10) ** -5, _KL10()[0], _E_KL10)),
    start=0,
)
_KLH = cached(lambda: R.hurwitz_B(2, 2, mp.mpf(4)))
add(
    "named/kerple-log-k-half-r-2",
    ["--rpe", "kerple-log", "--param", "k=0.5", "--param", "r=2", *eps_args(E3)],
    True,
    "b_n = (1 + n/2)^-2 = 4 (n + 2)^-2 from n = 0: B = 4 (zeta(2) - 1) = 2.5797...; R_j = 4 "
    "zeta(2, j + 2) ~ 4/j: TRF ~ 1.55/eps (bisection on the Hurwitz tail).",
    _KLH,
    cached(lambda: R.hurwitz_trf(2, 2, mp.mpf(4), _KLH()[0], E3)),
    start=0,
)
_KL1000 = cached(lambda: R.hurwitz_B("1.5", F(1, 1000), mp.mpf(1000) ** R.mpq("-1.5")))
_E_KLK = (0.5, 1e-5, 1e-7)
add(
    "named/kerple-log-k-1000-r-1.5",
    ["--rpe", "kerple-log", "--param", "k=1000", "--param", "r=1.5", *eps_args(_E_KLK)],
    True,
    "b_n = (1 + 1000 n)^-1.5 = 1000^-1.5 (n + 1/1000)^-1.5: b_0 = 1 and the rest 3.16e-5 "
    "zeta(1.5, 1.001): B = 1000^-1.5 zeta(1.5, 0.001) = 1.0000826...; R_j ~ 6.3e-5/sqrt(j): "
    "TRF(0.5) = 1, TRF(1e-5) ~ 40, TRF(1e-7) ~ 4e5 (Hurwitz tail, Euler-Maclaurin at the "
    "large crossing).",
    _KL1000,
    cached(
        lambda: R.hurwitz_trf(
            "1.5", F(1, 1000), mp.mpf(1000) ** R.mpq("-1.5"), _KL1000()[0], _E_KLK
        )
    ),
    start=0,
)
_C101 = lambda: mp.mpf(10) ** (-6 * R.mpq("1.01"))  # noqa: E731
_KL6 = cached(lambda: R.hurwitz_B("1.01", F(1, 10**6), _C101()))


def _kl6_trf():
    B = _KL6()[0]
    s, a, c = R.mpq("1.01"), R.mpq(F(1, 10**6)), _C101()
    out = R.int_trf_checked(lambda j: c * mp.zeta(s, a + j), B, (0.5,), 10**6)

    def tail(t):  # real t >= 10^12: Euler-Maclaurin (mpmath's zeta loses digits at 1e90)
        return c * R.hurwitz_em(s, a + t)

    for x in (mp.mpf(10) ** 12, mp.mpf(10) ** 15):
        assert abs(mp.zeta(s, a + x) - R.hurwitz_em(s, a + x)) < TINY * mp.zeta(s, a + x)
    for e in (5e-5, 1e-5):
        out[e] = R.log10_crossing(tail, B * R.eps_mp(e), 10**13, mp.mpf(10) ** 200)
    return out


add(
    "named/kerple-log-r-1.01-k-1e6-far-tail",
    [
        "--rpe",
        "kerple-log",
        "--param",
        "r=1.01",
        "--param",
        "k=1000000",
        *eps_args((0.5, 5e-5, 1e-5)),
    ],
    True,
    "b_n = (1 + 10^6 n)^-1.01 = c (n + 10^-6)^-1.01, c = 10^-6.06: r > 1, converges; B = 1 + c "
    "zeta(1.01, 1 + 10^-6) = 1.0000876...; R_j = c zeta(1.01, j + 10^-6) ~ 100 c j^-0.01: "
    "TRF(0.5) = 1; TRF(5e-5) ~ 10^24.1 and TRF(1e-5) ~ 10^94.0 (log10 by bisection on the "
    "Euler-Maclaurin tail; a certified bracket or lower bound is honest).",
    _KL6,
    cached(_kl6_trf),
    start=0,
)
_KP2 = cached(
    lambda: R.two_ways(
        lambda: (1 + mp.jtheta(3, 0, mp.exp(-1))) / 2,
        lambda: mp.fsum(mp.exp(-(mp.mpf(n) ** 2)) for n in range(40)),
    )
)
_E_KP2 = (0.1, 1e-6, 1e-15)
add(
    "named/kerple-power-r-2-k-1-gaussian",
    ["--rpe", "kerple-power", "--param", "r=2", "--param", "k=1", *eps_args(_E_KP2)],
    True,
    "Kerple power (Eq. 34) b_n = e^(-n^2) from n = 0: B = (1 + theta_3(0, 1/e))/2 = 1.3863...; "
    "checked by the terms to 40 (the rest < e^-1600). TRF from the partial sums: 2, 4, 6.",
    _KP2,
    cached(
        lambda: R.trf_positive_checked(
            [mp.exp(-(mp.mpf(n) ** 2)) for n in range(30)], _KP2()[0], _KP2()[1], _E_KP2
        )
    ),
    start=0,
)
_K01 = lambda: R.mpq("0.01")  # noqa: E731
add(
    "named/kerple-power-r-1-k-0.01-geometric",
    ["--rpe", "kerple-power", "--param", "r=1", "--param", "k=0.01", *eps_args(E3)],
    True,
    "r = 1: b_n = e^(-n/100) from n = 0 (a slow ALiBi): B = 1/(1 - e^-0.01) = 100.499...; R_j/B "
    "= e^(-j/100): TRF = floor(100 ln(1/eps)) + 1 = 231, 461, 691 (no tie: 100 ln 10^m is no "
    "integer).",
    cached(
        lambda: R.two_ways(
            lambda: 1 / -mp.expm1(-_K01()),
            lambda: mp.fsum(mp.exp(-_K01() * n) for n in range(13000)),
        )
    ),
    expect(lambda: R.geo_trf_checked(_K01(), E3), {0.1: 231, 0.01: 461, 0.001: 691}),
    start=0,
)
_KPS = cached(
    lambda: R.two_ways(lambda: R.stretched_B("0.1", 20000), lambda: R.stretched_B("0.1", 30000))
)
_E_KPS = (0.1, 1e-3, 1e-6)
add(
    "named/kerple-power-r-0.5-k-0.1-stretched",
    ["--rpe", "kerple-power", "--param", "r=0.5", "--param", "k=0.1", *eps_args(_E_KPS)],
    True,
    "b_n = e^(-sqrt(n)/10) from n = 0: B ~ int e^(-k sqrt x) dx = 2/k^2 = 200 (+1/2 ...): "
    "200.5203...; the terms to N plus Euler-Maclaurin with int_N^oo e^(-k sqrt x) dx = 2 "
    "e^(-k sqrt N)(sqrt N/k + 1/k^2), at N = 2e4 and 3e4. R ~ 2 e^(-k sqrt j)(sqrt j/k + "
    "1/k^2): TRF ~ 1.5e3, 8e3, 2.8e4 from the partial sums of 4e4 terms.",
    _KPS,
    cached(lambda: R.trf_positive_checked(R.stretched_terms("0.1", 40000), *_KPS(), _E_KPS)),
    start=0,
)
_KP3 = cached(
    lambda: R.two_ways(
        lambda: R.cubic_exp_direct(R.mpq("0.001")), lambda: R.cubic_exp_em(R.mpq("0.001"))
    )
)
_E_KP3 = (0.5, 0.1, 1e-6)
add(
    "named/kerple-power-r-3-k-0.001",
    ["--rpe", "kerple-power", "--param", "r=3", "--param", "k=0.001", *eps_args(_E_KP3)],
    True,
    "b_n = e^(-n^3/1000) from n = 0 (r = 3, outside the paper's 0 < r <= 2 but a valid "
    "series): B = Gamma(4/3) 10 + 1/2 + ... = 9.4298...; the terms to 200, and Euler-Maclaurin "
    "at 0 (f^(3m)(0) = (-k)^m (3m)!/m!) agreeing to 1e-40. TRF from the partial sums.",
    _KP3,
    cached(
        lambda: R.trf_positive_checked(
            [mp.exp(-R.mpq("0.001") * mp.mpf(n) ** 3) for n in range(120)], *_KP3(), _E_KP3
        )
    ),
    start=0,
)
add(
    "named/sandwich-d-2-r-1-k-1",
    ["--rpe", "sandwich", "--param", "d=2", "--param", "r=1", "--param", "k=1"],
    False,
    "Sandwich (Eq. 37) with d = 2, r = 1: b_n = e^(cos(n) - 1) >= e^-2 for every n: the terms "
    "do not tend to 0.",
    start=0,
)
add(
    "named/sandwich-d-16-r-3-k-0.001",
    ["--rpe", "sandwich", "--param", "d=16", "--param", "r=3", "--param", "k=0.001"],
    False,
    "b_n = exp(0.001 sum_(j=1..8) (cos(n/3^(j/8)) - 1)) >= e^(-0.016): diverges.",
    start=0,
)
_T5V = ["0", "-0.5", "-1", "-1.5", "-2", "-2.5"]
_E_T5 = (0.5, 0.1, 0.01)
add(
    "named/t5-six-buckets-truncate-40",
    [
        "--rpe",
        "t5",
        "--param",
        "num_buckets=6",
        "--param",
        "max_distance=20",
        "--bucket-values=" + ",".join(_T5V),
        "--truncate",
        "40",
        *eps_args(_E_T5),
    ],
    False,
    "T5 (causal, 6 buckets, max_distance 20): buckets 0-2 exact, then 3 + floor(3 log(t/3)/"
    "log(20/3)): t = 3..5 -> 3, 6..10 -> 4, 11 on -> 5 (value -2.5) forever: b = e^-2.5 > 0, "
    "diverges. Truncated TRF (App. E, M = 40, B_40 = the sum of the 40 terms): from the bucket "
    "formula, buckets computed two ways.",
    truncated=cached(lambda: R.truncated_trf(R.t5_terms(_T5V, 40, 6, 20), _E_T5)),
    start=0,
)
refuse(
    "refuse/t5-bidirectional-odd-buckets",
    ["--rpe", "t5", "--param", "num_buckets=9", "--param", "bidirectional=1"],
    "bidirectional T5 splits the buckets in two halves: an odd num_buckets has none.",
)

# ---------------------------------------------------------------------------------------
# 3. Max / Min / Abs / floor / ceiling
# ---------------------------------------------------------------------------------------
_Z2 = cached(lambda: R.hurwitz_B(2, 1, mp.mpf(1)))
_E6 = (0.1, 1e-3, 1e-6)
add(
    "maxmin/max-inv-n2-inv-n3",
    ["--rpe", "Max(1/n**2, 1/n**3)", *eps_args(_E6)],
    True,
    "n^3 >= n^2 for n >= 1, so Max(1/n^2, 1/n^3) = 1/n^2 (equal at n = 1): B = zeta(2), R_j = "
    "zeta(2, j + 1) ~ 1/j: TRF ~ 0.61/eps (6, 608, 607927).",
    _Z2,
    cached(lambda: R.hurwitz_trf(2, 1, mp.mpf(1), _Z2()[0], _E6)),
)
_MN = closed(lambda: 2 * mp.zeta(2) - 1)
add(
    "maxmin/min-inv-n-two-over-n2",
    ["--rpe", "Min(1/n, 2/n**2)", *eps_args(E3)],
    True,
    "2/n^2 <= 1/n iff n >= 2: b_1 = 1, b_n = 2/n^2 after (b_2 = 1/2 both ways): B = 1 + 2 "
    "(zeta(2) - 1) = 2 zeta(2) - 1 = 2.2898...; R_j = 2 zeta(2, j + 1) for j >= 1 (bisection, "
    "partial sums).",
    _MN,
    cached(
        lambda: R.closed_trf(
            lambda j: _MN()[0] if j == 0 else 2 * mp.zeta(2, j + 1),
            _MN()[0],
            E3,
            10**7,
            lambda n: min(1 / mp.mpf(n), 2 / mp.mpf(n) ** 2),
        )
    ),
)
_P3 = {0: [(F(1, 3), 2)], 1: [(F(1, 3), 2), (F(-1, 3), 3)], 2: [(F(1, 3), 2), (F(-2, 3), 3)]}
_P3R = R.periodic_tail(_P3, 3)
_P3B = cached(
    lambda: R.two_ways(
        lambda: _P3R(1),
        lambda: mp.zeta(2) / 3 - (mp.zeta(3, mp.mpf(1) / 3) + 2 * mp.zeta(3, mp.mpf(2) / 3)) / 81,
    )
)
add(
    "floor/floor-n-over-3-over-n-cubed",
    ["--rpe", "floor(n/3)/n**3", *eps_args(E3)],
    True,
    "floor(n/3) = (n - r)/3, r = n mod 3 (b_1 = b_2 = 0): B = zeta(2)/3 - (1/3) sum r/n^3 = "
    "zeta(2)/3 - (zeta(3, 1/3) + 2 zeta(3, 2/3))/81 = 0.1168...; each tail by residue classes: "
    "sum over n >= m, n = r mod 3 of n^-s = 3^-s zeta(s, n0/3). TRF by bisection, partial sums.",
    _P3B,
    cached(
        lambda: R.closed_trf(
            lambda j: _P3R(j + 1),
            _P3B()[0],
            E3,
            10**7,
            lambda n: mp.mpf(n // 3) / mp.mpf(n) ** 3,
        )
    ),
)
_C2 = {0: [(F(1, 2), 2)], 1: [(F(1, 2), 2), (F(1, 2), 3)]}
_C2R = R.periodic_tail(_C2, 2)
_C2B = cached(lambda: R.two_ways(lambda: _C2R(1), lambda: mp.zeta(2) / 2 + 7 * mp.zeta(3) / 16))
add(
    "floor/ceiling-n-over-2-over-n-cubed",
    ["--rpe", "ceiling(n/2)/n**3", *eps_args(E3)],
    True,
    "ceiling(n/2) = (n + (n mod 2))/2: B = zeta(2)/2 + (1/2) sum_(n odd) n^-3 = zeta(2)/2 + "
    "7 zeta(3)/16 = 1.3483...; tails by residue classes (Hurwitz), TRF by bisection.",
    _C2B,
    cached(
        lambda: R.closed_trf(
            lambda j: _C2R(j + 1),
            _C2B()[0],
            E3,
            10**7,
            lambda n: mp.mpf((n + 1) // 2) / mp.mpf(n) ** 3,
        )
    ),
)
_FC = {0: [(F(1, 4), 2)], 1: [(F(1, 4), 2), (F(-1, 4), 4)]}
_FCR = R.periodic_tail(_FC, 2)
_FCB = cached(lambda: R.two_ways(lambda: _FCR(1), lambda: mp.pi**2 / 24 - mp.pi**4 / 384))
add(
    "floor/floor-times-ceiling-half-over-n4",
    ["--rpe", "floor(n/2)*ceiling(n/2)/n**4", *eps_args(E3)],
    True,
    "floor(n/2) ceiling(n/2) = floor(n^2/4) = n^2/4 (n even), (n^2 - 1)/4 (n odd): B = zeta(2)/4 "
    "- (1/4)(15/16) zeta(4) = pi^2/24 - pi^4/384 = 0.1576...; b_1 = 0. Tails by residue "
    "classes.",
    _FCB,
    cached(
        lambda: R.closed_trf(
            lambda j: _FCR(j + 1),
            _FCB()[0],
            E3,
            10**7,
            lambda n: mp.mpf((n // 2) * ((n + 1) // 2)) / mp.mpf(n) ** 4,
        )
    ),
)
_M1000 = closed(lambda: 31 + 1000 * mp.zeta(2, 32))


def _m1000_R(j):
    if j <= 31:
        return (31 - j) + 1000 * mp.zeta(2, 32)
    return 1000 * mp.zeta(2, j + 1)


add(
    "maxmin/min-one-thousand-over-n2",
    ["--rpe", "Min(1, 1000/n**2)", *eps_args((0.5, 0.1, 0.01))],
    True,
    "1000/n^2 >= 1 iff n <= 31 (31^2 = 961, 32^2 = 1024): b = 1 for n <= 31, 1000/n^2 after: B = "
    "31 + 1000 zeta(2, 32) = 62.75...; R_j = 31 - j + 1000 zeta(2, 32) (j <= 31), 1000 zeta(2, "
    "j + 1) after: TRF(0.5) = 32 (R_31 = 31.75 > B/2 = 31.38 > R_32 = 30.76).",
    _M1000,
    cached(
        lambda: R.closed_trf(
            _m1000_R,
            _M1000()[0],
            (0.5, 0.1, 0.01),
            10**7,
            lambda n: min(mp.mpf(1), 1000 / mp.mpf(n) ** 2),
        )
    ),
)


def _abs10_R(m):  # sum_(n >= m) |n - 10|/n^3
    v = mp.zeta(2, m) - 10 * mp.zeta(3, m)
    return v + 2 * mp.fsum(mp.mpf(10 - n) / n**3 for n in range(m, 10))


_ABS10 = cached(
    lambda: R.two_ways(
        lambda: _abs10_R(1),
        lambda: (
            mp.zeta(2) - 10 * mp.zeta(3) + 2 * mp.fsum(R.mpq(F(10 - n, n**3)) for n in range(1, 10))
        ),
    )
)
add(
    "abs/abs-n-minus-10-over-n-cubed",
    ["--rpe", "Abs(n - 10)/n**3", *eps_args(E3)],
    True,
    "|n - 10| = (n - 10) + 2 max(10 - n, 0): B = zeta(2) - 10 zeta(3) + 2 sum_(n=1..9) (10 - n)/"
    "n^3 = 10.4754...; b_10 = 0; R_j = zeta(2, j + 1) - 10 zeta(3, j + 1) + the same finite "
    "correction while j + 1 < 10. b_1 = 9 alone is 86% of B: TRF = 2, 5, 90.",
    _ABS10,
    cached(
        lambda: R.closed_trf(
            lambda j: _abs10_R(j + 1),
            _ABS10()[0],
            E3,
            10**7,
            lambda n: abs(mp.mpf(n) - 10) / mp.mpf(n) ** 3,
        )
    ),
)
_FL = cached(lambda: R.two_ways(lambda: R.floor_log_tail(1), R.floor_log_B_direct))


def _floor_log_term(n):
    k = 0
    while R.ceil_exp(k + 1) <= n:
        k += 1
    return mp.mpf(k) / mp.mpf(n) ** 3


add(
    "floor/floor-log-n-over-n-cubed",
    ["--rpe", "floor(log(n))/n**3", *eps_args(E3)],
    True,
    "floor(log n) = k on ceil(e^k) <= n < ceil(e^(k+1)) (b_1 = b_2 = 0): Abel summation over "
    "the blocks, B = sum_(k >= 1) zeta(3, ceil(e^k)) = 0.08729...; second way: the terms to "
    "2e4 plus the block sum from there. R_j = K zeta(3, j + 1) + sum_(k > K) zeta(3, "
    "ceil(e^k)), K = floor(log(j + 1)); TRF by bisection, partial sums.",
    _FL,
    cached(
        lambda: R.closed_trf(
            lambda j: R.floor_log_tail(j + 1), _FL()[0], E3, 10**7, _floor_log_term
        )
    ),
)
_PAR = (0.3, 0.25, 0.0625, 1e-6)
add(
    "floor/parity-indicator-times-2-pow-minus-n-ties",
    ["--rpe", "(ceiling(n/2) - floor(n/2))*2**(-n)", *eps_args(_PAR)],
    True,
    "ceiling(n/2) - floor(n/2) = n mod 2: b_n = 2^-n for odd n, 0 for even: B = (1/2)/(1 - 1/4) "
    "= 2/3; R_j = (4/3) 2^-n0, n0 the first odd n > j: R_j/B = 4^-ceil(j/2) (1, 1/4, 1/4, 1/16, "
    "1/16, ...). eps = 1/4: R_1 = R_2 = B/4 tie, TRF = 3; 0.3: 1; 1/16: ties at 3, 4: 5; 1e-6: "
    "4^-10 < 1e-6 < 4^-9: 19 (exact Fractions).",
    exact(F(2, 3)),
    expect(
        lambda: R.frac_checked(
            lambda n: F(n % 2, 2**n),
            lambda j: F(4, 3 * 2 ** (j + 1 if j % 2 == 0 else j + 2)),
            1,
            F(2, 3),
            _PAR,
            10**3,
            far=1000,
        ),
        {0.3: 1, 0.25: 3, 0.0625: 5, 1e-6: 19},
    ),
)
add(
    "abs/abs-cos-n-over-n-pow-1.5-verdict-only",
    ["--rpe", "Abs(cos(n))/n**1.5", "--verdict-only"],
    True,
    "0 <= |cos n|/n^1.5 <= n^-1.5: converges (comparison).",
)
add(
    "abs/abs-sin-n-cubed-over-n",
    ["--rpe", "Abs(sin(n))**3/n"],
    False,
    "|sin n|^3 >= 1/8 whenever |sin n| >= 1/2, which holds for a set of n of density 2/3 (n mod "
    "pi is equidistributed, Weyl): sum over those n of 1/(8n) diverges (a set of positive lower "
    "density has a divergent harmonic sum). The mean of |sin|^3 is 4/(3 pi).",
)
add(
    "maxmin/min-abs-cos-n-and-inv-n",
    ["--rpe", "Min(Abs(cos(n)), 1/n)"],
    False,
    "|cos n| >= 1/2 on a set of n of density 2/3 (equidistribution of n mod pi); there Min = 1/n "
    "for n >= 2: the harmonic sum over a set of positive density diverges, so the series of "
    "these nonnegative terms diverges. (An undecided answer is honest.)",
)

# ---------------------------------------------------------------------------------------
# 4. Closed forms, telescoping, ties, starts, --truncate and --compare
# ---------------------------------------------------------------------------------------
_N5E = (0.5, 0.1, 0.001)


def _n5_R(start):
    return lambda j: F(1, 5) * sum(F(1, start + j + i - 1) for i in range(1, 6))


add(
    "rational/inv-n-times-n-plus-5-truncate-20",
    ["--rpe", "1/(n*(n + 5))", "--truncate", "20", *eps_args(_N5E)],
    True,
    "1/(n(n + 5)) = (1/n - 1/(n + 5))/5: B = H_5/5 = 137/300, R_j = (1/5) sum_(i=1..5) 1/(j + i) "
    "(exact); TRF by bisection on the exact tail. Truncated (App. E, M = 20, B_20 = the sum of "
    "20 terms, S_j >= (1 - eps) B_20; exact Fractions).",
    exact(F(137, 300)),
    cached(
        lambda: R.frac_checked(lambda n: F(1, n * (n + 5)), _n5_R(1), 1, F(137, 300), _N5E, 10**6)
    ),
    truncated=cached(lambda: R.truncated_trf([F(1, n * (n + 5)) for n in range(1, 21)], _N5E)),
)
_N5S = F(1, 5) * sum(F(1, n) for n in range(7, 12))
_N5SE = (0.5, 0.1, 1e-6)
add(
    "rational/inv-n-times-n-plus-5-start-7",
    ["--rpe", "1/(n*(n + 5))", "--start", "7", *eps_args(_N5SE)],
    True,
    "from n = 7: B = (1/5)(1/7 + 1/8 + 1/9 + 1/10 + 1/11), R_j = (1/5) sum_(i=0..4) 1/(7 + j + "
    "i) (exact Fractions, bisection; TRF(1e-6) ~ 5e6).",
    exact(_N5S),
    cached(lambda: R.frac_checked(lambda n: F(1, n * (n + 5)), _n5_R(7), 7, _N5S, _N5SE, 10**8)),
    start=7,
)
_N24B = F(11, 96)


def _n24_R(j):
    return F(1, 8) * (F(1, j + 1) + F(1, j + 2) - F(1, j + 3) - F(1, j + 4))


_N24T = cached(
    lambda: R.frac_checked(lambda n: F(1, n * (n + 2) * (n + 4)), _n24_R, 1, _N24B, E3, 10**6)
)
add(
    "rational/inv-n-n-plus-2-n-plus-4",
    ["--rpe", "1/(n*(n + 2)*(n + 4))", *eps_args(E3)],
    True,
    "1/(n(n + 2)(n + 4)) = (1/8)(1/n - 2/(n + 2) + 1/(n + 4)): B = (1/8)(2 H_2 - H_4) = (1/8)(3 "
    "- 25/12) = 11/96; R_j = (1/8)(1/(j + 1) + 1/(j + 2) - 1/(j + 3) - 1/(j + 4)) ~ 1/(2 j^3) "
    "(exact Fractions).",
    exact(_N24B),
    _N24T,
)
_E_CMP = (0.1, 0.01, 0.001)
_Z3 = cached(lambda: R.hurwitz_B(3, 1, mp.mpf(1)))
add(
    "opt/compare-same-order-different-sums",
    ["--rpe", "1/(n*(n + 2)*(n + 4))", "--compare", "n**(-3)", *eps_args(_E_CMP)],
    True,
    "both ~ n^-3: lim (b1/B1)/(b2/B2) = B2/B1 = zeta(3) 96/11 = 10.49 > 1, so b2/B2 < b1/B1 for "
    "large n and TRF2 <= TRF1 for small eps (Thm 3.5): (2) is smaller. TRF1 exact Fractions, "
    "TRF2: least j with zeta(3, j + 1) < eps zeta(3).",
    exact(_N24B),
    _N24T,
    compare=(2, cached(lambda: R.hurwitz_trf(3, 1, mp.mpf(1), _Z3()[0], _E_CMP))),
)
_CUBE = (0.5, 0.1, 1e-6, 1e-15)
add(
    "rational/n-cubed-over-2-pow-n",
    ["--rpe", "n**3/2**n", *eps_args(_CUBE)],
    True,
    "sum n^3 x^n = x (1 + 4x + x^2)/(1 - x)^4 = 26 at x = 1/2; R_j = sum_(n > j) n^3/2^n = (j^3 + "
    "6 j^2 + 18 j + 26)/2^j (checked to telescope exactly); R_j/B has the factor 13 in its "
    "denominator: no decimal tie. Exact Fractions.",
    exact(26),
    cached(
        lambda: R.frac_checked(
            lambda n: F(n**3, 2**n),
            lambda j: F(j**3 + 6 * j**2 + 18 * j + 26, 2**j),
            1,
            F(26),
            _CUBE,
            10**4,
            far=2000,
        )
    ),
)
_DC = (0.125, 0.01, 0.001, 1e-9)
add(
    "rational/difference-of-inverse-cubes-ties",
    ["--rpe", "(3*n**2 + 3*n + 1)/(n**3*(n + 1)**3)", *eps_args(_DC)],
    True,
    "(3n^2 + 3n + 1)/(n^3 (n + 1)^3) = 1/n^3 - 1/(n + 1)^3: B = 1, R_j = 1/(j + 1)^3. R_j < eps "
    "iff (j + 1)^3 > 1/eps: ties at 1/8 (j = 1), 1/1000 (j = 9), 1e-9 (j = 999): TRF = 2, 10, "
    "1000; 0.01: 5^3 > 100 > 4^3: 4 (exact Fractions).",
    exact(1),
    expect(
        lambda: R.frac_checked(
            lambda n: F(3 * n * n + 3 * n + 1, n**3 * (n + 1) ** 3),
            lambda j: F(1, (j + 1) ** 3),
            1,
            F(1),
            _DC,
            10**6,
        ),
        {0.125: 2, 0.01: 4, 0.001: 10, 1e-9: 1000},
    ),
)
_Q4 = (0.5, 0.1, 1e-3, 1e-9)
add(
    "rational/n-over-n4-plus-n2-plus-1",
    ["--rpe", "n/(n**4 + n**2 + 1)", *eps_args(_Q4)],
    True,
    "n^4 + n^2 + 1 = (n^2 - n + 1)(n^2 + n + 1) and (n + 1)^2 - (n + 1) + 1 = n^2 + n + 1: b_n = "
    "(1/(n^2 - n + 1) - 1/(n^2 + n + 1))/2 telescopes, B = 1/2, R_j = 1/(2 (j^2 + j + 1)); R_j < "
    "eps B iff j^2 + j + 1 > 1/eps (no tie: j^2 + j + 1 is odd and never a power of 5): 1, 3, "
    "32, 31623.",
    exact(F(1, 2)),
    expect(
        lambda: R.frac_checked(
            lambda n: F(n, n**4 + n**2 + 1),
            lambda j: F(1, 2 * (j * j + j + 1)),
            1,
            F(1, 2),
            _Q4,
            10**6,
        ),
        {0.5: 1, 0.1: 3, 1e-3: 32, 1e-9: 31623},
    ),
)
_FE = (0.5, 0.01, 0.001, 1e-9)
add(
    "rational/inv-factorial-times-n-plus-2-start-0-tie",
    ["--rpe", "1/(factorial(n)*(n + 2))", "--start", "0", *eps_args(_FE)],
    True,
    "1/(n! (n + 2)) = (n + 1)/(n + 2)! = 1/(n + 1)! - 1/(n + 2)!: from n = 0, B = 1, R_j = 1/(j + "
    "1)!. R_j < eps iff (j + 1)! > 1/eps: eps = 0.5 ties at j = 1 (2! = 2): TRF = 2; 0.01: 5! = "
    "120 > 100: 4; 0.001: 7! > 1000 > 6!: 6; 1e-9: 13! > 10^9 > 12!: 12.",
    exact(1),
    expect(
        lambda: R.frac_checked(
            lambda n: F(1, math.factorial(n) * (n + 2)),
            lambda j: F(1, math.factorial(j + 1)),
            0,
            F(1),
            _FE,
            100,
            far=100,
        ),
        {0.5: 2, 0.01: 4, 0.001: 6, 1e-9: 12},
    ),
    start=0,
)
_CAT = (0.5, 0.375, 0.3125, 0.01)
add(
    "binomial/catalan-over-4-pow-n-start-0-ties",
    ["--rpe", "binomial(2*n, n)/(4**n*(n + 1))", "--start", "0", *eps_args(_CAT)],
    True,
    "c_n = binomial(2n, n)/4^n, c_n/(n + 1) = C_n/4^n (Catalan): c_n - c_(n+1) = c_n/(2n + 2), so "
    "b_n = 2 (c_n - c_(n+1)), B = 2 c_0 = 2 and R_j = 2 c_j, R_j/B = c_j ~ 1/sqrt(pi j). c_1 = "
    "1/2, c_2 = 3/8, c_3 = 5/16: ties at 0.5, 0.375, 0.3125: TRF = 2, 3, 4; 0.01: least j with "
    "c_j < 0.01 (exact integers): 3183.",
    exact(2),
    expect(lambda: R.catalan_trf(_CAT), {0.5: 2, 0.375: 3, 0.3125: 4, 0.01: 3183}),
    start=0,
)
_AS = (0.5, 0.1, 0.01)
add(
    "binomial/arcsin-one-central-over-2n-plus-1-start-0",
    ["--rpe", "binomial(2*n, n)/(4**n*(2*n + 1))", "--start", "0", *eps_args(_AS)],
    True,
    "arcsin x = sum c_n x^(2n+1)/(2n + 1), c_n = binomial(2n, n)/4^n; at x = 1 (Abel; the terms "
    "~ n^-1.5/(2 sqrt pi)) B = pi/2. R_m = b_m 3F2(1, m + 1/2, m + 1/2; m + 1, m + 3/2; 1) ~ "
    "1/sqrt(pi m): TRF from the partial sums of 3000 terms, the closed tails checked at the "
    "crossings and at 3000.",
    closed(lambda: mp.pi / 2),
    cached(lambda: R.arcsin_trf(_AS)),
    start=0,
)
_ETA3 = cached(lambda: R.two_ways(lambda: 3 * mp.zeta(3) / 4, lambda: -mp.polylog(3, -1)))
add(
    "alternating/eta-3",
    ["--rpe", "(-1)**(n + 1)/n**3", *eps_args(E3)],
    True,
    "eta(3) = (1 - 2^-2) zeta(3) = 3 zeta(3)/4 = 0.9015... (second way: -Li_3(-1)). Tail from m: "
    "(-1)^(m+1) 2^-3 (zeta(3, m/2) - zeta(3, (m + 1)/2)); g = n^-3 completely monotone, so |R_j| "
    "decreases and the tail rule gives the least j with |R_j| < eps |B|: ~ (1/(2 eps B))^(1/3).",
    _ETA3,
    cached(
        lambda: R.monotone_abs_trf(
            lambda j: -R.alt_hurwitz(1, 0, 3, j + 1),
            _ETA3()[0],
            E3,
            10**6,
            lambda n: (-1) ** (n + 1) / mp.mpf(n) ** 3,
            1,
        )
    ),
)
_LEIB = (0.1, 0.01, 0.001)
add(
    "alternating/leibniz-pi-over-4-start-0",
    ["--rpe", "(-1)**n/(2*n + 1)", "--start", "0", *eps_args(_LEIB)],
    True,
    "Leibniz: sum_(n>=0) (-1)^n/(2n + 1) = pi/4. Tail from m: (-1)^m (psi((2m + 3)/4) - psi((2m + "
    "1)/4))/4 ~ (-1)^m/(4m); |R_j| decreases (1/(2n + 1) completely monotone): TRF = least j "
    "with |R_j| < eps pi/4, about 1/(pi eps): 4, 32, 319.",
    closed(lambda: mp.pi / 4),
    cached(
        lambda: R.monotone_abs_trf(
            lambda j: R.alt_hurwitz(2, 1, 1, j),
            mp.pi / 4,
            _LEIB,
            10**6,
            lambda n: (-1) ** n / mp.mpf(2 * n + 1),
            0,
        )
    ),
    start=0,
)
add(
    "alternating/dirichlet-beta-3-start-0",
    ["--rpe", "(-1)**n/(2*n + 1)**3", "--start", "0", *eps_args(E3)],
    True,
    "Dirichlet beta(3) = pi^3/32 = 0.9689...; tail from m: (-1)^m 4^-3 (zeta(3, (2m + 1)/4) - "
    "zeta(3, (2m + 3)/4)) (R_0 = pi^3/32 checked); |R_j| decreasing, tail rule by bisection, "
    "checked on the partial sums.",
    closed(lambda: mp.pi**3 / 32),
    cached(
        lambda: R.monotone_abs_trf(
            lambda j: R.alt_hurwitz(2, 1, 3, j),
            mp.pi**3 / 32,
            E3,
            10**6,
            lambda n: (-1) ** n / mp.mpf(2 * n + 1) ** 3,
            0,
        )
    ),
    start=0,
)
_LI3 = cached(
    lambda: R.two_ways(
        lambda: mp.polylog(3, mp.mpf(-1) / 2),
        lambda: mp.fsum((mp.mpf(-1) / 2) ** n / mp.mpf(n) ** 3 for n in range(1, 200)),
    )
)
_E_LI3 = (0.1, 1e-6, 1e-12)
add(
    "polylog/li3-minus-half",
    ["--rpe", "(-2)**(-n)/n**3", *eps_args(_E_LI3)],
    True,
    "(-2)^-n/n^3 = (-1/2)^n/n^3: B = Li_3(-1/2) = -0.4725... (second way: 199 terms, the rest < "
    "2^-200). Tail from m: the terms m..m + 198 (the rest < 2^-(m+199)); 2^-n/n^3 is completely "
    "monotone in n: |R_j| decreases, TRF = least j with |R_j| < eps |B|.",
    _LI3,
    cached(
        lambda: R.monotone_abs_trf(
            lambda j: mp.fsum(
                (mp.mpf(-1) / 2) ** n / mp.mpf(n) ** 3 for n in range(j + 1, j + 200)
            ),
            _LI3()[0],
            _E_LI3,
            400,
            lambda n: (mp.mpf(-1) / 2) ** n / mp.mpf(n) ** 3,
            1,
        )
    ),
)
_LOG32 = cached(
    lambda: R.two_ways(
        lambda: mp.log(mp.mpf(3) / 2),
        lambda: mp.fsum(1 / (mp.mpf(n) * mp.mpf(3) ** n) for n in range(1, 150)),
    )
)
add(
    "polylog/log-three-halves",
    ["--rpe", "1/(n*3**n)", *eps_args(_E_LI3)],
    True,
    "sum x^n/n = -log(1 - x) at x = 1/3: B = log(3/2) (second way: 149 terms, rest < 3^-150). "
    "R_j = 3^-(j+1) Phi(1/3, 1, j + 1); TRF by bisection, partial sums.",
    _LOG32,
    cached(
        lambda: R.closed_trf(
            lambda j: mp.mpf(3) ** -(j + 1) * mp.lerchphi(mp.mpf(1) / 3, 1, j + 1),
            _LOG32()[0],
            _E_LI3,
            400,
            lambda n: 1 / (mp.mpf(n) * mp.mpf(3) ** n),
        )
    ),
)
_E2 = cached(
    lambda: R.two_ways(
        lambda: 2 * mp.e - 1,
        lambda: mp.fsum(mp.mpf(n + 1) / mp.factorial(n) for n in range(1, 80)),
    )
)
_E_E2 = (0.1, 1e-6, 1e-15)
add(
    "factorial/n-plus-1-over-factorial-2e-minus-1",
    ["--rpe", "(n + 1)/factorial(n)", *eps_args(_E_E2)],
    True,
    "sum_(n>=1) (n + 1)/n! = sum 1/(n - 1)! + sum 1/n! = e + (e - 1) = 2e - 1 = 4.4365... (second "
    "way: 79 terms). TRF from the partial sums.",
    _E2,
    cached(
        lambda: R.trf_positive_checked(
            [mp.mpf(n + 1) / mp.factorial(n) for n in range(1, 40)], *_E2(), _E_E2
        )
    ),
)


def _sq_R(j):
    with mp.workdps(100):
        v = mp.zeta(2, j + 1) + mp.zeta(2, j + 2) - mp.mpf(2) / (j + 1)
    return +v


_SQ = cached(
    lambda: R.two_ways(
        lambda: mp.pi**2 / 3 - 3,
        lambda: em_B(
            lambda x: 1 / (x * x + x) ** 2,
            2000,
            mp.mpf(1) / 2000 + mp.mpf(1) / 2001 - 2 * mp.log(mp.mpf(2001) / 2000),
        ),
    )
)
add(
    "rational/inverse-square-of-n2-plus-n",
    ["--rpe", "1/(n**2 + n)**2", *eps_args(E3)],
    True,
    "(1/n - 1/(n + 1))^2 = 1/n^2 + 1/(n + 1)^2 - 2/(n(n + 1)): B = 2 zeta(2) - 1 - 2 = pi^2/3 - "
    "3 = 0.2899...; R_j = zeta(2, j + 1) + zeta(2, j + 2) - 2/(j + 1) ~ 2/(3 j^3) (100 digits). "
    "Second way: the terms to 2000 plus Euler-Maclaurin, int_N^oo = 1/N + 1/(N + 1) - 2 log((N + "
    "1)/N).",
    _SQ,
    cached(lambda: R.closed_trf(_sq_R, _SQ()[0], E3, 10**6, lambda n: 1 / mp.mpf(n * n + n) ** 2)),
)
_L2 = cached(
    lambda: R.two_ways(
        lambda: 2 * mp.log(2),
        lambda: em_B(lambda x: 1 / (x * (2 * x - 1)), 2000, mp.log(mp.mpf(4000) / 3999)),
    )
)
add(
    "rational/inv-n-times-2n-minus-1-two-log-2",
    ["--rpe", "1/(n*(2*n - 1))", *eps_args(E3)],
    True,
    "1/(n(2n - 1)) = 2/(2n - 1) - 2/(2n) = 1/(n - 1/2) - 1/n: B = psi(1) - psi(1/2) = 2 log 2; R_j "
    "= psi(j + 1) - psi(j + 1/2) ~ 1/(2j). Second way: the terms to 2000 plus Euler-Maclaurin, "
    "int_N^oo = log(2N/(2N - 1)). TRF ~ 1/(4 eps log 2).",
    _L2,
    cached(
        lambda: R.closed_trf(
            lambda j: mp.digamma(j + 1) - mp.digamma(j + mp.mpf(1) / 2),
            _L2()[0],
            E3,
            10**6,
            lambda n: 1 / mp.mpf(n * (2 * n - 1)),
        )
    ),
)


def _q2_R(j):
    with mp.workdps(100):
        h = mp.mpf(1) / 2
        v = (mp.zeta(2, j + h) / 4 + mp.zeta(2, j + 1 + h) / 4 - 1 / mp.mpf(2 * j + 1)) / 4
    return +v


_Q2 = cached(
    lambda: R.two_ways(
        lambda: mp.pi**2 / 16 - mp.mpf(1) / 2,
        lambda: em_B(
            lambda x: 1 / (4 * x * x - 1) ** 2,
            1000,
            mp.quad(lambda x: 1 / (4 * x * x - 1) ** 2, [1000, 10**4, 10**6, mp.inf]),
        ),
    )
)
add(
    "rational/inverse-square-of-4n2-minus-1",
    ["--rpe", "1/(4*n**2 - 1)**2", *eps_args(E3)],
    True,
    "1/(4n^2 - 1) = (1/(2n - 1) - 1/(2n + 1))/2; squared and summed: (1/4)(pi^2/8 + pi^2/8 - 1 - "
    "1) = pi^2/16 - 1/2 = 0.1168...; R_j = (zeta(2, j + 1/2)/4 + zeta(2, j + 3/2)/4 - 1/(2j + "
    "1))/4 ~ 1/(48 j^3). Second way: 999 terms plus Euler-Maclaurin (integral by quadrature).",
    _Q2,
    cached(
        lambda: R.closed_trf(_q2_R, _Q2()[0], E3, 10**6, lambda n: 1 / mp.mpf(4 * n * n - 1) ** 2)
    ),
)


def _wallis_R(j):
    with mp.workdps(90):
        h = mp.mpf(1) / 2
        v = 2 * mp.loggamma(j + 1) - mp.loggamma(j + h) - mp.loggamma(j + 1 + h)
    return +v


_WAL = cached(
    lambda: R.two_ways(
        lambda: mp.log(2 / mp.pi),
        lambda: -mp.fsum(mp.zeta(2 * k) / (k * mp.mpf(4) ** k) for k in range(1, 90)),
    )
)
add(
    "log/wallis-log-one-minus-inv-4n2-negative-terms",
    ["--rpe", "log(1 - 1/(4*n**2))", *eps_args(E3)],
    True,
    "every term < 0. Wallis: prod_(n>=1) (1 - 1/(4n^2)) = 2/pi, so B = log(2/pi) = -0.4515...; "
    "second way -sum_k zeta(2k)/(k 4^k). Tail from n = j + 1: log of prod_(n>j) = 2 log Gamma(j "
    "+ 1) - log Gamma(j + 1/2) - log Gamma(j + 3/2) ~ -1/(4j). |R_j| decreases: TRF = least j "
    "with |R_j| < eps |B| (the TRF of -b_n).",
    _WAL,
    cached(
        lambda: R.monotone_abs_trf(
            _wallis_R,
            _WAL()[0],
            E3,
            10**6,
            lambda n: mp.log1p(-1 / (4 * mp.mpf(n) ** 2)),
            1,
            alternating=False,
        )
    ),
)
_M6 = 10**6
_ZZ = cached(
    lambda: R.two_ways(
        lambda: mp.zeta(2, _M6) + mp.zeta(4, _M6),
        lambda: R.hurwitz_em(2, _M6) + R.hurwitz_em(4, _M6),
    )
)
add(
    "zeta/n2-plus-1-over-n4-start-1e6",
    ["--rpe", "(n**2 + 1)/n**4", "--start", "1000000", *eps_args((0.5, 0.1))],
    True,
    "(n^2 + 1)/n^4 = n^-2 + n^-4: from m = 10^6, B = zeta(2, m) + zeta(4, m) = 1.0000005e-6; R_j = "
    "zeta(2, m + j) + zeta(4, m + j) ~ 1/(m + j): TRF ~ m (1/eps - 1) = 1.0e6 and 9.0e6 "
    "(bisection; Hurwitz checked against Euler-Maclaurin).",
    _ZZ,
    cached(
        lambda: R.closed_trf(
            lambda j: mp.zeta(2, _M6 + j) + mp.zeta(4, _M6 + j),
            _ZZ()[0],
            (0.5, 0.1),
            10**9,
            lambda n: (mp.mpf(n) ** 2 + 1) / mp.mpf(n) ** 4,
            start=_M6,
        )
    ),
    start=_M6,
)

# ---------------------------------------------------------------------------------------
# 5. Honest undecided answers, open problems, refusals
# ---------------------------------------------------------------------------------------
add(
    "open/inverse-n2-abs-cos-pow-1.5",
    ["--rpe", "1/(n**2*Abs(cos(n))**1.5)"],
    "open",
    "|cos n| is small where n is near (k + 1/2) pi: with the irrationality measure mu of pi, "
    "|cos n| >~ n^-(mu - 1) and the terms there are ~ n^(-2 + 1.5 (mu - 1)); the series "
    "converges if mu < 1 + 2/1.5 = 7/3 and diverges if mu > 7/3 (Alekseyev's criterion for "
    "sum 1/(n^u |sin n|^v), threshold 1 + u/v). Only 2 <= mu(pi) <= 7.103 is known (with mu = "
    "7.103 not even b_n -> 0 follows): neither convergence nor divergence is proved; only "
    "'undecided' is right.",
)
add(
    "hard/abs-sin-n-pow-n",
    ["--rpe", "Abs(sin(n))**n"],
    False,
    "Minkowski's inhomogeneous approximation: |q (q/pi - p - 1/2)| < 1/4 for infinitely many q "
    "(1/pi irrational, 1/2 not in Z/pi + Z), i.e. |q - (p + 1/2) pi| < pi/(4q): |cos(q - (p + "
    "1/2) pi)| = |sin q| >= 1 - (pi/(4q))^2/2, so |sin q|^q >= (1 - 1.24/q^2)^q -> 1: the terms "
    "do not tend to 0, diverges. (An undecided answer is honest.)",
)
add(
    "hard/cos-n-pow-2n",
    ["--rpe", "cos(n)**(2*n)"],
    False,
    "Dirichlet: |q/pi - p| < 1/q for infinitely many q, i.e. |q - p pi| < pi/q: cos(q)^2 >= 1 - "
    "(pi/q)^2, so cos(q)^(2q) >= (1 - pi^2/q^2)^q -> 1: the terms do not tend to 0, diverges. "
    "(An undecided answer is honest.)",
)
_M30 = 10**30
add(
    "start/inv-n-n-plus-1-start-1e30",
    ["--rpe", "1/(n*(n + 1))", "--start", str(_M30), *eps_args((0.5, 0.1))],
    True,
    "from m = 10^30: B = 1/m = 1e-30 exactly, R_j = 1/(m + j); R_j < eps B iff m + j > m/eps: ties "
    "at j = m (0.5) and 9m (0.1): TRF = m + 1 and 9m + 1 exactly (an exact answer must be "
    "these integers, not m and 9m; a bracket must hold them). A clean refusal of such a start "
    "is honest.",
    exact(F(1, _M30)),
    expect(
        lambda: R.frac_checked(
            lambda n: F(1, n * (n + 1)),
            lambda j: F(1, _M30 + j),
            _M30,
            F(1, _M30),
            (0.5, 0.1),
            10**32,
            far=10**45,
        ),
        {0.5: _M30 + 1, 0.1: 9 * _M30 + 1},
    ),
    start=_M30,
    error_ok=True,
)
refuse(
    "refuse/pole-at-n-4",
    ["--rpe", "1/(n - 4)**2"],
    "b_4 = 1/0: the term at n = 4 (inside the series from n = 1) is undefined.",
)
refuse(
    "refuse/unused-parameter",
    ["--rpe", "n**(-2)", "--param", "q=3"],
    "q does not occur in the formula: a parameter given a value must occur (a typo guard).",
)

#: series for the Ctrl-C trials (each runs long enough to be interrupted)
SIGINT_SERIES = [
    ["--rpe", "kerple-log", "--param", "r=1.01", "--param", "k=1000000"],
    ["--rpe", "Min(Abs(cos(n)), 1/n)"],
]

#: no extra cases: the whole set runs by default
EXTRA_CASES: list[Case] = []
assert len({c.id for c in CASES}) == len(CASES)
