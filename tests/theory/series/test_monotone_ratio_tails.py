"""Certified sums and exact TRFs of terms whose ratio b_(n+1)/b_n is proved monotone
(theory.series.ratio_monotone, used by theory.series.ratio_tails.RatioTail).

The reference of every sum is independent of the engine: the first K terms summed by mpmath
at 50 digits, and the rest bounded by |b_K|/(1 - c) from a ratio bound |b_(n+1)/b_n| <= c
(n >= K) proved by hand in the comment of each case (mostly Bernoulli's inequality
(1 + 1/n)^n >= 2 and the increase of (1 + 1/n)^n to e).  Each enclosure must contain the
reference and reject a neighbour 1e-20 away; each exact TRF must equal the brute-force TRF
(Eq. 22 for terms >= 0, the tail rule for signed terms) from the same 50-digit partial sums.
"""

import json
import math
import subprocess
import sys

import mpmath
import pytest
import sympy as sp

from tests.theory.series.marks import fast_first
from theory.series.arb_eval import NotCertified
from theory.series.comparison_tests import term_ratio
from theory.series.convergence import decide
from theory.series.enclosure import arb_bounds
from theory.series.expressions import N, parameter_value
from theory.series.expressions import parse_expression as P
from theory.series.ratio_monotone import factorwise_ratio_bound, monotone_ratio_bound
from theory.series.ratio_tails import RatioTail, proved_ratio_bound
from theory.series.trf_search import analyse_series
from theory.trf.cli import main

K = 3000  # terms in every direct reference sum
EPS = [0.1, 1e-3, 1e-6]

# (formula, start, c[, terms]): |b_(n+1)/b_n| <= c for n >= K (or the given number of terms),
# proved in the comment
CASES = [
    # r = (1 + 1/n)^-n <= 1/2: Bernoulli, (1 + 1/n)^n >= 1 + n/n = 2
    ("factorial(n)/n**n", 1, 0.5),
    # r = (1 + 1/n)^5 (1 + 1/n)^-n <= 1.001^5/2 for n >= 1000
    ("n**5*factorial(n)/n**n", 1, 0.51),
    # r = 2 (1 + 1/n)^-n -> 2/e; (1 + 1/n)^n increases, >= 1.1^10 > 2.59 for n >= 10
    ("2**n*factorial(n)/n**n", 1, 0.78),
    # the float 0.5 (exact): r = (1 + 1/n)^-n/2 <= 1/4
    ("(0.5)**n*factorial(n)/n**n", 1, 0.25),
    # r = (1 + 1/n)^n/3 < e/3 < 0.91: increasing ratio, bounded by its limit
    ("n**n/(3**n*factorial(n))", 1, 0.91),
    # r = n^(2n)/(n + 1)^(2n + 1) <= 1/(n + 1): ratio -> 0
    ("factorial(n)/n**(2*n)", 1, 0.01),
    # |r| = (1 + 1/n)^-n <= 1/2: alternating signs
    ("(-1)**n*factorial(n)/n**n", 1, 0.5),
    # r = 2.7 (1 + 1/n)^-n -> 2.7/e; log(1 + x) >= x - x^2/2 gives (1 + 1/n)^n >= e^(1 - 1/(2n))
    # >= e (1 - 1/(2n)), so r <= 2.7/(e (1 - 1/40000)) < 0.9933 for n >= 20000
    ("2.7**n*factorial(n)/n**n", 1, 0.9933, 20000),
    # rational ratios (the polynomial path, unchanged): (n + 1)/(2(2n + 1)) <= 1/3,
    # (n + 1/2)/(2(n + 1)) <= 1/2, 2(2n + 1)/(5(n + 1)) <= 4/5
    ("factorial(n)**2/factorial(2*n)", 1, 1 / 3),
    ("gamma(n + 1/2)/(gamma(n + 1)*2**n)", 1, 0.5),
    ("binomial(2*n, n)/5**n", 1, 0.8),
    # alternating, rational ratio: |r| = 2(2n + 1)/(5(n + 1)) <= 4/5
    ("(-1)**n*binomial(2*n, n)/5**n", 1, 0.8),
    # factors bounded one by one (ratio_monotone.factorwise_ratio_bound); with
    # log(n + 1) - log(n) <= 1/n, log(n + 1)/log(n) <= 1 + 1/(n log n):
    # r = (1 + 1/n)^-n e^(sqrt(n) - sqrt(n + 1)) <= 1/2 (Bernoulli; the exponential is < 1)
    ("exp(-sqrt(n))*factorial(n)/n**n", 1, 0.5),
    # r = (1 + 1/n)^-n e^(n^(1/3) - (n + 1)^(1/3)) <= 1/2
    ("exp(-n**(1/3))*factorial(n)/n**n", 1, 0.5),
    # r = (1 + 1/n)^-n log(n + 1)/log(n) <= (1 + 1/(n log n))/2 < 0.51 for n >= 3000
    ("log(n)*factorial(n)/n**n", 1, 0.51),
    # r = (1 + 1/n)^-n (log(n + 1)/log(n))^2 <= (1 + 1/(n log n))^2/2 < 0.51 for n >= 3000
    ("log(n)**2*factorial(n)/n**n", 1, 0.51),
    # r = (1 + 1/n)^-n log(n + 1)/log(n + 2) <= 1/2
    ("factorial(n)/(n**n*log(n+1))", 1, 0.5),
    # r = 2 (1 + 1/n)^-n e^(sqrt(n) - sqrt(n + 1)) <= 0.78 for n >= 10 (as for 2**n above)
    ("exp(-sqrt(n))*2**n*factorial(n)/n**n", 1, 0.78),
    # r = 2(2n + 1)/(5(n + 1)) (log(n + 2)/log(n + 1))^(1/2) <= (4/5)(1 + 1/(n log n)) < 0.81
    ("sqrt(log(n+1))*factorial(2*n)/(factorial(n)**2*5**n)", 1, 0.81),
    # r = (1 + 1/n)^-n atan(n + 1)/atan(n); atan(n + 1) - atan(n) <= 1/(1 + n^2) (mean
    # value), so atan(n + 1)/atan(n) <= 1 + 1/((1 + n^2) atan(1)) and r <= 0.51 for n >= 3000
    ("atan(n)*factorial(n)/n**n", 1, 0.51),
]

