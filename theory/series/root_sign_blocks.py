r"""Tails of :math:`b_n = c\,(-1)^{\lfloor n^{1/d} \rfloor} n^{-s}` (d >= 2 an integer,
s > 1 - 1/d) by the blocks of the sign, summed by Euler-Maclaurin.

The sign is :math:`(-1)^k` on the block :math:`k^d \le n \le (k+1)^d - 1`.  With
:math:`f(x) = x^{-s}`, A = k^d and B = (k+1)^d - 1, Euler-Maclaurin to order p = 5 gives the
block sum

.. math::
   h(k) = \sum_{n=A}^{B} f(n) = E(k) + \rho_k, \qquad
   E(k) = \int_A^B f + \frac{f(A) + f(B)}{2} + \frac{f'(B) - f'(A)}{12}
   - \frac{f'''(B) - f'''(A)}{720},

   |\rho_k| \le \frac{2 \zeta(5)}{(2\pi)^5} \int_A^B |f^{(5)}|
   \le \frac{2 \zeta(5)}{(2\pi)^5} (s)_4 A^{-s-4}

(:math:`f^{(4)} > 0` decreasing, :math:`(s)_4 = s(s+1)(s+2)(s+3)`).  So for K >= 2

.. math::
   \sum_{n \ge K^d} b_n = c \sum_{k \ge K} (-1)^k E(k) + c \sum_{k \ge K} (-1)^k \rho_k,

the first by a certified tail engine of the smooth alternating series (``engine``), the
second in :math:`\pm C (s)_4 (K^{-q} + K^{1-q}/(q - 1))`, q = d(s + 4) (the integral test).
A tail from a inside block k: the same formula on [a, B] (A = a), plus the blocks after it;
the terms before :math:`K^d` one by one in ball arithmetic.

Where :math:`I(k) = \int_{k^d}^{(k+1)^d} f - \int_{(k+1)^d - 1}^{(k+2)^d - 1} f \ge 0` is
proved for k >= K (:func:`theory.series.lower_bounds.terms_nonnegative`, on I or on
:math:`k^{d(s-1)} I`, a power series in 1/k where s is not 1), the block sums
decrease from K on (:math:`h(k) \ge \int_{k^d}^{(k+1)^d} f` and
:math:`h(k+1) \le \int_{(k+1)^d - 1}^{(k+2)^d - 1} f`, f decreasing), so a tail from inside
block k' is a partial block sum of one sign and an alternating tail of the other sign, each
at most :math:`h(k') \le V(k') = ((k'+1)^d - k'^d) k'^{-ds}` (V decreases: every exponent
i - ds, i < d, is negative): ``tail_sup(a)`` is :math:`|c| V(k_a)`, the tail rule's bound
on every later tail.

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.sums import certify_tail
>>> t = RootSignTail(P("(-1)**floor(sqrt(n))/n**2"), 1, certify_tail)
>>> s = t.tail(1)        # mpmath: block sums zeta(2, k^2) - zeta(2, (k+1)^2), alternating
>>> abs(s.mid() - arb("-1.2321460204313883")) < 1e-13, s.rad() < 1e-15
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
    head_suffix,
    suffix_sups,
    tail_start,
)
from theory.series.expressions import N
from theory.series.floor_root_blocks import integer_root
from theory.series.lower_bounds import terms_nonnegative
from theory.series.split_tail import SplitTail

MAX_D = 12  # (-1)**floor(n**(1/d)) for 2 <= d <= MAX_D
HEAD_TERMS = 2**13  # about this many terms one by one before the blocks take over


def root_sign_parts(b: sp.Expr) -> tuple[int, sp.Expr, sp.Expr] | None:
    """(d, c, s) with b = c (-1)^floor(n^(1/d)) n^(-s), c a nonzero number, s > 1 - 1/d
    rational; None otherwise.

    >>> from theory.series.expressions import parse_expression as P
    >>> root_sign_parts(P("3*(-1)**floor(n**(1/3))/n**(6/5)"))
    (3, 3, 6/5)
    """
    c, sign, s = sp.Integer(1), None, sp.Integer(0)
    for f in sp.Mul.make_args(b):
        if not f.has(N):
            c *= f
        elif isinstance(f, sp.Pow) and f.base == -1 and isinstance(f.exp, sp.floor):
            if sign is not None:
                return None
            sign = f.exp.args[0]
        elif isinstance(f, sp.Pow) and f.base == N and f.exp.is_Rational:
            s -= f.exp
        elif f == N:
            s -= 1
        else:
            return None
    if sign is None or not (c.is_number and c.is_nonzero):
        return None
    base, ex = sign.as_base_exp()
    if base != N or not (ex.is_Rational and ex.p == 1 and 2 <= ex.q <= MAX_D):
        return None
    d = int(ex.q)
    if not (s.is_Rational and s > 1 - sp.Rational(1, d)):
        return None
    return d, c, s


def block_parts(d: int, s: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(Phi(B), Psi(A)) with E(k) = Phi(B) - Psi(A) (module doc), written in n for k:
    Phi = F + f/2 + f1/12 - f3/720 and Psi = F - f/2 + f1/12 - f3/720, with F' = f and f1,
    f3 the first and third derivatives of f."""
    A, B = N**d, (N + 1) ** d - 1

    def common(x: sp.Expr) -> sp.Expr:
        F = sp.log(x) if s == 1 else x ** (1 - s) / (1 - s)
        d1, d3 = -s * x ** (-s - 1), -s * (s + 1) * (s + 2) * x ** (-s - 3)
        return F + d1 / 12 - d3 / 720

    return common(B) + B**-s / 2, common(A) - A**-s / 2


