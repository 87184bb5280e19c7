"""Free real parameters over their whole range: the sign cases of each parameter joined.

References: the p-series test (sum n^-p converges iff p > 1) and the geometric series for
one parameter; for several, the plain decision of the series with values substituted."""

import itertools

import pytest
import sympy as sp

from theory.series.convergence import decide_in_process
from theory.series.decision import SeriesError
from theory.series.expressions import parse_expression
from theory.series.sign_cases import admissible_signs, holds

CASES = [
    # n^-(2 + k^2): exponent >= 2 for every real k, k = 0 included
    ("n**(-2 - k**2)", True, "converges for every real k"),
    # n^-k: converges iff k > 1; k = 0 gives terms 1, k < 0 growing terms
    ("n**(-k)", None, "converges iff k > 1"),
    # n^-(k^2): converges iff |k| > 1 (both signs; k = 0 gives terms 1)
    ("n**(-k**2)", None, "converges iff k < -1 or k > 1"),
    # 1/(n^2 + k^2) <= 1/n^2 for every real k
    ("1/(n**2 + k**2)", True, "converges for every real k"),
    # exp(-k n): geometric for k > 0, terms 1 at k = 0, growing for k < 0
    ("exp(-k*n)", None, "converges iff k > 0"),
    # k^P(n), P a polynomial with a positive leading coefficient: |b_n|^(1/P(n)) -> |k|; the
    # sign (-1)^P(n) by P's parity: n^2 ~ n (alternating), n^2 + n even, 2n + 1 odd
    ("k**(n**2)", None, "converges iff k > -1 and k < 1"),  # k = -1: (-1)^n, no limit
    ("k**(n**2)/n", None, "converges iff k >= -1 and k < 1"),  # k = -1: Leibniz
    ("k**(n**2 + n)", None, "converges iff k > -1 and k < 1"),  # k = -1: terms 1
    ("k**(2*n + 1)/n", None, "converges iff k > -1 and k < 1"),  # k = -1: -1/n
    ("k**(n**2 + 1)/n", None, "converges iff k >= -1 and k < 1"),  # k = -1: -(-1)^n/n
    # a base of any sign that is a function of k: |k - 1| < 1, and k^2 - 2 = -1 at k = +-1
    # ((-1)^n/n converges), = 1 at k = +-sqrt(3) (1/n diverges)
    ("(k - 1)**n", None, "converges iff k > 0 and k < 2"),
    (
        "(k**2 - 2)**n/n",
        None,
        "converges iff k > -sqrt(3) and k <= -1 or k >= 1 and k < sqrt(3)",
    ),
    ("sin(k)**(2*n)", None, "converges iff sin(k)**2 < 1"),  # sin(k)^2 = 1: terms 1
    # a power series in k with coefficients of radius 1 (|sin(n)| <= 1, not -> 0): |k| < 1;
    # at k = +-1 the terms sin(n), (-1)^n sin(n) do not tend to 0
    ("k**n*sin(n)", None, "converges iff k > -1 and k < 1"),
    # ... and with 1/n both edges converge (Dirichlet: partial sums of sin(n), sin(n(1 + pi))
    # are bounded)
    ("k**n*sin(n)/n", None, "converges iff k >= -1 and k <= 1"),
    ("(k - 1)**n*(2 + cos(n))", None, "converges iff k > 0 and k < 2"),  # terms >= 1 at c = +-1
    # numeric rates join the base: (k/2)^n sin(n), (k/e)^n sin(n)
    ("k**n*sin(n)/2**n", None, "converges iff k > -2 and k < 2"),
    ("k**n*exp(-n)*sin(n)", None, "converges iff k > -E and k < E"),
    # n! k^n: |b_(n+1)/b_n| = (n + 1)|k| -> oo unless k = 0
    ("k**n*factorial(n)", None, "converges iff k = 0"),
    # log(n!)/n^3 -> 0: the root test in k^(n^3); k = -1: (-1)^n n!, terms grow
    ("k**(n**3)*factorial(n)", None, "converges iff k > -1 and k < 1"),
    ("k**(n**2)*sin(n)/n", None, "converges iff k >= -1 and k <= 1"),  # k = -1: (-1)^n sin(n)/n
    # a factor that vanishes: every term 0 there, elsewhere the series of the rest
    ("(k - 1)**2/n", None, "converges iff k = 1"),
    ("(k - 1)*(k - 2)/n", None, "converges iff k = 1 or k = 2"),
    ("k**2*sin(n)", None, "converges iff k = 0"),  # sin(n) does not tend to 0
    # factors that vanish at infinitely many values: k = j pi, cos(k) = 1 at k = 2 j pi
    ("sin(k)**2/n", None, "converges iff sin(k) = 0"),
    ("(1 - cos(k))*(-1)**n", None, "converges iff cos(k) = 1"),
    ("(k - 1)/n**2", True, "converges for every real k"),
    ("(1 + k**2)*(-1)**n/n", True, "converges for every real k"),
    # the binomial series at 1: b_(n+1)/b_n = (k - n)/(n + 1) (1 + 1/n)^q, |b_n| ~
    # n^(q - k - 1)/|Gamma(-k)|: Leibniz iff k + 1 - q > 0, and finite sums at k = 0, 1, ... < q
    ("binomial(k, n)", None, "converges iff k > -1"),
    ("binomial(k, n)*n", None, "converges iff k >= 0"),
    ("binomial(k, n)*n**(5/2)", None, "converges iff k = 0 or k = 1 or k > 3/2"),
    ("binomial(-k, n)*n**2", None, "converges iff k <= -1 or k = 0"),
    # (-1)^n binomial(k, n) n^q: one sign for n > k, |b_n| ~ n^(q - k - 1)/|Gamma(-k)|
    ("(-1)**n*binomial(k, n)", None, "converges iff k >= 0"),
    ("(-1)**n*binomial(k, n)*n", None, "converges iff k = 0 or k >= 1"),
    # binomial(n + k, n) = (-1)^n binomial(-k - 1, n) ~ n^k/Gamma(k + 1); 0 from n = -k on
    # for a negative integer k
    ("binomial(n + k, n)", None, "converges iff k <= -1"),
    ("binomial(n + k, n)/n**2", None, "converges iff k < 1"),
    # telescoping: the partial sums are f(N + 1) - f(start), convergent iff lim f is finite
    ("(n + 1)**k - n**k", None, "converges iff k <= 0"),
    ("(n + 1)**(k - 1) - n**(k - 1)", None, "converges iff k <= 1"),  # f = 1 at k = 1
    ("1/n**k - 1/(n + 1)**k", None, "converges iff k >= 0"),
    ("exp(k/n) - exp(k/(n + 1))", True, "converges for every real k"),
    # (-1)^n |k|^n/(1 + k^(2n)) for k < 0: absolutely convergent but at |k| = 1, where the
    # terms are (-1)^n/2 (and 1/2 at k = 1)
    ("k**n/(1 + k**(2*n))", None, "converges iff k != -1 and k != 1"),
    # (-1)^n cos(pi n) = 1 at the integers: sum n^-k, not the alternating series of cos(pi n)
    ("(-1)**n*cos(pi*n)/n**k", None, "converges iff k > 1"),
    # a summand whose series converges for every k changes nothing: the rest decides
    ("(k**n + 1)/n**2", None, "converges iff k >= -1 and k <= 1"),
    ("sin(n)/n**2 + k**n", None, "converges iff k > -1 and k < 1"),
    # terms of one sign for k < 0 too, read as -b_n: k - n sin(k/n) ~ k^3/(6 n^2) ...
    ("n*sin(k/n) - k", True, "converges for every real k"),
    ("tanh(k*n)/n**2", True, "converges for every real k"),
    # ... and log(1 + k/n) ~ k/n (undefined at n = 1 for k <= -1)
    (
        "log(1 + k/n)",
        None,
        "converges iff k = 0 (among the values of k for which every term b_n, n >= 1, is defined)",
    ),
]


