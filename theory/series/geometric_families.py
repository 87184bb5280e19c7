r"""Geometric families with free parameters: :math:`s^n a^{P(n)} g(n)`,
:math:`s^n c(p)^n g(n)` and :math:`s^n k\,C^n g(n)` with s = 1 or -1.

The root test on the geometric factor, :math:`|b_n|^{1/P(n)} \to a` where
:math:`\log g / P(n) \to 0`, decides every value but those where the base has absolute value
1; there the series has the parameters of g left, or none, and is decided again
(:func:`power_family`: a parameter a > 0 to a polynomial power; :func:`geometric_base_family`:
a positive base that is a function of one parameter; :func:`signed_base_family`: a base of
any sign, g free of the parameters, of any form where its coefficients have radius 1,
:mod:`theory.series.unit_radius`).  ``family`` and ``decide_positive`` are the callers'
decisions of a family and of positive terms, passed in (:mod:`theory.series.families`).

>>> from theory.series.expressions import N
>>> x = sp.Symbol("x", positive=True)
>>> signed_base_family((x - 1) ** N * sp.sin(N), [x], 1).details["region"]
x - 1 < 1
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.comparison_tests import term_ratio
from theory.series.conditions import bool_text, set_relation
from theory.series.decision import Decision, SeriesError, Undecided
from theory.series.expressions import N, log_of_positive_product
from theory.series.family_parts import exp_log
from theory.series.limits import eventually_positive, limit_at_infinity
from theory.series.numeric import decide_terms
from theory.series.parameters import positive_eventually, zero_limit_region
from theory.series.unit_radius import power_radius_family, radius_family

#: positive values at which a symbolic limit is recomputed
_SAMPLES = (sp.Rational(1, 7), sp.Rational(1, 2), sp.Integer(1), sp.Rational(3, 2), sp.Integer(4))


def _subexponential(g: sp.Expr, params: list, exponent: sp.Expr = N) -> bool:
    """log|g(n)|/P(n) -> 0 (P = ``exponent``, n by default) for every positive value of the
    parameters (checked at samples)."""
    h = log_of_positive_product(g) / exponent  # n log(x)/n^2: no sign of log(x) needed
    try:
        with step_budget(3.0):
            lims = [sp.limit(h, N, sp.oo)]
            lims += [sp.limit(h.subs({p: v for p in params}), N, sp.oo) for v in _SAMPLES]
    except Exception:  # noqa: BLE001 - no limit: unsure
        return False
    return all(v == 0 for v in lims)


def growing_polynomial(e: sp.Expr) -> bool:
    """e a polynomial in n of degree >= 1, rational coefficients, positive leading one."""
    if not (e.has(N) and e.is_polynomial(N)) or e.free_symbols != {N}:
        return False
    poly = sp.Poly(e, N)
    return all(c.is_Rational for c in poly.all_coeffs()) and poly.LC() > 0


def power_family(
    a: sp.Symbol,
    g: sp.Expr,
    params: list,
    start: int,
    decide_positive: Callable[..., Decision],
    family: Callable[..., Decision | None],
    alternating: bool = False,
    exponent: sp.Expr = N,
) -> Decision | None:
    r""":math:`s^n a^{P(n)} g(n)`, s = 1 or -1 (``alternating``), a > 0, P a polynomial with
    a positive leading coefficient (n itself by default).

    g > 0 exp-log with :math:`\log g / P(n) \to 0`: converges for a < 1 (root test,
    :math:`|b_n|^{1/P(n)} \to a`), diverges for a > 1 (:math:`|b_n| \to \infty`); at a = 1
    as :math:`\sum g` (s = 1), or for s = -1 by Leibniz where g -> 0 (g eventually monotone)
    and not at all elsewhere (the terms do not tend to 0).  g free of the parameters and
    factorial-like (P = n): see :func:`_geometric_ratio`."""
    rest = [p for p in params if p != a]
    if g.has(a):
        return None
    if not rest and not (exp_log(g) and _subexponential(g, rest, exponent)):
        d = _geometric_ratio(a, g, start, alternating) if exponent == N else None
        return d or power_radius_family(a, g, start, alternating, exponent)
    if not exp_log(g) or not (g.has(N) or g.is_positive):
        return None
    if not _subexponential(g, rest, exponent):  # x**n*y**(n**2): log(x^n)/n^2 -> 0
        return None
    if not (g.is_positive or (positive_eventually(g) if rest else eventually_positive(g))):
        return None
    if alternating:
        try:
            region_g, points = zero_limit_region(g, rest)
            at_one = (
                f"b_n = (-1)^n g(n): Leibniz's test where g -> 0 (g exp-log, eventually "
                f"monotone), elsewhere the terms do not tend to 0; g -> 0 iff "
                f"{bool_text(region_g)}"
            )
        except (Undecided, StepTimeout):  # (-1)^n x^n: a family of its own
            d = family(sp.Pow(-1, N) * g, rest, start, decide_positive) if rest else None
            if d is None or d.details.get("region") is None:
                return None
            region_g, points = d.details["region"], d.details.get("points", [])
            at_one = f"sum (-1)^n g: {d.certificate}"
    elif rest:
        d = decide_positive(g, rest, start)
        region_g = d.details.get("region")
        points = d.details.get("points", [])
        at_one = "sum g: " + d.certificate
    else:
        d = decide_terms(g, start)
        region_g = {True: sp.true, False: sp.false}.get(d.converges)
        points = []
        at_one = "sum g: " + d.certificate
    if region_g is None:
        return None
    region = sp.Or(a < 1, sp.And(sp.Eq(a, 1), region_g))
    s = "(-1)^n " if alternating else ""
    P = "n" if exponent == N else f"({exponent})"
    return Decision(
        None,
        f"b_n = {s}{a}^{P} g(n) with g = {g} > 0 exp-log and log(g)/n -> 0: for {a} < 1 the "
        f"root test (|b_n|^(1/{P}) -> {a} < 1) gives convergence, for {a} > 1 |b_n| grows "
        f"without bound; at {a} = 1, {at_one}",
        test="geometric family",
        details={
            "region": region,
            "points": [{**w, a: sp.Integer(1)} for w in points]
            + [{**{p: sp.Integer(1) for p in rest}, a: sp.Integer(1)}],
        },
    )


def _numeric_rate(f: sp.Expr) -> sp.Expr | None:
    """r > 0 where f = r^n, r a number (``2**(-n)``: 1/2, ``exp(-n)``: exp(-1)); else None."""
    base, e = (sp.E, f.exp) if isinstance(f, sp.exp) else f.as_base_exp()
    c = sp.expand(e / N)
    if not (base.is_number and base.is_positive and c.is_number and c.is_real and c != 0):
        return None
    return base**c


def _integer_rate(f: sp.Expr) -> int | None:
    """c where f = B^(c n), B free of n and holding a parameter, c a nonzero integer; else
    None (``sin(x)**(2*n)``: 2, ``x**(-n)``: -1)."""
    if not (isinstance(f, sp.Pow) and f.exp.has(N) and not f.base.has(N) and f.base.free_symbols):
        return None
    c = sp.expand(f.exp / N)
    return int(c) if c.is_Integer and c != 0 else None


def signed_base_family(
    b: sp.Expr, params: list, start: int, alternating: bool = False
) -> Decision | None:
    r""":math:`s^n k\, C^n g(n)`, s = 1 or -1 (``alternating``), with the base C (a product of
    powers :math:`B^{c}`, c a nonzero integer, of the factors :math:`B^{cn}`) and the factor
    k functions of the parameters of any sign (``(x - 1)**n``, ``(x - y)**n``, ``a*x**n``,
    ``x**n*y**n``, ``x**(-n)``) and g > 0 exp-log, free of the parameters, with
    :math:`\log g / n \to 0`.
    With c = s C: where |c| < 1 the root test gives convergence, where |c| > 1 the terms grow;
    at c = 1 the series is :math:`k \sum g`, at c = -1 it converges iff g -> 0 (Leibniz, g
    eventually monotone); where k = 0 every term is 0."""
    factors = sp.Mul.make_args(b)
    powers = [f for f in factors if _integer_rate(f) is not None]
    if not powers:
        return None
    numeric = [f for f in factors if _numeric_rate(f) is not None]
    base = sp.Mul(*[f.base ** _integer_rate(f) for f in powers])  # x**n*y**n: (x y)^n
    base *= sp.Mul(*[_numeric_rate(f) for f in numeric])  # x**n*exp(-n): (x/e)^n
    powers += numeric
    C = -base if alternating else base
    k = sp.Mul(*[f for f in factors if f not in powers and not f.has(N)])
    g = sp.Mul(*[f for f in factors if f.has(N) and f not in powers])
    if g.free_symbols - {N}:
        return None
    if not exp_log(g) or not (g.is_positive or eventually_positive(g)):
        return radius_family(k, base, C, g, start, alternating)
    if not _subexponential(g, []):
        return None
    try:
        at_one = decide_terms(g, start).converges
        to_zero = limit_at_infinity(g)
    except (SeriesError, Undecided, StepTimeout):
        return None
    if at_one is None or to_zero is None or not to_zero.is_number:
        return None
    at_one, to_zero = sp.true if at_one else sp.false, sp.true if to_zero == 0 else sp.false
    region = sp.And(C > -1, C < 1) | (sp.Eq(C, 1) & at_one) | (sp.Eq(C, -1) & to_zero) | sp.Eq(k, 0)
    s = "(-1)^n " if alternating else ""
    return Decision(
        None,
        f"b_n = {s}{k} ({base})^n g(n) with g = {g} > 0 exp-log, free of the "
        f"parameters, log(g)/n -> 0: with c = {C}, |c| < 1 converges (root test), |c| > 1 "
        f"the terms grow; at c = 1, sum g {'converges' if at_one else 'diverges'}; at c = -1, "
        f"(-1)^n g converges iff g -> 0 ({'it does' if to_zero else 'it does not'}); k = 0: "
        "every term is 0",
        test="geometric family",
        details={"region": region, "points": []},
    )


def geometric_base_family(
    b: sp.Expr,
    params: list,
    start: int,
    decide_positive: Callable[..., Decision],
    alternating: bool = False,
) -> Decision | None:
    r""":math:`s^n c(p)^n g(n)`, s = 1 or -1 (``alternating``), with the base :math:`c > 0`
    a function of one parameter p (``(4/a)**n/sqrt(n)``) and g > 0 exp-log with
    :math:`\log g / n \to 0`: the root test, :math:`|b_n|^{1/n} \to c`, converges where
    c < 1 and the terms grow where c > 1; at the values of p where c = 1 the series
    :math:`\sum g` is decided with p substituted (s = -1: Leibniz where g -> 0, g
    eventually monotone; elsewhere the terms do not tend to 0)."""
    powers = [
        a
        for a in sp.Mul.make_args(b)
        if isinstance(a, sp.Pow) and a.exp == N and not a.base.has(N) and a.base.free_symbols
    ]
    if len(powers) != 1 or len(powers[0].base.free_symbols) != 1:
        return None
    base, g = powers[0].base, b / powers[0]
    p = next(iter(base.free_symbols))
    rest = sorted(g.free_symbols - {N}, key=lambda q: q.name)
    if p not in params or not base.is_positive or not exp_log(g):
        return None
    if not (g.has(N) or g.is_positive):
        return None
    if not _subexponential(g, rest) or not (g.is_positive or positive_eventually(g)):
        return None
    pos = sp.Interval.open(0, sp.oo)
    try:
        with step_budget(2.0):
            below = sp.solveset(base < 1, p, pos)
            above = sp.solveset(base > 1, p, pos)
            edge = sp.solveset(sp.Eq(base, 1), p, pos)
        if not isinstance(edge, sp.FiniteSet) and edge is not sp.EmptySet:
            return None
        if below | above | edge != pos:
            return None
        region = set_relation(below, p)
    except (Undecided, StepTimeout, NotImplementedError, TypeError, ValueError):
        return None
    others = {q: sp.Integer(1) for q in params if q != p}
    points, texts = [], []
    for v in edge:
        gv = g.subs(p, v)
        left = sorted(gv.free_symbols - {N}, key=lambda q: q.name)
        try:
            if alternating:
                sub = zero_limit_region(gv, left)[0]
                cert = f"Leibniz where g -> 0, elsewhere the terms do not;  g -> 0 iff {bool_text(sub)}"
            else:
                d = decide_positive(gv, left, start) if left else decide_terms(gv, start)
                sub = (
                    d.details.get("region")
                    if left
                    else {True: sp.true, False: sp.false}.get(d.converges)
                )
                cert = d.certificate
        except (SeriesError, Undecided, StepTimeout):
            return None
        if sub is None:
            return None
        region = region | (sp.Eq(p, v) & sub)
        points.append({**others, p: v})
        texts.append(f"at {p} = {v}, sum {'(-1)^n ' if alternating else ''}{gv}: {cert}")
    return Decision(
        None,
        f"b_n = {'(-1)^n ' if alternating else ''}c^n g(n) with c = {base} > 0 and g = {g} > 0 exp-log, log(g)/n -> 0: the root "
        f"test (b_n^(1/n) -> c) gives convergence where c < 1, and b_n grows without bound "
        f"where c > 1; " + ("; ".join(texts) or "c = 1 for no value"),
        test="geometric family",
        details={"region": region, "points": points},
    )


def _geometric_ratio(a, g, start, alternating) -> Decision | None:
    r""":math:`s^n a^n g(n)` with g free of the parameters and factorial-like,
    :math:`g(n+1)/g(n) \to L \ge 0`: :math:`|b_{n+1}/b_n| \to aL`, so the ratio test
    decides every a with :math:`aL \ne 1` (``x**n/factorial(n)``: L = 0, converges for every
    x); at a = 1/L the series has no parameter left and is decided as it stands."""
    ratio = term_ratio(g)
    if ratio is None:
        return None
    big = limit_at_infinity(ratio)
    if big is None or not big.is_number or big.is_extended_nonnegative is not True:
        return None  # (oo is not "nonnegative" in sympy: it is not a finite real)
    s = "(-1)^n " if alternating else ""
    head = f"b_n = {s}{a}^n g(n), g = {g}, g(n+1)/g(n) = {ratio} -> {big}: "
    if big == 0 or big == sp.oo:
        region = sp.true if big == 0 else sp.false
        word = "converges" if big == 0 else "diverges (|b_n| grows)"
        return Decision(
            None,
            head + f"|b_(n+1)/b_n| -> {'0' if big == 0 else 'oo'} for every {a} > 0: the "
            f"ratio test, {word}",
            test="geometric family",
            details={"region": region, "points": []},
        )
    edge = 1 / big
    at_edge = sp.Pow(-1, N) * edge**N * g if alternating else edge**N * g
    try:
        d = decide_terms(at_edge, start)
    except SeriesError:
        return None
    if d.converges is None:
        return None
    region = sp.Or(a < edge, sp.And(sp.Eq(a, edge), sp.true if d.converges else sp.false))
    return Decision(
        None,
        head + f"the ratio test gives convergence for {a} < {edge} and |b_n| -> oo for "
        f"{a} > {edge}; at {a} = {edge}: " + d.certificate,
        test="geometric family",
        details={"region": region, "points": [{a: edge}]},
    )
