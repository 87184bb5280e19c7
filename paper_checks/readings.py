"""Readings of an ambiguous statement and the one rule that ranks them
(docs/conventions.md, "Readings").

A reading predicts numbers the paper prints elsewhere (its consistency items, each an
:class:`~paper_checks.items.Equal` with a declared ``scale``).  Its score is the largest
residual over those items, each on its declared scale (:data:`~paper_checks.items.SCALES`);
a circular item (the reading inferred its quantity from that same printed number) is
shown and not scored.  The ranking is robust when the best reading is the same on the
declared scales and on the relative scale |c - p| / |p| for every item; otherwise no
reading decides and the claim depends on the reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from paper_checks.items import Equal, as_number, fmt, jsonable

#: two scores closer than this are a tie, and a tie leaves the verdict to no reading
SCORE_TIE = 1e-9
#: every item on this scale: the other reasonable scale the ranking must survive
RELATIVE = "relative"


@dataclass(frozen=True)
class Reading:
    """One reading of an ambiguous statement, judged on its own ``items``.

    ``consistency`` holds :class:`~paper_checks.items.Equal` items: what this reading
    predicts for numbers the paper prints elsewhere, next to those printed numbers.  They
    do not enter the reading's verdict; they give its consistency score
    (:func:`consistency_score`), by which readings are ranked.  ``reason`` says where the
    reading comes from."""

    name: str
    items: tuple
    consistency: tuple = ()
    reason: str = ""

    def __post_init__(self):
        bad = [c for c in self.consistency if not isinstance(c, Equal)]
        if bad:
            raise TypeError(f"reading {self.name!r}: consistency items are Equal(...)")


def residual(item: Equal, scale: str | None = None) -> float:
    """The largest residual of consistency ``item`` on ``scale`` (its declared one by
    default): "relative" ``|c - p| / |p|`` (absolute at p = 0), "log" ``|ln c - ln p|``,
    "nats" ``|c - p|``; a non-finite or undefined residual (a non-positive value on the log scale)
    is ``inf``.

    >>> p = Equal("P", 0.06, paper=0.12, scale="log")
    >>> round(residual(p), 12), residual(p, "relative")  # ln 2 (half the printed value)
    (0.69314718056, 0.5)
    >>> residual(Equal("l", [6.4, 8.8], paper=[8.8, 8.8], scale="nats"))
    2.4000000000000004
    """
    scale = scale or item.scale
    c = np.ravel(np.asarray(as_number(item.computed, item.quantity), float))
    p = np.ravel(np.asarray(as_number(item.paper, item.quantity), float))
    with np.errstate(invalid="ignore", divide="ignore"):
        if scale == "log":
            r = np.where((c > 0) & (p > 0), np.abs(np.log(c) - np.log(p)), np.inf)
        elif scale == "nats":
            r = np.abs(c - p)
        else:
            diff = np.abs(c - p)
            r = np.where(p == 0, diff, diff / np.abs(p))
    r = np.where(np.isfinite(r), r, np.inf)
    return float(np.max(r)) if r.size else 0.0


def consistency_score(reading: Reading, scale: str | None = None) -> float | None:
    """The largest residual over the reading's scored consistency items, each on its
    declared scale (or every one on ``scale``); circular items are not scored; ``None``
    when the reading predicts no printed number it did not start from.  Lower is better.

    >>> r = Reading("a", (), consistency=(Equal("B", 1.5, paper=1.6449),))
    >>> round(consistency_score(r), 4), consistency_score(Reading("b", ()))
    (0.0881, None)
    >>> consistency_score(Reading("c", (), consistency=(Equal("P", 1, paper=1, circular="from P"),)))
    """
    scored = [it for it in reading.consistency if not it.circular]
    if not scored:
        return None
    return max(residual(it, scale) for it in scored)


def consistency_rows(items: Sequence[Equal]) -> list[dict]:
    """Consistency items (a reading's, an inferred quantity's) as rows: each residual on its declared scale and
    on the relative scale, and circular rows marked "circular (not scored)" (never
    "agrees"/"disagrees": they are scored, not judged)."""
    return [
        {
            "quantity": it.quantity,
            "computed": jsonable(it.computed),
            "paper": jsonable(it.paper),
            "source": it.source,
            "scale": it.scale,
            "residual": None if it.circular else residual(it),
            "relative residual": None if it.circular else residual(it, RELATIVE),
            "outcome": f"circular (not scored): {it.circular}" if it.circular else "scored",
        }
        for it in items
    ]


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


def robust_best(readings: list) -> tuple[int | None, list, str]:
    """(best index, scores on the declared scales, why no reading decides): the best
    reading on the declared scales when the relative scale picks the same one; None
    with the reason otherwise."""
    scores = [consistency_score(r) for r in readings]
    best = best_reading(scores)
    if best is None:
        return None, scores, ""
    alt = best_reading([consistency_score(r, RELATIVE) for r in readings])
    if alt == best:
        return best, scores, ""
    other = f"'{readings[alt].name}'" if alt is not None else "no reading (a tie)"
    return (
        None,
        scores,
        f"the ranking depends on the scale: '{readings[best].name}' scores best on the "
        f"declared scales ({fmt(scores[best])}), {other} on the relative scale",
    )
