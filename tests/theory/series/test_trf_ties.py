"""TRF at exact ties R_j = eps B (Eq. 22: TRF = min j with R_j < eps B, so a tie gives
j + 1), proved from sympy's closed forms where ball arithmetic cannot separate R_j from
eps B.  References by hand (telescoping): sum_(n>=a) 1/(n (n+1)) = 1/a, so from n = 1
B = 1 and R_j = 1/(j + 1); sum_(n>=a) 2/((n+1)(n+2)) = 2/(a + 1)."""

import json

import pytest

from theory.trf.cli import main


def _trf(capsys, args):
    assert main([*args, "--json"]) == 0
    return {t["eps"]: t for t in json.loads(capsys.readouterr().out)["trf"]}


@pytest.mark.parametrize(
    "args, truth",
    [
        # R_j = 1/(j+1) < eps iff j + 1 > 1/eps: R_9 = 0.1 exactly, so TRF(0.1) = 10
        (
            ["--rpe", "1/(n*(n + 1))", "--eps", "0.1", "0.01", "0.001"],
            {0.1: 10, 0.01: 100, 0.001: 1000},
        ),
        # from n = 2: B = 2/3, R_j = 2/(j + 3) < eps 2/3 iff j + 3 > 3/eps: ties at 0.1, 0.3
        (
            ["--rpe", "1/binomial(n + 2, 2)", "--start", "2", "--eps", "0.1", "0.3", "0.25"],
            {0.1: 28, 0.3: 8, 0.25: 10},
        ),
        # 2^-n at odd n, 0 at even n (held-out set 17): B = 2/3, R_j/B = 4^-ceil(j/2), so
        # R_1 = R_2 = B/4 and R_3 = R_4 = B/16 tie at 0.25 and 0.0625: TRF 3 and 5; at 0.3
        # R_1 < 0.3 B: 1 (the classes n = 2m + r summed by sympy; a bracket two wide)
        (
            ["--rpe", "(ceiling(n/2) - floor(n/2))*2**(-n)", "--eps", "0.3", "0.25", "0.0625"],
            {0.3: 1, 0.25: 3, 0.0625: 5},
        ),
        # 2^-n at even n, 0 at odd n: B = 1/3, R_j/B = 4^-floor(j/2): R_2 = R_3 = B/4 and
        # R_4 = R_5 = B/16 tie at 0.25 and 0.0625: TRF 4 and 6
        (
            ["--rpe", "(1 + floor(n/2) - ceiling(n/2))*2**(-n)", "--eps", "0.25", "0.0625"],
            {0.25: 4, 0.0625: 6},
        ),
    ],
)
def test_exact_ties(capsys, args, truth):
    got = _trf(capsys, args)
    for eps, j in truth.items():
        assert got[eps]["exact"] and got[eps]["value"] == j, got[eps]


@pytest.mark.parametrize(
    "values, truth",
    [
        # B = 1 + e^(-2^-1074) < 2, so S_1 = 1 > B/2 strictly: TRF(0.5) = 1 (192 bits see a
        # tie; the binary value -2^-1074 read to its last bit does not); S_1 < 0.9 B: 2
        ("0\n-5e-324\n", {0.5: 1, 0.1: 2}),
        # the exact tie the file's values make: S_1 = 1 = B/2, so TRF(0.5) = 2
        ("0\n0\n", {0.5: 2, 0.1: 2}),
        # B = 1 + e^(2^-1074) > 2: S_1 = 1 < B/2, TRF(0.5) = 2
        ("0\n5e-324\n", {0.5: 2, 0.1: 2}),
    ],
)
def test_ties_of_subnormal_bias_values(capsys, tmp_path, values, truth):
    f = tmp_path / "bias.txt"
    f.write_text(values)
    got = _trf(capsys, ["--bias-file", str(f), "--bias-tail", "zero", "--eps", "0.5", "0.1"])
    for eps, j in truth.items():
        assert got[eps]["exact"] and got[eps]["value"] == j, got[eps]
