"""One registry of the quantities a paper uses but does not print, each inferred once.

An entry names the quantity, the one rule that infers it from numbers the paper prints,
and what the inferred value predicts for other printed numbers next to those numbers
(its consistency, as :class:`~paper_checks.evidence.Equal` items).  Every claim that
needs the quantity takes it from here (:func:`inferred`), so two claims can never infer
it by two rules; the report lists every entry with its consistency.

Entries live in ``paper_checks/<paper>/inferred_quantities.py`` and are computed when
asked for (never cached: a check re-run on moved paper values sees the moved values).
A printed value for which the rule has no answer (the root of a negative number, say)
raises :class:`NotComputable`, which the registry turns into "cannot be checked here"
with the reason.

>>> q = inferred("align-sigma")
>>> sorted(q.value["topic"])
[512, 15000]
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from theory.core.registry import Registry


class NotComputable(ValueError):
    """A printed value (possibly a moved one) for which a rule or a check has no answer;
    the message says which value and why."""


@dataclass(frozen=True)
class Inference:
    """What an entry's rule gives: the value(s), and the consistency items."""

    value: dict
    consistency: tuple


@dataclass(frozen=True)
class InferredQuantity:
    key: str
    paper: str
    quantity: str
    rule: str
    compute: Callable[[], Inference]

    @property
    def value(self) -> dict:
        return self.compute().value

    @property
    def consistency(self) -> tuple:
        return self.compute().consistency


INFERRED: Registry[InferredQuantity] = Registry("inferred quantity")
PAPERS = ("rpe", "align", "infoscale")


def inferred_quantity(
    key: str, paper: str, quantity: str, rule: str
) -> Callable[[Callable[[], Inference]], Callable[[], Inference]]:
    """Register the function that infers ``quantity`` by ``rule`` (returns an
    :class:`Inference`)."""

    def register(compute: Callable[[], Inference]) -> Callable[[], Inference]:
        INFERRED.add(key, InferredQuantity(key, paper, quantity, rule, compute))
        return compute

    return register


def load_inferred() -> Registry[InferredQuantity]:
    """Every paper's ``inferred_quantities`` module imported (each registers its entries)."""
    for paper in PAPERS:
        try:
            importlib.import_module(f"paper_checks.{paper}.inferred_quantities")
        except ModuleNotFoundError as exc:
            if exc.name != f"paper_checks.{paper}.inferred_quantities":
                raise
    return INFERRED


def inferred(key: str) -> InferredQuantity:
    """The registered entry ``key``; an unknown key is an error naming it."""
    return load_inferred()[key]
