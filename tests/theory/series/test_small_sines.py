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


# a sine small in an exponent: b_n >= A(n) exp(-E(n) (3 pi/n)^s) infinitely often
DIVERGE = [
    "exp(-n*Abs(sin(n)))",
    "exp(-sqrt(n)*Abs(sin(n)))",
    "exp(-n*Abs(cos(2*n/3 + 1)))",  # any real phase: inhomogeneous approximation
    "log(n)*exp(-n**2*sin(n)**2)",
]
REFUSED_EXPONENT = [
    "exp(-n**2*Abs(sin(n)))",  # E/n^s -> oo: the bound says nothing
    "exp(-n*Abs(sin(n)))/n",  # A -> 0
]


@pytest.mark.parametrize("text", DIVERGE)
def test_terms_do_not_tend_to_zero(text):
    d = small_sine_test(P(text), decide_numeric)
    assert d is not None and d.converges is False, d
    assert decide_in_process(P(text), 1).converges is False


@pytest.mark.parametrize("text", REFUSED_EXPONENT)
def test_exponent_form_refused(text):
    assert small_sine_test(P(text), decide_numeric) is None


def test_n_sin_n_stays_bounded_along_pis_convergents():
    """n |sin n| at the numerators of pi's convergents (22, 333, 355, 103993, 104348,
    208341, 312689, 833719, 1146408) stays below 3 pi, so exp(-n |sin n|) >= e^(-3 pi)
    there: the terms do not tend to 0 (the sceptic's reading, |sin n| ~ 1 on average,
    would make them decay like e^(-2n/pi))."""
    import mpmath

    with mpmath.workdps(40):
        for p in (22, 333, 355, 103993, 104348, 208341, 312689, 833719, 1146408):
            assert p * abs(mpmath.sin(p)) < 3 * mpmath.pi, p
