"""Independent references for held-out set 7: B and TRF(eps) by mpmath at 50 digits.

Nothing here calls the project's code.  Each helper states the bound it relies on:

* :func:`direct_sum` -- partial sums of a term function plus a proved upper bound U of the
  tail; the reference is ``S_N + U/2`` with error ``U/2`` (the tail lies in [0, U]).
* :func:`em_tail` -- Euler-Maclaurin for a completely monotone f on [a, oo):
  ``sum_{n>=a} f(n) = int_a^oo f + f(a)/2 - sum_{k=1}^{p} B_2k/(2k)! f^(2k-1)(a) + R`` with
  ``|R| <= 2 zeta(2p)/(2 pi)^(2p) int_a^oo |f^(2p)| = 2 zeta(2p)/(2 pi)^(2p) |f^(2p-1)(a)|``
  (f^(2p) of one sign; Apostol, Amer. Math. Monthly 106 (1999), Eq. (15)).
* TRF(eps) of nonnegative terms: the least j with R_j < eps B (RPE paper Eq. 22), R_j the
  tail after j terms; eps is the decimal the user typed (so a tie R_j = eps B is no crossing).
* TRF(eps) of signed terms (docs/conventions.md, trf-certified): the least j with
  |R_k| < eps |B| for every k >= j; beyond the computed range a proved bound on |R_k| (Abel
  summation or the alternating series bound) shows no further k counts.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp

DPS = 50


def eps_mp(eps) -> mp.mpf:
    """eps as the decimal written on the command line."""
    return mp.mpf(Fraction(str(eps)).numerator) / Fraction(str(eps)).denominator


def trf_from_tail(R, B, eps_list, hi=10**7) -> dict:
    """{eps: least j >= 0 with R(j) < eps*B} for a nonincreasing tail R (exact Fraction
    or mpf), by bisection on [0, hi]."""
    out = {}
    for eps in eps_list:
        thr = B * Fraction(str(eps)) if isinstance(B, Fraction) else B * eps_mp(eps)
        lo_, hi_ = 0, hi
        assert R(hi_) < thr, ("bracket too small", eps)
        if R(0) < thr:
            out[eps] = 0
            continue
        while hi_ - lo_ > 1:
            mid = (lo_ + hi_) // 2
            if R(mid) < thr:
                hi_ = mid
            else:
                lo_ = mid
        out[eps] = hi_
    return out


def trf_from_terms(terms, B, eps_list) -> dict:
    """TRF of nonnegative terms (a list, the first ones of the series) against the sum B."""
    out = {}
    for eps in eps_list:
        thr = B * (1 - eps_mp(eps))
        s = mp.mpf(0)
        for j, t in enumerate(terms, 1):
            s += t
            if s > thr:
                out[eps] = j
                break
        else:
            raise AssertionError(f"TRF({eps}) beyond the {len(terms)} terms given")
    return out


def trf_signed(terms, B, eps_list, bound) -> dict:
    """TRF of signed terms: 1 + the last k with |R_k| >= eps |B|, k over the computed range
    (``len(terms)``), checked against ``bound(K)`` >= |R_k| for every k >= K = len(terms)."""
    out = {}
    K = len(terms)
    for eps in eps_list:
        thr = abs(B) * eps_mp(eps)
        assert bound(K) < thr, ("range too short", eps)
        s, last = mp.mpf(0), 0
        for k in range(K + 1):
            if abs(B - s) >= thr:
                last = k
            if k < K:
                s += terms[k]
        out[eps] = last + 1
    return out


def direct_sum(f, s, N, tail_upper):
    """(S + U/2, U/2): the sum of f(n) for s <= n < N plus half the tail bound U."""
    S = mp.fsum(f(mp.mpf(n)) for n in range(s, N))
    U = tail_upper(N)
    return S + U / 2, U / 2


def em_tail(f, a, integral, p=8):
    """(value, bound) of sum_{n>=a} f(n) for f completely monotone on [a, oo);
    ``integral`` = int_a^oo f."""
    val = integral + f(a) / 2
    for k in range(1, p + 1):
        val -= mp.bernoulli(2 * k) / mp.factorial(2 * k) * mp.diff(f, a, 2 * k - 1)
    bound = 2 * mp.zeta(2 * p) / (2 * mp.pi) ** (2 * p) * abs(mp.diff(f, a, 2 * p - 1))
    # the last Bernoulli term is included; bound with the (2p)th derivative's integral
    # uses p terms, so a further 2p+1 derivative term is not needed
    return val, bound


def geometric_trf_log10(k, eps):
    """log10 TRF for b_t = e^(-k t): R_j / B = e^(-k j), crossing at j > ln(1/eps)/k."""
    return float(mp.log10(mp.log(1 / eps_mp(eps)) / mp.mpf(k)))
