"""The certified brackets of ``python -m theory.trf``: B and TRF from a wide certified
enclosure or the integral test (:mod:`theory.series.certified_trf`), and product-defined
terms (:mod:`theory.series.product_terms`), each in a guarded child under the time left."""

from __future__ import annotations

from collections.abc import Callable

import mpmath

from theory.core.budget import BudgetExceeded, run_guarded
from theory.series.arb_eval import NotCertified
from theory.series.certified_trf import WideResult, wide_analysis
from theory.series.decision import SeriesError
from theory.series.expressions import ExpressionError
from theory.series.product_terms import has_product, product_analysis
from theory.series.rpe_library import RPE


def check_product_options(rpe: RPE, free: bool, other: bool) -> None:
    """A product without a real closed form takes no free parameters and none of the
    options ``other`` stands for (--truncate, --compare, --plot): one named error."""
    if has_product(rpe.b) and (free or other):
        raise ExpressionError(
            "a product without a real closed form takes no free parameters, --truncate, "
            "--compare or --plot"
        )


def product_result(rpe: RPE, eps: list, budget: float, wall: float) -> WideResult | str:
    """B and TRF brackets of a product-defined term, or why there are none."""
    try:
        return run_guarded(product_analysis, (rpe.b, rpe.start, eps), budget=budget, wall=wall)
    except (SeriesError, BudgetExceeded, NotCertified, ArithmeticError, ValueError) as exc:
        return (str(exc).splitlines() or [""])[0]


def wide_result(
    rpe: RPE, eps: list, budget: float, wall: float, integral_only: bool = False
) -> WideResult | None:
    """B as a certified bracket wider than the precision goal, or by the integral test, with
    certified TRF brackets; None where none is proved (or the series has given values)."""
    if rpe.head is not None:
        return None
    try:
        return run_guarded(
            wide_analysis, (rpe.b, rpe.start, eps, integral_only), budget=budget, wall=wall
        )
    except KeyboardInterrupt:
        raise
    except Exception:  # noqa: BLE001 - nothing certified then; the partial information follows
        return None


def stand_in_brackets(
    rpe: RPE, eps: list, known: list | None, search: bool, budget: float, wall: float
) -> list | None:
    """Certified TRF brackets in place of a table that was not found: ``known`` (computed
    beside B), else (``search``) those of :func:`wide_result`; None where no entry gives a
    value or a bound."""
    brackets = known
    if brackets is None and search:
        wide = wide_result(rpe, eps, budget, wall)
        brackets = None if wide is None else wide.trf
    keys = ("value", "lower_bound", "upper_bound", "log10_bracket", "log10_log10_bracket")
    if brackets and any(t.get(k) is not None for t in brackets for k in keys):
        return brackets
    return None


#: integer brackets up to here are printed as integers, past it as their log10 bracket
READABLE = 10**18


def bracket_text(t: dict, outward: Callable[..., str]) -> str | None:
    """A TRF entry's certified bracket as printed (``10^[lo, hi]`` for log10 brackets,
    ``10^10^[lo, hi]`` for log10 log10 brackets (TRF beyond e^(1e300)),
    ``in [lo, hi]`` for an integer bracket without a value, which comes first below
    :data:`READABLE` or without a log10 bracket beside it), else None
    (an exact TRF included: its value is printed); ``outward(x, d,
    digits)`` rounds an end away from the inside."""
    if t.get("exact"):
        return None
    ints = t["value"] is None and t.get("lower_bound") is not None and t.get("upper_bound")
    if ints and (t["upper_bound"] < READABLE or not t.get("log10_bracket")):
        return f"in [{t['lower_bound']}, {t['upper_bound']}]"
    if t.get("log10_log10_bracket"):
        lo, hi = t["log10_log10_bracket"]
        low = "?" if lo is None else outward(mpmath.mpf(lo), -1, 12)
        return f"10^10^[{low}, {outward(mpmath.mpf(hi), +1, 12)}]"
    if t.get("log10_bracket"):
        lo, hi = t["log10_bracket"]
        low = "?" if lo is None else outward(mpmath.mpf(lo), -1, 12)
        return f"10^[{low}, {outward(mpmath.mpf(hi), +1, 12)}]"
    return None
