r"""Structural proofs that a term :math:`g(x)` is completely monotone on :math:`[x_0, \infty)`.

A function is completely monotone (CM) when :math:`(-1)^k g^{(k)}(x) \ge 0` for every
:math:`k \ge 0`; a Bernstein function is a nonnegative :math:`h` whose derivative is CM.
The rules used (Schilling, Song and Vondracek, *Bernstein functions*, Ch. 1 and 3):

.. math::
   \text{CM} + \text{CM},\ \text{CM} \cdot \text{CM},\ \varphi \circ h
   \ (\varphi \text{ CM on the range of } h,\ h' \text{ CM}) \text{ are CM};\qquad
   h^{s}\ (0 < s \le 1),\ \log h\ (h > 0),\ h_1 + h_2,\ c\,h \text{ keep } h' \text{ CM},

with :math:`\varphi(y) = y^{-s}` (:math:`s > 0`, needs :math:`h > 0`) and
:math:`\varphi(y) = e^{-y}` (CM on the whole line).  A difference of shifts is an integral
of shifts of the derivative, so it is CM when the derivative has the right sign pattern:

.. math::
   p(x) - p(x + d) = -\int_0^d p'(x + t)\,dt \ (d > 0,\ p \text{ CM}),\qquad
   p(x) - p(x - e) = \int_{-e}^0 p'(x + t)\,dt \ (e > 0,\ p' \text{ CM on } [x_0 - e, \infty)),

(``sqrt(n + 1) - sqrt(n)``, ``log(n + 2) - log(n + 1)``, ``1/n - 1/(n + 3)``).  Values at :math:`x_0` are checked in ball
arithmetic, so the proof holds on the whole half-line, not only for large :math:`x`.
For a CM :math:`g` every difference :math:`(-1)^k \Delta^k g(n)` is :math:`\ge 0` and
decreasing in :math:`n` (mean-value theorem), which the Euler-transformed tails of
:class:`theory.series.oscillating.DirichletTail` rely on.

>>> from theory.series.expressions import parse_expression as P
>>> completely_monotone(P("(1 + 1/n)/sqrt(n)"), 1), completely_monotone(P("1/log(n + 1)"), 1)
(True, True)
>>> completely_monotone(P("1/(n**2 + 1)"), 1), completely_monotone(P("1/log(n)"), 1)
(False, False)
>>> completely_monotone(P("sqrt(n + 1) - sqrt(n)"), 1), completely_monotone(P("sqrt(n) - sqrt(n + 1)"), 1)
(True, False)
"""

from __future__ import annotations

import sympy as sp
from flint import arb

from theory.series.arb_eval import NotSupported, Undecided, arb_function, ball_precision
from theory.series.expressions import N


@ball_precision
def positive_at(h: sp.Expr, x0: int) -> bool:
    """h(x0) > 0 proved in ball arithmetic (h increases on [x0, oo) where it is used)."""
    try:
        v = arb_function(h)(arb(int(x0)))
    except (NotSupported, Undecided, ArithmeticError, ValueError, TypeError):
        return False
    return bool(v.is_finite() and v > 0)


def derivative_cm(h: sp.Expr, x0: int) -> bool:
    """h' is completely monotone on [x0, oo) (h increasing and concave, all orders)."""
    if not h.has(N):
        return h.is_real is True
    if h == N:
        return True
    if isinstance(h, sp.Add):
        return all(derivative_cm(a, x0) for a in h.args)
    if isinstance(h, sp.Mul):
        c, rest = h.as_independent(N, as_Add=False)
        return c.is_positive is True and rest != h and derivative_cm(rest, x0)
    if isinstance(h, sp.Pow) and not h.exp.has(N):
        s = h.exp
        return bool(s.is_positive and (s - 1).is_nonpositive) and bernstein_positive(h.base, x0)
    if isinstance(h, sp.log):
        return bernstein_positive(h.args[0], x0)
    return False


def bernstein_positive(h: sp.Expr, x0: int) -> bool:
    """h > 0 on [x0, oo) with h' completely monotone."""
    return derivative_cm(h, x0) and positive_at(h, x0)


def completely_monotone(g: sp.Expr, x0: int) -> bool:
    """g is completely monotone on [x0, oo), proved from its structure (module rules);
    False means not proved."""
    if not g.has(N):
        return g.is_nonnegative is True
    if isinstance(g, sp.Mul):
        return all(completely_monotone(a, x0) for a in g.args)
    if isinstance(g, sp.Add):
        return _cm_sum(list(g.args), x0)
    if isinstance(g, sp.exp):
        return derivative_cm(-g.args[0], x0)
    if isinstance(g, sp.Pow) and not g.exp.has(N):
        s = g.exp
        if s.is_negative:
            return bernstein_positive(g.base, x0)
        if s.is_Integer and s > 0:
            return completely_monotone(g.base, x0)
    if isinstance(g, sp.Pow) and not g.base.has(N) and g.base.is_positive:
        return completely_monotone(sp.exp(g.exp * sp.log(g.base)), x0)  # 2**(-n)
    return False


def _cm_sum(args: list, x0: int) -> bool:
    """Every term CM, or one pair of terms a difference of shifts (module rule) and the
    other terms CM."""
    if all(completely_monotone(a, x0) for a in args):
        return True
    for i, p in enumerate(args):
        for j, q in enumerate(args):
            if i != j and _shift_difference(p, q, x0):
                rest = [a for k, a in enumerate(args) if k not in (i, j)]
                return all(completely_monotone(a, x0) for a in rest)
    return False


def _shifts(e: sp.Expr) -> set:
    """The constants c of the subexpressions n + c of e (0 for a bare n)."""
    out = set()
    for sub in sp.preorder_traversal(e):
        if sub == N:
            out.add(sp.Integer(0))
        elif isinstance(sub, sp.Add) and sub.has(N) and not (sub - N).has(N):
            out.add(sub - N)
    return out


def _shift_difference(p: sp.Expr, q: sp.Expr, x0: int) -> bool:
    """p + q = p(x) - p(x + d) with d a nonzero real constant and the module's rule for the
    sign of d proved: CM on [x0, oo)."""
    if not (p.has(N) and q.has(N)):
        return False
    for d in {cq - cp for cq in _shifts(q) for cp in _shifts(p)}:
        if not (d.is_real and d.is_nonzero) or sp.expand(q + p.subs(N, N + d)) != 0:
            continue
        if d.is_positive:  # -p' CM follows from p CM
            return completely_monotone(p, x0)
        e = -d  # p' CM on [x0 - e, oo): the shifts x + t, -e <= t <= 0, stay in it
        return bool(e.is_Rational) and derivative_cm(p, int(sp.floor(x0 - e)))
    return False
