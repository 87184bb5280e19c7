"""The claim registry: ``@claim(id=..., paper=..., location=..., statement=...,
tolerances={...})``.

Every claim of the three papers is registered with this one decorator, keywords only,
on a check function named after what it checks (``sandwich_series_diverges``).
A check is a function ``check(ctx) -> Evidence`` (:mod:`paper_checks.evidence`): it
computes, and :func:`paper_checks.evidence.judge` turns its evidence and the tolerances
declared here into the verdict.  ``ctx`` is a :class:`Context` giving the output folder
for figures, the seed and whether empirical (training) work is allowed.  A claim whose
evidence has no paper value to perturb (a missing input, say) says why in
``unperturbable``.  Duplicate ids are an error.  A claim that does not hold is a
finding, not a failure; only a check that raises is a failure.
"""

from __future__ import annotations

import importlib
import pkgutil
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from theory.core.registry import Registry

from .evidence import (  # noqa: F401  (verdict names re-exported for the claim modules)
    APPROX,
    CANNOT,
    FAILS,
    HOLDS,
    VERDICTS,
    Evidence,
    MissingInput,
    Tol,
    Verdict,
    judge,
)
from .inferred import NotComputable
from .scale import fixed, planned_rungs

PAPERS = {
    "rpe": "rpe-extrapolation-conditions.txt (Length extrapolation conditions for RPE)",
    "align": "attention-alignment-t5.txt (Attention alignment / T5 temperature)",
    "infoscale": "infoscale-cosscale.txt (InfoScale and CosScale)",
}
KINDS = ("symbolic", "numeric", "empirical")
#: causes shared by several claims: the report shows each as one finding, its claims as
#: its symptoms (``@claim(..., root_cause=key)``)
ROOT_CAUSES = {
    "infoscale-taylor-step": "InfoScale's derivation (App. A.4 -> Eq. 10) drops the term "
    "-1/4 log(4t+1) and expands in t = lambda^2 v^2 as if lambda, v -> 0; at the paper's "
    "own settings t is not small, and every later step inherits the error",
    "rpe-sandwich-argument": "App. B's argument that Sandwich's series converges: Eqs. 41 "
    "and 43 do not hold as printed and Raabe's test (Eq. 45) is applied in the reversed "
    "direction; the series diverges",
    "align-sigma-inference": "the alignment paper prints no sigma; the sigma that Eq. 2 "
    "gives from Tables 1 and 7 does not reproduce Table 7's top logits under Assumption 1, "
    "so Assumptions 1, 2 and Eq. 2 cannot all hold at the paper's operating point",
}


@dataclass
class Claim:
    id: str
    paper: str
    location: str
    statement: str
    kind: str
    check: object
    empirical: bool = False
    tolerances: dict = field(default_factory=dict)
    unperturbable: str = ""
    root_cause: str = ""


@dataclass
class Context:
    outdir: Path
    empirical: bool = False
    quick: bool = False
    seed: int = 0


REGISTRY: Registry[Claim] = Registry("claim id")


def claim(
    *,
    id: str,
    paper: str,
    location: str,
    statement: str,
    kind: str = "numeric",
    empirical: bool = False,
    tolerances: dict | None = None,
    unperturbable: str = "",
    root_cause: str = "",
) -> Callable[[Callable[[Context], Evidence]], Callable[[Context], Evidence]]:
    """Register ``check`` under ``id``; duplicate ids raise ``ValueError``.

    ``tolerances`` maps an evidence item's key to its :class:`~paper_checks.evidence.Tol`
    (``"default"`` for the rest); ``unperturbable`` says why the claim's evidence has no
    paper value whose perturbation could change the verdict (empty: it has)."""
    tolerances = dict(tolerances or {})
    bad = [k for k, v in tolerances.items() if not isinstance(v, Tol)]
    if bad:
        raise TypeError(f"tolerances {bad} of {id!r} are not Tol(...)")
    unsourced = [k for k, v in tolerances.items() if not v.is_exact() and not v.reason]
    if unsourced:
        raise ValueError(f"tolerances {unsourced} of {id!r} say neither source nor reason")
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; one of {sorted(PAPERS)}")
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; one of {KINDS}")
    if root_cause and root_cause not in ROOT_CAUSES:
        raise ValueError(f"unknown root cause {root_cause!r}; one of {sorted(ROOT_CAUSES)}")

    def register(check):
        REGISTRY.add(
            id,
            Claim(
                id,
                paper,
                location,
                statement,
                kind,
                check,
                empirical or kind == "empirical",
                tolerances,
                unperturbable,
                root_cause,
            ),
        )
        return check

    return register


