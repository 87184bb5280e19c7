"""The verdict of a convergence decision and the errors a decision may end in.

:class:`Decision` is the three-valued answer (converges / diverges / undecided) with its
certificate; :class:`Undecided` is raised by a test that cannot settle the series and
:class:`SeriesError` when the terms are not finite real numbers.  :func:`as_expr` reads the
user's expression.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import sympy as sp

from theory.core.budget import StepTimeout
from theory.series.expressions import ExpressionError, N, integer_valued, parse_expression

if TYPE_CHECKING:  # annotations only: rpe_library is not needed at run time
    from theory.series.rpe_library import RPE


class SeriesError(ValueError):
    """The series is not a series of finite real terms (message names the index)."""


def require_defined_somewhere(b: sp.Expr, start: int, count: int = 4) -> None:
    """Raise :class:`SeriesError` where one of the first terms is undefined for every value
    of the free parameters, so that no value is admissible (``(-1)**n/(n**p + (-1)**n)`` at
    n = 1 is 1/(1 - 1) whatever p is; ``1/(n**p - 1)`` too).

    >>> require_defined_somewhere(parse_expression("1/(n**p - 1)", params=("p",)), 2)
    >>> require_defined_somewhere(parse_expression("1/(n**p - 1)", params=("p",)), 1)
    Traceback (most recent call last):
    ...
    theory.series.decision.SeriesError: term b_1 is not defined for any value of the parameters (b_1 = zoo)
    """
    for k in range(start, start + count):
        v = b.subs(N, k)  # a value left with parameters may be defined at some of them
        if not v.free_symbols and v.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            raise SeriesError(
                f"term b_{k} is not defined for any value of the parameters (b_{k} = {v})"
            )


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


def proved_convergent(decide: Callable[[sp.Expr], Decision], e: sp.Expr) -> Decision | None:
    """``decide(e)`` where it proves the series of e convergent, else None (undecided,
    divergent, out of time or an invalid form): the side condition of the Abel-summation
    rules (Beatty signs, Weyl sums, small sines, mean-zero |sin|)."""
    try:
        d = decide(e)
    except (Undecided, StepTimeout, ValueError):
        return None
    return d if d.converges is True else None


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


def parity_signs(b: sp.Expr) -> sp.Expr:
    """Each sign (-1)^P(n), P a polynomial with integer coefficients, written (-1)^n, 1 or -1
    by the parity of P (P(n + 2) - P(n) is even, so P(0) and P(1) fix it): (-1)^(n^2) is
    (-1)^n.

    >>> from theory.series.expressions import parse_expression as P
    >>> parity_signs(P("(-1)**(n**2 + n)/n + (-1)**(n**2)/n**2"))
    (-1)**n/n**2 + 1/n
    """

    def parity_sign(e: sp.Expr) -> bool:
        return (
            isinstance(e, sp.Pow)
            and e.base == -1
            and e.exp != N
            and e.exp.is_polynomial(N)  # not floor(log(n)): integer-valued, not a polynomial
            and integer_valued(e.exp)
        )

    def rewrite(e: sp.Expr) -> sp.Expr:
        p0, p1 = (int(e.exp.subs(N, k)) % 2 for k in (0, 1))
        return {(0, 0): sp.Integer(1), (1, 1): sp.Integer(-1), (0, 1): sp.Pow(-1, N)}.get(
            (p0, p1), -sp.Pow(-1, N)
        )

    return b.replace(parity_sign, rewrite) if b.has(sp.Pow) else b


def _negative_base_power(e: sp.Basic) -> bool:
    return isinstance(e, sp.Pow) and e.exp.has(N) and e.base != -1 and (-e.base).is_positive is True


def split_negative_bases(b: sp.Expr) -> sp.Expr:
    """Every power :math:`(-c)^{e(n)}` with :math:`c > 0` (a number or a positive parameter)
    written :math:`(-1)^{e(n)} c^{e(n)}`: the same number on the principal branch for every
    real exponent, and the sign factor is one the sign-changing tests read, e.g.
    :math:`(-2)^n/n = (-1)^n 2^n/n`; then each sign by :func:`parity_signs`.

    >>> from theory.series.expressions import parse_expression as P
    >>> split_negative_bases(P("(-2)**n/n"))
    (-1)**n*2**n/n
    """
    if not b.has(sp.Pow):
        return b
    b = b.replace(
        _negative_base_power,
        lambda e: sp.Pow(-1, e.exp, evaluate=False) * sp.Pow(-e.base, e.exp),
    )
    return parity_signs(b)
