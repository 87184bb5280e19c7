r"""Functions analytic on a closed disc :math:`|z| \le R`, shown by their structure, and the
maximum of their modulus on the circle, for Cauchy's estimate
:math:`|c_k| \le M_R R^{-k}` of the Taylor coefficients.

Accepted: numbers, z, sums, products, powers with natural exponents and the entire
functions exp, sin, cos, sinh, cosh of accepted expressions; ``atan(A)`` where
:math:`|A| < 1` on the circle (so on the disc: the maximum modulus principle); and
``log(A)``, ``1/A`` or ``A**p`` where :math:`\operatorname{Re} A > 0` on the circle (for a
negative integer power, :math:`\operatorname{Re} A < 0` too): Re A is harmonic, so its
minimum over the disc is on the circle, and A has neither a zero nor a point of the
branch cut inside.  The circle is covered by complex balls on 64 arcs.

>>> from theory.series.expressions import parse_expression as P
>>> R, M = analytic_disc(-sp.log(1 - 3 * Z))          # singular at z = 1/3
>>> R, bool(M < 1)
(1/8, True)
>>> analytic_on(1 / (Z - sp.Rational(1, 10)), circle_boxes(sp.Rational(1, 8)))
False
"""

from __future__ import annotations

import sympy as sp
from flint import acb, arb

from theory.series.arb_eval import NotCertified, arb_function

Z = sp.Symbol("z")
RADII = (sp.Rational(1, 2), sp.Rational(1, 8), sp.Rational(1, 64))  # R, tried in turn
ARCS = 64  # boxes covering the circle |z| = R
_ENTIRE = {sp.exp: "exp", sp.sin: "sin", sp.cos: "cos", sp.sinh: "sinh", sp.cosh: "cosh"}


def circle_boxes(R: sp.Rational) -> list[acb]:
    """Complex boxes covering the circle |z| = R: each arc of angle 2 delta lies in the box
    of half side R delta around its mid point."""
    r = arb(R.p) / R.q
    delta = arb.pi() / ARCS
    half = (r * delta).upper()
    out = []
    for j in range(ARCS):
        theta = delta * (2 * j + 1)
        out.append(acb(r * theta.cos(), r * theta.sin()) + acb(arb(0, half), arb(0, half)))
    return out


def acb_value(e: sp.Expr, z: acb) -> acb:
    """e at the complex ball z (principal branches), for e accepted by :func:`analytic_on`."""
    if e.is_number:
        return acb(arb_function(e)(arb(0)))
    if e == Z:
        return z
    if isinstance(e, sp.Add):
        return sum((acb_value(a, z) for a in e.args), acb(0))
    if isinstance(e, sp.Mul):
        out = acb(1)
        for a in e.args:
            out *= acb_value(a, z)
        return out
    if isinstance(e, sp.Pow):
        base = acb_value(e.args[0], z)
        if e.args[1].is_Integer:
            return base ** int(e.args[1])
        return (acb(arb_function(e.args[1])(arb(0))) * base.log()).exp()
    if isinstance(e, sp.log):
        return acb_value(e.args[0], z).log()
    if isinstance(e, sp.atan):
        return acb_value(e.args[0], z).atan()
    return getattr(acb_value(e.args[0], z), _ENTIRE[type(e)])()


def analytic_on(e: sp.Expr, boxes: list[acb], poles: bool = False) -> bool:
    """e analytic on the closed disc whose circle the boxes cover (module doc); with
    ``poles``, negative powers of z alone are allowed outside every function (a pole at 0
    at most: the caller checks that the Laurent series has no negative powers)."""
    if e.is_number:
        return e.is_real is True and e.is_finite is True
    if e == Z:
        return True
    if isinstance(e, (sp.Add, sp.Mul)):
        return all(analytic_on(a, boxes, poles) for a in e.args)
    if type(e) in _ENTIRE:
        return analytic_on(e.args[0], boxes)
    if isinstance(e, sp.atan):  # analytic where |A| < 1 (the cuts are |Im| >= 1)
        inner = e.args[0]
        return analytic_on(inner, boxes) and all(acb_value(inner, w).abs_upper() < 1 for w in boxes)
    if isinstance(e, sp.Pow) and e.args[1].is_Integer and e.args[1] >= 0:
        return analytic_on(e.args[0], boxes, poles)
    if poles and isinstance(e, sp.Pow) and e.args[0] == Z and e.args[1].is_Integer:
        return True
    if isinstance(e, (sp.Pow, sp.log)):
        if isinstance(e, sp.Pow) and not (e.args[1].is_real and e.args[1].is_number):
            return False
        inner = e.args[0]
        if not analytic_on(inner, boxes):
            return False
        re = [acb_value(inner, w).real for w in boxes]
        if all(x > 0 for x in re):
            return True
        # a negative integer power: no zero of A inside is enough, and Re A < 0 says so too
        return isinstance(e, sp.Pow) and e.args[1].is_Integer and all(x < 0 for x in re)
    return False


def analytic_disc(
    F: sp.Expr, radii: tuple[sp.Rational, ...] = RADII, poles: bool = False
) -> tuple[sp.Rational, arb]:
    """(R, M_R): F analytic on |z| <= R (the first of ``radii`` where the structure shows
    it; ``poles``: see :func:`analytic_on`) and max |F| on |z| = R <= M_R;
    :class:`NotCertified` where none does."""
    for R in radii:
        boxes = circle_boxes(R)
        if not analytic_on(F, boxes, poles):
            continue
        top = arb(0)
        for w in boxes:
            v = acb_value(F, w)
            if not v.is_finite():
                raise NotCertified(f"|F| on |z| = {R} is not bounded in ball arithmetic")
            top = top.max(v.abs_upper())
        return R, top
    raise NotCertified(f"F(z) = {F} is not shown analytic on |z| <= {radii[-1]}")
