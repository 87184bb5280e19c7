"""Held-out set 7: commands as a researcher types them into ``python -m theory.trf``, with
the verdict derived by hand (the argument in each ``note``) and, where the series converges,
a reference B and TRF(eps) computed independently with mpmath (``heldout7_reference``).

Fields of a :class:`Case`:
* ``verdict``: True / False (converges / diverges), ``None`` for input that must be refused
  (exit 2, one ``error:`` line), ``"open"`` for a series whose convergence is an open
  problem (any verdict is unprovable: only "undecided" is right).
* ``B()`` -> (value, error) and ``trf()`` -> {eps: int TRF, or ("log10", value, tol)}.
* ``cond``: (predicate, grid) for a free-parameter family (the region of convergence).
* ``files``: name -> bytes, written beside the run; the name in ``args`` is replaced by the
  path.  ``error_ok``: a clean refusal (exit 2) is honest, not wrong (a named RPE at a
  parameter outside its documented range).  ``others``: the decision lies in the engines of
  sign-changing families or of free parameters (listed apart in the runner's output).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath as mp
import numpy as np

try:
    from . import heldout7_reference as R
except ImportError:  # run as a script from this folder
    import heldout7_reference as R

E3 = (0.1, 0.01, 0.001)
E7 = (0.07, 0.007, 0.0007)


@dataclass
class Case:
    id: str
    args: list
    verdict: Any
    note: str
    B: Callable | None = None
    trf: Callable | None = None
    cond: tuple | None = None
    files: dict = field(default_factory=dict)
    start: int | None = None
    scaled: bool = False
    error_ok: bool = False
    others: bool = False


def npy_bytes(arr) -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.asarray(arr))
    return buf.getvalue()


def txt_bytes(values) -> bytes:
    return ("\n".join(values) + "\n").encode()


def eps_args(eps):
    return ["--eps", *[repr(e) for e in eps]]


def cached(fn):
    box = {}

    def get():
        if "v" not in box:
            with mp.workdps(R.DPS):
                box["v"] = fn()
        return box["v"]

    return get


def exact(x):
    """B = x exactly (an integer or a Fraction)."""
    x = Fraction(x)
    return lambda: (mp.mpf(x.numerator) / x.denominator, mp.mpf(10) ** -45)


CASES: list[Case] = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


# ---------------------------------------------------------------------------------------
# RPE-like decays: exp of polynomial / log expressions
# ---------------------------------------------------------------------------------------
@cached
def _B_exp_n2():
    return (mp.jtheta(3, 0, mp.exp(-1)) - 1) / 2, mp.mpf(10) ** -45


add(
    "rpe/exp-n2",
    ["--rpe", "exp(-n**2)", *eps_args(E3)],
    True,
    "b = e^-n^2 <= e^-n: geometric majorant. B = (theta3(0, 1/e) - 1)/2 (Jacobi theta).",
    _B_exp_n2,
    cached(lambda: R.trf_from_terms([mp.exp(-(n**2)) for n in range(1, 30)], _B_exp_n2()[0], E3)),
)


def _sqrt_tail(N):  # sum_{n>=N} e^-sqrt(n) <= e^-sqrt(N) + int_N^oo e^-sqrt(x) dx
    r = mp.sqrt(N)
    return mp.exp(-r) * (1 + 2 * (r + 1))


@cached
def _B_exp_sqrt():
    return R.direct_sum(lambda n: mp.exp(-mp.sqrt(n)), 1, 12000, _sqrt_tail)


add(
    "rpe/exp-sqrt",
    ["--rpe", "exp(-sqrt(n))", *eps_args(E7)],
    True,
    "e^-sqrt(n) <= n^-2 for large n (stretched exponential). Tail bound: integral test.",
    _B_exp_sqrt,
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-mp.sqrt(n)) for n in range(1, 2000)], _B_exp_sqrt()[0], E7
        )
    ),
)


@cached
def _B_geo3():
    q = mp.exp(-mp.mpf(1) / 3)
    return q / (1 - q), mp.mpf(10) ** -45


add(
    "rpe/exp-n-over-3",
    ["--rpe", "exp(-n/3)", *eps_args(E3)],
    True,
    "geometric, q = e^-1/3; R_j/B = q^j, crossing at j > 3 ln(1/eps).",
    _B_geo3,
    lambda: {e: int(mp.floor(3 * mp.log(1 / R.eps_mp(e)))) + 1 for e in E3},
)


def _pow_tail(N, lnexp):  # b_n <= n^-p for n >= N with p = lnexp(N) > 1
    p = lnexp(N)
    return mp.mpf(N) ** (-p) + mp.mpf(N) ** (1 - p) / (p - 1)


@cached
def _B_type2_half():
    f = lambda n: mp.exp(-(mp.log(n) ** 2) / 2)  # noqa: E731
    return R.direct_sum(f, 1, 100000, lambda N: _pow_tail(N, lambda M: mp.log(M) / 2))


add(
    "rpe/exp-log2-half",
    ["--rpe", "exp(-log(n)**2/2)", *eps_args((0.1, 0.001, 1e-6))],
    True,
    "b = n^(-ln(n)/2) <= n^-2 once ln n >= 4. Tail for n >= N: b_n <= n^(-ln(N)/2).",
    _B_type2_half,
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-(mp.log(n) ** 2) / 2) for n in range(1, 3000)],
            _B_type2_half()[0],
            (0.1, 0.001, 1e-6),
        )
    ),
)

add(
    "rpe/exp-log-1.5",
    ["--rpe", "exp(-log(n)**1.5)"],
    True,
    "ln(n)^1.5 >= 2 ln n once ln n >= 4: b <= n^-2.",
)


@cached
def _B_n_pow_sqrt():
    def tail(N):  # n^-sqrt(n) <= e^(-c sqrt(n)) with c = ln N for n >= N
        c, r = mp.log(N), mp.sqrt(N)
        return mp.exp(-c * r) * (1 + 2 * (r / c + 1 / c**2))

    return R.direct_sum(lambda n: n ** (-mp.sqrt(n)), 1, 500, tail)


add(
    "rpe/n-pow-minus-sqrt",
    ["--rpe", "n**(-sqrt(n))", *eps_args(E3)],
    True,
    "b = n^-sqrt(n) <= n^-2 for n >= 4.",
    _B_n_pow_sqrt,
    cached(
        lambda: R.trf_from_terms(
            [n ** (-mp.sqrt(n)) for n in range(1, 200)], _B_n_pow_sqrt()[0], E3
        )
    ),
)


@cached
def _B_sophomore():
    # sum n^-n, tail after N=60 below 2 * 60^-60 (ratio < 1/2)
    return R.direct_sum(lambda n: n ** (-n), 1, 60, lambda N: 2 * mp.mpf(N) ** (-N))


add(
    "rpe/n-pow-minus-n",
    ["--rpe", "exp(-n*log(n))", *eps_args(E3)],
    True,
    "b = n^-n; B = int_0^1 x^-x dx (sophomore's dream), 1.2912859970626635...",
    _B_sophomore,
    cached(
        lambda: R.trf_from_terms([mp.mpf(n) ** (-n) for n in range(1, 40)], _B_sophomore()[0], E3)
    ),
)


@cached
def _B_exp_exp():
    return R.direct_sum(lambda n: mp.exp(-mp.exp(n)), 1, 8, lambda N: 2 * mp.exp(-mp.exp(N)))


add(
    "rpe/exp-exp",
    ["--rpe", "exp(-exp(n))", *eps_args(E3)],
    True,
    "doubly exponential decay; tail after N below twice its first term.",
    _B_exp_exp,
    cached(
        lambda: R.trf_from_terms([mp.exp(-mp.exp(n)) for n in range(1, 8)], _B_exp_exp()[0], E3)
    ),
)


@cached
def _B_exp_sin():
    f = lambda n: mp.exp(-n + mp.sin(n))  # noqa: E731
    # tail: b_n <= e * e^-n, sum_{n>=N} <= e^(1-N)/(1 - 1/e)
    return R.direct_sum(f, 1, 140, lambda N: mp.exp(1 - N) / (1 - mp.exp(-1)))


add(
    "rpe/exp-minus-n-plus-sin",
    ["--rpe", "exp(-n + sin(n))", *eps_args(E3)],
    True,
    "0 < b <= e * e^-n: geometric majorant; terms positive.",
    _B_exp_sin,
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-n + mp.sin(n)) for n in range(1, 80)], _B_exp_sin()[0], E3
        )
    ),
)


@cached
def _B_n3_type2():
    f = lambda n: mp.exp(-(mp.log(n) ** 2) + 3 * mp.log(n))  # noqa: E731
    return R.direct_sum(f, 1, 100000, lambda N: _pow_tail(N, lambda M: mp.log(M) - 3))


add(
    "rpe/n3-times-type2",
    ["--rpe", "exp(-log(n)**2 + 3*log(n))", *eps_args((0.1, 0.01))],
    True,
    "b = n^(3 - ln n) <= n^-2 once ln n >= 5.",
    _B_n3_type2,
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-(mp.log(n) ** 2) + 3 * mp.log(n)) for n in range(1, 20000)],
            _B_n3_type2()[0],
            (0.1, 0.01),
        )
    ),
)

add(
    "rpe/n-pow-minus-loglog",
    ["--rpe", "n**(-log(log(n)))", "--start", "3"],
    True,
    "b = n^(-ln ln n) <= n^-2 once ln ln n >= 2 (n >= e^e^2).",
)
add(
    "rpe/exp-cuberoot",
    ["--rpe", "exp(-n**(1/3))"],
    True,
    "stretched exponential: e^-n^(1/3) <= n^-2 eventually.",
)

# ---------------------------------------------------------------------------------------
# Iterated logarithms near the borderline (Cauchy condensation / substitution u = ln ln n)
# ---------------------------------------------------------------------------------------
add(
    "log/bertrand3",
    ["--rpe", "1/(n*log(n)*log(log(n))**3)", "--start", "16"],
    True,
    "Bertrand: sum 1/(n ln n (ln ln n)^p) converges iff p > 1 (here 3).",
)
add(
    "log/bertrand-1.0001",
    ["--rpe", "1/(n*log(n)*log(log(n))**1.0001)", "--start", "16"],
    True,
    "Bertrand with p = 1.0001 > 1.",
)
add(
    "log/nloglogloglog",
    ["--rpe", "1/(n*log(n)*log(log(n))*log(log(log(n))))", "--start", "20"],
    False,
    "integral test: antiderivative ln ln ln ln n -> oo.",
)
add(
    "log/exponent-1-over-loglog",
    ["--rpe", "1/(n*log(n)**(1 + 1/log(log(n))))", "--start", "16"],
    False,
    "ln(n)^(1/ln ln n) = e exactly, so b = 1/(e n ln n): diverges.",
)
add(
    "log/loglog-exponent-e",
    ["--rpe", "1/(n*log(n)*log(log(n))**(1 + 1/log(log(log(n)))))", "--start", "16"],
    False,
    "(ln ln n)^(1/ln ln ln n) = e, so b = 1/(e n ln n ln ln n): diverges.",
)
add(
    "log/exponent-2-over-logloglog",
    ["--rpe", "1/(n*log(n)**(1 + 2/log(log(log(n)))))", "--start", "16"],
    True,
    "with u = ln ln n: sum ~ int e^(-2u/ln u) du < oo (2u/ln u >= 2 ln u eventually... "
    "indeed e^(-2u/ln u) <= u^-2 for large u).",
)
add(
    "log/exp-log-over-loglog",
    ["--rpe", "exp(-log(n)*(1 + 1/log(log(n))))", "--start", "3"],
    True,
    "b = 1/(n e^(x/ln x)), x = ln n; sum ~ int e^(-x/ln x) dx < oo.",
)
add(
    "log/power-1-plus-1-over-loglog",
    ["--rpe", "n**(-1 - 1/log(log(n)))", "--start", "3"],
    True,
    "the same series as log/exp-log-over-loglog written as a power: converges.",
)
add(
    "log/exponent-1-over-sqrtlog",
    ["--rpe", "1/(n*log(n)**(1 + 1/sqrt(log(n))))", "--start", "2"],
    False,
    "ln(n)^(1/sqrt(ln n)) = e^(ln ln n/sqrt(ln n)) -> 1: b ~ 1/(n ln n), diverges.",
)
add(
    "log/log-pow-0.9999",
    ["--rpe", "1/(n*log(n)**0.9999)", "--start", "2"],
    False,
    "Bertrand p = 0.9999 < 1: diverges.",
)
add(
    "log/log100-over-n1.01",
    ["--rpe", "log(n)**100/n**1.01"],
    True,
    "ln(n)^100 <= n^0.005 eventually: b <= n^-1.005.",
)


@cached
def _B_n_log2():
    # sum_{n>=2} 1/(n ln^2 n): direct to a = 1000, Euler-Maclaurin beyond (f completely
    # monotone: product of x^-1 and (ln x)^-2, both CM on x > 1)
    f = lambda x: 1 / (x * mp.log(x) ** 2)  # noqa: E731
    a = 1000
    head = mp.fsum(f(mp.mpf(n)) for n in range(2, a))
    val, bound = R.em_tail(f, mp.mpf(a), 1 / mp.log(a), p=8)
    return head + val, bound


add(
    "log/n-log2-from-2",
    ["--bias", "-log(n) - 2*log(log(n))", "--start", "2"],
    True,
    "b = 1/(n ln^2 n): integral test, int 1/(x ln^2 x) = -1/ln x.",
    _B_n_log2,
)

# ---------------------------------------------------------------------------------------
# Named RPEs at unusual parameters
# ---------------------------------------------------------------------------------------
add(
    "named/alibi-tiny-slope",
    ["--rpe", "alibi", "--param", "k=1e-300", *eps_args(E3)],
    True,
    "b_t = e^(-k t), t >= 0: B = 1/(1 - e^-k) ~ 1e300; R_j/B = e^(-k j).",
    cached(lambda: (-1 / mp.expm1(-mp.mpf("1e-300")), mp.mpf(10) ** 200)),
    lambda: {e: ("log10", R.geometric_trf_log10(mp.mpf("1e-300"), e), 1e-9) for e in E3},
    start=0,
)
add(
    "named/alibi-huge-slope",
    ["--rpe", "alibi", "--param", "k=1e300", *eps_args(E3)],
    True,
    "b_0 = 1, b_t = e^(-1e300 t): B = 1 + e^-1e300 + ...; R_1 << eps B: TRF = 1.",
    lambda: (mp.mpf(1), mp.mpf(10) ** -45),
    lambda: {e: 1 for e in E3},
    start=0,
)
add(
    "named/alibi-zero-slope",
    ["--rpe", "alibi", "--param", "k=0"],
    False,
    "k = 0: every term is 1.",
    error_ok=True,
)
add(
    "named/alibi-negative-slope",
    ["--rpe", "alibi", "--param", "k=-2"],
    False,
    "k < 0: terms grow.",
    error_ok=True,
)


@cached
def _kerple_near1_log10():
    r = mp.mpf("1.000001")
    z = mp.zeta(r)
    # R_j = zeta(r, j + 1) ~ (j+1)^(1-r)/(r-1) (next term relative (r-1)/x: negligible)
    return {
        e: ("log10", float(mp.log(R.eps_mp(e) * z * (r - 1)) / ((1 - r) * mp.log(10))), 1e-6)
        for e in E3
    }


add(
    "named/kerple-log-r-near-1",
    ["--rpe", "kerple-log", "--param", "r=1.000001", "--param", "k=1", *eps_args(E3)],
    True,
    "(1 + t)^-r, t >= 0: B = zeta(r), r - 1 = 1e-6; TRF ~ 10^(1e6 log10(1/eps)).",
    cached(lambda: (mp.zeta(mp.mpf("1.000001")), mp.mpf(10) ** -40)),
    _kerple_near1_log10,
    start=0,
)
add(
    "named/kerple-log-r-1",
    ["--rpe", "kerple-log", "--param", "r=1", "--param", "k=0.5"],
    False,
    "(1 + t/2)^-1: harmonic.",
)


@cached
def _kerple_tiny_k():
    k = mp.mpf("1e-300")
    return (k**-2 * mp.zeta(2, 1 / k), mp.mpf(10) ** 250)


add(
    "named/kerple-log-tiny-k",
    ["--rpe", "kerple-log", "--param", "k=1e-300", "--param", "r=2", *eps_args(E3)],
    True,
    "(1 + k t)^-2 = k^-2 (t + 1/k)^-2: B = k^-2 zeta(2, 1/k) ~ 1e300; R_j = k^-2 "
    "zeta(2, j + 1/k) ~ (1/k)^2/(j + 1/k) -> TRF ~ (1/eps - 1)/k.",
    _kerple_tiny_k,
    lambda: {e: ("log10", 300 + float(mp.log10(1 / R.eps_mp(e) - 1)), 1e-9) for e in E3},
    start=0,
)


@cached
def _kerple_power_005():
    r, k = mp.mpf("0.05"), mp.mpf(2)
    f = lambda x: mp.exp(-k * x**r)  # noqa: E731
    a = 40
    head = mp.fsum(f(mp.mpf(t)) for t in range(0, a))
    integral = mp.gammainc(1 / r, k * mp.mpf(a) ** r) / (r * k ** (1 / r))
    val, bound = R.em_tail(f, mp.mpf(a), integral, p=6)
    return head + val, bound + mp.mpf(10) ** -30


add(
    "named/kerple-power-r-0.05",
    ["--rpe", "kerple-power", "--param", "r=0.05", "--param", "k=2"],
    True,
    "e^(-2 t^0.05): stretched exponential; B ~ Gamma(21)/2^20 ~ 2.3e12 (integral), "
    "exactly: head + Euler-Maclaurin (e^(-2 x^0.05) completely monotone).",
    _kerple_power_005,
    start=0,
)


@cached
def _kp_tiny_log10():
    # B ~ sqrt(pi)/(2 sqrt k); R_j/B ~ erfc(sqrt(k) j): log10 TRF = 150 + log10 erfcinv(eps)
    return {e: ("log10", 150 + float(mp.log10(mp.erfinv(1 - R.eps_mp(e)))), 1e-9) for e in E3}


add(
    "named/kerple-power-gauss-tiny-k",
    ["--rpe", "kerple-power", "--param", "r=2", "--param", "k=1e-300", *eps_args(E3)],
    True,
    "e^(-k t^2): B = sqrt(pi)/(2 sqrt k) + 1/2 + O(...) ~ 8.9e149.",
    cached(
        lambda: (
            # theta3(0, e^-k) = sqrt(pi/k) theta3(0, e^(-pi^2/k)) (Jacobi), e^(-pi^2/k) = 0
            (mp.sqrt(mp.pi / mp.mpf("1e-300")) + 1) / 2,
            mp.mpf(10) ** 100,
        )
    ),
    _kp_tiny_log10,
    start=0,
)


@cached
def _B_kp_cube():
    return R.direct_sum(lambda t: mp.exp(-(t**3)), 0, 6, lambda N: 2 * mp.exp(-(mp.mpf(N) ** 3)))


add(
    "named/kerple-power-r-3",
    ["--rpe", "kerple-power", "--param", "r=3", *eps_args(E3)],
    True,
    "e^(-t^3): converges (r = 3 outside the documented 0 < r <= 2: a refusal is honest).",
    _B_kp_cube,
    cached(lambda: R.trf_from_terms([mp.exp(-(t**3)) for t in range(0, 6)], _B_kp_cube()[0], E3)),
    start=0,
    error_ok=True,
)


@cached
def _type1_deep():
    z = mp.zeta(2)
    return R.trf_from_tail(lambda j: mp.zeta(2, j + 1), z, (1e-6, 1e-9), hi=10**11)


add(
    "named/type1-small-eps",
    ["--rpe", "type1", "--eps", "1e-06", "1e-09"],
    True,
    "1/n^2: R_j = zeta(2, j + 1) (Hurwitz).",
    lambda: (mp.zeta(2), mp.mpf(10) ** -45),
    _type1_deep,
)


@cached
def _B_type2():
    f = lambda n: mp.exp(-(mp.log(n) ** 2))  # noqa: E731
    return R.direct_sum(f, 1, 40000, lambda N: _pow_tail(N, lambda M: mp.log(M)))


add(
    "named/type2-eps-1e-12",
    ["--rpe", "type2", "--eps", "1e-12"],
    True,
    "e^(-ln^2 n) = n^(-ln n); tail for n >= N below n^(-ln N).",
    _B_type2,
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-(mp.log(n) ** 2)) for n in range(1, 3000)], _B_type2()[0], (1e-12,)
        )
    ),
)
add(
    "named/t5-constant-tail",
    [
        "--rpe",
        "t5",
        "--param",
        "num_buckets=8",
        "--param",
        "max_distance=20",
        "--bucket-values=-0.5,-1,-1.5,-2,-2.5,-3,-3.5,-4",
    ],
    False,
    "T5's last bucket holds from max_distance on: constant e^-4 > 0 forever.",
    start=0,
)
add(
    "named/t5-far-max-distance",
    [
        "--rpe",
        "t5",
        "--param",
        "max_distance=1000000000",
        "--param",
        "num_buckets=16",
        "--bucket-values=" + ",".join(str(-0.25 * i) for i in range(16)),
    ],
    False,
    "constant last bucket e^-3.75 > 0 from distance 1e9 on.",
    start=0,
)
add(
    "named/sandwich-huge-k",
    ["--rpe", "sandwich", "--param", "k=1e300", "--param", "d=2"],
    False,
    "b_n = exp(1e300 (cos(n/10^4) - 1)); n/10^4 comes arbitrarily close to 2 pi Z (1/(2 pi "
    "10^4) irrational), so b_n -> 1 along a subsequence: terms do not tend to 0.",
    start=0,
)
add(
    "named/inv-nlogn",
    ["--rpe", "inv-nlogn"],
    False,
    "1/(n ln n): integral ln ln n -> oo.",
)
add(
    "named/type1-compare-type2",
    ["--rpe", "type1", "--compare", "type2", *eps_args(E3)],
    True,
    "1/n^2 (Thm 3.5 comparison asked for as well).",
    lambda: (mp.zeta(2), mp.mpf(10) ** -45),
    cached(lambda: R.trf_from_tail(lambda j: mp.zeta(2, j + 1), mp.zeta(2), E3)),
)

# ---------------------------------------------------------------------------------------
# Bias files (.npy and text, read by content)
# ---------------------------------------------------------------------------------------
_INT5 = txt_bytes(["0", "-1", "-2", "-3", "-4"])
_E1 = lambda: (1 / (1 - mp.exp(-1)), mp.mpf(10) ** -45)  # noqa: E731
add(
    "bias/text-linear",
    ["--bias-file", "BIAS", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "bias -t continued with slope -1: b_t = e^-t, B = 1/(1 - 1/e), R_j/B = e^-j.",
    _E1,
    lambda: {0.1: 3, 0.01: 5, 0.001: 7},
    files={"BIAS": _INT5},
    start=0,
)
add(
    "bias/text-constant",
    ["--bias-file", "BIAS", "--bias-tail", "constant"],
    False,
    "the last value -4 forever: b = e^-4 > 0 constant.",
    files={"BIAS": _INT5},
)


@cached
def _B_zero5():
    return mp.fsum(mp.exp(-t) for t in range(5)), mp.mpf(10) ** -45


add(
    "bias/text-zero",
    ["--bias-file", "BIAS", "--bias-tail", "zero", *eps_args(E3)],
    True,
    "finite sum of e^-t, t = 0..4.",
    _B_zero5,
    cached(lambda: R.trf_from_terms([mp.exp(-t) for t in range(5)], _B_zero5()[0], E3)),
    files={"BIAS": _INT5},
)

_WIGGLE = -0.37 * np.arange(40) + 0.05 * np.sin(np.arange(40))


def _linear_tail_ref(values):
    """B and the tail function of a bias file with the linear tail, exactly on the binary
    values: least-squares slope of the last max(2, L // 10) values (documented rule)."""
    L = len(values)
    m = max(2, L // 10)
    ys = [Fraction(float(v)) for v in values[-m:]]
    xm, ym = Fraction(m - 1, 2), sum(ys) / m
    slope = sum((i - xm) * (v - ym) for i, v in enumerate(ys)) / sum(
        (i - xm) ** 2 for i in range(m)
    )
    s = mp.mpf(slope.numerator) / slope.denominator
    last = mp.mpf(float(values[-1]))
    q = mp.exp(s)
    head = [mp.exp(mp.mpf(float(v))) for v in values]
    far = mp.exp(last) * q / (1 - q)

    def tail(j):
        if j < L:
            return mp.fsum(head[j:]) + far
        return mp.exp(last + s * (j - L + 1)) / (1 - q)

    return mp.fsum(head) + far, tail


@cached
def _wiggle_ref():
    return _linear_tail_ref(_WIGGLE)


add(
    "bias/npy-decimals-linear",
    ["--bias-file", "BIAS", "--bias-tail", "linear", *eps_args(E7)],
    True,
    "decimal float64 values, linear tail from the exact binary values (slope about -0.37 "
    "< 0): geometric beyond the file.",
    lambda: (_wiggle_ref()[0], mp.mpf(10) ** -45),
    cached(lambda: R.trf_from_tail(_wiggle_ref()[1], _wiggle_ref()[0], E7, hi=10**4)),
    files={"BIAS": npy_bytes(_WIGGLE)},
    start=0,
)
add(
    "bias/npy-content-named-txt",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear", *eps_args(E7)],
    True,
    "the same .npy bytes under a .txt name: read by content.",
    lambda: (_wiggle_ref()[0], mp.mpf(10) ** -45),
    cached(lambda: R.trf_from_tail(_wiggle_ref()[1], _wiggle_ref()[0], E7, hi=10**4)),
    files={"BIAS.txt": npy_bytes(_WIGGLE)},
    start=0,
)
add(
    "bias/text-content-named-npy",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "text numbers under an .npy name: read by content; b_t = e^-t.",
    _E1,
    lambda: {0.1: 3, 0.01: 5, 0.001: 7},
    files={"BIAS.npy": _INT5},
    start=0,
)
add(
    "bias/huge-first-zero-tail",
    ["--bias-file", "BIAS", "--bias-tail", "zero", *eps_args(E3)],
    True,
    "[1e308, 0, -1]: B = e^1e308 + 1 + 1/e; scaled by e^-1e308 it is 1 + tiny; TRF = 1.",
    lambda: (mp.mpf(1), mp.mpf(10) ** -45),
    lambda: {e: 1 for e in E3},
    files={"BIAS": txt_bytes(["1e308", "0", "-1"])},
    scaled=True,
)
add(
    "bias/huge-first-constant-tail",
    ["--bias-file", "BIAS", "--bias-tail", "constant"],
    False,
    "constant tail e^-1 forever.",
    files={"BIAS": txt_bytes(["1e308", "0", "-1"])},
)
add(
    "bias/minus-1e308-linear-flat",
    ["--bias-file", "BIAS", "--bias-tail", "linear"],
    False,
    "[-1e308, -1e308]: slope exactly 0, so b = e^-1e308 > 0 forever: diverges.",
    files={"BIAS": npy_bytes([-1e308, -1e308])},
)


@cached
def _B_subnormal():
    vals = [5e-324, -1.0, -2.0, -3.0]
    return mp.fsum(mp.exp(mp.mpf(v)) for v in vals), mp.mpf(10) ** -45


add(
    "bias/subnormal-zero-tail",
    ["--bias-file", "BIAS", "--bias-tail", "zero", *eps_args(E3)],
    True,
    "[5e-324, -1, -2, -3] (a subnormal): finite sum.",
    _B_subnormal,
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(mp.mpf(v)) for v in [5e-324, -1.0, -2.0, -3.0]], _B_subnormal()[0], E3
        )
    ),
    files={"BIAS": npy_bytes([5e-324, -1.0, -2.0, -3.0])},
)
add(
    "bias/int64-linear",
    ["--bias-file", "BIAS", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "int64 array [0, -1, -2, -3]: b_t = e^-t.",
    _E1,
    lambda: {0.1: 3, 0.01: 5, 0.001: 7},
    files={"BIAS": npy_bytes(np.array([0, -1, -2, -3], dtype=np.int64))},
)
add(
    "bias/comment-line-linear",
    ["--bias-file", "BIAS", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "a text file with a '#' comment line, then 0, -1, -2: b_t = e^-t.",
    _E1,
    lambda: {0.1: 3, 0.01: 5, 0.001: 7},
    files={"BIAS": b"# learned bias, head 0\n0\n-1\n-2\n"},
)
add(
    "bias/half-integers-near-minus-1000",
    ["--bias-file", "BIAS", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "[-1000.5, -1001.5, -1002.5] (exact binary), slope -1: B = e^-1000.5/(1 - 1/e) ~ 1e-435.",
    cached(
        lambda: (
            mp.exp(mp.mpf(-1000.5)) / (1 - mp.exp(-1)),
            mp.exp(mp.mpf(-1000.5)) * mp.mpf(10) ** -45,
        )
    ),
    lambda: {0.1: 3, 0.01: 5, 0.001: 7},
    files={"BIAS": txt_bytes(["-1000.5", "-1001.5", "-1002.5"])},
)
for _name, _data in [
    ("nan-text", txt_bytes(["0", "nan", "-1"])),
    ("inf-text", txt_bytes(["0", "-1", "inf"])),
    ("minus-inf-npy", npy_bytes([0.0, -np.inf])),
    ("2d-npy", npy_bytes(np.zeros((3, 2)))),
    ("empty-text", b""),
    ("words", b"zero\nminus one\n"),
    ("complex-npy", npy_bytes(np.array([1 + 1j, 0]))),
    ("one-value-linear", txt_bytes(["-1"])),
]:
    add(
        f"bias/refuse-{_name}",
        ["--bias-file", "BIAS", "--bias-tail", "linear"],
        None,
        "not a 1-D array of finite real numbers (or too short for a linear tail): refused.",
        files={"BIAS": _data},
    )
add(
    "bias/missing-file",
    ["--bias-file", "/nonexistent/dir/bias.npy"],
    None,
    "no such file.",
)

# --bias formulas (the RPE itself)


@cached
def _B_bias_gauss():
    return (mp.jtheta(3, 0, mp.exp(-mp.mpf(1) / 2)) - 1) / 2, mp.mpf(10) ** -45


add(
    "bias/formula-gaussian",
    ["--bias=-n**2/2", *eps_args(E3)],
    True,
    "b = e^(-n^2/2): B = (theta3(0, e^-1/2) - 1)/2.",
    _B_bias_gauss,
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-(mp.mpf(n) ** 2) / 2) for n in range(1, 30)], _B_bias_gauss()[0], E3
        )
    ),
)


