"""Periodic factors, oscillating and sign-changing terms: verdicts against proofs.

Every expected verdict carries its proof in a comment.  The sceptic's alternatives are in the
table too: series that a plausible but wrong rule would decide the other way (an alternating
test applied to (1 + (-1)**n)/n, a term-to-zero argument applied to (-1)**n/sqrt(n) + 1/n,
a mean-zero reading of sin(n)**2/n)."""

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from theory.series.convergence import decide_in_process
from theory.series.expressions import parse_expression as P
from theory.series.periodic import residue_classes
from theory.series.trig_minorants import mean_and_frequencies, split_minorant

VERDICTS = [
    # alternating: (-1)^n g(n), g decreasing to 0 (Leibniz)
    ("(-1)**n/log(n + 1)", True),
    ("(-1)**n/n**(1/3)", True),
    ("cos(pi*n)/sqrt(n)", True),  # cos(pi n) = (-1)^n
    ("(-1)**n*log(n)/n", True),  # log(n)/n decreases for n >= 3
    ("(-1)**floor(n/2)/n", True),  # blocks ++--: grouped by 4 the terms are O(1/m^2)
    ("(-1)**floor(n/4)/sqrt(n)", True),  # blocks of 4 of one sign: grouped by 8, O(m^(-3/2))
    ("cos(2*pi*n/3)/n", True),  # period 3, mean 0: grouped O(1/m^2)
    ("(1/2)**(n + (-1)**n)", True),  # <= 2^(1-n)
    ("((-1)**n + 2)/n**2", True),  # <= 3/n^2
    ("(-1)**n*factorial(n)**2/factorial(2*n)", True),  # |ratio| -> 1/4
    # periodic factors that diverge
    ("(-1)**n", False),  # terms do not tend to 0
    ("(2 + (-1)**n)**(-n)", False),  # = 1 at every odd n
    ("cos(2*pi*n)/n", False),  # cos(2 pi n) = 1: the harmonic series
    ("(1 + (-1)**n)/n", False),  # 2/n at even n, 0 at odd n: sum 1/m; Leibniz does not apply
    ("n**((-1)**n - 2)", False),  # 1/n at even n
    ("(-1)**n/sqrt(n) + 1/n", False),  # convergent + divergent, terms -> 0 all the same
    ("(-1)**n*(2 + (-1)**n)/n", False),  # = 2 (-1)^n/n + 1/n
    # nonnegative oscillating terms: a minorant of positive mean
    ("Abs(sin(n))/n", False),  # |sin| >= sin^2 = 1/2 - cos(2n)/2
    ("sin(n)**2/n", False),
    ("cos(3*n + 1)**2/sqrt(n)", False),
    ("sin(n)**4/(n*log(n + 1))", False),  # mean 3/8, sum 1/(n log n) diverges
    ("Abs(sin(n/2))**3/n", False),  # |s|^3 >= s^4, mean 3/8
    ("Piecewise((1/n, cos(n) >= 0), (1/n**3, True))", False),  # 1[cos >= 0] >= cos(1+cos)/2
    ("Piecewise((1/sqrt(n), sin(2*n) < 0), (0, True))", False),
    ("(1 + cos(n))/n", False),  # 1/n + cos(n)/n: divergent + convergent (Dirichlet)
    ("(1 + cos(n))**2/n", False),  # a square of a trigonometric polynomial, mean 3/2
    ("(sin(n) - cos(2*n))**2/sqrt(n)", False),  # mean 1/2 + 1/2 = 1
    ("(1 + cos(n))**2/(n*log(n + 1)**2)", True),  # <= 4/(n log^2 n)
    # ... and the convergent neighbours
    ("Abs(sin(n))/n**2", True),  # <= 1/n^2
    ("sin(n)**2/(n*log(n + 1)**2)", True),  # <= 1/(n log^2 n)
    ("Piecewise((1/n**2, cos(n) >= 0), (1/n**3, True))", True),  # <= 1/n^2
    ("sin(n)/n + (-1)**n/n", True),  # Dirichlet + Leibniz
    ("Max(1/n**2, exp(-n))", True),  # a Max of positive terms is positive
    ("Max(1/n, exp(-n))", False),
]


