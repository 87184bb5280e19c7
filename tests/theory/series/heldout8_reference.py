"""Independent references for held-out set 8: B and TRF(eps) by mpmath at 50 digits.

Nothing here calls the project's code.  Besides the helpers of set 7 (re-exported:
:func:`eps_mp`, :func:`trf_from_tail`, :func:`trf_from_terms`, :func:`trf_signed`,
:func:`direct_sum`), each helper states what it relies on:

* :func:`smooth_sum` -- a smooth, eventually monotone f: ``K`` terms summed directly and the
  rest by mpmath's Euler-Maclaurin ``nsum``; the error is the disagreement of two splits
  (K and 4K) plus 1e-40 (a numerical reference, checked against the closed forms of the
  cases that have one).
* :func:`smooth_tail` -- the tail ``sum_{n >= a} f(n)`` the same way (TRF by bisection).
* :func:`linear_tail_ref` -- a bias file with the linear tail, on the exact binary values.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp

try:
    from .heldout7_reference import (  # noqa: F401
        DPS,
        direct_sum,
        eps_mp,
        trf_from_tail,
        trf_from_terms,
        trf_signed,
    )
except ImportError:  # run as a script from this folder
    from heldout7_reference import (  # noqa: F401
        DPS,
        direct_sum,
        eps_mp,
        trf_from_tail,
        trf_from_terms,
        trf_signed,
    )


def smooth_tail(f, a, K=40):
    """sum_{n >= a} f(n): K terms directly, then Euler-Maclaurin (mpmath ``nsum``)."""
    head = mp.fsum(f(mp.mpf(n)) for n in range(a, a + K))
    return head + mp.nsum(f, [a + K, mp.inf], method="euler-maclaurin")


def smooth_sum(f, a, K=40):
    """(value, error) of sum_{n >= a} f(n): two splits K and 4K must agree (error floor 1e-25)."""
    v1, v2 = smooth_tail(f, a, K), smooth_tail(f, a, 4 * K)
    return v2, abs(v1 - v2) * 10 + mp.mpf(10) ** -25


def signed_terms_trf(f, start, B, eps_list, K, bound):
    """TRF of signed terms f(start), f(start + 1), ... (K of them computed), with
    ``bound(K)`` >= |R_k| for every k >= K (Abel summation or Leibniz)."""
    terms = [f(mp.mpf(n)) for n in range(start, start + K)]
    return trf_signed(terms, B, eps_list, bound)


def linear_tail_ref(values):
    """B and the tail function of a bias file with the linear tail, exactly on the binary
    values: least-squares slope of the last max(2, L // 10) values (docs/guide/series.md)."""
    L = len(values)
    m = max(2, L // 10)
    ys = [Fraction(float(v)) for v in values[-m:]]
    xm, ym = Fraction(m - 1, 2), sum(ys) / m
    slope = sum((i - xm) * (v - ym) for i, v in enumerate(ys)) / sum(
        (i - xm) ** 2 for i in range(m)
    )
    s = mp.mpf(slope.numerator) / slope.denominator
    last = mp.mpf(float(values[-1]))
    q, one_minus_q = mp.exp(s), -mp.expm1(s)  # expm1: s may be as small as 1e-320
    head = [mp.exp(mp.mpf(float(v))) for v in values]
    far = mp.exp(last) * q / one_minus_q
    # suffix sums of the head, so that tail(j) is O(1)
    suffix = [mp.mpf(0)] * (L + 1)
    for i in range(L - 1, -1, -1):
        suffix[i] = suffix[i + 1] + head[i]

    def tail(j):
        if j < L:
            return suffix[j] + far
        return mp.exp(last + s * (j - L + 1)) / one_minus_q

    return suffix[0] + far, tail, s
