r"""Oscillating families with free parameters: :math:`F(n)\,g(n)` and :math:`(-1)^n g(n)`
with :math:`g` an exp-log function of n and the parameters.

An exp-log function lies in a Hardy field, so for every value of the parameters it is
eventually of one sign and monotone.

* :math:`F \ge 0` a continuous function of the angle :math:`n \bmod 2\pi` with mean
  :math:`\mu > 0` (``sin(n)**2``): :math:`\sum F g` converges iff :math:`\sum g` does.  If
  :math:`\sum |g| < \infty`, :math:`|F g| \le \max F\,|g|`; if not, either :math:`|g|` is
  eventually nonincreasing and Abel summation over the equidistributed angles gives
  :math:`\sum_{n \le N} F |g| = \mu G_N + o(G_N) \to \infty`
  (:mod:`theory.series.angle_means`), or it is eventually nondecreasing and
  :math:`F|g| \ge |g(n_0)| F` with :math:`\sum F = \infty`.  So ``sin(n)**2/n**p``
  converges iff p > 1.
* :math:`(-1)^n g`: converges iff :math:`g \to 0` (Leibniz, g eventually monotone; otherwise
  the terms do not tend to 0).  So ``(-1)**n/n**p`` converges iff p > 0.
* :math:`(-1)^{\lfloor \alpha n + \beta \rfloor} g`, :math:`\alpha` a quadratic irrational
  (:mod:`theory.series.beatty_signs`): converges where :math:`\sum g(n)/n` does, and not where
  :math:`g \not\to 0`; the condition is given where these two regions are the same.  So
  ``(-1)**floor(sqrt(2)*n)/n**p`` converges iff p > 0.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from theory.core.budget import StepTimeout
from theory.series.angle_means import angle_mean_bounds, angle_only, nonneg_angle
from theory.series.beatty_signs import beatty_parts
from theory.series.binomial_family import binomial_family
from theory.series.comparison_tests import term_ratio
from theory.series.conditions import bool_text
from theory.series.decision import Decision, SeriesError, Undecided, split_negative_bases
from theory.series.expressions import N
from theory.series.family_parts import (
    exp_log,
    oscillating_sum_family,
    periodic_family,
    summable_region,
)
from theory.series.geometric_families import (
    geometric_base_family,
    growing_polynomial,
    power_family,
    signed_base_family,
)
from theory.series.limits import eventually_positive, limit_at_infinity
from theory.series.max_min_families import max_min_family
from theory.series.numeric import decide_terms
from theory.series.oscillating_exponent import exponent_split, exponent_threshold
from theory.series.oscillating_families import (
    alternating_quotient_family,
    cosine_frequency_family,
    dirichlet_family,
    sine_frequency_family,
)
from theory.series.parameters import positive_eventually, zero_limit_region
from theory.series.sign_blocks import power_block_family
from theory.series.sign_changing import nonzero_at_integers, oscillating_split
from theory.series.telescoping_family import telescoping_family
from theory.series.trig_minorants import frequency_pieces


def _split(b):
    f, g = [], []
    for a in sp.Mul.make_args(b):
        (f if a.has(N) and not (a.free_symbols - {N}) and angle_only(a) else g).append(a)
    return sp.Mul(*f), sp.Mul(*g)


def family_decision(
    b: sp.Expr, params: list, start: int, decide_positive: Callable[..., Decision]
) -> Decision | None:
    """The decision of one sign case (parameters positive symbols) for the families of the
    module doc; None when b is not one of them."""
    b = split_negative_bases(b)  # with (-1)^P(n) by P's parity
    d = _vanishing_factor(b, params, start, decide_positive)
    if d is not None:
        return d
    if b.as_coeff_Mul()[0] < 0:  # sum -b_n converges where sum b_n does: (-x)**(2*n + 1)/n
        d = family_decision(-b, params, start, decide_positive)
        if d is not None:
            d.certificate = "for -b_n (the same region): " + d.certificate
        return d
    sign = sp.Pow(-1, N)
    alternating = b.is_Mul and sign in b.args
    rest = b / sign if alternating else b
    factors = sp.Mul.make_args(rest)
    for a in factors:
        if isinstance(a, sp.Pow) and a.base in params and growing_polynomial(a.exp):
            g = sp.Mul(*[f for f in factors if f is not a])  # x**-(n**2 + n) would stay
            d = power_family(
                a.base, g, params, start, decide_positive, family_decision, alternating, a.exp
            )
            if d is not None:
                return d
    d = geometric_base_family(rest, params, start, decide_positive, alternating)
    if d is None:
        d = signed_base_family(rest, params, start, alternating)
    if d is not None:
        return d
    if alternating:
        d = _alternating(rest, params) or binomial_family(b, params, start)
        return (
            d
            or alternating_quotient_family(b, params, start, decide_positive)
            or periodic_family(b, params, start, decide_positive)
            or dirichlet_family(b, params, start, decide_positive)  # (-1)^n exp(cos(n)) n^-p
            or _absolutely(rest, params, start, decide_positive)
        )
    if b.is_Add:
        d = telescoping_family(b, params, start)
        if d is not None:
            return d
    if b.has(sp.gamma, sp.binomial, sp.factorial, sp.RisingFactorial, sp.FallingFactorial):
        d = binomial_family(b, params, start) or _gamma_ratio(b, params, start, decide_positive)
        if d is not None:
            return d
    families = (
        max_min_family,
        _beatty,
        _oscillating_exponent,
        _dirichlet,
        _bounded_factor,
        _hypergeometric_factor,
        _trig_majorant,
        oscillating_sum_family,
        dirichlet_family,
        periodic_family,
        sine_frequency_family,
        cosine_frequency_family,
        power_block_family,
    )
    for family in families:
        d = family(b, params, start, decide_positive)
        if d is not None:
            return d
    f, g = _split(b)
    if f == 1 or not g.has(N) or not exp_log(g):
        return None
    try:
        lo = angle_mean_bounds(f, arcs=64)[0]
    except Exception:  # noqa: BLE001 - F not enclosed: not this family
        return None
    if not (lo > 0 and nonneg_angle(f)):
        return None
    d = decide_positive(g, params, start)
    d.certificate = (
        f"b_n = F(n) g(n) with F = {f} >= 0 of positive mean over the equidistributed angles "
        f"n mod 2 pi (>= {lo:.4g}) and g = {g} exp-log (eventually monotone): sum b_n "
        f"converges iff sum g does; for sum g: " + d.certificate
    )
    return d


def _vanishing_factor(b, params, start, decide_positive) -> Decision | None:
    r""":math:`b_n = k\,g(n)` with k a polynomial in the parameters (or a function defined for
    every value, :func:`_entire`), free of n, not proved positive (``(x - 1)**2*n**p``): where k = 0 every term is 0, elsewhere
    :math:`\sum k g` converges iff :math:`\sum g` does, so the region is g's with k = 0
    added (g free of n and nonzero: the region is k = 0).  A positive k is left to the other
    families unless g is free of the parameters."""
    k = sp.Mul(*[a for a in sp.Mul.make_args(b) if not a.has(N) and a.free_symbols])
    g = b / k
    if k == 1 or not (k.is_polynomial(*params) or _entire(k)):
        return None
    if k.is_positive and g.free_symbols - {N}:
        return None  # the decisions of the positive cases read k themselves
    bases = [f.base if f.is_Pow else f for f in sp.Mul.make_args(k) if f.free_symbols]
    zero = sp.Or(*[sp.Eq(f, 0) for f in bases])  # sin(a)**2*cos(a): sin(a) = 0 or cos(a) = 0
    points = []
    if len(k.free_symbols) == 1:  # the zeros by name: x = 1, not x**2 - 2*x = -1
        p = next(iter(k.free_symbols))
        ones = {q: sp.Integer(1) for q in params}
        zeros = sp.solveset(k, p, sp.Interval.open(0, sp.oo))
        if zeros is sp.EmptySet or (
            isinstance(zeros, sp.FiniteSet) and all(v.is_number for v in zeros)
        ):
            zero = sp.Or(*[sp.Eq(p, v) for v in zeros])
            points = [{**ones, p: v} for v in zeros]
        else:  # sin(a)**2: zeros a = k pi, samples of them for the confirmation
            near = sp.solveset(k, p, sp.Interval.open(0, 10))
            if not isinstance(near, sp.FiniteSet) or not near:
                return None
            points = [{**ones, p: v} for v in sorted(near, key=float)[:2]]
    if not g.has(N):
        if not g.is_nonzero:
            return None
        return Decision(
            None,
            f"b_n = {b} is the same for every n: sum b_n converges iff b_n = 0",
            test="constant terms",
            details={"region": zero, "points": points},
        )
    free = bool(g.free_symbols - {N})
    d = family_decision(g, params, start, decide_positive) if free else None
    if d is None and free and g.as_coeff_Mul()[0] < 0:
        d = decide_positive(-g, params, start)
    if d is None:
        d = decide_positive(g, params, start) if free else decide_terms(g, start)
    region = d.details.get("region") if free else {True: sp.true, False: sp.false}.get(d.converges)
    if region is None:
        return None
    return Decision(
        None,
        f"b_n = k g(n) with k = {k}: every term is 0 where k = 0, elsewhere sum b_n "
        f"converges iff sum g does; for g = {g}: " + d.certificate,
        test=d.test,
        details={
            **d.details,
            "region": region | zero,
            "points": list(d.details.get("points", [])) + points,
        },
    )


def _entire(k: sp.Expr) -> bool:
    """k built from the parameters with +, *, nonnegative integer powers, sin, cos and exp:
    defined for every value (``sin(a)**2``)."""
    if any(not isinstance(f, (sp.sin, sp.cos, sp.exp)) for f in k.atoms(sp.Function)):
        return False
    return all(
        e.exp.is_Integer and e.exp > 0 for e in k.atoms(sp.Pow) if e.base.free_symbols
    ) and all(e.args[0].is_polynomial(*k.free_symbols) for e in k.atoms(sp.Function))


def _oscillating_exponent(b, params, start, decide_positive) -> Decision | None:
    """P(n) n^(E(theta) + c(params)), P and E free of the parameters, E of one rational
    frequency: converges iff c < c* (:func:`theory.series.oscillating_exponent.
    exponent_threshold`); ``n**(-p - sin(n))`` converges iff p > 2."""
    moving = any(
        (isinstance(f, sp.Pow) and f.base == N or isinstance(f, sp.exp)) and f.has(sp.sin, sp.cos)
        for f in sp.Mul.make_args(b)
    )
    try:
        split = exponent_split(b) if moving else None
    except (TypeError, ValueError):
        return None
    if split is None:
        return None
    P, E = split
    terms = sp.Add.make_args(E)
    c = sp.Add(*(t for t in terms if not t.has(sp.sin, sp.cos)))
    E_osc = sp.Add(*(t for t in terms if t.has(sp.sin, sp.cos)))
    if c.has(N) or not (c.free_symbols & set(params)) or P.free_symbols - {N}:
        return None
    try:
        found = exponent_threshold(P, E_osc)
    except (TypeError, ValueError, NotImplementedError):
        return None
    if found is None:
        return None
    threshold, why = found
    region = sp.StrictLessThan(c, threshold)
    return Decision(
        {sp.true: True, sp.false: False}.get(region),
        f"{why}; here c = {c}",
        test="oscillating exponent family",
        details={"region": region, "points": []},
    )


def _dirichlet(b, params, start, decide_positive) -> Decision | None:
    r""":math:`b_n = p(n) g(n)`, p a trigonometric polynomial in n free of the parameters,
    :math:`p = \sum_j c_j e^{i\theta_j n}` with no constant part and every
    :math:`\theta_j \notin 2\pi\mathbb{Z}` (``cos(n)``, ``sin(n) cos(n)``, ``cos(pi n)``),
    g > 0 exp-log.  Where g -> 0, g is eventually monotone and Dirichlet's test gives
    convergence; where not, :math:`g \ge c > 0` for large n while p(n) does not tend to 0
    (its mean square over n tends to the sum of :math:`|d_k|^2` over its distinct
    frequencies mod :math:`2\pi`, not all zero as p is not 0 at some integer): the terms do
    not tend to 0.  So ``cos(n)/n**p`` converges iff p > 0."""
    split = oscillating_split(b)
    if split is None:
        return None
    g, p = split
    if p.free_symbols - {N} or not exp_log(g) or not g.free_symbols & set(params):
        return None
    fp = frequency_pieces(p)
    if fp is None or fp[0] != 0 or not fp[1] or not nonzero_at_integers(p):
        return None
    limit = _positive_zero_region(g, params)
    if limit is None:
        return None
    region, points = limit
    thetas = ", ".join(sorted({str(k) for _, k in fp[1]}))
    return Decision(
        None,
        f"b_n = p(n) g(n) with p = {p} = sum_j c_j e^(i theta_j n), theta_j in {{{thetas}}}, "
        f"none in 2 pi Z, and g = {g} > 0 exp-log: where g -> 0 (g eventually monotone) "
        "Dirichlet's test gives convergence, elsewhere g >= c > 0 while p(n) does not "
        "tend to 0, so the terms do not; g -> 0 iff " + bool_text(region),
        test="Dirichlet family",
        details={"region": region, "points": points},
    )


def _bounded_factor(b, params, start, decide_positive) -> Decision | None:
    r""":math:`b_n = e^{c\,s(n)} g(n)` with c depending on the parameters only and s a
    continuous function of the angle n mod :math:`2\pi` (so :math:`|s| \le M`):
    :math:`e^{-|c| M} g \le b_n \le e^{|c| M} g` for g > 0, and the series converges iff
    :math:`\sum g` does (``exp(a*sin(n))/n**p`` converges iff p > 1)."""
    for a in sp.Mul.make_args(b):
        if not isinstance(a, sp.exp):
            continue
        c, s = a.args[0].as_independent(N, as_Add=False)
        if c.has(N) or not s.has(N) or s.free_symbols != {N} or not angle_only(s):
            continue
        g = b / a
        if g.has(sp.sin, sp.cos) or not exp_log(g):
            return None
        if not g.has(N) and not (g.is_positive or g.is_zero):
            return None
        rest = sorted(g.free_symbols & set(params), key=lambda q: q.name)
        d = decide_positive(g, rest, start) if rest else decide_terms(g, start)
        region = (
            d.details.get("region") if rest else {True: sp.true, False: sp.false}.get(d.converges)
        )
        if region is None:
            return None
        return Decision(
            None,
            f"b_n = exp({c}*{s}) g(n), {s} bounded (a continuous function of the angle n mod "
            f"2 pi), so e^(-|c| M) g <= b_n <= e^(|c| M) g: sum b_n converges iff sum g does, "
            f"g = {g}: " + d.certificate,
            test="bounded factor",
            details={"region": region, "points": d.details.get("points", [])},
        )
    return None


def _trig_majorant(b, params, start, decide_positive) -> Decision | None:
    r""":math:`b_n = T(n) g(n)` with T a product of sines and cosines (and their positive
    integer powers) of real arguments that involve the parameters (``sin(a*n)``), so
    :math:`|T| \le 1`, and g > 0 exp-log with :math:`\sum g` convergent for every value:
    :math:`|b_n| \le g` and the series converges absolutely.  None where :math:`\sum g`
    is not convergent for all values (then the frequencies matter)."""
    trig, g = [], []
    for a in sp.Mul.make_args(b.as_coeff_Mul()[1]):  # a constant factor: |c| |T| g
        base, e = a.as_base_exp()
        if isinstance(base, (sp.sin, sp.cos)) and e.is_integer and e.is_positive:
            trig.append(a)
        else:
            g.append(a)
    g = sp.Mul(*g)
    if not trig or not all(t.as_base_exp()[0].args[0].is_real for t in trig):
        return None
    if not sp.Mul(*trig).free_symbols & set(params) or not exp_log(g) or not g.has(N):
        return None
    if not (g.is_positive or positive_eventually(g)):
        return None
    rest = sorted(g.free_symbols & set(params), key=lambda q: q.name)
    d = decide_positive(g, rest, start) if rest else decide_terms(g, start)
    region = d.details.get("region") if rest else {True: sp.true}.get(d.converges)
    if region is not sp.true:
        return None
    return Decision(
        None,
        f"|b_n| <= C g(n), g = {g} (|{sp.Mul(*trig)}| <= 1), and sum g converges for every "
        "value: " + d.certificate,
        test="absolute convergence",
        details={"region": sp.true, "points": []},
    )


def _hypergeometric_factor(b, params, start, decide_positive) -> Decision | None:
    r""":math:`b_n = H(n) g(n)` with H free of the parameters, factorial-like, and
    :math:`H(n+1)/H(n)` a rational function of n, :math:`= L(1 + \sigma/n + O(n^{-2}))`
    with L > 0: :math:`H(n) = C L^n n^\sigma (1 + O(1/n))`, C > 0 (Gauss), so for g > 0
    the series converges iff :math:`\sum L^n n^\sigma g(n)` does
    (``binomial(2*n, n)/(4**n*n**p)``: L = 1, sigma = -1/2, converges iff p > 1/2)."""
    h = sp.Mul(*(a for a in sp.Mul.make_args(b) if not (a.free_symbols - {N})))
    g = b / h
    if not g.has(N) or not exp_log(g) or not h.has(N):
        return None
    ratio = term_ratio(h)
    if ratio is None or not ratio.is_rational_function(N):
        return None
    big = limit_at_infinity(ratio)
    if big is None or not big.is_number or not big.is_positive or not big.is_finite:
        return None
    sigma = limit_at_infinity(N * (ratio / big - 1))
    if sigma is None or not sigma.is_number or not sigma.is_finite:
        return None
    model = sp.powsimp(big**N * N**sigma * g, force=True)
    d = geometric_base_family(model, params, start, decide_positive) or decide_positive(
        model, params, start
    )
    d.certificate = (
        f"b_n = H(n) g(n) with H = {h}, H(n+1)/H(n) = {ratio} = {big} (1 + {sigma}/n + "
        f"O(1/n^2)) rational, so H(n) = C {big}^n n^({sigma}) (1 + O(1/n)), C > 0 (Gauss): "
        f"sum b_n converges iff sum {model} does: " + d.certificate
    )
    return d


def _gamma_ratio(b, params, start, decide_positive) -> Decision | None:
    r"""Gamma functions :math:`\Gamma(n + c)` (c free of n) replaced by their asymptotics:
    :math:`\Gamma(n + a)/\Gamma(n + b) = n^{a - b}(1 + O(1/n))` (Stirling), positive for
    n > -min(a, b): the series behaves as the one with powers of n in their place.
    Binomials, factorials and Pochhammer symbols are first written with Gamma
    (``binomial(n + a, n) = Gamma(n + a + 1)/(Gamma(a + 1) Gamma(n + 1))``); a Gamma free of
    n is a constant factor, which must be positive for the parameters' values."""
    b = b.rewrite(sp.gamma)
    reps, consts = {}, []
    for e in b.atoms(sp.gamma):
        if not e.has(N):
            consts.append(e)
            continue
        c = sp.expand(e.args[0] - N)
        if c.has(N):
            return None
        reps[e] = N**c
    if not reps or not all(e.is_positive for e in consts):
        return None
    num, den = sp.fraction(sp.together(b))
    shifts = [sp.expand(e.args[0] - N) for e in reps]
    tops = [e for e in reps if num.has(e)]
    bottoms = [e for e in reps if den.has(e)]
    if len(tops) != 1 or len(bottoms) != 1:
        return None  # one Gamma over one Gamma, each to the first power
    ones = {e: sp.Integer(1) for e in consts}  # positive constant factors
    if (b * sp.Mul(*bottoms) / tops[0]).xreplace(ones).has(sp.gamma):
        return None
    rest = b.xreplace(reps).xreplace(ones)
    if rest.has(sp.gamma) or not exp_log(rest):
        return None
    d = decide_positive(sp.powsimp(rest, force=True), params, start)
    d.certificate = (
        f"Stirling: Gamma(n + c) = n^(c - c') Gamma(n + c') (1 + O(1/n)) for the shifts "
        f"{', '.join(map(str, shifts))}, positive for large n; the terms are of the order of "
        f"{rest}: " + d.certificate
    )
    return d


