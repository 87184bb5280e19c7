r"""Tails of :math:`\sum_i c_i \log(n)^{k_i} n^{-s_i}` in closed form: derivatives of the
Hurwitz zeta function.

For real :math:`s > 1` and a natural k,

.. math::
   \sum_{n \ge a} \frac{\log(n)^k}{n^s} = (-1)^k \frac{\partial^k}{\partial s^k} \zeta(s, a)
   = (-1)^k\, k!\, [x^k]\, \zeta(s + x, a),

the coefficient from arb's power series of :math:`\zeta(s + x, a)` in x (ball
arithmetic).  A slowly converging ``log(n)**2/n**1.1`` (B = :math:`\zeta''(1.1)`, TRFs near
:math:`10^{23}`) gets B to full precision, where a comparison bound gives a few digits.

>>> from theory.series.expressions import parse_expression as P
>>> t = LogZetaTail(P("log(n)**2/n**(11/10)"), 1)
>>> s = t.tail(1)                # zeta''(11/10), mpmath zeta(11/10, 1, 2): 1999.9901157470433...
>>> abs(s.mid() - arb("1999.99011574704336866")) < 1e-11, s.rad() < 1e-30
(True, True)
"""

from __future__ import annotations

import math

import sympy as sp
from flint import arb, arb_series, ctx

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import (
    BallTerms,
    NotCertified,
    NotSupported,
    arb_function,
    ball_precision,
    tail_start,
)
from theory.series.expressions import N

MAX_K = 12  # log(n)^k with k up to this


def log_power_parts(b: sp.Expr) -> list[tuple[sp.Expr, int, sp.Expr]] | None:
    """[(c, k, s)] with b = sum c log(n)^k n^(-s), c and s real numbers, s > 1, k natural;
    None where b is not of that form.

    >>> from theory.series.expressions import parse_expression as P
    >>> log_power_parts(P("(2*log(n) - 1)/n**3"))
    [(-1, 0, 3), (2, 1, 3)]
    """
    if not b.has(N):
        return None
    try:
        with step_budget(1.0):  # expand: (log(n) + 1)**k/n**2 has k + 1 summands
            summands = sp.Add.make_args(sp.expand(b))
    except StepTimeout:
        return None
    parts = []
    for t in summands:
        c, k, s = sp.Integer(1), 0, sp.Integer(0)
        for f in sp.Mul.make_args(t):
            base, ex = f.as_base_exp()
            if not f.has(N):
                c *= f
            elif base == N and ex.is_number and ex.is_real:
                s -= ex
            elif base == sp.log(N) and ex.is_Integer and 0 < ex <= MAX_K:
                k += int(ex)
            else:
                return None
        if not (c.is_real and c.is_finite and s.is_real and (s - 1).is_positive and k <= MAX_K):
            return None
        parts.append((c, k, s))
    return sorted(parts, key=lambda p: (p[1], str(p[2])))


class LogZetaTail(BallTerms):
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of sum c log(n)^k n^(-s) from n0 >= 1 on (module doc)."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int):
        parts = log_power_parts(b)
        if parts is None or int(n0) < 1:
            raise NotCertified("the terms are not a sum of c log(n)^k n^(-s), s > 1")
        self.n0 = int(n0)
        try:
            self.f = arb_function(b)
            self.parts = [
                (arb_function(c)(arb(0)), k, arb_function(s)(arb(0))) for c, k, s in parts
            ]
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self.nonneg_until = self.n0 if not all(c >= 0 for c, _, _ in self.parts) else 10**30
        self.certificate = (
            "b_n = "
            + " + ".join(f"({c}) log(n)^{k} n^-({s})" for c, k, s in parts)
            + ": each tail (-1)^k d^k/ds^k zeta(s, a), the Hurwitz zeta function's Taylor "
            "series in s (ball arithmetic)"
        )

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        old = ctx.cap
        out = arb(0)
        try:
            ctx.cap = MAX_K + 2
            for c, k, s in self.parts:
                z = arb_series([s, 1], prec=k + 1).zeta(arb(a))
                coeff = z.coeffs()[k] if len(z.coeffs()) > k else arb(0)
                out += c * (-1) ** k * math.factorial(k) * coeff
        finally:
            ctx.cap = old
        if not out.is_finite():
            raise NotCertified(f"the zeta derivatives at a = {a} are not finite")
        return out
