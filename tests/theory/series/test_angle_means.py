"""Max/Min/Abs/sqrt of sin(n), cos(n) (equidistribution of n mod 2 pi) and terms near the
zeros of sin n, cos n (Dirichlet's and Minkowski's approximation theorems): verdicts
against arguments given by hand.

Every expected verdict carries its proof in a comment.  Means of F are checked against
mpmath's quadrature (an independent reference), and the near misses must not be decided
the wrong way: a mean exactly 0, or a reciprocal sine whose terms may tend to 0."""

import mpmath
import pytest

from theory.series.angle_means import angle_mean_bounds, proved_positive
from theory.series.convergence import decide_in_process
from theory.series.expressions import parse_expression as P

VERDICTS = [
    # g(n) |sin n|^-s with lim g n^s > 0: b_p > g(p) (p/4)^s along the convergents p/q of pi
    ("1/(n**2*sin(n)**2)", False),  # b_p > 1/16 infinitely often: terms not -> 0
    ("3/((n + 1)**2*sin(n)**2)", False),  # lim g n^2 = 3
    ("1/(n*Abs(sin(n)))", False),  # s = 1, lim g n = 1
    ("1/(n**2*sin(n)**4)", False),  # g n^4 -> oo: terms unbounded along p
    # factors (c_0 + c_1 |T|^s)^-r, c_i >= 0: at |sin p| < 4/p (Dirichlet) or
    # |cos p| < pi/(4p) (Minkowski's inhomogeneous theorem) the terms stay above a constant
    ("1/(1 + n**2*sin(n)**2)", False),  # b_p > 1/17
    ("n/(1 + n**3*sin(n)**2)", False),  # b_p > p/(1 + 16 p) -> 1/16
    ("1/(2 + n*sin(n)**4)", False),  # b_p > 1/(2 + 256/p^3) -> 1/2
    ("1/(n**2*cos(n)**2)", False),  # b_p > 16/pi^2
    ("1/(1 + n**2*cos(n)**2)", False),  # b_p > 1/(1 + pi^2/16)
    ("(n + 1)/(n**3*cos(n)**2 + n)", False),  # b_p > (p + 1)/(p (1 + pi^2/16))
    # F continuous in the angle, mean != 0, g > 0 nonincreasing with sum g = oo
    ("Max(sin(n), cos(n))/n", False),  # mean of max(sin, cos) = sqrt(2)/pi = 0.450
    ("2*Max(sin(n), cos(n))/(n + 5)", False),  # same F, scaled and shifted g
    ("Max(sin(n), -1/2)/n", False),  # mean = (sqrt(3) + pi/6 ... )/2pi > 0: 0.109
    ("Max(cos(n), -1/3)/sqrt(n)", False),  # mean > 0 (max(cos, -1/3) >= cos, mean of cos 0,
    # and > cos on an arc); sum n^-1/2 diverges
    ("Min(Abs(sin(n)), Abs(cos(n)))/n", False),  # mean (4/pi)(1 - 1/sqrt 2) = 0.373
    ("Min(Abs(sin(n)), Abs(cos(n)))/(n*log(n + 1))", False),  # sum 1/(n log n) diverges
    ("sqrt(1 + cos(n))/n", False),  # = sqrt(2)|cos(n/2)|, mean 2 sqrt(2)/pi = 0.900
    ("sqrt(2 - 2*sin(n))/(3*n)", False),  # mean 4/(3 pi) ... > 0
    ("-sqrt(1 + cos(n))/n", False),  # mean < 0: the partial sums tend to -oo
    # Max(x, 0) - Max(-x, 0) = x
    ("(Max(sin(n), 0) - Max(-sin(n), 0))/n", True),  # = sin(n)/n, Dirichlet
    ("(Max(cos(n), 0) - Max(-cos(n), 0))/(n + 2)", True),  # = cos(n)/(n + 2), Dirichlet
    # convergent controls: an absolutely convergent majorant
    ("Max(sin(n), cos(n))/n**2", True),  # |b_n| <= 1/n^2
    ("Min(Abs(sin(n)), Abs(cos(n)))/(n*log(n + 1)**2)", True),  # <= 1/(n log^2 n)
    # integer multiples of the angle: still functions of n mod 2 pi (not tuned on)
    ("sin(2*n)**2*n**(1/5)", False),  # mean 1/2, g = n^(1/5) growing: terms not -> 0 in mean
    ("Max(sin(3*n), cos(n))/n", False),  # mean 0.4045 (mpmath quadrature below)
    ("sqrt(1 + cos(2*n))/n", False),  # = sqrt(2)|cos n|, mean 2 sqrt(2)/pi = 0.900
    ("Min(Abs(sin(2*n)), Abs(cos(3*n)))/n", False),  # F >= 0, not 0 on an arc: mean > 0
]

