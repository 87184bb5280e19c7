r"""Certified tails from a majorant that drops positive summands of a denominator.

A term :math:`b_n = P_n \, (a_{1,n} + \dots + a_{k,n})^{-s}` (:math:`s > 0`) whose numerator is
:math:`\ge 0` and whose summands are all :math:`> 0` for every integer :math:`n \ge 1` (proved
from their form by :func:`theory.series.angle_means.proved_positive`) is bounded by keeping one
summand:

.. math::
   0 \le b_n \le h_n = P_n \, a_{j,n}^{-s} \qquad (n \ge 1),

an inequality that holds at every n, not only for large n.  When :math:`h` has a certified
tail engine (for :math:`1/(n! + e^n)` it is :math:`1/n!`, the ratio tail), the sum is cut at M:

.. math::
   \sum_{n \ge a} b_n \in \sum_{a \le n < M} [b_n] + \Big[0, \sum_{n \ge M} h_n\Big],

the head term by term in ball arithmetic, M the first of ``n0 + 2^4, n0 + 2^5, ...,
n0 + 2^16`` where the majorant's tail is below :math:`2^{-PREC}` of the head.  The engine is
useful where the head carries the sum (a majorant decaying faster than every power); a
failing step raises :class:`NotCertified`.

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.sums import certify_tail
>>> import math
>>> t = DroppedSummandTail(P("1/(factorial(n) + exp(n))"), 1,
...                        lambda e, m: certify_tail(e, m, max_rel_width=math.inf))
>>> t.tail(1).overlaps(arb("0.43131154405759134738 +/- 1e-19"))   # mpmath: 200 terms, rest < 1e-300
True
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout
from theory.series.angle_means import proved_positive
from theory.series.arb_eval import (
    PREC,
    NotCertified,
    NotSupported,
    arb_function,
    ball_precision,
    head_suffix,
    tail_start,
    term_ball,
)
from theory.series.expressions import N
from theory.series.fast_majorant_tail import below_majorant

HEAD_LOG2 = (4, 6, 8, 10, 12, 14, 16)  # head lengths 2^k tried in turn
MAX_MAJORANTS = 8  # kept-summand choices tried


def dropped_summand_majorants(b: sp.Expr) -> list[sp.Expr]:
    """The majorants :math:`h \\ge b \\ge 0` (every integer n >= 1) that keep one summand of each
    denominator sum (module doc), fewest first; [] when the form does not apply.

    >>> from theory.series.expressions import parse_expression as P
    >>> dropped_summand_majorants(P("1/(factorial(n) + exp(n))"))
    [1/factorial(n), exp(-n)]
    """
    factors = sp.Mul.make_args(b)
    sums, rest = [], []
    for f in factors:
        base, ex = f.as_base_exp()
        if isinstance(base, sp.Add) and base.has(N) and ex.is_number and ex.is_negative:
            sums.append((base, ex))
        else:
            rest.append(f)
    if not sums or not (sp.Mul(*rest).is_nonnegative or proved_positive(sp.Mul(*rest))):
        return []
    choices = []
    for base, _ in sums:
        kept = [a for a in base.args if proved_positive(a)]
        if len(kept) != len(base.args) or len(kept) < 2:
            return []
        choices.append(kept)
    out = []
    for pick in itertools.islice(itertools.product(*choices), MAX_MAJORANTS):
        out.append(sp.Mul(*rest) * sp.Mul(*[a**ex for a, (_, ex) in zip(pick, sums)]))
    return sorted(out, key=sp.count_ops)


@ball_precision
def _smallest_far_first(majorants: list[sp.Expr], n0: int) -> list[sp.Expr]:
    """The majorants ordered by their value far out (n = n0 + 2^12, in ball arithmetic;
    one not evaluated there last): the one smallest there gives the narrowest tail, and a
    growing one (``n*n**n`` beside ``n**n/factorial(2*n)``) is not tried before it.  Only
    the order of the attempts depends on it."""
    far = arb(n0 + 2**12)

    def size(h: sp.Expr) -> tuple:
        try:
            v = abs(arb_function(h)(far))
        except (NotSupported, ArithmeticError, ValueError, TypeError):
            return (1, 0.0)
        if not v.is_finite() or v.upper() == 0:
            return (1, 0.0) if not v.is_finite() else (0, -float("inf"))
        return (0, float(v.upper().log()))

    return sorted(majorants, key=size)


class DroppedSummandTail:
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of b_n from n0 on: the head term by term and beyond M the tail of a
    majorant that drops positive summands (module doc); ``positive_tail(e, m)`` is a
    certified tail engine of the majorant e from m on."""

    @ball_precision
    def __init__(
        self, b: sp.Expr, n0: int, positive_tail: Callable[[sp.Expr, int], object]
    ) -> None:
        self.n0 = int(n0)
        if self.n0 < 1:
            raise NotCertified("the majorant needs n0 >= 1")
        try:
            self.f = arb_function(b)
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        majorants = _smallest_far_first(dropped_summand_majorants(b), self.n0)
        if not majorants:
            raise NotCertified("no denominator of positive summands to drop")
        best = None
        for k in HEAD_LOG2:
            M = self.n0 + 2**k
            suffix, until = head_suffix(self.f, self.n0, M)
            head = abs(suffix[0]).lower()
            for h in majorants:
                try:
                    far = positive_tail(h, M)
                    upper = far.tail(M).upper()
                except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
                    continue
                if upper.is_finite() and (best is None or upper < best[2]):
                    best = (h, far, upper)
                    break  # the smallest far majorant that has a certified tail
            if best is not None and best[2] < arb(2) ** -PREC * head:
                break
            majorants = [best[0]] if best is not None else majorants
        if best is None:
            raise NotCertified("no dropped-summand majorant has a certified tail")
        self.M, self.suffix, self.nonneg_until = M, suffix, until
        self.h, self.far = best[0], best[1]
        self.certificate = (
            f"ball arithmetic: terms n0 = {self.n0} <= n < {self.M} one by one; beyond, "
            f"0 <= b_n <= {self.h} for every n >= 1 (the numerator is >= 0 and the dropped "
            f"summands of the denominator are > 0, proved from their form), and the sum of the "
            f"majorant from {self.M}: {self.far.certificate}"
        )

    def _far(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n for a >= M: [0, sum of h_n from a]."""
        return below_majorant(self.far, a)

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return term_ball(self.f, int(n))

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        if a >= self.M:
            return self._far(a)
        return self.suffix[a - self.n0] + self._far(self.M)
