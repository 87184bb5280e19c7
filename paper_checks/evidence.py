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
* **does not hold** -- some comparison disagrees.  Its severity is computed: items with
  ``role="consequence"`` check what the paper goes on to use the statement for; a
  consequence that disagrees makes it "changes the conclusion", consequences that all
  agree make it "typo; conclusion unaffected", and with no consequence checked it is
  "severity not assessed";
* **cannot be checked here** -- nothing disagrees and an input is missing.

An item measured outside the paper's setting (``outside="why"``) is judged separately
and reported beside the verdict, which comes from the items inside the setting.

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

import math
import operator
from dataclasses import KW_ONLY, dataclass, field, replace

import numpy as np
import sympy as sp
from numpy.typing import ArrayLike

from theory.core.derivation import VERDICTS as STEP_OUTCOMES
from theory.core.derivation import DerivationReport, step_outcome, symbolic_zero

HOLDS, APPROX, FAILS, CANNOT, DEPENDS = (
    "holds",
    "holds approximately",
    "does not hold",
    "cannot be checked here",
    "depends on the reading",
)
VERDICTS = (HOLDS, APPROX, FAILS, CANNOT, DEPENDS)
TYPO, CHANGES, UNASSESSED = (
    "typo; conclusion unaffected",
    "changes the conclusion",
    "severity not assessed",
)
SEVERITIES = (TYPO, CHANGES, UNASSESSED)
#: the verdict over the readings of an ambiguous statement
EVERY_HOLDS, EVERY_FAILS, EVERY_CANNOT = (
    "holds under every reading",
    "does not hold under every reading",
    "cannot be checked here under any reading",
)
#: the one rule that ranks readings (docs/conventions.md, "Readings"): two scores closer
#: than this are a tie, and a tie leaves the verdict to no reading
SCORE_TIE = 1e-9
# outcome of one item
AGREES, NEAR, DISAGREES, MISSING, UNDECIDED, INFO = (
    "agrees",
    "agrees approximately",
    "disagrees",
    "missing",
    "undecided",
    "reported",
)
#: how each derivation-step outcome (theory.core.derivation.VERDICTS) counts, for all papers
STEP_COUNTS = {
    "proved": AGREES,
    "verified numerically": AGREES,
    "approximation": NEAR,
    "refuted": DISAGREES,
    "assumed": INFO,
    "unchecked": INFO,
}
if set(STEP_COUNTS) != set(STEP_OUTCOMES):
    raise ImportError("STEP_COUNTS must cover theory.core.derivation.VERDICTS exactly")
RELATIONS = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
ROLES = ("claim", "consequence")


BASES = ("printed precision", "project", "numeric")


@dataclass(frozen=True)
class Tol:
    """Declared tolerance: agree if ``|computed - paper| <= atol + rtol |paper|``; agree
    approximately within ``approx_atol + approx_rtol |paper|`` (when declared).

    Every tolerance says where it comes from (``basis``): the paper's printed precision
    (:meth:`printed`), the numeric limit of a computation ("numeric", e.g. 30-digit
    arithmetic or a Monte Carlo standard error), or the project's own choice; a
    non-exact tolerance carries its ``reason``, and the report shows both."""

    rtol: float = 0.0
    atol: float = 0.0
    approx_rtol: float | None = None
    approx_atol: float | None = None
    _: KW_ONLY
    reason: str = ""
    basis: str = "project"

    def __post_init__(self):
        if self.basis not in BASES:
            raise ValueError(f"basis must be one of {BASES}, not {self.basis!r}")

    @classmethod
    def printed(cls, decimals: int, where: str, **kw: float) -> Tol:
        """Half a unit in the last printed place: ``where`` prints ``decimals`` decimals.

        >>> Tol.printed(2, "Table 7").as_text()
        'atol=0.005 [printed precision: Table 7 prints 2 decimals]'
        """
        return cls(
            atol=0.5 * 10.0**-decimals,
            reason=f"{where} prints {decimals} decimals",
            basis="printed precision",
            **kw,
        )

    def is_exact(self) -> bool:
        return not (self.rtol or self.atol or self.approx_rtol or self.approx_atol)

    def bound(self, paper: ArrayLike, approx: bool = False) -> float | np.ndarray | None:
        """The allowed difference at ``paper`` (elementwise for arrays)."""
        if approx:
            if self.approx_rtol is None and self.approx_atol is None:
                return None
            return (self.approx_atol or 0.0) + (self.approx_rtol or 0.0) * np.abs(paper)
        return self.atol + (self.rtol * np.abs(paper) if self.rtol else np.zeros_like(paper, float))

    def as_text(self) -> str:
        parts = [
            f"{n}={v:g}"
            for n, v in (
                ("rtol", self.rtol),
                ("atol", self.atol),
                ("approx_rtol", self.approx_rtol),
                ("approx_atol", self.approx_atol),
            )
            if v
        ]
        if not parts:
            return "exact"
        return ", ".join(parts) + f" [{self.basis}" + (f": {self.reason}]" if self.reason else "]")


