r"""Trigonometric-polynomial minorants of nonnegative oscillating factors.

For :math:`b_n = g(n)\, h(n)` with :math:`h \ge 0` a function of :math:`\sin(an + c)`,
:math:`\cos(an + c)` (:math:`a` rational, so :math:`a/2\pi` is irrational), a trigonometric
polynomial :math:`0 \le p \le h` is built factor by factor:

.. math::
   |s|^t \ge s^{2\lceil t/2 \rceil} \ (|s| \le 1), \qquad
   \mathbf{1}[\cos\theta \ge 0] \ge \tfrac12 \cos\theta\,(1 + \cos\theta),

and :math:`p = c_0 + \sum_j c_j e^{i k_j n}` with every :math:`k_j \ne 0` rational.  When
:math:`g` decreases to 0, each :math:`\sum g(n) e^{i k_j n}` converges (Dirichlet: the partial
sums of :math:`e^{ikn}` are at most :math:`1/|\sin(k/2)|`), so
:math:`\sum b_n \ge c_0 \sum g(n) - C` diverges with :math:`\sum g` when :math:`c_0 > 0`:
the positive mean :math:`c_0` is the equidistribution of :math:`n a \bmod 2\pi` in summed form.

>>> from theory.series.expressions import parse_expression as P
>>> g, p = split_minorant(P("Abs(sin(n))/n"))
>>> g, mean_and_frequencies(p)
(1/n, (1/2, [-2, 2]))
"""

from __future__ import annotations

import sympy as sp

from theory.series.expressions import N

_TRIG = (sp.sin, sp.cos)


def _linear_trig(e: sp.Expr) -> bool:
    """sin/cos(a n + c) with a rational and nonzero, c real and constant."""
    if not isinstance(e, _TRIG):
        return False
    arg = sp.expand(e.args[0])
    a, c = arg.coeff(N), arg - arg.coeff(N) * N
    return bool(a.is_Rational and a != 0 and not c.has(N) and c.is_real)


def _trig_polynomial(e: sp.Expr) -> bool:
    """A polynomial with real constant coefficients in linear sin/cos (no Abs)."""
    atoms = [a for a in e.atoms(sp.sin, sp.cos) if a.has(N)]
    if not atoms or not all(_linear_trig(a) for a in atoms) or e.has(sp.Abs):
        return False
    rest = e.subs({a: sp.Dummy() for a in atoms})
    return (
        not rest.has(N) and rest.is_polynomial() and all(c.is_real for c in sp.Poly(rest).coeffs())
    )


def _indicator_minorant(cond) -> sp.Expr | None:
    """p <= 1[cond] for cond: s >= 0, s > 0, s <= 0 or s < 0 with s a linear sin/cos."""
    if not isinstance(cond, sp.core.relational.Relational) or cond.rhs != 0:
        return None
    s = cond.lhs
    if not _linear_trig(s):
        return None
    if isinstance(cond, (sp.GreaterThan, sp.StrictGreaterThan)):
        return s * (1 + s) / 2
    if isinstance(cond, (sp.LessThan, sp.StrictLessThan)):
        return -s * (1 - s) / 2
    return None


def _factor_minorant(f: sp.Expr) -> sp.Expr | None:
    """0 <= p <= f for one factor f, or None."""
    base, ex = f.as_base_exp()
    if _trig_polynomial(base) and ex.is_Integer and ex.is_even and ex > 0:
        return f  # an even power of a real trigonometric polynomial: (1 + cos(n))**2
    if isinstance(base, sp.Abs) and _linear_trig(base.args[0]) and ex.is_positive:
        k = int(sp.ceiling(ex / 2))
        return base.args[0] ** (2 * k)
    return None


def split_minorant(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(g, p): b_n >= g(n) p(n) >= 0 where g >= 0 holds no trigonometric function and p is a
    trigonometric polynomial in linear sin/cos; None when b has no such form.  For
    ``Piecewise((v, cond), (w, True))`` the caller must prove w >= 0 (returned as the third
    factor of the condition via :func:`piecewise_rest`)."""
    if isinstance(b, sp.Piecewise) and len(b.args) == 2 and b.args[1][1] is sp.true:
        (v, cond), _ = b.args
        p = _indicator_minorant(cond)
        if p is None or v.has(sp.sin, sp.cos, sp.Abs):
            return None
        return v, p
    g, p = sp.Integer(1), sp.Integer(1)
    for f in sp.Mul.make_args(b):
        if not f.has(sp.sin, sp.cos):
            g *= f
            continue
        q = _factor_minorant(f)
        if q is None:
            return None
        p *= q
    return (g, p) if p != 1 else None


def piecewise_rest(b: sp.Expr) -> sp.Expr | None:
    """The value of the last branch of a two-branch Piecewise (it must be >= 0)."""
    if isinstance(b, sp.Piecewise):
        return b.args[1][0]
    return None


def mean_and_frequencies(p: sp.Expr) -> tuple[sp.Expr, list] | None:
    """(c_0, [k_j]): p = c_0 + sum_j c_j e^(i k_j n) with real rational k_j != 0, or None."""
    e = sp.expand(sp.powsimp(sp.expand(p.rewrite(sp.exp)), combine="exp"))
    c0, freqs = sp.Integer(0), []
    for term in sp.Add.make_args(e):
        c, rest = term.as_independent(N, as_Add=False)
        if rest == 1:
            c0 += c
            continue
        if not isinstance(rest, sp.exp):
            return None
        k = sp.expand(rest.args[0] / (sp.I * N))
        if k.has(N) or not k.is_Rational or k == 0:
            return None
        freqs.append(k)
    c0 = sp.nsimplify(sp.expand(c0))
    return c0, sorted(freqs)
