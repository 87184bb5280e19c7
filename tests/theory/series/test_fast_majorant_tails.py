"""Terms squeezed between two sums that decay faster than every power, oscillating too fast
for the Taylor blocks (theory.series.fast_majorant_tail): B certified and TRF exact, against
mpmath sums computed here."""

import json

import mpmath
import pytest

from tests.theory.series.cli_checks import assert_certified_by_terms
from tests.theory.series.marks import fast_first
from theory.series.expressions import parse_expression
from theory.series.fast_majorant_tail import FastMajorantTail, fast_envelope
from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]


def _exp_sin(n):
    return mpmath.exp(-n * (1 + mpmath.sin(n) ** 2))


def _exp_cos(n):
    return mpmath.exp(-n * (2 + mpmath.cos(n)))


def _exp_cos_third(n):
    # the constant typed below, one unit in the 16th digit from 1/3: the parser reads the
    # decimal exactly (3333333333333333/10^16), divided here at the working precision
    return mpmath.exp(-n * (2 + mpmath.cos(n)) * mpmath.mpf(3333333333333333) / 10**16)


def _stretched(n):
    return mpmath.exp(-mpmath.sqrt(n) * (1 + mpmath.cos(n) ** 2))


# (formula, term, K): the terms n > K add less than 10^-40, by hand from the majorant:
# e^-n (tail e^-K/(1 - 1/e)); e^-(n/3.0000000000000004) (tail < 3 e^-(K/3.01)/(1 - e^-0.3));
# e^-sqrt(n) (tail <= integral from K - 1: 2 (sqrt(K-1) + 1) e^-sqrt(K-1) < 1e-40 at K = 10^4)
CASES = [
    ("exp(-n*(1+sin(n)**2))", _exp_sin, 200),
    ("exp(-n*(2+cos(n)))", _exp_cos, 200),
    ("exp(-n*(2+cos(n))*0.3333333333333333)", _exp_cos_third, 400),
    ("exp(-sqrt(n)*(1+cos(n)**2))", _stretched, 10**4),
]


@pytest.mark.parametrize("case", fast_first(CASES, 2), ids=[c[0] for c in CASES])
def test_sum_and_trf(capsys, case):
    formula, term, K = case
    assert main([f"--rpe={formula}", "--json", "--time-limit", "60", "--eps", *map(str, EPS)]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(50):
        assert_certified_by_terms(out, [term(mpmath.mpf(n)) for n in range(1, K + 1)])


def test_tail_beyond_the_head():
    """Beyond the head the tail is enclosed by the boxes (far below the terms summed): the
    enclosure of sum_(n >= a) e^-(n (1 + sin^2 n)) contains the mpmath value of the terms
    a <= n < a + 200 (the rest < e^-(a+200)); it is at most e^-(a/2) wide (the ball
    products on the boxes lose part of the decay), far below the head's e^-32."""
    t = FastMajorantTail(parse_expression("exp(-n*(1+sin(n)**2))"), 1, _engine, head_terms=32)
    with mpmath.workdps(50):
        for a in (20, 40, 1000):
            R = mpmath.fsum(_exp_sin(mpmath.mpf(n)) for n in range(a, a + 200))
            s = t.tail(a)
            lo, hi = (mpmath.mpf(x.str(50, radius=False)) for x in (s.lower(), s.upper()))
            assert lo <= R <= hi and hi - lo <= mpmath.exp(-a / 2), a


def _engine(e, m):
    from theory.series.sums import certify_tail

    return certify_tail(e, m, max_rel_width=float("inf"))


def test_envelopes():
    """Only a smooth, positive majorant decaying faster than every power is taken."""
    lo, hi, _ = fast_envelope(parse_expression("exp(-n*(1+sin(n)**2))"))
    assert (str(lo), str(hi)) == ("exp(-2*n)", "exp(-n)")
    assert fast_envelope(parse_expression("(3+sin(n))/n**3")) is None  # a power: MajorantTail
    assert fast_envelope(parse_expression("exp(-n)")) is None  # smooth: its own engines
    assert fast_envelope(parse_expression("exp(-n)*sin(n)")) is None  # minorant < 0


def test_even_powers_of_balls_around_zero():
    """sin(n)**2 on a wide ball lies in [0, 1] up to the rounding of the ball's radius (not
    [-1, 1]: the factor n (1 + sin(n)^2) of the exponent keeps its sign), an exact zero
    squared is 0 (log(1)^2), and odd powers of a ball around 0 keep both signs."""
    from flint import arb

    from theory.series.arb_eval import arb_function

    wide = (arb(2) ** 100).union(arb(2) ** 101)
    sq = arb_function(parse_expression("sin(n)**2"))(wide)
    assert sq.lower() >= -1e-8 and sq.upper() <= 1 + 1e-8
    assert arb_function(parse_expression("log(n)**2"))(arb(1)) == 0
    assert arb_function(parse_expression("exp(-log(n)**2)"))(arb(1)) == 1
    cube = arb_function(parse_expression("(n - 3)**3"))(arb(1).union(arb(5)))
    assert cube.lower() <= -8 and cube.upper() >= 8
    for x in (arb("nan"), arb("inf"), arb(0).union(arb("inf"))):  # no recursion, no claim
        assert not arb_function(parse_expression("(n - 1)**2"))(x).is_finite()
