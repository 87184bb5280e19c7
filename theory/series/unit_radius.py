r"""Coefficients of radius one: :math:`\limsup_n |g(n)|^{1/n} = 1`, proved from decisions.

For the families :math:`\sum_n g(n)\,z^{P(n)}` with a free parameter z (:math:`z = c^n`
with ``(x - 1)**n*sin(n)``, :math:`z^{n^3}` with ``x**(n**3)*factorial(n)``), g free of
the parameters and P a polynomial of degree >= 1 with a positive leading coefficient:
where :math:`\limsup |g(n)|^{1/n} = 1`, also :math:`\limsup |g(n)|^{1/P(n)} = 1`
(:math:`n/P(n)` stays bounded and positive), so the root test gives absolute convergence
for :math:`|z| < 1` and terms that do not tend to 0 for :math:`|z| > 1`; at
:math:`z = \pm 1` the series has no parameter left and is decided as it stands.

The two halves of :math:`\limsup |g|^{1/n} = 1` are each proved one of two ways:

* :math:`\le 1`: :math:`\sum g(n) n^{-K}` converges (its terms tend to 0, so
  :math:`|g(n)| \le n^K` for large n);
* :math:`\ge 1`: :math:`\sum g(n) n^{K}` diverges (a power series :math:`\sum g(n) n^K w^n`
  has the radius of :math:`\sum g(n) w^n`, which is therefore at most 1);

or both at once, for :math:`|g|^{1/P(n)}` directly, by :math:`g > 0` with
:math:`\log g(n) / P(n) \to 0` (``factorial(n)`` with :math:`P = n^3`).

>>> from theory.series.expressions import parse_expression as P
>>> unit_radius(P("sin(n)"), 1) is not None
True
>>> unit_radius(P("2**(-n)"), 1) is None
True
"""

from __future__ import annotations

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.decision import Decision, SeriesError, Undecided
from theory.series.expressions import N
from theory.series.limits import eventually_positive, limit_at_infinity
from theory.series.numeric import decide_terms

#: the power of n by which g is divided (multiplied) in the proofs of the two halves
K = 4


def unit_radius(g: sp.Expr, start: int, exponent: sp.Expr = N) -> str | None:
    r"""Why :math:`\limsup_n |g(n)|^{1/P(n)} = 1` for g free of parameters and
    P = ``exponent`` (the module doc), or None where it is not proved."""
    if g.free_symbols - {N}:
        return None
    if _log_over_vanishes(g, exponent):
        return f"g = {g} > 0 with log(g)/({exponent}) -> 0"
    if _verdict(g / N**K, start) is not True or _verdict(g * N**K, start) is not False:
        return None
    return (
        f"sum g n^-{K} converges (|g| <= n^{K} for large n) and sum g n^{K} diverges "
        f"(a radius <= 1), g = {g}: lim sup |g|^(1/n) = 1"
    )


def radius_family(
    k: sp.Expr, base: sp.Expr, C: sp.Expr, g: sp.Expr, start: int, alternating: bool
) -> Decision | None:
    r""":math:`s^n k\,C^n g(n)` of :mod:`theory.series.families` with g of any form, free of
    the parameters: a power series in c = ``C`` whose radius is 1 where :func:`unit_radius`
    proves it; the two edges c = 1 and c = -1 are decided as they stand."""
    why = unit_radius(g, start)
    if why is None:
        return None
    at_one, at_minus = _verdict(g, start), _verdict(sp.Pow(-1, N) * g, start)
    if at_one is None or at_minus is None:
        return None
    region = (
        sp.And(C > -1, C < 1)
        | (sp.Eq(C, 1) & sp.true if at_one else sp.false)
        | (sp.Eq(C, -1) & sp.true if at_minus else sp.false)
        | sp.Eq(k, 0)
    )
    s = "(-1)^n " if alternating else ""
    word = {True: "converges", False: "diverges"}
    return Decision(
        None,
        f"b_n = {s}{k} ({base})^n g(n), g = {g} free of the parameters: a power series in "
        f"c = {C} of radius 1 ({why}): |c| < 1 converges (root test), |c| > 1 the terms do "
        f"not tend to 0; at c = 1, sum g {word[at_one]}; at c = -1, sum (-1)^n g "
        f"{word[at_minus]}; k = 0: every term is 0",
        test="geometric family",
        details={"region": region, "points": []},
    )


def power_radius_family(
    a: sp.Symbol, g: sp.Expr, start: int, alternating: bool, exponent: sp.Expr
) -> Decision | None:
    r""":math:`s^n a^{P(n)} g(n)`, a > 0, g free of the parameters with
    :math:`\limsup |g|^{1/P(n)} = 1` (:func:`unit_radius`): converges for a < 1, the terms
    do not tend to 0 for a > 1, and at a = 1 the series is decided as it stands."""
    why = unit_radius(g, start, exponent)
    edge = sp.Pow(-1, N) * g if alternating else g
    at_one = _verdict(edge, start) if why else None
    if at_one is None:
        return None
    s = "(-1)^n " if alternating else ""
    return Decision(
        None,
        f"b_n = {s}{a}^({exponent}) g(n), g = {g} free of the parameters with lim sup "
        f"|g|^(1/({exponent})) = 1 ({why}): the root test gives convergence for {a} < 1 and "
        f"terms that do not tend to 0 for {a} > 1; at {a} = 1, sum {edge} "
        f"{'converges' if at_one else 'diverges'}",
        test="geometric family",
        details={
            "region": sp.Or(a < 1, sp.And(sp.Eq(a, 1), sp.true if at_one else sp.false)),
            "points": [],
        },
    )


def _verdict(b: sp.Expr, start: int) -> bool | None:
    try:
        return decide_terms(b, start).converges
    except (SeriesError, Undecided, StepTimeout):
        return None


def _log_over_vanishes(g: sp.Expr, exponent: sp.Expr) -> bool:
    if not g.has(N) or not eventually_positive(g):
        return False
    try:
        with step_budget(3.0):
            return limit_at_infinity(sp.log(g) / exponent) == 0
    except (StepTimeout, Undecided, ValueError, TypeError, NotImplementedError):
        return False
