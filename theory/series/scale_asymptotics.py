r"""Asymptotic expansions on the scale :math:`n^a (\log n)^b (\log\log n)^c (\log\log\log n)^d`,
in the standard library only (no sympy): what :mod:`theory.series.scale_verdict` decides
convergence with, without the start-up cost of sympy.

A value is :math:`e^{G(n)} P(n)` as :math:`n \to \infty` (:class:`Value`):

* :math:`G` is an exact finite sum of monomials that grow faster than :math:`\log n`
  (:func:`is_big`); two different :math:`G` differ by a function that beats every power of
  :math:`n`;
* :math:`P` (:class:`Expansion`) is a finite sum :math:`\sum_m c_m\, m(n) + O(e(n))` over
  scale monomials :math:`m` (:class:`Mono`), each constant :math:`c_m` known to lie in a
  rational interval (:class:`Iv`), with an optional error monomial :math:`e` below every
  kept term; or it is *rough*: one monomial :math:`m` and :math:`P(n)/m(n)` eventually in an
  interval (a bounded oscillating factor such as :math:`3 + \sin n`).

Every operation either returns a value that is true for all large integers ``n`` or raises
:class:`Unsupported`; nothing is ever approximated silently (transcendental constants are
rational intervals widened outward, truncated Taylor series carry their error term).

>>> x = Value.n().power(Fraction(2)) + Value.n() + Value.const(1)   # n^2 + n + 1
>>> (Value.const(1) / x).power_text()                   # its reciprocal: n^-2 (1 + ...)
'1 n^-2'
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from fractions import Fraction

#: the number of Taylor terms of log(1+u), (1+u)^r, exp(u), sin(u), ... (raised on a retry)
DEFAULT_ORDER = 6
#: largest number of terms an expansion keeps (the smallest are dropped into the error)
MAX_TERMS = 48
#: the width of "eventually within": an o(1) function is eventually below it
SLACK = Fraction(1, 10**12)


class Unsupported(Exception):
    """The expression leaves the scale (or the order is too small): no answer here."""


#: the process time after which the work gives up (set by :func:`time_limit`)
_DEADLINE = [math.inf]


class time_limit:  # noqa: N801 - used as a context manager, like a function
    """``with time_limit(seconds):`` every interval operation inside checks the process
    time and raises :class:`Unsupported` past it (the quick path must stay quick)."""

    def __init__(self, seconds: float):
        self.seconds = seconds

    def __enter__(self) -> None:
        self.saved = _DEADLINE[0]
        _DEADLINE[0] = time.process_time() + self.seconds

    def __exit__(self, *exc: object) -> None:
        _DEADLINE[0] = self.saved


def check_time() -> None:
    if _DEADLINE[0] != math.inf and time.process_time() > _DEADLINE[0]:
        raise Unsupported("out of the quick path's time")


# --------------------------------------------------------------------------- intervals


#: bits kept of an inexact interval end (ends are rounded outward to this many bits)
BITS = 160
#: relative slack of a float from the C library (a few units in the last place, generously)
FLOAT_SLACK = Fraction(1, 2**48)


def _down(x: float) -> Fraction:
    """A rational below the real number the C library approximated by the float x."""
    if not math.isfinite(x):
        raise Unsupported("a constant out of floating-point range")
    q = Fraction(x)
    return q - abs(q) * FLOAT_SLACK if q else Fraction(-1, 2**1074)


def _up(x: float) -> Fraction:
    if not math.isfinite(x):
        raise Unsupported("a constant out of floating-point range")
    q = Fraction(x)
    return q + abs(q) * FLOAT_SLACK if q else Fraction(1, 2**1074)


def _rounded(q: Fraction, up: bool) -> Fraction:
    """q rounded outward to BITS significant bits (q itself where it is short)."""
    if q.numerator.bit_length() + q.denominator.bit_length() <= 2 * BITS:
        return q
    shift = BITS - (q.numerator.bit_length() - q.denominator.bit_length())
    scaled = q * 2**shift if shift >= 0 else q / 2 ** (-shift)
    k = math.ceil(scaled) if up else math.floor(scaled)
    return Fraction(k) / 2**shift if shift >= 0 else Fraction(k * 2 ** (-shift))


def _float(q: Fraction) -> float:
    try:
        return float(q)
    except OverflowError:
        raise Unsupported("a constant out of floating-point range") from None


@dataclass(frozen=True)
class Iv:
    r"""A closed rational interval [lo, hi] holding a real constant (or, in a rough
    expansion, the eventual values of a bounded function).  Where the constant is known
    exactly as :math:`q_0 + \sum_p q_p \log p` (rational q's, primes p), ``exact`` holds
    it as ``(q0, ((p, q_p), ...))``: sums and rational multiples stay exact, so
    :math:`2 \log 2 - \log 4` is exactly 0 (the logarithms of primes are linearly
    independent over the rationals), not an interval around 0.

    >>> (Iv.point(1) / Iv(Fraction(2), Fraction(4))).lo
    Fraction(1, 4)
    >>> (Iv.point(4).log() - Iv.point(2).log() * Iv.point(2)).is_zero
    True
    """

    lo: Fraction
    hi: Fraction
    exact: tuple | None = None

    def __post_init__(self) -> None:
        check_time()
        if self.exact is not None and not self.exact[1]:  # a rational: the point itself
            object.__setattr__(self, "lo", self.exact[0])
            object.__setattr__(self, "hi", self.exact[0])
            return
        object.__setattr__(self, "lo", _rounded(self.lo, False))
        object.__setattr__(self, "hi", _rounded(self.hi, True))

    @staticmethod
    def point(x: int | Fraction) -> Iv:
        return Iv(Fraction(x), Fraction(x), (Fraction(x), ()))

    @property
    def is_point(self) -> bool:
        return self.lo == self.hi

    @property
    def is_zero(self) -> bool:
        return self.lo == 0 == self.hi

    def has_zero(self) -> bool:
        return self.lo <= 0 <= self.hi

    def sign(self) -> int:
        """+1 or -1 where the whole interval has that sign, else 0."""
        return 1 if self.lo > 0 else -1 if self.hi < 0 else 0

    def _rational(self) -> Fraction | None:
        return self.exact[0] if self.exact is not None and not self.exact[1] else None

    def __add__(self, o: Iv) -> Iv:
        exact = None
        if self.exact is not None and o.exact is not None:
            logs = dict(self.exact[1])
            for p, c in o.exact[1]:
                logs[p] = logs.get(p, 0) + c
            exact = (
                self.exact[0] + o.exact[0],
                tuple(sorted((p, c) for p, c in logs.items() if c)),
            )
        return Iv(self.lo + o.lo, self.hi + o.hi, exact)

    def __neg__(self) -> Iv:
        exact = None
        if self.exact is not None:
            exact = (-self.exact[0], tuple((p, -c) for p, c in self.exact[1]))
        return Iv(-self.hi, -self.lo, exact)

    def __sub__(self, o: Iv) -> Iv:
        return self + (-o)

    def __mul__(self, o: Iv) -> Iv:
        p = (self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi)
        exact = None
        for a, b in ((self, o), (o, self)):
            q = a._rational()
            if q is not None and b.exact is not None:
                exact = (q * b.exact[0], tuple((pr, q * c) for pr, c in b.exact[1] if q * c))
                break
        return Iv(min(p), max(p), exact)

    def inverse(self) -> Iv:
        if self.has_zero():
            raise Unsupported("division by a constant that may be 0")
        q = self._rational()
        return Iv.point(1 / q) if q is not None else Iv(1 / self.hi, 1 / self.lo)

    def __truediv__(self, o: Iv) -> Iv:
        return self * o.inverse()

    def widen(self, d: Fraction = SLACK) -> Iv:
        return Iv(self.lo - d, self.hi + d)

    def ipow(self, k: int) -> Iv:
        if k < 0:
            return self.inverse().ipow(-k)
        if self.is_point:
            if (
                self.lo in (0, 1)
                or k * (self.lo.numerator.bit_length() + self.lo.denominator.bit_length()) < 10**5
            ):
                return Iv.point(self.lo**k)
            raise Unsupported("an exact power too large to write out")
        if k > 64:
            raise Unsupported("a large power of an inexact constant")
        out = Iv.point(1)
        for _ in range(k):
            out = out * self
        if k % 2 == 0 and self.has_zero():
            out = Iv(Fraction(0), out.hi)
        return out

    def rpow(self, r: Fraction) -> Iv:
        """x^r for x > 0 (a real power; exact where x is a rational r-th power)."""
        if r.denominator == 1:
            return self.ipow(int(r))
        if self.is_point and self.lo > 0:
            root = _exact_root(self.lo, r.denominator)
            if root is not None:
                return Iv.point(root).ipow(r.numerator)
        if self.lo <= 0:
            raise Unsupported("a real power of a constant that may be <= 0")
        a, b = (_float(self.lo) ** _float(r), _float(self.hi) ** _float(r))
        return Iv(_down(min(a, b)), _up(max(a, b)))

    def log(self) -> Iv:
        if self.lo <= 0:
            raise Unsupported("log of a constant that may be <= 0")
        if self.lo == self.hi == 1:
            return Iv.point(0)
        q = self._rational()
        exact = None if q is None else _log_of_rational(q)
        return Iv(_down(_log(self.lo)), _up(_log(self.hi)), exact)

    def exp(self) -> Iv:
        if self.is_zero:
            return Iv.point(1)
        if self.hi > 700 or self.lo < -700:
            raise Unsupported("exp of a constant out of range")
        return Iv(_down(math.exp(self.lo)), _up(math.exp(self.hi)))


#: primes by which a rational is factored for an exact logarithm
SMALL_PRIMES = tuple(p for p in range(2, 1000) if all(p % d for d in range(2, int(p**0.5) + 1)))


def _log_of_rational(q: Fraction) -> tuple | None:
    """log q as (0, ((p, e_p), ...)) where q's numerator and denominator factor over
    :data:`SMALL_PRIMES`, else None."""
    logs: dict = {}
    for x, sign in ((q.numerator, 1), (q.denominator, -1)):
        for p in SMALL_PRIMES:
            while x % p == 0:
                x //= p
                logs[p] = logs.get(p, 0) + sign
            if x == 1:
                break
        if x != 1:
            return None
    return (Fraction(0), tuple(sorted((p, Fraction(e)) for p, e in logs.items() if e)))


def _exact_root(q: Fraction, k: int) -> Fraction | None:
    """q^(1/k) where it is rational, else None."""
    if k > 64 or q.numerator.bit_length() > 4000 or q.denominator.bit_length() > 4000:
        return None
    out = []
    for x in (q.numerator, q.denominator):
        r = round(x ** (1 / k)) if x.bit_length() < 1000 else _iroot(x, k)
        for c in (r - 1, r, r + 1):
            if c >= 0 and c**k == x:
                out.append(c)
                break
        else:
            return None
    return Fraction(out[0], out[1])


def _iroot(x: int, k: int) -> int:
    lo, hi = 0, 1 << (x.bit_length() // k + 1)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if mid**k <= x:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _log(q: Fraction) -> float:
    """log of a positive rational (also where its float would overflow)."""
    return math.log(q.numerator) - math.log(q.denominator)


PI = Iv(_down(math.pi), _up(math.pi))
E = Iv(_down(math.e), _up(math.e))


# --------------------------------------------------------------------------- the scale

#: a monomial n^a log(n)^b loglog(n)^c logloglog(n)^d as its exponents (a, b, c, d);
#: tuples compare by growth (lexicographically)
Mono = tuple
ONE: Mono = (Fraction(0),) * 4
LOG_ATOMS = tuple(tuple(Fraction(int(i == j)) for j in range(4)) for i in range(4))
N_MONO, LOG_N, LOGLOG_N, LOGLOGLOG_N = LOG_ATOMS  # n, log n, log log n, log log log n


def mono_mul(x: Mono, y: Mono) -> Mono:
    return tuple(a + b for a, b in zip(x, y))


def mono_pow(x: Mono, r: Fraction) -> Mono:
    return tuple(a * r for a in x)


def is_big(m: Mono) -> bool:
    """Grows faster than log n: exp(+-m) is beyond every power of n (the monomials of G)."""
    return m > LOG_N


def mono_text(m: Mono) -> str:
    names = ("n", "log(n)", "log(log(n))", "log(log(log(n)))")
    parts = [
        nm if e == 1 else f"{nm}^{e}" if e.denominator == 1 else f"{nm}^({e})"
        for nm, e in zip(names, m)
        if e != 0
    ]
    return " ".join(parts) or "1"


# --------------------------------------------------------------------------- expansions


@dataclass(frozen=True)
class Expansion:
    """sum c_m m(n) + O(err(n)); or, ``rough``, P(n)/m(n) eventually in the one interval."""

    terms: tuple  # ((Mono, Iv), ...), largest monomial first
    err: Mono | None = None
    rough: bool = False

    @staticmethod
    def make(terms: dict, err: Mono | None = None) -> Expansion:
        kept = {m: c for m, c in terms.items() if not c.is_zero and (err is None or m > err)}
        items = sorted(kept.items(), reverse=True)
        if len(items) > MAX_TERMS:
            err = items[MAX_TERMS][0] if err is None else max(err, items[MAX_TERMS][0])
            items = items[:MAX_TERMS]
        return Expansion(tuple(items), err)

    @staticmethod
    def constant(c: Iv) -> Expansion:
        return Expansion.make({ONE: c})

    def lead(self) -> tuple:
        """(monomial, coefficient) of the largest term; Unsupported when nothing is known
        about the size (no term above the error)."""
        if not self.terms:
            raise Unsupported("no term above the error term" if self.err else "identically 0")
        return self.terms[0]

    @property
    def is_zero(self) -> bool:
        return not self.terms and self.err is None

    def __neg__(self) -> Expansion:
        return Expansion(tuple((m, -c) for m, c in self.terms), self.err, self.rough)

    def __add__(self, o: Expansion) -> Expansion:
        if self.rough or o.rough:
            return _add_rough(self, o) if self.rough else _add_rough(o, self)
        terms = dict(self.terms)
        for m, c in o.terms:
            terms[m] = terms[m] + c if m in terms else c
        errs = [e for e in (self.err, o.err) if e is not None]
        return Expansion.make(terms, max(errs) if errs else None)

    def __sub__(self, o: Expansion) -> Expansion:
        return self + (-o)

    def __mul__(self, o: Expansion) -> Expansion:
        if self.rough or o.rough:
            (m1, c1), (m2, c2) = self._size(), o._size()
            return Expansion(((mono_mul(m1, m2), c1 * c2),), None, True)
        terms: dict = {}
        for m1, c1 in self.terms:
            for m2, c2 in o.terms:
                m = mono_mul(m1, m2)
                terms[m] = terms[m] + c1 * c2 if m in terms else c1 * c2
        errs = []
        if self.err is not None:
            errs.append(mono_mul(self.err, o.terms[0][0]) if o.terms else mono_mul(self.err, o.err))
        if o.err is not None:
            errs.append(
                mono_mul(o.err, self.terms[0][0]) if self.terms else mono_mul(o.err, self.err)
            )
        return Expansion.make(terms, max(errs) if errs else None)

    def _size(self) -> tuple:
        """(m, I): eventually P(n)/m(n) in I (I a little wider than the constant)."""
        if self.rough:
            return self.terms[0]
        m, c = self.lead()
        if self.err is not None and self.err >= m:
            raise Unsupported("the error term is as large as the leading term")
        return m, (c.widen() if len(self.terms) > 1 or self.err is not None else c)

    def split_lead(self) -> tuple:
        """(m, c, u): P = c m (1 + u) with u -> 0 an expansion (not rough)."""
        if self.rough:
            raise Unsupported("a bounded oscillating factor where a constant is needed")
        m, c = self.lead()
        inv_c, inv_m = c.inverse(), mono_pow(m, Fraction(-1))
        rest = {mono_mul(mm, inv_m): cc * inv_c for mm, cc in self.terms[1:]}
        err = None if self.err is None else mono_mul(self.err, inv_m)
        return m, c, Expansion.make(rest, err)


def _add_rough(r: Expansion, x: Expansion) -> Expansion:
    """A rough expansion plus any other."""
    m, c = r.terms[0]
    if x.is_zero:
        return r
    xm, xc = x._size()
    if xm == m:
        return Expansion(((m, c + xc),), None, True)
    if xm < m:
        return Expansion(((m, c.widen()),), None, True)
    if x.rough:
        return Expansion(((xm, xc.widen()),), None, True)
    return Expansion.make(dict(t for t in x.terms if t[0] > m), max(m, x.err or m))


def taylor(u: Expansion, coeffs: list) -> Expansion:
    """sum_k coeffs[k] u^k + O(lead(u)^len(coeffs)) for u -> 0 (coeffs exact Ivs): the
    truncated series of an analytic function whose series at 0 converges near 0."""
    if u.is_zero:
        return Expansion.constant(coeffs[0])
    if u.rough:
        raise Unsupported("a Taylor series of a bounded oscillating function")
    m = u.terms[0][0] if u.terms else u.err  # |u| = O(m): its largest term or its error
    if m >= ONE:
        raise Unsupported("a Taylor series at a point that is not a limit")
    out, power = Expansion.constant(coeffs[0]), Expansion.constant(Iv.point(1))
    for c in coeffs[1:]:
        power = power * u
        if not c.is_zero:
            out = out + power * Expansion.constant(c)
    return out + Expansion.make({}, mono_pow(m, Fraction(len(coeffs))))


def _binomial_coeffs(r: Fraction, k: int) -> list:
    out, c = [], Fraction(1)
    for j in range(k):
        out.append(Iv.point(c))
        c = c * (r - j) / (j + 1)
    return out


def exp_expansion(q: Expansion, order: int) -> tuple:
    """exp(q) as (G, P): G the big monomials of q (a dict), P an expansion."""
    if q.rough:
        m, c = q.terms[0]
        if m == ONE:
            return {}, Expansion(((ONE, c.exp()),), None, True)
        if m < ONE:
            return {}, Expansion.make({ONE: Iv.point(1)}, m)
        raise Unsupported("exp of a growing oscillating function")
    g, power, small = {}, [Fraction(0)] * 4, {}
    for m, c in q.terms:
        if is_big(m):
            g[m] = c
        elif m in (LOG_N, LOGLOG_N, LOGLOGLOG_N):
            if not c.is_point:
                raise Unsupported("a power of a log with an irrational exponent")
            power[LOG_ATOMS.index(m) - 1] = c.lo
        elif m > ONE:
            raise Unsupported(f"exp({mono_text(m)}) is not on the scale")
        else:
            small[m] = c
    if q.err is not None and q.err >= ONE:
        raise Unsupported("the exponent is known only up to O(1)")
    c0 = small.pop(ONE, Iv.point(0))
    u = Expansion.make(small, q.err)
    coeffs = [Iv.point(Fraction(1, math.factorial(k))) for k in range(order)]
    p = taylor(u, coeffs) * Expansion.constant(c0.exp())
    p = p * Expansion.make({(power[0], power[1], power[2], Fraction(0)): Iv.point(1)})
    return g, p


def log_expansion(p: Expansion, order: int) -> Expansion:
    """log P for P eventually positive."""
    if p.rough:
        m, c = p.terms[0]
        if c.lo <= 0:
            raise Unsupported("log of a factor that may be <= 0")
        return _log_mono(m) + Expansion(((ONE, c.log()),), None, True)
    m, c, u = p.split_lead()
    if c.lo <= 0:
        raise Unsupported("log of a function that is not eventually positive")
    coeffs = [Iv.point(0)] + [Iv.point(Fraction((-1) ** (k + 1), k)) for k in range(1, order)]
    return _log_mono(m) + Expansion.constant(c.log()) + taylor(u, coeffs)


def _log_mono(m: Mono) -> Expansion:
    if m[3] != 0:
        raise Unsupported("log of log(log(log(n))) is not on the scale")
    return Expansion.make({LOG_ATOMS[i + 1]: Iv.point(m[i]) for i in range(3)})


def power_expansion(p: Expansion, r: Fraction, order: int) -> Expansion:
    """P^r for a rational r (P eventually positive unless r is an integer)."""
    if abs(r) > 10**6 or r.denominator > 10**6:
        raise Unsupported("a power with a very large exponent")
    if r.denominator == 1 and 0 <= r <= 8:
        out = Expansion.constant(Iv.point(1))
        for _ in range(int(r)):
            out = out * p
        return out
    if p.rough:
        m, c = p.terms[0]
        if c.has_zero() or (r.denominator != 1 and c.lo <= 0):
            raise Unsupported("a power of a factor that may be 0 or negative")
        return Expansion(((mono_pow(m, r), c.rpow(r)),), None, True)
    m, c, u = p.split_lead()
    if r.denominator != 1 and c.lo <= 0:
        raise Unsupported("a real power of a function that is not eventually positive")
    return taylor(u, _binomial_coeffs(r, order)) * Expansion.make({mono_pow(m, r): c.rpow(r)})


# --------------------------------------------------------------------------- values


def _g_sub(g1: dict, g2: dict) -> dict:
    out = dict(g1)
    for m, c in g2.items():
        out[m] = out[m] - c if m in out else -c
    return {m: c for m, c in out.items() if not c.is_zero}


def g_compare(g1: dict, g2: dict) -> int:
    """The sign of G1 - G2 as n -> oo (0 when they are equal)."""
    d = _g_sub(g1, g2)
    if not d:
        return 0
    s = d[max(d)].sign()
    if s == 0:
        raise Unsupported("two exponentials whose order cannot be compared")
    return s


@dataclass(frozen=True)
class Value:
    """exp(G(n)) P(n) for large n (see the module docstring)."""

    g: tuple  # ((Mono, Iv), ...) with is_big monomials
    p: Expansion
    order: int = DEFAULT_ORDER

    @staticmethod
    def n(order: int = DEFAULT_ORDER) -> Value:
        return Value((), Expansion.make({N_MONO: Iv.point(1)}), order)

    @staticmethod
    def const(c: int | Fraction | Iv, order: int = DEFAULT_ORDER) -> Value:
        return Value((), Expansion.constant(c if isinstance(c, Iv) else Iv.point(c)), order)

    @staticmethod
    def rough(lo: Fraction, hi: Fraction, order: int = DEFAULT_ORDER) -> Value:
        """A function of n eventually in [lo, hi] (sin(n), (-1)**n)."""
        return Value((), Expansion(((ONE, Iv(lo, hi)),), None, True), order)

    def _with(self, g: dict, p: Expansion) -> Value:
        if p.is_zero:
            raise Unsupported("a part of the term cancels exactly (identically 0)")
        return Value(tuple(sorted(g.items(), reverse=True)), p, self.order)

    @property
    def gdict(self) -> dict:
        return dict(self.g)

    def __add__(self, o: Value) -> Value:
        s = g_compare(self.gdict, o.gdict)
        if s > 0:
            return self._with(self.gdict, self.p)
        if s < 0:
            return o._with(o.gdict, o.p)
        return self._with(self.gdict, self.p + o.p)

    def __neg__(self) -> Value:
        return self._with(self.gdict, -self.p)

    def __sub__(self, o: Value) -> Value:
        return self + (-o)

    def __mul__(self, o: Value) -> Value:
        return self._with(_g_sub(self.gdict, {m: -c for m, c in o.g}), self.p * o.p)

    def power(self, r: Fraction) -> Value:
        g = {m: c * Iv.point(r) for m, c in self.g}
        return self._with(g, power_expansion(self.p, r, self.order))

    def __truediv__(self, o: Value) -> Value:
        return self * o.power(Fraction(-1))

    def log(self) -> Value:
        lp = log_expansion(self.p, self.order)
        return self._with({}, Expansion.make(dict(self.g)) + lp)

    def exp(self) -> Value:
        if self.g:
            raise Unsupported("exp of an exponential")
        g, p = exp_expansion(self.p, self.order)
        return self._with(g, p)

    def g_sign(self) -> int:
        """The sign of the leading monomial of G (0 when G is empty)."""
        if not self.g:
            return 0
        s = self.g[0][1].sign()
        if s == 0:
            raise Unsupported("an exponential whose direction is not known")
        return s

    def size(self) -> tuple:
        """(m, I) with |P(n)| <= C m(n) and P(n)/m(n) eventually in I (I = None where only
        an O(m) bound is known)."""
        if not self.p.terms and self.p.err is not None:
            return self.p.err, None
        return self.p._size()

    def tends_to_zero(self) -> bool:
        if self.g:
            return self.g_sign() < 0
        m, _ = self.size()
        return m < ONE

    def tends_to_plus_infinity(self) -> bool:
        if self.g:
            return self.g_sign() > 0 and self.sign() > 0
        m, c = self.size()
        return m > ONE and c is not None and c.sign() > 0

    def sign(self) -> int:
        """+1 / -1 when eventually of that sign, else 0."""
        _, c = self.size()
        return 0 if c is None else c.sign()

    def power_text(self) -> str:
        """The leading term of P as text (its constant, or its interval)."""
        m, c = self.p.terms[0] if self.p.terms else self.size()
        if c.is_point:
            return f"{_float(c.lo):.6g} {mono_text(m)}"
        return f"[{_float(c.lo):.6g}, {_float(c.hi):.6g}] {mono_text(m)}"
