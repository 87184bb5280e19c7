r"""Tests for terms whose sign keeps changing, or whose oscillation defeats the bounds.

* residue classes (:func:`residue_class_test`): periodic factors ((-1)**n, cos(pi*n),
  (-1)**floor(n/2)) split by residue class n = L m + r; a class not tending to 0 decides
  divergence, otherwise the classes one by one or the grouped series decide;
* recurrence and density (:func:`recurrence_test`): b_n depending on n only through
  cos/sin(a n + c) comes back near its value at 0 infinitely often (Dirichlet's
  simultaneous approximation, Weyl/Kronecker), so the terms do not tend to 0;
* Dirichlet's test on frequencies (:func:`dirichlet_test`), Abel's test
  (:func:`abel_test`), a trigonometric-polynomial minorant of positive mean for
  nonnegative oscillating terms (:func:`minorant_test`, divergence), and the sum of
  series term by term (:func:`summand_test`).

Tests that decide a smaller series on the way (a residue class, the envelope g of
g(n) p(n), a summand) take the decision to use as ``decide``
(:func:`theory.series.numeric.decide_numeric`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import mpmath
import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.comparison_tests import log_test
from theory.series.decision import Decision, SeriesError, Undecided
from theory.series.eventual_signs import periodic_pieces
from theory.series.expressions import N
from theory.series.limits import (
    STEP_BUDGET,
    eventual_sign,
    eventually_nonneg,
    limit_at_infinity,
    nonzero_constant,
    robust_value,
    smooth,
)
from theory.series.periodic import residue_classes
from theory.series.periodic_means import analytic_periodic, analytic_periodic_mean
from theory.series.trig_minorants import (
    IN_2PI_Z_REASON,
    frequency_pieces,
    mean_and_frequencies,
    piecewise_rest,
    split_minorant,
)

#: the decision of a series without parameters, used by the tests on smaller series
Decide = Callable[[sp.Expr], Decision]


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
def alternating_ratio_test(b: sp.Expr) -> Decision | None:
    r""":math:`b_n = (-1)^n h(n)`, h smooth, :math:`|h(n+1)/h(n)| \to \rho \ne 1`: the ratio
    test on :math:`|b_n|` (absolute convergence for :math:`\rho < 1`, :math:`|b_n| \to
    \infty` for :math:`\rho > 1`), before the residue classes, which take longer.

    >>> from theory.series.expressions import parse_expression as P
    >>> alternating_ratio_test(P("(-1)**n*2**n/n**3")).converges
    False
    """
    sign = sp.Pow(-1, N)
    if not (b.is_Mul and sign in b.args):
        return None
    h = b / sign
    if not h.has(N) or not smooth(h):
        return None
    rho = limit_at_infinity(sp.Abs(sp.powsimp(h.subs(N, N + 1) / h, force=True)))
    if rho is None or not rho.is_number or rho == 1 or rho is sp.nan:
        return None
    if rho == sp.oo or rho > 1:
        return Decision(
            False,
            f"ratio test on |b_n| = |{h}|: |b_(n+1)/b_n| -> {rho} > 1, so |b_n| grows and "
            "the terms do not tend to 0",
            test="ratio test",
        )
    return Decision(
        True,
        f"ratio test on |b_n| = |{h}|: |b_(n+1)/b_n| -> {rho} < 1 (absolute convergence)",
        test="ratio test",
    )


@_optional_test
def residue_class_test(b: sp.Expr, decide: Decide) -> Decision | None:
    r"""Periodic factors ((-1)**n, cos(pi*n), (-1)**floor(n/2)) split by residue class
    n = L m + r (:mod:`theory.series.periodic`): a class whose terms do not tend to 0
    decides divergence; when every class tends to 0 the grouped series
    :math:`\sum_m \sum_r b_{Lm+r}` has the verdict of the series; every class convergent
    gives convergence.

    >>> from theory.series.expressions import parse_expression as P
    >>> from theory.series.numeric import decide_numeric
    >>> residue_class_test(P("(-1)**n/sqrt(n)"), decide_numeric).converges
    True
    >>> residue_class_test(P("n**((-1)**n - 1)"), decide_numeric).converges       # 1 at every even n
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
        if lim is not None and lim.is_number and (lim.is_infinite or nonzero_constant(lim)):
            return Decision(
                False,
                f"terms do not tend to 0: b_({L}m+{r}) -> {lim} ({where})",
                test="residue classes",
            )
    if all(lim == 0 for lim in lims):
        # (-1)**n (n**(1/n) - 1): Dirichlet's test first; deciding its two divergent classes
        # of opposite signs costs seconds and settles nothing
        d = periodic_dirichlet_test(b) if _periodic_sign(b) else None
        d = d or _class_by_class(classes, where, decide)
        if d is None and not (b.has(sp.floor, sp.ceiling, sp.frac) or _periodic_sign(b)):
            d = dirichlet_test(b, decide)  # sin/cos(r pi n) alone: cheaper than the grouped series
        elif d is None and not _periodic_sign(b):
            d = periodic_dirichlet_test(b)  # a periodic sign of mean 0: cheaper still
        return d or _grouped_verdict(classes, where, decide)
    return None