def _n_geo_tail(m):  # sum_{n>=m} n q^n = q^m (m - (m-1) q)/(1-q)^2, q = 1/e
    q = mp.exp(-1)
    return q**m * (m - (m - 1) * q) / (1 - q) ** 2


add(
    "bias/formula-log-minus-n",
    ["--bias=log(n) - n", *eps_args(E3)],
    True,
    "b = n e^-n: B = e/(e - 1)^2; R_j = sum_{n>j} n q^n in closed form.",
    cached(lambda: (mp.e / (mp.e - 1) ** 2, mp.mpf(10) ** -45)),
    cached(lambda: R.trf_from_tail(lambda j: _n_geo_tail(j + 1), mp.e / (mp.e - 1) ** 2, E3, 1000)),
)
add(
    "bias/formula-1-minus-n",
    ["--bias=1 - n", *eps_args(E3)],
    True,
    "b = e^(1 - n): B = 1/(1 - 1/e); R_j/B = e^-j.",
    _E1,
    lambda: {0.1: 3, 0.01: 5, 0.001: 7},
)
add(
    "bias/formula-sqrt-log2",
    ["--bias=-sqrt(n)*log(2)"],
    True,
    "b = 2^-sqrt(n): stretched exponential.",
)

# ---------------------------------------------------------------------------------------
# Closed-form sums: telescoping, geometric, zeta, polylog
# ---------------------------------------------------------------------------------------
add(
    "closed/telescoping-3",
    ["--rpe", "1/(n*(n+1)*(n+2))", *eps_args(E7)],
    True,
    "1/(n(n+1)(n+2)) = (1/2)(1/(n(n+1)) - 1/((n+1)(n+2))): B = 1/4, R_j = 1/(2(j+1)(j+2)).",
    exact(Fraction(1, 4)),
    lambda: R.trf_from_tail(lambda j: Fraction(1, 2 * (j + 1) * (j + 2)), Fraction(1, 4), E7),
)
add(
    "closed/odd-telescoping",
    ["--rpe", "1/(4*n**2 - 1)", *eps_args(E3)],
    True,
    "1/((2n-1)(2n+1)): B = 1/2, R_j = 1/(2(2j+1)).",
    exact(Fraction(1, 2)),
    lambda: {0.1: 5, 0.01: 50, 0.001: 500},
)
add(
    "closed/log-telescoping",
    ["--rpe", "log((n+1)**2/(n*(n+2)))", *eps_args(E7)],
    True,
    "2 ln(n+1) - ln n - ln(n+2) telescopes: B = ln 2, R_j = ln((j+2)/(j+1)).",
    lambda: (mp.log(2), mp.mpf(10) ** -45),
    cached(lambda: R.trf_from_tail(lambda j: mp.log(mp.mpf(j + 2) / (j + 1)), mp.log(2), E7)),
)
add(
    "closed/n-over-2n",
    ["--rpe", "n/2**n", *eps_args(E7)],
    True,
    "B = 2, R_j = (j + 2)/2^j.",
    exact(2),
    lambda: R.trf_from_tail(lambda j: Fraction(j + 2, 2**j), Fraction(2), E7, 200),
)
add(
    "closed/n3-over-3n",
    ["--rpe", "n**3/3**n", *eps_args(E7)],
    True,
    "sum n^3 x^n = x(1 + 4x + x^2)/(1 - x)^4 at x = 1/3: B = 33/8.",
    exact(Fraction(33, 8)),
    cached(
        lambda: R.trf_from_terms(
            [mp.mpf(n) ** 3 / mp.mpf(3) ** n for n in range(1, 100)], mp.mpf(33) / 8, E7
        )
    ),
)
add(
    "closed/zeta3",
    ["--rpe", "1/n**3", "--eps", "0.05", "0.0001"],
    True,
    "zeta(3); R_j = zeta(3, j + 1).",
    lambda: (mp.zeta(3), mp.mpf(10) ** -45),
    cached(lambda: R.trf_from_tail(lambda j: mp.zeta(3, j + 1), mp.zeta(3), (0.05, 0.0001))),
)
_COTH = lambda: (mp.pi / mp.tanh(mp.pi) - 1) / 2  # noqa: E731
add(
    "closed/one-over-n2-plus-1",
    ["--rpe", "1/(n**2 + 1)", *eps_args(E3)],
    True,
    "sum_{n>=1} 1/(n^2+1) = (pi coth pi - 1)/2.",
    cached(lambda: (_COTH(), mp.mpf(10) ** -45)),
    cached(
        lambda: R.trf_from_terms([1 / (mp.mpf(n) ** 2 + 1) for n in range(1, 1200)], _COTH(), E3)
    ),
)


