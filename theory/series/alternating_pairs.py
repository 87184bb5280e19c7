r"""Certified tails of alternating hypergeometric terms :math:`b_n = (-1)^n a_n`, the ratio
:math:`\rho(n) = a_{n+1}/a_n` a rational function of n (``(-1)**n*binomial(2*n, n)/(4**n*n)``),
by pairing consecutive terms.

From the first :math:`M \ge n_0` with :math:`a_M > 0` (ball arithmetic) and
:math:`0 \le \rho(n) \le 1` for every :math:`n \ge M` (proved on the rational functions
:math:`\rho` and :math:`1 - \rho`), the :math:`a_n` are positive and nonincreasing; they tend
to 0 where :math:`\lim \rho < 1` or :math:`\lim n (1 - \rho(n)) > 0` (Gauss: then
:math:`a_n \asymp n^{-c}`), checked, so pairs may be taken:

.. math::
   R(2k) = \sum_{m \ge k} P(m), \quad P(m) = a_{2m} - a_{2m+1} = a_{2m}\,(1 - \rho(2m)),
   \qquad R(2k+1) = -\sum_{m \ge k} Q(m), \quad Q(m) = a_{2m+1}\,(1 - \rho(2m+1)),

two series of terms :math:`\ge 0` whose ratio is again rational, each with a certified
engine of its own (the ratio and Raabe engines of :mod:`theory.series.sums`).  The terms
:math:`n_0 \le n < M` are summed one by one.  Every later tail is bounded by Leibniz:
:math:`|R(k)| \le a_k \le a_a` for :math:`k \ge a \ge M` (``tail_sup``, for the tail rule of
TRF with terms of both signs).  Where moreover :math:`a_n` is convex,
:math:`1 - 2\rho(n) + \rho(n)\rho(n+1) \ge 0` (a rational function again), the
differences :math:`d_n = a_n - a_{n+1}` do not increase and
:math:`|R_k| - |R_{k+1}| = \sum_{j \ge 0} (-1)^j d_{k+j} \ge 0`: every later tail is bounded by
:math:`|R_a|` itself, so the tail rule's TRF is the first j with :math:`|R_j| < \epsilon |B|`.

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.sums import certify_tail
>>> t = AlternatingPairTail(P("(-1)**n*binomial(2*n, n)/(4**n*n)"), 1, certify_tail)
>>> B = t.tail(1)   # 2 log(2 (sqrt(2) - 1)) = -0.3764...: sum c_n x^n/n at x = -1
>>> B.overlaps(2 * (2 * (arb(2).sqrt() - 1)).log()), B.rad() < 1e-15
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import (
    BallTerms,
    NotCertified,
    NotSupported,
    arb_function,
    ball_precision,
    head_suffix,
    suffix_sups,
    tail_start,
)
from theory.series.expressions import N
from theory.series.lower_bounds import terms_nonnegative

#: CPU seconds for the ratio a(n+1)/a(n)
RATIO_SECONDS = 2.0
#: the candidate starts M - n0 of the positive, nonincreasing part
OFFSETS = (0, 1, 2, 4, 8, 16, 64)


def alternating_ratio(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(a, rho) with b = (-1)**n a and rho = a(n+1)/a(n) a rational function of n; None
    otherwise.

    >>> from theory.series.expressions import parse_expression as P
    >>> alternating_ratio(P("(-1)**n*binomial(2*n, n)/(4**n*n)"))[1]
    n*(2*n + 1)/(2*(n + 1)**2)
    """
    factors = sp.Mul.make_args(b)
    signs = [f for f in factors if isinstance(f, sp.Pow) and f.base == -1 and f.exp.has(N)]
    shift = sp.expand(signs[0].exp - N) if len(signs) == 1 else None
    if shift is None or not shift.is_integer:  # (-1)**(n + k) = (-1)**k (-1)**n
        return None
    a = sp.Integer(-1) ** shift * sp.Mul(*[f for f in factors if f is not signs[0]])
    if a.has(sp.Pow(-1, N)) or not a.has(N) or a.has(sp.sin, sp.cos, sp.floor, sp.Abs):
        return None
    try:
        with step_budget(RATIO_SECONDS):
            rho = sp.factor(sp.expand_func(sp.combsimp(a.subs(N, N + 1) / a)))
    except (StepTimeout, TypeError, ValueError, NotImplementedError):
        return None
    if not rho.is_rational_function(N) or not rho.has(N):
        return None
    return a, rho


