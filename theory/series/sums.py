r"""The sum B of exp(RPE) (RPE paper, Eq. 22), with a guaranteed enclosure where one can be proved.

With the project's index convention (see :mod:`theory.series.rpe_library`), term :math:`k` of the
series is :math:`b_{s+k}`, :math:`k = 0, 1, \dots`, and :math:`B = \sum_{k \ge 0} b_{s+k}`.

The **estimate** is the direct sum of the first terms (mpmath) plus the Euler-Maclaurin tail of
:mod:`theory.series.tails` (or a geometric bound for fast decay).  The **enclosure**
``[lo, hi]`` comes from :mod:`theory.series.enclosure` (ball arithmetic, nothing assumed); when
it cannot be proved the sum is returned with ``certified = False`` and no bound.

>>> from theory.series.expressions import parse_expression as P
>>> s = series_sum(P("1/n**2"))
>>> with mpmath.workdps(50):
...     float(s.value), s.certified, s.lo <= mpmath.pi**2/6 <= s.hi, s.digits() >= 19    # zeta(2)
(1.6449340668482264, True, True, True)
"""

from __future__ import annotations

import math
import sys
from typing import Any

import mpmath
import sympy as sp
from flint import arb
from sympy.polys.polyerrors import BasePolynomialError

from theory.core.budget import StepTimeout, run_guarded, step_budget
from theory.series.alternating_pairs import AlternatingPairTail, alternating_ratio
from theory.series.arb_eval import PREC, NotCertified, ball_precision
from theory.series.beatty_signs import beatty_parts
from theory.series.beatty_tail import BeattyTail
from theory.series.cancellation import without_cancellation
from theory.series.comparison_tests import GAMMA_LIKE
from theory.series.convergence import decide_in_process
from theory.series.decision import SeriesError, as_expr, free_parameters, split_negative_bases
from theory.series.dropped_summands import DroppedSummandTail
from theory.series.enclosure import CertifiedEstimate, CertifiedTail, arb_bounds
from theory.series.exp_atom_tail import ExpAtomTail, in_exp_atom
from theory.series.expressions import N
from theory.series.fast_majorant_tail import FastMajorantTail
from theory.series.floor_blocks import FloorBlockTail, floor_block_parts
from theory.series.floor_root_blocks import FloorRootTail, floor_root_parts
from theory.series.geometric import GeometricTail
from theory.series.integral_test import IntegralTail
from theory.series.inverse_power_tail import InversePowerTail
from theory.series.leading_term import LeadingTermTail
from theory.series.log_zeta_tail import LogZetaTail, log_power_parts
from theory.series.majorant_tail import MajorantTail
from theory.series.numeric import check_terms
from theory.series.oscillating import DirichletTail, OscillatingTail
from theory.series.oscillating_families import quotient_parts
from theory.series.periodic import has_periodic_factor
from theory.series.periodic_product import PeriodicProductTail
from theory.series.perturbation_tail import PerturbationTail
from theory.series.poly_geometric import PolyGeometricTail
from theory.series.quotient_tail import AlternatingQuotientTail
from theory.series.raabe_tails import RaabeTail
from theory.series.ratio_tails import RatioTail, has_moving_power
from theory.series.rational_tail import RationalTail
from theory.series.residue_classes import GroupedTail, ResidueTail, floor_period
from theory.series.results import DPS, SeriesSum
from theory.series.root_sign_blocks import RootSignTail, root_sign_parts
from theory.series.rpe_library import RPE, BiasHead
from theory.series.shifted_integral import ShiftedIntegralTail
from theory.series.split_tail import SplitTail, leading_oscillating_split, log_shift_parts
from theory.series.steep_power import SteepPowerTail
from theory.series.stirling_tail import StirlingTail
from theory.series.stretched_tail import StretchedExpTail
from theory.series.superexp_tail import SuperExpTail
from theory.series.tails import EM_ORDER, CutTail, Tail, fast_decay_sum, smooth_beyond

DEFAULT_BUDGET = 30.0


