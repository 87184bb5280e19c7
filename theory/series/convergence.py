r"""Three-valued convergence decision for :math:`\sum_{n \ge s} b_n` with a checkable certificate.

The RPE paper (Thm 3.3/3.4, Eq. 16/19) shows that a Transformer whose relative positional
encoding has :math:`b_n = \exp(\mathrm{RPE}(n))` extrapolates when the series converges.
:func:`decide` answers *converges*, *diverges* or *undecided* (``None``) and is built to
never be wrong: every symbolic limit it relies on comes from sympy's Gruntz algorithm,
is cross-checked numerically with mpmath (at up to :math:`n = 10^{24}`) whenever the
expression leaves the exp-log class, and any doubt, error or time-out gives *undecided*.

The decision is spread over these modules (the certificate names the test that decided,
and the object compared against):

* :mod:`theory.series.numeric` -- the ordered table of tests (``STEPS``) for a series
  without free parameters, and the check that the terms are finite real numbers;
* :mod:`theory.series.limits` -- limits at infinity and eventual signs, cross-checked;
* :mod:`theory.series.bounds` -- bounds free of oscillation (cos, sin, floor, Min/Max,
  Piecewise) that serve as minorant and majorant;
* :mod:`theory.series.comparison_tests` -- terms not tending to 0, the logarithmic test
  and its iterated-log refinements (Bertrand / Cauchy condensation), ratio, Raabe and
  Gauss tests;
* :mod:`theory.series.sign_changing` -- residue classes, recurrence and density,
  Dirichlet's and Abel's tests, trigonometric minorants, sums of series;
* :mod:`theory.series.oscillating_parts` -- an oscillating part plus a part of one sign
  (``sin(n) + 1/sqrt(n)``); :mod:`theory.series.sign_blocks` -- signs in blocks of growing
  length (``(-1)**floor(sqrt(n))/n``), by integral bounds of the block sums;
* :mod:`theory.series.parameters`, :mod:`theory.series.sign_cases`,
  :mod:`theory.series.conditions` -- free parameters: the limits taken symbolically and
  the condition on the parameters derived (e.g. Kerple log converges iff :math:`r > 1`);
  real parameters are split into sign cases and the cases joined
  (:func:`~theory.series.sign_cases.decide_sign_cases`, e.g. ``n**(-a-b)`` converges iff
  :math:`a + b > 1`); :mod:`theory.series.families` and
  :mod:`theory.series.family_parts` -- oscillating families, residue classes and sums of
  parts with free parameters (``1/(n**p + (-1)**n)`` converges iff :math:`p > 1`).

>>> from theory.series.expressions import parse_expression as P
>>> decide(P("1/n**2")).converges
True
>>> decide(P("1/(n*log(n))"), start=2).converges
False
>>> decide(P("(1 + k*n)**(-r)", free_params=True)).condition
'converges iff r > 1'
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy as sp

from theory.core.budget import BudgetExceeded, run_guarded, step_budget
from theory.series.decision import Decision, as_expr, free_parameters
from theory.series.expressions import N
from theory.series.numeric import decide_terms
from theory.series.sign_cases import decide_sign_cases

if TYPE_CHECKING:  # annotations only: rpe_library is not needed at run time
    from theory.series.rpe_library import RPE

#: seconds for the whole decision (hard limit, the computation runs in a child process)
DEFAULT_BUDGET = 6.0


def decide(
    b_expr: str | float | sp.Basic | RPE,
    start: int = 1,
    budget: float = DEFAULT_BUDGET,
    prime: bool = True,
    wall: float | None = None,
) -> Decision:
    """Decide whether ``sum_{n >= start} b_n`` converges; never wrong, ``None`` if unsure.

    ``budget`` counts CPU seconds; ``wall`` caps the wall-clock seconds (default
    :data:`theory.core.budget.WALL_CAP_FACTOR` times the budget).  ``prime=False`` skips :func:`prime_caches` (worth it for many decisions, not for one).
    Raises :class:`~theory.series.decision.SeriesError` when a term is not a finite real number (the index is
    named), e.g. ``1/(n*log(n))`` at ``start=1``.
    """
    b = as_expr(b_expr)
    start = int(start)
    if prime:
        prime_caches()
    try:
        return run_guarded(decide_in_process, (b, start), budget=budget, wall=wall)
    except BudgetExceeded as exc:
        return Decision(
            None,
            f"undecided: {exc} (the expression is too hard or too large "
            "to analyse within the budget)",
            test="time budget",
            start=start,
        )


_PRIMED = []


def prime_caches() -> None:
    """Run one small decision in this process, once: every later decision runs in a forked
    child, which inherits sympy's lazily imported modules and caches from here instead of
    rebuilding them each time (about half the time of a typical decision)."""
    if _PRIMED:
        return
    _PRIMED.append(True)
    try:
        with step_budget(5.0):
            decide_in_process(sp.exp(-N / 3) / N**2 + sp.cos(N) / N**3, 1)
    except Exception:  # noqa: BLE001 - priming is an optimisation only
        pass


def decide_in_process(b: sp.Expr, start: int) -> Decision:
    """:func:`decide` in this process, without its budget: the sign cases of
    :mod:`theory.series.sign_cases` when ``b`` has free parameters, else
    :func:`theory.series.numeric.decide_terms`."""
    if free_parameters(b):
        return decide_sign_cases(b, start)
    return decide_terms(b, start)
