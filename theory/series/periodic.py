r"""Periodic factors split by residue class: :math:`(-1)^n`, :math:`\cos(\pi n)`,
:math:`(-1)^{\lfloor n/2 \rfloor}`, ``(-1)**n`` inside a power, :math:`\sin/\cos(r\pi n + c)`
with r rational (and their powers, ``Abs``, ``Max``).

With :math:`n = Lm + r` (:math:`m` an integer, :math:`r = 0, \dots, L-1`), sympy's automatic
evaluation removes every factor of period dividing :math:`L`: :math:`(-1)^{2m+1} = -1`,
:math:`\cos(\pi(2m+1)) = -1`, :math:`\lfloor (4m+3)/2 \rfloor = 2m + 1`; a sine or cosine
whose argument holds :math:`k\pi m` (k an integer) is rewritten
:math:`\sin(x + k\pi m) = (-1)^{km} \sin x` (:func:`_reduce_trig`), which sympy evaluates
further: :math:`\sin(\pi(6m+1)/3)^2 = 3/4`; a sign :math:`(-1)^{P(n)}` with P an
integer-valued polynomial (``(-1)**(n*(n+1)/2)``, period 4) becomes :math:`(-1)^{c_0}`
once every coefficient of :math:`m^j`, j >= 1, of :math:`P(Lm + r)` is an even integer
(:func:`_reduce_sign`; the parity of an integer-valued polynomial of degree d is periodic,
of period dividing :math:`2^{\lceil \log_2(d + 1) \rceil}`).  Each class is then a
series in :math:`m` without periodic factors:

.. math:: \sum_n b_n \text{ converges} \iff \sum_m \sum_{r<L} b_{Lm+r} \text{ converges}
   \quad \text{when } b_{Lm+r} \to 0 \text{ for every } r,

since a partial sum of :math:`b` differs from one of the grouped series by fewer than
:math:`L` terms.

>>> from theory.series.expressions import parse_expression as P
>>> residue_classes(P("(-1)**n/n"))
(2, [1/(2*n), -1/(2*n + 1)])
>>> residue_classes(P("Abs(sin(pi*n/3))/n"))[1][:3]
[0, sqrt(3)/(2*(3*n + 1)), sqrt(3)/(2*(3*n + 2))]
"""

from __future__ import annotations

import sympy as sp

from theory.series.expressions import N

MAX_PERIOD = 24  # residue classes tried, at most (sin(pi*n/7): 14 before sympy's squaring)


def _periodic_atom(e: sp.Basic, x: sp.Symbol) -> bool:
    """A subexpression periodic in the integer x: (-c)**f(x), floor/ceiling/frac of x, or
    sin/cos whose argument has a rational multiple of pi times x."""
    if isinstance(e, sp.Pow) and e.base.is_number and e.base.is_negative and e.exp.has(x):
        return True
    if isinstance(e, (sp.floor, sp.ceiling, sp.frac)) and e.has(x):
        return True
    if isinstance(e, (sp.sin, sp.cos)) and e.has(x):
        slope = sp.expand(e.args[0]).coeff(x)
        return (slope / sp.pi).is_rational is True
    return False


def has_periodic_factor(b: sp.Expr) -> bool:
    """True when b holds a factor that :func:`residue_classes` may remove."""
    return any(_periodic_atom(e, N) for e in sp.preorder_traversal(b))


def _reduce_trig(e: sp.Expr, m: sp.Symbol) -> sp.Expr:
    """sin/cos(x + k pi m) -> (-1)**(k m) sin/cos(x) for an integer k (m an integer)."""

    def reduce(t):
        arg = sp.expand(t.args[0])
        k = arg.coeff(m) / sp.pi
        if not k.is_Integer:
            return t
        return (-1) ** (k * m) * t.func(sp.expand(arg - k * sp.pi * m))

    return e.replace(lambda t: isinstance(t, (sp.sin, sp.cos)) and t.has(m), reduce)


def _reduce_sign(e: sp.Expr, m: sp.Symbol) -> sp.Expr:
    r"""(-1)**P(m) -> (-1)**c_0 for P a polynomial in the integer m whose coefficients of
    :math:`m^j` (j >= 1) are even integers and whose constant :math:`c_0` is an integer:
    then :math:`P(m) - c_0 \in 2\mathbb{Z}` for every integer m, so the identity is exact
    (``(-1)**(n*(n+1)/2)`` at n = 4m + 1: :math:`P = 8m^2 + 6m + 1`, the value -1).  Any
    other power is left as it is."""

    def reduce(t):
        P = sp.expand(t.exp)
        if not P.is_polynomial(m):
            return t
        coeffs = sp.Poly(P, m).all_coeffs()
        c0, rest = coeffs[-1], coeffs[:-1]
        if not (c0.is_Integer and all(c.is_Integer and c % 2 == 0 for c in rest)):
            return t
        return sp.Integer(-1) ** c0

    return _merge_signs(e).replace(
        lambda t: isinstance(t, sp.Pow) and t.base == -1 and t.exp.has(m), reduce
    )


def _merge_signs(e: sp.Expr) -> sp.Expr:
    r"""The factors (-1)**x of each product merged into one, (-1)**(x + y): sympy's
    (-1)**x is :math:`e^{i\pi x}` for real x, so the identity holds (``expand`` splits
    ``(-1)**(n*(n+1)/2)`` into ``(-1)**(n/2)*(-1)**(n**2/2)``)."""

    def is_sign(t):
        return isinstance(t, sp.Pow) and t.base == -1

    def merge(t):
        signs = [f for f in t.args if is_sign(f)]
        rest = [f for f in t.args if not is_sign(f)]
        return sp.Mul(*rest) * sp.Pow(-1, sp.Add(*(f.exp for f in signs)))

    return e.replace(lambda t: isinstance(t, sp.Mul) and sum(map(is_sign, t.args)) > 1, merge)


def residue_classes(b: sp.Expr) -> tuple[int, list[sp.Expr]] | None:
    """(L, [b_(L n + r) for r < L]) with no periodic factor left in any class (the class
    index written as n again), for the least such L <= MAX_PERIOD; None if there is none."""
    if not has_periodic_factor(b):
        return None
    m = sp.Symbol("m", integer=True, positive=True)
    for L in range(2, MAX_PERIOD + 1):
        classes = []
        for r in range(L):
            br = _reduce_sign(_reduce_trig(b.subs(N, L * m + r), m), m)
            if any(_periodic_atom(e, m) for e in sp.preorder_traversal(br)):
                break
            classes.append(br.subs(m, N))
        else:
            return L, classes
    return None
