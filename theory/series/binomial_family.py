r"""The binomial series at 1 with free parameters: :math:`\sum_n k \binom{A}{n} n^q`.

For A free of n (a function of the parameters) and q a rational number,

.. math::

    \frac{b_{n+1}}{b_n} = \frac{A - n}{n + 1}\Bigl(1 + \frac1n\Bigr)^q
    = -\Bigl(1 - \frac{E}{n} + O(n^{-2})\Bigr), \qquad E = A + 1 - q,

negative for every n > A: the terms alternate in sign, and
:math:`|b_n| \sim |k|\, n^{-E} / |\Gamma(-A)|` when A is not a nonnegative integer.  For
E > 0 they decrease to 0 in absolute value from some n on, so the series converges
(Leibniz); for E <= 0 they do not tend to 0.  Where A is a nonnegative integer every term
with n > A is 0.  So the series converges iff E > 0 or A is one of the integers
0, 1, ..., q - 1 (``binomial(a, n)``: iff a > -1, the binomial series of
:math:`(1 + x)^a` at x = 1).

>>> from theory.series.expressions import N
>>> a = sp.Symbol("a", positive=True)
>>> binomial_family(sp.binomial(a, N) * N**2, [a], 1).details["region"]
Eq(a, 1) | (a - 1 > 0)
"""

from __future__ import annotations

import math

import sympy as sp

from theory.series.decision import Decision
from theory.series.expressions import N


def binomial_family(b: sp.Expr, params: list, start: int) -> Decision | None:
    """The decision of the module doc for one sign case (parameters positive symbols); None
    when b is not :math:`k \\binom{A}{n} n^q` with k nonzero and free of n."""
    parts = _parts(b)
    if parts is None or not parts[1].free_symbols:
        return None
    k, A, q = parts
    E = sp.expand(A + 1 - q)
    integers = [sp.Integer(j) for j in range(0, max(0, math.ceil(q)))]  # 0 <= j < q
    region = sp.Or(E > 0, *[sp.Eq(A, j) for j in integers])
    points = []
    if len(A.free_symbols) == 1:
        p = next(iter(A.free_symbols))
        others = {s: sp.Integer(1) for s in params}
        for target in [q - 1, *integers]:
            for v in sp.solveset(sp.Eq(A, target), p, sp.Interval.open(0, sp.oo)):
                points.append({**others, p: v})
    return Decision(
        None,
        _certificate(k, A, q, E),
        test="binomial family",
        details={"region": region, "points": points},
    )


def binomial_test(b: sp.Expr) -> Decision | None:
    """The rule of the module doc for a numeric A that is not a nonnegative integer (those
    are finite sums, written so by the parser): converges iff E > 0.

    >>> from theory.series.expressions import N
    >>> binomial_test(sp.binomial(sp.Rational(3, 2), N) * N ** sp.Rational(5, 2)).converges
    False
    """
    parts = _parts(b)
    if parts is None or parts[1].free_symbols:
        return None
    k, A, q = parts
    if A.is_integer and A >= 0:
        return None
    E = A + 1 - q
    if not E.is_comparable:
        return None
    return Decision(bool(E > 0), _certificate(k, A, q, E), test="binomial series")


def _parts(b: sp.Expr) -> tuple | None:
    """(k, A, q) with b = k binomial(A, n) n^q, k nonzero and free of n, q rational."""
    factors = sp.Mul.make_args(b)
    binomials = [
        f for f in factors if isinstance(f, sp.binomial) and f.args[1] == N and not f.args[0].has(N)
    ]
    if len(binomials) != 1 or binomials[0].args[0].is_real is False:
        return None
    A = binomials[0].args[0]
    rest = b / binomials[0]
    k = sp.Mul(*[f for f in sp.Mul.make_args(rest) if not f.has(N)])
    power = rest / k
    q = {sp.Integer(1): sp.Integer(0), N: sp.Integer(1)}.get(power)
    if q is None and power.is_Pow and power.base == N:
        q = power.exp
    if q is None or not q.is_Rational or not k.is_nonzero:
        return None
    return k, A, q


def _certificate(k, A, q, E) -> str:
    return (
        f"b_n = k binomial(A, n) n^q with k = {k}, A = {A}, q = {q}: b_(n+1)/b_n = "
        f"(A - n)/(n + 1) (1 + 1/n)^q < 0 for n > A, |b_n| ~ |k| n^-E/|Gamma(-A)| with "
        f"E = A + 1 - q = {E}: Leibniz where E > 0 (|b_(n+1)/b_n| = 1 - E/n + O(1/n^2)), "
        "terms not tending to 0 where E <= 0; every term with n > A is 0 where A is an "
        "integer 0 <= A < q"
    )
