"""Factorial-like terms decided on Stirling's scale (theory/series/numeric.py,
``_stirling_scale``, by theory/series/log_scale.py) before the ratio tests, whose Gauss
step needs slow limits where the Raabe limit is 1.  References: Robbins' bound
n! >= sqrt(2 pi n) (n/e)^n and mpmath's nsum."""

import json

import mpmath
import pytest

from theory.series.convergence import decide_in_process
from theory.series.expressions import parse_expression
from theory.trf.cli import main

#: e^n n!/(n^n (n+1)^(3/2)) ~ sqrt(2 pi)/n (Stirling)
DIVERGENT = "exp(n)*factorial(n)/(n**n*(n+1)**(3/2))"


def test_stirling_divergent_case():
    d = decide_in_process(parse_expression(DIVERGENT), 1)
    assert d.converges is False and d.test == "log-scale rule", d.certificate
    assert "e_0 = -1" in d.certificate


def test_stirling_divergent_case_reference():
    # Robbins (1955): n! >= sqrt(2 pi n) (n/e)^n, so b_n >= sqrt(2 pi) sqrt(n)/(n+1)^(3/2)
    # >= sqrt(2 pi)/(2^(3/2) n): a harmonic minorant; and n b_n -> sqrt(2 pi)
    with mpmath.workdps(30):

        def b(n):
            n = mpmath.mpf(n)
            return mpmath.e**n * mpmath.factorial(n) / (n**n * (n + 1) ** mpmath.mpf(1.5))

        c = mpmath.sqrt(2 * mpmath.pi) / mpmath.mpf(2) ** mpmath.mpf(1.5)
        assert all(b(n) >= c / n for n in range(1, 300))
        assert abs(b(10**6) * 10**6 - mpmath.sqrt(2 * mpmath.pi)) < 1e-5


@pytest.mark.parametrize(
    "text, truth",
    [
        ("exp(n)*factorial(n)/(n**n*(n+1)**(5/2))", True),  # ~ sqrt(2 pi)/n^2
        ("exp(n)*factorial(n)/(n**n*sqrt(n))", False),  # ~ sqrt(2 pi)
        ("factorial(n)/n**n", True),  # ~ sqrt(2 pi n) e^-n
        ("binomial(2*n, n)/(4**n*n)", True),  # ~ n^(-3/2)/sqrt(pi)
    ],
)
def test_neighbours(text, truth):
    d = decide_in_process(parse_expression(text), 1)
    assert d.converges is truth, d.certificate


def test_convergent_neighbour_sum(capsys):
    assert main(["--rpe", "exp(n)*factorial(n)/(n**n*(n+1)**(5/2))", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["converges"] is True and out["certified"]
    with mpmath.workdps(30):
        ref = mpmath.nsum(
            lambda n: mpmath.e**n * mpmath.factorial(n) / (n**n * (n + 1) ** mpmath.mpf(2.5)),
            [1, mpmath.inf],
        )
        # nsum (Richardson/Levin) agrees with the enclosure to its own accuracy, ~1e-20
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo - mpmath.mpf(10) ** -18 <= ref <= hi + mpmath.mpf(10) ** -18
