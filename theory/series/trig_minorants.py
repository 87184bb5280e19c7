r"""Trigonometric-polynomial minorants of nonnegative oscillating factors.

For :math:`b_n = g(n)\, h(n)` with :math:`h \ge 0` a function of :math:`\sin(an + c)`,
:math:`\cos(an + c)` (a real, c real), a trigonometric polynomial :math:`p \le h` is built
factor by factor:

.. math::
   |s|^t \ge s^{2\lceil t/2 \rceil} \ (|s| \le 1), \qquad
   \mathbf{1}[\cos\theta \ge 0] \ge \tfrac12 \cos\theta\,(1 + \cos\theta), \qquad
   \max(x, 0)^t \ge \tfrac12 x^k (1 + x)\ (k \text{ the least odd integer} \ge t),

the last because for :math:`x \in [-1, 0]` the right side is :math:`\le 0` and for
:math:`x \in [0, 1]` it is :math:`\le x^k \le x^t`; any other nonnegative function of one
angle gets the arc minorant of :mod:`theory.series.arc_minorants`.  A factor whose minorant
may be negative ("signed") is allowed once: :math:`0 \le q_1 \le f_1` and
:math:`q_2 \le f_2` with :math:`f_2 \ge 0` give :math:`q_1 q_2 \le q_1 f_2 \le f_1 f_2`.

Then :math:`p = c_0 + \sum_j c_j e^{i k_j n}` with every :math:`k_j \notin 2\pi\mathbb{Z}`
(:func:`in_2pi_z`; a frequency in :math:`2\pi\mathbb{Z}` is constant at integers and goes into
:math:`c_0`).  When :math:`g` decreases to 0, each :math:`\sum g(n) e^{i k_j n}` converges
(Dirichlet: the partial sums of :math:`e^{ikn}` are at most :math:`1/|\sin(k/2)|`), so
:math:`\sum b_n \ge c_0 \sum g(n) - C` diverges with :math:`\sum g` when :math:`c_0 > 0`:
the positive mean :math:`c_0` is the equidistribution of :math:`n a \bmod 2\pi` in summed form.

>>> from theory.series.expressions import parse_expression as P
>>> g, p, notes = split_minorant(P("Abs(sin(n))/n"))
>>> g, mean_and_frequencies(p)
(1/n, (1/2, [-2, 2]))
>>> g, p, notes = split_minorant(P("Max(sin(n), 0)/n"))
>>> p, mean_and_frequencies(p)[0]
((sin(n) + 1)*sin(n)/2, 1/4)
"""

from __future__ import annotations

import sympy as sp

from theory.series.arc_minorants import arc_minorant
from theory.series.expressions import N

_TRIG = (sp.sin, sp.cos)


def _linear_trig(e: sp.Expr) -> bool:
    """sin/cos(a n + c) with a real, constant and nonzero, c real and constant."""
    if not isinstance(e, _TRIG):
        return False
    arg = sp.expand(e.args[0])
    a, c = arg.coeff(N), arg - arg.coeff(N) * N
    return bool(not a.has(N) and a.is_real and a.is_zero is False and not c.has(N) and c.is_real)


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


def _max_minorant(base: sp.Expr, ex: sp.Expr) -> tuple | None:
    """Max(x, 0)**t >= x^k (1 + x)/2 (signed) for x = +-sin/cos, t > 0, k odd >= t."""
    if not (isinstance(base, sp.Max) and len(base.args) == 2 and 0 in base.args):
        return None
    x = base.args[1] if base.args[0] == 0 else base.args[0]
    if not (ex.is_number and ex > 0 and (_linear_trig(x) or _linear_trig(-x))):
        return None
    k = int(sp.ceiling(ex))
    k += 1 - k % 2
    note = f"{base**ex} >= x^{k} (1 + x)/2 with x = {x} (<= 0 for x <= 0, <= x^{k} for x >= 0)"
    return x**k * (1 + x) / 2, True, note


def _factor_minorant(f: sp.Expr) -> tuple | None:
    """(q, signed, note): q <= f with q a trigonometric polynomial, q >= 0 unless signed
    (then f >= 0), note the inequality in words (None when q = f); or None."""
    base, ex = f.as_base_exp()
    if _trig_polynomial(base) and ex.is_Integer and ex.is_even and ex > 0:
        return f, False, None  # an even power of a real trigonometric polynomial
    if isinstance(base, sp.Abs) and _linear_trig(base.args[0]) and ex.is_number and ex > 0:
        k = int(sp.ceiling(ex / 2))
        s = base.args[0]
        return s ** (2 * k), False, f"{f} >= {s ** (2 * k)} (|s| <= 1)"
    q = _max_minorant(base, ex)
    if q is not None:
        return q
    arc = arc_minorant(f)
    return None if arc is None else (arc.polynomial(), True, arc.note(f))


def _min_as_max(b: sp.Expr) -> sp.Expr:
    """Min(x, 0) written -Max(-x, 0)."""
    return b.replace(
        lambda e: isinstance(e, sp.Min) and len(e.args) == 2 and 0 in e.args,
        lambda e: -sp.Max(0, -(e.args[1] if e.args[0] == 0 else e.args[0])),
    )


def split_minorant(b: sp.Expr) -> tuple[sp.Expr, sp.Expr, list] | None:
    """(g, p, notes): b_n >= g(n) p(n) wherever g(n) >= 0, g holding no trigonometric
    function and p a trigonometric polynomial in linear sin/cos; notes: the inequalities
    used, in words.  None when b has no such form.  For ``Piecewise((v, cond), (w, True))``
    the caller must prove w >= 0 (:func:`piecewise_rest`)."""
    if isinstance(b, sp.Piecewise) and len(b.args) == 2 and b.args[1][1] is sp.true:
        (v, cond), _ = b.args
        p = _indicator_minorant(cond)
        if p is None or v.has(sp.sin, sp.cos, sp.Abs):
            return None
        return v, p, [f"1[{cond}] >= {p}"]
    g, p, notes, signed = sp.Integer(1), sp.Integer(1), [], 0
    for f in sp.Mul.make_args(_min_as_max(b)):
        if not f.has(sp.sin, sp.cos):
            g *= f
            continue
        q = _factor_minorant(f)
        if q is None:
            return None
        p, signed = p * q[0], signed + q[1]
        notes += [q[2]] if q[2] else []
    return (g, p, notes) if p != 1 and signed <= 1 else None


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


IN_2PI_Z_REASON = (
    "each frequency is r + s*pi with s rational and r real algebraic (rational, sqrt(2), ...): "
    "a multiple of 2*pi only for r = 0 and s even, since pi is transcendental"
)


def in_2pi_z(theta: sp.Expr) -> bool | None:
    r"""Whether :math:`\theta = r + s\pi` (s rational, r real algebraic) is a multiple of
    :math:`2\pi`: exactly when r = 0 and s is an even integer (:math:`r = (2k - s)\pi` with
    :math:`r \ne 0` algebraic would make :math:`\pi` algebraic); for another form of
    :math:`\theta` what sympy's assumptions prove about :math:`\theta/2\pi`, else None.

    >>> in_2pi_z(sp.pi + 1), in_2pi_z(2 * sp.pi), in_2pi_z(2 * sp.sqrt(2) + sp.pi), in_2pi_z(sp.E)
    (False, True, False, None)
    """
    theta = sp.expand(theta)
    s = theta.coeff(sp.pi)
    r = sp.expand(theta - s * sp.pi)
    if s.is_Rational and r.is_real and r.is_algebraic and r.is_zero is False:
        return False
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