def series_sum(
    b_expr: str | float | sp.Basic | RPE, start: int | None = None, budget: float = DEFAULT_BUDGET
) -> SeriesSum:
    """B = sum_{k >= 0} b_{start+k} to >= 15 significant digits with an error bound."""
    b, start, head = normalise_series(b_expr, start)
    return run_guarded(_series_sum_impl, (b, start, head), budget=budget)


def normalise_series(
    b_expr: str | float | sp.Basic | RPE, start: int | None
) -> tuple[sp.Expr, int, BiasHead | None]:
    head = None
    if isinstance(b_expr, RPE):
        head = b_expr.head
        start = b_expr.start if start is None else start
    b = as_expr(b_expr)
    if free_parameters(b):
        raise SeriesError(f"give values for the free parameters {', '.join(free_parameters(b))}")
    return b, (1 if start is None else int(start)), head


def _require_convergent(b, start):
    d = decide_in_process(b, start)
    if d.converges is not True:
        what = "diverges" if d.converges is False else "is not known to converge"
        raise SeriesError(f"the series {what}, so B and TRF are not finite ({d.certificate})")
    return d


def _direct_mp(b, lo, hi):
    f = sp.lambdify(N, b, modules="mpmath")
    with mpmath.workdps(DPS):
        return mpmath.fsum(f(mpmath.mpf(n)) for n in range(lo, hi))


def _sum_parts(b, start, head):
    """(head_sum, tail engine, n0): terms before n0 are the head (given values)."""
    n0 = start + (0 if head is None else len(head))
    head_sum = mpmath.mpf(0) if head is None else mpmath.fsum(head.mp(i) for i in range(len(head)))
    return head_sum, n0


def _series_sum_impl(b, start, head) -> SeriesSum:
    mpmath.mp.dps = DPS  # runs in the guarded child: the working precision of all sums
    return series_sum_core(b, start, head)[0]


def series_sum_core(
    b: sp.Expr, start: int, head: BiasHead | None, estimate: bool = True, decided: bool = False
) -> tuple[SeriesSum, Any, Any]:
    """(SeriesSum, estimate engine or None, certified tail or None) for b_n from n = start;
    with ``estimate=False`` a sum without enclosure raises :class:`SeriesError` instead of
    returning the uncertified estimate.  ``decided=True``: the caller has proved the series
    convergent (:func:`theory.series.convergence.decide` on these terms from ``start``), and
    the terms finite; neither is checked again."""
    if not decided:
        check_terms(b, start + (0 if head is None else len(head)))
        _require_convergent(b, start)
    head_sum, n0 = _sum_parts(b, start, head)
    if b.is_zero:
        zero = _ZeroTail(n0)
        S = _with_enclosure(zero, head, start)
        S.method = f"finite sum (the terms are 0 from n = {n0} on)"
        return S, CutTail(n0, mpmath.mpf(0)), zero
    try:
        cert = certify_tail(b, n0, beside=_head_ball(head))
    except (
        NotCertified,
        StepTimeout,
        ArithmeticError,
        ValueError,
        TypeError,
        RecursionError,
    ) as exc:
        if not estimate:
            raise SeriesError(f"no guaranteed enclosure: {exc}") from None
        S, eng = _estimate(b, start, head_sum, n0)
        S.assumptions = (S.assumptions + "; " if S.assumptions else "") + f"not certified: {exc}"
        return S, eng, None
    S = _with_enclosure(cert, head, start)
    if isinstance(
        cert, (MajorantTail, FastMajorantTail, StretchedExpTail, PerturbationTail)
    ):  # the enclosure is the answer
        return S, CertifiedEstimate(cert, b), cert
    if S.error_bound > abs(S.value) * mpmath.mpf(10) ** -18:
        shifted = _integral_tail(b, n0, cert)
        if shifted is not None:
            S, cert = _with_enclosure(shifted, head, start), shifted
        if S.error_bound > abs(S.value) * mpmath.mpf(10) ** -18:
            return _sharper_estimate(S, b, start, head_sum, n0, cert)
    return S, CertifiedEstimate(cert, b), cert


