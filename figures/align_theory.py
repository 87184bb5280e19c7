"""Figures for the theory of the attention-alignment paper (Eqs. 1-3, Props. 1-2).

* ``align-lln-error-map``: relative error of :math:`\\log L + \\sigma^2/2` (Eq. 1) and
  the error of :math:`H \\approx \\log L - \\sigma^2/2` (App. A.3) over
  :math:`L \\in [64, 10^6]`, :math:`\\sigma \\in [0.1, 6]`, exact values by quadrature,
  with Monte Carlo spot checks printed on the map and the curves
  :math:`L = e^{\\sigma^2}` and :math:`\\sigma = \\sqrt{2\\ln L}`.
* ``align-prop-vs-mc``: Prop. 1 / Prop. 2 temperatures (theory curves) vs the
  temperatures that truly align P_max / entropy of i.i.d. Gaussian logits (Algorithm 1,
  continuous, on Monte Carlo samples; exact P_max and entropy alignment by quadrature).
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from theory.core.cli import dumps as json_dumps
from theory.temperature.gaussian_softmax import (
    approx_entropy,
    approx_log_partition,  # noqa: E402
    entropy_alignment_tau_exact,
    expected_entropy,
    expected_log_partition,
    expected_pmax,
    mc_softmax_stats,
    pmax_alignment_tau_exact,
)
from theory.temperature.rules import (
    algorithm1_continuous,
    logit_stat_fn,  # noqa: E402
    prop1_temperature,
    prop2_temperature,
)

from .registry import figure  # noqa: E402


def lln_error_grid(Ls: Sequence[float], sigmas: Sequence[float]) -> dict:
    """Exact E[log D], E[H] (quadrature) and the paper's approximations on a grid."""
    rows = []
    for L in Ls:
        for s in sigmas:
            ld, h = expected_log_partition(L, s), expected_entropy(L, s)
            rows.append(
                {
                    "L": int(L),
                    "sigma": float(s),
                    "E_logD": ld,
                    "E_H": h,
                    "approx_logD": float(approx_log_partition(L, s)),
                    "approx_H": float(approx_entropy(L, s)),
                    "rel_err_logD": float((approx_log_partition(L, s) - ld) / ld),
                    "err_H": float(approx_entropy(L, s) - h),
                }
            )
    return {"rows": rows}


