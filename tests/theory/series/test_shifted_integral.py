"""The integral test through a shift of the index (theory.series.shifted_integral):
1/(n log(n + 1)^2) and relatives, whose term has no antiderivative sympy finds.

References are independent of the code under test (mpmath at 60 digits: far away the
enclosures are narrower than 40 digits): the terms summed
directly for n < K = 200, then the Euler-Maclaurin tail from K, f(K)/2 - f'(K)/12 +
f'''(K)/720 - f^(5)(K)/30240 + f^(7)(K)/1209600 (derivatives by mpmath.diff), with the
integral int_K^oo f written as the closed form of the unshifted term plus a rapidly
converging remainder integrated by mpmath.quad, e.g. for f = 1/(x log(x + 1)^2)

    int_K^oo f = 1/log(K + 1) + int_(K+1)^oo dy / (y (y - 1) log(y)^2).

TRF from the same tail: the least j with R(start + j) < eps B (Eq. 22), by bisection."""

import mpmath
import pytest
from flint import arb, ctx

from theory.series.arb_eval import NotCertified
from theory.series.certified_trf import wide_analysis
from theory.series.expressions import N
from theory.series.expressions import parse_expression as P
from theory.series.shifted_integral import ShiftedIntegralTail, shift_form
from theory.series.sums import certify_tail

K = 200


def _reference_tail(f, integral, a):
    """R(a) = sum_{n >= a} f(n) for a >= K: the Euler-Maclaurin tail (module docstring)."""
    d = [mpmath.diff(f, a, k) for k in (1, 3, 5, 7)]
    return integral(a) + f(a) / 2 - d[0] / 12 + d[1] / 720 - d[2] / 30240 + d[3] / 1209600


def _reference_sum(f, integral, start):
    return mpmath.fsum(f(mpmath.mpf(n)) for n in range(start, K)) + _reference_tail(
        f, integral, mpmath.mpf(K)
    )


def _quad(g, a):
    return mpmath.quad(g, [a, 10 * a, 10**4 * a, 10**8 * a, mpmath.inf])


L = mpmath.log


def _mixed_remainder(y):
    with mpmath.workdps(120):
        return 1 / (y * L(y + 1) * L(L(y + 2)) ** 2) - 1 / ((y + 2) * L(y + 2) * L(L(y + 2)) ** 2)


def _two_logs_remainder(y):
    with mpmath.workdps(120):
        return 1 / (y * L(y + 1) * L(y + 2)) - 1 / ((y + 2) * L(y + 2) ** 2)


def _cube_root_remainder(y):
    with mpmath.workdps(120):
        third = mpmath.mpf(1) / 3
        return 1 / ((y + 2) ** (2 * third) * y**third * L(y + 3) ** 3) - 1 / (
            (y + 3) * L(y + 3) ** 3
        )


def _mixed_root_remainder(y):
    with mpmath.workdps(120):
        third = mpmath.mpf(1) / 3
        return 1 / ((y + 1) ** (2 * third) * (y + 3) ** third * L(y + 2) ** 3) - 1 / (
            (y + 2) * L(y + 2) ** 3
        )


def _root_log_remainder(y):
    with mpmath.workdps(120):
        third = mpmath.mpf(1) / 3
        b = 3 / ((y + 3) ** (2 * third) * y**third * L(y + 1) * L(L(y + 3)) ** mpmath.mpf(1.5))
        return b - 3 / ((y + 3) * L(y + 3) * L(L(y + 3)) ** mpmath.mpf(1.5))


def _sqrt_remainder(y):
    with mpmath.workdps(120):
        return 1 / (mpmath.sqrt(y) * mpmath.sqrt(y + 3) * L(y + 1) ** 2) - 1 / (
            (y + 1) * L(y + 1) ** 2
        )


def _late_start_remainder(y):
    with mpmath.workdps(120):
        return 1 / ((y + 3) * L(y + 3) * L(L(y + 1)) ** 2) - 1 / (
            (y + 3) * L(y + 3) * L(L(y + 3)) ** 2
        )


