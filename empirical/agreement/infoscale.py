"""The InfoScale paper's contrasts on the seeded bundle (NoPE and CosScale models).

The entropy drift left by InfoScale's factor (Sec. 3.1, Eq. 15) on the NoPE model,
Eq. 15's invariant factor against the one measured at the CosScale model's initial
weights (Eqs. 9-15), and the peak eta* of the attention-weighted cosine (Thm. 3.4,
Eq. 18); every theory number is computed when the contrast runs, by
``theory.infoscale``.
"""

from __future__ import annotations

import math

import numpy as np

from empirical.agreement.bundle_io import seeds, tau_grid, train_len, window
from empirical.agreement.contrast import Contrast, contrast_of_errors, seed_interval
from theory.infoscale.cosscale import eta_star, smoothed_mode
from theory.infoscale.infoscale import (
    consistent_eps,
    infoscale,
    invariant_scale,
    softmax_plus_scale,
)


def entropy_at_tau(b: dict, model: str, seed: str, L: int, tau: float) -> float:
    """Stored window entropy at L, interpolated on the temperature grid."""
    w, grid = window(b, model, seed, L), tau_grid(b, seed, model)
    if not grid[0] <= tau <= grid[-1]:
        raise ValueError(f"tau {tau:.4g} outside the stored grid [{grid[0]}, {grid[-1]}]")
    return float(np.interp(tau, grid, w["entropy"]))


def infoscale_drift_contrast(
    b: dict, tolerance: float, margin: float, model: str = "nope", factor: int = 16
) -> Contrast:
    """InfoScale paper Sec. 3.1 / Eq. 15: InfoScale's factor (``theory.infoscale``, at the
    window's key count, d = head dimension) keeps the window entropy at factor*m equal to
    that at m.  Error: abs(H(factor*m, tau) - H(m)) / abs(H(factor*m, 1) - H(m)) (the fraction
    of the drift left).  Alternatives: no scaling, the log-n rule (tau = ln m / ln n),
    and Eq. 15 with d = d_model."""

    m = train_len(b)
    s = b["settings"]
    dh, dm = s["d_model"] // s["n_head"], s["d_model"]
    names = ("InfoScale", "no scaling", "log-n rule", "InfoScale with d = d_model")
    per_seed = {k: [] for k in names}
    drift = []
    for sd in seeds(b, model):
        h0 = window(b, model, sd, m)["entropy"][0]
        n = window(b, model, sd, factor * m)["keys"][0]
        none = entropy_at_tau(b, model, sd, factor * m, 1.0) - h0
        drift.append(none)
        cand = {
            "InfoScale": 1 / infoscale(n, m, dh),
            "no scaling": 1.0,
            "log-n rule": math.log(m) / math.log(n),
            "InfoScale with d = d_model": 1 / infoscale(n, m, dm),
        }
        for k, t in cand.items():
            per_seed[k].append(abs(entropy_at_tau(b, model, sd, factor * m, t) - h0) / abs(none))
    return contrast_of_errors(
        f"InfoScale paper Eq. 15 on {model}: entropy drift m -> {factor}m",
        "|H(16m, tau) - H(m)| / |H(16m, 1) - H(m)|",
        "InfoScale",
        per_seed,
        tolerance,
        margin,
        measured=seed_interval(drift),
    )


#: training logit scales of the invariant-factor contrast: t = (alpha/d_head)^2 <= 1/16, the
#: small-t regime of Eq. 15's Taylor step (lambda, v -> 0), up to the profile's cos_alpha_low
INVARIANT_ALPHAS = (1.0, 2.0, 3.0, 4.0)
#: (reference, inference) window lengths of that contrast, in units of m: steps of 4x, whose
#: root a* = s* a_tr (about 8) keeps several of the 256 byte keys near the tilted mode;
#: m -> 16m needs a* near 14, where the window's keys no longer sample the sphere's tail
INVARIANT_PAIRS = ((1, 4), (4, 16))