def _alt_tail(s):  # |R_j| of sum (-1)^(n+1)/n^s = sum_{m>=0} (-1)^m/(j+1+m)^s
    if s == 1:
        return lambda j: (mp.digamma(mp.mpf(j + 2) / 2) - mp.digamma(mp.mpf(j + 1) / 2)) / 2
    return lambda j: (mp.zeta(s, mp.mpf(j + 1) / 2) - mp.zeta(s, mp.mpf(j + 2) / 2)) / 2**s


add(
    "closed/alt-harmonic",
    ["--rpe", "(-1)**(n+1)/n", *eps_args(E7)],
    True,
    "ln 2; |R_j| = beta(j+1) decreasing (completely monotone terms).",
    lambda: (mp.log(2), mp.mpf(10) ** -45),
    cached(lambda: R.trf_from_tail(_alt_tail(1), mp.log(2), E7)),
    others=True,
)
add(
    "closed/alt-basel",
    ["--rpe", "(-1)**(n+1)/n**2", *eps_args(E7)],
    True,
    "pi^2/12; |R_j| = (zeta(2,(j+1)/2) - zeta(2,(j+2)/2))/4, decreasing.",
    lambda: (mp.pi**2 / 12, mp.mpf(10) ** -45),
    cached(lambda: R.trf_from_tail(_alt_tail(2), mp.pi**2 / 12, E7)),
    others=True,
)
add(
    "closed/log2-polylog",
    ["--rpe", "1/(2**n*n)", *eps_args(E3)],
    True,
    "-ln(1 - 1/2) = ln 2; R_j = Phi(1/2, 1, j+1)/2^(j+1) (Lerch).",
    lambda: (mp.log(2), mp.mpf(10) ** -45),
    cached(
        lambda: R.trf_from_tail(
            lambda j: mp.lerchphi(mp.mpf(1) / 2, 1, j + 1) / mp.mpf(2) ** (j + 1),
            mp.log(2),
            E3,
            500,
        )
    ),
)
add(
    "closed/li2-half",
    ["--rpe", "1/(n**2*2**n)", *eps_args(E3)],
    True,
    "Li2(1/2) = pi^2/12 - ln^2(2)/2.",
    cached(lambda: (mp.pi**2 / 12 - mp.log(2) ** 2 / 2, mp.mpf(10) ** -45)),
    cached(
        lambda: R.trf_from_tail(
            lambda j: mp.lerchphi(mp.mpf(1) / 2, 2, j + 1) / mp.mpf(2) ** (j + 1),
            mp.pi**2 / 12 - mp.log(2) ** 2 / 2,
            E3,
            500,
        )
    ),
)
add(
    "closed/li2-two-thirds",
    ["--rpe", "(2/3)**n/n**2", *eps_args(E3)],
    True,
    "Li2(2/3).",
    cached(lambda: (mp.polylog(2, mp.mpf(2) / 3), mp.mpf(10) ** -45)),
    cached(
        lambda: R.trf_from_tail(
            lambda j: mp.lerchphi(mp.mpf(2) / 3, 2, j + 1) * (mp.mpf(2) / 3) ** (j + 1),
            mp.polylog(2, mp.mpf(2) / 3),
            E3,
            500,
        )
    ),
)
add(
    "closed/exp-minus-1",
    ["--rpe", "1/factorial(n)", *eps_args(E3)],
    True,
    "e - 1.",
    lambda: (mp.e - 1, mp.mpf(10) ** -45),
    cached(lambda: R.trf_from_terms([1 / mp.factorial(n) for n in range(1, 40)], mp.e - 1, E3)),
)
add(
    "closed/telescoping-factorial",
    ["--rpe", "n/factorial(n+1)", *eps_args(E3)],
    True,
    "n/(n+1)! = 1/n! - 1/(n+1)!: B = 1, R_j = 1/(j+1)!.",
    exact(1),
    lambda: R.trf_from_tail(lambda j: Fraction(1, int(mp.factorial(j + 1))), Fraction(1), E3, 100),
)
_CB = lambda: (9 + 2 * mp.pi * mp.sqrt(3)) / 27  # noqa: E731
add(
    "closed/central-binomial-reciprocal",
    ["--rpe", "1/binomial(2*n, n)", *eps_args(E3)],
    True,
    "sum_{n>=0} 1/C(2n,n) = 4/3 + 2 pi sqrt(3)/27; from n = 1: (9 + 2 pi sqrt 3)/27.",
    cached(lambda: (_CB(), mp.mpf(10) ** -45)),
    cached(lambda: R.trf_from_terms([1 / mp.binomial(2 * n, n) for n in range(1, 60)], _CB(), E3)),
)


