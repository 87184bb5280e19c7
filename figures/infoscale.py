"""InfoScale paper figures: Fig. 4 (eta* theory vs measured peaks) and the entropy drift.

``infoscale-fig4``: Eq. 18's eta*(alpha) for d in {16, 32, 64, 128} against (a) the mode
of the tilted density found by Brent minimisation, (b) the KDE peak of exact vMF draws of
the cosine (Wood's sampler; mean and standard error over seeds) and (c) the peak of
uniformly random unit vectors' cosines reweighted by e^{alpha eta} (only where the
effective sample size is usable).  The paper's own "experimental" points come from a
trained GAU-alpha and cannot be reproduced here.

``infoscale-entropy-drift``: exact (Eq. 9) entropy drift H(n) - H(n_tr) for InfoScale,
log_{n_tr} n (Softmax Plus), no scaling and the root-found invariant factor, plus the
finite-n Monte Carlo softmax entropy (no Assumption 3.1) at d = 128.
"""

from __future__ import annotations

import csv
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from figures.legend import colour_entries, figure_key  # noqa: E402
from figures.registry import figure  # noqa: E402
from theory.core.cli import dumps as json_dumps
from theory.infoscale.cosscale import (
    eta_star,
    eta_star_series,
    mc_peak,  # noqa: E402
    tilted_mode_numeric,
)
from theory.infoscale.hypersphere_entropy import mc_softmax_entropy  # noqa: E402
from theory.infoscale.infoscale import SCALINGS, drift_grid  # noqa: E402

FIG4_ALPHAS = (8, 16, 32, 64, 96, 128, 256)  # the CosScale values of the paper (A.6)
FIG4_DS = (16, 32, 64, 128)  # 128 = GAU-alpha head dim
MIN_ESS = 1000.0


def _write_csv(path: Path, rows: list):
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def fig4_data(quick: bool = False, seed: int = 0) -> list:
    """One row per (d, alpha): Eq. 18, numeric mode, Wood MC peak and reweighted MC peak."""
    samples, reps = (40_000, 4) if quick else (200_000, 8)
    rows = []
    for d in FIG4_DS:
        for a in FIG4_ALPHAS:
            wood = mc_peak(a, d, samples, reps, seed, "wood")
            rew = mc_peak(a, d, samples, reps, seed, "reweight")
            usable = rew["ess_min"] >= MIN_ESS
            rows.append(
                {
                    "d": d,
                    "alpha": a,
                    "eta_star_eq18": eta_star(a, d),
                    "mode_numeric": tilted_mode_numeric(a, d),
                    "mc_wood": wood["peak"],
                    "mc_wood_se": wood["stderr"],
                    "kde_bias": wood["kde_bias"],
                    "z_wood": (wood["peak"] - wood["kde_bias"] - eta_star(a, d)) / wood["stderr"],
                    "mc_reweight": rew["peak"],
                    "mc_reweight_se": rew["stderr"],
                    "reweight_ess_min": rew["ess_min"],
                    "reweight_usable": usable,
                    "one_minus_leading": eta_star_series(a, d, 1),
                    "one_minus_two_terms": eta_star_series(a, d, 2),
                    "samples": samples,
                    "replicates": reps,
                }
            )
    return rows


#: lower end of the 1 - eta* axis of infoscale-fig4
FIG4_YMIN = 1e-2


