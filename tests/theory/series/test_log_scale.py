"""The log-scale rule (:mod:`theory.series.log_scale`): conditions read off the exponents on
the scale (n log n, n, log n, log log n, ...) against the families' truth and against the
plain decision of the series with values substituted (an independent engine: logarithmic
and ratio tests with sympy's limits on numbers)."""

import itertools

import mpmath
import pytest
import sympy as sp

from tests.theory.series.free_param_families import FAMILIES, truth
from tests.theory.series.test_free_param_families import _assumptions
from theory.series import log_scale
from theory.series.convergence import decide_in_process
from theory.series.decision import SeriesError
from theory.series.expressions import ExpressionError, N, parse_expression
from theory.series.log_scale import Form, lex_less, log_scale_region, sign_rel
from theory.series.numeric import decide_terms
from theory.series.sign_cases import holds

BY_NAME = {f.name: f for f in FAMILIES}
#: families whose terms are log-scale forms: decided for every value at once (these took
#: 3 to 40 CPU seconds in 27 sign cases of sympy limits before, and several were partial
#: under the default --time-limit)
LOG_SCALE = {
    "p-series",
    "p-squared",
    "bertrand-q",
    "bertrand-pq",
    "bertrand-loglog",
    "log-power-over-power",
    "three-level-log",
    "geometric-over-power",
    "geometric-power-log",
    "central-binomial",
    "gamma-ratio",
    "binomial-ratio",
    "power-over-gamma",
    "power-times-exp",
    "sqrt-difference",
    "power-sin-inverse",
    "nth-root-minus-one",
    "inverse-log-power",
    "power-over-power-plus-one",
    "sum-of-powers",
    # the exponential part of a parameter-free factor, and log(1 + x) of a scale form
    "exp-times-one-plus-power",
    "power-log-one-plus-power",
}


def _parse(family):
    return parse_expression(family.formula, params=family.params, assumptions=_assumptions(family))


@pytest.mark.parametrize("name", sorted(LOG_SCALE))
def test_family_region_is_the_truth_at_every_grid_value(name):
    family = BY_NAME[name]
    b = _parse(family)
    scale = log_scale_region(b, family.start)
    assert scale is not None, name
    symbols = {s.name: s for s in b.free_symbols}
    for pt in family.grid_points():
        values = {symbols[k]: sp.Rational(v) for k, v in pt.items()}
        assert holds(scale.region, values) == truth(family, pt), (pt, scale.region)


@pytest.mark.parametrize("name", sorted(LOG_SCALE))
def test_family_is_decided_by_the_rule_with_a_full_condition(name):
    family = BY_NAME[name]
    d = decide_in_process(_parse(family), family.start)
    assert d.test == "log-scale rule", d.certificate
    assert d.details["domain"] is sp.true and "other values undecided" not in d.condition
    assert "among the values" not in d.condition  # every term positive: no caveat


def test_the_other_families_are_left_to_the_sign_cases():
    # oscillating, sign-changing or off the scale (exp(-a n^b), exp(-log(n)^a), a^n with a
    # of any sign): the rule must not claim them
    for family in FAMILIES:
        if family.name not in LOG_SCALE:
            assert log_scale_region(_parse(family), family.start) is None, family.name


# the three-level rule at every point of a grid around the boundary, against the plain
# decision (Bertrand at the levels n, log n, log log n) with the values substituted
_GRID = ("-2", "-1", "-1/2", "0")


@pytest.mark.slow
def test_three_levels_against_the_plain_decision():
    a, b, c = sp.symbols("a b c", real=True)
    scale = log_scale_region(N**a * sp.log(N) ** b * sp.log(sp.log(N)) ** c, 3)
    for va, vb, vc in itertools.product(_GRID, repeat=3):
        vals = {a: sp.Rational(va), b: sp.Rational(vb), c: sp.Rational(vc)}
        plain = decide_terms(
            N ** vals[a] * sp.log(N) ** vals[b] * sp.log(sp.log(N)) ** vals[c], 3
        ).converges
        assert plain in (None, holds(scale.region, vals)), vals