# (term, start, f, int_a^oo f): the closed form of the shifted term plus a remainder
CASES = [
    (
        "1/(n*log(n + 1)**2)",
        1,
        lambda x: 1 / (x * L(x + 1) ** 2),
        lambda a: 1 / L(a + 1) + _quad(lambda y: 1 / (y * (y - 1) * L(y) ** 2), a + 1),
    ),
    (  # the remainder is negative: 1/((n+1) log(n)^2) - 1/(n log(n)^2) < 0
        "1/((n + 1)*log(n)**2)",
        2,
        lambda x: 1 / ((x + 1) * L(x) ** 2),
        lambda a: 1 / L(a) - _quad(lambda y: 1 / (y * (y + 1) * L(y) ** 2), a),
    ),
    (  # log log: 1/log(log(K + 2)) + the remainder
        "1/(n*log(n + 2)*log(log(n + 2))**2)",
        1,
        lambda x: 1 / (x * L(x + 2) * L(L(x + 2)) ** 2),
        lambda a: 1 / L(L(a + 2)) + _quad(lambda y: 2 / (y * (y - 2) * L(y) * L(L(y)) ** 2), a + 2),
    ),
    (  # a pure shift, m = n + 1 (no remainder): int = int_(a+1)^oo e^(-log(y)^1.01)
        "exp(-log(n + 1)**1.01)",
        1,
        lambda x: mpmath.exp(-(L(x + 1) ** mpmath.mpf("1.01"))),
        lambda a: mpmath.quad(
            lambda u: mpmath.exp(u - u ** mpmath.mpf("1.01")),
            [L(a + 1), 10, 100, 10**3, 10**4, 10**5, mpmath.inf],
        ),
    ),
    (  # phi = 1/(m (log(m)^2 + 1)): its antiderivative atan(log m) through m = e^u
        "1/(n*(log(n + 1)**2 + 1))",
        1,
        lambda x: 1 / (x * (L(x + 1) ** 2 + 1)),
        lambda a: (
            mpmath.pi / 2
            - mpmath.atan(L(a + 1))
            + _quad(lambda y: 1 / (y * (y - 1) * (L(y) ** 2 + 1)), a + 1)
        ),
    ),
    (  # sqrt(n) sqrt(n + 3) against n + 1: the remainder cancels (written without it);
        # here the difference is taken at 120 digits, losing at most 2 log10(y) of them
        "1/(sqrt(n)*sqrt(n + 3)*log(n + 1)**2)",
        1,
        lambda x: 1 / (mpmath.sqrt(x) * mpmath.sqrt(x + 3) * L(x + 1) ** 2),
        lambda a: 1 / L(a + 1) + _quad(_sqrt_remainder, a),
    ),
    (  # two shifts: phi(m) = 1/(m log(m) log(log(m))^2) at m = n + 2, log(n + 1) in rho
        "1/(n*log(n + 1)*log(log(n + 2))**2)",
        1,
        lambda x: 1 / (x * L(x + 1) * L(L(x + 2)) ** 2),
        lambda a: 1 / L(L(a + 2)) + _quad(_mixed_remainder, a),
    ),
    (  # cube roots: r = phi(n + 3) (exp(U) - 1), U = log(1 + 3/n)/3 + 2 log(1 + 1/(n + 2))/3
        "1/((n + 2)**(2/3)*n**(1/3)*log(n + 3)**3)",
        1,
        lambda x: 1 / ((x + 2) ** (mpmath.mpf(2) / 3) * x ** (mpmath.mpf(1) / 3) * L(x + 3) ** 3),
        lambda a: 1 / (2 * L(a + 3) ** 2) + _quad(_cube_root_remainder, a),
    ),
    (  # U = 2 log(1 + 1/(n + 1))/3 + log(1 - 1/(n + 3))/3: summands of both signs, r > 0
        # far out (2/3 - 1/3 > 0)
        "1/((n + 1)**(2/3)*(n + 3)**(1/3)*log(n + 2)**3)",
        1,
        lambda x: (
            1 / ((x + 1) ** (mpmath.mpf(2) / 3) * (x + 3) ** (mpmath.mpf(1) / 3) * L(x + 2) ** 3)
        ),
        lambda a: 1 / (2 * L(a + 2) ** 2) + _quad(_mixed_root_remainder, a),
    ),
    (  # cube roots and a log of another shift: U holds log(1 + log(1 - 2/(n + 3))/log(n + 3))
        "3/((n + 3)**(2/3)*n**(1/3)*log(n + 1)*log(log(n + 3))**(3/2))",
        1,
        lambda x: (
            3
            / (
                (x + 3) ** (mpmath.mpf(2) / 3)
                * x ** (mpmath.mpf(1) / 3)
                * L(x + 1)
                * L(L(x + 3)) ** 1.5
            )
        ),
        lambda a: 6 / mpmath.sqrt(L(L(a + 3))) + _quad(_root_log_remainder, a),
    ),
    (  # two shifts of one log
        "1/(n*log(n + 1)*log(n + 2))",
        1,
        lambda x: 1 / (x * L(x + 1) * L(x + 2)),
        lambda a: 1 / L(a + 2) + _quad(_two_logs_remainder, a),
    ),
    (  # log(log(2)) < 0: the form holds from n = 2, b_1 summed as it is; r of one sign
        # with a far tail (past 2^64) from the ball of rho, no comparison series
        "1/((n + 3)*log(n + 3)*log(log(n + 1))**2)",
        1,
        lambda x: 1 / ((x + 3) * L(x + 3) * L(L(x + 1)) ** 2),
        lambda a: 1 / L(L(a + 3)) + _quad(_late_start_remainder, a),
    ),
    (  # a bare factor 2 n + 1 = 2 (n + 1/2): phi(m) = 1/(2 m log(m)^2) at m = n + 1
        "1/((2*n + 1)*log(n + 1)**2)",
        1,
        lambda x: 1 / ((2 * x + 1) * L(x + 1) ** 2),
        lambda a: (
            1 / (2 * L(a + 1)) + _quad(lambda y: 1 / (2 * (y + 1) * (2 * y + 1) * L(y + 1) ** 2), a)
        ),
    ),
    (  # a shift down, log(n - 1) from n = 3; n/(n - 1)^2 = 1/(n - 1) + 1/(n - 1)^2
        "n/((n - 1)**2*log(n - 1)**2)",
        3,
        lambda x: x / ((x - 1) ** 2 * L(x - 1) ** 2),
        lambda a: 1 / L(a - 1) + _quad(lambda y: 1 / (y**2 * L(y) ** 2), a - 1),
    ),
]
_ENGINES: dict = {}


