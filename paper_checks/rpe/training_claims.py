"""RPE paper claims judged on the ladder of tiny models trained here: ci (``python -m
empirical.bundle --profile ci``, $LENGTHX_AGREEMENT else runs/ci) and the rungs stored in
``empirical/agreement/rungs`` (:func:`empirical.agreement.bundle_io.rung_names`).

Each claim is decided by the contrasts of ``empirical.agreement.catalogue`` that name it
(the ones the agreement tests assert, with their declared thresholds): the theory's error
within the declared tolerance, and its gap to each sceptic's alternative above the
declared margin, on 95% Student-t intervals over the bundle's seeds.  Every contrast is
computed on every rung (:func:`paper_checks.scale.on_rungs`); the top rung's comparisons
decide, so "does not hold" means the theory loses at the top rung, and the lower rungs'
verdicts and the trend of the theory's error across rungs are stated beside it.  The
models are 2-layer LMs of width 64 (m = 32 bytes at ci to m = 192 BPE tokens at the top
CPU rung), not the paper's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paper_checks.evidence import Evidence, Inequality
from paper_checks.registry import Context, claim
from paper_checks.scale import on_rungs

if TYPE_CHECKING:
    from empirical.agreement.contrast import Contrast


def scale_note(b: dict) -> str:
    """One rung's training settings (the top rung's, beside its verdict)."""
    s = b["settings"]
    return (
        f"rung {b.get('rung', 'ci')} ({b['folder']}): {s['steps']} steps, m={s['seq_len']} "
        f"{s.get('tokenizer', 'bytes')} tokens of {s.get('corpus', 'stdlib')}, "
        f"d={s['d_model']}, {s['n_layer']} layers, seeds {list(s['seeds'])}; intervals are "
        "95% Student-t over seeds"
    )


def catalogue_evidence(check_id: str, b: dict, source: str, items: list = ()) -> Evidence:
    """The evidence of claim ``check_id`` on bundle ``b``: ``items`` and the items of every
    catalogue contrast that decides it, with the contrasts (for their trend across rungs)."""
    from empirical.agreement.catalogue import for_check

    cs = [e.contrast(b) for e in for_check(check_id)]
    return Evidence(
        list(items) + [i for c in cs for i in contrast_items(c, source)],
        notes=[scale_note(b)] + [c.table() for c in cs],
        contrasts=cs,
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
@on_rungs("rpe", "ppl(16m)/ppl(m) over seeds")
def convergent_rpes_keep_perplexity_stable(ctx: Context, b: dict) -> Evidence:
    from empirical.agreement.catalogue import STABLE_DELTA, for_check
    from empirical.agreement.rpe import convergent_rpes, ppl_ratio

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
    return Evidence(items, notes=[scale_note(b), c.table()], contrasts=[c])


@claim(
    id="rpe-train-fig6",
    paper="rpe",
    location="Figs. 5-6, Sec. 4",
    kind="empirical",
    statement="The certified TRF of each trained convergent RPE (theory.series, learned "
    "values) predicts the models' ERF better than the TRF with head and tail swapped and "
    "than a TRF that ignores the RPE.",
)
@on_rungs("rpe", "ERF vs certified TRF over seeds")
def certified_trf_predicts_erf(ctx: Context, b: dict) -> Evidence:
    return catalogue_evidence("rpe-train-fig6", b, "Figs. 5-6")
