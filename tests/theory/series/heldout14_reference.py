"""Independent references for held-out set 14: B and TRF(eps) by mpmath at 50 digits, exact
integer / Fraction arithmetic where the tails are rational, and the exact binary values of
float64 bias files (``mp.mpf(float)`` and ``Fraction(float)`` are exact).

Nothing here calls the project's code.  The helpers of sets 7-13 are re-exported
(:func:`eps_mp`, :func:`trf_from_tail`, :func:`trf_from_terms`, :func:`trf_any`,
:func:`log_scale_trf`, :func:`two_ways`, :func:`direct_sum`, :func:`em_tail`,
:func:`stretched_tail`, :func:`linear_tail_ref`, :func:`trf_signed_checked`,
:func:`trf_positive_checked`, :class:`SlowTail`); the ones added here state what they rely on:

* :func:`geo_trf_checked` -- b_t = C e^(-k t): R_j/B = e^(-k j), so TRF(eps) = floor(ln(1/eps)/k)
  + 1, the floor taken only where ln(1/eps)/k is at least 1e-40 away from an integer (a tie,
  R_j = eps B exactly, is no crossing and is handled apart, with Fractions).
* :func:`central` -- c_n = binomial(2n, n)/4^n = Gamma(n + 1/2)/(sqrt(pi) n!) from log-gamma;
  :func:`central_below` decides c_j < eps exactly with integers (math.comb).
* :func:`trf_positive_stream` -- Eq. 22 for terms >= 0 produced one by one (a recurrence of
  the term ratio), with the margin check of :func:`trf_positive_checked`, for crossings near
  10^6 terms where a list of terms would be wasteful.
* :func:`hurwitz_int_trf` -- the least j with c zeta(s, a + j) < eps B by bisection (zeta(s, x)
  decreases in x), both neighbours of the crossing checked to clear eps B by 1e-40 relative.
* :func:`cube_geometric_tail` -- sum_(n >= m) n^3 q^n = q^m (m^3 S_0 + 3 m^2 S_1 + 3 m S_2 +
  S_3), S_k = sum_(i >= 0) i^k q^i (S_0 = 1/(1-q), S_1 = q/(1-q)^2, S_2 = q(1+q)/(1-q)^3,
  S_3 = q(1 + 4q + q^2)/(1-q)^4, Eulerian polynomials), checked against mpmath's polylog.

Run ``python tests/theory/series/heldout14_reference.py`` to compute every reference of the
set (each with its two-way checks) and print them: :func:`check_all`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp

try:
    from .heldout8_reference import linear_tail_ref  # noqa: F401
    from .heldout9_reference import stretched_tail  # noqa: F401
    from .heldout12_reference import em_tail  # noqa: F401
    from .heldout13_reference import (  # noqa: F401
        DPS,
        SlowTail,
        direct_sum,
        eps_mp,
        log_scale_trf,
        trf_any,
        trf_from_tail,
        trf_from_terms,
        trf_positive_checked,
        trf_signed_checked,
        two_ways,
    )
except ImportError:  # run as a script from this folder
    from heldout8_reference import linear_tail_ref  # noqa: F401
    from heldout9_reference import stretched_tail  # noqa: F401
    from heldout12_reference import em_tail  # noqa: F401
    from heldout13_reference import (  # noqa: F401
        DPS,
        SlowTail,
        direct_sum,
        eps_mp,
        log_scale_trf,
        trf_any,
        trf_from_tail,
        trf_from_terms,
        trf_positive_checked,
        trf_signed_checked,
        two_ways,
    )

TIE = mp.mpf(10) ** -40


# ---------------------------------------------------------------------------------------
# Geometric tails
# ---------------------------------------------------------------------------------------
def geo_trf_checked(k, eps_list, as_log10_beyond=None) -> dict:
    """{eps: floor(ln(1/eps)/k) + 1} for R_j/B = e^(-k j) (k > 0 an mpf, exact at the working
    precision), with no tie: the fractional part of ln(1/eps)/k, computed with 60 digits
    beyond its integer part, must be at least 1e-30 away from 0 and 1.  An int, or ("log10",
    log10 TRF, 1e-9) when TRF exceeds ``as_log10_beyond``."""
    out = {}
    for e in eps_list:
        size = mp.log10(mp.log(1 / eps_mp(e)) / k)
        with mp.workdps(max(mp.mp.dps, int(max(size, 0)) + 60)):
            x = mp.log(1 / eps_mp(e)) / k
            f = mp.floor(x)
            frac = x - f
            assert mp.mpf(10) ** -30 < frac < 1 - mp.mpf(10) ** -30, ("tie", e, frac)
            v = int(f) + 1
        if as_log10_beyond is not None and v > as_log10_beyond:
            out[e] = ("log10", float(mp.log10(mp.mpf(v))), 1e-9)
        else:
            out[e] = v
    return out


# ---------------------------------------------------------------------------------------
# Central binomial coefficients
# ---------------------------------------------------------------------------------------
def central(n):
    """c_n = binomial(2n, n)/4^n (c_0 = 1) from log-gamma."""
    n = mp.mpf(n)
    return mp.exp(mp.loggamma(2 * n + 1) - 2 * mp.loggamma(n + 1) - n * mp.log(4))


def central_below(j: int, eps) -> bool:
    """c_j < eps exactly: binomial(2j, j) * den < num * 4^j with eps = num/den (the decimal)."""
    e = Fraction(str(eps))
    return math.comb(2 * j, j) * e.denominator < e.numerator * 4**j


def trf_positive_stream(terms, B, rerr, eps_list, jmax) -> dict:
    """Eq. 22 for terms >= 0 given by the iterator ``terms`` (term k is b_(start+k)): the least
    j with B - S_j < eps B, every comparison clearing 2 rerr + 1e-25."""
    todo = sorted(eps_list, key=lambda e: -eps_mp(e))  # largest threshold first
    out = {}
    margin = 2 * rerr + mp.mpf(10) ** -25
    s, j = mp.mpf(0), 0
    it = iter(terms)
    for e in todo:
        thr = B * eps_mp(e)
        while B - s >= thr:
            assert abs(B - s - thr) > margin, ("undecided", e, j)
            assert j < jmax, ("crossing beyond jmax", e)
            s += next(it)
            j += 1
        assert abs(B - s - thr) > margin, ("undecided", e, j)
        out[e] = j
    return out


# ---------------------------------------------------------------------------------------
# Hurwitz zeta tails
# ---------------------------------------------------------------------------------------
def int_trf_checked(R, B, eps_list, hi) -> dict:
    """{eps: least j with R(j) < eps B} (R nonincreasing, an int however large) by bisection
    on [0, hi], both neighbours of the crossing clearing eps B by 1e-40 relative."""
    out = {}
    for e in eps_list:
        thr = B * eps_mp(e)
        assert R(hi) < thr, ("bracket", e)
        if R(0) < thr:
            out[e] = 0
            continue
        lo, up = 0, hi
        while up - lo > 1:
            mid = (lo + up) // 2
            lo, up = (lo, mid) if R(mid) < thr else (mid, up)
        assert R(up - 1) - thr > TIE * thr and thr - R(up) > TIE * thr, ("margin", e, up)
        out[e] = up
    return out


def hurwitz_int_trf(s, a, c, B, eps_list, hi) -> dict:
    """{eps: least j with c zeta(s, a + j) < eps B} (an int, however large); at each crossing
    mpmath's zeta is checked against the Euler-Maclaurin form :func:`hurwitz_em` (1e-45)."""
    s, a = mp.mpf(s), mp.mpf(a)
    out = int_trf_checked(lambda j: c * mp.zeta(s, a + j), B, eps_list, hi)
    for j in out.values():
        for x in (a + j - 1, a + j):
            if x > 10**4:
                z1, z2 = mp.zeta(s, x), hurwitz_em(s, x)
                assert abs(z1 - z2) < mp.mpf(10) ** -45 * z1, (x, z1, z2)
    return out


