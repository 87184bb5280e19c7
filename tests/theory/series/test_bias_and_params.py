"""Learned bias files in ball arithmetic, their validation, and the named RPEs' parameters."""

import json
import re

import mpmath
import numpy as np
import pytest

from theory.series.expressions import ExpressionError, parse_assignments
from theory.series.rpe_library import LIBRARY, log_b_values, resolve_rpe, t5_bucket
from theory.trf.cli import main


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "bias",
    [[-1000.0] * 5, [720.0, 719.0, 0.0], [-1e5, -3.5, 0.25], [745.5, -745.5]],
    ids=["near -1000", "near +720", "mixed", "beyond float64 both ways"],
)
def test_bias_file_sum_in_ball_arithmetic(capsys, tmp_path, bias):
    """B = sum exp(bias) with a zero tail: the reference is mpmath at 50 digits (float64
    exp underflows to 0 at -1000 and overflows at 720, the wrong answers this rejects)."""
    p = tmp_path / "b.npy"
    np.save(p, np.array(bias))
    out = run_json(capsys, "--bias-file", str(p), "--bias-tail", "zero", "--eps", "0.1")
    with mpmath.workdps(50):
        ref = mpmath.fsum(mpmath.exp(mpmath.mpf(x)) for x in bias)  # mpmath, 50 digits
        assert out["certified"] and mpmath.mpf(out["sum_lo"]) <= ref <= mpmath.mpf(out["sum_hi"])
        assert mpmath.mpf(out["sum_lo"]) > 0  # never [0, 0]
        with np.errstate(over="ignore", under="ignore"):
            float_sum = float(np.exp(np.array(bias)).sum())
        if not np.isfinite(float_sum) or float_sum == 0:
            assert not mpmath.mpf(out["sum_lo"]) <= float_sum <= mpmath.mpf(out["sum_hi"])
    # TRF(0.1): the first j with partial sum > 0.9 B, in exact arithmetic on the same terms
    with mpmath.workdps(50):
        terms = [mpmath.exp(mpmath.mpf(x)) for x in bias]
        j = next(j for j in range(1, len(terms) + 1) if mpmath.fsum(terms[:j]) > ref * 0.9)
    assert out["trf"][0]["value"] == j and out["trf"][0]["exact"]


def test_bias_file_linear_tail_of_a_constant_is_constant(capsys, tmp_path):
    p = tmp_path / "b.npy"
    np.save(p, np.full(40, -1000.0))  # float least squares gives a noise slope ~1e-14
    out = run_json(capsys, "--bias-file", str(p), "--bias-tail", "linear")
    assert out["converges"] is False