class RootSignTail(BallTerms):
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``; ``tail_sup`` where the block sums are proved decreasing) of
    c (-1)^floor(n^(1/d)) n^-s from n0 >= 1 on (module doc); ``engine(t, k0)`` gives the
    certified tail engine of the alternating block series."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, engine: Callable[[sp.Expr, int], object]):
        parts = root_sign_parts(b)
        if parts is None or int(n0) < 1:
            raise NotCertified("the terms are not c (-1)^floor(n^(1/d)) n^-s from n >= 1")
        self.d, c, s = parts
        self.n0 = int(n0)
        self.K = max(2, integer_root(self.n0, self.d) + 1, integer_root(HEAD_TERMS, self.d))
        self.M = self.K**self.d
        try:
            self.f = arb_function(b)
            self.c, self.s = (arb_function(x)(arb(0)) for x in (c, s))
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self.suffix, self.nonneg_until = head_suffix(self.f, self.n0, self.M)
        self.blocks = self._block_engine(s, engine)
        pochhammer = self.s * (self.s + 1) * (self.s + 2) * (self.s + 3)
        self.C = 2 * arb(5).zeta() / (2 * arb.pi()) ** 5 * pochhammer  # |rho| <= C A^(-s-4)
        self.q = self.d * (self.s + 4)
        self.far = self.c * self._from_block(self.K)  # sum_(n >= K^d) b_n, once
        F = (lambda x: sp.log(x)) if s == 1 else (lambda x: x ** (1 - s) / (1 - s))  # noqa: E731
        gap = F((N + 1) ** self.d) - F(N**self.d) - F((N + 2) ** self.d - 1)
        gap += F((N + 1) ** self.d - 1)
        scale = N ** (self.d * (s - 1))  # n^(d(s-1)) gap: a power series in 1/n
        if terms_nonnegative(gap, self.K) or terms_nonnegative(sp.expand(scale * gap), self.K):
            self._head_sups = suffix_sups([v + self.far for v in self.suffix])  # |R_j|, j < M
            self.tail_sup = self._tail_sup
        self.certificate = (
            f"b_n = {c} (-1)^floor(n^(1/{self.d})) n^-{s}: terms n0 = {self.n0} <= n < "
            f"{self.M} one by one; beyond, the blocks k^{self.d} <= n < (k+1)^{self.d} "
            f"of one sign, each summed by Euler-Maclaurin to order 5 (remainder <= "
            f"2 zeta(5)/(2 pi)^5 (s)_4 A^(-s-4)), the alternating series of the block forms "
            f"E(k) = {self.E}: " + self.blocks.certificate
        )

    def _block_engine(self, s: sp.Expr, engine: Callable[[sp.Expr, int], object]) -> object:
        """The certified tail engine of sum_(k >= K) (-1)^k E(k): the two alternating series
        (-1)^k Phi(B) and -(-1)^k Psi(A) (each smooth and of one sign: Dirichlet's engine),
        else (s = 1: log B and log A alone diverge) E(k) whole."""
        sign = sp.Pow(-1, N)
        phi, psi = block_parts(self.d, s)
        self.E = phi - psi
        if s != 1:
            try:
                return SplitTail(sign * self.E, self.K, engine, (sign * phi, -sign * psi))
            except (NotCertified, ArithmeticError, ValueError, TypeError):
                pass
        return engine(sign * self.E, self.K)

    def _remainders(self, k: int) -> arb:
        """A ball around 0 holding sum_(k' >= k) (-1)^k' rho_k'."""
        K = arb(k)
        bound = self.C * (K ** (-self.q) + K ** (1 - self.q) / (self.q - 1))
        return arb(0, bound.upper())

    def _from_block(self, k: int) -> arb:
        """Enclosure of sum_(n >= k^d) b_n / c, k >= K."""
        return self.blocks.tail(k) + self._remainders(k)

    def _partial(self, a: int, k: int) -> arb:
        """Enclosure of sum_(a <= n < (k+1)^d) n^-s (Euler-Maclaurin on [a, B])."""
        s, A, B = self.s, arb(a), arb((k + 1) ** self.d - 1)
        if self.s == 1:
            integral = (B / A).log()
        else:
            integral = (B ** (1 - s) - A ** (1 - s)) / (1 - s)

        def f(x, j):  # f^(j)(x) for j = 0, 1, 3
            coeff = {0: arb(1), 1: -s, 3: -s * (s + 1) * (s + 2)}[j]
            return coeff * x ** (-s - j)

        value = integral + (f(A, 0) + f(B, 0)) / 2 + (f(B, 1) - f(A, 1)) / 12
        value -= (f(B, 3) - f(A, 3)) / 720
        rest = self.C * A ** (-s - 4)
        return value + arb(0, rest.upper())

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_(n >= a) b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        if a < self.M:
            return self.suffix[a - self.n0] + self.far
        k = integer_root(a, self.d)
        sign = 1 if k % 2 == 0 else -1
        inside = arb(0) if a == k**self.d else sign * self._partial(a, k)
        head = self._from_block(k) if a == k**self.d else inside + self._from_block(k + 1)
        return self.c * head

    @ball_precision
    def _tail_sup(self, a: int) -> arb:
        """An upper bound on |sum_(n >= j) b_n| for every j >= a (module doc)."""
        a = tail_start(a, self.n0)
        k = max(integer_root(a, self.d), self.K)
        V = (arb(k + 1) ** self.d - arb(k) ** self.d) * arb(k) ** (-self.d * self.s)
        top = abs(self.c) * V
        if a >= self.M:
            return top
        return self._head_sups[a - self.n0].max(top)
