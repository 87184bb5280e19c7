"""Bounds free of oscillation for terms that oscillate or are not smooth.

:func:`bounds_or_none` gives expressions ``lo <= b_n <= hi`` valid for all large n: cos and
sin lie in [-1, 1], floor(x) in (x - 1, x], Min/Max and Piecewise are replaced by the
argument or branch that holds for large n (or enveloped by the bounds of all of them),
exp(x) lies in (0, 1] for x <= 0.  When lo == hi the terms are known exactly (for example
an eventually constant T5 bucket); the comparison tests then use lo and hi as minorant and
majorant.
"""

from __future__ import annotations

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.arc_minorants import nonneg_where_defined
from theory.series.decision import Undecided
from theory.series.expressions import N, integer_valued
from theory.series.limits import (
    eventual_sign,
    eventually_nonneg,
    eventually_positive,
    limit_at_infinity,
    smooth,
)


def bounds_or_none(b: sp.Expr) -> tuple[sp.Expr | None, sp.Expr | None, str]:
    try:
        with step_budget(3.0):
            lo, hi = _bounds(b)
    except (Undecided, StepTimeout):
        return None, None, ""
    if lo == hi:
        how = "exact" if lo == b else f"b_n = {lo} for all large n"
    else:
        how = (
            "cos, sin are in [-1, 1], floor(x) in (x-1, x], Max/Min between the Max/Min of "
            "the bounds of their arguments, exp(x) in (0, 1] for x <= 0"
        )
    return lo, hi, how


def _bounds(e):
    """(lo, hi): expressions with lo <= e <= hi for all large n, free of oscillation."""
    if not e.has(N) or smooth(e):
        return e, e
    if isinstance(e, (sp.cos, sp.sin)):
        return sp.Integer(-1), sp.Integer(1)
    if isinstance(e, sp.floor):
        lo, hi = _bounds(e.args[0])
        return lo - 1, hi
    if isinstance(e, sp.ceiling):
        lo, hi = _bounds(e.args[0])
        return lo, hi + 1
    if isinstance(e, sp.Piecewise):
        try:
            return _bounds(_eventual_branch(e))
        except Undecided:
            return _branch_envelope(e)
    if isinstance(e, (sp.Min, sp.Max)):
        try:
            return _bounds(_eventual_extreme(e))
        except Undecided:
            return _extreme_envelope(e)
    if isinstance(e, sp.Abs):
        lo, hi = _bounds(e.args[0])
        if eventually_nonneg(lo):
            return lo, hi
        if eventually_nonneg(-hi):
            return -hi, -lo
        return sp.Integer(0), sp.Abs(lo) + sp.Abs(hi)
    if isinstance(e, sp.Add):
        parts = [_bounds(a) for a in e.args]
        return sp.Add(*[p[0] for p in parts]), sp.Add(*[p[1] for p in parts])
    if isinstance(e, sp.Mul):
        return _mul_bounds(e)
    if isinstance(e, sp.exp):
        try:
            lo, hi = _bounds(e.args[0])
        except Undecided:
            if nonneg_where_defined(-e.args[0]):  # exp(-1/Abs(sin(n))) lies in (0, 1]
                return sp.Integer(0), sp.Integer(1)
            raise
        return sp.exp(lo), sp.exp(hi)
    if isinstance(e, sp.log):
        lo, hi = _bounds(e.args[0])
        if eventually_positive(lo):
            return sp.log(lo), sp.log(hi)
        raise Undecided(f"cannot bound {e}")
    if isinstance(e, sp.Pow):
        return _pow_bounds(e)
    raise Undecided(f"cannot bound {e}")


def _mul_bounds(e):
    coeff, factors = e.as_coeff_mul()
    exact, loose = [], []
    for f in factors:
        if isinstance(f, sp.Pow) and f.base == -1 and f.exp.has(N) and integer_valued(f.exp):
            loose.append((sp.Integer(-1), sp.Integer(1)))  # (-1)**n: a sign of no known order
            continue
        lo, hi = _bounds(f)
        (exact if lo == hi else loose).append((lo, hi))
    scale = coeff * sp.Mul(*[p[0] for p in exact])
    if not loose:
        return scale, scale  # e.g. Min(n, 128) is replaced by its eventual value
    if len(loose) == 1:
        lo, hi = loose[0]
    elif all(eventually_nonneg(p[0]) for p in loose):
        lo, hi = sp.Mul(*[p[0] for p in loose]), sp.Mul(*[p[1] for p in loose])
    elif all(eventually_nonneg(p[0]) or (p[0] == -1 and p[1] == 1) for p in loose):
        # signs (-1)**floor(pi*n), cos(n) times factors >= 0: |product| <= product of the hi
        hi = sp.Mul(*[p[1] for p in loose])
        lo = -hi
    else:
        raise Undecided(f"cannot bound the product {e}")
    if eventually_nonneg(scale):
        return scale * lo, scale * hi
    if eventually_nonneg(-scale):
        return scale * hi, scale * lo
    raise Undecided(f"unknown sign of {scale}")


