r"""Positive terms with a small sine in the denominator: :math:`b_n = g(n)\,|T(qn + c)|^{-s}`,
T = sin or cos, q a nonzero rational, c a rational multiple of :math:`\pi`, s > 0
(``1/(n**8*Abs(sin(n)))``, ``1/(n**9*cos(n)**2)`` with s = 2).

The sine is small only where :math:`qn + c` is near :math:`\pi\mathbb{Z}` (for cos, near
:math:`\pi/2 + \pi\mathbb{Z}`, the same with c + :math:`\pi/2`).  With :math:`c = (u/v)\pi`
and w the integer nearest to :math:`v(qn + c)/\pi - u`, the distance is
:math:`|qn - (w/v)\pi| = (|w|/v)\,|qnv/w - \pi|`, a rational approximation of :math:`\pi`
with denominator :math:`\ll |w| \ll n`; the irrationality measure :math:`\mu` of
:math:`\pi` (:data:`theory.series.beatty_signs.MEASURES`: :math:`|\pi - p/r| > r^{-\mu -
\epsilon}` for r large) gives a distance :math:`\gg n^{1 - \mu - \epsilon}` (w = 0 gives
:math:`|qn| \ge |q|`), and :math:`|\sin x| \ge (2/\pi)\,\mathrm{dist}(x, \pi\mathbb{Z})`, so

.. math:: b_n \le C\, g(n)\, n^{s(\mu - 1 + \epsilon)} \qquad (n \text{ large}),

and the series converges where :math:`\sum g(n)\, n^{s(\mu - 1) + \epsilon'}` does (decided
with :math:`\epsilon'` = :data:`theory.series.beatty_signs.EPSILON`).  Only convergence is
claimed: where the known :math:`\mu` does not reach, the question is open (the
Flint Hills series :math:`\sum 1/(n^3 \sin^2 n)` among them), and no verdict is given.

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.numeric import decide_numeric
>>> small_sine_test(P("1/(n**8*Abs(sin(n)))"), decide_numeric).converges
True
>>> small_sine_test(P("1/(n**3*sin(n)**2)"), decide_numeric) is None   # Flint Hills: open
True

The other side: a sine small in an exponent, :math:`b_n = A(n)\,e^{-E(n)\,|T(qn + c)|^s}`
with :math:`E \ge 0`, q a nonzero rational, c real, s > 0.  For every real
:math:`\gamma` and irrational :math:`\alpha` (here :math:`q/\pi`) there are infinitely
many n with :math:`\|n\alpha - \gamma\| \le 3/n` (the inhomogeneous lemma of
:mod:`theory.series.near_angle`), so :math:`|T(qn + c)| \le 3\pi/n` infinitely often and
there :math:`b_n \ge A(n)\,e^{-E(n) (3\pi/n)^s}`: where :math:`E(n)/n^s` has a finite limit and
A(n) does not tend to 0, the terms do not tend to 0 (``exp(-n*Abs(sin(n)))``).

>>> small_sine_test(P("exp(-n*Abs(sin(n)))"), decide_numeric).converges
False
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from theory.series.beatty_signs import EPSILON, PI_MEASURE
from theory.series.decision import Decision, proved_convergent
from theory.series.expressions import N
from theory.series.limits import eventual_sign, limit_at_infinity, smooth


def small_sine_parts(b: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr] | None:
    """(g, T, s) with b = g |T|^(-s), T = sin(q n + c) or cos(q n + c) (q a nonzero rational,
    c a rational multiple of pi), s > 0 a number, g free of sin and cos; else None.

    >>> from theory.series.expressions import parse_expression as P
    >>> small_sine_parts(P("1/(n**9*cos(2*n/3)**2)"))
    (n**(-9), cos(2*n/3), 2)
    """
    g, found = sp.Integer(1), None
    for f in sp.Mul.make_args(b):
        if not f.has(sp.sin, sp.cos):
            g *= f
            continue
        if found is not None or not isinstance(f, sp.Pow):
            return None
        base, e = f.args
        if isinstance(base, sp.Abs):
            base = base.args[0]
        elif not (e.is_integer and e.is_even):
            return None
        if not (isinstance(base, (sp.sin, sp.cos)) and e.is_number and e.is_negative):
            return None
        found = (base, -e)
    if found is None or g.has(sp.sin, sp.cos) or not g.has(N):
        return None
    T, s = found
    arg = sp.expand(T.args[0])
    q, c = arg.coeff(N, 1), arg.coeff(N, 0)
    if sp.expand(q * N + c - arg) != 0 or not (q.is_Rational and q != 0):
        return None
    if not sp.cancel(c / sp.pi).is_Rational:
        return None
    return g, T, s


def _exponent_parts(b: sp.Expr) -> tuple | None:
    """(A, E, T, s) with b = A exp(-E |T|^s), T = sin or cos of q n + c (q a nonzero
    rational, c real), s > 0 a number, A and E free of sin and cos; else None."""
    exps = [f for f in sp.Mul.make_args(b) if isinstance(f, sp.exp) and f.has(sp.sin, sp.cos)]
    if len(exps) != 1:
        return None
    A = sp.Mul(*[f for f in sp.Mul.make_args(b) if f is not exps[0]])
    powers = [f for f in sp.Mul.make_args(-exps[0].args[0]) if f.has(sp.sin, sp.cos)]
    if len(powers) != 1 or A.has(sp.sin, sp.cos):
        return None
    base, s = powers[0].as_base_exp()
    E = sp.Mul(*[f for f in sp.Mul.make_args(-exps[0].args[0]) if f is not powers[0]])
    if isinstance(base, sp.Abs):
        base = base.args[0]
    elif not (s.is_integer and s.is_even):
        return None
    if not isinstance(base, (sp.sin, sp.cos)) or not (s.is_number and s.is_positive):
        return None
    arg = sp.expand(base.args[0])
    q, c = arg.coeff(N, 1), arg.coeff(N, 0)
    if sp.expand(q * N + c - arg) != 0 or not (q.is_Rational and q != 0) or not c.is_real:
        return None
    return A, E, base, s


def _small_in_exponent(b: sp.Expr) -> Decision | None:
    """The divergence of the module doc's second part; None where it does not apply."""
    parts = _exponent_parts(b)
    if parts is None:
        return None
    A, E, T, s = parts
    if eventual_sign(E) != 1 or not smooth(A) or not smooth(E):
        return None
    ratio, low = limit_at_infinity(E / N**s), limit_at_infinity(A)
    if ratio is None or not ratio.is_number or ratio in (sp.oo, -sp.oo):
        return None
    if low is None or not (low == sp.oo or (low.is_number and low > 0)):
        return None
    return Decision(
        False,
        f"terms do not tend to 0: b_n = A(n) exp(-E(n) |{T}|^{s}) with A = {A} -> {low} "
        f"and E = {E}, E/n^{s} -> {ratio}: the angle comes within 3 pi/n of a zero of "
        f"{T.func.__name__} for infinitely many n (inhomogeneous Dirichlet approximation, "
        "the slope over pi irrational), and there E(n) |T|^s stays bounded, so b_n >= c > 0",
        test="terms not -> 0",
    )