def _integral_tail(
    b: sp.Expr, n0: int, cert
) -> IntegralTail | ShiftedIntegralTail | LeadingTermTail | None:
    """The integral test (:mod:`theory.series.integral_test`, e.g. 1/(n (log(n)^2 + 1))),
    directly, through a shift of the index (:mod:`theory.series.shifted_integral`, e.g.
    1/(n log(n + 1)^2)) or on the dominant part (:mod:`theory.series.leading_term`, e.g.
    log(n)/(n log(n)^3 + 1)), where it applies and encloses B more narrowly than ``cert``;
    else None."""
    # the shift first: phi is the cleaner integrand (no n + d in its log)
    for make in (
        lambda: ShiftedIntegralTail(b, n0, any_width_tail),
        lambda: IntegralTail(b, n0),
        lambda: LeadingTermTail(b, n0, any_width_tail, convergent=True),  # proved by the caller
    ):
        try:
            t = make()
            if t.tail(n0).rad() < cert.tail(n0).rad():
                return t
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass
    return None


def _sharper_estimate(S, b, start, head_sum, n0, cert):
    """A wide enclosure (e.g. 1/(n log(n)^2), whose tail beyond 2^160 is 1/160 of B): the
    Euler-Maclaurin estimate becomes the value when it lies inside the enclosure; the
    enclosure stays the guarantee."""
    try:  # bounded: its derivatives may take longer than the enclosure itself
        with step_budget(SHARPER_SECONDS):
            E, eng = _estimate(b, start, head_sum, n0)
    except (SeriesError, ArithmeticError, ValueError, StepTimeout):
        return S, CertifiedEstimate(cert, b), cert
    if S.lo <= E.value <= S.hi:
        S.value, S.method = E.value, E.method + "; inside the certified enclosure"
        S.error_bound = max(S.value - S.lo, S.hi - S.value)
        return S, eng, cert
    return S, CertifiedEstimate(cert, b), cert


@ball_precision
def _head_ball(head: BiasHead | None) -> arb | None:
    """The sum of the given terms in ball arithmetic (None without a head)."""
    return None if head is None else sum(head.arb_list(), arb(0))


class _ZeroTail:
    """The tail of a series whose terms are 0 from n0 on."""

    certificate = "a finite sum of exact binary values (ball arithmetic)"

    def __init__(self, n0: int):
        self.n0, self.nonneg_until = n0, 10**30  # every term from n0 on is 0

    def tail(self, a: int) -> arb:
        return arb(0)

    def term(self, n: int) -> arb:
        return arb(0)


#: CPU seconds for the uncertified estimate placed inside a wide certified enclosure
SHARPER_SECONDS = 2.0
MAX_REL_WIDTH = 1e-3  # a wider enclosure is reported as not certified


