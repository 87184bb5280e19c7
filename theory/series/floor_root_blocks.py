r"""Tails of :math:`b_n = G(\lfloor n^{1/d} \rfloor)` by the blocks of the floor: a series in
the block index.

For an integer :math:`d \ge 2` the floor is k exactly on :math:`k^d \le n < (k+1)^d`, a block
of :math:`(k+1)^d - k^d` equal terms, so for :math:`a \ge 1` with
:math:`k_a = \lfloor a^{1/d} \rfloor` (an exact integer root)

.. math::
   \sum_{n \ge a} b_n = \bigl((k_a + 1)^d - a\bigr)\, G(k_a)
   + \sum_{k > k_a} h(k), \qquad h(k) = \bigl((k+1)^d - k^d\bigr)\, G(k),

and the series of h, proved convergent, has its own certified engine
(``1/floor(sqrt(n))**3``: :math:`h(k) = (2k + 1)/k^3`, so
:math:`B = 2\zeta(2) + \zeta(3)`).  G holds no other n.

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.sums import certify_tail
>>> from theory.series.convergence import decide_in_process
>>> t = FloorRootTail(P("1/floor(sqrt(n))**3"), 1, certify_tail, decide_in_process)
>>> s = t.tail(1)                      # 2 zeta(2) + zeta(3) = 4.4918796018076...
>>> abs(s.mid() - (2 * arb(2).zeta() + arb(3).zeta())) < 1e-12, s.rad() < 1e-15
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from flint import arb

from theory.series.arb_eval import (
    BallTerms,
    NotCertified,
    NotSupported,
    arb_function,
    ball_precision,
    tail_start,
)
from theory.series.decision import Decision
from theory.series.expressions import N
from theory.series.lower_bounds import terms_nonnegative

MAX_D = 12  # floor(n^(1/d)) for 2 <= d <= MAX_D
EVERYWHERE = 10**30  # nonneg_until when every term from n0 on is proved >= 0


def floor_root_parts(b: sp.Expr) -> tuple[int, sp.Expr] | None:
    """(d, G) with b = G(floor(n^(1/d))), G(k) written in n for k; None otherwise.

    >>> from theory.series.expressions import parse_expression as P
    >>> floor_root_parts(P("exp(-floor(n**(1/3)))"))
    (3, exp(-n))
    """
    floors = b.atoms(sp.floor)
    if len(floors) != 1:
        return None
    f = next(iter(floors))
    base, ex = f.args[0].as_base_exp()
    if base != N or not (ex.is_Rational and ex.p == 1 and 2 <= ex.q <= MAX_D):
        return None
    G = b.xreplace({f: N})
    if G.xreplace({N: sp.Symbol("k")}).has(N):
        return None
    if b.xreplace({f: sp.Symbol("k")}).has(N):  # n outside the floor
        return None
    return int(ex.q), G


def floor_root_test(
    b: sp.Expr, n0: int, decide: Callable[[sp.Expr, int], Decision]
) -> Decision | None:
    """The verdict of sum G(floor(n^(1/d))) from the block series: inside a block the terms
    are equal, so the partial sums move monotonically from one block end to the next, and
    they converge iff those at the block ends do, i.e. iff sum h(k) converges.

    >>> from theory.series.expressions import parse_expression as P
    >>> from theory.series.convergence import decide_in_process
    >>> f = lambda e: floor_root_test(P(e), 1, decide_in_process).converges
    >>> f("(-1)**floor(sqrt(n))/floor(sqrt(n))**2"), f("(-1)**floor(sqrt(n))/floor(sqrt(n))")
    (True, False)
    """
    parts = floor_root_parts(b)
    if parts is None or n0 < 1:
        return None
    d, G = parts
    h = sp.expand((N + 1) ** d - N**d) * G
    k0 = integer_root(n0, d) + 1
    inner = decide(h, k0)
    if inner.converges is None:
        return None
    return Decision(
        inner.converges,
        f"blocks of the floor: b_n = G(floor(n^(1/{d}))) is constant on k^{d} <= n < "
        f"(k+1)^{d}, so sum b_n converges iff the block series sum_(k >= {k0}) h(k), "
        f"h(k) = {h}, does: {inner.certificate}",
        test="floor blocks",
    )


def integer_root(a: int, d: int) -> int:
    """floor(a^(1/d)) exactly."""
    k, _ = sp.integer_nthroot(a, d)
    return int(k)


class FloorRootTail(BallTerms):
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of G(floor(n^(1/d))) from n0 >= 1 on (module doc); ``engine(h, k0)``
    gives the certified tail engine of the block series."""

    @ball_precision
    def __init__(
        self,
        b: sp.Expr,
        n0: int,
        engine: Callable[[sp.Expr, int], object],
        decide: Callable[[sp.Expr, int], Decision],
    ):
        parts = floor_root_parts(b)
        if parts is None or int(n0) < 1:
            raise NotCertified("the terms are not G(floor(n^(1/d))) from n >= 1")
        self.d, G = parts
        self.n0 = int(n0)
        self.h = sp.expand((N + 1) ** self.d - N**self.d) * G
        k0 = integer_root(self.n0, self.d) + 1
        d = decide(self.h, k0)
        if d.converges is not True:
            raise NotCertified(f"the block series of h(k) = {self.h} is not proved convergent")
        try:
            self.f, self.g = arb_function(b), arb_function(G)
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self.blocks = engine(self.h, k0)
        first = self.g(arb(k0 - 1))
        self.nonneg_until = EVERYWHERE if first >= 0 and terms_nonnegative(self.h, k0) else self.n0
        self.certificate = (
            f"b_n = G(floor(n^(1/{self.d}))), G(k) = {G}: blocks k^{self.d} <= n < "
            f"(k+1)^{self.d} of equal terms, the block series h(k) = {self.h} from k = {k0}: "
            + self.blocks.certificate
        )

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        k = integer_root(a, self.d)
        partial = ((k + 1) ** self.d - a) * self.g(arb(k))
        return partial + self.blocks.tail(k + 1)
