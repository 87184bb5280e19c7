"""RPE paper Figs. 3, 4 and 6 re-made with tiny models trained here (the seeded bundle).

From the seeded ci bundle (``python -m empirical.bundle --profile ci``; runs/ci, or
``$LENGTHX_AGREEMENT``; the ladder's higher rungs: ``python -m figures scale-ladder``) every curve is the mean over seeds with its 95%
Student-t interval, the theory on the same axes (Def. 2.1's stable band; the TRF of each
RPE) and the data in CSV/JSON beside the PNG; without the bundle nothing is drawn.  Every
figure says that the models are tiny byte-level models trained here.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from figures.legend import PANEL_LEGEND_FONTSIZE
from figures.registry import figure
from theory.core.cli import dumps as json_dumps

if TYPE_CHECKING:  # annotations only: matplotlib is imported where a figure is drawn
    import numpy as np
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure


def seeded_bundle() -> dict | None:
    """The seeded bundle, or None when there is none."""
    from empirical.agreement.bundle_io import find_profile_bundle, load_profile_bundle

    if find_profile_bundle() is None:
        return None
    return load_profile_bundle()


def seed_note(b: dict) -> str:
    s = b["settings"]
    return (
        f"tiny byte-level LMs trained here ({b['profile']} profile: {s['steps']} steps, "
        f"m={s['seq_len']}, seeds {list(s['seeds'])}); mean and 95% t-interval; "
        "not the paper's models"
    )


def no_bundle(name: str) -> dict:
    """What a seeded-bundle figure returns when there is no bundle (nothing is drawn)."""
    return {
        "png": None,
        "data": None,
        "skipped": f"{name}: no seeded bundle (python -m "
        "empirical.bundle --profile ci --out runs/ci)",
        "comparison": {},
    }


def band(
    ax: Axes,
    x: Sequence[float],
    per_seed: Sequence[Sequence[float]],
    label: str,
    color: str,
    ls: str = "-",
) -> list:
    """Mean over seeds with its interval as a band and error bars; CSV rows back."""
    from empirical.agreement.contrast import seed_interval

    ivs = [seed_interval(v) for v in per_seed]
    mean = [iv.mean for iv in ivs]
    ax.plot(x, mean, ls, color=color, marker="o", ms=3, label=label)
    ax.fill_between(x, [iv.lo for iv in ivs], [iv.hi for iv in ivs], color=color, alpha=0.2)
    ax.errorbar(
        x,
        mean,
        yerr=[[m - iv.lo for m, iv in zip(mean, ivs)], [iv.hi - m for m, iv in zip(mean, ivs)]],
        fmt="none",
        ecolor=color,
        capsize=2,
        lw=0.8,
    )
    return [[label, xi, iv.mean, iv.lo, iv.hi, *iv.values] for xi, iv in zip(x, ivs)]


def save(
    fig: Figure,
    outdir: Path,
    name: str,
    header: Sequence[str],
    rows: Iterable[Sequence[object]],
    payload: dict,
    note: str,
) -> dict:
    """PNG + CSV + JSON beside each other; returns the paths."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    fig.text(0.01, 0.01, note, fontsize=6, color="dimgray")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    png, data = outdir / f"{name}.png", outdir / f"{name}.csv"
    fig.savefig(png, dpi=120)
    with open(data, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)
    (outdir / f"{name}.json").write_text(json_dumps(payload, indent=1, default=str))
    return {"png": str(png), "data": str(data), "json": str(outdir / f"{name}.json")}


def plt_axes(ncols: int = 1) -> tuple[Figure, Axes | np.ndarray]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.subplots(1, ncols, figsize=(6 * ncols, 4.2))