def invariant_factor(b: dict, model: str, seed: str, pair: tuple, layer: int, a_tr: float) -> float:
    """Measured s* with H(L1, s* a_tr) = H(L0, a_tr): the stored window entropies of
    ``softmax(a cos)`` at the initial weights, interpolated on the stored scale grid."""
    m, rec = train_len(b), b["results"][model][seed]["init_entropy"]
    grid = np.asarray(rec["scale_grid"])
    h0 = np.asarray(rec["length"][str(pair[0] * m)]["entropy"][layer])
    h1 = np.asarray(rec["length"][str(pair[1] * m)]["entropy"][layer])
    target = float(np.interp(a_tr, grid, h0))
    if not h1[-1] <= target <= h1[0]:
        raise ValueError(f"H({pair[0]}m, {a_tr}) = {target:.4g} outside H({pair[1]}m, .)'s range")
    return float(np.interp(-target, -h1, grid)) / a_tr  # H decreases in the scale


def infoscale_factor_candidates(n: float, n_tr: float, d: int, dm: int, a_tr: float) -> dict:
    """Every candidate factor of the invariant-factor contrast, computed now (theory first)."""

    eq15 = infoscale(n, n_tr, d, consistent_eps(n_tr, d, a_tr))
    t = (a_tr / d) ** 2  # Eq. 12 holds at n_tr: e^{2 eps/d} n_tr^{-2/d} = 1 - t
    return {
        "Eq. 15": eq15,
        "Eq. 9 exact": invariant_scale(n, n_tr, d, a_tr),
        "Eq. 15, eps = 0": infoscale(n, n_tr, d),
        "no scaling": 1.0,
        "log-n rule": softmax_plus_scale(n, n_tr),
        "d = d_model": infoscale(n, n_tr, dm, consistent_eps(n_tr, dm, a_tr)),
        "n^(-1/d)": math.sqrt((1 - (1 - t) * (n_tr / n) ** (1.0 / d)) / t),
        "no square root": eq15**2,
        "inverted ratio": 1.0 / eq15,
    }


def infoscale_factor_contrast(
    b: dict, slack: float, margin: float, model: str = "nope_cosscale"
) -> Contrast:
    """InfoScale paper Eqs. 9-15 in their own regime: a CosScale model at its initial weights
    (q, k near uniform on the sphere, Assumption 3.2), logits a cos(q, k).  Measured: the
    factor s* with H(L1, s* a_tr) = H(L0, a_tr) (:func:`invariant_factor`) for each a_tr of
    :data:`INVARIANT_ALPHAS`, window pair of :data:`INVARIANT_PAIRS` and layer; n, n_tr are
    the windows' mean key counts and d the head dimension.  Error: mean abs(ln s* - ln s)
    over the sweep.  Theory: Eq. 15 with the eps that makes Eq. 12 hold at (n_tr, a_tr);
    beside it the exact Eq. 9 root.  Tolerance: ``slack`` plus the theory's own admitted
    error, the mean abs(ln Eq. 15 - ln Eq. 9) over the sweep (the Laplace and Taylor steps),
    computed now."""
    m, s = train_len(b), b["settings"]
    dh = s["d_model"] // s["n_head"]  # InfoScale's d: the head dimension
    per_seed, measured, admitted = {}, [], []
    for sd in seeds(b, model):
        rec, errs, sstar = b["results"][model][sd]["init_entropy"]["length"], {}, []
        for pair in INVARIANT_PAIRS:
            n_tr, n = (rec[str(f * m)]["keys"] for f in pair)
            for a in INVARIANT_ALPHAS:
                cand = infoscale_factor_candidates(n, n_tr, dh, s["d_model"], a)
                admitted.append(abs(math.log(cand["Eq. 15"] / cand["Eq. 9 exact"])))
                for layer in range(s["n_layer"]):
                    x = invariant_factor(b, model, sd, pair, layer, a)
                    sstar.append(math.log(x))
                    for k, v in cand.items():
                        errs.setdefault(k, []).append(abs(math.log(x / v)))
        measured.append(float(np.mean(sstar)))
        for k, v in errs.items():
            per_seed.setdefault(k, []).append(float(np.mean(v)))
    gap = float(np.mean(admitted))
    pairs = ", ".join(f"{a}m -> {c}m" for a, c in INVARIANT_PAIRS)
    return contrast_of_errors(
        f"InfoScale paper Eq. 15 on {model} (initial weights): invariant factor, {pairs}, "
        f"a_tr = {', '.join(f'{a:g}' for a in INVARIANT_ALPHAS)}",
        "mean |ln s* - ln s|, s*: H(L1, s* a_tr) = H(L0, a_tr)",
        "Eq. 15",
        per_seed,
        slack + gap,
        margin,
        measured=seed_interval(measured),
        beside=("Eq. 9 exact",),
        notes=[
            f"measured: mean ln s* over the sweep; tolerance = slack {slack:g} + Eq. 15's "
            f"admitted error {gap:.4f} (mean |ln Eq. 15 - ln Eq. 9|, computed now)"
        ],
    )


