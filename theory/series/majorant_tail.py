r"""Certified tails from a proved power majorant and minorant: :math:`c_- n^{-p} \le b_n \le c_+ n^{-p}`.

For terms that oscillate too fast for the Taylor blocks of :mod:`theory.series.enclosure`
(``exp(cos(n))/n**2``, ``(2 + cos(n))/n**2``), the bounds of :func:`theory.series.bounds.bounds_or_none`
(cos, sin in [-1, 1], ...) give :math:`lo_n \le b_n \le hi_n` with :math:`hi_n \sim c\,n^{-p}`,
p > 1.  The sum is cut at :math:`M = n_0 + 2^{16}`:

1. the head :math:`\sum_{n_0 \le n < M} b_n`, term by term in ball arithmetic;
2. the far tail :math:`\sum_{n \ge a} b_n`, :math:`a \ge M`, from
   :math:`c_- \le n^p b_n \le c_+` on :math:`[M, \infty)` and the integral test for the
   decreasing :math:`n^{-p}`:

   .. math::
      \frac{a^{1-p}}{p-1} \le \sum_{n \ge a} n^{-p} \le a^{-p} + \frac{a^{1-p}}{p-1}.

The constants :math:`c_\pm` are proved by interval evaluation of :math:`n^p b_n` on the boxes
:math:`[2^k, 2^{k+1}]` (each in up to 16 parts) up to :math:`2^{1024}`; beyond, they rest on the
bounds :math:`n^p lo_n, n^p hi_n` (in either order: a factor of unproved sign may swap them),
evaluated in :math:`t = 1/n` on :math:`[0, 2^{-1024}]` (stated
in the certificate).  Nothing else is assumed; a failing step raises :class:`NotCertified`.

>>> from theory.series.expressions import parse_expression as P
>>> t = MajorantTail(P("(2 + cos(n))/n**2"), 1)
>>> s = t.tail(1)            # 2 zeta(2) + sum cos(n)/n^2 = pi^2/3 + pi^2/6 - pi/2 + 1/4
>>> s.overlaps(arb.pi() ** 2 / 2 - arb.pi() / 2 + arb(1) / 4), s.rad() < 1e-4
(True, True)
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
    floor_hulls,
    head_suffix,
    suffix_sups,
    tail_start,
    term_ball,
)
from theory.series.bounds import bounds_or_none
from theory.series.enclosure import Comparison
from theory.series.expressions import N
from theory.series.fourier_tail import FourierTail, periodic_part
from theory.series.integral_test import decreasing_on
from theory.series.limits import limit_at_infinity
from theory.series.ratio_tails import EVERYWHERE

HEAD_TERMS = 2**16  # terms summed one by one before the majorant takes over
TOP_LOG2 = 1024  # boxes [2^k, 2^(k+1)] up to here; beyond, the symbolic bounds in t = 1/n


def power_envelope(b: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr, str] | None:
    """(p, lo_n n^p, hi_n n^p, how) for bounds lo_n <= b_n <= hi_n (all large n) with
    hi_n ~ c n^-p, p > 1 a number; None when the bounds are not of that form."""
    lo, hi, how = bounds_or_none(b)
    if lo is None or hi is None:
        return None
    try:
        with step_budget(3.0):
            lam = limit_at_infinity(sp.log(hi) / sp.log(N))
    except (StepTimeout, ArithmeticError, ValueError, TypeError):
        return None
    if lam is None or not (lam.is_number and lam.is_finite and lam < -1):
        return None
    p = -lam
    try:  # log(n)/n**2: n^2 hi_n is unbounded; n^p hi_n with p halfway to 1 is not
        with step_budget(3.0):
            top = limit_at_infinity(hi * N**p)
            if top is None or not top.is_finite:
                p = (p + 1) / 2
                top = limit_at_infinity(hi * N**p)
    except (StepTimeout, ArithmeticError, ValueError, TypeError):
        return None
    if top is None or not top.is_finite:
        return None
    return p, lo * N**p, hi * N**p, how


class MajorantTail:
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of b_n from n0 on, from a power majorant and minorant (module doc)."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, head_terms: int = HEAD_TERMS):
        env = power_envelope(b)
        if env is None:
            raise NotCertified("no power majorant c n^-p (p > 1) bounds the terms")
        p, lo_p, hi_p, how = env
        lo, hi = lo_p / N**p, hi_p / N**p
        self.n0, self.M = int(n0), int(n0) + int(head_terms)
        if self.M < 2:
            raise NotCertified("the majorant needs n >= 2")
        try:
            self.f = arb_function(b)
            with step_budget(2.0):
                expanded = sp.expand(b * N**p)  # n^2 (e^cos(n)/n^2 - 1/n^3) -> e^cos(n) - 1/n
            ratios = [arb_function(b * N**p), arb_function(expanded)]
            pa = arb_function(sp.sympify(p))(arb(0))
            far_lo = arb_function(sp.cancel(_sinc_form(lo_p).subs(N, 1 / N)))
            far_hi = arb_function(sp.cancel(_sinc_form(hi_p).subs(N, 1 / N)))
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        with floor_hulls():  # floor(n/5)*sin(1/n**3): floor's range over each box
            c_lo, c_hi = self._ratio_range(ratios, self.M)
        far = self._far_range(lo_p, hi_p, far_lo, far_hi)
        c_lo, c_hi = c_lo.min(far.lower()), c_hi.max(far.upper())
        # no attribute ``far``: every tail, however far, comes from this engine (no estimate)
        self.majorant = Comparison(pa, False, c_lo, c_hi, self.M, "")
        self.fourier = self._fourier(b, p, expanded)
        self._head_sums()
        if self.nonneg_until == self.M and c_lo >= 0:
            self.nonneg_until = EVERYWHERE  # b_n >= c_- n^-p >= 0 beyond the head
        if self.nonneg_until < EVERYWHERE:  # terms of both signs: the tail rule needs a sup
            self._suffix_sup: list | None = None
            self.tail_sup = self._tail_sup
        self.certificate = (
            f"ball arithmetic: terms n0 = {self.n0} <= n < {self.M} one by one; beyond, "
            f"{c_lo.lower().str(5, radius=False)} <= n^{p} b_n <= "
            f"{c_hi.upper().str(5, radius=False)} (interval evaluation on [2^k, 2^(k+1)] up to "
            f"2^{TOP_LOG2}, beyond that from the bounds {lo} <= b_n <= {hi} ({how})) and the integral test: "
            f"a^(1-p)/(p-1) <= sum_(n>=a) n^-p <= a^-p + a^(1-p)/(p-1)"
        )
        if self.fourier is not None:
            self.certificate += "; " + self.fourier.certificate

    @staticmethod
    def _far_range(lo_p: sp.Expr, hi_p: sp.Expr, far_lo, far_hi) -> arb:
        """A ball holding n^p lo_n and n^p hi_n for every n >= 2^TOP_LOG2: evaluated in
        t = 1/n on [0, 2^-TOP_LOG2], else (``log(n)/sqrt(n)``: log t at t = 0) each bound in
        (0, g(2^TOP_LOG2)] where it is proved positive and decreasing, or in [g(2^TOP_LOG2), 0)
        where -g is."""
        t_far = arb(0).union(arb(2) ** -TOP_LOG2)  # t = 1/n for n >= 2^1024
        try:
            flo, fhi = far_lo(t_far), far_hi(t_far)
        except (Undecided, NotSupported, ArithmeticError, ValueError) as exc:
            raise NotCertified(f"the bounds n^p b_n beyond 2^{TOP_LOG2}: {exc}") from None
        if flo.is_finite() and fhi.is_finite():
            return flo.union(fhi)  # either order: a factor of unproved sign may swap them
        X = 2**TOP_LOG2  # (the certificate's "from the bounds": these, proved monotone)
        out = None
        for g in (lo_p, hi_p):
            if decreasing_on(g, X) or decreasing_on(-g, X):
                part = arb(0).union(arb_function(g)(arb(X)))
            else:
                raise NotCertified(f"the bounds n^p b_n are not finite beyond 2^{TOP_LOG2}")
            out = part if out is None else out.union(part)
        if not out.is_finite():
            raise NotCertified(f"the bounds n^p b_n are not finite beyond 2^{TOP_LOG2}")
        return out

    @staticmethod
    def _fourier(b: sp.Expr, p, expanded: sp.Expr) -> FourierTail | None:
        """The mean-plus-Fourier tail (:mod:`theory.series.fourier_tail`) when n^p b_n is a
        periodic analytic function of the angles; None otherwise."""
        for g in (sp.powsimp(b * N**p), expanded):
            sign = sp.Pow(-1, N) in sp.Mul.make_args(g)  # (-1)^n G: frequencies shifted by pi
            if sign:
                g = g / sp.Pow(-1, N)
            if periodic_part(g) is None:
                continue
            try:
                with step_budget(5.0):
                    return FourierTail.power(g, p, sign=sign)
            except (NotCertified, NotSupported, StepTimeout, ArithmeticError, ValueError):
                return None
        return None

    @staticmethod
    def _ratio_range(ratios, lo: int) -> tuple[arb, arb]:
        """[c_-, c_+] containing n^p b_n for every real n in [lo, 2^TOP_LOG2] (``ratios``:
        forms of n^p b_n; each box takes the intersection of their enclosures)."""
        c_lo = c_hi = None
        k = lo.bit_length() - 1
        edges = [arb(lo)] + [arb(2) ** j for j in range(k + 1, TOP_LOG2 + 1)]
        for a, z in zip(edges, edges[1:]):
            enc = None
            for parts in (1, 4, 16):
                cuts = [a + (z - a) * i / parts for i in range(parts + 1)]
                vals = [_tightest(ratios, u.union(v)) for u, v in zip(cuts, cuts[1:])]
                if any(v is None for v in vals):
                    continue
                if all(v.is_finite() for v in vals):
                    enc = vals
                    break
            if enc is None:
                raise NotCertified("n^p b_n is not bounded by interval evaluation")
            for v in enc:
                c_lo = v.lower() if c_lo is None else c_lo.min(v.lower())
                c_hi = v.upper() if c_hi is None else c_hi.max(v.upper())
        return c_lo, c_hi

    def _head_sums(self):
        """suffix[i] = sum_{n0 + i <= n < M} b_n (ball arithmetic); nonneg_until from the signs."""
        self.suffix, self.nonneg_until = head_suffix(self.f, self.n0, self.M)

    def _term(self, n: int) -> arb:
        return term_ball(self.f, n)

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return self._term(int(n))

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        far = max(a, self.M)
        out = self.majorant.tail(far)
        if self.fourier is not None:  # two enclosures of the same tail: their intersection
            other = self.fourier.tail(far)
            if not out.overlaps(other):
                raise NotCertified("the majorant and the Fourier tails do not overlap")
            out = out.intersection(other)
        return out if a >= self.M else self.suffix[a - self.n0] + out

    @ball_precision
    def _tail_sup(self, a: int) -> arb:
        r"""A bound on :math:`|\sum_{n \ge k} b_n|` for every :math:`k \ge a`: beyond M,
        :math:`\max(|c_-|, |c_+|)\,(k^{-p} + k^{1-p}/(p-1))`, or the Fourier bound where
        smaller (:meth:`FourierTail.tail_sup`), each decreasing in k; below M,
        the largest of the head's :math:`|\sum_{k \le n < M} b_n|`, k >= a, plus that bound
        at M."""
        a = tail_start(a, self.n0)
        m = self.majorant

        def far(k: int) -> arb:  # the majorant's bound, or the Fourier one where narrower
            top = m.c_lo.abs_upper().max(m.c_hi.abs_upper()) * (m.integral(arb(k)) + m.g(arb(k)))
            return top if self.fourier is None else top.min(self.fourier.tail_sup(k))

        if a >= self.M:
            return arb(far(a).upper())
        if self._suffix_sup is None:
            self._suffix_sup = suffix_sups(self.suffix)
        return arb((self._suffix_sup[a - self.n0] + far(self.M)).upper())


def _sinc_form(g: sp.Expr) -> sp.Expr:
    """g with each sin(u), u -> 0, written u sinc(u) (an identity): in t = 1/n the factor
    u^-1 then cancels against the powers of t (n^3 sin(n^-3)/5 = sinc(t^3)/5, finite at t = 0
    where n^3 sin(n^-3) is 0 * oo)."""

    def small(e: sp.Expr) -> bool:
        return isinstance(e, sp.sin) and e.has(N) and limit_at_infinity(e.args[0]) == 0

    return g.replace(small, lambda e: e.args[0] * sp.sinc(e.args[0]))


def _tightest(forms, x: arb) -> arb | None:
    """The intersection of the finite enclosures of the forms on the ball x (None if none)."""
    best = None
    for form in forms:
        try:
            v = form(x)
        except (Undecided, ArithmeticError, ValueError):
            continue
        if v.is_finite():
            best = v if best is None else (best.intersection(v) if best.overlaps(v) else best)
    return best
