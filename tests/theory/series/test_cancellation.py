"""Terms that are differences of nearly equal numbers (theory.series.cancellation): the
exact rewrites hold at every n (mpmath at 50 digits), and B and the TRFs of the rewritten
terms agree with mpmath sums computed here."""

import json

import mpmath
import pytest

from tests.theory.series.cli_checks import assert_certified_by_terms
from theory.series.cancellation import without_cancellation
from theory.series.expressions import N, parse_expression
from theory.series.lower_bounds import terms_nonnegative
from theory.trf.cli import main

REWRITTEN = [
    "1 - tanh(n)",
    "sqrt(n**4 + 1) - n**2",
    "n - sqrt(n**2 - 1)",
    "2*n - sqrt(4*n**2 + n)",
    "(sqrt(n + 1) - sqrt(n))**3/n",
    "exp(-n)*(sqrt(n + 1) - sqrt(n))",
    "(pi/2 - atan(n))**2",
    "pi/2 - atan(n**2) + 1/n**3",
]


@pytest.mark.parametrize("formula", REWRITTEN)
def test_rewrite_is_an_identity(formula):
    b = parse_expression(formula)
    r = without_cancellation(b)
    assert r is not None and r[0] != b, formula
    with mpmath.workdps(50):
        for n in list(range(1, 40)) + [10**3, 10**6]:
            x = mpmath.mpf(str(b.subs(N, n).evalf(70)))
            y = mpmath.mpf(str(r[0].subs(N, n).evalf(70)))
            assert abs(x - y) <= mpmath.mpf(10) ** -40 * max(abs(x), mpmath.mpf(10) ** -300)


@pytest.mark.parametrize("formula", ["1/n**2", "sqrt(n) - sqrt(n)/2", "atan(n)/n**2"])
def test_nothing_to_rewrite(formula):
    assert without_cancellation(parse_expression(formula)) is None


# (formula, mpmath term, terms summed): the rest after the last term is below 10^-50
FAST = [
    ("1-tanh(n)", lambda n: 1 - mpmath.tanh(n), 70),  # 2/(e^(2n) + 1) < 2 e^(-2n)
    (
        "exp(-n)*(sqrt(n+1)-sqrt(n))",
        lambda n: mpmath.exp(-n) * (mpmath.sqrt(n + 1) - mpmath.sqrt(n)),
        130,  # below e^(-n)
    ),
]


@pytest.mark.parametrize("case", FAST, ids=[c[0] for c in FAST])
def test_sum_and_exact_trf(capsys, case):
    formula, term, count = case
    assert main([f"--rpe={formula}", "--json", "--time-limit", "60"]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(70):
        assert_certified_by_terms(out, [term(mpmath.mpf(n)) for n in range(1, count + 1)])


def test_quartic_cancellation(capsys):
    """sum (sqrt(n^4 + 1) - n^2) ~ sum 1/(2 n^2): B and the exact TRFs against mpmath's nsum
    (Euler-Maclaurin on the smooth term 1/(n^2 + sqrt(n^4 + 1)), 40 digits)."""
    assert main(["--rpe=sqrt(n**4+1)-n**2", "--json", "--time-limit", "60"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["certified"]
    with mpmath.workdps(40):
        f = lambda n: 1 / (n**2 + mpmath.sqrt(n**4 + 1))  # noqa: E731
        B = mpmath.nsum(f, [1, mpmath.inf], method="euler-maclaurin")
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo - B * 1e-25 <= B <= hi + B * 1e-25 and hi - lo < B * 1e-18
        for t in out["trf"]:
            j, eps = t["value"], mpmath.mpf(repr(t["eps"]))
            assert t["exact"]
            R_j = mpmath.nsum(f, [j + 1, mpmath.inf], method="euler-maclaurin")
            R_prev = R_j + f(j)
            assert R_j < eps * B <= R_prev, t


def test_nonnegative_through_the_rewrite():
    assert terms_nonnegative(parse_expression("sqrt(n**4 + 1) - n**2"), 1)
    assert terms_nonnegative(parse_expression("1 - tanh(n)"), 1)
    assert not terms_nonnegative(parse_expression("n - sqrt(n**2 + 1)"), 1)  # < 0


def test_asinh_is_read_as_its_logarithm(capsys):
    """asinh(x) = log(x + sqrt(x^2 + 1)): sum asinh(1/n^2) against mpmath (Euler-Maclaurin,
    30 digits) and its TRF(0.1) from the tails."""
    assert main(["--rpe=asinh(1/n**2)", "--json", "--eps", "0.1", "--time-limit", "60"]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(30):
        f = lambda n: mpmath.asinh(1 / mpmath.mpf(n) ** 2)  # noqa: E731
        B = mpmath.nsum(f, [1, mpmath.inf], method="euler-maclaurin")
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        j = out["trf"][0]["value"]
        R_j = mpmath.nsum(f, [j + 1, mpmath.inf], method="euler-maclaurin")
        assert R_j < B / 10 <= R_j + f(j)


def test_huge_exponent_denominators_are_not_given_to_cancel():
    """n**2.318614 is n**(1159307/500000): over one denominator it is a polynomial of degree
    1159307 in n**(1/500000), whose gcd ran for a minute in big-integer operations that no
    timer interrupts (a --time-limit 10 command took 68 s).  Such a sum is left as it is;
    a small denominator still is rewritten."""
    assert without_cancellation(parse_expression("exp(-n) - n/(1 + n**2.318614)")) is None
    out = without_cancellation(parse_expression("tanh(n) - 1"))
    assert out is not None and str(out[0]) == "-2/(exp(2*n) + 1)"