@pytest.mark.parametrize("text, verdict, condition", CASES)
def test_whole_line(text, verdict, condition):
    d = decide_in_process(parse_expression(text, params=("k",)), 1)  # k real, as --free k
    assert d.converges is verdict, d.certificate
    assert d.condition == condition


@pytest.mark.parametrize("text", ["k**n*sin(n)/factorial(n)", "k**n*sin(n)*factorial(n)"])
def test_coefficients_of_another_radius_are_not_read_as_radius_one(text):
    # the radii are oo and 0 (|sin(n)| > 1/2 infinitely often): a condition |k| < 1 would be
    # false; the right conditions (every k; k = 0) or undecided regions are what may be said
    d = decide_in_process(parse_expression(text, params=("k",)), 1)
    assert "k < 1" not in (d.condition or ""), d.condition
    assert d.condition in (
        "where k = 0 (other values undecided): converges",
        "converges for every real k" if "/" in text else "converges iff k = 0",
    )


def test_a_partial_condition_has_no_clause_that_holds_nowhere():
    # x >= 0: x^n/n^p + 1/n^p converges iff p > 1 and x <= 1 (x < 0 is left undecided);
    # the join once also wrote the empty clauses (x < 1 and x > 1), (x = 1 and x > 1)
    d = decide_in_process(parse_expression("(x**n + 1)/n**p", params=("x", "p")), 1)
    assert d.condition == "where x >= 0 (other values undecided): converges iff p > 1 and x <= 1"


