"""The claim registry: ``@claim(id=..., paper=..., location=..., statement=...)``.

A check is a function ``check(ctx) -> Verdict``.  ``ctx`` is a :class:`Context` giving
the output folder for figures and whether empirical (training) work is allowed.
Duplicate ids are an error.  A claim that does not hold is a finding, not a failure;
only a check that raises is a failure.
"""
from __future__ import annotations

import importlib
import pkgutil
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from theory.core.registry import Registry

PAPERS = {
    "rpe": "rpe-extrapolation-conditions.txt (Length extrapolation conditions for RPE)",
    "align": "attention-alignment-t5.txt (Attention alignment / T5 temperature)",
    "infoscale": "infoscale-cosscale.txt (InfoScale and CosScale)",
}
HOLDS, APPROX, FAILS, CANNOT = ("holds", "holds approximately", "does not hold",
                                "cannot be checked here")
VERDICTS = (HOLDS, APPROX, FAILS, CANNOT)
KINDS = ("symbolic", "numeric", "empirical")


@dataclass
class Verdict:
    """Outcome of one check.  ``evidence`` holds numbers (JSON-able), ``figures`` paths.

    For ``holds approximately`` give ``error`` and ``measured_range``; for ``does not
    hold`` give a counterexample or the corrected statement in ``summary``/``evidence``;
    for ``cannot be checked here`` the reason in ``summary``.
    """
    status: str
    summary: str
    evidence: dict = field(default_factory=dict)
    error: float | None = None
    measured_range: str = ""
    figures: list = field(default_factory=list)

    def __post_init__(self):
        if self.status not in VERDICTS:
            raise ValueError(f"unknown verdict {self.status!r}; one of {VERDICTS}")


@dataclass
class Claim:
    id: str
    paper: str
    location: str
    statement: str
    kind: str
    check: object
    empirical: bool = False


@dataclass
class Context:
    outdir: Path
    empirical: bool = False
    quick: bool = False


REGISTRY: Registry[Claim] = Registry("claim id")


def claim(id: str, paper: str, location: str, statement: str, kind: str = "numeric",
          empirical: bool = False):
    """Register ``check`` under ``id``; duplicate ids raise ``ValueError``."""
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; one of {sorted(PAPERS)}")
    if kind not in KINDS:
        raise ValueError(f"unknown kind {kind!r}; one of {KINDS}")

    def register(check):
        REGISTRY.add(id, Claim(id, paper, location, statement, kind, check,
                               empirical or kind == "empirical"))
        return check
    return register


def load_all() -> dict:
    """Import every ``*claims`` module of each paper's package (``paper_checks.rpe``,
    ``paper_checks.align``, ``paper_checks.infoscale``); each registers its claims."""
    for paper in PAPERS:
        pkg = importlib.import_module(f"paper_checks.{paper}")
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            if info.name.endswith("claims"):
                importlib.import_module(f"{pkg.__name__}.{info.name}")
    return REGISTRY


def run_claim(c: Claim, ctx: Context) -> dict:
    """Run one check; a crash is recorded with its traceback, never raised."""
    t0 = time.perf_counter()
    row = {"id": c.id, "paper": c.paper, "location": c.location,
           "statement": c.statement, "kind": c.kind}
    try:
        v = c.check(ctx)
        if not isinstance(v, Verdict):
            raise TypeError(f"check {c.id} returned {type(v).__name__}, not Verdict")
        row.update(verdict=v.status, summary=v.summary, evidence=v.evidence,
                   error=v.error, measured_range=v.measured_range,
                   figures=[str(f) for f in v.figures], crashed=False)
    except Exception as exc:  # recorded in the report and reflected in the exit code
        row.update(verdict="crashed", summary=f"{type(exc).__name__}: {exc}",
                   evidence={"traceback": traceback.format_exc()}, crashed=True)
    row["seconds"] = round(time.perf_counter() - t0, 3)
    return row