def seeded_ratio_figure(
    outdir: Path, b: dict, models: Sequence[str], name: str, title: str
) -> dict:
    """ppl(L)/ppl(m) vs L for ``models`` with Def. 2.1's stable band (theory)."""
    from empirical.agreement.bundle_io import seeds
    from empirical.agreement.catalogue import STABLE_DELTA
    from empirical.agreement.rpe import ppl_ratio
    from empirical.training.rpe import LABELS

    m, fig_ax = b["settings"]["seq_len"], plt_axes()
    fig, ax = fig_ax
    rows, factors = (
        [],
        sorted({int(k) // m for k in b["results"][models[0]][seeds(b, models[0])[0]]["ppl"]}),
    )
    for k, mdl in enumerate(models):
        per_seed = [
            [
                b["results"][mdl][s]["ppl"][str(f * m)] / b["results"][mdl][s]["ppl"][str(m)]
                for s in seeds(b, mdl)
            ]
            for f in factors
        ]
        rows += band(ax, [f * m for f in factors], per_seed, LABELS.get(mdl, mdl), f"C{k}")
    ax.axhspan(
        1 - STABLE_DELTA,
        1 + STABLE_DELTA,
        color="gray",
        alpha=0.15,
        label=f"theory: stable band 1 +- {STABLE_DELTA} (Def. 2.1, Thm. 3.4)",
    )
    ax.axvline(m, color="gray", ls=":", lw=1)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("inference length L (bytes)")
    ax.set_ylabel("ppl(L) / ppl(m)")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=PANEL_LEGEND_FONTSIZE)
    ratios = {LABELS.get(mdl, mdl): ppl_ratio(b, mdl, max(factors)).as_dict() for mdl in models}
    paths = save(
        fig,
        outdir,
        name,
        ["model", "length", "mean", "lo", "hi", "seed values..."],
        rows,
        {"ratio_at_max": ratios, "bundle": b["folder"]},
        seed_note(b),
    )
    deltas = {k: round(v["mean"] - 1, 4) for k, v in ratios.items()}
    return {
        **paths,
        "deltas": deltas,
        "comparison": {
            "predicted": f"convergent: ratio within 1 +- {STABLE_DELTA}; "
            "divergent / sinusoidal: grows",
            "measured_ratio_at_max_len": ratios,
            "bundle": b["folder"],
        },
    }


@figure(
    "rpe-fig3",
    paper="rpe",
    empirical=True,
    description="PPL vs inference length for convergent RPEs and sinusoidal (cf. Fig. 3)",
)
def make_fig3(outdir: Path, quick: bool = False) -> dict:
    b = seeded_bundle()
    if b is not None:
        return seeded_ratio_figure(
            outdir,
            b,
            ("sinusoidal", "alibi", "kerple_log", "kerple_power", "sandwich", "type1", "type2"),
            "rpe-fig3",
            "Convergent RPEs vs sinusoidal (cf. RPE paper Fig. 3)",
        )
    return no_bundle("rpe-fig3")


@figure(
    "rpe-fig4",
    paper="rpe",
    empirical=True,
    description="PPL vs inference length for divergent 1/n, 1/(n ln n) and Type1 (cf. Fig. 4)",
)
def make_fig4(outdir: Path, quick: bool = False) -> dict:
    b = seeded_bundle()
    if b is not None:
        return seeded_ratio_figure(
            outdir,
            b,
            ("inv_n", "inv_nlogn", "type1"),
            "rpe-fig4",
            "Divergent 1/n, 1/(n ln n) vs Type1 (cf. RPE paper Fig. 4)",
        )
    return no_bundle("rpe-fig4")


@figure(
    "rpe-fig6",
    paper="rpe",
    empirical=True,
    description="ERF of trained models beside the TRF of their RPE (cf. Figs. 5-6)",
)
def make_fig6(outdir: Path, quick: bool = False) -> dict:
    b = seeded_bundle()
    if b is not None:
        return seeded_erf_figure(outdir, b)
    return no_bundle("rpe-fig6")


def seeded_erf_figure(outdir: Path, b: dict) -> dict:
    """ERF n_emp(eps) (mean and interval over seeds) of the RPEs theory.series calls
    convergent against the certified TRF of each run's learned RPE (dashed), and the
    contrast of the agreement tests (Spearman over RPEs and eps)."""
    from empirical.agreement.bundle_io import seeds
    from empirical.agreement.catalogue import compute
    from empirical.agreement.rpe import convergent_rpes, erf_values, model_trf
    from empirical.training.rpe import LABELS

    fig, ax = plt_axes()
    rows, eps = [], [0.5, 0.4, 0.3, 0.2, 0.1]
    conv = convergent_rpes(b)
    for k, mdl in enumerate(conv):
        ss = seeds(b, mdl)
        emp = list(zip(*[erf_values(b, mdl, s, eps) for s in ss]))
        rows += band(ax, eps, [list(e) for e in emp], f"{LABELS[mdl]} ERF", f"C{k}")
        the = [model_trf(b, mdl, s, eps) for s in ss]
        mean_the = [sum(t[i] for t in the) / len(the) for i in range(len(eps))]
        ax.plot(eps, mean_the, "--", color=f"C{k}", lw=1)
        rows += [
            [f"{LABELS[mdl]} TRF", e, v, min(t[i] for t in the), max(t[i] for t in the)]
            for i, (e, v) in enumerate(zip(eps, mean_the))
        ]
    c = compute(b, "rpe-erf-trf")
    rho = {"1 - rho": c.errors[c.theory].as_dict(), "contrast": c.as_dict()}
    err = c.errors[c.theory]
    ax.set_yscale("log")
    ax.set_xlabel(r"$\epsilon$")
    ax.set_ylabel(r"receptive field $n(\epsilon)$ (tokens)")
    ax.set_title(
        "ERF (solid, trained; seed band) vs certified TRF (dashed, theory)\n"
        f"Spearman over RPEs and eps: {1 - err.mean:.2f} [{1 - err.hi:.2f}, {1 - err.lo:.2f}]",
        fontsize=9,
    )
    ax.legend(fontsize=PANEL_LEGEND_FONTSIZE)
    paths = save(
        fig,
        outdir,
        "rpe-fig6",
        ["curve", "eps", "mean", "lo", "hi", "seed values..."],
        rows,
        {"spearman": rho, "bundle": b["folder"]},
        seed_note(b),
    )
    return {
        **paths,
        "comparison": {
            "predicted": "ERF and TRF rank the RPEs alike (Spearman > 0)",
            "spearman": rho,
            "bundle": b["folder"],
        },
    }