def _cterms(N):
    c, out = mp.mpf(1), []
    for n in range(1, N + 1):
        c = c * (2 * n - 1) / (2 * n)  # C(2n,n)/4^n
        out.append(c / n)
    return out


add(
    "closed/central-binomial-over-n4n",
    ["--rpe", "binomial(2*n, n)/(n*4**n)", "--eps", "0.1", "0.01", "0.003"],
    True,
    "sum C(2n,n) x^n/n = 2 ln(2/(1 + sqrt(1 - 4x))) at x = 1/4: 2 ln 2.",
    lambda: (2 * mp.log(2), mp.mpf(10) ** -45),
    cached(lambda: R.trf_from_terms(_cterms(200000), 2 * mp.log(2), (0.1, 0.01, 0.003))),
)
add(
    "closed/gamma-ratio",
    ["--rpe", "gamma(n + 1/2)/gamma(n + 2)", *eps_args(E3)],
    True,
    "sum_{n>=m} G(n+a)/G(n+b) = G(m+a)/((b-a-1) G(m+b-1)); a = 1/2, b = 2: B = sqrt(pi), "
    "R_j = 2 G(j + 3/2)/G(j + 2).",
    lambda: (mp.sqrt(mp.pi), mp.mpf(10) ** -45),
    cached(
        lambda: R.trf_from_tail(
            lambda j: 2 * mp.gamma(j + mp.mpf(3) / 2) / mp.gamma(j + 2), mp.sqrt(mp.pi), E3, 10**8
        )
    ),
)
add(
    "closed/product-telescoping",
    ["--rpe", "Product(m/(m + 2), (m, 1, n))", *eps_args(E3)],
    True,
    "prod m/(m+2) = 2/((n+1)(n+2)): B = 1, R_j = 2/(j+2); eps = 0.1 meets R_18 = 1/10 "
    "exactly (a tie: no crossing), TRF(0.1) = 19.",
    exact(1),
    lambda: R.trf_from_tail(lambda j: Fraction(2, j + 2), Fraction(1), E3, 10**5),
)


