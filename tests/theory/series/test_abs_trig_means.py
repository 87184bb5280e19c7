"""g(n) (|sin(r n)| - 2/pi) with g -> 0: the mean-zero oscillation of |sin| and |cos|
(theory/series/abs_trig_means.py).  Reference: the Fourier series
|sin x| - 2/pi = -(4/pi) sum_k cos(2kx)/(4k^2 - 1) and sum_n cos(2kn)/n = -log|2 sin k|
give sum_n (|sin n| - 2/pi)/n = (4/pi) sum_k log|2 sin k|/(4k^2 - 1), compared with
numpy's partial sums of the series itself."""

import numpy as np
import pytest

from theory.series.abs_trig_means import mean_zero_parts
from theory.series.convergence import decide_in_process
from theory.series.expressions import parse_expression


@pytest.mark.parametrize(
    "text",
    [
        "(Abs(sin(n))-2/pi)/n",
        "(Abs(cos(n))-2/pi)/n",
        "Abs(sin(n))/n - 2/(pi*n)",
        "(Abs(sin(n/2))-2/pi)/n**(99/100)",
        "(2/pi - Abs(sin(3*n)))/(n*log(n))",
        # 0.9 + 1/(mu(pi) - 1) = 1.0638... > 1 (with Mahler's exponent 42 it was not enough)
        "(Abs(sin(n))-2/pi)/n**(9/10)",
        # linear combinations of mean 0: 2/pi - 2/pi, and 2/pi + 2/pi - 4/pi
        "(Abs(cos(n)) - Abs(sin(n)))/n",
        "(Abs(sin(n)) + Abs(cos(2*n)) - 4/pi)/n**(9/10)",
    ],
)
def test_mean_zero_brackets_converge(text):
    d = decide_in_process(parse_expression(text), 2)
    assert d.converges is True, d.certificate
    assert d.test == "mean-zero |sin|", d.certificate


@pytest.mark.parametrize(
    "text",
    [
        # sum |g| n^(alpha - 1) diverges: pi's known measure does not reach, no verdict here
        "(Abs(sin(n))-2/pi)/n**(4/5)",
        # mean 1/10 != 0
        "(Abs(cos(n)) - Abs(sin(n)) + 1/10)/n",
        # mean 2/pi - 1/2 != 0 (another test: equidistribution, diverges)
        "(Abs(sin(n))-1/2)/n",
        # an irrational multiple of pi is not covered by Mahler's bound on pi alone
        "(Abs(sin(sqrt(2)*n))-2/pi)/n",
    ],
)
def test_not_claimed(text):
    d = decide_in_process(parse_expression(text), 1)
    assert d.test != "mean-zero |sin|", d.certificate
    assert d.converges is not True or "mean" not in d.test, d.certificate


def test_parts_refuse_a_wrong_mean():
    assert mean_zero_parts(parse_expression("(Abs(sin(n))-1/2)/n")) is None
    assert mean_zero_parts(parse_expression("(Abs(sin(n))-2/pi)/n")) is not None
    assert mean_zero_parts(parse_expression("(Abs(cos(n)) - 2*Abs(sin(n)))/n")) is None


def test_partial_sums_of_a_combination_stay_small():
    """|cos n| - |sin n| (mean 0): partial sums up to 10^6 stay small, as the proof's
    O(N^0.84) allows; with a mean of 1/10 added they grow like N/10 (the sceptic's case)."""
    n = np.arange(1, 1_000_001, dtype=np.float64)
    h = np.abs(np.cos(n)) - np.abs(np.sin(n))
    assert np.max(np.abs(np.cumsum(h))) < 10
    assert np.cumsum(h + 0.1)[-1] > 0.09 * n[-1]


def test_partial_sums_reach_the_fourier_value():
    n = np.arange(1, 1_000_001, dtype=np.float64)
    bracket = np.abs(np.sin(n)) - 2 / np.pi
    # the bracket's partial sums are far inside the O(N^0.84) of the proof
    assert np.max(np.abs(np.cumsum(bracket))) < 3.0
    partial = np.sum(bracket / n)
    k = np.arange(1, 200_001, dtype=np.float64)
    fourier = 4 / np.pi * np.sum(np.log(np.abs(2 * np.sin(k))) / (4 * k * k - 1))
    assert abs(partial - fourier) < 1e-5, (partial, fourier)
