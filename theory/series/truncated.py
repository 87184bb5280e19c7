"""The paper's truncated TRF (RPE paper App. E): ``m`` terms, B replaced by their sum.

>>> from theory.series.expressions import parse_expression as P
>>> trf_truncated(P("1/n**2"), 0.01, 1000).value     # Eq. 22 gives 61; the truncated sum is smaller
57
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp

from theory.series.decision import SeriesError, as_expr
from theory.series.expressions import N
from theory.series.results import TRF
from theory.series.rpe_library import RPE

TRUNCATE_LIMIT = 10**8  # terms of the paper's truncated procedure (800 MB of float64)


def trf_truncated(
    b_expr: str | float | sp.Basic | RPE, eps: float, m: int, start: int | None = None
) -> TRF:
    """The paper's procedure (RPE paper App. E): m terms, B replaced by their sum, and the
    first j whose partial sum is >= (1-eps) times that sum.  Not Eq. 22 when the series
    converges slowly: it can never exceed m."""
    from theory.series.rpe_library import log_b_values

    rpe = (
        b_expr
        if isinstance(b_expr, RPE)
        else RPE("x", as_expr(b_expr), start=1 if start is None else start)
    )
    st = rpe.start if start is None else start
    if not 1 <= int(m) <= TRUNCATE_LIMIT:
        raise ValueError(f"the truncated TRF takes 1 to {TRUNCATE_LIMIT} terms, got m = {m}")
    t = np.arange(int(m))
    terms = np.exp(log_b_values(RPE(rpe.name, rpe.b, start=st, head=rpe.head), t, st))
    bad = np.isnan(terms) & (t >= (0 if rpe.head is None else len(rpe.head)))
    if bad.any():  # negative terms: log b is NaN there, take b itself
        with np.errstate(all="ignore"):
            terms[bad] = np.broadcast_to(
                np.asarray(
                    sp.lambdify(N, rpe.b, modules="numpy")((st + t[bad]).astype(float)), dtype=float
                ),
                t[bad].shape,
            )
    if not np.isfinite(terms).all():
        raise SeriesError("the truncated TRF needs finite real terms")
    cs = np.cumsum(terms)
    # the FIRST j (partial sums need not be monotone when terms change sign)
    j = int(np.argmax(cs >= cs[-1] * (1 - eps))) + 1
    return TRF(
        eps,
        j,
        True,
        math.log10(j),
        definition=f"truncated (RPE paper App. E, m = {m} terms)",
        note="exact for the truncated definition only",
    )
