"""The verdict of a convergence decision and the errors a decision may end in.

:class:`Decision` is the three-valued answer (converges / diverges / undecided) with its
certificate; :class:`Undecided` is raised by a test that cannot settle the series and
:class:`SeriesError` when the terms are not finite real numbers.  :func:`as_expr` reads the
user's expression.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import sympy as sp

from theory.series.expressions import ExpressionError, N, parse_expression

if TYPE_CHECKING:  # annotations only: rpe_library is not needed at run time
    from theory.series.rpe_library import RPE


class SeriesError(ValueError):
    """The series is not a series of finite real terms (message names the index)."""


@dataclass
class Decision:
    """Verdict on the convergence of ``sum_{n >= start} b_n``."""

    converges: bool | None
    certificate: str
    condition: str | None = None
    test: str = ""
    start: int = 1
    details: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "converges": self.converges,
            "certificate": self.certificate,
            "condition": self.condition,
            "test": self.test,
            "start": self.start,
        }


class Undecided(Exception):
    """A test (or a step of one) cannot settle the series; the message says why, and the
    caller answers undecided with it."""


def as_expr(b: str | float | sp.Basic | RPE, free_params: bool = True) -> sp.Expr:
    """Accept a sympy expression or user text (parsed safely)."""
    if isinstance(b, str):
        return parse_expression(b, free_params=free_params)
    if isinstance(b, (int, float)):
        return sp.nsimplify(b)
    if hasattr(b, "b") and isinstance(b.b, sp.Basic):
        return b.b
    if not isinstance(b, sp.Basic):
        raise ExpressionError(f"not an expression: {b!r}")
    return b


def free_parameters(b: sp.Expr) -> list[str]:
    """Names of the symbols of ``b`` other than ``n``, sorted."""
    return sorted(s.name for s in b.free_symbols if s != N)
