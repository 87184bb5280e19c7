"""The figure of ``python -m theory.trf --plot``: TRF(eps) (Eq. 22) against eps with the
leading-order asymptotic form on the same axes, and the partial sums normalised by B; the
numbers drawn are saved beside the PNG (suffix ``.json``)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from theory.core.cli import save_figure
from theory.series.trf_search import trf_table

if TYPE_CHECKING:
    import mpmath

    from theory.series.rpe_library import RPE


def plot_trf(out: dict, rpe: RPE, B: mpmath.mpf | None, eps: list, path: Path) -> Path:
    """The PNG of --plot (and its data beside it) for the series ``rpe`` the numbers were
    computed on, whose sum is ``B`` (None when not certified)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from theory.series.rpe_library import log_b_values

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    trf = None
    if B is not None:
        B = float(B)
        grid = list(np.geomspace(0.5, min(min(eps), 1e-6), 25))
        table = trf_table(rpe, grid)
        pts = [(t.eps, float(t.value)) for t in table if t.log10 is not None and t.log10 < 300]
        trf = [[e, v] for e, v in pts]
        ax1.loglog([p[0] for p in pts], [p[1] for p in pts], "o-", label="TRF (Eq. 22)")
        asym = _asymptotic_curve(rpe, B, [p[0] for p in pts])
        if asym is not None:
            ax1.loglog(asym["eps"], asym["trf"], "--", label=f"leading order: {asym['formula']}")
            ax1.legend(fontsize=8)
        ax1.set_xlabel("eps")
        ax1.set_ylabel("TRF(eps)  (Eq. 22)")
        ax1.set_title("TRF against eps")
        if not pts:  # no TRF of the grid below 1e300 (10^10^[lo, hi]): nothing to draw
            note = "no TRF below 1e300 on this eps grid"
            ax1.text(0.5, 0.5, note, ha="center", transform=ax1.transAxes)
        m = int(min(max(10 * max((p[1] for p in pts), default=0), 100), 10**6))
        b = np.exp(log_b_values(rpe, np.arange(m), rpe.start))
        ax2.semilogx(np.arange(1, m + 1), np.cumsum(b) / B)
        ax2.set_ylabel("partial sum / B")
    else:
        m = 10**5
        b = np.exp(log_b_values(rpe, np.arange(m), rpe.start))
        ax2.semilogx(np.arange(1, m + 1), np.cumsum(b))
        ax2.set_ylabel("partial sum (series not convergent)")
    data = {
        "asymptotic": None if trf is None else asym,
        "series": out["series"],
        "start": out["start"],
        "sum": out["sum"],
        "trf_eq22": trf,
        "partial_sums_normalised_by_B": trf is not None,
        "plot": str(path),
    }
    ax2.set_xlabel("number of terms j")
    ax2.set_title("normalised partial sums")
    fig.suptitle(f"b_n = {out['series'][:60]}, start = {out['start']}")
    fig.tight_layout()
    data["partial_sums"] = _log_spaced(np.cumsum(b) / (B if trf is not None else 1.0))
    save_figure(fig, path, data=data, dpi=120)
    plt.close(fig)
    return path


def _asymptotic_curve(rpe, B: float, eps: list) -> dict | None:
    """The leading-order form of TRF(eps) (``theory.series.asymptotics``) on the plot's
    eps grid, or None where it is not derived."""
    import mpmath

    from theory.series.asymptotics import trf_asymptotic

    try:
        a = trf_asymptotic(rpe, B=mpmath.mpf(B), budget=2.0)
    except Exception:  # noqa: BLE001 - the overlay is optional
        return None
    if a is None or a.evaluate is None:
        return None
    pts = [(e, a.evaluate(e)) for e in eps]
    pts = [(e, float(v)) for e, v in pts if v is not None and mpmath.isfinite(v) and v < 1e300]
    if not pts:
        return None
    return {"formula": a.formula, "eps": [p[0] for p in pts], "trf": [p[1] for p in pts]}


def _log_spaced(values: Sequence[float], n: int = 400) -> dict:
    """About ``n`` log-spaced points (j, value) of a long curve, j = 1, 2, ... (JSON-able)."""
    import numpy as np

    j = np.unique(np.geomspace(1, len(values), n).astype(int))
    return {"j": j.tolist(), "value": [float(v) for v in np.asarray(values)[j - 1]]}
