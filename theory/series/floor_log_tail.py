r"""Tails of :math:`b_n = \lfloor c \log n \rfloor\, n^{-s}` (c > 0, s > 1) in closed form
by blocks of the floor.

With :math:`m_k = \lceil e^{k/c} \rceil` the least integer with :math:`c \log n \ge k`,
:math:`\lfloor c \log n \rfloor = \#\{k \ge 1 : n \ge m_k\}` for n >= 1, so summing by k
(all terms >= 0) gives, for an integer a >= 1,

.. math::
   \sum_{n \ge a} b_n = \sum_{k \ge 1} \zeta(s, \max(a, m_k))
   = \lfloor c \log a \rfloor\, \zeta(s, a) + \sum_{k > \lfloor c \log a \rfloor} \zeta(s, m_k),

Hurwitz zeta functions in ball arithmetic (the :math:`m_k` exact integers: for algebraic
c, :math:`e^{k/c}` is never an integer, Lindemann, so a ball at enough precision fixes its
ceiling; where the ball does not, sympy's exact value is used when it is an integer:
c = 1/log(2) gives :math:`e^{k \log 2} = 2^k`).  The
sum over k stops at K; the rest is bounded by
:math:`0 \le \zeta(s, m) \le m^{-s} + m^{1-s}/(s - 1)` and :math:`m_k \ge e^{k/c}`:

.. math::
   0 \le \sum_{k > K} \zeta(s, m_k) \le \frac{y^{K+1}}{1 - y} + \frac{x^{K+1}}{(s-1)(1 - x)},
   \qquad x = e^{-(s-1)/c},\ y = e^{-s/c}.

>>> from theory.series.expressions import parse_expression as P
>>> t = FloorLogTail(P("floor(log(n))/n**2"), 1)
>>> s = t.tail(1)          # sum_k k (psi_1(m_k) - psi_1(m_(k+1))): 0.60584504011892764...
>>> abs(s.mid() - arb("0.6058450401189276")) < 1e-15, s.rad() < 1e-30
(True, True)
"""

from __future__ import annotations

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

MAX_BLOCKS = 20000  # k up to here; beyond, the geometric bound
EVERYWHERE = 10**30  # nonneg_until: every term from n0 >= 1 on is >= 0


def floor_log_parts(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(c, s) for b = floor(c*log(n)) * n^-s with real numbers c > 0, s > 1, else None."""
    floors = [f for f in sp.Mul.make_args(b) if isinstance(f, sp.floor)]
    if len(floors) != 1:
        return None
    try:
        with step_budget(2.0):
            c = sp.simplify(floors[0].args[0] / sp.log(N))
            rest = sp.simplify(b / floors[0])
            base, ex = rest.as_base_exp()
            s = -sp.simplify(ex) if base == N else None
    except (StepTimeout, TypeError, ValueError, RecursionError):
        return None
    if not (c.is_number and c.is_positive and s is not None and s.is_number and s > 1):
        return None
    return c, s


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


class FloorLogTail:
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of floor(c log n) n^-s from n0 >= 1 on (module doc)."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int):
        parts = floor_log_parts(b)
        if parts is None or int(n0) < 1:
            raise NotCertified("not floor(c*log(n)) * n^-s with c > 0, s > 1")
        c_expr, s_expr = parts
        try:
            self.f = arb_function(b)
            self.c, self.s = (arb_function(v)(arb(0)) for v in (c_expr, s_expr))
        except (NotSupported, ArithmeticError, ValueError) as exc:
            raise NotCertified(f"floor(c*log(n)) n^-s: {exc}") from None
        if not (self.c > 0 and self.s > 1):
            raise NotCertified("floor(c*log(n)) n^-s: c > 0 and s > 1 not proved")
        self.n0, self.nonneg_until = int(n0), EVERYWHERE
        x, y = (-(self.s - 1) / self.c).exp(), (-self.s / self.c).exp()
        zetas, self.m = [], []  # zeta(s, m_k) and m_k, k = 1..K
        for k in range(1, MAX_BLOCKS + 1):
            self.m.append(_ceil_exp(k, self.c, c_expr))
            zetas.append(self.s.zeta(arb(self.m[-1])))
            rest = y ** (k + 1) / (1 - y) + x ** (k + 1) / ((self.s - 1) * (1 - x))
            if k >= 8 and rest < arb(2) ** -(PREC - 16) * zetas[0]:
                break
        else:
            raise NotCertified(f"floor(c*log(n)) n^-s: the blocks beyond k = {MAX_BLOCKS}")
        far = arb(0).union(rest)
        # suffix[i] = sum_{k > i} zeta(s, m_k) (k from i + 1 on), with the bound beyond K
        self.suffix = [far] * (len(zetas) + 1)
        for i in range(len(zetas) - 1, -1, -1):
            self.suffix[i] = self.suffix[i + 1] + zetas[i]
        self.certificate = (
            f"floor({c_expr}*log(n)) = #{{k >= 1 : n >= ceil(e^(k/c))}}: the tail from a is "
            f"floor(c log a) zeta({s_expr}, a) + sum_(k > floor(c log a)) "
            f"zeta({s_expr}, ceil(e^(k/c))), Hurwitz zeta in ball arithmetic, k up to "
            f"{len(zetas)}, beyond bounded by zeta(s, m) <= m^-s + m^(1-s)/(s-1)"
        )

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return term_ball(self.f, int(n))

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        count = sum(1 for m in self.m if m <= a)  # floor(c log a), while a < m_K
        if count == len(self.m):
            raise NotCertified(f"the tail from {a} lies beyond the blocks summed")
        return arb(count) * self.s.zeta(arb(a)) + self.suffix[count]
