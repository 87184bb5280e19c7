"""Signs in blocks, c (-1)^floor(n^(1/d)) n^-s, summed by their blocks
(theory.series.root_sign_blocks).  Before: B to 2 digits (a power majorant) for
(-1)**floor(sqrt(n))/n**1.5, none for the conditionally convergent (-1)**floor(sqrt(n))/n.

References (30 digits, independent of the project): the block sums
h(k) = zeta(s, k^d) - zeta(s, (k+1)^d) (digamma differences at s = 1) in closed form,
the alternating series of the blocks by mpmath.nsum; checked a second way by the partial
sums of the blocks to k = 3000 plus the mean of the last two (the alternating series'
estimate, within h(3000) of the sum, which decreases).
"""

import json
from fractions import Fraction

import mpmath
import pytest

from theory.series.enclosure import arb_bounds
from theory.series.expressions import parse_expression as P
from theory.series.root_sign_blocks import RootSignTail, root_sign_parts
from theory.series.sums import certify_tail
from theory.trf.cli import main

DPS = 30

CASES = [  # (text, d, s)
    ("(-1)**floor(sqrt(n))/n**2", 2, 2),
    ("(-1)**floor(sqrt(n))/n**1.5", 2, Fraction(3, 2)),
    ("(-1)**floor(sqrt(n))/n", 2, 1),  # conditionally convergent: h(k) ~ 2/k
    ("(-1)**floor(n**(1/3))/n**1.2", 3, Fraction(6, 5)),
]


def _mp(s):
    """s (an int or a Fraction) at the working precision: 6/5 made at 15 digits is off by
    4e-17, which moves B by 1e-17, above the engine's radius."""
    return mpmath.mpf(s.numerator) / s.denominator if isinstance(s, Fraction) else mpmath.mpf(s)


def _h(k, d, s):
    s = _mp(s)
    if s == 1:
        return mpmath.digamma((k + 1) ** d) - mpmath.digamma(k**d)
    return mpmath.zeta(s, k**d) - mpmath.zeta(s, (k + 1) ** d)


def reference(d, s):
    with mpmath.workdps(DPS):
        return mpmath.nsum(lambda k: (-1) ** int(k) * _h(int(k), d, s), [1, mpmath.inf])


def _term(n, d, s):
    k = int(mpmath.floor(mpmath.root(mpmath.mpf(n), d) + mpmath.mpf(10) ** -20))
    return (-1) ** k * mpmath.mpf(n) ** -_mp(s)


@pytest.mark.parametrize("text,d,s", CASES, ids=[c[0] for c in CASES])
def test_reference_second_way(text, d, s):
    with mpmath.workdps(DPS):
        K = 3000
        parts = [(-1) ** k * _h(k, d, s) for k in range(1, K + 2)]
        S = mpmath.fsum(parts[:K])
        estimate = S + parts[K] / 2
        assert abs(estimate - reference(d, s)) < abs(parts[K])


@pytest.mark.parametrize(
    "text,d,s",
    [pytest.param(*c, marks=pytest.mark.slow) if c[1] == 3 else c for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_engine_encloses_the_sum_and_its_tails(text, d, s):
    t = RootSignTail(P(text), 1, certify_tail)
    B = reference(d, s)
    with mpmath.workdps(DPS):
        lo, hi = arb_bounds(t.tail(1))
        assert lo <= B <= hi and hi - lo < 1e-12
        partial = mpmath.mpf(0)
        for n in range(1, 20001):  # inside the head, at the head's end, inside a block
            if n in (1, 500, t.M - 1, t.M, t.M + 1, 9999, 10000, 20000):
                lo, hi = arb_bounds(t.tail(n))
                assert lo <= B - partial <= hi, (text, n)
            partial += _term(n, d, s)


@pytest.mark.parametrize(
    "text,d,s",
    [c if c[1] == 2 and c[2] == 1.5 else pytest.param(*c, marks=pytest.mark.slow) for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_tail_sup_bounds_every_later_tail(text, d, s):
    t = RootSignTail(P(text), 1, certify_tail)
    assert hasattr(t, "tail_sup")  # the block sums proved decreasing
    B = reference(d, s)
    with mpmath.workdps(DPS):
        R, sups = B, {a: arb_bounds(t.tail_sup(a))[1] for a in (1, 100, t.M, 12000)}
        for n in range(1, 15001):
            for a, sup in sups.items():
                if n >= a:
                    assert abs(R) <= sup, (text, n, a)
            R -= _term(n, d, s)


def test_parts_and_refusals():
    assert root_sign_parts(P("3*(-1)**floor(n**(1/3))/n**(6/5)"))[0] == 3
    assert root_sign_parts(P("(-1)**floor(sqrt(n))/n**(1/2)")) is None  # s <= 1 - 1/d
    assert root_sign_parts(P("(-1)**floor(sqrt(n))*sin(n)/n**2")) is None
    assert root_sign_parts(P("(-1)**floor(sqrt(2)*n)/n**2")) is None  # not a root


def test_cli_certified_sum_and_exact_trfs(capsys):
    """TRF by the tail rule (terms of both signs): the least j with |R_k| < eps |B| for
    every k >= j; |R_k| <= h(block) < eps |B| beyond n = 4000 (h(63) ~ 2/63^2)."""
    eps = [0.1, 0.01, 0.001]
    code = main(["--rpe", "(-1)**floor(sqrt(n))/n**1.5", "--json", "--eps", *map(str, eps)])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["certified"], out
    B = reference(2, Fraction(3, 2))
    with mpmath.workdps(DPS):
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        assert out["sum_digits"] >= 15
        R, last = B, {e: 0 for e in eps}
        for j in range(0, 4000):  # R_j = sum of the terms from n = 1 + j on
            for e in eps:
                if abs(R) >= e * abs(B):
                    last[e] = j
            R -= _term(1 + j, 2, Fraction(3, 2))
        for t in out["trf"]:
            assert t["exact"] and t["value"] == last[t["eps"]] + 1, (t, last)
