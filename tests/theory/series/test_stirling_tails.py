"""Certified sums and exact TRFs of factorial-like terms with a power tail
(theory.series.stirling_tail: Stirling's series with its error bound, Hurwitz zeta tails).

The reference of every sum is independent of the engine: the first K terms summed by mpmath
at 50 digits, and the rest from Stirling's formula in the form of DLMF 5.11.3,
Gamma(x) ~ sqrt(2 pi) x^(x - 1/2) e^-x sum_k gamma_k x^-k, and 5.11.4 (1/Gamma has the
coefficients (-1)^k gamma_k), with gamma_0..gamma_6 (DLMF 5.11.5 and OEIS A001163/A001164),
each b_n written by hand as C n^-p sum_k c_k n^-k and summed against mpmath's Hurwitz zeta:
sum_(n >= K) b_n = C sum_k c_k zeta(p + k, K).  The truncation error after six terms is
below 1e-30 at K = 4000 (the change from K = 1000 to K = 4000 is 6e-27, and it falls as
K^-7.5); mpmath's own Euler-Maclaurin sum (``sumem``) agrees with these to 1e-28 (its
quadrature error) and the closed form sum n^(n-1) e^-n/n! = T(1/e) = 1 (Lambert's tree
function) to 1e-32.  A factor log(n)^k is summed against (-1)^k zeta^(k)(s, K), the
derivative in s of mpmath's Hurwitz zeta function.  Exact TRFs are compared with the first crossing R_j < eps B found from
the same partial sums (j < K) and reference tails (j >= K).
"""

import functools
import math

import mpmath
import pytest
import sympy as sp
from flint import arb

from tests.theory.series.marks import fast_first
from theory.series.arb_eval import NotCertified
from theory.series.enclosure import arb_bounds
from theory.series.expressions import N, parameter_value
from theory.series.expressions import parse_expression as P
from theory.series.stirling_tail import StirlingTail
from theory.series.sums import certify_tail
from theory.series.trf_search import analyse_series

K = 4000  # terms summed directly by every reference
SLACK = mpmath.mpf(10) ** -29  # the references' relative truncation error is below this
EPS = [0.1, 0.01, 0.001, 1e-6]

mp = mpmath
with mp.workdps(50):
    # DLMF 5.11.5: gamma_0..gamma_6 of Stirling's formula
    GAMMA = [
        mp.mpf(1),
        mp.mpf(1) / 12,
        mp.mpf(1) / 288,
        mp.mpf(-139) / 51840,
        mp.mpf(-571) / 2488320,
        mp.mpf(163879) / 209018880,
        mp.mpf(5246819) / 75246796800,
    ]


def _conv(a, b):
    return [mp.fsum(a[i] * b[k - i] for i in range(k + 1)) for k in range(len(a))]


def _scaled(c, s):  # the coefficients of G(s x) as a series in 1/x
    return [g / mp.mpf(s) ** k for k, g in enumerate(c)]


def _inverse(c):  # DLMF 5.11.4: 1/G(x) has the coefficients (-1)^k gamma_k
    return [(-1) ** k * g for k, g in enumerate(c)]


def _cases():
    with mp.workdps(50):
        root = mp.sqrt(2 * mp.pi)
        half = mp.mpf(3) / 2
        return {
            # e^n Gamma(n)/n^(n+1) = sqrt(2 pi) n^-3/2 G(n)
            "exp(n)*gamma(n)/n**(n+1)": (root, half, GAMMA),
            # the same terms: n!/n^(n+2) = Gamma(n)/n^(n+1)
            "exp(n)*factorial(n)/n**(n+2)": (root, half, GAMMA),
            # n^(n-1) e^-n/n! = n^-3/2/(sqrt(2 pi) G(n)); the sum is T(1/e) = 1
            "n**n*exp(-n)/(factorial(n)*n)": (1 / root, half, _inverse(GAMMA)),
            # e^(2n) Gamma(n)^2/n^(2n+1) = 2 pi n^-2 G(n)^2
            "exp(2*n)*gamma(n)**2/n**(2*n+1)": (2 * mp.pi, mp.mpf(2), _conv(GAMMA, GAMMA)),
            # Gamma(n + 1/2) = sqrt(pi) Gamma(2n)/(2^(2n-1) Gamma(n)) (duplication):
            # b_n = sqrt(2 pi) n^-3/2 G(2n)/G(n)
            "exp(n)*gamma(n+1/2)/n**(n+3/2)": (
                root,
                half,
                _conv(_scaled(GAMMA, 2), _inverse(GAMMA)),
            ),
            # log(n)^k e^n Gamma(n)/n^(n+1): sum n^-s log(n)^k = (-1)^k zeta^(k)(s, K)
            # (mpmath's derivative of the Hurwitz zeta function in s)
            "log(n)*exp(n)*gamma(n)/n**(n+1)": (root, half, GAMMA, 1),
            "log(n)**2*exp(n)*gamma(n)/n**(n+1)": (root, half, GAMMA, 2),
            # e^(3n) n Gamma(n) Gamma(2n)/(n^(n+2) (2n)^(2n)) = (2 pi/sqrt 2) n^-2 G(n) G(2n)
            "exp(3*n)*factorial(n)*gamma(2*n)/(n**(n+2)*(2*n)**(2*n))": (
                2 * mp.pi / mp.sqrt(2),
                mp.mpf(2),
                _conv(GAMMA, _scaled(GAMMA, 2)),
            ),
        }


