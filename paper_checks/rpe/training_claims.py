"""RPE paper claims judged on the seeded bundle of tiny models trained here
(``python -m empirical.bundle --profile ci|paper``; runs/paper, else runs/ci).

Each claim is decided by the contrasts of ``empirical.agreement.catalogue`` that name it
(the ones the agreement tests assert, with their declared thresholds): the theory's error within the declared
tolerance, and its gap to each sceptic's alternative above the declared margin, on 95%
Student-t intervals over the bundle's seeds.  A comparison the theory loses makes the
claim "does not hold".  The models are byte-level 2-layer LMs at m = 32 (ci) or 64
(paper), not the paper's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paper_checks.evidence import Evidence, Inequality, MissingInput
from paper_checks.registry import Context, claim

if TYPE_CHECKING:
    from empirical.agreement.contrast import Contrast

NEEDS = "the seeded bundle: python -m empirical.bundle --profile ci --out runs/ci"


def seeded_bundle_or_missing(quantity: str) -> tuple[dict | None, Evidence | None]:
    """(bundle, None) when the seeded bundle is there, else (None, Evidence(MissingInput))."""
    from empirical.agreement.bundle_io import find_profile_bundle, load_profile_bundle

    if find_profile_bundle() is None:
        return None, Evidence([MissingInput(quantity, missing=NEEDS)])
    return load_profile_bundle(), None


def scale_note(b: dict) -> str:
    s = b["settings"]
    return (
        f"{b['profile']} profile ({b['folder']}): {s['steps']} steps, m={s['seq_len']}, "
        f"d={s['d_model']}, {s['n_layer']} layers, seeds {list(s['seeds'])}; intervals are "
        "95% Student-t over seeds"
    )


def contrast_items(c: Contrast, source: str) -> list:
    """Evidence items of a contrast: the theory's error against the declared tolerance,
    and each alternative's paired gap against the declared margin."""
    rel = f" / error({c.relative_to})" if c.relative_to else ""
    items = [
        Inequality(
            f"{c.title}: upper 95% bound of error({c.theory}){rel}",
            c.theory_error().hi,
            paper=c.tolerance,
            relation="<=",
            source=source,
        )
    ]
    items += [
        Inequality(
            f"{c.title}: lower 95% bound of error({a}) - error({c.theory})",
            c.gap(a).lo,
            paper=c.margin,
            relation=">",
            source=source,
        )
        for a in c.alternatives
    ]
    return items


@claim(
    id="rpe-train-fig3",
    paper="rpe",
    location="Thm. 3.4, Fig. 3",
    kind="empirical",
    statement="The RPEs whose series theory.series calls convergent keep perplexity stable "
    "from m to 16m (Def. 2.1, delta = 0.1), sinusoidal positions do not, and the divergent "
    "label predicts instability.",
)
def convergent_rpes_keep_perplexity_stable(ctx: Context) -> Evidence:
    from empirical.agreement.catalogue import STABLE_DELTA, for_check
    from empirical.agreement.rpe import convergent_rpes, ppl_ratio

    b, missing = seeded_bundle_or_missing("ppl(16m)/ppl(m) over seeds")
    if missing:
        return missing
    conv = convergent_rpes(b)
    items = [
        Inequality(
            f"{r} (convergent per theory.series): upper 95% bound of ppl(16m)/ppl(m)",
            ppl_ratio(b, r, 16).hi,
            paper=1 + STABLE_DELTA,
            relation="<",
            source="Def. 2.1, Thm. 3.4",
        )
        for r in conv
    ]
    items.append(
        Inequality(
            "sinusoidal: lower 95% bound of ppl(16m)/ppl(m)",
            ppl_ratio(b, "sinusoidal", 16).lo,
            paper=1 + STABLE_DELTA,
            relation=">",
            source="Fig. 3",
        )
    )
    (c,) = [e.contrast(b) for e in for_check("rpe-train-fig3")]
    items.append(
        Inequality(
            "misclassification rate of 'all converge' minus theory.series' labels (lower bound)",
            c.gap("all converge").lo,
            paper=0.0,
            relation=">",
            source="Thm. 3.4 (divergent label)",
        )
    )
    return Evidence(items, notes=[scale_note(b), c.table()])


@claim(
    id="rpe-train-fig6",
    paper="rpe",
    location="Figs. 5-6, Sec. 4",
    kind="empirical",
    statement="The certified TRF of each trained convergent RPE (theory.series, learned "
    "values) predicts the models' ERF better than the TRF with head and tail swapped and "
    "than a TRF that ignores the RPE.",
)
def certified_trf_predicts_erf(ctx: Context) -> Evidence:
    from empirical.agreement.catalogue import for_check

    b, missing = seeded_bundle_or_missing("ERF vs certified TRF over seeds")
    if missing:
        return missing
    (c,) = [e.contrast(b) for e in for_check("rpe-train-fig6")]
    return Evidence(contrast_items(c, "Figs. 5-6"), notes=[scale_note(b), c.table()])
