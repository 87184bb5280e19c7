"""Held-out set 15: commands as a researcher designing positional encodings types them into
``python -m theory.trf``, with the verdict derived by hand (the argument in each ``note``)
and, where the series converges, a reference B and TRF(eps) computed independently with
mpmath at 50 digits or with exact Fractions (``heldout15_reference``), each checked a second
way (closed forms against the terms summed with a proved bound of the rest, Hurwitz zeta
against Euler-Maclaurin, the tail rule on closed tails against the tail rule on partial
sums, T5's buckets from the log formula against the first distance of each bucket).

Families not emphasised in sets 5-14, and not among the formulas of the project's own tests,
docs and benchmarks (each formula grepped there first):

1. mixtures and products of kernels: means of ALiBi heads (two, four and eight heads, ALiBi's
   slopes 2^-h), heads weighted by 2^-k, decay times a rotation (xPos-like, both signs;
   a Gaussian window times a rotation), Kerple-log shapes (1 + n/L)^-r with decimals,
   stretched exponentials exp(-0.3 n^0.7) and exp(-sqrt(n)/4), n^-p e^(-n/L) (polylog),
   Lerch kernels e^(-n/L)/(1 + n)^s, ALiBi plus a power-law head, log-damped kernels;
2. named RPEs and their options: T5 with increasing, positive, all-equal (exact ties) and
   ALiBi-like bucket values, bidirectional buckets, default and small num_buckets /
   max_distance, each with the paper's truncated TRF (App. E: the constant last bucket
   makes every T5 series diverge); Sandwich at d = 4, r = 4; ALiBi, Kerple log and Kerple
   power from n = 2, 10 and 10^6;
3. options: up to five eps at once, eps = 0.999 and 1e-15, --truncate M on a convergent
   series, --compare (Thm 3.5: which TRF is smaller for small eps, and the TRFs of both),
   --bias formulas, --verdict-only;
4. input that must be refused (exit 2, one ``error:`` line);
5. proved verdicts with hard B (verdict only) and two open problems (irrationality measure
   of pi against 3);
6. free-parameter families of kernel shapes, the region proved on the whole line.

The fields of a :class:`Case` are those of set 7 (``heldout7_cases``), and two more judged by
``heldout_runner``: ``truncated`` -> {eps: TRF of
the truncated series} (the ``trf_truncated`` list of --json), ``compare`` = (the series
with the smaller TRF for small eps, 1 or 2; a function -> {eps: TRF2}) (``comparison``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import mpmath as mp

try:
    from . import heldout15_reference as R
    from .heldout7_cases import Case, cached, eps_args
except ImportError:  # run as a script from this folder
    import heldout15_reference as R
    from heldout7_cases import Case, cached, eps_args

E3 = (0.1, 0.01, 0.001)
E4 = (0.5, 0.2, 1e-4, 1e-9)
E_MIX = (0.5, 0.1, 1e-3, 1e-6)
TINY = mp.mpf(10) ** -35


@dataclass
class Case15(Case):
    truncated: Callable | None = None
    compare: tuple | None = None


CASES: list[Case15] = []


def add(*a, **k):
    CASES.append(Case15(*a, **k))


def fam(id_, args, pred, grid, note, others=False):
    add(id_, args, None, note, cond=(pred, grid), others=others)


def expect(fn, want):
    """A reference that must equal the value derived by hand in the note (a second way)."""

    def get():
        got = fn()
        assert got == want, (got, want)
        return got

    return get


def closed(fn):
    """B = fn() in closed form: error 1e-35 relative."""
    return cached(lambda: (fn(), abs(fn()) * TINY))


# ---------------------------------------------------------------------------------------
# 1. Mixtures and products of kernels
# ---------------------------------------------------------------------------------------
F = Fraction
_MIX2 = R.GeoMix([F(1, 2), F(1, 2)], [F(1, 2), F(1, 8)])
add(
    "mix/two-alibi-heads-mean",
    ["--rpe", "(exp(-n/2) + exp(-n/8))/2", *eps_args(E4)],
    True,
    "two ALiBi heads (slopes 1/2, 1/8) averaged: B = (q1/(1 - q1) + q2/(1 - q2))/2, q = e^-1/2, "
    "e^-1/8; every tail closed, R_j = (q1^(j+1)/(1 - q1) + q2^(j+1)/(1 - q2))/2 (decreasing): "
    "TRF by bisection, checked on the partial sums. The slow head sets TRF ~ 8 ln(1/eps).",
    cached(_MIX2.B),
    cached(lambda: _MIX2.trf(E4)),
)
_MIX91 = R.GeoMix([F(9, 10), F(1, 10)], [1, F(1, 10)])
add(
    "mix/weighted-heads-eps-0.999-and-1e-15",
    ["--rpe", "0.9*exp(-n) + 0.1*exp(-n/10)", *eps_args((0.999, 1e-15))],
    True,
    "0.9 e^-n + 0.1 e^(-n/10): B = 0.9/(e - 1) + 0.1/(e^(1/10) - 1) = 1.4746...; R_1/B = 1 - "
    "b_1/B = 0.714 < 0.999: TRF(0.999) = 1. At 1e-15 the light slow head dominates: R_j ~ "
    "0.1 e^(-(j+1)/10)/(1 - e^-1/10) < 1e-15 B gives j ~ 341 (bisection on the closed tails).",
    cached(_MIX91.B),
    cached(lambda: _MIX91.trf((0.999, 1e-15))),
)
_ALIBI4 = R.GeoMix([F(1, 4)] * 4, [F(1, 4), F(1, 16), F(1, 64), F(1, 256)], start=0)
add(
    "mix/alibi-four-head-slopes-start-0",
    [
        "--rpe",
        "(exp(-n/4) + exp(-n/16) + exp(-n/64) + exp(-n/256))/4",
        "--start",
        "0",
        *eps_args(E_MIX),
    ],
    True,
    "ALiBi's slopes for 4 heads, 2^(-8h/4) = 1/4, 1/16, 1/64, 1/256, averaged over the heads, "
    "distance t = n from 0: B = (1/4) sum_h 1/(1 - e^(-m_h)), R_j = (1/4) sum_h e^(-m_h j)/(1 - "
    "e^(-m_h)); TRF ~ 256 ln(1/eps) (the slowest head), exact by bisection and partial sums.",
    cached(_ALIBI4.B),
    cached(lambda: _ALIBI4.trf(E_MIX)),
    start=0,
)
_ALIBI8 = R.GeoMix([F(1, 8)] * 8, [F(1, 2**h) for h in range(1, 9)], start=0)
add(
    "mix/alibi-eight-head-slopes-start-0",
    [
        "--rpe",
        "(exp(-n/2) + exp(-n/4) + exp(-n/8) + exp(-n/16) + exp(-n/32) + exp(-n/64) "
        "+ exp(-n/128) + exp(-n/256))/8",
        "--start",
        "0",
        *eps_args((0.1, 0.01, 1e-3, 1e-6)),
    ],
    True,
    "ALiBi's 8-head slopes 2^-1 ... 2^-8 averaged (t from 0): B = (1/8) sum_h 1/(1 - e^(-2^-h)) "
    "= 64.26...; closed tails, bisection, partial sums.",
    cached(_ALIBI8.B),
    cached(lambda: _ALIBI8.trf((0.1, 0.01, 1e-3, 1e-6))),
    start=0,
)
_HALVING = R.GeoMix([F(1, 2), F(1, 4), F(1, 8), F(1, 16)], [1, F(1, 2), F(1, 4), F(1, 8)])
add(
    "mix/heads-weighted-2-pow-minus-k",
    [
        "--rpe",
        "exp(-n)/2 + exp(-n/2)/4 + exp(-n/4)/8 + exp(-n/8)/16",
        *eps_args((0.5, 0.1, 1e-3, 1e-9)),
    ],
    True,
    "weights 2^-k on slopes 2^(1-k), k = 1..4: B = sum_k 2^-k e^(-s_k)/(1 - e^(-s_k)), closed "
    "tails; the slowest head carries weight 1/16 only, so TRF(0.5) is set by the fast heads "
    "and TRF(1e-9) ~ 8 ln(1e9 B 16 (1 - e^-1/8))... (bisection, partial sums).",
    cached(_HALVING.B),
    cached(lambda: _HALVING.trf((0.5, 0.1, 1e-3, 1e-9))),
)
_XPOS = R.SignedGeo(F(1, 4), F(1, 3))
add(
    "xpos/exp-n-over-4-cos-n-over-3",
    ["--rpe", "exp(-n/4)*cos(n/3)", *eps_args(E_MIX)],
    True,
    "e^(-n/4) cos(n/3) = Re z^n, z = e^(-1/4 + i/3), |z| < 1: converges absolutely. B = Re z/(1 - "
    "z) = 0.96...; R_k = Re z^(k+1)/(1 - z), |R_k| <= e^(-(k+1)/4)/|1 - z|. Tail rule (terms of "
    "both signs: the least j with |R_k| < eps |B| for all k >= j) on the closed tails, checked "
    "on the partial sums.",
    cached(_XPOS.B),
    cached(lambda: _XPOS.trf(E_MIX)),
    others=True,
)
_XPOS0 = R.SignedGeo(F(1, 20), F(1, 2), start=0)
add(
    "xpos/decay-0.05-rotation-0.5-start-0",
    ["--rpe", "exp(-0.05*n)*cos(0.5*n)", "--start", "0", *eps_args((0.5, 0.1, 1e-3))],
    True,
    "xPos-like: slow decay 0.05 per step times a rotation by 0.5 rad, from distance 0: "
    "B = Re 1/(1 - z), z = e^(-0.05 + 0.5 i) (0.70...); R_k = Re z^k/(1 - z), |R_k| <= "
    "e^(-0.05 k)/|1 - z|; tail rule on the closed tails and on the partial sums.",
    cached(_XPOS0.B),
    cached(lambda: _XPOS0.trf((0.5, 0.1, 1e-3))),
    start=0,
    others=True,
)
_RB_G = R.GeoMix([2], [F(1, 4)])
_RB_S = R.SignedGeo(F(1, 4), 1)


def _rope_alibi_B():
    v = _RB_G.R(0) + _RB_S.R(0)
    d = mp.fsum(mp.exp(-mp.mpf(n) / 4) * (2 + mp.cos(n)) for n in range(1, 500))
    d += _RB_G.R(499) + _RB_S.R(499)
    assert abs(v - d) < mp.mpf(10) ** -40 * v, (v, d)
    return v, v * TINY


def _rope_alibi_trf():
    B = _rope_alibi_B()[0]
    eps = (0.5, 0.1, 1e-3, 1e-6)
    a = R.int_trf_checked(lambda j: _RB_G.R(j) + _RB_S.R(j), B, eps, hi=10**6)
    terms = [mp.exp(-mp.mpf(n) / 4) * (2 + mp.cos(n)) for n in range(1, 200)]
    b = R.trf_positive_checked(terms, B, B * TINY, eps)
    assert a == b, (a, b)
    return a


add(
    "bias/alibi-quarter-plus-log-two-plus-cos",
    ["--bias=-n/4 + log(2 + cos(n))", *eps_args((0.5, 0.1, 1e-3, 1e-6))],
    True,
    "bias -n/4 + log(2 + cos n): b = e^(-n/4)(2 + cos n) in [e^(-n/4), 3 e^(-n/4)], positive. "
    "B = 2q/(1 - q) + Re z/(1 - z), q = e^-1/4, z = e^(-1/4 + i); R_j = 2 q^(j+1)/(1 - q) + Re "
    "z^(j+1)/(1 - z) (a tail of positive terms: nonincreasing): bisection, partial sums.",
    cached(_rope_alibi_B),
    cached(_rope_alibi_trf),
)
_K64 = cached(lambda: R.hurwitz_B("1.5", 65, mp.mpf(512)))
add(
    "kerple/one-plus-n-over-64-pow-minus-1.5",
    ["--rpe", "(1 + n/64)**(-1.5)", *eps_args(E_MIX)],
    True,
    "(1 + n/64)^-1.5 = 64^1.5 (n + 64)^-1.5 = 512 (n + 64)^-1.5, n >= 1: B = 512 zeta(1.5, 65) "
    "= 127.2... (Hurwitz two ways), R_j = 512 zeta(1.5, 65 + j) ~ 1024/sqrt(j): TRF ~ "
    "(1024/(eps B))^2: about 190, 6.4e3, 6.4e7 and 6.4e13 (as log10).",
    _K64,
    cached(lambda: R.hurwitz_trf("1.5", 65, mp.mpf(512), _K64()[0], E_MIX)),
)
_K100 = cached(lambda: R.hurwitz_B("2.5", 101, mp.mpf(10) ** 5))
add(
    "kerple/one-plus-n-over-100-pow-minus-2.5",
    ["--rpe", "(1 + n/100)**(-2.5)", *eps_args(E4)],
    True,
    "(1 + n/100)^-2.5 = 100^2.5 (n + 100)^-2.5 = 10^5 (n + 100)^-2.5: B = 10^5 zeta(2.5, 101) "
    "= 66.17..., R_j = 10^5 zeta(2.5, 101 + j) ~ (10^5/1.5) (j + 100)^-1.5: TRF(1e-9) ~ 1e8.",
    _K100,
    cached(lambda: R.hurwitz_trf("2.5", 101, mp.mpf(10) ** 5, _K100()[0], E4)),
)
_S37 = lambda: (R.mpq("0.3"), R.mpq("0.7"))  # noqa: E731  (at the working precision)
_f37 = lambda n: mp.exp(-_S37()[0] * mp.mpf(n) ** _S37()[1])  # noqa: E731


def _B37():
    k, r = _S37()
    a = 500

    def em():
        head = mp.fsum(_f37(n) for n in range(1, a))
        integral = mp.gammainc(1 / r, k * mp.mpf(a) ** r) / (r * k ** (1 / r))
        val, err = R.em_tail(lambda x: mp.exp(-k * x**r), mp.mpf(a), integral)
        assert err < mp.mpf(10) ** -30
        return head + val

    return R.two_ways(lambda: R.direct_sum(_f37, 1, 3000, R.stretched_tail(k, r))[0], em)


_B37c = cached(_B37)
add(
    "stretched/exp-0.3-n-pow-0.7",
    ["--rpe", "exp(-0.3*n**0.7)", *eps_args(E4)],
    True,
    "stretched exponential e^(-0.3 n^0.7) (completely monotone: n^0.7 is a Bernstein function): "
    "B two ways, the sum to 3000 plus the bound e^(-x) + Gamma(1/0.7, x)/(0.7 0.3^(1/0.7)), x = "
    "0.3 N^0.7 (~1e-34), and the sum to 500 plus Euler-Maclaurin with that integral; TRF from "
    "the partial sums (TRF(1e-9) ~ 570).",
    _B37c,
    cached(lambda: R.trf_positive_checked([_f37(n) for n in range(1, 3000)], *_B37c(), E4)),
)
_fsq4 = lambda n: mp.exp(-mp.sqrt(mp.mpf(n)) / 4)  # noqa: E731


def _Bsq4():
    def em():
        a = 2000
        head = mp.fsum(_fsq4(n) for n in range(1, a))
        Y = mp.sqrt(mp.mpf(a))
        integral = 8 * (Y + 4) * mp.exp(-Y / 4)  # int_a^oo e^(-sqrt(x)/4) dx
        val, err = R.em_tail(lambda x: mp.exp(-mp.sqrt(x) / 4), mp.mpf(a), integral)
        assert err < mp.mpf(10) ** -30
        return head + val

    half = mp.mpf(1) / 2
    return R.two_ways(
        lambda: R.direct_sum(_fsq4, 1, 60000, R.stretched_tail(mp.mpf(1) / 4, half))[0], em
    )


_Bsq4c = cached(_Bsq4)
_SQ4_EPS = (0.5, 0.1, 1e-3, 1e-6, 1e-9)
_TSQ4 = cached(
    lambda: R.trf_positive_checked([_fsq4(n) for n in range(1, 12000)], *_Bsq4c(), _SQ4_EPS)
)
add(
    "stretched/exp-minus-sqrt-n-over-4",
    ["--rpe", "exp(-sqrt(n)/4)", *eps_args(_SQ4_EPS)],
    True,
    "e^(-sqrt(n)/4) (completely monotone): int_N^oo e^(-sqrt(x)/4) dx = 8 (sqrt N + 4) "
    "e^(-sqrt(N)/4). B ~ 31.6 two ways: the sum to 6e4 plus that bound (~1e-23), and the sum to "
    "2000 plus Euler-Maclaurin; TRF from the partial sums (up to ~9e3 terms at 1e-9).",
    _Bsq4c,
    _TSQ4,
)
_Q100 = lambda: mp.exp(-mp.mpf(1) / 100)  # noqa: E731
_f15 = lambda n: mp.mpf(n) ** R.mpq("-1.5") * _Q100() ** n  # noqa: E731
_B15 = cached(
    lambda: R.two_ways(
        lambda: mp.polylog(R.mpq("1.5"), _Q100()),
        lambda: R.lerch_direct(_Q100(), R.mpq("1.5"), 0, 1, 12000)[0],
    )
)
_E15 = (0.5, 0.1, 1e-3, 1e-9)


def _trf15():
    B, err = _B15()
    out = R.trf_positive_checked([_f15(n) for n in range(1, 4000)], B, err, _E15)
    tail = R.lerch_tail(_Q100(), R.mpq("1.5"), 0)
    for e, j in out.items():  # the crossing on the Lerch tails too
        thr = B * R.eps_mp(e)
        assert tail(1 + j) < thr <= tail(j), (e, j)
    return out


add(
    "power-exp/n-pow-minus-1.5-exp-minus-n-over-100",
    ["--rpe", "n**(-1.5)*exp(-n/100)", *eps_args(_E15)],
    True,
    "a power-law kernel cut off at length 100: B = Li_1.5(e^-1/100) = 2.2725 (polylog; the "
    "terms to 12000 plus the bound q^N N^-1.5/(1 - q)); R_j = q^(j+1) Phi(q, 1.5, j + 1) "
    "(Lerch), TRF from the partial sums and the crossing checked on the Lerch tails.",
    _B15,
    cached(_trf15),
)
_Q32 = lambda: mp.exp(-mp.mpf(1) / 32)  # noqa: E731
_f05 = lambda n: _Q32() ** n / mp.sqrt(mp.mpf(n))  # noqa: E731
_B05 = cached(
    lambda: R.two_ways(
        lambda: mp.polylog(mp.mpf(1) / 2, _Q32()),
        lambda: R.lerch_direct(_Q32(), mp.mpf(1) / 2, 0, 1, 6000)[0],
    )
)
add(
    "bias/half-log-n-and-slope-1-over-32",
    ["--bias=-0.5*log(n) - n/32", *eps_args((0.5, 0.1, 1e-4))],
    True,
    "bias -log(n)/2 - n/32: b = n^-1/2 e^(-n/32), B = Li_(1/2)(e^-1/32) = 8.5726... (polylog "
    "and the terms to 6000 plus the geometric bound); TRF from the partial sums.",
    _B05,
    cached(
        lambda: R.trf_positive_checked([_f05(n) for n in range(1, 1500)], *_B05(), (0.5, 0.1, 1e-4))
    ),
)
_Q16 = lambda: mp.exp(-mp.mpf(1) / 16)  # noqa: E731
_B_l2 = cached(
    lambda: R.two_ways(
        lambda: (mp.polylog(2, _Q16()) - _Q16()) / _Q16(),
        lambda: R.lerch_direct(_Q16(), 2, 1, 1, 3000)[0],
    )
)


def _trf_l2():
    B, err = _B_l2()
    terms = [_Q16() ** n / mp.mpf(n + 1) ** 2 for n in range(1, 800)]
    out = R.trf_positive_checked(terms, B, err, E4)
    tail = R.lerch_tail(_Q16(), 2, 1)
    for e, j in out.items():
        assert tail(1 + j) < B * R.eps_mp(e) <= tail(j), (e, j)
    return out


add(
    "lerch/exp-minus-n-over-16-over-one-plus-n-squared",
    ["--rpe", "exp(-n/16)/(1 + n)**2", *eps_args(E4)],
    True,
    "sum_(n>=1) q^n/(n + 1)^2 = (Li_2(q) - q)/q, q = e^-1/16 (shift the index of Li_2); tails "
    "q^m Phi(q, 2, m + 1) (Lerch) and the partial sums agree at every crossing.",
    _B_l2,
    cached(_trf_l2),
)
_Q8 = lambda: mp.exp(-mp.mpf(1) / 8)  # noqa: E731
_B_l1 = cached(
    lambda: R.two_ways(
        lambda: (-mp.log(1 - _Q8()) - _Q8()) / _Q8(),
        lambda: R.lerch_direct(_Q8(), 1, 1, 1, 2000)[0],
    )
)


def _trf_l1():
    B, err = _B_l1()
    out = R.trf_positive_checked([_Q8() ** n / (n + 1) for n in range(1, 400)], B, err, E3)
    tail = R.lerch_tail(_Q8(), 1, 1)
    for e, j in out.items():
        assert tail(1 + j) < B * R.eps_mp(e) <= tail(j), (e, j)
    return out


add(
    "lerch/bias-minus-n-over-8-minus-log-one-plus-n",
    ["--bias=-n/8 - log(1 + n)", *eps_args(E3)],
    True,
    "bias -n/8 - log(1 + n): b = q^n/(n + 1), q = e^-1/8: B = sum q^n/(n + 1) = (-log(1 - q) - "
    "q)/q (integrate the geometric series); Lerch tails and partial sums.",
    _B_l1,
    cached(_trf_l1),
)
_G200 = lambda n: mp.exp(-(mp.mpf(n) ** 2) / 200) * mp.cos(mp.mpf(n) / 2)  # noqa: E731


def _B_g200():
    th = (mp.jtheta(3, mp.mpf(1) / 4, mp.exp(-mp.mpf(1) / 200)) - 1) / 2
    d = mp.fsum(_G200(n) for n in range(1, 400))  # the rest < e^-800
    assert abs(th - d) < mp.mpf(10) ** -40, (th, d)
    return th, TINY


def _g_bound(k):  # |R_k| <= sum_(n>=m) e^(-n^2/200) <= e^(-m^2/200)/(1 - e^(-m/100)), m = k+1
    m = mp.mpf(k + 1)
    return mp.exp(-(m**2) / 200) / -mp.expm1(-m / 100)


def _trf_g200():
    B = _B_g200()[0]
    eps = (0.1, 0.01, 1e-6)
    terms = [_G200(n) for n in range(1, 150)]
    a = R.trf_signed_checked(terms, B, TINY, eps, _g_bound)
    # second way: the tails as sums of the later terms (to n = 400), not B minus a prefix
    tails = [mp.fsum(_G200(n) for n in range(k + 1, 400)) for k in range(0, 150)]
    b = {}
    for e in eps:
        thr = abs(B) * R.eps_mp(e)
        b[e] = 1 + max(k for k in range(150) if abs(tails[k]) >= thr)
    assert a == b, (a, b)
    return a


add(
    "xpos/gauss-window-n2-over-200-times-cos-n-over-2",
    ["--rpe", "exp(-n**2/200)*cos(n/2)", *eps_args((0.1, 0.01, 1e-6))],
    True,
    "a Gaussian window (width 10) times a rotation, both signs: sum_(n in Z) e^(-n^2/200) "
    "cos(n/2) = theta_3(1/4, e^-1/200) = 9.4e-5 (Poisson: sqrt(200 pi) e^(-12.5) ...), so B = "
    "(theta_3 - 1)/2 = -0.49995...: almost all of the window's mass cancels. Tail rule on the "
    "partial sums (bound e^(-m^2/200)/(1 - e^(-m/100)) beyond), checked on the tails summed "
    "directly.",
    cached(_B_g200),
    cached(_trf_g200),
    others=True,
)


def _hyb_R(j):
    return mp.exp(-mp.mpf(j + 1) / 2) / (2 * -mp.expm1(-mp.mpf(1) / 2)) + mp.zeta(2, j + 1) / 2


def _hyb_trf():
    B = _hyb_R(0)
    out = R.int_trf_checked(_hyb_R, B, E4, hi=10**12)
    for e, j in out.items():
        if j < 10**5:
            terms = [mp.exp(-mp.mpf(n) / 2) / 2 + mp.mpf(1) / (2 * n * n) for n in range(1, j + 3)]
            assert R.trf_positive_checked(terms, B, B * TINY, [e]) == {e: j}
        else:
            z2 = R.hurwitz_em(2, j + 1)
            assert abs(z2 - mp.zeta(2, j + 1)) < mp.mpf(10) ** -40 * z2
    return out


add(
    "mix/alibi-head-plus-power-law-head",
    ["--rpe", "exp(-n/2)/2 + 1/(2*n**2)", *eps_args(E4)],
    True,
    "an ALiBi head and a power-law head averaged: B = 1/(2(e^(1/2) - 1)) + pi^2/12 = 1.5933...; "
    "R_j = e^(-(j+1)/2)/(2(1 - e^-1/2)) + zeta(2, j + 1)/2: the power-law head decides every "
    "small eps, TRF(1e-9) ~ 1/(2 eps B) ~ 3.1e8 (bisection; small crossings on the partial "
    "sums, large ones with zeta against Euler-Maclaurin).",
    closed(lambda: _hyb_R(0)),
    cached(_hyb_trf),
)


def _ld_f(x):
    return 1 / ((1 + x) * (1 + mp.log1p(x)) ** 2)


def _ld_Ia(U):  # int_(e^U)^oo dx/((1 + x)(1 + log(1 + x))^2) = 1/(1 + log(1 + e^U))
    U = mp.mpf(U)
    return 1 / (1 + U + mp.log1p(mp.exp(-U)))


def _ld_Ib(U):  # the same integral in u = log x, by quadrature
    U = mp.mpf(U)
    g = lambda u: mp.exp(u) * _ld_f(mp.exp(u))  # noqa: E731
    return mp.quad(g, [U, 2 * U, 8 * U, 64 * U, mp.inf])


_LD = R.SlowTail(_ld_f, 1, _ld_Ia, _ld_Ib)
add(
    "logdamp/one-over-one-plus-n-times-log-damping-squared",
    ["--rpe", "1/((1 + n)*(1 + log(1 + n))**2)", *eps_args(E3)],
    True,
    "a log-damped 1/(1 + n) kernel: antiderivative -1/(1 + log(1 + x)), so the tail from M is "
    "about 1/(1 + log M): converges (slowly). B = head + Euler-Maclaurin at 4000 and 8000 "
    "(integral closed and by quadrature); B = 0.6928..., TRF(0.1) exact (~6.8e5), TRF(0.01) ~ "
    "10^62.3 and TRF(0.001) ~ 10^626.5 as log10 (crossing of 1/(1 + log M) = eps B).",
    cached(_LD.B),
    cached(lambda: _LD.trf(E3)),
)
add(
    "logdamp/one-over-one-plus-log-cubed-verdict-only",
    ["--rpe", "1/(1 + log(1 + n))**3", "--verdict-only"],
    False,
    "(1 + log(1 + n))^3 < n for n >= 10^3 (log growth): b_n > 1/n, harmonic minorant: "
    "diverges (every log-damped kernel (1 + log(1 + n))^-q does).",
)

# ---------------------------------------------------------------------------------------
# 2. Named RPEs and their options
# ---------------------------------------------------------------------------------------
_T5_UP = ["-3.5", "-3", "-2.5", "-2", "-1.5", "-1", "-0.5", "0"]
add(
    "t5/increasing-values-truncate-64",
    [
        "--rpe",
        "t5",
        "--param",
        "num_buckets=8",
        "--param",
        "max_distance=32",
        "--bucket-values=" + ",".join(_T5_UP),
        "--truncate",
        "64",
        *eps_args((0.5, 0.1, 0.01)),
    ],
    False,
    "T5 (causal, 8 buckets, max_distance 32): buckets 0-3 exact, then 4 + floor(log(t/4)/log 8 "
    "x 4), the last bucket (value 0) from t = 32 on: b = 1 forever, diverges. Values increasing "
    "with distance (far keys weigh more). Truncated TRF (App. E, M = 64 terms): B_64 and the "
    "least j with B_64 - S_j < eps B_64 from the bucket formula (buckets checked two ways).",
    truncated=cached(lambda: R.truncated_trf(R.t5_terms(_T5_UP, 64, 8, 32), (0.5, 0.1, 0.01))),
    start=0,
)
_T5_POS = ["2", "1.75", "1.5", "1.25", "1", "0.75", "0.5", "0.25"] + ["9"] * 8
add(
    "t5/positive-values-bidirectional-truncate-200",
    [
        "--rpe",
        "t5",
        "--param",
        "num_buckets=16",
        "--param",
        "max_distance=50",
        "--param",
        "bidirectional=1",
        "--bucket-values=" + ",".join(_T5_POS),
        "--truncate",
        "200",
        *eps_args((0.5, 0.1, 0.01)),
    ],
    False,
    "bidirectional T5, 16 buckets: keys before the query use the lower 8 (4 exact, then 4 + "
    "floor(log(t/4)/log(12.5) x 4), the last from t = 50), the upper 8 (value 9) belong to keys "
    "after the query and never enter. Positive values, last 0.25: b = e^0.25 forever, "
    "diverges. Truncated TRF with M = 200 from the bucket formula (no tie: log(t/4)/log 12.5 x 4 "
    "is an integer only at t = 4 and t = 50).",
    truncated=cached(
        lambda: R.truncated_trf(R.t5_terms(_T5_POS, 200, 16, 50, True), (0.5, 0.1, 0.01))
    ),
    start=0,
)
add(
    "t5/all-equal-values-truncate-exact-ties",
    [
        "--rpe",
        "t5",
        "--param",
        "num_buckets=4",
        "--param",
        "max_distance=8",
        "--bucket-values=0,0,0,0",
        "--truncate",
        "100",
        *eps_args((0.999, 0.5, 0.1, 0.01)),
    ],
    False,
    "every bucket 0: b = 1 for every distance (no recency bias at all): diverges. Truncated "
    "TRF, M = 100: B_100 = 100, S_j = j, least j with j >= 100 (1 - eps) (App. E's "
    "pseudocode: `while s >= cusum * (1 - eps)`; Eq. 22 has > instead, and this reference "
    "first used it: 51, 91, 100): ties at 0.5, 0.1, 0.01 give 50, 90, 99; eps = 0.999: "
    "j >= 0.1: 1 (exact Fractions).",
    truncated=expect(
        lambda: R.truncated_trf([1] * 100, (0.999, 0.5, 0.1, 0.01)),
        {0.999: 1, 0.5: 50, 0.1: 90, 0.01: 99},
    ),
    start=0,
)
_T5_DEF = ["0"] + [repr(-i / 8) for i in range(1, 32)]
add(
    "t5/default-buckets-alibi-like-values-truncate-1000",
    [
        "--rpe",
        "t5",
        "--bucket-values=" + ",".join(_T5_DEF),
        "--truncate",
        "1000",
        *eps_args((0.5, 0.1, 0.01, 1e-3)),
    ],
    False,
    "default T5 (32 buckets, max_distance 128) with values -i/8: b = e^(-31/8) from t = 128 on, "
    "forever: diverges. Truncated TRF with M = 1000: the constant last bucket holds 872 of the "
    "1000 terms, so even TRF(0.5) lies deep in it.",
    truncated=cached(
        lambda: R.truncated_trf(R.t5_terms(_T5_DEF, 1000, 32, 128), (0.5, 0.1, 0.01, 1e-3))
    ),
    start=0,
)
add(
    "sandwich/d4-r4-diverges",
    ["--rpe", "sandwich", "--param", "d=4", "--param", "r=4"],
    False,
    "d = 4, r = 4: b_t = exp(cos(t/2) + cos(t/4) - 2). Dirichlet: |8 pi - p/q| < 1/q^2 for "
    "infinitely many p/q, so |p/4 - 2 pi q| < 1/(4q) and |p/2 - 4 pi q| < 1/(2q): b_p >= "
    "exp(-1/(8 q^2) - 1/(32 q^2)) -> 1. The terms do not tend to 0.",
    start=0,
)
_K001 = lambda: R.mpq("0.001")  # noqa: E731
_N6 = 10**6


def _alibi_far_trf():
    eps = (0.1, 1e-3, 1e-9)
    a = R.geo_trf_checked(_K001(), eps)
    B = mp.exp(-1000) / -mp.expm1(-_K001())
    b = R.int_trf_checked(
        lambda j: mp.exp(-_K001() * (_N6 + j)) / -mp.expm1(-_K001()), B, eps, hi=10**6
    )
    assert a == b == {0.1: 2303, 1e-3: 6908, 1e-9: 20724}, (a, b)
    return a


add(
    "alibi/k-0.001-start-1e6",
    ["--rpe", "alibi", "--param", "k=0.001", "--start", "1000000", *eps_args((0.1, 1e-3, 1e-9))],
    True,
    "e^(-n/1000) from n = 10^6: B = e^-1000/(1 - e^-0.001) = 5.08e-432 (the first term e^-1000 "
    "underflows every double), R_j/B = e^(-j/1000): TRF = floor(1000 ln(1/eps)) + 1 = 2303, "
    "6908, 20724.",
    closed(lambda: mp.exp(-1000) / -mp.expm1(-_K001())),
    cached(_alibi_far_trf),
    start=_N6,
)
_KL2 = cached(lambda: R.hurwitz_B("1.5", 4, mp.mpf(2) ** R.mpq("1.5")))
add(
    "kerple-log/r1.5-k0.5-start-2",
    [
        "--rpe",
        "kerple-log",
        "--param",
        "r=1.5",
        "--param",
        "k=0.5",
        "--start",
        "2",
        *eps_args((0.5, 0.1, 1e-3)),
    ],
    True,
    "(1 + n/2)^-1.5 = 2^1.5 (n + 2)^-1.5 from n = 2: B = 2^1.5 zeta(1.5, 4) = 3.016...; R_j = "
    "2^1.5 zeta(1.5, 4 + j) (bisection; small crossings on the partial sums).",
    _KL2,
    cached(lambda: R.hurwitz_trf("1.5", 4, mp.mpf(2) ** R.mpq("1.5"), _KL2()[0], (0.5, 0.1, 1e-3))),
    start=2,
)
_g10 = lambda n: mp.exp(-(mp.mpf(n) ** 2) / 100)  # noqa: E731


def _B_g10():
    th = (mp.jtheta(3, 0, mp.exp(-mp.mpf(1) / 100)) - 1) / 2 - mp.fsum(
        _g10(n) for n in range(1, 10)
    )
    d = mp.fsum(_g10(n) for n in range(10, 400))  # the rest < e^-1600
    assert abs(th - d) < mp.mpf(10) ** -40, (th, d)
    return th, th * TINY


_B_g10c = cached(_B_g10)
add(
    "kerple-power/r2-k0.01-start-10",
    [
        "--rpe",
        "kerple-power",
        "--param",
        "r=2",
        "--param",
        "k=0.01",
        "--start",
        "10",
        *eps_args(E4),
    ],
    True,
    "e^(-n^2/100) from n = 10: B = (theta_3(0, e^-1/100) - 1)/2 - sum_(n<10) e^(-n^2/100) = "
    "1.59... (checked on the direct sum to 400); TRF from the partial sums (term k is "
    "b_(10+k)).",
    _B_g10c,
    cached(lambda: R.trf_positive_checked([_g10(n) for n in range(10, 300)], *_B_g10c(), E4)),
    start=10,
)
_K6 = lambda: mp.mpf(10) ** -6  # noqa: E731


def _kp_far_trf():
    eps = E3
    a = R.geo_trf_checked(_K6(), eps)
    B = mp.exp(-1) / -mp.expm1(-_K6())
    b = R.int_trf_checked(
        lambda j: mp.exp(-_K6() * (_N6 + j)) / -mp.expm1(-_K6()), B, eps, hi=10**9
    )
    assert a == b == {0.1: 2302586, 0.01: 4605171, 0.001: 6907756}, (a, b)
    return a


add(
    "kerple-power/r1-k1e-6-start-1e6",
    [
        "--rpe",
        "kerple-power",
        "--param",
        "r=1",
        "--param",
        "k=1e-6",
        "--start",
        "1000000",
        *eps_args(E3),
    ],
    True,
    "r = 1: e^(-k n), k = 10^-6, from n = 10^6: B = e^-1/(1 - e^(-10^-6)) = 367879.6...; R_j/B "
    "= e^(-k j): TRF = floor(10^6 ln(1/eps)) + 1 = 2302586, 4605171, 6907756.",
    closed(lambda: mp.exp(-1) / -mp.expm1(-_K6())),
    cached(_kp_far_trf),
    start=_N6,
)
add(
    "alibi/start-2",
    ["--rpe", "alibi", "--start", "2", *eps_args(E4)],
    True,
    "e^-n from n = 2: B = e^-2/(1 - e^-1), R_j/B = e^-j: TRF = floor(ln(1/eps)) + 1 = 1, 2, 10, "
    "21 (ln 2 = 0.69, ln 5 = 1.61, ln 1e4 = 9.21, ln 1e9 = 20.72).",
    closed(lambda: mp.exp(-2) / -mp.expm1(-1)),
    expect(lambda: R.geo_trf_checked(mp.mpf(1), E4), {0.5: 1, 0.2: 2, 1e-4: 10, 1e-9: 21}),
    start=2,
)
add(
    "kerple-log/r1-harmonic-boundary-verdict-only",
    ["--rpe", "kerple-log", "--param", "r=1", "--param", "k=0.25", "--verdict-only"],
    False,
    "(1 + n/4)^-1 = 4/(n + 4): a harmonic tail (Kerple log converges iff r > 1): diverges.",
    start=0,
)

# ---------------------------------------------------------------------------------------
# 3. Options: --truncate on a convergent series, --compare (Thm 3.5)
# ---------------------------------------------------------------------------------------
_K16 = cached(lambda: R.hurwitz_B("1.25", 17, mp.mpf(32)))
_E_TR = (0.5, 0.1, 0.01)
add(
    "opt/kerple-decimal-truncate-1000",
    ["--rpe", "(1 + n/16)**(-1.25)", "--truncate", "1000", *eps_args(_E_TR)],
    True,
    "(1 + n/16)^-1.25 = 32 (n + 16)^-1.25: B = 32 zeta(1.25, 17) ~ 63.5, R_j = 32 zeta(1.25, 17 + "
    "j) ~ 128 (j + 17)^-1/4: TRF ~ 250, 1.7e5, 1.7e9. The truncated TRF (M = 1000 terms, B_1000 "
    "= their sum) is far smaller than the full one at 0.1 and 0.01 (App. E underestimates a slow "
    "tail): from the partial sums of the 1000 terms.",
    _K16,
    cached(lambda: R.hurwitz_trf("1.25", 17, mp.mpf(32), _K16()[0], _E_TR)),
    truncated=cached(
        lambda: R.truncated_trf([32 * mp.mpf(k + 17) ** R.mpq("-1.25") for k in range(1000)], _E_TR)
    ),
)
_CMP_EXP4 = R.GeoMix([1], [F(1, 4)])
add(
    "opt/compare-two-head-mean-with-one-head",
    ["--rpe", "(exp(-n/2) + exp(-n/8))/2", "--compare", "exp(-n/4)", *eps_args(E3)],
    True,
    "Thm 3.5: (b1/B1)/(b2/B2) -> oo (e^(-n/8) against e^(-n/4)), so b2/B2 < b1/B1 for large n "
    "and TRF2 <= TRF1 for small eps: the series compared with (2) has the smaller TRF. TRF1 as "
    "in mix/two-alibi-heads-mean, TRF2 = floor(4 ln(1/eps)) + 1 = 10, 19, 28.",
    cached(_MIX2.B),
    cached(lambda: _MIX2.trf(E3)),
    compare=(
        2,
        expect(
            cached(lambda: _CMP_EXP4.trf(E3)),
            {0.1: 10, 0.01: 19, 0.001: 28},
        ),
    ),
)
_E_SQ = (0.1, 1e-6, 1e-9)
_Z3 = cached(lambda: R.hurwitz_B(3, 1, mp.mpf(1)))
add(
    "opt/compare-stretched-with-cubic-crossover",
    ["--rpe", "exp(-sqrt(n)/4)", "--compare", "n**(-3)", *eps_args(_E_SQ)],
    True,
    "b1/b2 = n^3 e^(-sqrt(n)/4) -> 0, so b1/B1 < b2/B2 for large n and TRF1 <= TRF2 for small "
    "eps (Thm 3.5): (1) is smaller, although at eps = 0.1 and 1e-6 TRF1 is the larger (about "
    "244 against 2, 4464 against 645); by 1e-9 TRF1 ~ 9e3 < TRF2 ~ 2e4. TRF2: least j with "
    "zeta(3, j + 1) < eps zeta(3).",
    _Bsq4c,
    cached(lambda: {e: _TSQ4()[e] for e in _E_SQ}),
    compare=(1, cached(lambda: R.hurwitz_trf(3, 1, mp.mpf(1), _Z3()[0], _E_SQ))),
)
_Z15 = cached(lambda: R.hurwitz_B("1.5", 1, mp.mpf(1)))
add(
    "opt/compare-kerple-with-pure-power-same-exponent",
    ["--rpe", "(1 + n/64)**(-1.5)", "--compare", "n**(-1.5)", *eps_args((0.1, 0.01))],
    True,
    "same exponent 1.5, different normalisation: (b1/B1)/(b2/B2) -> 512 zeta(1.5)/(512 zeta(1.5, "
    "65)) = zeta(1.5)/zeta(1.5, 65) ~ 10.4 > 1, so TRF2 <= TRF1 for small eps (Thm 3.5; also "
    "TRF_i ~ (2 C_i/(eps B_i))^2): (2) is smaller. TRF2: least j with zeta(1.5, j + 1) < eps "
    "zeta(1.5).",
    _K64,
    cached(lambda: R.hurwitz_trf("1.5", 65, mp.mpf(512), _K64()[0], (0.1, 0.01))),
    compare=(2, cached(lambda: R.hurwitz_trf("1.5", 1, mp.mpf(1), _Z15()[0], (0.1, 0.01)))),
)

# ---------------------------------------------------------------------------------------
# 4. Input that must be refused (exit 2, one error line)
# ---------------------------------------------------------------------------------------
add(
    "refuse/eps-one-among-valid",
    ["--rpe", "(exp(-n/2) + exp(-n/8))/2", "--eps", "0.1", "1"],
    None,
    "each eps must lie in (0, 1) (--help); eps = 1 asks for a partial sum above B (1 - 1) = 0.",
)
add(
    "refuse/eps-nan",
    ["--rpe", "exp(-n/8)*cos(n/3)", "--eps", "nan"],
    None,
    "eps = NaN is no tolerance in (0, 1).",
)
add(
    "refuse/unknown-function-softplus",
    ["--rpe", "exp(-softplus(n))"],
    None,
    "softplus is not among the functions of the whitelist parser (docs/guide/series.md): "
    "the formula cannot be read.",
)
add(
    "refuse/pole-at-n-3",
    ["--rpe", "exp(-n/8)/(n - 3)**2"],
    None,
    "from n = 1 the third term is e^(-3/8)/0: the series is not defined.",
)
add(
    "refuse/kerple-log-negative-start",
    ["--rpe", "kerple-log", "--start=-1"],
    None,
    "a negative start (distances are >= 0); and (1 + n)^-2 has a pole at n = -1 itself.",
)
add(
    "refuse/param-not-in-formula",
    ["--rpe", "exp(-n/L)", "--param", "l=8"],
    None,
    "the formula's L is not declared (the --param names l, which the formula does not use): "
    "a typo, not a value for L.",
)
add(
    "refuse/bias-file-text-garbage",
    ["--bias-file", "BIAS.txt", "--bias-tail", "zero"],
    None,
    "a bias file is one finite real number per distance; 'head 3' is none.",
    files={"BIAS.txt": b"0\n-0.5\nhead 3\n-1\n"},
)
add(
    "refuse/bias-file-empty",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear"],
    None,
    "an empty file holds no bias value (and a linear tail needs two).",
    files={"BIAS.txt": b""},
)
add(
    "refuse/compare-unknown-function",
    ["--rpe", "exp(-n/8)", "--compare", "exp(-gelu(n))"],
    None,
    "the series to compare with uses gelu, not a whitelisted function.",
)
add(
    "refuse/truncate-negative",
    ["--rpe", "exp(-n/8)", "--truncate=-10"],
    None,
    "the truncated TRF sums M >= 1 terms; M = -10 is no number of terms.",
)

# ---------------------------------------------------------------------------------------
# 5. Proved verdicts with hard B, and open problems
# ---------------------------------------------------------------------------------------
add(
    "hard/exp-minus-n-abs-sin-verdict-only",
    ["--rpe", "exp(-n*Abs(sin(n)))", "--verdict-only"],
    False,
    "Dirichlet: |pi - p/q| < 1/q^2 infinitely often, then |sin p| = |sin(p - q pi)| < 1/q and "
    "p |sin p| < p/q < pi + 1: b_p > e^(-pi - 1). The terms do not tend to 0: diverges.",
)
add(
    "hard/exp-minus-sqrt-n-abs-sin",
    ["--rpe", "exp(-sqrt(n)*Abs(sin(n)))"],
    False,
    "as above, sqrt(p) |sin p| < sqrt(p)/q ~ sqrt(pi/q) -> 0 along the convergents p/q of pi: "
    "b_p -> 1, so the terms do not tend to 0: diverges.",
)
add(
    "hard/stretched-times-two-plus-cos-verdict-only",
    ["--rpe", "exp(-0.3*n**0.7)*(2 + cos(n))", "--verdict-only"],
    True,
    "0 < b <= 3 e^(-0.3 n^0.7), a convergent majorant: converges.",
)
add(
    "open/exp-minus-n2-abs-sin",
    ["--rpe", "exp(-n**2*Abs(sin(n)))"],
    "open",
    "|sin n| >= (2/pi) k |n/k - pi| (k the nearest multiple): if mu(pi) < 3, |sin n| >= c "
    "n^(1 - mu - d) and n^2 |sin n| >= c n^(3 - mu - d) -> oo as a power: b_n <= e^(-c n^d') "
    "converges. If mu(pi) > 3, |pi - p/q| < q^(-3-d) infinitely often and p^2 |sin p| < p^2 "
    "q^(-2-d) -> 0: b_p -> 1, diverges. Known: 2 <= mu(pi) <= 7.1033 (Zeilberger-Zudilin): "
    "open.",
)
add(
    "open/n2-abs-sin",
    ["--rpe", "1/(n**2*Abs(sin(n)))"],
    "open",
    "Flint Hills type sum n^-u |sin n|^-v with u = 2, v = 1: if mu(pi) > 1 + u/v = 3 the terms "
    "p^-2/|sin p| ~ q^(mu - 3) do not tend to 0 (diverges); if mu(pi) = 2 (as conjectured) the "
    "discrepancy of n/pi is O(N^(-1 + d)) and the dyadic blocks sum to O(N^(-1 + d)): "
    "converges. 2 <= mu(pi) <= 7.1033 allows both: open.",
)

# ---------------------------------------------------------------------------------------
# 6. Free parameters (the region proved on the whole line)
# ---------------------------------------------------------------------------------------
fam(
    "free/exp-a-n-times-n-b",
    ["--rpe", "exp(-a*n)*n**b", "--free", "a", "--free", "b"],
    lambda d: d["a"] > 0 or (d["a"] == 0 and d["b"] < -1),
    [{"a": a, "b": b} for a in (-1, 0, 0.5) for b in (-3, -1, 0, 2)],
    "a > 0: ratio e^-a < 1, converges for every b; a = 0: the p-series n^b, converges iff b < "
    "-1; a < 0: b_n -> oo. Converges iff a > 0 or (a = 0 and b < -1).",
)
fam(
    "free/one-plus-n-over-L-pow-minus-r",
    ["--rpe", "(1 + n/L)**(-r)", "--free", "L", "--free", "r", "--assume", "L>0"],
    lambda d: d["r"] > 1,
    [{"L": L, "r": r} for L in (0.5, 1, 64) for r in (-1, 0, 1, 1.5, 3)],
    "L > 0: 1 + n/L > 0 and (1 + n/L)^-r ~ L^r n^-r: converges iff r > 1 (r = 1 harmonic, r <= "
    "0 terms >= 1).",
)
fam(
    "free/one-plus-k-n2-pow-minus-r",
    ["--rpe", "(1 + k*n**2)**(-r)", "--free", "k", "--free", "r", "--assume", "k>0"],
    lambda d: d["r"] > 0.5,
    [{"k": k, "r": r} for k in (0.01, 1, 100) for r in (-1, 0, 0.25, 0.5, 0.75, 2)],
    "k > 0: (1 + k n^2)^-r ~ k^-r n^(-2r): converges iff 2r > 1, i.e. r > 1/2 (r = 1/2: ~ "
    "1/(sqrt(k) n), harmonic).",
)
fam(
    "free/n-pow-minus-p-log-one-plus-n-pow-q",
    ["--rpe", "n**(-p)*log(1 + n)**q", "--free", "p", "--free", "q"],
    lambda d: d["p"] > 1 or (d["p"] == 1 and d["q"] < -1),
    [{"p": p, "q": q} for p in (0, 0.5, 1, 1.5) for q in (-3, -1, 0, 2)],
    "log(1 + n) ~ log n >= log 2 > 0: Bertrand: n^-p log(1 + n)^q converges iff p > 1, or p = 1 "
    "and q < -1 (Cauchy condensation / integral test); p < 1: >= 1/n for large n.",
)
fam(
    "free/exp-minus-n-pow-a-whole-line",
    ["--rpe", "exp(-n**a)", "--free", "a"],
    lambda d: d["a"] > 0,
    [{"a": a} for a in (-1, -0.5, 0, 0.1, 0.5, 1, 3)],
    "a > 0: n^a >= 2 log n eventually, b <= n^-2; a = 0: b = e^-1 constant; a < 0: n^a -> 0, "
    "b -> 1. Converges iff a > 0.",
)
fam(
    "free/alibi-slope-plus-power-head",
    ["--rpe", "exp(-a*n) + n**(-2)", "--free", "a"],
    lambda d: d["a"] > 0,
    [{"a": a} for a in (-1, 0, 0.01, 1)],
    "positive terms: converges iff both parts do; sum n^-2 converges, sum e^(-a n) iff a > 0 "
    "(a = 0: 1 + n^-2 >= 1). Converges iff a > 0.",
)
fam(
    "free/xpos-decay-a-times-cos-n",
    ["--rpe", "exp(-a*n)*cos(n)", "--free", "a"],
    lambda d: d["a"] > 0,
    [{"a": a} for a in (-0.5, 0, 0.05, 1)],
    "a > 0: |b| <= e^(-a n), absolutely. a = 0: cos n does not tend to 0 (|cos n| >= 1/2 for "
    "infinitely many n, n mod 2 pi is dense); a < 0: |b_n| >= e^(|a| n)/2 for those n. "
    "Converges iff a > 0.",
    others=True,
)
fam(
    "free/log-damped-kernel-never",
    ["--rpe", "(1 + log(1 + n))**(-q)", "--free", "q"],
    lambda d: False,
    [{"q": q} for q in (-1, 0, 1, 3, 10)],
    "(1 + log(1 + n))^q = o(n) for every real q: b_n >= 1/n for large n: diverges for every q.",
)
fam(
    "free/exp-minus-c-sqrt-n-times-n-p",
    ["--rpe", "exp(-c*sqrt(n))*n**p", "--free", "c", "--free", "p"],
    lambda d: d["c"] > 0 or (d["c"] == 0 and d["p"] < -1),
    [{"c": c, "p": p} for c in (-1, 0, 0.5) for p in (-2, -1, 0, 5)],
    "c > 0: e^(-c sqrt(n)) n^p <= n^-2 eventually for every p; c = 0: the p-series n^p, iff p < "
    "-1; c < 0: -> oo. Converges iff c > 0 or (c = 0 and p < -1).",
)
fam(
    "free/exp-minus-a-n-pow-b-a-positive",
    ["--rpe", "exp(-a*n**b)", "--free", "a", "--free", "b", "--assume", "a>0"],
    lambda d: d["b"] > 0,
    [{"a": a, "b": b} for a in (0.3, 2) for b in (-1, 0, 0.7, 2)],
    "a > 0: b > 0 gives a stretched (b < 1) or faster exponential, b <= n^-2 eventually; b = 0: "
    "e^-a constant; b < 0: e^(-a n^b) -> 1. Converges iff b > 0.",
)

#: series for the Ctrl-C trials (each runs long enough to be interrupted)
SIGINT_SERIES = [
    ["--rpe", "1/((1 + n)*(1 + log(1 + n))**2)"],
    ["--rpe", "exp(-n**2*Abs(sin(n)))"],
]

#: no extra cases: the whole set runs by default
EXTRA_CASES: list[Case] = []
assert len({c.id for c in CASES}) == len(CASES)
