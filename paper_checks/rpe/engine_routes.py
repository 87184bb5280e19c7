"""The paper's symbols and the project's convergence engine as a second route for the RPE
checks: its verdict on a series and its Thm 3.5 comparison (never raising), and floats
made JSON-friendly.
"""

from __future__ import annotations

import mpmath as mp
import sympy as sp

from theory.core.budget import BudgetExceeded
from theory.series.comparison import compare_trf
from theory.series.convergence import decide
from theory.series.decision import SeriesError
from theory.series.expressions import ExpressionError, parse_expression

P = "rpe"
t, n, j, i = sp.symbols("t n j i", positive=True)
k, r, d, l, eps, C = sp.symbols("k r d l epsilon C", positive=True)


def json_float(x: object, digits: int = 6) -> float | str:
    """A JSON-friendly float (or string for huge/tiny mpf)."""
    x = mp.mpf(x)
    return float(x) if mp.mpf("1e-300") < abs(x) < mp.mpf("1e300") or x == 0 else mp.nstr(x, digits)


def engine_verdict(text: str, start: int) -> dict:
    """The project's convergence engine's verdict (a second, independent route), or a
    note when it refuses the series; never raises."""
    try:
        res = decide(parse_expression(text, free_params=True), start=start)
        return {
            "series": text,
            "start": start,
            "converges": res.converges,
            "certificate": res.certificate,
            "condition": getattr(res, "condition", None),
        }
    except (SeriesError, ExpressionError, BudgetExceeded) as exc:  # refused: recorded
        return {"series": text, "start": start, "error": f"{type(exc).__name__}: {exc}"}


def engine_comparison(text1: str, text2: str, start: int) -> dict:
    """The engine's Thm 3.5 comparison (which TRF is smaller as eps -> 0), or a note."""
    try:
        res = compare_trf(
            parse_expression(text1), parse_expression(text2), start=start, eps_check=()
        )
        return {
            "series": [text1, text2],
            "start": start,
            "smaller": res.smaller,
            "statement": res.statement,
        }
    except (SeriesError, ExpressionError, BudgetExceeded) as exc:  # refused: recorded
        return {"series": [text1, text2], "error": f"{type(exc).__name__}: {exc}"}
