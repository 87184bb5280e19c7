"""Series of terms <= 0 whose sign shows only over one denominator or in an expansion in
1/n: B certified and TRF exact, against mpmath references computed here."""

import json

import mpmath
import pytest

from theory.series.expressions import parse_expression
from theory.series.inverse_power_tail import InversePowerTail
from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]


def run_json(capsys, *argv) -> dict:
    code = main([*argv, "--json", "--eps", *map(str, EPS)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def check_trf(out, R, B):
    """Every TRF is exact and is the least j with |R(j)| < eps |B| for all later tails
    (the terms have one sign, so |R| decreases): |R(j)| < eps |B| <= |R(j - 1)|."""
    for t in out["trf"]:
        eps, j = mpmath.mpf(repr(t["eps"])), t["value"]
        assert t["exact"], t
        assert abs(R(j)) < eps * abs(B) <= abs(R(j - 1)), (t, R(j), R(j - 1))


def test_tanh_minus_one_is_summed_over_one_denominator(capsys):
    """tanh(n) - 1 = -2/(e^(2n) + 1) from n = 1.  Reference: the partial sum to n = 80 plus
    the tail, 0 <= sum_(n > 80) 2/(e^(2n) + 1) < 2 sum_(n > 80) e^(-2n) = 2 e^(-162)/(1 -
    e^(-2)) < 10^-69 (by hand), mpmath at 80 digits."""
    out = run_json(capsys, "--rpe=tanh(n)-1")
    with mpmath.workdps(80):

        def R(j):  # sum_(n >= 1 + j) b_n, b_n = tanh(n) - 1
            return -mpmath.fsum(2 / (mpmath.exp(2 * n) + 1) for n in range(1 + j, 81))

        B = R(0)
        assert out["certified"], out.get("sum_error")
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo <= B - mpmath.mpf(10) ** -69 and B <= hi and hi - lo < mpmath.mpf(10) ** -18
        check_trf(out, R, B)


# b_n = F(1/n) = sum_(k >= 2) c_k n^-k with F entire; the double series sum_n sum_k
# |c_k| n^-k converges, so R(j) = sum_(n >= 1 + j) b_n = sum_k c_k zeta(k, 1 + j)
# (Fubini), an independent reference by mpmath's Hurwitz zeta at 50 digits
COEFFICIENTS = {
    # n sin(1/n) - 1 = sum_(m >= 1) (-1)^m n^(-2m) / (2m + 1)!
    "n*sin(1/n)-1": lambda k: 0 if k % 2 else (-1) ** (k // 2) / mpmath.factorial(k + 1),
    # 1 - cos(1/n) = sum_(m >= 1) (-1)^(m+1) n^(-2m) / (2m)!
    "1-cos(1/n)": lambda k: 0 if k % 2 else -((-1) ** (k // 2)) / mpmath.factorial(k),
    # exp(-1/n) - 1 + 1/n = sum_(k >= 2) (-1)^k n^-k / k!
    "exp(-1/n)-1+1/n": lambda k: (-1) ** k / mpmath.factorial(k),
}


@pytest.mark.parametrize("start", [1, 3])
@pytest.mark.parametrize("formula", sorted(COEFFICIENTS))
def test_entire_function_of_inverse_n(capsys, formula, start):
    out = run_json(capsys, f"--rpe={formula}", "--start", str(start))
    c = COEFFICIENTS[formula]
    with mpmath.workdps(50):

        def R(j):
            return mpmath.fsum(c(k) * mpmath.zeta(k, start + j) for k in range(2, 60))

        B = R(0)
        assert out["certified"], out.get("sum_error")
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo <= B <= hi and hi - lo < abs(B) * mpmath.mpf(10) ** -18
        check_trf(out, R, B)


@pytest.mark.parametrize("formula", sorted(COEFFICIENTS))
def test_cauchy_remainder_is_what_holds_the_far_tail(formula):
    """With 2 head terms the expansion carries the tail from n = 3 on, where the terms
    left out of the 12 exact coefficients are ~1e-16 of it: the enclosure holds the
    reference only with Cauchy's remainder bound, and is still narrower than 1e-5."""
    c = COEFFICIENTS[formula]
    sign = -1 if formula.startswith("n*sin") else 1  # the engine sums terms >= 0 here
    t = InversePowerTail(parse_expression(formula) * sign, 1, head=2)
    assert t.M == 3 and t.nonneg_until > 10**20
    with mpmath.workdps(50):
        ref = sign * mpmath.fsum(c(k) * mpmath.zeta(k, 1) for k in range(2, 60))
        s = t.tail(1)
        lo, hi = (mpmath.mpf(x.str(40, radius=False)) for x in (s.lower(), s.upper()))
        assert lo <= ref <= hi and hi - lo < mpmath.mpf(10) ** -5, (lo, ref, hi)


@pytest.mark.parametrize(
    "formula, nonneg",
    [
        # sin(x)^2 - x^2 + x^4/3 = 2 x^6/45 - x^8/315 + ...: the expansion starts at n^-6
        ("sin(1/n)**2 - 1/n**2 + 1/(3*n**4)", True),
        ("1/(3*n**4) - 1/n**2 + sin(1/n)**2 + exp(-1/n) - 1 + 1/n - 1/(2*n**2)", False),
        # cos(x) - 1 + x^2/2 - x^4/24 = -x^6/720 + ...: negative
        ("cos(1/n) - 1 + 1/(2*n**2) - 1/(24*n**4)", False),
    ],
)
def test_nonnegative_from_the_first_nonzero_coefficient(formula, nonneg):
    """The sign of F(1/n) from its first nonzero Taylor coefficient (exact) and Cauchy's
    bound on the rest; checked against mpmath at n = 1 .. 200 (30 digits)."""
    from theory.series.expressions import N
    from theory.series.inverse_power_tail import expansion_nonneg

    b = parse_expression(formula)
    assert expansion_nonneg(b, 1) is nonneg
    with mpmath.workdps(30):
        signs = {mpmath.sign(mpmath.mpf(str(b.subs(N, n).evalf(60)))) for n in range(1, 201)}
    assert (signs <= {0, 1}) is nonneg or not nonneg
