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
