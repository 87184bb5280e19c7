r"""Certified tails of terms that decay faster than any geometric series, bounded in log space:
``exp(-n**(10**10))``, ``exp(-2**n)``, ``exp(-n**n)``, ``exp(-exp(n**2))``.

Write :math:`b_n = e^{L(n)}` with :math:`L = X + \log c + p \log n` for
:math:`b_n = c\, n^p e^{X(n)}` (c > 0, p real; a factor :math:`a^{Y(n)}`, a > 0, adds
:math:`Y \log a`).  When :math:`L'' \le 0` on :math:`[M, \infty)` (proved symbolically for
the real variable :math:`x = M + t`, :math:`t \ge 0`), the chord slopes
:math:`L(n+1) - L(n)` do not increase for :math:`n \ge M`, so the term ratios
:math:`q_n = b_{n+1}/b_n = e^{L(n+1) - L(n)}` do not either, and for :math:`a \ge M` with
:math:`q_a < 1`

.. math::
   b_a \le \sum_{n \ge a} b_n \le b_a \sum_{j \ge 0} q_a^j = \frac{b_a}{1 - q_a}.

The terms before the cut :math:`K` are summed in ball arithmetic (python-flint, which keeps
:math:`e^{-2^{10^{10}}}` as a ball with a huge exponent: no big integer is ever built), and
:math:`K` is the first index at which the bound is below :math:`2^{-\mathrm{PREC}}` of the sum
so far.  ``exp(-n**(10**10))`` from n = 1: :math:`B = e^{-1} + e^{-2^{10^{10}}} + \dots`,
certified from two terms.  Series whose term ratio does not fall below 1/256 within the
first 64 indices are left to the other engines (:class:`NotCertified`).

>>> from theory.series.expressions import parse_expression as P
>>> s = SuperExpTail(P("exp(-n**2)"), 1).tail(1)
>>> # sum_{n>=1} e^{-n^2} = (theta_3(0, 1/e) - 1)/2 (mpmath.jtheta, 50 digits)
>>> s.overlaps(arb("0.38631860241332607651562527557892924067169302268612 +/- 1e-50"))
True
>>> bool(s.rad() < 1e-50)
True
"""

from __future__ import annotations

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import (
    NotCertified,
    NotSupported,
    Undecided,
    arb_function,
    ball_precision,
    tail_start,
    term_ball,
)
from theory.series.expressions import N
from theory.series.ratio_tails import EVERYWHERE

#: the ratio test of the gate: some q_n <= 2^-GATE_BITS for n - n0 in GATE_OFFSETS
GATE_BITS = 8
GATE_OFFSETS = (0, 1, 2, 4, 8, 16, 32, 64)
MAX_HEAD = 4096  # terms summed before the ratio bound must close the tail
PREC_CUT = 200  # the tail beyond the cut is below 2^-PREC_CUT of the sum before it
#: functions whose real extension to x >= M is what the concavity proof is about
_OPAQUE = (sp.floor, sp.ceiling, sp.Piecewise, sp.Abs, sp.Min, sp.Max, sp.sign, sp.frac)


def log_of_term(b: sp.Expr) -> sp.Expr:
    r"""L(n) with :math:`b_n = e^{L(n)} > 0` for n >= 1, from the factors of b: exp(X) gives
    X, a positive constant c gives log c, n**p (p real) gives p log n, a**Y (a > 0 constant)
    gives Y log a; anything else raises :class:`NotCertified`.

    >>> log_of_term(3 * N**2 * sp.exp(-N**3))
    -n**3 + 2*log(n) + log(3)
    """
    parts = []
    for f in sp.Mul.make_args(b):
        if not f.has(N):
            if not (f.is_number and f.is_positive):
                raise NotCertified(f"factor {f} not proved positive")
            parts.append(sp.log(f))
        elif isinstance(f, sp.exp):
            parts.append(f.args[0])
        elif f.is_Pow and f.base == N and f.exp.is_number and f.exp.is_real:
            parts.append(f.exp * sp.log(N))
        elif f.is_Pow and not f.base.has(N) and f.base.is_positive:
            parts.append(f.exp * sp.log(f.base))
        elif f.is_Pow and f.exp.is_number and f.exp.is_real and f.base.is_positive:
            parts.append(f.exp * sp.log(f.base))  # (e^n + e^-n)^-1: -log(e^n + e^-n)
        else:
            raise NotCertified(f"factor {f} is not c n^p e^X or a^Y")
    L = sp.Add(*parts)
    if L.has(*_OPAQUE) or L.is_extended_real is not True:
        raise NotCertified("log b_n is not a proved real, differentiable function of n")
    return L