def test_undefined_terms_keep_the_verdict_open():
    # (1 + k n)^-2 is undefined at n = -1/k for k = -1, -1/2, ...: no verdict for every real k
    d = decide_in_process(parse_expression("(1 + k*n)**(-2)", params=("k",)), 1)
    assert d.converges is None and "defined" in d.condition


# ---------------------------------------------------------------- several parameters
#
# Each asserted condition is checked, at a grid of parameter values and at points on both
# sides of and on every boundary of the condition, against the plain (no-parameter)
# decision of the series with those values substituted, computed here.

# (formula, parameters, start, assumptions, expected condition)
SEVERAL = [
    ("n**(-a-b)", "a b", 1, {}, "converges iff a + b > 1"),
    ("n**(-p)*log(n)**q", "p q", 2, {}, "converges iff p > 1 or (p = 1 and q < -1)"),
    ("exp(-k*n)*n**r", "k r", 1, {}, "converges iff k > 0 or (k = 0 and r < -1)"),
    ("(1 + k*n)**(-r)", "k r", 1, {"k": "positive", "r": "positive"}, "converges iff r > 1"),
    # a < 0 is the series of -b_n = |a| n^-p: the same region
    ("a*n**(-p)", "a p", 1, {}, "converges iff a = 0 or p > 1"),
    # (x - 1)^2 vanishes at x = 1 only: there every term is 0, elsewhere n^p decides
    ("n**p*(x - 1)**2", "p x", 1, {}, "converges iff p < -1 or x = 1"),
    ("(x - 1)*n**(-p)", "p x", 1, {}, "converges iff p > 1 or x = 1"),
    # |x|^n n^y/n! is summable for every x, y (ratio |x|/(n + 1) -> 0): absolutely convergent
    ("x**n*n**y/factorial(n)", "x y", 2, {}, "converges for every real x, y"),
    # |b_n|^(1/n^2) -> |y| (log|x^n|/n^2 -> 0); |y| = 1: (+-x)^n, geometric; x = 0: terms 0
    (
        "x**n*y**(n**2)",
        "x y",
        1,
        {},
        "converges iff (x = 0 and y < 1) or (x = 0 and y > -1) or (y < 1 and y > -1) or "
        "(x < 0 and x > -1 and y = -1) or (x < 0 and x > -1 and y = 1) or (x < 1 and x > 0 "
        "and y = -1) or (x < 1 and x > 0 and y = 1)",
    ),
    # a base of any sign, C = x - y: |C| < 1 (root test); C = -1: (-1)^n, no limit
    ("(x - y)**n", "x y", 1, {}, "converges iff x - y < 1 and x - y > -1"),
    # C = x y: |C| < 1, and C = -1 gives (-1)^n/n (Leibniz), C = 1 the harmonic series
    (
        "x**n*y**n/n",
        "x y",
        1,
        {},
        "converges iff x*y = -1 or (x < 0 and x*y > -1 and y > 0) or (x <= 0 and x*y < 1 and "
        "y <= 0) or (x > 0 and x*y > -1 and y < 0) or (x >= 0 and x*y < 1 and y >= 0)",
    ),
]
# adversarial cases (the brief's list and a few more); each condition is checked below
ADVERSARIAL = [
    ("n**(-a*b)", "a b", 1, {}, "converges iff a*b > 1"),
    ("n**(-a)*exp(-b*n)", "a b", 1, {}, "converges iff b > 0 or (a > 1 and b = 0)"),
    ("log(n)**(-a)/n**b", "a b", 2, {}, "converges iff b > 1 or (a > 1 and b = 1)"),
    ("n**(a-b)", "a b", 1, {}, "converges iff a - b < -1"),
    # sympy's limit gets 1/(n^a + n^b) wrong (-b; the truth is -max(a, b)); the log-scale
    # rule takes the larger power on each side of a = b: n^max <= n^a + n^b <= 2 n^max,
    # converges iff max(a, b) > 1
    (
        "1/(n**a + n**b)",
        "a b",
        1,
        {},
        "converges iff (a - b < 0 and b > 1) or (a - b >= 0 and a > 1)",
    ),
    ("n**(-a-b)", "a b", 1, {"a": "nonpositive"}, "converges iff a + b > 1"),
    ("n**(-2 - a**2 - b**2)", "a b", 1, {"a": "positive"}, "converges for all a > 0, real b"),
    ("n**(-a**2 - b)", "a b", 1, {}, "converges iff a**2 + b > 1"),
    # a/b > 1 is undefined at b = 0 (and so are the terms)
    (
        "n**(-a/b)",
        "a b",
        1,
        {},
        "converges iff a/b > 1 and b != 0 (among the values of a, b for which every term "
        "b_n, n >= 1, is defined)",
    ),
]
THREE = (
    "n**(-a)*log(n)**(-b)*exp(-c*n)",
    "a b c",
    2,
    {},
    "converges iff c > 0 or (a > 1 and c = 0) or (a = 1 and b > 1 and c = 0)",
)
GRID = {1: (-2, -1, 0, 1, 2), 2: (-1, 0, sp.S.Half, 1, 2), 3: (-1, 0, 1, 2)}


