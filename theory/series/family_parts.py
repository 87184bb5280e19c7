r"""Free-parameter families decided part by part: residue classes, and an oscillating part
plus a part of one sign.  Each function decides one sign case (the parameters positive
symbols) and returns the region where the series converges, or None when the family is
not one of these.

* :func:`periodic_family`: periodic factors (``(-1)**n``, ``cos(pi*n)``,
  ``(-1)**floor(n/2)``) split by residue class :math:`n = Lm + r`
  (:func:`theory.series.periodic.residue_classes`), each class :math:`c_r(m)` an exp-log
  function of m and the parameters.  Every class eventually of one and the same sign: a
  series of terms of one sign converges iff each subseries over a class does, so the
  region is the intersection of the classes' regions (``1/(n**p + (-1)**n)`` converges iff
  p > 1).  Classes of both signs: where a class does not tend to 0 the terms do not
  (``(-1)**floor(n/2)/n**p`` diverges for p < 0); where every class may tend to 0 the
  classes may cancel and the case is left undecided.
* :func:`oscillating_sum_family`: :math:`b_n = g(n) t(n) + P(n)` as in
  :mod:`theory.series.oscillating_parts` (t a trigonometric polynomial of mean 0, g and P
  exp-log of one sign): where g -> 0 the sum converges iff :math:`\sum P` does; where not,
  the terms do not tend to 0.  The region is (g -> 0) and (:math:`\sum P` converges):
  ``sin(n)/n**p + 1/n**q`` converges iff p > 0 and q > 1.

The eventual sign of a part is Gruntz's sign with the parameters symbolic, confirmed at
sample values (sympy's sign with parameters may assume one case of them).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import sympy as sp

from theory.core.budget import StepTimeout
from theory.series.conditions import bool_text
from theory.series.decision import Decision, SeriesError, Undecided
from theory.series.expressions import N
from theory.series.limits import eventual_sign, limit_at_infinity
from theory.series.numeric import decide_terms
from theory.series.oscillating_parts import split_oscillating_part
from theory.series.parameters import PARAM_SAMPLES, positive_eventually, zero_limit_region
from theory.series.periodic import has_periodic_factor, residue_classes

DecidePositive = Callable[..., Decision]


def exp_log(e: sp.Expr) -> bool:
    """Built from n, parameters and real numbers by ``+``, ``*``, powers with a positive
    base or an exponent free of n, exp and log, and sinh, cosh, tanh, asinh (exp-log
    written otherwise) and atan of such: a Hardy field, so eventually monotone and of one
    sign (atan f is an antiderivative of f'/(1 + f^2), and a Hardy field extends by
    antiderivatives: Rosenlicht, Singer)."""
    if e.is_Atom:
        return e.is_Symbol or (e.is_number and e.is_real is True)
    if isinstance(e, sp.Pow) and e.exp.has(N) and not e.base.is_positive:
        return False
    if isinstance(e, (sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log, *HARDY_FUNCTIONS)):
        return all(exp_log(a) for a in e.args)
    return False


#: functions of exp-log arguments that stay in a Hardy field (:func:`exp_log`)
HARDY_FUNCTIONS = (sp.sinh, sp.cosh, sp.tanh, sp.asinh, sp.atan)


def _samples(params: list) -> list:
    """Values of the parameters at which a symbolic sign or limit is confirmed: all equal
    to small, middle and large values of :data:`~theory.series.parameters.PARAM_SAMPLES`,
    and small and large apart."""
    lo, hi = PARAM_SAMPLES[0], PARAM_SAMPLES[-1]
    combos = [{p: v for p in params} for v in (lo, PARAM_SAMPLES[2], PARAM_SAMPLES[-2], hi)]
    if len(params) > 1:
        for a, b in itertools.permutations((lo, hi)):
            combos.append({p: (a if i % 2 else b) for i, p in enumerate(params)})
    return combos


def sign_for_all(e: sp.Expr, params: list) -> int | None:
    """+1 (-1) when e > 0 (< 0) for all large n at every positive value of the parameters:
    Gruntz's sign with the parameters symbolic, confirmed at sample values; None if unsure."""
    used = [p for p in params if e.has(p)]
    if e.is_positive or e.is_negative:  # from the assumptions: n and the parameters > 0
        return 1 if e.is_positive else -1
    for s in (1, -1):
        if not used:
            if eventual_sign(s * e) == 1:
                return s
            continue
        if not positive_eventually(s * e):
            continue
        if all(eventual_sign((s * e).subs(v)) == 1 for v in _samples(used)):
            return s
        return None
    return None


def summable_region(e: sp.Expr, params: list, start: int, decide_positive: DecidePositive) -> tuple:
    """Where sum e converges (e > 0 for large n): (region, points, undefined, certificate),
    region None when unsure."""
    used = sorted((p for p in params if e.has(p)), key=lambda p: p.name)
    if used:
        d = decide_positive(e, used, start)
        return (
            d.details.get("region"),
            d.details.get("points", []),
            d.details.get("undefined", False),
            d.certificate,
        )
    d = decide_terms(e, start)
    return {True: sp.true, False: sp.false}.get(d.converges), [], False, d.certificate


