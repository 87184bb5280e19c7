"""Sums of c log(n)^k n^-s by derivatives of the Hurwitz zeta function
(``theory.series.log_zeta_tail``), against mpmath's zeta derivatives at 50 digits."""

import json

import mpmath
import pytest

from theory.series.expressions import parse_expression
from theory.series.log_zeta_tail import LogZetaTail, log_power_parts
from theory.trf.cli import main

# (formula, start, reference tail from a): mpmath.zeta(s, a, k) is the k-th derivative in s
CASES = [
    ("log(n)**2/n**(11/10)", 1, lambda a: mpmath.zeta(mpmath.mpf(11) / 10, a, 2)),
    ("log(n)/n**2", 1, lambda a: -mpmath.zeta(2, a, 1)),
    (
        "(log(n)**3 - 2*log(n))/n**(3/2) + 1/n**3",
        3,
        lambda a: (
            -mpmath.zeta(mpmath.mpf(3) / 2, a, 3)
            + 2 * mpmath.zeta(mpmath.mpf(3) / 2, a, 1)
            + mpmath.zeta(3, a)
        ),
    ),
]


@pytest.mark.parametrize("formula,start,ref", CASES, ids=[c[0] for c in CASES])
def test_tails_against_zeta_derivatives(formula, start, ref):
    """|mid - reference| <= radius + the reference's own error (50 digits)."""
    t = LogZetaTail(parse_expression(formula), start)
    with mpmath.workdps(60):
        for a in (start, start + 7, 10**6, 10**23):
            r = ref(a)
            s = t.tail(a)
            mid = mpmath.mpf(s.mid().str(60, radius=False))
            rad = mpmath.mpf(s.rad().str(5, radius=False))
            assert abs(mid - r) <= rad + abs(r) * mpmath.mpf(10) ** -45, (a, s, r)
            assert rad < abs(r) * mpmath.mpf(10) ** -30


def test_cli_sum_and_exact_trf(capsys):
    """log(n)/n^2: R(j) = -zeta'(2, 1 + j); every term >= 0, so R decreases."""
    assert main(["--rpe=log(n)/n**2", "--json", "--eps", "0.1", "0.01", "0.001"]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(50):

        def R(j):
            return -mpmath.zeta(2, 1 + j, 1)

        B = R(0)
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        assert out["sum_digits"] >= 40
        for t in out["trf"]:
            j, eps = t["value"], mpmath.mpf(repr(t["eps"]))
            assert t["exact"] and R(j) < eps * B <= R(j - 1), (t, R(j))


def test_forms_outside_the_family():
    P = parse_expression
    assert log_power_parts(P("log(n+1)/n**2")) is None  # not log(n)
    assert log_power_parts(P("log(n)/n")) is None  # s = 1: diverges
    assert log_power_parts(P("log(log(n))/n**2")) is None
