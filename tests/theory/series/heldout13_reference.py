"""Independent references for held-out set 13: B and TRF(eps) by mpmath at 50 digits (and
exact integer arithmetic for the signs of Beatty sequences).

Nothing here calls the project's code.  The helpers of sets 7-12 are re-exported
(:func:`eps_mp`, :func:`trf_from_tail`, :func:`trf_from_terms`, :func:`trf_any`,
:func:`log_scale_trf`, :func:`two_ways`, :func:`direct_sum`); the ones added here state what
they rely on:

* :func:`li` -- ``Li_s(e^(i theta)) = sum_n e^(i theta n)/n^s`` two ways (for every
  coefficient above 1e-8): mpmath's Clausen functions ``clcos + i clsin``, and Jonquiere's
  inversion formula
  ``Li_s(e^(2 pi i x)) = Gamma(1 - s)/(2 pi)^(1 - s) (i^(1 - s) zeta(1 - s, x) + i^(s - 1)
  zeta(1 - s, 1 - x))``, ``0 < x < 1`` (Hurwitz zeta; at an integer s, where Gamma(1 - s)
  has a pole, the mean of the values at s +- 1e-20, which is exact to O(1e-40)).
* :func:`fourier_series` -- a term ``b_n = Re sum_j c_j e^(i theta_j n) g(n)`` with g
  decreasing to 0 from the first index of a tail: ``B = Re sum_j c_j Li_s(e^(i theta_j))``
  (``g = n^-s``; the head before the start taken off) and, by Abel summation, ``|sum_(n>=m)
  c e^(i theta n) g(n)| <= |c| g(m)/|sin(theta/2)|`` (the partial sums of e^(i theta n) are
  at most 1/|sin(theta/2)|): the tail bound of the tail rule.  The Bessel expansions
  ``e^(x cos y) = sum_(k in Z) I_|k|(x) e^(i k y)`` (Jacobi-Anger) give the coefficients of
  exp(cos), exp(sin), exp(cos + sin) factors; |k| <= 30 (``I_31(sqrt 2) < 1e-38``, so the
  omitted coefficients move B by less than 1e-37; the B references carry 1e-35).
* :func:`trf_signed_checked` -- the tail rule (docs/conventions.md, trf-certified): 1 + the
  last k with |R_k| >= eps |B|, over the computed partial sums, with a proved bound on
  |R_k| for every k beyond them; every comparison must clear the reference's own error by a
  margin (else the reference is undecided and the assertion says so).
* :func:`trf_positive_checked` -- Eq. 22 for terms >= 0, the same margin check.
* :class:`SlowTail` -- a positive, smooth f with a tail like 1/log: B = the head plus
  Euler-Maclaurin at two splits (p = 3; they must agree), the integral in u = log x computed
  two ways; TRFs below 10^12 by bisection on the exact tails, beyond by the crossing in
  t = log M.
* :func:`beatty_signs` -- ``(-1)^floor(a n)`` exactly: ``floor(sqrt(d) n) = isqrt(d n^2)``,
  ``floor(sqrt(n)) = isqrt(n)``, ``floor(c n) = (floor(c 2^200) n) >> 200`` for c = pi, e
  (equal to floor(c n) unless frac(c n) < n 2^-200, impossible for n < 10^9 by the
  irrationality measures of pi and e), and a float64 version for the long sums whose
  doubtful values (frac within 1e-6 of an integer) are recomputed exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np

try:
    from .heldout12_reference import (  # noqa: F401
        DPS,
        direct_sum,
        eps_mp,
        log_scale_trf,
        trf_any,
        trf_from_tail,
        trf_from_terms,
        two_ways,
    )
except ImportError:  # run as a script from this folder
    from heldout12_reference import (  # noqa: F401
        DPS,
        direct_sum,
        eps_mp,
        log_scale_trf,
        trf_any,
        trf_from_tail,
        trf_from_terms,
        two_ways,
    )

KMAX = 30


# ---------------------------------------------------------------------------------------
# Polylogarithms on the unit circle
# ---------------------------------------------------------------------------------------
def _li_clausen(s, theta):
    th = theta % (2 * mp.pi)
    return mp.mpc(mp.clcos(s, th), mp.clsin(s, th))


def _li_jonq_at(s, x):
    return (
        mp.gamma(1 - s)
        / (2 * mp.pi) ** (1 - s)
        * (mp.j ** (1 - s) * mp.zeta(1 - s, x) + mp.j ** (s - 1) * mp.zeta(1 - s, 1 - x))
    )


def _li_jonq(s, theta):
    x = (theta / (2 * mp.pi)) % 1
    assert 0 < x < 1
    if mp.isint(s):
        h = mp.mpf(10) ** -20
        with mp.workdps(mp.mp.dps + 45):
            return (_li_jonq_at(s + h, x) + _li_jonq_at(s - h, x)) / 2
    with mp.workdps(mp.mp.dps + 10):
        return _li_jonq_at(s, x)


def li(s, theta, check=True):
    """Li_s(e^(i theta)) (s > 1 real): Jonquiere's formula, checked against the Clausen form
    to 1e-35 where ``check``."""
    s = mp.mpf(s)
    if abs(mp.sin(theta / 2)) < mp.mpf(10) ** -30:  # theta in 2 pi Z: zeta(s)
        return mp.zeta(s)
    a = _li_jonq(s, theta)
    if check:
        b = _li_clausen(s, theta)
        assert abs(a - b) < mp.mpf(10) ** -35, (s, theta, a, b)
    return a


def dli(s, theta, check=True):
    """d/ds Li_s(e^(i theta)): the central difference of Jonquiere's formula (h = 1e-12 at
    90 digits: error O(h^2)), checked against that of the Clausen form where ``check``."""
    s = mp.mpf(s)
    with mp.workdps(90):
        h = mp.mpf(10) ** -12
        x = (theta / (2 * mp.pi)) % 1
        a = (_li_jonq_at(s + h, x) - _li_jonq_at(s - h, x)) / (2 * h)
        if check:
            b = (_li_clausen(s + h, theta) - _li_clausen(s - h, theta)) / (2 * h)
            assert abs(a - b) < mp.mpf(10) ** -20, (a, b)
    return +a


# ---------------------------------------------------------------------------------------
# Trigonometric series times n^-s
# ---------------------------------------------------------------------------------------
class Trig:
    """A trigonometric sum sum_j c_j e^(i theta_j n), theta = a + b pi kept exactly as the key
    (a, b) (a an integer, b a Fraction), so that products and merges are exact."""

    def __init__(self, d):
        self.d = {k: v for k, v in d.items()}

    def __mul__(self, other):
        out = {}
        for (a1, b1), c1 in self.d.items():
            for (a2, b2), c2 in other.d.items():
                key = (a1 + a2, b1 + b2)
                out[key] = out.get(key, 0) + c1 * c2
        return Trig(out)

    def __add__(self, other):
        out = dict(self.d)
        for k, c in other.d.items():
            out[k] = out.get(k, 0) + c
        return Trig(out)

    def shifted(self, h):
        """f(n - h) as a sum in n: c e^(-i theta h)."""
        return Trig({k: c * mp.exp(-1j * theta_of(k) * h) for k, c in self.d.items()})

    def items(self):
        return [(c, theta_of(k)) for k, c in self.d.items() if abs(c) > mp.mpf(10) ** -60]

    def at(self, n):
        return mp.re(mp.fsum(c * mp.exp(1j * th * n) for c, th in self.items()))


def theta_of(key):
    a, b = key
    return mp.mpf(a) + mp.mpf(b.numerator) / b.denominator * mp.pi


def const(c):
    return Trig({(0, Fraction(0)): mp.mpf(c)})


def alt():
    """(-1)^n = e^(i pi n)."""
    return Trig({(0, Fraction(1)): mp.mpf(1)})


def sin_n(q=1):
    """sin(q n) = (e^(i q n) - e^(-i q n))/(2 i)."""
    return Trig({(q, Fraction(0)): 1 / mp.mpc(0, 2), (-q, Fraction(0)): -1 / mp.mpc(0, 2)})


def periodic_sign(values):
    """A sign of period L = len(values) (values[m] the value at n = m mod L) as its discrete
    Fourier sum: a_r = (1/L) sum_m v_m e^(-2 pi i r m/L), frequency 2 pi r/L."""
    L = len(values)
    out = {}
    for r in range(L):
        a = mp.fsum(values[m] * mp.exp(-2j * mp.pi * r * m / L) for m in range(L)) / L
        out[(0, Fraction(2 * r, L))] = a
    return Trig(out)


def exp_cos(x=1, q=1, phase=0, kmax=KMAX):
    """e^(x cos(q y - phase)) = sum_(k in Z) I_|k|(x) e^(-i k phase) e^(i k q y)
    (Jacobi-Anger), |k| <= kmax."""
    x = mp.mpf(x)
    return Trig(
        {
            (q * k, Fraction(0)): mp.besseli(abs(k), x) * mp.exp(-1j * k * phase)
            for k in range(-kmax, kmax + 1)
        }
    )


def fourier_B(trig, s, skip=0, log_factor=False):
    """Re sum_j c_j sum_(n > skip) e^(i theta_j n) L(n)/n^s, L = 1 or log n; the polylog
    two ways for every coefficient above 1e-8 (the rest, whose share of B is below 1e-8
    each, by Jonquiere's formula alone, accurate to the working precision)."""
    s = mp.mpf(s)
    tot = mp.mpc(0)
    for c, th in trig.items():
        if log_factor:
            full = -dli(s, th, check=abs(c) > mp.mpf(10) ** -8)
        else:
            full = li(s, th, check=abs(c) > mp.mpf(10) ** -8)
        head = mp.fsum(
            mp.exp(1j * th * n) * (mp.log(n) if log_factor else 1) / mp.mpf(n) ** s
            for n in range(1, skip + 1)
        )
        tot += c * (full - head)
    return mp.re(tot)


def fourier_bound(trig, g):
    """m -> bound on |sum_(n >= m) b_n| (Abel summation, g decreasing from m on; every
    frequency outside 2 pi Z)."""
    items = trig.items()
    assert all(abs(mp.sin(th / 2)) > mp.mpf(10) ** -20 for _, th in items)
    C = mp.fsum(abs(c) / abs(mp.sin(th / 2)) for c, th in items)
    # + 1e-30: the coefficients left out (|k| > 30, total < 1e-37) times any zeta tail
    return lambda m: C * g(mp.mpf(m)) + mp.mpf(10) ** -30


# ---------------------------------------------------------------------------------------
# TRF with margins
# ---------------------------------------------------------------------------------------
def trf_signed_checked(terms, B, rerr, eps_list, tail_bound) -> dict:
    """Tail rule over partial sums of ``terms`` (term k is b_(start+k)); ``tail_bound(k)``
    bounds |R_k| for every k >= len(terms) (R_k = sum of the terms from index k on).  The
    margin is 2 rerr + 1e-25 on every comparison."""
    K = len(terms)
    out = {}
    partial = [mp.mpf(0)]
    for t in terms:
        partial.append(partial[-1] + t)
    for e in eps_list:
        thr = abs(B) * eps_mp(e)
        margin = 2 * rerr + mp.mpf(10) ** -25
        assert tail_bound(K) < thr - margin, ("range too short", e, K)
        last = -1
        for k in range(K + 1):
            r = abs(B - partial[k])
            assert abs(r - thr) > margin, ("undecided comparison", e, k)
            if r >= thr:
                last = k
        out[e] = last + 1
    return out


def trf_positive_checked(terms, B, rerr, eps_list) -> dict:
    """Eq. 22 for terms >= 0: the least j with B - S_j < eps B (S_j of the first j terms),
    both neighbours of the crossing clear of the reference error."""
    out = {}
    for e in eps_list:
        thr = B * eps_mp(e)
        margin = 2 * rerr + mp.mpf(10) ** -25
        s, j = mp.mpf(0), 0
        while B - s >= thr:
            assert j < len(terms), ("crossing beyond the terms", e)
            assert abs(B - s - thr) > margin, ("undecided", e, j)
            s += terms[j]
            j += 1
        assert abs(B - s - thr) > margin, ("undecided", e, j)
        out[e] = j
    return out


# ---------------------------------------------------------------------------------------
# Slowly converging positive series (tails like 1/log)
# ---------------------------------------------------------------------------------------
class SlowTail:
    """f > 0 smooth from ``start``; ``Ia(U)``, ``Ib(U)`` = int_(e^U)^oo f(x) dx two ways (Ia in
    the bisections, both where a value is used: at the splits of B and at every crossing).

    sum_(n >= M) f(n) = I + f(M)/2 - sum_(k<=3) B_2k/(2k)! f^(2k-1)(M) + E, |E| of the order
    of f^(7)(M) ~ 7! f(M)/M^7 (M >= 4000: below 1e-20 f(M)); B is taken at two splits, 4000
    and 8000, which must agree to 1e-22."""

    def __init__(self, f, start, Ia, Ib, N=4000):
        self.f, self.start, self.Ia, self.Ib, self.N = f, start, Ia, Ib, N
        self._pref = None
        self._B = None

    def integral(self, U, check=False):
        a = self.Ia(U)
        if check:
            b = self.Ib(U)
            assert abs(a - b) <= mp.mpf(10) ** -30 * max(1, abs(a)), (U, a, b)
        return a

    def em(self, M, check=False):
        M = mp.mpf(M)
        v = self.integral(mp.log(M), check) + self.f(M) / 2
        for k in range(1, 4):
            v -= mp.bernoulli(2 * k) / mp.factorial(2 * k) * mp.diff(self.f, M, 2 * k - 1)
        return v

    def prefix(self):
        if self._pref is None:
            p = [mp.mpf(0)]
            for n in range(self.start, 2 * self.N):
                p.append(p[-1] + self.f(mp.mpf(n)))
            self._pref = p
        return self._pref

    def B(self):
        if self._B is None:
            p = self.prefix()
            a = p[self.N - self.start] + self.em(self.N, True)
            b = p[2 * self.N - self.start] + self.em(2 * self.N, True)
            assert abs(a - b) < mp.mpf(10) ** -22 * b, (a, b)
            self._B = (b, 10 * abs(a - b) + mp.mpf(10) ** -30)
        return self._B

    def R(self, j, check=False):
        """The tail after j terms (from n = start + j)."""
        p, M = self.prefix(), self.start + j
        if M < 2 * self.N:
            return self.B()[0] - p[j]
        return self.em(M, check)

    def trf(self, eps_list) -> dict:
        B = self.B()[0]
        out = {}
        big = 10**12
        for e in eps_list:
            thr = B * eps_mp(e)
            if self.R(big) < thr:
                lo, hi = 0, big
                if self.R(0) < thr:
                    out[e] = 0
                    continue
                while hi - lo > 1:
                    mid = (lo + hi) // 2
                    lo, hi = (lo, mid) if self.R(mid) < thr else (mid, hi)
                # the neighbours differ by a term f >= f(10^12) ~ 1e-15: far above the error
                assert self.R(hi - 1, True) - thr > mp.mpf(10) ** -22
                assert thr - self.R(hi, True) > mp.mpf(10) ** -22
                out[e] = hi
            else:
                # the tail from M = e^t: I + f/2 + O(f'), f/I < 1e-12 here; the crossing t by
                # bisection on log t to 1e-15 relative (log10 TRF = t/ln 10: the start and the
                # rounding to an integer move it by less than 1e-11)
                def tail(t, check=False):
                    return self.integral(t, check) + self.f(mp.exp(t)) / 2

                lo, hi = mp.log(mp.mpf(big)), mp.mpf(10) ** 9
                assert tail(lo) > thr > tail(hi), ("bracket", e)
                while hi / lo - 1 > mp.mpf(10) ** -15:
                    mid = mp.sqrt(lo * hi)
                    lo, hi = (lo, mid) if tail(mid) < thr else (mid, hi)
                assert tail(hi, True) < thr < tail(lo, True)
                out[e] = ("log10", float(hi / mp.log(10)), 1e-9)
        return out


def two_integrals(a, b, tol=mp.mpf(10) ** -30):
    """The value of an integral two ways (must agree to tol relative)."""
    x, y = a(), b()
    assert abs(x - y) <= tol * max(1, abs(x)), (x, y)
    return x


# ---------------------------------------------------------------------------------------
# Exact signs of (-1)^floor(...) and long float64 sums
# ---------------------------------------------------------------------------------------
_SHIFT = 200
_PI_FIX = None
_E_FIX = None


def _fix(c):
    with mp.workdps(120):
        return int(mp.floor(c * mp.mpf(2) ** _SHIFT))


def floor_exact(kind, n: int) -> int:
    """floor(a n) for kind = ("sqrt", d), ("root", None) [floor(sqrt(n))], ("pi",), ("E",),
    ("div", q) [floor(n/q)]."""
    global _PI_FIX, _E_FIX
    if kind[0] == "sqrt":
        return math.isqrt(kind[1] * n * n)
    if kind[0] == "root":
        return math.isqrt(n)
    if kind[0] == "div":
        return n // kind[1]
    if kind[0] == "pi":
        if _PI_FIX is None:
            _PI_FIX = _fix(mp.pi)
        return (_PI_FIX * n) >> _SHIFT
    if kind[0] == "E":
        if _E_FIX is None:
            _E_FIX = _fix(mp.e)
        return (_E_FIX * n) >> _SHIFT
    raise ValueError(kind)


def sign_exact(kind, n: int) -> int:
    return -1 if floor_exact(kind, n) % 2 else 1


def _isqrt_vec(x):
    r = np.floor(np.sqrt(x.astype(np.float64))).astype(np.int64)
    for _ in range(3):
        r = np.where(r * r > x, r - 1, r)
        r = np.where((r + 1) * (r + 1) <= x, r + 1, r)
    assert not np.any(r * r > x) and not np.any((r + 1) * (r + 1) <= x)
    return r


def signs_vec(kind, n):
    """(-1)^floor(...) for an int64 array n, exactly."""
    if kind[0] == "sqrt":
        f = _isqrt_vec(kind[1] * n * n)
    elif kind[0] == "root":
        f = _isqrt_vec(n)
    elif kind[0] in ("pi", "E"):
        c = math.pi if kind[0] == "pi" else math.e
        x = c * n.astype(np.float64)
        f = np.floor(x).astype(np.int64)
        fr = x - np.floor(x)
        bad = np.nonzero((fr < 1e-6) | (fr > 1 - 1e-6))[0]
        for i in bad:  # doubtful: exactly
            f[i] = floor_exact(kind, int(n[i]))
    else:
        raise ValueError(kind)
    return 1 - 2 * (f & 1)


def long_float_sum(kind, factor, start, N, chunk=10**6):
    """sum_(start <= n < N) sign(n) factor(n) in float64 (math.fsum per chunk, the chunks
    summed with fsum): every term is a correctly signed float within a few ulps, so the
    error is below 1e-15 sum |b_n|."""
    parts = []
    for a in range(start, N, chunk):
        n = np.arange(a, min(N, a + chunk), dtype=np.int64)
        s = signs_vec(kind, n) if kind is not None else 1
        parts.append(math.fsum((s * factor(n.astype(np.float64))).tolist()))
    return math.fsum(parts)