#: near misses: no proof of divergence exists along these lines, the verdict must not be
#: False (None is right for the first, whose convergence is an open problem)
NOT_DIVERGENT = [
    "1/(n**3*sin(n)**2)",  # g n^2 -> 0: open (irrationality measure of pi)
    "1/(1 + n**3*sin(n)**2)",  # the bound at |sin p| < 4/p is 1/(1 + 16 p) -> 0
    "1/(n + n**3*cos(n)**2)",  # the bound at |cos p| < pi/(4 p) is ~ 1/(1.6 p) -> 0
    "sin(n)**2/(1 + n**2*sin(n)**2)",  # <= 1/n^2: converges (a small sine on top)
    "1/(n**2*sin(n)**2 + n**2*cos(n)**2)",  # = 1/n^2 (two angle functions): converges
    "(Abs(sin(n)) - 2/pi)/n",  # mean exactly 0: Fourier series of |sin| has mean 2/pi
    "Max(sin(n), -1)/n",  # = sin(n)/n: mean 0, converges
    "Max(sin(2*n), -1)/n",  # = sin(2n)/n: mean 0, converges (Dirichlet)
    "(sin(3*n)**2 - 1/2)/n",  # = -cos(6n)/(2n): mean 0, converges (Dirichlet)
]


@pytest.mark.parametrize(("expr", "expected"), VERDICTS)
def test_verdicts(expr, expected):
    d = decide_in_process(P(expr), 1)
    assert d.converges is expected, (expr, d.certificate)


@pytest.mark.parametrize("expr", NOT_DIVERGENT)
def test_near_misses_not_divergent(expr):
    d = decide_in_process(P(expr), 1)
    assert d.converges is not False, (expr, d.certificate)


def test_reciprocal_sine_terms_do_not_tend_to_zero():
    # p/q = 355/113 (a convergent of pi): 1/(355^2 sin(355)^2) is far above 1/16
    with mpmath.workdps(30):
        assert 1 / (355**2 * mpmath.sin(355) ** 2) > mpmath.mpf(1) / 16
    assert proved_positive(P("1/(n**2*sin(n)**2)"))
    assert not proved_positive(P("1/(n**2*sin(n))"))
    d = decide_in_process(P("1/(n**2*sin(n)**2)"), 1)
    assert "changing sign" not in d.certificate


@pytest.mark.parametrize(
    "f",
    [
        "Max(sin(n), cos(n))",
        "Max(sin(n), -1/2)",
        "Min(Abs(sin(n)), Abs(cos(n)))",
        "sqrt(1 + cos(n))",
        "Abs(sin(n)) - 2/pi",
        "Max(sin(n), 0)**2*cos(n) + 1/7",
        "Max(sin(3*n), cos(n))",
        "Min(Abs(sin(2*n)), Abs(cos(3*n)))",
    ],
)
def test_mean_bounds_enclose_quadrature(f):
    e = P(f)
    lo, hi = angle_mean_bounds(e)
    ref = {
        "Max(sin(n), cos(n))": lambda t: max(mpmath.sin(t), mpmath.cos(t)),
        "Max(sin(n), -1/2)": lambda t: max(mpmath.sin(t), -0.5),
        "Min(Abs(sin(n)), Abs(cos(n)))": lambda t: min(abs(mpmath.sin(t)), abs(mpmath.cos(t))),
        "sqrt(1 + cos(n))": lambda t: mpmath.sqrt(1 + mpmath.cos(t)),
        "Abs(sin(n)) - 2/pi": lambda t: abs(mpmath.sin(t)) - 2 / mpmath.pi,
        "Max(sin(n), 0)**2*cos(n) + 1/7": lambda t: (
            max(mpmath.sin(t), 0) ** 2 * mpmath.cos(t) + mpmath.mpf(1) / 7
        ),
        "Max(sin(3*n), cos(n))": lambda t: max(mpmath.sin(3 * t), mpmath.cos(t)),
        "Min(Abs(sin(2*n)), Abs(cos(3*n)))": lambda t: min(
            abs(mpmath.sin(2 * t)), abs(mpmath.cos(3 * t))
        ),
    }[f]
    # breakpoints of the kinks, so that the quadrature is accurate (a fine grid where the
    # kinks of the multiples are not written out)
    pts = [k * mpmath.pi / 4 for k in range(9)] + [7 * mpmath.pi / 6, 11 * mpmath.pi / 6]
    pts += [k * mpmath.pi / 60 for k in range(121)]
    mean = mpmath.quad(ref, sorted(pts)) / (2 * mpmath.pi)
    assert lo <= mean <= hi
    assert hi - lo < 0.03
