r"""The decision for a series without free parameters: an ordered table of tests.

:func:`decide_numeric` runs :data:`STEPS` in order on the terms :math:`b_n`; each step
says which series it applies to and returns a verdict, or ``None`` to pass on (a step
may also raise :class:`~theory.series.decision.Undecided`, which ends the decision with
*undecided*).  The first verdict is the answer.  A new test joins by one line in the
table; its place in the order matters, since the verdicts are built to be never wrong
and the earlier, cheaper and more certain tests come first.

The bounds ``lo <= b_n <= hi`` for large n (:func:`theory.series.bounds.bounds_or_none`)
are computed once, when a step first needs them; the tests for terms of one sign use them
as minorant and majorant, the tests for terms of changing sign come last.
:func:`check_terms` refuses terms that are not finite real numbers and
:func:`decide_terms` is the whole decision (what :func:`theory.series.convergence.decide`
runs for a series without parameters).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import mpmath
import sympy as sp
from sympy.calculus.singularities import singularities

from theory.core.budget import StepTimeout, step_budget
from theory.series.abs_trig_means import abs_trig_mean_zero_test
from theory.series.angle_means import (
    angle_mean_test,
    max_min_rewrite_test,
    near_zero_angle_test,
    proved_positive,
)
from theory.series.beatty_signs import beatty_sign_test
from theory.series.binomial_family import binomial_test
from theory.series.bounds import bounds_or_none
from theory.series.comparison_tests import (
    gamma_ratio_test,
    log_test,
    positive_fast_path,
    ratio_tests,
    terms_not_to_zero,
)
from theory.series.decision import (
    Decision,
    SeriesError,
    Undecided,
    free_parameters,
    split_negative_bases,
)
from theory.series.exp_atom_tail import exp_atom_test
from theory.series.expansions import expansion_test
from theory.series.expressions import N
from theory.series.floor_root_blocks import floor_root_test
from theory.series.integral_oscillation import integral_oscillation_test
from theory.series.limits import (
    CHECK_POINTS,
    eventually_nonneg,
    eventually_positive,
    mp_function,
    nonzero_constant,
    smooth,
)
from theory.series.log_scale import FACTORIALS, log_scale_region
from theory.series.max_min_bounds import max_min_bound_test
from theory.series.near_angle import near_angle_test
from theory.series.oscillating_exponent import oscillating_exponent_test
from theory.series.oscillating_parts import collected_factor_test, oscillating_part_test
from theory.series.rare_angles import rare_angle_test
from theory.series.scale_comparison import scale_comparison_test
from theory.series.sign_blocks import sign_block_test
from theory.series.sign_changing import (
    abel_test,
    alternating_ratio_test,
    dirichlet_test,
    minorant_test,
    oscillation_not_to_zero_test,
    recurrence_test,
    residue_class_test,
    summand_test,
)
from theory.series.small_sines import small_sine_test
from theory.series.weyl_sums import weyl_sum_test


def check_terms(b: sp.Expr, start: int, count: int = 64) -> None:
    """Raise :class:`SeriesError` unless ``b_n`` is finite and real for the first terms
    and at a few large indices (n = 10^3 ... 10^24)."""
    if free_parameters(b):
        return
    mp_function(b)  # refuses zoo, nan, oo
    f = sp.lambdify(N, b, modules=[{"exp": _exp_within_range}, "mpmath"])
    idx = list(range(start, start + count)) + [n for n in CHECK_POINTS if n > start + count]
    idx += _integer_singularities(b, start)
    for n in idx:
        try:
            v = _term_value(f, n)
        except (StepTimeout, _Astronomical):
            return  # astronomically large or small terms: nothing more to check here
        except (ZeroDivisionError, ValueError, OverflowError, TypeError, KeyError) as exc:
            why = str(exc) or type(exc).__name__.replace("ZeroDivisionError", "division by zero")
            raise SeriesError(
                f"term b_{n} (n = start = {start}) cannot be evaluated ({why})"
                if n == start
                else f"term b_{n} cannot be evaluated ({why})"
            ) from None
        if v is None:
            raise SeriesError(f"term b_{n} is undefined (no Piecewise branch applies)")
        if isinstance(v, mpmath.mpc):
            if abs(v.imag) > 1e-25 * max(1, abs(v.real)):
                raise SeriesError(
                    f"term b_{n} = {mpmath.nstr(v, 6)} is not a real number"
                    + (" (n = start)" if n == start else "")
                )
            v = v.real
        if not mpmath.isfinite(v):
            raise SeriesError(
                f"term b_{n} = {v} is not a finite number" + (" (n = start)" if n == start else "")
            )


#: working precisions (decimal digits) of the term check: a term that is not a finite real
#: number at one is evaluated again at the next, since cancellation (1 - cos(1/n) at
#: n = 10^24 is 0 at 30 digits) makes a defined term look undefined; an exact pole stays one
CHECK_DPS = (30, 120, 480)


def _term_value(f, n: int):
    """b_n as an mpmath number at the first precision of :data:`CHECK_DPS` where it is a
    finite real number (or the value or error at the last); None where no Piecewise branch
    applies."""
    for dps in CHECK_DPS:
        last = dps == CHECK_DPS[-1]
        with mpmath.workdps(dps):
            try:
                with step_budget(0.25):
                    v = f(mpmath.mpf(n))
                v = v if v is None else mpmath.mpmathify(v)
            except (ZeroDivisionError, ValueError, OverflowError):
                if last:
                    raise
                continue
        if v is None or last or _finite_real(v):
            return v


def _finite_real(v) -> bool:
    """A finite real number, or a complex one whose imaginary part is rounding."""
    real = v.real if isinstance(v, mpmath.mpc) else v
    return bool(mpmath.isfinite(real)) and (
        not isinstance(v, mpmath.mpc) or abs(v.imag) <= 1e-25 * max(1, abs(real))
    )


class _Astronomical(ArithmeticError):
    """exp of an argument beyond 2^64 in size: its value is finite and positive, but mpmath
    would reduce the argument at as many bits as its binary exponent has."""


#: arguments of exp up to 2^EXP_ARGUMENT_BITS in size are evaluated (e^(2^64) has a binary
#: exponent of 64 bits: still an ordinary mpmath number)
EXP_ARGUMENT_BITS = 64


def _exp_within_range(x):
    """mpmath.exp(x), or :class:`_Astronomical` for a real x with |x| >= 2^64: exp(-3**(10**10))
    took mpmath 2.6 GB and seconds in one C call that no step timer interrupts.

    >>> _exp_within_range(mpmath.mpf(2)) == mpmath.exp(2)
    True
    >>> _exp_within_range(-mpmath.mpf(3) ** (10**10))  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ...
    theory.series.numeric._Astronomical: exp of an argument of 15849625008 bits
    """
    v = mpmath.mpmathify(x)
    if isinstance(v, mpmath.mpf) and mpmath.isfinite(v) and v:
        man, exp = v.man_exp
        size = int(exp) + int(man).bit_length()
        if size > EXP_ARGUMENT_BITS:
            raise _Astronomical(f"exp of an argument of {size} bits")
    return mpmath.exp(v)


def _integer_singularities(b, start) -> list:
    """Integers n >= start where sympy finds a singularity of b (checked numerically after)."""
    try:
        with step_budget(1.0):
            sing = singularities(b, N)
    except Exception:  # noqa: BLE001 - no information: nothing to add
        return []
    if not isinstance(sing, sp.FiniteSet):
        return []
    return sorted(int(r) for r in sing if r.is_integer and r >= start)[:16]


def zero_at_integers(b: sp.Expr) -> bool:
    """True when sympy's automatic evaluation with an integer n makes b exactly 0
    (``sin(pi*n)``, ``cos(pi*n)**2 - 1``): every term of the series is 0."""
    k = sp.Symbol("n", integer=True, positive=True)
    try:
        return b.has(N) and b.subs(N, k) == 0
    except Exception:  # noqa: BLE001 - no evaluation: not known to be 0
        return False


@dataclass
class Terms:
    """The terms b_n under decision, with what the steps learn about them on the way:
    the bounds ``lo <= b_n <= hi`` for large n (computed when first needed) and the
    eventual sign they show."""

    b: sp.Expr

    @functools.cached_property
    def _bounds(self) -> tuple:
        return bounds_or_none(self.b)

    @property
    def lo(self) -> sp.Expr | None:
        return self._bounds[0]

    @property
    def hi(self) -> sp.Expr | None:
        return self._bounds[1]

    @property
    def how(self) -> str:
        """How the bounds were found (for the certificate)."""
        return self._bounds[2]

    @property
    def exact(self) -> bool:
        """The bounds coincide: b_n is known exactly for large n."""
        return self.lo is not None and self.lo == self.hi

    @functools.cached_property
    def sign(self) -> int:
        """+1 when lo >= 0 for large n, -1 when hi <= 0 (and not lo >= 0), else 0."""
        nonneg = self.lo is not None and eventually_nonneg(self.lo)
        nonpos = not nonneg and self.hi is not None and eventually_nonneg(-self.hi)
        return 1 if nonneg else -1 if nonpos else 0

    @property
    def one_signed(self) -> bool:
        return self.lo is not None and self.sign != 0

    @property
    def signed_b(self) -> sp.Expr:
        """b_n, or -b_n when the terms are <= 0 for large n."""
        return self.b if self.sign > 0 else -self.b


@dataclass(frozen=True)
class Step:
    """One test of the table: ``run`` is tried on the terms where ``applies`` holds."""

    name: str
    applies: Callable[[Terms], bool]
    run: Callable[[Terms], Decision | None]


def _always(t: Terms) -> bool:
    return True


def _has_trig(t: Terms) -> bool:
    return t.b.has(sp.sin, sp.cos)


def _factorial_like(t: Terms) -> bool:
    return t.b.has(sp.gamma, *FACTORIALS)


def _stirling_scale(t: Terms) -> Decision | None:
    """Positive terms built from Gamma functions, powers, exponentials and logarithms
    compared with :math:`e^{\\sigma n \\log n} e^{\\gamma n} n^{e_0} \\log(n)^{e_1} \\cdots`
    by Stirling's formula (:func:`theory.series.log_scale.log_scale_region`: the limit of
    the quotient is a positive constant, so the series converges iff the exponents are
    lexicographically negative).  ``exp(n)*factorial(n)/(n**n*(n+1)**(3/2))``: the
    quotient by 1/n tends to sqrt(2 pi), so it diverges, where the ratio test's
    Raabe limit is 1 and Gauss's second-order term needs slow limits."""
    scale = log_scale_region(t.b, 1, budget=STIRLING_BUDGET)
    if scale is None or scale.region not in (sp.true, sp.false):
        return None
    return Decision(scale.region is sp.true, scale.certificate(), test="log-scale rule")


