r"""The integral test on a term's dominant part: :math:`b_n = \varphi(n) + r_n`.

A slowly converging term whose numerator or denominator is a sum, such as
:math:`\log n/(n \log^3 n + 1)`, has neither an antiderivative nor a product form for the
integral test (:mod:`theory.series.integral_test`, :mod:`theory.series.shifted_integral`),
and its certified blocks stop at :math:`2^{64}`, where the tail is still
:math:`1/\log 2^{64} \approx 1/44` of B.  Keeping the dominant summand of the numerator and
of the denominator (the one every other summand is :math:`o` of, by limits at infinity)
gives :math:`\varphi = 1/(n \log^2 n)`, and the identity

.. math::
   \sum_{n \ge a} b_n = \sum_{n \ge a} \varphi(n) + \sum_{n \ge a} r_n, \qquad
   r_n = b_n - \varphi(n) = -\frac{1}{n \log^2 n\,(n \log^3 n + 1)},

exact wherever both are finite (:func:`sympy.together`), puts the slow part in an
integral-test tail and leaves a remainder that converges like :math:`n^{-2}`.  The
remainder must be proved of one sign from the start :math:`n_1` of the form (the first
n where :math:`\varphi` is defined, moved on while that proof fails) and its series
convergent (:func:`theory.series.convergence.decide_in_process`); its tail comes from a
certified engine of its own (an integral test where :math:`r` is slow too, else the
caller's).  Beyond :data:`CUT` a tail of :math:`r` lies between 0 and its tail from
:data:`CUT` (one sign), so

.. math::
   R_b(\lceil x \rceil) \in R_\varphi(\lceil x \rceil) + \mathrm{hull}(0, R_r(\mathrm{CUT}))
   \qquad (x \ge \mathrm{CUT}),

at :math:`x = e^t` beyond any float as well (``log_bounds``).  The terms before
:math:`n_1` are summed as they are.

>>> from theory.series.expressions import parse_expression as P
>>> dominant_split(P("log(n)/(n*log(n)**3 + 1)"))
(1/(n*log(n)**2), -1/(n*(n*log(n)**3 + 1)*log(n)**2))
>>> from theory.series.sums import any_width_tail
>>> t = LeadingTermTail(P("log(n)/(n*log(n)**3 + 1)"), 1, any_width_tail)
>>> t.n1, bool(t.tail(1).rad() < 1e-15)
(2, True)
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import (
    BallTerms,
    NotCertified,
    arb_function,
    ball_precision,
    head_suffix,
    tail_start,
)
from theory.series.convergence import decide_in_process
from theory.series.expressions import N
from theory.series.integral_test import LOG_SPACE, IntegralTail
from theory.series.limits import limit_at_infinity
from theory.series.lower_bounds import terms_nonnegative

#: CPU seconds for finding the dominant summands and writing the remainder
SYMBOLIC_SECONDS = 2.0
#: a numerator or denominator of more summands is not split
MAX_SUMMANDS = 4
#: integer tails from here on come from the far bounds
CUT = 2**64
#: the start of the form is moved on at most to these n (the remainder's sign)
LATER_STARTS = (3, 4, 8, 16, 64)
#: how deep the remainder may itself be split
MAX_DEPTH = 2
#: CPU seconds for each second engine of a slowly converging remainder
REMAINDER_SECONDS = 3.0


def _dominant(e: sp.Expr) -> sp.Expr | None:
    """The summand of e that every other one is o of at infinity (e itself when e is not
    a sum), or None."""
    args = sp.Add.make_args(e)
    if len(args) == 1:
        return e
    if len(args) > MAX_SUMMANDS:
        return None
    for a in args:
        if all(o is a or limit_at_infinity(o / a) == 0 for o in args):
            return a
    return None


def dominant_split(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    r"""(phi, r): phi the dominant summand of b's numerator over that of its
    denominator, r = b - phi written as one fraction (an exact identity); None where
    neither is a sum with a dominant summand, or phi has an oscillating factor.

    >>> from theory.series.expressions import parse_expression as P
    >>> dominant_split(P("1/(n*log(n)**2 + n*log(log(n)))"))[0]
    1/(n*log(n)**2)
    >>> dominant_split(P("1/(n*log(n)**2)")) is None
    True
    """
    if b.has(sp.sin, sp.cos, sp.floor, sp.Piecewise, sp.Abs, sp.Max, sp.Min):
        return None
    try:
        with step_budget(SYMBOLIC_SECONDS):
            num, den = sp.fraction(sp.together(b))
            num, den = sp.expand(num), sp.expand(den)
            if not (num.is_Add or den.is_Add):
                return None
            top, bottom = _dominant(num), _dominant(den)
            if top is None or bottom is None:
                return None
            phi = sp.powsimp(top / bottom)
            if phi == b or not phi.has(N):
                return None
            r = sp.factor(sp.together(b - phi))
    except (StepTimeout, sp.PolynomialError, ValueError, TypeError, NotImplementedError):
        return None
    return phi, r


def _remainder_forms(b: sp.Expr, phi: sp.Expr, r: sp.Expr) -> list:
    r"""r = b - phi as :func:`dominant_split` writes it (factored), then with only its
    numerator factored: factoring the denominator can make a sum that interval
    evaluation cannot bound away from 0 (:math:`\log^3 n + 1 = (\log n + 1)(\log^2 n -
    \log n + 1)`, whose second factor is [1, oo) - [1, oo) on a box), so its sign goes
    unproved where the unfactored form shows it at once."""
    try:
        with step_budget(SYMBOLIC_SECONDS):
            num, den = sp.fraction(sp.together(b - phi))
            other = sp.factor(sp.expand(num)) / den
    except (StepTimeout, sp.PolynomialError, ValueError, TypeError, NotImplementedError):
        return [r]
    return [r] if other == r else [r, other]


def _start(phi: sp.Expr, n0: int) -> int:
    """The first n >= n0 where phi is defined: n >= 1, n >= 2 under a log, n >= 3 under
    a log of a log."""
    n = max(n0, 1)
    if phi.has(sp.log):
        n = max(n, 2)
    if any(a.args[0].has(sp.log) for a in phi.atoms(sp.log)):
        n = max(n, 3)
    return n


class LeadingTermTail(BallTerms):
    """Certified tails of b_n = phi(n) + r_n (module docstring): ``tail(a)`` at integers
    a >= n0, ``bounds(x)`` and ``log_bounds(t)`` beyond them, as :class:`IntegralTail`
    gives them; ``nonneg_until`` every n (b >= 0 proved); ``engine(r, n1)`` gives the
    remainder's certified tail engine where no integral test takes it; ``convergent``: the
    caller has proved sum b convergent (so sum r is, without a decision of its own)."""

    @ball_precision
    def __init__(
        self,
        b: sp.Expr,
        n0: int,
        engine: Callable[[sp.Expr, int], object],
        depth: int = 0,
        convergent: bool = False,
    ):
        split = dominant_split(b)
        if split is None:
            raise NotCertified("no dominant summand splits the term")
        self.phi, r = split
        self.n0, self.f = int(n0), arb_function(b)
        first = _start(self.phi, self.n0)
        self.sign, forms = 0, _remainder_forms(b, self.phi, r)
        for n1 in (first, *(m for m in LATER_STARTS if m > first)):
            for r in forms:
                if terms_nonnegative(r, n1):
                    self.sign = 1
                elif terms_nonnegative(-r, n1):
                    self.sign = -1
                if self.sign:
                    break
            if self.sign:
                break
        if not self.sign:
            raise NotCertified(f"the remainder {r} is not proved of one sign")
        if not terms_nonnegative(b, n1):
            raise NotCertified("the terms are not proved >= 0")
        self.n1 = n1
        self.suffix, until = head_suffix(self.f, self.n0, self.n1)
        if until < self.n1:
            raise NotCertified(f"the term at n = {until} is not proved >= 0")
        self.inner = IntegralTail(self.phi, self.n1)
        # sum r = sum b - sum phi where the caller has proved sum b convergent (phi's
        # integral is finite: the integral test), else decided here
        if not convergent and decide_in_process(r, self.n1).converges is not True:
            raise NotCertified(f"the remainder {r} is not proved convergent")
        self.rest = _remainder_engine(self.sign * r, self.n1, engine, depth)
        far = self.rest.tail(CUT)  # of terms >= 0: in [0, its upper end]
        if not far.is_finite():
            raise NotCertified("the remainder's far tail is not enclosed")
        self._far = arb(far.upper()) if far.upper() > 0 else arb(0)
        self.nonneg_until = 10**30
        head = "" if self.n1 == self.n0 else f"the terms n < {self.n1} summed as they are; "
        neg = "minus the tail of its negation, " if self.sign < 0 else ""
        self.certificate = (
            f"{head}b_n = phi(n) + r_n, phi(n) = {sp.sstr(self.phi)} (the dominant summands): "
            f"the tail of phi [{self.inner.certificate}] + the tail of r_n = {sp.sstr(r)} "
            f"({neg}{self.rest.certificate}); beyond 2^64 the tail of r lies in its engine's "
            "far bounds where it has them, else between 0 and its tail from 2^64 (one sign)"
        )

    @ball_precision
    def tail(self, a: int) -> arb:
        """An enclosure of R(a) = sum_{n >= a} b_n for an integer a >= n0."""
        a = tail_start(a, self.n0)
        if a < self.n1:
            return self.suffix[a - self.n0] + self.tail(self.n1)
        if a >= CUT:
            lo, hi = self.bounds(arb(a))
            return lo.union(hi)
        return self.inner.tail(a) + self.sign * self.rest.tail(a)

    def _rest_between(self, x: arb | None, t: arb | None = None) -> arb:
        """A ball holding R_r(ceil(y)) for every y in the ball x (x None: y = e^t, beyond
        LOG_SPACE): the remainder engine's own far bounds where it has them (an integral
        test), else between 0 and its tail from CUT."""
        if x is None and hasattr(self.rest, "log_bounds"):
            lo, hi = self.rest.log_bounds(t)
            return self.sign * lo.union(hi)
        if x is not None and x.lower() >= CUT and hasattr(self.rest, "bounds"):
            lo, hi = self.rest.bounds(x)
            return self.sign * lo.union(hi)
        if x is None or x.lower() >= CUT:
            return self.sign * arb(0).union(self._far)
        lo, hi = (int(v.unique_fmpz()) for v in (x.lower().ceil(), x.upper().ceil()))
        out = self.rest.tail(max(lo, self.n1))
        return self.sign * out.union(self.rest.tail(max(hi, self.n1)))

    @ball_precision
    def bounds(self, x: arb) -> tuple[arb, arb]:
        """(lower, upper) enclosures with lower <= R(ceil(x)) <= upper, for real x at
        least the inner engine's M."""
        lo, hi = self.inner.bounds(x)
        rest = self._rest_between(x)
        return lo + rest, hi + rest

    @ball_precision
    def log_bounds(self, t: float | arb) -> tuple[arb, arb]:
        """(lower, upper) enclosures of R(ceil(e^t)) for every t in the ball ``t``."""
        if not isinstance(t, arb) and t < LOG_SPACE:
            return self.bounds(arb(t).exp())
        lo, hi = self.inner.log_bounds(t)
        rest = self._rest_between(None, arb(t))
        return lo + rest, hi + rest


def _remainder_engine(r: sp.Expr, n1: int, engine: Callable, depth: int) -> object:
    """``engine(r, n1)`` (r >= 0), or where its enclosure is wide (r converging slowly
    too) the narrowest at n1 of it, a further split of r and the integral test on r, each
    within :data:`REMAINDER_SECONDS`; NotCertified where none applies."""
    out, why = None, "no engine"
    makers = [lambda: engine(r, n1)]
    if depth < MAX_DEPTH:
        makers.append(lambda: LeadingTermTail(r, n1, engine, depth + 1, convergent=True))
    makers.append(lambda: IntegralTail(r, n1))
    for i, make in enumerate(makers):
        try:
            if i == 0:
                t = make()
            else:
                with step_budget(REMAINDER_SECONDS):
                    t = make()
            w = t.tail(n1)
            if w.is_finite() and (out is None or w.rad() < out[1].rad()):
                out = (t, w)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError) as exc:
            why = str(exc)
        if out is not None and out[1].rad() < abs(out[1].mid()) * arb(2) ** -70:
            break
    if out is None:
        raise NotCertified(f"the remainder has no certified tail: {why}")
    return out[0]
