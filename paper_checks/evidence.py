"""Evidence in, verdict out: what a check returns and the one function that judges it.

A check function computes; it never decides.  It returns an :class:`Evidence`: a list of
items, each a quantity it computed next to the paper's reference value and where the
paper states it (equation, table, page), with the comparison that applies:

* :class:`Equal` -- computed equals the paper's value to a tolerance (``rtol``/``atol``);
* :class:`Inequality` -- ``computed <relation> paper`` (a bound the paper states);
* :class:`Counterexample` -- the worst case of a search over a stated domain against the
  bound the paper claims for every point (found or not, with what was searched);
* :class:`Identity` -- a symbolic identity, the residual ``lhs - rhs`` must simplify to 0;
* :class:`DerivationStep` -- one step of a derivation, its outcome from the single
  step vocabulary of :mod:`theory.core.derivation` (the same for every paper);
* :class:`MissingInput` -- "cannot be checked here", naming exactly what is missing;
* :class:`Reported` -- a number shown in the report, compared with nothing.

A statement with several readings returns one :class:`Reading` per reading, each with
its own items and with what it predicts for numbers the paper prints elsewhere (its
consistency items).  Every reading is judged; the verdict over them is "holds under
every reading", "does not hold under every reading" or "depends on the reading", and
where they disagree the reading with the lowest consistency score (the largest relative
residual against those printed numbers) decides, or none when the scores tie or some
reading has none (docs/conventions.md, "Readings").  No hand-set preference decides.  Tolerances are declared where the claim is registered
(``@claim(..., tolerances={"B": Tol(rtol=1e-12)})``, keyed by :attr:`Item.key`), in the
style of scipy's ``FuncData(...).check()``: data and tolerance are declared, pass/fail
is computed.  :func:`judge` turns evidence and tolerances into a :class:`Verdict`:

* **holds** -- every comparison agrees within its tolerance;
* **holds approximately** -- none disagrees, some agree only within their declared
  approximation band (``approx_rtol``/``approx_atol``); the verdict carries the measured
  relative error and the range where it was measured;
* **does not hold** -- some comparison disagrees.  Its severity is computed by
  counterfactual: items with ``role="consequence"`` check what the paper goes on to use
  the statement for, each with its value when this claim alone is repaired
  (``repaired=``); a consequence that disagrees and agrees so repaired makes it "changes
  the conclusion", one that still disagrees "the conclusion fails for another cause",
  consequences that all agree "typo; conclusion unaffected"; with no consequence checked,
  or a failing one without its counterfactual, it is "severity not assessed";
* **cannot be checked here** -- nothing disagrees and an input is missing.

An item measured outside the paper's setting (``outside="why"``) is judged separately
and reported beside the verdict, which comes from the items inside the setting.

An empirical evidence says the scale it rests on (``Evidence(scale=...)``, a
:class:`paper_checks.scale.Scale`): the rungs of trained models it was measured on, the
top one's items deciding and every lower rung's evidence judged apart; the verdict's
``scale`` names the rungs and states the verdict at its scale with the trend across
rungs, and that wording heads its summary (the status stays one of :data:`VERDICTS`).

The summary is generated from the items (numbers formatted from the computed values),
so a report can never disagree with its own numbers.  The test-suite moves the paper's
reference values of every registered claim (within the tolerance: the verdict must
stay; beyond it, on the items that decide the verdict: the verdict must change).

A check, registered with its tolerances (``key`` names the tolerance; undeclared keys
use ``"default"`` or are exact)::

    @claim(id="rpe-eq29", paper="rpe", location="Sec. 3.4, Eq. 29", statement="...",
           tolerances={"order": Tol(rtol=1e-5)})
    def check_eq29(ctx):
        return Evidence([Equal("B", b_total, paper=1, source="Eq. 29"),
                         Equal("eps TRF(eps), 1e-9 vs 1e-12", p9, paper=p12, key="order",
                               role="consequence", source="Eq. 29 (the order)")],
                        notes=["the integral approximation gets B wrong"])

>>> ev = Evidence([Equal("B = sum_t b_t", 1.6449340668, paper=1, source="Eq. 29"),
...                Equal("eps * TRF(eps) at eps = 1e-9", 0.6079271, paper=0.6079271019,
...                      source="ours", key="order")])
>>> v = judge(ev, {"order": Tol(rtol=1e-6)})
>>> v.label
'does not hold (severity not assessed)'
>>> v.summary
'1 of 2 comparisons disagree: B = sum_t b_t: computed 1.64493 vs paper 1 (Eq. 29)'
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from paper_checks.items import (
    AGREES,
    APPROX,
    BASES,
    CANNOT,
    CHANGES,
    DEPENDS,
    DISAGREES,
    EVERY_CANNOT,
    EVERY_FAILS,
    EVERY_HOLDS,
    EXACT,
    EXACT_STEP,
    FAILS,
    HOLDS,
    INFO,
    MISSING,
    NEAR,
    OTHER_CAUSE,
    RELATIONS,
    ROLES,
    SCALES,
    SEVERITIES,
    STEP_COUNTS,
    TYPO,
    UNASSESSED,
    UNDECIDED,
    VERDICTS,
    Counterexample,
    DerivationStep,
    Equal,
    Identity,
    Inequality,
    Item,
    MissingInput,
    Reported,
    Tol,
    as_number,
    derivation_steps,
    fmt,
    identically_zero,
)
from paper_checks.readings import (
    SCORE_TIE,
    Reading,
    best_reading,
    consistency_rows,
    consistency_score,
    residual,
    robust_best,
)

__all__ = [
    "AGREES",
    "APPROX",
    "BASES",
    "CANNOT",
    "CHANGES",
    "DEPENDS",
    "DISAGREES",
    "EVERY_CANNOT",
    "EVERY_FAILS",
    "EVERY_HOLDS",
    "EXACT",
    "EXACT_STEP",
    "FAILS",
    "HOLDS",
    "INFO",
    "MISSING",
    "NEAR",
    "OTHER_CAUSE",
    "RELATIONS",
    "ROLES",
    "SCALES",
    "SCORE_TIE",
    "SEVERITIES",
    "STEP_COUNTS",
    "TYPO",
    "UNASSESSED",
    "UNDECIDED",
    "VERDICTS",
    "Counterexample",
    "DerivationStep",
    "Equal",
    "Evidence",
    "Identity",
    "Inequality",
    "Item",
    "MissingInput",
    "Reading",
    "Reported",
    "Tol",
    "Verdict",
    "as_number",
    "best_reading",
    "consistency_rows",
    "consistency_score",
    "derivation_steps",
    "fmt",
    "identically_zero",
    "judge",
    "judge_items",
    "residual",
    "robust_best",
    "severity",
    "tolerance_of",
    "verdict_group",
]


@dataclass
class Evidence:
    """What a check returns: items (or readings), figures, and notes that explain."""

    items: list = field(default_factory=list)
    readings: list = field(default_factory=list)
    figures: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    data: dict = field(default_factory=dict)  # further computed numbers (JSON-able)
    #: the computed threshold that decides the claim, as text formatted from the numbers;
    #: it heads the verdict's summary (and so the findings list)
    decided_by: str = ""
    #: what an empirical evidence rests on (:class:`paper_checks.scale.Scale`): the rungs
    #: of trained models, the lower rungs' evidence judged apart, the paper's setting
    scale: object = None
    #: the catalogue contrasts the items come from (:mod:`empirical.agreement.catalogue`),
    #: read for their trend across rungs; not judged
    contrasts: list = field(default_factory=list)

    def __post_init__(self):
        if len(self.readings) == 1:
            raise ValueError("a statement with readings has at least two")
        if self.readings and self.items:
            raise ValueError("with readings, every item belongs to a reading")
        if not (self.items or self.readings):
            raise ValueError("evidence needs at least one item or reading")


@dataclass
class Verdict:
    """Outcome of one check, made by :func:`judge` (never by a check function)."""

    status: str
    summary: str
    evidence: dict = field(default_factory=dict)
    error: float | None = None
    measured_range: str = ""
    figures: list = field(default_factory=list)
    severity: str = ""
    table: list = field(default_factory=list)
    readings: list = field(default_factory=list)
    missing: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    over_readings: str = ""
    best_reading: str = ""
    outside: dict = field(default_factory=dict)
    decided_by: str = ""
    #: the scale an empirical verdict rests on (:meth:`paper_checks.scale.Scale.record`):
    #: its ``rungs``, each rung's verdict, the trend, and the verdict said at its scale
    scale: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.status not in VERDICTS:
            raise ValueError(f"unknown verdict {self.status!r}; one of {VERDICTS}")
        if self.severity and self.severity not in SEVERITIES:
            raise ValueError(f"unknown severity {self.severity!r}; one of {SEVERITIES}")

    @property
    def label(self) -> str:
        """The status with its severity, e.g. "does not hold (typo; conclusion unaffected)";
        for an ambiguous statement, the verdict over its readings too."""
        head = self.status
        if self.over_readings in (EVERY_HOLDS, EVERY_FAILS, EVERY_CANNOT):
            head = self.over_readings if self.status != APPROX else f"{APPROX} under every reading"
        elif self.best_reading:
            head = f"{self.status} (depends on the reading; best-scoring: {self.best_reading!r})"
        return f"{head} ({self.severity})" if self.severity else head


def tolerance_of(tolerances: dict, item: Item) -> Tol:
    """The tolerance that applies to ``item``: its key's, else ``"default"``, else exact."""
    if isinstance(item, DerivationStep) and item.kind == "exact":
        return tolerances.get(item.tol_key, EXACT_STEP)
    return tolerances.get(item.tol_key, tolerances.get("default", EXACT))