@figure(
    "infoscale-fig4",
    "infoscale",
    "eta* (Eq. 18) vs measured peaks of the tilted "
    "cosine law over CosScale alpha 8..256, d = 16..128",
)
def make_fig4(outdir: Path, quick: bool = False) -> dict:
    outdir = Path(outdir)
    rows = fig4_data(quick)
    fig, ax = plt.subplots(1, 2, figsize=(11, 5.2))
    grid = np.linspace(4, 260, 300)
    for i, d in enumerate(FIG4_DS):
        col = f"C{i}"
        mine = [r for r in rows if r["d"] == d]
        ax[0].plot(grid, [eta_star(a, d) for a in grid], color=col)
        ax[0].errorbar(
            [r["alpha"] for r in mine],
            [r["mc_wood"] for r in mine],
            yerr=[3 * r["mc_wood_se"] for r in mine],
            fmt="o",
            color=col,
            ms=4,
        )
        ok = [r for r in mine if r["reweight_usable"]]
        ax[0].plot([r["alpha"] for r in ok], [r["mc_reweight"] for r in ok], "x", color=col)
        ax[1].loglog(grid, [1 - eta_star(a, d) for a in grid], color=col)
        ax[1].loglog(grid, [eta_star_series(a, d, 1) for a in grid], ":", color=col)
        two = np.array([eta_star_series(a, d, 2) for a in grid])
        # the two-term expansion falls through zero at small alpha: drawn inside the axes only
        ax[1].loglog(grid, np.where(two >= FIG4_YMIN, two, np.nan), "--", color=col, lw=0.8)
    ax[0].set(
        xlabel="CosScale alpha",
        ylabel="peak eta* of e^{alpha eta}(1-eta^2)^{(d-3)/2}",
        title="The peak eta* against alpha",
    )
    ax[0].title.set_fontsize(10)
    ax[1].set(
        xlabel="alpha",
        ylabel="1 - eta*",
        ylim=(FIG4_YMIN, 20),
        title="1 - eta* and its large-alpha expansion",
    )
    ax[1].title.set_fontsize(10)
    figure_key(
        fig,
        colour_entries({f"d = {d}": f"C{i}" for i, d in enumerate(FIG4_DS)})
        + [
            ("Eq. 18, exact", {"color": "k", "ls": "-"}),
            ("vMF draws (Wood), 3 s.e.", {"color": "k", "ls": "", "marker": "o", "ms": 4}),
            ("reweighted random vectors (ESS >= 1000)", {"color": "k", "ls": "", "marker": "x"}),
            ("leading term (d-3)/(2 alpha)", {"color": "k", "ls": ":"}),
            ("two terms", {"color": "k", "ls": "--", "lw": 0.8}),
        ],
        ncol=3,
    )
    png = outdir / "infoscale-fig4.png"
    fig.savefig(png, dpi=110)
    plt.close(fig)
    data = outdir / "infoscale-fig4.csv"
    _write_csv(data, rows)
    comp = {
        "max_abs_z_wood": max(abs(r["z_wood"]) for r in rows),
        "max_abs_numeric_minus_eq18": max(
            abs(r["mode_numeric"] - r["eta_star_eq18"]) for r in rows
        ),
        "reweight_usable_points": sum(r["reweight_usable"] for r in rows),
        "points": len(rows),
    }
    return {"png": str(png), "data": str(data), "comparison": comp, "rows": rows}


def drift_data(quick: bool = False, seed: int = 0) -> dict:
    """Exact drift grid and, at d = 128, n_tr = 64, the finite-n Monte Carlo drift."""
    mults = (1, 4, 16, 64) if quick else (1, 2, 4, 8, 16, 32, 64)
    rows = drift_grid(multipliers=mults, method="bessel")
    base = [r for r in rows if r["d"] == 128 and r["n_tr"] == 64]
    trials = 40 if quick else 150
    h0 = mc_softmax_entropy(64, 128, base[0]["alpha_tr"], trials, seed)
    mc = []
    for r in base:
        for k in ("infoscale", "invariant", "none"):
            h = mc_softmax_entropy(
                int(r["n"]), 128, r["scale"][k] * r["alpha_tr"], trials, seed + 1
            )
            mc.append(
                {
                    "n": r["n"],
                    "scaling": k,
                    "drift_mc": h["entropy"] - h0["entropy"],
                    "se": float(np.hypot(h["stderr"], h0["stderr"])),
                    "drift_lln": r["drift"][k],
                }
            )
    return {"rows": rows, "finite_n_mc": mc, "mc_train_entropy": h0}


