"""Signs in blocks of growing length, b_n = (-1)^floor(g(n)) f(n): verdicts against the
textbook truth (argued in the comments), and the integral enclosure of the block sums
against the block sums added up directly (mpmath, 50 digits)."""

import math

import mpmath
import pytest
import sympy as sp

from theory.series.convergence import decide_in_process
from theory.series.expressions import N, parse_expression
from theory.series.sign_blocks import block_sum_bounds, sign_block_test

#: (b_n, start, truth); S_k is the sum of |f| over the block k <= g(n) < k + 1
DECIDED = [
    # blocks [k^2, (k+1)^2): S_k = 2/k + O(1/k^2) decreasing to 0: Leibniz over blocks
    ("(-1)**floor(sqrt(n))/n", 1, True),
    ("-(-1)**floor(sqrt(n))/n", 1, True),  # the opposite signs
    ("(-1)**(floor(sqrt(n)) + 1)/n", 1, True),
    # S_k = 2/sqrt(k) + O(k^-3/2) -> 0 decreasing: converges
    ("(-1)**floor(sqrt(n))/n**(3/4)", 1, True),
    # S_k -> int_{k^2}^{(k+1)^2} x^-1/2 dx = 2: block sums do not tend to 0, diverges
    ("(-1)**floor(sqrt(n))/sqrt(n)", 1, False),
    # blocks [e^k, e^(k+1)): S_k -> int dx/x = 1: diverges
    ("(-1)**floor(log(n))/n", 1, False),
    # blocks [k^3, (k+1)^3): S_k ~ 3/k decreasing: converges; with n^-2/3, S_k -> 3: diverges
    ("(-1)**floor(n**(1/3))/n", 1, True),
    ("(-1)**floor(n**(1/3))/n**(2/3)", 1, False),
    # blocks [k^2/2, (k+1)^2/2) with non-integer ends: S_k = 2/k + O(1/k^2): converges
    ("(-1)**floor(sqrt(2*n))/n", 1, True),
    # blocks [e^sqrt(k), e^sqrt(k+1)): S_k ~ 1/(2 sqrt(k)) decreasing: converges
    ("(-1)**floor(log(n)**2)/n", 1, True),
]

#: look-alikes the test may leave undecided, never answer wrongly
NEVER_WRONG = [
    # (-1)^floor(n^2) = (-1)^n: Leibniz, converges
    ("(-1)**floor(n**2)/n", 1, True),
    # pairs of sign (-1)^k: pair sums ~ 1/k decreasing: converges (residue classes)
    ("(-1)**floor(n/2)/n", 1, True),
    # S_k ~ 4 log(k)/k decreasing to 0: converges
    ("(-1)**floor(sqrt(n))*log(n)/n", 2, True),
    # blocks [e^k, e^(k+1)) of 1/log n: S_k >= (e^(k+1) - e^k - 1)/(k + 1) -> oo: diverges
    ("(-1)**floor(log(n))/log(n)", 2, False),
    # |b_n| = 1 does not tend to 0: diverges
    ("(-1)**floor(sqrt(n))", 1, False),
]


@pytest.mark.parametrize("text, start, truth", DECIDED)
def test_decided(text, start, truth):
    d = decide_in_process(parse_expression(text), start)
    assert d.converges is truth, d.certificate


@pytest.mark.parametrize("text, start, truth", NEVER_WRONG)
def test_never_wrong(text, start, truth):
    d = decide_in_process(parse_expression(text), start)
    assert d.converges in (None, truth), d.certificate


def test_certificate_states_the_block_argument():
    d = sign_block_test(parse_expression("(-1)**floor(sqrt(n))/n"))
    assert d.converges is True and d.test == "sign blocks"
    for phrase in ("h(k) = k**2", "L_k <= S_k <= U_k", "Leibniz", "exact block ends"):
        assert phrase in d.certificate, d.certificate


def _floor_g(text: str, n: int) -> int:
    """floor(g(n)) exactly: integer roots, or 50-digit logarithms (never near an integer)."""
    if text == "sqrt(n)":
        return math.isqrt(n)
    if text == "sqrt(2*n)":
        return math.isqrt(2 * n)
    if text == "n**(1/3)":
        k = round(n ** (1 / 3))
        return k if k**3 <= n else k - 1
    with mpmath.workdps(50):
        return int(mpmath.floor(mpmath.log(n) ** (2 if text == "log(n)**2" else 1)))


ENCLOSED = [
    ("sqrt(n)", "1/n", 2, 60),
    ("sqrt(n)", "n**(-3/4)", 2, 60),
    ("sqrt(2*n)", "1/n", 2, 60),
    ("n**(1/3)", "1/n", 2, 25),
    ("log(n)", "1/n", 1, 9),
    ("log(n)**2", "1/n", 2, 60),
]


@pytest.mark.parametrize("g, f, k0, k1", ENCLOSED)
def test_block_sums_enclosed(g, f, k0, k1):
    """L_k <= S_k <= U_k for every k in [k0, k1], S_k summed directly."""
    h, lower, upper, _ = block_sum_bounds(parse_expression(f"(-1)**floor({g})*{f}"))
    fn = sp.lambdify(N, parse_expression(f), "mpmath")
    lo_f, hi_f = (sp.lambdify(N, e, "mpmath") for e in (lower, upper))
    n_max = int(sp.ceiling(h.subs(N, k1 + 1))) + 1
    sums = {}
    with mpmath.workdps(50):
        for n in range(1, n_max):
            k = _floor_g(g, n)
            sums[k] = sums.get(k, mpmath.mpf(0)) + fn(mpmath.mpf(n))
        for k in range(k0, k1 + 1):
            s, lo, hi = sums[k], lo_f(mpmath.mpf(k)), hi_f(mpmath.mpf(k))
            assert lo <= s <= hi, (g, f, k, lo, s, hi)