def severity(rows: list, tolerances: dict | None = None) -> str:
    """The severity of a failed claim by counterfactual, from its checked consequences
    (rows of (item, outcome, error)): "changes the conclusion" only when a consequence
    disagrees and, with this claim alone repaired (:attr:`Item.repaired`, the other steps
    as the paper has them), agrees; "the conclusion fails for another cause" when every
    failing consequence still fails so repaired; "typo; conclusion unaffected" when every
    consequence was checked and agrees; "severity not assessed" otherwise (no consequence
    checked, or a failing one without its counterfactual).

    >>> severity([(Equal("x", 1, paper=2), DISAGREES, 1.0)])
    'severity not assessed'
    >>> use = Equal("use", 3.0, paper=1.0, role="consequence", repaired=1.0)
    >>> severity([(use, DISAGREES, 2.0)]), severity([(replace(use, repaired=2.5), DISAGREES, 2.0)])
    ('changes the conclusion', 'the conclusion fails for another cause')
    """
    tolerances = tolerances or {}
    conseq = [(it, o) for it, o, _ in rows if it.role == "consequence"]
    failing = [it for it, o in conseq if o == DISAGREES]
    if failing:
        fixed = [it.repaired_outcome(tolerance_of(tolerances, it)) for it in failing]
        if any(f is None for f in fixed):
            return UNASSESSED
        return CHANGES if any(f in (AGREES, NEAR) for f in fixed) else OTHER_CAUSE
    if conseq and all(o in (AGREES, NEAR) for _, o in conseq):
        return TYPO
    return UNASSESSED


