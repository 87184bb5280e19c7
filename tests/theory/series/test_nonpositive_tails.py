"""Series of terms <= 0 whose sign shows only over one denominator or in an expansion in
1/n: B certified and TRF exact, against mpmath references computed here."""

import json

import mpmath

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
