r"""Is every term :math:`b_n`, :math:`n \ge s`, a finite real number?  A proof in interval
arithmetic on floats (standard library only), for the formulas of
:mod:`theory.series.scale_verdict`.

The formula is evaluated over intervals of ``n``: at each of the first terms exactly
(``n = s, ..., s + 63``, as the full engine checks them) and over the whole tail
:math:`[s + 64, \infty)` at once.  Every step rounds outward (a few units in the last place
beyond what the C library promises), and every operation that can be undefined demands an
interval that proves it is not: a divisor without 0, a logarithm's argument above 0, a real
power of a base above 0, a tangent's argument inside :math:`(-\pi/2, \pi/2)`, the gamma
function's argument above 0.  Over the tail, a sum that the interval arithmetic cannot
separate from 0 (``n**2 - 10*n + 30``) is bounded by its leading power instead, where its
other powers provably stay below it from :math:`s + 64` on.  What cannot be proved raises
:class:`NotProven`; the caller then leaves the formula to the full engine.

>>> from fractions import Fraction
>>> R(Fraction(1), Fraction(2)).hi
2.0
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

#: the first terms checked one by one (the full engine's term check looks at as many)
FIRST_TERMS = 64
INF = math.inf


class NotProven(Exception):
    """Definedness (or a range) that interval arithmetic cannot establish."""


def _dn(x: float, k: int = 3) -> float:
    if math.isnan(x):
        raise NotProven("an undefined intermediate value")
    for _ in range(k):
        x = math.nextafter(x, -INF)
    return x


def _up(x: float, k: int = 3) -> float:
    if math.isnan(x):
        raise NotProven("an undefined intermediate value")
    for _ in range(k):
        x = math.nextafter(x, INF)
    return x


def _f(q: Fraction, up: bool) -> float:
    try:
        x = float(q)
    except OverflowError:
        return INF if (q > 0) == up else -INF if q < 0 else 0.0
    if Fraction(x) == q:
        return x
    return _up(x, 1) if up else _dn(x, 1)


@dataclass(frozen=True)
class R:
    """A closed interval of the extended reals with float ends."""

    lo: float
    hi: float

    def __init__(self, lo: float | Fraction, hi: float | Fraction):
        lo = _f(lo, False) if isinstance(lo, Fraction) else lo
        hi = _f(hi, True) if isinstance(hi, Fraction) else hi
        if math.isnan(lo) or math.isnan(hi) or lo > hi:
            raise NotProven("an undefined intermediate value")
        object.__setattr__(self, "lo", lo)
        object.__setattr__(self, "hi", hi)

    def has_zero(self) -> bool:
        return self.lo <= 0 <= self.hi

    def __add__(self, o: R) -> R:
        return R(_dn(self.lo + o.lo), _up(self.hi + o.hi))

    def __neg__(self) -> R:
        return R(-self.hi, -self.lo)

    def __sub__(self, o: R) -> R:
        return self + (-o)

    def __mul__(self, o: R) -> R:
        ps = []
        for a in (self.lo, self.hi):
            for b in (o.lo, o.hi):
                if (a == 0 and math.isinf(b)) or (b == 0 and math.isinf(a)):
                    ps.append(0.0)
                else:
                    ps.append(a * b)
        return R(_dn(min(ps)), _up(max(ps)))

    def inverse(self) -> R:
        if self.has_zero():
            raise NotProven("a divisor that may be 0")
        return R(_dn(1 / self.hi), _up(1 / self.lo))

    def monotone(self, f: Callable[[float], float], increasing: bool = True) -> R:
        a, b = (f(self.lo), f(self.hi)) if increasing else (f(self.hi), f(self.lo))
        return R(_dn(a), _up(b))


def _exp(x: float) -> float:
    try:
        return math.exp(x)
    except OverflowError:
        return INF


def _log(x: float) -> float:
    return INF if x == INF else math.log(x)


def r_exp(x: R) -> R:
    r = x.monotone(_exp)
    return R(max(r.lo, 0.0), r.hi)


def r_log(x: R) -> R:
    if x.lo <= 0:
        raise NotProven("log of a value that may be <= 0")
    r = x.monotone(_log)
    return R(max(r.lo, 0.0), r.hi) if x.lo >= 1 else r  # log >= 0 from 1 on (log 1 = 0)


def r_sqrt(x: R) -> R:
    if x.lo < 0:
        raise NotProven("sqrt of a value that may be < 0")
    r = x.monotone(lambda t: INF if t == INF else math.sqrt(t))
    return R(max(r.lo, 0.0), r.hi)


def r_ipow(x: R, k: int) -> R:
    """x**k for an integer k."""
    if k < 0:
        return r_ipow(x.inverse(), -k)
    if k == 0:
        return R(1.0, 1.0)

    def p(t: float) -> float:
        try:
            return t**k
        except OverflowError:
            return INF if t > 0 or k % 2 == 0 else -INF

    if k % 2 == 1 or x.lo >= 0:
        return R(_dn(p(x.lo)), _up(p(x.hi)))
    if x.hi <= 0:
        return R(_dn(p(x.hi)), _up(p(x.lo)))
    return R(0.0, _up(max(p(x.lo), p(x.hi))))


def r_pow(x: R, y: R) -> R:
    """x**y for x > 0: exp(y log x); for x >= 0 where y > 0 (0**y = 0)."""
    if x.lo == 0 and y.lo > 0:
        return R(0.0, 0.0) if x.hi == 0 else R(0.0, r_pow(R(x.hi, x.hi), y).hi)
    if x.lo <= 0:
        raise NotProven("a real power of a base that may be <= 0")
    if x.lo == x.hi == 1.0:
        return R(1.0, 1.0)
    return r_exp(y * r_log(x))


def r_sin_cos(x: R, f: Callable[[float], float]) -> R:
    if math.isinf(x.lo) or math.isinf(x.hi) or x.hi - x.lo > 1e-6:
        return R(-1.0, 1.0)
    vals = (f(x.lo), f(x.hi))
    lo, hi = _dn(min(vals)) - 1e-15, _up(max(vals)) + 1e-15
    # a turning point of sin/cos inside the tiny interval: widen to the extreme
    return R(max(-1.0, lo - (x.hi - x.lo)), min(1.0, hi + (x.hi - x.lo)))


def r_tan(x: R) -> R:
    if not (-1.5 < x.lo and x.hi < 1.5):
        raise NotProven("tan of a value that may be near a pole")
    return x.monotone(math.tan)


def r_atan(x: R) -> R:
    return x.monotone(math.atan)


def r_gamma(x: R) -> R:
    """Gamma on x >= 1/2 (increasing from 1.4616...; at least 0.8856 on (0, oo))."""
    if x.lo < 0.5:
        raise NotProven("gamma of a value that may be below 1/2")

    def g(t: float) -> float:
        if t == INF or t > 171:
            return INF
        return math.gamma(t)

    hi = _up(max(g(x.lo), g(x.hi)))
    lo = _dn(g(x.lo)) if x.lo >= 1.5 else 0.885
    return R(lo, hi)


def dominant_power_range(terms: list, n0: int) -> R:
    r"""The range over :math:`n \ge n_0` of :math:`\sum_i c_i n^{a_i}` (exact rationals),
    where its leading power provably dominates there: :math:`c n^a (1 + \theta)` with
    :math:`|\theta| \le S = \sum_{i} |c_i/c|\, n_0^{a_i - a} < 1` (each ratio decreases in n).

    >>> r = dominant_power_range([(Fraction(2), Fraction(1)), (Fraction(-10), Fraction(1))], 64)
    >>> r.lo > 0 and r.hi == float("inf")
    True
    """
    terms = sorted(terms, reverse=True)
    a, c = terms[0]
    s = Fraction(0)
    for ai, ci in terms[1:]:
        ratio = abs(ci / c)
        s += ratio * _frac_pow_up(n0, ai - a)
    if s >= 1:
        raise NotProven("a sum whose leading power is not yet dominant")
    mag = abs(c)
    if a > 0:
        base = R(_f(mag * (1 - s), False), INF) * R(_pow_dn(n0, a), INF)
        r = R(max(base.lo, 0.0), INF)
    elif a == 0:
        r = R(mag * (1 - s), mag * (1 + s))
    else:
        r = R(0.0, _up(_f(mag * (1 + s), True) * _pow_up(n0, a)))
    return r if c > 0 else -r


def _pow_up(n0: int, a: Fraction) -> float:
    """An upper bound of n0**a (n0 >= 1; float(a) is a's nearest float, hence the margin)."""
    try:
        return _up(float(n0) ** float(a) * (1 + 1e-12))
    except OverflowError:
        return INF


def _pow_dn(n0: int, a: Fraction) -> float:
    try:
        return _dn(float(n0) ** float(a) * (1 - 1e-12))
    except OverflowError:
        return INF


def _frac_pow_up(n0: int, a: Fraction) -> Fraction:
    x = _pow_up(n0, a)
    if math.isinf(x):
        raise NotProven("a power out of floating-point range")
    return Fraction(x)
