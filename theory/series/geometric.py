r"""Geometric tails in closed form: :math:`b_n = e^{a + c n}` with real constants a and c < 0.

.. math::
   \sum_{n \ge m} e^{a + c n} = \frac{e^{a + c m}}{1 - e^{c}}
   = \frac{e^{a + c m}}{-\operatorname{expm1}(c)}

in ball arithmetic (python-flint): ``expm1`` keeps :math:`1 - e^{c}` to the working precision
for any c, where the difference of balls is :math:`[\pm 2^{-192}]` at c = -1e-300.  ALiBi
(RPE paper App. B, Eq. 30: :math:`e^{-k n}`, B = 1/(1 - e^{-k}) from n = 0) and a learned
bias with a linear tail are of this form.

>>> from theory.series.expressions import parse_expression as P
>>> t = GeometricTail(P("exp(-n/10**300)"), 0)
>>> t.tail(0).overlaps(1 / -(arb(10) ** -300).neg().expm1())      # 1/(1 - e^(-k)), k = 1e-300
True
>>> GeometricTail(P("1/n**2"), 1)  # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
theory.series.arb_eval.NotCertified: not geometric: log b_n is not linear in n
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import sympy as sp
from flint import arb, ctx

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import PREC, NotCertified, NotSupported, arb_function, ball_precision
from theory.series.expressions import N, log_of_positive_product
from theory.series.results import TRF


class GeometricTail:
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of a geometric series :math:`e^{a + c n}`, c < 0, from n0 on."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int):
        with step_budget(1.0):
            log_b = sp.expand(log_of_positive_product(b))
            # degree <= 1 from the second derivative: sp.degree would build the dense
            # polynomial of -n**(10**10) (gigabytes)
            linear = log_b.is_polynomial(N) and sp.diff(log_b, N, 2) == 0
        if not linear:
            raise NotCertified("not geometric: log b_n is not linear in n")
        a, c = log_b.coeff(N, 0), log_b.coeff(N, 1)
        if not (a.is_number and c.is_number and a.is_real and c.is_real):
            raise NotCertified("not geometric: the coefficients of log b_n are not real numbers")
        # exp(a + c n) to PREC bits needs a + c n to PREC bits beyond its own size: at 192
        # bits exp(-1e300) is [+/- 1e-...] (argument reduction loses the 997 integer bits)
        self.extra_bits = _size_bits(a) + _size_bits(c) + 64
        old = ctx.prec
        ctx.prec = PREC + self.extra_bits
        try:
            self.a, self.c = arb_function(a)(arb(0)), arb_function(c)(arb(0))
        except (NotSupported, ArithmeticError, ValueError) as exc:
            raise NotCertified(f"not geometric: {exc}") from None
        finally:
            ctx.prec = old
        if not (self.a.is_finite() and self.c < 0):
            raise NotCertified("not geometric: the ratio exp(c) is not proved below 1")
        self.a_expr, self.c_expr = a, c
        self.one_minus_ratio = -self.c.expm1()  # 1 - e^c > 0, to full relative precision
        self.n0, self.nonneg_until = int(n0), 10**30  # every term is positive
        self.certificate = (
            f"geometric series: b_n = exp({a} + ({c}) n), ratio exp({c}) < 1; the tail from n = m "
            "is b_m / (1 - exp(c)) = b_m / (-expm1(c)), closed form in ball arithmetic"
        )

    @ball_precision
    def term(self, n: int) -> arb:
        ctx.prec = PREC + self.extra_bits + int(n).bit_length()
        return (self.a + self.c * arb(int(n))).exp()

    @ball_precision
    def tail(self, m: int) -> arb:
        """An enclosure of sum_{n >= m} b_n (m >= n0)."""
        return self.term(m) / self.one_minus_ratio

    @ball_precision
    def trf(self, eps: float, exact_limit: int, head: Any = None) -> TRF | None:
        r"""TRF(eps) of Eq. 22 in closed form: the tail from the first geometric term,
        :math:`T_0`, falls by :math:`e^{c}` a term, so when the head (L given terms > 0, a
        :class:`~theory.series.rpe_library.BiasHead`, or none) is summed before the
        crossing, :math:`R_{L+i} = T_0 e^{c i} < \epsilon B` iff :math:`i > x` with
        :math:`x = \ln(\epsilon B / T_0) / c`, and TRF = L + floor(x) + 1 (eps the decimal
        as typed).  Proved when the ball of x, computed at its own bits and PREC more, lies
        in one [f, f + 1); the proved integer is exact at any size up to ``exact_limit``
        (:data:`~theory.series.results.CLOSED_FORM_EXACT_LIMIT`), beyond it given to 30
        digits (``value`` an mpf, not exact).  None when the crossing lies inside the head (the caller searches it)."""
        e = sp.Rational(repr(eps))
        L = 0 if head is None else len(head)
        x = self._ratio_root(e, head)
        if x is None:
            return None
        size = int(x.mid().man_exp()[1]) + int(x.mid().man_exp()[0]).bit_length()
        old = ctx.prec
        ctx.prec = PREC + max(0, size) + 64 + self.extra_bits + self.n0.bit_length()
        try:
            x = self._ratio_root(e, head)
            f = None if x is None else x.lower().floor()
            separated = f is not None and f == x.upper().floor() and f.is_exact()
            top = None if x is None or separated else x.upper().floor()
        finally:
            ctx.prec = old
        if not separated:
            return self._tie(eps, e, L, f, top)
        j = L + _integer(f) + 1
        log10 = math.log10(j) if j < 10**300 else float(mpmath.log10(mpmath.mpf(j)))
        note = "closed form of the geometric tail: TRF = L + floor(ln(eps B / T_0) / c) + 1"
        if j <= exact_limit:
            return TRF(eps, j, True, log10, note=note)
        with mpmath.workdps(30):
            return TRF(eps, mpmath.mpf(j), False, log10, relative_accuracy=1e-12, note=note)

    def _tie(self, eps: float, e: sp.Rational, L: int, f: arb | None, top: arb | None) -> TRF:
        r"""x = ln(eps B / T_0) / c not separated from an integer k: an exact tie
        :math:`e^{ck} = \epsilon` (no head, so B = T_0; ``2**(-n)`` at eps = 1/8) proved by
        sympy gives TRF = k + 1 exactly (R_k = eps B is not below eps B); otherwise the
        certified bracket L + floor(x) + 1 in [L + f + 1, L + f + 2] (f, f + 1 the floors of
        the ends of x's ball)."""
        if f is None or top is None or not (f.is_exact() and top.is_exact()):
            return TRF(eps, None, False, None, note="ln(eps B/T_0)/c not enclosed")
        lo, hi = (_integer(v) for v in (f, top))
        if hi != lo + 1:
            return TRF(eps, None, False, None, note="ln(eps B/T_0)/c not enclosed")
        if L == 0 and abs(hi) <= 10**4:
            try:
                with step_budget(1.0):
                    tie = sp.simplify(sp.exp(self.c_expr * hi) - e) == 0
            except (StepTimeout, TypeError, ValueError, RecursionError):
                tie = False
            if tie:
                note = f"exact tie: exp({self.c_expr} * {hi}) = eps (sympy), so TRF = {hi} + 1"
                return TRF(eps, hi + 1, True, math.log10(hi + 1), note=note)
        return TRF(
            eps,
            None,
            False,
            None,
            note="ln(eps B/T_0)/c too close to an integer (tie): certified bracket",
            lower_bound=L + lo + 1,
            upper_bound=L + hi + 1,
        )

    def _ratio_root(self, e: sp.Rational, head: Any) -> arb | None:
        """x = ln(eps B / T_0) / c at the current precision (a, c, the head recomputed),
        or None unless T_0 >= eps B is proved."""
        old = ctx.prec
        ctx.prec = max(old, PREC + self.extra_bits + self.n0.bit_length())
        try:
            a, c = (arb_function(v)(arb(0)) for v in (self.a_expr, self.c_expr))
            t0 = (a + c * arb(self.n0)).exp() / -c.expm1()
            B = t0 + (arb(0) if head is None else sum(head.arb_list(), arb(0)))
            target = B * arb(int(e.p)) / arb(int(e.q))
            if not t0 >= target:
                return None
            return (target / t0).log() / c
        finally:
            ctx.prec = old


def _size_bits(x: sp.Expr) -> int:
    """The bits of the integer part of |x| (a real sympy number; 0 below 1)."""
    v = mpmath.mpf(sp.N(x, 30))
    return 0 if not v else max(0, int(mpmath.mag(v)))


def _integer(v: arb) -> int:
    """The exact integer ball v (a floor) as an int."""
    man, exp = (int(w) for w in v.man_exp())
    return man << exp if exp >= 0 else man >> -exp
