"""InfoScale paper on tiny models trained here (seeded bundle, ``empirical.training.bundle
--profile``): window entropy and perplexity from m to 16m with no scaling, the log_n
rule, InfoScale (Eq. 15) and CosScale (Eqs. 6-7), and the peak of the attention-weighted
cosine of the trained CosScale models against Eq. 18's eta*(alpha, d)."""

from __future__ import annotations

from pathlib import Path

from .legend import PANEL_LEGEND_FONTSIZE
from .registry import figure

#: (model, inference rule, label)
CURVES = (
    ("nope", "none", "no scaling"),
    ("nope", "log_n", "log_n rule (inference)"),
    ("nope", "infoscale", "InfoScale (Eq. 15)"),
    ("nope_log_n", "none", "log_n (trained)"),
    ("nope_cosscale", "none", "CosScale"),
    ("nope_cosscale", "infoscale", "CosScale + InfoScale"),
)


def _curves(b, ax_h, ax_p) -> list:
    from empirical.training.results import seeds
    from figures.rpe_empirical import band

    m, rows = b["settings"]["seq_len"], []
    Ls = [m * 2**k for k in range(5)]
    for k, (mdl, rule, label) in enumerate(CURVES):
        r, ss = b["results"][mdl], seeds(b, mdl)
        w = [[r[s]["rules"][rule]["window"][str(L)]["entropy"] for s in ss] for L in Ls]
        p = [
            [r[s]["rules"][rule]["ppl"][str(L)] / r[s]["rules"][rule]["ppl"][str(m)] for s in ss]
            for L in Ls
        ]
        rows += [["entropy"] + x for x in band(ax_h, Ls, w, label, f"C{k}")]
        rows += [["ppl_ratio"] + x for x in band(ax_p, Ls, p, label, f"C{k}")]
    return rows


def _peaks(b, ax) -> tuple[list, dict]:
    import numpy as np
    from empirical.training.results import cos_peak
    from theory.infoscale.cosscale import eta_star

    out, rows = {}, []
    for mdl in ("nope_cosscale_low", "nope_cosscale"):
        c = cos_peak(b, mdl)
        iv = c["peak"]
        ax.errorbar(
            [c["alpha"]],
            [iv.mean],
            yerr=[[iv.mean - iv.lo], [iv.hi - iv.mean]],
            fmt="o",
            color="C0",
            capsize=3,
        )
        out[str(c["alpha"])] = {
            "peak": iv.as_dict(),
            "eta_star": c["eta_star"],
            "unweighted_peak": c["unweighted_peak"].as_dict(),
        }
        rows.append(
            ["cos_peak", "trained CosScale (alpha)", c["alpha"], iv.mean, iv.lo, iv.hi, *iv.values]
        )
    d = c["d_head"]
    a = np.linspace(0.5, 40, 200)
    ax.plot(
        a,
        [eta_star(x, d) for x in a],
        "--",
        color="C1",
        label=f"theory eta*(alpha, d={d}) (Eq. 18)",
    )
    ax.plot([], [], "o", color="C0", label="trained CosScale: weighted-cosine peak")
    ax.set_xlabel("CosScale alpha")
    ax.set_ylabel("peak of e^{alpha cos} x density of cos")
    ax.legend(fontsize=PANEL_LEGEND_FONTSIZE)
    return rows, out


@figure(
    "infoscale-training",
    "infoscale",
    "Tiny LMs trained here with no scaling, log_n, "
    "InfoScale and CosScale: window entropy and ppl from m to 16m; CosScale peak vs eta*",
    empirical=True,
)
def make_training(outdir: Path, quick: bool = False) -> dict:
    from empirical.training.results import (
        entropy_drift,
        find_profile_bundle,
        load_profile_bundle,
        scaled_ppl_ratio,
    )
    from figures.rpe_empirical import no_bundle, plt_axes, save, seed_note

    if find_profile_bundle() is None:
        return no_bundle("infoscale-training")
    b = load_profile_bundle()
    fig, (ax_h, ax_p, ax_c) = plt_axes(3)
    rows = _curves(b, ax_h, ax_p)
    more, peaks = _peaks(b, ax_c)
    for ax, lab in ((ax_h, "window entropy (nats)"), (ax_p, "ppl(L) / ppl(m)")):
        ax.axvline(b["settings"]["seq_len"], color="gray", ls=":", lw=1)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("inference length L")
        ax.set_ylabel(lab)
        ax.legend(fontsize=PANEL_LEGEND_FONTSIZE)
    h0 = [r for r in rows if r[0] == "entropy" and r[1] == "no scaling"][0][3]
    ax_h.axhline(h0, color="k", ls="--", lw=1, label="theory: entropy kept at its value at m")
    ax_h.legend(fontsize=PANEL_LEGEND_FONTSIZE)
    ax_h.set_title("InfoScale paper: entropy invariance predicts a flat curve", fontsize=9)
    payload = {
        "drift_16m": {f"{m}/{r}": entropy_drift(b, m, r).as_dict() for m, r, _ in CURVES},
        "ppl_ratio_16m": {f"{m}/{r}": scaled_ppl_ratio(b, m, r).as_dict() for m, r, _ in CURVES},
        "cos_peak": peaks,
        "bundle": b["folder"],
    }
    paths = save(
        fig,
        outdir,
        "infoscale-training",
        ["quantity", "curve", "length", "mean", "lo", "hi", "seed values..."],
        rows + more,
        payload,
        seed_note(b) + "; no positional encoding (NoPE), not GAU-alpha",
    )
    return {
        **paths,
        "comparison": {
            "predicted": "InfoScale/log_n: less entropy drift than no "
            "scaling; peak -> eta*(alpha, d)",
            "measured": payload,
        },
    }
