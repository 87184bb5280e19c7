"""Dirichlet's test with an analytic periodic factor p(n) = H(w n) (theory.series.periodic_means):
the mean of H decides between sum g and conditional convergence.  Reference: the mean
(1/2 pi) int_0^(2 pi) H(x) dx by mpmath quadrature at 30 digits, computed here; the sceptic's
alternatives are the other verdict (a mean taken as 0 that is not, or the reverse)."""

import json

import mpmath
import pytest
import sympy as sp

from theory.series.convergence import decide_in_process
from theory.series.expressions import N
from theory.series.expressions import parse_expression as P
from theory.series.periodic_means import analytic_periodic, analytic_periodic_mean
from theory.trf.cli import main


def quad_mean(text: str) -> mpmath.mpf:
    """(1/2 pi) int_0^(2 pi / w) H over one period of p, w from the text's lowest frequency."""
    e = P(text)
    f = sp.lambdify(N, e, "mpmath")
    with mpmath.workdps(30):
        period = 2 * mpmath.pi / mpmath.mpf(sp.Rational(_frequency(e)))
        return mpmath.quad(f, mpmath.linspace(0, period, 9)) / period


def _frequency(e):
    from theory.series.fourier_tail import periodic_part

    return periodic_part(e)


FACTORS = [  # (p, mean is 0)
    ("exp(cos(n))*sin(n)", True),  # odd
    ("exp(sin(n))*cos(n)", True),  # H(pi - x) = -H(x): the derivative of e^sin
    ("cos(n)/(3 + sin(n))", True),  # the derivative of log(3 + sin)
    ("sin(n)**3*exp(cos(n)**2)", True),
    ("sin(2*n)*exp(cos(n))", True),
    ("cos(n)*exp(cos(n))", False),  # I_1(1) > 0
    ("(2 + sin(n))/(3 + cos(n))", False),
    ("cos(n/2)*exp(cos(n/2))", False),
    ("-exp(cos(n))*cos(n)", False),
]


@pytest.mark.parametrize("p, zero", FACTORS)
def test_the_mean_against_quadrature(p, zero):
    m = analytic_periodic_mean(P(p))
    ref = quad_mean(p)
    assert m is not None and m.zero is zero
    if zero:
        assert abs(ref) < 1e-20
    else:
        assert abs(ref) > 1e-3 and m.sign == (1 if ref > 0 else -1)
        mid, rad = (mpmath.mpf(x) for x in m.mean.strip("[]").split(" +/- "))
        assert abs(ref - mid) <= rad  # the trapezoid ball holds the quadrature