def _odd_tail(j):  # sum over odd n > j of 1/n^2 = zeta(2, m0/2)/4, m0 the least odd > j
    m0 = j + 1 if (j + 1) % 2 else j + 2
    return mp.zeta(2, mp.mpf(m0) / 2) / 4


add(
    "closed/odd-squares-floor",
    ["--rpe", "(n - 2*floor(n/2))/n**2", *eps_args(E7)],
    True,
    "n - 2 floor(n/2) is 1 on odd n, 0 on even: B = pi^2/8.",
    lambda: (mp.pi**2 / 8, mp.mpf(10) ** -45),
    cached(lambda: R.trf_from_tail(_odd_tail, mp.pi**2 / 8, E7)),
)


@cached
def _pw_B():
    return mp.fsum(1 / mp.mpf(n) ** 2 for n in range(1, 10)) + mp.mpf(2) ** -9, mp.mpf(10) ** -45


add(
    "closed/piecewise",
    ["--rpe", "Piecewise((1/n**2, n < 10), (2**(-n), True))", *eps_args(E3)],
    True,
    "finitely many 1/n^2, then 2^-n: B = H_9^(2) + 2^-9.",
    _pw_B,
    cached(
        lambda: R.trf_from_terms(
            [1 / mp.mpf(n) ** 2 if n < 10 else mp.mpf(2) ** -n for n in range(1, 60)],
            _pw_B()[0],
            E3,
        )
    ),
)
add(
    "closed/max-power-geometric",
    ["--rpe", "Max(1/n**2, 2**(-n))", *eps_args(E7)],
    True,
    "equals 1, 1/4, 1/8, 1/16, then 1/n^2 from n = 5: B = zeta(2) + 1/8 - 1/9; "
    "R_j = zeta(2, j+1) for j >= 4.",
    lambda: (mp.zeta(2) + mp.mpf(1) / 8 - mp.mpf(1) / 9, mp.mpf(10) ** -45),
    cached(
        lambda: R.trf_from_tail(
            lambda j: mp.zeta(2, j + 1),
            mp.zeta(2) + mp.mpf(1) / 8 - mp.mpf(1) / 9,
            E7,
        )
    ),
)
add(
    "closed/min-harmonic-geometric",
    ["--rpe", "Min(1/n, 2**(-n))", *eps_args(E7)],
    True,
    "2^-n <= 1/n for n >= 1: B = 1, R_j = 2^-j.",
    exact(1),
    lambda: R.trf_from_tail(lambda j: Fraction(1, 2**j), Fraction(1), E7, 100),
)


@cached
def _sin2_terms():
    return [mp.sin(n) ** 2 / mp.mpf(n) ** 2 for n in range(1, 3000)]


