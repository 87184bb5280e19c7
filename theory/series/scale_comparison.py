r"""Limit comparison with the scale function that Gruntz's limits find for a smooth term.

For a smooth term without parameters whose cancellation hides its size from interval
bounds (``exp(exp(-n)) - 1``, ``pi/2 - atan(n)``, ``1 - tanh(n)``, ``sqrt(n**4 + 1) - n**2``),
the exponents of the log-scale form

.. math::  M_n = e^{\sigma n \log n}\, e^{\gamma n}\, n^{e_0} (\log n)^{e_1} \cdots

are read off by limits (:func:`theory.series.log_scale.limit_form`), and the form is proved
by the last one, :math:`s\,b_n / M_n \to K \in (0, \infty)` with s = 1 or -1.  Then
:math:`s\,b_n > 0` for large n and, by the limit comparison test, :math:`\sum b_n`
converges iff :math:`\sum M_n` does, which the exact lexicographic rule of
:mod:`theory.series.log_scale` decides: :math:`(\sigma, \gamma, e_0 + 1, e_1 + 1, \dots)
<_{lex} 0`.

>>> from theory.series.expressions import parse_expression as P
>>> scale_comparison_test(P("exp(exp(-n)) - 1")).converges        # ~ e^(-n)
True
>>> scale_comparison_test(P("pi/2 - atan(n)")).converges           # ~ 1/n
False
"""

from __future__ import annotations

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.decision import Decision
from theory.series.expressions import N
from theory.series.limits import smooth
from theory.series.log_scale import NotInScale, form_region, limit_form, scale_text

#: CPU seconds for the limits of one sign
BUDGET = 3.0


def scale_comparison_test(b: sp.Expr) -> Decision | None:
    """The verdict of sum b_n by limit comparison with its log-scale form (module doc), or
    None where b has parameters, is not smooth, or no form is proved for b or -b."""
    if not b.has(N) or b.free_symbols - {N} or not smooth(b):
        return None
    for s in (1, -1):
        try:
            with step_budget(BUDGET):
                form, k = limit_form(s * b)
                region = form_region(form)
        except (NotInScale, StepTimeout, TypeError, ValueError, NotImplementedError):
            continue
        if region not in (sp.true, sp.false):
            return None
        sign = "b_n" if s > 0 else "-b_n"
        return Decision(
            region is sp.true,
            f"limit comparison: {sign} / M_n -> {k} > 0 (Gruntz), M_n = {scale_text(form)}, "
            f"so {sign} > 0 for large n and sum b_n converges iff sum M_n does: "
            + ("it converges" if region is sp.true else "it diverges")
            + " by the exponents (sigma, gamma, e_0 + 1, e_1 + 1, ...) = "
            + str(form.vector(max(len(form.exps), 1))[:2] + tuple(e + 1 for e in form.exps))
            + (" < 0" if region is sp.true else " >= 0")
            + " lexicographically (root test, Bertrand)",
            test="limit comparison",
        )
    return None