EXACT = Tol()
#: the numeric limit of an exact derivation step (theory.core.derivation at 30 digits)
EXACT_STEP = Tol(
    rtol=1e-15, atol=1e-15, reason="30-digit arithmetic of the derivation", basis="numeric"
)


def fmt(x: object) -> str:
    """A computed value as text: integers as they are, floats to 6 significant digits,
    sequences shortened.

    >>> fmt(3), fmt(0.1234567891), fmt([1, 2.5, 3, 4, 5, 6]), fmt(float("inf"))
    ('3', '0.123457', '[1, 2.5, 3, 4, …]', 'inf')
    """
    if isinstance(x, (list, tuple, np.ndarray)):
        xs = list(x)
        return "[" + ", ".join(fmt(v) for v in xs[:4]) + (", …" if len(xs) > 4 else "") + "]"
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        return f"{float(x):.6g}"
    return str(x)


def as_number(x: object, what: str) -> float | np.ndarray:
    """``x`` as a float or an array of floats; booleans are refused (a check must give
    the number it compared, not the comparison's result)."""
    if isinstance(x, (bool, np.bool_)) or (
        isinstance(x, (list, tuple)) and any(isinstance(v, bool) for v in x)
    ):
        raise TypeError(f"{what}: give the computed number, not a boolean")
    arr = np.asarray(x, dtype=float)
    return arr if arr.ndim else float(arr)


@dataclass(frozen=True)
class Item:
    """One piece of evidence.  ``key`` names its tolerance in the claim's registration
    (default: ``quantity``); ``where`` is the range it was measured over; ``role`` is
    "claim" (the printed statement) or "consequence" (what the paper uses it for)."""

    quantity: str
    _: KW_ONLY
    source: str = ""
    key: str = ""
    where: str = ""
    role: str = "claim"
    note: str = ""
    outside: str = ""  # non-empty: measured outside the paper's setting, and why

    def __post_init__(self):
        if self.role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, not {self.role!r}")

    @property
    def tol_key(self) -> str:
        return self.key or self.quantity

    def outcome(self, tol: Tol) -> tuple[str, float | None]:
        """(outcome, measured error) under ``tol``."""
        raise NotImplementedError

    def perturbable(self) -> bool:
        return False

    def row(self, tol: Tol) -> dict:
        """This item as one row of the evidence table (JSON-able)."""
        outcome, err = self.outcome(tol)
        return {
            "kind": type(self).__name__,
            "quantity": self.quantity,
            "computed": _jsonable(getattr(self, "computed", None)),
            "paper": _jsonable(getattr(self, "paper", None)),
            "source": self.source,
            "comparison": self.comparison(),
            "tolerance": tol.as_text(),
            "outcome": outcome,
            "error": err,
            "where": self.where,
            "role": self.role,
            "note": self.note,
            "outside the paper's setting": self.outside,
        }

    def comparison(self) -> str:
        return ""

    def describe(self, tol: Tol) -> str:
        """One line of the verdict's summary, consistent with :meth:`outcome` under
        ``tol`` (the tolerance :func:`judge` applies to this item)."""
        return f"{self.quantity}"


def _jsonable(x):
    if isinstance(x, np.ndarray):
        return [_jsonable(v) for v in x.tolist()]
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if isinstance(x, (np.floating, float)):
        x = float(x)
        return x if math.isfinite(x) else str(x)
    if isinstance(x, np.integer):
        return int(x)
    return x if x is None or isinstance(x, (int, str)) else str(x)


@dataclass(frozen=True)
class _Numeric(Item):
    """Shared by the numeric comparisons: ``computed`` against ``paper``."""

    computed: object = None
    paper: object = None

    def __post_init__(self):
        super().__post_init__()
        as_number(self.computed, self.quantity)
        as_number(self.paper, self.quantity)

    def perturbable(self) -> bool:
        return True

    def with_paper(self, value) -> _Numeric:
        return replace(self, paper=value)

    def describe(self, tol: Tol) -> str:
        rel = (
            " vs paper"
            if self.comparison() in ("vs", "=", "~")
            else f"; paper: {self.comparison()}"
        )
        return f"{self.quantity}: computed {fmt(self.computed)}{rel} {fmt(self.paper)}" + (
            f" ({self.source})" if self.source else ""
        )