def _zero_at_integers(t: Terms) -> bool:
    return zero_at_integers(t.b)


def _zero_terms(t: Terms) -> Decision:
    return Decision(
        True,
        "every term is 0: with n an integer the terms evaluate to 0 "
        f"exactly ({t.b} = 0); the series is a sum of zeros",
        test="zero terms",
    )


def _constant_tail(t: Terms) -> bool:
    return t.lo is not None and not t.lo.has(N) and t.lo == t.hi


def _eventually_constant(t: Terms) -> Decision:
    c = t.lo
    if c.is_zero:
        return Decision(
            True,
            f"eventually zero: b_n = 0 for all large n ({t.how}); the series is a finite sum",
            test="eventually constant",
        )
    if not nonzero_constant(c):
        raise Undecided(f"eventually constant tail {c}: cannot tell whether it is 0")
    return Decision(
        False,
        f"eventually constant tail: b_n = {c} != 0 for all large n "
        f"({t.how}); the terms do not tend to 0",
        test="eventually constant",
    )


def _exact_positive(t: Terms) -> bool:
    return t.exact and t.lo.has(N) and t.lo.is_positive and smooth(t.lo)


def _bounded(t: Terms) -> bool:
    return t.lo is not None


def _one_signed(t: Terms) -> bool:
    return t.one_signed