add(
    "closed/sin2-over-n2",
    ["--rpe", "sin(n)**2/n**2", *eps_args(E3)],
    True,
    "sum sin^2 n/n^2 = (pi - 1)/2 (from sum cos(2n)/n^2 = pi^2/6 - pi + 1, Clausen).",
    lambda: ((mp.pi - 1) / 2, mp.mpf(10) ** -45),
    cached(lambda: R.trf_from_terms(_sin2_terms(), (mp.pi - 1) / 2, E3)),
)
add(
    "closed/sin-over-n",
    ["--rpe", "sin(n)/n", "--eps", "0.1", "0.01"],
    True,
    "Dirichlet; B = (pi - 1)/2; |R_k| <= 1/(sin(1/2)(k + 1)) by Abel summation.",
    lambda: ((mp.pi - 1) / 2, mp.mpf(10) ** -45),
    cached(
        lambda: R.trf_signed(
            [mp.sin(n) / n for n in range(1, 2600)],
            (mp.pi - 1) / 2,
            (0.1, 0.01),
            lambda K: 1 / (mp.sin(mp.mpf(1) / 2) * (K + 1)),
        )
    ),
    others=True,
)
add(
    "closed/cos-over-n2",
    ["--rpe", "cos(n)/n**2", *eps_args(E3)],
    True,
    "sum cos(n)/n^2 = pi^2/6 - pi/2 + 1/4; |R_k| <= 1/(sin(1/2)(k + 1)^2) (Abel).",
    lambda: (mp.pi**2 / 6 - mp.pi / 2 + mp.mpf(1) / 4, mp.mpf(10) ** -45),
    cached(
        lambda: R.trf_signed(
            [mp.cos(n) / mp.mpf(n) ** 2 for n in range(1, 400)],
            mp.pi**2 / 6 - mp.pi / 2 + mp.mpf(1) / 4,
            E3,
            lambda K: 1 / (mp.sin(mp.mpf(1) / 2) * (K + 1) ** 2),
        )
    ),
    others=True,
)
_TS = lambda: mp.pi**2 / 3 + mp.clsin(2, 1)  # noqa: E731
add(
    "closed/two-plus-sin-over-n2",
    ["--rpe", "(2 + sin(n))/n**2", *eps_args(E3)],
    True,
    "positive; B = 2 zeta(2) + Cl_2(1) (sum sin(n)/n^2).",
    cached(lambda: (_TS(), mp.mpf(10) ** -45)),
    cached(
        lambda: R.trf_from_terms(
            [(2 + mp.sin(n)) / mp.mpf(n) ** 2 for n in range(1, 6000)], _TS(), E3
        )
    ),
)
add(
    "closed/atan-telescoping",
    ["--rpe", "atan(2/n**2)", *eps_args(E7)],
    True,
    "atan(2/n^2) = atan(1/(n-1)) - atan(1/(n+1)) (n >= 2): B = atan 2 + pi/4 + atan(1/2) = "
    "3 pi/4; R_j = atan(1/j) + atan(1/(j+1)) for j >= 1.",
    lambda: (3 * mp.pi / 4, mp.mpf(10) ** -45),
    cached(
        lambda: R.trf_from_tail(
            lambda j: (
                3 * mp.pi / 4 if j == 0 else mp.atan(mp.mpf(1) / j) + mp.atan(mp.mpf(1) / (j + 1))
            ),
            3 * mp.pi / 4,
            E7,
        )
    ),
)
add(
    "closed/inverse-square-differences",
    ["--rpe", "1/n**2 - 1/(n+1)**2", *eps_args(E7)],
    True,
    "telescoping: B = 1, R_j = 1/(j+1)^2.",
    exact(1),
    lambda: R.trf_from_tail(lambda j: Fraction(1, (j + 1) ** 2), Fraction(1), E7),
)
add(
    "closed/log-over-n2",
    ["--rpe", "log(n)/n**2", *eps_args(E3)],
    True,
    "B = -zeta'(2); R_j = -zeta'(2, j + 1) (Hurwitz, derivative in s).",
    lambda: (-mp.zeta(2, 1, 1), mp.mpf(10) ** -45),
    cached(lambda: R.trf_from_tail(lambda j: -mp.zeta(2, j + 1, 1), -mp.zeta(2, 1, 1), E3)),
)
add(
    "closed/floor-half-signs",
    ["--rpe", "(-1)**floor(n/2)/n", "--eps", "0.1"],
    True,
    "signs + - - + + - - ...: (1 - 1/3 + 1/5 ...) - (1/2 - 1/4 + ...) = pi/4 - ln(2)/2.",
    lambda: (mp.pi / 4 - mp.log(2) / 2, mp.mpf(10) ** -45),
    others=True,
)

# ---------------------------------------------------------------------------------------
# Oscillating and other verdict-only cases
# ---------------------------------------------------------------------------------------
add(
    "osc/alt-n-over-n2p1",
    ["--rpe", "(-1)**n*n/(n**2 + 1)"],
    True,
    "Leibniz: n/(n^2+1) decreases to 0 for n >= 1.",
    others=True,
)
add(
    "osc/sin2-over-n",
    ["--rpe", "sin(n)**2/n"],
    False,
    "sin^2 n/n = 1/(2n) - cos(2n)/(2n): harmonic minus a convergent series.",
)
add(
    "osc/abs-cos-over-n",
    ["--rpe", "Abs(cos(n))/n"],
    False,
    "|cos n| >= cos^2 n and sum cos^2(n)/n diverges.",
)
add(
    "osc/max-cos-0-over-sqrt",
    ["--rpe", "Max(cos(n), 0)/sqrt(n)"],
    False,
    "Max(cos n, 0) >= cos(n)(1 + cos n)/2, whose mean is 1/4 > 0.",
)
add(
    "osc/flint-hills",
    ["--rpe", "1/(n**3*sin(n)**2)"],
    "open",
    "the Flint Hills series: convergence is an open problem (depends on the irrationality "
    "measure of pi).",
)
add("osc/exp-sin2n-over-n3", ["--rpe", "exp(sin(2*n))/n**3"], True, "0 < b <= e/n^3.")
add("osc/sin-inv-n", ["--rpe", "sin(1/n)"], False, "sin(1/n) >= 2/(pi n).")
add("osc/sin2-inv-n", ["--rpe", "sin(1/n)**2"], True, "sin^2(1/n) <= 1/n^2.")
add("osc/one-minus-cos-inv-n", ["--rpe", "1 - cos(1/n)"], True, "1 - cos(x) <= x^2/2.")
add(
    "osc/n-sin-inv-n-minus-1",
    ["--rpe", "n*sin(1/n) - 1"],
    True,
    "-1/(6n^2) <= n sin(1/n) - 1 <= 0: all terms <= 0, |b| <= 1/(6 n^2).",
)
add(
    "osc/n-pow-minus-1-minus-1-over-n", ["--rpe", "n**(-1 - 1/n)"], False, "n^(-1/n) -> 1: b ~ 1/n."
)
add(
    "osc/n-pow-minus-1-minus-1-over-sqrt",
    ["--rpe", "1/n**(1 + 1/sqrt(n))"],
    False,
    "n^(-1/sqrt n) = e^(-ln n/sqrt n) -> 1: b ~ 1/n.",
)
add(
    "osc/one-plus-inv-n-pow-n-over-n2",
    ["--rpe", "(1 + 1/n)**n/n**2"],
    True,
    "(1 + 1/n)^n < e: b < e/n^2.",
)
add(
    "osc/one-minus-inv-n-pow-n2",
    ["--rpe", "(1 - 1/n)**(n**2)", "--start", "2"],
    True,
    "(1 - 1/n)^(n^2) <= e^-n.",
)
add(
    "osc/exp-minus-n-cosh",
    ["--rpe", "exp(-n)*cosh(n)"],
    False,
    "e^-n cosh n = (1 + e^-2n)/2 -> 1/2.",
)
add("osc/tanh-inv-n-over-n", ["--rpe", "tanh(1/n)/n"], True, "tanh x <= x: b <= 1/n^2.")
add("osc/log-over-n", ["--rpe", "log(n)/n"], False, "log(n)/n >= 1/n for n >= 3.")
add(
    "osc/n-log2-plus-1",
    ["--rpe", "1/(n*(log(n)**2 + 1))"],
    True,
    "integral: int dx/(x (ln^2 x + 1)) = atan(ln x) bounded.",
)
add("osc/factorial-over-nn", ["--rpe", "factorial(n)/n**n"], True, "ratio (n/(n+1))^n -> 1/e < 1.")
add(
    "osc/gamma-third-ratio",
    ["--rpe", "gamma(n + 1/3)/gamma(n + 4/3)"],
    False,
    "Gamma(n + 1/3)/Gamma(n + 4/3) = 1/(n + 1/3).",
)
add(
    "osc/product-half-diverges",
    ["--rpe", "Product(1 - 1/(2*m), (m, 1, n))"],
    False,
    "= C(2n,n)/4^n ~ 1/sqrt(pi n).",
)


@cached
def _B_binom5():
    return mp.mpf(63), mp.mpf(10) ** -45


add(
    "prod/binomial-n5-over-2n",
    ["--rpe", "binomial(n + 5, 5)/2**n", *eps_args(E3)],
    True,
    "sum_{n>=0} C(n+5,5) x^n = (1 - x)^-6 at x = 1/2: 64; minus the n = 0 term: 63.",
    _B_binom5,
    cached(
        lambda: R.trf_from_terms(
            [mp.binomial(n + 5, 5) / mp.mpf(2) ** n for n in range(1, 200)], mp.mpf(63), E3
        )
    ),
)
add(
    "prod/product-1-plus-inv-m-over-n3",
    ["--rpe", "Product(1 + 1/m, (m, 1, n))/n**3", *eps_args(E7)],
    True,
    "prod (1 + 1/m) = n + 1: b = 1/n^2 + 1/n^3, B = zeta(2) + zeta(3).",
    lambda: (mp.zeta(2) + mp.zeta(3), mp.mpf(10) ** -45),
    cached(
        lambda: R.trf_from_tail(
            lambda j: mp.zeta(2, j + 1) + mp.zeta(3, j + 1), mp.zeta(2) + mp.zeta(3), E7
        )
    ),
)


def _c3_terms(N):
    c, out = mp.mpf(1), []
    for n in range(1, N + 1):
        c = c * (2 * n - 1) / (2 * n)
        out.append(c**3)
    return out


_C3B = lambda: mp.pi / mp.gamma(mp.mpf(3) / 4) ** 4 - 1  # noqa: E731
add(
    "prod/product-half-cubed",
    ["--rpe", "Product(1 - 1/(2*m), (m, 1, n))**3", "--eps", "0.1", "0.01"],
    True,
    "(C(2n,n)/4^n)^3 ~ (pi n)^-3/2; sum_{n>=0} = 3F2(1/2,1/2,1/2;1,1;1) = pi/Gamma(3/4)^4.",
    cached(lambda: (_C3B(), mp.mpf(10) ** -45)),
    cached(lambda: R.trf_from_terms(_c3_terms(40000), _C3B(), (0.1, 0.01))),
)
_G7 = lambda: 2 * mp.pi / (3 * mp.sqrt(3))  # noqa: E731
add(
    "prod/beta-n-n",
    ["--rpe", "gamma(n)**2/gamma(2*n)", *eps_args(E3)],
    True,
    "Gamma(n)^2/Gamma(2n) = 2/(n C(2n,n)); sum 1/(n C(2n,n)) = pi/(3 sqrt 3).",
    cached(lambda: (_G7(), mp.mpf(10) ** -45)),
    cached(
        lambda: R.trf_from_terms(
            [mp.gamma(n) ** 2 / mp.gamma(2 * n) for n in range(1, 60)], _G7(), E3
        )
    ),
)


