"""floor(c log n) n^-s by blocks of the floor (theory.series.floor_log_tail): B certified
and TRF exact, against an mpmath reference computed here by another route."""

import json

import mpmath
import pytest

from theory.series.expressions import parse_expression
from theory.series.floor_log_tail import FloorLogTail
from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]


def _block_reference(c, s, K=400):
    """B = sum_n floor(c log n) n^-s summed block by block: floor(c log n) = k on
    [m_k, m_(k+1)), m_k = ceil(e^(k/c)) (mpmath at the working precision), so B =
    sum_k k (zeta(s, m_k) - zeta(s, m_(k+1))) (Abel's partner of the engine's
    sum_k zeta(s, m_k)).  The blocks k > K add at most sum_(k > K) k zeta(s, m_k) <=
    sum_(k > K) k (1 + 1/(s - 1)) e^(-(s-1) k/c) < 10^-60 here (by hand: K = 400)."""
    m = [int(mpmath.ceil(mpmath.exp(mpmath.mpf(k) / c))) for k in range(1, K + 2)]
    return mpmath.fsum(
        k * (mpmath.zeta(s, m[k - 1]) - mpmath.zeta(s, m[k])) for k in range(1, K + 1)
    )


@pytest.mark.parametrize(
    ("formula", "c", "s"), [("floor(log(n))/n**2", 1, 2), ("floor(2*log(n))/n**3", 2, 3)]
)
def test_floor_log_sum_and_trf(capsys, formula, c, s):
    assert main([f"--rpe={formula}", "--json", "--eps", *map(str, EPS)]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(60):
        B = _block_reference(mpmath.mpf(c), s)
        assert out["certified"], out.get("sum_error")
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo <= B <= hi and hi - lo < B * mpmath.mpf(10) ** -18
        # R_j = B - (the first j terms, summed directly): R_j < eps B <= R_(j-1)
        top = max(t["value"] for t in out["trf"])
        terms = [mpmath.floor(c * mpmath.log(n)) / mpmath.mpf(n) ** s for n in range(1, top + 1)]
        partial = [mpmath.mpf(0)]
        for x in terms:
            partial.append(partial[-1] + x)
        for t in out["trf"]:
            j, eps = t["value"], mpmath.mpf(repr(t["eps"]))
            assert t["exact"], t
            assert B - partial[j] < eps * B <= B - partial[j - 1], (formula, t)


@pytest.mark.parametrize("a", [1, 2, 3, 4, 8, 9, 21, 22, 1097, 1098, 10**20, 10**50])
def test_tail_from_every_start(a):
    """R(a) = sum_(n >= a) floor(log n)/n^2 at block edges (m_k = 3, 8, 21, 1097 for
    k = 1, 2, 3, 7) and far out, where the bound on the blocks beyond the last one summed is
    a visible part of the tail: by blocks, R(a) = k0 (zeta(2, a) - zeta(2, m_(k0+1))) +
    sum_(k > k0) k (zeta(2, m_k) - zeta(2, m_(k+1))), k0 = floor(log a) (mpmath, 80 digits;
    the blocks beyond k = 400 add < 10^-150 by hand)."""
    with mpmath.workdps(80):
        m = {k: int(mpmath.ceil(mpmath.exp(k))) for k in range(1, 402)}
        k0 = int(mpmath.floor(mpmath.log(a)))
        R = k0 * (mpmath.zeta(2, a) - mpmath.zeta(2, m[k0 + 1])) + mpmath.fsum(
            k * (mpmath.zeta(2, m[k]) - mpmath.zeta(2, m[k + 1])) for k in range(k0 + 1, 401)
        )
        s = FloorLogTail(parse_expression("floor(log(n))/n**2"), 1).tail(a)
        lo, hi = (mpmath.mpf(x.str(60, radius=False)) for x in (s.lower(), s.upper()))
        assert lo <= R <= hi and hi - lo < R * mpmath.mpf(10) ** -3, (a, lo, R, hi)
