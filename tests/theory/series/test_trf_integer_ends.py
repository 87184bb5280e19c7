"""TRFs made exact at their integer ends: a crossing decided by the exact binary value of a
bias file (the proof at the working precision of the balls, not at 53 bits), and a TRF
beyond 10^15, where the search in log x stops some ulps of the float t = log x short of
the integer, refined on the integers.  References by mpmath at 40-60 digits, computed
here from the closed forms (geometric tails; Hurwitz zeta)."""

import json

import mpmath
import pytest

from theory.trf.cli import main


def _run(capsys, *args):
    assert main([*args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _geometric_trf(s, eps):
    """b_j = e^(s j) from j = 0: R_j/B = e^(s j), TRF = the least j with e^(s j) < eps."""
    with mpmath.workdps(60):
        j = 1
        while not mpmath.exp(mpmath.mpf(s) * j) < mpmath.mpf(repr(eps)):
            j += 1
        return j


@pytest.mark.parametrize(
    "slope",
    # the double nearest -ln 10 (|s| > ln 10 by 2.2e-16) and the one just above it: one ulp
    # moves every TRF by one
    [-2.302585092994046, -2.3025850929940455],
)
def test_a_bias_file_tie_broken_by_its_binary_value(slope, tmp_path, capsys):
    f = tmp_path / "bias.txt"
    f.write_text(f"0\n{slope!r}\n")
    out = _run(capsys, "--bias-file", str(f), "--bias-tail", "linear")
    for t in out["trf"]:
        ref = _geometric_trf(slope, t["eps"])
        assert t["exact"] and t["value"] == ref, (slope, t)


def test_trf_beyond_the_integer_search_is_refined_to_an_integer(capsys):
    """Kerple-log r = 1.1, k = 1e-6 from n = 0: R_j = k^-r zeta(r, 1/k + j) (Hurwitz).
    TRF(0.1) = 9999994999000459, past 10^15: exact (it was 9999994999000460.0, an estimate
    from the log bracket); TRF(0.01) near 1e26 is an integer bracket holding the truth."""
    out = _run(capsys, "--rpe", "kerple-log", "--param", "r=1.1", "--param", "k=1e-6")
    with mpmath.workdps(40):
        k, r = mpmath.mpf(1) / 10**6, mpmath.mpf("1.1")
        B = mpmath.zeta(r, 1 / k)

        def first_below(eps):
            t, lo, hi = B * mpmath.mpf(repr(eps)), 0, 10**40
            while hi - lo > 1:
                m = (lo + hi) // 2
                lo, hi = (lo, m) if mpmath.zeta(r, 1 / k + m) < t else (m, hi)
            return hi

        ref1, ref2 = first_below(0.1), first_below(0.01)
    t1, t2 = out["trf"][0], out["trf"][1]
    assert ref1 == 9999994999000459 and t1["exact"] and t1["value"] == ref1, t1
    assert t2["lower_bound"] <= ref2 <= t2["upper_bound"], (t2, ref2)