# the factors' ratios bounded one by one (log(n + 1)/log(n) by its value at the start,
# e^(sqrt(n) - sqrt(n + 1)) by its limit 1)
FACTORWISE = [c[0] for c in CASES[-8:]]


def _terms(f, start, count):
    with mpmath.workdps(50):
        return [f(mpmath.mpf(start + k)) for k in range(count)]


def _reference(terms, c):
    """(sum of the terms, bound on the rest): |rest| <= |b_K|/(1 - c) (geometric majorant)."""
    with mpmath.workdps(50):
        head = mpmath.fsum(terms[:-1])
        rest = abs(terms[-1]) / (1 - mpmath.mpf(c))
    assert rest < mpmath.mpf(10) ** -40 * abs(head)  # far below the enclosures' widths
    return head, rest


def _brute_trf(terms, B, eps, signed):
    """Eq. 22 (first j with partial sum > (1 - eps) B) for terms >= 0; the tail rule
    (1 + the last i with |B - S_i| >= eps |B|) for signed terms."""
    with mpmath.workdps(50):
        target = abs(B) * mpmath.mpf(repr(eps))
        s, last = mpmath.mpf(0), 0
        for j, t in enumerate(terms[:-1]):
            if not signed and s > B - target:
                return j
            if signed and abs(B - s) >= target:
                last = j
            s += t
        return last + 1


def _check(b, start, c, terms=None):
    f = sp.lambdify(N, b, modules="mpmath")
    terms = terms or _terms(f, start, K)
    ref, rest = _reference(terms, c)
    S, table, _, _ = analyse_series(b, EPS, start, budget=60)
    assert S.certified and "term ratio" in S.certificate
    with mpmath.workdps(50):
        assert S.lo <= ref - rest and ref + rest <= S.hi
        assert S.hi - S.lo < mpmath.mpf(10) ** -20 * abs(ref)  # a neighbour 1e-20 off fails
    signed = any(t < 0 for t in terms)
    for t in table:
        assert t.exact, (t.eps, t.lower_bound)
        assert t.value == _brute_trf(terms, ref, t.eps, signed)
    return S


@pytest.mark.parametrize("case", fast_first(CASES, 3), ids=[c[0] for c in CASES])
def test_enclosure_contains_the_direct_sum_and_trfs_are_exact(case):
    text, start, c = case[:3]
    b = P(text)
    count = case[3] if len(case) > 3 else K
    _check(b, start, c, _terms(sp.lambdify(N, b, modules="mpmath"), start, count))


