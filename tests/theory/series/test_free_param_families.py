"""Free-parameter conditions against families with known regions
(:mod:`tests.theory.series.free_param_families`; the truth and its argument are written
beside each family).

At every grid value (boundaries included) the condition the sign cases give
(``details["condition"]`` within ``details["domain"]``) must agree with the truth where it
decides, and so must the plain decision with the values substituted.  The families listed
in ``DECIDED`` must be decided at every grid value."""

import pytest
import sympy as sp

from tests.theory.series.free_param_families import FAMILIES, truth
from theory.series.convergence import decide_in_process
from theory.series.expressions import ExpressionError, parse_expression
from theory.series.sign_cases import holds

BY_NAME = {f.name: f for f in FAMILIES}
_KINDS = {">0": "positive", "<0": "negative", ">=0": "nonnegative", "<=0": "nonpositive"}

#: decided at every grid value by the condition
DECIDED = {
    "p-series",
    "p-squared",
    "bertrand-q",
    "geometric",
    "geometric-over-power",
    "exponential",
    "gamma-ratio",
    "binomial-ratio",
    "central-binomial",
    "power-over-gamma",
    "sin-2n",
    "sin-frequency",
    "cos-frequency",
    "triangular-sign",
    "sqrt-sign-blocks",
    "cos-squared",
    "sin-squared",
    "alternating",
    "exp-sin-amplitude",
    "stretched-exp",
    "power-times-exp",
    "log-normal",
    "exp-log-power",
    "one-minus-power",
    "loglog-exponent",
    "one-plus-power",
    "sqrt-difference",
    "power-sin-inverse",
    "one-minus-cos",
    "inverse-log-power",
    # the log-scale rule (tests/theory/series/test_log_scale.py): decided for every value
    "bertrand-pq",
    "bertrand-loglog",
    "log-power-over-power",
    "three-level-log",
    "geometric-power-log",
    "nth-root-minus-one",
    "power-over-power-plus-one",
    "sum-of-powers",
    # complete since the log of a sum, the exponential part of a parameter-free factor,
    # parametric G under sin/cos(a n) and the exponential sign blocks
    "exp-times-one-plus-power",
    "power-log-one-plus-power",
    "cos-frequency-power",
    "sin-frequency-power",
    "log-sign-blocks",
    "geometric-over-power-real",
    "gamma-ratio-real",
}
#: quick enough for every run (a few seconds each); the others are marked slow
FAST = {
    "p-series",
    "geometric",
    "exponential",
    "gamma-ratio",
    "binomial-ratio",
    "central-binomial",
    "sin-2n",
    "log-normal",
    "inverse-log-power",
    # the log-scale rule: no sign cases, no limit in the parameters
    "p-squared",
    "bertrand-q",
    "bertrand-pq",
    "bertrand-loglog",
    "log-power-over-power",
    "three-level-log",
    "geometric-over-power",
    "geometric-power-log",
    "power-over-gamma",
    "power-times-exp",
    "sqrt-difference",
    "power-sin-inverse",
    "nth-root-minus-one",
    "power-over-power-plus-one",
    "sum-of-powers",
    "exp-times-one-plus-power",
    "power-log-one-plus-power",
    "log-sign-blocks",
    "gamma-ratio-real",
}


def _assumptions(family) -> dict:
    out = {}
    for a in family.assume:
        for op, kind in _KINDS.items():
            if a.endswith(op) and a[: -len(op)] in family.params:
                out[a[: -len(op)]] = kind
    return out


def _decision(family):
    b = parse_expression(family.formula, params=family.params, assumptions=_assumptions(family))
    return b, decide_in_process(b, family.start)


def _check_condition(family):
    b, d = _decision(family)
    symbols = {s.name: s for s in b.free_symbols}
    cond = d.details.get("condition") if d.details else None
    domain = d.details.get("domain", sp.true) if d.details else sp.true
    wrong, undecided = [], []
    for pt in family.grid_points():
        values = {symbols[k]: sp.Rational(v) for k, v in pt.items() if k in symbols}
        if d.converges is not None:
            got = d.converges
        elif cond is None or domain.xreplace(values) is not sp.true:
            undecided.append(pt)
            continue
        else:
            got = holds(cond, values)
        if got != truth(family, pt):
            wrong.append(pt)
    return d, wrong, undecided


