r"""Certified tails from a proved majorant that decays faster than every power.

For terms such as ``exp(-n*(1 + sin(n)**2))`` the bounds of :func:`theory.series.bounds.bounds_or_none`
give :math:`lo_n \le b_n \le hi_n` with :math:`hi_n` smooth and :math:`\log hi_n / \log n \to -\infty`
(here :math:`e^{-2n} \le b_n \le e^{-n}`), while the terms oscillate too fast for Taylor
blocks.  The sum is cut at :math:`M = n_0 + 2^{16}` and :math:`X = 2^{1024}`:

1. the head :math:`\sum_{n_0 \le n < M} b_n`, term by term in ball arithmetic;
2. the boxes of integers :math:`[M, 2^{k+1})`, :math:`[2^{k+1}, 2^{k+2})`, ... up to X (each in
   1 or 16 parts): a part with :math:`c` integers on which the ball evaluation of b gives
   :math:`b_n \in [\beta]` contributes :math:`c\,[\beta]` (nothing is assumed on the box);
3. beyond X, :math:`0 \le lo_n \le b_n \le hi_n` from the bounds (stated in the certificate),
   and :math:`\sum_{n \ge X} hi_n` from a certified tail engine of the smooth :math:`hi`
   (``positive_tail``, e.g. a geometric series in closed form):

   .. math::
      0 \le \sum_{n \ge a} b_n \le \sum_{n \ge a} hi_n, \qquad a \ge X.

The boxes only bound the far tail (the enclosure of b on :math:`[2^k, 2^{k+1}]` is wide), so
the engine is useful when the head carries the sum: beyond :math:`n_0 + 2^{16}` a term
decaying like :math:`e^{-n}` or :math:`e^{-\sqrt n}` is far below the precision goal.  A
failing step raises :class:`NotCertified`.

>>> import math
>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.sums import certify_tail
>>> positive = lambda e, m: certify_tail(e, m, max_rel_width=math.inf)
>>> t = FastMajorantTail(P("exp(-n*(1 + sin(n)**2))"), 1, positive, head_terms=256)
>>> s = t.tail(1)            # mpmath: the terms n < 200 summed (the rest < e^-200)
>>> s.overlaps(arb("0.25755743509385030401 +/- 1e-19")), s.rad() < 1e-40
(True, True)
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import (
    PREC,
    NotCertified,
    NotSupported,
    Undecided,
    arb_function,
    ball_precision,
    head_suffix,
    tail_start,
    term_ball,
)
from theory.series.bounds import bounds_or_none
from theory.series.expressions import N
from theory.series.limits import limit_at_infinity, smooth

HEAD_TERMS = 2**16  # terms summed one by one before the boxes take over
TOP_LOG2 = 1024  # boxes up to 2^TOP_LOG2; beyond, the bounds and the majorant's own tail


def fast_envelope(b: sp.Expr) -> tuple[sp.Expr, sp.Expr, str] | None:
    """(lo, hi, how) for bounds 0 <= lo_n <= b_n <= hi_n (all large n, :mod:`theory.series.bounds`)
    with hi smooth, positive and decaying faster than every power
    (:math:`\\log hi_n / \\log n \\to -\\infty`); None otherwise (also when hi is b itself).

    >>> from theory.series.expressions import parse_expression as P
    >>> fast_envelope(P("exp(-n*(2 + cos(n)))"))[:2]
    (exp(-3*n), exp(-n))
    """
    lo, hi, how = bounds_or_none(b)
    if lo is None or hi is None or hi == b or not smooth(hi):
        return None
    if not (hi.is_positive and lo.is_nonnegative):  # sympy's assumptions: exp(x) > 0 ...
        return None
    try:
        with step_budget(3.0):
            lam = limit_at_infinity(sp.log(hi) / sp.log(N))
    except (StepTimeout, ArithmeticError, ValueError, TypeError):
        return None
    return (lo, hi, how) if lam == -sp.oo else None


def below_majorant(majorant_tail: object, a: int) -> arb:
    """[0, the upper end of the certified sum of h_n from a]: an enclosure of
    sum_{n >= a} b_n for any 0 <= b_n <= h_n (``majorant_tail`` a tail engine of h)."""
    upper = majorant_tail.tail(a)  # the sum of h_n > 0: its upper end bounds the tail
    if not upper.is_finite():
        raise NotCertified("the certified tail of the majorant is not finite")
    return arb(0).union(upper.upper())


class FastMajorantTail:
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of b_n from n0 on, from box enclosures and a majorant decaying faster
    than every power (module doc); ``positive_tail(e, m)`` is a certified tail engine of
    the smooth majorant e from m on."""

    @ball_precision
    def __init__(
        self,
        b: sp.Expr,
        n0: int,
        positive_tail: Callable[[sp.Expr, int], object],
        head_terms: int = HEAD_TERMS,
    ) -> None:
        env = fast_envelope(b)
        if env is None:
            raise NotCertified("no majorant decaying faster than every power bounds the terms")
        lo, hi, how = env
        self.n0, self.M = int(n0), int(n0) + int(head_terms)
        self.X = 2**TOP_LOG2
        if self.n0 < 1 or self.M >= self.X:
            raise NotCertified("the boxes need 1 <= n0 < 2^1024 - 2^16")
        try:
            self.f = arb_function(b)
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self.far = positive_tail(hi, self.X)  # the sum of hi_n from a >= X
        self.suffix, self.nonneg_until = head_suffix(self.f, self.n0, self.M)
        self.edges = [self.M] + [2**j for j in range(self.M.bit_length(), TOP_LOG2 + 1)]
        box_sums = [self._box_sum(a, z) for a, z in zip(self.edges, self.edges[1:])]
        self.box_suffix = [self._far(self.X)]  # box_suffix[i] = sum_{n >= edges[i]} b_n
        for s in reversed(box_sums):
            self.box_suffix.append(self.box_suffix[-1] + s)
        self.box_suffix.reverse()
        self.certificate = (
            f"ball arithmetic: terms n0 = {self.n0} <= n < {self.M} one by one; on the integer "
            f"boxes [2^k, 2^(k+1)) up to 2^{TOP_LOG2} (in up to 16 parts) the number of terms "
            f"times an enclosure of b_n on the part; beyond, 0 <= {lo} <= b_n <= {hi} (from "
            f"the bounds: {how}) and the sum of {hi} from 2^{TOP_LOG2}: {self.far.certificate}"
        )

    def _box_sum(self, a: int, z: int) -> arb:
        """Enclosure of sum_{a <= n < z} b_n: the count of each part times b on the part
        (1 part, then 16 parts when the single one is not already below 2^-PREC)."""
        best = None
        for parts in (1, 16):
            cuts = [a + (z - a) * i // parts for i in range(parts + 1)]
            total = arb(0)
            for u, v in zip(cuts, cuts[1:]):
                if v <= u:
                    continue
                try:
                    total += (v - u) * self.f(arb(u).union(arb(v - 1)))
                except (Undecided, ArithmeticError, ValueError):
                    total = None
                    break
            if total is not None and total.is_finite():
                best = (
                    total if best is None or not best.overlaps(total) else best.intersection(total)
                )
                if abs(best).upper() < arb(2) ** -PREC * abs(self.suffix[0]).lower():
                    break
        if best is None:
            raise NotCertified(f"b_n is not bounded by interval evaluation on [{a}, {z})")
        return best

    def _far(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n for a >= X: [0, sum of hi_n from a]."""
        return below_majorant(self.far, a)

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return term_ball(self.f, int(n))

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        if a < self.M:
            return self.suffix[a - self.n0] + self.box_suffix[0]
        if a >= self.X:
            return self._far(a)
        i = bisect.bisect_right(self.edges, a) - 1  # edges[i] <= a < edges[i + 1]
        return self._box_sum(a, self.edges[i + 1]) + self.box_suffix[i + 1]
