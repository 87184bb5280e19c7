r"""Terms b_n = g(n) Max(a_1, ..., a_k) or g(n) Min(a_1, ..., a_k), g >= 0, decided through
their arguments (comparison test).

* Max: :math:`g a_i \le b_n` for every i, so when one :math:`\sum g a_i` with
  :math:`a_i \ge 0` diverges, so does the series (``Max(sin(n)**2, 1/n)/n >= sin(n)**2/n``);
  when every :math:`a_i \ge 0` and every :math:`\sum g a_i` converges, so does the series,
  since :math:`0 \le b_n \le g \sum_i a_i`.
* Min with every :math:`a_i \ge 0`: :math:`0 \le b_n \le g a_i` for every i, so one
  convergent :math:`\sum g a_i` makes the series converge (``Min(sin(n)**2, 1/n)/n <= 1/n^2``);
  with every :math:`a_i \le M` too (large n), :math:`\min_i a_i \ge \prod_i a_i / M^{k-1}`
  (the smallest times the others, each at most M), so a divergent
  :math:`\sum g \prod_i a_i` makes it diverge (``Min(Abs(cos(n)), 1/n) >= |cos n|/n``).

Nonnegativity is proved from the structure alone (sympy's sign rules with n > 0, or
:func:`theory.series.arc_minorants.nonneg_where_defined`: squares, Abs, exp of a real, ...).
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from theory.series.arc_minorants import nonneg_where_defined
from theory.series.bounds import bounds_or_none
from theory.series.decision import Decision, Undecided
from theory.series.expressions import N
from theory.series.limits import limit_at_infinity


def _nonneg(e: sp.Expr) -> bool:
    return e.is_nonnegative is True or nonneg_where_defined(e)


def _split(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(g, M): b = g M with M the one Max/Min factor of b and g free of Max and Min."""
    factors = sp.Mul.make_args(b)
    mm = [f for f in factors if isinstance(f, (sp.Max, sp.Min))]
    if len(mm) != 1:
        return None
    g = sp.Mul(*[f for f in factors if f is not mm[0]])
    if g.has(sp.Max, sp.Min) or not _nonneg(g):
        return None
    return g, mm[0]


def _common_bound(args: list[sp.Expr]) -> int | None:
    """An integer M >= 1 with a <= M for every argument a and all large n (the limit of
    a's upper bound, :func:`theory.series.bounds.bounds_or_none`, plus 1), or None."""
    top = 1
    for a in args:
        hi = bounds_or_none(a)[1] if a.has(N) else a
        lim = limit_at_infinity(hi) if hi is not None and hi.has(N) else hi
        if lim is None or not (lim.is_number and lim.is_finite):
            return None
        top = max(top, int(sp.floor(lim)) + 1)
    return top


def max_min_bound_test(b: sp.Expr, decide: Callable[[sp.Expr], Decision]) -> Decision | None:
    """The verdict of b = g Max(...) or g Min(...) from the series g a_i (module doc)."""
    if not b.has(sp.Max, sp.Min):
        return None
    split = _split(b)
    if split is None:
        return None
    g, m = split
    args = list(m.args)
    nonneg = [_nonneg(a) for a in args]

    def verdict(a: sp.Expr) -> Decision | None:
        try:
            d = decide(sp.expand(g * a))
        except Undecided:
            return None
        return d if d and d.converges is not None else None

    found = {}
    for a, ok in zip(args, nonneg, strict=True):
        if not ok:
            continue
        d = found[a] = verdict(a)
        if d is None:
            continue
        if isinstance(m, sp.Max) and d.converges is False:
            return Decision(
                False,
                f"comparison with a minorant: 0 <= {g * a} <= b_n (Max(...) >= {a} >= 0), "
                f"and sum {g * a} diverges: {d.certificate}",
                test="Max/Min arguments",
            )
        if isinstance(m, sp.Min) and all(nonneg) and d.converges:
            return Decision(
                True,
                f"comparison with a majorant: 0 <= b_n <= {g * a} (every argument of Min is "
                f">= 0), and sum {g * a} converges: {d.certificate}",
                test="Max/Min arguments",
            )
    if isinstance(m, sp.Min) and all(nonneg):
        top = _common_bound(args)
        prod = sp.Mul(*args)
        d = verdict(prod) if top is not None else None
        if d is not None and d.converges is False:
            k = len(args) - 1
            div = f"{top}" if k == 1 else f"{top}^{k}"
            return Decision(
                False,
                f"comparison with a minorant: every argument of Min lies in [0, {top}] for "
                f"large n, so Min(...) >= (their product)/{div} and b_n >= "
                f"({g * prod})/{div} >= 0, and sum {g * prod} diverges: {d.certificate}",
                test="Max/Min arguments",
            )
    if isinstance(m, sp.Max) and all(nonneg):
        ds = [found.get(a) or verdict(a) for a in args]
        if all(d is not None and d.converges for d in ds):
            return Decision(
                True,
                f"comparison with a majorant: 0 <= b_n <= {g} ({' + '.join(map(str, args))}) "
                "(every argument of Max is >= 0), and each of its series converges: "
                + "; ".join(d.certificate for d in ds),
                test="Max/Min arguments",
            )
    return None
