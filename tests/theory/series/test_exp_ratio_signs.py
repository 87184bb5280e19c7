"""Signs of differences of exponentials with different rates (``1/(3**n - 2**n)``):
proved by writing each with the fastest rate, so B is certified and the TRFs exact, against
mpmath sums computed here."""

import json

import mpmath
import pytest

from theory.series.expressions import parse_expression
from theory.series.lower_bounds import terms_nonnegative
from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]

# (formula, term, terms summed): b_n <= 2 (2/3)^n ... every rest after the last term is
# below 10^-50 (by hand: b_n <= 2 r^n with r = 1/3, e^-1 n, 1/2 for n past the first few)
CASES = [
    ("1/(3**n - 2**n)", lambda n: 1 / (3**n - 2**n), 220),
    ("n/(exp(n) - 2**n)", lambda n: n / (mpmath.exp(n) - 2**n), 600),
    ("1/(4**n - 2**n)", lambda n: 1 / (4**n - 2**n), 200),
]


@pytest.mark.parametrize("formula,term,count", CASES, ids=[c[0] for c in CASES])
def test_exponential_differences(capsys, formula, term, count):
    assert main([f"--rpe={formula}", "--json", "--time-limit", "60", "--eps", *map(str, EPS)]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(60):
        terms = [term(mpmath.mpf(n)) for n in range(1, count + 1)]
        B = mpmath.fsum(terms)
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo <= B <= hi and hi - lo < B * mpmath.mpf(10) ** -18
        for t in out["trf"]:
            j, eps = t["value"], mpmath.mpf(repr(t["eps"]))
            assert t["exact"], t
            R = mpmath.fsum(terms[j:])  # the terms from n = 1 + j on
            assert R < eps * B <= R + terms[j - 1], (t, R)


def test_the_sign_rule_does_not_prove_a_negative_term():
    P = parse_expression
    assert terms_nonnegative(P("1/(3**n - 2**n)"), 1)
    assert not terms_nonnegative(P("1/(2**n - 3**n)"), 1)
    assert not terms_nonnegative(P("3**n - 2**n - 5**n/4**n*2"), 1)  # 1 - 2(5/4)^1 - ... < 0