CASES = _cases()


@functools.cache
def reference(text, start=1, scale=1):
    return Reference(text, start, scale)


class Reference:
    """B and the tails R_j of sum_(n >= start) b_n (module doc)."""

    def __init__(self, text, start=1, scale=1):
        C, p, coeffs, *logs = CASES[text]
        self.logs = logs[0] if logs else 0
        b = P(text)
        f = sp.lambdify(N, b, modules="mpmath")
        with mp.workdps(50):
            self.scale = mp.mpf(scale)
            self.C, self.p, self.coeffs, self.start = C * self.scale, p, coeffs, start
            terms = [self.scale * f(mp.mpf(n)) for n in range(start, K)]
            self.partial = [mp.mpf(0)]
            for t in terms:
                self.partial.append(self.partial[-1] + t)
            self.B = self.partial[-1] + self.far(K)

    def far(self, a):
        """sum_(n >= a) b_n for a >= K."""
        with mp.workdps(50):
            L = self.logs
            return (
                (-1) ** L
                * self.C
                * mp.fsum(c * mp.zeta(self.p + k, a, L) for k, c in enumerate(self.coeffs))
            )

    def R(self, j):
        """sum_(n >= start + j) b_n."""
        a = self.start + j
        return self.B - self.partial[j] if a < K else self.far(a)

    def trf(self, eps):
        with mp.workdps(50):
            target = self.B * mp.mpf(repr(eps))
            lo, hi = 0, 1
            while not self.R(hi) < target:
                hi *= 2
            while hi - lo > 1:
                m = (lo + hi) // 2
                lo, hi = (lo, m) if self.R(m) < target else (m, hi)
            return hi


def _contains(S, value):
    with mp.workdps(50):
        slack = SLACK * abs(value)
        return S.lo - slack <= value <= S.hi + slack


@pytest.mark.parametrize("text", fast_first(list(CASES), 2))
def test_enclosure_contains_the_reference_and_trfs_are_exact(text):
    ref = reference(text)
    S, table, _, _ = analyse_series(P(text), EPS, 1, budget=60)
    assert S.certified and "Stirling" in S.certificate
    assert _contains(S, ref.B)
    with mp.workdps(50):
        assert S.hi - S.lo < mp.mpf(10) ** -25 * ref.B  # a neighbour 1e-25 off fails
    for t in table:
        if not t.exact:  # beyond the integer search (log factors: TRF(1e-6) ~ 10^14)
            assert ref.logs and t.eps == 1e-6 and t.lower_bound is None
            assert abs(t.value / ref.trf(t.eps) - 1) < 1e-6
            continue
        assert t.value == ref.trf(t.eps), t.eps


def test_tree_function_sum_is_one():
    # sum_(n>=1) n^(n-1) e^-n/n! = T(1/e) = -W(-1/e) = 1 (a closed form, no reference tail)
    t = StirlingTail(P("n**n*exp(-n)/(factorial(n)*n)"), 1)
    s = t.tail(1)
    assert s.contains(1) and s.rad() < 1e-30


@pytest.mark.parametrize("a", [1, 63, 64, 65, 1000, K, 10**6, 10**12])
def test_every_tail_contains_the_reference(a):
    text = "exp(n)*gamma(n)/n**(n+1)"
    ref = reference(text)
    t = StirlingTail(P(text), 1)
    enc = t.tail(a)
    with mp.workdps(50):
        value = ref.R(a - 1)
        lo, hi = arb_bounds(enc)
        assert lo - SLACK * value <= value <= hi + SLACK * value
        assert hi - lo < mp.mpf(10) ** -25 * value


