"""Certified sums of factorial-like terms from the term ratio (theory.series.ratio_tails).

Each enclosure must contain a closed form (source in the comment) or mpmath's nsum at 40
digits, and be narrow enough to reject the neighbouring value; each TRF marked exact must
equal the brute-force partial-sum TRF (Eq. 22, mpmath at 50 digits)."""

import mpmath
import pytest
import sympy as sp

from theory.series.arb_eval import NotCertified
from theory.series.comparison_tests import term_ratio
from theory.series.expressions import N
from theory.series.expressions import parse_expression as P
from theory.series.ratio_tails import ratio_bound
from theory.series.trf_search import analyse_series

CASES = [
    # sum_{n>=1} 1/binom(2n, n) = 1/3 + 2 pi sqrt(3)/27 (Lehmer, Amer. Math. Monthly 92 (1985))
    (
        "factorial(n)**2/factorial(2*n)",
        1,
        lambda: mpmath.mpf(1) / 3 + 2 * mpmath.pi * mpmath.sqrt(3) / 27,
    ),
    # sum_{n>=0} binom(2n, n) x^n = 1/sqrt(1 - 4x) at x = 1/5
    ("binomial(2*n, n)/5**n", 0, lambda: mpmath.sqrt(5)),
    # sum_{n>=0} binom(n+2, n) x^n = (1 - x)^-3 at x = 1/2 (binom(n+2, n) = binom(n+2, 2); a
    # literal k, binomial(n + 2, 2), is read as its polynomial and summed by another engine)
    ("binomial(n + 2, n)/2**n", 0, lambda: mpmath.mpf(8)),
    # sum_{n>=1} (-1)^n/n! = 1/e - 1
    ("(-1)**n/factorial(n)", 1, lambda: mpmath.exp(-1) - 1),
    # Catalan numbers: sum_{n>=0} C_n x^n = (1 - sqrt(1 - 4x))/(2x) at x = 1/6: 3 - sqrt(3)
    ("factorial(2*n)/(factorial(n)**2*(n + 1)*6**n)", 0, lambda: 3 - mpmath.sqrt(3)),
    # no closed form used: mpmath's nsum
    ("binomial(3*n, n)/8**n", 0, None),
    ("gamma(n + 1/2)/(factorial(n)*3**n)", 1, None),
    # a ratio with real powers, (n/(n + 1))^(1/4): the first 800 terms (the rest < 10^-95)
    (
        "gamma(n + 1/3)/gamma(n + 5/3)*n**(-1/4)*(3/4)**n",
        1,
        lambda: mpmath.fsum(
            (mpmath.mpf(3) / 4) ** k
            * mpmath.gamma(k + mpmath.mpf(1) / 3)
            / (mpmath.gamma(k + mpmath.mpf(5) / 3) * mpmath.mpf(k) ** (mpmath.mpf(1) / 4))
            for k in range(1, 800)
        ),
    ),
]


def _reference(text, start, closed):
    if closed is not None:
        return closed()
    f = sp.lambdify(N, P(text), modules="mpmath")
    return mpmath.nsum(lambda k: f(k), [start, mpmath.inf])


def _brute_trf(text, start, eps, B):
    f = sp.lambdify(N, P(text), modules="mpmath")
    s, target = mpmath.mpf(0), B * (1 - mpmath.mpf(repr(eps)))
    for j in range(1, 10**5):
        s += f(mpmath.mpf(start + j - 1))
        if s > target:
            return j
    return None


@pytest.mark.parametrize("text, start, closed", CASES, ids=[c[0] for c in CASES])
def test_certified_sum_contains_the_reference(text, start, closed):
    with mpmath.workdps(50):
        ref = _reference(text, start, closed)
    S, table, err, _ = analyse_series(P(text), [0.1, 1e-3, 1e-6], start, budget=60)
    assert S.certified and "term ratio" in S.certificate
    assert S.lo <= ref <= S.hi
    assert S.hi - S.lo < mpmath.mpf(10) ** -20 * abs(ref)  # a neighbour 1e-15 off is rejected
    if ref > 0:
        for t in table:
            if t.exact:
                with mpmath.workdps(50):
                    assert t.value == _brute_trf(text, start, t.eps, ref)


def test_ratio_bound_is_proved_not_assumed():
    # binom(2n,n)/(4^n n): the ratio tends to 1, no geometric bound exists
    with pytest.raises(NotCertified):
        ratio_bound(term_ratio(P("binomial(2*n, n)/(4**n*n)")), 1)
    # (n + 1)/(2 (2n + 1)) <= q for every n >= N1, checked against the ratio itself
    ratio = term_ratio(P("factorial(n)**2/factorial(2*n)"))
    q, n1, s = ratio_bound(ratio, 1)
    assert s == 1 and sp.Rational(1, 4) < q < 1
    assert all(0 < ratio.subs(N, k) <= q for k in range(n1, n1 + 200))
    # 10^n n!^2/(2n)! has ratio -> 10/4 > 1: nothing is certified
    with pytest.raises(NotCertified):
        ratio_bound(term_ratio(P("10**n*factorial(n)**2/factorial(2*n)")), 1)


GROUPED = [
    # sum (-1)^n/n = -ln 2 (Mercator series)
    ("(-1)**n/n", 1, lambda: -mpmath.log(2)),
    # 1 - 1/2 - 1/3 + 1/4 + 1/5 - ... = pi/4 - ln(2)/2 (Leibniz and Mercator series interleaved)
    ("(-1)**floor(n/2)/n", 1, lambda: mpmath.pi / 4 - mpmath.log(2) / 2),
    # (1 + (-1)^n)/n^2 = 2 sum_m 1/(2m)^2 = pi^2/12
    ("(1 + (-1)**n)/n**2", 1, lambda: mpmath.pi**2 / 12),
    # sum (-1)^n/n^3 from n = 2: -(3/4) zeta(3) + 1 (eta function)
    ("(-1)**n/n**3", 2, lambda: -3 * mpmath.zeta(3) / 4 + 1),
]


@pytest.mark.parametrize("text, start, closed", GROUPED, ids=[c[0] for c in GROUPED])
def test_grouped_periodic_sums_contain_the_closed_form(text, start, closed):
    # the command's engine (the first that certifies) and the grouping engine itself
    from theory.series.residue_classes import GroupedTail
    from theory.series.sums import series_sum_core

    with mpmath.workdps(100):  # the reference must be finer than enclosures of 1e-57
        ref = closed()
        S = series_sum_core(P(text), start, None, estimate=False)[0]
        total = GroupedTail(P(text), start, None).tail(start)
    assert S.certified
    assert S.lo <= ref <= S.hi and S.hi - S.lo < mpmath.mpf(10) ** -18
    with mpmath.workdps(100):
        lo, hi = (mpmath.mpf(x.str(90, radius=False)) for x in (total.lower(), total.upper()))
        assert lo - mpmath.mpf(10) ** -80 <= ref <= hi + mpmath.mpf(10) ** -80, (lo, hi, ref)
    assert hi - lo < mpmath.mpf(10) ** -12
