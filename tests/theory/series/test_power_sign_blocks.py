"""Signs in blocks k^d <= n < (k+1)^d times n^-e with the exponent free
(theory/series/sign_blocks.py, ``power_block_family``): converges iff e > 1 - 1/d.  The
block sums are checked against their integral bounds with mpmath; the condition against
the parameter-free decision (the block-sum enclosures of ``sign_block_test``, another
argument) at values on both sides of the boundary."""

import mpmath
import pytest
import sympy as sp

from theory.series.convergence import decide_in_process
from theory.series.expressions import parse_expression
from theory.series.sign_blocks import power_block_family
from theory.series.sign_cases import holds

R = sp.Rational


@pytest.mark.parametrize(
    "text, condition",
    [
        ("(-1)**floor(sqrt(n))/n**p", "converges iff p > 1/2"),
        ("(-1)**floor(n**(1/3))/n**p", "converges iff p > 2/3"),
        ("-3*(-1)**(floor(sqrt(n)) + 1)/n**(2*p)", "converges iff p > 1/4"),
        # blocks [e^(k/r), e^((k+1)/r)): p > 1 absolutely; p <= 1: n^-p >= 1/n and the block
        # sums are >= 1/r - log(1 + e^(-k/r)) -> 1/r, not -> 0
        ("(-1)**floor(log(n))/n**p", "converges iff p > 1"),
        ("(-1)**floor(log(n)/log(2))/n**(2*p)", "converges iff p > 1/2"),
    ],
)
def test_condition(text, condition):
    d = decide_in_process(parse_expression(text, params=("p",)), 1)
    assert d.condition == condition, d.certificate


def test_two_exponents():
    # e = p + q: converges iff p + q > 1/2
    b = parse_expression("(-1)**floor(sqrt(n))/n**(p + q)", params=("p", "q"))
    d = decide_in_process(b, 1)
    cond = d.details["condition"]
    syms = {s.name: s for s in b.free_symbols}
    for x in (-1, 0, R(1, 4), R(1, 2), 1):
        for y in (-1, 0, R(1, 4), R(1, 2), 1):
            assert holds(cond, {syms["p"]: x, syms["q"]: y}) == (x + y > R(1, 2)), (x, y)


@pytest.mark.parametrize(
    "p, truth", [(R(1, 5), False), (R(1, 2), False), (1, True), (R(3, 2), True)]
)
def test_values_by_the_block_sum_enclosures(p, truth):
    # the parameter-free engine encloses the block sums by integrals of its own
    d = decide_in_process(parse_expression(f"(-1)**floor(sqrt(n))/n**({p})"), 1)
    assert d.converges is truth, d.certificate


@pytest.mark.parametrize("d, p", [(2, 0.3), (2, 0.5), (2, 1.0), (3, 0.7), (3, 2.0)])
def test_block_sums_lie_in_the_stated_bounds(d, p):
    # I_k = d int_k^(k+1) u^(-s) du, s = d (p - 1) + 1, and
    # I_k <= S_k <= I_k + f(k^d) - f((k+1)^d), f(x) = x^-p decreasing
    mpmath.mp.dps = 30
    p = mpmath.mpf(p)
    s = d * (p - 1) + 1
    for k in range(1, 25):
        S = mpmath.fsum(mpmath.mpf(n) ** -p for n in range(k**d, (k + 1) ** d))
        I_k = d * mpmath.quad(lambda u: u**-s, [k, k + 1])
        assert I_k <= S <= I_k + mpmath.mpf(k) ** (-d * p) - mpmath.mpf(k + 1) ** (-d * p)
        if s <= 0:
            assert I_k >= d


def test_partial_sums_reference():
    # p = 1/2: the block sums tend to 2 (I_k = 2 int_k^(k+1) du), so the partial sums at
    # the block ends jump by about 2 forever; p = 1: they settle (differences -> 0)
    def end_sums(p, K):
        total, out = mpmath.mpf(0), []
        for k in range(1, K):
            sign = -1 if k % 2 else 1
            total += sign * mpmath.fsum(mpmath.mpf(n) ** -p for n in range(k * k, (k + 1) ** 2))
            out.append(total)
        return out

    half = end_sums(mpmath.mpf(1) / 2, 60)
    assert all(abs(half[i + 1] - half[i]) > 1.9 for i in range(40, 58))
    one = end_sums(1, 60)
    assert abs(one[-1] - one[-2]) < 0.04


def test_other_forms_are_not_claimed():
    p = sp.Symbol("p", positive=True)
    n = parse_expression("n")
    for b in [
        (-1) ** sp.floor(sp.log(sp.log(n))) / n**p,
        (-1) ** sp.floor(-sp.log(n)) / n**p,
        (-1) ** sp.floor(n ** R(2, 3)) / n**p,
        (-1) ** sp.floor(sp.sqrt(n)) * sp.log(n) / n**p,
    ]:
        assert power_block_family(b, [p], 1) is None, b
