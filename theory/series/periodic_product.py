r"""Certified tails of :math:`b_n = G(n)\,h(n)`: :math:`G` a periodic analytic function of the
angles (:mod:`theory.series.fourier_tail`), :math:`h` decreasing and convex with limit 0.

``exp(cos(n))*log(n)/n**2`` and ``exp(cos(n))/(n*log(n + 1)**2)`` have no power majorant
:math:`c\,n^{-p}` with :math:`n^p b_n` bounded (so :mod:`theory.series.majorant_tail` gives no
enclosure at all), and ``exp(cos(n))/(n**2 + 1)`` has one whose width leaves B at 3 digits.
Here the factors of :math:`b_n` that hold ``sin``/``cos`` form :math:`G`, the others
:math:`h`, and:

1. :math:`h` is decreasing and convex on :math:`[P, \infty)` with limit 0: completely monotone
   (:func:`theory.series.monotone.completely_monotone`, :math:`P = n_0`), or with
   :math:`h', h''` of proved one sign on :math:`[P, \infty)`
   (:func:`theory.series.eventual_signs.signed_derivatives`), :math:`h(P) > 0` and
   :math:`h \to 0` (then :math:`h' \le 0`, else :math:`h` would increase to 0 from a positive
   value, and :math:`h'' \ge 0`, else :math:`h' \le h'(P) < 0` and :math:`h \to -\infty`);
2. the terms :math:`n_0 \le n < M` are summed one by one in ball arithmetic, with
   :math:`M = \max(P, n_0 + 2^k)` for the least :math:`k \in [6, 16]` at which the Fourier
   tail's radius is :math:`2^{-100}` of the tail from :math:`P` (else :math:`k = 16`);
3. beyond, :class:`theory.series.fourier_tail.FourierTail` with :math:`T(a) = \sum_{n \ge a}
   h(n)` from the positive-series engine the caller passes (``positive_tail``).
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import (
    NotCertified,
    NotSupported,
    arb_function,
    ball_precision,
    head_suffix,
    suffix_sups,
    tail_start,
    term_ball,
)
from theory.series.eventual_signs import signed_derivatives
from theory.series.expressions import N
from theory.series.fourier_tail import BOXES_RE, FourierTail, periodic_part
from theory.series.limits import limit_at_infinity
from theory.series.monotone import completely_monotone
from theory.series.ratio_tails import EVERYWHERE

HEAD_LOG2 = 16  # at most 2^16 terms summed one by one before the Fourier tail takes over


def periodic_split(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(G, h) with b = G h, G the factors holding sin/cos (constants too), h the others;
    None when no factor or every factor holds an angle.

    >>> from theory.series.expressions import parse_expression as P
    >>> periodic_split(P("3*exp(cos(n))*log(n)/n**2"))
    (3*exp(cos(n)), log(n)/n**2)
    """
    angle, rest = [], []
    for f in sp.Mul.make_args(b):
        (angle if f.has(sp.sin, sp.cos) or N not in f.free_symbols else rest).append(f)
    if not angle or not rest:
        return None
    return sp.Mul(*angle), sp.Mul(*rest)


def convex_from(h: sp.Expr, n0: int) -> tuple[int, str] | None:
    """(P, how) with h decreasing and convex on [P, oo) and h -> 0 (module doc, step 1);
    None when neither proof holds."""
    try:
        with step_budget(3.0):
            if limit_at_infinity(h) != 0:
                return None
    except (StepTimeout, ArithmeticError, ValueError, TypeError):
        return None
    x0 = max(int(n0), 1)
    if completely_monotone(h, x0):
        return x0, "completely monotone (structural proof)"
    signs = signed_derivatives(h, x0)
    if signs is None or signs.orders < 2:
        return None
    try:
        if not arb_function(h)(arb(signs.start)) > 0:
            return None
    except (NotSupported, ArithmeticError, ValueError):
        return None
    return signs.start, signs.note.split(" (")[0] + ", h > 0 there and h -> 0"


