"""Certified B and TRF on the adversarial table (tests/theory/series/adversarial_series.py).

Every enclosure that is claimed must contain the independent reference; every TRF marked
``exact`` must equal the brute-force partial-sum TRF (Eq. 22).  The default suite runs every
third case and brute-forces TRFs up to 3000; ``-m slow`` runs all of them up to 2 * 10^5.
"""

import sys
from pathlib import Path

import mpmath
import pytest
import sympy as sp

from theory.core.budget import BudgetExceeded
from theory.series.decision import SeriesError
from theory.series.expressions import N
from theory.series.expressions import parse_expression as P
from theory.series.trf_search import analyse_series

sys.path.insert(0, str(Path(__file__).parent))
from adversarial_series import CASES, DPS  # noqa: E402

EPS = [0.1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6]
FAST = CASES[::3]
SLOW = [c for i, c in enumerate(CASES) if i % 3]


def _brute_trf(text, start, eps, B, limit):
    """min j with sum_{k<j} b_(start+k) > B (1 - eps), by plain summation (mpmath, 30 digits;
    terms from sympy's mpmath printer, not the ball evaluator); None beyond ``limit``."""
    f = sp.lambdify(N, P(text), modules="mpmath")
    target = B * (1 - mpmath.mpf(repr(eps)))
    s = mpmath.mpf(0)
    for j in range(1, limit + 1):
        s += f(mpmath.mpf(start + j - 1))
        if s > target:
            if abs(s - target) <= abs(target) * mpmath.mpf(10) ** -25:
                return _exact_crossing(text, start, eps, B, j)
            return j
    return None


def _exact_crossing(text, start, eps, B, j):
    """At a tie S_j = B (1 - eps) within the 30 digits (1/(n+1) - 1/(n+2): S_18 = 9/20):
    for rational terms and a rational B (its 47-digit reference read back as a fraction),
    S_j compared exactly: j when S_j > B (1 - eps), else j + 1 (the next term is > 0)."""
    b = P(text)
    if not b.is_rational_function(N):
        return j
    Bq = sp.nsimplify(mpmath.nstr(B, 40), rational=True, tolerance=sp.Rational(1, 10**35))
    S = sum((b.subs(N, start + k) for k in range(j)), sp.Integer(0))
    return j if S > Bq * (1 - sp.Rational(repr(eps))) else j + 1


def _check(case, brute_limit):
    with mpmath.workdps(DPS):
        ref = case.reference()
    try:
        S, table, _err, _asym = analyse_series(P(case.text), EPS, case.start, budget=60)
    except SeriesError:
        return  # no verdict (the convergence tests' part): nothing is claimed
    except BudgetExceeded:
        # no answer within the CPU budget: nothing is claimed either.  (exp(cos(n))/n**2
        # gives up in about 2 CPU-s alone, but used its whole budget once in a long run.)
        return
    if S.certified:
        with mpmath.workdps(DPS):
            slack = abs(ref) * mpmath.mpf(10) ** -45  # the references carry >= 47 digits
            assert S.lo - slack <= ref <= S.hi + slack, (case.text, S.lo, S.hi, ref)
    for t in table or []:
        if not t.exact:
            continue
        assert S.certified
        if t.value <= brute_limit:
            with mpmath.workdps(30):
                assert t.value == _brute_trf(case.text, case.start, t.eps, ref, brute_limit + 1), (
                    case.text,
                    t.eps,
                )


@pytest.mark.parametrize("case", FAST, ids=[c.text for c in FAST])
def test_certified_sum_and_exact_trf(case):
    _check(case, 3000)


@pytest.mark.slow
@pytest.mark.parametrize("case", SLOW, ids=[c.text for c in SLOW])
def test_certified_sum_and_exact_trf_all(case):
    _check(case, 200_000)


def test_adversarial_table_size_and_classes():
    kinds = {c.kind for c in CASES}
    assert len(CASES) >= 60 and kinds == {"feature", "slow", "gives-up", "hypergeometric"}
    assert len({(c.text, c.start) for c in CASES}) == len(CASES)


@pytest.mark.parametrize(
    "text,why",
    [
        ("1/n**2 + exp(-100*(n - 1000.5)**2)", "a bump between two integers"),
        ("Piecewise((n**(-2), n < 1000000), (n**(-3), True))", "a switch at 10^6"),
        ("(1/2)**floor(n/2)", "floor: two geometric residue classes"),
        ("(2 + sin(n))/n**2", "oscillating: Lerch sums"),
        ("1/n - 3/(3*n + 2)", "a rational difference"),
    ],
)
def test_these_are_certified(text, why):
    S, _t, _e, _a = analyse_series(P(text), [0.1], 1, budget=60)
    assert S.certified, why


def test_not_certified_is_said_and_carries_no_bound():
    # exp(-log(n)**1.01): the far tail decays like n^-(log n)^0.01, beyond every comparison
    # series the far-tail boxes can prove, so no enclosure is claimed
    S, table, _e, _a = analyse_series(P("exp(-log(n)**(101/100))"), [0.1], 2, budget=60)
    assert not S.certified and S.lo is None and S.hi is None and S.digits() == 0
    assert not any(t.exact for t in table or [])
