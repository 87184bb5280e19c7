"""Periodic factors sin/cos(r pi n + c), irrational algebraic frequencies, Max(x, 0) and
nonnegative functions of one angle (arc minorants): verdicts against independent arguments.

Every expected verdict carries its proof in a comment; the divergent ones are checked again
numerically (partial sums grow like mean(h) log N, at least the minorant's mean), and every
minorant is checked against its function on a fine grid of angles."""

import math

import mpmath
import pytest
import sympy as sp

from theory.series.arc_minorants import ARCS, cosine_series, nonneg_where_defined
from theory.series.convergence import decide_in_process
from theory.series.expressions import N
from theory.series.expressions import parse_expression as P
from theory.series.trig_minorants import in_2pi_z, mean_and_frequencies, split_minorant

VERDICTS = [
    # rational multiples of pi: periodic, split by residue class
    ("sin(pi*n/3)**2/n", False),  # 3/4 at n = 1, 2 mod 3: (3/4) sum 1/(3m + 1) diverges
    ("Abs(sin(n*pi/3))/n", False),  # sqrt(3)/2 at n = 1, 2 mod 3
    ("sin(pi*n/4)**2/sqrt(n)", False),  # 1/2, 1, 1/2, 0 on n = 1, 2, 3, 0 mod 4
    ("sin(pi*n/7)**2/n", False),  # period 7, positive on six classes
    ("sin(pi*n)**2/n", True),  # sin(pi n) = 0 at integers: every term is 0
    ("sin(2*pi*n/3)/n", True),  # signed, mean 0 over the period: grouped O(1/m^2)
    ("cos(pi*n/5 + 1)/n", True),  # Dirichlet: frequency pi/5 not in 2 pi Z
    # irrational algebraic frequencies: a/(2 pi) irrational because pi is transcendental
    ("sin(sqrt(2)*n)**2/n", False),  # = 1/(2n) - cos(2 sqrt(2) n)/(2n)
    ("sin(n*sqrt(3))**4/(n*log(n + 1))", False),  # mean 3/8, sum 1/(n log n) diverges
    ("Abs(cos(3*n/7))**3/n", False),  # |c|^3 >= c^4, mean 3/8
    # Max(x, 0) = (x + |x|)/2 >= x (1 + x)/2 on [-1, 1]
    ("Max(sin(n), 0)/n", False),  # mean 1/4
    ("Max(sin(2*n), 0)/n", False),
    ("Max(cos(n), 0)**2/n", False),  # >= c^3 (1 + c)/2, mean 3/16
    ("-Min(sin(n), 0)/n", False),  # = Max(-sin(n), 0)/n
    ("Min(sin(n), 0)/n", False),  # <= 0, and -b_n = Max(-sin(n), 0)/n diverges
    ("Max(sin(n), 0)/n**2", True),  # 0 <= b_n <= 1/n^2
    # a nonnegative function of one angle, >= c on an arc
    ("exp(-1/Abs(sin(n)))/n", False),  # >= e^-2 when |sin| >= 1/2, a third of the angles
    ("exp(-1/cos(n)**2)/n", False),
    ("Abs(sin(n))**(1/3)*exp(cos(n))/n", False),  # >= sin^2 * (arc minorant of e^cos)
    ("exp(-1/Abs(sin(n)))/n**2", True),  # 0 < b_n <= 1/n^2
    ("exp(-1/Abs(sin(n)))/(n*log(n + 1)**2)", True),  # <= 1/(n log^2 n)
    # a sign-changing h with a positive arc: an arc minorant would be wrong here
    ("(sin(n)**2 - 1/2)/n", True),  # = -cos(2n)/(2n): Dirichlet
]


@pytest.mark.parametrize("text, expected", VERDICTS)
def test_verdicts(text, expected):
    d = decide_in_process(P(text), 1)
    assert d.converges is expected, d.certificate


@pytest.mark.parametrize(
    "text, allowed",
    [
        ("1/(n**3*sin(n)**2)", {None}),  # the Flint Hills series: convergence is open
        ("sin(E*n)**2/n", {False, None}),  # diverges, but e/pi is not known irrational
        ("(exp(sin(n)) - 1)/n", {False, None}),  # mean I_0(1) - 1 > 0, h changes sign
    ],
)
def test_hard_cases_get_no_wrong_verdict(text, allowed):
    assert decide_in_process(P(text), 1).converges in allowed


DIVERGENT_WITH_MINORANT = [
    "sin(sqrt(2)*n)**2/n",
    "Max(sin(n), 0)/n",
    "Max(cos(n), 0)**2/n",
    "Abs(cos(3*n/7))**3/n",
    "exp(-1/Abs(sin(n)))/n",
    "exp(-1/cos(n)**2)/n",
    "Abs(sin(n))**(1/3)*exp(cos(n))/n",
    "exp(-1/Abs(sin(sqrt(2)*n + 1)))/n",
]


def _h_of(text):
    """(h, mean of h over a period, c0 of the minorant) for b = h/n."""
    b = P(text)
    g, p, _ = split_minorant(b)
    assert g == 1 / N
    c0, _ = mean_and_frequencies(p)
    h = sp.lambdify(N, b * N, modules="mpmath")
    a = min((t.args[0].coeff(N) for t in b.atoms(sp.sin, sp.cos)), key=lambda s: float(s))
    period = 2 * mpmath.pi / mpmath.mpf(sp.N(a, 30))
    mean = mpmath.quad(h, mpmath.linspace(0, period, 33)) / period
    return h, mean, c0


