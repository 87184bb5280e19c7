"""Terms G(floor(n^(1/d))): verdicts from the block series and certified B with exact
TRFs, against closed forms computed here (the blocks k^d <= n < (k+1)^d, by hand)."""

import json

import mpmath
import pytest

from theory.series.convergence import decide_in_process
from theory.series.expressions import parse_expression
from theory.series.floor_root_blocks import floor_root_parts, floor_root_test
from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]


def block_tail(G, d, blocks):
    """R(j) = sum_(n >= 1 + j) G(floor(n^(1/d))): the rest of the current block, then the
    whole blocks k >= m in closed form, ``blocks(m)`` = sum_(k >= m) ((k+1)^d - k^d) G(k)."""

    def R(j):
        a = 1 + j
        k = int(mpmath.floor(mpmath.root(a, d)))
        while (k + 1) ** d <= a:
            k += 1
        while k**d > a:
            k -= 1
        return ((k + 1) ** d - a) * G(k) + blocks(k + 1)

    return R


def exp_blocks(m):
    """sum_(k >= m) (3k^2 + 3k + 1) e^-k, directly to k = m + 300 (the rest < e^-290)."""
    return mpmath.fsum((3 * k * k + 3 * k + 1) * mpmath.exp(-k) for k in range(m, m + 300))


CASES = [
    # h(k) = (2k + 1)/k^3 = 2/k^2 + 1/k^3: B = 2 zeta(2) + zeta(3)
    (
        "1/floor(sqrt(n))**3",
        block_tail(
            lambda k: mpmath.mpf(1) / k**3, 2, lambda m: 2 * mpmath.zeta(2, m) + mpmath.zeta(3, m)
        ),
    ),
    ("exp(-floor(n**(1/3)))", block_tail(lambda k: mpmath.exp(-k), 3, exp_blocks)),
    # h(k) = (2k + 1)/(k^2 (k + 1)) = 1/k - 1/(k + 1) + 1/k^2 (partial fractions, by hand)
    (
        "1/(floor(sqrt(n))**2*(floor(sqrt(n))+1))",
        block_tail(
            lambda k: mpmath.mpf(1) / (k**2 * (k + 1)),
            2,
            lambda m: 1 / mpmath.mpf(m) + mpmath.zeta(2, m),
        ),
    ),
]


@pytest.mark.parametrize("formula,R", CASES, ids=[c[0] for c in CASES])
def test_sum_and_exact_trf(capsys, formula, R):
    assert main([f"--rpe={formula}", "--json", "--time-limit", "60", "--eps", *map(str, EPS)]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(40):
        B = R(0)
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo - B * mpmath.mpf(10) ** -25 <= B <= hi + B * mpmath.mpf(10) ** -25
        assert hi - lo < B * mpmath.mpf(10) ** -15
        for t in out["trf"]:
            j, eps = t["value"], mpmath.mpf(repr(t["eps"]))
            assert t["exact"] and R(j) < eps * B <= R(j - 1), (t, R(j), R(j - 1))


def test_reference_against_a_direct_sum():
    """The block reference itself: 1/floor(sqrt(n))^3 summed directly to n = 10^4 plus the
    same reference from there."""
    R = CASES[0][1]
    with mpmath.workdps(30):
        direct = mpmath.fsum(1 / mpmath.floor(mpmath.sqrt(n)) ** 3 for n in range(1, 10**4))
        assert abs(direct + R(10**4 - 1) - 2 * mpmath.zeta(2) - mpmath.zeta(3)) < 1e-25


@pytest.mark.parametrize(
    "formula,verdict",
    [
        ("(-1)**floor(sqrt(n))/floor(sqrt(n))**2", True),  # h = (-1)^k (2k+1)/k^2: Leibniz
        ("(-1)**floor(sqrt(n))/floor(sqrt(n))", False),  # h -> +-2: not -> 0
        ("1/floor(sqrt(n))**2", False),  # h ~ 2/k
        ("(-1)**floor(n**(1/3))/floor(n**(1/3))**3", True),  # h = (-1)^k (3k^2+3k+1)/k^3
    ],
)
def test_verdict_by_blocks(formula, verdict):
    d = floor_root_test(parse_expression(formula), 1, decide_in_process)
    assert d is not None and d.converges is verdict, d


def test_forms_outside_the_family():
    P = parse_expression
    assert floor_root_parts(P("floor(sqrt(n))/n**2")) is None  # n outside the floor
    assert floor_root_parts(P("1/floor(2*sqrt(n))**3")) is None  # not n^(1/d) itself
    assert floor_root_parts(P("1/floor(n**(2/3))**3")) is None
