"""InfoScale paper on tiny models trained here (seeded bundle, ``python -m empirical.bundle
--profile``): the NoPE model's window entropy at 16m against the temperature, with the
temperatures of InfoScale (Eq. 15, computed now), the log-n rule and no scaling; the
mode of the CosScale model's attention-weighted cosine (Eq. 16) against Eq. 18's
eta*(alpha, d), at its initial and trained weights."""

from __future__ import annotations

from pathlib import Path

from .legend import PANEL_LEGEND_FONTSIZE
from .registry import figure


def _curves(b, ax_h) -> list:
    """Window entropy at 16m against tau (stored grid) of the NoPE model, the entropy at
    m, and the taus of InfoScale (Eq. 15), the log-n rule and no scaling."""
    import math

    from empirical.agreement.bundle_io import seeds, window
    from figures.rpe_empirical import band
    from theory.infoscale.infoscale import infoscale

    m, ss = b["settings"]["seq_len"], seeds(b, "nope")
    grid = b["results"]["nope"][ss[0]]["tau_grid"]
    L = 16 * m
    curve = [[window(b, "nope", s, L)["entropy"][i] for s in ss] for i in range(len(grid))]
    rows = [["entropy_16m"] + x for x in band(ax_h, grid, curve, "window entropy at 16m", "C0")]
    h0 = sum(window(b, "nope", s, m)["entropy"][0] for s in ss) / len(ss)
    ax_h.axhline(h0, color="k", ls="--", lw=1, label="at m (theory: kept there)")
    n = window(b, "nope", ss[0], L)["keys"][0]
    dh = b["settings"]["d_model"] // b["settings"]["n_head"]
    for tau, lab, col in (
        (1 / infoscale(n, m, dh), "InfoScale (Eq. 15)", "C1"),
        (math.log(m) / math.log(n), "log-n rule", "C2"),
        (1.0, "no scaling", "C3"),
    ):
        ax_h.axvline(tau, color=col, ls=":", lw=1.2, label=lab)
    ax_h.set_xlabel("tau (logits beyond m divided by tau)")
    ax_h.set_ylabel("window entropy (nats)")
    ax_h.legend(fontsize=PANEL_LEGEND_FONTSIZE)
    return rows


def _peaks(b, ax) -> tuple[list, dict]:
    """Attention-weighted cosine mode of the CosScale model (stored histograms, initial
    and trained weights) against eta*(alpha, d_head) over the alpha sweep."""
    import numpy as np

    from empirical.agreement.bundle_io import seeds
    from empirical.agreement.infoscale import COS_ALPHAS, tilted_mode
    from theory.infoscale.cosscale import eta_star

    r = b["results"]["nope_cosscale"]
    ss, rows, out = seeds(b, "nope_cosscale"), [], {}
    d = r[ss[0]]["cos_hist"]["d_head"]
    for k, which in enumerate(("init", "trained")):
        modes = [
            [float(np.mean([tilted_mode(h, a) for h in r[s]["cos_hist"][which]])) for s in ss]
            for a in COS_ALPHAS
        ]
        mean = [float(np.mean(x)) for x in modes]
        ax.plot(
            COS_ALPHAS, mean, "o-", color=f"C{k}", ms=3, label=f"weighted mode, {which} weights"
        )
        out[which] = {str(a): v for a, v in zip(COS_ALPHAS, mean)}
        rows += [
            ["cos_mode", which, a, v, min(x), max(x), *x]
            for a, v, x in zip(COS_ALPHAS, mean, modes)
        ]
    a = np.linspace(0.5, COS_ALPHAS[-1], 200)
    ax.plot(a, [eta_star(x, d) for x in a], "--", color="C2", label=f"eta*(alpha, d={d}) (Eq. 18)")
    ax.set_xlabel("alpha (weights e^{alpha cos})")
    ax.set_ylabel("mode of the attention-weighted cosine")
    ax.legend(fontsize=PANEL_LEGEND_FONTSIZE)
    return rows, out


@figure(
    "infoscale-training",
    "infoscale",
    "A NoPE LM trained here: window entropy at 16m against the temperature with "
    "InfoScale's and the log-n rule's; a CosScale LM: weighted-cosine mode vs eta*",
    empirical=True,
)
def make_training(outdir: Path, quick: bool = False) -> dict:
    from empirical.agreement.bundle_io import find_profile_bundle, load_profile_bundle
    from empirical.agreement.catalogue import compute
    from figures.rpe_empirical import no_bundle, plt_axes, save, seed_note

    if find_profile_bundle() is None:
        return no_bundle("infoscale-training")
    b = load_profile_bundle()
    fig, (ax_h, ax_c) = plt_axes(2)
    rows = _curves(b, ax_h)
    more, peaks = _peaks(b, ax_c)
    ax_h.set_title("InfoScale paper: entropy invariance at 16m", fontsize=9)
    payload = {
        "drift": compute(b, "infoscale-drift").as_dict(),
        "eta_star": {w: compute(b, f"infoscale-eta-{w}").as_dict() for w in ("init", "trained")},
        "cos_modes": peaks,
        "bundle": b["folder"],
    }
    paths = save(
        fig,
        outdir,
        "infoscale-training",
        ["quantity", "curve", "x", "mean", "lo", "hi", "seed values..."],
        rows + more,
        payload,
        seed_note(b) + "; no positional encoding (NoPE), not GAU-alpha",
    )
    return {
        **paths,
        "comparison": {
            "predicted": "InfoScale keeps the entropy at 16m at its value at m; the "
            "weighted-cosine mode is eta*(alpha, d)",
            "measured": payload,
        },
    }
