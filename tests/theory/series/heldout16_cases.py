"""Held-out set 16: commands typed into ``python -m theory.trf``, with the verdict derived by
hand (the argument in each ``note``) and, where the series converges, a reference B and
TRF(eps) computed independently with mpmath at 50 digits or with exact Fractions
(``heldout16_reference``), each checked a second way (closed tails against the partial sums
and the telescoping identity R(j) - R(j + 1) = b_(s + j), zeta series against Euler-Maclaurin,
two splits of Euler-Maclaurin with the tail integral two ways, the binary values of the bias
files widened exactly).

Families not emphasised in sets 5-15, and not among the formulas of the project's own tests,
docs and benchmarks (each formula grepped there first):

1. the special functions the parser accepts (atan, sinh, tanh, gamma, factorial, binomial,
   log) in telescoping terms with closed B (atan(n + 1) - atan(n), log(1 + 1/n) - 1/(n + 1)
   = digamma tails, a Wallis product, Gauss's sum of gamma ratios, the tree function at its
   branch point, B = 1) and in terms with zeta-series B (sinh(1/n)^2, tanh(1/n^2));
   erfc, polygamma and LambertW are not accepted: refused;
2. exact ties, where Eq. 22's strict ">" decides: ratio 1/2, 1/5, n 2^-n, factorial and
   binomial ratios with rational tails, an atan tail equal to eps B at pi/4, decimals one
   ulp around a tie (eps is the decimal typed), 1/3^k against 0.333...;
3. bias files by content: float32, float16, int64, a hand-written Fortran-ordered 1-D .npy,
   text with '+', -0.0, exponents, CRLF and blank trailing lines, one value, 10^5 values,
   subnormal values (a slope of -2^-1074, a tie broken by e^(-2^-1074) < 1), +-1e308 (sums
   scaled by e^-M), an .npy named .txt; files that must be refused (NaN, inf, 2-D text, a
   CSV header, one value with a linear tail);
4. --start 0, 2, 10^6, 10^12, 10^15; repeated eps, eps one ulp around a tie, eps near 1
   (0.9999999999999999 and 1 - 1e-23) and 1e-15; --truncate on a rational series;
5. iterated logarithms at the edge: n^(-1 - 1/log log n) (B and TRF), n^(-1 - 1/log n)
   (diverges: e^-1/n), n^(-1 - 2 log log n/log n) = 1/(n log^2 n), (log log n)^+-1.01 and
   log log log powers, exp(-n^(1/log log n));
6. two-parameter families, the region checked on grids that include the boundary;
7. refusals: unknown names, eval-injection attempts, Python that is not math, malformed
   formulas, a complex term at the start, exponents with 10^400 and 9^9^9 (a clean refusal is
   honest there, an answer must be right).

The fields of a :class:`Case16` are those of set 15 (``heldout15_cases``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import mpmath as mp
import numpy as np

try:
    from . import heldout16_reference as R
    from .heldout7_cases import Case, cached, eps_args, npy_bytes, txt_bytes
except ImportError:  # run as a script from this folder
    import heldout16_reference as R
    from heldout7_cases import Case, cached, eps_args, npy_bytes, txt_bytes

F = Fraction
E3 = (0.1, 0.01, 0.001)
E4 = (0.5, 0.1, 1e-3, 1e-6)
TINY = mp.mpf(10) ** -40


@dataclass
class Case16(Case):
    truncated: Callable | None = None
    compare: tuple | None = None


CASES: list[Case16] = []


def add(*a, **k):
    CASES.append(Case16(*a, **k))


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


# ---------------------------------------------------------------------------------------
# 1. Special functions, telescoping terms
# ---------------------------------------------------------------------------------------
def _atan_trf():
    pi2 = mp.pi / 2
    Rt = lambda j: pi2 - mp.atan(j)  # noqa: E731
    term = lambda n: mp.atan(1 / mp.mpf(n * n + n + 1))  # noqa: E731
    for n in (0, 1, 7, 1000):  # atan(n + 1) - atan(n) = atan(1/(n^2 + n + 1))
        assert abs(mp.atan(n + 1) - mp.atan(n) - term(n)) < TINY
    out = R.closed_trf(Rt, pi2, (0.1, 1e-3, 1e-6), 10**9, term, start=0)
    # eps = 0.5: R_1 = pi/2 - atan(1) = pi/4 = eps B exactly (no crossing), R_2 = atan(1/2)
    assert abs(Rt(1) - pi2 / 2) < TINY and Rt(2) < pi2 / 2 * (1 - mp.mpf(10) ** -3)
    out[0.5] = 2
    return out


add(
    "telescope/atan-consecutive-start-0-tie-at-pi-over-4",
    ["--rpe", "atan(1/(n**2 + n + 1))", "--start", "0", *eps_args(E4)],
    True,
    "atan(1/(n^2 + n + 1)) = atan(n + 1) - atan(n) (tan subtraction, both in [0, pi/2)): from "
    "n = 0 the sum telescopes to B = pi/2 and the tail from n = j is R_j = pi/2 - atan(j) = "
    "atan(1/j). eps = 0.5: R_1 = pi/4 = eps B exactly, a tie (S_1 = pi/4 is not > B/2): "
    "TRF(0.5) = 2. Others: least j > cot(eps pi/2): 7, 637, 636620 (bisection on the closed "
    "tail, checked on the partial sums).",
    closed(lambda: mp.pi / 2),
    cached(_atan_trf),
    start=0,
)


def _digamma_trf():
    B = 1 - mp.euler
    Rt = lambda j: mp.digamma(j + 2) - mp.log(j + 1)  # noqa: E731
    term = lambda n: mp.log1p(1 / mp.mpf(n)) - 1 / mp.mpf(n + 1)  # noqa: E731
    out = R.closed_trf(Rt, B, E4, 10**9, term)
    for j in out.values():  # second way at the crossings: H_m - log m - gamma, asymptotic
        for m in (j, j + 1):
            m = mp.mpf(m)
            asym = 1 / (2 * m) - 1 / (12 * m**2) + 1 / (120 * m**4) - 1 / (252 * m**6)
            if m > 1000:
                assert abs(asym - Rt(m - 1)) < mp.mpf(10) ** -18 / m, (m,)
    return out


add(
    "telescope/log-one-plus-inv-n-minus-inv-n-plus-1",
    ["--rpe", "log(1 + 1/n) - 1/(n + 1)", *eps_args(E4)],
    True,
    "terms > 0 (log(1 + x) > x/(1 + x)). S_N = log(N + 1) - (H_(N+1) - 1) -> B = 1 - gamma "
    "(Euler's constant) = 0.42278...; the tail after j terms is R_j = H_(j+1) - log(j + 1) - "
    "gamma = digamma(j + 2) - log(j + 1) ~ 1/(2(j + 1)): TRF ~ 1/(2 eps B) (1.18e6 at 1e-6). "
    "Bisection on the closed tail; partial sums for the small crossings, the asymptotic "
    "series of H_m - log m - gamma at the large ones.",
    closed(lambda: 1 - mp.euler),
    cached(_digamma_trf),
)
add(
    "telescope/log-wallis-ratio-start-2",
    ["--rpe", "log(n**2/((n - 1)*(n + 1)))", "--start", "2", *eps_args((0.5, 0.1, 1e-3, 1e-9))],
    True,
    "log(n^2/(n^2 - 1)) = 2 log n - log(n - 1) - log(n + 1) > 0: the product of n^2/((n - 1)(n "
    "+ 1)) over n >= m telescopes to m/(m - 1), so B = log 2 and R_j = log((j + 2)/(j + 1)) "
    "(from n = j + 2) ~ 1/j: TRF(1e-9) ~ 1.44e9. Bisection on the closed tail, partial sums "
    "for the small crossings, R_j - R_(j+1) = b_(j+2) at every crossing.",
    closed(lambda: mp.log(2)),
    cached(
        lambda: R.closed_trf(
            lambda j: mp.log1p(1 / mp.mpf(j + 1)),
            mp.log(2),
            (0.5, 0.1, 1e-3, 1e-9),
            10**12,
            lambda n: mp.log(mp.mpf(n) ** 2 / ((n - 1) * (n + 1))),
            start=2,
        )
    ),
    start=2,
)
_FACT = (0.5, 0.1, 1e-3, 1e-9)
add(
    "rational/factorial-ratio-start-0-tie",
    ["--rpe", "factorial(n)/factorial(n + 3)", "--start", "0", *eps_args(_FACT)],
    True,
    "n!/(n + 3)! = 1/((n + 1)(n + 2)(n + 3)) = (1/2)(1/((n+1)(n+2)) - 1/((n+2)(n+3))): from n = "
    "0, B = 1/4 and R_j = 1/(2(j + 1)(j + 2)), all exact. R_j < eps B iff (j + 1)(j + 2) > "
    "2/eps: eps = 0.1 ties at j = 3 (4 x 5 = 20): TRF = 4; 0.5: 1; 1e-3: 44 (45 x 46 > 2000); "
    "1e-9: 44720 (44721 x 44722 = 2000012562 > 2e9 > 44720 x 44721).",
    exact(F(1, 4)),
    expect(
        lambda: R.frac_checked(
            lambda n: F(1, (n + 1) * (n + 2) * (n + 3)),
            lambda j: F(1, 2 * (j + 1) * (j + 2)),
            0,
            F(1, 4),
            _FACT,
            10**6,
        ),
        {0.5: 1, 0.1: 4, 1e-3: 44, 1e-9: 44720},
    ),
    start=0,
)
_BIN = (0.5, 0.3, 0.1, 0.001)
add(
    "rational/inverse-binomial-ties",
    ["--rpe", "binomial(n + 2, 2)**(-1)", *eps_args(_BIN)],
    True,
    "1/binomial(n + 2, 2) = 2/((n + 1)(n + 2)) = 2/(n + 1) - 2/(n + 2): B = 1, R_j = 2/(j + 2). "
    "R_j < eps iff j + 2 > 2/eps: ties at 0.5 (j = 2), 0.1 (j = 18), 0.001 (j = 1998): TRF = "
    "3, 19, 1999; 0.3: j + 2 > 6.67: 5 (exact Fractions).",
    exact(1),
    expect(
        lambda: R.frac_checked(
            lambda n: F(2, (n + 1) * (n + 2)), lambda j: F(2, j + 2), 1, F(1), _BIN, 10**6
        ),
        {0.5: 3, 0.3: 5, 0.1: 19, 0.001: 1999},
    ),
)
_N2 = (0.5, 0.3125, 0.0625, 0.00048828125)
add(
    "rational/n-times-2-pow-minus-n-ties-truncate-10",
    ["--rpe", "n*2**(-n)", "--truncate", "10", *eps_args(_N2)],
    True,
    "sum_(n>=1) n/2^n = 2, R_j = sum_(n>j) n/2^n = (j + 2)/2^j, R_j/B = (j + 2)/2^(j+1): ties "
    "at 0.5 (j = 2), 0.3125 (5/16, j = 3), 0.0625 (8/128, j = 6), 0.00048828125 (16/32768, j = "
    "14): TRF = 3, 4, 7, 15 (strict >). Truncated (App. E, M = 10, B_10 = 2 - 12/1024, S_j >= "
    "(1 - eps) B_10, exact Fractions).",
    exact(2),
    expect(
        lambda: R.frac_checked(
            lambda n: F(n, 2**n), lambda j: F(j + 2, 2**j), 1, F(2), _N2, 10**4, far=1000
        ),
        {0.5: 3, 0.3125: 4, 0.0625: 7, 0.00048828125: 15},
    ),
    truncated=cached(lambda: R.truncated_trf([F(n, 2**n) for n in range(1, 11)], _N2)),
)
_G2 = (0.5, 0.25, 0.0009765625, 1e-15)
add(
    "geometric/exp-n-log-2-start-0-ties",
    ["--rpe", "exp(-n*log(2))", "--start", "0", *eps_args(_G2)],
    True,
    "exp(-n log 2) = 2^-n from n = 0: B = 2, R_j/B = 2^-j exactly. eps = 2^-1, 2^-2, 2^-10 tie "
    "at j = 1, 2, 10 (S_j = B (1 - eps), not >): TRF = 2, 3, 11; 1e-15: 2^-50 < 1e-15 < 2^-49: "
    "50.",
    exact(2),
    expect(
        lambda: R.frac_checked(
            lambda n: F(1, 2**n), lambda j: F(2, 2**j), 0, F(2), _G2, 10**4, far=1000
        ),
        {0.5: 2, 0.25: 3, 0.0009765625: 11, 1e-15: 50},
    ),
    start=0,
)
_G5 = (0.2, 0.04, 0.0016, 0.2000000000000001, 0.19999999999999998)
add(
    "geometric/five-pow-minus-n-ties-and-one-ulp-around",
    ["--rpe", "5**(-n)", *eps_args(_G5)],
    True,
    "B = 1/4, R_j/B = 5^-j: ties at 0.2, 0.04, 0.0016 (j = 1, 2, 4): TRF = 2, 3, 5. The decimal "
    "0.2000000000000001 > 1/5: TRF = 1; 0.19999999999999998 < 1/5: 2 (eps is the decimal "
    "typed: the double nearest 0.2 is above 1/5, and must not turn the tie into a crossing).",
    exact(F(1, 4)),
    expect(
        lambda: R.frac_checked(
            lambda n: F(1, 5**n), lambda j: F(1, 4 * 5**j), 1, F(1, 4), _G5, 10**3, far=1000
        ),
        {0.2: 2, 0.04: 3, 0.0016: 5, 0.2000000000000001: 1, 0.19999999999999998: 2},
    ),
)
_G3 = (0.3333333333333333, 0.33333333333333337, 0.1111111111111111, 0.037037037037037035)
add(
    "geometric/three-pow-minus-n-decimals-near-thirds",
    ["--rpe", "3**(-n)", *eps_args(_G3)],
    True,
    "B = 1/2, R_j/B = 3^-j. The decimals (and their doubles) 0.3333333333333333 < 1/3, "
    "0.1111111111111111 < 1/9, 0.037037037037037035 < 1/27, 0.33333333333333337 > 1/3: TRF = "
    "2, 3, 4 and 1 (exact Fractions).",
    exact(F(1, 2)),
    expect(
        lambda: R.frac_checked(
            lambda n: F(1, 3**n), lambda j: F(1, 2 * 3**j), 1, F(1, 2), _G3, 10**3, far=1000
        ),
        {
            0.3333333333333333: 2,
            0.33333333333333337: 1,
            0.1111111111111111: 3,
            0.037037037037037035: 4,
        },
    ),
)
_S2 = (0.5, 0.4, 0.3, 0.01)
add(
    "rational/start-2-inverse-n2-minus-1-tie",
    ["--rpe", "1/(n**2 - 1)", "--start", "2", *eps_args(_S2)],
    True,
    "1/(n^2 - 1) = (1/(n - 1) - 1/(n + 1))/2: from n = 2, B = 3/4 and R_j = (1/(j + 1) + 1/(j + "
    "2))/2. eps = 0.3 ties at j = 3 (R_3 = 9/40 = 0.3 x 3/4): TRF = 4; 0.5: 2; 0.4: 2 (R_2 = "
    "7/24 < 0.3); 0.01: "
    "least j with (2j + 3)/((j + 1)(j + 2)) < 0.015 (exact Fractions).",
    exact(F(3, 4)),
    expect(
        lambda: R.frac_checked(
            lambda n: F(1, n * n - 1),
            lambda j: (F(1, j + 1) + F(1, j + 2)) / 2,
            2,
            F(3, 4),
            _S2,
            10**6,
        ),
        {0.5: 2, 0.4: 2, 0.3: 4, 0.01: 132},
    ),
    start=2,
)
_M6 = 10**6
add(
    "rational/half-odd-telescoping-start-1e6",
    ["--rpe", "1/(n**2 - 1/4)", "--start", "1000000", *eps_args((0.5, 0.1, 0.001))],
    True,
    "1/(n^2 - 1/4) = 1/(n - 1/2) - 1/(n + 1/2): from m = 10^6, B = 2/(2m - 1), R_j = 2/(2(m + "
    "j) - 1); R_j < eps B iff 2(m + j) - 1 > (2m - 1)/eps: TRF(0.5) = m (2m > 2m - 1), "
    "TRF(0.1) = 9m - 4, TRF(0.001) = 999m - 499 (exact).",
    exact(F(2, 2 * _M6 - 1)),
    expect(
        lambda: R.frac_checked(
            lambda n: 1 / (F(n) ** 2 - F(1, 4)),
            lambda j: F(2, 2 * (_M6 + j) - 1),
            _M6,
            F(2, 2 * _M6 - 1),
            (0.5, 0.1, 0.001),
            10**10,
        ),
        {0.5: _M6, 0.1: 9 * _M6 - 4, 0.001: 999 * _M6 - 499},
    ),
    start=_M6,
)
_M12 = 10**12
add(
    "rational/n2-plus-n-start-1e12-ties",
    ["--rpe", "1/(n**2 + n)", "--start", "1000000000000", *eps_args((0.5, 0.3, 0.1))],
    True,
    "1/(n^2 + n) = 1/n - 1/(n + 1): from m = 10^12, B = 1/m, R_j = 1/(m + j); R_j < eps B iff "
    "m + j > m/eps. Ties at 0.5 (j = m) and 0.1 (j = 9m): TRF = m + 1 = 1000000000001 and 9m + "
    "1 = 9000000000001; 0.3: j > 7m/3: 2333333333334 (exact).",
    exact(F(1, _M12)),
    expect(
        lambda: R.frac_checked(
            lambda n: F(1, n * n + n),
            lambda j: F(1, _M12 + j),
            _M12,
            F(1, _M12),
            (0.5, 0.3, 0.1),
            10**14,
        ),
        {0.5: _M12 + 1, 0.3: 2333333333334, 0.1: 9 * _M12 + 1},
    ),
    start=_M12,
)
_K15 = lambda: R.mpq("1e-15")  # noqa: E731
add(
    "geometric/exp-minus-1e-15-n-start-1e15",
    ["--rpe", "exp(-1e-15*n)", "--start", "1000000000000000", *eps_args((0.5, 0.1, 0.001))],
    True,
    "e^(-k n), k = 10^-15 (the decimal), from n = 10^15: B = e^-1/(1 - e^-k) = 3.67879e14, R_j/B "
    "= e^(-k j): TRF = floor(10^15 ln(1/eps)) + 1 = 693147180559946, 2302585092994046, "
    "6907755278982138 (no tie: ln 2, ln 10, ln 1000 times 10^15 are not integers).",
    closed(lambda: mp.exp(-1) / -mp.expm1(-_K15())),
    expect(
        lambda: R.geo_trf_checked(_K15(), (0.5, 0.1, 0.001)),
        {0.5: 693147180559946, 0.1: 2302585092994046, 0.001: 6907755278982138},
    ),
    start=10**15,
)
_OP = (0.2, 0.2000000000000001, 0.19999999999999998, 1e-15)
add(
    "rational/odd-pairs-start-0-eps-around-tie-and-1e-15",
    ["--rpe", "1/((2*n + 1)*(2*n + 3))", "--start", "0", *eps_args(_OP)],
    True,
    "1/((2n + 1)(2n + 3)) = (1/(2n + 1) - 1/(2n + 3))/2: from n = 0, B = 1/2, R_j = 1/(2(2j + "
    "1)), R_j/B = 1/(2j + 1). eps = 0.2 ties at j = 2: TRF = 3; 0.2000000000000001: 2; "
    "0.19999999999999998: 3; 1e-15: 2j + 1 > 10^15: 5 x 10^14 (exact).",
    exact(F(1, 2)),
    expect(
        lambda: R.frac_checked(
            lambda n: F(1, (2 * n + 1) * (2 * n + 3)),
            lambda j: F(1, 2 * (2 * j + 1)),
            0,
            F(1, 2),
            _OP,
            10**16,
        ),
        {0.2: 3, 0.2000000000000001: 2, 0.19999999999999998: 3, 1e-15: 5 * 10**14},
    ),
    start=0,
)
add(
    "opt/repeated-eps",
    ["--rpe", "2/(n*(n + 1)*(n + 2))", "--eps", "0.1", "0.1", "0.5", "0.5", "0.1"],
    True,
    "2/(n(n + 1)(n + 2)) = 1/(n(n + 1)) - 1/((n + 1)(n + 2)): B = 1/2, R_j = 1/((j + 1)(j + 2)); "
    "R_j/B = 2/((j + 1)(j + 2)): 0.1 ties at j = 3: TRF = 4; 0.5: 1. Repeated eps are the same "
    "question (every answer given must be right).",
    exact(F(1, 2)),
    expect(
        lambda: R.frac_checked(
            lambda n: F(2, n * (n + 1) * (n + 2)),
            lambda j: F(1, (j + 1) * (j + 2)),
            1,
            F(1, 2),
            (0.1, 0.5),
            10**4,
        ),
        {0.1: 4, 0.5: 1},
    ),
)
_NEAR1 = {"BIAS.txt": txt_bytes(["-50", "0"])}
add(
    "opt/eps-0.9999999999999999-bias-file",
    [
        "--bias-file",
        "BIAS.txt",
        "--bias-tail",
        "zero",
        "--eps",
        "0.9999999999999999",
        "0.5",
    ],
    True,
    "b_0 = e^-50 = 1.9e-22, b_1 = 1, nothing after: B = 1 + e^-50. B (1 - eps) = 1e-16 B > "
    "b_0 for eps = 0.9999999999999999 (decimal and double alike): TRF = 2; 0.5: 2.",
    cached(lambda: R.finite_ref([-50.0, 0.0], (0.5,))[0]),
    expect(
        cached(lambda: R.finite_ref([-50.0, 0.0], ("0.9999999999999999", 0.5))[1]),
        {"0.9999999999999999": 2, 0.5: 2},
    ),
    files=_NEAR1,
    start=0,
)
add(
    "opt/eps-one-minus-1e-23-bias-file",
    ["--bias-file", "BIAS.txt", "--bias-tail", "zero", "--eps", "0.99999999999999999999999"],
    True,
    "the same file; eps = 1 - 10^-23 as typed lies in (0, 1): B (1 - eps) = 1e-23 B < e^-50 = "
    "S_1: TRF = 1. Its nearest double is 1.0, so a refusal (eps not in (0, 1)) is honest.",
    cached(lambda: R.finite_ref([-50.0, 0.0], (0.5,))[0]),
    expect(
        cached(lambda: R.finite_ref([-50.0, 0.0], ("0.99999999999999999999999",))[1]),
        {"0.99999999999999999999999": 1},
    ),
    files=_NEAR1,
    start=0,
    error_ok=True,
)


def _tree_B():
    # B = T(1/e) = 1, T(x) = sum n^(n-1) x^n/n! = -W(-x) (Lambert W), T(1/e) = -W(-1/e) = 1.
    # Second way: the terms summed to N, the rest by its Stirling asymptotics.
    N = 20000
    t = lambda n: mp.exp((n - 1) * mp.log(n) - n - mp.loggamma(n + 1))  # noqa: E731
    S = mp.fsum(t(mp.mpf(n)) for n in range(1, N + 1))
    # b_n = n^-3/2 (1 - 1/(12 n) + O(n^-2))/sqrt(2 pi): the rest after N by the integrals
    # from N + 1/2 (midpoint rule), to O(N^-5/2) ~ 1e-11
    h = N + mp.mpf(1) / 2
    rest = (2 * h**-0.5 - h**-1.5 / 18) / mp.sqrt(2 * mp.pi)
    assert abs(S + rest - 1) < mp.mpf(10) ** -10, S + rest
    assert abs(-mp.lambertw(-mp.exp(-1), 0) - 1) < mp.mpf(10) ** -20
    return mp.mpf(1), mp.mpf(10) ** -45


def _tree_trf():
    eps = (0.5, 0.1, 0.01)
    terms, t = [], mp.exp(-1)  # b_1 = e^-1; b_(n+1)/b_n = (1 + 1/n)^(n-1)/e
    for n in range(1, 7000):
        terms.append(t)
        t = t * (1 + mp.mpf(1) / n) ** (n - 1) / mp.e
    for n in (1, 10, 6999):
        direct = mp.exp((n - 1) * mp.log(n) - n - mp.loggamma(n + 1))
        assert abs(direct - terms[n - 1]) < mp.mpf(10) ** -40 * direct
    return R.trf_positive_checked(terms, mp.mpf(1), mp.mpf(10) ** -45, eps)


add(
    "special/tree-function-at-branch-point",
    ["--rpe", "n**(n - 1)*exp(-n)/factorial(n)", *eps_args((0.5, 0.1, 0.01))],
    True,
    "b_n = n^(n-1) e^-n/n! ~ n^(-3/2)/sqrt(2 pi) (Stirling): converges. B = T(1/e) with the "
    "tree function T(x) = sum n^(n-1) x^n/n! = -W(-x): T(1/e) = 1 exactly (the branch point of "
    "Lambert W); checked on 2e4 terms plus the Stirling rest. R_j ~ sqrt(2/(pi j)): TRF from "
    "the partial sums of 7000 terms (TRF(0.01) ~ 6.4e3).",
    cached(_tree_B),
    cached(_tree_trf),
)


def _gauss_R(j):  # sum_(n >= j+1) Gamma(n + 1/2)/Gamma(n + 3) = Gamma(j + 3/2)/(1.5 Gamma(j + 3))
    j = mp.mpf(j)
    return mp.exp(mp.loggamma(j + mp.mpf(3) / 2) - mp.loggamma(j + 3)) / mp.mpf(1.5)


_GE = (0.5, 0.3125, 0.1, 1e-3, 1e-9)


def _gauss_ratio(j):
    """R_j/B = (2j + 1)!!/(2^(j-1) (j + 2)!): Gamma(j + 3/2) = (2j + 1)!! sqrt(pi)/2^(j+1)."""
    return F(2 * math.prod(range(1, 2 * j + 2, 2)), 2**j * math.factorial(j + 2))


def _gauss_trf():
    B = mp.sqrt(mp.pi) / 6
    term = lambda n: mp.gamma(n + mp.mpf(1) / 2) / mp.gamma(n + 3)  # noqa: E731
    out = R.closed_trf(_gauss_R, B, (0.1, 1e-3, 1e-9), 10**9, term)
    for j in range(8):
        assert abs(R.mpq(_gauss_ratio(j)) - _gauss_R(j) / B) < TINY, j
    out.update(R.frac_trf(_gauss_ratio, F(1), (0.5, 0.3125), 64))
    return out


add(
    "special/gamma-ratio-gauss-sum",
    ["--rpe", "gamma(n + 1/2)/gamma(n + 3)", *eps_args(_GE)],
    True,
    "sum_(n>=m) Gamma(n + a)/Gamma(n + b) = Gamma(m + a)/((b - a - 1) Gamma(m + b - 1)) (b - a > "
    "1; it telescopes: the difference of two neighbours is the term): a = 1/2, b = 3, m = 1: "
    "B = Gamma(3/2)/(1.5 Gamma(3)) = sqrt(pi)/6; R_j = Gamma(j + 3/2)/(1.5 Gamma(j + 3)) ~ (2/3) "
    "j^-1.5: TRF(1e-9) ~ 1.7e6. R_j/B = (2j + 1)!!/(2^(j-1) (j + 2)!) is rational: ties at "
    "eps = 1/2 (j = 1) and 5/16 = 0.3125 (j = 2): TRF = 2 and 3 (exact); the others by "
    "bisection on the closed tail, partial sums for the small crossings, telescoping at the "
    "crossings.",
    closed(lambda: mp.sqrt(mp.pi) / 6),
    expect(cached(_gauss_trf), {0.5: 2, 0.3125: 3, 0.1: 7, 1e-3: 171, 1e-9: 1720507}),
)
add(
    "special/gamma-ratio-one-third-harmonic",
    ["--rpe", "gamma(n + 1/3)/gamma(n + 4/3)"],
    False,
    "Gamma(x)/Gamma(x + 1) = 1/x: b_n = 1/(n + 1/3) > 1/(2n): harmonic minorant, diverges.",
)


def _sinh_coef(k):
    return mp.mpf(2) ** (2 * k - 1) / mp.factorial(2 * k)


def _sinh_R(j):  # sinh(x)^2 = (cosh 2x - 1)/2 = sum_(k>=1) 2^(2k-1) x^(2k)/(2k)!
    return mp.fsum(_sinh_coef(k) * mp.zeta(2 * k, j + 1) for k in range(1, 45))


def _sinh_B():
    def em():
        a = 3000
        f = lambda x: mp.sinh(1 / x) ** 2  # noqa: E731
        head = mp.fsum(f(mp.mpf(n)) for n in range(1, a))
        integral = mp.quad(f, [a, 10 * a, 100 * a, mp.inf])
        val, err = R.em_tail(f, mp.mpf(a), integral)
        assert err < mp.mpf(10) ** -30
        return head + val

    return R.two_ways(lambda: _sinh_R(0), em)


_SH = cached(_sinh_B)
add(
    "special/sinh-inverse-n-squared",
    ["--rpe", "sinh(1/n)**2", *eps_args(E3)],
    True,
    "sinh(1/n)^2 ~ 1/n^2: converges. sinh(x)^2 = sum_k 2^(2k-1) x^(2k)/(2k)!, so B = sum_k "
    "2^(2k-1) zeta(2k)/(2k)! = 1.9606... and R_j = sum_k 2^(2k-1) zeta(2k, j + 1)/(2k)!; B "
    "checked by the terms to 3000 plus Euler-Maclaurin (integral by quadrature). TRF by "
    "bisection on R_j, checked on the partial sums.",
    _SH,
    cached(
        lambda: R.closed_trf(_sinh_R, _SH()[0], E3, 10**7, lambda n: mp.sinh(1 / mp.mpf(n)) ** 2)
    ),
)


def _tanh_coef(k):  # tanh x = sum_(k>=1) 2^(2k) (2^(2k) - 1) B_2k x^(2k-1)/(2k)!, |x| < pi/2
    return mp.mpf(4) ** k * (mp.mpf(4) ** k - 1) * mp.bernoulli(2 * k) / mp.factorial(2 * k)


def _tanh_R(j):  # the tail from n = j + 1 >= 2: x = 1/n^2 <= 1/4
    assert j >= 1
    return mp.fsum(_tanh_coef(k) * mp.zeta(4 * k - 2, j + 1) for k in range(1, 40))


def _tanh_B():
    def em():
        a = 2000
        f = lambda x: mp.tanh(1 / x**2)  # noqa: E731
        head = mp.fsum(f(mp.mpf(n)) for n in range(1, a))
        integral = mp.quad(f, [a, 10 * a, 100 * a, mp.inf])
        val, err = R.em_tail(f, mp.mpf(a), integral)
        assert err < mp.mpf(10) ** -30
        return head + val

    return R.two_ways(lambda: mp.tanh(1) + _tanh_R(1), em)


_TH = cached(_tanh_B)


def _tanh_trf():
    B = _TH()[0]
    Rt = lambda j: B if j == 0 else _tanh_R(j)  # noqa: E731
    return R.closed_trf(Rt, B, E3, 10**6, lambda n: mp.tanh(1 / mp.mpf(n) ** 2))


add(
    "special/tanh-inverse-n-squared",
    ["--rpe", "tanh(1/n**2)", *eps_args(E3)],
    True,
    "0 < tanh(1/n^2) < 1/n^2: converges. B = tanh(1) + sum_k c_k (zeta(4k - 2) - 1), c_k the "
    "Taylor coefficients of tanh (radius pi/2 > 1/4), = 1.4044...; checked by the terms to "
    "2000 plus Euler-Maclaurin. R_j = sum_k c_k zeta(4k - 2, j + 1); TRF by bisection, checked "
    "on the partial sums.",
    _TH,
    cached(_tanh_trf),
)

# ---------------------------------------------------------------------------------------
# 2. Iterated logarithms at the edge of convergence
# ---------------------------------------------------------------------------------------
_LL = R.SlowTail(R.loglog_f, 3, R.loglog_Ia, R.loglog_Ib)
add(
    "nested/n-pow-minus-one-minus-inv-loglog-start-3",
    ["--rpe", "n**(-1 - 1/log(log(n)))", "--start", "3", *eps_args((0.5, 0.1, 0.01))],
    True,
    "with u = log n the terms are e^(-u - u/log u): sum ~ int e^(-u/log u) du, and u/log u > 2 "
    "log u for large u: converges (slowly: the tail from e^U is about e^(-U/log U) log U). B = "
    "0.38390... by the terms to 8000 plus Euler-Maclaurin with the tail integral two ways (u = "
    "log x, and u = e^w), two splits agreeing to 1e-22; TRF by bisection on those tails: 123, "
    "104882, 3512013174.",
    cached(_LL.B),
    cached(lambda: _LL.trf((0.5, 0.1, 0.01))),
    start=3,
)
add(
    "nested/n-pow-minus-one-minus-inv-log-diverges",
    ["--rpe", "n**(-1 - 1/log(n))", "--start", "2"],
    False,
    "n^(-1/log n) = e^-1: b_n = e^-1/n, a harmonic series: diverges (the exponent tends to -1 "
    "too fast).",
)


def _inv_nlog2(x):
    x = mp.mpf(x)
    return 1 / (x * mp.log(x) ** 2)


_NL2 = R.SlowTail(_inv_nlog2, 2, R.inv_nlog2_Ia, R.inv_nlog2_Ib)


def _nl2_B():
    for n in (2, 3, 50, 10**6):  # n^(-2 log log n/log n) = e^(-2 log log n) = log(n)^-2
        x = mp.mpf(n)
        assert abs(x ** (-1 - 2 * mp.log(mp.log(x)) / mp.log(x)) - _inv_nlog2(x)) < TINY
    return _NL2.B()


add(
    "nested/exponent-minus-two-loglog-over-log-start-2",
    [
        "--rpe",
        "n**(-1 - 2*log(log(n))/log(n))",
        "--start",
        "2",
        *eps_args((0.5, 0.1, 0.01)),
    ],
    True,
    "n^(-2 log log n/log n) = (log n)^-2: b_n = 1/(n log^2 n), converges (integral 1/log x); B = "
    "2.10974... (the terms to 8000 plus Euler-Maclaurin, integral 1/U and by quadrature); "
    "R ~ 1/log M: TRF(0.5) and TRF(0.1) exact, TRF(0.01) ~ 10^20.6 as log10.",
    cached(_nl2_B),
    cached(lambda: _NL2.trf((0.5, 0.1, 0.01))),
    start=2,
)
add(
    "nested/loglog-power-1.01-verdict-only",
    ["--rpe", "1/(n*log(n)*log(log(n))**1.01)", "--start", "3", "--verdict-only"],
    True,
    "Cauchy condensation twice: sum 2^k b_(2^k) ~ sum 1/(k log2 (log k)^1.01), again: sum "
    "1/(m^1.01 ...): converges (Bertrand, q = 1.01 > 1 at the second level). log log 3 > 0.",
    start=3,
)
add(
    "nested/loglog-power-0.99-verdict-only",
    ["--rpe", "1/(n*log(n)*log(log(n))**0.99)", "--start", "3", "--verdict-only"],
    False,
    "the same with 0.99 < 1: int dx/(x log x (log log x)^0.99) = (log log x)^0.01/0.01 -> oo: "
    "diverges.",
    start=3,
)
add(
    "nested/logloglog-power-1.5-start-16",
    [
        "--rpe",
        "1/(n*log(n)*log(log(n))*log(log(log(n)))**1.5)",
        "--start",
        "16",
        "--verdict-only",
    ],
    True,
    "log log log n > 0 from n = 16 (e^e = 15.15); the antiderivative -2 (log log log x)^(-1/2) "
    "is bounded: converges (Bertrand at the third level).",
    start=16,
)
add(
    "nested/n-pow-minus-loglog-pow-0.001",
    ["--rpe", "exp(-log(n)*log(log(n))**0.001)", "--start", "3", "--verdict-only"],
    True,
    "b = n^(-(log log n)^0.001); (log log n)^0.001 -> oo, so it exceeds 2 for n > exp(exp(2^1000)) "
    "and b <= n^-2 there: converges (no B: the tail is still ~ 1 at n = 10^100).",
    start=3,
)


def _ee_f(n):
    x = mp.mpf(n)
    return mp.exp(-mp.exp(mp.log(x) / mp.log(mp.log(x))))


def _ee_part(N):
    # E(n) = n^(1/log log n) = e^(g(log n)), g(u) = u/log u; for n >= N (log N > 9.9),
    # E(n) - 2 log n increases (E g'(u) > 18 > 2), so b_n <= e^(-E(N)) N^2 n^-2 and the rest
    # after N is below e^(-E(N)) N^2/(N - 1)
    EN = mp.exp(mp.log(N) / mp.log(mp.log(N)))
    U = mp.exp(-EN) * mp.mpf(N) ** 2 / (N - 1)
    return mp.fsum(_ee_f(n) for n in range(3, N)) + U / 2


_EE = cached(lambda: R.two_ways(lambda: _ee_part(30000), lambda: _ee_part(20000)))
add(
    "nested/exp-minus-n-pow-inv-loglog-start-3",
    ["--rpe", "exp(-n**(1/log(log(n))))", "--start", "3", *eps_args(E4)],
    True,
    "n^(1/log log n) = e^(log n/log log n) grows faster than every power of log n: b_n <= n^-2 "
    "eventually: converges. The exponent is least near n = e^e (e^-15.15 there): B = 7.6e-6 "
    "...; the terms to 3e4 (and 2e4) plus the bound e^(-E(N)) N^2/(N - 1) of the rest. TRF "
    "from the partial sums.",
    _EE,
    cached(lambda: R.trf_positive_checked([_ee_f(n) for n in range(3, 5000)], *_EE(), E4)),
    start=3,
)

# ---------------------------------------------------------------------------------------
# 3. Bias files by content
# ---------------------------------------------------------------------------------------
_F32 = (-np.arange(10) / 10).astype(np.float32)
add(
    "bias/float32-npy-zero-tail",
    ["--bias-file", "BIAS.npy", "--bias-tail", "zero", *eps_args((0.5, 0.2, 1e-4))],
    True,
    "float32 values float32(-t/10), t = 0..9 (not the decimals: float32(-0.1) = "
    "-0.100000001490116...), zero tail: B = sum e^(v_t) on the binary values (4.97...); TRF from "
    "the partial sums of the 10 terms.",
    cached(lambda: R.finite_ref(R.exact_values(_F32), (0.5,))[0]),
    cached(lambda: R.finite_ref(R.exact_values(_F32), (0.5, 0.2, 1e-4))[1]),
    files={"BIAS.npy": npy_bytes(_F32)},
    start=0,
)
_F16 = np.array([0, -0.3, -0.6, -0.9, -1.2], dtype=np.float16)
add(
    "bias/float16-npy-linear-tail",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args((0.5, 0.1, 1e-3))],
    True,
    "float16 [0, -0.3, -0.6, -0.9, -1.2] (binary: -0.2998046875, ...), L = 5: the slope of "
    "the last max(2, 0) = 2 values, v4 - v3 = -0.2998046875 exactly: B = head + e^(v4) q/(1 - "
    "q), q = e^(slope); TRF by bisection on the tails and on the partial sums.",
    cached(lambda: R.linear_ref(R.exact_values(_F16), (0.5,))[0]),
    cached(lambda: R.linear_ref(R.exact_values(_F16), (0.5, 0.1, 1e-3))[1]),
    files={"BIAS.npy": npy_bytes(_F16)},
    start=0,
)
_I64 = np.array([3, 1, -1, -3], dtype=np.int64)
add(
    "bias/int64-npy-linear-tail",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args((0.5, 0.1, 1e-3))],
    True,
    "int64 [3, 1, -1, -3]: slope -2 (last two values): b_t = e^(3 - 2t) for every t >= 0, B = "
    "e^3/(1 - e^-2) = 23.2...; R_j/B = e^(-2j): TRF = floor(ln(1/eps)/2) + 1 = 1, 2, 4.",
    cached(lambda: R.linear_ref([3.0, 1.0, -1.0, -3.0], (0.5,))[0]),
    expect(
        cached(lambda: R.linear_ref([3.0, 1.0, -1.0, -3.0], (0.5, 0.1, 1e-3))[1]),
        {0.5: 1, 0.1: 2, 1e-3: 4},
    ),
    files={"BIAS.npy": npy_bytes(_I64)},
    start=0,
)
_FORT = [-0.25 * t for t in range(6)]
add(
    "bias/fortran-flagged-big-endian-1d-npy-linear",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args((0.5, 0.1, 1e-3))],
    True,
    "an .npy written by hand: descr '>f8' (big-endian), fortran_order True, shape (6,) (a 1-D "
    "array is laid out the same in either order): -t/4, slope -1/4: B = 1/(1 - e^-1/4) = "
    "4.52...; R_j/B = e^(-j/4): TRF = floor(4 ln(1/eps)) + 1 = 3, 10, 28.",
    cached(lambda: R.linear_ref(_FORT, (0.5,))[0]),
    expect(cached(lambda: R.linear_ref(_FORT, (0.5, 0.1, 1e-3))[1]), {0.5: 3, 0.1: 10, 1e-3: 28}),
    files={"BIAS.npy": R.npy_raw(_FORT, ">f8", True)},
    start=0,
)
_TXT = b"+0\r\n-0.0\r\n  -1.5e0\r\n-3E+00\r\n\r\n\r\n"
add(
    "bias/text-plus-sign-negative-zero-exponent-crlf-blank-lines",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear", *eps_args((0.5, 0.1, 1e-3))],
    True,
    "text '+0', '-0.0', '  -1.5e0', '-3E+00' with CRLF endings and two blank trailing lines: "
    "values [0, -0, -1.5, -3], slope -1.5 (last two): b = 1, 1, then e^(-1.5 k), k >= 1: B = 2 "
    "+ e^-1.5/(1 - e^-1.5) = 2.2872...; TRF by bisection and partial sums.",
    cached(lambda: R.linear_ref([0.0, -0.0, -1.5, -3.0], (0.5,))[0]),
    cached(lambda: R.linear_ref([0.0, -0.0, -1.5, -3.0], (0.5, 0.1, 1e-3))[1]),
    files={"BIAS.txt": _TXT},
    start=0,
)
add(
    "bias/single-value-zero-tail",
    ["--bias-file", "BIAS.txt", "--bias-tail", "zero", *eps_args((0.999, 0.5, 1e-15))],
    True,
    "one value -2, nothing after: B = e^-2, one term: TRF = 1 for every eps.",
    closed(lambda: mp.exp(-2)),
    expect(
        cached(lambda: R.finite_ref([-2.0], (0.999, 0.5, 1e-15))[1]),
        {0.999: 1, 0.5: 1, 1e-15: 1},
    ),
    files={"BIAS.txt": b"-2\n"},
    start=0,
)
_BIG = -np.arange(100000) / 1000.0
add(
    "bias/1e5-values-linear-tail",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args((0.5, 0.1, 1e-3, 1e-6))],
    True,
    "10^5 values -t/1000 (float64 of each quotient), linear tail: the least-squares slope of "
    "the last 10^4 binary values (exact Fractions, ~ -0.001); B = sum of the 10^5 terms plus "
    "e^(v_last) q/(1 - q) = 1000.5...; TRF by bisection on the tails (suffix sums, then the "
    "line): ~ 693, 2303, 6908, 13816.",
    cached(lambda: R.linear_ref(list(_BIG), (0.5,), hi=10**7)[0]),
    cached(lambda: R.linear_ref(list(_BIG), (0.5, 0.1, 1e-3, 1e-6), hi=10**7)[1]),
    files={"BIAS.npy": npy_bytes(_BIG)},
    start=0,
)
_SUB = mp.mpf(2) ** -1074
add(
    "bias/subnormal-slope-linear-tail",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear", *eps_args((0.5, 0.1))],
    True,
    "values [0, -5e-324]: -5e-324 is the least subnormal, -2^-1074; the linear tail has slope "
    "-2^-1074 < 0, so b_t = e^(-k t), k = 2^-1074, for every t: converges, B = 1/(1 - e^-k) ~ "
    "2^1074 = 2.0e323; R_j/B = e^(-k j): TRF = floor(2^1074 ln(1/eps)) + 1: log10 TRF = 323.18 "
    "and 323.67 (a bracket or a lower bound is honest; 'diverges' or a finite B near 1 is "
    "wrong).",
    cached(lambda: (1 / -mp.expm1(-_SUB), mp.mpf(10) ** 280)),
    cached(lambda: R.geo_trf_checked(_SUB, (0.5, 0.1), as_log10_beyond=10**12)),
    files={"BIAS.txt": b"0\n-5e-324\n"},
    start=0,
)


def _sub_tie():
    # B = 1 + e^-k, k = 2^-1074: B/2 = 1 - (1 - e^-k)/2 < 1 = S_1, so TRF(0.5) = 1; a float64
    # sum has e^-k = 1.0 and B/2 = 1 = S_1, a tie (TRF 2).  S_1 = 1 < 0.9 B: TRF(0.1) = 2.
    with mp.workdps(400):
        B = 1 + mp.exp(-_SUB)
        assert B / 2 < 1 and 1 < B * R.eps_mp("0.9")
    return {0.5: 1, 0.1: 2}


add(
    "bias/subnormal-breaks-a-tie-zero-tail",
    ["--bias-file", "BIAS.txt", "--bias-tail", "zero", *eps_args((0.5, 0.1))],
    True,
    "values [0, -5e-324], nothing after: B = 1 + e^(-2^-1074), just below 2; S_1 = 1 > B/2 "
    "(strictly, by (1 - e^(-2^-1074))/2): TRF(0.5) = 1, where float64 arithmetic sees a tie "
    "and would say 2; TRF(0.1) = 2.",
    cached(lambda: (1 + mp.exp(-_SUB), mp.mpf(10) ** -45)),
    cached(_sub_tie),
    files={"BIAS.txt": b"0\n-5e-324\n"},
    start=0,
)
_PM = np.array([1e308, -1e308])
add(
    "bias/plus-minus-1e308-zero-tail-scaled",
    ["--bias-file", "BIAS.npy", "--bias-tail", "zero", *eps_args((0.5, 1e-15))],
    True,
    "[1e308, -1e308], nothing after: B = e^(1e308) (1 + e^(-2e308)), reported scaled by e^-M, "
    "M = 1e308: sum_scaled = 1 + e^(-2e308); b_0 alone exceeds B (1 - eps): TRF = 1.",
    cached(lambda: R.finite_ref(R.exact_values(_PM), (0.5,), scale=1e308)[0]),
    expect(
        cached(lambda: R.finite_ref(R.exact_values(_PM), (0.5, 1e-15), scale=1e308)[1]),
        {0.5: 1, 1e-15: 1},
    ),
    files={"BIAS.npy": npy_bytes(_PM)},
    scaled=True,
    start=0,
)


def _pm_linear_B():
    # slope = -2e308 exactly (the double 1e308 is exact, the difference is not a double):
    # b_t/e^M = 1, e^(-2e308), e^(-4e308), ...: sum_scaled = 1/(1 - e^(-2e308))
    d = 2 * mp.mpf(1e308)
    return 1 / -mp.expm1(-d), mp.mpf(10) ** -45


add(
    "bias/plus-minus-1e308-linear-tail-scaled",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args((0.5, 1e-15))],
    True,
    "[1e308, -1e308], linear tail: the slope of the two values is -2e308 exactly (it overflows "
    "float64, not the rationals): b_t = e^(1e308 - 2e308 t), converges; sum_scaled = 1/(1 - "
    "e^(-2e308)) = 1 + 1e-(8.7e307); TRF = 1. A clean refusal would be honest only with "
    "error_ok; this case has none: the file is valid.",
    cached(_pm_linear_B),
    cached(lambda: {0.5: 1, 1e-15: 1}),
    files={"BIAS.npy": npy_bytes(_PM)},
    scaled=True,
    start=0,
)
_M3 = np.array([-1e308] * 3)
_M3E = (0.5, 0.1, 0.3333333333333333)
add(
    "bias/three-times-minus-1e308-zero-tail-scaled",
    ["--bias-file", "BIAS.npy", "--bias-tail", "zero", *eps_args(_M3E)],
    True,
    "three equal values -1e308: B = 3 e^(-1e308), sum_scaled = 3 (M = -1e308); S_j = j/3 of B: "
    "TRF(0.5) = 2, TRF(0.1) = 3; eps = 0.3333333333333333 < 1/3 (decimal and double): B (1 - "
    "eps) > 2 = S_2 in scaled units: TRF = 3.",
    exact(3),
    expect(
        cached(lambda: R.finite_ref(R.exact_values(_M3), _M3E, scale=-1e308)[1]),
        {0.5: 2, 0.1: 3, 0.3333333333333333: 3},
    ),
    files={"BIAS.npy": npy_bytes(_M3)},
    scaled=True,
    start=0,
)
add(
    "bias/npy-named-txt-linear-tail",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear", *eps_args((0.5, 0.1, 1e-3))],
    True,
    "an .npy of [0, -1, -2] under a .txt name (read by content): slope -1: B = 1/(1 - e^-1), "
    "R_j/B = e^-j: TRF = floor(ln(1/eps)) + 1 = 1, 3, 7.",
    cached(lambda: R.linear_ref([0.0, -1.0, -2.0], (0.5,))[0]),
    expect(
        cached(lambda: R.linear_ref([0.0, -1.0, -2.0], (0.5, 0.1, 1e-3))[1]),
        {0.5: 1, 0.1: 3, 1e-3: 7},
    ),
    files={"BIAS.txt": npy_bytes(np.array([0.0, -1.0, -2.0]))},
    start=0,
)
refuse(
    "refuse/bias-text-nan-zero-tail",
    ["--bias-file", "BIAS.txt", "--bias-tail", "zero"],
    "a NaN bias value is no real number (even a zero tail needs every head value).",
    {"BIAS.txt": b"0\nnan\n-1\n"},
)
refuse(
    "refuse/bias-npy-inf-linear-tail",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear"],
    "+inf among the values is not finite.",
    {"BIAS.npy": npy_bytes(np.array([0.0, np.inf, -1.0, -2.0]))},
)
refuse(
    "refuse/bias-text-two-rows-constant-tail",
    ["--bias-file", "BIAS.txt", "--bias-tail", "constant"],
    "two rows of three numbers: a 2-D table, not one value per distance.",
    {"BIAS.txt": b"0 -1 -2\n-3 -4 -5\n"},
)
refuse(
    "refuse/bias-csv-with-header-zero-tail",
    ["--bias-file", "BIAS.csv", "--bias-tail", "zero"],
    "a CSV with a header line 'distance,bias' is not a file of numbers.",
    {"BIAS.csv": b"distance,bias\n0,0\n1,-0.5\n"},
)
refuse(
    "refuse/bias-single-value-linear-tail",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear"],
    "one value gives no slope: a linear tail needs at least two values.",
    {"BIAS.txt": b"-2\n"},
)

# ---------------------------------------------------------------------------------------
# 4. Free parameters: two-parameter families
# ---------------------------------------------------------------------------------------
fam(
    "free/n-pow-minus-p-log-n-pow-minus-q-start-2",
    ["--rpe", "n**(-p)*log(n)**(-q)", "--start", "2", "--free", "p", "--free", "q"],
    lambda d: d["p"] > 1 or (d["p"] == 1 and d["q"] > 1),
    [{"p": p, "q": q} for p in (0, 0.5, 1, 1.5) for q in (-1, 0, 1, 2)],
    "log n >= log 2 > 0 from n = 2. Bertrand: converges iff p > 1, or p = 1 and q > 1 "
    "(condensation: 2^k b_(2^k) ~ 2^(k(1-p)) k^-q).",
)
fam(
    "free/inverse-n-pow-p-plus-log-pow-q-start-2",
    ["--rpe", "1/(n**p + log(n)**q)", "--start", "2", "--free", "p", "--free", "q"],
    lambda d: d["p"] > 1,
    [{"p": p, "q": q} for p in (-1, 0, 1, 1.5, 3) for q in (-2, 0, 2, 5)],
    "both summands > 0 from n = 2. p > 1: b <= n^-p, converges. p <= 1: n^p + log(n)^q <= n + "
    "log(n)^q <= 2n for large n (a power of log n is o(n)), so b >= 1/(2n): diverges (p = 0, q "
    "= 0: b = 1/2). Converges iff p > 1, whatever q.",
)
fam(
    "free/exp-minus-k-log-n-pow-a-start-2",
    [
        "--rpe",
        "exp(-k*log(n)**a)",
        "--start",
        "2",
        "--free",
        "k",
        "--free",
        "a",
        "--assume",
        "k>0",
        "--assume",
        "a>0",
    ],
    lambda d: d["a"] > 1 or (d["a"] == 1 and d["k"] > 1),
    [{"k": k, "a": a} for k in (0.5, 1, 2) for a in (0.5, 1, 1.5, 2)],
    "b = n^(-k log(n)^(a-1)): a > 1: the exponent -> oo, converges for every k > 0; a = 1: b = "
    "n^-k, iff k > 1; a < 1: k log(n)^a = o(log n), b >= 1/n eventually, diverges.",
)
fam(
    "free/x-pow-n-over-n-pow-p",
    ["--rpe", "x**n/n**p", "--free", "x", "--free", "p", "--assume", "x>0"],
    lambda d: d["x"] < 1 or (d["x"] == 1 and d["p"] > 1),
    [{"x": x, "p": p} for x in (0.5, 1, 2) for p in (-1, 0, 1, 2)],
    "ratio test: b_(n+1)/b_n -> x; x < 1 converges for every p, x > 1 the terms -> oo; x = 1: "
    "the p-series, iff p > 1.",
)
fam(
    "free/n-pow-minus-p-exp-minus-q-sqrt-log-start-2",
    [
        "--rpe",
        "n**(-p)*exp(-q*sqrt(log(n)))",
        "--start",
        "2",
        "--free",
        "p",
        "--free",
        "q",
    ],
    lambda d: d["p"] > 1 or (d["p"] == 1 and d["q"] > 0),
    [{"p": p, "q": q} for p in (0.5, 1, 2) for q in (-1, 0, 1)],
    "e^(-q sqrt(log n)) = n^(o(1)): p > 1 converges, p < 1 diverges, for every q. p = 1: with "
    "u = log n, sum ~ int e^(-q sqrt u) du, finite iff q > 0.",
)
fam(
    "free/gamma-ratio-shifts-a-b",
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
    [{"a": a, "b": b} for a in (0.5, 1, 2) for b in (1, 2, 2.5, 3.5)],
    "a, b > 0: every Gamma is finite and positive at n >= 1; Gamma(n + a)/Gamma(n + b) ~ "
    "n^(a - b) (Wendel): converges iff b - a > 1 (b - a = 1: ~ 1/n, diverges).",
)

# ---------------------------------------------------------------------------------------
# 5. Refusals and huge exponents
# ---------------------------------------------------------------------------------------
refuse(
    "refuse/unknown-erfc",
    ["--rpe", "erfc(n)"],
    "erfc is not a function of the whitelist parser (exp log ln sqrt cos sin atan tan cosh "
    "sinh tanh asinh Abs Min Max floor ceiling factorial gamma binomial).",
)
refuse(
    "refuse/unknown-polygamma",
    ["--rpe", "polygamma(1, n)"],
    "polygamma is not whitelisted (trigamma would converge to nothing summable: ~ 1/n).",
)
refuse(
    "refuse/unknown-lambertw",
    ["--rpe", "LambertW(1/n)**2"],
    "LambertW is not whitelisted.",
)
refuse(
    "refuse/injection-reduce",
    ["--rpe", "exp(-n).__reduce__()"],
    "attribute access and calls of methods are no formula.",
)
refuse(
    "refuse/injection-lambda-call",
    ["--rpe", "(lambda m: exp(-m))(n)"],
    "a lambda is Python, not a formula (and 'lambda' is a forbidden name).",
)
refuse(
    "refuse/python-conditional-expression",
    ["--rpe", "exp(-n) if n > 1 else 1"],
    "a Python conditional expression is not a formula (Piecewise is the accepted form).",
)
refuse(
    "refuse/malformed-dangling-power",
    ["--rpe", "exp(-n**)"],
    "a syntax error.",
)
refuse(
    "refuse/min-with-one-argument",
    ["--rpe", "Min(exp(-n))"],
    "Min takes 2 to 16 arguments.",
)
refuse(
    "refuse/loglog-power-complex-at-start-2",
    ["--rpe", "1/(n*log(n)*log(log(n))**1.01)", "--start", "2"],
    "log log 2 = -0.3665 < 0: (log log 2)^1.01 is not real, the term b_2 is complex: the "
    "series (from 2) is not a real series.",
)
add(
    "huge/exponent-ten-pow-400",
    ["--rpe", "exp(-n**(10**400))", *eps_args((0.5, 1e-15))],
    True,
    "b_1 = e^-1, b_n <= e^(-2^(10^400)) for n >= 2: B = e^-1 to any precision, TRF = 1 for "
    "every eps >= 1e-15 (the rest is 0 to 10^(10^399) digits). A clean refusal (an exponent "
    "of 401 digits) is honest.",
    cached(lambda: (mp.exp(-1), mp.mpf(10) ** -45)),
    cached(lambda: {0.5: 1, 1e-15: 1}),
    error_ok=True,
)
add(
    "huge/exponent-nine-pow-nine-pow-nine",
    ["--rpe", "n**(-(9**9**9))", *eps_args((0.5,))],
    True,
    "9^(9^9) has 3.7e8 digits: b_1 = 1, b_n <= 2^(-9^9^9): converges, B = 1, TRF = 1. A clean "
    "refusal (exit 2, too large) is honest, an answer must be this one, within the time.",
    exact(1),
    cached(lambda: {0.5: 1}),
    error_ok=True,
)

#: series for the Ctrl-C trials (each runs long enough to be interrupted)
SIGINT_SERIES = [
    ["--rpe", "n**(-1 - 1/log(log(n)))", "--start", "3"],
    ["--rpe", "1/(n*log(n)*log(log(n))**1.01)", "--start", "3"],
]

#: no extra cases: the whole set runs by default
EXTRA_CASES: list[Case] = []
assert len({c.id for c in CASES}) == len(CASES)