@pytest.mark.parametrize("text", [t for t in CASES if t.startswith("log(n)")])
def test_log_factor_tails_contain_the_reference(text):
    """The engine alone (fast) on log(n)^k terms: the tail from K against (-1)^k times
    mpmath's k-th derivative of the Hurwitz zeta function (the sign matters for odd k)."""
    ref = reference(text)
    enc = StirlingTail(P(text), 1).tail(K)
    with mp.workdps(50):
        value = ref.R(K - 1)
        lo, hi = arb_bounds(enc)
        assert value > 0 and lo - SLACK * value <= value <= hi + SLACK * value
        assert hi - lo < mp.mpf(10) ** -25 * value


@pytest.mark.parametrize("start", [3, pytest.param(100, marks=pytest.mark.slow)])
def test_later_starts(start):
    text = "exp(n)*gamma(n)/n**(n+1)"
    ref = reference(text, start)
    S, table, _, _ = analyse_series(P(text), EPS[:3], start, budget=60)
    assert S.certified and _contains(S, ref.B)
    assert [t.value for t in table] == [ref.trf(e) for e in EPS[:3]]
    assert all(t.exact for t in table)


@pytest.mark.parametrize("x", [0.1, math.nextafter(0.1, 1), math.nextafter(0.1, 0)])
def test_float_factor_one_ulp_apart(x):
    # a Python float enters by its exact binary value; the reference scales by the same value
    c = parameter_value("c", x)
    b = c * P("exp(n)*gamma(n)/n**(n+1)")
    ref = reference("exp(n)*gamma(n)/n**(n+1)", scale=x)
    S, table, _, _ = analyse_series(b, EPS[:3], 1, budget=60)
    assert S.certified and _contains(S, ref.B)
    base = reference("exp(n)*gamma(n)/n**(n+1)", scale=0.1)
    assert _contains(S, base.B) == (x == 0.1)  # 1 ulp (1.4e-17 relative) is resolved
    assert [t.value for t in table] == [ref.trf(e) for e in EPS[:3]]


@pytest.mark.parametrize(
    "text",
    [
        "exp(n)*factorial(n)/(n**n*(n+1)**(3/2))",  # ~ sqrt(2 pi)/n: p = 1, diverges
        "gamma(n+1/2)/(sqrt(n)*gamma(n+1))",  # ~ 1/n, diverges
        "exp(n)*gamma(n)/(n**(n+1)*log(n))",  # 1/log(n): not of the form n^-p log(n)^k e^h
        "exp(-sqrt(n))*exp(n)*gamma(n)/n**(n+1)",  # e^(-sqrt n): h not analytic at 1/n = 0
        "(-1)**n*exp(n)*gamma(n)/n**(n+1)",  # signed terms
        "exp(n)*gamma(n**2)/n**(n+1)",  # a gamma of a non-linear argument
    ],
)
def test_no_tail_without_the_form(text):
    with pytest.raises(NotCertified):
        StirlingTail(P(text), 1)


def test_the_engine_is_chosen_for_the_gamma_ratio_tending_to_one():
    t = certify_tail(P("exp(n)*gamma(n)/n**(n+1)"), 1)
    assert isinstance(t, StirlingTail) and t.p == sp.Rational(3, 2)


def test_remainder_ball_holds_the_true_stirling_remainder():
    """b_n = n^-p e^(h(1/n)) e^(r_n): the ball of r_n for n >= a must hold the true r_n,
    here r_n = R(2n) - 2 R(n) for gamma(2n)/(gamma(n)^2 4^n n^2) (no log(1 + u) terms), with
    R(x) = log Gamma(x) - Stirling's series to B_16 (DLMF 5.11.1), about -2 n^-17/1.2:
    below any tail's width, so only the ball itself can show a dropped term."""
    eng = StirlingTail(P("gamma(2*n)/(gamma(n)**2*4**n*n**2)"), 1)
    assert eng.p == sp.Rational(3, 2)
    h = sp.lambdify(N, eng.h, "mpmath")
    with mpmath.workdps(80):
        for a in (eng.M, 2 * eng.M):
            ball = eng._remainder(a)
            for n in (a, a + 1, a + 7):
                n = mpmath.mpf(n)
                logb = mpmath.loggamma(2 * n) - 2 * mpmath.loggamma(n) - n * mpmath.log(4)
                r = logb - 2 * mpmath.log(n) + eng.p * mpmath.log(n) - h(1 / n)
                assert r != 0 and ball.contains(arb(mpmath.nstr(r, 60)))
