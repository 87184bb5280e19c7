"""InfoScale paper claims judged on tiny NoPE and CosScale LMs trained here, on every rung
of the ladder (ci and the stored rungs; the top rung decides,
:func:`paper_checks.scale.on_rungs`): not GAU-alpha; 95% Student-t intervals over the
bundle's seeds."""

from __future__ import annotations

from paper_checks.evidence import Evidence
from paper_checks.registry import Context, claim
from paper_checks.rpe.training_claims import catalogue_evidence
from paper_checks.scale import on_rungs


@claim(
    id="infoscale-train-drift",
    paper="infoscale",
    location="Sec. 3.1, Eq. 15",
    kind="empirical",
    statement="InfoScale's factor (Eq. 15, computed now at the window's key count) keeps "
    "the NoPE model's window entropy at 16m at its value at m, better than no scaling, the "
    "log-n rule and Eq. 15 with d = d_model.",
)
@on_rungs("infoscale", "entropy drift m -> 16m per temperature")
def trained_infoscale_keeps_window_entropy(ctx: Context, b: dict) -> Evidence:
    return catalogue_evidence("infoscale-train-drift", b, "Eq. 15")


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
@on_rungs("infoscale", "window entropy by logit scale at initial weights")
def entropy_keeping_factor_at_init(ctx: Context, b: dict) -> Evidence:
    return catalogue_evidence("infoscale-train-factor", b, "Eq. 15")


@claim(
    id="infoscale-train-cospeak",
    paper="infoscale",
    location="Thm. 3.4, Eqs. 16-18",
    kind="empirical",
    statement="The peak of the attention-weighted cosine of a CosScale model is eta*(alpha, "
    "d_head) over alpha = 1..16, at initial weights (Assumption 3.2) and after training.",
)
@on_rungs("infoscale", "attention-weighted cosine histograms")
def trained_cosine_peak_is_eta_star(ctx: Context, b: dict) -> Evidence:
    return catalogue_evidence("infoscale-train-cospeak", b, "Eq. 18")