def small_sine_test(b: sp.Expr, decide: Callable[[sp.Expr], Decision]) -> Decision | None:
    """Convergence of g(n) |T(q n + c)|^(-s), g of one sign for large n, or divergence of
    A(n) exp(-E(n) |T(q n + c)|^s) (module doc); None where the term is of neither form or
    the measure of pi does not reach."""
    d = _small_in_exponent(b)
    if d is not None:
        return d
    parts = small_sine_parts(b)
    if parts is None or not smooth(parts[0]):
        return None
    g, T, s = parts
    sign = eventual_sign(g)
    if sign not in (1, -1):
        return None
    g = sign * g  # b of one sign: -b when g < 0
    mu, why = PI_MEASURE
    exponent = s * (mu - 1) + EPSILON
    d = proved_convergent(decide, sp.powsimp(g * N**exponent))
    if d is None:
        return None
    return Decision(
        True,
        f"a small sine in the denominator: b_n = {'' if sign > 0 else '-'}g(n) |{T}|^(-{s}), "
        f"g = {g} > 0 for large n; the argument "
        "is near the zeros only at rational approximations of pi with denominator O(n), so "
        f"by the irrationality measure of pi, mu <= {mu} ({why}), |{T}| >= C "
        f"n^(1 - mu - eps) and b_n <= C g(n) n^({s} (mu - 1 + eps)); sum g(n) "
        f"n^{exponent} converges ({d.certificate}), so the series converges (comparison)",
        test="small sines",
    )
