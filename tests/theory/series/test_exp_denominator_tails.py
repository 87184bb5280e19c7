"""Terms with a growing exponential in a sum (n/(e^(2 pi n) - 1), 1/sinh(pi n)^2): the far
boxes evaluate them with the exponential factored out (theory.series.enclosure), the sign
prover bounds decreasing exponentials from above (theory.series.lower_bounds); B certified
and TRF exact, against mpmath values computed here."""

import json

import mpmath
import pytest

from tests.theory.series.cli_checks import assert_certified_by_terms
from theory.series.expressions import N, parse_expression
from theory.series.lower_bounds import terms_nonnegative
from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]

# (formula, mpmath term, K): the terms n > K add less than 10^-40 (each is below
# n^3 e^(-n) for n >= 2, and sum_(n > 200) n^3 e^(-n) < 1e-78)
CASES = [
    ("n/(exp(2*pi*n) - 1)", lambda n: n / (mpmath.exp(2 * mpmath.pi * n) - 1), 200),
    ("1/sinh(pi*n)**2", lambda n: 1 / mpmath.sinh(mpmath.pi * n) ** 2, 200),
    # variants not tuned on
    ("n**2/(exp(pi*n)-1)", lambda n: n**2 / (mpmath.exp(mpmath.pi * n) - 1), 200),
    ("1/cosh(n)**2", lambda n: 1 / mpmath.cosh(n) ** 2, 200),
    ("1/sinh(n)", lambda n: 1 / mpmath.sinh(n), 200),
    # tanh(1/n) (parsed as exps of 2/n) bounded from below: terms >= 0, so Eq. 22 applies
    ("tanh(1/n)/(exp(n)-1)", lambda n: mpmath.tanh(1 / n) / mpmath.expm1(n), 200),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_sum_and_trf(capsys, case):
    formula, term, K = case
    assert main([f"--rpe={formula}", "--json", "--time-limit", "60", "--eps", *map(str, EPS)]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(50):
        terms = [term(mpmath.mpf(n)) for n in range(1, K + 1)]
        assert_certified_by_terms(out, terms)
        # an independent reference: mpmath.nsum at 40 digits
        with mpmath.workdps(40):
            ref = mpmath.nsum(term, [1, mpmath.inf])
        assert abs(mpmath.fsum(terms) - ref) < mpmath.mpf(10) ** -35 * ref


def test_ramanujan_closed_form(capsys):
    """sum_(n >= 1) n/(e^(2 pi n) - 1) = 1/24 - 1/(8 pi) (Ramanujan; the Eisenstein series
    E_2(i) = 3/pi): the certified enclosure holds the closed form."""
    assert main(["--rpe=n/(exp(2*pi*n) - 1)", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(40):
        exact = mpmath.mpf(1) / 24 - 1 / (8 * mpmath.pi)
        assert mpmath.mpf(out["sum_lo"]) <= exact <= mpmath.mpf(out["sum_hi"])
        assert mpmath.mpf(out["sum_hi"]) - mpmath.mpf(out["sum_lo"]) < exact * 1e-18


@pytest.mark.parametrize(
    "formula, nonneg",
    [
        ("1/sinh(pi*n)**2", True),
        ("1/(exp(n) - exp(-n))**2", True),
        ("1/sinh(n)", True),
        ("tanh(1/n)/(exp(n) - 1)", True),
        ("atan(1/n)/(exp(n) - exp(-n))", True),
        # b_n < 0 from n = 70 on (e^(-n/100) < 1/2): must not be claimed
        ("exp(-n/100) - 1/2", False),
        ("1/(exp(-n/100) - 1/2)", False),
        ("exp(-2*n) - exp(-n)", False),
    ],
)
def test_decreasing_exponentials_sign(formula, nonneg):
    """The sign prover: a decreasing exponential is bounded by its value at n1 from above;
    the negative ones (checked here with mpmath at n = 1000) are not claimed."""
    b = parse_expression(formula)
    assert terms_nonnegative(b, 1) is nonneg
    if not nonneg:
        value = mpmath.mpf(str(b.subs(N, 1000).evalf(30)))
        assert value < 0


# Constant-base exponentials c^n in a sum (factored out like e^u on the far boxes): B from a
# closed form plus a geometrically converging sum (its terms n > 400 add < 10^-60 at 50 digits)
POWER_CASES = [
    # pi^n/((pi^n + n) n^2) = 1/n^2 - 1/(n (pi^n + n)): zeta(2) - sum 1/(n (pi^n + n))
    (
        "pi**n/(pi**n+n)/n**2",
        lambda n: mpmath.pi**n / (mpmath.pi**n + n) / n**2,
        lambda: mpmath.zeta(2) - mpmath.fsum(1 / (n * (mpmath.pi**n + n)) for n in range(1, 401)),
        [0.1, 0.01, 0.001],
    ),
    # (3^n + n)/(3^n n^2) = 1/n^2 + 1/(n 3^n): zeta(2) + log(3/2) (sum x^n/n = -log(1 - x))
    (
        "(3**n+n)/(3**n*n**2)",
        lambda n: (3**n + n) / (3**n * n**2),
        lambda: mpmath.zeta(2) + mpmath.log(mpmath.mpf(3) / 2),
        [0.1, 0.01, 0.001],
    ),
    # 2^n/((2^n + n^3) n^1.5) = n^-1.5 - n^1.5/(2^n + n^3): zeta(3/2) - that sum
    (
        "2**n/(2**n+n**3)/n**1.5",
        lambda n: 2**n / (2**n + n**3) / n**1.5,
        lambda: (
            mpmath.zeta(1.5)
            - mpmath.fsum(mpmath.mpf(n) ** 1.5 / (2**n + n**3) for n in range(1, 401))
        ),
        [0.1, 0.01],
    ),
]


@pytest.mark.parametrize("case", POWER_CASES, ids=[c[0] for c in POWER_CASES])
def test_constant_base_power_in_a_sum(capsys, case):
    """B certified to 18 digits and every TRF exact against the closed forms above (before
    the far boxes factored c^n out, these gave only lower bounds)."""
    formula, term, exact, eps_list = case
    args = [f"--rpe={formula}", "--json", "--time-limit", "60", "--eps", *map(str, eps_list)]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["certified"], out.get("sum_error")
    with mpmath.workdps(50):
        B = exact()
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo <= B <= hi and hi - lo < B * mpmath.mpf(10) ** -18, (lo, B, hi)
        top = max(t["value"] for t in out["trf"])
        partial, sums = mpmath.mpf(0), [mpmath.mpf(0)]
        for n in range(1, top + 1):
            partial += term(mpmath.mpf(n))
            sums.append(partial)
        for t in out["trf"]:
            j, eps = t["value"], mpmath.mpf(repr(t["eps"]))
            assert t["exact"], t
            assert B - sums[j] < eps * B <= B - sums[j - 1], (formula, t)