@pytest.mark.parametrize(
    "text, start, point, want",
    [
        # Bertrand: 1/(n log n (log log n)^c) converges iff c > 1 (integral test in log log n)
        ("n**a*log(n)**b*log(log(n))**c", 3, {"a": -1, "b": -1, "c": -1}, False),
        ("n**a*log(n)**b*log(log(n))**c", 3, {"a": -1, "b": -1, "c": -2}, True),
        ("n**a*log(n)**b*log(log(n))**c", 3, {"a": -1, "b": -2, "c": 5}, True),
        ("n**a*log(n)**b*log(log(n))**c", 3, {"a": -1, "b": 0, "c": -9}, False),
        ("n**a*log(n)**b*log(log(n))**c", 3, {"a": -2, "b": 9, "c": 9}, True),
        # n^-2 <= 1/(n^p + n^q) at p = q = 2 (tie: 1/(2 n^2)); max(p, q) = 3/2 > 1
        ("1/(n**p + n**q)", 1, {"p": 2, "q": 2}, True),
        ("1/(n**p + n**q)", 1, {"p": 1, "q": 1}, False),
        ("1/(n**p + n**q)", 1, {"p": 0, "q": sp.Rational(3, 2)}, True),
        # Stirling: n! / n^n ~ sqrt(2 pi n) e^-n: converges (root test, e^-1)
        ("factorial(n)*n**(a*n)/n**n", 1, {"a": 0}, True),
        ("factorial(n)*n**(a*n)/n**n", 1, {"a": 1}, False),
        # 4^n/binomial(2n, n) ~ sqrt(pi n) times 1/n^p: converges iff p > 3/2
        ("4**n/(binomial(2*n, n)*n**p)", 1, {"p": sp.Rational(3, 2)}, False),
        ("4**n/(binomial(2*n, n)*n**p)", 1, {"p": 2}, True),
        # e^(k n) c^n = (e^k c)^n: geometric, ratio e^k c (c > 0)
        ("exp(k*n)*c**n", 1, {"k": -1, "c": 2}, True),
        ("exp(k*n)*c**n", 1, {"k": -1, "c": 3}, False),
        ("exp(k*n)*c**n", 1, {"k": 0, "c": 1}, False),
        # log(1 + x): x -> 0 gives ~ x, x -> K gives log(1 + K), x -> oo gives ~ log x.
        # log(1 + log(n)^b)/n: b < 0 ~ 1/(n log(n)^-b) (Bertrand: b < -1); b = 0: log(2)/n;
        # b > 0: ~ b log(log(n))/n (diverges)
        ("log(1 + log(n)**b)/n", 2, {"b": -2}, True),
        ("log(1 + log(n)**b)/n", 2, {"b": -1}, False),
        ("log(1 + log(n)**b)/n", 2, {"b": 1}, False),
        # log(1 + e^(a n))/n^2: a < 0 ~ e^(a n)/n^2; a = 0: log(2)/n^2; a > 0: ~ a/n
        ("log(1 + exp(a*n))/n**2", 1, {"a": -1}, True),
        ("log(1 + exp(a*n))/n**2", 1, {"a": 0}, True),
        ("log(1 + exp(a*n))/n**2", 1, {"a": 1}, False),
        # log(1 + n^(a n))/n^2: a > 0 ~ a log(n)/n (diverges)
        ("log(1 + n**(a*n))/n**2", 1, {"a": 1}, False),
        ("log(1 + n**(a*n))/n**2", 1, {"a": -1}, True),
        # (n/2)^n c^n/n! ~ (e c/2)^n/sqrt(2 pi n) (Stirling): converges iff c < 2/e
        ("(n/2)**n*c**n/factorial(n)", 1, {"c": sp.Rational(7, 10)}, True),
        ("(n/2)**n*c**n/factorial(n)", 1, {"c": sp.Rational(3, 4)}, False),
    ],
)
def test_rule_at_points_with_known_answers(text, start, point, want):
    names = tuple(point)
    kinds = {"c": "positive"} if "c**n" in text else None
    b = parse_expression(text, params=names, assumptions=kinds)
    scale = log_scale_region(b, start)
    assert scale is not None
    values = {s: sp.sympify(point[s.name]) for s in b.free_symbols if s.name in point}
    assert holds(scale.region, values) is want, scale.region