@pytest.mark.parametrize(
    "array,words",
    [
        (np.array(["a", "b"]), "text"),
        (np.zeros((2, 3)), "shape (2, 3)"),
        (np.array([1 + 1j, 2]), "complex"),
        (np.array([True, False]), "boolean"),
        (np.array([0.0, np.inf]), "distance 1"),
        (np.array([]), "no values"),
    ],
    ids=["strings", "2-D", "complex", "bool", "inf", "empty"],
)
def test_bias_file_validated_at_the_edge(capsys, tmp_path, array, words):
    p = tmp_path / "bad.npy"
    np.save(p, array)
    assert main(["--bias-file", str(p)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and "bad.npy" in err[0]
    assert words in err[0]


def test_bias_text_file_2d_and_text_refused(capsys, tmp_path):
    p = tmp_path / "m.txt"
    p.write_text("1 2\n3 4\n")
    assert main(["--bias-file", str(p)]) == 2
    assert "m.txt" in capsys.readouterr().err
    p.write_text("0.5\nabc\n")
    assert main(["--bias-file", str(p)]) == 2
    assert "m.txt" in capsys.readouterr().err


def test_every_named_parameter_is_settable():
    for name, (_, params, *_rest) in LIBRARY.items():
        for key, spec in params.items():
            value = {"positive": 3, "count": 4 if key != "max_distance" else 64, "switch": 1}
            v = value[spec.kind]
            if name == "t5" and key == "num_buckets":
                v = 8
            r = resolve_rpe(name, {key: v})
            assert r.params[key] == v, (name, key)


def test_t5_buckets_distance_and_direction():
    r = resolve_rpe("t5", {"num_buckets": 8, "max_distance": 16})
    vals = [-b / 4 for b in range(8)]
    lb = log_b_values(r.b, np.arange(40), 0)
    assert np.allclose(lb, [vals[t5_bucket(t, 8, 16)] for t in range(40)])
    rb = resolve_rpe("t5", {"num_buckets": 8, "max_distance": 16, "bidirectional": 1})
    lb = log_b_values(rb.b, np.arange(40), 0)
    assert np.allclose(lb, [vals[t5_bucket(t, 8, 16, bidirectional=True)] for t in range(40)])
    assert not np.allclose(lb, [vals[t5_bucket(t, 8, 16)] for t in range(40)])


@pytest.mark.parametrize("text", ["r=nan", "r=inf", "r=-inf", "r=1/0", "r=foo", "r=sqrt(-1)"])
def test_bad_parameter_values_named(text):
    with pytest.raises(ExpressionError, match=re.escape(f"--param {text}: the value")) as e:
        parse_assignments([text])
    assert "unknown name" not in str(e.value)


@pytest.mark.parametrize(
    "argv",
    [
        ["--rpe", "t5", "--param", "num_buckets=1"],
        ["--rpe", "t5", "--param", "bidirectional=2"],
        ["--rpe", "t5", "--param", "max_distance=4", "--param", "num_buckets=32"],
        ["--rpe", "kerple-log", "--param", "r=-1"],
        ["--rpe", "alibi", "--param", "slope=1"],
    ],
)
def test_bad_named_parameters_exit_2(capsys, argv):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:")


def linear_tail_sum(values: np.ndarray) -> mpmath.mpf:
    """B of a bias file with the linear tail, from the float64 values themselves: the head
    exp(v_i), then a geometric tail exp(v_last + s j), j >= 1, whose ratio exp(s) comes from
    the least-squares slope s through the last max(2, L // 10) values, solved here with
    mpmath at 60 digits (independent of the command's exact rationals)."""
    tail = [mpmath.mpf(float(v)) for v in values[-max(2, values.size // 10) :]]
    xm = mpmath.mpf(len(tail) - 1) / 2
    ym = mpmath.fsum(tail) / len(tail)
    s = mpmath.fsum((i - xm) * (v - ym) for i, v in enumerate(tail)) / mpmath.fsum(
        (i - xm) ** 2 for i in range(len(tail))
    )
    q = mpmath.exp(s)
    head = mpmath.fsum(mpmath.exp(mpmath.mpf(float(v))) for v in values)
    return head + mpmath.exp(mpmath.mpf(float(values[-1]))) * q / (1 - q)


@pytest.mark.parametrize("ulps", [-1, 0, 1])
@pytest.mark.parametrize("fmt", ["npy", "txt"])
def test_bias_file_linear_tail_encloses_the_binary_values(capsys, tmp_path, ulps, fmt):
    """The linear tail starts from the file's float64 last value, not from the decimal it
    prints as: read as -16/5, -3.2 put B outside its certified enclosure (by 8.8e-18
    relative); every value moved by one ulp must stay enclosed too."""
    values = np.array([0.0, -0.7, -1.3, -1.9, -2.4, -2.8, -3.0, -3.1, -3.15, -3.2])
    if ulps:
        values = np.nextafter(values, ulps * np.inf)
    p = tmp_path / f"b.{fmt}"
    np.save(p, values) if fmt == "npy" else np.savetxt(p, values, fmt="%.17g")
    out = run_json(capsys, "--bias-file", str(p), "--bias-tail", "linear")
    with mpmath.workdps(60):
        ref = linear_tail_sum(values)
        assert out["certified"] and mpmath.mpf(out["sum_lo"]) <= ref <= mpmath.mpf(out["sum_hi"])
        assert mpmath.mpf(out["sum_hi"]) - mpmath.mpf(out["sum_lo"]) < ref * 1e-15


def test_t5_learned_float_values_stay_binary():
    """Learned bucket values (float64 from a checkpoint) are their binary values: nsimplify
    read 1.4142135623730951 as sqrt(2) and -0.1 as -1/10."""
    from theory.series.rpe_library import t5_series

    b = t5_series([1.4142135623730951, -0.1, -2.0, -3.0], 4, 8)
    first = b.args[0][0].args[0]  # the exponent of exp(values[0])
    assert first.is_Rational and first == sympy_fraction(1.4142135623730951)
    assert b.args[1][0].args[0] == sympy_fraction(-0.1)


def sympy_fraction(x: float):
    import fractions

    import sympy

    f = fractions.Fraction(x)  # exact binary value (Python's own conversion)
    return sympy.Rational(f.numerator, f.denominator)


@pytest.mark.parametrize("bi", [False, True])
@pytest.mark.parametrize("nb,md", [(4, 9), (8, 17), (16, 100), (32, 128), (32, 1000), (64, 4096)])
def test_t5_bucket_boundaries_found_by_search(monkeypatch, nb, md, bi):
    """The piece boundaries equal the distances where the bucket changes, found here by
    stepping through every distance; the search needs O(buckets x log max_distance)
    bucket evaluations (stepping took 5 s at max_distance 10^6, and 10^8 never ended)."""
    import theory.series.rpe_library as lib

    values = [-i / 4 for i in range(nb)]
    last = (nb // 2 if bi else nb) - 1
    ends = [t for t in range(1, 2 * md) if t5_bucket(t, nb, md, bi) != t5_bucket(t - 1, nb, md, bi)]
    assert t5_bucket(2 * md, nb, md, bi) == last  # no change beyond: every boundary is in ends
    pieces = lib.t5_series(values, nb, md, bi).args
    assert [int(cond.rhs) for _, cond in pieces[:-1]] == ends
    calls = []
    real = lib.t5_bucket
    monkeypatch.setattr(lib, "t5_bucket", lambda *a, **k: calls.append(1) or real(*a, **k))
    lib.t5_series(values, nb, 10**8, bi)
    assert len(calls) < 80 * nb
