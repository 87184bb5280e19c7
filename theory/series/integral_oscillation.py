r"""The verdict of :math:`\sum f(n)` from :math:`\int^\infty f` when :math:`f'` is absolutely
integrable: ``sin(log(n))/n`` (diverges), ``sin(sqrt(n))/n`` (converges).

For f continuously differentiable on :math:`[X, \infty)`,
:math:`|f(n) - \int_n^{n+1} f| \le \int_n^{n+1} |f'|`, so when
:math:`\int_X^\infty |f'| < \infty` the differences
:math:`S_N - \int_X^N f` converge (Cauchy) and

.. math::
   \sum_{n \ge X} f(n) \text{ converges} \iff \lim_{N \to \infty} F(N) \text{ exists},
   \qquad F' = f.

The steps, each proved or the test gives no answer:

* f is built from x, numbers, sums, products, powers, exp, log, sin, cos, with every
  denominator and every log argument proved positive on :math:`x \ge 3` (sympy, x = 3 + y,
  y >= 0), so f is smooth there;
* :math:`|f'| \le M`, M the expanded derivative with every sin/cos factor replaced by 1 and
  every coefficient by its absolute value (each other factor proved positive), and
  :math:`\int^\infty M < \infty` from M's log-scale form (:mod:`theory.series.log_scale`:
  M/(scale function) -> K > 0 and the exponents lexicographically below the integrable
  boundary, the same criterion for integrals as for series);
* F = sympy's antiderivative of f (no unevaluated integral left, F' = f checked by
  sympy's simplification); a finite limit at
  infinity (Gruntz) gives convergence; F(s(t)) periodic in t and not constant for
  s(t) = e^t, t^2 or e^(e^t) (sympy's period; two values at different phases that differ
  by more than 1e-6 at 30 digits) gives divergence: t = s^{-1}(N) moves by steps that tend
  to 0 between consecutive integers N, so F(N) comes near both values again and again
  and has no limit (s(t) = t is not used: F = sin(2 pi x) is 0 at every integer).

>>> from theory.series.expressions import parse_expression as P
>>> integral_oscillation_test(P("sin(log(n))/n")).converges
False
>>> integral_oscillation_test(P("sin(sqrt(n))/n")).converges
True
"""

from __future__ import annotations

import mpmath
import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.decision import Decision
from theory.series.expressions import N
from theory.series.limits import limit_at_infinity
from theory.series.log_scale import NotInScale, form_region, limit_form

X = sp.Symbol("x", positive=True)
Y = sp.Symbol("y", nonnegative=True)
T = sp.Symbol("t", real=True)
BUDGET = 6.0  # seconds of CPU for the whole test
_ALLOWED = (sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log, sp.sin, sp.cos)


def _smooth_on(f: sp.Expr) -> bool:
    """f built from the allowed functions, every denominator and log argument proved > 0
    for x >= 3."""
    for node in sp.preorder_traversal(f):
        if node.is_Atom:
            if node.is_Symbol and node != X:
                return False
            continue
        if not isinstance(node, _ALLOWED):
            return False
        if isinstance(node, sp.Pow) and (node.exp.is_negative or not node.exp.is_Integer):
            if node.base.subs(X, 3 + Y).is_positive is not True:
                return False
        if isinstance(node, sp.log) and node.args[0].subs(X, 3 + Y).is_positive is not True:
            return False
    return True


def _abs_majorant(e: sp.Expr) -> sp.Expr | None:
    """M >= |e| for x >= 3: each summand with its sin/cos factors (and powers of them)
    replaced by 1, its coefficient by the absolute value, every other factor proved > 0."""
    out = sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(e)):
        c, rest = term.as_coeff_Mul()
        kept = []
        for f in sp.Mul.make_args(rest):
            base = f.base if isinstance(f, sp.Pow) and f.exp.is_Integer and f.exp > 0 else f
            if isinstance(base, (sp.sin, sp.cos)):
                continue  # |sin|, |cos| <= 1
            if f.subs(X, 3 + Y).is_positive is not True:
                return None
            kept.append(f)
        out += abs(c) * sp.Mul(*kept)
    return out


def _integrable(M: sp.Expr) -> bool:
    """int^oo M < oo from M's log-scale form (M > 0 eventually)."""
    if M == 0:
        return True
    try:
        form, _ = limit_form(M.subs(X, N))
    except (NotInScale, TypeError, ValueError, NotImplementedError):
        return False
    return form_region(form) is sp.true


def _oscillates(F: sp.Expr) -> str | None:
    """A substitution x = s(t) (s^-1 with steps -> 0 between integers) under which F is
    periodic in t and not constant, or None."""
    for name, s in (("e^t", sp.exp(T)), ("t^2", T**2), ("e^(e^t)", sp.exp(sp.exp(T)))):
        G = sp.simplify(F.subs(X, s))
        period = sp.periodicity(G, T)
        if period is None or period == 0 or not period.is_positive:
            continue
        g = sp.lambdify(T, G, modules="mpmath")
        with mpmath.workdps(30):
            vals = [g(mpmath.mpf(k) / 7 * float(period)) for k in range(7)]
        if all(isinstance(v, mpmath.mpf) for v in vals) and max(vals) - min(vals) > 1e-6:
            return f"F(x) at x = {name} is periodic in t (period {period}) and not constant"
    return None


def integral_oscillation_test(b: sp.Expr) -> Decision | None:
    """The verdict of sum b_n by the integral of b (module doc), or None."""
    if not b.has(sp.sin, sp.cos) or b.free_symbols - {N}:
        return None
    f = b.subs(N, X)
    try:
        with step_budget(BUDGET):
            if not _smooth_on(f):
                return None
            M = _abs_majorant(sp.diff(f, X))
            if M is None or not _integrable(M):
                return None
            F = sp.integrate(f, X)
            if F.has(sp.Integral) or sp.simplify(sp.diff(F, X) - f) != 0:
                return None  # no antiderivative, or one whose derivative is not proved f
            limit = limit_at_infinity(F.subs(X, N))
            if limit is not None and limit.is_number and limit.is_finite and limit.is_real:
                return _verdict(True, f"F(x) -> {limit}", f, M, F)
            why = _oscillates(F)
            if why is not None:
                return _verdict(False, why + ": no limit", f, M, F)
    except (StepTimeout, TypeError, ValueError, NotImplementedError, ZeroDivisionError):
        return None
    return None


def _verdict(converges: bool, how: str, f: sp.Expr, M: sp.Expr, F: sp.Expr) -> Decision:
    return Decision(
        converges,
        f"integral test with an integrable derivative: f(x) = {f} is smooth on x >= 3 and "
        f"|f'| <= {M}, integrable, so sum f(n) converges iff F = int f = {F} has a limit; "
        f"{how}, so the series " + ("converges" if converges else "diverges"),
        test="integral of f, f' integrable",
    )