def test_forms_of_parameter_free_factors_and_gamma():
    # n^(1/n) - 1 = e^(log(n)/n) - 1 ~ log(n)/n: exponents (-1, 1)
    p = sp.Symbol("p", real=True)
    scale = log_scale_region((N ** (1 / N) - 1) ** p, 2)
    assert scale.pieces == [(sp.true, Form(0, 0, (-p, p)))]
    assert [(str(f), k) for f, _, k in scale.limits] == [("n**(1/n) - 1", 1)]
    # (1 + 1/n)^(n^2) = e^(n^2 log(1 + 1/n)) = e^(n - 1/2 + O(1/n)): gamma = 1, constant
    # e^(-1/2) (checked with mpmath at n = 10^7: the quotient is e^(-1/2) + O(1/n))
    a = sp.Symbol("a", real=True)
    scale = log_scale_region(sp.exp(-a * N) * (1 + 1 / N) ** (N**2), 1)
    ((_, form, k),) = scale.limits
    assert form == Form(0, 1, (0,)) and k == sp.exp(-sp.S.Half)
    assert scale.region == (a > 1)
    # at c = 2/e the terms are ~ 1/sqrt(2 pi n): the boundary belongs to divergence
    c = sp.Symbol("c", positive=True)
    region = log_scale_region((N / 2) ** N * c**N / sp.factorial(N), 1).region
    assert sp.expand_log(region.subs(c, 2 / sp.E), force=True) is sp.false
    with mpmath.workdps(40):
        n = mpmath.mpf(10) ** 7
        quotient = mpmath.exp(n**2 * mpmath.log1p(1 / n) - n)
        assert abs(quotient - mpmath.exp(-0.5)) < 1e-6
    # binomial(2n, n) = Gamma(2n + 1)/Gamma(n + 1)^2 ~ 4^n/sqrt(pi n) (Stirling)
    a = sp.Symbol("a", positive=True)
    scale = log_scale_region(sp.binomial(2 * N, N) / a**N, 1)
    ((cond, form),) = scale.pieces
    assert form.sigma == 0 and sp.simplify(form.gamma - sp.log(4) + sp.log(a)) == 0
    assert form.exps == (-sp.S.Half,)
    assert scale.region == (a > 4)


@pytest.mark.parametrize(
    "text, start",
    [
        ("n**a - 1", 1),  # a difference: not a sum of positive terms
        ("a/n**2", 1),  # a constant factor of either sign
        ("gamma(n + c)", 1),  # poles and sign changes where n + c <= 0
        ("sin(n)**2/n**p", 1),  # oscillating factor
        ("exp(-a*n**b)", 1),  # n^b is not on the scale
        ("exp(-log(n)**a)", 2),  # log(n)^a is not on the scale
        ("a**n", 1),  # a base of either sign
        ("n**(1/a)", 1),  # an exponent undefined at a = 0
        ("log(n**a)", 2),  # a log without a constant >= 1: negative where n^a -> 0
        ("log(1/2 + n**a)", 1),  # log(1/2) < 0 where n^a -> 0
    ],
)
def test_outside_the_rule(text, start):
    b = parse_expression(text, params=("a", "b", "c", "p"))
    assert log_scale_region(b, start) is None