@pytest.mark.parametrize(
    "text, converges",
    [(f"{p}/{g}", zero) for p, zero in FACTORS for g in ("sqrt(n)", "log(n + 1)")]
    + [("cos(n)*exp(cos(n))/n**2", True), ("sin(n)*exp(cos(n))*n", False)]
    + [("(-1)**n*exp(cos(n))/sqrt(n)", True), ("(-1)**n*(2 + cos(n))/log(n + 1)", True)]
    + [("(-1)**n*exp(cos(n))*n", False)],
)
def test_verdicts_are_right(text, converges, capsys):
    """Mean 0: conditional convergence for g monotone to 0; mean != 0: the verdict of
    sum g (divergent here); g -> oo: the terms do not tend to 0."""
    assert main(["--rpe", text, "--json", "--verdict-only", "--time-limit", "60"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["converges"] is converges, out.get("certificate")


@pytest.mark.parametrize(
    "text, threshold",
    [
        ("sin(n)*exp(cos(n))/n**p", 0),
        ("cos(n)*exp(sin(n))/n**p", 0),
        ("cos(n)*exp(cos(n))/n**p", 1),
    ],
)
def test_free_parameter_conditions(text, threshold, capsys):
    """converges iff p > 0 (mean 0) or p > 1 (mean != 0), each value of the condition also
    checked by the fixed-p decision at the grid points the command samples."""
    assert main(["--rpe", text, "--free", "p", "--json", "--time-limit", "60"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["condition"] == f"converges iff p > {threshold}", out.get("certificate")


@pytest.mark.parametrize(
    "text",
    [
        "exp(cos(sqrt(2)*n))*sin(sqrt(2)*n)",  # w irrational: no lower bound on sin(j w/2)
        "Abs(sin(n))*sin(n)",  # not analytic
        "cos(2*pi*n/3)*exp(cos(2*pi*n/3))",  # w/(2 pi) rational: a periodic sequence
    ],
)
def test_not_taken(text):
    assert analytic_periodic(P(text)) is None and analytic_periodic_mean(P(text)) is None


def test_a_mean_zero_without_a_symmetry_is_not_called_nonzero():
    """sin(x) + cos(x) e^(sin x) has mean 0 (quadrature below) but none of the symmetries
    the module checks: the trapezoid ball holds 0, so nothing is said (a verdict from
    it either way would be a guess)."""
    assert abs(quad_mean("sin(n) + cos(n)*exp(sin(n))")) < 1e-25
    assert analytic_periodic_mean(P("sin(n) + cos(n)*exp(sin(n))")) is None


def test_a_sign_shifts_every_frequency_by_pi():
    """(-1)^n H(n): the frequencies j + pi, none in 2 pi Z, so mean 0 whatever H's mean
    (the partial sums of (-1)^n e^(cos n) up to 10^5 stay below 5, measured here)."""
    m = analytic_periodic_mean(P("(-1)**n*exp(cos(n))"))
    assert m is not None and m.zero and "j w + pi" in m.certificate
    with mpmath.workdps(20):
        S, top = mpmath.mpf(0), mpmath.mpf(0)
        for n in range(1, 100_001):
            S += (-1) ** n * mpmath.exp(mpmath.cos(n))
            top = max(top, abs(S))
    assert top < 5  # a mean I_0(1) != 0 left in would give |S_N| ~ 1.27 N


def test_an_alternating_family_gets_its_condition(capsys):
    """(-1)^n exp(cos(n))/n^p: converges for p > 0 (the sign shifts every frequency), and
    for p <= 0 the terms do not tend to 0 (|b_n| >= e^-1 n^-p); the condition holds on the
    whole line, p = 0 included (|g| -> c with g a constant)."""
    assert main(["--rpe", "(-1)**n*exp(cos(n))/n**p", "--free", "p", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["condition"] == "converges iff p > 0", out["condition"]


@pytest.mark.parametrize(
    "text, expected",
    [
        # |b_n| = e^(cos n) >= 1/e, or |2 + cos n| >= 1: the terms do not tend to 0
        ("(-1)**n*exp(cos(n))", False),
        ("-3*(-1)**n*exp(sin(n))", False),
        ("(-1)**n*(2 + cos(n))", False),
        ("cos(n)*exp(cos(n))", False),  # H(n) not 0 on an arc, n mod 2 pi dense
        # the sceptic's neighbours: the same factors with a g -> 0 (Dirichlet)
        ("(-1)**n*exp(cos(n))/sqrt(n)", True),
        ("(-1)**n*(2 + cos(n))/sqrt(n)", True),
    ],
)
def test_constant_times_an_oscillation_that_does_not_tend_to_zero(text, expected):
    d = decide_in_process(P(text), 1)
    assert d.converges is expected, d.certificate


@pytest.mark.parametrize(
    "text, condition",
    [
        # t = (-1)^n (2 + cos n): frequencies pi, pi +- 1, mean 0; G = n^-p -> 0 iff p > 0,
        # and where G does not tend to 0 neither do the terms (|t| >= 1)
        ("(-1)**n*(2 + cos(n))/n**p", "converges iff p > 0"),
        # t = cos(n)(2 + cos n) = 1/2 + cos(n)... + cos(2n)/2: mean 1/2, so sum n^-p
        ("cos(n)*(2 + cos(n))/n**p", "converges iff p > 1"),
        # G = n^p log(n) -> 0 iff p < 0 (at p = 0 log n grows)
        ("(-1)**n*(2 + cos(n))*n**p*log(n)", "converges iff p < 0"),
    ],
)
def test_a_product_of_oscillating_factors_gets_its_condition(text, condition, capsys):
    """The oscillation is the product of b's oscillating factors when the summands of the
    expanded b do not share one (2 (-1)^n n^-p + (-1)^n cos(n) n^-p)."""
    assert main(["--rpe", text, "--free", "p", "--json", "--verdict-only"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["condition"] == condition, out["condition"]
