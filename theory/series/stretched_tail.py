r"""Certified tails of stretched exponentials :math:`b_n = C e^{-k n^r}` (C, k, r > 0) by the
integral test, in closed form (the upper incomplete gamma function).

For the decreasing :math:`f(x) = C e^{-k x^r}`, :math:`x \ge 0`,

.. math::
   I(a) \le \sum_{n \ge a} b_n \le b_a + I(a), \qquad
   I(a) = \int_a^\infty C e^{-k x^r}\,dx = \frac{C\,\Gamma(1/r,\ k a^r)}{r\,k^{1/r}},

so the first :math:`2^{12}` terms are summed in ball arithmetic and the rest enclosed with a
width of one term.  Kerple-power (RPE paper, App. B: :math:`e^{-k n^r}`) with r = 0.02 has
:math:`B \approx \Gamma(51) = 50!`, where the Taylor blocks would need :math:`n \sim 10^{108}`.

>>> from theory.series.expressions import parse_expression as P
>>> t = StretchedExpTail(P("exp(-n**(1/2))"), 0)
>>> s = t.tail(0)   # sum_{n>=0} e^{-sqrt(n)} = 2.67040681796633972124 (mpmath.nsum, 30 digits)
>>> s.overlaps(arb("2.67040681796633972124 +/- 1e-20")), bool(s.rad() < 1e-20)
(True, True)
"""

from __future__ import annotations

import sympy as sp
from flint import arb

from theory.core.budget import step_budget
from theory.series.arb_eval import (
    NotCertified,
    NotSupported,
    arb_function,
    ball_precision,
    tail_start,
)
from theory.series.expressions import N
from theory.series.ratio_tails import EVERYWHERE

HEAD_TERMS = 2**12


class StretchedExpTail:
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of :math:`C e^{-k n^r}` from n0 >= 0 on (module doc)."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, head_terms: int = HEAD_TERMS):
        with step_budget(1.0):
            log_b = sp.expand(sp.expand_log(sp.log(b), force=True))
        a0, rest = log_b.as_independent(N, as_Add=True)
        c, power = rest.as_independent(N, as_Add=False)
        base, r = power.as_base_exp() if power != N else (N, sp.Integer(1))
        if not (
            base == N
            and all(x.is_number and x.is_real for x in (a0, c, r))
            and c.is_negative
            and r.is_positive
        ):
            raise NotCertified("not a stretched exponential C exp(-k n^r)")
        if int(n0) < 0:
            raise NotCertified("a stretched exponential from n < 0")
        try:
            self.logC, self.k, self.r = (arb_function(x)(arb(0)) for x in (a0, -c, r))
        except (NotSupported, ArithmeticError, ValueError) as exc:
            raise NotCertified(f"not a stretched exponential: {exc}") from None
        if not (self.k > 0 and self.r > 0 and self.logC.is_finite()):
            raise NotCertified("k > 0 and r > 0 not proved")
        self.n0, self.M = int(n0), int(n0) + int(head_terms)
        self.nonneg_until = EVERYWHERE  # every term is positive
        terms = [self.term(n) for n in range(self.n0, self.M)]
        suffix = [arb(0)] * (len(terms) + 1)
        for i in range(len(terms) - 1, -1, -1):
            suffix[i] = suffix[i + 1] + terms[i]
        self.suffix = suffix
        self.certificate = (
            f"b_n = exp({a0} - ({-c}) n^({r})), decreasing for n >= 0: terms n < {self.M} in "
            "ball arithmetic, beyond the integral test I(a) <= sum_(n>=a) b_n <= b_a + I(a), "
            "I(a) = C Gamma(1/r, k a^r)/(r k^(1/r)) (upper incomplete gamma, python-flint)"
        )

    @ball_precision
    def term(self, n: int) -> arb:
        return (self.logC - self.k * arb(int(n)) ** self.r).exp()

    def _integral(self, a: int) -> arb:
        z = self.k * arb(int(a)) ** self.r
        return self.logC.exp() * z.gamma_upper(1 / self.r) / (self.r * self.k ** (1 / self.r))

    @ball_precision
    def tail(self, a: int) -> arb:
        """An enclosure of sum_{n >= a} b_n (a >= n0)."""
        a = tail_start(a, self.n0)
        if a >= self.M:
            i = self._integral(a)
            return i.union(i + self.term(a))
        i = self._integral(self.M)
        return self.suffix[a - self.n0] + i.union(i + self.term(self.M))
