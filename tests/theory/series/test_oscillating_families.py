"""Oscillating families with a free parameter: F(n) g(n) with F >= 0 of positive mean in
the angle n mod 2 pi, and (-1)^n g(n), g exp-log.  Each condition is derived by hand in a
comment and checked against the plain decision at values on both sides of its boundary."""

import pytest

from theory.series.convergence import decide_in_process
from theory.series.expressions import parse_expression

CASES = [
    # sum F g converges iff sum g does (F bounded, >= 0, mean > 0): sum n^-p iff p > 1
    ("sin(n)**2/n**p", "converges iff p > 1"),
    ("3*cos(n)**2/(n + 1)**p", "converges iff p > 1"),  # held out: scaled, shifted
    ("Abs(sin(n))/n**p", "converges iff p > 1"),  # mean 2/pi
    # Leibniz: (-1)^n g converges iff g -> 0 (g eventually monotone): n^-p -> 0 iff p > 0
    ("(-1)**n/n**p", "converges iff p > 0"),
    ("(-1)**n*2/(n + 3)**p", "converges iff p > 0"),  # held out
]


@pytest.mark.parametrize("text, condition", CASES)
def test_condition(text, condition):
    d = decide_in_process(parse_expression(text, params=("p",)), 1)
    assert d.converges is None, d.certificate
    assert d.condition == condition, d.certificate


# near misses around the boundaries, decided without parameters
NEAR = [
    ("sin(n)**2/n**(10001/10000)", True),  # p = 1.0001 > 1: sum <= sum n^-p
    ("sin(n)**2/n", False),  # p = 1: equidistribution, mean 1/2
    ("sin(n)**2/n**(9999/10000)", False),  # p < 1
    ("(-1)**n/n**(1/1000)", True),  # p > 0: Leibniz
    ("(-1)**n", False),  # p = 0: terms +-1
]


@pytest.mark.parametrize("text, verdict", NEAR)
def test_near_boundary(text, verdict):
    assert decide_in_process(parse_expression(text), 1).converges is verdict


def test_sign_changing_f_is_not_this_family():
    # sin(n) changes sign: sum sin(n)/n^p converges for every p > 0 (Dirichlet), so the
    # condition of sum n^-p (p > 1) would be wrong: this family must not apply
    d = decide_in_process(parse_expression("sin(n)/n**p", params=("p",)), 1)
    assert d.condition != "converges iff p > 1"


# a^n g(n), a > 0 (as --assume "a>0"): root test for a != 1, sum g at a = 1
GEOMETRIC = [
    ("a**n/n**b", ("a", "b"), "converges iff a < 1 or (a = 1 and b > 1)"),
    ("a**n", ("a",), "converges iff a < 1"),  # geometric series
    ("a**n/n**2", ("a",), "converges iff a <= 1"),  # at a = 1, sum 1/n^2
    ("5*a**n*n**3/(n + 2)**b", ("a", "b"), "converges iff a < 1 or (a = 1 and b > 4)"),
]


@pytest.mark.parametrize("text, params, condition", GEOMETRIC)
def test_geometric_family(text, params, condition):
    e = parse_expression(text, params=params, assumptions={"a": "positive"})
    d = decide_in_process(e, 1)
    assert d.condition == condition, d.certificate


@pytest.mark.parametrize(
    "text, verdict",
    [
        ("(99/100)**n*n**5", True),  # a < 1: root test
        ("(101/100)**n/n**5", False),  # a > 1: terms grow
        ("1/n**(1001/1000)", True),  # a = 1, b > 1
        ("1/n", False),  # a = 1, b = 1
    ],
)
def test_geometric_near_boundary(text, verdict):
    assert decide_in_process(parse_expression(text), 1).converges is verdict


def test_alternating_terms_tending_to_one_diverge():
    # g = (1 + 1/n)^p -> 1 for every real p: the terms (-1)^n g do not tend to 0
    d = decide_in_process(parse_expression("(-1)**n*(1 + 1/n)**p", params=("p",)), 1)
    assert d.converges is False, d.certificate
    assert d.condition == "diverges for every real p"


# Gamma(n + a)/Gamma(n + b) = n^(a - b) (1 + O(1/n)) (Stirling): converges iff b - a > 1
@pytest.mark.parametrize(
    "text, condition",
    [
        ("gamma(n + a)/gamma(n + b)", "converges iff a - b < -1"),
        ("3*gamma(n + a + 1)/gamma(n + b)", "converges iff a - b < -2"),  # held out: shifted
    ],
)
def test_gamma_ratio_family(text, condition):
    e = parse_expression(text, params=("a", "b"), assumptions={"a": "positive", "b": "positive"})
    d = decide_in_process(e, 1)
    assert d.condition == condition, d.certificate


@pytest.mark.parametrize(
    "text, verdict",
    [
        ("gamma(n + 1/3)/gamma(n + 4/3 + 1/1000)", True),  # b - a = 1.001 > 1
        ("gamma(n + 1)/gamma(n + 2)", False),  # = 1/(n + 1)
        ("gamma(n + 1/2)/gamma(n + 1)", False),  # ~ n^(-1/2)
    ],
)
def test_gamma_ratio_near_boundary(text, verdict):
    assert decide_in_process(parse_expression(text), 1).converges is verdict


def test_unbalanced_gamma_powers_are_not_compared_with_a_power():
    # Gamma(n + a)^2/Gamma(n + b) ~ Gamma(n) n^(2a - b) grows faster than any power: the
    # comparison with n^(2a - b) would say "converges iff 2a - b < -1", which is wrong
    e = parse_expression(
        "gamma(n + a)**2/gamma(n + b)",
        params=("a", "b"),
        assumptions={"a": "positive", "b": "positive"},
    )
    d = decide_in_process(e, 1)
    assert d.condition != "converges iff 2*a - b < -1", d.certificate
    assert d.converges is not True
