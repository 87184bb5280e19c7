"""(-1)^n/(n^p + (-1)^n) by the exact split (-1)^n n^-p - n^-2p/(1 + (-1)^n n^-p)
(theory.series.quotient_tail): B certified and the TRFs of the tail rule, against a
closed form by Hurwitz zeta functions computed here."""

import json

import mpmath
import pytest

from theory.series.expressions import parse_expression
from theory.series.quotient_tail import AlternatingQuotientTail
from theory.series.sums import certify_tail

EPS = [0.1, 0.01, 0.001]


def _alternating(s, N):
    """sum_(n >= N) (-1)^n n^-s = (-1)^N 2^-s (zeta(s, N/2) - zeta(s, (N + 1)/2))."""
    return (
        (-1) ** N
        * 2**-s
        * (mpmath.zeta(s, mpmath.mpf(N) / 2) - mpmath.zeta(s, mpmath.mpf(N + 1) / 2))
    )


def reference_tail(p, N, J=300):
    """R(N) = sum_(n >= N) (-1)^n/(n^p + (-1)^n), N >= 2: with x = (-1)^n n^-p, |x| <= 2^-p,
    b_n = (-1)^n n^-p sum_j (-x)^j, and the double series converges absolutely
    (sum_n n^-2p/(1 - n^-p) < oo for p > 1/2), so summing over n first (Fubini):
    R(N) = A_p(N) + sum_(j >= 0) [j even: -zeta(p(2 + j), N); j odd: A_(p(2+j))(N)],
    A_s the alternating sum above.  Each j-term is at most 3 2^-p(2+j) (zeta(s, N) <=
    N^-s (1 + N/(s - 1))), so the terms j >= J = 300 add < 10^-60 (by hand)."""
    total = _alternating(p, N)
    for j in range(J):
        s = p * (2 + j)
        total += -mpmath.zeta(s, N) if j % 2 == 0 else _alternating(s, N)
    return total


def test_sum_and_tail_rule_trf(capsys):
    from theory.trf.cli import main

    argv = ["--rpe=(-1)**n/(n**0.7+(-1)**n)", "--start", "2", "--json", "--time-limit", "120"]
    assert main([*argv, "--eps", *map(str, EPS)]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(40):
        p = mpmath.mpf(7) / 10  # 0.7 typed: the decimal, exactly
        B = reference_tail(p, 2)
        assert out["certified"], out.get("sum_error")
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo <= B <= hi and hi - lo < abs(B) * mpmath.mpf(10) ** -15
        for t in out["trf"]:
            # tail rule: |R_(j-1)| >= eps |B| and |R_k| < eps |B| for k >= j (spot checks
            # from j on; R_k is the tail from n = 2 + k)
            j, target = t["value"], mpmath.mpf(repr(t["eps"])) * abs(B)
            assert t["exact"], t
            assert abs(reference_tail(p, 2 + j - 1, 40)) >= target, t
            for k in [j, j + 1, j + 2, j + 3, 2 * j, 10 * j]:
                assert abs(reference_tail(p, 2 + k, 40)) < target, (t, k)


@pytest.mark.parametrize("a", [2, 3, 10, 11, 1000, 10**6 + 1])
def test_tails_and_their_bound(a):
    """Every tail from a holds the reference, and tail_sup(a) bounds |R_k| for k >= a
    (checked at a and at the next few k; the reference to 300 orders in x)."""
    b = parse_expression("(-1)**n/(n**(7/10)+(-1)**n)")
    t = certify_tail(b, 2)
    assert isinstance(t, AlternatingQuotientTail)
    with mpmath.workdps(40):
        p = mpmath.mpf(7) / 10
        R = reference_tail(p, a)
        s = t.tail(a)
        lo, hi = (mpmath.mpf(x.str(40, radius=False)) for x in (s.lower(), s.upper()))
        assert lo <= R <= hi, (a, lo, R, hi)
        sup = mpmath.mpf(t.tail_sup(a).str(40, radius=False))
        assert all(abs(reference_tail(p, k)) <= sup for k in range(a, a + 4))


def test_one_ulp_neighbour_of_the_exponent_gives_no_wrong_number(capsys):
    """p typed as 0.7000000000000001 (the float after 0.7; the decimal as typed, exactly):
    B is either certified and holds its own reference (which differs from that of 0.7 by
    ~1e-16 relative, far outside the 0.7 enclosure) or not given; never a wrong number."""
    from theory.trf.cli import main

    text = "0.7000000000000001"
    argv = [f"--rpe=(-1)**n/(n**{text}+(-1)**n)", "--start", "2", "--json"]
    assert main([*argv, "--time-limit", "120"]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(40):
        ref, other = reference_tail(mpmath.mpf(text), 2), reference_tail(mpmath.mpf("0.7"), 2)
        assert abs(ref - other) > abs(ref) * mpmath.mpf(10) ** -17
        if out["certified"]:
            assert mpmath.mpf(out["sum_lo"]) <= ref <= mpmath.mpf(out["sum_hi"])
            assert not mpmath.mpf(out["sum_lo"]) <= other <= mpmath.mpf(out["sum_hi"])
        else:
            assert out["sum_lo"] is None and out["sum_hi"] is None