def _arcsin_terms(N):
    t, out = mp.mpf(2), []  # n = 1: 4/(1 * C(2,1)) = 2
    for n in range(1, N + 1):
        out.append(t)
        t = t * 2 * mp.mpf(n) ** 2 / ((n + 1) * (2 * n + 1))
    return out


add(
    "prod/arcsin-squared",
    ["--rpe", "4**n/(n**2*binomial(2*n, n))", "--eps", "0.1", "0.01"],
    True,
    "arcsin^2 x = (1/2) sum (2x)^(2n)/(n^2 C(2n,n)); x = 1: B = pi^2/2. Terms ~ sqrt(pi/n)/n.",
    lambda: (mp.pi**2 / 2, mp.mpf(10) ** -45),
    cached(lambda: R.trf_from_terms(_arcsin_terms(20000), mp.pi**2 / 2, (0.1, 0.01))),
)

# ---------------------------------------------------------------------------------------
# Extreme constants and indices
# ---------------------------------------------------------------------------------------
add(
    "extreme/exp-tiny-rate",
    ["--rpe", "exp(-1e-300*n)", *eps_args(E3)],
    True,
    "geometric, q = e^-1e-300: B = q/(1 - q) ~ 1e300; R_j/B = q^j.",
    cached(lambda: (-mp.exp(-mp.mpf("1e-300")) / mp.expm1(-mp.mpf("1e-300")), mp.mpf(10) ** 200)),
    lambda: {e: ("log10", R.geometric_trf_log10(mp.mpf("1e-300"), e), 1e-9) for e in E3},
)
add(
    "extreme/zeta-1e300",
    ["--rpe", "n**(-1e300)", *eps_args(E3)],
    True,
    "B = zeta(1e300) = 1 + 2^-1e300 + ...; TRF = 1.",
    lambda: (mp.mpf(1), mp.mpf(10) ** -45),
    lambda: {e: 1 for e in E3},
)
add(
    "extreme/huge-constant-geometric",
    ["--rpe", "1e300*2**(-n)", *eps_args(E7)],
    True,
    "B = 1e300; R_j/B = 2^-j.",
    lambda: (mp.mpf(10) ** 300, mp.mpf(10) ** 250),
    lambda: R.trf_from_tail(lambda j: Fraction(1, 2**j), Fraction(1), E7, 100),
)
add(
    "extreme/tiny-constant-basel",
    ["--rpe", "1e-300/n**2", *eps_args(E3)],
    True,
    "B = 1e-300 zeta(2); TRF as for 1/n^2 (R_j = zeta(2, j + 1)).",
    lambda: (mp.mpf(10) ** -300 * mp.zeta(2), mp.mpf(10) ** -340),
    cached(lambda: R.trf_from_tail(lambda j: mp.zeta(2, j + 1), mp.zeta(2), E3)),
)
add(
    "extreme/exp-huge-rate",
    ["--rpe", "exp(-1e300*n)", *eps_args(E3)],
    True,
    "b_1 = e^-1e300 dominates: TRF = 1.",
    None,
    lambda: {e: 1 for e in E3},
)


@cached
def _n2_tiny_rate_log10():
    # b = n^2 q^n, q = e^-k, k = 1e-100: R_j/B -> Q(3, k j) = e^-x (1 + x + x^2/2), x = k j
    out = {}
    for e in E3:
        t = R.eps_mp(e)
        x = mp.findroot(lambda x, t=t: mp.exp(-x) * (1 + x + x**2 / 2) - t, 5)
        out[e] = ("log10", 100 + float(mp.log10(x)), 1e-9)
    return out


add(
    "extreme/n2-tiny-rate",
    ["--rpe", "n**2*exp(-1e-100*n)", *eps_args(E3)],
    True,
    "sum n^2 q^n = q(1 + q)/(1 - q)^3 ~ 2e300; TRF ~ x/k with e^-x (1 + x + x^2/2) = eps.",
    cached(
        lambda: (
            (lambda q: q * (1 + q) / (-mp.expm1(-mp.mpf("1e-100"))) ** 3)(
                mp.exp(-mp.mpf("1e-100"))
            ),
            mp.mpf(10) ** 250,
        )
    ),
    _n2_tiny_rate_log10,
)


@cached
def _basel_eps_300():
    # R_j = zeta(2, j + 1) = 1/(j + 1/2) + O(j^-3): j = 1/(eps zeta(2)) - 1/2
    return {1e-300: ("log10", float(mp.log10(1 / (mp.mpf(10) ** -300 * mp.zeta(2)))), 1e-9)}


add(
    "extreme/basel-eps-1e-300",
    ["--rpe", "1/n**2", "--eps", "1e-300"],
    True,
    "R_j = zeta(2, j + 1) ~ 1/j: TRF ~ 1/(eps zeta(2)) ~ 6.1e299.",
    lambda: (mp.zeta(2), mp.mpf(10) ** -45),
    _basel_eps_300,
)
add(
    "extreme/geometric-eps-near-1",
    ["--rpe", "exp(-n)", "--eps", "0.999999", "1e-12"],
    True,
    "R_j/B = e^-j: TRF(0.999999) = 1, TRF(1e-12) = 28 (e^-27.63 = 1e-12).",
    cached(lambda: (1 / (mp.e - 1), mp.mpf(10) ** -45)),
    lambda: {0.999999: 1, 1e-12: 28},
)
add(
    "extreme/basel-start-1e6",
    ["--rpe", "1/n**2", "--start", "1000000", "--eps", "0.5", "0.1"],
    True,
    "B = zeta(2, 1e6); R_j = zeta(2, 1e6 + j).",
    lambda: (mp.zeta(2, 10**6), mp.mpf(10) ** -50),
    cached(
        lambda: R.trf_from_tail(
            lambda j: mp.zeta(2, 10**6 + j), mp.zeta(2, 10**6), (0.5, 0.1), hi=10**8
        )
    ),
    start=10**6,
)
add(
    "extreme/gauss-start-1e6",
    ["--rpe", "exp(-n**2)", "--start", "1000000", *eps_args(E3)],
    True,
    "b_(1e6) = e^-1e12 and b_(1e6+1)/b_(1e6) = e^-(2e6+1): TRF = 1.",
    None,
    lambda: {e: 1 for e in E3},
    start=10**6,
)
add(
    "extreme/geometric-negative-start",
    ["--rpe", "exp(-n)", "--start", "-5", *eps_args(E3)],
    True,
    "from n = -5: B = e^5/(1 - 1/e), R_j/B = e^-j (a refusal of a negative start is honest).",
    cached(lambda: (mp.exp(5) / (1 - mp.exp(-1)), mp.mpf(10) ** -40)),
    lambda: {0.1: 3, 0.01: 5, 0.001: 7},
    start=-5,
    error_ok=True,
)
add(
    "extreme/tower-constant",
    ["--rpe", "2**(-10**10**10)"],
    False,
    "a positive constant (2^-(10^(10^10)) > 0): terms do not tend to 0.",
    error_ok=True,
)
add(
    "extreme/huge-power-growth",
    ["--rpe", "n**(10**1000)"],
    False,
    "terms >= 1.",
)

# ---------------------------------------------------------------------------------------
# Free-parameter families with known regions
# ---------------------------------------------------------------------------------------


def fam(id_, args, pred, grid, note, others=True):
    add(id_, args, None, note, cond=(pred, grid), others=others)


