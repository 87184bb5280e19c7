"""Independent references for held-out set 15: B and TRF(eps) by mpmath at 50 digits, exact
Fraction arithmetic where every term is rational, and T5's buckets from the bucket formula
of Raffel et al. (2020) computed two ways.

Nothing here calls the project's code.  The helpers of sets 7-14 are re-exported
(:func:`eps_mp`, :func:`trf_from_tail`, :func:`trf_positive_checked`,
:func:`trf_signed_checked`, :func:`int_trf_checked`, :func:`hurwitz_em`,
:func:`geo_trf_checked`, :func:`direct_sum`, :func:`em_tail`, :func:`stretched_tail`,
:func:`two_ways`, :class:`SlowTail`); the ones added here state what they rely on:

* :class:`GeoMix` -- b_n = sum_i w_i e^(-r_i n) (a mixture of ALiBi heads): every tail is
  closed, R_j = sum_(n >= s + j) b_n = sum_i w_i e^(-r_i (s + j))/(1 - e^(-r_i)); it is
  nonincreasing, so TRF is the least j with R_j < eps B (bisection, both neighbours of the
  crossing 1e-40 clear), checked against the partial sums of the terms themselves.
* :class:`SignedGeo` -- b_n = c e^(-a n) cos(theta n) = Re(c z^n), z = e^(-a + i theta)
  (xPos-like decay times a rotation, both signs): R_k = Re(c z^(s+k)/(1 - z)) exactly and
  |R_k| <= |c| e^(-a (s + k))/|1 - z|; the tail rule (docs/conventions.md: the least j with
  |R_k| < eps |B| for every k >= j) over the closed tails, checked against the tail rule
  over the partial sums (:func:`trf_signed_checked`).
* :func:`hurwitz_trf` -- c zeta(s, a + j) tails (Kerple log (1 + n/L)^-r = L^r (n + L)^-r):
  bisection at 50 digits, an int below 10^12 and ("log10", log10 TRF, 1e-9) beyond; small
  crossings are checked against the partial sums, large ones against Euler-Maclaurin.
* :func:`lerch_tail` -- sum_(n >= m) q^n (n + h)^-s = q^m Phi(q, s, m + h) (mpmath's Lerch
  transcendent), checked against the direct sum with the geometric bound of the rest.
* :func:`t5_bucket` -- T5's bucket of a distance t >= 0 (key before the query):
  nb' = nb/2 with bidirectional buckets (the lower half), E = nb'//2 exact buckets, t < E
  -> t, else min(E + floor(log(t/E)/log(md/E) (nb' - E)), nb' - 1), at 60 digits; a value
  within 1e-9 of an integer is accepted only if both floors give the same bucket (no
  rounding of float64 or float32 could change it).  :func:`t5_bucket_edges` is the second
  way: bucket b >= E holds the t with E (md/E)^((b - E)/(nb' - E)) <= t (the first t of each
  bucket by ceilings).
* :func:`truncated_trf` -- the paper's App. E procedure: B_M = the sum of the first M terms,
  TRF = least j with S_j > B_M (1 - eps), i.e. B_M - S_j < eps B_M (terms >= 0), with
  every comparison clear by 1e-12 relative (so the decimal bucket values and their binary
  doubles agree) or exact with Fractions.

Run ``python tests/theory/series/heldout15_reference.py`` to compute every reference of the
set (each with its two-way checks) and print them: :func:`check_all`.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath as mp

try:
    from .heldout7_reference import em_tail  # noqa: F401
    from .heldout9_reference import stretched_tail  # noqa: F401
    from .heldout14_reference import (  # noqa: F401
        DPS,
        TIE,
        SlowTail,
        direct_sum,
        eps_mp,
        geo_trf_checked,
        hurwitz_em,
        int_trf_checked,
        trf_from_tail,
        trf_positive_checked,
        trf_signed_checked,
        two_ways,
    )
except ImportError:  # run as a script from this folder
    from heldout7_reference import em_tail  # noqa: F401
    from heldout9_reference import stretched_tail  # noqa: F401
    from heldout14_reference import (  # noqa: F401
        DPS,
        TIE,
        SlowTail,
        direct_sum,
        eps_mp,
        geo_trf_checked,
        hurwitz_em,
        int_trf_checked,
        trf_from_tail,
        trf_positive_checked,
        trf_signed_checked,
        two_ways,
    )

BIG = 10**12


def mpq(x) -> mp.mpf:
    """A decimal string, int or Fraction as an mpf at the working precision."""
    x = Fraction(x)
    return mp.mpf(x.numerator) / x.denominator


def as_ref(j: int):
    """An int TRF below 10^12, beyond it ("log10", log10 TRF, 1e-9)."""
    return j if j < BIG else ("log10", float(mp.log10(mp.mpf(j))), 1e-9)


# ---------------------------------------------------------------------------------------
# Mixtures of geometric heads
# ---------------------------------------------------------------------------------------
class GeoMix:
    """b_n = sum_i w_i e^(-r_i n), n >= start (w_i > 0, r_i > 0 given exactly)."""

    def __init__(self, weights, rates, start=1):
        self.w, self.r, self.s = list(weights), list(rates), start

    def term(self, n):
        return mp.fsum(mpq(w) * mp.exp(-mpq(r) * n) for w, r in zip(self.w, self.r))

    def R(self, j):
        n0 = self.s + j
        return mp.fsum(
            mpq(w) * mp.exp(-mpq(r) * n0) / -mp.expm1(-mpq(r)) for w, r in zip(self.w, self.r)
        )

    def B(self):
        # second way: the terms summed to N, the rest (< e^(-48 ln 10) B) left out
        v = self.R(0)
        rmin = min(mpq(r) for r in self.r)
        N = self.s + int(mp.ceil(48 * mp.log(10) / rmin))
        direct = mp.fsum(self.term(n) for n in range(self.s, N))
        assert abs(direct - v) < mp.mpf(10) ** -40 * v, (direct, v)
        return v, v * mp.mpf(10) ** -40

    def trf(self, eps_list):
        B = self.B()[0]
        a = int_trf_checked(self.R, B, eps_list, hi=10**9)
        K = max(a.values()) + 2
        if K < 200000:
            b = trf_positive_checked(
                [self.term(self.s + k) for k in range(K)], B, B * mp.mpf(10) ** -40, eps_list
            )
            assert a == b, (a, b)
        return a


# ---------------------------------------------------------------------------------------
# Decay times a rotation (terms of both signs)
# ---------------------------------------------------------------------------------------
class SignedGeo:
    """b_n = Re(c z^n), z = e^(-a + i theta), n >= start (a > 0)."""

    def __init__(self, a, theta, c=1, start=1):
        self._a, self._th, self._c, self.s = a, theta, c, start

    # the constants at the working precision of each call (never at import)
    a = property(lambda self: mpq(self._a))
    th = property(lambda self: mpq(self._th))
    c = property(lambda self: mpq(self._c))
    z = property(lambda self: mp.exp(mp.mpc(-self.a, self.th)))

    def term(self, n):
        return self.c * mp.exp(-self.a * n) * mp.cos(self.th * n)

    def R(self, k):
        return mp.re(self.c * self.z ** (self.s + k) / (1 - self.z))

    def bound(self, k):
        return abs(self.c) * mp.exp(-self.a * (self.s + k)) / abs(1 - self.z)

    def B(self):
        # second way: the terms summed to N, the rest (< e^(-48 ln 10)/|1 - z|) left out
        v = self.R(0)
        N = int(mp.ceil(48 * mp.log(10) / self.a))
        direct = mp.fsum(self.term(n) for n in range(self.s, self.s + N))
        assert abs(direct - v) < mp.mpf(10) ** -40, (direct, v)
        return v, mp.mpf(10) ** -40

    def trf(self, eps_list):
        B = self.B()[0]
        out = {}
        thr_min = abs(B) * min(eps_mp(e) for e in eps_list)
        K = max(0, int(mp.ceil(mp.log(self.bound(0) / thr_min) / self.a))) + 2
        for e in eps_list:
            thr = abs(B) * eps_mp(e)
            assert self.bound(K + 1) < thr
            last = -1
            for k in range(K + 2):
                r = abs(self.R(k))
                assert abs(r - thr) > TIE * thr, ("tie", e, k)
                if r >= thr:
                    last = k
            out[e] = last + 1
        second = trf_signed_checked(
            [self.term(self.s + k) for k in range(K)],
            B,
            mp.mpf(10) ** -40,
            eps_list,
            self.bound,
        )
        assert second == out, (second, out)
        return out


# ---------------------------------------------------------------------------------------
# Hurwitz zeta tails
# ---------------------------------------------------------------------------------------
def hurwitz_B(s, a, c):
    """c zeta(s, a) two ways: mpmath's Hurwitz zeta, and the terms to a + 2000 plus
    Euler-Maclaurin (:func:`hurwitz_em`, 12 Bernoulli terms, error below 1e-45 there)."""
    s, a = mpq(s), mpq(a)
    return two_ways(
        lambda: c * mp.zeta(s, a),
        lambda: c * (mp.fsum((a + k) ** -s for k in range(2000)) + hurwitz_em(s, a + 2000)),
        floor=mp.mpf(10) ** -35 * c,
    )


def hurwitz_trf(s, a, c, B, eps_list, hi=10**30):
    """{eps: least j with c zeta(s, a + j) < eps B} (as_ref); crossings below 10^5 are
    checked against the partial sums of c (a + k)^-s, larger ones against Euler-Maclaurin."""
    s, a = mpq(s), mpq(a)
    R = lambda j: c * mp.zeta(s, a + j)  # noqa: E731
    out = int_trf_checked(R, B, eps_list, hi)
    for e, j in out.items():
        if j < 10**5:
            terms = [c * (a + k) ** -s for k in range(j + 2)]
            assert trf_positive_checked(terms, B, B * mp.mpf(10) ** -35, [e]) == {e: j}
        else:
            for x in (a + j - 1, a + j):
                z1, z2 = mp.zeta(s, x), hurwitz_em(s, x)
                assert abs(z1 - z2) < mp.mpf(10) ** -40 * z1, (x, z1, z2)
    return {e: as_ref(j) for e, j in out.items()}


# ---------------------------------------------------------------------------------------
# Lerch transcendent tails
# ---------------------------------------------------------------------------------------
def lerch_tail(q, s, h):
    """m -> sum_(n >= m) q^n (n + h)^-s = q^m Phi(q, s, m + h)."""
    return lambda m: q**m * mp.lerchphi(q, s, m + h)


def lerch_direct(q, s, h, m, N):
    """The same tail by the terms m..N-1 plus the bound q^N (N + h)^-s/(1 - q) of the rest
    (the terms after N are below q^n (N + h)^-s): (value, error)."""
    S = mp.fsum(q**n * mp.mpf(n + h) ** -s for n in range(m, N))
    U = q**N * mp.mpf(N + h) ** -s / (1 - q)
    return S + U / 2, U / 2


# ---------------------------------------------------------------------------------------
# T5 buckets and the truncated TRF
# ---------------------------------------------------------------------------------------
def t5_bucket(t: int, nb: int, md: int, bidirectional=False) -> int:
    if bidirectional:
        nb //= 2
    E = nb // 2
    if t < E:
        return t
    with mp.workdps(60):
        x = mp.log(mp.mpf(t) / E) / mp.log(mp.mpf(md) / E) * (nb - E)
        k = int(mp.floor(x))
        f = x - k
    b = min(E + k, nb - 1)
    if f < 1e-9:
        assert min(E + k - 1, nb - 1) == b or k == 0 and f == 0, ("tie", t)
    if 1 - f < 1e-9:
        assert min(E + k + 1, nb - 1) == b, ("tie", t)
    return b


def t5_bucket_edges(T: int, nb: int, md: int, bidirectional=False) -> list:
    """The buckets of t = 0..T-1 from the first distance of each bucket: bucket b (E <= b <
    nb' - 1) starts at ceil(E (md/E)^((b - E)/(nb' - E))), the last one holds the rest."""
    if bidirectional:
        nb //= 2
    E = nb // 2
    firsts = list(range(E))
    with mp.workdps(60):
        for b in range(E, nb):
            firsts.append(int(mp.ceil(E * (mp.mpf(md) / E) ** (mp.mpf(b - E) / (nb - E)))))
    out = []
    for t in range(T):
        out.append(max(b for b in range(nb) if firsts[b] <= t))
    return out


def t5_terms(values, M, nb, md, bidirectional=False) -> list:
    """b_t = e^(v[bucket(t)]), t = 0..M-1 (values as the decimals typed), buckets two ways."""
    a = [t5_bucket(t, nb, md, bidirectional) for t in range(M)]
    b = t5_bucket_edges(M, nb, md, bidirectional)
    assert a == b, [(t, x, y) for t, (x, y) in enumerate(zip(a, b)) if x != y][:5]
    return [mp.exp(mpq(values[k])) for k in a]


def truncated_trf(terms, eps_list) -> dict:
    """App. E: {eps: least j with S_j >= (1 - eps) B_M, i.e. B_M - S_j <= eps B_M}, B_M = sum of
    ``terms`` (>= 0): the paper's pseudocode tests ``s >= cusum * (1 - eps)`` (Eq. 22 has a
    strict >); Fractions exactly, mpf with every comparison clear by 1e-12 relative."""
    exact = all(isinstance(t, (int, Fraction)) for t in terms)
    BM = sum(terms, Fraction(0)) if exact else mp.fsum(terms)
    out = {}
    for e in eps_list:
        thr = BM * (Fraction(str(e)) if exact else eps_mp(e))
        s, j = 0, 0
        while BM - s > thr:
            if not exact:
                assert BM - s - thr > mp.mpf(10) ** -12 * thr, ("near tie", e, j)
            s += terms[j]
            j += 1
        if not exact:
            assert thr - (BM - s) > mp.mpf(10) ** -12 * thr, ("near tie", e, j)
        out[e] = j
    return out


def check_all(only=None) -> int:
    """Compute every reference of set 15 (their two-way checks are assertions inside) and
    print it; returns the number of failures."""
    import time

    try:
        from . import heldout15_cases as C
    except ImportError:
        import heldout15_cases as C
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
                cm = case.compare[1]() if getattr(case, "compare", None) else None
            txt = ""
            if b is not None:
                txt += f"B = {mp.nstr(b[0], 25)} (+- {mp.nstr(b[1], 3)})"
            if t is not None:
                txt += f"  TRF {t}"
            if tr is not None:
                txt += f"  truncated {tr}"
            if cm is not None:
                txt += f"  smaller {case.compare[0]}, TRF2 {cm}"
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
