"""Positive terms with a small sine in the denominator (theory.series.small_sines): the
verdicts the irrationality measure of pi gives, the cases it leaves open (Flint Hills type),
and the property the proof rests on, measured (|sin n| is never far below n^(1 - mu))."""

import numpy as np
import pytest

from theory.series.convergence import decide_in_process
from theory.series.expressions import parse_expression as P
from theory.series.numeric import decide_numeric
from theory.series.small_sines import small_sine_test

# mu(pi) <= 7.1033: g |T|^-s with g = n^-a converges where a > s (mu - 1) + 1
CONVERGE = [
    "1/(n**8*Abs(sin(n)))",  # 8 > 7.1033
    "1/(n**14*sin(n)**2)",  # 14 > 13.21
    "1/(n**8*Abs(sin(n/2 + pi/3)))",  # q rational, c a rational multiple of pi
    "log(n)/(n**8*Abs(cos(3*n)))",
    "-1/(n**8*Abs(cos(n)))",  # of one sign: -b
]
# the measure does not reach (the truth is open, or not known to us), or not this form
REFUSED = [
    "1/(n**7*Abs(sin(n)))",  # 7 < 7.1033
    "1/(n**3*sin(n)**2)",  # Flint Hills: open
    "1/(n**9*cos(n)**2)",  # 9 < 13.21
    "1/(n**8*Abs(sin(n + 1)))",  # a shift that is not a rational multiple of pi
    "1/(n**8*Abs(sin(sqrt(2)*n)))",  # an irrational slope
    "1/(n**8*sin(n))",  # sin to an odd power: not of one sign
]


@pytest.mark.parametrize("text", CONVERGE)
def test_converges(text):
    d = small_sine_test(P(text), decide_numeric)
    assert d is not None and d.converges is True and "Zeilberger" in d.certificate, d
    assert decide_in_process(P(text), 1).converges is True


@pytest.mark.parametrize("text", REFUSED)
def test_refused(text):
    assert small_sine_test(P(text), decide_numeric) is None


def test_sines_at_integers_are_not_smaller_than_the_measure_allows():
    """min over n <= 10^6 of |sin n| n^(mu - 1), mu = 7.1033: bounded away from 0 (the
    proof needs only that it does not tend to 0 along a subsequence), and even n |sin n|
    stays above 1e-3 (the smallest values are at the numerators of pi's convergents,
    355, 103993, ...); the sceptic's picture of |sin n| as small as 1/n^8 somewhere would
    make it 0."""
    n = np.arange(1, 10**6 + 1, dtype=np.float64)
    s = np.abs(np.sin(n))
    assert np.min(s * n**6.1033) > 0.5  # sin(1) at n = 1
    assert np.min(s * n) > 1e-3