@dataclass(frozen=True)
class Equal(_Numeric):
    """``computed`` equals ``paper`` within the declared tolerance (elementwise); the
    error reported is relative (absolute where the paper's value is 0)."""

    def comparison(self) -> str:
        return "vs"

    def outcome(self, tol: Tol) -> tuple[str, float | None]:
        c, p = as_number(self.computed, self.quantity), as_number(self.paper, self.quantity)
        with np.errstate(invalid="ignore"):
            diff = np.where(np.asarray(c) == np.asarray(p), 0.0, np.abs(np.subtract(c, p)))
            rel = np.where(
                diff == 0,
                0.0,
                np.where(np.asarray(p) == 0, diff, diff / np.maximum(np.abs(p), 1e-300)),
            )
        rel = float(np.max(np.nan_to_num(rel, nan=np.inf)))
        if np.all(diff <= tol.bound(p)):
            return AGREES, rel
        near = tol.bound(p, approx=True)
        return (NEAR if near is not None and np.all(diff <= near) else DISAGREES), rel


@dataclass(frozen=True)
class Inequality(_Numeric):
    """``computed <relation> paper``, the paper's bound loosened by the tolerance (and
    by the approximation band, for "agrees approximately"); the error reported is by
    how much ``computed`` passes the bound (negative: inside it)."""

    relation: str = "<="

    def __post_init__(self):
        super().__post_init__()
        if self.relation not in RELATIONS:
            raise ValueError(f"relation must be one of {sorted(RELATIONS)}")

    def comparison(self) -> str:
        return self.relation

    def outcome(self, tol: Tol) -> tuple[str, float | None]:
        c, p = as_number(self.computed, self.quantity), as_number(self.paper, self.quantity)
        sign = 1 if self.relation.startswith("<") else -1
        excess = float(np.max(sign * (np.asarray(c) - p)))
        if np.all(RELATIONS[self.relation](c, p + sign * tol.bound(p))):
            return AGREES, excess
        near = tol.bound(p, approx=True)
        if near is not None and np.all(RELATIONS[self.relation](c, p + sign * near)):
            return NEAR, excess
        return DISAGREES, excess


@dataclass(frozen=True)
class Counterexample(Inequality):
    """A search for a counterexample to "for every point of ``searched``: value
    <relation> paper"; ``computed`` is the worst value found, ``witness`` where."""

    searched: str = ""
    witness: str = ""

    def describe(self, tol: Tol) -> str:
        outcome = self.outcome(tol)[0]
        at = {
            DISAGREES: f"; counterexample {self.witness}",
            NEAR: f"; worst at {self.witness}, within the approximation band",
        }
        return (
            f"{self.quantity}: worst {fmt(self.computed)} over {self.searched} vs the "
            f"paper's bound {self.relation} {fmt(self.paper)}"
            + (f" ({self.source})" if self.source else "")
            + (at.get(outcome, "") if self.witness else "")
        )

    def row(self, tol: Tol) -> dict:
        return dict(super().row(tol), searched=self.searched, witness=self.witness)


#: fixed points at which a residual that sympy cannot simplify is evaluated
_PROBES = (sp.Rational(7, 13), sp.Rational(29, 11), sp.Rational(5, 3))


def identically_zero(residual: object) -> bool | None:
    """True if sympy proves ``residual == 0``; False if it proves it nonzero or the
    residual is a nonzero number at a fixed probe point (so not identically zero);
    None if undecided.

    >>> a = sp.Symbol("a")
    >>> identically_zero((a + 1)**2 - a**2 - 2*a - 1), identically_zero(2*a)
    (True, False)
    """
    expr = sp.sympify(residual)
    zero = symbolic_zero(expr)
    if zero is not None or not expr.free_symbols:
        return zero
    syms = sorted(expr.free_symbols, key=str)
    for shift in range(len(_PROBES)):
        point = {s: _PROBES[(shift + i) % len(_PROBES)] + i for i, s in enumerate(syms)}
        value = expr.subs(point).evalf(30)
        if value.is_number and value.is_finite and abs(value) > 1e-20:
            return False
    return None


