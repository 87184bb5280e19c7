"""Thm 3.5 of the RPE paper: which of two convergent series has the smaller TRF as eps -> 0."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import mpmath
import sympy as sp

from theory.core.budget import run_guarded, step_budget
from theory.series.decision import as_expr
from theory.series.limits import limit_at_infinity
from theory.series.rpe_library import RPE
from theory.series.sums import DEFAULT_BUDGET, series_sum
from theory.series.trf_search import trf_table


@dataclass
class Comparison:
    """Thm 3.5: which series has the smaller TRF as eps -> 0, and why."""

    smaller: int | None  # 1, 2 or None (not decided by Thm 3.5)
    limit: str  # lim (b1_n/B1)/(b2_n/B2)
    statement: str
    sums: tuple = ()
    numeric: list = field(default_factory=list)


def _ratio_limit(e1, e2):
    with step_budget(3.0):
        ratio = sp.simplify(e1 / e2)
    return limit_at_infinity(ratio)


def compare_trf(
    b1: str | float | sp.Basic | RPE,
    b2: str | float | sp.Basic | RPE,
    start: int | None = None,
    eps_check: Sequence[float] = (1e-2, 1e-4, 1e-6),
    budget: float = DEFAULT_BUDGET,
) -> Comparison:
    """Thm 3.5 of the RPE paper on two convergent series (same start).

    The normalised term ratio rho = lim (b1_n/B1)/(b2_n/B2): rho < 1 gives
    TRF1(eps) <= TRF2(eps) for all small eps, rho > 1 the reverse, rho = 1 no conclusion.
    """
    B1 = series_sum(b1, start).value
    B2 = series_sum(b2, start).value
    e1, e2 = as_expr(b1), as_expr(b2)
    lim = run_guarded(_ratio_limit, (e1, e2), budget=budget)
    numeric = []
    if eps_check:
        t1, t2 = trf_table(b1, eps_check, start), trf_table(b2, eps_check, start)
        numeric = [
            {"eps": e, "trf1": x.as_dict()["value"], "trf2": y.as_dict()["value"]}
            for e, x, y in zip(eps_check, t1, t2)
        ]
    if lim is None:
        return Comparison(
            None,
            "unknown",
            "lim b1_n/b2_n could not be computed; Thm 3.5 not applied",
            (B1, B2),
            numeric,
        )
    rho = lim * sp.Float(B2 / B1, 30) if lim.is_finite else lim
    if rho.is_number and rho.is_finite and abs(float(rho) - 1) < 1e-15:
        smaller, rel = None, "="  # equal within the accuracy of B1, B2: no conclusion
    elif rho == sp.oo or (rho.is_number and rho > 1):
        smaller, rel = 2, ">"
    elif rho.is_number and rho < 1:
        smaller, rel = 1, "<"
    else:
        smaller, rel = None, "="
    why = (
        f"lim (b1_n/B1)/(b2_n/B2) = (B2/B1) lim b1_n/b2_n = ({mpmath.nstr(B2, 10)}/{mpmath.nstr(B1, 10)})"
        f" * {lim} = {sp.N(rho, 8) if rho.is_finite else rho} {rel} 1"
    )
    if smaller is None:
        text = why + "; Thm 3.5 does not decide"
    else:
        big = 3 - smaller
        text = (
            why
            + f"; so b{smaller}_n/B{smaller} < b{big}_n/B{big} for all large n and, by Thm 3.5, "
            f"TRF{smaller}(eps) <= TRF{big}(eps) for all small eps"
        )
    return Comparison(smaller, str(rho), text, (B1, B2), numeric)
