r"""Polynomial phases: :math:`\sum g(n) \sin P(n)` and :math:`\sum g(n) \cos P(n)`, P a
polynomial of degree :math:`k \ge 2` whose leading coefficient is a nonzero rational.

With :math:`e(x) = e^{2\pi i x}`, :math:`\sin P(n) = \operatorname{Im} e(P(n)/2\pi)`; the
leading coefficient of :math:`P/2\pi` is :math:`\alpha = a_k/2\pi`, a rational multiple of
:math:`1/\pi`, so of irrationality measure :math:`\mu(\pi)` (:math:`\mu(1/x) = \mu(x)`),
at most the bound of :data:`theory.series.beatty_signs.MEASURES`, and of type
:math:`\eta = \mu - 1`.  Weyl's inequality (Vaughan, *The Hardy-Littlewood method*,
Lemma 2.4): for :math:`|\alpha - a/q| \le q^{-2}`, :math:`(a, q) = 1`, and any lower-order
coefficients,

.. math::
   \Bigl|\sum_{n \le N} e(\alpha n^k + \dots)\Bigr| \ll N^{1+\epsilon}
   \bigl(q^{-1} + N^{-1} + q N^{-k}\bigr)^{2^{1-k}} .

Taking for q the convergent denominator with :math:`q_m \le N^{k-1} < q_{m+1}`, finite type
gives :math:`q_m \gg N^{(k-1)/(\eta + \epsilon)}`, so the partial sums are
:math:`S_N = O(N^{1 - \delta_k + \epsilon})`,
:math:`\delta_k = \min(1, (k-1)/\eta)/2^{k-1}`.  Abel's summation then converges wherever
g is eventually monotone to 0 and :math:`\sum g(n)\, n^{-\delta_k + \epsilon}` converges
(as for Beatty signs, :mod:`theory.series.beatty_signs`): ``sin(n**2)/n`` converges.  Only
the verdict is given (the constants of Weyl's inequality are not computed).  Where
:math:`|g| \to c \ne 0` the terms do not tend to 0: :math:`P(n)/2\pi` is equidistributed
mod 1 (Weyl; its leading coefficient is irrational), so :math:`|\sin P(n)| \ge 1/2` for a
positive proportion of n.

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.numeric import decide_numeric
>>> weyl_sum_test(P("sin(n**2)/n"), decide_numeric).converges
True
>>> weyl_sum_test(P("cos(n**2 + n)/n**(9/10)"), decide_numeric) is None  # 0.9 < 1 - delta_2
True
>>> weyl_sum_test(P("n*sin(n**3)"), decide_numeric).converges   # equidistributed: not -> 0
False
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from theory.series.beatty_signs import EPSILON, irrationality_measure
from theory.series.decision import Decision, proved_convergent
from theory.series.expressions import N
from theory.series.limits import eventual_sign, limit_at_infinity, nonzero_constant, smooth

#: the highest degree of P taken
MAX_DEGREE = 8


def polynomial_phase(b: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Poly] | None:
    """(g, T, P) with b = g T, T = sin(P(n)) or cos(P(n)), P a polynomial in n of degree
    2 <= k <= MAX_DEGREE with a nonzero rational leading coefficient and real ones below,
    g free of sin, cos and floor (a constant included); a sign (-1)^n goes into the phase
    as pi n.  None otherwise.

    >>> from theory.series.expressions import parse_expression as P
    >>> polynomial_phase(P("3*sin(n**2/2 + n)/n"))[:2]
    (3/n, sin(n**2/2 + n))
    """
    g, trig, turn = sp.Integer(1), None, sp.Integer(0)
    for f in sp.Mul.make_args(b):
        if isinstance(f, (sp.sin, sp.cos)) and trig is None and f.args[0].has(N):
            trig = f
        elif f == sp.Pow(-1, N):  # (-1)^n sin(x) = sin(x + pi n): a lower-order term
            turn += sp.pi * N
        else:
            g *= f
    if trig is None or g.has(sp.sin, sp.cos, sp.floor) or g.has(sp.Pow(-1, N)):
        return None
    trig = trig.func(trig.args[0] + turn)
    try:
        poly = sp.Poly(sp.expand(trig.args[0]), N)
    except sp.PolynomialError:
        return None
    lead = poly.LC()
    if not 2 <= poly.degree() <= MAX_DEGREE or not (lead.is_Rational and lead != 0):
        return None
    if not all(c.is_real for c in poly.all_coeffs()):
        return None
    return g, trig, poly


def weyl_sum_test(b: sp.Expr, decide: Callable[[sp.Expr], Decision]) -> Decision | None:
    """Convergence of sum g(n) sin(P(n)) or g(n) cos(P(n)) (module doc); None where the term
    is not of this form or a condition is not proved."""
    parts = polynomial_phase(b)
    if parts is None or not smooth(parts[0]):
        return None
    g, trig, poly = parts
    k, lead = poly.degree(), poly.LC()
    measure = irrationality_measure(2 * sp.pi / lead)  # the reciprocal of alpha = a_k/(2 pi)
    if measure is None:
        return None
    mu, why = measure
    lim = limit_at_infinity(g)
    if lim is not None and lim != 0 and (lim in (sp.oo, -sp.oo) or nonzero_constant(lim)):
        return Decision(
            False,
            f"terms do not tend to 0: b_n = g(n) {trig} with g = {g} -> {lim} != 0, and "
            f"{trig} does not tend to 0: P(n)/(2 pi) is equidistributed mod 1 (Weyl: its "
            f"leading coefficient {lead}/(2 pi) is irrational), so |{trig}| >= 1/2 for a "
            "positive proportion of n",
            test="terms not -> 0",
        )
    if lim != 0 or eventual_sign(sp.diff(g, N)) not in (1, -1):
        return None
    eta = mu - 1
    delta = sp.Min(1, (k - 1) / eta) / 2 ** (k - 1)
    d = proved_convergent(decide, g * N ** (EPSILON - delta))
    if d is None:
        return None
    return Decision(
        True,
        f"Weyl sums: b_n = g(n) {trig}, the phase a polynomial of degree {k} with leading "
        f"coefficient {lead}, so sin/cos of it is Im/Re e(alpha n^{k} + ...) with "
        f"alpha = {lead}/(2 pi), whose irrationality measure is that of pi, at most {mu} "
        f"({why}): type eta <= {eta}; Weyl's inequality (Vaughan, Lemma 2.4) with q the "
        f"convergent denominator below N^{k - 1} gives partial sums O(N^(1 - delta + eps)), "
        f"delta = min(1, {k - 1}/eta)/2^{k - 1} = {delta}; g = {g} eventually monotone to "
        f"0 with sum g(n) n^(eps - delta) convergent ({d.certificate}), so Abel summation "
        "converges (conditional convergence)",
        test="Weyl sums",
    )
