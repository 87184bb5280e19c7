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
    ],
)
def test_exact_ties(capsys, args, truth):
    got = _trf(capsys, args)
    for eps, j in truth.items():
        assert got[eps]["exact"] and got[eps]["value"] == j, got[eps]
