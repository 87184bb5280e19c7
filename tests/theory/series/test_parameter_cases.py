"""One free real parameter over its whole range: the cases k > 0, k = 0, k < 0 joined.

References: the p-series test (sum n^-p converges iff p > 1) and the geometric series."""

import pytest

from theory.series.convergence import decide_in_process
from theory.series.expressions import parse_expression

CASES = [
    # n^-(2 + k^2): exponent >= 2 for every real k, k = 0 included
    ("n**(-2 - k**2)", True, "converges for every real k"),
    # n^-k: converges iff k > 1; k = 0 gives terms 1, k < 0 growing terms
    ("n**(-k)", None, "converges iff k > 1"),
    # n^-(k^2): converges iff |k| > 1 (both signs; k = 0 gives terms 1)
    ("n**(-k**2)", None, "converges iff k < -1 or k > 1"),
    # 1/(n^2 + k^2) <= 1/n^2 for every real k
    ("1/(n**2 + k**2)", True, "converges for every real k"),
    # exp(-k n): geometric for k > 0, terms 1 at k = 0, growing for k < 0
    ("exp(-k*n)", None, "converges iff k > 0"),
]


@pytest.mark.parametrize("text, verdict, condition", CASES)
def test_whole_line(text, verdict, condition):
    d = decide_in_process(parse_expression(text, params=("k",)), 1)  # k real, as --free k
    assert d.converges is verdict, d.certificate
    assert d.condition == condition


def test_undefined_terms_keep_the_verdict_open():
    # (1 + k n)^-2 is undefined at n = -1/k for k = -1, -1/2, ...: no verdict for every real k
    d = decide_in_process(parse_expression("(1 + k*n)**(-2)", params=("k",)), 1)
    assert d.converges is None and "defined" in d.condition
