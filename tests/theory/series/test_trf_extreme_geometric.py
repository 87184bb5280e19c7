"""Geometric series with extreme constants (1e300, 1e308 and their one-ulp neighbours):
B certified and TRF exact, checked against mpmath at 60 digits."""

import json
import math

import mpmath
import pytest

from theory.trf.cli import main


def _run(capsys, *argv) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _mp(text: str) -> mpmath.mpf:
    return mpmath.mpf(text.split(" x ")[-1])


@pytest.mark.parametrize("k", [1e300, math.nextafter(1e300, 0), math.nextafter(1e300, math.inf)])
def test_huge_rate_geometric_sum_and_trf(capsys, k):
    d = _run(capsys, f"--rpe=exp(-{k!r}*n)")
    # reference: B = e^(-k) / (1 - e^(-k)), k the decimal as typed (mpmath at 400 digits:
    # the mantissa of e^(-1e300) is set by the 300th digit of 1e300 / ln 10)
    with mpmath.workdps(400):
        K = mpmath.mpf(repr(k))
        ref = mpmath.exp(-K) / -mpmath.expm1(-K)
        assert d["certified"]
        assert _mp(d["sum_lo"]) <= ref <= _mp(d["sum_hi"])
        assert abs(_mp(d["sum_hi"]) / _mp(d["sum_lo"]) - 1) < mpmath.mpf(10) ** -15
    # the tail after the first term is e^(-k) B < eps B for every eps here: TRF = 1
    assert [(t["value"], t["exact"]) for t in d["trf"]] == [(1, True)] * 3