def tilted_mode(hist: np.ndarray, alpha: float, smooth: float = 0.02) -> float:
    """Mode of a cosine histogram on [-1, 1] weighted by e^{alpha (eta - 1)} (the
    attention mass of InfoScale paper Eq. 16), Gaussian-smoothed (``smooth`` in eta)."""
    hist = np.asarray(hist, dtype=float)
    centers = np.linspace(-1, 1, len(hist) + 1)
    centers = 0.5 * (centers[1:] + centers[:-1])
    w = hist * np.exp(alpha * (centers - 1.0))
    return smoothed_mode(centers, w, smooth, reach=4.0)


#: the alpha sweep of the eta* contrast; beyond 16 the stored histograms have too few
#: pairs near the tilted mode (a NoPE model's q, k take one value per byte)
COS_ALPHAS = tuple(range(1, 17))


def eta_star_contrast(
    b: dict, which: str, tolerance: float, margin: float, model: str = "nope_cosscale"
) -> Contrast:
    """InfoScale paper Thm. 3.4 / Eq. 18: the mode of the attention-weighted cosine of a
    CosScale model is eta*(alpha, d), d = head dimension, over the sweep
    :data:`COS_ALPHAS` (the weights e^{alpha eta} re-weight the stored histogram).
    ``which="init"``: the model's initial weights (q, k near uniform on the sphere,
    Assumption 3.2); ``"trained"``: after training.  Error: mean abs(mode - candidate)
    over alpha and layers.  Alternatives: d - 1 or d in place of d - 3, d = d_model,
    and the unweighted mode."""

    s = b["settings"]
    dh, dm = s["d_model"] // s["n_head"], s["d_model"]
    names = ("eta*(alpha, d_head)", "d - 1 for d - 3", "d for d - 3", "d = d_model", "alpha = 0")
    per_seed = {k: [] for k in names}
    for sd in seeds(b, model):
        errs = {k: [] for k in names}
        for hist in b["results"][model][sd]["cos_hist"][which]:
            base = tilted_mode(hist, 0.0)
            for a in COS_ALPHAS:
                mode = tilted_mode(hist, a)
                cand = {
                    names[0]: eta_star(a, dh),
                    names[1]: eta_star(a, dh + 2),
                    names[2]: eta_star(a, dh + 3),
                    names[3]: eta_star(a, dm),
                    names[4]: base,
                }
                for k, v in cand.items():
                    errs[k].append(abs(mode - v))
        for k in names:
            per_seed[k].append(float(np.mean(errs[k])))
    return contrast_of_errors(
        f"InfoScale paper Eq. 18 on {model} ({which} weights), alpha = {COS_ALPHAS[0]}..{COS_ALPHAS[-1]}",
        "mean |weighted cosine mode - eta*| over alpha and layers",
        names[0],
        per_seed,
        tolerance,
        margin,
    )