def hurwitz_em(s, a, K=12):
    """zeta(s, a) for large a by Euler-Maclaurin (the second way): a^(1-s)/(s-1) + a^-s/2 +
    sum_k B_2k/(2k)! (s)_(2k-1) a^(-s-2k+1)."""
    s, a = mp.mpf(s), mp.mpf(a)
    v = a ** (1 - s) / (s - 1) + a**-s / 2
    for k in range(1, K + 1):
        v += mp.bernoulli(2 * k) / mp.factorial(2 * k) * mp.rf(s, 2 * k - 1) * a ** (-s - 2 * k + 1)
    return v


# ---------------------------------------------------------------------------------------
# n^3 times a geometric series
# ---------------------------------------------------------------------------------------
def cube_geometric_tail(m, q, one_minus_q):
    m = mp.mpf(m)
    d = one_minus_q
    S0, S1 = 1 / d, q / d**2
    S2, S3 = q * (1 + q) / d**3, q * (1 + 4 * q + q * q) / d**4
    return q**m * (m**3 * S0 + 3 * m**2 * S1 + 3 * m * S2 + S3)


def check_all(only=None) -> int:
    """Compute every reference of set 14 (their two-way checks are assertions inside) and
    print it; returns the number of failures."""
    import time

    try:
        from . import heldout14_cases as C
    except ImportError:
        import heldout14_cases as C
    bad = 0
    for case in C.CASES:
        if only and case.id not in only:
            continue
        t0 = time.time()
        try:
            with mp.workdps(50):
                b = case.B() if case.B else None
                t = case.trf() if case.trf else None
            txt = ""
            if b is not None:
                txt += f"B = {mp.nstr(b[0], 25)} (+- {mp.nstr(b[1], 3)})"
            if t is not None:
                txt += f"  TRF {t}"
            if case.cond is not None:
                txt += f"  grid {len(case.cond[1])} points"
            print(f"ok   {time.time() - t0:6.1f}s {case.id}: {txt or case.verdict}", flush=True)
        except Exception as ex:  # noqa: BLE001
            bad += 1
            print(f"FAIL {time.time() - t0:6.1f}s {case.id}: {ex!r}", flush=True)
    print(f"{len(C.CASES)} cases, {bad} reference failures")
    return bad


if __name__ == "__main__":
    import sys

    raise SystemExit(1 if check_all(sys.argv[1:]) else 0)
