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
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from theory.core.budget import step_budget
from theory.series.angle_means import angle_mean_bounds, angle_only, nonneg_angle
from theory.series.decision import Decision
from theory.series.expressions import N
from theory.series.limits import eventually_positive

#: positive values at which a symbolic limit is recomputed
_SAMPLES = (sp.Rational(1, 7), sp.Rational(1, 2), sp.Integer(1), sp.Rational(3, 2), sp.Integer(4))


def exp_log(e: sp.Expr) -> bool:
    """Built from n, parameters and numbers by ``+``, ``*``, powers, exp and log (a Hardy field)."""
    if e.is_Atom:
        return e.is_Symbol or (e.is_number and e.is_real is True)
    if isinstance(e, sp.Pow) and e.exp.has(N) and not e.base.is_positive:
        return False  # (-1)**n, (-2)**n oscillate
    if isinstance(e, (sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log)):
        return all(exp_log(a) for a in e.args)
    return False


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
    if b.is_Mul and sp.Pow(-1, N) in b.args:
        return _alternating(b / sp.Pow(-1, N), params)
    for a in sp.Mul.make_args(b):
        if isinstance(a, sp.Pow) and a.exp == N and a.base in params:
            return _geometric(a.base, b / a, params, start, decide_positive)
    if b.has(sp.gamma):
        return _gamma_ratio(b, params, start, decide_positive)
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


def _gamma_ratio(b, params, start, decide_positive) -> Decision | None:
    r"""Gamma functions :math:`\Gamma(n + c)` (c free of n) replaced by their asymptotics:
    :math:`\Gamma(n + a)/\Gamma(n + b) = n^{a - b}(1 + O(1/n))` (Stirling), positive for
    n > -min(a, b): the series behaves as the one with powers of n in their place."""
    reps = {}
    for e in b.atoms(sp.gamma):
        c = sp.expand(e.args[0] - N)
        if c.has(N):
            return None
        reps[e] = N**c
    if not reps:
        return None
    num, den = sp.fraction(sp.together(b))
    shifts = [sp.expand(e.args[0] - N) for e in reps]
    tops = [e for e in reps if num.has(e)]
    bottoms = [e for e in reps if den.has(e)]
    if len(tops) != 1 or len(bottoms) != 1 or (b * bottoms[0] / tops[0]).has(sp.gamma):
        return None  # one Gamma over one Gamma, each to the first power
    rest = b.xreplace(reps)
    if rest.has(sp.gamma) or not exp_log(rest):
        return None
    d = decide_positive(sp.powsimp(rest, force=True), params, start)
    d.certificate = (
        f"Stirling: Gamma(n + c) / Gamma(n + c') = n^(c - c') (1 + O(1/n)) for the shifts "
        f"{', '.join(map(str, shifts))}, positive for large n; the terms are of the order of "
        f"{rest}: " + d.certificate
    )
    return d


def _subexponential(g: sp.Expr, params: list) -> bool:
    """log|g(n)|/n -> 0 for every positive value of the parameters (checked at samples)."""
    h = sp.log(g) / N
    try:
        with step_budget(3.0):
            lims = [sp.limit(h, N, sp.oo)]
            lims += [sp.limit(h.subs({p: v for p in params}), N, sp.oo) for v in _SAMPLES]
    except Exception:  # noqa: BLE001 - no limit: unsure
        return False
    return all(v == 0 for v in lims)


def _geometric(a, g, params, start, decide_positive) -> Decision | None:
    r"""a^n g(n), a > 0, g > 0 exp-log with :math:`\log g / n \to 0`: converges for a < 1
    (root test), diverges for a > 1 (terms grow), at a = 1 as sum g."""
    rest = [p for p in params if p != a]
    if g.has(a) or not exp_log(g) or not (g.has(N) or g.is_positive):
        return None
    if not _subexponential(g, rest):
        return None
    if rest:
        d = decide_positive(g, rest, start)
        region_g = d.details.get("region")
        points = d.details.get("points", [])
    else:
        from theory.series.numeric import decide_terms  # noqa: PLC0415 - avoid a cycle

        d = decide_terms(g, start)
        region_g = {True: sp.true, False: sp.false}.get(d.converges)
        points = []
    if region_g is None or d.converges is None and not rest:
        return None
    if not (rest or g.is_positive or eventually_positive(g)):
        return None
    region = sp.Or(a < 1, sp.And(sp.Eq(a, 1), region_g))
    return Decision(
        None,
        f"b_n = {a}^n g(n) with g = {g} > 0 exp-log and log(g)/n -> 0: for {a} < 1 the root "
        f"test (b_n^(1/n) -> {a} < 1) gives convergence, for {a} > 1 the terms grow without "
        f"bound; at {a} = 1, sum g: " + d.certificate,
        test="geometric family",
        details={
            "region": region,
            "points": [{**w, a: sp.Integer(1)} for w in points]
            + [{**{p: sp.Integer(1) for p in rest}, a: sp.Integer(1)}],
        },
    )


def _alternating(g: sp.Expr, params: list) -> Decision | None:
    if not (g.has(N) and exp_log(g)):
        return None
    try:
        with step_budget(3.0):
            lim = sp.limit(g, N, sp.oo)
            samples = [sp.limit(g.subs({p: v for p in params}), N, sp.oo) for v in _SAMPLES]
    except Exception:  # noqa: BLE001 - no limit: unsure
        return None
    if lim.free_symbols:
        return None
    zero = lim == 0
    if any((s == 0) != zero or s.free_symbols for s in samples):
        return None
    region = sp.true if zero else sp.false
    why = (
        f"g = {g} -> 0, eventually monotone (exp-log): Leibniz's test"
        if zero
        else f"g = {g} -> {lim} != 0: the terms do not tend to 0"
    )
    return Decision(
        zero,
        f"b_n = (-1)^n g(n): {why}",
        test="alternating family",
        details={"region": region, "points": []},
    )