def judge_items(items: list, tolerances: dict) -> Verdict:
    """The verdict of ``items`` under ``tolerances`` (the items outside the paper's
    setting judged apart)."""
    inside = [it for it in items if not it.outside]
    outside = [it for it in items if it.outside]
    if outside and any(not isinstance(it, Reported) for it in inside):
        v = _judge_setting(inside, tolerances)
        vo = _judge_setting(outside, tolerances)
        v.outside = {
            "verdict": vo.label,
            "summary": vo.summary,
            "why": "; ".join(dict.fromkeys(it.outside for it in outside)),
            "table": vo.table,
        }
        return v
    if outside:
        vo = _judge_setting(outside, tolerances)
        why = "; ".join(dict.fromkeys(it.outside for it in outside))
        return Verdict(
            CANNOT,
            f"not checked inside the paper's setting; outside it ({why}): {vo.label}: "
            + vo.summary,
            table=vo.table,
            missing=["a check inside the paper's setting"],
            outside={"verdict": vo.label, "summary": vo.summary, "why": why, "table": vo.table},
        )
    return _judge_setting(items, tolerances)


def _judge_setting(items, tolerances: dict) -> Verdict:
    rows = [(it, *it.outcome(tolerance_of(tolerances, it))) for it in items]
    table = [it.row(tolerance_of(tolerances, it)) for it in items]

    def say(it: Item) -> str:  # described under the tolerance it was judged with
        return it.describe(tolerance_of(tolerances, it))

    by = {
        o: [(it, e) for it, oo, e in rows if oo == o]
        for o in (AGREES, NEAR, DISAGREES, MISSING, UNDECIDED)
    }
    judged = len(rows) - sum(1 for _, o, _ in rows if o == INFO)
    if not judged:
        raise ValueError("no item compares anything: evidence without a comparison")
    missing = [it.missing for it, _ in by[MISSING]]
    if by[DISAGREES]:
        bad = by[DISAGREES]
        counter = [
            f"with this claim alone repaired ({it.repair}), {it.quantity}: "
            f"{it.repaired_outcome(tolerance_of(tolerances, it))} (largest |value| "
            f"{fmt(float(np.max(np.abs(as_number(it.repaired, it.quantity)))))})"
            for it, _ in bad
            if it.role == "consequence" and it.repaired is not None
        ]
        return Verdict(
            FAILS,
            f"{len(bad)} of {judged} comparisons disagree: "
            + "; ".join(say(it) for it, _ in bad)
            + "".join(f". Counterfactual: {c}" for c in counter),
            table=table,
            severity=severity(rows, tolerances),
            missing=missing,
        )
    if missing or by[UNDECIDED]:
        what = [f"needs {m}" for m in missing] + [
            f"not decided: {say(it)}" for it, _ in by[UNDECIDED]
        ]
        return Verdict(CANNOT, "; ".join(what), table=table, missing=missing)
    if by[NEAR]:
        err = max((e for _, e in by[NEAR] if e is not None), default=None)
        where = "; ".join(dict.fromkeys(it.where for it, _ in by[NEAR] if it.where))
        return Verdict(
            APPROX,
            f"agrees approximately (largest error {fmt(err)})"
            + (f" over {where}" if where else "")
            + ": "
            + "; ".join(say(it) for it, _ in by[NEAR]),
            table=table,
            error=err,
            measured_range=where,
        )
    return Verdict(
        HOLDS,
        f"all {judged} comparisons agree: "
        + "; ".join(say(it) for it, _ in by[AGREES][:3])
        + ("; …" if len(by[AGREES]) > 3 else ""),
        table=table,
    )


