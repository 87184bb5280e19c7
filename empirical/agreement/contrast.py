"""Theory against a sceptic's alternatives, over seeds: :class:`Contrast` and its intervals.

A contrast holds, per candidate (the theory first, then its alternatives), the per-seed
error against one measured quantity, as an :class:`Interval` (mean and two-sided
Student-t interval over the seeds).  The theory *agrees* when the upper end of its error
interval is within the declared tolerance, and *beats* an alternative when the lower end
of the paired (same seed) interval of ``error(alternative) - error(theory)`` exceeds the
declared margin.  The thresholds are declared in :mod:`empirical.agreement.catalogue`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from scipy.stats import t as student_t


@dataclass(frozen=True)
class Interval:
    """Mean over seeds with a two-sided Student-t confidence interval (``level``).

    >>> iv = seed_interval([1.0, 2.0, 3.0])
    >>> iv.mean, round(iv.lo, 4), round(iv.hi, 4), iv.n
    (2.0, -0.4841, 4.4841, 3)
    """

    mean: float
    lo: float
    hi: float
    n: int
    values: tuple
    level: float = 0.95

    def as_dict(self) -> dict:
        return {
            "mean": self.mean,
            "lo": self.lo,
            "hi": self.hi,
            "n": self.n,
            "values": list(self.values),
            "level": self.level,
        }

    def __str__(self) -> str:
        return f"{self.mean:.4g} [{self.lo:.4g}, {self.hi:.4g}]"


def seed_interval(values: Iterable[float], level: float = 0.95) -> Interval:
    """Student-t interval of the mean of per-seed values (n >= 2; zero width if constant)."""
    v = np.asarray([float(x) for x in values], dtype=float)
    if len(v) < 2 or not np.all(np.isfinite(v)):
        raise ValueError(f"need >= 2 finite per-seed values, got {list(v)}")
    half = float(student_t.ppf(0.5 + level / 2, len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v)))
    return Interval(
        float(v.mean()),
        float(v.mean()) - half,
        float(v.mean()) + half,
        len(v),
        tuple(float(x) for x in v),
        level,
    )


@dataclass
class Contrast:
    """Theory against a sceptic's alternatives on one measured quantity.

    ``errors[name]`` is the per-seed error of candidate ``name`` (the theory first);
    the theory *agrees* when the upper end of its error interval is at most
    ``tolerance``, and *beats* an alternative when the lower end of the paired (same
    seed) interval of ``error(alternative) - error(theory)`` exceeds ``margin``.
    Both thresholds are declared before the measurement
    (:mod:`empirical.agreement.catalogue`).

    >>> c = Contrast("demo", "|x - x_pred|", "theory",
    ...              {"theory": seed_interval([0.1, 0.2, 0.15]),
    ...               "null": seed_interval([1.0, 1.1, 0.9])}, tolerance=0.5, margin=0.3)
    >>> c.agrees(), c.beats("null")
    (True, True)
    """

    title: str
    quantity: str
    theory: str
    errors: dict
    tolerance: float
    margin: float
    measured: Interval | None = None
    predictions: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    relative_to: str | None = None  # tolerance on error(theory) / error(this), per seed
    beside: tuple = ()  # shown for comparison under their own names, not alternatives

    @property
    def alternatives(self) -> list[str]:
        return [k for k in self.errors if k != self.theory and k not in self.beside]

    def gap(self, alt: str) -> Interval:
        """Paired per-seed ``error(alt) - error(theory)``."""
        return seed_interval(
            [a - t for a, t in zip(self.errors[alt].values, self.errors[self.theory].values)]
        )

    def theory_error(self) -> Interval:
        """The theory's error, or its per-seed ratio to ``relative_to``'s error.

        A seed where the null's error is 0 (nothing for the theory to recover) gives the
        ratio 0 when the theory's error is 0 too and infinity otherwise; with an infinite
        ratio the interval is ``[inf, inf]`` (the theory cannot agree).

        >>> c = Contrast("d", "q", "T", {"T": seed_interval([0.1, 0.0, 0.2]),
        ...              "N": seed_interval([0.2, 0.0, 0.4])}, 2.0, 0.0, relative_to="N")
        >>> c.theory_error().values, c.agrees()
        ((0.5, 0.0, 0.5), True)
        >>> c.errors["T"] = seed_interval([0.1, 0.01, 0.2]); c.theory_error().hi
        inf
        """
        if self.relative_to is None:
            return self.errors[self.theory]
        pairs = zip(self.errors[self.theory].values, self.errors[self.relative_to].values)
        ratios = [t / r if r else (0.0 if t == 0 else math.inf) for t, r in pairs]
        if all(math.isfinite(x) for x in ratios):
            return seed_interval(ratios)
        return Interval(math.inf, math.inf, math.inf, len(ratios), tuple(ratios))

    def agrees(self) -> bool:
        return self.theory_error().hi <= self.tolerance

    def beats(self, alt: str) -> bool:
        return self.gap(alt).lo > self.margin

    def losers(self) -> list[str]:
        """Alternatives the theory does not beat by the margin."""
        return [a for a in self.alternatives if not self.beats(a)]

    def table(self) -> str:
        """Plain-text table: measured, each candidate's prediction and error, the gaps."""
        n = self.errors[self.theory].n
        lines = [f"{self.title}  ({self.quantity}; {n} seeds, 95% Student-t)"]
        if self.measured is not None:
            lines.append(f"  measured: {self.measured}")
        lines.append(f"  {'candidate':<28} {'prediction':<28} {'error':<28} gap to theory")
        for k, err in self.errors.items():
            pred = self.predictions.get(k, "")
            gap = "" if k == self.theory else str(self.gap(k))
            tag = " (theory)" if k == self.theory else " (beside)" if k in self.beside else ""
            lines.append(f"  {k + tag:<28} {str(pred):<28} {str(err):<28} {gap}")
        rel = f" x error({self.relative_to})" if self.relative_to else ""
        if self.relative_to:
            lines.append(f"  theory error / error({self.relative_to}): {self.theory_error()}")
        lines.append(
            f"  declared: theory error <= {self.tolerance:g}{rel}; gap to each alternative "
            f"> {self.margin:g}.  agrees: {self.agrees()}; loses to: {self.losers() or 'none'}"
        )
        lines += [f"  note: {x}" for x in self.notes]
        return "\n".join(lines)

    def as_dict(self) -> dict:
        return {
            "title": self.title,
            "quantity": self.quantity,
            "theory": self.theory,
            "tolerance": self.tolerance,
            "margin": self.margin,
            "measured": None if self.measured is None else self.measured.as_dict(),
            "errors": {k: v.as_dict() for k, v in self.errors.items()},
            "gaps": {k: self.gap(k).as_dict() for k in self.alternatives},
            "relative_to": self.relative_to,
            "theory_error": self.theory_error().as_dict(),
            "agrees": self.agrees(),
            "losers": self.losers(),
            "notes": list(self.notes),
        }


def contrast_of_errors(
    title: str,
    quantity: str,
    theory: str,
    per_seed: dict,
    tolerance: float,
    margin: float,
    **kw: object,
) -> Contrast:
    """:class:`Contrast` from ``per_seed = {candidate: [error per seed]}``."""
    errors = {k: seed_interval(v) for k, v in per_seed.items()}
    return Contrast(title, quantity, theory, errors, tolerance, margin, **kw)