def periodic_dirichlet_test(b: sp.Expr) -> Decision | None:
    r"""Dirichlet's test for a periodic factor: :math:`b_n = g(n) s(n)` with s periodic of
    period q and constant on the residue classes, of mean 0, so
    :math:`s(n) = \sum_{0<k<q} c_k e^{2\pi i k n/q}`
    (:func:`~theory.series.eventual_signs.periodic_pieces`) and its partial sums are
    bounded (each at most :math:`1/|\sin(\pi k/q)|`); g smooth, eventually monotone to 0:
    converges (``(-1)**floor(n/3)/n**(1/5)``).

    >>> from theory.series.expressions import parse_expression as P
    >>> periodic_dirichlet_test(P("(-1)**floor(n/3)/n**(1/5)")).converges
    True
    """
    split = oscillating_split(b)
    if split is None:
        return None
    g, p = split
    pieces = periodic_pieces(p)
    if pieces is None or pieces[0] != 0 or not pieces[1]:
        return None
    if limit_at_infinity(g) != 0 or eventual_sign(sp.diff(g, N)) not in (1, -1):
        return None
    thetas = ", ".join(sorted({str(k) for _, k in pieces[1]}))
    return Decision(
        True,
        f"Dirichlet's test: b_n = g(n) s(n) with g = {g} eventually monotone to 0 (g' keeps "
        f"one sign for large n) and s = {p} periodic of mean 0, s(n) = sum_k c_k "
        f"e^(i theta_k n), theta_k in {{{thetas}}} (the discrete Fourier transform of its "
        "values on the residue classes), none a multiple of 2*pi, so the partial sums of s "
        "are bounded (conditional convergence)",
        test="Dirichlet test",
    )


def _grouped_verdict(classes: list, where: str, decide: Decide) -> Decision | None:
    """Every class tends to 0: the series has the verdict of the grouped series
    sum_m sum_r b_(Lm+r) (partial sums differ by fewer than L terms)."""
    grouped = sp.Add(*classes)
    if grouped.is_rational_function(N):
        with step_budget(STEP_BUDGET):
            grouped = sp.cancel(sp.together(grouped))
    if grouped == 0 or (grouped.has(sp.log) and _logs_cancel(grouped)):
        return Decision(
            True,
            f"grouped by periods: every class tends to 0 and the grouped terms c_m = "
            f"sum_r b_(Lm+r) are 0 for every m (a sum of real logarithms is the logarithm of "
            f"the product of their positive arguments, here 1) ({where}): the partial sums "
            "differ from 0 by fewer than L terms, which tend to 0",
            test="residue classes",
        )
    try:
        d = decide(grouped)
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


