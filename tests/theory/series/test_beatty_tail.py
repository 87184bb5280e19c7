"""Certified B and TRF of g(n) (-1)**floor(alpha n + beta), alpha a quadratic irrational
(theory.series.beatty_tail): the lemma the bound rests on, measured with exact integer
floors, and the enclosures against direct sums.

References: floor(sqrt(d) n) = isqrt(d n^2) and floor((1 + sqrt(5)) n/2) = (n + isqrt(5
n^2)) // 2 exactly; B from 10^6 terms (math.fsum) with the rest bounded by the engine's own
lemma checked here independently (every block of L consecutive signs sums to at most
4 K(L)), which for these g is below 1e-4 (1/n), 1e-11 (1/n^2, log(n)/n^2)."""

import json
import math

import mpmath
import pytest
import sympy as sp
from flint import arb

from theory.series.arb_eval import NotCertified
from theory.series.beatty_tail import BeattyTail, convergents
from theory.series.expressions import parse_expression as P
from theory.series.sums import any_width_tail
from theory.trf.cli import main


def sign(d: int, n: int, shift_thirds: int = 0) -> int:
    """(-1)**floor(sqrt(d) n + shift/3) with exact integers: floor((isqrt(9 d n^2) +
    shift)/3) = floor(sqrt(d) n + shift/3) (isqrt(9 d n^2) = floor(3 sqrt(d) n))."""
    k = (math.isqrt(9 * d * n * n) + shift_thirds) // 3
    return -1 if k % 2 else 1