_P = lambda vals: [{"p": v} for v in vals]  # noqa: E731
fam(
    "free/p-series",
    ["--rpe", "1/n**p", "--free", "p"],
    lambda d: d["p"] > 1,
    _P([-1, 0, 0.5, 1, 1.0001, 2, 10]),
    "p-series.",
)
fam(
    "free/exp-k",
    ["--rpe", "exp(-k*n)", "--free", "k"],
    lambda d: d["k"] > 0,
    [{"k": v} for v in (-1, 0, 0.001, 5)],
    "geometric iff e^-k < 1.",
)
fam(
    "free/power-times-exp",
    ["--rpe", "n**p*exp(-n)", "--free", "p"],
    lambda d: True,
    _P([-5, 0, 3, 100]),
    "e^-n beats every power.",
)
fam(
    "free/bertrand",
    ["--rpe", "1/(n*log(n)**p)", "--free", "p", "--start", "2"],
    lambda d: d["p"] > 1,
    _P([0, 1, 1.5, 3]),
    "Bertrand.",
)
fam(
    "free/kerple-r",
    ["--rpe", "(1 + 3*n)**(-r)", "--free", "r", "--assume", "r>0"],
    lambda d: d["r"] > 1,
    [{"r": v} for v in (0.5, 1, 1.01, 4)],
    "~ (3n)^-r.",
)
fam(
    "free/log1p-power",
    ["--rpe", "log(1 + 1/n**p)", "--free", "p", "--assume", "p>0"],
    lambda d: d["p"] > 1,
    _P([0.5, 1, 2]),
    "log(1 + x) ~ x.",
)
fam(
    "free/one-minus-cos-power",
    ["--rpe", "(1 - cos(1/n))**p", "--free", "p", "--assume", "p>0"],
    lambda d: 2 * d["p"] > 1,
    _P([0.25, 0.5, 0.75, 2]),
    "(1 - cos(1/n))^p ~ (2 n^2)^-p.",
)
fam(
    "free/sin-inv-n-power",
    ["--rpe", "sin(1/n)**p", "--free", "p", "--assume", "p>0"],
    lambda d: d["p"] > 1,
    _P([0.5, 1, 3]),
    "sin(1/n) ~ 1/n.",
)
fam(
    "free/exponential-series",
    ["--rpe", "x**n/factorial(n)", "--free", "x"],
    lambda d: True,
    [{"x": v} for v in (-5, 0, 2)],
    "absolutely convergent for every x.",
)
fam(
    "free/two-param-log",
    ["--rpe", "n**a/log(n)**b", "--free", "a", "--free", "b", "--start", "2"],
    lambda d: d["a"] < -1 or (d["a"] == -1 and d["b"] > 1),
    [{"a": a, "b": b} for a in (-2, -1, 0) for b in (0, 1, 2)],
    "Bertrand in two parameters.",
)
fam(
    "free/sum-of-powers",
    [
        "--rpe",
        "1/(n**p + n**q)",
        "--free",
        "p",
        "--free",
        "q",
        "--assume",
        "p>0",
        "--assume",
        "q>0",
    ],
    lambda d: max(d["p"], d["q"]) > 1,
    [{"p": p, "q": q} for p in (0.5, 1, 2) for q in (0.5, 1, 2)],
    "~ n^-max(p, q).",
)
fam(
    "free/stretched",
    ["--rpe", "exp(-n**a)", "--free", "a", "--assume", "a>0"],
    lambda d: True,
    [{"a": v} for v in (0.01, 0.5, 1, 3)],
    "stretched exponential for every a > 0.",
)
fam(
    "free/geometric-over-n2",
    ["--rpe", "a**n/n**2", "--free", "a", "--assume", "a>0"],
    lambda d: d["a"] <= 1,
    [{"a": v} for v in (0.5, 1, 1.5)],
    "ratio a; at a = 1 zeta(2).",
)
fam(
    "free/gamma-ratio",
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
    lambda d: d["b"] - d["a"] > 1,
    [{"a": a, "b": b} for a in (0.5, 1) for b in (1, 2, 3)],
    "~ n^(a - b).",
)
fam(
    "free/one-plus-n2-power",
    ["--rpe", "1/(1 + n**2)**s", "--free", "s"],
    lambda d: 2 * d["s"] > 1,
    [{"s": v} for v in (-1, 0, 0.5, 0.75, 1)],
    "~ n^-2s.",
)
fam(
    "free/alternating",
    ["--rpe", "(-1)**n/n**p", "--free", "p", "--assume", "p>0"],
    lambda d: True,
    _P([0.5, 1, 2]),
    "Leibniz for every p > 0.",
)
fam(
    "free/log-cube-over-np",
    ["--rpe", "log(n)**3/n**p", "--free", "p"],
    lambda d: d["p"] > 1,
    _P([0, 1, 1.5]),
    "log powers do not move the boundary.",
)
fam(
    "free/gauss-log",
    ["--rpe", "exp(-c*log(n)**2)", "--free", "c"],
    lambda d: d["c"] > 0,
    [{"c": v} for v in (-1, 0, 0.01, 2)],
    "n^(-c ln n).",
)
fam(
    "free/ratio-power",
    ["--rpe", "(n/(n + 1))**(n**p)", "--free", "p", "--assume", "p>0"],
    lambda d: d["p"] > 1,
    _P([0.5, 1, 1.5, 3]),
    "n^p ln(1 - 1/(n+1)) ~ -n^(p-1): stretched exponential iff p > 1; -> e^-1 at p = 1.",
)
fam(
    "free/bertrand-loglog",
    ["--rpe", "1/(n*log(n)*log(log(n))**p)", "--free", "p", "--start", "16"],
    lambda d: d["p"] > 1,
    _P([0, 1, 2]),
    "Bertrand at the second level.",
)

# ---------------------------------------------------------------------------------------
# Refused input: exit 2 with one error line
# ---------------------------------------------------------------------------------------
for _i, _args in enumerate(
    [
        ["--rpe", "__import__('os').system('true')"],
        ["--rpe", "lambda n: 1/n**2"],
        ["--rpe", "(1/n).__class__"],
        ["--rpe", "n.real"],
        ["--rpe", "1/n**"],
        ["--rpe", "exp(-n"],
        ["--rpe", ""],
        ["--rpe", "1/n**2; 1"],
        ["--rpe", "[1/n**k for k in (2,)]"],
        ["--rpe", "open('/etc/passwd')"],
        ["--rpe", "1/q**2"],
        ["--rpe", "1/n**2", "--eps", "0"],
        ["--rpe", "1/n**2", "--eps", "1"],
        ["--rpe", "1/n**2", "--eps", "nan"],
        ["--rpe", "alibi", "--param", "k=inf"],
        ["--rpe", "nosuchrpe"],
        ["--rpe", "1/n**2", "--start", "0"],
        ["--rpe", "1/n**2", "--time-limit", "-1"],
        ["--rpe", "1/n**2", "--param", "n=3"],
        ["--rpe", "globals()"],
        ["--rpe", "1/n if n else 0"],
        ["--bias", "getattr(n, 'real')"],
    ]
):
    add(f"refuse/{_i:02d}", _args, None, "unsafe, malformed or out-of-range input: refused.")

#: series for the Ctrl-C trials (each runs long enough to be interrupted)
SIGINT_SERIES = [
    ["--rpe", "n**(-log(log(n)))", "--start", "3"],
    ["--rpe", "kerple-log", "--param", "k=1e-300", "--param", "r=2"],
    ["--rpe", "n**(-1e300)"],
    ["--rpe", "n**a/log(n)**b", "--free", "a", "--free", "b", "--start", "2"],
    ["--rpe", "sin(1/n)**p", "--free", "p", "--assume", "p>0"],
]

#: cases kept out of the set's 100 (simpler instances of what the set already covers); the
#: runner takes them with ``--extra``
_EXTRA_IDS = {
    *(f"refuse/{i:02d}" for i in (3, 5, 6, 7, 8, 10, 12, 13, 14, 15, 17, 18, 20, 21)),
    "bias/refuse-minus-inf-npy",
    "bias/refuse-empty-text",
    "bias/refuse-words",
    "bias/refuse-one-value-linear",
    "bias/refuse-complex-npy",
    "bias/missing-file",
    "bias/formula-sqrt-log2",
    "bias/formula-1-minus-n",
    "bias/text-constant",
    "bias/formula-gaussian",
    "osc/sin-inv-n",
    "osc/sin2-inv-n",
    "osc/one-minus-cos-inv-n",
    "osc/log-over-n",
    "osc/tanh-inv-n-over-n",
    "osc/exp-minus-n-cosh",
    "osc/one-plus-inv-n-pow-n-over-n2",
    "osc/one-minus-inv-n-pow-n2",
    "osc/factorial-over-nn",
    "osc/n-log2-plus-1",
    "osc/alt-n-over-n2p1",
    "osc/gamma-third-ratio",
    "osc/sin2-over-n",
    "closed/n-over-2n",
    "closed/exp-minus-1",
    "closed/inverse-square-differences",
    "closed/li2-half",
    "closed/telescoping-factorial",
    "closed/odd-telescoping",
    "closed/n3-over-3n",
    "closed/alt-basel",
    "closed/log2-polylog",
    "closed/central-binomial-reciprocal",
    "closed/min-harmonic-geometric",
    "closed/two-plus-sin-over-n2",
    "closed/telescoping-3",
    "free/exponential-series",
    "free/log1p-power",
    "free/log-cube-over-np",
    "free/stretched",
    "free/kerple-r",
    "free/bertrand",
    "free/sin-inv-n-power",
    "free/one-plus-n2-power",
    "free/gauss-log",
    "named/inv-nlogn",
    "named/alibi-zero-slope",
    "named/kerple-log-r-1",
    "named/type1-compare-type2",
    "named/kerple-power-r-3",
    "named/type2-eps-1e-12",
    "named/t5-constant-tail",
    "prod/binomial-n5-over-2n",
    "extreme/tiny-constant-basel",
    "extreme/gauss-start-1e6",
    "extreme/huge-power-growth",
    "rpe/exp-exp",
    "rpe/exp-cuberoot",
    "rpe/n-pow-minus-sqrt",
    "rpe/exp-minus-n-plus-sin",
    "log/log-pow-0.9999",
    "log/power-1-plus-1-over-loglog",
    "log/log100-over-n1.01",
    "log/exp-log-over-loglog",
}
_ALL = CASES
CASES = [c for c in _ALL if c.id not in _EXTRA_IDS]
EXTRA_CASES = [c for c in _ALL if c.id in _EXTRA_IDS]
assert len(EXTRA_CASES) == len(_EXTRA_IDS), sorted(_EXTRA_IDS - {c.id for c in _ALL})
assert len({c.id for c in _ALL}) == len(_ALL)
