"""floor(c log n) n^-s and floor(n^(1/d)) n^-s by blocks of the floor (theory.series.floor_blocks):
B certified and TRF exact, against an mpmath reference computed here by another route."""

import json

import mpmath
import pytest

from theory.series.expressions import parse_expression
from theory.series.floor_blocks import FloorBlockTail
from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]


def _block_reference(m, s, K):
    """B = sum_n floor(c log n) n^-s summed block by block: floor(c log n) = k on
    [m_k, m_(k+1)) (m_k the least n with c log n >= k), so B = sum_k k (zeta(s, m_k) -
    zeta(s, m_(k+1))) (Abel's partner of the engine's sum_k zeta(s, m_k)).  The blocks
    k > K add at most sum_(k > K) k zeta(s, m_k) <= sum_(k > K) k (1 + 1/(s - 1)) m_k^(1-s),
    below 10^-60 for the K below (by hand: m_k >= e^(k/c))."""
    return mpmath.fsum(
        k * (mpmath.zeta(s, m(k)) - mpmath.zeta(s, m(k + 1))) for k in range(1, K + 1)
    )


# (formula, m_k exactly, s, K)
FLOOR_CASES = [
    ("floor(log(n))/n**2", lambda k: int(mpmath.ceil(mpmath.exp(k))), 2, 400),
    (
        "floor(2*log(n))/n**3",
        lambda k: int(mpmath.ceil(mpmath.exp(mpmath.mpf(k) / 2))),
        3,
        400,
    ),
    # floor(log2 n): m_k = 2^k exactly (e^(k log 2) is an integer)
    ("floor(log(n)/log(2))/n**1.5", lambda k: 2**k, 1.5, 500),
]