def _one_signed_exact(t: Terms) -> bool:
    return t.one_signed and t.exact


def _changing_sign(t: Terms) -> bool:
    return not t.one_signed


def _difference(t: Terms) -> bool:
    """A difference at the top with functions other than rational ones (``pi/2 - atan(n)``,
    ``exp(exp(-n)) - 1``): a cancellation the bounds may not see through, for the limit
    comparison before the slower tests."""
    b = t.b
    if not (b.is_Add and b.has(N)) or b.free_symbols - {N} or b.is_rational_function(N):
        return False
    return any(a.could_extract_minus_sign() for a in b.args)


def _bounded_changing_sign(t: Terms) -> bool:
    return t.lo is not None and not t.one_signed


def _bound_note(t: Terms) -> str:
    sign = "" if t.sign > 0 else "-"
    upper, lower = (t.hi, t.lo) if t.sign > 0 else (-t.lo, -t.hi)
    if t.exact:
        return ""
    return f" ({sign}b_n lies between {lower} and {upper} for large n: {t.how})"


def _one_signed_log_test(conv: bool) -> Callable[[Terms], Decision | None]:
    """The logarithmic test on the majorant (conv) or the minorant of +-b_n."""

    def run(t: Terms) -> Decision | None:
        sign = "" if t.sign > 0 else "-"
        upper, lower = (t.hi, t.lo) if t.sign > 0 else (-t.lo, -t.hi)
        bound, what = (upper, "majorant") if conv else (lower, "minorant")
        d = log_test(bound, conv=conv, label=f"{sign}b_n" if t.exact else f"the {what} {bound}")
        if d:
            d.certificate += _bound_note(t)
        return d

    return run


