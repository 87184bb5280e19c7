"""Polynomial phases (theory.series.weyl_sums): verdicts by Weyl's inequality and pi's
irrationality measure, the forms and powers refused, and the property the proof rests on,
measured (partial sums of sin(n^2) far below the linear growth of a phase that does not
equidistribute)."""

import numpy as np
import pytest

from theory.series.convergence import decide_in_process
from theory.series.expressions import parse_expression as P
from theory.series.numeric import decide_numeric
from theory.series.weyl_sums import weyl_sum_test

# delta_k = min(1, (k - 1)/eta)/2^(k - 1), eta = mu(pi) - 1 <= 6.1033: delta_2 = 0.0819,
# delta_3 = 0.0819 (2/eta/4), so sum n^-p sin(P(n)) converges where p > 1 - delta_k
CONVERGE = [
    "sin(n**2)/n",
    "cos(n**2)/n",
    "sin(n**3)/n",
    "sin(n**2/3 + sqrt(2)*n)/n",  # lower coefficients any reals
    "-cos(2*n**2 + 1)*log(n)/n**(19/20)",  # 0.95 > 0.918 (the log is absorbed by eps)
    "sin(n**2)/(n*log(n + 1))",
    "(-1)**n*sin(n**2)/n",  # (-1)^n sin(x) = sin(x + pi n): a lower-order term
]
DIVERGE = [
    "sin(n**2)",  # the phase is equidistributed mod 2 pi: |sin| >= 1/2 on a positive share
    "n*cos(n**3 + n)",
    "sin(n**2)*(1 + 1/n)",
]
# the measure of pi does not reach these powers (the truth is not known to us), the leading
# coefficient is not a rational (its measure unknown here), or g does not tend to 0 monotonically
REFUSED = [
    "sin(n**2)/n**(9/10)",  # 0.9 < 1 - delta_2
    "sin(n**2)/log(n + 1)",
    "sin(sqrt(2)*n**2)/n",
    "sin(n**2)*sin(n)/n",  # two phases: not this form
]


@pytest.mark.parametrize("text", CONVERGE)
def test_converges(text):
    d = weyl_sum_test(P(text), decide_numeric)
    assert d is not None and d.converges is True and "Weyl" in d.certificate, d
    assert decide_in_process(P(text), 2).converges is True


@pytest.mark.parametrize("text", DIVERGE)
def test_terms_do_not_tend_to_zero(text):
    d = weyl_sum_test(P(text), decide_numeric)
    assert d is not None and d.converges is False and "equidistributed" in d.certificate


@pytest.mark.parametrize("text", REFUSED)
def test_refused(text):
    assert weyl_sum_test(P(text), decide_numeric) is None


def test_partial_sums_of_sin_n_squared_are_far_below_linear():
    """S_N = sum_{n <= N} sin(n^2) (n^2 exact in float64, libm's sin reduces it correctly):
    max |S_N| over N <= 2^16 is below N^0.92 (the proof's rate, constant 1) and below
    4 sqrt(N); a phase that does not equidistribute (sin(2 pi n^2) + 1, say) grows like N."""
    n = np.arange(1, 2**16 + 1, dtype=np.float64)
    S = np.cumsum(np.sin(n * n))
    assert np.all(np.abs(S) <= n**0.92)
    assert np.max(np.abs(S) / np.sqrt(n)) < 4