def _decision(text, names, start, assumptions):
    b = parse_expression(text, params=tuple(names.split()), assumptions=assumptions)
    return b, decide_in_process(b, start)


def _admissible(point) -> bool:
    return all(sp.sign(v) in admissible_signs(p) for p, v in point.items())


def _boundary_points(cond, params) -> list:
    """Points on every relation's boundary (solved for each of its parameters at a few
    values of the others) and 1/10 to each side of it."""
    points = []
    for rel in cond.atoms(sp.core.relational.Relational):
        for x in rel.free_symbols:
            others = [p for p in params if p != x]
            for values in itertools.product((-1, 0, sp.S.Half, 2), repeat=len(others)):
                at = dict(zip(others, values))
                for root in sp.solve((rel.lhs - rel.rhs).subs(at), x):
                    if root.is_real:
                        points += [
                            {**at, x: root + d}
                            for d in (0, sp.Rational(1, 10), -sp.Rational(1, 10))
                        ]
    return points


def _check_against_plain_decisions(b, d, start):
    """Every admissible point in the decided domain: the condition's prediction equals the
    plain decision there (where that decision is definite). Returns (plain verdict, on a boundary) for each point compared."""
    params = sorted((s for s in b.free_symbols if s.name != "n"), key=lambda s: s.name)
    cond, domain = d.details["condition"], d.details["domain"]
    grid = [dict(zip(params, v)) for v in itertools.product(GRID[len(params)], repeat=len(params))]
    compared = []
    for point in grid + _boundary_points(cond, params):
        if not _admissible(point) or not holds(domain, point):
            continue
        try:
            plain = decide_in_process(b.subs(point), start).converges
        except SeriesError:
            assert "defined" in d.condition, f"undefined at {point} without the caveat"
            continue
        if plain is not None:
            assert plain == holds(cond, point), (point, plain, d.condition)
            edge = any(
                (r.lhs - r.rhs).subs(point) == 0 for r in cond.atoms(sp.core.relational.Relational)
            )
            compared.append((plain, edge))
    return compared