class AlternatingPairTail(BallTerms):
    """The certified tail engine (``tail``, ``tail_sup``, ``term``, ``n0``,
    ``nonneg_until``, ``certificate``) of (-1)^n a_n (module doc); ``engine(e, k)`` gives
    the certified tail engine of a series of terms >= 0 from k on."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, engine: Callable[[sp.Expr, int], object]):
        parts = alternating_ratio(b)
        if parts is None:
            raise NotCertified("not (-1)^n a_n with a rational ratio a_(n+1)/a_n")
        a, rho = parts
        self.s = -1 if a.as_coeff_Mul()[0] < 0 else 1  # b = s (-1)^n |a| with s a_n > 0
        a = self.s * a
        self.n0 = int(n0)
        try:
            self.f, self.a = arb_function(b), arb_function(a)
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        limit, rate = sp.limit(rho, N, sp.oo), sp.limit(N * (1 - rho), N, sp.oo)
        if not (limit < 1 or (limit == 1 and rate > 0)):  # a_n ~ C r^n or ~ C n^(-rate)
            raise NotCertified(f"a_n does not tend to 0 (ratio {rho})")
        self.M = next(
            (self.n0 + k for k in OFFSETS if self._monotone_from(a, rho, self.n0 + k)), None
        )
        if self.M is None:
            raise NotCertified("a_n is not proved positive and nonincreasing")
        P = sp.powsimp(a.subs(N, 2 * N) * (1 - rho.subs(N, 2 * N)))
        Q = sp.powsimp(a.subs(N, 2 * N + 1) * (1 - rho.subs(N, 2 * N + 1)))
        k_even, k_odd = (self.M + 1) // 2, self.M // 2
        try:
            self.even, self.odd = engine(P, k_even), engine(Q, k_odd)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError) as exc:
            raise NotCertified(f"the paired series have no certified tail: {exc}") from None
        self.suffix, _ = head_suffix(self.f, self.n0, self.M)
        self._sups: list | None = None
        convex = sp.factor(sp.together(1 - 2 * rho + rho * rho.subs(N, N + 1)))
        self.convex_from = next(
            (self.M + k for k in OFFSETS if terms_nonnegative(convex, self.M + k)), None
        )
        self.nonneg_until = self.n0  # terms of both signs
        self.certificate = (
            f"b_n = (-1)^n a_n, a_n = {a}, a_(n+1)/a_n = {rho} in [0, 1] for n >= {self.M} "
            f"(a_n > 0 nonincreasing; -> 0: lim rho = {limit}, lim n (1 - rho) = {rate}); the terms "
            f"{self.n0} <= n < {self.M} summed as they are, then pairs: from an even a, "
            f"sum_m P(m), P(m) = a_(2m) - a_(2m+1) = {P} [{self.even.certificate}]; from an "
            f"odd a, -sum_m Q(m), Q(m) = {Q} [{self.odd.certificate}]; every later tail "
            "|R_k| <= a_k (Leibniz)"
            + (
                ""
                if self.convex_from is None
                else f", and |R_k| nonincreasing from {self.convex_from} on (a_n convex)"
            )
        )

    def _monotone_from(self, a: sp.Expr, rho: sp.Expr, m: int) -> bool:
        """a_m > 0 in balls and 0 <= rho(n) <= 1 proved for every n >= m."""
        try:
            if not self.a(arb(m)) > 0:
                return False
        except (ArithmeticError, ValueError, ZeroDivisionError):
            return False
        return terms_nonnegative(rho, m) and terms_nonnegative(sp.factor(1 - rho), m)

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        if a < self.M:
            return self.suffix[a - self.n0] + self.tail(self.M)
        if a % 2 == 0:
            return self.s * self.even.tail(a // 2)
        return -self.s * self.odd.tail((a - 1) // 2)

    @ball_precision
    def tail_sup(self, a: int) -> arb:
        """A bound on every |sum_{n >= k} b_n|, k >= a: |R_a| itself where a_n is convex
        (|R_k| nonincreasing from ``convex_from`` on), else a_a from M on (Leibniz); below
        M, the head's largest tail from a on plus a_M."""
        a = tail_start(a, self.n0)
        if self.convex_from is not None and a >= self.convex_from:
            return arb(self.tail(a).abs_upper())  # |R_k| nonincreasing from here
        if a >= self.M:
            return arb(self.a(arb(a)).abs_upper())
        if self._sups is None:
            self._sups = suffix_sups(self.suffix)
        return arb((self._sups[a - self.n0] + self.a(arb(self.M)).abs_upper()).upper())