def _positive_zero_region(g: sp.Expr, params: list) -> tuple | None:
    """For g > 0 (proved), the region of the parameters where g -> 0 and its boundary
    points (:func:`theory.series.parameters.zero_limit_region`); None when either step
    fails."""
    if not (g.is_positive or positive_eventually(g)):
        return None
    try:
        return zero_limit_region(g, params)
    except (Undecided, StepTimeout):
        return None


def _alternating(g: sp.Expr, params: list) -> Decision | None:
    """(-1)^n g(n), g > 0 exp-log: Leibniz where g -> 0, terms not -> 0 elsewhere."""
    if not (g.has(N) and exp_log(g)):
        return None
    limit = _positive_zero_region(g, params)
    if limit is None:
        return None
    region, points = limit
    verdict = {sp.true: True, sp.false: False}.get(region)
    return Decision(
        verdict,
        f"b_n = (-1)^n g(n), g = {g} > 0 exp-log (eventually monotone): Leibniz's test "
        f"where g -> 0, elsewhere the terms do not tend to 0; g -> 0 iff {bool_text(region)}",
        test="alternating family",
        details={"region": region, "points": points},
    )


def _absolutely(g, params, start, decide_positive) -> Decision | None:
    """(-1)^n g where sum |g| = sum g converges for every value of the case
    (``(-x)**n*n**y/factorial(n)``), or for all but finitely many values of its one
    parameter, each of those decided with its value put in (``(-x)**n/(1 + x**(2*n))``:
    x = 1 gives (-1)^n/2); absolute convergence elsewhere; None otherwise (and where g is
    not proved positive: sum g could converge only conditionally)."""
    for f in sp.Mul.make_args(g):  # factor by factor: 1/n!, x^n, n^y
        f = f.base if f.is_Pow and f.exp.is_number else f  # h > 0 gives h^c > 0
        if not (f.is_positive or (eventually_positive(f) if f.free_symbols == {N} else False)):
            if not positive_eventually(f):
                return None
    try:
        d = family_decision(g, params, start, decide_positive) or decide_positive(g, params, start)
    except (SeriesError, Undecided, StepTimeout):
        return None
    region = d.details.get("region")
    if region is None:
        return None
    points, texts = [], []
    if region is not sp.true:
        if len(params) != 1:
            return None
        p = params[0]
        try:
            rest = sp.Interval.open(0, sp.oo) - region.as_set()
        except (NotImplementedError, TypeError, ValueError):
            return None
        if not isinstance(rest, sp.FiniteSet) or len(rest) > 4:
            return None
        for v in rest:
            try:
                verdict = decide_terms(sp.Pow(-1, N) * g.subs(p, v), start).converges
            except (SeriesError, Undecided, StepTimeout):
                return None
            if verdict is None:
                return None
            region = region | sp.Eq(p, v) if verdict else region
            points.append({p: v})
            texts.append(f"at {p} = {v} the series {'converges' if verdict else 'diverges'}")
    return Decision(
        True if region is sp.true else None,
        "b_n = (-1)^n g(n) with g > 0: absolute convergence where sum g converges; "
        + "".join(t + "; " for t in texts)
        + f"for g = {g}: "
        + d.certificate,
        test="alternating family",
        details={"region": region, "points": points + d.details.get("points", [])},
    )


