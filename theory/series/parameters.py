r"""The logarithmic test with free parameters, all positive (RPE paper App. B: Kerple log
converges iff :math:`r > 1`).

:func:`decide_positive` takes the limits of the logarithmic test with the parameters
symbolic; where :math:`\lambda = -1` on a boundary of the parameters it is solved for one
parameter and the series decided again there, from the next iterated-log level.  Every
symbolic limit is recomputed at sample values of the parameters
(:data:`PARAM_SAMPLES`), since sympy's limit silently assumes one case of a comparison
that depends on them.  Parameters of any sign are split into sign cases by
:mod:`theory.series.sign_cases`.
"""

from __future__ import annotations

import sympy as sp
from sympy.series.gruntz import sign as gruntz_sign

from theory.core.budget import StepTimeout, step_budget
from theory.series.comparison_tests import LEVEL_NAMES, LOG_LEVELS, level_logs, log_cert
from theory.series.conditions import bool_text, normal_form, set_relation
from theory.series.decision import Decision, SeriesError, Undecided
from theory.series.expressions import N
from theory.series.limits import STEP_BUDGET, limit_at_infinity, smooth
from theory.series.log_scale import log_scale_region
from theory.series.numeric import decide_terms


def decide_positive(b: sp.Expr, params: list, start: int, level: int = 0) -> Decision:
    """Every parameter positive: the logarithmic test with the parameters symbolic (from
    iterated-log ``level`` on); the details hold ``region`` (where it converges, a
    condition on ``params``; absent when unsure) and ``points`` (sample values on the
    boundaries found)."""
    names = ", ".join(p.name for p in params)
    scale = log_scale_region(b, start)
    if scale is not None:  # proved for every value at once (no limit in the parameters)
        verdict = (
            None if scale.undefined_head else {sp.true: True, sp.false: False}.get(scale.region)
        )
        details = {"region": scale.region, "points": [], "undefined": scale.undefined_head}
        return Decision(verdict, scale.certificate(), test="log-scale rule", details=details)
    if not smooth(b) or not (b.is_positive or positive_eventually(b)):
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


def positive_eventually(b: sp.Expr) -> bool:
    """b > 0 for all large n for every positive value of the parameters (Gruntz's sign)."""
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
    num, den = level_logs(b, level)
    lam = limit_at_infinity(num / den, check=False)
    if lam is None and level == 0:
        return _param_stretched_test(b, params, start)
    if lam is None:
        raise Undecided("the logarithmic limit could not be computed")
    _check_param_limit(num / den, lam, params)
    if lam == -1:
        return _param_log_test(b, params, start, level + 1)
    if lam.is_number:
        conv = bool(lam == -sp.oo or lam < -1)
        cert = log_cert(b, lam, level, "b_n", conv).certificate
        names = ", ".join(p.name for p in params)
        region = sp.true if conv else sp.false
        return Decision(
            conv,
            f"for all {names} > 0: {cert}",
            test="logarithmic test",
            details={"region": region, "points": []},
        )
    conv, div, edges = _split_limit(lam)
    region, points, undefined = _with_edges(conv, edges, b, params, start, level)
    cert = (
        f"logarithmic test with parameters: lim {LEVEL_NAMES[level]} = {lam}; < -1 (converges) "
        f"iff {bool_text(conv)}, > -1 (diverges) iff {bool_text(div)}"
        + "".join(f"; at {p} = {v} decided separately" for p, v in edges)
    )
    details = {"limit": str(lam), "region": region, "points": points, "undefined": undefined}
    return Decision(None, cert, test="logarithmic test with parameters", details=details)


def _with_edges(conv, edges, b, params, start, level) -> tuple:
    """(region, points, undefined): ``conv`` joined with the series decided again on each
    boundary p = v of ``edges``."""
    region, points, undefined = conv, [], False
    for p, v in edges:
        sub, sub_points, sub_undefined = _edge_region(b, p, v, params, start, level)
        region = region | (sp.Eq(p, v) & sub)
        points += sub_points
        undefined = undefined or sub_undefined
    return region, points, undefined


#: the scales of the stretched test: (scale s(n), threshold t, its name)
_STRETCHED_SCALES = (
    (sp.log(N), 0, "log(n)", "b_n <= exp(-n^delta)", "b_n -> 1"),
    (sp.log(sp.log(N)), 1, "log(log(n))", "b_n <= n^-(log n)^delta", "b_n >= n^-eps"),
)


