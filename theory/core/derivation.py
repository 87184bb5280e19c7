"""A derivation is a list of checked steps; shared by every derivation in the project.

Each :class:`Step` claims ``lhs = rhs`` (or ``lhs ~ rhs`` for an approximation) with a
justification.  :meth:`Derivation.verify` checks

* **exact** steps symbolically (sympy shows ``lhs - rhs`` simplifies to zero, or the
  ratio to one) *and* numerically at random points of the parameter domain with mpmath;
  integrals are evaluated by mpmath quadrature there, an independent route;
* **approximate** steps numerically over a parameter grid, reporting the largest
  relative (or absolute) error and where it occurs;
* **assumption / definition** steps are recorded, not checked.

The result renders as Markdown with LaTeX, one verdict per line.

>>> import sympy as sp
>>> x = sp.Symbol("x", positive=True)
>>> d = Derivation("toy", "none", [
...     Step("square", (x + 1)**2, x**2 + 2*x + 1, "expand", domain={x: (0.1, 3)}),
...     Step("log1p", sp.log(1 + x), x, "Taylor, x small", exact=False,
...          grid={x: [1e-3, 1e-2]}),
... ])
>>> report = d.verify(seed=0)
>>> [r.verdict for r in report.results]
['proved', 'approximation']
>>> report.results[1].max_error < 6e-3
True
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field

import mpmath as mp
import sympy as sp

VERDICTS = ("proved", "verified numerically", "refuted", "approximation", "assumed", "unchecked")


@dataclass
class Step:
    """One line of a derivation: ``lhs`` becomes ``rhs`` because of ``justification``.

    ``domain`` maps each free symbol to an interval ``(lo, hi)`` for random spot checks
    (exact steps); ``grid`` maps symbols to lists of values (approximate steps; when
    absent the domain is sampled; ``points`` lists explicit points instead of a
    product grid, for parameters that depend on each other).  ``lhs_value`` optionally computes the left side
    numerically by an independent route (a function of a ``{name: mpf}`` dict), e.g. a
    quadrature or a Monte Carlo estimate, instead of evaluating ``lhs``.
    ``kind`` is ``"exact"``, ``"approx"``, ``"assumption"`` or ``"definition"``.
    """

    label: str
    lhs: sp.Expr | None
    rhs: sp.Expr | None
    justification: str
    exact: bool = True
    domain: dict = field(default_factory=dict)
    grid: dict | None = None
    kind: str | None = None
    error: str = "relative"
    lhs_value: Callable | None = None
    regime: str = ""  # where an approximation is meant to hold, in words
    source: str = ""  # equation number in the paper
    symbolic_check: bool = True  # False: skip sympy (e.g. integrals sympy cannot do fast)
    points: list | None = None  # explicit list of {sym: value} points (not a product)

    def __post_init__(self):
        if self.kind is None:
            self.kind = "exact" if self.exact else "approx"
        self.exact = self.kind == "exact"


@dataclass
class StepResult:
    step: Step
    verdict: str
    symbolic: bool | None = None  # None: not attempted / undecided
    max_error: float | None = None
    worst_point: dict | None = None
    points_checked: int = 0
    note: str = ""
    values: list = field(default_factory=list)  # (lhs, rhs) as floats at each point

    def as_dict(self) -> dict:
        s = self.step
        return {
            "label": s.label,
            "kind": s.kind,
            "source": s.source,
            "justification": s.justification,
            "verdict": self.verdict,
            "symbolic": self.symbolic,
            "max_error": self.max_error,
            "error_kind": s.error,
            "points_checked": self.points_checked,
            "worst_point": (
                {str(k): float(v) for k, v in self.worst_point.items()}
                if self.worst_point
                else None
            ),
            "lhs": None if s.lhs is None else sp.latex(s.lhs),
            "rhs": None if s.rhs is None else sp.latex(s.rhs),
            "regime": s.regime,
            "note": self.note,
        }


@dataclass
class DerivationReport:
    derivation: Derivation
    results: list

    @property
    def ok(self) -> bool:
        """True when no step is refuted."""
        return all(r.verdict != "refuted" for r in self.results)

    def as_dict(self) -> dict:
        d = self.derivation
        return {
            "title": d.title,
            "source": d.source,
            "ok": self.ok,
            "steps": [r.as_dict() for r in self.results],
        }

    def to_markdown(self) -> str:
        d = self.derivation
        lines = [f"## {d.title}", "", f"Source: {d.source}", ""]
        for i, r in enumerate(self.results, 1):
            s = r.step
            rel = "=" if s.kind in ("exact", "definition") else r"\approx"
            lines.append(
                f"**{i}. {s.label}**" + (f" ({s.source})" if s.source else "") + f" — *{r.verdict}*"
            )
            if s.lhs is not None and s.rhs is not None:
                lines += ["", f"$$ {sp.latex(s.lhs)} {rel} {sp.latex(s.rhs)} $$", ""]
            lines.append(f"Justification: {s.justification}.")
            if s.regime:
                lines.append(f"Regime: {s.regime}.")
            if r.max_error is not None:
                where = ", ".join(f"{k}={float(v):.4g}" for k, v in (r.worst_point or {}).items())
                lines.append(
                    f"Largest {s.error} error {r.max_error:.3g} over "
                    f"{r.points_checked} points (at {where})."
                )
            if r.note:
                lines.append(r.note)
            lines.append("")
        return "\n".join(lines)


class Derivation:
    """An ordered list of :class:`Step` with a title and a source (paper, section)."""

    def __init__(self, title: str, source: str, steps: list):
        self.title, self.source, self.steps = title, source, list(steps)

    def verify(
        self, seed: int = 0, samples: int = 4, dps: int = 30, tol: float | None = None
    ) -> DerivationReport:
        rng = random.Random(seed)
        results = [verify_step(s, rng, samples, dps, tol) for s in self.steps]
        return DerivationReport(self, results)


def symbolic_zero(expr: sp.Expr) -> bool | None:
    """True if sympy proves ``expr == 0``, False if it proves ``expr != 0``, else None."""
    expr = sp.sympify(expr)
    for simplifier in (
        lambda e: e,
        sp.expand,
        sp.cancel,
        sp.powsimp,
        sp.logcombine,
        lambda e: sp.expand_log(e, force=True),
        sp.trigsimp,
        sp.simplify,
        lambda e: sp.simplify(e.rewrite(sp.erf)),
    ):
        try:
            z = simplifier(expr)
        except Exception:  # a simplifier may raise on exotic input; try the next one
            continue
        if z == 0:
            return True
        if z.is_number and z.is_zero is False:
            return False
    return None


def _doit(expr):
    """Evaluate sums and integrals symbolically where sympy can; keep them otherwise."""
    try:
        done = sp.sympify(expr).doit()
    except Exception:  # sympy could not evaluate: the numeric route still checks it
        return sp.sympify(expr)
    if isinstance(done, sp.Piecewise):  # convergence conditions: take the generic case
        done = done.args[0][0]
    return done


def _quadrable(node) -> bool:
    """A one-variable definite integral whose integrand has no other free symbol."""
    return (
        isinstance(node, sp.Integral)
        and len(node.limits) == 1
        and len(node.limits[0]) == 3
        and node.function.free_symbols <= {node.limits[0][0]}
        and not (node.limits[0][1].free_symbols | node.limits[0][2].free_symbols)
    )


def _quad(node, dps):
    """Evaluate a one-variable integral by mpmath quadrature (tanh-sinh), split at 0."""
    var, a, b = node.limits[0]
    f = sp.lambdify(var, node.function, modules="mpmath")
    lo = -mp.inf if a == -sp.oo else mp.mpf(str(sp.N(a, dps)))
    hi = mp.inf if b == sp.oo else mp.mpf(str(sp.N(b, dps)))
    pts = [lo, mp.mpf(0), hi] if lo < 0 < hi else [lo, hi]
    return sp.Float(mp.quad(f, pts), dps)


def _evaluate(expr, point, dps):
    with mp.workdps(dps):
        expr = sp.sympify(expr).subs(point)
        if expr.has(sp.Integral):  # numeric quadrature: independent of sympy's integrate
            expr = expr.replace(_quadrable, lambda node: _quad(node, dps))
        value = expr.doit().evalf(dps)
        return (
            mp.mpmathify(complex(value) if not value.is_real else value)
            if value.is_number
            else None
        )


def _error(a, b, kind):
    diff = abs(a - b)
    if kind == "absolute":
        return diff
    scale = max(abs(a), abs(b))
    return diff / scale if scale != 0 else mp.mpf(0)


def _points(step, rng, samples):
    if step.points:
        yield from (dict(p) for p in step.points)
        return
    if step.grid:
        keys = list(step.grid)
        for values in itertools.product(*(step.grid[k] for k in keys)):
            yield dict(zip(keys, values))
        return
    for _ in range(samples):
        yield {s: lo + (hi - lo) * rng.random() for s, (lo, hi) in step.domain.items()}


def _real(x: object) -> float:
    """A float for a numeric value (the real part of a complex one, which the error
    measure already judged)."""
    return float(mp.re(x)) if isinstance(x, mp.mpc) else float(x)


def verify_step(
    step: Step, rng: random.Random, samples: int = 4, dps: int = 30, tol: float | None = None
) -> StepResult:
    if step.kind in ("assumption", "definition") or step.lhs is None:
        return StepResult(step, "assumed" if step.kind == "assumption" else "unchecked")
    symbolic = None
    if step.kind == "exact" and step.symbolic_check:
        lhs, rhs = _doit(step.lhs), _doit(step.rhs)
        symbolic = symbolic_zero(lhs - rhs)
        if symbolic is None and rhs != 0:
            ratio = symbolic_zero(sp.simplify(lhs / rhs) - 1)
            symbolic = ratio if ratio else symbolic
    worst, worst_pt, count, pairs = mp.mpf(0), None, 0, []
    with mp.workdps(dps):
        for raw in _points(step, rng, samples):
            point = {k: sp.Float(mp.mpf(v), dps) for k, v in raw.items()}
            named = {str(k): mp.mpf(v) for k, v in raw.items()}
            a = step.lhs_value(named) if step.lhs_value else _evaluate(step.lhs, point, dps)
            b = _evaluate(step.rhs, point, dps)
            if a is None or b is None:
                return StepResult(
                    step,
                    "unchecked",
                    symbolic,
                    note=f"not numeric at {named}: free symbols missing from the domain",
                )
            e = _error(a, b, step.error)
            pairs.append((_real(a), _real(b)))
            count += 1
            if e >= worst:
                worst, worst_pt = e, raw
    err = float(worst)
    limit = None if step.kind == "approx" else (tol if tol is not None else 10.0 ** (-(dps // 2)))
    verdict = step_outcome(step.kind, symbolic, err, limit)
    return StepResult(
        step,
        verdict,
        symbolic if step.kind == "exact" else None,
        err,
        worst_pt,
        count,
        values=pairs,
    )


def step_outcome(kind: str, symbolic: bool | None, error: float | None, limit: float | None) -> str:
    """The outcome of one derivation step, one of :data:`VERDICTS`; the single rule
    shared by every derivation of every paper.

    ``kind`` is the step's kind, ``symbolic`` what sympy showed (None: undecided),
    ``error`` the largest numeric error, ``limit`` the largest error allowed (None: an
    approximation whose accuracy is reported, not judged).

    >>> step_outcome("exact", True, 1e-30, 1e-15), step_outcome("exact", None, 0.0, 1e-15)
    ('proved', 'verified numerically')
    >>> step_outcome("approx", None, 0.2, 0.1), step_outcome("approx", None, 0.05, 0.1)
    ('refuted', 'approximation')
    """
    if kind == "assumption":
        return "assumed"
    if kind == "definition" or error is None:
        return "unchecked"
    if limit is not None and error > limit:
        return "refuted"
    if kind == "approx":
        return "approximation"
    if symbolic:
        return "proved"
    return "refuted" if symbolic is False else "verified numerically"
