r"""Tails of :math:`b_n = n^{-p}` with a steep power p > STEEP (``n**(-1e300)``): the
integral test on :math:`\sum_{n > m} n^{-p} \le \int_m^\infty x^{-p}\,dx` gives

.. math::
   \max\!\left(m^{-p}, \frac{m^{1-p}}{p-1}\right) \le \sum_{n \ge m} n^{-p}
   \le m^{-p} + \frac{m^{1-p}}{p-1},

taken from m + 1 beside the exact term :math:`m^{-p}`: relative width
:math:`((m+1)/m)^{-p} (m+1)/(p-1)`, :math:`\zeta(10^{300}) = 1 + [2^{-10^{300}},
2^{-10^{300}}(1 + 2/(10^{300}-1))]`.  The
powers are taken at PREC bits beyond the size of p (:math:`2^{-10^{300}}` needs the 997
integer bits of :math:`10^{300} \ln 2`).

>>> from theory.series.expressions import parse_expression as P
>>> t = SteepPowerTail(P("n**(-10**4)"), 1)
>>> t.tail(1).overlaps(arb(10**4).zeta())
True
"""

from __future__ import annotations

import mpmath
import sympy as sp
from flint import arb, ctx

from theory.series.arb_eval import PREC, NotCertified, NotSupported, arb_function, ball_precision
from theory.series.expressions import N

STEEP = 1000  # below this the general engines sum n^(-p) (Euler-Maclaurin)


class SteepPowerTail:
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of :math:`n^{-p}`, p > STEEP a real number, from n0 >= 1 on."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int):
        if not (b.is_Pow and b.base == N and b.exp.is_number and b.exp.is_real):
            raise NotCertified("not n^(-p)")
        p = -b.exp
        if not (p > STEEP and int(n0) >= 1):
            raise NotCertified("not a steep power")
        self.p_expr, self.n0 = p, int(n0)
        self.extra_bits = int(mpmath.mag(mpmath.mpf(sp.N(p, 30)))) + 64
        try:
            self.p = self._p()
        except (NotSupported, ArithmeticError, ValueError) as exc:
            raise NotCertified(f"not n^(-p): {exc}") from None
        self.nonneg_until = 10**30  # every term is positive
        self.certificate = (
            f"steep power n^(-{p}): m^(-p) <= tail from m <= m^(-p) + m^(1-p)/(p-1) "
            "(integral test), in ball arithmetic"
        )

    def _p(self) -> arb:
        return arb_function(self.p_expr)(arb(0))

    def _bits(self, m: int) -> int:
        return PREC + self.extra_bits + int(m).bit_length()

    @ball_precision
    def term(self, n: int) -> arb:
        ctx.prec = self._bits(n)
        return (-self._p() * arb(int(n)).log()).exp()

    @ball_precision
    def tail(self, m: int) -> arb:
        """An enclosure of sum_{n >= m} b_n (m >= n0)."""
        ctx.prec = self._bits(m)
        p, M = self._p(), arb(int(m))
        first = (-p * M.log()).exp()  # b_m, then the bounds on the tail from m + 1
        nxt = (-p * (M + 1).log()).exp()
        integral = nxt * (M + 1) / (p - 1)
        lo, other = nxt.lower(), integral.lower()
        lo = other if other > lo else lo
        return first + lo.union((nxt + integral).upper())