@figure(
    "infoscale-entropy-drift",
    "infoscale",
    "exact entropy drift vs n for InfoScale, "
    "log_{n_tr} n, no scaling, and the invariant factor (d = 32..768)",
)
def make_drift(outdir: Path, quick: bool = False) -> dict:
    outdir = Path(outdir)
    data = drift_data(quick)
    rows = data["rows"]
    ds = sorted({r["d"] for r in rows})
    fig, axs = plt.subplots(1, len(ds), figsize=(4 * len(ds), 4.6), sharey=True)
    for ax, d in zip(axs, ds):
        for nt, ls in ((64, "-"), (512, "--")):
            mine = [r for r in rows if r["d"] == d and r["n_tr"] == nt]
            x = [r["n"] / nt for r in mine]
            for i, k in enumerate(SCALINGS):
                ax.semilogx(
                    x,
                    [r["drift"][k] for r in mine],
                    ls,
                    color=f"C{i}",
                    base=2,
                )
            ax.semilogx(
                x,
                [r["eq10_no_taylor"]["drift"] for r in mine],
                ls,
                color="C4",
                lw=0.8,
                base=2,
            )
        if d == 128:
            for k, c in (("infoscale", "C0"), ("invariant", "C3")):
                pts = [m for m in data["finite_n_mc"] if m["scaling"] == k]
                ax.errorbar(
                    [p["n"] / 64 for p in pts],
                    [p["drift_mc"] for p in pts],
                    yerr=[2 * p["se"] for p in pts],
                    fmt="s",
                    color=c,
                    ms=4,
                    mfc="none",
                )
        ax.axhline(0, color="k", lw=0.5)
        ax.set(title=f"d = {d}", xlabel="n / n_tr")
    axs[0].set_ylabel("H(n) - H(n_tr), nats (Eq. 9 exact)")
    fig.suptitle("Entropy drift against the length, by head dimension d", fontsize=10)
    colours = {
        f"{k} scaling" if k != "none" else "no scaling": f"C{i}" for i, k in enumerate(SCALINGS)
    }
    figure_key(
        fig,
        colour_entries(colours)
        + [
            ("InfoScale, Eq. 10 solved exactly (no Taylor step)", {"color": "C4", "lw": 0.8}),
            ("n_tr = 64", {"color": "k", "ls": "-"}),
            ("n_tr = 512", {"color": "k", "ls": "--"}),
            ("finite-n softmax Monte Carlo, d = 128, n_tr = 64 (2 s.e.)",
             {"color": "k", "ls": "", "marker": "s", "mfc": "none"}),
        ],
        ncol=4,
    )  # fmt: skip
    png = outdir / "infoscale-entropy-drift.png"
    fig.savefig(png, dpi=110)
    plt.close(fig)
    path = outdir / "infoscale-entropy-drift.json"
    path.write_text(json_dumps(data))
    flat = [
        {
            "d": r["d"],
            "n_tr": r["n_tr"],
            "n": r["n"],
            "alpha_tr": r["alpha_tr"],
            **{f"scale_{k}": r["scale"][k] for k in SCALINGS},
            **{f"drift_{k}": r["drift"][k] for k in SCALINGS},
            "scale_eq10_no_taylor": r["eq10_no_taylor"]["scale"],
            "drift_eq10_no_taylor": r["eq10_no_taylor"]["drift"],
        }
        for r in rows
    ]
    _write_csv(outdir / "infoscale-entropy-drift.csv", flat)
    top = [r for r in rows if r["n"] == 64 * r["n_tr"]]
    comp = {
        "drift_at_64x": {
            f"d={r['d']},n_tr={r['n_tr']}": {k: round(r["drift"][k], 4) for k in SCALINGS}
            for r in top
        },
        "max_abs_infoscale_drift": max(abs(r["drift"]["infoscale"]) for r in rows),
        "max_abs_invariant_drift": max(abs(r["drift"]["invariant"]) for r in rows),
        "max_abs_eq10_no_taylor_drift": max(abs(r["eq10_no_taylor"]["drift"]) for r in rows),
    }
    return {
        "png": str(png),
        "data": str(path),
        "comparison": comp,
        "rows": rows,
        "finite_n_mc": data["finite_n_mc"],
    }
