"""Held-out set 6 for ``python -m theory.trf``: bias files, named RPEs with unusual
parameters, free parameters on grids, slowly converging, signed and oscillating series,
Max/Min/Abs/sqrt of trigonometric terms, products and factorials, and errors.

Written from the mathematics alone.  Each case carries its reference: the verdict with its
argument, B (closed form, or mpmath with a bounded remainder, ``heldout6_reference``), exact
TRFs (least N with R_N < eps B, positive terms) or log10 TRF, and for free parameters the
true region of convergence checked on a grid that includes its boundary.  ``others`` marks
families that another change owns (recorded, not fixed here).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import mpmath as mp
import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from heldout6_reference import (  # noqa: E402
    bias_reference,
    decimal,
    em_tail,
    positive_series_sum,
)

mp.mp.dps = 50
EPS = ("0.1", "0.01", "0.001")


@dataclass
class Case:
    id: str
    args: list
    verdict: bool | None = None  # None: an error is expected (exit 2)
    B: object = None  # callable -> (value, abs error bound) or None
    trf: object = None  # callable -> {eps: int | ("log10", value, tol)}
    cond: object = None  # (predicate(dict) -> bool, grid list of dicts)
    files: dict = field(default_factory=dict)  # name -> bytes (written beside the run)
    start: int | None = None
    others: bool = False
    slow: bool = False
    scaled: bool = False  # B compared as exp(M) x [scaled bracket]


def _tail_trf(tail_after, B, eps_list=EPS, huge=None) -> dict:
    """Exact TRF by bisection on a decreasing tail; ``huge(eps)`` gives log10 TRF instead
    where N would exceed 1e15 (the tool brackets those)."""
    out = {}
    for eps in eps_list:
        target = decimal(eps) * B
        if huge is not None:
            lg = huge(eps)
            if lg > 15:
                out[eps] = ("log10", lg, 1e-6)
                continue
        lo, hi = -1, 1
        while tail_after(hi) >= target:
            lo, hi = hi, hi * 4
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if tail_after(mid) < target:
                hi = mid
            else:
                lo = mid
        out[eps] = hi
    return out


def _closed(value):
    return lambda: (mp.mpf(value) if not callable(value) else value(), mp.mpf("1e-45"))


# ------------------------------------------------------------------------------------------
# bias files (distances 0..L-1, start 0); references from the exact binary values
# ------------------------------------------------------------------------------------------
def _text(values) -> bytes:
    return ("\n".join(repr(float(v)) for v in values) + "\n").encode()


def _npy(arr) -> bytes:
    import io

    buf = io.BytesIO()
    np.save(buf, arr)
    return buf.getvalue()


def _bias(cid, values, tail, fname="b.txt", raw=None, eps=EPS, scaled=False, others=False):
    data = raw if raw is not None else _text(values)
    exact = [float(v) for v in values]

    @cache
    def ref():
        return bias_reference(exact, tail, list(eps))

    verdict = bias_reference(exact, tail, []).get("converges")
    args = ["--bias-file", fname, "--bias-tail", tail]
    if eps != EPS:
        args += ["--eps", *eps]
    return Case(
        cid,
        args,
        verdict=verdict,
        B=(lambda: (ref()["B"], mp.mpf(0))) if verdict else None,
        trf=(lambda: ref()["trf"]) if verdict else None,
        files={fname: data},
        start=0,
        scaled=scaled,
        others=others,
    )


ULP_BELOW_M1 = float(np.nextafter(-1.0, -2.0))  # -1 - 2^-52
SUB = 5e-324  # 2^-1074, the least subnormal
CASES: list[Case] = []
CASES += [
    # 33 decimals 0, -0.1, ..., -3.2 (as float64), linear tail: slope of the last 3 binary
    # values, B = head + e^last q/(1-q) (heldout6_reference.bias_reference)
    _bias("bias-decimal-linear", [-i / 10 for i in range(33)], "linear"),
    # values one ulp apart, decreasing: slope -2^-52 * ..., B ~ e^-1 / 2.2e-16, TRF ~ 1e16
    _bias(
        "bias-ulp-decreasing-linear",
        [-1.0, ULP_BELOW_M1, float(np.nextafter(ULP_BELOW_M1, -2))],
        "linear",
    ),
    # one ulp increasing: slope > 0, b_n -> oo: diverges
    _bias("bias-ulp-increasing-linear", [-1.0, float(np.nextafter(-1.0, 0.0))], "linear"),
    # equal values, linear: slope exactly 0, b_n = e^-2 forever: diverges
    _bias("bias-flat-linear", [-2.0, -2.0, -2.0], "linear"),
    # constant tail: b_n = e^last > 0 forever: diverges
    _bias("bias-constant-tail", [0.0, -1.0, -2.0], "constant"),
    # zero tail: four terms; TRF at eps 0.97: R_1 = B - 1 >= 0.03 B, R_2 < 0.03 B
    _bias("bias-zero-dyadic", [0.0, -0.5, -1.25, 3.5], "zero", eps=("0.1", "0.97")),
    # 1e308 twice, -1e308, zero tail: B = e^1e308 (2 + e^-2e308): scaled bracket ~ 2
    _bias("bias-1e308-twice", [1e308, 1e308, -1e308], "zero", eps=("0.1", "0.6"), scaled=True),
    _bias("bias-1e308-constant", [1e308, 0.0], "constant"),
    # all -1e308, slope 0: diverges (e^-1e308 forever)
    _bias("bias-m1e308-linear-flat", [-1e308, -1e308, -1e308], "linear"),
    # B = 2 e^-1e308: scaled bracket ~ 2; TRF(0.1) = 2, TRF(0.6) = 1
    _bias("bias-m1e308-zero", [-1e308, -1e308], "zero", eps=("0.1", "0.6"), scaled=True),
    # slope -2e308 (beyond float64, exact as a rational): B = e^1e308 (1 + ...), TRF 1
    _bias("bias-1e308-steep-linear", [1e308, -1e308], "linear", scaled=True),
    # subnormals: B = 1 + 2 cosh(2^-1074); TRF 3, 2, 1 at eps 0.1, 0.5, 0.7
    _bias("bias-subnormal-zero", [SUB, 0.0, -SUB], "zero", eps=("0.1", "0.5", "0.7")),
    # slope -2^-1074: b_n = e^(-n x), B = 1/(1 - e^-x) ~ 2^1074, TRF ~ ln(1/eps) 2^1074
    _bias("bias-subnormal-slope", [0.0, -SUB], "linear"),
    # beyond float64 exp: e^710 (float64 overflow) and e^-1000 (underflow)
    _bias("bias-overflow-underflow", [710.0, 709.5, -745.5, -1000.0], "zero", eps=("0.1", "0.3")),
    # float32 .npy: the float32 binary values of -0.1 ... -1.0 (m = 2)
    _bias(
        "bias-float32-npy",
        [float(v) for v in np.float32(-np.arange(1, 11) / 10)],
        "linear",
        fname="b32.npy",
        raw=_npy(np.float32(-np.arange(1, 11) / 10)),
    ),
    # 1000 float64 values -0.01 i (m = 100): B from the exact binary values
    _bias(
        "bias-1000-npy",
        list(-0.01 * np.arange(1000)),
        "linear",
        fname="b1000.npy",
        raw=_npy(-0.01 * np.arange(1000)),
    ),
    # integer .npy, zero tail: B = 1 + e^-1 + e^-2
    _bias("bias-int-npy", [0, -1, -2], "zero", fname="bi.npy", raw=_npy(np.array([0, -1, -2]))),
]
# refused inputs: exit 2 and one `error:` line naming the problem
CASES += [
    Case("bias-nan", ["--bias-file", "e.txt"], files={"e.txt": b"0\nnan\n-1\n"}),
    Case("bias-inf", ["--bias-file", "e.txt"], files={"e.txt": b"0\n-inf\n"}),
    Case("bias-1e309", ["--bias-file", "e.txt"], files={"e.txt": b"0\n1e309\n"}),
    Case("bias-empty", ["--bias-file", "e.txt"], files={"e.txt": b""}),
    Case("bias-2d", ["--bias-file", "e.txt"], files={"e.txt": b"0 1\n2 3\n"}),
    Case(
        "bias-one-linear",
        ["--bias-file", "e.txt", "--bias-tail", "linear"],
        files={"e.txt": b"-1\n"},
    ),
]

# ------------------------------------------------------------------------------------------
# named RPEs with unusual parameters
# ------------------------------------------------------------------------------------------


def _alibi(k):
    k = mp.mpf(k)
    # B = sum_(n>=0) e^(-k n) = 1/(1 - e^-k); R_N = e^(-k N) B, so TRF = floor(ln(1/eps)/k) + 1
    B = lambda: (1 / -mp.expm1(-k), mp.mpf(0))  # noqa: E731
    trf = lambda: {
        e: (
            int(mp.floor(mp.log(1 / decimal(e)) / k)) + 1
            if mp.log(1 / decimal(e)) / k < 1e15
            else ("log10", float(mp.log10(mp.log(1 / decimal(e)) / k)), 1e-9)
        )
        for e in EPS
    }  # noqa: E501,E731
    return B, trf


CASES += [
    Case(
        "alibi-k=2**-700",
        ["--rpe", "alibi", "--param", "k=2**(-700)"],
        True,
        *_alibi(mp.mpf(2) ** -700),
        start=0,
    ),
    Case("alibi-k=1000", ["--rpe", "alibi", "--param", "k=1000"], True, *_alibi(1000), start=0),
    Case("alibi-k=0.5", ["--rpe", "alibi", "--param", "k=0.5"], True, *_alibi("0.5"), start=0),
    # (1 + n)^-1 from n = 0: the harmonic series
    Case("kerple-log-r=1", ["--rpe", "kerple-log", "--param", "r=1"], False, start=0),
    # B = zeta(r) (k = 1, n >= 0); R_N = zeta(r, N+1) ~ (N+1)^(1-r)/(r-1): log10 TRF from
    # (r-1)^-1 x^(1-r) = eps zeta(r)  (x^-r/2 below 10^-10^6)
    Case(
        "kerple-log-r=1.000001",
        ["--rpe", "kerple-log", "--param", "r=1.000001"],
        True,
        lambda: (mp.zeta(mp.mpf(1000001) / 10**6), mp.mpf(0)),
        lambda: {
            e: (
                "log10",
                float(
                    mp.log(decimal(e) * mp.zeta(mp.mpf(1000001) / 10**6) * mp.mpf(1) / 10**6)
                    / (-mp.mpf(1) / 10**6)
                    / mp.log(10)
                ),
                1e-3,
            )
            for e in EPS
        },
        start=0,
        slow=True,
    ),
    # (1 + n/4)^-3 = 64 (n + 4)^-3: B = 64 zeta(3, 4), R_N = 64 zeta(3, 4 + N)
    Case(
        "kerple-log-k=0.25-r=3",
        ["--rpe", "kerple-log", "--param", "k=0.25", "--param", "r=3"],
        True,
        lambda: (64 * mp.zeta(3, 4), mp.mpf(0)),
        lambda: _tail_trf(lambda N: 64 * mp.zeta(3, 4 + N), 64 * mp.zeta(3, 4)),
        start=0,
    ),
    # (1 + 10^6 n)^-2: B = 1 + 10^-12 zeta(2, 1 + 10^-6); TRF 1 for eps 0.1..0.001
    Case(
        "kerple-log-k=1e6",
        ["--rpe", "kerple-log", "--param", "k=1e6"],
        True,
        lambda: (1 + mp.mpf(10) ** -12 * mp.zeta(2, 1 + mp.mpf(10) ** -6), mp.mpf(0)),
        lambda: {e: 1 for e in EPS},
        start=0,
    ),
]


@cache
def _kp_half():
    # e^-sqrt(x): int_a^oo = 2 (sqrt(a) + 1) e^-sqrt(a); EM from a = 3000 (e^-54.8)
    f = lambda x: mp.exp(-mp.sqrt(x))  # noqa: E731
    ii = lambda a: 2 * (mp.sqrt(a) + 1) * mp.exp(-mp.sqrt(a))  # noqa: E731
    B, err = positive_series_sum(f, ii, 0, 3000)
    partial = [mp.mpf(0)]
    for n in range(3000):
        partial.append(partial[-1] + f(n))
    return B, err, lambda N: B - partial[N]


@cache
def _kp_tenth():
    # e^(-x^(1/10)): int_a^oo = 10 Gamma(10, a^(1/10)); head n < 2000, EM beyond
    f = lambda x: mp.exp(-mp.power(x, mp.mpf(1) / 10))  # noqa: E731
    ii = lambda a: 10 * mp.gammainc(10, mp.power(a, mp.mpf(1) / 10))  # noqa: E731
    B, err = positive_series_sum(f, ii, 0, 2000)

    def tail(N):
        return em_tail(f, ii, N)[0] if N >= 2000 else B - mp.fsum(f(n) for n in range(N))

    return B, err, tail


@cache
def _kp_gauss():
    # e^(-n^2/1024), n >= 0: B = (1 + theta_3(0, e^-1/1024))/2 (Jacobi theta)
    q = mp.exp(-mp.mpf(1) / 1024)
    B = (1 + mp.jtheta(3, 0, q)) / 2
    return B, lambda N: B - mp.fsum(mp.exp(-(mp.mpf(n) ** 2) / 1024) for n in range(N))


CASES += [
    Case(
        "kerple-power-r=0.5",
        ["--rpe", "kerple-power", "--param", "r=0.5"],
        True,
        lambda: _kp_half()[:2],
        lambda: _tail_trf(_kp_half()[2], _kp_half()[0]),
        start=0,
    ),
    Case(
        "kerple-power-r=0.1",
        ["--rpe", "kerple-power", "--param", "r=0.1"],
        True,
        lambda: _kp_tenth()[:2],
        lambda: _tail_trf(_kp_tenth()[2], _kp_tenth()[0]),
        start=0,
        slow=True,
    ),
    Case(
        "kerple-power-r=2-k=2^-10",
        ["--rpe", "kerple-power", "--param", "r=2", "--param", "k=0.0009765625"],
        True,
        lambda: (_kp_gauss()[0], mp.mpf(0)),
        lambda: _tail_trf(_kp_gauss()[1], _kp_gauss()[0]),
        start=0,
    ),
    # e^(-n^3): B = sum_(n<12) e^(-n^3) + (< e^-1700); TRF(0.1) = 2 (R_1 = 0.3681 + ...)
    Case(
        "kerple-power-r=3",
        ["--rpe", "kerple-power", "--param", "r=3"],
        True,
        lambda: (mp.fsum(mp.exp(-(mp.mpf(n) ** 3)) for n in range(12)), mp.mpf(0)),
        lambda: _tail_trf(
            lambda N: mp.fsum(mp.exp(-(mp.mpf(n) ** 3)) for n in range(N, 12)),
            mp.fsum(mp.exp(-(mp.mpf(n) ** 3)) for n in range(12)),
        ),
        start=0,
    ),
    # exp(k sum_j (cos(n theta_j) - 1)) <= 1: by Dirichlet's simultaneous approximation the
    # angles n theta_j / 2 pi are all within delta of an integer for infinitely many n, so
    # b_n >= e^(-k d delta^2 ...) infinitely often: the terms do not tend to 0, diverges
    Case(
        "sandwich-d=4-r=2-k=100",
        ["--rpe", "sandwich", "--param", "d=4", "--param", "r=2", "--param", "k=100"],
        False,
        start=0,
    ),
    Case("sandwich-default", ["--rpe", "sandwich"], False, start=0),
    # t5: the last bucket's value is a constant tail e^v > 0: diverges, whatever the values
    Case(
        "t5-max_distance=1e7",
        [
            "--rpe",
            "t5",
            "--param",
            "max_distance=10000000",
            "--bucket-values=" + ",".join(str(-i / 4) for i in range(32)),
        ],
        False,
        start=0,
    ),
    Case(
        "t5-bidirectional-8",
        [
            "--rpe",
            "t5",
            "--param",
            "num_buckets=8",
            "--param",
            "max_distance=16",
            "--param",
            "bidirectional=true",
            "--bucket-values=" + ",".join(str(-i) for i in range(8)),
        ],
        False,
        start=0,
    ),
    Case("t5-num_buckets=1", ["--rpe", "t5", "--param", "num_buckets=1"]),
    Case(
        "t5-max_distance=2",
        ["--rpe", "t5", "--param", "max_distance=2", "--bucket-values=" + ",".join(["0"] * 32)],
    ),
    # type1 from n = 5: B = zeta(2) - 1 - 1/4 - 1/9 - 1/16 = zeta(2, 5); R_N = zeta(2, 5 + N)
    Case(
        "type1-start=5",
        ["--rpe", "type1", "--start", "5"],
        True,
        lambda: (mp.zeta(2, 5), mp.mpf(0)),
        lambda: _tail_trf(lambda N: mp.zeta(2, 5 + N), mp.zeta(2, 5)),
        start=5,
    ),
    Case("inv-nlogn", ["--rpe", "inv-nlogn"], False),
    Case("alibi-k=-1", ["--rpe", "alibi", "--param", "k=-1"]),
    Case("alibi-unknown-param", ["--rpe", "alibi", "--param", "z=1"]),
    Case("kerple-log-r=0", ["--rpe", "kerple-log", "--param", "r=0"]),
]


@cache
def _type2():
    # e^(-ln^2 x): int_a^oo = int_(ln a)^oo e^(t - t^2) dt = sqrt(pi) e^(1/4) erfc(ln a - 1/2)/2
    f = lambda x: mp.exp(-(mp.log(x) ** 2))  # noqa: E731
    ii = lambda a: mp.sqrt(mp.pi) * mp.exp(mp.mpf(1) / 4) * mp.erfc(mp.log(a) - 0.5) / 2  # noqa: E731
    B, err = positive_series_sum(f, ii, 1, 500)
    return (
        B,
        err,
        lambda N: (
            em_tail(f, ii, 1 + N)[0]
            if N >= 499
            else B - mp.fsum(f(mp.mpf(n)) for n in range(1, 1 + N))
        ),
    )


CASES += [
    Case(
        "type2-eps=1e-30",
        ["--rpe", "type2", "--eps", "1e-30", "0.5"],
        True,
        lambda: _type2()[:2],
        lambda: _tail_trf(_type2()[2], _type2()[0], ("1e-30", "0.5")),
        start=1,
    ),
]

# ------------------------------------------------------------------------------------------
# free parameters: the condition is checked on a grid that includes its boundary
# ------------------------------------------------------------------------------------------
G = (-2, -1, -0.5, 0, 0.5, 1, 1.5, 2, 3)


def _grid(names, values=G, keep=lambda d: True):
    import itertools

    return [
        d
        for d in (dict(zip(names, v)) for v in itertools.product(values, repeat=len(names)))
        if keep(d)
    ]


CASES += [
    # p-series: converges iff p > 1
    Case(
        "free-p-series",
        ["--rpe", "1/n**p", "--free", "p"],
        cond=(lambda d: d["p"] > 1, _grid(["p"])),
    ),
    # a^n / n^b, a > 0: root test a < 1 converges, a > 1 diverges; a = 1: p-series in b
    Case(
        "free-a^n/n^b",
        ["--rpe", "a**n/n**b", "--free", "a", "--free", "b", "--assume", "a>0"],
        cond=(
            lambda d: d["a"] < 1 or (d["a"] == 1 and d["b"] > 1),
            _grid(["a", "b"], keep=lambda d: d["a"] > 0),
        ),
    ),
    # Gamma(n+a)/Gamma(n+b) ~ n^(a-b) (a, b > 0, every term positive): iff b - a > 1
    Case(
        "free-gamma-ratio",
        [
            "--rpe",
            "gamma(n + a)/gamma(n + b)",
            "--free",
            "a",
            "--free",
            "b",
            "--assume",
            "a>0",
            "--assume",
            "b>0",
        ],
        cond=(
            lambda d: d["b"] - d["a"] > 1,
            _grid(["a", "b"], (0.5, 1, 1.5, 2, 2.5, 3, 3.5), lambda d: True),
        ),
    ),
    # (-1)^n n^-p: Leibniz for p > 0; |b_n| does not tend to 0 for p <= 0
    Case(
        "free-alternating-p",
        ["--rpe", "(-1)**n/n**p", "--free", "p"],
        cond=(lambda d: d["p"] > 0, _grid(["p"])),
    ),
    # sin^2(n) n^-p = (1 - cos 2n)/(2 n^p): p > 1 absolutely; 0 < p <= 1: the cos part
    # converges (Dirichlet) and 1/(2 n^p) diverges; p <= 0: sin^2 n > 1/4 infinitely often
    Case(
        "free-sin2-p",
        ["--rpe", "sin(n)**2/n**p", "--free", "p"],
        cond=(lambda d: d["p"] > 1, _grid(["p"])),
    ),
    # 1/(n log^q n) from n = 2: Cauchy condensation gives sum m^-q: iff q > 1
    Case(
        "free-nlogq",
        ["--rpe", "1/(n*log(n)**q)", "--free", "q", "--start", "2"],
        cond=(lambda d: d["q"] > 1, _grid(["q"])),
    ),
    # (1 + k n)^-r, k > 0: ~ k^-r n^-r: iff r > 1
    Case(
        "free-kerple-log-kr",
        ["--rpe", "(1 + k*n)**(-r)", "--free", "k", "--free", "r", "--assume", "k>0"],
        cond=(lambda d: d["r"] > 1, _grid(["k", "r"], keep=lambda d: d["k"] > 0)),
    ),
    # C(2n, n) 4^-n ~ 1/sqrt(pi n): times n^-p converges iff p > 1/2
    Case(
        "free-central-binomial-p",
        ["--rpe", "binomial(2*n, n)/(4**n*n**p)", "--free", "p"],
        cond=(lambda d: d["p"] > 0.5, _grid(["p"], G + (0.25, 0.75))),
    ),
    # n^p e^(-k n), k > 0: ratio e^-k < 1: always converges
    Case(
        "free-poly-exp",
        ["--rpe", "n**p*exp(-k*n)", "--free", "p", "--free", "k", "--assume", "k>0"],
        cond=(lambda d: True, _grid(["p", "k"], keep=lambda d: d["k"] > 0)),
    ),
    # 1/(n log n (log log n)^q) from n = 3: condensation twice: iff q > 1
    Case(
        "free-nloglogq",
        ["--rpe", "1/(n*log(n)*log(log(n))**q)", "--free", "q", "--start", "3"],
        cond=(lambda d: d["q"] > 1, _grid(["q"])),
    ),
    # x^n from n = 1: geometric: iff |x| < 1 (x = 0: every term 0)
    Case(
        "free-geometric-x",
        ["--rpe", "x**n", "--free", "x"],
        cond=(lambda d: abs(d["x"]) < 1, _grid(["x"])),
    ),
    # two parameters p, q: 1/(n^p log^q n) from 2: p > 1, or p = 1 and q > 1
    Case(
        "free-bertrand-pq",
        ["--rpe", "1/(n**p*log(n)**q)", "--free", "p", "--free", "q", "--start", "2"],
        cond=(lambda d: d["p"] > 1 or (d["p"] == 1 and d["q"] > 1), _grid(["p", "q"])),
        slow=True,
    ),
]

# ------------------------------------------------------------------------------------------
# slowly converging series (iterated logarithms)
# ------------------------------------------------------------------------------------------


def _em_case(f, ii, start, a=2000, huge=None):
    @cache
    def ref():
        B, err = positive_series_sum(f, ii, start, a)
        heads = [mp.mpf(0)]
        for n in range(start, a):
            heads.append(heads[-1] + f(mp.mpf(n)))

        def tail(N):
            return em_tail(f, ii, start + N)[0] if start + N >= a else B - heads[N]

        return B, err, tail

    return (
        lambda: ref()[:2],
        lambda: _tail_trf(
            ref()[2], ref()[0], huge=None if huge is None else (lambda e: huge(e, ref()[0]))
        ),
    )


def _f_nlog2(x):
    return 1 / (x * mp.log(x) ** 2)


def _f_nlogloglog2(x):
    return 1 / (x * mp.log(x) * mp.log(mp.log(x)) ** 2)


def _f_logpow(p):
    return lambda x: mp.exp(-(mp.log(x) ** p))


def _i_logpow(p):  # int_a^oo e^(-ln^p x) dx = int_(ln a)^oo e^(t - t^p) dt
    return lambda a: mp.quad(lambda t: mp.exp(t - t**p), [mp.log(a), mp.log(a) + 10, mp.inf])


CASES += [
    # int 1/(x ln^2 x) = 1/ln x; R after N terms ~ 1/ln(2 + N): log10 TRF = 1/(eps B ln 10)
    Case(
        "nlog2-start2",
        ["--rpe", "1/(n*log(n)**2)", "--start", "2"],
        True,
        *_em_case(
            _f_nlog2,
            lambda a: 1 / mp.log(a),
            2,
            huge=lambda e, B: float(1 / (decimal(e) * B) / mp.log(10)),
        ),
        start=2,
    ),
    # int = 1/ln ln x: ln ln TRF ~ 1/(eps B): log10 TRF = e^(1/(eps B))/ln 10
    Case(
        "nlogloglog2-start16",
        ["--rpe", "1/(n*log(n)*log(log(n))**2)", "--start", "16"],
        True,
        *_em_case(
            _f_nlogloglog2,
            lambda a: 1 / mp.log(mp.log(a)),
            16,
            huge=lambda e, B: float(mp.exp(1 / (decimal(e) * B)) / mp.log(10)),
        ),
        start=16,
        slow=True,
    ),
    # e^(-ln^1.5 n) falls faster than every power: converges
    Case(
        "exp-log^1.5",
        ["--rpe", "exp(-log(n)**(3/2))"],
        True,
        *_em_case(_f_logpow(mp.mpf(3) / 2), _i_logpow(mp.mpf(3) / 2), 1),
        start=1,
    ),
    # e^(-ln^1.05 n) <= n^-2 once ln^0.05 n >= 2: converges (slowly: terms matter to e^60)
    Case(
        "exp-log^1.05",
        ["--rpe", "exp(-log(n)**1.05)"],
        True,
        *_em_case(_f_logpow(mp.mpf(21) / 20), _i_logpow(mp.mpf(21) / 20), 1),
        start=1,
        slow=True,
    ),
    # condensation: sum 1/(m log m) diverges
    Case("nloglog-start3", ["--rpe", "1/(n*log(n)*log(log(n)))", "--start", "3"], False),
    # n^(-1-1/lnln n) = n^-1 e^(-ln n/lnln n) <= 1/(n ln^2 n) once ln n/lnln n >= 2 lnln n
    Case("n^(1+1/loglog)", ["--rpe", "1/n**(1 + 1/log(log(n)))", "--start", "16"], True),
    # n^(1 + 1/ln n) = e n: the harmonic series in disguise
    Case("n^(1+1/log)", ["--rpe", "1/n**(1 + 1/log(n))", "--start", "2"], False),
    # (ln n)^(-ln n) = n^(-ln ln n): converges; int_a^oo = int_(ln a)^oo e^(t - t ln t) dt
    Case(
        "logn^-logn",
        ["--rpe", "log(n)**(-log(n))", "--start", "2"],
        True,
        *_em_case(
            lambda x: mp.exp(-mp.log(x) * mp.log(mp.log(x))),
            lambda a: mp.quad(
                lambda t: mp.exp(t - t * mp.log(t)), [mp.log(a), mp.log(a) + 10, mp.inf]
            ),
            2,
        ),
        start=2,
    ),
    # zeta(1.001); log10 TRF from (p-1)^-1 x^(1-p) = eps zeta(p)
    Case(
        "n^-1.001",
        ["--rpe", "1/n**1.001"],
        True,
        lambda: (mp.zeta(mp.mpf(1001) / 1000), mp.mpf(0)),
        lambda: {
            e: (
                "log10",
                float(
                    mp.log(decimal(e) * mp.zeta(mp.mpf(1001) / 1000) / 1000)
                    / (-mp.mpf(1) / 1000)
                    / mp.log(10)
                ),
                1e-3,
            )
            for e in EPS
        },
        start=1,
    ),
]

# ------------------------------------------------------------------------------------------
# signed and oscillating series (B by closed forms; TRF not checked: tail rule)
# ------------------------------------------------------------------------------------------


def _beta(x):  # sum_(k>=0) (-1)^k/(x + k) = (psi((x+1)/2) - psi(x/2))/2
    return (mp.digamma((x + 1) / 2) - mp.digamma(x / 2)) / 2


CASES += [
    # sum (-1)^n ln n / n = eta'(1) = gamma ln 2 - ln^2 2 / 2
    Case(
        "alt-log/n",
        ["--rpe", "(-1)**n*log(n)/n"],
        True,
        _closed(lambda: mp.euler * mp.log(2) - mp.log(2) ** 2 / 2),
    ),
    # sum (-1)^n n^-1/2 = -eta(1/2)
    Case("alt-1/sqrt", ["--rpe", "(-1)**n/sqrt(n)"], True, _closed(lambda: -mp.altzeta(0.5))),
    # sum cos(n)/n = -ln(2 sin(1/2))  (Re -ln(1 - e^i))
    Case("cos/n", ["--rpe", "cos(n)/n"], True, _closed(lambda: -mp.log(2 * mp.sin(0.5)))),
    # sin^3 = (3 sin n - sin 3n)/4, sum sin(kn)/n = (pi - k)/2 (0 < k < 2 pi): B = pi/4
    Case("sin^3/n", ["--rpe", "sin(n)**3/n"], True, _closed(lambda: mp.pi / 4)),
    # sum sin(2n)/n^2 = Cl_2(2)
    Case("sin(2n)/n^2", ["--rpe", "sin(2*n)/n**2"], True, _closed(lambda: mp.clsin(2, 2))),
    # n/(n^2+1) = Re 1/(n+i): sum (-1)^n/(n+a) = -beta(a+1), a = i
    Case(
        "alt-n/(n^2+1)",
        ["--rpe", "(-1)**n*n/(n**2 + 1)"],
        True,
        _closed(lambda: -mp.re(_beta(1 + 1j))),
    ),
    # sin(1/n) = sum_k (-1)^k n^-(2k+1)/(2k+1)!: B = -sum_k (-1)^k eta(2k+1)/(2k+1)!
    Case(
        "alt-sin(1/n)",
        ["--rpe", "(-1)**n*sin(1/n)"],
        True,
        _closed(
            lambda: (
                -mp.fsum(
                    (-1) ** k * mp.altzeta(2 * k + 1) / mp.factorial(2 * k + 1) for k in range(40)
                )
            )
        ),
    ),
    # |b_n| -> 1: diverges
    Case("alt-(1+1/n)", ["--rpe", "(-1)**n*(1 + 1/n)"], False),
    # convergent + harmonic: diverges
    Case("alt-1/sqrt+1/n", ["--rpe", "(-1)**n/sqrt(n) + 1/n"], False),
    # (-1)^n/(sqrt n + (-1)^n) = (-1)^n/sqrt n - 1/(n + (-1)^n sqrt n) : diverges
    Case(
        "alt-1/(sqrt+(-1)^n)",
        ["--rpe", "(-1)**n/(sqrt(n) + (-1)**n)", "--start", "2"],
        False,
        others=True,
    ),
    # Dirichlet: sin(1/n) decreasing to 0, partial sums of sin(n) bounded
    Case("sin(n)sin(1/n)", ["--rpe", "sin(n)*sin(1/n)"], True),
    # cos^2 = (1 + cos 2n)/2: (1/2) harmonic + convergent: diverges
    Case("cos^2/n", ["--rpe", "cos(n)**2/n"], False),
    # Leibniz: 1/lnln n decreases to 0
    Case("alt-1/loglog", ["--rpe", "(-1)**n/log(log(n))", "--start", "3"], True),
    # Dirichlet + zeta(2): converges (family owned elsewhere)
    Case("sin/sqrt+1/n^2", ["--rpe", "sin(n)/n**0.5 + 1/n**2"], True, others=True),
    # block k^2 <= n < (k+1)^2 sums to ~ 2/k with alternating sign, decreasing: converges
    Case("(-1)^floor(sqrt)/n", ["--rpe", "(-1)**floor(sqrt(n))/n"], True, others=True),
    # 1/(n^1.5 + (-1)^n) ~ n^-1.5: converges (family owned elsewhere)
    Case("1/(n^1.5+(-1)^n)", ["--rpe", "1/(n**1.5 + (-1)**n)", "--start", "2"], True, others=True),
]

# ------------------------------------------------------------------------------------------
# Max / Min / Abs / sqrt of trigonometric terms.  n mod 2 pi is equidistributed, so for F
# Riemann integrable on the circle (1/N) sum F(n) -> mean F; by summation by parts
# sum F(n)/n ~ mean(F) ln N: diverges when mean F != 0; terms O(n^-p), p > 1: converges.
# ------------------------------------------------------------------------------------------
CASES += [
    # mean max(sin x, cos 2x) > max of the means = 0 (strictly: they differ on an open set)
    Case("max(sin,cos2n)/n", ["--rpe", "Max(sin(n), cos(2*n))/n"], False),
    # min(sin, 0): mean -1/pi: diverges to -oo
    Case("min(sin,0)/n", ["--rpe", "Min(sin(n), 0)/n"], False),
    # mean sqrt|sin| > 0
    Case("sqrt|sin|/n", ["--rpe", "sqrt(Abs(sin(n)))/n"], False),
    # 0 <= b_n <= n^-1.5
    Case("max(sin,0)^2/n^1.5", ["--rpe", "Max(sin(n), 0)**2/n**1.5"], True),
    # mean |cos|^(1/3) > 0
    Case("|cos|^(1/3)/n", ["--rpe", "Abs(cos(n))**(1/3)/n"], False),
    # >= sin^2(n)/n, which diverges
    Case("max(sin^2,1/n)/n", ["--rpe", "Max(sin(n)**2, 1/n)/n"], False),
    # 0 <= b_n <= 1/n^2
    Case("min(sin^2,1/n)/n", ["--rpe", "Min(sin(n)**2, 1/n)/n"], True),
    # (Max(c, 0) - Max(-c, 0)) = c: cos(n)/n, B = -ln(2 sin(1/2))
    Case(
        "maxmin-cos/n",
        ["--rpe", "(Max(cos(n), 0) - Max(-cos(n), 0))/n"],
        True,
        _closed(lambda: -mp.log(2 * mp.sin(0.5))),
    ),
    # |sin x| - 2/pi has mean 0 and Fourier coefficients O(k^-2); sum_n cos(2kn)/n is bounded
    # by C + ln(1/|sin k|), summable against k^-2 (pi has finite irrationality measure), and
    # the tails tend to 0 by dominated convergence: converges
    Case("(|sin|-2/pi)/n", ["--rpe", "(Abs(sin(n)) - 2/pi)/n"], True, slow=True),
    # 1 <= sqrt(2 + cos n) <= sqrt 3: converges with n^-2
    Case("sqrt(2+cos)/n^2", ["--rpe", "sqrt(2 + cos(n))/n**2"], True),
    Case("|sin|/n^2", ["--rpe", "Abs(sin(n))/n**2"], True),
    # sqrt(1 - cos n) = sqrt 2 |sin(n/2)|, mean 2 sqrt 2/pi > 0; g = n^-1/2: diverges
    Case("sqrt(1-cos)/sqrt", ["--rpe", "sqrt(1 - cos(n))/sqrt(n)"], False),
    # min(|sin|, 1/2) has a positive mean
    Case("min(|sin|,1/2)/n", ["--rpe", "Min(Abs(sin(n)), 1/2)/n"], False),
]

# ------------------------------------------------------------------------------------------
# products, factorials, gamma, binomials
# ------------------------------------------------------------------------------------------


def _ratio_case(term, n0, n1, rmax):
    def B():
        s = mp.fsum(term(n) for n in range(n0, n1))
        t = term(n1)
        return s + t / (1 - rmax) / 2, t / (1 - rmax)

    return B


CASES += [
    # ratio (n/(n+1))^n <= 1/2 for n >= 1; b_300 < 1e-125
    Case(
        "n!/n^n",
        ["--rpe", "factorial(n)/n**n"],
        True,
        _ratio_case(lambda n: mp.factorial(n) / mp.mpf(n) ** n, 1, 300, 0.5),
        others=True,
    ),
    # prod (1 + 1/m) = n + 1: (n+1)/n^3, B = zeta(2) + zeta(3); R_N = zeta(2,N+1)+zeta(3,N+1)
    Case(
        "prod(1+1/m)/n^3",
        ["--rpe", "Product(1 + 1/m, (m, 1, n))/n**3"],
        True,
        lambda: (mp.zeta(2) + mp.zeta(3), mp.mpf(0)),
        lambda: _tail_trf(lambda N: mp.zeta(2, N + 1) + mp.zeta(3, N + 1), mp.zeta(2) + mp.zeta(3)),
        start=1,
    ),
    # Wallis: prod (1 - 1/(4m^2)) -> 2/pi, and it decreases: b_n >= 2/(pi n): diverges
    Case("wallis/n", ["--rpe", "Product(1 - 1/(4*m**2), (m, 1, n))/n"], False),
    # sum C(2n,n) x^n / n = 2 ln(2/(1 + sqrt(1-4x))), x = 1/4: B = 2 ln 2
    Case(
        "C(2n,n)/(4^n n)",
        ["--rpe", "binomial(2*n, n)/(4**n*n)"],
        True,
        _closed(lambda: 2 * mp.log(2)),
    ),
    # sum_(n>=0) Gamma(n+a)/Gamma(n+b) = Gamma(a)(b-1)/(Gamma(b)(b-a-1)) (Gauss 2F1 at 1):
    # a = 1/2, b = 2: 2 sqrt(pi); minus the n = 0 term sqrt(pi): B = sqrt(pi)
    Case(
        "gamma(n+1/2)/gamma(n+2)",
        ["--rpe", "gamma(n + 1/2)/gamma(n + 2)"],
        True,
        _closed(lambda: mp.sqrt(mp.pi)),
    ),
    # ratio 2 (n/(n+1))^n <= 2 (300/301)^300 < 0.7372 for n >= 300; b_2000 ~ (2/e)^2000
    Case(
        "2^n n!/n^n",
        ["--rpe", "2**n*factorial(n)/n**n"],
        True,
        _ratio_case(lambda n: 2 ** mp.mpf(n) * mp.factorial(n) / mp.mpf(n) ** n, 1, 2000, 0.74),
    ),
    # ratio -> 3/e > 1: terms grow: diverges
    Case("3^n n!/n^n", ["--rpe", "3**n*factorial(n)/n**n"], False),
    # e^n n!/n^(n+2) = sqrt(2 pi) n^-3/2 (1 + O(1/n)): converges; EM from 2000 on the
    # smooth e^x Gamma(x+1)/x^(x+2) (remainder below 1e-30)
    Case(
        "e^n n!/n^(n+2)",
        ["--rpe", "E**n*factorial(n)/n**(n + 2)"],
        True,
        *_em_case(
            lambda x: mp.exp(x + mp.loggamma(x + 1) - (x + 2) * mp.log(x)),
            lambda a: mp.quad(
                lambda x: mp.exp(x + mp.loggamma(x + 1) - (x + 2) * mp.log(x)), [a, 10 * a, mp.inf]
            ),
            1,
        )[:1],
        start=1,
        slow=True,
    ),
    # (prod (2m-1)/(2m))^2 = (C(2n,n)/4^n)^2 ~ 1/(pi n): diverges
    Case("prod((2m-1)/2m)^2", ["--rpe", "Product((2*m - 1)/(2*m), (m, 1, n))**2"], False),
    # 1/C(n+2, 2) = 2/((n+1)(n+2)): B = 1, R_N = 2/(N+2); TRF(0.1) = 19 (R_18 = 0.1 = eps B,
    # not below it), TRF(0.3) = 5, TRF(0.001) = 1999
    Case(
        "1/C(n+2,2)",
        ["--rpe", "1/binomial(n + 2, 2)", "--eps", "0.1", "0.3", "0.001"],
        True,
        lambda: (mp.mpf(1), mp.mpf(0)),
        lambda: {"0.1": 19, "0.3": 5, "0.001": 1999},
        start=1,
    ),
    # ratio (n+1)^2/((2n+2)(2n+3)) < 1/4
    Case(
        "n!^2/(2n+1)!",
        ["--rpe", "factorial(n)**2/factorial(2*n + 1)"],
        True,
        _ratio_case(lambda n: mp.factorial(n) ** 2 / mp.factorial(2 * n + 1), 1, 200, 0.25),
    ),
    # Gamma(n + sqrt 2)/Gamma(n) ~ n^sqrt2: b_n ~ n^(sqrt2 - 3): converges
    Case("gamma(n+sqrt2)/(gamma(n) n^3)", ["--rpe", "gamma(n + sqrt(2))/(gamma(n)*n**3)"], True),
    # prod (1 + 1/m^3) -> cosh(pi sqrt3/2)/pi; 0 < b_n < 3/n^2: converges
    Case("prod(1+1/m^3)/n^2", ["--rpe", "Product(1 + 1/m**3, (m, 1, n))/n**2"], True),
    # C(n,3)/n^5 = (1/n^2 - 3/n^3 + 2/n^4)/6: B = (zeta(2) - 3 zeta(3) + 2 zeta(4))/6
    Case(
        "C(n,3)/n^5",
        ["--rpe", "binomial(n, 3)/n**5"],
        True,
        _closed(lambda: (mp.zeta(2) - 3 * mp.zeta(3) + 2 * mp.zeta(4)) / 6),
        lambda: _tail_trf(
            lambda N: (mp.zeta(2, N + 1) - 3 * mp.zeta(3, N + 1) + 2 * mp.zeta(4, N + 1)) / 6,
            (mp.zeta(2) - 3 * mp.zeta(3) + 2 * mp.zeta(4)) / 6,
        ),
        start=1,
    ),
]

# series run with SIGINT at a random moment after 0.3 s (--time-limit 60): 130 and
# `error: interrupted`, never a traceback or an abort
SIGINT_SERIES = [
    ["--rpe", "1/(n*log(n)*log(log(n))**2)", "--start", "16"],
    ["--rpe", "sandwich"],
    ["--rpe", "exp(-log(n)**1.05)"],
    ["--rpe", "kerple-power", "--param", "r=0.1"],
    ["--rpe", "1/(n**p*log(n)**q)", "--free", "p", "--free", "q", "--start", "2"],
]

BY_ID = {c.id: c for c in CASES}
assert len(BY_ID) == len(CASES)
