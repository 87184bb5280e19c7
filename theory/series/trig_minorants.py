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
    """(c_0, [theta_j]): p = c_0 + sum_j c_j e^(i theta_j n), every theta_j certified outside
    2 pi Z (:func:`frequency_pieces`), or None."""
    fp = frequency_pieces(p)
    if fp is None:
        return None
    c0, pieces = fp
    return c0, sorted((k for _, k in pieces), key=lambda k: float(k))


def in_2pi_z(theta: sp.Expr) -> bool | None:
    r"""Whether :math:`\theta = r + s\pi` (r, s rational) is a multiple of :math:`2\pi`:
    exactly when r = 0 and s is an even integer (:math:`\pi` is irrational); for another
    form of :math:`\theta` what sympy's assumptions prove about :math:`\theta/2\pi`, else None.

    >>> in_2pi_z(sp.pi + 1), in_2pi_z(2 * sp.pi), in_2pi_z(sp.sqrt(2)), in_2pi_z(sp.E)
    (False, True, False, None)
    """
    theta = sp.expand(theta)
    s = theta.coeff(sp.pi)
    r = sp.expand(theta - s * sp.pi)
    if not (s.is_Rational and r.is_Rational):
        known = (theta / (2 * sp.pi)).is_integer  # sympy's assumptions: sqrt(2)/(2 pi)
        return None if known is None else bool(known)
    return bool(r == 0 and (s / 2).is_integer)


def as_exponentials(p: sp.Expr) -> sp.Expr:
    """p with (-1)**(a n + c) written exp(i pi (a n + c)) and sin/cos as exponentials,
    expanded into a sum of products."""
    p = p.replace(
        lambda t: isinstance(t, sp.Pow) and t.base == -1 and t.exp.has(N),
        lambda t: sp.exp(sp.I * sp.pi * t.exp),
    )
    return sp.expand(p.rewrite(sp.exp))


def _piece(term: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(c, theta) with term = c e^(i theta n), theta real and constant; or None."""
    c, rest = term.as_independent(N, as_Add=False)
    theta = sp.Integer(0)
    for f in sp.Mul.make_args(rest):
        if f == 1:
            continue
        base, ex = f.as_base_exp()
        if base is sp.E or isinstance(f, sp.exp):
            u = sp.expand(f.args[0] if isinstance(f, sp.exp) else ex)
        else:
            return None
        k = u.coeff(N)
        if sp.expand(u - k * N).has(N) or k.has(N):
            return None
        c *= sp.exp(sp.expand(u - k * N))
        theta += sp.expand(k / sp.I)
    if theta.is_real is not True:
        return None
    return c, theta


def frequency_pieces(p: sp.Expr) -> tuple[sp.Expr, list] | None:
    r"""(c_0, [(c_j, theta_j)]) with :math:`p(n) = c_0 + \sum_j c_j e^{i \theta_j n}` for every
    integer n, each :math:`\theta_j = r + s\pi` (r, s rational) certified outside
    :math:`2\pi\mathbb{Z}` (:func:`in_2pi_z`); frequencies in :math:`2\pi\mathbb{Z}` are
    constant at integers and go into :math:`c_0`.  None when p (a product of sin/cos of
    linear arguments and (-1)**n) has another form.

    >>> c0, pieces = frequency_pieces(sp.cos(N) * (-1) ** N)        # cos((pi + 1) n)
    >>> c0, sorted(str(k) for _, k in pieces)
    (0, ['-1 + pi', '1 + pi'])
    >>> frequency_pieces((-1) ** N * sp.cos(sp.pi * N))[0]           # (-1)^n cos(pi n) = 1
    1
    """
    c0, pieces = sp.Integer(0), []
    for term in sp.Add.make_args(as_exponentials(p)):
        pc = _piece(term)
        if pc is None:
            return None
        c, theta = pc
        where = in_2pi_z(theta)
        if where is None:
            return None
        if where:
            c0 += c
        else:
            pieces.append((c, theta))
    return sp.expand_complex(c0), pieces  # exact: no numeric guessing of the constant