@pytest.mark.parametrize("x", [0.5, math.nextafter(0.5, 1), math.nextafter(0.5, 0)])
def test_float_coefficient_one_ulp_apart(x):
    # a Python float enters by its exact binary value (parameter_value); the reference uses
    # the same binary value (mpmath.mpf(x) is exact), r <= x/2 < 0.26 (Bernoulli as above)
    a = parameter_value("a", x)
    b = a**N * sp.factorial(N) / N**N
    with mpmath.workdps(50):
        xm = mpmath.mpf(x)
        terms = [xm**k * mpmath.factorial(k) / mpmath.mpf(k) ** k for k in range(1, 400)]
    S = _check(b, 1, 0.26, terms)
    with mpmath.workdps(50):  # the sum at 0.5 is outside the enclosure at 0.5 +- 1 ulp
        half = mpmath.fsum(mpmath.mpf(0.5) ** k * mpmath.factorial(k) / k**k for k in range(1, 400))
    assert (S.lo <= half <= S.hi) == (x == 0.5)


def test_typed_decimal_coefficient_through_the_command():
    # --param a=0.5000000000000001 is the decimal 5000000000000001/10^16 (its text, exactly)
    out = subprocess.run(
        [sys.executable, "-m", "theory.trf", "--rpe", "a**n*factorial(n)/n**n"]
        + ["--param", "a=0.5000000000000001", "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    d = json.loads(out.stdout)
    with mpmath.workdps(50):
        a = mpmath.mpf(5000000000000001) / 10**16
        terms = [a**k * mpmath.factorial(k) / mpmath.mpf(k) ** k for k in range(1, 400)]
        ref, rest = _reference(terms, 0.26)
        assert d["certified"] and mpmath.mpf(d["sum_lo"]) <= ref - rest
        assert ref + rest <= mpmath.mpf(d["sum_hi"])
    assert [t["exact"] for t in d["trf"]] == [True] * 3


def test_ratio_bound_holds_from_its_start_and_not_before():
    # decreasing ratio: q >= r(P) >= r(n) for n >= P, checked on the ratio itself
    for text in ("factorial(n)/n**n", "n**5*factorial(n)/n**n", "2**n*factorial(n)/n**n"):
        ratio = term_ratio(P(text))
        q, start, s, how = proved_ratio_bound(ratio, 1)
        assert s == 1 and q < 1 and "decreases" in how
        vals = [ratio.subs(N, k) for k in range(start, start + 300)]
        assert all(0 < v <= q for v in vals)
        assert q - vals[0] < sp.Rational(1, 2**19)  # q is r(P) rounded up on the grid
        if start > 1:  # the start matters: the term before it breaks the bound
            assert ratio.subs(N, start - 1) > q
    # increasing ratio (1 + 1/n)^n/3 < e/3: q is e/3 rounded up
    ratio = term_ratio(P("n**n/(3**n*factorial(n))"))
    q, start, s, how = proved_ratio_bound(ratio, 1)
    assert "increases" in how and sp.E / 3 <= q < sp.E / 3 + sp.Rational(1, 2**19)
    # a ratio that rises until n = 10, then falls: the bound starts after the turn
    q, start, s, _ = monotone_ratio_bound(sp.exp(-1 + N / (N**2 + 100)), 1)
    assert start > 10 and sp.exp(-1 + sp.Rational(start, start**2 + 100)) <= q
    assert sp.exp(-1 + sp.Rational(10, 200)) > q  # the maximum, before the start


@pytest.mark.parametrize(
    "ratio",
    [
        sp.exp(-1 + sp.sin(N) / N),  # not monotone: no sign of any derivative is proved
        3 * N**N / (N + 1) ** N,  # -> 3/e > 1
        sp.E * N**N / (N + 1) ** N,  # -> 1
        N ** (N + 1) * (N + 1) ** (-N - 1) * sp.exp(1),  # -> 1 (e^n n!/n^(n+1))
        sp.exp(sp.sqrt(N) - sp.sqrt(N + 1)) * N**N / (N + 1) ** N,  # monotone, not proved
    ],
)
def test_no_bound_without_a_proof(ratio):
    with pytest.raises(NotCertified):
        monotone_ratio_bound(ratio, 1)


def test_divergent_and_factorwise_cases_through_the_command(capsys):
    # ratio -> 3/e > 1: still diverges, no sum
    assert decide(P("3**n*factorial(n)/n**n"), 1).converges is False
    # exp(-sqrt(n)) n!/n^n: the ratio as a whole is not proved monotone, its factors are;
    # the command certifies B and exact TRFs (r <= 1/2 as above, exp(sqrt(n) - sqrt(n+1)) < 1)
    text = "factorial(n)*exp(-sqrt(n))/n**n"
    terms = _terms(sp.lambdify(N, P(text), modules="mpmath"), 1, 400)
    ref, rest = _reference(terms, 0.5)
    assert main(["--rpe", text, "--json", "--time-limit", "60"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["certified"]
    with mpmath.workdps(50):
        assert mpmath.mpf(out["sum_lo"]) <= ref - rest
        assert ref + rest <= mpmath.mpf(out["sum_hi"])
    for t in out["trf"]:
        assert t["exact"] and t["value"] == _brute_trf(terms, ref, t["eps"], False)


@pytest.mark.parametrize("text", fast_first(FACTORWISE, 2))
def test_factorwise_ratio_bound_holds_from_its_start(text):
    # q >= b_(n+1)/b_n for every n from the proved start on (50-digit values of the ratio
    # itself), and q is the product of the factors' bounds, not looser than 2x the ratio
    b = P(text)
    ratio = term_ratio(b)
    with pytest.raises(NotCertified):  # the ratio as a whole is not proved monotone
        monotone_ratio_bound(ratio, 1)
    q, start, s, how = proved_ratio_bound(ratio, 1, b)
    assert s == 1 and q < 1 and "one by one" in how
    f = sp.lambdify(N, ratio, modules="mpmath")
    with mpmath.workdps(50):
        vals = [f(mpmath.mpf(k)) for k in range(start, start + 300)]
        assert all(0 < v <= mpmath.mpf(q.p) / q.q for v in vals)
        assert max(vals) > mpmath.mpf(q.p) / q.q / 2


@pytest.mark.parametrize("text", ["log(n)*factorial(n)/n**n", "factorial(n)/(n**n*log(n+1))"])
def test_factorwise_bound_of_a_log_concave_or_log_convex_log_factor(text):
    """Fast: a log factor's ratio psi(n+1)/psi(n), bounded at the start (log(n): (log)'' < 0)
    or by its limit 1 (1/log(n+1)): q >= b_(n+1)/b_n from the start on (50-digit values;
    at n = 2 for log(n) n!/n^n: (2/3)^2 log(3)/log(2) = 0.7044...)."""
    b = P(text)
    q, start, s, _how = factorwise_ratio_bound(b, 1)
    f = sp.lambdify(N, term_ratio(b), modules="mpmath")
    with mpmath.workdps(50):
        vals = [f(mpmath.mpf(k)) for k in range(start, start + 200)]
        assert s == 1 and all(0 < v <= mpmath.mpf(q.p) / q.q < 1 for v in vals)


def test_ratio_tending_to_one_keeps_its_enclosure_and_exact_trfs():
    # sum 4^n/(n^3 binom(2n, n)) = pi^2 ln 2 - 7 zeta(3)/2 (the arcsin^2 series integrated;
    # agrees to 36 digits with heldout5_cases' direct sum + Euler-Maclaurin reference)
    b = P("4**n/(n**3*binomial(2*n, n))")
    with mpmath.workdps(50):
        ref = mpmath.pi**2 * mpmath.log(2) - mpmath.mpf(7) / 2 * mpmath.zeta(3)
    S, table, _, _ = analyse_series(b, [0.1, 0.01, 0.001], 1, budget=60)
    with mpmath.workdps(50):
        assert S.certified and S.lo <= ref <= S.hi
    f = sp.lambdify(N, b, modules="mpmath")
    terms = _terms(f, 1, 200)
    assert [t.value for t in table if t.exact] == [
        _brute_trf(terms, ref, e, False) for e in (0.1, 0.01, 0.001)
    ]


@pytest.mark.parametrize(
    "text, c",
    [
        ("factorial(n)/n**n", 0.5),  # r = (1 + 1/n)^-n <= 1/2 (Bernoulli)
        ("n**n/(3**n*factorial(n))", 0.91),  # r = (1 + 1/n)^n/3 < e/3 < 0.91
        ("(-1)**n*factorial(n)/n**n", 0.5),  # |r| <= 1/2 as above
    ],
)
def test_far_tails_and_their_bound_hold_against_the_direct_sum(text, c):
    # beyond the summed head the tail is the geometric bound alone: [b_a, b_a/(1 - q)]
    b = P(text)
    t = RatioTail(b, 1)
    f = sp.lambdify(N, b, modules="mpmath")
    for a in sorted({1, 2, t.n1, t.M + 1, t.M + 40}):
        terms = _terms(f, a, 1500)
        ref, rest = _reference(terms, c)
        lo, hi = arb_bounds(t.tail(a))
        sup = arb_bounds(t.tail_sup(a))[1]  # bounds |R_k| for every k >= a
        with mpmath.workdps(50):
            assert lo <= ref - rest and ref + rest <= hi
            tails = [ref - mpmath.fsum(terms[:i]) for i in range(200)]
            assert max(abs(x) for x in tails) + rest <= sup