def _one_signed_minorant(t: Terms) -> Decision | None:
    d = minorant_test(t.signed_b)
    if d and d.test == "trigonometric minorant" and t.sign < 0:
        d.certificate = "for -b_n (b_n <= 0 for large n): " + d.certificate
    return d


def _one_signed_exponent(t: Terms) -> Decision | None:
    d = oscillating_exponent_test(t.signed_b)
    if d and t.sign < 0:
        d.certificate = "for -b_n (b_n <= 0 for large n): " + d.certificate
    return d


def _give_up(why: str) -> Callable[[Terms], Decision | None]:
    def run(t: Terms) -> Decision | None:
        raise Undecided(why)

    return run


def _unsettled_sign(t: Terms) -> Decision | None:
    if proved_positive(t.b):
        raise Undecided(
            "terms positive (from the form of b_n) but no bound found for the "
            "comparison tests, and no other test settled the series"
        )
    raise Undecided(
        "terms not proved of one sign (no bounds show it) and no absolutely "
        "convergent majorant found"
    )


def _reciprocal_bounds(t: Terms) -> Decision | None:
    """b_n > 0 from its form (:func:`~theory.series.angle_means.proved_positive`) while
    b_n itself has no bounds: lo <= 1/b_n <= hi gives 1/hi <= b_n (hi > 0) and b_n <= 1/lo
    (lo > 0), and the logarithmic test on them (``1/(n + n*sin(n)) >= 1/(2n)``)."""
    if not proved_positive(t.b):
        return None
    lo, hi, how = bounds_or_none(sp.powsimp(1 / t.b))
    if lo is None:
        return None
    note = f" (b_n > 0 from its form, and 1/b_n lies between {lo} and {hi} for large n: {how})"
    for conv, bound in ((False, hi), (True, lo)):
        if bound.has(N) and eventually_positive(bound):
            what = "majorant" if conv else "minorant"
            d = log_test(1 / bound, conv=conv, label=f"the {what} {1 / bound}")
            if d:
                d.certificate += note
                return d
    return None


