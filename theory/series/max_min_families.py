r"""Free-parameter families :math:`c(n)\,\max(x_1, \dots, x_k)` and :math:`c(n)\,\min(\dots)`
with positive exp-log arguments (``Max(n**(-p), n**(-2))``).

With :math:`x_i > 0` and :math:`c > 0`, :math:`c \max_i x_i = \max_i c x_i` and

.. math:: c x_j \le c \max_i x_i \le \sum_i c x_i ,

so :math:`\sum c \max x_i` converges iff every :math:`\sum c x_i` does.  For the minimum,
:math:`c \min_i x_i \le c x_j` gives convergence where one :math:`\sum c x_j` converges;
where none does, the arguments being exp-log (a Hardy field: :math:`x_i - x_j` keeps one
sign for large n) the minimum is eventually one of them, so the series diverges.  The
region is the intersection (max) or the union (min) of the arguments' regions, each from
the positive-family decision.

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.parameters import decide_positive
>>> p = sp.Symbol("p", positive=True)
>>> d = max_min_family(P("Max(n**(-p), n**(-2))", free_params=["p"]).subs(
...     sp.Symbol("p"), p), [p], 1, decide_positive)
>>> d.details["region"]
p > 1
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from theory.series.conditions import bool_text
from theory.series.decision import Decision
from theory.series.expressions import N
from theory.series.family_parts import exp_log, sign_for_all


def _max_min_split(b: sp.Expr) -> tuple[type, sp.Expr, tuple] | None:
    """(Max or Min, c, args) with b = c Max(args) or c Min(args); else None."""
    found = [f for f in sp.Mul.make_args(b) if isinstance(f, (sp.Max, sp.Min))]
    if len(found) != 1:
        return None
    m = found[0]
    return type(m), sp.Mul(*[f for f in sp.Mul.make_args(b) if f is not m]), m.args


def max_min_family(
    b: sp.Expr, params: list, start: int, decide_positive: Callable[..., Decision]
) -> Decision | None:
    """The family of the module doc; None where b is not of its form or an argument's
    region is not found."""
    split = _max_min_split(b)
    if split is None:
        return None
    kind, c, args = split
    parts = [sp.powsimp(c * x) for x in args]
    if not all(exp_log(x) for x in parts):
        return None
    if any(sign_for_all(x, params) != 1 for x in parts):
        return None
    regions, points, undefined, certs = [], [], False, []
    for x in parts:
        if not x.has(N):  # a positive constant: its series diverges
            regions.append(sp.false)
            certs.append(f"sum {x}: diverges (a positive constant)")
            continue
        d = decide_positive(x, params, start)
        region = d.details.get("region")
        if region is None:
            return None
        regions.append(region)
        points += d.details.get("points", [])
        undefined = undefined or d.details.get("undefined", False)
        certs.append(f"sum {x}: converges iff {bool_text(region)} ({d.certificate})")
    is_max = kind is sp.Max
    region = sp.And(*regions) if is_max else sp.Or(*regions)
    why = (
        "c x_j <= c Max(x) <= sum_i c x_i: converges iff every sum c x_i does"
        if is_max
        else "c Min(x) <= c x_j: converges where one sum c x_j does; where none does, the "
        "arguments (exp-log, a Hardy field) are eventually ordered and the minimum is one "
        "of them: diverges"
    )
    verdict = {sp.true: True, sp.false: False}.get(sp.simplify(region))
    return Decision(
        verdict,
        f"b_n = c {kind.__name__}(x_1, ...) with the terms c x_i = {parts} positive and "
        f"exp-log: {why}; " + "; ".join(certs),
        test="Max/Min family",
        details={"region": region, "points": points, "undefined": undefined},
    )