def _engine(text, start):
    if text not in _ENGINES:
        _ENGINES[text] = ShiftedIntegralTail(P(text), start, certify_tail)
    return _ENGINES[text]


def _contains(ball, ref):
    """(ref in ball, its width); ``ball`` a ball or a pair joined (at 300 bits: the ends
    exactly, not rounded to 53 bits)."""
    with ctx.workprec(300):
        if isinstance(ball, tuple):
            ball = ball[0].union(ball[1])
        # the ends to 80 digits: far away the balls are narrower than 45 digits
        lo, hi = (mpmath.mpf(x.str(80, radius=False)) for x in (ball.lower(), ball.upper()))
    return lo <= ref <= hi, hi - lo


def test_shift_form_reads_the_shift_and_the_bare_factors():
    f = shift_form(P("1/(n*log(n + 1)**2)"))
    assert (f.shift, f.phi, f.bare) == (1, 1 / (N * P("log(n)") ** 2), ((0, 1),))
    assert shift_form(P("1/(n*(log(n + 1)**2 + 1))")).shift == 1  # n + 1 inside a sum
    f = shift_form(P("n/((n + 1)**2*log(n + 1)**2)"))
    assert f.shift == 1 and sorted(f.bare) == [(0, -1), (1, 2)]
    # two shifts of iterated logs: the commonest (the larger on a tie) for phi, the others
    # in rho as (L(n + k)/L(n + c))^p
    f = shift_form(P("1/(n*log(n + 1)*log(log(n + 2))**2)"))
    assert (f.shift, f.logs) == (2, ((1, 1, -1),))
    assert f.phi == 1 / (N * P("log(n)") * P("log(log(n))") ** 2)
    assert shift_form(P("1/(n*log(n + 1)*log(n + 2)**2)")).shift == 2
    # not of the form: a scaled or nonlinear argument, a shift that is no integer, nothing
    # shifted
    for text in (
        "1/(n*log(2*n + 1)**2)",
        "1/(n*log(n**2 + 1)**2)",
        "1/(n*log(n + 1)*log(n + 1/2))",
        "1/(n*log(n)**2)",
        "1/(n*log(n + 1/2)**2)",
    ):
        assert shift_form(P(text)) is None, text


@pytest.mark.slow
@pytest.mark.parametrize("text, start, f, integral", CASES)
def test_b_is_enclosed_and_narrow(text, start, f, integral):
    t = _engine(text, start)
    with mpmath.workdps(60):
        ref = _reference_sum(f, integral, start)
        inside, width = _contains(t.tail(start), ref)
    assert inside, (text, t.tail(start), ref)
    assert width < 1e-17 * ref  # narrow: a neighbour 1e-17 away is rejected