@pytest.mark.parametrize(("formula", "m", "s", "K"), FLOOR_CASES, ids=[c[0] for c in FLOOR_CASES])
def test_floor_log_sum_and_trf(capsys, formula, m, s, K):
    assert main([f"--rpe={formula}", "--json", "--time-limit", "60", "--eps", *map(str, EPS)]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(60):
        S = mpmath.mpf(s)
        B = _block_reference(m, S, K)
        assert out["certified"], out.get("sum_error")
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo <= B <= hi and hi - lo < B * mpmath.mpf(10) ** -18
        for t in out["trf"]:
            # R_j = sum_(n >= 1 + j) b_n = B minus the first j terms; floor(c log n) = k on
            # [m_k, m_(k+1)), so R_j = (k0 (zeta(s, 1 + j) - zeta(s, m_(k0+1))) + the
            # blocks above k0), k0 the block of 1 + j: R_j < eps B <= R_(j-1)
            j, eps = t["value"], mpmath.mpf(repr(t["eps"]))
            assert t["exact"], t

            def R(a):
                k0 = max(k for k in range(0, K) if k == 0 or m(k) <= a)
                head = k0 * (mpmath.zeta(S, a) - mpmath.zeta(S, m(k0 + 1)))
                return head + mpmath.fsum(
                    k * (mpmath.zeta(S, m(k)) - mpmath.zeta(S, m(k + 1)))
                    for k in range(k0 + 1, K + 1)
                )

            assert R(1 + j) < eps * B <= R(j), (formula, t)


@pytest.mark.parametrize("a", [1, 2, 3, 4, 8, 9, 21, 22, 1097, 1098, 10**20, 10**50])
def test_tail_from_every_start(a):
    """R(a) = sum_(n >= a) floor(log n)/n^2 at block edges (m_k = 3, 8, 21, 1097 for
    k = 1, 2, 3, 7) and far out, where the bound on the blocks beyond the last one summed is
    a visible part of the tail: by blocks, R(a) = k0 (zeta(2, a) - zeta(2, m_(k0+1))) +
    sum_(k > k0) k (zeta(2, m_k) - zeta(2, m_(k+1))), k0 = floor(log a) (mpmath, 80 digits;
    the blocks beyond k = 400 add < 10^-150 by hand)."""
    with mpmath.workdps(80):
        m = {k: int(mpmath.ceil(mpmath.exp(k))) for k in range(1, 402)}
        k0 = int(mpmath.floor(mpmath.log(a)))
        R = k0 * (mpmath.zeta(2, a) - mpmath.zeta(2, m[k0 + 1])) + mpmath.fsum(
            k * (mpmath.zeta(2, m[k]) - mpmath.zeta(2, m[k + 1])) for k in range(k0 + 1, 401)
        )
        s = FloorBlockTail(parse_expression("floor(log(n))/n**2"), 1).tail(a)
        lo, hi = (mpmath.mpf(x.str(60, radius=False)) for x in (s.lower(), s.upper()))
        assert lo <= R <= hi and hi - lo < R * mpmath.mpf(10) ** -3, (a, lo, R, hi)


def _em_zeta_sum(s, d, K):
    """Enclosure (lo, hi) of sum_(k > K) zeta(s, k^d) from the Euler-Maclaurin formula for
    the completely monotone x^-s, whose remainders alternate in sign (each partial sum is a
    bound): zeta(s, m) lies between P and P - s(s+1)(s+2) m^(-s-3)/720,
    P = m^(1-s)/(s-1) + m^-s/2 + s m^(-s-1)/12; each power summed over k > K is a Hurwitz
    zeta function, sum_(k > K) k^(-d a) = zeta(d a, K + 1)."""

    def z(a):
        return mpmath.zeta(d * a, K + 1)

    P = z(s - 1) / (s - 1) + z(s) / 2 + s * z(s + 1) / 12
    return P - s * (s + 1) * (s + 2) * z(s + 3) / 720, P


# (formula, s, d, K): floor(n^(1/d)) = k on [k^d, (k+1)^d), so B = sum_(k >= 1) zeta(s, k^d)
# (Abel summation of k (zeta(s, k^d) - zeta(s, (k+1)^d))); the terms k <= K by mpmath, the
# rest by _em_zeta_sum, whose width is below 1e-30 for these K (by hand:
# s(s+1)(s+2)/720 K^(1 - d(s+3))/(d(s+3) - 1))
POWER_CASES = [("floor(n**(1/3))/n**2", 2, 3, 400), ("floor(sqrt(n))/n**2", 2, 2, 1500)]


@pytest.mark.slow
@pytest.mark.parametrize(("formula", "s", "d", "K"), POWER_CASES, ids=[c[0] for c in POWER_CASES])
def test_floor_power_sum_and_trf(capsys, formula, s, d, K):
    assert main([f"--rpe={formula}", "--json", "--time-limit", "60", "--eps", *map(str, EPS)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["certified"], out.get("sum_error")
    with mpmath.workdps(50):
        head = mpmath.fsum(mpmath.zeta(s, k**d) for k in range(1, K + 1))
        rest_lo, rest_hi = _em_zeta_sum(s, d, K)
        assert rest_hi - rest_lo < mpmath.mpf(10) ** -30
        B = head + (rest_lo + rest_hi) / 2
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo <= B <= hi and hi - lo < B * mpmath.mpf(10) ** -12, (lo, B, hi)
        for t in out["trf"]:
            # R_j = sum_(n >= 1 + j) b_n = (k0 zeta(s, 1 + j) + sum_(k > k0) zeta(s, k^d)),
            # k0 = floor((1 + j)^(1/d)): the tail rule R_j < eps B <= R_(j-1)
            j, eps = t["value"], mpmath.mpf(repr(t["eps"]))
            assert t["exact"], t

            def R(a):
                k0 = int(mpmath.floor(mpmath.root(a, d) + mpmath.mpf(10) ** -30))
                return (
                    k0 * mpmath.zeta(s, a)
                    + (B - head)
                    + mpmath.fsum(mpmath.zeta(s, k**d) for k in range(k0 + 1, K + 1))
                )

            assert j < K**d
            assert R(1 + j) < eps * B <= R(j), (formula, t)


def _sqrt2_rest(K):
    """Enclosure (lo, hi) of sum_(k > K) zeta(3, m_k), m_k = ceil(k^2/2), K even: zeta(3, m)
    lies between E(m) = m^-2/2 + m^-3/2 + m^-4/4 and E(m) - m^-6/12 (Euler-Maclaurin, as in
    _em_zeta_sum).  Even k = 2j: m = 2 j^2, sum_(j > K/2) m^-p = 2^-p zeta(2p, K/2 + 1).  Odd
    k = 2j + 1: m = 2y (1 + u), y = (j + 1/2)^2, u = 1/(4y), and (1 + u)^-p = sum_i
    binom(-p, i) u^i, alternating with falling terms (u <= 1/K^2), cut after i = 6 with the
    next term as the error: sum_(j >= K/2) (2y)^-p u^i = 2^-p 4^-i zeta(2p + 2i, K/2 + 1/2)."""
    J0, lo, hi = K // 2, mpmath.mpf(0), mpmath.mpf(0)
    for p, coef in ((2, mpmath.mpf(1) / 2), (3, mpmath.mpf(1) / 2), (4, mpmath.mpf(1) / 4)):
        even = mpmath.mpf(2) ** -p * mpmath.zeta(2 * p, J0 + 1)
        S = [
            mpmath.mpf(2) ** -p * mpmath.mpf(4) ** -i * mpmath.zeta(2 * p + 2 * i, J0 + 0.5)
            for i in range(8)
        ]
        odd = mpmath.fsum(mpmath.binomial(-p, i) * S[i] for i in range(7))
        err = abs(mpmath.binomial(-p, 7)) * S[7]
        lo += coef * (even + odd - err)
        hi += coef * (even + odd + err)
    # the m^-6/12 term, with m >= 2 j^2 (even k) and m >= 2 (j + 1/2)^2 (odd k)
    lo -= (mpmath.zeta(12, J0 + 1) + mpmath.zeta(12, J0 + 0.5)) / (12 * 2**6)
    return lo, hi


@pytest.mark.slow
@pytest.mark.parametrize(
    "formula",
    [
        "floor(sqrt(2)*sqrt(n))/n**3",
        # one unit in the 16th digit above sqrt(2): k^2/c^2 = (k^2/2)(1 - delta), delta < 1e-16,
        # lies less than 1/2 below k^2/2 for k < 10^8, so the block edges ceil(k^2/c^2) and
        # ceil(k^2/2) agree there (checked below up to 10^4); an edge beyond moved by one
        # changes B by at most sum_(k > 10^8) 8 k^-6 < 1e-39 (by hand)
        "floor(1.4142135623730951*sqrt(n))/n**3",
    ],
)
def test_floor_sqrt2_sum_and_trf(capsys, formula):
    """floor(sqrt(2 n)) = k on [ceil(k^2/2), ceil((k+1)^2/2)): B = sum_k zeta(3, ceil(k^2/2))
    (the terms k <= K by mpmath, the rest by _sqrt2_rest, width below 1e-30)."""
    assert main([f"--rpe={formula}", "--json", "--time-limit", "60", "--eps", *map(str, EPS)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["certified"], out.get("sum_error")
    K = 600
    with mpmath.workdps(50):
        c2 = (mpmath.mpf(14142135623730951) / 10**16) ** 2
        assert all(int(mpmath.ceil(k * k / c2)) == (k * k + 1) // 2 for k in range(1, 10**4))
        head = mpmath.fsum(mpmath.zeta(3, (k * k + 1) // 2) for k in range(1, K + 1))
        rest_lo, rest_hi = _sqrt2_rest(K)
        assert rest_hi - rest_lo < mpmath.mpf(10) ** -30
        B = head + (rest_lo + rest_hi) / 2
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo <= B <= hi and hi - lo < B * mpmath.mpf(10) ** -18, (lo, B, hi)
        for t in out["trf"]:
            # R_j = sum_(n >= 1 + j) b_n, the first terms subtracted: R_j < eps B <= R_(j-1)
            j, eps = t["value"], mpmath.mpf(repr(t["eps"]))
            assert t["exact"], t

            def R(a):
                return B - mpmath.fsum(
                    mpmath.floor(mpmath.sqrt(2 * n)) / mpmath.mpf(n) ** 3 for n in range(1, a)
                )

            assert R(1 + j) < eps * B <= R(j), (formula, t)
