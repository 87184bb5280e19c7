r"""Telescoping terms with a free parameter: :math:`b_n = \pm(f(n+1) - f(n))`.

The partial sums are :math:`\sum_{n=s}^{N} b_n = \pm(f(N+1) - f(s))`, so the series
converges iff :math:`\lim f(n)` exists and is finite.  For f > 0 exp-log in n and one
parameter, f -> 0 on the region of :func:`theory.series.parameters.zero_limit_region`
(where :math:`\lim \log f / \log n < 0`, its boundary decided again); at each boundary value
the limit of f is computed with the value put in, and the value joins the region where it
is finite (``(n + 1)**a - n**a`` converges iff a <= 0: :math:`n^a \to 0` for a < 0 and
:math:`n^0 = 1`).

>>> from theory.series.expressions import N
>>> a = sp.Symbol("a", positive=True)
>>> telescoping_family(N ** (-a) - (N + 1) ** (-a), [a], 1).details["region"]
True
"""

from __future__ import annotations

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.conditions import bool_text
from theory.series.decision import Decision, Undecided
from theory.series.expressions import N
from theory.series.family_parts import exp_log
from theory.series.limits import limit_at_infinity
from theory.series.parameters import positive_eventually, zero_limit_region


def telescoping_family(b: sp.Expr, params: list, start: int) -> Decision | None:
    """The decision of the module doc for one sign case (the parameter a positive symbol);
    None when b is not a difference of one positive exp-log f at n + 1 and n."""
    f = _difference(b)
    if f is None or len(params) != 1 or not exp_log(f):
        return None
    p = params[0]
    whole = limit_at_infinity(f)
    if whole is not None and whole.is_finite:  # exp(a/n) -> 1 for every a > 0
        return _decision(f, sp.true, [], start, f"f -> {whole} for every value")
    try:
        region, points = zero_limit_region(f, params)
    except (Undecided, StepTimeout):
        return None
    for w in points:
        lim = limit_at_infinity(f.subs(w))
        if lim is None:
            return None
        if lim.is_finite:
            region = region | sp.Eq(p, w[p])
    why = f"f has a finite limit iff {bool_text(region)} (f -> 0 inside, the boundary decided)"
    return _decision(f, region, points, start, why)


def _decision(f, region, points, start, why) -> Decision:
    return Decision(
        None,
        f"b_n = +-(f(n + 1) - f(n)) with f = {f} > 0 exp-log: the partial sums are "
        f"+-(f(N + 1) - f({start})), so sum b_n converges iff f has a finite limit; {why}",
        test="telescoping family",
        details={"region": region, "points": points},
    )


def _difference(b: sp.Expr) -> sp.Expr | None:
    """f > 0 with b = f(n + 1) - f(n) or f(n) - f(n + 1); None otherwise."""
    terms = sp.Add.make_args(b)
    if len(terms) != 2:
        return None
    for first, second in (terms, terms[::-1]):
        f = -second  # b = f(n + 1) - f(n) with f(n + 1) = first
        try:
            with step_budget(1.0):
                same = sp.simplify(first - f.xreplace({N: N + 1})) == 0
        except StepTimeout:
            return None
        if not same:
            continue
        for g in (f, -f):
            if positive_eventually(g):
                return g
    return None