def _marks(name):
    return () if name in FAST else (pytest.mark.slow,)


@pytest.mark.parametrize("name", [pytest.param(f.name, marks=_marks(f.name)) for f in FAMILIES])
def test_condition_agrees_with_the_truth(name):
    family = BY_NAME[name]
    d, wrong, undecided = _check_condition(family)
    assert not wrong, (d.condition, wrong)
    if name in DECIDED:
        assert not undecided, (d.condition, d.certificate)


@pytest.mark.slow
@pytest.mark.parametrize("name", [f.name for f in FAMILIES])
def test_values_substituted_agree_with_the_truth(name):
    family = BY_NAME[name]
    for pt in family.grid_points():
        values = {k: sp.Rational(v) for k, v in pt.items()}
        try:
            b = parse_expression(family.formula, params=tuple(pt), values=values)
        except ExpressionError:  # a named refusal (0**n at a = 0), not a verdict
            continue
        d = decide_in_process(b, family.start)
        assert d.converges in (None, truth(family, pt)), (pt, d.certificate)


def test_binomial_ratio_condition():
    # binomial(n + a, n) = Gamma(n + a + 1)/(Gamma(a + 1) Gamma(n + 1)) ~ n^a/Gamma(a + 1)
    # (Stirling), so the series converges iff b - a > 1
    d = _decision(BY_NAME["binomial-ratio"])[1]
    assert d.condition == "converges iff a - b < -1"


@pytest.mark.parametrize(
    "text, params, assumptions, condition",
    [
        # (2a)^n: geometric, converges iff |2a| < 1 (a < 0: alternating, |b_n| = |2a|^n)
        ("(2*a)**n", ("a",), {}, "converges iff a > -1/2 and a < 1/2"),
        # (-1)^n (a/3)^n / n (a > 0): root test a/3; at a = 3 the alternating harmonic
        # series converges (Leibniz)
        ("(-1)**n*(a/3)**n/n", ("a",), {"a": "positive"}, "converges iff a <= 3"),
        # (a/2)^n n^b (a > 0): root test a/2; at a = 2 the p-series n^b, b < -1
        (
            "(a/2)**n*n**b",
            ("a", "b"),
            {"a": "positive"},
            "converges iff a < 2 or (a = 2 and b < -1)",
        ),
        # 2^(-q n) n^(-p): root test 2^(-q), so q > 0 converges, q < 0 diverges; at q = 0
        # the p-series n^-p (p > 1).  The factor log(2) > 0 of q log 2 is divided out.
        ("2**(-q*n)*n**(-p)", ("q", "p"), {}, "converges iff q > 0 or (p > 1 and q = 0)"),
        # e^(-q pi n) / n: q > 0 geometric, q = 0 harmonic, q < 0 terms grow
        ("exp(-q*pi*n)/n", ("q",), {}, "converges iff q > 0"),
    ],
)
def test_geometric_base_depending_on_a_parameter(text, params, assumptions, condition):
    d = decide_in_process(parse_expression(text, params=params, assumptions=assumptions), 1)
    assert d.condition == condition, d.certificate


@pytest.mark.parametrize(
    "text, params, condition",
    [
        # exp(-log(n)^a): log(-log b_n)/log(log(n)) = a; a > 1 faster than any power,
        # a = 1 is 1/n, a < 1 slower than every n^-eps
        ("exp(-log(n)**a)", ("a",), "converges iff a > 1"),
        # (1 - 1/n)^(n^a) = exp(-n^(a - 1) (1 + O(1/n))): log(-log b_n)/log(n) = a - 1
        ("(1 - 1/n)**(n**a)", ("a",), "converges iff a > 1"),
    ],
)
def test_stretched_test_with_a_parameter(text, params, condition):
    d = decide_in_process(parse_expression(text, params=params), 2)
    assert d.condition == condition, d.certificate


def test_parametric_frequency_under_a_convergent_majorant():
    # |cos(a n)^2 sin(b n)| / (n log(n)^2) <= 1/(n log(n)^2), summable (Bertrand) for all a, b
    b = parse_expression("cos(a*n)**2*sin(b*n)/(n*log(n)**2)", params=("a", "b"))
    assert decide_in_process(b, 2).converges is True
