"""TRFs beyond the engine's own sign check: terms of a periodic sign pattern in a positive
factor, ``1/(n**1.5*(2 + (-1)**n))``, whose tail engine proves b_n >= 0 only for its first
terms while the sign prover proves it for every n from the formula.  The crossings far out
(TRF(0.001) = 445945) are then exact; the references are closed forms in Hurwitz's zeta
function (mpmath at 40 digits), independent of the tool."""

import json

import mpmath
import pytest

from theory.trf.cli import main


def _tail(coef: dict, period: int, s, j: int):
    """R_j = sum_(n > j) c_(n mod period) n^-s = sum_r c_r period^-s zeta(s, n_r/period), n_r the
    first n > j with n = r mod period."""
    total = mpmath.mpf(0)
    for r, c in coef.items():
        n_r = j + 1 + ((r - (j + 1)) % period)
        total += c * mpmath.mpf(period) ** -s * mpmath.zeta(s, mpmath.mpf(n_r) / period)
    return total


# (formula, {residue mod 2: coefficient}, s, eps list); fractions (p, q), made mpf at 40 digits
CASES = [
    # n odd: 1/(n^1.5 * 1), n even: 1/(n^1.5 * 3)
    ("1/(n**1.5*(2+(-1)**n))", {1: (1, 1), 0: (1, 3)}, (3, 2), [0.1, 0.01, 0.001]),
    # n odd: 1/n^1.2, n even: 3/n^1.2 (the literal 1.2 is the decimal 6/5; TRF(0.01) near 8e9)
    ("(2+(-1)**n)/n**1.2", {1: (1, 1), 0: (3, 1)}, (6, 5), [0.1, 0.01]),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_exact_trf_against_hurwitz_zeta(capsys, case):
    formula, coef, s, eps_list = case
    args = [f"--rpe={formula}", "--json", "--time-limit", "60", "--eps", *map(str, eps_list)]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(40):
        coef = {r: mpmath.mpf(p) / q for r, (p, q) in coef.items()}
        s = mpmath.mpf(s[0]) / s[1]
        B = _tail(coef, 2, s, 0)
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        for t in out["trf"]:
            j, eps = t["value"], mpmath.mpf(repr(t["eps"]))
            assert t["exact"], t
            assert _tail(coef, 2, s, j) < eps * B <= _tail(coef, 2, s, j - 1), (formula, t)


@pytest.mark.parametrize(
    "formula, nonneg",
    [
        ("(1+sin(n)/n)/n**2", True),  # 1 + s/n >= 1 - 1/n >= 0
        ("(1+2*sin(n)/n)/n**2", True),  # n >= 65: 1 - 2/n > 0; n < 65 in ball arithmetic
        ("(n + 3*sin(n))/n**3", True),  # n + 3 sin n >= n - 3 > 0 from n = 4; n <= 3 checked
        ("(1-2*sin(n)/n)/n**2", False),  # n = 1: 1 - 2 sin(1) = -0.68 < 0
        ("(1+sin(n)/n - 2/n)/n**2", False),  # n = 1: sin(1) - 1 < 0
    ],
)
def test_bounded_perturbation_sign(formula, nonneg):
    """The sign prover over one denominator: 1 + (u - 1)/(n1 + m) is (n1 - 1 + m + u)/(n1 + m);
    the negative cases are checked with mpmath at n = 1."""
    from theory.series.expressions import N, parse_expression
    from theory.series.lower_bounds import terms_nonnegative

    b = parse_expression(formula)
    assert terms_nonnegative(b, 1) is nonneg
    if not nonneg:
        with mpmath.workdps(30):
            assert mpmath.mpf(str(b.subs(N, 1).evalf(30))) < 0


def test_bounded_perturbation_exact_trf(capsys):
    """(1 + sin(n)/n)/n^2: B = pi^2/6 + (2 pi^2 - 3 pi + 1)/12 (sum sin(n x)/n^3 =
    (2 pi^2 x - 3 pi x^2 + x^3)/12 on [0, 2 pi], Gradshteyn-Ryzhik 1.443, x = 1); each TRF exact against mpmath partial
    sums (before, the tail rule's sign search ran past the default budget: no estimate)."""
    assert main(["--rpe=(1+sin(n)/n)/n**2", "--json", "--time-limit", "60"]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(40):
        pi = mpmath.pi
        B = pi**2 / 6 + (2 * pi**2 - 3 * pi + 1) / 12
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        top = max(t["value"] for t in out["trf"])
        sums = [mpmath.mpf(0)]
        for n in range(1, top + 1):
            sums.append(sums[-1] + (1 + mpmath.sin(n) / n) / mpmath.mpf(n) ** 2)
        for t in out["trf"]:
            j, eps = t["value"], mpmath.mpf(repr(t["eps"]))
            assert t["exact"], t
            assert B - sums[j] < eps * B <= B - sums[j - 1], t