def _logs_cancel(c: sp.Expr) -> bool:
    """A sum of logarithms whose product of arguments is 1 (exactly: the terms are real, so
    every argument is positive and the sum is the logarithm of the product)."""
    try:
        with step_budget(STEP_BUDGET):
            combined = sp.logcombine(c, force=True)
            return isinstance(combined, sp.log) and sp.cancel(sp.together(combined.args[0])) == 1
    except StepTimeout:
        return False


def _class_by_class(classes: list, where: str, decide: Decide) -> Decision | None:
    """Each residue class decided on its own: all convergent gives convergence (a partial
    sum of b is a sum of L class partial sums, up to fewer than L terms tending to 0); the
    divergent ones all of one eventual sign, the rest convergent, gives divergence (the
    divergent classes' partial sums go to +oo, or all to -oo)."""
    verdicts, signs = [], set()
    for r, c in enumerate(classes):
        if c == 0:
            continue
        try:
            d = decide(c)
        except (Undecided, StepTimeout):
            return None
        if d.converges is None:
            return None
        if not d.converges:
            signs.add(eventual_sign(c) if smooth(c) else None)
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
def minorant_test(b: sp.Expr) -> Decision | None:
    r"""Divergence of nonnegative oscillating terms through a trigonometric-polynomial
    minorant :math:`b_n \ge g(n) p(n)` of positive mean (:mod:`theory.series.trig_minorants`).

    >>> from theory.series.expressions import parse_expression as P
    >>> minorant_test(P("Abs(sin(n))/n")).converges
    False
    """
    split = split_minorant(b)
    if split is None:
        return None
    g, p, notes = split
    rest = piecewise_rest(b)
    if rest is not None and not eventually_nonneg(rest):
        return None
    mf = mean_and_frequencies(p)
    if mf is None or mf[0].is_positive is not True or not smooth(g):
        return None
    c0, freqs = mf
    if limit_at_infinity(g) != 0 or eventual_sign(g) != 1 or eventual_sign(sp.diff(g, N)) != -1:
        return None
    d = log_test(g, conv=False, label=f"g = {g}")
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
    if not smooth(c) or c.has(sp.sin, sp.cos):
        return None
    x = sp.Dummy("x", positive=True)
    try:
        with step_budget(STEP_BUDGET):
            lead = sp.series(c.subs(N, 1 / x), x, 0, 4).removeO().as_leading_term(x)
            a, p = lead.as_coeff_exponent(x)
            if not (p.is_Rational and a.is_number and nonzero_constant(a)) or a.has(x):
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
def summand_test(b: sp.Expr, decide: Decide) -> Decision | None:
    """b = u_1 + ... + u_k (expanded): every sum of u_j convergent gives convergence; one
    divergent and the rest convergent gives divergence.

    >>> from theory.series.expressions import parse_expression as P
    >>> from theory.series.numeric import decide_numeric
    >>> summand_test(P("(1 + cos(n))/n"), decide_numeric).converges
    False
    """
    with step_budget(STEP_BUDGET):
        parts = sp.Add.make_args(sp.expand(b))
    if not 1 < len(parts) <= MAX_SUMMANDS:
        return None
    verdicts = []
    for u in parts:
        try:
            verdicts.append((u, decide(u)))
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


def recurrence_test(b: sp.Expr) -> Decision | None:
    """b_n = H(cos/sin(a_j n + c_j)): n a mod 2 pi returns near 0 infinitely often."""
    atoms = _linear_trig_atoms(b)
    if atoms is None:
        return None
    v = b.subs(N, 0)
    val = robust_value(v)
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
        val = robust_value(h.subs(theta, th))
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
    """(g, p) with b = g p, p the product of the factors holding sin/cos that oscillate
    (not sin(1/n): :func:`~theory.series.limits.smooth`) or (-1)**(...), g the rest
    (smooth); None when no factor oscillates or g is not smooth."""
    g, p = sp.Integer(1), sp.Integer(1)
    for f in sp.Mul.make_args(b):
        if (f.has(sp.sin, sp.cos) and not smooth(f)) or _periodic_sign(f):
            p *= f
        else:
            g *= f
    if p == 1 or not g.has(N) or not smooth(g) or _periodic_sign(g):
        return None
    return g, p


