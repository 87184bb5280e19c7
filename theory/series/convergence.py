r"""Three-valued convergence decision for :math:`\sum_{n \ge s} b_n` with a checkable certificate.

The RPE paper (Thm 3.3/3.4, Eq. 16/19) shows that a Transformer whose relative positional
encoding has :math:`b_n = \exp(\mathrm{RPE}(n))` extrapolates when the series converges.
:func:`decide` answers *converges*, *diverges* or *undecided* (``None``) and is built to
never be wrong: every symbolic limit it relies on comes from sympy's Gruntz algorithm,
is cross-checked numerically with mpmath (at up to :math:`n = 10^{24}`) whenever the
expression leaves the exp-log class, and any doubt, error or time-out gives *undecided*.

Tests used (the certificate names the one that decided, and the object compared against):

* eventually constant tail (e.g. a T5 bucketed bias): the terms tend to that constant;
* terms do not tend to 0 (including a positive lower bound for oscillating terms);
* the logarithmic test and its iterated-log refinements (Bertrand / Cauchy condensation):

  .. math::
     \lambda = \lim_{n\to\infty} \frac{\log b_n}{\log n} < -1 \Rightarrow
     b_n \le n^{-p}\ (1 < p < -\lambda) \text{ eventually},\qquad \lambda > -1 \Rightarrow
     b_n \ge n^{-1} \text{ eventually},

  with :math:`\lambda = -1` refined by :math:`\lim (\log b_n + \log n)/\log\log n`
  (comparison with :math:`1/(n (\log n)^q)`), and up to five iterated logarithms;
  a finite :math:`\lambda` is reported with the comparison series :math:`n^{-p}`;
* majorant / minorant for oscillating factors (cos, sin, floor are bounded), absolute
  convergence for terms of changing sign;
* ratio and Raabe tests as fall-backs when the logarithmic limits cannot be computed.

With free parameters the same limits are taken symbolically and the condition on the
parameters is derived (e.g. Kerple log converges iff :math:`r > 1`); real parameters are
split into sign cases and the cases joined (:func:`decide_sign_cases`, e.g.
``n**(-a-b)`` converges iff :math:`a + b > 1`).

>>> from theory.series.expressions import parse_expression as P
>>> decide(P("1/n**2")).converges
True
>>> decide(P("1/(n*log(n))"), start=2).converges
False
>>> decide(P("(1 + k*n)**(-r)", free_params=True)).condition
'converges iff r > 1'
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import mpmath
import sympy as sp

from theory.series.expressions import N, ExpressionError, parse_expression
from theory.series.periodic import residue_classes
from theory.series.arc_minorants import nonneg_where_defined
from theory.series.trig_minorants import (
    IN_2PI_Z_REASON,
    frequency_pieces,
    mean_and_frequencies,
    piecewise_rest,
    split_minorant,
)
from theory.core.budget import BudgetExceeded, StepTimeout, run_guarded, step_budget

if TYPE_CHECKING:  # annotations only: rpe_library is not needed at run time
    from theory.series.rpe_library import RPE

#: seconds for the whole decision (hard limit, the computation runs in a child process)
DEFAULT_BUDGET = 6.0
#: seconds for one symbolic limit
STEP_BUDGET = 1.5
_OSC = (
    sp.cos,
    sp.sin,
    sp.floor,
    sp.ceiling,
    sp.Abs,
    sp.Min,
    sp.Max,
    sp.Piecewise,
    sp.sign,
    sp.frac,
)
_CHECK_POINTS = (10**3, 10**6, 10**12, 10**24)


class SeriesError(ValueError):
    """The series is not a series of finite real terms (message names the index)."""


@dataclass
class Decision:
    """Verdict on the convergence of ``sum_{n >= start} b_n``."""

    converges: bool | None
    certificate: str
    condition: str | None = None
    test: str = ""
    start: int = 1
    details: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "converges": self.converges,
            "certificate": self.certificate,
            "condition": self.condition,
            "test": self.test,
            "start": self.start,
        }


class Undecided(Exception):
    """A test (or a step of one) cannot settle the series; the message says why, and the
    caller answers undecided with it."""


def as_expr(b: str | float | sp.Basic | RPE, free_params: bool = True) -> sp.Expr:
    """Accept a sympy expression or user text (parsed safely)."""
    if isinstance(b, str):
        return parse_expression(b, free_params=free_params)
    if isinstance(b, (int, float)):
        return sp.nsimplify(b)
    if hasattr(b, "b") and isinstance(b.b, sp.Basic):
        return b.b
    if not isinstance(b, sp.Basic):
        raise ExpressionError(f"not an expression: {b!r}")
    return b


def free_parameters(b: sp.Expr) -> list[str]:
    """Names of the symbols of ``b`` other than ``n``, sorted."""
    return sorted(s.name for s in b.free_symbols if s != N)


def decide(
    b_expr: str | float | sp.Basic | RPE,
    start: int = 1,
    budget: float = DEFAULT_BUDGET,
    prime: bool = True,
    wall: float | None = None,
) -> Decision:
    """Decide whether ``sum_{n >= start} b_n`` converges; never wrong, ``None`` if unsure.

    ``budget`` counts CPU seconds; ``wall`` caps the wall-clock seconds (default
    :data:`theory.core.budget.WALL_CAP_FACTOR` times the budget).  ``prime=False`` skips :func:`prime_caches` (worth it for many decisions, not for one).
    Raises :class:`SeriesError` when a term is not a finite real number (the index is
    named), e.g. ``1/(n*log(n))`` at ``start=1``.
    """
    b = as_expr(b_expr)
    start = int(start)
    if prime:
        prime_caches()
    try:
        return run_guarded(decide_in_process, (b, start), budget=budget, wall=wall)
    except BudgetExceeded as exc:
        return Decision(
            None,
            f"undecided: {exc} (the expression is too hard or too large "
            "to analyse within the budget)",
            test="time budget",
            start=start,
        )


_PRIMED = []


def prime_caches() -> None:
    """Run one small decision in this process, once: every later decision runs in a forked
    child, which inherits sympy's lazily imported modules and caches from here instead of
    rebuilding them each time (about half the time of a typical decision)."""
    if _PRIMED:
        return
    _PRIMED.append(True)
    try:
        with step_budget(5.0):
            decide_in_process(sp.exp(-N / 3) / N**2 + sp.cos(N) / N**3, 1)
    except Exception:  # noqa: BLE001 - priming is an optimisation only
        pass


def check_terms(b: sp.Expr, start: int, count: int = 64) -> None:
    """Raise :class:`SeriesError` unless ``b_n`` is finite and real for the first terms
    and at a few large indices (n = 10^3 ... 10^24)."""
    if free_parameters(b):
        return
    f = _mp_function(b)
    idx = list(range(start, start + count)) + [n for n in _CHECK_POINTS if n > start + count]
    idx += _integer_singularities(b, start)
    with mpmath.workdps(30):
        for n in idx:
            try:
                with step_budget(0.25):
                    v = f(mpmath.mpf(n))
                if v is None:
                    raise SeriesError(f"term b_{n} is undefined (no Piecewise branch applies)")
                v = mpmath.mpmathify(v)
            except StepTimeout:
                return  # astronomically large or small terms: nothing more to check here
            except (ZeroDivisionError, ValueError, OverflowError, TypeError, KeyError) as exc:
                why = str(exc) or type(exc).__name__.replace(
                    "ZeroDivisionError", "division by zero"
                )
                raise SeriesError(
                    f"term b_{n} (n = start = {start}) cannot be evaluated ({why})"
                    if n == start
                    else f"term b_{n} cannot be evaluated ({why})"
                ) from None
            if isinstance(v, mpmath.mpc):
                if abs(v.imag) > 1e-25 * max(1, abs(v.real)):
                    raise SeriesError(
                        f"term b_{n} = {mpmath.nstr(v, 6)} is not a real number"
                        + (" (n = start)" if n == start else "")
                    )
                v = v.real
            if not mpmath.isfinite(v):
                raise SeriesError(
                    f"term b_{n} = {v} is not a finite number"
                    + (" (n = start)" if n == start else "")
                )


def _integer_singularities(b, start) -> list:
    """Integers n >= start where sympy finds a singularity of b (checked numerically after)."""
    from sympy.calculus.singularities import singularities

    try:
        with step_budget(1.0):
            sing = singularities(b, N)
    except Exception:  # noqa: BLE001 - no information: nothing to add
        return []
    if not isinstance(sing, sp.FiniteSet):
        return []
    return sorted(int(r) for r in sing if r.is_integer and r >= start)[:16]


def _mp_function(expr):
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise SeriesError(f"the terms {expr} are not finite numbers")
    return sp.lambdify(N, expr, modules="mpmath")


# --------------------------------------------------------------------------- driver


def decide_in_process(b: sp.Expr, start: int) -> Decision:
    if free_parameters(b):
        return decide_sign_cases(b, start)
    check_terms(b, start)
    try:
        d = _decide_numeric(b)
    except (Undecided, StepTimeout) as exc:
        d = Decision(None, f"undecided: {exc or 'no test applied'}", test="none")
    d.start = start
    return d


GAMMA_LIKE = (
    sp.factorial,
    sp.gamma,
    sp.binomial,
    sp.RisingFactorial,
    sp.FallingFactorial,
    sp.factorial2,
    sp.Product,
)


def term_ratio(b: sp.Expr) -> sp.Expr | None:
    """b_(n+1)/b_n without gamma functions for a factorial-like term (factorials, gamma,
    binomials; simplified by gammasimp), else None.

    >>> from theory.series.expressions import parse_expression as P
    >>> term_ratio(P("factorial(n)**2/factorial(2*n)"))
    (n + 1)/(2*(2*n + 1))
    """
    if not b.has(*GAMMA_LIKE):
        return None
    try:
        with step_budget(STEP_BUDGET):
            ratio = sp.gammasimp(sp.expand_func(sp.combsimp(b.subs(N, N + 1) / b)))
    except Exception:  # noqa: BLE001 - no simplification: other tests
        return None
    if ratio.has(*GAMMA_LIKE) or not _smooth(ratio):
        return None
    return ratio


def _gamma_ratio_test(b: sp.Expr) -> Decision | None:
    r"""Ratio / Raabe / Gauss tests for factorial-like terms: b_(n+1)/b_n simplifies
    (gammasimp) to an expression without gamma functions; its eventual positivity makes the
    sign of b_n eventually constant, so the tests apply to |b_n|.  Gauss: for a rational
    ratio, :math:`b_n/b_{n+1} = 1 + h/n + O(n^{-2})`, and the series converges iff h > 1.

    >>> from theory.series.expressions import parse_expression as P
    >>> _gamma_ratio_test(P("gamma(n)/gamma(n + 1)")).converges        # = 1/n
    False
    >>> _gamma_ratio_test(P("binomial(2*n, n)/(4**n*n)")).converges    # ~ n^(-3/2)/sqrt(pi)
    True
    """
    ratio = term_ratio(b)
    if ratio is None:
        return None
    rho = limit_at_infinity(ratio)
    if rho is None or not rho.is_number or not (rho == sp.oo or rho > 0):
        return None
    what = f"b_(n+1)/b_n = {ratio}"
    if rho == sp.oo or rho > 1:
        return Decision(False, f"ratio test: {what} -> {rho} > 1", test="ratio test")
    if rho < 1:
        return Decision(
            True, f"ratio test: {what} -> {rho} < 1 (absolute convergence)", test="ratio test"
        )
    raabe = limit_at_infinity(N * (1 / ratio - 1))
    if raabe is not None and raabe.is_number and raabe != 1 and _eventual_sign(ratio) == 1:
        conv = bool(raabe > 1)
        return Decision(
            conv,
            f"Raabe's test on |b_n|: {what} > 0 for large n (b_n keeps "
            f"one sign), lim n (b_n/b_(n+1) - 1) = {raabe} {'>' if conv else '<'} 1"
            + (" (absolute convergence)" if conv else " (|b_n| ~ sign-constant b_n)"),
            test="Raabe test",
        )
    if raabe != 1 or _eventual_sign(ratio) != 1:
        return None
    if ratio.is_rational_function(N):
        why = "is rational with"
    else:  # e.g. n^(3/2)/(sqrt(n + 1) (n + 1/2)): the O(1/n^2) term from a finite limit
        g = limit_at_infinity(N**2 * (1 / ratio - 1 - 1 / N))
        if g is None or not (g.is_number and g.is_finite):
            return None
        why = f"has lim n^2 (b_n/b_(n+1) - 1 - 1/n) = {g}, so"
    return Decision(  # b_n/b_(n+1) = 1 + 1/n + O(1/n^2)
        False,
        f"Gauss's test: {what} {why} b_n/b_(n+1) = 1 + 1/n + O(1/n^2) "
        "(b_n keeps one sign for large n), so sum |b_n| diverges like sum 1/n",
        test="Gauss test",
    )


def zero_at_integers(b: sp.Expr) -> bool:
    """True when sympy's automatic evaluation with an integer n makes b exactly 0
    (``sin(pi*n)``, ``cos(pi*n)**2 - 1``): every term of the series is 0."""
    k = sp.Symbol("n", integer=True, positive=True)
    try:
        return b.has(N) and b.subs(N, k) == 0
    except Exception:  # noqa: BLE001 - no evaluation: not known to be 0
        return False


def _decide_numeric(b: sp.Expr) -> Decision:
    if zero_at_integers(b):
        return Decision(
            True,
            "every term is 0: with n an integer the terms evaluate to 0 "
            f"exactly ({b} = 0); the series is a sum of zeros",
            test="zero terms",
        )
    d = _gamma_ratio_test(b) or _residue_class_test(b)
    if d:
        return d
    lo, hi, how = _bounds_or_none(b)
    exact = lo is not None and lo == hi
    if lo is not None and not lo.has(N):
        if lo == hi:
            c = lo
            if c.is_zero:
                return Decision(
                    True,
                    f"eventually zero: b_n = 0 for all large n ({how}); the series is a finite sum",
                    test="eventually constant",
                )
            if not _nonzero_constant(c):
                raise Undecided(f"eventually constant tail {c}: cannot tell whether it is 0")
            return Decision(
                False,
                f"eventually constant tail: b_n = {c} != 0 for all large n "
                f"({how}); the terms do not tend to 0",
                test="eventually constant",
            )
    if exact and lo.has(N) and lo.is_positive and _smooth(lo):
        d = _positive_fast_path(lo)  # one Gruntz limit where it settles the verdict
        if d:
            return d
    if lo is not None:
        verdict = _terms_not_to_zero(lo, hi, exact, how)
        if verdict:
            return verdict
    nonneg = lo is not None and _eventually_nonneg(lo)
    nonpos = not nonneg and hi is not None and _eventually_nonneg(-hi)
    if lo is not None and (nonneg or nonpos):
        upper, lower = (hi, lo) if nonneg else (-lo, -hi)
        sign = "" if nonneg else "-"
        note = "" if exact else f" ({sign}b_n lies between {lower} and {upper} for large n: {how})"
        d = _log_test(upper, conv=True, label=f"{sign}b_n" if exact else f"the majorant {upper}")
        if d:
            d.certificate += note
            return d
        d = _log_test(lower, conv=False, label=f"{sign}b_n" if exact else f"the minorant {lower}")
        if d:
            d.certificate += note
            return d
        if exact:
            d = _ratio_tests(b if nonneg else -b)
            if d:
                return d
        d = _recurrence_test(b) or _minorant_test(b if nonneg else -b) or _summand_test(b)
        if d:
            if d.test == "trigonometric minorant" and not nonneg:
                d.certificate = "for -b_n (b_n <= 0 for large n): " + d.certificate
            return d
        raise Undecided("the logarithmic, ratio and Raabe tests gave no answer")
    if lo is not None:
        major = sp.Abs(lo) if exact else sp.Abs(lo) + sp.Abs(hi)
        d = _log_test(major, conv=True, label=f"the majorant |lo|+|hi| = {major}")
        if d:
            d.certificate = (
                "absolute convergence: "
                + d.certificate
                + f" (b_n lies between {lo} and {hi} for large n: {how})"
            )
            return d
    for test in (_recurrence_test, _dirichlet_test, _minorant_test, _summand_test, _abel_test):
        d = test(b)
        if d:
            return d
    raise Undecided("terms of changing sign and no absolutely convergent majorant found")


def _optional_test(test):
    """A test whose failure inside sympy (TypeError, ValueError, ... on an unusual
    expression) means no verdict from it, never an internal error."""

    @functools.wraps(test)
    def guarded(*args):
        try:
            return test(*args)
        except (Undecided, StepTimeout, SeriesError):
            raise
        except Exception:  # noqa: BLE001 - sympy failing inside the test: no verdict
            return None

    return guarded


@_optional_test
def _residue_class_test(b: sp.Expr) -> Decision | None:
    r"""Periodic factors ((-1)**n, cos(pi*n), (-1)**floor(n/2)) split by residue class
    n = L m + r (:mod:`theory.series.periodic`): a class whose terms do not tend to 0
    decides divergence; when every class tends to 0 the grouped series
    :math:`\sum_m \sum_r b_{Lm+r}` has the verdict of the series; every class convergent
    gives convergence.

    >>> from theory.series.expressions import parse_expression as P
    >>> _residue_class_test(P("(-1)**n/sqrt(n)")).converges
    True
    >>> _residue_class_test(P("n**((-1)**n - 1)")).converges       # 1 at every even n
    False
    """
    split = residue_classes(b)
    if split is None:
        return None
    L, classes = split
    where = f"{L} residue classes n = {L}m + r: " + ", ".join(
        f"b_({L}m+{r}) = {c.subs(N, sp.Symbol('m'))}" for r, c in enumerate(classes)
    )
    lims = [limit_at_infinity(c) for c in classes]
    for r, lim in enumerate(lims):
        if lim is not None and lim.is_number and (lim.is_infinite or _nonzero_constant(lim)):
            return Decision(
                False,
                f"terms do not tend to 0: b_({L}m+{r}) -> {lim} ({where})",
                test="residue classes",
            )
    if all(lim == 0 for lim in lims):
        d = _class_by_class(classes, where)
        if d is None and not (b.has(sp.floor, sp.ceiling, sp.frac) or _periodic_sign(b)):
            d = _dirichlet_test(b)  # sin/cos(r pi n) alone: cheaper than the grouped series
        return d or _grouped_verdict(classes, where)
    return None


def _grouped_verdict(classes: list, where: str) -> Decision | None:
    """Every class tends to 0: the series has the verdict of the grouped series
    sum_m sum_r b_(Lm+r) (partial sums differ by fewer than L terms)."""
    grouped = sp.Add(*classes)
    if grouped.is_rational_function(N):
        with step_budget(STEP_BUDGET):
            grouped = sp.cancel(sp.together(grouped))
    try:
        d = _decide_numeric(grouped)
    except (Undecided, StepTimeout):
        d = _leading_power(grouped)
    if d is None or d.converges is None:
        return None
    d.certificate = (
        f"grouped by periods: every class tends to 0, so the series has the verdict of "
        f"sum_m c_m, c_m = {grouped.subs(N, sp.Symbol('m'))} ({where}); for sum_m c_m: "
        + d.certificate
    )
    d.test = "residue classes"
    return d


def _class_by_class(classes: list, where: str) -> Decision | None:
    """Each residue class decided on its own: all convergent gives convergence (a partial
    sum of b is a sum of L class partial sums, up to fewer than L terms tending to 0); the
    divergent ones all of one eventual sign, the rest convergent, gives divergence (the
    divergent classes' partial sums go to +oo, or all to -oo)."""
    verdicts, signs = [], set()
    for r, c in enumerate(classes):
        if c == 0:
            continue
        try:
            d = _decide_numeric(c)
        except (Undecided, StepTimeout):
            return None
        if d.converges is None:
            return None
        if not d.converges:
            signs.add(_eventual_sign(c) if _smooth(c) else None)
            if None in signs or len(signs) > 1:
                return None  # divergent classes of both signs may cancel: (-1)**n/n
        verdicts.append(f"r = {r}: {'converges' if d.converges else 'diverges'} ({d.test})")
    if not verdicts:
        return None
    diverges = bool(signs)
    return Decision(
        not diverges,
        "residue classes, class by class: "
        + "; ".join(verdicts)
        + (
            f"; the divergent classes all have the sign {signs.pop():+d}, so the partial "
            "sums of the series are unbounded"
            if diverges
            else "; every class converges, hence the series"
        )
        + f" ({where})",
        test="residue classes",
    )


@_optional_test
def _minorant_test(b: sp.Expr) -> Decision | None:
    r"""Divergence of nonnegative oscillating terms through a trigonometric-polynomial
    minorant :math:`b_n \ge g(n) p(n)` of positive mean (:mod:`theory.series.trig_minorants`).

    >>> from theory.series.expressions import parse_expression as P
    >>> _minorant_test(P("Abs(sin(n))/n")).converges
    False
    """
    split = split_minorant(b)
    if split is None:
        return None
    g, p, notes = split
    rest = piecewise_rest(b)
    if rest is not None and not _eventually_nonneg(rest):
        return None
    mf = mean_and_frequencies(p)
    if mf is None or mf[0].is_positive is not True or not _smooth(g):
        return None
    c0, freqs = mf
    if limit_at_infinity(g) != 0 or _eventual_sign(g) != 1 or _eventual_sign(sp.diff(g, N)) != -1:
        return None
    d = _log_test(g, conv=False, label=f"g = {g}")
    if not d or d.converges is not False:
        return None
    shown = (
        f"p = {p}"
        if len(str(p)) < 200
        else f"p a trigonometric polynomial ({len(freqs)} frequencies)"
    )
    d.certificate = (
        f"trigonometric minorant: b_n >= g(n) p(n) with g = {g} decreasing to 0 and "
        f"{shown} = {c0} + sum_j c_j e^(i k_j n), k_j in {{{', '.join(map(str, freqs))}}} "
        f"(none a multiple of 2 pi: {IN_2PI_Z_REASON}; so sum g(n) e^(i k_j n) converges by "
        f"Dirichlet's test); the mean {c0} > 0 leaves {c0} sum g(n), which diverges: "
        + d.certificate
        + "".join(f"; {note}" for note in notes)
    )
    d.test = "trigonometric minorant"
    return d


def _leading_power(c: sp.Expr) -> Decision | None:
    """c_n ~ a n^-p (a != 0, p from sympy's series at infinity, a confirmed by the Gruntz
    limit of c n^p): sum c_n converges iff p > 1 (c_n keeps the sign of a for large n)."""
    if not _smooth(c) or c.has(sp.sin, sp.cos):
        return None
    x = sp.Dummy("x", positive=True)
    try:
        with step_budget(STEP_BUDGET):
            lead = sp.series(c.subs(N, 1 / x), x, 0, 4).removeO().as_leading_term(x)
            a, p = lead.as_coeff_exponent(x)
            if not (p.is_Rational and a.is_number and _nonzero_constant(a)) or a.has(x):
                return None
            if sp.limit(c * N**p, N, sp.oo) != a:
                return None
    except Exception:  # noqa: BLE001 - no expansion or no limit: no verdict
        return None
    return Decision(
        bool(p > 1),
        f"c_n ~ {a} n^(-{p}) (series at infinity, limit c_n n^{p} = {a}): "
        + (
            "absolutely convergent (p > 1)"
            if p > 1
            else "one sign for large n and p <= 1: diverges"
        ),
        test="leading power",
    )


MAX_SUMMANDS = 6


@_optional_test
def _summand_test(b: sp.Expr) -> Decision | None:
    """b = u_1 + ... + u_k (expanded): every sum of u_j convergent gives convergence; one
    divergent and the rest convergent gives divergence.

    >>> from theory.series.expressions import parse_expression as P
    >>> _summand_test(P("(1 + cos(n))/n")).converges
    False
    """
    with step_budget(STEP_BUDGET):
        parts = sp.Add.make_args(sp.expand(b))
    if not 1 < len(parts) <= MAX_SUMMANDS:
        return None
    verdicts = []
    for u in parts:
        try:
            verdicts.append((u, _decide_numeric(u)))
        except (Undecided, StepTimeout):
            return None
    bad = [(u, d) for u, d in verdicts if d.converges is not True]
    if len(bad) > 1 or any(d.converges is None for _, d in bad):
        return None
    what = "; ".join(
        f"sum {u}: {'converges' if d.converges else 'diverges'} ({d.test})" for u, d in verdicts
    )
    return Decision(
        not bad,
        f"term by term: b_n = {' + '.join(map(str, parts))}; {what}"
        + ("" if not bad else "; a divergent sum plus convergent ones diverges"),
        test="sum of series",
    )


def _positive_fast_path(b: sp.Expr) -> Decision | None:
    """Terms positive by sympy's assumptions: the level-0 logarithmic test alone decides
    unless lim log(b_n)/log(n) = -1 (a limit b_n -> c > 0 gives 0 > -1: divergence)."""
    return _log_test(b, conv=True, label="b_n", levels=1) or _log_test(
        b, conv=False, label="b_n", levels=1
    )


def _linear_trig_atoms(b):
    """cos/sin(a n + c) atoms of b, or None if n occurs elsewhere or non-linearly."""
    atoms = [a for a in b.atoms(sp.cos, sp.sin) if a.has(N)]
    if not atoms:
        return None
    for a in atoms:
        poly = sp.Poly(a.args[0], N) if a.args[0].is_polynomial(N) else None
        if poly is None or poly.degree() != 1 or not all(c.is_real for c in poly.all_coeffs()):
            return None
    rest = b.subs({a: sp.Dummy() for a in atoms})
    if rest.has(N) or any(
        isinstance(x, (sp.floor, sp.ceiling, sp.sign, sp.frac, sp.Piecewise))
        for x in sp.preorder_traversal(b)
    ):
        return None
    return atoms


def _recurrence_test(b):
    """b_n = H(cos/sin(a_j n + c_j)): n a mod 2 pi returns near 0 infinitely often."""
    atoms = _linear_trig_atoms(b)
    if atoms is None:
        return None
    v = b.subs(N, 0)
    val = _robust_value(v)
    if val is None:
        return _density_test(b, atoms)
    return Decision(
        False,
        "terms do not tend to 0 (recurrence): b_n depends on n only "
        f"through {', '.join(map(str, atoms))}; by Dirichlet's simultaneous "
        "approximation theorem the angles n*a_j come within any delta of 2*pi*Z "
        "together for infinitely many n, where b is continuous with value "
        f"{sp.N(v, 6)} != 0, so |b_n| > {abs(val.real) / 2:.3g} infinitely often",
        test="terms not -> 0 (recurrence)",
    )


def _sign_of_const(v):
    """+1/-1 for a real constant clearly away from 0, else None."""
    r = _robust_value(v)
    return None if r is None else (1 if r.real > 0 else -1)


def _nonzero_constant(c) -> bool:
    """A constant proved nonzero: by ball arithmetic (any magnitude: exp(-1000) is not 0),
    else by agreeing evaluations at 30, 60 and 90 digits."""
    from flint import arb

    from theory.series.arb_eval import NotSupported, arb_function

    try:
        v = arb_function(c)(arb(0))
        if v.is_finite() and not v.contains(0):
            return True
    except (NotSupported, ArithmeticError, ValueError):
        pass
    return _robust_value(c) is not None


def _robust_value(v):
    """A real nonzero constant (the same at 30, 60 and 90 digits), else None."""
    try:
        v30, v60 = complex(sp.N(v, 30)), complex(sp.N(v, 60))
    except (TypeError, ValueError):
        return None
    if abs(v30.imag) > 1e-20 or abs(v60.imag) > 1e-20 or not math.isfinite(v30.real):
        return None
    if v30.real == 0 or abs(v30.real - v60.real) > 1e-20 * abs(v30.real):
        return None  # an exact zero shows up as noise that changes with precision
    try:
        v90 = complex(sp.N(v, 90))
    except (TypeError, ValueError):
        return None
    if abs(v90.real - v60.real) > 1e-20 * abs(v60.real):
        return None
    return complex(v60.real, 0)


def _density_test(b, atoms):
    """One frequency a with a/(2 pi) irrational: n a mod 2 pi is dense (Weyl/Kronecker)."""
    freqs = {sp.Poly(a.args[0], N).all_coeffs()[0] for a in atoms}
    if len(freqs) != 1:
        return None
    a = freqs.pop()
    if not (a.is_rational and a != 0):  # a rational => a/(2 pi) irrational
        return None
    theta = sp.Symbol("theta", real=True)
    h = b.subs(N, theta / a)  # b as a function of the angle a*n
    for th in (sp.pi / 2, sp.pi, 3 * sp.pi / 2, sp.Integer(1)):
        val = _robust_value(h.subs(theta, th))
        if val is not None:
            return Decision(
                False,
                f"terms do not tend to 0 (density): b_n is a continuous function "
                f"of the angle {a}*n, whose values mod 2*pi are dense (a/(2*pi) is "
                f"irrational); at angle {th} the function is {val.real:.6g} != 0, so "
                f"|b_n| > {abs(val.real) / 2:.3g} infinitely often",
                test="terms not -> 0 (density)",
            )
    return None


def _periodic_sign(f: sp.Expr) -> bool:
    return any(
        isinstance(e, sp.Pow) and e.base == -1 and e.exp.has(N) for e in sp.preorder_traversal(f)
    )


def oscillating_split(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(g, p) with b = g p, p the product of the factors holding sin/cos or (-1)**(...),
    g the rest (smooth); None when no factor oscillates or g is not smooth."""
    g, p = sp.Integer(1), sp.Integer(1)
    for f in sp.Mul.make_args(b):
        if f.has(sp.sin, sp.cos) or _periodic_sign(f):
            p *= f
        else:
            g *= f
    if p == 1 or not g.has(N) or not _smooth(g) or _periodic_sign(g):
        return None
    return g, p


@_optional_test
def _dirichlet_test(b):
    r"""Dirichlet's test on frequencies: :math:`b_n = g(n) p(n)` with g eventually monotone
    to 0 and :math:`p = c_0 + \sum_j c_j e^{i \theta_j n}` (products of sin/cos of linear
    arguments and (-1)**n expanded, :func:`theory.series.trig_minorants.frequency_pieces`),
    every :math:`\theta_j \notin 2\pi\mathbb{Z}`: each :math:`\sum g(n) e^{i\theta_j n}`
    converges (partial sums of :math:`e^{i\theta n}` are at most
    :math:`1/|\sin(\theta/2)|`), so the series has the verdict of :math:`c_0 \sum g(n)`.

    >>> from theory.series.expressions import parse_expression as P
    >>> _dirichlet_test(P("(-1)**n*cos(n)/n")).converges          # cos((pi + 1) n)/n
    True
    >>> _dirichlet_test(P("sin(n)**2/n")).converges               # 1/(2n) - cos(2n)/(2n)
    False
    """
    split = oscillating_split(b)
    if split is None:
        return None
    g, p = split
    fp = frequency_pieces(p)
    if fp is None:
        return None
    c0, pieces = fp
    if limit_at_infinity(g) != 0 or _eventual_sign(sp.diff(g, N)) not in (1, -1):
        return None
    thetas = ", ".join(sorted({str(k) for _, k in pieces}))
    cert = (
        f"Dirichlet's test: b_n = g(n) p(n) with g = {g} eventually monotone to 0 (g' keeps "
        f"one sign for large n) and p = {p} = {c0} + sum_j c_j e^(i theta_j n), theta_j in "
        f"{{{thetas}}}, none a multiple of 2*pi ({IN_2PI_Z_REASON}), so each sum "
        "g(n) e^(i theta_j n) converges (partial sums "
        "of e^(i theta n) are at most 1/|sin(theta/2)|)"
    )
    if c0 == 0:
        return Decision(True, cert + " (conditional convergence)", test="Dirichlet test")
    if not _nonzero_constant(c0):
        return None
    try:
        d = _decide_numeric(g)
    except (Undecided, StepTimeout):
        return None
    if d.converges is None:
        return None
    d.certificate = (
        f"{cert}; the constant component {c0} != 0 leaves {c0} sum g(n), which "
        f"{'converges' if d.converges else 'diverges'}: {d.certificate}"
    )
    d.test = "Dirichlet test"
    return d


@_optional_test
def _abel_test(b):
    r"""Abel's test: :math:`b_n = a_n c_n` with :math:`\sum a_n` proved convergent and
    :math:`c_n` smooth, eventually monotone with a finite limit (so bounded), converges.

    >>> from theory.series.expressions import parse_expression as P
    >>> _abel_test(P("sin(n)*(1 + 1/n)**n/sqrt(n)")).converges     # c_n -> e
    True
    """
    cands = [f for f in sp.Mul.make_args(b) if f.has(N) and _smooth(f) and not _periodic_sign(f)]
    for c in cands:
        lim = limit_at_infinity(c)
        if lim is None or not lim.is_number or not lim.is_finite or lim == 0:
            continue
        if _eventual_sign(sp.diff(c, N)) not in (1, -1):
            continue
        a = b / c
        try:
            d = _decide_numeric(a)
        except (Undecided, StepTimeout):
            continue
        if d.converges is True:
            return Decision(
                True,
                f"Abel's test: b_n = a_n c_n with c_n = {c} eventually monotone and bounded "
                f"(c_n -> {lim}) and sum a_n, a_n = {a}, convergent: {d.certificate}",
                test="Abel test",
            )
    return None


# --------------------------------------------------------------------------- limits


def _exp_log_class(e: sp.Expr) -> bool:
    """True if only + * / ** exp log and numbers occur (Gruntz is complete there); a
    constant such as sin(pi/7) is a number."""
    for sub in sp.preorder_traversal(e):
        if isinstance(sub, sp.Function) and not isinstance(sub, (sp.exp, sp.log)) and sub.has(N):
            return False
    return True


def limit_at_infinity(expr: sp.Expr, check: bool | None = None) -> sp.Expr | None:
    """lim_{n->oo} expr by Gruntz, or None; numerically cross-checked outside exp-log."""
    key = (expr, check)
    if key not in _LIM_CACHE:
        _LIM_CACHE[key] = _lim_uncached(expr, check)
    return _LIM_CACHE[key]


_LIM_CACHE: dict = {}


def _lim_uncached(expr, check):
    try:
        with step_budget(STEP_BUDGET):
            val = _gruntz_or_limit(expr)
    except (
        StepTimeout,
        NotImplementedError,
        ValueError,
        TypeError,
        ZeroDivisionError,
        AttributeError,
        RecursionError,
        sp.PoleError,
    ):
        return None
    except Exception:  # noqa: BLE001 - sympy raises many kinds of errors; unsure -> None
        return None
    if (
        val is sp.nan
        or isinstance(val, sp.AccumBounds)
        or val.has(sp.zoo)
        or val.has(sp.Limit)
        or (val.free_symbols - expr.free_symbols)
    ):
        return None
    if val.is_extended_real is False or (
        val.is_number and val.is_finite is False and val not in (sp.oo, -sp.oo)
    ):
        return None
    if check is None:
        check = not _exp_log_class(expr)
    if check and not val.free_symbols and not _numerically_consistent(expr, val):
        return None
    return val


def _gruntz_or_limit(expr):
    """Gruntz directly for exp-log expressions (about 30% faster), sympy's limit otherwise."""
    if _exp_log_class(expr):
        from sympy.series.gruntz import gruntz

        try:
            return gruntz(expr, N, sp.oo)
        except StepTimeout:
            raise
        except Exception:  # noqa: BLE001 - fall back to limit's heuristics
            pass
    return sp.limit(expr, N, sp.oo)


def _numerically_consistent(expr, val) -> bool:
    """Values of ``expr`` at n = 10^3 ... 10^24 (mpmath, 60+ digits) approach ``val``."""
    f = _mp_function(expr)
    pts = []
    try:
        with step_budget(1.0):
            for n in _CHECK_POINTS:
                with mpmath.workdps(60 + 4 * len(str(n))):
                    v = f(mpmath.mpf(n))
                if isinstance(v, mpmath.mpc):
                    if abs(v.imag) > 1e-20:
                        return False
                    v = v.real
                if not mpmath.isfinite(v):
                    return False
                pts.append(mpmath.mpf(v))
    except (StepTimeout, ZeroDivisionError, ValueError, OverflowError, TypeError):
        return False
    if val == sp.oo:
        return pts[-1] > pts[0] and pts[-1] > 3
    if val == -sp.oo:
        return pts[-1] < pts[0] and pts[-1] < -3
    v = mpmath.mpf(sp.N(val, 30))
    d = [abs(p - v) for p in pts]
    return d[-1] <= d[0] + 1e-12 and d[-1] <= max(0.3 * abs(v + 1), 0.05)


# --------------------------------------------------------------------------- bounds


def _bounds_or_none(b):
    try:
        with step_budget(3.0):
            lo, hi = _bounds(b)
    except (Undecided, StepTimeout):
        return None, None, ""
    if lo == hi:
        how = "exact" if lo == b else f"b_n = {lo} for all large n"
    else:
        how = (
            "cos, sin are in [-1, 1], floor(x) in (x-1, x], Max/Min between the Max/Min of "
            "the bounds of their arguments, exp(x) in (0, 1] for x <= 0"
        )
    return lo, hi, how


def _smooth(e) -> bool:
    """No oscillating or non-smooth part in n (cos/sin of an argument with a finite
    limit, like cos(1/n), count as smooth)."""
    return not any(_oscillating_atom(s) for s in sp.preorder_traversal(e))


@functools.lru_cache(maxsize=512)
def _oscillating_atom(s) -> bool:
    if not (isinstance(s, _OSC) and s.has(N)):
        return False
    if isinstance(s, (sp.cos, sp.sin)) and _smooth(s.args[0]):
        a = limit_at_infinity(s.args[0], check=False)
        return not (a is not None and a.is_finite)
    return True


def _bounds(e):
    """(lo, hi): expressions with lo <= e <= hi for all large n, free of oscillation."""
    if not e.has(N) or _smooth(e):
        return e, e
    if isinstance(e, (sp.cos, sp.sin)):
        return sp.Integer(-1), sp.Integer(1)
    if isinstance(e, sp.floor):
        lo, hi = _bounds(e.args[0])
        return lo - 1, hi
    if isinstance(e, sp.ceiling):
        lo, hi = _bounds(e.args[0])
        return lo, hi + 1
    if isinstance(e, sp.Piecewise):
        try:
            return _bounds(_eventual_branch(e))
        except Undecided:
            return _branch_envelope(e)
    if isinstance(e, (sp.Min, sp.Max)):
        try:
            return _bounds(_eventual_extreme(e))
        except Undecided:
            return _extreme_envelope(e)
    if isinstance(e, sp.Abs):
        lo, hi = _bounds(e.args[0])
        if _eventually_nonneg(lo):
            return lo, hi
        if _eventually_nonneg(-hi):
            return -hi, -lo
        return sp.Integer(0), sp.Abs(lo) + sp.Abs(hi)
    if isinstance(e, sp.Add):
        parts = [_bounds(a) for a in e.args]
        return sp.Add(*[p[0] for p in parts]), sp.Add(*[p[1] for p in parts])
    if isinstance(e, sp.Mul):
        return _mul_bounds(e)
    if isinstance(e, sp.exp):
        try:
            lo, hi = _bounds(e.args[0])
        except Undecided:
            if nonneg_where_defined(-e.args[0]):  # exp(-1/Abs(sin(n))) lies in (0, 1]
                return sp.Integer(0), sp.Integer(1)
            raise
        return sp.exp(lo), sp.exp(hi)
    if isinstance(e, sp.log):
        lo, hi = _bounds(e.args[0])
        if _eventually_positive(lo):
            return sp.log(lo), sp.log(hi)
        raise Undecided(f"cannot bound {e}")
    if isinstance(e, sp.Pow):
        return _pow_bounds(e)
    raise Undecided(f"cannot bound {e}")


def _mul_bounds(e):
    coeff, factors = e.as_coeff_mul()
    exact, loose = [], []
    for f in factors:
        lo, hi = _bounds(f)
        (exact if lo == hi else loose).append((lo, hi))
    scale = coeff * sp.Mul(*[p[0] for p in exact])
    if not loose:
        return scale, scale  # e.g. Min(n, 128) is replaced by its eventual value
    if len(loose) == 1:
        lo, hi = loose[0]
    elif all(_eventually_nonneg(p[0]) for p in loose):
        lo, hi = sp.Mul(*[p[0] for p in loose]), sp.Mul(*[p[1] for p in loose])
    else:
        raise Undecided(f"cannot bound the product {e}")
    if _eventually_nonneg(scale):
        return scale * lo, scale * hi
    if _eventually_nonneg(-scale):
        return scale * hi, scale * lo
    raise Undecided(f"unknown sign of {scale}")


def _pow_bounds(e):
    base, ex = e.args
    if not ex.has(N):
        lo, hi = _bounds(base)
        if ex.is_integer and ex.is_even and ex.is_positive:
            if _eventually_nonneg(lo):
                return lo**ex, hi**ex
            m = (
                sp.Max(sp.Abs(lo), sp.Abs(hi))
                if lo.is_number and hi.is_number
                else sp.Abs(lo) + sp.Abs(hi)
            )
            if m.is_number and ex > 64 and not (m - 1).is_nonpositive:
                raise Undecided(f"bound of {e} too large")
            return sp.Integer(0), m**ex
        if ex.is_positive and _eventually_nonneg(lo):
            return lo**ex, hi**ex
        if ex.is_negative and _eventually_positive(lo):
            return hi**ex, lo**ex
        raise Undecided(f"cannot bound {e}")
    if not base.has(N) and base.is_positive:
        lo, hi = _bounds(ex)
        if (base - 1).is_nonnegative:
            return base**lo, base**hi
        return base**hi, base**lo
    return _bounds(sp.exp(ex * sp.log(base)))


def _extreme_envelope(e):
    """Min/Max of arguments whose order keeps changing (Max(sin(n), 0)): the Min/Max of
    their bounds, used only where sympy evaluates it (numbers: Max(-1, 0) = 0)."""
    pairs = [_bounds(a) for a in e.args]
    lo, hi = e.func(*[p[0] for p in pairs]), e.func(*[p[1] for p in pairs])
    if lo.has(sp.Min, sp.Max) or hi.has(sp.Min, sp.Max):
        raise Undecided(f"cannot bound {e}")
    return lo, hi


def _branch_envelope(e: sp.Piecewise):
    """(lo, hi) over every branch that may hold for large n (e.g. conditions on cos(n)):
    the eventually smallest lower bound and the eventually largest upper bound."""
    bounds = []
    for val, cond in e.args:
        truth = _eventual_truth(cond)
        if truth is False:
            continue
        bounds.append(_bounds(val))
        if truth is True:
            break
    lo, hi = bounds[0]
    for l2, h2 in bounds[1:]:
        o_lo = 0 if lo == l2 else _eventual_order(lo, l2)
        o_hi = 0 if hi == h2 else _eventual_order(hi, h2)
        if o_lo is None or o_hi is None:
            raise Undecided(f"cannot order the branches of {e} for large n")
        lo, hi = (l2 if o_lo > 0 else lo), (h2 if o_hi < 0 else hi)
    return lo, hi


def _eventual_branch(e: sp.Piecewise):
    for val, cond in e.args:
        truth = _eventual_truth(cond)
        if truth is True:
            return val
        if truth is None:
            raise Undecided(f"cannot tell which branch of {e} holds for large n")
    raise Undecided(f"no branch of {e} holds for large n")


def _eventual_truth(cond):
    if cond is sp.true:
        return True
    if cond is sp.false:
        return False
    if isinstance(cond, sp.core.relational.Relational):
        d = cond.lhs - cond.rhs
        if not _smooth(d):
            return None
        lim = limit_at_infinity(d)
        if lim is None or lim == 0 or not lim.is_number:
            return None
        positive = bool(lim > 0)
        if isinstance(cond, (sp.StrictGreaterThan, sp.GreaterThan)):
            return positive
        if isinstance(cond, (sp.StrictLessThan, sp.LessThan)):
            return not positive
    return None


def _eventual_order(a: sp.Expr, b: sp.Expr) -> int | None:
    """+1 if a > b for all large n, -1 if a < b, else None (bounds for non-smooth parts:
    floor(n/8) > 15 eventually because its lower bound n/8 - 1 exceeds 15)."""
    if _smooth(a) and _smooth(b):
        return _eventual_sign(a - b)
    (alo, ahi), (blo, bhi) = _bounds(a), _bounds(b)
    if _eventual_sign(alo - bhi) == 1:
        return 1
    if _eventual_sign(blo - ahi) == 1:
        return -1
    return None


def _eventual_extreme(e):
    args = list(e.args)
    best = args[0]
    for a in args[1:]:
        sgn = _eventual_order(a, best)
        if sgn not in (1, -1):
            raise Undecided(f"cannot order the arguments of {e}")
        if (sgn > 0) == isinstance(e, sp.Max):
            best = a
    return best


def _eventually_nonneg(x) -> bool:
    if x.is_nonnegative:
        return True
    if not _smooth(x) or not x.has(N):
        return bool(x.is_nonnegative)
    lim = limit_at_infinity(x)
    if lim is not None and lim.is_number and bool(lim > 0):
        return True
    if lim == 0:
        return _eventual_sign(x) == 1
    return False


def _eventual_sign(x):
    """Sign of x for all large n by Gruntz's ``sign`` (exp-log class), checked numerically."""
    from sympy.series.gruntz import sign as gruntz_sign

    try:
        with step_budget(STEP_BUDGET):
            s = gruntz_sign(x, N)
    except Exception:  # noqa: BLE001 - unsure -> None
        return None
    f = _mp_function(x)
    try:
        with step_budget(1.0):
            ok = all(_mp_sign(f, n) == s for n in _SIGN_POINTS)
    except Exception:  # noqa: BLE001
        return None
    return s if ok else None


#: where an eventual sign from Gruntz is confirmed numerically: far out, since iterated
#: logarithms change sign late (log(log(log(log(n)))) > 0 only for n > 3.8e6)
_SIGN_POINTS = (10**24, 10**60, 10**150)


def _mp_sign(f: object, n: int) -> int:
    """Sign of f(n) with enough digits for cancellations of size n^2."""
    with mpmath.workdps(40 + 3 * len(str(n))):
        return int(mpmath.sign(mpmath.re(f(mpmath.mpf(n)))))


def _eventually_positive(x) -> bool:
    if x.is_positive:
        return True
    return _eventually_nonneg(x) and not (x.is_number and x == 0)


# --------------------------------------------------------------------------- tests


def _terms_not_to_zero(lo, hi, exact, how):
    if _smooth(lo) and lo.has(N):
        lim = limit_at_infinity(lo)
        if lim is not None and lim.is_number and (lim == sp.oo or _sign_of_const(lim) == 1):
            what = "b_n" if exact else f"the lower bound {lo} of b_n"
            return Decision(
                False,
                f"terms do not tend to 0: lim {what} = {lim} > 0" + ("" if exact else f" ({how})"),
                test="terms not -> 0",
                details={"limit": str(lim)},
            )
    elif not lo.has(N) and _sign_of_const(lo) == 1:
        return Decision(
            False,
            f"terms do not tend to 0: b_n >= {lo} > 0 for all large n ({how})",
            test="terms not -> 0",
            details={"lower_bound": str(lo)},
        )
    if _smooth(hi) and hi.has(N):
        lim = limit_at_infinity(hi)
        if lim is not None and lim.is_number and (lim == -sp.oo or _sign_of_const(lim) == -1):
            return Decision(
                False,
                f"terms do not tend to 0: lim of the upper bound {hi} = {lim} < 0",
                test="terms not -> 0",
            )
    return None


#: iterated-log levels of the logarithmic test (level L compares with
#: 1/(n log(n) ... log_(L-1)(n) log_L(n)^p), log_j the j-fold logarithm)
LOG_LEVELS = 6


def _log_j(j: int) -> str:
    return "n" if j == 0 else "log(" * j + "n" + ")" * j


def _level_name(level: int) -> str:
    num = " + ".join(["log(b_n)"] + [f"log({_log_j(j)})" for j in range(level)])
    return f"({num})/{_log_j(level + 1)}" if level else "log(b_n)/log(n)"


def _level_compare(level: int) -> str:
    if level == 0:
        return "n^(-p)"
    return "1/(" + " ".join([_log_j(j) for j in range(level)] + [f"{_log_j(level)}^p"]) + ")"


_NAMES = [_level_name(i) for i in range(LOG_LEVELS)]
_COMPARE_WITH = [_level_compare(i) for i in range(LOG_LEVELS)]


def _logs(g, level):
    """log g + log n + ... (level terms), and the normalising iterated log."""
    logs = [sp.log(N)]
    for _ in range(level):
        logs.append(sp.log(logs[-1]))
    k, rest = g.as_independent(N, as_Add=False)
    if k.is_number and k.is_positive and k != 1:  # expand_log loops on -cos(1 + pi/5)/n
        lg = sp.log(k) + sp.expand_log(sp.log(rest), force=True)
    else:
        lg = sp.expand_log(sp.log(g), force=True)
    return lg + sum(logs[:level], sp.Integer(0)), logs[level]


def _log_test(g, conv: bool, label: str, levels: int = LOG_LEVELS):
    """Logarithmic test (and iterated-log refinements) on a positive expression g."""
    if not g.has(N):
        return None
    for level in range(levels):
        num, den = _logs(g, level)
        lam = limit_at_infinity(num / den)
        if lam is None or not lam.is_number:
            return None
        if lam == -1:
            continue
        if conv and (lam == -sp.oo or lam < -1):
            return _log_cert(g, lam, level, label, True)
        if not conv and (lam == sp.oo or lam > -1):
            return _log_cert(g, lam, level, label, False)
        return None
    return None


def _log_cert(g, lam, level, label, conv):
    names = _NAMES
    comp = _COMPARE_WITH[level]
    test = (
        "logarithmic test (comparison with n^-p)"
        if level == 0
        else f"Bertrand / Cauchy condensation test, level {level} (comparison with {comp})"
    )
    if conv:
        p = "2" if lam == -sp.oo else f"any p in (1, {-lam})"
        cert = (
            f"{test}: lim {names[level]} = {lam} < -1 for {label}, so b_n <= {comp} "
            f"for all large n with p = {p}, and sum {comp} converges (p > 1)"
        )
    else:
        p = "1" if lam == sp.oo else f"any p in ({-lam}, 1)"
        cert = (
            f"{test}: lim {names[level]} = {lam} > -1 for {label}, so b_n >= {comp} "
            f"for all large n with p = {p}, and sum {comp} diverges (p <= 1)"
        )
    details = {"level": level, "limit": str(lam)}
    return Decision(conv, cert, test=test.split(" (")[0], details=details)


def _ratio_tests(b):
    ratio = sp.simplify(b.subs(N, N + 1) / b)
    rho = limit_at_infinity(ratio)
    if rho is not None and rho.is_number:
        if rho < 1:
            return Decision(True, f"ratio test: lim b_(n+1)/b_n = {rho} < 1", test="ratio test")
        if rho > 1:
            return Decision(False, f"ratio test: lim b_(n+1)/b_n = {rho} > 1", test="ratio test")
    raabe = limit_at_infinity(N * (1 / ratio - 1))
    if raabe is not None and raabe.is_number:
        if raabe > 1:
            return Decision(
                True, f"Raabe's test: lim n (b_n/b_(n+1) - 1) = {raabe} > 1", test="Raabe test"
            )
        if raabe < 1:
            return Decision(
                False, f"Raabe's test: lim n (b_n/b_(n+1) - 1) = {raabe} < 1", test="Raabe test"
            )
    return None


# --------------------------------------------------------------------------- parameters


def decide_positive(b: sp.Expr, params: list, start: int, level: int = 0) -> Decision:
    """Every parameter positive: the logarithmic test with the parameters symbolic (from
    iterated-log ``level`` on); the details hold ``region`` (where it converges, a
    condition on ``params``; absent when unsure) and ``points`` (sample values on the
    boundaries found)."""
    names = ", ".join(p.name for p in params)
    if not _smooth(b) or not (b.is_positive or _param_positive_eventually(b)):
        return Decision(
            None,
            f"undecided: with free parameters ({names}) only positive "
            "non-oscillating terms are analysed; give values with --param",
            test="parameters",
        )
    try:
        return _param_log_test(b, params, start, level)
    except (Undecided, StepTimeout) as exc:
        return Decision(None, f"undecided with free parameters ({names}): {exc}", test="parameters")
    except SeriesError:
        raise  # an invalid term (e.g. at a boundary value): decided by the caller
    except Exception as exc:  # noqa: BLE001 - sympy's solveset/limit failing inside: unsure
        return Decision(
            None,
            f"undecided with free parameters ({names}): the symbolic analysis "
            f"failed ({type(exc).__name__})",
            test="parameters",
        )


def _param_positive_eventually(b) -> bool:
    """b > 0 for all large n for every positive value of the parameters (Gruntz's sign)."""
    from sympy.series.gruntz import sign as gruntz_sign

    try:
        with step_budget(STEP_BUDGET):
            return gruntz_sign(b, N) == 1
    except Exception:  # noqa: BLE001 - unsure -> not positive
        return False


def _param_log_test(b, params, start, level=0):
    """The logarithmic test at ``level`` with positive parameters: lam < -1 converges,
    lam > -1 diverges, and the boundary lam = -1 is solved for one parameter, substituted
    and decided again over the remaining ones (the next iterated-log level among them)."""
    if level >= LOG_LEVELS:
        raise Undecided("borderline at every iterated-log level tried")
    num, den = _logs(b, level)
    lam = limit_at_infinity(num / den, check=False)
    if lam is None:
        raise Undecided("the logarithmic limit could not be computed")
    _check_param_limit(num / den, lam, params)
    if lam == -1:
        return _param_log_test(b, params, start, level + 1)
    if lam.is_number:
        conv = bool(lam == -sp.oo or lam < -1)
        cert = _log_cert(b, lam, level, "b_n", conv).certificate
        names = ", ".join(p.name for p in params)
        region = sp.true if conv else sp.false
        return Decision(
            conv,
            f"for all {names} > 0: {cert}",
            test="logarithmic test",
            details={"region": region, "points": []},
        )
    conv, div, edges = _split_limit(lam)
    region, points, undefined = conv, [], False
    for p, v in edges:
        sub, sub_points, sub_undefined = _edge_region(b, p, v, params, start, level)
        region = region | (sp.Eq(p, v) & sub)
        points += sub_points
        undefined = undefined or sub_undefined
    cert = (
        f"logarithmic test with parameters: lim {_NAMES[level]} = {lam}; < -1 (converges) "
        f"iff {bool_text(conv)}, > -1 (diverges) iff {bool_text(div)}"
        + "".join(f"; at {p} = {v} decided separately" for p, v in edges)
    )
    details = {"limit": str(lam), "region": region, "points": points, "undefined": undefined}
    return Decision(None, cert, test="logarithmic test with parameters", details=details)


def _split_limit(lam):
    """lam < -1 and lam > -1 as conditions on the positive parameters, and the boundary
    lam = -1 as pairs (parameter, value): values of one parameter (solveset) when lam
    depends on one, else the unique solution for one parameter in terms of the others."""
    syms = sorted(lam.free_symbols, key=lambda s: s.name)
    if len(syms) == 1:
        return _split_one(lam, syms[0])
    conv, div = normal_form(lam < -1), normal_form(lam > -1)
    if conv is sp.true or div is sp.true:  # on one side of -1 for all values
        return conv, div, []
    num, den = sp.fraction(sp.together(lam + 1))
    if not lam.is_rational_function(*syms) or not (den.is_positive or den.is_negative):
        raise Undecided(f"the limit {lam} is not a rational function of the parameters")
    for p in syms:  # lam = -1 linear in p, with a coefficient that never vanishes: unique
        poly = sp.Poly(num, p)
        if poly.degree() != 1:
            continue
        c1, c0 = poly.all_coeffs()
        if c1.is_positive or c1.is_negative:
            v = sp.simplify(-c0 / c1)
            edges = [] if v.is_positive is False else [(p, v)]
            return conv, div, edges
    raise Undecided(f"cannot solve {lam} = -1 for one parameter")


def _split_one(lam, p):
    pos = sp.Interval.open(0, sp.oo)
    with step_budget(2.0):
        conv_set = sp.solveset(lam < -1, p, pos)
        div_set = sp.solveset(lam > -1, p, pos)
        edge = sp.solveset(sp.Eq(lam, -1), p, pos)
    if not isinstance(edge, (sp.FiniteSet, sp.EmptySet.__class__)) or not all(
        isinstance(s, (sp.Interval, sp.Union, sp.FiniteSet, sp.EmptySet.__class__))
        for s in (conv_set, div_set)
    ):
        raise Undecided(f"cannot solve {lam} < -1 for {p}")
    if conv_set | div_set | edge != pos:
        raise Undecided(f"the sets where it converges/diverges do not cover {p} > 0")
    return _set_relation(conv_set, p), _set_relation(div_set, p), [(p, v) for v in edge]


def _edge_region(b, p, v, params, start, level):
    """The series on the boundary p = v decided over the parameters left (from the next
    iterated-log level: at this one the limit is -1 there by construction): where it
    converges there, up to three points on the boundary (values of all ``params``), and
    whether a term is undefined somewhere on it (those values are left out)."""
    bs = b.subs(p, v)
    rest = sorted(bs.free_symbols - {N}, key=lambda s: s.name)
    if rest:
        d = decide_positive(bs, rest, start, level + 1)
        region = d.details.get("region")
        inner = d.details.get("points", [])
        undefined = d.details.get("undefined", False)
    else:  # no parameter left; where a term is undefined the point is no admissible value
        try:
            d, undefined = decide_in_process(bs, start), False
        except SeriesError as exc:
            d, undefined = Decision(False, f"a term is not defined ({exc})"), True
        region = {True: sp.true, False: sp.false}.get(d.converges)
        inner = []
    if region is None:
        raise Undecided(f"at the boundary {p} = {v}: {d.certificate}")
    others = [q for q in params if q != p]
    points = []
    for w in inner + [{q: m for q in others} for m in PARAM_SAMPLES[:5]]:
        w = {q: w.get(q, PARAM_SAMPLES[2]) for q in others}
        value = v.subs(w)
        if value.is_positive and len(points) < 3:
            points.append({**w, p: value})
    return region, points, undefined


#: parameter values at which a symbolic limit is recomputed with the values substituted
PARAM_SAMPLES = (
    sp.Rational(1, 5),
    sp.Rational(1, 2),
    sp.Integer(1),
    sp.Rational(3, 2),
    sp.Integer(2),
    sp.Integer(5),
    sp.Integer(20),
)


def _sample_combos(params) -> list:
    """Values of the parameters for :func:`_check_param_limit`: all equal (seven values for
    one parameter, fewer for several, where the cases multiply), and four with the
    parameters apart (small and large alternating, increasing and decreasing)."""
    if len(params) == 1:
        return [{params[0]: v} for v in PARAM_SAMPLES]
    s = PARAM_SAMPLES
    equal = (s[0], s[1], s[2], s[4], s[5]) if len(params) == 2 else (s[0], s[2], s[5])
    lo, hi = s[0], s[-2]
    return [{p: v for p in params} for v in equal] + [
        {p: (lo if i % 2 else hi) for i, p in enumerate(params)},
        {p: (hi if i % 2 else lo) for i, p in enumerate(params)},
        {p: s[(i + 1) % len(s)] for i, p in enumerate(params)},
        {p: s[-(i + 2) % len(s)] for i, p in enumerate(params)},
    ]


def _check_param_limit(expr, lam, params):
    """Raise Undecided unless lam(params) agrees with the limit computed at sample values.

    sympy's limit with symbolic parameters silently assumes one case of a comparison that
    depends on them: it gave lim log(b)/log(n) = -k for n^-k + n^-(1/2) (true: max(-k, -1/2),
    so it always diverges), -1 for 1/(n^k + n) (true: -min(k, 1)) and -b for
    1/(n^a + n^b) (true: -max(a, b)); several parameters are also sampled apart."""
    for vals in _sample_combos(params):
        want = lam.subs(vals) if lam.free_symbols else lam
        got = limit_at_infinity(expr.subs(vals))
        if got is None or want is sp.nan or not want.is_number:
            raise Undecided(
                f"the symbolic limit {lam} could not be confirmed at "
                + ", ".join(f"{p} = {v}" for p, v in vals.items())
            )
        if got != want and not (
            got.is_finite and want.is_finite and abs(float(got - want)) < 1e-12
        ):
            raise Undecided(
                f"the symbolic limit {lam} is wrong at "
                + ", ".join(f"{p} = {v}" for p, v in vals.items())
                + f" (there the limit is {got}): sympy assumed a case of the parameters"
            )


# ------------------------------------------------------------ conditions on parameters

_FLIP = {
    sp.StrictLessThan: sp.StrictGreaterThan,
    sp.StrictGreaterThan: sp.StrictLessThan,
    sp.LessThan: sp.GreaterThan,
    sp.GreaterThan: sp.LessThan,
    sp.Equality: sp.Equality,
    sp.Unequality: sp.Unequality,
}
_OP_TEXT = {
    sp.StrictLessThan: "<",
    sp.StrictGreaterThan: ">",
    sp.LessThan: "<=",
    sp.GreaterThan: ">=",
    sp.Equality: "=",
    sp.Unequality: "!=",
}


def _normal_rel(rel):
    """``lam < -1`` as ``a + b > 1``: the parameters on the left (leading sign +), the
    constant on the right."""
    const, rest = sp.expand(rel.lhs - rel.rhs).as_coeff_Add()
    op = type(rel)
    if rest.could_extract_minus_sign():
        rest, const, op = -rest, -const, _FLIP[op]
    return op(rest, -const)


def normal_form(cond: sp.Basic | bool) -> sp.Basic | bool:
    """Every relation of a condition in the form of :func:`_normal_rel`."""
    rels = cond.atoms(sp.core.relational.Relational) if isinstance(cond, sp.Basic) else ()
    return cond.xreplace({r: _normal_rel(r) for r in rels if type(r) in _FLIP})


def bool_text(c: sp.Basic) -> str:
    """A condition as text: ``a + b > 1``, ``p > 1 or (p = 1 and q < -1)``."""
    if c is sp.true:
        return "always"
    if c is sp.false:
        return "never"
    if isinstance(c, sp.Or):
        parts = sorted((bool_text(a) for a in c.args), key=lambda t: (t.count(" and "), t))
        return " or ".join(f"({t})" if " and " in t else t for t in parts)
    if isinstance(c, sp.And):
        return " and ".join(sorted(bool_text(a) for a in c.args))
    if type(c) in _OP_TEXT:
        return f"{sp.sstr(c.lhs)} {_OP_TEXT[type(c)]} {sp.sstr(c.rhs)}"
    return str(c)


def _set_relation(s, p):
    """A subset of p > 0 (from solveset) as a condition on p."""
    if s is sp.EmptySet:
        return sp.false
    if isinstance(s, sp.FiniteSet):
        return sp.Or(*(sp.Eq(p, v) for v in s))
    if isinstance(s, sp.Union):
        return sp.Or(*(_set_relation(a, p) for a in s.args))
    if isinstance(s, sp.Interval):
        lo = (p > s.left) if s.left_open else (p >= s.left)
        hi = sp.true if s.right == sp.oo else (p < s.right) if s.right_open else (p <= s.right)
        return lo & hi
    raise Undecided(f"cannot write {s} as a condition on {p}")


def set_text(s: sp.Set, p: sp.Symbol, domain: sp.Set = sp.Interval.open(0, sp.oo)) -> str:
    """A set of values of p as text, the bounds of ``domain`` (p's admissible values)
    left out."""
    if s is sp.EmptySet:
        return "never"
    if isinstance(s, sp.Interval):
        lo = "" if s.left == -sp.oo else f"{p} {'>' if s.left_open else '>='} {s.left}"
        hi = "" if s.right == sp.oo else f"{p} {'<' if s.right_open else '<='} {s.right}"
        if (s.left, s.left_open) == (domain.inf, domain.left_open) and hi:
            lo = ""  # the domain's own bound, e.g. p > 0 for a positive parameter
        if (s.right, s.right_open) == (domain.sup, domain.right_open) and lo:
            hi = ""
        return " and ".join(x for x in (lo, hi) if x) or f"{p} real"
    if isinstance(s, sp.FiniteSet):
        return " or ".join(f"{p} = {v}" for v in s)
    if isinstance(s, sp.Union):
        return " or ".join(set_text(a, p, domain) for a in s.args)
    return str(s)


# --------------------------------------------------------------------------- sign cases

#: at most this many parameters of unknown sign are split into sign cases (3^3 = 27 cases)
MAX_SPLIT_PARAMS = 3
#: magnitudes of the sample values of the confirmation, by the number of nonzero parameters
_MAGNITUDES = {
    1: ("1/5", "1/2", "1", "3/2", "2", "5"),
    2: ("1/2", "1", "3/2", "2", "5"),
    3: ("1/2", "1", "2"),
}
#: values of each parameter at which the terms are checked to be defined
_DEFINED_SAMPLES = {
    1: PARAM_SAMPLES,
    2: (sp.S.Half, sp.Integer(1), sp.Integer(2)),
    3: (sp.S.Half, sp.Integer(2)),
}
_SIGN_TEXT = {1: "> 0", 0: "= 0", -1: "< 0"}
_SIGN_SETS = {1: sp.Interval.open(0, sp.oo), 0: sp.FiniteSet(0), -1: sp.Interval.open(-sp.oo, 0)}
_LITERALS = {
    frozenset({1}): lambda p: p > 0,
    frozenset({0}): lambda p: sp.Eq(p, 0),
    frozenset({-1}): lambda p: p < 0,
    frozenset({0, 1}): lambda p: p >= 0,
    frozenset({-1, 0}): lambda p: p <= 0,
    frozenset({-1, 1}): lambda p: sp.Ne(p, 0),
}


@dataclass
class _Case:
    """One sign case: ``region`` is where the series converges within it (a condition on
    the original parameters), None when the case is not settled."""

    signs: tuple
    label: str
    region: sp.Basic | None = None
    certificate: str = ""
    test: str = ""
    points: list = field(default_factory=list)  # sample points on boundaries
    undefined: bool = False  # a term is not defined at some values of the case


def admissible_signs(p: sp.Symbol) -> tuple:
    """The signs (1, 0, -1) a parameter may take under its assumptions."""
    for attr, signs in (
        ("is_positive", (1,)),
        ("is_negative", (-1,)),
        ("is_nonnegative", (1, 0)),
        ("is_nonpositive", (0, -1)),
    ):
        if getattr(p, attr):
            return signs
    return (1, 0, -1)


def decide_sign_cases(b: sp.Expr, start: int) -> Decision:
    r"""Free parameters over their whole range: sign cases decided one by one, then joined.

    Each free parameter is split into the sign cases :math:`> 0`, :math:`= 0`, :math:`< 0`
    (those ``--assume`` leaves open; at most :data:`MAX_SPLIT_PARAMS` parameters of unknown
    sign, i.e. 27 cases).  In each case the parameters are replaced by :math:`\pm q` with
    :math:`q` a positive symbol (or by 0) and the series is decided for all its values by the
    logarithmic test with symbolic parameters (:func:`~theory.series.convergence.decide_positive`,
    where the boundary :math:`\lambda = -1` is solved for one parameter and decided again).
    The cases' regions are joined into one condition, written with the fewest sign conditions
    the cases allow (e.g. ``converges iff p > 1 or (p = 1 and q < -1)``), and the condition is
    confirmed by the ordinary decision of the series with values substituted: at sample points
    inside each of its pieces in every sign case and on the boundaries found.  A contradiction,
    or a piece that no sample decides, gives *undecided*.

    >>> from theory.series.expressions import parse_expression as P
    >>> decide_sign_cases(P("n**(-a-b)", params=("a", "b")), 1).condition
    'converges iff a + b > 1'
    """
    params = sorted((s for s in b.free_symbols if s != N), key=lambda s: s.name)
    names = ", ".join(p.name for p in params)
    signs = [admissible_signs(p) for p in params]
    unknown = [p.name for p, s in zip(params, signs) if len(s) > 1]
    if len(unknown) > MAX_SPLIT_PARAMS:
        return Decision(
            None,
            f"undecided: the {len(unknown)} free parameters of unknown sign "
            f"({', '.join(unknown)}) would need {math.prod(map(len, signs))} sign cases; "
            f"at most {MAX_SPLIT_PARAMS} are split (state signs with --assume or give "
            "values with --param)",
            test="parameters",
            start=start,
        )
    cases = [_decide_case(b, params, s, start) for s in itertools.product(*signs)]
    try:
        d = _join(b, params, cases, start)
    except (Undecided, StepTimeout) as exc:
        d = Decision(None, f"undecided with free parameters ({names}): {exc}", test="parameters")
    except SeriesError:
        raise
    except Exception as exc:  # noqa: BLE001 - sympy failing while joining: unsure
        d = Decision(
            None,
            f"undecided with free parameters ({names}): joining the sign cases failed "
            f"({type(exc).__name__})",
            test="parameters",
        )
    d.start = start
    return d


def _decide_case(b, params, signs, start) -> _Case:
    """One sign case decided for all its values: p = q, 0 or -q with q > 0 symbolic."""
    subs, back = {}, {}
    for p, s in zip(params, signs):
        q = sp.Symbol(p.name if s > 0 else f"(-{p.name})", positive=True)
        subs[p] = s * q
        back.update({q: s * p} if s else {})
    case = _Case(signs, ", ".join(f"{p} {_SIGN_TEXT[s]}" for p, s in zip(params, signs)))
    bc = b.subs(subs)
    free = sorted(bc.free_symbols - {N}, key=lambda s: s.name)
    try:
        if bc.has(sp.zoo, sp.nan):
            raise SeriesError(f"b_n = {bc}")
        d = decide_positive(bc, free, start) if free else decide_in_process(bc, start)
    except SeriesError as exc:
        case.certificate = f"a term is not defined ({exc})"
        case.region, case.undefined = (None, False) if free else (sp.false, True)
        return case
    except Exception as exc:  # noqa: BLE001 - sympy failing inside: the case is unsettled
        case.certificate = f"the analysis failed ({type(exc).__name__})"
        return case
    case.certificate, case.test = d.certificate, d.test
    region = d.details.get("region") if free else {True: sp.true, False: sp.false}.get(d.converges)
    if region is not None:
        case.region = normal_form(region.xreplace(back))
        case.undefined = d.details.get("undefined", False)
        ones = {q: sp.Integer(1) for q in back}
        case.points = [
            {p: subs[p].xreplace({**ones, **w}) for p in params}
            for w in d.details.get("points", [])
        ]
    return case


def _join(b, params, cases, start) -> Decision:
    """The cases' regions as one condition, confirmed at sample values; the verdict only
    when the condition is the same for every admissible value."""
    single = len(cases) == 1
    cert = (
        cases[0].certificate
        if single
        else "; ".join(f"for {c.label}: {c.certificate}" for c in cases)
    )
    decided = [c for c in cases if c.region is not None]
    if not decided:
        return Decision(None, cert, test=cases[0].test if single else "parameters")
    cond = sp.Or(*(sp.And(*t) for t in _cover_terms(params, cases)))
    undefined = _confirm(b, params, cond, cases, start)
    undefined = (
        undefined
        or any(c.undefined for c in cases)
        or _undefined_somewhere(b, params, cases, start)
    )
    full = len(decided) == len(cases)
    text = _condition_text(params, cond, full)
    verdict = None
    if full and not undefined and cond in (sp.true, sp.false):
        verdict = cond is sp.true
    if not full:
        text = f"where {_domain_text(params, cases)} (other values undecided): {text}"
    if undefined:
        names = ", ".join(p.name for p in params)
        text += f" (among the values of {names} for which every term b_n, n >= {start}, is defined)"
    domain = (
        sp.Or(*(sp.And(*_case_literals(params, c.signs)) for c in decided)) if not full else sp.true
    )
    return Decision(
        verdict,
        cert,
        condition=text,
        test=cases[0].test if single else "parameters, case by case",
        details={"condition": cond, "domain": domain},
    )


def _case_literals(params, signs) -> list:
    return [_LITERALS[frozenset({s})](p) for p, s in zip(params, signs)]


def _clauses(region) -> list:
    """A region in disjunctive normal form: a list of conjunctions (tuples of relations)."""
    if region is None or region is sp.false:
        return []
    dnf = sp.to_dnf(region)
    terms = dnf.args if isinstance(dnf, sp.Or) else (dnf,)
    return [
        tuple(sorted(t.args, key=str)) if isinstance(t, sp.And) else (() if t is sp.true else (t,))
        for t in terms
    ]


def _cover_terms(params, cases) -> list:
    """The join of the cases' regions as a list of conjunctions: each conjunction of a
    case's region (its DNF) with the fewest sign conditions that keep it out of the cases
    where it would say more than their own region.  A conjunction may cover a case where,
    restricted to the case's signs, it is one of the case's own conjunctions (which it
    then stands for, e.g. a + b > 1 for b > 1 at a = 0), is false, or where the case's
    region is everything."""
    dummies = {p: sp.Dummy(p.name, positive=True) for p in params}

    def restrict(clause, signs):
        return _restrict(clause, {p: s * dummies[p] for p, s in zip(params, signs)})

    own = {
        c.signs: {restrict(k, c.signs) for k in _clauses(c.region)} - {None}
        for c in cases
        if c.region is not None
    }
    clauses = {k for c in cases for k in _clauses(c.region)}
    clauses = sorted(clauses, key=lambda k: (-sum(restrict(k, s) in own[s] for s in own), str(k)))
    covered, terms = set(), []
    for clause in clauses:
        matches = {s for s in own if restrict(clause, s) in own[s]}
        required = {s for s in matches if (s, restrict(clause, s)) not in covered}
        if not required:
            continue
        allowed = matches | {s for s in own if sp.true in own[s]}
        allowed |= {c.signs for c in cases if c.region is None}  # outside the claim
        allowed |= {c.signs for c in cases if restrict(clause, c.signs) is sp.false}
        for cube in _cover(required, allowed, params):
            terms.append(_cube_literals(params, cube) + list(clause))
            covered |= {(s, restrict(clause, s)) for s in itertools.product(*cube) if s in matches}
    return terms


def _restrict(clause, values):
    """A conjunction within a sign case (``values``: each parameter as +-q or 0 with q a
    positive symbol), in a form that compares: its set of values when one parameter is
    left (a**2 > 1 and a > 1 are the same for a > 0), else its normal form; None where
    it is undefined (a/b > 1 at b = 0)."""
    try:
        c = normal_form(sp.And(*clause).xreplace(values))
    except TypeError:
        return None
    if len(c.free_symbols) == 1 and c not in (sp.true, sp.false):
        try:
            where = c.as_set() & sp.Interval.open(0, sp.oo)
        except NotImplementedError:
            return c
        return {sp.EmptySet: sp.false, sp.Interval.open(0, sp.oo): sp.true}.get(where, where)
    return c


def _cube_literals(params, cube) -> list:
    """The sign conditions of a cube, those that the assumptions already state left out."""
    return [_LITERALS[s](p) for p, s in zip(params, cube) if s != frozenset(admissible_signs(p))]


def _cover(required: set, allowed: set, params) -> list:
    """Fewest sign cubes (a set of signs per parameter) covering ``required`` inside
    ``allowed``, greedily; fewer sign conditions first, then smaller cubes."""
    adm = [admissible_signs(p) for p in params]
    options = [
        [frozenset(c) for r in range(1, len(a) + 1) for c in itertools.combinations(a, r)]
        for a in adm
    ]
    cubes = []
    for cube in itertools.product(*options):
        inside = set(itertools.product(*cube))
        if inside <= allowed and inside & required:
            cubes.append((cube, inside, sum(len(s) < len(a) for s, a in zip(cube, adm))))
    chosen, left = [], set(required)
    while left:
        cube, inside, _ = max(cubes, key=lambda c: (len(c[1] & left), -c[2], -len(c[1])))
        chosen.append(cube)
        left -= inside
    return chosen


def _condition_text(params, cond, full) -> str:
    if cond in (sp.true, sp.false):
        word = "converges" if cond is sp.true else "diverges"
        return f"{word} for {_domain_phrase(params)}" if full else word
    if len(params) == 1:
        p = params[0]
        domain = sp.Union(*(_SIGN_SETS[s] for s in admissible_signs(p)))
        try:
            where = cond.as_set() & domain
        except NotImplementedError:
            return f"converges iff {bool_text(cond)}"
        if isinstance(domain - where, sp.FiniteSet):  # all but finitely many values
            return "converges iff " + " and ".join(f"{p} != {v}" for v in domain - where)
        return f"converges iff {set_text(where, p, domain)}"
    return f"converges iff {bool_text(cond)}"


def _domain_phrase(params) -> str:
    """The admissible values in words: ``all k, r > 0``, ``every real k``, ``all a > 0, real b``."""
    names = ", ".join(p.name for p in params)
    kinds = [admissible_signs(p) for p in params]
    if set(kinds) == {(1,)}:
        return f"all {names} > 0"
    if set(kinds) == {(1, 0, -1)}:
        return f"every real {names}"
    words = {(1,): "> 0", (-1,): "< 0", (1, 0): ">= 0", (0, -1): "<= 0"}
    return "all " + ", ".join(
        f"{p} {words[k]}" if k in words else f"real {p}" for p, k in zip(params, kinds)
    )


def _domain_text(params, cases) -> str:
    """The decided sign cases as a short condition (e.g. ``k >= 0 or r = 0``)."""
    decided = {c.signs for c in cases if c.region is not None}
    cubes = _cover(decided, decided, params)
    terms = [_cube_literals(params, cube) for cube in cubes]
    return bool_text(sp.Or(*(sp.And(*t) for t in terms)))


# ----------------------------------------------------------------- confirmation


def _grid(params, signs) -> list:
    """Sample points of one sign case: each nonzero parameter at a few magnitudes."""
    mags = [sp.Rational(m) for m in _MAGNITUDES.get(sum(1 for s in signs if s), ("1",))]
    axes = [[sp.Integer(0)] if s == 0 else [s * m for m in mags] for s in signs]
    return [dict(zip(params, values)) for values in itertools.product(*axes)]


def _confirm(b, params, cond, cases, start) -> bool:
    """Decide the series at sample values with the ordinary (no-parameter) decision: one
    or two points per piece of the condition in each settled sign case (the pieces: the
    truth values of its relations) and the boundary points found.  Raise ``Undecided``
    where the condition is contradicted or a piece is decided nowhere; True when a term
    was undefined at a sample point."""
    atoms = sorted(cond.atoms(sp.core.relational.Relational), key=str)
    per_piece = 2 if len(params) < 3 else 1
    groups = {}
    for c in cases:
        if c.region is not None:
            for pt in _grid(params, c.signs):
                key = (c.signs, tuple(_truth(a, pt) for a in atoms))
                groups.setdefault(key, []).append(pt)
    samples = [pts[:per_piece] for pts in groups.values()]
    samples += [[pt] for c in cases for pt in c.points]
    undefined, seen = False, {}
    for pts in samples:
        outcomes = [_check_point(b, cond, pt, start, seen) for pt in pts]
        if all(o == "undefined" for o in outcomes):
            undefined = True
            continue
        undefined = undefined or "undefined" in outcomes
        if True not in outcomes:
            raise Undecided(
                f"the condition could not be confirmed at {_at(pts[0])} "
                "(the series with these values is undecided)"
            )
    return undefined


def _check_point(b, cond, pt, start, seen):
    """True when the ordinary decision at ``pt`` agrees with ``cond``; None (undecided)
    or "undefined" (a term is not a finite real number); raise when it disagrees."""
    bs = b.subs(pt)
    if bs not in seen:
        try:
            seen[bs] = decide_in_process(bs, start).converges
        except SeriesError:
            seen[bs] = "undefined"
    got = seen[bs]
    if got is None or got == "undefined":
        return got
    want = _truth(cond, pt)
    if want is None:
        raise Undecided(f"the condition cannot be evaluated at {_at(pt)}")
    if want != got:
        raise Undecided(
            f"the condition is contradicted at {_at(pt)}: there the series "
            f"{'converges' if got else 'diverges'}"
        )
    return True


def _truth(cond, point) -> bool | None:
    """The truth of a condition at values of its parameters, None where it cannot be told:
    a relation undefined there (a/b > 1 at b = 0) matters only where the rest of its
    conjunction or disjunction does not decide."""
    if isinstance(cond, (sp.Or, sp.And)):
        values = [_truth(a, point) for a in cond.args]
        decisive = isinstance(cond, sp.Or)  # True decides an Or, False an And
        return decisive if decisive in values else (None if None in values else not decisive)
    try:
        value = cond.xreplace(point)
    except TypeError:
        return None
    return {sp.true: True, sp.false: False}.get(value)


def holds(cond: sp.Basic, point: dict) -> bool:
    """Whether a condition of :func:`decide_sign_cases` (``details["condition"]``) holds
    at the given values; ValueError where it cannot be told."""
    value = _truth(cond, point)
    if value is None:
        raise ValueError(f"the condition {cond} cannot be evaluated at {_at(point)}")
    return value


def _at(pt) -> str:
    return ", ".join(f"{p} = {v}" for p, v in pt.items())


def _undefined_somewhere(b, params, cases, start) -> bool:
    """True when a term is not a finite real number at one of the sample values of the
    parameters in the settled sign cases: the condition then covers only the values
    where the series is defined (e.g. (1 + k n)^-2 at k = -1/2, n = 2)."""
    mags = _DEFINED_SAMPLES[min(len(params), 3)]
    for c in cases:
        if c.region is None:
            continue
        axes = [[sp.Integer(0)] if s == 0 else [s * m for m in mags] for s in c.signs]
        for values in itertools.product(*axes):
            try:
                check_terms(b.subs(dict(zip(params, values))), start, count=16)
            except Exception:  # noqa: BLE001 - SeriesError or evaluation trouble: undefined
                return True
    return False