@pytest.mark.parametrize("text, names, start, assumptions, condition", SEVERAL + ADVERSARIAL)
def test_several_parameters(text, names, start, assumptions, condition):
    b, d = _decision(text, names, start, assumptions)
    assert d.condition == condition, d.certificate
    assert d.converges is (True if condition.startswith("converges for") else None)
    compared = _check_against_plain_decisions(b, d, start)
    assert len(compared) >= 10
    if d.converges is None:  # both verdicts met, and points on the boundary decided
        assert {plain for plain, _ in compared} == {True, False}
        assert any(edge for _, edge in compared)


@pytest.mark.slow
def test_three_parameters():
    text, names, start, assumptions, condition = THREE
    b, d = _decision(text, names, start, assumptions)
    assert d.condition == condition, d.certificate
    assert len(_check_against_plain_decisions(b, d, start)) >= 30


def test_three_parameters_linear():
    b, d = _decision("n**(-a-b-c)", "a b c", 1, {})
    assert d.condition == "converges iff a + b + c > 1", d.certificate
    assert len(_check_against_plain_decisions(b, d, 1)) >= 30


def test_four_parameters_are_refused_with_a_reason():
    # outside the log-scale rule (exp(-a n^b) is not on its scale), four parameters of
    # unknown sign would need 81 sign cases: refused with the reason
    _, d = _decision("exp(-a*n**b)*n**(c + d)", "a b c d", 1, {})
    assert d.converges is None and d.condition is None
    assert "81 sign cases" in d.certificate and "at most 3" in d.certificate
    # n^-(a+b+c+d) is a log-scale form: decided for every real value at once, with no
    # sign cases (p-series: converges iff a + b + c + d > 1), the signs stated or not
    for kinds in ({}, dict.fromkeys("abcd", "positive"), {"d": "positive"}):
        _, d = _decision("n**(-a-b-c-d)", "a b c d", 1, kinds)
        assert d.condition.startswith("converges iff a + b + c + d > 1"), d.certificate
        assert d.test == "log-scale rule"


def test_undefined_start_keeps_the_caveat():
    # log(1)^q = 0^q is not defined for q < 0 at n = 1
    b, d = _decision("n**(-p)*log(n)**q", "p q", 1, {})
    assert d.condition.startswith("converges iff p > 1 or (p = 1 and q < -1) (among the values")
    assert d.converges is None
    _check_against_plain_decisions(b, d, 1)


@pytest.mark.parametrize(
    "text",
    [
        "1/(n**p - 1)",  # b_1 = 1/(1 - 1) whatever p is
        "(-1)**n/(n**p + (-1)**n)",  # b_1 = -1/(1 - 1) whatever p is
    ],
)
def test_no_admissible_value_is_an_error_not_a_condition(text):
    # every value of p leaves b_1 undefined: a condition "among the values for which
    # every term is defined" would be about no value at all
    with pytest.raises(SeriesError, match="b_1 is not defined for any value"):
        decide_in_process(parse_expression(text, params=("p",)), 1)
    # from n = 2 the terms are defined (p > 1/2 resp. p > 1): a condition is given; b_1 of
    # log(log(n))**c is log(0)**c, which sympy reads as 1 at c = 0: not "for any value"
    d = decide_in_process(parse_expression(text, params=("p",)), 2)
    assert d.condition and "iff p >" in d.condition


def test_a_first_term_with_parameters_left_is_not_refused():
    # b_1 = 1**a * log(1)**b * log(log(1))**c keeps b and c: at b = c = 0 the term is n**a,
    # defined from n = 1, so the series is not refused as defined for no value
    b = parse_expression("n**a*log(n)**b*log(log(n))**c", params=("a", "b", "c"))
    d = decide_in_process(b, 1)
    assert d.condition and d.condition.startswith("converges iff a < -1"), d.certificate
