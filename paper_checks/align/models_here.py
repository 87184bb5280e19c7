"""What the attention-alignment claims measured on models built here share: the runs of
:mod:`empirical.audit.paper_runs` (pretrained all-MiniLM-L6-v2 when installed, else a
seeded random-init T5), the name of the model they ran on, and :func:`scoped`, which
makes evidence measured there say that it is not the paper's Flan-T5-XL.  The paper
measures Flan-T5-XL/XXL at 15k tokens, which cannot run here; those claims name what is
missing (:data:`FLAN`).
"""

from __future__ import annotations

import functools
import importlib.util
from collections.abc import Callable

from paper_checks.evidence import Evidence, MissingInput
from paper_checks.registry import Context
from paper_checks.scale import own

HAS_TORCH = importlib.util.find_spec("torch") is not None
FLAN = (
    "Flan-T5-XL weights (3B parameters; not on this machine, nothing is downloaded) "
    "and the 15k-token retrieval inputs"
)
NO_TORCH = "torch and transformers (the empirical extra: pip install .[empirical])"
ONLY_MISSING = "needs the paper's Flan-T5-XL, which is not here: nothing of it to compare"


def runs(ctx: Context) -> tuple:
    """(the :mod:`empirical.audit.paper_runs` module, the model spec, the corpus)."""
    from empirical.audit import paper_runs as pr

    return pr, pr.default_spec(), pr.default_corpus()


def model_name(ctx: Context) -> str:
    """The model the runs use, with the lengths they compare."""
    pr, spec, corpus = runs(ctx)
    s = pr.SIZES[bool(ctx.quick)]
    if spec == "minilm":
        return (
            f"all-MiniLM-L6-v2 (pretrained BERT, absolute positions up to 512, so L "
            f"{s['l_tr']} -> {s['l_ex']} is within its range, not extrapolation)"
        )
    return f"a seeded random-init T5 ({spec}), L {s['l_tr']} -> {s['l_ex']}"


def rung_name(ctx: Context) -> str:
    """The scale the runs rest on, short: the model and its lengths."""
    pr, spec, corpus = runs(ctx)
    s = pr.SIZES[bool(ctx.quick)]
    model = "all-MiniLM-L6-v2" if spec == "minilm" else f"random-init T5 ({spec})"
    return f"{model}, L {s['l_tr']} -> {s['l_ex']} tokens of {corpus}"


def scoped(fn: Callable[[Context], Evidence]) -> Callable[[Context], Evidence]:
    """Evidence measured on a model built here says which model: not the paper's
    Flan-T5-XL, and that model as the one rung its verdict rests on
    (:func:`paper_checks.scale.own`); without torch, the evidence is the missing package."""

    @functools.wraps(fn)
    def check(ctx):
        if not HAS_TORCH:
            return Evidence(
                [MissingInput("the model run", missing=NO_TORCH)],
                scale=own("align", "a model built here (needs torch)"),
            )
        ev = fn(ctx)
        where = model_name(ctx)
        ev.scale = own("align", rung_name(ctx), f"{where}, {runs(ctx)[2]} text")
        ev.notes.insert(
            0,
            f"Measured on {where}, not the paper's Flan-T5-XL at 512 -> 15k; "
            "a disagreement here does not test the paper's Flan-T5 numbers.",
        )
        ev.data.update(measured_on=where, not_the_papers_model=True)
        return ev

    check.rests_on = lambda ctx: [f"own: {rung_name(ctx)}"]
    return check


def assumptions_run(ctx: Context) -> tuple:
    """The Assumptions 1-2 run: (result, first layer's name, the L_tr and L_ex rows)."""
    pr, spec, corpus = runs(ctx)
    res = pr.assumptions_run(spec, corpus, bool(ctx.quick))
    name = res["layers"][0]
    tr, ex = (res["lengths"][t] for t in ("tr", "ex"))
    return res, name, tr, ex


def align_run(ctx: Context, mode: str) -> dict:
    """Algorithm 1's run in ``mode`` ("pmax" or "entropy")."""
    pr, spec, corpus = runs(ctx)
    return pr.align_run(spec, corpus, bool(ctx.quick), mode)