def _pow_bounds(e):
    base, ex = e.args
    if not ex.has(N):
        lo, hi = _bounds(base)
        if ex.is_integer and ex.is_even and ex.is_positive:
            if eventually_nonneg(lo):
                return lo**ex, hi**ex
            m = (
                sp.Max(sp.Abs(lo), sp.Abs(hi))
                if lo.is_number and hi.is_number
                else sp.Abs(lo) + sp.Abs(hi)
            )
            if m.is_number and ex > 64 and not (m - 1).is_nonpositive:
                raise Undecided(f"bound of {e} too large")
            return sp.Integer(0), m**ex
        if ex.is_positive and eventually_nonneg(lo):
            return lo**ex, hi**ex
        if ex.is_negative and eventually_positive(lo):
            return hi**ex, lo**ex
        if ex.is_integer and ex.is_negative and eventually_positive(-hi):
            # lo <= base <= hi < 0: |base| in [-hi, -lo], |base|^ex in [(-lo)^ex, (-hi)^ex]
            if ex.is_even:
                return (-lo) ** ex, (-hi) ** ex
            return -((-hi) ** ex), -((-lo) ** ex)
        raise Undecided(f"cannot bound {e}")
    if base == -1 and integer_valued(ex):
        return sp.Integer(-1), sp.Integer(1)  # (-1)**floor(sqrt(2)*n): a sign
    if not base.has(N) and base.is_positive:
        lo, hi = _bounds(ex)
        if (base - 1).is_nonnegative:
            return base**lo, base**hi
        return base**hi, base**lo
    return _bounds(sp.exp(ex * sp.log(base)))


def _extreme_envelope(e):
    """Min/Max of arguments whose order keeps changing (Max(sin(n), 0)): the Min/Max of
    their bounds, used only where sympy evaluates it (numbers: Max(-1, 0) = 0)."""
    pairs = [_bounds(a) for a in e.args]
    lo, hi = e.func(*[p[0] for p in pairs]), e.func(*[p[1] for p in pairs])
    if lo.has(sp.Min, sp.Max) or hi.has(sp.Min, sp.Max):
        raise Undecided(f"cannot bound {e}")
    return lo, hi


def _branch_envelope(e: sp.Piecewise):
    """(lo, hi) over every branch that may hold for large n (e.g. conditions on cos(n)):
    the eventually smallest lower bound and the eventually largest upper bound."""
    bounds = []
    for val, cond in e.args:
        truth = _eventual_truth(cond)
        if truth is False:
            continue
        bounds.append(_bounds(val))
        if truth is True:
            break
    lo, hi = bounds[0]
    for l2, h2 in bounds[1:]:
        o_lo = 0 if lo == l2 else _eventual_order(lo, l2)
        o_hi = 0 if hi == h2 else _eventual_order(hi, h2)
        if o_lo is None or o_hi is None:
            raise Undecided(f"cannot order the branches of {e} for large n")
        lo, hi = (l2 if o_lo > 0 else lo), (h2 if o_hi < 0 else hi)
    return lo, hi


def _eventual_branch(e: sp.Piecewise):
    for val, cond in e.args:
        truth = _eventual_truth(cond)
        if truth is True:
            return val
        if truth is None:
            raise Undecided(f"cannot tell which branch of {e} holds for large n")
    raise Undecided(f"no branch of {e} holds for large n")


def _eventual_truth(cond):
    if cond is sp.true:
        return True
    if cond is sp.false:
        return False
    if isinstance(cond, sp.core.relational.Relational):
        d = cond.lhs - cond.rhs
        if not smooth(d):
            return None
        lim = limit_at_infinity(d)
        if lim is None or lim == 0 or not lim.is_number:
            return None
        positive = bool(lim > 0)
        if isinstance(cond, (sp.StrictGreaterThan, sp.GreaterThan)):
            return positive
        if isinstance(cond, (sp.StrictLessThan, sp.LessThan)):
            return not positive
    return None


def _eventual_order(a: sp.Expr, b: sp.Expr) -> int | None:
    """+1 if a > b for all large n, -1 if a < b, else None (bounds for non-smooth parts:
    floor(n/8) > 15 eventually because its lower bound n/8 - 1 exceeds 15)."""
    if smooth(a) and smooth(b):
        return eventual_sign(a - b)
    (alo, ahi), (blo, bhi) = _bounds(a), _bounds(b)
    if eventual_sign(alo - bhi) == 1:
        return 1
    if eventual_sign(blo - ahi) == 1:
        return -1
    return None


def _eventual_extreme(e):
    args = list(e.args)
    best = args[0]
    for a in args[1:]:
        sgn = _eventual_order(a, best)
        if sgn not in (1, -1):
            raise Undecided(f"cannot order the arguments of {e}")
        if (sgn > 0) == isinstance(e, sp.Max):
            best = a
    return best