def certify_tail(
    b: sp.Expr,
    n0: int,
    scale: float | None = None,
    beside: arb | None = None,
    max_rel_width: float = MAX_REL_WIDTH,
    sharpen: bool = True,
) -> (
    CertifiedTail
    | OscillatingTail
    | ResidueTail
    | RatioTail
    | RaabeTail
    | StirlingTail
    | GroupedTail
    | DirichletTail
    | GeometricTail
    | PolyGeometricTail
    | SteepPowerTail
    | MajorantTail
    | FastMajorantTail
    | DroppedSummandTail
    | PeriodicProductTail
    | InversePowerTail
    | FloorBlockTail
    | AlternatingQuotientTail
    | StretchedExpTail
    | RationalTail
    | PerturbationTail
    | ExpAtomTail
    | SplitTail
    | LogZetaTail
    | FloorRootTail
    | RootSignTail
):
    """A certified tail engine for b_n, n >= n0, whose enclosure of B is at least
    3 digits wide (with ``beside``, the sum of the terms before n0, the enclosure of the
    whole sum: a tail of e^(-1e307) beside a head of 1 need not be narrow itself);
    :class:`NotCertified` otherwise.  ``max_rel_width`` replaces the 3 digits (math.inf:
    any finite certified enclosure, for :mod:`theory.series.certified_trf`); ``sharpen=False``:
    no second engine for a wide enclosure (see :func:`_sharper`)."""
    if b.is_rational_function(N):
        with step_budget(2.0):
            b = sp.cancel(sp.together(b))  # 1/n - 3/(3n+2) -> 2/(n(3n+2)): no cancellation
    b = split_negative_bases(b)  # (-2)**(-n) -> (-1)**(-n)/2**n: a sign the engines read
    try:
        t = _narrow(_certified_engine(b, n0, scale), n0, beside, max_rel_width)
    except NotCertified as exc:
        try:  # e.g. exp(-n**(1/50)): B ~ 50!, terms that matter up to n ~ 10^108
            return _narrow(StretchedExpTail(b, n0), n0, beside, max_rel_width)
        except (NotCertified, ArithmeticError, ValueError, TypeError, StepTimeout):
            pass
        try:  # e.g. 1/(n**2*(2 + sin(n))): no power majorant proved on wide boxes
            return _narrow(_perturbation(b, n0), n0, beside, max_rel_width)
        except (NotCertified, ArithmeticError, ValueError, TypeError, StepTimeout):
            pass
        try:  # e.g. 1 - tanh(n) = 2/(exp(2 n) + 1): the difference written away
            return _rewritten(b, n0, scale, beside, max_rel_width)
        except (NotCertified, ArithmeticError, ValueError, TypeError, StepTimeout):
            pass
        try:  # e.g. (3**n - 2**n)/5**n: two convergent geometric series, part by part
            return _narrow(SplitTail(b, n0, any_width_tail), n0, beside, max_rel_width)
        except (NotCertified, ArithmeticError, ValueError, TypeError, StepTimeout):
            pass
        try:  # e.g. sin(n)/(n + sin(n)) = sin(n)/n - sin(n)**2/(n (n + sin(n)))
            parts = leading_oscillating_split(b)
            if parts is None:
                raise exc from None
            split = SplitTail(b, n0, any_width_tail, parts)
            return _narrow(split, n0, beside, max_rel_width)
        except (NotCertified, ArithmeticError, ValueError, TypeError, StepTimeout):
            pass
        try:  # e.g. (-1)**n log(n + 1)/n = (-1)**n log(n)/n + (-1)**n log(1 + 1/n)/n
            parts = log_shift_parts(b, n0)
            if not parts:
                raise exc from None
            split = SplitTail(b, n0, any_width_tail, parts)
            return _narrow(split, n0, beside, max_rel_width)
        except (NotCertified, ArithmeticError, ValueError, TypeError, StepTimeout):
            raise exc from None
    return _sharper(t, b, n0, beside) if sharpen else t


def _rewritten(b, n0, scale, beside, max_rel_width):
    """The engine of b written without its cancellation
    (:func:`theory.series.cancellation.without_cancellation`), its certificate saying
    how; NotCertified where no rewrite applies."""
    if n0 < 1:
        raise NotCertified("the rewrites hold from n = 1 on")
    r = without_cancellation(b)
    if r is None:
        raise NotCertified("no rewrite removes a cancellation")
    t = _narrow(_certified_engine(r[0], n0, scale), n0, beside, max_rel_width)
    t.certificate = f"b_n = {r[0]} at every n >= 1 ({r[1]}); " + t.certificate
    return t


WIDE = 1e-12  # a certified enclosure wider than this (relative) is worth a second engine


def _sharper(t, b, n0, beside):
    """t, or the perturbation engine of :mod:`theory.series.perturbation_tail` when t's
    enclosure is wider than WIDE and the perturbation engine's is narrower (e.g.
    1/(n**2 + sin(n)): 4 digits from the power majorant, more than 20 from the expansion)."""
    if not b.has(sp.sin, sp.cos) or isinstance(t, (MajorantTail, PerturbationTail)):
        return t  # the cascade tried the perturbation engine before the majorant
    total = t.tail(n0)
    whole = total if beside is None else total + beside
    if total.is_finite() and whole.rad() <= WIDE * abs(whole.mid()):
        return t
    try:
        other = _perturbation(b, n0)
        if other.tail(n0).rad() < total.rad():
            return other
    except (NotCertified, ArithmeticError, ValueError, TypeError, StepTimeout):
        pass
    return t


