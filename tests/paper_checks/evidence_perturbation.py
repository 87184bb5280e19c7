"""Perturbation of a claim's evidence (test helper): :func:`perturb` moves the paper's
reference values within the declared tolerances (the verdict must stay) or beyond them
on the items that decide the verdict (the verdict must change); :func:`is_perturbable`
says whether any deciding item carries a paper value to move.

>>> from paper_checks.evidence import Equal, Evidence, Tol, judge
>>> ev = Evidence([Equal("B = sum_t b_t", 1.6449340668, paper=1, source="Eq. 29"),
...                Equal("eps * TRF(eps) at eps = 1e-9", 0.6079271, paper=0.6079271019,
...                      source="ours", key="order")])
>>> judge(perturb(ev, {"order": Tol(rtol=1e-6)}, "beyond"), {"order": Tol(rtol=1e-6)}).status
'holds'
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import sympy as sp

from paper_checks.evidence import (
    AGREES,
    DISAGREES,
    FAILS,
    NEAR,
    UNDECIDED,
    Evidence,
    Identity,
    Item,
    Tol,
    as_number,
    judge_items,
    robust_best,
    tolerance_of,
    verdict_group,
)


def _candidates(item: Item, tol: Tol, beyond: bool):
    """Paper values to try: for ``beyond``, outward from the computed value (so the
    comparison's outcome flips); otherwise small moves of the paper value inside the
    tolerance."""
    c = np.asarray(as_number(item.computed, item.quantity), float)
    p = np.asarray(as_number(item.paper, item.quantity), float)
    finite = [
        abs(x) for x in np.ravel(np.concatenate([np.ravel(c), np.ravel(p)])) if math.isfinite(x)
    ]
    size = max(finite, default=1.0)
    bound = float(np.max(tol.bound(p))) if np.size(p) else 0.0
    if not beyond:
        for f in (0.5, -0.5, 0.25, -0.25, 0.1, -0.1):
            yield p + f * bound
        return
    scale = max(bound, 1e-9 * max(size, 1.0), 1e-300)
    yield c
    finite_c = np.where(np.isfinite(c), c, 2 * size + 1)  # any finite value differs from inf
    for k in range(0, 64):
        for base in (c, p, finite_c):
            for sgn in (1, -1):
                yield base + sgn * scale * 2.0**k


def _moved(item: Item, tol: Tol, want: set, beyond: bool) -> Item:
    """``item`` with its paper value moved so that its outcome is in ``want``."""
    if isinstance(item, Identity):
        if not beyond:
            return item
        zero = item.outcome(tol)[0] == AGREES
        return replace(
            item,
            rhs=f"{item.rhs} + 1/7" if zero else item.lhs,
            residual=sp.sympify(item.residual) - sp.Rational(1, 7) if zero else sp.Integer(0),
        )
    for value in _candidates(item, tol, beyond):
        value = value if np.ndim(value) else float(value)
        moved = item.with_paper(value.tolist() if isinstance(value, np.ndarray) else value)
        if moved.outcome(tol)[0] in want:
            return moved
    if not beyond:
        return item
    raise ValueError(f"cannot move the paper value of {item.quantity!r} to {want}")


def _flip_targets(items, tolerances: dict) -> dict:
    """Which items (by index) decide the verdict, and the outcomes that would reverse it."""
    out = [it.outcome(tolerance_of(tolerances, it))[0] for it in items]
    for present, want in (
        (DISAGREES, {AGREES, NEAR}),
        (UNDECIDED, {AGREES}),
        (NEAR, {DISAGREES}),
        (AGREES, {DISAGREES}),
    ):
        if present in out:
            return {i: want for i, o in enumerate(out) if o == present}
    return {}


def _perturb_items(items, tolerances: dict, how: str) -> list:
    if how == "beyond":
        targets = _flip_targets(items, tolerances)
        return [
            _moved(it, tolerance_of(tolerances, it), targets[i], True)
            if i in targets and it.perturbable()
            else it
            for i, it in enumerate(items)
        ]
    return [
        _moved(
            it, tolerance_of(tolerances, it), {it.outcome(tolerance_of(tolerances, it))[0]}, False
        )
        if it.perturbable()
        else it
        for it in items
    ]


def perturb(evidence: Evidence, tolerances: dict | None, how: str) -> Evidence:
    """``evidence`` with the paper's reference values moved ``"within"`` the declared
    tolerances (each item keeps its outcome) or ``"beyond"`` them on the items that
    decide the verdict (of every reading, for an ambiguous statement)."""
    if how not in ("within", "beyond"):
        raise ValueError("how is 'within' or 'beyond'")
    tolerances = tolerances or {}
    if not evidence.readings:
        return replace(evidence, items=_perturb_items(evidence.items, tolerances, how))
    move = set(range(len(evidence.readings)))
    if how == "beyond":
        move = _readings_to_move(evidence.readings, tolerances)
    readings = [
        replace(r, items=tuple(_perturb_items(r.items, tolerances, how))) if i in move else r
        for i, r in enumerate(evidence.readings)
    ]
    return replace(evidence, readings=readings)


def _readings_to_move(readings, tolerances: dict) -> set:
    """The readings whose deciding items a "beyond" perturbation moves: the best-scoring
    one when it decides; every reading when they agree; otherwise (no reading decides)
    the ones that do not hold, so that all come to agree."""
    per = [judge_items(list(r.items), tolerances) for r in readings]
    best = robust_best(list(readings))[0]
    if len({verdict_group(v.status) for v in per}) == 1:
        return set(range(len(readings)))
    if best is not None:
        return {best}
    return {i for i, v in enumerate(per) if v.status == FAILS} or set(range(len(readings)))


def is_perturbable(evidence: Evidence, tolerances: dict | None = None) -> bool:
    """True when some item that decides the verdict carries a paper value to move."""
    tolerances = tolerances or {}
    groups = [r.items for r in evidence.readings] or [evidence.items]
    return any(items[i].perturbable() for items in groups for i in _flip_targets(items, tolerances))
