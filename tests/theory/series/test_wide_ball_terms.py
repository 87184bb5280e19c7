"""Terms whose ball evaluation on a wide box used to fail: Abs of an argument of both signs
(theory.series.arb_eval: |x| in [0, max(|lo|, |hi|)] on a plain ball) and factorials
(theory.series.enclosure: n! through exp(log Gamma), log n! as log Gamma on the far boxes).
B certified and TRF exact, against mpmath values computed here."""

import json

import mpmath
import pytest
from flint import arb

from tests.theory.series.cli_checks import assert_certified_by_terms
from tests.theory.series.marks import fast_first
from theory.series.arb_eval import arb_function, ball
from theory.series.expressions import parse_expression
from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]

# (formula, mpmath term, K): the terms n > K add less than 10^-40 (by hand: e^-n for the
# first two, tail < e^-K/(1 - 1/e); (n+1)^log(n)/n!^2 < 1/n! for n >= 3 once
# (n+1)^log(n) <= n!, and 1/K! < 1e-60 at K = 60)
CASES = [
    (
        "exp(-n - Abs(sin(n))*n)",
        lambda n: mpmath.exp(-n - abs(mpmath.sin(n)) * n),
        200,
    ),
    (
        "exp(-n - Abs(cos(2*n))*n/2)",  # a variant not tuned on
        lambda n: mpmath.exp(-n - abs(mpmath.cos(2 * n)) * n / 2),
        200,
    ),
    (
        "(n+1)**log(n)/factorial(n)**2",
        lambda n: (n + 1) ** mpmath.log(n) / mpmath.factorial(n) ** 2,
        60,
    ),
]


@pytest.mark.parametrize("case", fast_first(CASES, 2), ids=[c[0] for c in CASES])
def test_sum_and_trf(capsys, case):
    formula, term, K = case
    assert main([f"--rpe={formula}", "--json", "--time-limit", "60", "--eps", *map(str, EPS)]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(50):
        terms = [term(mpmath.mpf(n)) for n in range(1, K + 1)]
        assert_certified_by_terms(out, terms)
        with mpmath.workdps(40):  # an independent reference: mpmath.nsum at 40 digits
            ref = mpmath.nsum(term, [1, mpmath.inf])
        assert abs(mpmath.fsum(terms) - ref) < mpmath.mpf(10) ** -35 * ref


def test_abs_on_a_ball_of_both_signs():
    """|sin n| on [2^16, 2^17] (sin takes every value in [-1, 1] there) lies in [0, 1 + tiny];
    at an integer the sign is decided and the value is the usual ball (mpmath: |sin 3|)."""
    f = arb_function(parse_expression("Abs(sin(n))"))
    v = f(ball(2**16, 2**17))
    assert v.upper() >= 1 and v.upper() < 1.01 and v.lower() > -1e-8
    assert v.contains(arb(0)) and v.contains(arb(1))
    assert f(arb(3)).overlaps(arb(mpmath.nstr(abs(mpmath.sin(3)), 20)) + arb(0, 1e-19))