def _perturbation(b: sp.Expr, n0: int) -> PerturbationTail:
    """The perturbation engine, its coefficient series from :func:`certify_tail` (without a
    second engine: no recursion)."""
    return PerturbationTail(b, n0, _plain_width)


def _plain_width(b: sp.Expr, n0: int) -> object:
    """:func:`any_width_tail` without the second engine of :func:`_sharper`."""
    return certify_tail(b, n0, max_rel_width=math.inf, sharpen=False)


def _narrow(t, n0, beside, max_rel_width=MAX_REL_WIDTH):
    """t when its enclosure of B is at most max_rel_width wide (NotCertified otherwise)."""
    total = t.tail(n0)
    whole = total if beside is None else total + beside
    if not total.is_finite() or whole.rad() > max_rel_width * abs(whole.mid()):
        raise NotCertified(f"the enclosure {total.str(5)} is wider than {max_rel_width:g} relative")
    return t


def _certified_engine(b, n0, scale):
    """Rational terms with rational poles in closed form (digamma, Hurwitz zeta), geometric
    tails in closed form, Euler-transformed tails for g p (g completely monotone, p trigonometric), residue
    classes for floor terms, a geometric bound from the term ratio for factorial-like
    terms (a telescoper when the ratio tends to 1, Stirling's series with its error bound
    when the ratio is not a product of powers of polynomials), Lerch sums for oscillating terms,
    else Taylor blocks, else an expansion in 1/n with oscillating coefficients (a smooth term
    perturbed by sin/cos atoms), else a proved power majorant and minorant."""
    if b.is_rational_function(N):
        try:  # rational poles: partial fractions, digamma and Hurwitz zeta in closed form
            return RationalTail(b, n0)
        except (NotCertified, ArithmeticError, ValueError, TypeError):
            pass
    if b.has(sp.log) and log_power_parts(b) is not None:
        try:  # sum c log(n)^k n^-s: derivatives of Hurwitz zeta functions
            return LogZetaTail(b, n0)
        except (NotCertified, ArithmeticError, ValueError, TypeError):
            pass
    kinds = (sp.Piecewise, sp.Min, sp.Max, sp.Abs, sp.floor, sp.sin, sp.cos)
    if not any(a.has(N) for a in b.atoms(*kinds)):  # sin(10)**(2*n) is geometric
        try:
            return GeometricTail(b, n0)  # e^(a + c n): the tail in closed form
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass
        try:
            return PolyGeometricTail(b, n0)  # n^k e^(a + c n): polylogarithms Li_(-j)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass
        try:
            return SteepPowerTail(b, n0)  # n^(-p), p > 1000: the integral test
        except (NotCertified, ArithmeticError, ValueError, TypeError):
            pass
    if in_exp_atom(b) is not None:
        try:  # F(e^(-lambda n)), F analytic at 0: exp(exp(-n)) - 1, -log(1 - 2**(-n))
            return ExpAtomTail(b, n0)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass
    if b.has(sp.Pow(-1, N)) and (parts := _quotient(b)) is not None:
        try:  # (-1)^n a/(d + (-1)^n e): an alternating part and a rest of one sign per class
            return AlternatingQuotientTail(
                b, n0, parts, lambda e, m: _certified_engine(e, m, scale)
            )
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass
    if b.has(sp.sin, sp.cos) or has_periodic_factor(b):
        try:
            return DirichletTail(b, n0)  # g p, g completely monotone: Euler-transformed tails
        except (NotCertified, ArithmeticError, ValueError, TypeError):
            pass
    if b.has(sp.floor) and beatty_parts(b) is not None:
        try:  # g(n) (-1)**floor(sqrt(2)*n): Denjoy-Koksma on the convergents, Abel summation
            return BeattyTail(b, n0, any_width_tail)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass
    if b.has(sp.floor) and floor_block_parts(b) is not None:
        return FloorBlockTail(b, n0)  # floor(c log n) n^-s, floor(c n^r) n^-s: Hurwitz zeta
    if b.has(sp.floor) and floor_root_parts(b) is not None:
        try:  # G(floor(sqrt(n))): blocks of equal terms, a series in the block index
            return FloorRootTail(b, n0, certify_tail, decide_in_process)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass
    if b.has(sp.floor) and root_sign_parts(b) is not None:
        try:  # (-1)**floor(sqrt(n))/n**s: blocks of one sign by Euler-Maclaurin, alternating
            return RootSignTail(b, n0, certify_tail)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass
    if floor_period(b) is not None:
        try:
            return ResidueTail(b, n0, scale)
        except NotCertified:
            if not has_periodic_factor(b):
                raise
    if has_periodic_factor(b):
        try:
            return GroupedTail(b, n0, scale)
        except (NotCertified, ArithmeticError, ValueError, TypeError, BasePolynomialError):
            pass  # e.g. cos(pi*n/3)*sin(n)/n**2: the Lerch sums below may still apply
    if any(p.base == -1 for p in b.atoms(sp.Pow)) and alternating_ratio(b) is not None:
        try:  # (-1)^n a_n, a_(n+1)/a_n rational: pairs of terms, each series of one sign
            return AlternatingPairTail(b, n0, certify_tail)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass
    if b.has(*GAMMA_LIKE):
        try:
            return RatioTail(b, n0, scale)
        except (NotCertified, ArithmeticError, ValueError, TypeError, BasePolynomialError):
            pass  # e.g. a ratio tending to 1: the telescoper below
        try:
            return RaabeTail(b, n0, scale)
        except (NotCertified, ArithmeticError, ValueError, TypeError, BasePolynomialError):
            pass  # e.g. a ratio with n-dependent exponents: Stirling's series below
        try:  # e.g. exp(n)*gamma(n)/n**(n+1) ~ sqrt(2 pi) n^(-3/2)
            return StirlingTail(b, n0, scale)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass  # e.g. a log factor in the ratio: the Taylor blocks may still work
    if b.has(sp.sin, sp.cos):
        try:
            return OscillatingTail(b, n0)
        except NotCertified:
            pass  # e.g. 1 - cos(1/n): smooth, for the Taylor blocks
        try:  # e.g. exp(cos(n))*log(n)/n**2: a periodic analytic factor times a convex h
            return PeriodicProductTail(b, n0, certify_tail)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass
    if has_moving_power(b):
        try:  # e.g. (1 + 1/n)**(n**2)/3**n: its term ratio increases to e/3
            return RatioTail(b, n0, scale)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass
    try:  # e.g. exp(-n**(10**10)), exp(-2**n): a ratio bound in log space from a few terms
        return SuperExpTail(b, n0)
    except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
        pass
    try:
        return CertifiedTail(b, n0, scale)
    except NotCertified as exc:
        try:  # e.g. 1 - n*sin(1/n): cancellation in the far boxes; an entire function of 1/n
            return InversePowerTail(b, n0)
        except (NotCertified, ArithmeticError, ValueError, TypeError):
            pass
        if b.has(sp.sin, sp.cos):
            try:  # e.g. 1/(n**2 + sin(n)): an expansion in 1/n with oscillating coefficients
                return _perturbation(b, n0)
            except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
                pass
        try:  # e.g. exp(cos(n))/n**2: too fast an oscillation for the blocks
            return MajorantTail(b, n0)
        except (NotCertified, ArithmeticError, ValueError, TypeError):
            pass
        try:  # e.g. exp(-n*(1 + sin(n)**2)) <= exp(-n): boxes, then the majorant's own tail
            return FastMajorantTail(b, n0, any_width_tail)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass
        try:  # e.g. 2/(exp(n) + exp(-n)): log-concave, term ratio below 1/2 (-> 1/e)
            return SuperExpTail(b, n0, gate_bits=1)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass
        try:  # e.g. 1/(factorial(n) + exp(n)) <= 1/factorial(n): the head, then the majorant
            return DroppedSummandTail(b, n0, any_width_tail)
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            raise exc from None