def _constant_times_oscillating(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(c, p) for b = c p, c a nonzero number and p the product of the oscillating factors
    (:func:`oscillating_split` asks g to depend on n); None otherwise."""
    c, p = sp.Integer(1), sp.Integer(1)
    for f in sp.Mul.make_args(b):
        if (f.has(sp.sin, sp.cos) and not smooth(f)) or _periodic_sign(f):
            p *= f
        elif f.has(N) or not nonzero_constant(f):
            return None
        else:
            c *= f
    return None if p == 1 else (c, p)


def nonzero_at_integers(p: sp.Expr) -> bool:
    r"""p(n) != 0 (by more than rounding) at one of n = 1, ..., 8.  For a trigonometric
    polynomial :math:`p(n) = \sum_k d_k e^{i \varphi_k n}` (distinct frequencies mod
    :math:`2\pi`) this shows that p(n) does not tend to 0: the mean of :math:`|p(n)|^2` over
    n tends to :math:`\sum_k |d_k|^2`, which is positive when p is not 0 at every integer."""
    try:
        f = sp.lambdify(N, p, modules="mpmath")
        with mpmath.workdps(30):
            return any(
                abs(mpmath.mpmathify(f(mpmath.mpf(k)))) > mpmath.mpf(10) ** -10 for k in range(1, 9)
            )
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return False


@_optional_test
def oscillation_not_to_zero_test(b: sp.Expr) -> Decision | None:
    r""":math:`b_n = g(n) p(n)`, p a product of sin/cos of linear arguments and (-1)**n
    (a trigonometric polynomial, :func:`theory.series.trig_minorants.frequency_pieces`) or
    an analytic periodic H(w n) (:func:`theory.series.periodic_means.analytic_periodic`), not
    0 at every integer, and :math:`|g| \to c \in (0, \infty]`: p(n) does not tend to 0
    (:func:`nonzero_at_integers`), so neither do the terms (``cos(n)*n``).

    >>> from theory.series.expressions import parse_expression as P
    >>> oscillation_not_to_zero_test(P("n*cos(n)")).converges
    False
    >>> oscillation_not_to_zero_test(P("(-1)**n*exp(cos(n))/2")).converges  # g = 1/2
    False
    """
    split = oscillating_split(b) or _constant_times_oscillating(b)
    if split is None:
        return None
    g, p = split
    if frequency_pieces(p) is not None:
        kind = (
            "a trigonometric polynomial in n that is not 0 at every integer, so p(n) does not "
            "tend to 0 (the mean of p(n)^2 over n is the sum of its squared amplitudes, > 0)"
        )
    elif analytic_periodic(p) is not None:
        kind = (
            "H(w n), H 2 pi-periodic and analytic, w a nonzero rational, not 0 at every "
            "integer, so p(n) does not tend to 0 (H is continuous and not 0 on an arc, and "
            "w n mod 2 pi enters that arc infinitely often: w/(2 pi) is irrational)"
        )
    else:
        return None
    lim = limit_at_infinity(g)
    if lim is None or not lim.is_number or lim == 0 or lim is sp.nan:
        return None
    if not (lim in (sp.oo, -sp.oo) or nonzero_constant(lim)) or not nonzero_at_integers(p):
        return None
    return Decision(
        False,
        f"terms do not tend to 0: b_n = g(n) p(n) with g = {g} -> {lim} != 0 and p = {p} " + kind,
        test="terms not -> 0",
    )


@_optional_test
def dirichlet_test(b: sp.Expr, decide: Decide) -> Decision | None:
    r"""Dirichlet's test on frequencies: :math:`b_n = g(n) p(n)` with g eventually monotone
    to 0 and :math:`p = c_0 + \sum_j c_j e^{i \theta_j n}` (products of sin/cos of linear
    arguments and (-1)**n expanded, :func:`theory.series.trig_minorants.frequency_pieces`),
    every :math:`\theta_j \notin 2\pi\mathbb{Z}`: each :math:`\sum g(n) e^{i\theta_j n}`
    converges (partial sums of :math:`e^{i\theta n}` are at most
    :math:`1/|\sin(\theta/2)|`), so the series has the verdict of :math:`c_0 \sum g(n)`.

    >>> from theory.series.expressions import parse_expression as P
    >>> from theory.series.numeric import decide_numeric
    >>> dirichlet_test(P("(-1)**n*cos(n)/n"), decide_numeric).converges         # cos((pi + 1) n)/n
    True
    >>> dirichlet_test(P("sin(n)**2/n"), decide_numeric).converges              # 1/(2n) - cos(2n)/(2n)
    False
    """
    split = oscillating_split(b)
    if split is None:
        return None
    g, p = split
    fp = frequency_pieces(p)
    if fp is None:
        return _analytic_dirichlet(g, p, decide)
    c0, pieces = fp
    if limit_at_infinity(g) != 0 or eventual_sign(sp.diff(g, N)) not in (1, -1):
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
    if not nonzero_constant(c0):
        return None
    return _constant_part(cert, f"the constant component {c0}", g, decide)


def _constant_part(cert: str, c0: str, g: sp.Expr, decide: Decide) -> Decision | None:
    """Dirichlet's test where p's constant component c0 is not 0: the verdict of c0 sum g."""
    try:
        d = decide(g)
    except (Undecided, StepTimeout):
        return None
    if d.converges is None:
        return None
    d.certificate = (
        f"{cert}; {c0} != 0 leaves c_0 sum g(n), which "
        f"{'converges' if d.converges else 'diverges'}: {d.certificate}"
    )
    d.test = "Dirichlet test"
    return d


def _analytic_dirichlet(g: sp.Expr, p: sp.Expr, decide: Decide) -> Decision | None:
    """Dirichlet's test with p an analytic periodic factor (``exp(cos(n))*sin(n)``), its
    Fourier series in place of the frequencies (:mod:`theory.series.periodic_means`)."""
    if limit_at_infinity(g) != 0 or eventual_sign(sp.diff(g, N)) not in (1, -1):
        return None
    m = analytic_periodic_mean(p)
    if m is None:
        return None
    cert = (
        f"Dirichlet's test: b_n = g(n) p(n) with g = {g} eventually monotone to 0 (g' keeps "
        f"one sign for large n) and {m.certificate}"
    )
    if m.zero:
        return Decision(True, cert + " (conditional convergence)", test="Dirichlet test")
    return _constant_part(cert, f"the mean c_0 = {m.mean}", g, decide)


@_optional_test
def abel_test(b: sp.Expr, decide: Decide) -> Decision | None:
    r"""Abel's test: :math:`b_n = a_n c_n` with :math:`\sum a_n` proved convergent and
    :math:`c_n` smooth, eventually monotone with a finite limit (so bounded), converges.

    >>> from theory.series.expressions import parse_expression as P
    >>> from theory.series.numeric import decide_numeric
    >>> abel_test(P("sin(n)*(1 + 1/n)**n/sqrt(n)"), decide_numeric).converges    # c_n -> e
    True
    """
    cands = [f for f in sp.Mul.make_args(b) if f.has(N) and smooth(f) and not _periodic_sign(f)]
    for c in cands:
        lim = limit_at_infinity(c)
        if lim is None or not lim.is_number or not lim.is_finite or lim == 0:
            continue
        if eventual_sign(sp.diff(c, N)) not in (1, -1):
            continue
        a = b / c
        try:
            d = decide(a)
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