def _param_stretched_test(b, params, start):
    r"""The logarithmic limit not computable with the parameters symbolic
    (``exp(-log(n)**a)``, ``(1 - 1/n)**(n**a)``): with :math:`-\log b_n > 0` for large n,
    :math:`\nu = \lim \log(-\log b_n)/s(n)` on the scale :math:`s = \log n` (threshold
    t = 0) and then :math:`s = \log\log n` (t = 1).  :math:`\nu > t`: :math:`-\log b_n \ge
    e^{s(n)(\nu + t)/2}`, i.e. :math:`b_n \le e^{-n^\delta}` or
    :math:`b_n \le n^{-(\log n)^\delta}` (δ > 0), which converges; :math:`\nu < t`:
    :math:`-\log b_n \to 0` (t = 0: the terms tend to 1) or :math:`-\log b_n = o(\log n)`
    (t = 1: :math:`b_n \ge n^{-\varepsilon}`), which diverges; at :math:`\nu = t` the
    boundary is solved for one parameter and the series decided there again."""
    minus_log = sp.expand_log(-sp.log(b), force=True)
    if not _same_values(minus_log, -sp.log(b), params) or not positive_eventually(minus_log):
        raise Undecided("the logarithmic limit could not be computed")
    for vals in _sample_combos(params):  # Gruntz's sign with symbols may assume a case
        if not positive_eventually(minus_log.subs(vals)):
            raise Undecided("-log(b_n) > 0 for large n is not confirmed at sample values")
    for scale, t, name, small, large in _STRETCHED_SCALES:
        ratio = sp.log(minus_log) / scale
        nu = limit_at_infinity(ratio, check=False)
        if nu is None:
            continue
        _check_param_limit(ratio, nu, params)
        if nu.is_number:
            if nu == t:
                continue
            conv = bool(nu > t)
            return Decision(
                conv,
                f"for all {', '.join(p.name for p in params)} > 0: lim log(-log b_n)/{name} = "
                f"{nu} {'>' if conv else '<'} {t}: " + (small if conv else large),
                test="stretched test with parameters",
                details={"region": sp.true if conv else sp.false, "points": []},
            )
        conv, div, edges = _split_limit(t - 1 - nu)  # t - 1 - nu < -1 iff nu > t
        region, points, undefined = _with_edges(conv, edges, b, params, start, -1)
        cert = (
            f"stretched test with parameters: -log b_n > 0, lim log(-log b_n)/{name} = {nu}; "
            f"> {t} (converges: {small}, delta > 0) iff {bool_text(conv)}, "
            f"< {t} (diverges: {large}) iff {bool_text(div)}"
            + "".join(f"; at {p} = {v} decided separately" for p, v in edges)
        )
        details = {"limit": str(nu), "region": region, "points": points, "undefined": undefined}
        return Decision(None, cert, test="stretched test with parameters", details=details)
    raise Undecided("the logarithmic limit could not be computed")


def _same_values(e1, e2, params) -> bool:
    """e1 = e2 (real) at a few large n and sample values of the parameters (a forced
    expansion of a logarithm checked where it is used)."""
    try:
        for n in (10**3, 10**6):
            for v in PARAM_SAMPLES[1::2]:
                at = {N: sp.Float(n, 30), **{p: sp.Float(v, 30) for p in params}}
                x, y = complex(e1.subs(at).evalf(30)), complex(e2.subs(at).evalf(30))
                if abs(x.imag) > 0 or abs(x - y) > 1e-9 * max(1.0, abs(y)):
                    return False
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        return False
    return True


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
    return set_relation(conv_set, p), set_relation(div_set, p), [(p, v) for v in edge]


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
            d, undefined = decide_terms(bs, start), False
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


def zero_limit_region(g: sp.Expr, params: list) -> tuple:
    r"""Where :math:`g(n) \to 0` (g > 0 exp-log, the parameters positive symbols): the
    region (a condition on ``params``) and sample points on its boundaries.

    :math:`\lambda = \lim \log g/\log n` (recomputed at sample values): g -> 0 where
    :math:`\lambda < 0`, g -> oo where :math:`\lambda > 0`; on a boundary
    :math:`\lambda = 0` solved for one parameter the rest is decided again, and with no
    parameter left (or :math:`\lambda = 0` identically) by the limit of g itself, which
    must not depend on the parameters.  Raises ``Undecided`` when unsure.

    >>> q = sp.Symbol("q", positive=True)
    >>> zero_limit_region(N**(1 - q), [q])[0]
    q > 1
    """
    if not params:
        lim = limit_at_infinity(g)
        if lim is None or not lim.is_number:
            raise Undecided(f"the limit of {g} could not be computed")
        return (sp.true if lim == 0 else sp.false), []
    ratio = sp.log(g) / sp.log(N)
    lam = limit_at_infinity(ratio, check=False)
    if lam is None:
        raise Undecided(f"the limit of log({g})/log(n) could not be computed")
    _check_param_limit(ratio, lam, params)
    if lam.is_number:
        if lam != 0:
            return (sp.true if lam < 0 else sp.false), []
        return _zero_limit_samples(g, params), []
    conv, _, edges = _split_limit(lam - 1)  # lam - 1 < -1 iff lam < 0
    region, points = conv, []
    for p, v in edges:
        gs = g.subs(p, v)
        rest = sorted(gs.free_symbols - {N}, key=lambda s: s.name)
        sub, inner = zero_limit_region(gs, rest)
        region = region | (sp.Eq(p, v) & sub)
        others = [q for q in params if q != p]
        for w in inner + [{q: m for q in others} for m in PARAM_SAMPLES[1:4]]:
            w = {q: w.get(q, PARAM_SAMPLES[2]) for q in others}
            point = {**w, p: v.subs(w)}
            if point[p].is_positive and point not in points and len(points) < 3:
                points.append(point)
    return region, points


def _zero_limit_samples(g, params):
    """g -> 0 or not, the same for every positive value of the parameters: the symbolic
    limit free of them and equal to the limits at sample values."""
    lim = limit_at_infinity(g, check=False)
    if lim is None or lim.free_symbols:
        raise Undecided(f"the limit of {g} depends on the parameters")
    for v in PARAM_SAMPLES:
        got = limit_at_infinity(g.subs({p: v for p in params}))
        if got is None or (got == 0) != (lim == 0):
            raise Undecided(f"the limit of {g} could not be confirmed at the value {v}")
    return sp.true if lim == 0 else sp.false


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
