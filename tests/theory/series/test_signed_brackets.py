"""TRF brackets of terms of both signs from a wide certified B (theory.series.certified_trf
.signed_bracket): the tail rule, never Eq. 22 read literally (which stops at the first
negative tail).  The MRB constant sum (-1)^n (n^(1/n) - 1), end to end: reference computed
here with mpmath (alternating-series acceleration for B, direct partial sums for the tails);
its B is now certified narrowly, so its TRF is exact, and the brackets themselves are
checked on the tails given below."""

import json

import mpmath
from flint import arb

from theory.series.certified_trf import signed_bracket
from theory.trf.cli import main


def test_mrb_constant_bracket_holds(capsys):
    args = ["--rpe=(-1)**n*(n**(1/n)-1)", "--json", "--eps", "0.1", "--time-limit", "60"]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    (t,) = out["trf"]
    assert t["definition"].startswith("tail rule")
    with mpmath.workdps(30):
        g = lambda n: mpmath.power(n, mpmath.mpf(1) / n) - 1  # noqa: E731
        B = mpmath.nsum(lambda n: (-1) ** int(n) * g(n), [1, mpmath.inf])
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        R, S = [], mpmath.mpf(0)
        for k in range(3000):  # R_k = sum_{n >= k + 1}
            R.append(B - S)
            S += (-1) ** (k + 1) * g(k + 1)
        target = mpmath.mpf("0.1") * B
        # beyond k = 3000, |R_k| <= g(k + 1) <= g(3001) < target (Leibniz, g decreasing)
        assert g(3001) < target
        true = max(k for k in range(3000) if abs(R[k]) >= target) + 1  # 132
    if t["exact"]:  # the Euler-transformed tail certifies B narrowly (dominant-monomial signs)
        assert t["value"] == true, (t, true)
    else:  # a wide B: the bracket of the tail rule
        assert t["upper_bound"] >= true, (t, true)
        assert t["lower_bound"] is None or t["lower_bound"] <= true


def test_no_bound_on_later_tails_no_bracket():
    t = signed_bracket(lambda a: arb(-1) / a, None, 1, arb(1), 0.1)
    assert t["value"] is None and "upper_bound" not in t and "lower_bound" not in t


def test_exact_where_the_tail_before_is_large():
    """R_a = (-1)^a/a with |R_k| <= 1/k for every later k, B = 1, eps = 1/8 (exact in
    binary): the tails are R(start + j), start = 1, so j = 8 has sup 1/9 < 1/8 and
    |R(8)| = 1/8 is not below 1/8: TRF = 8 exactly."""

    def tail(a):
        return arb(-1) ** a / a

    t = signed_bracket(tail, lambda a: arb(1) / a, 1, arb(1), 0.125)
    assert t["upper_bound"] == 8 and t["exact"] and t["value"] == 8


def test_a_sum_of_zero_is_enclosed_and_its_trf_not_determined(capsys):
    # sum 1/(n (n + 1)) = 1 = sum 2^-n (telescoping; geometric): B = 0 exactly, so no
    # relative precision exists and eps B = 0 leaves the TRF undefined
    assert main(["--rpe=1/(n*(n+1)) - 2**(-n)", "--json", "--time-limit", "60"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["certified"] and out["sum_digits"] == 0
    lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
    assert lo <= 0 <= hi and hi - lo < 1e-20
    for t in out["trf"]:
        assert t["value"] is None and t["note"].startswith("not determined")
    assert main(["--rpe=1/(n*(n+1)) - 2**(-n)", "--time-limit", "60"]) == 0
    assert "not determined (B ~ 0)" in capsys.readouterr().out


def test_a_lower_bound_below_an_undecided_stretch():
    """Tails known only as balls: |R_k| >= target is undecided just below the upper bound
    (wide balls around the target), proved further down, at R(5) = 1/5 (j = 4): TRF >= 5,
    not exact.  R(a) = 1/a for a <= 5, a ball straddling 1/8 for a = 6..9, then 1/a."""

    def tail(a):
        if 6 <= a <= 9:
            return arb(1) / 8 + arb(0, 0.01)
        return arb(1) / a

    t = signed_bracket(
        tail, lambda a: arb(1) / a + (arb("0.02") if a <= 9 else 0), 1, arb(1), 0.125
    )
    assert t["upper_bound"] == 9 and not t["exact"]
    assert t["lower_bound"] == 5  # |R(1 + 4)| = 1/5 >= 1/8 proved: TRF > 4


def test_no_lower_bound_where_every_tail_holds_zero():
    """Bounds beyond a head (balls around 0) prove no |R_k| >= target: no lower bound,
    and the scan gives up after 32 of them in a row (then 5 % steps)."""
    calls = []

    def tail(a):
        calls.append(a)
        return arb(0, 1) / a

    t = signed_bracket(tail, lambda a: arb(1) / a, 1, arb(1), 1e-6)
    assert t["upper_bound"] >= 10**6 and t["lower_bound"] is None
    assert len(calls) < 32 + 400
