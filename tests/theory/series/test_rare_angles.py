"""Terms small except near a few angles, whose n are rare (theory.series.rare_angles):
verdicts, refusals, and the measured decay the proof predicts."""

import json

import numpy as np
import pytest

from theory.series.expressions import parse_expression as P
from theory.series.rare_angles import rare_angle_test
from theory.trf.cli import main

CONVERGE = [
    "(2 + sin(n))**(-n)/n",
    "(3/2 + sin(n)/2)**(-n)/n",
    "sin(n)**(2*n)/n",
    "cos(n)**n/n",  # changing sign: |b_n| <= |cos(n)|^n/n
    "(2 + sin(n))**(-sqrt(n))/n",  # kappa = 1/2
    "(1 + sin(n)**2/2)**(-n)/n",  # two angles, 0 and pi
    "((3 + cos(2*n))/4)**n/(n*log(n + 1))",
    "exp(n*(cos(n) - 1))/n",  # an exponential: F = exp(cos(theta) - 1)
    "exp(-n*sin(n)**2)/n",
    "exp(sqrt(n)*(sin(n) - 1))/n",
]
REFUSED = [
    "(2 + sin(n))**(-n)",  # A = 1: the terms near 3 pi/2 do not vanish
    "(2 + sin(n))**(-n)/sqrt(n)",  # A not O(1/n)
    "(2 + sin(n) + cos(n))**(-n)/n",  # |F| > 1 near 5 pi/4
    "(2 + sin(n))**(-log(n))/n",  # E = log(n) is not >= n^kappa
    "(1 - 10**(-30) + sin(n)**2)**(-n)/n",  # F(0) = 1/(1 - 10^-30) > 1: no angle of |F| = 1
    "(sqrt(2)*cos(pi/4) - 10**(-40) + sin(n)**2)**(-n)/n",  # the same, written with radicals
]


@pytest.mark.parametrize("text", CONVERGE)
def test_converges(text):
    d = rare_angle_test(P(text))
    assert d is not None and d.converges is True and "irrationality measure" in d.certificate


@pytest.mark.parametrize("text", REFUSED)
def test_refused(text):
    assert rare_angle_test(P(text)) is None


@pytest.mark.parametrize(
    "text",
    [
        "(1 + (sin(n) - sin(1))**2)**(-n)/n",  # no grid angle at all
        "(1 + (sin(n) + 1)*(sin(n) - sin(1))**2)**(-n)/n",  # 3 pi/2 on the grid, 1 not
    ],
)
def test_a_maximum_off_the_grid_is_not_missed(text):
    """|F| = 1 at theta = 1 (not a grid angle k pi/12): the cover of the circle cannot
    prove |F| < 1 there, so this rule gives no verdict (it would need that angle's arc)."""
    assert rare_angle_test(P(text)) is None


def test_block_sums_decay_as_the_proof_says():
    """sum over [2^k, 2^(k+1)) of (2 + sin n)^(-n)/n, k = 8..20 (float64, numpy): the
    proof's bound is O(M^(-1/2)) (the n within M^(-1/2) of 3 pi/2 mod 2 pi); a divergent
    series would keep them near a constant.  Measured slope of log2(block sum) in k:
    about -0.5."""
    n = np.arange(1, 2**21, dtype=np.float64)
    b = np.exp(-n * np.log(2 + np.sin(n))) / n
    ks = np.arange(8, 21)
    sums = [b[2**k - 1 : 2 ** (k + 1) - 1].sum() for k in ks]
    slope = np.polyfit(ks, np.log2(sums), 1)[0]
    assert -0.7 < slope < -0.3, slope


def test_the_verdict_on_the_command_line(capsys):
    assert main(["--rpe", "(2 + sin(n))**(-n)/n", "--json", "--time-limit", "60"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["converges"] is True and "rare angles" in out["certificate"]
