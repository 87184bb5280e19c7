"""Decimal text of a certified enclosure's ends, rounded outwards: the printed interval of
``python -m theory.trf`` holds the exact binary interval it stands for, at any exponent."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath


def outward(x: mpmath.mpf | float, direction: int, digits: int = 20) -> str:
    """x in scientific notation with ``digits`` digits, rounded away from the inside of the
    enclosure (down for its lower end, up for its upper end), so the printed interval holds B.

    >>> outward(mpmath.mpf(2) / 3, -1, 5), outward(mpmath.mpf(2) / 3, +1, 5)
    ('6.6666e-1', '6.6667e-1')
    >>> outward(-mpmath.mpf(2) / 3, -1, 5), outward(-mpmath.mpf(2) / 3, +1, 5)
    ('-6.6667e-1', '-6.6666e-1')
    >>> with mpmath.workdps(40):
    ...     third = mpmath.mpf(1) / 3          # 133 bits: the 53-bit context must not round it
    >>> outward(third, -1), outward(third, +1)
    ('3.3333333333333333333e-1', '3.3333333333333333334e-1')

    A binary exponent in the billions (B = e^(1e19), a lower bound of exp(10**19 - n)) is
    not scaled in exact rationals (2^(1.4e19) has no room in memory) but in interval
    arithmetic, rounded outwards (at worst one unit of the last digit wider):

    >>> big = mpmath.exp(mpmath.mpf(10) ** 19)
    >>> outward(big, -1, 5), outward(big, +1, 5)
    ('3.2455e4342944819032518276', '3.2456e4342944819032518276')
    """
    if x == 0:
        return "0"
    x = x if isinstance(x, mpmath.mpf) else mpmath.mpf(x)  # an mpf as it is: not re-rounded
    man, exp = x.man_exp  # |x| = man 2^exp exactly (man_exp drops the sign)
    sign = -1 if x < 0 else 1
    if abs(int(exp)) > EXACT_EXPONENT_BITS:
        return _outward_interval(sign, int(man), int(exp), direction, digits)
    e = int(mpmath.floor(mpmath.log10(abs(x)))) - digits + 1
    scaled = sign * Fraction(int(man)) * Fraction(2) ** int(exp) / Fraction(10) ** e
    q = math.floor(scaled) if direction < 0 else math.ceil(scaled)  # exact rational rounding
    return _scientific(q, e)


#: binary exponents up to this are scaled to decimal in exact rationals by :func:`outward`
EXACT_EXPONENT_BITS = 2**16


def _scientific(q: int, e: int) -> str:
    """q 10^e as ``d.ddd...eE`` (q an integer; its digits are the mantissa)."""
    sign, d = ("-" if q < 0 else ""), str(abs(q))
    return f"{sign}{d[0]}.{d[1:]}e{e + len(d) - 1}"


def _outward_interval(sign: int, man: int, exp: int, direction: int, digits: int) -> str:
    """outward for a huge binary exponent: man 2^exp / 10^e enclosed in mpmath's interval
    arithmetic (precision: the mantissa's bits and the exponents' digits), the end on the
    outward side rounded outwards exactly (from its mantissa and exponent)."""
    with mpmath.workprec(abs(exp).bit_length() + 64):  # e within one of floor(log10 x)
        e = int(mpmath.floor((exp + man.bit_length()) * mpmath.log10(2))) - digits + 1
    iv = mpmath.iv
    old = iv.prec
    iv.prec = man.bit_length() + 2 * abs(exp).bit_length() + 2 * abs(e).bit_length() + 96
    try:
        lo, hi = (iv.mpf(sign * man) * iv.mpf(2) ** exp / iv.mpf(10) ** e)._mpi_
    finally:
        iv.prec = old
    return _scientific(_floor(lo) if direction < 0 else -_floor(mpmath.libmp.mpf_neg(hi)), e)


def _floor(v: tuple) -> int:
    """floor of an mpmath raw number (sign, man, exp, bc), exactly."""
    sgn, man, exp, _bc = v
    if exp >= 0:
        q = int(man) << exp
        return -q if sgn else q
    q = int(man) >> -exp  # floor of |v|
    if sgn:
        return -q - (1 if q << -exp != int(man) else 0)
    return q