def zero_region(e: sp.Expr, params: list) -> tuple:
    """Where e -> 0 (e > 0 for large n): (region, points); raise Undecided when unsure.
    A limit free of the parameters (confirmed at sample values) decides every value at
    once, else :func:`~theory.series.parameters.zero_limit_region`."""
    used = sorted((p for p in params if e.has(p)), key=lambda p: p.name)
    lim = limit_at_infinity(e, check=False if used else None)
    if lim is not None and lim.is_number and lim is not sp.nan:
        at = [limit_at_infinity(e.subs(v)) for v in _samples(used)] if used else []
        if all(a is not None and a.is_number and (a == 0) == (lim == 0) for a in at):
            return (sp.true if lim == 0 else sp.false), []
    if used:
        return zero_limit_region(e, used)
    raise Undecided(f"the limit of {e} could not be computed")


def periodic_family(
    b: sp.Expr, params: list, start: int, decide_positive: DecidePositive
) -> Decision | None:
    """Residue classes with free parameters (module doc)."""
    if not has_periodic_factor(b):
        return None
    split = residue_classes(b)
    if split is None:
        return None
    L, classes = split
    live = [(r, c) for r, c in enumerate(classes) if c != 0]
    if not live or not all(exp_log(c) for _, c in live):
        return None
    signs = [sign_for_all(c, params) for _, c in live]
    if None in signs:
        return None
    m = sp.Symbol("m")
    where = f"{L} residue classes n = {L}m + r: " + ", ".join(
        f"b_({L}m+{r}) = {c.subs(N, m)}" for r, c in enumerate(classes)
    )
    try:
        if len(set(signs)) == 1:
            return _same_sign_classes(live, signs[0], L, start, params, decide_positive, where)
        return _mixed_sign_classes(live, signs, params, where)
    except (Undecided, StepTimeout, SeriesError):
        return None


def _class_start(r: int, L: int, start: int) -> int:
    """The first m with L m + r >= start."""
    return max(0, -(-(start - r) // L))


def _same_sign_classes(live, s, L, start, params, decide_positive, where) -> Decision | None:
    regions, points, undefined, certs = [], [], False, []
    for r, c in live:
        region, pts, undef, cert = summable_region(
            s * c, params, _class_start(r, L, start), decide_positive
        )
        if region is None:
            return _class_not_to_zero(live, s, params, where)
        regions.append(region)
        points += pts
        undefined = undefined or undef
        certs.append(f"r = {r}: {cert}")
    region = sp.And(*regions)
    sign = "positive" if s > 0 else "negative"
    return Decision(
        None,
        f"{where}; every class is {sign} for large n at every value of the parameters, so "
        "the series converges iff each class does: " + "; ".join(certs),
        test="residue-class family",
        details={"region": region, "points": points, "undefined": undefined},
    )


def _class_not_to_zero(live, s, params, where) -> Decision | None:
    """Classes of one sign whose sums are not all settled: divergence where a class does
    not tend to 0 at any value of the parameters, else None."""
    for r, c in live:
        try:
            zero, points = zero_region(s * c, params)
        except (Undecided, StepTimeout):
            continue
        if zero is sp.false:
            return Decision(
                None,
                f"{where}: the class r = {r} does not tend to 0 at any value of the "
                "parameters, so neither do the terms: diverges",
                test="residue-class family",
                details={"region": sp.false, "points": points},
            )
    return None


def _mixed_sign_classes(live, signs, params, where) -> Decision | None:
    """Classes of both signs: divergence where a class does not tend to 0; no region when
    every class may tend to 0 (the classes may cancel, as for ``(-1)**n/n**p``)."""
    zero, points = sp.true, []
    for (_, c), s in zip(live, signs):
        z, pts = zero_region(s * c, params)
        zero, points = zero & z, points + pts
        if zero is sp.false:
            break
    if zero is sp.false:
        return Decision(
            None,
            f"{where}: a class does not tend to 0 at any value of the parameters, so "
            "neither do the terms: diverges",
            test="residue-class family",
            details={"region": sp.false, "points": points},
        )
    return None


def oscillating_sum_family(
    b: sp.Expr, params: list, start: int, decide_positive: DecidePositive
) -> Decision | None:
    """b = g p + P with free parameters in g and P (module doc)."""
    split = split_oscillating_part(b)
    if split is None:
        return None
    g, p, P, thetas = split
    if p.free_symbols - {N} or not (exp_log(g) and exp_log(P)):
        return None
    s_g, s_p = sign_for_all(g, params), sign_for_all(P, params)
    if s_g is None or s_p is None:
        return None
    try:
        zero, points = zero_region(s_g * g, params)
        region_p, pts, undefined, cert = summable_region(s_p * P, params, start, decide_positive)
    except (Undecided, StepTimeout):
        return None
    if region_p is None:
        return None
    return Decision(
        None,
        f"b_n = g(n) t(n) + P(n) with g = {g}, P = {P} exp-log of one sign and t = {p} a "
        f"trigonometric polynomial with frequencies {{{', '.join(thetas)}}}, none in 2 pi Z, "
        "mean 0, not 0 at every integer: where g -> 0 (eventually monotone) sum g t "
        "converges (Dirichlet's test) and the series converges iff sum P does; elsewhere "
        "g t does not tend to 0 and takes the sign of P infinitely often, so the terms do "
        f"not tend to 0 (P -> 0, or |b_n| >= |P(n)| >= c > 0 there); g -> 0 iff "
        f"{bool_text(zero)}; sum {'' if s_p > 0 else '-'}P: {cert}",
        test="oscillating part plus one-signed part",
        details={"region": zero & region_p, "points": points + pts, "undefined": undefined},
    )
