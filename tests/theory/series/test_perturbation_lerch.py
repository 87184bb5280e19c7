"""1/(n^2 + c sin n) against a reference built without the tool's methods: the terms before
N0 summed directly, and beyond N0 the geometric expansion in c sin(n)/n^2 with sin^k n
written in e^(imn), each tail sum_(n >= N0) e^(imn) n^-s = e^(imN0) Phi(e^(im), s, N0)
(mpmath's Lerch transcendent at 45 digits: no cancellation), for perturbations large at
small n (c = 50, -100) from the first n where n^2 > |c|."""

import json

import mpmath
import pytest

from theory.trf.cli import main


def _reference(c: int, start: int, n0: int = 200):
    head = mpmath.fsum(1 / (mpmath.mpf(n) ** 2 + c * mpmath.sin(n)) for n in range(start, n0))
    tail, k = mpmath.mpf(0), 0
    while k == 0 or (abs(c) / mpmath.mpf(n0) ** 2) ** k / n0 > mpmath.mpf(10) ** -44:
        acc = mpmath.mpc(0)
        for j in range(k + 1):  # sin^k n = (2i)^-k sum_j C(k, j) (-1)^(k-j) e^(i(2j-k)n)
            m = 2 * j - k
            z = mpmath.exp(1j * m)
            t = mpmath.zeta(2 + 2 * k, n0) if m == 0 else z**n0 * mpmath.lerchphi(z, 2 + 2 * k, n0)
            acc += mpmath.binomial(k, j) * (-1) ** (k - j) * t
        tail += (-c) ** k * (acc / (2j) ** k).real
        k += 1
    return head + tail


@pytest.mark.slow
@pytest.mark.parametrize(("c", "start"), [(10, 4), (50, 8), (-100, 11), (-3, 2)])
def test_enclosure_holds_the_lerch_reference(capsys, c, start):
    formula = f"1/(n**2 + ({c})*sin(n))"
    assert main([f"--rpe={formula}", "--start", str(start), "--json", "--time-limit", "60"]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(45):
        B = _reference(c, start)
        assert abs(B - _reference(c, start, 300)) < mpmath.mpf(10) ** -35  # two cuts agree
        assert out["certified"] and out["sum_digits"] >= 12, out.get("sum_status")
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
