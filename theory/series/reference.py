"""Independent reference values for the RPE paper's series and TRFs (no engine needed).

Used by the RPE theory checks (:mod:`paper_checks.rpe.theory_claims`) and by the
``rpe-fig5`` / ``rpe-fig7-8`` figures, and as a cross-check of the project's TRF engine.
Everything here is computed by a route that does not share code with ``theory/``:
closed-form tails (geometric, Hurwitz zeta, trigamma), an Euler-Maclaurin tail with a
closed-form integral (Type 2: an erfc; Kerple power: an incomplete gamma), and the
paper's own truncated cumulative-sum method (Appendix E) ported line by line.

Index convention: the paper's distance index ``t = 0, 1, ...`` (Eq. 19: the token
itself is ``t = 0``).  The paper writes Type 1 / Type 2 / 1/n / 1/(n ln n) in ``n``
and silently shifts them (Eq. 29 uses ``(i+1)^2``); here ``n = t + 1`` for the first
three and ``n = t + 2`` for 1/(n ln n) (undefined at n = 1).  In the project's engine
convention (term ``k`` is ``b_{start+k}``) the same sequences are ``1/n**2`` with
``start=1`` and ``exp(-k*n)`` with ``start=0``.

TRF (Eq. 22):

.. math:: n(\\epsilon) = \\inf_j \\Big\\{ j : \\sum_{t\\ge j} b_t < B\\epsilon \\Big\\},
          \\qquad B = \\sum_{t\\ge 0} b_t .

>>> exact_trf("alibi", {"k": 1.0}, 0.01)   # smallest j with e^{-j} < 0.01: floor(ln 100)+1
5
>>> exact_trf("type1", {}, 0.01)           # trigamma(j+1) < 0.01*pi^2/6
61
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import mpmath as mp
import numpy as np
import numpy.typing as npt

DPS = 30

#: name -> (paper formula in t, default parameters, convergent?)
FAMILIES = {
    "alibi": ("exp(-k t)", {"k": 1.0}, True),  # Eq. 30, App. C k=1
    "kerple-log": ("(1 + k t)^(-r)", {"k": 1.0, "r": 1.5}, True),  # Eq. 32 (r > 1)
    "kerple-power": ("exp(-k t^r)", {"k": 1.0, "r": 0.5}, True),  # Eq. 34 (0 < r <= 2)
    "sandwich": (
        "exp(k sum_j (cos(t / r^(2j/d)) - 1))",
        {"k": 0.125, "r": 10000.0, "d": 128},
        False,
    ),  # App. B (diverges)
    "type1": ("1/(t+1)^2", {}, True),  # Sec. 3.4
    "type2": ("exp(-ln(t+1)^2)", {}, True),  # Sec. 3.4
    "inv-n": ("1/(t+1)", {}, False),  # Sec. 4, Example 1
    "inv-nlogn": ("1/((t+2) ln(t+2))", {}, False),  # Sec. 4, Example 2
}


def params_of(name: str, params: dict | None = None) -> dict:
    if name not in FAMILIES:
        raise KeyError(f"unknown RPE family {name!r}; one of {sorted(FAMILIES)}")
    p = dict(FAMILIES[name][1])
    p.update(params or {})
    return p


def term(name: str, t: float | mp.mpf, params: dict | None = None) -> mp.mpf:
    """b_t (mpmath) for distance ``t >= 0`` (the paper's Appendix B forms)."""
    p = params_of(name, params)
    t = mp.mpf(t)
    if name == "alibi":
        return mp.exp(-p["k"] * t)
    if name == "kerple-log":
        return (1 + p["k"] * t) ** (-p["r"])
    if name == "kerple-power":
        return mp.exp(-p["k"] * t ** p["r"])
    if name == "sandwich":
        return sandwich_term(t, p["k"], p["r"], int(p["d"]))
    if name == "type1":
        return 1 / (t + 1) ** 2
    if name == "type2":
        return mp.exp(-(mp.log(t + 1) ** 2))
    if name == "inv-n":
        return 1 / (t + 1)
    return 1 / ((t + 2) * mp.log(t + 2))


def terms_array(name: str, m: int, params: dict | None = None) -> np.ndarray:
    """b_0..b_{m-1} as float64 (vectorised numpy; agrees with :func:`term`)."""
    p = params_of(name, params)
    t = np.arange(m, dtype=np.float64)
    if name == "alibi":
        return np.exp(-p["k"] * t)
    if name == "kerple-log":
        return (1 + p["k"] * t) ** (-p["r"])
    if name == "kerple-power":
        return np.exp(-p["k"] * t ** p["r"])
    if name == "sandwich":
        d = int(p["d"])
        freqs = p["r"] ** (-2.0 * np.arange(1, d // 2 + 1) / d)
        return np.exp(p["k"] * (np.cos(np.outer(t, freqs)) - 1).sum(axis=1))
    if name == "type1":
        return 1 / (t + 1) ** 2
    if name == "type2":
        return np.exp(-(np.log(t + 1) ** 2))
    if name == "inv-n":
        return 1 / (t + 1)
    return 1 / ((t + 2) * np.log(t + 2))


def sandwich_term(t: float | mp.mpf, k: float | mp.mpf, r: float | mp.mpf, d: int) -> mp.mpf:
    """Sandwich b_t = exp(k sum_{j=1}^{d/2} (cos(t / r^{2j/d}) - 1)) (App. B, Eq. 37)."""
    return mp.exp(
        k * mp.fsum(mp.cos(t / mp.mpf(r) ** (mp.mpf(2 * j) / d)) - 1 for j in range(1, d // 2 + 1))
    )


# --------------------------------------------------------------------------- tails
def _em_tail(f, integral, a, order=4):
    """Euler-Maclaurin: sum_{t>=a} f(t) = int_a^inf f + f(a)/2 - sum_p B_2p/(2p)! f^(2p-1)(a)."""
    s = integral(a) + f(a) / 2
    for p in range(1, order + 1):
        s -= mp.bernoulli(2 * p) / mp.factorial(2 * p) * mp.diff(f, a, 2 * p - 1)
    return s


def tail(name: str, j: float | mp.mpf, params: dict | None = None) -> mp.mpf:
    """sum_{t >= j} b_t to ~25 digits (closed form or Euler-Maclaurin); inf if divergent."""
    p = params_of(name, params)
    j = mp.mpf(j)
    with mp.workdps(DPS):
        if not FAMILIES[name][2]:
            return mp.inf
        if name == "alibi":
            return mp.exp(-p["k"] * j) / (1 - mp.exp(-p["k"]))
        if name == "kerple-log":
            if p["r"] <= 1:
                return mp.inf
            return mp.mpf(p["k"]) ** (-p["r"]) * mp.zeta(p["r"], j + 1 / mp.mpf(p["k"]))
        if name == "type1":
            return mp.zeta(2, j + 1)  # = trigamma(j + 1)
        if name == "type2":
            f = lambda x: mp.exp(-(mp.log(x + 1) ** 2))
            # int_a^inf exp(-ln^2(x+1)) dx = e^{1/4} sqrt(pi)/2 erfc(ln(a+1) - 1/2)
            integral = lambda a: (
                mp.exp(mp.mpf(1) / 4) * mp.sqrt(mp.pi) / 2 * mp.erfc(mp.log(a + 1) - mp.mpf(1) / 2)
            )
        else:  # kerple-power
            k, r = mp.mpf(p["k"]), mp.mpf(p["r"])
            f = lambda x: mp.exp(-k * x**r)
            # int_a^inf exp(-k x^r) dx = Gamma(1/r, k a^r) / (r k^{1/r})
            integral = lambda a: mp.gammainc(1 / r, k * a**r) / (r * k ** (1 / r))
        if j >= _HEAD:
            return _em_tail(f, integral, j)
        suffix = _suffix_sums(name, tuple(sorted(p.items())), f, integral)
        return suffix[int(j)]


_HEAD = 200
_SUFFIX_CACHE: dict = {}


def _suffix_sums(name, key, f, integral):
    """tail(j) for j < _HEAD: cached suffix sums of the first terms + E-M tail at _HEAD."""
    ck = (name, key, DPS)
    if ck not in _SUFFIX_CACHE:
        acc = [_em_tail(f, integral, mp.mpf(_HEAD))]
        for tt in range(_HEAD - 1, -1, -1):
            acc.append(acc[-1] + f(mp.mpf(tt)))
        _SUFFIX_CACHE[ck] = acc[::-1]
    return _SUFFIX_CACHE[ck]


def total(name: str, params: dict | None = None) -> mp.mpf:
    """B = sum_{t >= 0} b_t (inf for a divergent family)."""
    return tail(name, 0, params)


def exact_trf(name: str, params: dict | None, eps: float) -> int | float:
    """Eq. 22 exactly: smallest j with tail(j) < B eps, by doubling and bisection.

    Returns ``math.inf`` for a divergent family (no finite B).
    """
    with mp.workdps(DPS):
        B = total(name, params)
        if B == mp.inf:
            return math.inf
        target = B * mp.mpf(eps)
        lo, hi = 0, 1  # tail(lo) >= target > tail(hi) invariant
        while tail(name, hi, params) >= target:
            lo, hi = hi, hi * 2
            if hi > 2**400:
                raise OverflowError("TRF beyond 2^400")
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if tail(name, mid, params) < target:
                hi = mid
            else:
                lo = mid
        return hi


def brute_force_trf(b: np.ndarray, B: float, eps: float) -> int | None:
    """Smallest j with sum_{t<j} b_t > B(1 - eps) from a float64 cumulative sum of ``b``
    (Eq. 22 with the true B); ``None`` when the array is too short to reach it."""
    c = np.cumsum(b)
    hit = np.nonzero(c > B * (1 - eps))[0]
    return int(hit[0]) + 1 if hit.size else None


# ------------------------------------------------------------- the paper's method
def appendix_e_draw(array: npt.ArrayLike, n: int = 50) -> tuple[np.ndarray, np.ndarray]:
    """The paper's Appendix E pseudocode, ported line by line (float32 like torch).

    Returns ``(index / m, epsilon)``: for each eps in ``linspace(1, 0, n)`` the first
    ``j`` at which the running sum of ``array[:j]`` reaches ``sum(array) * (1 - eps)``
    (note ``>=`` and the truncated array's own sum as B), divided by ``m``.
    """
    array = np.asarray(array, dtype=np.float32)
    epsilon = np.linspace(0, 1, n, dtype=np.float32)[::-1]
    index = np.zeros(n, dtype=np.float32)
    cusum = np.float32(array.sum(dtype=np.float32))
    m = len(array)
    s = np.float32(0)
    i = 0
    for j in range(m):
        eps = epsilon[i]
        while s >= cusum * (np.float32(1) - eps) and i < n:
            index[i] = j
            if i < n - 1:
                i += 1
            else:
                break
            eps = epsilon[i]
        s = np.float32(s + array[j])
    while i < n:
        index[i] = m
        i += 1
    return index / m, epsilon


def truncated_trf(array: npt.ArrayLike, eps: float) -> int:
    """Appendix E's TRF (un-normalised) for one eps: first j with
    sum(array[:j]) >= sum(array) * (1 - eps), float32 running sum; ``m`` if never."""
    a = np.asarray(array, dtype=np.float32)
    cusum = a.sum(dtype=np.float32)
    c = np.cumsum(a, dtype=np.float32)
    partial = np.concatenate([[np.float32(0)], c[:-1]])  # partial[j] = sum a[:j]
    hit = np.nonzero(partial >= cusum * (np.float32(1) - np.float32(eps)))[0]
    return int(hit[0]) if hit.size else len(a)


def toeplitz_exp_rpe(name: str, size: int, params: dict | None = None) -> np.ndarray:
    """The causal matrix exp(R): entry (i, j) = b_{i-j} for j <= i, 0 above (Figs. 7-8)."""
    b = terms_array(name, size, params)
    i, j = np.indices((size, size))
    return np.where(j <= i, b[np.clip(i - j, 0, None)], 0.0)


def exact_trf_many(
    name: str, params: dict | None, eps_values: Iterable[float], m_direct: int = 200_000
) -> list[int | float]:
    """:func:`exact_trf` for many eps at once: a float64 cumulative sum proposes j, two
    mpmath tails confirm it (tail(j-1) >= B eps > tail(j)); bisection otherwise."""
    eps_values = [float(e) for e in eps_values]
    if not FAMILIES[name][2]:
        return [math.inf] * len(eps_values)
    with mp.workdps(DPS):
        B = total(name, params)
        c = np.cumsum(terms_array(name, m_direct, params))
        out = []
        for e in eps_values:
            guess = _guess(c, float(B), e)
            target = B * mp.mpf(e)
            if (
                guess is not None
                and tail(name, guess, params) < target
                and (guess == 0 or tail(name, guess - 1, params) >= target)
            ):
                out.append(guess)
            else:
                out.append(exact_trf(name, params, e))
        return out


def _guess(c, B, eps):
    hit = np.searchsorted(c, B * (1 - eps), side="right")
    return int(hit) + 1 if hit < len(c) else None
