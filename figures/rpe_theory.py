"""RPE paper Figs. 5, 7, 8: TRF curves (truncated App. E method and exact Eq. 22) and
heatmaps of exp(RPE).

``rpe-fig5``: left panel, the paper's own view (App. E pseudocode on an array of m = 512
terms, TRF/m against eps on its grid ``linspace(1, 0, 50)``) with the exact TRF/m of
Eq. 22 drawn over it, up to the top of the panel (the text in it names the RPEs whose exact
TRF exceeds m); right panel, absolute TRF against eps (1 .. 1e-6, log axes), exact (solid)
and truncated at m (dashed, capped at m).  One key below both panels.  Divergent series (Sandwich, 1/n,
1/(n ln n)) have no exact TRF; only the truncated curve is drawn for them.

``rpe-fig7-8``: exp(R) (entry (i, j) = b_{i-j}, causal) for each family, as Figs. 7-8.

Parameters are ours (the paper gives none): ALiBi k = 1, Kerple-log k = 1, r = 1.5,
Kerple-power k = 1, r = 0.5, Sandwich d = 128, r = 1e4, k = 1/8; see
:data:`theory.series.reference.FAMILIES`.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path

import numpy as np

from figures.legend import LEGEND_FONTSIZE, colour_entries, figure_key
from figures.registry import figure
from theory.core.cli import dumps as json_dumps
from theory.series import reference as ref

CONVERGENT = [n for n, (_, _, conv) in ref.FAMILIES.items() if conv]
FIG5_FAMILIES = ["alibi", "kerple-log", "kerple-power", "sandwich", "type1", "type2"]


def fig5_data(m: int = 512, quick: bool = False) -> dict:
    """Truncated (App. E, paper's grid) and exact TRFs for the Fig. 5 families.

    Returns ``{"m", "eps_paper_grid", "truncated": {rpe: [TRF]}, "exact_paper_grid":
    {rpe: [TRF or inf]}, "eps_log_grid", "exact_log": {...}, "truncated_log": {...}}``.
    """
    out = {"m": m, "truncated": {}, "exact_paper_grid": {}, "exact_log": {}, "truncated_log": {}}
    grid = None
    for name in FIG5_FAMILIES:
        arr = ref.terms_array(name, m)
        norm, eps = ref.appendix_e_draw(arr, n=50)
        grid = [float(e) for e in eps]
        out["truncated"][name] = [int(round(float(x) * m)) for x in norm]
        inner = grid[1:-1]  # eps = 1 and eps = 0 handled below
        ex = ref.exact_trf_many(name, None, inner)
        out["exact_paper_grid"][name] = [1 if ref.FAMILIES[name][2] else math.inf] + ex + [math.inf]
    out["eps_paper_grid"] = grid
    log_grid = [float(x) for x in np.geomspace(0.5, 1e-6, 12 if quick else 40)]
    out["eps_log_grid"] = log_grid
    for name in FIG5_FAMILIES:
        out["exact_log"][name] = ref.exact_trf_many(name, None, log_grid)
        arr = ref.terms_array(name, m)
        out["truncated_log"][name] = [ref.truncated_trf(arr, e) for e in log_grid]
    return out


def _write_fig5_csv(data: dict, path: Path):
    with path.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["grid", "rpe", "eps", "trf_truncated_appE", "trf_exact_eq22", "m"])
        for name in FIG5_FAMILIES:
            for e, a, b in zip(
                data["eps_paper_grid"], data["truncated"][name], data["exact_paper_grid"][name]
            ):
                w.writerow(["paper", name, f"{e:.6g}", a, b, data["m"]])
            for e, a, b in zip(
                data["eps_log_grid"], data["truncated_log"][name], data["exact_log"][name]
            ):
                w.writerow(["log", name, f"{e:.6g}", a, b, data["m"]])


def fig5_comparison(data: dict) -> dict:
    """Where the truncated TRF equals the exact one, per family (the agreement theory
    predicts when the truncation is long enough)."""
    comp = {}
    for name in FIG5_FAMILIES:
        pairs = list(
            zip(data["eps_log_grid"], data["truncated_log"][name], data["exact_log"][name])
        )
        agree = [e for e, a, b in pairs if a == b]
        comp[name] = {
            "eps_agree": len(agree),
            "eps_total": len(pairs),
            "smallest_eps_agreeing": min(agree) if agree else None,
            "exact_at_1e-6": pairs[-1][2] if pairs[-1][2] != math.inf else "inf",
            "truncated_at_1e-6": pairs[-1][1],
        }
    return comp


@figure("rpe-fig5", "rpe", "TRF against eps: paper's truncated App. E method vs exact Eq. 22")
def make_fig5(outdir: Path, quick: bool = False) -> dict:
    return render_fig5(fig5_data(m=512, quick=quick), outdir)


def render_fig5(data: dict, outdir: Path) -> dict:
    """Draw Fig. 5 from :func:`fig5_data` output; write PNG, CSV and JSON."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 5.6))
    colors = dict(zip(FIG5_FAMILIES, plt.rcParams["axes.prop_cycle"].by_key()["color"]))
    m, top = data["m"], 1.05
    beyond = []  # families whose exact TRF/m leaves the left panel at small eps
    for name in FIG5_FAMILIES:
        c, converges = colors[name], ref.FAMILIES[name][2]
        trunc = np.array(data["truncated"][name]) / m
        ax1.plot(data["eps_paper_grid"], trunc, "o--", ms=3, lw=1, color=c)
        if converges:
            ex = np.array(data["exact_paper_grid"][name], dtype=float) / m
            if np.any(ex[np.isfinite(ex)] > top):
                beyond.append(name)
            ax1.plot(data["eps_paper_grid"], np.where(ex <= top, ex, np.nan), "-", color=c)
            ax2.loglog(data["eps_log_grid"], data["exact_log"][name], "-", color=c)
        trunc_log = np.maximum(data["truncated_log"][name], 0.8)
        ax2.loglog(data["eps_log_grid"], trunc_log, "--", marker=".", lw=1, color=c)
    ax1.set_ylim(0, top)
    ax1.set(xlabel="eps", ylabel="TRF / m")
    ax1.set_title(f"The paper's view: TRF / m on the App. E grid (m = {m})", fontsize=10)
    if beyond:
        ax1.text(0.98, 0.96, f"exact TRF > m at small eps (off the top):\n{', '.join(beyond)}",
                 transform=ax1.transAxes, ha="right", va="top", fontsize=LEGEND_FONTSIZE)  # fmt: skip
    ax2.axhline(m, color="grey", lw=0.8, ls=":")
    ax2.text(1e-6, m * 1.3, f"m = {m}", fontsize=LEGEND_FONTSIZE, color="grey", ha="right")
    ax2.invert_xaxis()
    ax2.set(xlabel="eps", ylabel="TRF (tokens)")
    ax2.set_title("TRF in tokens, eps down to 1e-6", fontsize=10)
    labels = {
        n: n if ref.FAMILIES[n][2] else f"{n} (diverges: no exact TRF)" for n in FIG5_FAMILIES
    }
    figure_key(
        fig,
        colour_entries({labels[n]: colors[n] for n in FIG5_FAMILIES})
        + [
            ("exact TRF, Eq. 22", {"color": "k", "ls": "-"}),
            (f"App. E, truncated at m = {m}", {"color": "k", "ls": "--", "marker": "o", "ms": 3}),
        ],
        ncol=4,
    )
    png, csv_path = outdir / "rpe-fig5.png", outdir / "rpe-fig5.csv"
    fig.savefig(png, dpi=120)
    plt.close(fig)
    _write_fig5_csv(data, csv_path)
    comp = fig5_comparison(data)
    (outdir / "rpe-fig5.json").write_text(json_dumps(comp, indent=1, default=str))
    return {
        "png": str(png),
        "data": [str(csv_path), str(outdir / "rpe-fig5.json")],
        "comparison": comp,
    }


def heatmap_data(size: int = 64) -> dict:
    r"""exp(R) matrices (Figs. 7-8) for every family, ``size`` x ``size``.

    .. math:: [\exp(R)]_{ij} = b_{i-j} \ (j \le i), \qquad 0 \ (j > i)

    >>> heatmap_data(3)["type1"].round(3).tolist()
    [[1.0, 0.0, 0.0], [0.25, 1.0, 0.0], [0.111, 0.25, 1.0]]
    """
    return {name: ref.toeplitz_exp_rpe(name, size) for name in ref.FAMILIES}


@figure("rpe-fig7-8", "rpe", "Heatmaps of exp(RPE) for every family (Figs. 7-8)")
def make_fig78(outdir: Path, quick: bool = False) -> dict:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    size = 32 if quick else 64
    mats = heatmap_data(size)
    fig, axes = plt.subplots(2, 4, figsize=(13, 6.6))
    for ax, (name, mat) in zip(axes.flat, mats.items()):
        im = ax.imshow(mat, cmap="viridis", vmin=0, vmax=1)
        ax.set_title(f"{name}: {ref.FAMILIES[name][0]}", fontsize=8)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.colorbar(im, ax=axes, shrink=0.7, label="exp(RPE) = b_{i-j}")
    fig.suptitle(
        "exp(RPE), causal; parameters: "
        + "; ".join(f"{n} {p}" for n, (_, p, _) in ref.FAMILIES.items() if p),
        fontsize=7,
    )
    png, npz = outdir / "rpe-fig7-8.png", outdir / "rpe-fig7-8.csv"
    fig.savefig(png, dpi=110)
    plt.close(fig)
    with npz.open("w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["rpe", "distance_t", "b_t"])
        for name in mats:
            for tt, val in enumerate(mats[name][-1, ::-1]):
                w.writerow([name, tt, f"{val:.10g}"])
    b1, b2 = mats["type1"][-1, ::-1], mats["type2"][-1, ::-1]
    comp = {
        "type2_brighter_than_type1_at_distances": [
            int(tt) for tt in range(size) if b2[tt] > b1[tt]
        ],
        "row_sums_last_row": {n: float(mat[-1].sum()) for n, mat in mats.items()},
    }
    return {"png": str(png), "data": str(npz), "comparison": comp}