@dataclass(frozen=True)
class Identity(Item):
    """A symbolic identity ``lhs = rhs`` (the paper's right side); ``residual`` is
    ``lhs - rhs`` as computed, which must simplify to zero."""

    lhs: str = ""
    rhs: str = ""
    residual: object = 0

    def outcome(self, tol: Tol) -> tuple[str, float | None]:
        return {True: AGREES, False: DISAGREES, None: UNDECIDED}[
            identically_zero(self.residual)
        ], None

    def perturbable(self) -> bool:
        return True

    def comparison(self) -> str:
        return "residual"

    def describe(self, tol: Tol) -> str:
        return f"{self.quantity}: {self.lhs} - ({self.rhs}) = {sp.sstr(self.residual)}" + (
            f" ({self.source})" if self.source else ""
        )

    def row(self, tol: Tol) -> dict:
        return dict(
            super().row(tol), computed=self.lhs, paper=self.rhs, residual=sp.sstr(self.residual)
        )


@dataclass(frozen=True)
class DerivationStep(_Numeric):
    """One checked step of a derivation: ``computed`` are the left side's values at the
    checked points, ``paper`` the right side's; ``kind`` and ``symbolic`` as in
    :class:`theory.core.derivation.Step`.  Its outcome is one of the shared step
    outcomes (:data:`STEP_OUTCOMES`), counted by :data:`STEP_COUNTS`."""

    kind: str = "exact"
    symbolic: bool | None = None
    relative: bool = True

    def with_paper(self, value: object) -> DerivationStep:
        # sympy's proof was about the printed right side; a moved value has numbers only
        return replace(self, paper=value, symbolic=None)

    def step_outcome(self, tol: Tol) -> tuple[str, float | None]:
        if self.kind in ("assumption", "definition") or not np.size(self.computed):
            return step_outcome(self.kind, None, None, None), None
        c, p = np.asarray(self.computed, float), np.asarray(self.paper, float)
        diff = np.abs(c - p)
        scale = np.maximum(np.maximum(np.abs(c), np.abs(p)), 1e-300)
        err = float(np.max(diff / scale if self.relative else diff))
        limit = tol.rtol if self.relative else tol.atol
        if self.kind == "approx":
            near = tol.approx_rtol if self.relative else tol.approx_atol
            limit = near if near is not None else limit
        return step_outcome(self.kind, self.symbolic, err, limit), err

    def outcome(self, tol: Tol) -> tuple[str, float | None]:
        verdict, err = self.step_outcome(tol)
        return STEP_COUNTS[verdict], err

    def perturbable(self) -> bool:
        return self.kind in ("exact", "approx") and bool(np.size(self.computed))

    def comparison(self) -> str:
        return "=" if self.kind == "exact" else "~"

    def row(self, tol: Tol) -> dict:
        return dict(super().row(tol), step=self.step_outcome(tol)[0], kind=self.kind)

    def describe(self, tol: Tol) -> str:
        outcome, err = self.step_outcome(tol)
        return (
            f"step '{self.quantity}'"
            + (f" ({self.source})" if self.source else "")
            + f": {outcome}"
            + (f" (error {fmt(err)})" if err else "")
        )


def derivation_steps(report: DerivationReport, key: str = "") -> list[DerivationStep]:
    """The steps of a verified derivation as evidence items (tolerance key ``key`` or
    the step's label)."""
    items = []
    for r in report.results:
        s = r.step
        items.append(
            DerivationStep(
                s.label,
                source=s.source or report.derivation.source,
                key=key or s.label,
                where=s.regime,
                computed=[a for a, _ in r.values],
                paper=[b for _, b in r.values],
                kind=s.kind,
                symbolic=r.symbolic,
                relative=s.error != "absolute",
                note=s.justification,
            )
        )
    return items


@dataclass(frozen=True)
class MissingInput(Item):
    """What this check would need and does not have here (weights, data sets)."""

    missing: str = ""

    def __post_init__(self):
        super().__post_init__()
        if not self.missing:
            raise ValueError("MissingInput must name what is missing")

    def outcome(self, tol: Tol) -> tuple[str, float | None]:
        return MISSING, None

    def describe(self, tol: Tol) -> str:
        return f"{self.quantity}: needs {self.missing}"

    def row(self, tol: Tol) -> dict:
        return dict(super().row(tol), missing=self.missing)


@dataclass(frozen=True)
class Reported(Item):
    """A computed number shown with the evidence but compared with nothing."""

    computed: object = None

    def outcome(self, tol: Tol) -> tuple[str, float | None]:
        return INFO, None

    def describe(self, tol: Tol) -> str:
        return f"{self.quantity}: {fmt(self.computed)}"


