"""InfoScale paper claims judged on tiny NoPE LMs trained here (seeded bundle,
``python -m empirical.bundle --profile ci|paper``): not GAU-alpha; 95% Student-t
intervals over the bundle's seeds."""

from __future__ import annotations

from paper_checks.evidence import Evidence
from paper_checks.registry import Context, claim
from paper_checks.rpe.training_claims import contrast_items, scale_note, seeded_bundle_or_missing


@claim(
    id="infoscale-train-drift",
    paper="infoscale",
    location="Sec. 3.1, Eq. 15",
    kind="empirical",
    statement="InfoScale's factor (Eq. 15, computed now at the window's key count) keeps "
    "the NoPE model's window entropy at 16m at its value at m, better than no scaling, the "
    "log-n rule and Eq. 15 with d = d_model.",
)
def trained_infoscale_keeps_window_entropy(ctx: Context) -> Evidence:
    from empirical.agreement.catalogue import for_check

    b, missing = seeded_bundle_or_missing("entropy drift m -> 16m per temperature")
    if missing:
        return missing
    (c,) = [e.contrast(b) for e in for_check("infoscale-train-drift")]
    return Evidence(contrast_items(c, "Eq. 15"), notes=[scale_note(b), c.table()])


@claim(
    id="infoscale-train-factor",
    paper="infoscale",
    location="Sec. 3.1, Eqs. 9-15",
    kind="empirical",
    statement="At the CosScale model's initial weights (q, k near uniform on the sphere), "
    "the logit factor that keeps the window entropy at n equal to that at n_tr (measured, "
    "m -> 4m, 4m -> 16m, m -> 16m, a_tr = 1..4) is Eq. 15's, within Eq. 15's own distance "
    "to the exact Eq. 9 root, and closer than eps = 0, no scaling, the log-n rule, d = "
    "d_model, n^(-1/d), no square root and the inverted ratio.",
)
def entropy_keeping_factor_at_init(ctx: Context) -> Evidence:
    from empirical.agreement.catalogue import for_check

    b, missing = seeded_bundle_or_missing("window entropy by logit scale at initial weights")
    if missing:
        return missing
    (c,) = [e.contrast(b) for e in for_check("infoscale-train-factor")]
    return Evidence(contrast_items(c, "Eq. 15"), notes=[scale_note(b), c.table()])


@claim(
    id="infoscale-train-cospeak",
    paper="infoscale",
    location="Thm. 3.4, Eqs. 16-18",
    kind="empirical",
    statement="The peak of the attention-weighted cosine of a CosScale model is eta*(alpha, "
    "d_head) over alpha = 1..16, at initial weights (Assumption 3.2) and after training.",
)
def trained_cosine_peak_is_eta_star(ctx: Context) -> Evidence:
    from empirical.agreement.catalogue import for_check

    b, missing = seeded_bundle_or_missing("attention-weighted cosine histograms")
    if missing:
        return missing
    cs = [e.contrast(b) for e in for_check("infoscale-train-cospeak")]
    items = [i for c in cs for i in contrast_items(c, "Eq. 18")]
    return Evidence(items, notes=[scale_note(b)] + [c.table() for c in cs])
