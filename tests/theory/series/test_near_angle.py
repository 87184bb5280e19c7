"""Divergence of A(n) F(n)^E(n) near an angle where |F| = 1 (theory.series.near_angle).

The lemma is checked numerically (mpmath, 50 digits): for the convergents p/q of
1/(2 pi) and several angles beta, some n in [q + 1, 2q] lies within 6 pi/n of beta mod
2 pi, and there the term of (2 + sin(n))**(-n) is above exp(-18 pi^2 / n) (its bound)."""

import mpmath
import pytest

from theory.series.expressions import parse_expression as P
from theory.series.near_angle import near_angle_test, split_power
from theory.series.numeric import decide_numeric


def _convergent_denominators(count):
    """Denominators q of the continued-fraction convergents of 1/(2 pi) (mpmath)."""
    with mpmath.workdps(60):
        x, qs, (q0, q1) = 1 / (2 * mpmath.pi), [], (1, 0)  # k_(-2) = 1, k_(-1) = 0
        for _ in range(count):
            a = int(mpmath.floor(x))
            q0, q1 = q1, a * q1 + q0
            qs.append(q1)
            x = 1 / (x - a)
    return [q for q in qs if q > 1]


@pytest.mark.parametrize("beta", ["3*pi/2", "pi/2", "0", "1"])
def test_the_lemma_holds_on_the_first_convergents(beta):
    with mpmath.workdps(50):
        b = mpmath.mpf(P(beta).evalf(60))
        for q in _convergent_denominators(7):  # q = 6, 19, 25, 44, 333, 710
            near = [
                n
                for n in range(q + 1, 2 * q + 1)
                if abs((n - b + mpmath.pi) % (2 * mpmath.pi) - mpmath.pi) <= 6 * mpmath.pi / n
            ]
            assert near, (beta, q)
            if beta == "3*pi/2":
                n = near[0]
                term = (2 + mpmath.sin(n)) ** (-n)
                assert term >= mpmath.exp(-18 * mpmath.pi**2 / n)


@pytest.mark.parametrize(
    "text",
    [
        "(2 + sin(n))**(-n)",
        "(2 + cos(n))**(-sqrt(n))",
        "sin(n)**n",
        "cos(n)**(n**2)",
        "(1 + sin(n)**2)**(-n)",
        "n**2*(2 + sin(2*n))**(-n)",
        "(3/2 + cos(n)/2)**(-n)",
        "exp(n*(cos(n) - 1))",  # an exponential: F = exp(cos(theta) - 1), E = n
        "Abs(sin(n))**n",  # |b_n| is what the lemma bounds: Abs(G)^E as G^E
        "Abs(cos(n))**(n**2)",
    ],
)
def test_divergent_terms_near_an_angle(text):
    d = near_angle_test(P(text))
    assert d is not None and d.converges is False, text
    assert decide_numeric(P(text)).converges is False


@pytest.mark.parametrize(
    "text",
    [
        "(2 + sin(n))**(-n)/n",  # the bound tends to -oo: no claim (rare_angles.py decides it)
        "cos(n)**(n**3)",  # |E| K 36 pi^2/n^2 -> oo
        "(2 + cos(n))**(-n)/n**2",  # converges (<= 1/n^2)
        "(3 + sin(n))**(-n)",  # |F| >= 2: no angle with |F| = 1
        "sin(n)/n",  # E = 1 has no n: not this form
        "sin(n)**n*cos(n)",  # two trigonometric factors
        # |F| <= 1/(1 + 10^-30) < 1: convergent; a numerical "F(0) = 1" claimed divergence
        "(1 + 10**(-30) + sin(n)**2)**(-n)",
        "(sqrt(2)*cos(pi/4) + 10**(-40) + sin(n)**2)**(-n)",
    ],
)
def test_no_claim_where_the_bound_says_nothing(text):
    assert near_angle_test(P(text)) is None


def test_split_power():
    A, F, E = split_power(P("n**2*(2 + sin(2*n))**(-n)"))
    assert A == P("n**2") and E == P("-n") and not F.has(P("n"))
    assert split_power(P("(2 + sin(n/2))**(-n)")) is None  # angle n/2: not a multiple of n


@pytest.mark.parametrize(
    "text",
    [
        "(2/(2 + cos(n)))**n/n**2",  # 2/(2 + cos) > 4/3 where cos < -1/2
        "(2/(2 + cos(n)))**(-n)/n**2",  # (2 + cos)/2 > 1 near 0
        "(5/(4 + cos(n)))**n/n**2",  # barely above 1 away from 0
        "(3/(2 + cos(n)))**n*exp(-n)",  # 3/e > 1 near pi
    ],
)
def test_an_arc_where_the_power_grows(text):
    """|F|^sign(E) >= 1 + delta on a whole arc: the n whose angle lies there (infinitely many)
    have terms bounded below; each checked at such n in mpmath (n = 3, 22, 355... come near pi)."""
    d = near_angle_test(P(text))
    assert d is not None and d.converges is False and "on the arc" in d.certificate
    f = __import__("sympy").lambdify(P("n"), P(text), "mpmath")
    with mpmath.workdps(30):
        near_pi = [355, 103993, 104348, 208341]  # numerators of convergents of pi
        near_0 = [710, 207986, 208696]  # 2 x those: angles near 0 mod 2 pi
        values = [abs(f(mpmath.mpf(n))) for n in near_pi + near_0]
    assert max(values) > 1


@pytest.mark.parametrize(
    "text",
    [
        "(2/(2 + cos(n)))**n*exp(-n)",  # <= (2/e)^n: converges, though 2/(2 + cos) > 1 on arcs
        "(2 + cos(n))**(-n)",  # |F| <= 1 everywhere (its maximum at pi is the near-angle case)
        "(1/(3 + sin(n)))**n",
    ],
)
def test_no_arc_claim_where_the_power_does_not_win(text):
    d = near_angle_test(P(text))
    assert d is None or "on the arc" not in d.certificate