def golden_sign(n: int) -> int:
    return -1 if ((n + math.isqrt(5 * n * n)) // 2) % 2 else 1


CASES = [  # (text, sign function, g as a float function, terms, tail allowance)
    ("(-1)**floor(sqrt(2)*n)/n**2", lambda n: sign(2, n), lambda n: n**-2.0, 10**6, 1e-11),
    ("(-1)**floor(sqrt(2)*n)/n", lambda n: sign(2, n), lambda n: 1.0 / n, 10**6, 1e-4),
    (
        "(-1)**floor(sqrt(3)*n)*log(n)/n**2",
        lambda n: sign(3, n),
        lambda n: math.log(n) / n**2,
        10**6,
        1e-10,
    ),
    (
        "(-1)**floor(sqrt(2)*n + 1/3)/n**(3/2)",
        lambda n: sign(2, n, 1),
        lambda n: n**-1.5,
        10**6,
        1e-7,
    ),
    (
        "-(-1)**floor((1 + sqrt(5))*n/2)/n",
        lambda n: -golden_sign(n),
        lambda n: 1.0 / n,
        10**6,
        1e-4,
    ),
]


@pytest.mark.parametrize("d, count", [(2, 60_000), (3, 60_000)])
def test_blocks_of_consecutive_signs_are_within_four_k(d, count):
    """The lemma of the module doc: every block of L consecutive signs sums to at most
    4 K(L), K(L) = sum of a_(k+1) over the convergent denominators q_k <= L (here measured
    over every start up to 60000 and L up to 3000); blocks of length q_k stay within the
    Denjoy-Koksma bound 4 (a random-sign sequence would exceed both)."""
    S = [0]
    for n in range(1, count + 1):
        S.append(S[-1] + sign(d, n))
    near, _ = convergents(sp.sqrt(d) / 2 - sp.floor(sp.sqrt(d) / 2), 10**6)

    def K(L):
        return sum(a for q, _, a in near if q <= L)

    for L in list(range(1, 40)) + [97, 500, 1393, 3000]:
        worst = max(abs(S[m + L - 1] - S[m - 1]) for m in range(1, count - L, 7))
        assert worst <= 4 * K(L), (L, worst, K(L))
    for q, _, _ in near:
        if q < 3000:
            assert max(abs(S[m + q - 1] - S[m - 1]) for m in range(1, count - q)) <= 4


def test_convergents_are_checked():
    """q_k from the periodic continued fraction, each |gamma - p/q| < 1/q^2 checked in balls
    (sqrt(3)/2 = [0; 1, 6, 2, 6, 2, ...])."""
    near, A = convergents(sp.sqrt(3) / 2, 10**4)
    assert [q for q, _, _ in near] == [1, 1, 7, 15, 97, 209, 1351, 2911] and A == 6
    for q, p, _ in near:
        assert abs(math.sqrt(3) / 2 - p / q) < 1 / q**2


@pytest.mark.parametrize("text, s, g, count, allowance", CASES)
def test_enclosure_holds_the_direct_sum(text, s, g, count, allowance):
    """B's enclosure holds the direct sum of 10^6 terms within the tail allowance, and
    ``tail_sup(a)`` bounds every reference tail |R_k|, k >= a, that the sum reaches."""
    terms = [s(n) * g(n) for n in range(1, count + 1)]
    partial = math.fsum(terms)
    t = BeattyTail(P(text), 1, any_width_tail)
    B = t.tail(1)
    assert B.lower() <= partial - allowance and partial + allowance <= B.upper(), (B, partial)
    tails, R = [], partial
    for k in range(3000):
        tails.append(R)
        R -= terms[k]
    for a in (1, 2, 10, 100, 1000, 2999):
        top = max(abs(x) for x in tails[a - 1 :]) - allowance
        assert top <= float(t.tail_sup(a).upper())


def test_far_tails_fall_and_hold_zero():
    t = BeattyTail(P("(-1)**floor(sqrt(2)*n)/n"), 1, any_width_tail)
    far = [t.tail(10**k) for k in (6, 9, 12, 30)]
    assert all(f.contains(arb(0)) for f in far)  # no sign claimed beyond the head
    rads = [float(f.rad()) for f in far]
    assert rads == sorted(rads, reverse=True) and rads[-1] < 1e-26  # ~ log(a)/a


def test_not_taken():
    for text in ("(-1)**floor(pi*n)/n**2", "(-1)**floor(sqrt(2)*n)", "(-1)**floor(sqrt(2)*n)*n"):
        with pytest.raises(NotCertified):
            BeattyTail(P(text), 1, any_width_tail)


def test_cli_gives_b_and_exact_trfs(capsys):
    """(-1)**floor(sqrt(3)*n)*log(n)/n**2: B to 5+ digits (2 with the power majorant) and
    every TRF exact, each the tail rule on the reference tails."""
    assert (
        main(["--rpe", "(-1)**floor(sqrt(3)*n)*log(n)/n**2", "--json", "--time-limit", "60"]) == 0
    )
    out = json.loads(capsys.readouterr().out)
    terms = [sign(3, n) * mpmath.log(n) / n**2 for n in range(1, 200_001)]
    B = mpmath.fsum(terms)  # + a tail below 1e-9 (the lemma)
    assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
    assert out["sum_digits"] >= 5
    tails, R = [], B
    for k in range(4000):
        tails.append(R)
        R -= terms[k]
    for row, eps in zip(out["trf"], [0.1, 0.01, 0.001]):
        want = 1 + max(k for k, x in enumerate(tails) if abs(x) >= eps * abs(B))
        assert row["exact"] and row["value"] == want, row


def test_the_bound_is_the_documented_formula():
    """Beyond the head, tail_sup(a) = 4 sum_k a_(k+1) g(a + q_k - 1) (+ the part beyond
    2^256, below 1e-150 here), recomputed from the convergents of 1/sqrt(2) = [0; 1, 2, 2,
    ...] in mpmath: the constant 4 (Var h) and the shift q_k - 1 are those of the proof, not
    smaller (the measured blocks above stay far below the bound, so only this test sees them)."""
    t = BeattyTail(P("(-1)**floor(sqrt(2)*n)/n**2"), 1, any_width_tail)
    qs, quotients = [1, 1], [1, 2]
    while qs[-1] < 2**256:
        qs.append(2 * qs[-1] + qs[-2])
        quotients.append(2)
    for a in (2**16 + 1, 10**6, 10**9):
        with mpmath.workdps(40):
            want = 4 * mpmath.fsum(
                c * mpmath.mpf(a + q - 1) ** -2 for q, c in zip(qs, quotients) if q <= 2**256
            )
        got = t.tail_sup(a)
        assert want <= got.upper() <= want * (1 + 1e-12)
