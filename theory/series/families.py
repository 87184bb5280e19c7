r"""Oscillating families with free parameters: :math:`F(n)\,g(n)` and :math:`(-1)^n g(n)`
with :math:`g` an exp-log function of n and the parameters.

An exp-log function lies in a Hardy field, so for every value of the parameters it is
eventually of one sign and monotone.

* :math:`F \ge 0` a continuous function of the angle :math:`n \bmod 2\pi` with mean
  :math:`\mu > 0` (``sin(n)**2``): :math:`\sum F g` converges iff :math:`\sum g` does.  If
  :math:`\sum |g| < \infty`, :math:`|F g| \le \max F\,|g|`; if not, either :math:`|g|` is
  eventually nonincreasing and Abel summation over the equidistributed angles gives
  :math:`\sum_{n \le N} F |g| = \mu G_N + o(G_N) \to \infty`
  (:mod:`theory.series.angle_means`), or it is eventually nondecreasing and
  :math:`F|g| \ge |g(n_0)| F` with :math:`\sum F = \infty`.  So ``sin(n)**2/n**p``
  converges iff p > 1.
* :math:`(-1)^n g`: converges iff :math:`g \to 0` (Leibniz, g eventually monotone; otherwise
  the terms do not tend to 0).  So ``(-1)**n/n**p`` converges iff p > 0.
"""

from __future__ import annotations

import sympy as sp

from theory.core.budget import step_budget
from theory.series.angle_means import angle_mean_bounds, angle_only, nonneg_angle
from theory.series.decision import Decision
from theory.series.expressions import N

#: positive values at which a symbolic limit is recomputed
_SAMPLES = (sp.Rational(1, 7), sp.Rational(1, 2), sp.Integer(1), sp.Rational(3, 2), sp.Integer(4))


def exp_log(e: sp.Expr) -> bool:
    """Built from n, parameters and numbers by +, *, powers, exp and log (a Hardy field)."""
    if e.is_Atom:
        return e.is_Symbol or (e.is_number and e.is_real is True)
    if isinstance(e, (sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log)):
        return all(exp_log(a) for a in e.args)
    return False


def _split(b):
    f, g = [], []
    for a in sp.Mul.make_args(b):
        (f if a.has(N) and not (a.free_symbols - {N}) and angle_only(a) else g).append(a)
    return sp.Mul(*f), sp.Mul(*g)


def family_decision(b: sp.Expr, params: list, start: int, decide_positive) -> Decision | None:
    """The decision of one sign case (parameters positive symbols) for the families of the
    module doc; None when b is not one of them."""
    if b.is_Mul and sp.Pow(-1, N) in b.args:
        return _alternating(b / sp.Pow(-1, N), params)
    f, g = _split(b)
    if f == 1 or not g.has(N) or not exp_log(g):
        return None
    try:
        lo = angle_mean_bounds(f, arcs=64)[0]
    except Exception:  # noqa: BLE001 - F not enclosed: not this family
        return None
    if not (lo > 0 and nonneg_angle(f)):
        return None
    d = decide_positive(g, params, start)
    d.certificate = (
        f"b_n = F(n) g(n) with F = {f} >= 0 of positive mean over the equidistributed angles "
        f"n mod 2 pi (>= {lo:.4g}) and g = {g} exp-log (eventually monotone): sum b_n "
        f"converges iff sum g does; for sum g: " + d.certificate
    )
    return d


def _alternating(g: sp.Expr, params: list) -> Decision | None:
    if not (g.has(N) and exp_log(g)):
        return None
    try:
        with step_budget(3.0):
            lim = sp.limit(g, N, sp.oo)
            samples = [sp.limit(g.subs({p: v for p in params}), N, sp.oo) for v in _SAMPLES]
    except Exception:  # noqa: BLE001 - no limit: unsure
        return None
    if lim.free_symbols:
        return None
    zero = lim == 0
    if any((s == 0) != zero or s.free_symbols for s in samples):
        return None
    region = sp.true if zero else sp.false
    why = (
        f"g = {g} -> 0, eventually monotone (exp-log): Leibniz's test"
        if zero
        else f"g = {g} -> {lim} != 0: the terms do not tend to 0"
    )
    return Decision(
        zero,
        f"b_n = (-1)^n g(n): {why}",
        test="alternating family",
        details={"region": region, "points": []},
    )