def mc_spot_checks(cells: Sequence[tuple[float, float]], draws: int = 200, seed: int = 0) -> list:
    """Monte Carlo E[log D], E[H] (with standard errors) at a few (L, sigma) cells."""
    out = []
    for L, s in cells:
        n = max(20, min(draws, 4_000_000 // int(L)))
        mc = mc_softmax_stats(int(L), s, 1.0, n, seed=seed)
        out.append(
            {
                "L": int(L),
                "sigma": s,
                "draws": n,
                "mc_logD": mc["log_partition"][0],
                "mc_logD_se": mc["log_partition"][1],
                "mc_H": mc["entropy"][0],
                "mc_H_se": mc["entropy"][1],
                "quad_logD": expected_log_partition(L, s),
                "quad_H": expected_entropy(L, s),
            }
        )
    return out


def _write_csv(path: Path, rows: list):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


@figure(
    "align-lln-error-map",
    "align",
    "relative error of log L + sigma^2/2 (Eq. 1) and of "
    "H ~ log L - sigma^2/2 over L in [64, 1e6], sigma in [0.1, 6]; quadrature + MC",
)
def make_lln_map(outdir: Path, quick: bool = False) -> dict:
    outdir = Path(outdir)
    n = 4 if quick else 13
    Ls = np.unique(np.round(np.logspace(np.log10(64), 6, n)).astype(int))
    sigmas = np.round(np.linspace(0.1, 6.0, n), 3)
    grid = lln_error_grid(Ls, sigmas)
    spots = mc_spot_checks(
        [(64, 1.0), (512, 2.7), (15000, 2.7), (64, 6.0)] if not quick else [(512, 2.7), (64, 3.0)],
        draws=100 if quick else 400,
    )
    rel = np.array([r["rel_err_logD"] for r in grid["rows"]]).reshape(len(Ls), len(sigmas))
    errH = np.array([r["err_H"] for r in grid["rows"]]).reshape(len(Ls), len(sigmas))
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    for ax, Z, title in (
        (axes[0], 100 * rel, "rel. error of log L + σ²/2 vs exact E[log D] (%)"),
        (axes[1], errH, "log L − σ²/2 minus exact E[H] (nats)"),
    ):
        pcm = ax.pcolormesh(sigmas, Ls, Z, shading="nearest", cmap="viridis")
        fig.colorbar(pcm, ax=ax)
        ss = np.linspace(0.1, 6, 200)
        ax.plot(ss, np.exp(ss**2), "w--", label="L = e^{σ²}")
        ax.plot(ss, np.exp(ss**2 / 2), "r-", label="σ = √(2 ln L)")
        for sp_ in spots:
            val = (
                100 * (np.log(sp_["L"]) + sp_["sigma"] ** 2 / 2 - sp_["mc_logD"]) / sp_["mc_logD"]
                if ax is axes[0]
                else np.log(sp_["L"]) - sp_["sigma"] ** 2 / 2 - sp_["mc_H"]
            )
            ax.plot(sp_["sigma"], sp_["L"], "ko")
            ax.annotate(f"MC {val:.2f}", (sp_["sigma"], sp_["L"]), color="w", fontsize=8)
        ax.set(
            xscale="linear",
            yscale="log",
            ylim=(Ls[0], Ls[-1]),
            xlabel="σ (τ = 1)",
            ylabel="L",
            title=title,
        )
        ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    png, csv_path, js = (
        outdir / "align-lln-error-map.png",
        outdir / "align-lln-error-map.csv",
        outdir / "align-lln-error-map.json",
    )
    fig.savefig(png, dpi=110)
    plt.close(fig)
    _write_csv(csv_path, grid["rows"])
    js.write_text(json_dumps({"grid": grid["rows"], "mc_spot_checks": spots}))
    return {
        "png": str(png),
        "data": [str(csv_path), str(js)],
        "comparison": {
            "theory": "log L + σ²/2 and log L − σ²/2",
            "experiment": "exact quadrature; Monte Carlo spot checks",
            "max_abs_rel_err_logD": float(np.max(np.abs(rel))),
            "max_abs_err_H": float(np.max(np.abs(errH))),
            "mc_spot_checks": spots,
        },
    }


def prop_curves(
    sigma: float, L_tr: float, L_exs: Sequence[float], draws: int, seed: int = 0
) -> list:
    """Prop. 1/2 temperatures and the true aligning temperatures for i.i.d. logits."""
    rng = np.random.default_rng(seed)
    tr = sigma * rng.standard_normal((draws, L_tr))
    p_tr = logit_stat_fn(tr, "pmax")(1.0)
    h_tr_mc = logit_stat_fn(tr, "entropy")(1.0)
    p_exact = expected_pmax(L_tr, sigma)
    rows = []
    for L_ex in L_exs:
        ex = sigma * rng.standard_normal((max(64, draws * L_tr // L_ex), L_ex))
        t_p = algorithm1_continuous(logit_stat_fn(ex, "pmax"), p_tr, lo=0.05, hi=1.5).tau
        t_h = algorithm1_continuous(logit_stat_fn(ex, "entropy"), h_tr_mc, lo=0.05, hi=1.5).tau
        rows.append(
            {
                "sigma": sigma,
                "L_tr": L_tr,
                "L_ex": int(L_ex),
                "pmax_tr_mc": p_tr,
                "prop1": prop1_temperature(L_tr, L_ex, sigma, sigma, p_exact).tau,
                "prop2": prop2_temperature(L_tr, L_ex, sigma, sigma).tau,
                "log_rule": math.log(L_tr) / math.log(L_ex),
                "mc_pmax_aligned": t_p,
                "mc_entropy_aligned": t_h,
                "exact_entropy_aligned": entropy_alignment_tau_exact(L_tr, L_ex, sigma, sigma),
                "exact_pmax_aligned": pmax_alignment_tau_exact(L_tr, L_ex, sigma, sigma),
            }
        )
    return rows


@figure(
    "align-prop-vs-mc",
    "align",
    "Prop. 1/2 temperatures vs the temperatures that "
    "truly align P_max / entropy of i.i.d. Gaussian logits (MC + quadrature)",
)
def make_prop_vs_mc(outdir: Path, quick: bool = False) -> dict:
    outdir = Path(outdir)
    sigmas = (1.0,) if quick else (1.0, 2.0)
    L_exs = [1024, 4096] if quick else [1024, 2048, 4096, 8192, 15000, 32768]
    rows = [r for s in sigmas for r in prop_curves(s, 512, L_exs, 64 if quick else 512)]
    fig, axes = plt.subplots(1, len(sigmas), figsize=(6 * len(sigmas), 4.5), squeeze=False)
    for ax, s in zip(axes[0], sigmas):
        rs = [r for r in rows if r["sigma"] == s]
        x = [r["L_ex"] for r in rs]
        nan = lambda v: float("nan") if v is None else v  # noqa: E731
        ax.plot(x, [nan(r["prop1"]) for r in rs], "b-", label="Prop. 1 (theory)")
        missing = [r["L_ex"] for r in rs if r["prop1"] is None]
        if missing:
            ax.annotate(
                f"Prop. 1: no root in (0, 1] for L_ex >= {min(missing)}",
                (0.03, 0.03),
                xycoords="axes fraction",
                color="b",
                fontsize=8,
            )
        ax.plot(x, [nan(r["exact_pmax_aligned"]) for r in rs], "b:", label="P_max aligned (exact)")
        ax.plot(x, [r["mc_pmax_aligned"] for r in rs], "bx", ms=9, label="P_max aligned (MC)")
        ax.plot(x, [r["prop2"] for r in rs], "g-", label="Prop. 2 (theory)")
        ax.plot(x, [r["exact_entropy_aligned"] for r in rs], "g:", label="H aligned (exact)")
        ax.plot(x, [r["mc_entropy_aligned"] for r in rs], "go", label="H aligned (MC)")
        ax.plot(x, [r["log_rule"] for r in rs], "k--", label="log_{L_ex} 512")
        ax.set(
            xscale="log",
            xlabel="L_ex (L_tr = 512)",
            ylabel="τ",
            title=f"i.i.d. N(0, {s:g}²) logits",
        )
        ax.legend(fontsize=8)
    fig.tight_layout()
    png, csv_path = outdir / "align-prop-vs-mc.png", outdir / "align-prop-vs-mc.csv"
    fig.savefig(png, dpi=110)
    plt.close(fig)
    _write_csv(csv_path, rows)
    return {
        "png": str(png),
        "data": [str(csv_path)],
        "comparison": {
            "theory": "Prop. 1, Prop. 2, log rule",
            "experiment": "Algorithm 1 (continuous) on i.i.d. samples; "
            "exact P_max / entropy alignment (quadrature)",
            "rows": rows,
        },
    }
