r"""Certified tails of :math:`\sum g(n)\,(-1)^{\lfloor \alpha n + \beta \rfloor}`, alpha a
quadratic irrational, g positive and decreasing to 0: the Denjoy-Koksma inequality on the
convergents, Ostrowski's digits and Abel summation.

The sign is :math:`s(n) = h(n\gamma + \delta)`, :math:`\gamma = \{\alpha/2\}`,
:math:`\delta = \beta/2`, h = +1 on [0, 1/2) and -1 on [1/2, 1) (mod 1): mean 0, total
variation 4 over a period (:mod:`theory.series.beatty_signs`).

1. **Denjoy-Koksma** (the Denjoy-Koksma inequality, M. Herman, Publ. Math. IHES 49,
   1979): for :math:`|\gamma - p/q| < 1/q^2`, gcd(p, q) = 1, and every
   x, :math:`|\sum_{j<q} h(x + j\gamma)| \le \mathrm{Var}(h) = 4`.  The convergent
   denominators :math:`q_k` of :math:`\gamma = [0; a_1, a_2, \dots]` (periodic, exact)
   satisfy it; each one used is also checked in ball arithmetic.
2. **Ostrowski's digits**: every L >= 1 is :math:`\sum_k b_k q_k` greedily, with
   :math:`b_k \le a_{k+1}` (the remainder is below :math:`q_{k+1} = a_{k+1} q_k + q_{k-1}`),
   so any L consecutive signs sum to at most :math:`4 K(L)`,
   :math:`K(L) = \sum_{q_k \le L} a_{k+1}`.
3. **Abel summation** from a (g decreasing on :math:`[a, \infty)` to 0; the partial sums
   from a are :math:`O(\log)` and :math:`g(n)\log n \to 0` as :math:`\sum g(n)/n` converges):

   .. math::
      \Bigl|\sum_{n \ge a} s(n) g(n)\Bigr|
      \le 4 \sum_{n \ge a} K(n - a + 1)\,(g(n) - g(n+1))
      = 4 \sum_{k \ge 0} a_{k+1}\, g(a + q_k - 1).

   The sum over k is taken term by term while :math:`q_k \le 2^{256}`; beyond, with
   :math:`A = \max a_i`, :math:`q_{k+2} \ge 2 q_k` and g(x)/x decreasing, the rest is at
   most :math:`2A\,(g(Q) + \frac{1}{\ln 2}\sum_{n \ge Q} g(n)/n)`, Q the first
   :math:`q_k > 2^{256}`, that tail from the positive-series engine the caller passes.

The terms :math:`n_0 \le n < M = n_0 + 2^{16}` are summed one by one in ball arithmetic
(exact floors); beyond, the bound of 3. at M, which falls in a, so it also bounds every
later tail (the tail rule's ``tail_sup``).

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.sums import any_width_tail
>>> t = BeattyTail(P("(-1)**floor(sqrt(2)*n)/n**2"), 1, any_width_tail)
>>> B = t.tail(1)   # -0.72766533570... (direct sum of 10^6 terms, exact floors)
>>> B.overlaps(arb("-0.7276653357031")), B.rad() < 1e-7
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable

import sympy as sp
from flint import arb, ctx

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
from theory.series.beatty_signs import beatty_parts
from theory.series.expressions import N
from theory.series.integral_test import decreasing_on
from theory.series.limits import limit_at_infinity

HEAD_TERMS = 2**16  # terms summed one by one before the bound takes over
CHECKED_LOG2 = 256  # convergent denominators up to 2^256 are taken (and checked) one by one
#: starts tried for g positive and nonincreasing (from n0 on first)
STARTS = (0, 1, 2, 4, 8, 16, 64)


def _quotients(gamma: sp.Expr) -> tuple[list[int], list[int]]:
    """(the first partial quotients, the period) of the continued fraction of gamma in
    (0, 1), exact (sympy's periodic expansion of a quadratic irrational)."""
    try:
        with step_budget(2.0):
            cf = sp.continued_fraction(gamma)
    except (StepTimeout, ValueError, TypeError, NotImplementedError) as exc:
        raise NotCertified(f"no continued fraction of {gamma}: {exc}") from None
    if not cf or not isinstance(cf[-1], list) or not cf[-1] or cf[0] != 0:
        raise NotCertified(f"the continued fraction of {gamma} is not periodic")
    head, period = [int(a) for a in cf[1:-1]], [int(a) for a in cf[-1]]
    if min(head + period) < 1:
        raise NotCertified(f"partial quotients of {gamma} not positive")
    return head, period


def convergents(gamma: sp.Expr, top: int) -> tuple[list[tuple[int, int, int]], int]:
    """([(q_k, p_k, a_(k+1))] for every q_k <= top, k = 0, 1, ...; A = the largest partial
    quotient), each |gamma - p_k/q_k| < 1/q_k^2 with gcd(p_k, q_k) = 1 checked in balls.

    >>> out, A = convergents(sp.sqrt(2) / 2, 100)   # 1/sqrt(2) = [0; 1, 2, 2, 2, ...]
    >>> [q for q, _, _ in out], A
    ([1, 1, 3, 7, 17, 41, 99], 2)
    """
    head, period = _quotients(gamma)
    old = ctx.prec
    ctx.prec = 2 * top.bit_length() + 64  # |gamma - p/q| against 1/q^2, q up to top
    try:
        g = arb_function(gamma)(arb(0))
        out, k = [], 0
        p_prev, q_prev, p, q = 1, 0, 0, 1  # p_(-1)/q_(-1) = 1/0, p_0/q_0 = 0/1
        while q <= top:
            a = head[k] if k < len(head) else period[(k - len(head)) % len(period)]
            if math.gcd(p, q) != 1 or not abs(g - arb(p) / q) < arb(1) / (arb(q) * q):
                raise NotCertified(f"{p}/{q} is not proved a convergent of {gamma}")
            out.append((q, p, a))
            p_prev, q_prev, p, q = p, q, a * p + p_prev, a * q + q_prev
            k += 1
    finally:
        ctx.prec = old
    return out, max(head + period)


class BeattyTail:
    """The certified tail engine (``tail``, ``tail_sup``, ``term``, ``n0``,
    ``nonneg_until``, ``certificate``) of g(n) (-1)**floor(alpha n + beta) (module doc)."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, positive_tail: Callable[[sp.Expr, int], object]):
        parts = beatty_parts(b)
        if parts is None:
            raise NotCertified("not g(n) (-1)**floor(alpha n + beta), alpha quadratic irrational")
        g, s, alpha = parts
        self.n0 = int(n0)
        sign, P = self._monotone(g)
        g = sign * g
        gamma = alpha / 2 - sp.floor(alpha / 2)
        self.M = max(self.n0 + HEAD_TERMS, P)
        try:
            self.f, self.g = arb_function(b), arb_function(g)
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self.near, A = convergents(gamma, 2**CHECKED_LOG2)
        Q = self.near[-1][2] * self.near[-1][0] + self.near[-2][0]  # the next q_k > 2^256
        try:
            rest = positive_tail(g / N, Q).tail(Q)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError) as exc:
            raise NotCertified(f"no certified tail of sum g(n)/n: {exc}") from None
        far = 2 * A * (self.g(arb(Q)) + rest / arb(2).log())
        if not far.is_finite():
            raise NotCertified("the bound beyond the checked convergents is not finite")
        self.far = arb(far.upper())
        self.suffix, self.nonneg_until = head_suffix(self.f, self.n0, self.M)
        self._sups: list | None = None
        self.certificate = (
            f"b_n = g(n) s(n), s = {s} = h(n gamma + beta/2), gamma = {gamma} "
            f"(continued fraction checked in balls up to q_k = 2^{CHECKED_LOG2}, partial "
            f"quotients <= {A}), g = {sign * g} of one sign, |g| nonincreasing from {P} to 0: "
            f"terms n0 = {self.n0} <= n < {self.M} one by one in ball arithmetic; beyond, "
            "|sum_(n>=a) b_n| <= 4 sum_k a_(k+1) |g|(a + q_k - 1) (Denjoy-Koksma on the "
            "convergents, Var h = 4; Ostrowski's digits; Abel summation), the k with "
            f"q_k > 2^{CHECKED_LOG2} at most 2 A (|g|(Q) + sum_(n>=Q) |g|(n)/n / ln 2)"
        )

    def _monotone(self, g: sp.Expr) -> tuple[int, int]:
        """(sign, P): sign g positive and nonincreasing on [P, oo) with limit 0."""
        if limit_at_infinity(g) != 0:
            raise NotCertified(f"{g} does not tend to 0")
        for sign in (1, -1):
            for d in STARTS:
                P = max(self.n0, 1) + d
                if decreasing_on(sign * g, P):
                    return sign, P
        raise NotCertified(f"|{g}| is not proved nonincreasing")

    def _bound(self, a: int) -> arb:
        """4 sum_k a_(k+1) g(a + q_k - 1) (module doc, 3.), a >= P; falls as a grows."""
        total = sum((c * self.g(arb(a + q - 1)) for q, _, c in self.near), arb(0))
        return arb((4 * (total + self.far)).upper())

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return term_ball(self.f, int(n))

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        if a >= self.M:
            return arb(0, self._bound(a))
        return self.suffix[a - self.n0] + arb(0, self._bound(self.M))

    @ball_precision
    def tail_sup(self, a: int) -> arb:
        """A bound on every |sum_{n >= k} b_n|, k >= a: the bound of the module doc (which
        falls in a) beyond the head; the head's largest tail from a on plus it below."""
        a = tail_start(a, self.n0)
        if a >= self.M:
            return self._bound(a)
        if self._sups is None:
            self._sups = suffix_sups(self.suffix)
        return arb((self._sups[a - self.n0] + self._bound(self.M)).upper())