def concave_from(L: sp.Expr, m: int) -> bool:
    """L''(x) <= 0 for every real x >= m, proved by sympy's sign rules in x = m + t, t >= 0
    (on L'' as differentiated, else as simplified: -log(e^x + e^-x) has L'' = -4/(e^x +
    e^-x)^2 only after simplification)."""
    x, t = sp.Dummy("x", positive=True), sp.Dummy("t", nonnegative=True)
    with step_budget(1.0):
        d2 = sp.diff(L.subs(N, x), x, 2).subs(x, m + t)
        if d2.is_nonpositive is True:
            return True
    try:
        with step_budget(1.0):
            return sp.simplify(d2).is_nonpositive is True
    except StepTimeout:
        return False


class SuperExpTail:
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of a positive term with a concave log and a term ratio that falls below
    1/256 within 64 indices of n0 (module doc)."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, gate_bits: int = GATE_BITS):
        self.n0 = int(n0)
        if self.n0 < 0:
            raise NotCertified("the log-space bound needs n >= 0")
        L = log_of_term(b)
        try:
            self.f, self.logf = arb_function(b), arb_function(L)
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        gate = -arb(2).log() * gate_bits
        m = next((self.n0 + d for d in GATE_OFFSETS if self._falls(self.n0 + d, gate)), None)
        if m is None:
            raise NotCertified(f"the term ratio stays above 2^-{gate_bits}")
        if not concave_from(L, m):
            raise NotCertified(f"log b_n = {L} not proved concave for n >= {m}")
        self.m = m
        self._first_slope = arb(self._slope(m).upper())  # every later slope is below it
        self.nonneg_until = EVERYWHERE  # c n^p e^X > 0
        terms, total, k = [], arb(0), self.n0
        while True:
            v = term_ball(self.f, k)
            if k >= m and self._bound(k, v).upper() <= total.abs_lower() * arb(2) ** -PREC_CUT:
                break
            if k - self.n0 >= MAX_HEAD:
                raise NotCertified(f"the ratio bound does not close the tail by n = {k}")
            terms.append(v)
            total += v
            k += 1
        self.K = k
        suffix = [arb(0)] * (len(terms) + 1)
        for i in range(len(terms) - 1, -1, -1):
            suffix[i] = suffix[i + 1] + terms[i]
        self.suffix = suffix
        self.certificate = (
            f"b_n = exp(L(n)), L = {L} concave for n >= {m} (L'' <= 0, sympy): the term ratios "
            f"b_(n+1)/b_n = exp(L(n+1) - L(n)) do not increase from n = {m}, and the first is "
            f"below 2^-{gate_bits}; terms n < {k} in ball arithmetic, beyond "
            "sum_(n>=a) b_n <= b_a/(1 - q_a), q_a = exp(L(a+1) - L(a)) (python-flint)"
        )

    def _falls(self, n: int, gate: arb) -> bool:
        """L(n + 1) - L(n) < gate, proved (False where L is not evaluated, as log 0)."""
        try:
            return bool(self._slope(n) < gate)
        except NotCertified:
            return False

    def _slope(self, n: int) -> arb:
        """L(n + 1) - L(n) as a ball (the log of the term ratio)."""
        try:
            return self.logf(arb(n + 1)) - self.logf(arb(n))
        except (Undecided, ArithmeticError, ValueError) as exc:
            raise NotCertified(f"log b_{n}: {exc}") from None

    def _bound(self, a: int, b_a: arb) -> arb:
        """The enclosure [b_a, b_a/(1 - q_a)] of sum_{n >= a} b_n, a >= m, with q_a the
        upper end of exp(L(a+1) - L(a)), or of exp(L(m+1) - L(m)) where that is lower:
        L is concave from m, so its slopes do not increase (exp(-n**(10**400)): 3^(10^400)
        has no digits left in balls, 2^(10^400) - 1 is exact)."""
        slope = self._slope(a)
        top = slope.upper() if slope.is_finite() else arb("inf")
        top = top.min(self._first_slope)
        if not top < 0:
            raise NotCertified(f"b_({a}+1)/b_{a} < 1 not proved")
        q = top.exp()
        return b_a.union(b_a / (1 - q))

    @ball_precision
    def term(self, n: int) -> arb:
        return term_ball(self.f, n)

    @ball_precision
    def tail(self, a: int) -> arb:
        """An enclosure of sum_{n >= a} b_n (a >= n0)."""
        a = tail_start(a, self.n0)
        if a >= self.K:
            return self._bound(a, term_ball(self.f, a))
        return self.suffix[a - self.n0] + self._bound(self.K, term_ball(self.f, self.K))