@pytest.mark.parametrize("text", DIVERGENT_WITH_MINORANT)
def test_partial_sums_grow_like_the_mean_times_log(text):
    """Independent of the minorant: sum_{N1 < n <= N2} h(n)/n ~ mean(h) log(N2/N1) by
    equidistribution of a n mod 2 pi (mpmath), and mean(h) >= c0 > 0."""
    h, mean, c0 = _h_of(text)
    n1, n2 = 1000, 20000
    slope = mpmath.fsum(h(mpmath.mpf(n)) / n for n in range(n1 + 1, n2 + 1)) / math.log(n2 / n1)
    assert 0 < float(c0) <= mean
    assert abs(slope - mean) < 0.02 * mean + 1e-3, (slope, mean)


def test_periodic_class_sums_grow_like_the_period_mean():
    """sin(pi n/3)^2/n: the mean over a period is (0 + 3/4 + 3/4)/3 = 1/2, so the partial
    sums grow like (1/2) log N (mpmath), as the class-by-class verdict says."""
    f = lambda n: mpmath.sin(mpmath.pi * n / 3) ** 2 / n  # noqa: E731
    s1, s2 = (mpmath.fsum(f(n) for n in range(1, m + 1)) for m in (600, 60000))
    assert abs((s2 - s1) / math.log(100) - 0.5) < 1e-3


@pytest.mark.parametrize(
    "text",
    DIVERGENT_WITH_MINORANT
    + ["exp(-1/sin(n))/n", "Piecewise((1/n, cos(n) >= 0), (0, True))", "-Min(sin(n), 0)/n"],
)
def test_minorant_is_below_its_function_on_a_grid(text):
    """p <= h at 4000 real angles (n real: the inequality is one of functions of the angle),
    and the constant term c0 of p is its mean (mpmath quadrature over a period)."""
    b = P(text)
    g, p, notes = split_minorant(b)
    pf = sp.lambdify(N, p, modules="mpmath")
    hf = sp.lambdify(N, b / g, modules="mpmath")
    for k in range(1, 4000):
        x = mpmath.mpf(k) / 211
        try:
            hv = hf(x)
        except ZeroDivisionError:
            continue
        assert pf(x) <= hv + mpmath.mpf(10) ** -12, (text, float(x), pf(x), hv)
    c0, freqs = mean_and_frequencies(p)
    if all(sp.simplify(k).is_Integer for k in freqs):  # period 2 pi
        quad = mpmath.quad(pf, mpmath.linspace(0, 2 * mpmath.pi, 33)) / (2 * mpmath.pi)
        assert abs(quad - float(c0)) < 1e-12, (text, quad, c0)


@pytest.mark.parametrize("t0, m", ARCS)
def test_arc_polynomial_is_below_the_indicator(t0, m):
    """q(cos phi) = sum d_k cos(k phi) <= 1[cos phi >= t0] on a grid, d_0 > 0 is its mean
    (mpmath quadrature), and q(1) = sum d_k = 1."""
    d = cosine_series(t0, m)
    q = lambda phi: mpmath.fsum(float(v) * mpmath.cos(k * phi) for k, v in d.items())  # noqa
    for j in range(2001):
        phi = mpmath.pi * j / 1000
        assert q(phi) <= (1 if mpmath.cos(phi) >= float(t0) else 0) + 1e-12, (t0, m, phi)
    mean = mpmath.quad(q, [0, mpmath.pi / 2, mpmath.pi, 2 * mpmath.pi]) / (2 * mpmath.pi)
    assert d[0] > 0 and abs(mean - float(d[0])) < 1e-12 and sum(d.values()) == 1


def test_nonnegativity_is_proved_by_structure_only():
    th = sp.Symbol("theta", real=True)
    s, c = sp.sin(th), sp.cos(th)
    yes = [sp.exp(-1 / sp.Abs(s)), sp.Max(s, 0) ** 2, sp.Abs(s) ** sp.Rational(1, 3), 1 / c**2]
    no = [s + sp.Rational(1, 2), sp.exp(s) - 1, sp.Max(s, -1), s**2 - sp.Rational(1, 2), s**3]
    assert all(nonneg_where_defined(e) for e in yes)
    assert not any(nonneg_where_defined(e) for e in no)
    assert split_minorant(P("(sin(n)**2 - 1/2)/n")) is None  # h changes sign: no minorant
    assert split_minorant(P("Max(sin(n), 0)*Max(cos(n), 0)/n")) is None  # two signed factors


def test_frequencies_outside_2pi_z():
    """r + s pi with r real algebraic, s rational: in 2 pi Z iff r = 0 and s even."""
    sq2 = sp.sqrt(2)
    assert [in_2pi_z(2 * sq2), in_2pi_z(sq2 + sp.pi), in_2pi_z(3 ** sp.Rational(1, 3))] == [
        False,
        False,
        False,
    ]
    assert in_2pi_z(4 * sp.pi) is True and in_2pi_z(sq2 - sq2) is True
    assert in_2pi_z(sp.E) is None and in_2pi_z(sp.E + sp.pi) is None