def any_width_tail(b: sp.Expr, n0: int) -> object:
    """A certified tail engine of b from n0 on, however wide its enclosure (a majorant's
    far tail beside a head that carries the sum)."""
    return certify_tail(b, n0, max_rel_width=math.inf)


def _quotient(b: sp.Expr) -> tuple | None:
    """(a, d, e) of :func:`theory.series.oscillating_families.quotient_parts`, or None."""
    try:
        return quotient_parts(b)
    except (StepTimeout, TypeError, ValueError, sp.PolynomialError):
        return None


@ball_precision
def _with_enclosure(cert, head, start) -> SeriesSum:
    """A SeriesSum carrying the guaranteed enclosure: the head terms (exponentials of exact
    binary bias values, in balls) plus T(n0), added in ball arithmetic; its value is the midpoint."""
    total = sum([] if head is None else head.arb_list(), arb(0)) + cert.tail(cert.n0)
    return enclosed_sum(total, start, "certified enclosure (ball arithmetic)", cert.certificate)


def enclosed_sum(total: arb, start: int, method: str, certificate: str) -> SeriesSum:
    """The certified SeriesSum of the ball ``total``: its exact ends, their midpoint as the
    value and the larger half-width as the radius."""
    lo, hi = arb_bounds(total)
    with mpmath.workprec(2 * PREC + 64):
        mid = (lo + hi) / 2
        radius = max(mid - lo, hi - mid)
    return SeriesSum(
        mid, radius, start, method, lo=lo, hi=hi, certified=True, certificate=certificate
    )