def load_all() -> Registry[Claim]:
    """Import every ``*claims`` module of each paper's package (``paper_checks.rpe``,
    ``paper_checks.align``, ``paper_checks.infoscale``); each registers its claims.  A
    package's ``CLAIM_MODULES`` gives the paper's order (the rest follow by name)."""
    for paper in PAPERS:
        pkg = importlib.import_module(f"paper_checks.{paper}")
        found = sorted(m.name for m in pkgutil.iter_modules(pkg.__path__))
        found = [m for m in found if m.endswith("claims")]
        order = list(getattr(pkg, "CLAIM_MODULES", ()))
        if set(order) - set(found):
            raise ImportError(f"{pkg.__name__}.CLAIM_MODULES names missing modules")
        for name in order + [m for m in found if m not in order]:
            importlib.import_module(f"{pkg.__name__}.{name}")
    return REGISTRY


def verdict_of(c: Claim, result: Evidence) -> Verdict:
    """The verdict of claim ``c`` from what its check returned: :class:`Evidence`, judged
    under the claim's declared tolerances.  Anything else (a verdict included) is refused:
    a check computes, it never decides; so is an empirical claim's evidence that does not
    say the scale it rests on (:mod:`paper_checks.scale`)."""
    if not isinstance(result, Evidence):
        raise TypeError(f"check {c.id} returned {type(result).__name__}, not Evidence")
    if c.empirical and result.scale is None:
        raise TypeError(
            f"empirical check {c.id} returned evidence without the scale it rests on "
            "(Evidence(scale=...), paper_checks.scale)"
        )
    return judge(result, c.tolerances)


def evidence_of(c: Claim, ctx: Context) -> Evidence:
    """What ``c``'s check returns; a printed value for which the check has no answer
    (:class:`~paper_checks.inferred.NotComputable`) becomes a missing input naming it."""
    try:
        return c.check(ctx)
    except NotComputable as exc:
        rungs = planned_rungs(c.check, ctx) if c.empirical else []
        return Evidence(
            [MissingInput(c.id, missing=f"printed values it can use: {exc}")],
            scale=fixed(c.paper, {n: n for n in rungs or ["nothing measured"]})
            if c.empirical
            else None,
        )


def run_claim(c: Claim, ctx: Context) -> dict:
    """Run one check; a crash is recorded with its traceback, never raised."""
    t0 = time.perf_counter()
    row = {
        "id": c.id,
        "paper": c.paper,
        "location": c.location,
        "statement": c.statement,
        "kind": c.kind,
    }
    try:
        v = verdict_of(c, evidence_of(c, ctx))
        row.update(
            verdict=v.status,
            severity=v.severity,
            label=v.label,
            summary=v.summary,
            evidence=v.evidence,
            table=v.table,
            readings=v.readings,
            over_readings=v.over_readings,
            best_reading=v.best_reading,
            outside_setting=v.outside,
            root_cause=c.root_cause,
            tolerances={k: t.as_text() for k, t in c.tolerances.items()},
            missing=v.missing,
            notes=v.notes,
            error=v.error,
            measured_range=v.measured_range,
            figures=[str(f) for f in v.figures],
            crashed=False,
        )
        if c.empirical:  # no empirical verdict without the scale it rests on
            row.update(rungs=v.scale.get("rungs", []), scale=v.scale)
    except Exception as exc:  # recorded in the report and reflected in the exit code
        row.update(
            verdict="crashed",
            summary=f"{type(exc).__name__}: {exc}",
            evidence={"traceback": traceback.format_exc()},
            crashed=True,
        )
    row["seconds"] = round(time.perf_counter() - t0, 3)
    return row