class PeriodicProductTail:
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of b_n = G(n) h(n) from n0 on (module doc)."""

    @ball_precision
    def __init__(
        self, b: sp.Expr, n0: int, positive_tail: Callable[[sp.Expr, int], object]
    ) -> None:
        sign = sp.Pow(-1, N) in sp.Mul.make_args(b)  # (-1)^n G h: frequencies shifted by pi
        split = periodic_split(b / sp.Pow(-1, N) if sign else b)
        if split is None or periodic_part(split[0]) is None:
            raise NotCertified("not a periodic factor of the angles times a function of n")
        g, h = split
        convex = convex_from(h, n0)
        if convex is None:
            raise NotCertified(f"{h} is not proved decreasing and convex with limit 0")
        P, how = convex
        self.n0 = int(n0)
        start = max(P, self.n0)
        engine = positive_tail(h, start)
        self.fourier = FourierTail(
            g, h, engine.tail, "the certified sum of h from a", start=start, sign=sign
        )
        self.M = self._head_end(start)
        try:
            self.f = arb_function(b)
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self._head_sums()
        if not sign and self.nonneg_until == self.M and self._nonneg_factor(g):
            self.nonneg_until = EVERYWHERE  # G >= 0 and h > 0 beyond the head
        if self.nonneg_until < EVERYWHERE:  # terms of both signs: the tail rule needs a sup
            self._suffix_sup: list | None = None
            self.tail_sup = self._tail_sup
        self.certificate = (
            f"b_n = G(n) h(n), G = {g}, h = {h} decreasing and convex on [{P}, oo) ({how}): "
            f"terms n0 = {self.n0} <= n < {self.M} one by one in ball arithmetic; beyond, "
            f"{self.fourier.certificate}; the sum of h from a: {engine.certificate}"
        )

    def _head_end(self, start: int) -> int:
        """The first M = max(start, n0 + 2^k), k = 6..16, whose Fourier tail is within
        2^-100 of the tail from start (the rest of the series is summed term by term)."""
        scale = abs(self.fourier.tail(start)).upper()
        for k in range(6, HEAD_LOG2 + 1):
            M = max(start, self.n0 + 2**k)
            if self.fourier.tail(M).rad() <= scale * arb(2) ** -100:
                return M
        return max(start, self.n0 + 2**HEAD_LOG2)

    def _nonneg_factor(self, g: sp.Expr) -> bool:
        """G >= 0 on the whole real line (its enclosures on a period's boxes)."""
        f = arb_function(g)
        period = 2 * arb.pi() / self.fourier.w
        for i in range(BOXES_RE):
            box = (period * i / BOXES_RE).union(period * (i + 1) / BOXES_RE)
            try:
                if not f(box) >= 0:
                    return False
            except (ArithmeticError, ValueError):
                return False
        return True

    def _head_sums(self):
        """suffix[i] = sum_{n0 + i <= n < M} b_n (ball arithmetic); nonneg_until from the signs."""
        self.suffix, self.nonneg_until = head_suffix(self.f, self.n0, self.M)

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return term_ball(self.f, int(n))

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        if a >= self.M:
            return self.fourier.tail(a)
        return self.suffix[a - self.n0] + self.fourier.tail(self.M)

    @ball_precision
    def _tail_sup(self, a: int) -> arb:
        """A bound on every |sum_{n >= k} b_n|, k >= a: the Fourier bound beyond the head
        (:meth:`FourierTail.tail_sup`), the head's largest tail from a on plus it below."""
        a = tail_start(a, self.n0)
        if a >= self.M:
            return self.fourier.tail_sup(a)
        if self._suffix_sup is None:
            self._suffix_sup = suffix_sups(self.suffix)
        return arb((self._suffix_sup[a - self.n0] + self.fourier.tail_sup(self.M)).upper())