def _estimate(b, start, head_sum, n0):
    """The uncertified estimate of B (direct mpmath sum + Euler-Maclaurin or geometric tail).

    Derivatives of exp(-n/10^1000) hold integers of 10^4 digits, which lambdify prints as
    code: Python's limit on int-to-string conversion is raised while it runs."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(max(old, 200_000) if old else 0)
    try:
        return _estimate_impl(b, start, head_sum, n0)
    except (NameError, TypeError, ZeroDivisionError) as exc:  # e.g. DiracDelta from d/dn Max
        raise SeriesError(f"no estimate of B ({type(exc).__name__}: {exc})") from None
    finally:
        sys.set_int_max_str_digits(old)


def _estimate_impl(b, start, head_sum, n0):
    fast = fast_decay_sum(b, n0, head_sum)
    if fast is not None:
        total, bound, cutoff = fast
        err = bound + abs(total) * mpmath.mpf(10) ** (-DPS + 5)
        return SeriesSum(
            total,
            err,
            start,
            f"terms summed directly up to n = {cutoff - 1} "
            f"(mpmath, {DPS} digits); the rest bounded by a geometric series",
            assumptions=f"the ratios b_(n+1)/b_n keep falling for n >= {cutoff - 1}",
        ), CutTail(cutoff, bound)
    eng = Tail(b)
    smooth_from = smooth_beyond(b)
    for m in (64, 512, 4096, 32768):
        a = n0 + m
        if a <= smooth_from:
            continue
        if not eng.em_sign_ok(a):
            continue
        direct = _direct_mp(b, n0, a)
        tail, err = eng.tail(a)
        total = head_sum + direct + tail
        err += abs(total) * mpmath.mpf(10) ** (-DPS + 5)
        if err <= abs(total) * mpmath.mpf(10) ** -18 or m == 32768:
            return SeriesSum(
                total,
                err,
                start,
                f"{m} terms summed directly (mpmath, {DPS} digits) + "
                f"Euler-Maclaurin tail from n = {a} (p = {EM_ORDER}, integral: "
                f"{eng.integral_method})",
                assumptions=f"the {2 * EM_ORDER}th derivative of b keeps one sign "
                f"for n >= {a} (checked on a grid up to {a}*2^100)",
            ), eng
    raise SeriesError(
        "cannot bound the tail: the Euler-Maclaurin remainder bound does not "
        "apply (derivatives change sign, e.g. oscillating terms)"
    )
