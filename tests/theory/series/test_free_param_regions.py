"""Free-parameter conditions that were partial and are now complete: the printed condition
(read back by ``benchmarks.free_params.holds_at``, as the benchmark reads it) against the
hand derivation at the special points the rational grids of
``tests/theory/series/free_param_families.py`` cannot hold (a in 2 pi Z and pi Z), and the
hand derivations themselves checked numerically with mpmath at a few values.

* ``exp(-a*n)*(1+1/n)**(n**2)``: n^2 log(1 + 1/n) = n - 1/2 + 1/(3n) - ..., so
  b_n = e^(-1/2 + O(1/n)) e^((1 - a) n): converges iff a > 1 (a = 1: b_n -> e^(-1/2)).
* ``n**a*log(1+1/n**b)``: b > 0: ~ n^(a - b); b = 0: log(2) n^a; b < 0: ~ |b| n^a log n;
  converges iff (b > 0 and a < b - 1) or (b <= 0 and a < -1).
* ``cos(a*n)/n**p``: p > 1, or 0 < p <= 1 and a not in 2 pi Z (Dirichlet); at a in 2 pi Z
  the p-series; p <= 0: the terms do not tend to 0.
* ``sin(a*n)/n**p``: a in pi Z (every term 0), or p > 0 (Dirichlet); p <= 0 and a not in
  pi Z: sin(a n) does not tend to 0.
* ``(-1)**floor(log(n))/n**p``: p > 1 absolutely; p <= 1: block sums over
  [e^k, e^(k+1)) >= 1 - log(1 + e^-k), not -> 0: diverges.
"""

import mpmath
import pytest
import sympy as sp

from benchmarks.free_params import holds_at
from theory.series.convergence import decide_in_process
from theory.series.expressions import parse_expression
from theory.series.sign_cases import holds

PI = sp.pi
P_AXIS = (-1, 0, sp.Rational(1, 2), 1, sp.Rational(3, 2), 2)


def _decide(text, params, start=1):
    b = parse_expression(text, params=params)
    d = decide_in_process(b, start)
    out = {"condition": d.condition, "converges": d.converges}
    symbols = {s.name: s for s in b.free_symbols}
    return d, out, symbols


def _in_lattice(a, step) -> bool:
    """a is an integer multiple of ``step`` (exact: a and step are multiples of pi)."""
    return sp.simplify(a / step).is_integer is True


def _cos_truth(a, p) -> bool:
    # p > 1 absolutely; 0 < p <= 1: Dirichlet off 2 pi Z, p-series on it; p <= 0 diverges
    return bool(p > 1 or (p > 0 and not _in_lattice(a, 2 * PI)))


def _sin_truth(a, p) -> bool:
    # a in pi Z: zero terms; elsewhere Dirichlet iff p > 0 (p <= 0: terms not -> 0)
    return bool(_in_lattice(a, PI) or p > 0)


FREQUENCIES = (0, PI, -PI, 2 * PI, -2 * PI, 4 * PI, PI / 2, 3 * PI / 2, sp.Rational(44, 7), 1)


@pytest.mark.parametrize(
    "text, truth",
    [("cos(a*n)/n**p", _cos_truth), ("sin(a*n)/n**p", _sin_truth)],
)
def test_frequency_and_exponent_free_at_the_lattice(text, truth):
    d, out, syms = _decide(text, ("a", "p"))
    assert d.converges is None and d.details["domain"] is sp.true, d.condition
    for a in FREQUENCIES:
        for p in P_AXIS:
            want = truth(a, p)
            assert holds_at(out, {"a": a, "p": p}) is want, (d.condition, a, p)
            assert holds(d.details["condition"], {syms["a"]: a, syms["p"]: p}) is want


@pytest.mark.parametrize(
    "text, a, p, truth",
    [
        # the values put in: a lattice point and an irrational frequency near it
        ("cos(a*n)/n**p", 2 * PI, sp.Rational(1, 2), False),
        ("cos(a*n)/n**p", sp.Rational(44, 7), sp.Rational(1, 2), True),
        ("sin(a*n)/n**p", PI, -1, True),
        ("sin(a*n)/n**p", 1, 0, False),
    ],
)
def test_frequency_values_put_in(text, a, p, truth):
    b = parse_expression(text, params=("a", "p"))
    syms = {s.name: s for s in b.free_symbols}
    assert decide_in_process(b.subs({syms["a"]: a, syms["p"]: p}), 1).converges is truth


def test_cos_and_sin_sums_against_closed_forms():
    # sum cos(n)/n = -log(2 sin(1/2)), sum sin(n)/n = (pi - 1)/2 (Fourier series of
    # -log|2 sin(x/2)| and (pi - x)/2 at x = 1): the partial sums approach them, with an
    # error <= 1/(N sin(1/2)) by summation by parts
    mpmath.mp.dps = 20
    n_max = 4000
    c = mpmath.fsum(mpmath.cos(n) / n for n in range(1, n_max + 1))
    s = mpmath.fsum(mpmath.sin(n) / n for n in range(1, n_max + 1))
    bound = 1 / (n_max * mpmath.sin(mpmath.mpf(1) / 2))
    assert abs(c + mpmath.log(2 * mpmath.sin(mpmath.mpf(1) / 2))) < bound
    assert abs(s - (mpmath.pi - 1) / 2) < bound
    # p = 0, a = 1: |sin(n)| > 1/2 again and again far out (terms do not tend to 0)
    assert max(abs(mpmath.sin(n)) for n in range(10**9, 10**9 + 8)) > 0.5


