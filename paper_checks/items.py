"""The items of evidence a check returns, the tolerances they are judged under, and the
outcome vocabulary shared by every paper (:mod:`paper_checks.evidence` judges them).

* :class:`Tol` -- a declared tolerance with its basis (printed precision, numeric, project);
* :class:`Equal`, :class:`Inequality`, :class:`Counterexample`, :class:`Identity`,
  :class:`DerivationStep`, :class:`MissingInput`, :class:`Reported` -- one comparison
  each, whose :meth:`Item.outcome` under a tolerance is computed, never typed.
"""

from __future__ import annotations

import math
import operator
from dataclasses import KW_ONLY, dataclass, replace

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
TYPO, CHANGES, UNASSESSED, OTHER_CAUSE = (
    "typo; conclusion unaffected",
    "changes the conclusion",
    "severity not assessed",
    "the conclusion fails for another cause",
)
SEVERITIES = (TYPO, CHANGES, UNASSESSED, OTHER_CAUSE)
#: the verdict over the readings of an ambiguous statement
EVERY_HOLDS, EVERY_FAILS, EVERY_CANNOT = (
    "holds under every reading",
    "does not hold under every reading",
    "cannot be checked here under any reading",
)
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
    #: for a consequence: its computed value with this claim alone repaired (the other
    #: steps as the paper has them), and what the repair is -- the counterfactual that
    #: decides whether this claim "changes the conclusion"
    repaired: object = None
    repair: str = ""

    def __post_init__(self):
        if self.role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, not {self.role!r}")

    @property
    def tol_key(self) -> str:
        return self.key or self.quantity

    def outcome(self, tol: Tol) -> tuple[str, float | None]:
        """(outcome, measured error) under ``tol``."""
        raise NotImplementedError

    def repaired_outcome(self, tol: Tol) -> str | None:
        """The outcome of this consequence with the claim repaired alone (None: no
        counterfactual was computed)."""
        if self.repaired is None:
            return None
        return replace(self, computed=self.repaired, repaired=None).outcome(tol)[0]

    def perturbable(self) -> bool:
        return False

    def row(self, tol: Tol) -> dict:
        """This item as one row of the evidence table (JSON-able)."""
        outcome, err = self.outcome(tol)
        return {
            "kind": type(self).__name__,
            "quantity": self.quantity,
            "computed": jsonable(getattr(self, "computed", None)),
            "paper": jsonable(getattr(self, "paper", None)),
            "source": self.source,
            "comparison": self.comparison(),
            "tolerance": tol.as_text(),
            "outcome": outcome,
            "error": err,
            "where": self.where,
            "role": self.role,
            "note": self.note,
            "outside the paper's setting": self.outside,
            **(
                {"repaired": jsonable(self.repaired), "repair": self.repair}
                if self.repaired is not None
                else {}
            ),
        }

    def comparison(self) -> str:
        return ""

    def describe(self, tol: Tol) -> str:
        """One line of the verdict's summary, consistent with :meth:`outcome` under
        ``tol`` (the tolerance :func:`judge` applies to this item)."""
        return f"{self.quantity}"


def jsonable(x: object) -> object:
    if isinstance(x, np.ndarray):
        return [jsonable(v) for v in x.tolist()]
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
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


#: the scales a consistency residual is measured on (docs/conventions.md, "Readings"):
#: "relative" |c - p| / |p|; "log" |ln c - ln p| (a positive quantity entering its
#: equation multiplicatively, e.g. a probability by Eq. 2); "nats" |c - p| (a quantity
#: that is itself a logarithm, e.g. a logit: on one scale with "log" by Eq. 2)
SCALES = ("relative", "log", "nats")


@dataclass(frozen=True)
class Equal(_Numeric):
    """``computed`` equals ``paper`` within the declared tolerance (elementwise); the
    error reported is relative (absolute where the paper's value is 0).

    As a reading's consistency item, ``scale`` (one of :data:`SCALES`) is the scale of
    its residual, and ``circular`` (non-empty: why) marks a prediction that cannot
    disagree by construction (inferred from the same printed number): not scored."""

    scale: str = "relative"
    circular: str = ""

    def __post_init__(self):
        super().__post_init__()
        if self.scale not in SCALES:
            raise ValueError(f"scale must be one of {SCALES}, not {self.scale!r}")

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
