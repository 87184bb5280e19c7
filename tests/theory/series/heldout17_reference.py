"""Independent references for held-out set 17: B and TRF(eps) by mpmath at 50 digits, exact
Fraction / integer arithmetic where the terms and tails are rational.

Nothing here calls the project's code.  The helpers of sets 7-16 are re-exported
(:func:`eps_mp`, :func:`int_trf_checked`, :func:`trf_positive_checked`,
:func:`trf_signed_checked`, :func:`two_ways`, :func:`em_tail`, :func:`hurwitz_em`,
:func:`geo_trf_checked`, :func:`hurwitz_B`, :func:`hurwitz_trf`, :func:`truncated_trf`,
:func:`t5_terms`, :func:`frac_trf`, :func:`frac_checked`, :func:`closed_trf`, :func:`as_ref`,
:func:`mpq`, :func:`feps`, :func:`central_below`); the ones added here state what they rely on:

* :func:`class_zeta` -- sum_(n >= m, n = r mod L) n^-s = L^-s zeta(s, n0/L), n0 the first such
  n (a residue class of a Hurwitz zeta); :func:`periodic_tail` sums it over the classes of a
  term (P_r(n) = sum_i c_(r,i) n^(-s_i) on the class n = r mod L), the tails of floor(n/3)/n^3,
  ceiling(n/2)/n^3, floor(n/2) ceiling(n/2)/n^4.
* :func:`alt_hurwitz` -- sum_(n >= m) (-1)^n (a n + b)^-s = (-1)^m (2a)^-s (zeta(s, (a m + b)/(2a))
  - zeta(s, (a m + a + b)/(2a))) (pairs of neighbours), and for s = 1 the digamma form
  (psi((a m + a + b)/(2a)) - psi((a m + b)/(2a)))/(2a).
* :func:`monotone_abs_trf` -- the tail rule (docs/conventions.md, trf-certified: the least j with
  |R_k| < eps |B| for every k >= j) for tails whose modulus is nonincreasing: an alternating
  series with g completely monotone (|R_j| - |R_(j+1)| is the alternating sum of the decreasing
  differences g(n) - g(n + 1) >= 0), or terms of one sign.  Bisection on |R_j|, both neighbours
  of the crossing clear by 1e-40, |R| checked nonincreasing around it, the closed tail checked
  to telescope, and crossings below 4000 recomputed from the partial sums of the terms with
  the bound |R_k| <= |b_(s+k)| of an alternating tail (:func:`trf_signed_checked`) or the
  exact tail.
* :func:`log10_crossing` -- for a TRF beyond 10^13: the real t with R(t) = eps B (R decreasing
  and smooth in t) by bisection on log t to 1e-15 relative; ("log10", log10 t, 1e-9).
* :func:`floor_log_tail` -- sum_(n >= m) floor(log n)/n^3 = K zeta(3, m) + sum_(k > K)
  zeta(3, ceil(e^k)) with K = floor(log m) (Abel summation over the blocks where floor(log n)
  is constant; e^k is never an integer, its ceiling taken at 60 digits with a 1e-30 margin).
* :func:`stretched_B` -- sum_(n >= 0) e^(-k sqrt n): the terms to N plus Euler-Maclaurin with
  the integral int_N^oo e^(-k sqrt x) dx = 2 e^(-k sqrt N) (sqrt N/k + 1/k^2), at two splits.
* :func:`cubic_exp_B` -- sum_(n >= 0) e^(-k n^3), k small: the terms (the rest below e^-300)
  and Euler-Maclaurin at 0: int = Gamma(4/3) k^(-1/3), f(0)/2 = 1/2, f^(3m)(0) = (-k)^m (3m)!/m!
  (the other odd derivatives vanish), asymptotic, a few terms enough for 1e-25 at k = 10^-3.
* :func:`catalan_check` -- b_n = c_n/(n + 1), c_n = binomial(2n, n)/4^n: c_n - c_(n+1) = c_n/(2n +
  2), so the tail from n = j is 2 c_j (c_j -> 0 as 1/sqrt(pi j)); the tie checks exact with
  integers (math.comb).
* :func:`arcsin_tail` -- b_n = c_n/(2n + 1) from n = 0: B = arcsin(1) = pi/2, and the tail from m
  is the hypergeometric b_m 3F2(1, m + 1/2, m + 1/2; m + 1, m + 3/2; 1) (term ratio (n + 1/2)^2/
  ((n + 1)(n + 3/2))), checked against pi/2 minus the partial sums.

Run ``python tests/theory/series/heldout17_reference.py`` to compute every reference of the
set (each with its two-way checks) and print them: :func:`check_all`.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp

try:
    from .heldout13_reference import trf_signed_checked  # noqa: F401
    from .heldout14_reference import central_below  # noqa: F401
    from .heldout15_reference import hurwitz_B, hurwitz_trf, t5_terms  # noqa: F401
    from .heldout16_reference import (  # noqa: F401
        DPS,
        TIE,
        as_ref,
        closed_trf,
        em_tail,
        eps_mp,
        feps,
        frac_checked,
        frac_trf,
        geo_trf_checked,
        hurwitz_em,
        int_trf_checked,
        mpq,
        telescoped,
        trf_positive_checked,
        truncated_trf,
        two_ways,
    )
except ImportError:  # run as a script from this folder
    from heldout13_reference import trf_signed_checked  # noqa: F401
    from heldout14_reference import central_below  # noqa: F401
    from heldout15_reference import hurwitz_B, hurwitz_trf, t5_terms  # noqa: F401
    from heldout16_reference import (  # noqa: F401
        DPS,
        TIE,
        as_ref,
        closed_trf,
        em_tail,
        eps_mp,
        feps,
        frac_checked,
        frac_trf,
        geo_trf_checked,
        hurwitz_em,
        int_trf_checked,
        mpq,
        telescoped,
        trf_positive_checked,
        truncated_trf,
        two_ways,
    )

TINY = mp.mpf(10) ** -40


# ---------------------------------------------------------------------------------------
# Residue classes of Hurwitz zeta
# ---------------------------------------------------------------------------------------
def class_zeta(s, L: int, r: int, m: int):
    """sum_(n >= m, n = r mod L) n^-s (m >= 1): L^-s zeta(s, n0/L), n0 >= m the first such n."""
    n0 = m + ((r - m) % L)
    return mp.mpf(L) ** -mp.mpf(s) * mp.zeta(s, mp.mpf(n0) / L)


def periodic_tail(parts: dict, L: int):
    """m -> sum_(n >= m) P_(n mod L)(n), P_r(n) = sum over (c, s) in parts[r] of c n^-s."""

    def R(m):
        return mp.fsum(
            mpq(c) * class_zeta(s, L, r, m) for r, items in parts.items() for c, s in items
        )

    return R


def periodic_term(parts: dict, L: int):
    def t(n):
        return mp.fsum(mpq(c) * mp.mpf(n) ** -mp.mpf(s) for c, s in parts[n % L])

    return t


# ---------------------------------------------------------------------------------------
# Alternating tails
# ---------------------------------------------------------------------------------------
def alt_hurwitz(a, b, s, m):
    """sum_(n >= m) (-1)^n (a n + b)^-s (a > 0, a m + b > 0)."""
    a, b = mp.mpf(a), mp.mpf(b)
    x = (a * m + b) / (2 * a)
    y = (a * m + a + b) / (2 * a)
    sign = -1 if m % 2 else 1
    if s == 1:
        return sign * (mp.digamma(y) - mp.digamma(x)) / (2 * a)
    return sign * (2 * a) ** -mp.mpf(s) * (mp.zeta(s, x) - mp.zeta(s, y))


def monotone_abs_trf(R, B, eps_list, hi, term, start, alternating=True) -> dict:
    """{eps: least j with |R(j)| < eps |B|}, |R| nonincreasing (see the module docstring);
    R(j) is the tail from n = start + j.  Checks: R(0) = B, the telescoping R(k) - R(k + 1) =
    term(start + k) at the crossings, |R| nonincreasing there, and small crossings from the
    partial sums (tail rule with the alternating bound, or the exact tails)."""
    assert abs(R(0) - B) < TINY * abs(B), (R(0), B)
    out = int_trf_checked(lambda j: abs(R(j)), abs(B), eps_list, hi)
    for j in out.values():
        for k in (j - 2, j - 1, j):
            if k >= 0:
                d = R(k) - R(k + 1) - term(start + k)
                assert abs(d) < mp.mpf(10) ** -35 * abs(R(k)), ("telescoping", k)
                assert abs(R(k + 1)) <= abs(R(k)), ("monotone", k)
    small = {e: j for e, j in out.items() if j < 4000}
    if small:
        K = max(small.values()) + 3
        least = abs(B) * min(eps_mp(e) for e in small)
        while alternating and abs(term(start + K)) >= least / 2:  # the bound closes the range
            K *= 2
            assert K < 10**5, "range"
        terms = [term(start + k) for k in range(K)]
        if alternating:
            got = trf_signed_checked(
                terms, B, abs(B) * TINY, list(small), lambda k: abs(term(start + k))
            )
        else:  # one sign: the exact tails of the partial sums
            got = trf_positive_checked([abs(t) for t in terms], abs(B), abs(B) * TINY, list(small))
        assert got == small, (got, small)
    return out


def log10_crossing(R, thr, lo, hi):
    """("log10", log10 t, 1e-9) with R(t) = thr, R decreasing in real t on [lo, hi]."""
    lo, hi = mp.mpf(lo), mp.mpf(hi)
    assert R(lo) > thr > R(hi), ("bracket", lo, hi)
    while hi / lo - 1 > mp.mpf(10) ** -15:
        mid = mp.sqrt(lo * hi)
        lo, hi = (lo, mid) if R(mid) < thr else (mid, hi)
    return ("log10", float(mp.log10(hi)), 1e-9)


# ---------------------------------------------------------------------------------------
# floor(log n)/n^3
# ---------------------------------------------------------------------------------------
_CEIL_EK: dict = {}


def ceil_exp(k: int) -> int:
    """ceil(e^k) (e^k is transcendental for k >= 1: never an integer)."""
    if k not in _CEIL_EK:
        with mp.workdps(60 + k):
            x = mp.exp(k)
            c = int(mp.ceil(x))
            assert c - x > mp.mpf(10) ** -30 and x - (c - 1) > mp.mpf(10) ** -30
        _CEIL_EK[k] = c
    return _CEIL_EK[k]


def floor_log_tail(m: int):
    """sum_(n >= m) floor(log n)/n^3 (m >= 1)."""
    K = 0
    while ceil_exp(K + 1) <= m:
        K += 1
    # floor(log n) = K on [m, ceil(e^(K+1))), then each k > K adds zeta(3, ceil(e^k))
    head = K * mp.zeta(3, m)
    rest = mp.fsum(mp.zeta(3, ceil_exp(k)) for k in range(K + 1, K + 60))
    return head + rest  # zeta(3, ceil(e^(K+60))) < e^(-2(K+60)): below 1e-52


def floor_log_B_direct(N=20000):
    """Second way: the terms to N (floor(log n) from integer comparisons with ceil(e^k)) plus
    K_N zeta(3, N) + the blocks beyond (the same block sum, from N on)."""
    s = mp.mpf(0)
    k = 0
    for n in range(1, N):
        while ceil_exp(k + 1) <= n:
            k += 1
        if k:
            s += mp.mpf(k) / mp.mpf(n) ** 3
    return s + floor_log_tail(N)


# ---------------------------------------------------------------------------------------
# Stretched and cubic exponentials from n = 0
# ---------------------------------------------------------------------------------------
def stretched_B(k, N):
    """sum_(n >= 0) e^(-k sqrt n): terms below N plus Euler-Maclaurin from N."""
    k = mp.mpf(k)
    f = lambda x: mp.exp(-k * mp.sqrt(x))  # noqa: E731
    head = mp.fsum(f(mp.mpf(n)) for n in range(N))
    r = mp.sqrt(N)
    integral = 2 * mp.exp(-k * r) * (r / k + 1 / k**2)
    val, err = em_tail(f, mp.mpf(N), integral)
    assert err < mp.mpf(10) ** -30 * head, err
    return head + val


def stretched_terms(k, K):
    k = mp.mpf(k)
    return [mp.exp(-k * mp.sqrt(n)) for n in range(K)]


def cubic_exp_direct(k, N=200):
    k = mp.mpf(k)
    assert k * N**3 > 700
    return mp.fsum(mp.exp(-k * mp.mpf(n) ** 3) for n in range(N))


def cubic_exp_em(k, M=10):
    """Euler-Maclaurin at 0 for f(x) = e^(-k x^3): int_0^oo f = Gamma(4/3) k^(-1/3), f(0) = 1,
    f^(2j-1)(0) nonzero only for 2j - 1 = 3m (m odd): (-k)^m (3m)!/m!."""
    k = mp.mpf(k)
    v = mp.gamma(mp.mpf(4) / 3) * k ** (-mp.mpf(1) / 3) + mp.mpf(1) / 2
    for m in range(1, 2 * M, 2):  # 3m odd
        order = 3 * m  # = 2j - 1
        j = (order + 1) // 2
        deriv = (-k) ** m * mp.factorial(3 * m) / mp.factorial(m)
        v -= mp.bernoulli(2 * j) / mp.factorial(2 * j) * deriv
    return v


# ---------------------------------------------------------------------------------------
# Central binomial coefficients
# ---------------------------------------------------------------------------------------
def central_frac(j: int) -> Fraction:
    return Fraction(math.comb(2 * j, j), 4**j)


def catalan_trf(eps_list, hi=10**4) -> dict:
    """{eps: least j with c_j < eps} (R_j/B = c_j for b_n = c_n/(n + 1) from n = 0, B = 2):
    c_j decreases, bisection with exact integers; checks: the telescoping 2 c_n - 2 c_(n+1) =
    c_n/(n + 1) exactly for n up to the crossings (and the partial sums 2 - 2 c_j), c_j <=
    1/sqrt(pi j) at the far end (it tends to 0)."""
    out = {}
    for e in eps_list:
        assert central_below(hi, e), ("bracket", e)
        lo, up = 0, hi
        if central_below(0, e):
            out[e] = 0
            continue
        while up - lo > 1:
            mid = (lo + up) // 2
            lo, up = (lo, mid) if central_below(mid, e) else (mid, up)
        assert not central_below(up - 1, e)
        out[e] = up
    s = Fraction(0)
    c = Fraction(1)
    for n in range(300):  # the partial sums exactly, then the identity at every crossing
        assert 2 - s == 2 * c, ("partial sum", n)
        c_next = c * (2 * n + 1) / (2 * n + 2)
        assert 2 * c - 2 * c_next == c / (n + 1)
        s += c / (n + 1)
        c = c_next
    for j in out.values():
        for n in (j - 1, j):
            assert 2 * central_frac(n) - 2 * central_frac(n + 1) == central_frac(n) / (n + 1)
    with mp.workdps(30):
        J = 10**30
        cj = mp.exp(mp.loggamma(2 * J + 1) - 2 * mp.loggamma(J + 1) - J * mp.log(4))
        assert cj < 1 / mp.sqrt(mp.pi * J) < mp.mpf(10) ** -14
    return out


def arcsin_term(n):
    return mp.binomial(2 * n, n) / mp.mpf(4) ** n / (2 * n + 1)


def arcsin_tail(m):
    """sum_(n >= m) c_n/(2n + 1) = b_m 3F2(1, m + 1/2, m + 1/2; m + 1, m + 3/2; 1)."""
    h = mp.mpf(1) / 2
    return arcsin_term(m) * mp.hyp3f2(1, m + h, m + h, m + 1, m + 1 + h, 1)


def arcsin_trf(eps_list):
    B = mp.pi / 2
    assert abs(arcsin_tail(0) - B) < TINY
    terms, c = [], mp.mpf(1)  # c_n by its ratio (2n + 1)/(2n + 2), checked directly
    for n in range(3000):
        terms.append(c / (2 * n + 1))
        c = c * (2 * n + 1) / (2 * n + 2)
    for n in (0, 1, 7, 2999):
        assert abs(terms[n] - arcsin_term(n)) < TINY * terms[n]
    S = mp.fsum(terms)
    assert abs(B - S - arcsin_tail(3000)) < TINY  # the second way at the far end
    out = trf_positive_checked(terms, B, B * TINY, eps_list)
    for j in out.values():  # the closed tails agree with pi/2 - S_j at the crossings (3F2
        for k in (j - 1, j):  # at z = 1 is accurate to 1e-32 at the smallest m)
            assert abs(B - mp.fsum(terms[:k]) - arcsin_tail(k)) < mp.mpf(10) ** -30
    return out


def check_all(only=None) -> int:
    """Compute every reference of set 17 (their two-way checks are assertions inside) and
    print it; returns the number of failures."""
    import time

    try:
        from . import heldout17_cases as C
    except ImportError:
        import heldout17_cases as C
    bad = 0
    for case in C.CASES:
        if only and case.id not in only:
            continue
        t0 = time.time()
        try:
            with mp.workdps(50):
                b = case.B() if case.B else None
                t = case.trf() if case.trf else None
                tr = case.truncated() if getattr(case, "truncated", None) else None
                cmp2 = case.compare[1]() if getattr(case, "compare", None) else None
            txt = ""
            if b is not None:
                txt += f"B = {mp.nstr(b[0], 25)} (+- {mp.nstr(b[1], 3)})"
            if t is not None:
                txt += f"  TRF {t}"
            if tr is not None:
                txt += f"  truncated {tr}"
            if cmp2 is not None:
                txt += f"  compared: smaller {case.compare[0]}, TRF2 {cmp2}"
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
