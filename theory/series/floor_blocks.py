r"""Tails of :math:`b_n = \lfloor g(n) \rfloor\, n^{-s}` in closed form by blocks of the floor,
for :math:`g(n) = c \log n` (c > 0, s > 1) or :math:`g(n) = c\,n^r` (c, r > 0, s - r > 1).

With :math:`m_k` the least integer with :math:`g(n) \ge k` (:math:`m_k = \lceil e^{k/c} \rceil`
or :math:`\lceil (k/c)^{1/r} \rceil`), :math:`\lfloor g(n) \rfloor = \#\{k \ge 1 : n \ge m_k\}`
for n >= 1 (g is increasing and >= 0 there), so summing by k (all terms >= 0) gives, for an
integer a >= 1,

.. math::
   \sum_{n \ge a} b_n = \sum_{k \ge 1} \zeta(s, \max(a, m_k))
   = \lfloor g(a) \rfloor\, \zeta(s, a) + \sum_{k > \lfloor g(a) \rfloor} \zeta(s, m_k),

Hurwitz zeta functions in ball arithmetic.  The :math:`m_k` are exact integers: sympy's
exact value where it is rational (:math:`(k/c)^{1/r} = k^3` for c = 1, r = 1/3;
:math:`e^{k \log 2} = 2^k` for c = 1/log(2)), else a ball at enough precision that fixes the
ceiling (for algebraic c, :math:`e^{k/c}` is never an integer, Lindemann).  The sum over k
stops at K; the rest is bounded from :math:`m^{1-s}/(s-1) \le \zeta(s, m) \le m^{-s} +
m^{1-s}/(s - 1)`.  For the logarithm, with :math:`m_k \ge e^{k/c}`,

.. math::
   0 \le \sum_{k > K} \zeta(s, m_k) \le \frac{y^{K+1}}{1 - y} + \frac{x^{K+1}}{(s-1)(1 - x)},
   \qquad x = e^{-(s-1)/c},\ y = e^{-s/c};

for the power, with :math:`x_k = (k/c)^{1/r} \le m_k < x_k + 1` and Bernoulli's
:math:`(1 + u)^{1-s} \ge 1 - (s-1) u`, Hurwitz zeta functions again
(:math:`\alpha = (s-1)/r`, :math:`\beta = s/r`, both > 1):

.. math::
   \frac{c^\alpha \zeta(\alpha, K+1)}{s-1} - c^\beta \zeta(\beta, K+1)
   \le \sum_{k > K} \zeta(s, m_k) \le
   \frac{c^\alpha \zeta(\alpha, K+1)}{s-1} + c^\beta \zeta(\beta, K+1).

>>> from theory.series.expressions import parse_expression as P
>>> t = FloorBlockTail(P("floor(log(n))/n**2"), 1)
>>> s = t.tail(1)          # sum_k k (psi_1(m_k) - psi_1(m_(k+1))): 0.60584504011892764...
>>> abs(s.mid() - arb("0.6058450401189276")) < 1e-15, s.rad() < 1e-30
(True, True)
>>> s = FloorBlockTail(P("floor(sqrt(n))/n**3"), 1).tail(1)   # sum_k zeta(3, k^2)
>>> abs(s.mid() - arb("1.2528900334328527")) < 1e-15, s.rad() < 1e-15
(True, True)
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

import sympy as sp
from flint import arb, ctx

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import (
    PREC,
    NotCertified,
    NotSupported,
    arb_function,
    ball_precision,
    tail_start,
    term_ball,
)
from theory.series.expressions import N

MAX_BLOCKS = 20000  # k up to here; beyond, the closed-form bound on the rest
EVERYWHERE = 10**30  # nonneg_until: every term from n0 >= 1 on is >= 0


def floor_block_parts(b: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr] | None:
    """(c, r, s) for b = floor(g(n)) * n^-s with g = c*log(n) (r = 0; c > 0, s > 1) or
    g = c*n^r (c, r > 0, s - r > 1), real numbers; None otherwise.

    >>> from theory.series.expressions import parse_expression as P
    >>> floor_block_parts(P("floor(sqrt(2)*sqrt(n))/n**3"))
    (sqrt(2), 1/2, 3)
    """
    floors = [f for f in sp.Mul.make_args(b) if isinstance(f, sp.floor)]
    if len(floors) != 1:
        return None
    g = floors[0].args[0]
    try:
        with step_budget(2.0):
            rest = sp.simplify(b / floors[0])
            base, ex = rest.as_base_exp()
            s = -sp.simplify(ex) if base == N else None
            c, r = sp.simplify(g / sp.log(N)), sp.Integer(0)
            if not c.is_number:
                r = sp.simplify(N * sp.diff(g, N) / g)  # d log g / d log n: r for c n^r
                c = sp.simplify(g / N**r) if r.is_number else c
    except (StepTimeout, TypeError, ValueError, RecursionError):
        return None
    if not (c.is_number and c.is_positive and s is not None and s.is_number):
        return None
    if not (r.is_number and r >= 0 and s - r > 1 and (r > 0 or s > 1)):
        return None
    return c, r, s


def _ceil_exp(k: int, c: arb, c_expr: sp.Expr) -> int:
    """ceil(e^(k/c)) exactly, raising the precision until the ball fixes it (a ball holding
    an integer never does: its ends have different ceilings); then e^(k/c) simplified by
    sympy when that is an integer (2^k for c = 1/log 2)."""
    old = ctx.prec
    try:
        for extra in (0, 64, 256):
            ctx.prec = PREC + extra + 2 * int(float((arb(k) / c).mid())) + 64  # e^(k/c)'s bits
            v = (arb(k) / c).exp()
            lo, hi = v.lower().ceil(), v.upper().ceil()
            if lo == hi and lo.is_exact():
                return int(lo.mid().man_exp()[0]) << int(lo.mid().man_exp()[1])
    finally:
        ctx.prec = old
    try:
        with step_budget(1.0):
            exact = sp.simplify(sp.exp(sp.Integer(k) / c_expr))
    except (StepTimeout, TypeError, ValueError, RecursionError):
        exact = None
    if exact is not None and exact.is_Integer:
        return int(exact)
    raise NotCertified(f"ceil(e^({k}/c)) not fixed in ball arithmetic")


def _root_scale(c_expr: sp.Expr, r_expr: sp.Expr) -> tuple[int, sp.Rational] | None:
    """(d, q) with (k/c)^(1/r) = q k^d for every k, when 1/r = d is an integer and
    q = c^-d is rational (sympy, exact); None otherwise."""
    d = 1 / r_expr
    if not d.is_Integer:
        return None
    try:
        with step_budget(1.0):
            q = sp.simplify(c_expr ** (-d))
    except (StepTimeout, TypeError, ValueError, RecursionError):
        return None
    return (int(d), q) if q.is_Rational else None


def _ceil_root(
    k: int, c: arb, inv_r: arb, exact: tuple[int, sp.Rational] | None, x: Callable[[], sp.Expr]
) -> int:
    """ceil((k/c)^(1/r)) exactly: from ``exact`` = (d, q) in integers (k^3 for c = 1,
    r = 1/3; k^2/2 for c = sqrt(2), r = 1/2), else the ball when it fixes the ceiling,
    else sympy's value ``x()`` of (k/c)^(1/r) when it is rational (4^(5/2) = 32)."""
    if exact is not None:
        d, q = exact
        return -((-(k**d) * int(q.p)) // int(q.q))
    v = (arb(k) / c) ** inv_r
    lo, hi = v.lower().ceil(), v.upper().ceil()
    if lo == hi and lo.is_exact():
        return int(lo.mid().man_exp()[0]) << int(lo.mid().man_exp()[1])
    exact_x = x()
    if exact_x.is_Rational:
        return int(sp.ceiling(exact_x))
    raise NotCertified(f"ceil(({k}/c)^(1/r)) not fixed in ball arithmetic")


class FloorBlockTail:
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of floor(g(n)) n^-s from n0 >= 1 on (module doc)."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int):
        parts = floor_block_parts(b)
        if parts is None or int(n0) < 1:
            raise NotCertified("not floor(c*log(n)) or floor(c*n**r) times n^-s")
        c_expr, r_expr, s_expr = parts
        try:
            self.f = arb_function(b)
            self.c, self.r, self.s = (arb_function(v)(arb(0)) for v in parts)
        except (NotSupported, ArithmeticError, ValueError) as exc:
            raise NotCertified(f"floor blocks: {exc}") from None
        self.power = bool(r_expr > 0)
        if not (self.c > 0 and self.s > 1 and self.r >= 0 and self.s - self.r > 1):
            raise NotCertified("floor blocks: c > 0, s > 1, s - r > 1 not proved")
        if self.power and not self.r > 0:
            raise NotCertified("floor blocks: r > 0 not proved")
        self.n0, self.nonneg_until = int(n0), EVERYWHERE
        zetas, self.m = [], []  # zeta(s, m_k) and m_k, k = 1..K
        exact = _root_scale(c_expr, r_expr) if self.power else None
        for k in range(1, MAX_BLOCKS + 1):
            if self.power:
                x = lambda k=k: sp.Pow(sp.Integer(k) / c_expr, 1 / r_expr)  # noqa: E731
                self.m.append(_ceil_root(k, self.c, 1 / self.r, exact, x))
            else:
                self.m.append(_ceil_exp(k, self.c, c_expr))
            zetas.append(self.s.zeta(arb(self.m[-1])))
            far = self._rest(k)
            if k >= 8 and far.rad() < arb(2) ** -(PREC - 16) * zetas[0]:
                break
        else:
            if not self.power:
                raise NotCertified(f"floor(c*log(n)) n^-s: the blocks beyond k = {MAX_BLOCKS}")
        # suffix[i] = sum_{k > i} zeta(s, m_k) (k from i + 1 on), with the bound beyond K
        self.suffix = [far] * (len(zetas) + 1)
        for i in range(len(zetas) - 1, -1, -1):
            self.suffix[i] = self.suffix[i + 1] + zetas[i]
        g = f"{c_expr}*n**({r_expr})" if self.power else f"{c_expr}*log(n)"
        edge = "ceil((k/c)^(1/r))" if self.power else "ceil(e^(k/c))"
        self.certificate = (
            f"floor({g}) = #{{k >= 1 : n >= m_k = {edge}}}: the tail from a is "
            f"floor(g(a)) zeta({s_expr}, a) + sum_(k > floor(g(a))) zeta({s_expr}, m_k), "
            f"Hurwitz zeta in ball arithmetic, k up to {len(zetas)}, beyond bounded by "
            "m^(1-s)/(s-1) <= zeta(s, m) <= m^-s + m^(1-s)/(s-1)"
        )

    def _rest(self, K: int) -> arb:
        """Enclosure of sum_{k > K} zeta(s, m_k) (module doc)."""
        s, c = self.s, self.c
        if not self.power:
            x, y = (-(s - 1) / c).exp(), (-s / c).exp()
            return arb(0).union(y ** (K + 1) / (1 - y) + x ** (K + 1) / ((s - 1) * (1 - x)))
        alpha, beta = (s - 1) / self.r, s / self.r
        main = c**alpha * alpha.zeta(arb(K + 1)) / (s - 1)
        side = c**beta * beta.zeta(arb(K + 1))
        return arb(0).max(main - side).union(main + side)

    def _count(self, a: int) -> int:
        """floor(g(a)) for a beyond the blocks summed (the power case: c a^r in a ball)."""
        v = self.c * arb(a) ** self.r
        lo, hi = v.lower().floor(), v.upper().floor()
        if not (self.power and lo == hi and lo.is_exact()):
            raise NotCertified(f"the tail from {a} lies beyond the blocks summed")
        return int(lo.mid().man_exp()[0]) << int(lo.mid().man_exp()[1])

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return term_ball(self.f, int(n))

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        count = bisect.bisect_right(self.m, a)  # floor(g(a)), while a < m_K
        if count < len(self.m):
            return arb(count) * self.s.zeta(arb(a)) + self.suffix[count]
        count = self._count(a)
        if count < len(self.m):
            raise NotCertified(f"floor(g({a})) below the blocks summed")
        return arb(count) * self.s.zeta(arb(a)) + self._rest(count)