def _absolute_majorant(t: Terms) -> Decision | None:
    lo, hi = t.lo, t.hi
    major = sp.Abs(lo) if t.exact else sp.Abs(lo) + sp.Abs(hi)
    d = log_test(major, conv=True, label=f"the majorant |lo|+|hi| = {major}")
    if d:
        d.certificate = (
            "absolute convergence: "
            + d.certificate
            + f" (b_n lies between {lo} and {hi} for large n: {t.how})"
        )
    return d


def _oscillating_part(t: Terms) -> Decision | None:
    return oscillating_part_test(t.b, decide_numeric)


#: CPU seconds for Stirling's scale on factorial-like terms (it passes on past them)
STIRLING_BUDGET = 1.0

#: the tests in the order they are tried; the first verdict is the answer
STEPS: tuple[Step, ...] = (
    Step("zero terms", _zero_at_integers, _zero_terms),
    Step("factorial-like: Stirling's scale", _factorial_like, _stirling_scale),
    Step("factorial-like: ratio/Raabe/Gauss", _always, lambda t: gamma_ratio_test(t.b)),
    Step("binomial series", lambda t: t.b.has(sp.binomial), lambda t: binomial_test(t.b)),
    Step("alternating: ratio test", _always, lambda t: alternating_ratio_test(t.b)),
    Step("residue classes", _always, lambda t: residue_class_test(t.b, decide_numeric)),
    Step("floor blocks", lambda t: t.b.has(sp.floor), lambda t: _floor_blocks(t.b)),
    # lo <= b_n <= hi for large n from here on (lo None: no bounds found)
    Step("eventually constant", _constant_tail, _eventually_constant),
    Step("positive: logarithmic test", _exact_positive, lambda t: positive_fast_path(t.lo)),
    Step("terms not -> 0", _bounded, lambda t: terms_not_to_zero(t.lo, t.hi, t.exact, t.how)),
    Step("near zeros of sin, cos", _has_trig, lambda t: near_zero_angle_test(t.b)),
    # terms of one sign for large n
    Step("difference: limit comparison", _difference, lambda t: scale_comparison_test(t.b)),
    Step("one sign: majorant", _one_signed, _one_signed_log_test(conv=True)),
    Step("one sign: minorant", _one_signed, _one_signed_log_test(conv=False)),
    Step("one sign: ratio/Raabe", _one_signed_exact, lambda t: ratio_tests(t.signed_b)),
    Step("one sign: recurrence", _one_signed, lambda t: recurrence_test(t.b)),
    Step("one sign: trig minorant", _one_signed, _one_signed_minorant),
    Step("one sign: sum of series", _one_signed, lambda t: summand_test(t.b, decide_numeric)),
    Step("one sign: equidistribution", _one_signed, lambda t: angle_mean_test(t.b)),
    Step("one sign: expansion", _one_signed, lambda t: expansion_test(t.b, decide_numeric)),
    Step("one sign: oscillating part", _one_signed, _oscillating_part),
    Step("one sign: Max/Min", _one_signed, lambda t: max_min_bound_test(t.b, decide_numeric)),
    Step("one sign: oscillating exponent", _one_signed, _one_signed_exponent),
    Step("analytic in e^(-lambda n)", _always, lambda t: exp_atom_test(t.b)),
    Step("one sign: limit comparison", _one_signed, lambda t: scale_comparison_test(t.b)),
    Step("one sign: near an angle", _one_signed, lambda t: near_angle_test(t.b)),
    Step("one sign: rare angles", _one_signed, lambda t: rare_angle_test(t.b)),
    Step(
        "one sign: small sines", _one_signed, lambda t: small_sine_test(t.signed_b, decide_numeric)
    ),
    Step(
        "one sign: no answer",
        _one_signed,
        _give_up("the logarithmic, ratio and Raabe tests gave no answer"),
    ),
    # terms of changing sign
    Step("oscillation not -> 0", _changing_sign, lambda t: oscillation_not_to_zero_test(t.b)),
    Step("positive: bounds of 1/b_n", _changing_sign, _reciprocal_bounds),
    Step("absolute convergence", _bounded_changing_sign, _absolute_majorant),
    Step("recurrence", _changing_sign, lambda t: recurrence_test(t.b)),
    Step("Dirichlet", _changing_sign, lambda t: dirichlet_test(t.b, decide_numeric)),
    Step("Beatty sign", _changing_sign, lambda t: beatty_sign_test(t.b, decide_numeric)),
    Step("Weyl sums", _changing_sign, lambda t: weyl_sum_test(t.b, decide_numeric)),
    Step("trig minorant", _changing_sign, lambda t: minorant_test(t.b)),
    Step("sum of series", _changing_sign, lambda t: summand_test(t.b, decide_numeric)),
    Step("oscillating part", _changing_sign, _oscillating_part),
    Step(
        "collected oscillating factor",
        _changing_sign,
        lambda t: collected_factor_test(t.b, decide_numeric),
    ),
    Step("Abel", _changing_sign, lambda t: abel_test(t.b, decide_numeric)),
    Step("equidistribution", _changing_sign, lambda t: angle_mean_test(t.b)),
    Step("Max/Min arguments", _changing_sign, lambda t: max_min_bound_test(t.b, decide_numeric)),
    Step("Max/Min as Abs", _changing_sign, lambda t: max_min_rewrite_test(t.b, decide_numeric)),
    Step("expansion", _changing_sign, lambda t: expansion_test(t.b, decide_numeric)),
    Step("sign blocks", _changing_sign, lambda t: sign_block_test(t.b)),
    Step(
        "mean-zero |sin|, |cos|",
        _changing_sign,
        lambda t: abs_trig_mean_zero_test(t.b, decide_numeric),
    ),
    Step("limit comparison", _changing_sign, lambda t: scale_comparison_test(t.b)),
    Step("integral of f", _changing_sign, lambda t: integral_oscillation_test(t.b)),
    Step("near an angle", _changing_sign, lambda t: near_angle_test(t.b)),
    Step("rare angles", _changing_sign, lambda t: rare_angle_test(t.b)),
    Step("small sines", _changing_sign, lambda t: small_sine_test(t.b, decide_numeric)),
    Step("changing sign: no answer", _changing_sign, _unsettled_sign),
)