@pytest.mark.parametrize("text, expected", VERDICTS)
def test_verdicts(text, expected):
    d = decide_in_process(P(text), 1)
    assert d.converges is expected, d.certificate


def test_residue_classes_remove_the_periodic_factors():
    L, classes = residue_classes(P("(-1)**floor(n/2)/n"))
    n = sp.Symbol("n", positive=True)
    assert L == 4 and classes == [1 / (4 * n), 1 / (4 * n + 1), -1 / (4 * n + 2), -1 / (4 * n + 3)]
    assert residue_classes(P("1/n**2")) is None
    assert residue_classes(P("(-1)**(n**2)/n"))[0] == 2  # n^2 = n mod 2
    assert residue_classes(P("(-1)**floor(sqrt(n))/n")) is None  # not periodic


def test_minorant_is_below_and_has_the_stated_mean():
    """p <= h on a fine grid of angles, and the mean of p is its constant term (sympy's
    integral over a period as the reference)."""
    th = sp.Symbol("theta", real=True)
    for text, mean in [
        ("Abs(sin(n))/n", sp.Rational(1, 2)),
        ("Abs(cos(n))**3/n", sp.Rational(3, 8)),
    ]:
        b = P(text)
        g, p, _ = split_minorant(b)
        c0, _ = mean_and_frequencies(p)
        assert c0 == mean
        n = sp.Symbol("n", positive=True)
        assert sp.integrate(p.subs(n, th), (th, 0, 2 * sp.pi)) / (2 * sp.pi) == mean
        h = sp.lambdify(th, (b / g).subs(n, th))
        pf = sp.lambdify(th, p.subs(n, th))
        assert all(pf(k / 97) <= h(k / 97) + 1e-15 for k in range(700))


def test_minorant_refuses_signed_factors():
    # sin(n)/n changes sign: no nonnegative minorant; sin(n)**3 likewise
    assert split_minorant(P("sin(n)/n")) is None
    assert split_minorant(P("sin(n)**3/n")) is None


def test_negative_base_powers_at_exact_integers():
    """(-1)**n and (-2)**n at exact integers are exact signs times a power; on a ball that is
    not one integer (-1)**n is [-1, 1], its value at each integer in the ball, and (-2)**n
    is refused (its magnitude is not one number there)."""
    from flint import arb

    from theory.series.arb_eval import Undecided, arb_function

    f = arb_function(P("(-1)**n/n"))
    assert [f(arb(k)) == v for k, v in [(1, -1), (2, arb(1) / 2)]] == [True, True]
    assert f(arb(10**20 + 1)).contains(arb(-1) / (10**20 + 1))
    g = arb_function(P("(-2)**n/3**n"))
    assert g(arb(3)).overlaps(arb(-8) / 27) and not g(arb(3)).contains(arb(8) / 27)
    wide = f(arb(3) + arb("0 +/- 0.1"))
    assert wide.contains(arb(-1) / 3) and wide.contains(arb(1) / 3) and wide.rad() < 0.4
    with pytest.raises(Undecided):
        g(arb(3) + arb("0 +/- 0.1"))


@settings(max_examples=20, deadline=None, derandomize=True)
@given(
    a=st.integers(-3, 3),
    p=st.fractions(min_value=-1, max_value=3, max_denominator=4),
    period=st.sampled_from(["(-1)**n", "cos(pi*n)", "(-1)**floor(n/2)"]),
)
def test_periodic_p_series_fuzz(a, p, period):
    """(a + s_n)/n^p with s_n = +-1 of mean 0 over its period: converges iff p > 1, or
    a = 0 and p > 0 (the grouped series is O(n^(-p-1)); a/n^p diverges for p <= 1; the
    terms do not tend to 0 for p <= 0).  A verdict may be missing, never wrong."""
    d = decide_in_process(P(f"({a} + {period})/n**({p.numerator}/{p.denominator})"), 1)
    truth = p > 1 or (a == 0 and p > 0)
    assert d.converges in (truth, None), d.certificate