@pytest.mark.slow
@pytest.mark.parametrize("text, start, f, integral", CASES)
def test_tails_at_integers_and_far_away_hold_the_reference(text, start, f, integral):
    t = _engine(text, start)
    with mpmath.workdps(60):
        for a in (K, 10**6, 10**20):  # summed terms, the integral engines, the sandwich
            inside, width = _contains(t.tail(a), _reference_tail(f, integral, mpmath.mpf(a)))
            assert inside, (text, a)
        for u in (40.0, 200.0):  # x = e^u, R(ceil(x)), ceil(x) in [x, x + 1]
            x = mpmath.exp(u)
            lo, hi = t.log_bounds(u)
            r_lo = _reference_tail(f, integral, mpmath.ceil(x))
            assert _contains((lo, hi), r_lo)[0], (text, u)
            # O(1/x) wide, as rho(n) - 1 is (a dropped rho: R_phi's bracket, of width
            # f(x) ~ R/(x log x), misses R_b - R_phi ~ c R/x, and the line above fails),
            # or as the quadrature's relative tolerance 2^-110 (exp(-log(n + 1)**1.01))
            assert _contains((lo, hi), r_lo)[1] < r_lo * max(100 / x, mpmath.mpf(10) ** -30)


def test_far_log_space_bounds_take_a_ball_t():
    t = _engine(*CASES[0][:2])
    with ctx.workprec(200):
        lo, hi = t.log_bounds(arb(10) ** 6)  # R(e^(10^6)) = 1/(10^6) + O(e^-(10^6))
        assert all(abs(v - arb(10) ** -6) < 1e-40 for v in (lo, hi))


@pytest.mark.slow
def test_trf_exact_and_log10_bracket_against_the_reference():
    text, start, f, integral = CASES[0]
    w = wide_analysis(P(text), start, [0.01, 0.001], integral_only=True)
    with mpmath.workdps(60):
        B = _reference_sum(f, integral, start)
        assert w.sum.lo <= B <= w.sum.hi
        target = mpmath.mpf("0.01") * B
        lo, hi = 10**12, 10**13  # R(start + lo) >= target > R(start + hi) (checked)
        assert _reference_tail(f, integral, mpmath.mpf(start + lo)) >= target
        assert _reference_tail(f, integral, mpmath.mpf(start + hi)) < target
        while hi - lo > 1:
            m = (lo + hi) // 2
            lo, hi = (
                (m, hi)
                if _reference_tail(f, integral, mpmath.mpf(start + m)) >= target
                else (lo, m)
            )
        assert w.trf[0]["exact"] and w.trf[0]["value"] == hi
        # TRF(0.001) ~ e^295: R(x) = 1/log(x + 1) + O(1/(x log x)) = 0.001 B
        log10 = (1 / (mpmath.mpf("0.001") * B)) / mpmath.log(10)
    a, c = w.trf[1]["log10_bracket"]
    assert a <= float(log10) <= c and c - a < 1e-9 * float(log10)


def test_refusals_are_named():
    with pytest.raises(NotCertified, match="shifted"):
        ShiftedIntegralTail(P("1/(n*log(n)**2)"), 2, certify_tail)
    with pytest.raises(NotCertified, match="not (positive|finite)"):  # log(n - 1) at n = 1
        ShiftedIntegralTail(P("1/(n*log(n - 1)**2)"), 1, certify_tail)


def test_bounds_hold_the_log_ratio_factor():
    """b_n = phi(n + 2) (log(n + 2)/log(n + 1)) with no bare factor: the sandwich at real x
    holds the reference tail only with the factor's hull (without it, the upper end falls
    below the tail at every x checked)."""
    text, start = "1/((n + 2)*log(n + 1)*log(log(n + 2))**2)", 1

    def f(x):
        return 1 / ((x + 2) * L(x + 1) * L(L(x + 2)) ** 2)

    def remainder(y):
        with mpmath.workdps(120):
            return f(y) - 1 / ((y + 2) * L(y + 2) * L(L(y + 2)) ** 2)

    t = ShiftedIntegralTail(P(text), start, certify_tail)
    with mpmath.workdps(60):
        for x in (t.inner.M + 1, 10 * t.inner.M, 10**6):
            ref = _reference_tail(f, lambda a: 1 / L(L(a + 2)) + _quad(remainder, a), mpmath.mpf(x))
            assert _contains(t.bounds(arb(x)), ref)[0], x