@pytest.mark.parametrize(
    "text, start, tail, point, want",
    [
        # log(1) = 0: 0^b is undefined for b < 0, so b_1 is; from n = 2 on every term is
        # positive and Bertrand decides: p < -1 or (p = -1 and q < -1)
        ("n**p*log(n)**q", 1, 2, {"p": -1, "q": -2}, True),
        ("n**p*log(n)**q", 1, 2, {"p": -1, "q": 0}, False),
        # log(log(2)) < 0: (log log 2)^c is not real for c = 1/2; from n = 3 on positive
        ("log(log(n))**c/(n*log(n))", 2, 3, {"c": -2}, True),
        ("log(log(n))**c/(n*log(n))", 2, 3, {"c": -1}, False),
    ],
)
def test_head_of_undefined_terms_is_left_out(text, start, tail, point, want):
    b = parse_expression(text, params=tuple(point))
    scale = log_scale_region(b, start)
    assert scale.tail == tail and scale.undefined_head
    values = {s: sp.Integer(point[s.name]) for s in b.free_symbols if s.name in point}
    assert holds(scale.region, values) is want
    d = decide_in_process(b, start)
    assert d.test == "log-scale rule" and d.converges is None
    assert d.condition.endswith(f"for which every term b_n, n >= {start}, is defined)")


def test_lexicographic_comparison():
    a, b = sp.symbols("a b", real=True)
    less = lex_less((a, b), (sp.Integer(-1), sp.Integer(-1)))
    assert holds(less, {a: -2, b: 5}) and holds(less, {a: -1, b: -2})
    assert not holds(less, {a: -1, b: -1}) and not holds(less, {a: 0, b: -9})
    le = lex_less((a, b), (sp.Integer(-1), sp.Integer(-1)), strict=False)
    assert holds(le, {a: -1, b: -1}) and not holds(le, {a: -1, b: 0})
    # a combination of logarithms compares the products: log(c/2) < 0 iff c < 2
    c = sp.Symbol("c", positive=True)
    assert sign_rel(sp.log(c / 2), sp.Lt) == (c < 2)
    assert sign_rel(sp.log(4) - sp.log(c), sp.Lt) == sp.Lt(4, c)


@pytest.mark.parametrize(
    "text, start, name, values",
    [
        # (log log n)^c at n = 2 is (negative)^c: not real for c = 1/2, real for integers
        ("log(log(n))**c/(n*log(n))", 2, "c", ("-2", "-1", "0", "1/2", "2")),
        # log(1)^q = 0^q: undefined for q < 0, 1 at q = 0 (sympy's 0**0), 0 for q > 0
        ("log(n)**q/n", 1, "q", ("-2", "-1", "0", "1")),
        # p = 0 and q = 0 at the tie of 1/(n^p + n^q): 1/2 for every n, diverges
        ("1/(n**p + n)", 1, "p", ("0", "1", "3/2")),
    ],
)
def test_free_condition_agrees_with_the_values_put_in(text, start, name, values):
    """What --free reports at a value and what --param reports there: the same verdict, or
    the --param run refuses a term that is not defined and the --free condition leaves
    such values out (its caveat)."""
    d = decide_in_process(parse_expression(text, params=(name,)), start)
    cond, p = d.details["condition"], sp.Symbol(name, real=True)
    for v in values:
        try:
            b = parse_expression(text, params=(name,), values={name: sp.Rational(v)})
            plain = decide_terms(b, start).converges
        except (ExpressionError, SeriesError):
            assert "is defined)" in d.condition, (v, d.condition)
            continue
        assert plain == holds(cond, {p: sp.Rational(v)}), (v, d.condition)


def test_running_out_of_the_rule_budget_leaves_the_series_to_the_sign_cases(monkeypatch):
    # the limits of a parameter-free factor may be slow: past BUDGET CPU seconds the rule
    # gives up (None), it does not raise (a factor used nowhere else: its limits are not
    # in the cache, so they are computed here and take more than the budget)
    p = sp.Symbol("p", real=True)
    factor = (N ** (1 / N) - 1 + N ** (-5) / 7) ** p
    monkeypatch.setattr(log_scale, "BUDGET", 1e-3)
    assert log_scale.log_scale_region(factor, 2) is None
    monkeypatch.setattr(log_scale, "BUDGET", 60.0)
    assert log_scale.log_scale_region(factor, 2) is not None
