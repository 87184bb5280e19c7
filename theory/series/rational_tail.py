r"""Tails of rational terms whose poles are all rational, in closed form (digamma, Hurwitz zeta).

With :math:`b_n = P(n)/Q(n)`, :math:`\deg Q \ge \deg P + 2` and every root :math:`r` of
:math:`Q` rational, the partial fractions
:math:`b_n = \sum_r \sum_{k=1}^{m_r} A_{r,k} (n - r)^{-k}` (exact rationals, from the Laurent
expansion at each pole) give, for every integer :math:`a` with :math:`a - r > 0` at all poles,

.. math::
   \sum_{n \ge a} b_n = -\sum_r A_{r,1}\, \psi(a - r)
   + \sum_r \sum_{k \ge 2} A_{r,k}\, \zeta(k, a - r)

(the simple-pole residues add up to 0 because :math:`\deg Q \ge \deg P + 2`, so the
:math:`\log M` of :math:`\psi(M + 1 - r)` cancels in the limit).  The digamma and Hurwitz
zeta values are arb balls at PREC bits plus twice the size of :math:`a` (the differences of
:math:`\psi` near :math:`\log a` cancel that many bits), so the tail is enclosed to about
PREC bits relative however far it starts: telescoping terms such as
:math:`2/(n(n+2))` from :math:`n = 10^{15}` get tails narrow enough to place TRF exactly.

When every pole is simple and the poles differ by integers (:math:`r_i = r_0 + d_i`), the
tail is an exact rational, :math:`\sum_i A_i \sum_{k=1}^{d_i} 1/(a - r_0 - k)`
(:math:`\psi(x + d) - \psi(x) = \sum_{k<d} 1/(x + k)`), so even an exact tie
:math:`R_j = \epsilon B` is decided.  TRF (Eq. 22, terms proved :math:`\ge 0`, so the tails
decrease) is then the least j with :math:`R_j < \epsilon B`, found by doubling and bisection
on proved comparisons.

>>> from theory.series.expressions import parse_expression as P
>>> t = RationalTail(P("2/(n**2 + 2*n)"), 10**15)   # exactly 1/a + 1/(a + 1)
>>> t.tail(10**15).overlaps(arb(1) / 10**15 + arb(1) / (10**15 + 1)), t.tail(10**15).rad() < 1e-60
(True, True)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import mpmath
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
from theory.series.lower_bounds import terms_nonnegative
from theory.series.results import TRF

#: nonneg_until of an engine whose terms are all proved >= 0 (beyond any start)
EVERYWHERE = 2**4096
#: largest total pole multiplicity (degree of Q) handled
MAX_DEGREE = 24
#: largest integer distance between simple poles for the exact rational tail
MAX_SPAN = 256


def partial_fractions(b: sp.Expr) -> list[tuple[sp.Rational, int, sp.Rational]] | None:
    r"""[(r, k, A)] with :math:`b = \sum A (n - r)^{-k}`, every pole r rational and
    :math:`\deg Q \ge \deg P + 2`; None otherwise.

    >>> from theory.series.expressions import parse_expression as P
    >>> partial_fractions(P("2/(n**2 + 2*n)"))
    [(-2, 1, -1), (0, 1, 1)]
    """
    if not (b.has(N) and b.is_rational_function(N)):
        return None
    try:
        with step_budget(2.0):
            num, den = sp.fraction(sp.cancel(sp.together(b)))
            P, Q = sp.Poly(num, N), sp.Poly(den, N)
            if not (P.domain.is_QQ or P.domain.is_ZZ) or not (Q.domain.is_QQ or Q.domain.is_ZZ):
                return None
            if Q.degree() > MAX_DEGREE or Q.degree() < P.degree() + 2:
                return None
            roots = sp.roots(Q, filter=None)
            if sum(roots.values()) != Q.degree() or not all(r.is_Rational for r in roots):
                return None
            out = []
            for r, m in sorted(roots.items()):
                g = sp.cancel(b * (N - r) ** m)  # analytic at r: A_(r,k) = g^(m-k)(r)/(m-k)!
                for k in range(m, 0, -1):
                    A = sp.Rational(g.subs(N, r)) / sp.factorial(m - k)
                    if A != 0:
                        out.append((sp.Rational(r), k, A))
                    g = sp.cancel(sp.diff(g, N))
            back = sp.Add(*[A / (N - r) ** k for r, k, A in out])
            if sp.cancel(sp.together(back - num / den)) != 0:  # the decomposition, checked
                return None
            return sorted(out, key=lambda t: (t[0], t[1]))
    except (StepTimeout, sp.PolynomialError, TypeError, ValueError):
        return None


def _arb(q: sp.Rational) -> arb:
    return arb(int(q.p)) / arb(int(q.q))


class RationalTail:
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of a rational term with rational poles (module doc), from n0 on;
    :class:`NotCertified` for other terms or a pole at or beyond n0."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int):
        c, rest = b.as_independent(N, as_Add=False)
        self.scale, shown_scale = arb(1), ""
        if c.is_number and not c.is_Rational and c.is_positive:  # e^5000/(n^2 + n)
            try:
                self.scale = arb_function(c)(arb(1))
            except NotSupported as exc:
                raise NotCertified(f"the ball evaluator does not support {exc}") from None
            if not (self.scale.is_finite() and self.scale > 0):
                raise NotCertified(f"the constant factor {c} is not enclosed")
            b, shown_scale = rest, f"{c} x "
        parts = partial_fractions(b)
        if parts is None:
            raise NotCertified("not a rational term with rational poles and deg Q >= deg P + 2")
        if len({r for r, _, _ in parts}) < 2:
            raise NotCertified("a single pole: the power engines sum it")
        self.n0, self.parts = int(n0), parts
        if not all(self.n0 - r > 0 for r, _, _ in parts):
            raise NotCertified(f"a pole of the term at or beyond n0 = {self.n0}")
        if sum(A for _, k, A in parts if k == 1) != 0:  # implied by deg Q >= deg P + 2
            raise NotCertified("the simple-pole residues do not cancel")
        try:
            self.f = arb_function(b)
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self.nonneg_until = EVERYWHERE if terms_nonnegative(b, self.n0) else self.n0
        r0 = min(r for r, _, _ in parts)
        spans = [r - r0 for r, _, _ in parts]
        self.exact = all(k == 1 for _, k, _ in parts) and all(
            d.is_integer and d <= MAX_SPAN for d in spans
        )
        self.r0 = Fraction(int(r0.p), int(r0.q))
        self.spans = [(Fraction(int(A.p), int(A.q)), int(d)) for (_, _, A), d in zip(parts, spans)]
        shown = " + ".join(f"({A})/(n - ({r}))^{k}" for r, k, A in parts)
        self.certificate = (
            f"partial fractions b_n = {shown_scale}({shown}) (exact rationals); the tail from a is "
            "-sum A_(r,1) psi(a - r) + sum_(k >= 2) A_(r,k) zeta(k, a - r) (the simple-pole "
            "residues add up to 0), digamma and Hurwitz zeta in ball arithmetic"
        )

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return self.scale * term_ball(self.f, int(n))

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        return self.scale * self._closed_tail(a)

    def _closed_tail(self, a: int) -> arb:
        """The tail without the constant factor (TRF does not depend on it)."""
        a = tail_start(a, self.n0)
        ctx.prec = PREC + 2 * int(a).bit_length() + 16
        total = arb(0)
        for r, k, A in self.parts:
            x = arb(int(a)) - _arb(r)
            total += _arb(A) * (-x.digamma() if k == 1 else arb(k).zeta(x))
        if not total.is_finite():
            raise NotCertified(f"the closed-form tail from {a} is not finite")
        return total

    def exact_tail(self, a: int) -> Fraction | None:
        """sum_{n >= a} b_n as an exact rational (simple poles at integer distances; without
        the constant factor of a term such as e^5000/(n^2 + n)), else None."""
        if not self.exact:
            return None
        a = tail_start(a, self.n0)
        return sum(
            (
                A * sum(Fraction(1) / (a - self.r0 - k) for k in range(1, d + 1))
                for A, d in self.spans
            ),
            Fraction(0),
        )

    @ball_precision
    def trf(self, eps: float, exact_limit: int, head: Any = None) -> TRF | None:
        """TRF(eps) of Eq. 22 from the closed-form tails: the least j with R_j < eps B, by
        doubling and bisection on comparisons proved exactly (rational tails) or in ball
        arithmetic; None with a head, terms not proved >= 0, or a comparison not decided."""
        if head is not None or self.nonneg_until < EVERYWHERE:
            return None
        e = sp.Rational(repr(eps))  # the decimal typed
        if self.exact:
            B = self.exact_tail(self.n0)  # without the constant factor, as the tails below
            if not self._closed_tail(self.n0).overlaps(arb(B.numerator) / B.denominator):
                return None  # the two closed forms disagree: nothing is claimed
            target = B * Fraction(int(e.p), int(e.q))

            def side(j):  # 1: R_j < target, 0: R_j >= target
                return 1 if self.exact_tail(self.n0 + j) < target else 0

        else:
            B = self._closed_tail(self.n0)
            target = B * arb(int(e.p)) / arb(int(e.q))

            def side(j):  # None: not decided in ball arithmetic
                R = self._closed_tail(self.n0 + j)
                return 1 if R < target else (0 if R >= target else None)

        if side(0) != 0:
            return None
        hi = 1
        while (s := side(hi)) != 1:
            if s is None or hi > 2**1100:
                return None
            hi *= 2
        lo = hi // 2 if hi > 1 else 0  # R_lo >= target proved (side(lo) = 0 above)
        while hi - lo > 1:
            m = (lo + hi) // 2
            s = side(m)
            if s is None:
                return None
            lo, hi = (lo, m) if s == 1 else (m, hi)
        how = "exact rational tails" if self.exact else "closed-form tails in ball arithmetic"
        note = f"R_j < eps B <= R_(j-1) proved ({how}; the terms are >= 0)"
        log10 = float(mpmath.log10(hi))
        if hi <= exact_limit:
            return TRF(eps, hi, True, log10, note=note)
        with mpmath.workdps(30):
            return TRF(eps, mpmath.mpf(hi), False, log10, relative_accuracy=1e-12, note=note)
