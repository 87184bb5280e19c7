"""InfoScale paper claims judged on tiny NoPE LMs trained here (seeded bundle,
``python -m empirical.bundle --profile ci|paper``): not GAU-alpha; 95% Student-t
intervals over the bundle's seeds."""

from __future__ import annotations

from paper_checks.evidence import Evidence, Inequality, Reported
from paper_checks.registry import Context, claim
from paper_checks.rpe.training_claims import scale_note, seeded_bundle_or_missing

CASES = (("nope", "infoscale"), ("nope", "log_n"), ("nope_cosscale", "infoscale"))


@claim(
    id="infoscale-train-drift",
    paper="infoscale",
    location="Sec. 3.1, Eq. 15",
    kind="empirical",
    statement="InfoScale (and the log_n rule) keep attention entropy closer to its training "
    "value from m to 16m than no scaling.",
)
def check_drift(ctx: Context) -> Evidence:
    from empirical.training.results import entropy_drift, paired_difference, scaled_ppl_ratio

    b, missing = seeded_bundle_or_missing("entropy drift m -> 16m")
    if missing:
        return missing
    items = []
    for model, rule in CASES:
        d = paired_difference(b, entropy_drift, (model, rule), (model, "none"))
        items += [
            Inequality(
                f"{model}/{rule}: upper bound of drift minus drift without scaling",
                d.hi,
                paper=0.0,
                relation="<",
                source="Eq. 15",
            ),
            Reported(
                f"{model}/{rule}: ppl(16m)/ppl(m)", computed=scaled_ppl_ratio(b, model, rule).mean
            ),
        ]
    items.append(Reported("nope/none: ppl(16m)/ppl(m)", computed=scaled_ppl_ratio(b, "nope").mean))
    return Evidence(items, notes=[scale_note(b)])


@claim(
    id="infoscale-train-cospeak",
    paper="infoscale",
    location="Thm. 3.4, Eqs. 16-18",
    kind="empirical",
    statement="The peak of the attention-weighted cosine of a CosScale model moves toward 1 "
    "as alpha grows (eta*, Eq. 18).",
)
def check_cospeak(ctx: Context) -> Evidence:
    from empirical.training.results import cos_peak, seed_interval

    b, missing = seeded_bundle_or_missing("attention-weighted cosine peak")
    if missing:
        return missing
    hi, lo = cos_peak(b, "nope_cosscale"), cos_peak(b, "nope_cosscale_low")
    d = seed_interval([x - y for x, y in zip(hi["peak"].values, lo["peak"].values)])
    return Evidence(
        [
            Inequality(
                f"lower bound of peak(alpha={hi['alpha']}) - peak(alpha={lo['alpha']})",
                d.lo,
                paper=0.0,
                relation=">",
                source="Thm. 3.4",
            ),
            Reported(f"measured peak, alpha={hi['alpha']}", computed=hi["peak"].mean),
            Reported(
                f"eta*(alpha={hi['alpha']}, d={hi['d_head']}) (Eq. 18)", computed=hi["eta_star"]
            ),
            Reported(f"measured peak, alpha={lo['alpha']}", computed=lo["peak"].mean),
            Reported(
                f"eta*(alpha={lo['alpha']}, d={lo['d_head']}) (Eq. 18)", computed=lo["eta_star"]
            ),
        ],
        notes=[scale_note(b)],
    )