@dataclass(frozen=True)
class Reading:
    """One reading of an ambiguous statement, judged on its own ``items``.

    ``consistency`` holds :class:`Equal` items: what this reading predicts for numbers
    the paper prints elsewhere, next to those printed numbers.  They do not enter the
    reading's verdict; they give its consistency score (:func:`consistency_score`), by
    which readings are ranked.  ``reason`` says where the reading comes from."""

    name: str
    items: tuple
    consistency: tuple = ()
    reason: str = ""

    def __post_init__(self):
        bad = [c for c in self.consistency if not isinstance(c, Equal)]
        if bad:
            raise TypeError(f"reading {self.name!r}: consistency items are Equal(...)")


def consistency_score(reading: Reading) -> float | None:
    """The largest relative residual ``|predicted - printed| / |printed|`` over the
    reading's consistency items (absolute where the printed number is 0; a non-finite
    prediction scores ``inf``); ``None`` when the reading predicts no printed number.
    Lower is better (docs/conventions.md, "Readings").

    >>> r = Reading("a", (), consistency=(Equal("B", 1.5, paper=1.6449),))
    >>> round(consistency_score(r), 4), consistency_score(Reading("b", ()))
    (0.0881, None)
    """
    if not reading.consistency:
        return None
    worst = 0.0
    for it in reading.consistency:
        c = np.ravel(np.asarray(as_number(it.computed, it.quantity), float))
        p = np.ravel(np.asarray(as_number(it.paper, it.quantity), float))
        with np.errstate(invalid="ignore", divide="ignore"):
            diff = np.abs(c - p)
            rel = np.where(p == 0, diff, diff / np.abs(p))
        rel = np.where(np.isfinite(rel), rel, np.inf)
        worst = max(worst, float(np.max(rel)) if rel.size else 0.0)
    return worst


@dataclass
class Evidence:
    """What a check returns: items (or readings), figures, and notes that explain."""

    items: list = field(default_factory=list)
    readings: list = field(default_factory=list)
    figures: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    data: dict = field(default_factory=dict)  # further computed numbers (JSON-able)

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


def severity(rows: list) -> str:
    """The severity of a failed claim from its checked consequences (rows of (item,
    outcome, error)): "changes the conclusion" only when a consequence item was checked
    and disagrees; "typo; conclusion unaffected" when every consequence was checked and
    agrees; "severity not assessed" when no consequence was checked.

    >>> severity([(Equal("x", 1, paper=2), DISAGREES, 1.0)])
    'severity not assessed'
    """
    conseq = [o for it, o, _ in rows if it.role == "consequence"]
    if any(o == DISAGREES for o in conseq):
        return CHANGES
    if conseq and all(o in (AGREES, NEAR) for o in conseq):
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
        return Verdict(
            FAILS,
            f"{len(bad)} of {judged} comparisons disagree: " + "; ".join(say(it) for it, _ in bad),
            table=table,
            severity=severity(rows),
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


def best_reading(scores: list) -> int | None:
    """Index of the best-scoring reading (lowest score), or None when some reading has
    no score or the two best are tied (within :data:`SCORE_TIE`).

    >>> best_reading([0.3, 0.01, 2.0]), best_reading([0.1, None]), best_reading([0.0, 0.0])
    (1, None, None)
    """
    if any(s is None for s in scores) or len(scores) < 2:
        return None
    order = sorted(range(len(scores)), key=lambda i: scores[i])
    a, b = scores[order[0]], scores[order[1]]
    return None if b - a <= SCORE_TIE * max(1.0, abs(a)) or a == b else order[0]


def _judge_readings(readings, tolerances: dict) -> Verdict:
    """Every reading judged; the verdict over them (docs/conventions.md, "Readings")."""
    per = [(r, judge_items(list(r.items), tolerances), consistency_score(r)) for r in readings]
    scores = [s for _, _, s in per]
    best = best_reading(scores)
    groups = {verdict_group(vv.status) for _, vv, _ in per}
    rows = [
        {
            "reading": r.name,
            "reason": r.reason,
            "verdict": vv.label,
            "score": s,
            "best": i == best,
            "summary": vv.summary,
            "table": vv.table,
            "consistency": [c.row(Tol()) for c in r.consistency],
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
            f"{DEPENDS}, and no computed score ranks the readings: {listing}",
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
    v.figures, v.notes = list(evidence.figures), list(evidence.notes)
    v.evidence = {"data": evidence.data} if evidence.data else {}
    return v
