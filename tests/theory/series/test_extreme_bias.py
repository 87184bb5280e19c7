"""Learned bias files with extreme but valid float64 values: B as exp(M) x a certified
bracket, and the TRF, against mpmath references computed here (mpmath's exponent is a
Python integer: exp(1e308) is an ordinary mpf), also one ulp away from each input."""

import json

import mpmath
import numpy as np
import pytest

from theory.series.rpe_library import LOG_SCALE_ABOVE
from theory.trf.cli import main

TINY = 5e-324  # the smallest subnormal float64, 2^-1074
CASES = {
    "1e19": [1e19, 0.0, -1.0],
    "1e25": [1e25, 0.0, -1.0],
    "1e308": [1e308, 0.0, -1.0],
    "-1e308": [0.0, -1e308, -1.0],
    "all -1e308": [-1e308, -1e308, -1e308],
    "subnormals": [TINY, -TINY, 2.2250738585072014e-308, -0.0],
    "mixed": [1e308, -1e308, TINY, 0.0, 1e308 * (1 - 2**-52)],
    "max float": [1.7976931348623157e308, -1.7976931348623157e308],
}
EPS = [0.1, 0.4, 0.7]


def run_json(capsys, bias, tmp_path):
    p = tmp_path / "b.npy"
    np.save(p, np.array(bias, dtype=float))
    code = main(["--bias-file", str(p), "--bias-tail", "zero", "--json", "--eps", *map(str, EPS)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def bracket(out):
    """(M or 0, lo, hi): B = exp(M) x [lo, hi] as the command printed it."""
    if "sum_log_scale" in out:
        M = float(out["sum_log_scale"])
        assert M == float.fromhex(out["sum_log_scale_hex"])  # the two spellings agree
        assert out["sum_lo"] == f"exp({out['sum_log_scale']}) x {out['sum_scaled_lo']}"
        return M, mpmath.mpf(out["sum_scaled_lo"]), mpmath.mpf(out["sum_scaled_hi"])
    return 0.0, mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])


def check_against_mpmath(out, bias):
    assert out["converges"] is True and out["certified"] is True
    assert ("sum_log_scale" in out) == (abs(max(bias)) > LOG_SCALE_ABOVE)
    with mpmath.workdps(60):
        M, lo, hi = bracket(out)  # read at 60 digits: the 20 printed are not rounded
        if "sum_log_scale" in out:
            assert M == max(bias)  # the largest value, exactly as a float64 (not a decimal)
        # reference 1 (rigorous against the bracket): sum of exp(x - M), the differences
        # taken at 60 digits on the exact binary values
        scaled = mpmath.fsum(mpmath.exp(mpmath.mpf(x) - mpmath.mpf(M)) for x in bias)
        assert lo <= scaled <= hi, (lo, scaled, hi)
        assert hi - lo <= scaled * mpmath.mpf(10) ** -18  # 19 digits at least
        # reference 2: B itself, exp(1e308) and all, as mpmath writes it
        terms = [mpmath.exp(mpmath.mpf(x)) for x in bias]
        B = mpmath.fsum(terms)
        scale = mpmath.exp(mpmath.mpf(M))
        tol = mpmath.mpf(10) ** -40
        assert scale * lo * (1 - tol) <= B <= scale * hi * (1 + tol)
        # TRF (Eq. 22): the first j whose partial sum exceeds B (1 - eps)
        for t, eps in zip(out["trf"], EPS):
            j = next(j for j in range(1, len(terms) + 1) if mpmath.fsum(terms[:j]) > B * (1 - eps))
            assert t["value"] == j and t["exact"], (eps, t, j)


@pytest.mark.parametrize("bias", list(CASES.values()), ids=list(CASES))
def test_extreme_bias_values_give_B_and_TRF(capsys, tmp_path, bias):
    out = run_json(capsys, bias, tmp_path)
    check_against_mpmath(out, bias)
    text = json.dumps(out, allow_nan=False)  # strict JSON
    assert "Infinity" not in text and "NaN" not in text


@pytest.mark.parametrize("name", ["1e308", "mixed", "subnormals", "-1e308"])
def test_extreme_bias_one_ulp_away(capsys, tmp_path, name):
    """Each of the largest and the smallest value moved by one ulp either way: the bracket
    still holds the sum of the moved values, and M is the moved value exactly (a decimal
    or a 17-digit rounding would lose the ulp)."""
    bias = CASES[name]
    for i in {int(np.argmax(bias)), int(np.argmin(bias))}:
        for toward in (np.inf, -np.inf):
            moved = list(bias)
            moved[i] = float(np.nextafter(bias[i], toward))
            out = run_json(capsys, moved, tmp_path)
            check_against_mpmath(out, moved)


def test_extreme_bias_text_output(capsys, tmp_path):
    p = tmp_path / "b.npy"
    np.save(p, np.array(CASES["1e308"]))
    png = tmp_path / "trf.png"
    assert main(["--bias-file", str(p), "--bias-tail", "zero", "--plot", str(png)]) == 0
    assert png.exists()  # the plot of the rescaled series (a zero tail: log b = -inf)
    text = capsys.readouterr().out
    assert "B:           exp(1e+308) x [" in text and "certified" in text
    assert "0x1.1ccf385ebc8a0p+1023" in text  # the exact float64 of the scale


@pytest.mark.parametrize("tail", ["constant", "linear"])
def test_flat_minus_1e308_tail_diverges(tail, tmp_path, capsys):
    """b_n = e^(-1e308) > 0 forever (a flat last stretch of -1e308): the terms do not tend to
    0, so the series diverges; e^a is nonzero for every finite real a, however far below
    Arb's range (it was undecided: 'cannot tell whether it is 0')."""
    p = tmp_path / "b.txt"
    p.write_text("-1e308\n-1e308\n-1e308\n")
    code = main(["--bias-file", str(p), "--bias-tail", tail, "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert json.loads(captured.out)["converges"] is False