def _floor_blocks(b: sp.Expr) -> Decision | None:
    """:func:`theory.series.floor_root_blocks.floor_root_test` with this table's verdicts."""

    def decide(h: sp.Expr, k0: int) -> Decision:
        try:
            return decide_numeric(h)
        except Undecided as exc:
            return Decision(None, str(exc))

    return floor_root_test(b, 1, decide)


def decide_numeric(b: sp.Expr) -> Decision:
    """The first verdict of :data:`STEPS` on ``b`` (no free parameters); raise
    :class:`~theory.series.decision.Undecided` when no step gives one (each kind of
    terms ends in a step that gives up with the reason).

    >>> from theory.series.expressions import parse_expression as P
    >>> decide_numeric(P("cos(n)/n**2")).certificate[:43]
    'absolute convergence: logarithmic test (com'
    """
    t = Terms(split_negative_bases(b))
    for step in STEPS:
        if step.applies(t):
            d = step.run(t)
            if d:
                return d
    raise Undecided("no test applied")  # not reached: the last steps of each kind give up


def decide_terms(b: sp.Expr, start: int) -> Decision:
    """The decision for ``sum_{n >= start} b_n`` without free parameters: the terms are
    checked (:class:`~theory.series.decision.SeriesError` where one is not a finite real
    number), then :func:`decide_numeric`, undecided where it gives no verdict."""
    check_terms(b, start)
    try:
        d = decide_numeric(b)
    except (Undecided, StepTimeout) as exc:
        d = Decision(None, f"undecided: {exc or 'no test applied'}", test="none")
    d.start = start
    return d
