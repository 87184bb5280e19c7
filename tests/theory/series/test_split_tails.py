"""Sums of convergent series summed part by part (``theory.series.split_tail``): B and
exact TRFs against closed forms computed here; a part that diverges is refused."""

import json

import mpmath
import pytest

from theory.series.arb_eval import NotCertified
from theory.series.expressions import parse_expression
from theory.series.split_tail import SplitTail
from theory.series.sums import certify_tail
from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]


def geometric_tail(r, j):
    """sum_(n >= 1 + j) r^n = r^(1 + j)/(1 - r)."""
    return r ** (1 + j) / (1 - r)


CASES = [
    # (3/5)^n - (2/5)^n: B = 3/2 - 2/3
    (
        "(3**n - 2**n)/5**n",
        lambda j: geometric_tail(mpmath.mpf(3) / 5, j) - geometric_tail(mpmath.mpf(2) / 5, j),
    ),
    # 2^-n - 3^(-sqrt(2) n): two ratios whose logarithms are incommensurable
    (
        "2**(-n) - 3**(-n*sqrt(2))",
        lambda j: (
            geometric_tail(mpmath.mpf(1) / 2, j)
            - geometric_tail(mpmath.mpf(3) ** -mpmath.sqrt(2), j)
        ),
    ),
]


@pytest.mark.parametrize("formula,R", CASES, ids=[c[0] for c in CASES])
def test_sum_of_geometric_series(capsys, formula, R):
    assert main([f"--rpe={formula}", "--json", "--time-limit", "60", "--eps", *map(str, EPS)]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(50):
        B = R(0)
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo <= B <= hi and hi - lo < B * mpmath.mpf(10) ** -18
        for t in out["trf"]:  # terms > 0, so R decreases
            j, eps = t["value"], mpmath.mpf(repr(t["eps"]))
            assert t["exact"], t
            assert R(j) < eps * B <= R(j - 1), (t, R(j), R(j - 1))


def test_a_divergent_part_is_refused():
    """1/n - 1/(n + 1) converges, but neither part does: no split."""
    with pytest.raises(NotCertified, match="not proved convergent"):
        SplitTail(parse_expression("1/n - 1/(n + 1)"), 1, lambda e, m: certify_tail(e, m))


def test_signed_sum_gets_the_tail_rule_trf(capsys):
    """(-1)^(n+1)/n - c 2^-n with c = log 2 - 1/1000: B = 1/1000 (Leibniz: the first part
    sums to log 2).  The TRF of signed terms is min j with |R_k| < eps |B| for every k >= j;
    R_k = (-1)^k (psi((k+2)/2) - psi((k+1)/2))/2 - c 2^-k (the alternating tail by the
    digamma function), scanned below 1/(eps B) + 10 (beyond it |R_k| < 1/(2k) + c 2^-k
    < eps B)."""
    assert main(["--rpe=(-1)**(n + 1)/n - (log(2) - 1/1000)/2**n", "--json", "--eps", "0.1"]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(30):
        c = mpmath.log(2) - mpmath.mpf(1) / 1000

        def R(k):
            half = (
                mpmath.digamma(mpmath.mpf(k + 2) / 2) - mpmath.digamma(mpmath.mpf(k + 1) / 2)
            ) / 2
            return (-1) ** k * half - c * mpmath.mpf(2) ** -k

        B = mpmath.mpf(1) / 1000
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        (t,) = out["trf"]
        last = max(k for k in range(1, 10**4 + 10) if abs(R(k)) >= B / 10)
        assert t["exact"] and t["value"] == last + 1, (t, last)


def _sin_power_sum(m):
    """sum_(n >= 1) sin(n)^m / n^m by Fourier: sin^m x = (2i)^-m sum_j C(m, j) (-1)^(m-j)
    e^(i(2j - m)x), and sum_n e^(iqn)/n^m = Li_m(e^(iq)) (zeta(m) at q = 0)."""
    total = mpmath.mpc(0)
    for j in range(m + 1):
        q = 2 * j - m
        li = mpmath.zeta(m) if q == 0 else mpmath.polylog(m, mpmath.exp(1j * q))
        total += mpmath.binomial(m, j) * (-1) ** (m - j) * li
    return (total / (2j) ** m).real


@pytest.mark.slow
def test_quotient_split_at_its_leading_term(capsys):
    """sin(n)/(n + sin(n)) = sin(n)/n - sin(n)^2/(n (n + sin(n))): the first sums to
    (pi - 1)/2; the second, for n >= 2 (|sin(n)/n| <= 1/2), is sum_k (-1)^k sin^(k+2)/n^(k+2)
    (Fubini, absolutely), k < 60 (the rest < 2^-60), and its n = 1 term exactly."""
    assert main(["--rpe=sin(n)/(n+sin(n))", "--json", "--time-limit", "60", "--eps", "0.1"]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(30):
        s1 = mpmath.sin(1)
        rest = s1**2 / (1 + s1) + mpmath.fsum(
            (-1) ** k * (_sin_power_sum(k + 2) - s1 ** (k + 2)) for k in range(60)
        )
        B = (mpmath.pi - 1) / 2 - rest
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo <= B <= hi and hi - lo < mpmath.mpf(10) ** -11


def test_log_of_a_shifted_argument_is_split_at_log_n(capsys):
    """(-1)**n log(n + 1)/n = (-1)**n log(n)/n + (-1)**n log(1 + 1/n)/n (log_shift_parts).
    Reference (mpmath, 40 digits): sum (-1)^n log(n)/n = eta'(1) = gamma ln 2 - ln(2)^2/2,
    and with log(1 + 1/n) = sum_k (-1)^(k+1)/(k n^k), sum (-1)^n log(1 + 1/n)/n =
    sum_k (-1)^k eta(k + 1)/k = -ln 2 + sum_k (-1)^k (eta(k + 1) - 1)/k (geometric terms).
    TRF by the tail rule: R_k from B by recursion, every k up to K where the Leibniz bound
    |R_k| <= log(k + 2)/(k + 1) (log(n + 1)/n decreases from n = 2) is below eps |B|."""
    assert main(["--rpe", "(-1)**n*log(n + 1)/n", "--json", "--time-limit", "60"]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(40):
        ln2 = mpmath.log(2)
        B = mpmath.euler * ln2 - ln2**2 / 2 - ln2
        B += mpmath.nsum(lambda k: (-1) ** k * (mpmath.altzeta(k + 1) - 1) / k, [1, mpmath.inf])
        assert out["certified"] and mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        assert out["sum_digits"] >= 15
        for t in out["trf"]:
            target = abs(B) * mpmath.mpf(repr(t["eps"]))
            K = 2
            while mpmath.log(K + 2) / (K + 1) >= target:
                K *= 2
            R, last = B, -1
            for k in range(K + 1):
                if abs(R) >= target:
                    last = k
                R -= (-1) ** (k + 1) * mpmath.log(k + 2) / (k + 1)
            assert t["exact"] and t["value"] == last + 1, t
