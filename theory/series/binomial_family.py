r"""The binomial series at :math:`\pm 1` with free parameters:
:math:`\sum_n k\,(\pm 1)^n \binom{A}{n} n^q`.

For A free of n (a function of the parameters) and q a rational number,

.. math::

    \frac{b_{n+1}}{b_n} = \pm\frac{A - n}{n + 1}\Bigl(1 + \frac1n\Bigr)^q
    = \mp\Bigl(1 - \frac{E}{n} + O(n^{-2})\Bigr), \qquad E = A + 1 - q,

and :math:`|b_n| \sim |k|\, n^{-E} / |\Gamma(-A)|` when A is not a nonnegative integer;
where A is one, every term with n > A is 0.

* :math:`+`: the terms alternate in sign for n > A; for E > 0 they decrease to 0 in absolute
  value from some n on (Leibniz), for E <= 0 they do not tend to 0.  The series converges
  iff E > 0 or A is one of the integers 0, 1, ..., < q (``binomial(a, n)``: iff a > -1,
  the binomial series of :math:`(1 + x)^a` at x = 1).
* :math:`-` (a factor :math:`(-1)^n`): the terms are of one sign for n > A, so the series
  converges iff E > 1 (A > q) or A is one of the integers 0, 1, ..., <= q
  (``(-1)**n*binomial(a, n)``: iff a >= 0).

:math:`\binom{n + c}{n} = (-1)^n \binom{-c - 1}{n}` (c free of n) is read as the second
form with A = -c - 1 (``binomial(n + a, n)`` converges iff a <= -1).

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
    r"""The decision of the module doc for one sign case (parameters positive symbols); None
    when b is not :math:`k (\pm 1)^n \binom{A}{n} n^q` with k nonzero and free of n."""
    parts = _parts(b)
    if parts is None or not parts[1].free_symbols:
        return None
    k, A, q, sign = parts
    E = sp.expand(A + 1 - q)
    limit = math.ceil(q) if sign > 0 else math.floor(q) + 1  # integers j < q, or j <= q
    integers = [sp.Integer(j) for j in range(0, max(0, limit))]
    region = sp.Or(E > 0 if sign > 0 else E > 1, *[sp.Eq(A, j) for j in integers])
    points = []
    if len(A.free_symbols) == 1:
        p = next(iter(A.free_symbols))
        others = {s: sp.Integer(1) for s in params}
        for target in [q - 1 if sign > 0 else q, *integers]:
            for v in sp.solveset(sp.Eq(A, target), p, sp.Interval.open(0, sp.oo)):
                points.append({**others, p: v})
    return Decision(
        None,
        _certificate(k, A, q, E, sign),
        test="binomial family",
        details={"region": region, "points": points},
    )


def binomial_test(b: sp.Expr) -> Decision | None:
    """The rule of the module doc for a numeric A that is not a nonnegative integer (those
    are finite sums, written so by the parser).

    >>> from theory.series.expressions import N
    >>> binomial_test(sp.binomial(sp.Rational(3, 2), N) * N ** sp.Rational(5, 2)).converges
    False
    >>> binomial_test(sp.binomial(N - sp.Rational(1, 2), N) / N).converges  # A = -1/2, q = -1
    True
    """
    parts = _parts(b)
    if parts is None or parts[1].free_symbols:
        return None
    k, A, q, sign = parts
    if A.is_integer and A >= 0:
        return None
    E = A + 1 - q
    if not E.is_comparable:
        return None
    return Decision(
        bool(E > (0 if sign > 0 else 1)), _certificate(k, A, q, E, sign), test="binomial series"
    )


def _parts(b: sp.Expr) -> tuple | None:
    """(k, A, q, sign) with b = k sign^n binomial(A, n) n^q, k nonzero and free of n, q
    rational, sign = 1 or -1 (binomial(n + c, n) read as (-1)^n binomial(-c - 1, n))."""
    sign, k, q, A = 1, sp.Integer(1), sp.Integer(0), None
    for f in sp.Mul.make_args(b):
        if not f.has(N):
            k *= f
        elif f == sp.Pow(-1, N):
            sign = -sign
        elif f == N:
            q += 1
        elif isinstance(f, sp.Pow) and f.base == N and f.exp.is_Rational:
            q += f.exp
        elif isinstance(f, sp.binomial) and f.args[1] == N and A is None:
            top = f.args[0]
            if not top.has(N):
                A = top
            elif not (top - N).has(N):
                A, sign = -(top - N) - 1, -sign
            else:
                return None
        else:
            return None
    if A is None or A.is_real is False or not k.is_nonzero:
        return None
    return k, A, q, sign


def _certificate(k, A, q, E, sign) -> str:
    s = "" if sign > 0 else "(-1)^n "
    how = (
        "Leibniz where E > 0 (|b_(n+1)/b_n| = 1 - E/n + O(1/n^2)), terms not tending to 0 "
        "where E <= 0; every term with n > A is 0 where A is an integer 0 <= A < q"
        if sign > 0
        else "terms of one sign for n > A: converges iff E > 1; every term with n > A is 0 "
        "where A is an integer 0 <= A <= q"
    )
    return (
        f"b_n = k {s}binomial(A, n) n^q with k = {k}, A = {A}, q = {q}: b_(n+1)/b_n = "
        f"{'' if sign > 0 else '-'}(A - n)/(n + 1) (1 + 1/n)^q, |b_n| ~ |k| n^-E/|Gamma(-A)| "
        f"with E = A + 1 - q = {E}: " + how
    )
