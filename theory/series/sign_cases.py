r"""Free parameters of any sign: the series decided in each sign case, and the cases
joined into one condition (e.g. ``n**(-a-b)`` converges iff :math:`a + b > 1`).

Each parameter of unknown sign is split into :math:`> 0`, :math:`= 0`, :math:`< 0`; each
case is decided for all its values by :func:`theory.series.parameters.decide_positive`;
the regions are joined with the fewest sign conditions the cases allow and the condition
is confirmed by the ordinary decision (:func:`theory.series.numeric.decide_terms`) at
sample values.  :func:`holds` evaluates the condition at given values.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

import sympy as sp

from theory.core.budget import StepTimeout
from theory.series.conditions import (
    bool_text,
    merge_one_parameter,
    normal_form,
    periodic_condition,
    set_text,
)
from theory.series.decision import Decision, SeriesError, Undecided, require_defined_somewhere
from theory.series.expressions import N, substitute
from theory.series.families import family_decision
from theory.series.log_scale import log_scale_region
from theory.series.numeric import check_terms, decide_terms
from theory.series.parameters import PARAM_SAMPLES, decide_positive

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
    void: bool = False  # ... nor at any value of it (no admissible value: nothing to say)


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
    logarithmic test with symbolic parameters (:func:`~theory.series.parameters.decide_positive`,
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
    require_defined_somewhere(b, start)  # else no value is admissible: nothing to condition
    scale = log_scale_region(b, start)
    if scale is not None:  # decided for every real value at once: no sign cases
        return _scale_decision(params, scale, start)
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


def _scale_decision(params, scale, start) -> Decision:
    """The condition of :func:`theory.series.log_scale.log_scale_region`: proved for every
    admissible value, nothing to confirm; every term positive, or from its ``tail`` on
    (then the values where a first term is undefined are left out, as the sign cases do)."""
    cond = merge_one_parameter(normal_form(scale.region))
    verdict = {sp.true: True, sp.false: False}.get(cond)
    text = _condition_text(params, cond, True)
    if scale.undefined_head:
        verdict = None
        names = ", ".join(p.name for p in params)
        text += f" (among the values of {names} for which every term b_n, n >= {start}, is defined)"
    return Decision(
        verdict,
        scale.certificate(),
        condition=text,
        test="log-scale rule",
        start=start,
        details={"condition": cond, "domain": sp.true},
    )


def _decide_case(b, params, signs, start) -> _Case:
    """One sign case decided for all its values: p = q, 0 or -q with q > 0 symbolic."""
    subs, back = {}, {}
    for p, s in zip(params, signs):
        q = sp.Symbol(p.name if s > 0 else f"(-{p.name})", positive=True)
        subs[p] = s * q
        back.update({q: s * p} if s else {})
    case = _Case(signs, ", ".join(f"{p} {_SIGN_TEXT[s]}" for p, s in zip(params, signs)))
    bc = substitute(b, subs)
    free = sorted(bc.free_symbols - {N}, key=lambda s: s.name)
    try:
        if bc.has(sp.zoo, sp.nan):
            raise SeriesError(f"b_n = {bc}")
        d = None
        if free:
            d = family_decision(bc, free, start, decide_positive)
        if d is None and free and bc.as_coeff_Mul()[0] < 0:  # -q n^-p: sum -b_n as sum b_n
            d = decide_positive(-bc, free, start)
            d.certificate = "for -b_n (the same region): " + d.certificate
        if d is None:
            d = decide_positive(bc, free, start) if free else decide_terms(bc, start)
        if free and d.details.get("region") is None:
            d = _negated(bc, free, start) or d  # (n + 1)**(-q) - n**(-q) < 0: as -b_n
        if free and d.details.get("region") is None:
            d = _summands(bc, free, start) or d  # x**n/n**2 + 1/n**2
    except SeriesError as exc:
        case.certificate = f"a term is not defined ({exc})"
        case.region, case.undefined = (None, False) if free else (sp.false, True)
        case.void = not free
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


def _negated(bc: sp.Expr, free: list, start: int) -> Decision | None:
    """The decision of sum -b_n (the same region), for terms that are eventually negative
    (``log(1 - q/n)``, ``sqrt(n - q) - sqrt(n)``); None where it gives no region either."""
    minus = -bc
    d = family_decision(minus, free, start, decide_positive) or decide_positive(minus, free, start)
    if d.details.get("region") is None:
        return None
    d.certificate = "for -b_n (the same region): " + d.certificate
    return d


#: at most this many summands are decided one by one
MAX_SUMMANDS = 4


def _summands(bc: sp.Expr, free: list, start: int) -> Decision | None:
    """b_n = t_1 + ... + t_m (expanded) where every summand but one converges for every value
    of the case: the region of that one (a convergent series added changes nothing)."""
    terms = sp.Add.make_args(sp.expand(bc))
    if not 2 <= len(terms) <= MAX_SUMMANDS or not all(t.has(N) for t in terms):
        return None
    regions, certs, undefined = [], [], False
    for t in terms:
        left = sorted(t.free_symbols - {N}, key=lambda s: s.name)
        if left:
            d = family_decision(t, left, start, decide_positive)
            d = d if d is not None and d.details.get("region") is not None else None
            d = d or _negated(t, left, start) or decide_positive(t, left, start)
            region = d.details.get("region")
        else:
            d = decide_terms(t, start)
            region = {True: sp.true, False: sp.false}.get(d.converges)
        if region is None:
            return None
        regions.append(region)
        certs.append(f"sum {t}: {d.certificate}")
        undefined = undefined or d.details.get("undefined", False)
    open_ = [r for r in regions if r is not sp.true]
    if len(open_) > 1:
        return None
    region = open_[0] if open_ else sp.true
    return Decision(
        None,
        "b_n is a sum of terms of which all but at most one give convergent series for every "
        "value: sum b_n converges where the remaining one does; " + "; ".join(certs),
        test="summands",
        details={"region": region, "points": [], "undefined": undefined},
    )


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
    if all(c.void for c in decided):  # no admissible value is decided: no condition to state
        return Decision(None, cert, test=cases[0].test if single else "parameters")
    terms = [t for t in _cover_terms(params, cases) if _feasible(t)]
    cond = merge_one_parameter(sp.Or(*(sp.And(*t) for t in terms)))
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


def _feasible(literals: list) -> bool:
    """False when the literals on one parameter alone meet in no value (``x < 1, x > 1``):
    a conjunction that holds nowhere, left out of the condition's text."""
    by_param = {}
    for lit in literals:
        if len(lit.free_symbols) == 1:
            by_param.setdefault(next(iter(lit.free_symbols)), []).append(lit)
    for lits in by_param.values():
        try:
            if sp.Intersection(*[lit.as_set() for lit in lits]) is sp.EmptySet:
                return False
        except (NotImplementedError, TypeError, ValueError):
            continue
    return True


def _restrict(clause, values):
    """A conjunction within a sign case (``values``: each parameter as +-q or 0 with q a
    positive symbol), in a form that compares: its set of values when one parameter is
    left (a**2 > 1 and a > 1 are the same for a > 0), else its normal form; None where
    it is undefined (a/b > 1 at b = 0)."""
    try:
        c = normal_form(sp.And(*clause).xreplace(values))
    except TypeError:
        return None
    if len(c.free_symbols) == 1 and c not in (sp.true, sp.false) and not periodic_condition(c):
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
    if len(params) == 1 and not periodic_condition(cond):
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
    bs = substitute(b, pt)
    if bs not in seen:
        try:
            seen[bs] = decide_terms(bs, start).converges
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
                check_terms(substitute(b, dict(zip(params, values))), start, count=16)
            except Exception:  # noqa: BLE001 - SeriesError or evaluation trouble: undefined
                return True
    return False
