"""Geometric tails in closed form (theory.series.geometric): B = e^a/(1 - e^c) and
TRF = floor(ln(eps)/c) + 1, against mpmath references computed here."""

import json
import math

import mpmath
import numpy as np
import pytest

from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]


def run_json(capsys, *argv):
    code = main([*argv, "--json", "--eps", *map(str, EPS)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def check(out, B, ratio_log):
    """B's bracket holds the reference and every TRF is floor(ln(eps)/c) + 1, c = ratio_log
    (the series is geometric from its first term: R_j / B = e^(c j))."""
    assert out["certified"], out.get("sum_error")
    lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
    assert lo <= B <= hi and hi - lo <= B * mpmath.mpf(10) ** -18
    for t, eps in zip(out["trf"], EPS):
        j = int(mpmath.floor(mpmath.log(mpmath.mpf(repr(eps))) / ratio_log)) + 1
        if t["exact"]:
            assert t["value"] == j, (eps, t, j)
        else:  # beyond 10^12: 12 digits
            assert abs(mpmath.mpf(t["value"]) - j) <= j * mpmath.mpf(10) ** -11, (eps, t, j)


@pytest.mark.parametrize("k", ["0.5", "3", "1e-300", "1e-20"])
def test_alibi_sum_and_trf_in_closed_form(capsys, k):
    """ALiBi b_n = exp(-k n) from n = 0 (RPE paper App. B Eq. 30): B = 1/(1 - e^(-k)),
    with k the decimal as typed (parsed exactly); mpmath at 400 digits."""
    out = run_json(capsys, "--rpe", "alibi", "--param", f"k={k}")
    with mpmath.workdps(400):
        kk = mpmath.mpf(k)
        check(out, 1 / -mpmath.expm1(-kk), -kk)


@pytest.mark.parametrize("step", [5e-324, 1e-323, 2**-60, 0.25])
def test_bias_file_linear_tail_is_summed_in_closed_form(capsys, tmp_path, step):
    """[0, -d] with a linear tail is exp(-d n) from n = 0: B = 1/(1 - e^(-d)) (2^1074 for the
    smallest subnormal d), and the one-ulp neighbours 5e-324 / 1e-323 are told apart."""
    p = tmp_path / "b.npy"
    np.save(p, np.array([0.0, -step]))
    out = run_json(capsys, "--bias-file", str(p), "--bias-tail", "linear")
    with mpmath.workdps(400):
        d = mpmath.mpf(step)  # the float64, exactly
        check(out, 1 / -mpmath.expm1(-d), -d)


def test_bias_file_head_beside_a_negligible_tail(capsys, tmp_path):
    """[2e307, 1e307] with a linear tail: B = e^(2e307) (1 + e^(-1e307) / (1 - e^(-1e307)))
    to within e^(-1e307); the tail's own ball [+/- e^(-1e307)] does not block the bracket."""
    p = tmp_path / "b.npy"
    np.save(p, np.array([2e307, 1e307]))
    out = run_json(capsys, "--bias-file", str(p), "--bias-tail", "linear")
    assert out["certified"] and float(out["sum_log_scale"]) == 2e307
    with mpmath.workdps(60):
        lo, hi = mpmath.mpf(out["sum_scaled_lo"]), mpmath.mpf(out["sum_scaled_hi"])
        ref = 1 + mpmath.exp(mpmath.mpf(1e307) - mpmath.mpf(2e307))  # the tail is below e^-1e307
        assert lo <= ref <= hi
    assert [t["value"] for t in out["trf"]] == [1, 1, 1]


@pytest.mark.parametrize(
    ("rpe", "start", "ratio"),
    [("2**(-n)", 1, (1, 2)), ("10**(-n)", 1, (1, 10)), ("3*10**(-n)", 4, (1, 10))],
)
def test_exact_ties_of_a_rational_ratio(capsys, rpe, start, ratio):
    # R_j = rho^j B exactly (no head), eps the decimal typed: at eps = rho^k, R_k = eps B
    # is not below eps B, so TRF = k + 1.  Reference in exact rationals: the least j with
    # rho^j < eps.
    from fractions import Fraction

    rho = Fraction(*ratio)
    eps_list = ["0.5", "0.25", "0.125", "0.1", "0.01", "0.001"]
    code = main(["--rpe", rpe, "--start", str(start), "--json", "--eps", *eps_list])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    for t, e in zip(out["trf"], eps_list, strict=True):
        j = 0
        while rho**j >= Fraction(e):
            j += 1
        assert t["exact"] and t["value"] == j, (rpe, e, t, j)


@pytest.mark.parametrize("k", ["1e-17", repr(math.nextafter(1e-17, 1))])
def test_far_crossing_is_an_exact_integer(capsys, k):
    """exp(-k n) from n = 1, k tiny: R_j / B = e^(-k j), so TRF = floor(ln(1/eps)/k) + 1
    (~2.3e17, beyond a float's 17 digits), an integer in --json and exact (mpmath, 400
    digits, k the decimal as typed)."""
    out = run_json(capsys, f"--rpe=exp(-{k}*n)")
    assert all(t["exact"] and type(t["value"]) is int for t in out["trf"]), out["trf"]
    with mpmath.workdps(400):
        kk = mpmath.mpf(k)
        check(out, mpmath.exp(-kk) / -mpmath.expm1(-kk), -kk)


# A constant base of unproved sign to an even power: (sin 10)^(2n) = r^n, r = sin(10)^2 (before:
# sympy's expand_log looped on its log, the verdict timed out and B had no estimate).
# References: r/(1 - r); sum n^5 r^n = Li_(-5)(r) (mpmath.polylog); sum r^n/n = -log(1 - r).
@pytest.mark.parametrize(
    "rpe, ref",
    [
        ("sin(10)**(2*n)", lambda r: r / (1 - r)),
        ("cos(10)**(2*n)*n**5", None),
        ("sin(10)**(2*n)/n", lambda r: -mpmath.log(1 - r)),
    ],
)
def test_even_power_of_a_negative_constant(capsys, rpe, ref):
    out = run_json(capsys, "--rpe", rpe)
    with mpmath.workdps(40):
        r = (mpmath.cos(10) if rpe.startswith("cos") else mpmath.sin(10)) ** 2
        B = mpmath.polylog(-5, r) if ref is None else ref(r)
        assert out["certified"] and out["converges"] is True
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        assert out["sum_digits"] >= 15
        if rpe == "sin(10)**(2*n)":  # R_j / B = r^j: TRF = floor(ln(eps)/ln(r)) + 1
            check(out, B, mpmath.log(r))