def _beatty(b, params, start, decide_positive) -> Decision | None:
    """g(n) (-1)^floor(alpha n + beta), g > 0 exp-log, alpha a quadratic irrational
    (module doc): the region where sum g(n)/n converges, where it equals the region where
    g -> 0; None otherwise."""
    parts = beatty_parts(b)
    if parts is None or not exp_log(parts[0]):
        return None
    g, s, alpha = parts
    limit = _positive_zero_region(g, params)
    if limit is None:
        return None
    zero, zero_points = limit
    try:
        region, points, undefined, cert = summable_region(g / N, params, start, decide_positive)
    except (Undecided, StepTimeout, SeriesError):
        return None
    if region is None or sp.simplify(sp.Xor(region, zero)) is not sp.false:
        return None  # g -> 0 with sum g(n)/n divergent somewhere: not settled here
    verdict = {sp.true: True, sp.false: False}.get(region)
    return Decision(
        verdict,
        f"b_n = g(n) s(n), s = {s} with slope {alpha} a quadratic irrational (partial sums "
        f"of s are O(log N): bounded partial quotients), g = {g} > 0 exp-log (eventually "
        "monotone): Abel summation where sum g(n)/n converges, and there g -> 0; elsewhere "
        f"g does not tend to 0, nor do the terms; sum g(n)/n converges iff "
        f"{bool_text(region)}: {cert}",
        test="Beatty family",
        details={"region": region, "points": points + zero_points, "undefined": undefined},
    )