def test_exp_times_one_plus_power():
    d, out, _ = _decide("exp(-a*n)*(1+1/n)**(n**2)", ("a",))
    assert d.condition == "converges iff a > 1", d.certificate
    for a, truth in [(-1, False), (0, False), (sp.Rational(1, 2), False), (1, False)]:
        assert holds_at(out, {"a": a}) is truth, a
    for a in (sp.Rational(3, 2), 2, 10):
        assert holds_at(out, {"a": a}) is True, a


def test_exp_times_one_plus_power_numerically():
    # b_n e^((a - 1) n) = (1 + 1/n)^(n^2) e^-n -> e^(-1/2): at a = 1 the terms tend to
    # e^(-1/2) (diverges); at a = 3/2 the partial sums settle like a geometric series of
    # ratio e^(-1/2)
    mpmath.mp.dps = 40
    n = mpmath.mpf(10) ** 8
    at_one = mpmath.exp(n**2 * mpmath.log1p(1 / n) - n)
    assert abs(at_one - mpmath.exp(-0.5)) < 1e-8

    def partial(a, big):
        return mpmath.fsum(
            mpmath.exp(-a * k + k**2 * mpmath.log1p(mpmath.mpf(1) / k)) for k in range(1, big + 1)
        )

    a = mpmath.mpf(3) / 2
    assert abs(partial(a, 200) - partial(a, 150)) < mpmath.exp(-70)
    assert partial(mpmath.mpf(1) / 2, 200) > mpmath.mpf(10) ** 40


def test_power_log_one_plus_power():
    d, out, _ = _decide("n**a*log(1+1/n**b)", ("a", "b"))
    assert d.details["domain"] is sp.true
    R = sp.Rational
    for a in (-3, -2, R(-3, 2), -1, R(-1, 2), 0, R(1, 2), 1, 2):
        for b in (-2, -1, R(-1, 2), 0, R(1, 2), 1, R(3, 2), 2, 3):
            truth = bool((b > 0 and a < b - 1) or (b <= 0 and a < -1))
            assert holds_at(out, {"a": a, "b": b}) is truth, (d.condition, a, b)


@pytest.mark.parametrize("a, b", [(0, 1), (-2, -1), (1, 3)])
def test_power_log_one_plus_power_asymptotics(a, b):
    # the hand derivation's equivalents: b > 0: n^a log(1 + n^-b) / n^(a - b) -> 1;
    # b < 0: n^a log(1 + n^|b|) / (|b| n^a log n) -> 1
    mpmath.mp.dps = 40
    n = mpmath.mpf(10) ** 30
    term = n**a * mpmath.log1p(n ** (-b))
    ref = n ** (a - b) if b > 0 else -b * n**a * mpmath.log(n)
    assert abs(term / ref - 1) < 0.05


def test_power_log_one_plus_power_partial_sums():
    # a = 0, b = 1: sum_(n <= N) log(1 + 1/n) = log(N + 1) exactly (telescoping): unbounded
    mpmath.mp.dps = 30
    s = mpmath.fsum(mpmath.log1p(mpmath.mpf(1) / n) for n in range(1, 2001))
    assert abs(s - mpmath.log(2001)) < 1e-20


def test_log_sign_blocks():
    d, out, _ = _decide("(-1)**floor(log(n))/n**p", ("p",))
    assert d.condition == "converges iff p > 1", d.certificate
    for p in (-2, -1, 0, sp.Rational(1, 2), sp.Rational(99, 100), 1):
        assert holds_at(out, {"p": p}) is False, p
    for p in (sp.Rational(101, 100), sp.Rational(3, 2), 2):
        assert holds_at(out, {"p": p}) is True, p


@pytest.mark.parametrize("text", ["(-1)**floor(log(n))/n**0.5", "(-1)**floor(log(n))/n"])
def test_log_sign_blocks_at_values(text):
    assert decide_in_process(parse_expression(text), 1).converges is False


def _block_sum(p, k):
    """sum of n^-p over e^k <= n < e^(k+1): Hurwitz zeta differences (digamma at p = 1)."""
    lo, hi = int(mpmath.ceil(mpmath.e**k)), int(mpmath.ceil(mpmath.e ** (k + 1)))
    if p == 1:
        return mpmath.digamma(hi) - mpmath.digamma(lo)
    return mpmath.zeta(p, lo) - mpmath.zeta(p, hi)


def test_log_sign_block_sums():
    # p = 1: block sums >= 1 - log(1 + e^-k) (-> 1); p = 1/2: they grow like
    # e^(k/2) (e^(1/2) - 1)/(1/2); p = 2: they are summable (total zeta(2))
    mpmath.mp.dps = 30
    for k in range(6, 16):
        assert _block_sum(1, k) >= 1 - mpmath.log(1 + mpmath.e**-k)
        growth = mpmath.e ** (k / 2) * (mpmath.e**0.5 - 1) / 0.5
        assert abs(_block_sum(mpmath.mpf(1) / 2, k) / growth - 1) < 0.05
    assert mpmath.fsum(_block_sum(2, k) for k in range(0, 40)) < mpmath.zeta(2)