def verdict_group(status: str) -> str:
    """``status`` with "holds approximately" counted as "holds"."""
    return {APPROX: HOLDS}.get(status, status)


def _judge_readings(readings, tolerances: dict) -> Verdict:
    """Every reading judged; the verdict over them (docs/conventions.md, "Readings")."""
    best, scores, unranked = robust_best(list(readings))
    per = [(r, judge_items(list(r.items), tolerances), s) for r, s in zip(readings, scores)]
    groups = {verdict_group(vv.status) for _, vv, _ in per}
    rows = [
        {
            "reading": r.name,
            "reason": r.reason,
            "verdict": vv.label,
            "score": s,
            "relative score": consistency_score(r, "relative"),
            "best": i == best,
            "summary": vv.summary,
            "table": vv.table,
            "consistency": consistency_rows(r.consistency),
        }
        for i, (r, vv, s) in enumerate(per)
    ]
    listing = "; ".join(
        f"'{r.name}': {vv.label}" + (f" (score {fmt(s)})" if s is not None else " (no score)")
        for r, vv, s in per
    )
    if len(groups) == 1:
        over = {HOLDS: EVERY_HOLDS, FAILS: EVERY_FAILS}.get(groups.pop(), EVERY_CANNOT)
        pick = per[best][1] if best is not None else _mildest(per)
        v = replace(pick, summary=f"{over}: {listing}", readings=rows, over_readings=over)
        if over == EVERY_FAILS and best is None:
            sev = {vv.severity for _, vv, _ in per}
            v.severity = sev.pop() if len(sev) == 1 else UNASSESSED
        return v
    if best is None:
        return Verdict(
            DEPENDS,
            f"{DEPENDS}, and no computed score ranks the readings"
            + (f" ({unranked})" if unranked else "")
            + f": {listing}",
            readings=rows,
            over_readings=DEPENDS,
            missing=sorted({m for _, vv, _ in per for m in vv.missing}),
        )
    r, vv, s = per[best]
    return replace(
        vv,
        summary=f"{DEPENDS}; the best-scoring reading '{r.name}' (score {fmt(s)}) decides: "
        f"{vv.summary}. All readings: {listing}",
        readings=rows,
        over_readings=DEPENDS,
        best_reading=r.name,
    )


def _mildest(per) -> Verdict:
    """Of readings that agree in kind, the verdict that claims least (approximately over
    exactly; the shared table of the first otherwise)."""
    return next((vv for _, vv, _ in per if vv.status == APPROX), per[0][1])


def judge(evidence: Evidence, tolerances: dict | None = None) -> Verdict:
    """The verdict that ``evidence`` supports under the declared ``tolerances`` (a map
    from item key to :class:`Tol`; ``"default"`` applies to undeclared keys).  Pure:
    the same evidence and tolerances always give the same verdict."""
    tolerances = tolerances or {}
    if not evidence.readings:
        v = judge_items(evidence.items, tolerances)
    else:
        v = _judge_readings(evidence.readings, tolerances)
    if evidence.decided_by:
        v.summary = f"decided by {evidence.decided_by}. {v.summary}"
        v.decided_by = evidence.decided_by
    if evidence.scale is not None:  # the lower rungs judged apart; the top one decides
        lower = {n: judge(e, tolerances) for n, e in evidence.scale.lower.items()}
        v.scale = evidence.scale.record(v, lower)
        v.summary = f"{v.scale['text']}. {v.summary}"
    v.figures, v.notes = list(evidence.figures), list(evidence.notes)
    v.evidence = {"data": evidence.data} if evidence.data else {}
    return v
