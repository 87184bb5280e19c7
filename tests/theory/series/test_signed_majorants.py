"""B and TRF of terms of both signs from a proved majorant |b_n| <= c n^-p: signs
(-1)**k(n) with k integer-valued (theory.series.bounds, theory.series.arb_eval), a log factor
(p taken halfway to 1), and the tail rule's bound on every later tail (``tail_sup`` of
theory.series.majorant_tail and theory.series.periodic_product).

References: Beatty signs summed with exact integer floors (isqrt(d n^2) = floor(sqrt(d) n)),
floor(pi n) at 40 digits, with the tail beyond N bounded by the majorant; the Bessel
expansion exp(cos y) = I_0(1) + 2 sum_k I_k(1) cos(k y) (Abramowitz-Stegun 9.6.34), whose
derivative gives sin(y) exp(cos y) = 2 sum_k k I_k(1) sin(k y), and
(-1)^n cos(k n) = cos((k + pi) n), at 40 digits."""

import json
import math

import mpmath
import pytest
import sympy as sp
from flint import arb

from theory.series.arb_eval import Undecided, arb_function
from theory.series.bounds import bounds_or_none
from theory.series.expressions import N, integer_valued
from theory.series.expressions import parse_expression as P
from theory.series.majorant_tail import MajorantTail, power_envelope
from theory.series.periodic_product import PeriodicProductTail
from theory.series.sums import any_width_tail
from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]


def _sign(k: int) -> int:
    return -1 if k % 2 else 1


def beatty_terms(d: int, power: int, log_factor: bool, count: int) -> list:
    """(-1)^floor(sqrt(d) n) log(n)^[log_factor] / n^power, n = 1..count (exact floors)."""
    out = []
    for n in range(1, count + 1):
        t = mpmath.mpf(_sign(math.isqrt(d * n * n))) / mpmath.mpf(n) ** power
        out.append(t * mpmath.log(n) if log_factor else t)
    return out


def pi_floor_terms(count: int) -> list:
    """(-1)^floor(pi n) exp(cos(n)) / n^2, n = 1..count, at 40 digits."""
    with mpmath.workdps(40):
        return [
            _sign(int(mpmath.floor(mpmath.pi * n))) * mpmath.exp(mpmath.cos(n)) / n**2
            for n in range(1, count + 1)
        ]


def sin_exp_cos_sum(s: int) -> mpmath.mpf:
    """sum_{n>=1} sin(n) exp(cos(n)) / n^s = 2 sum_k k I_k(1) Cl-sin(s, k)."""
    with mpmath.workdps(40):
        return 2 * sum(k * mpmath.besseli(k, 1) * mpmath.clsin(s, k) for k in range(1, 60))


def alternating_exp_cos_sum(s: int) -> mpmath.mpf:
    """sum_{n>=1} (-1)^n exp(cos(n)) / n^s = I_0(1) Cl-cos(s, pi) + 2 sum_k I_k(1) Cl-cos(s, k + pi)."""
    with mpmath.workdps(40):
        total = mpmath.besseli(0, 1) * mpmath.clcos(s, mpmath.pi)
        for k in range(1, 60):
            total += 2 * mpmath.besseli(k, 1) * mpmath.clcos(s, k + mpmath.pi)
        return total


def tails_from(B, terms: list, count: int) -> list:
    """R_k = sum_{n >= 1 + k} b_n = B - b_1 - ... - b_k, k = 0..count-1."""
    out, R = [], B
    for k in range(count):
        out.append(R)
        R -= terms[k]
    return out


def tail_rule(tails: list, B, eps: float) -> int:
    """The least j with |R_k| < eps |B| for every k >= j (k within the list; the caller's
    list reaches past where the majorant keeps every later tail below eps |B|)."""
    target = eps * abs(B)
    return 1 + max((k for k, R in enumerate(tails) if abs(R) >= target), default=-1)


def cli_json(text: str, capsys) -> dict:
    assert main(["--rpe", text, "--json", "--time-limit", "60"]) == 0
    return json.loads(capsys.readouterr().out)


def test_integer_valued_exponents_are_signs():
    """(-1)**k(n) is a sign only where k is an integer at every integer n."""
    assert integer_valued(sp.floor(sp.sqrt(2) * N)) and integer_valued(2 * N + 1)
    assert not integer_valued(N / 2) and not integer_valued(sp.sqrt(N))
    lo, hi, _ = bounds_or_none(P("(-1)**n*exp(cos(n))/n**2"))
    assert (lo, hi) == (-sp.E / N**2, sp.E / N**2)
    assert bounds_or_none(P("(-1)**(n/2)/n**2"))[0] != -1 / N**2  # complex at odd n
    f = arb_function(P("(-1)**floor(sqrt(2)*n)"))
    assert f(arb(3)) == 1 and f(arb(5)) == -1  # floor(3 sqrt 2) = 4, floor(5 sqrt 2) = 7
    box = f(arb(100).union(arb(200)))
    assert box.contains(arb(-1)) and box.contains(arb(1)) and not box.contains(arb(2))
    assert f(arb("2.5")) == -1  # floor(2.5 sqrt 2) = 3: real at every real n
    g = arb_function(P("(-1)**n"))
    assert g(arb(100).union(arb(200))).contains(arb(1))
    with pytest.raises(Undecided):  # (-1)**2.5 is not real: no value, not a sign
        g(arb("2.5"))


def test_log_factor_takes_the_power_halfway_to_one():
    """log(n)/n^2 has no majorant c n^-2; c n^-3/2 bounds it (p = (2 + 1)/2)."""
    p, lo_p, hi_p, _ = power_envelope(P("(-1)**floor(sqrt(3)*n)*log(n)/n**2"))
    assert p == sp.Rational(3, 2) and hi_p == sp.log(N) / sp.sqrt(N) and lo_p == -hi_p
    assert power_envelope(P("sin(n)*log(n)/n**(11/10)")) is not None  # p = 21/20 > 1
    assert power_envelope(P("sin(n)*log(n)**2/n")) is None  # halfway to 1 is still 1


BEATTY = [  # (text, d, power, log factor, terms summed for the reference)
    ("(-1)**floor(sqrt(2)*n)/n**2", 2, 2, False, 400_000),
    ("(-1)**floor(sqrt(3)*n)*log(n)/n**2", 3, 2, True, 400_000),
]


@pytest.mark.parametrize("text, d, power, log_factor, count", BEATTY)
def test_beatty_signs_sum_and_every_later_tail(text, d, power, log_factor, count):
    """The enclosure of B holds the reference; ``tail_sup(a)`` bounds |R_k| for every
    scanned k >= a (a bound that drops the head's running maximum, or the far part, fails)."""
    terms = beatty_terms(d, power, log_factor, count)
    err = mpmath.mpf(2) * (mpmath.log(count) if log_factor else 1) / count  # majorant tail
    partial = mpmath.fsum(terms)
    t = MajorantTail(P(text), 1)
    B = t.tail(1)
    assert B.lower() <= partial - err and partial + err <= B.upper()
    tails = tails_from(partial, terms, 3000)
    for a in (1, 2, 3, 10, 100, 1000, 2999):
        worst = max(abs(R) for R in tails[a - 1 :]) + err
        assert worst <= float(t.tail_sup(a).upper())
    far = t.tail_sup(2**20)  # beyond the head: c (k^-p + k^(1-p)/(p-1)), p = 2 or 3/2
    assert far.upper() < (2e-6 if not log_factor else 1e-3)


def test_beatty_trfs_are_exact_and_right(capsys):
    """Every TRF of (-1)**floor(sqrt(2)*n)/n**2 is exact and equals the tail rule applied
    to the reference tails (the majorant keeps every tail past 3000 below eps |B|)."""
    terms = beatty_terms(2, 2, False, 400_000)
    B = mpmath.fsum(terms)
    tails = tails_from(B, terms, 3000)
    out = cli_json("(-1)**floor(sqrt(2)*n)/n**2", capsys)
    assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
    for row, eps in zip(out["trf"], EPS):
        assert row["exact"] and row["value"] == tail_rule(tails, B, eps), row


def test_irrational_floor_sign_times_a_bounded_factor(capsys):
    """(-1)**floor(pi*n)*exp(cos(n))/n**2: |b_n| <= e/n^2 (a sign times a positive factor),
    so B is certified and the TRFs exact where the reference (2*10^5 terms, tail <= e/2*10^5)
    decides them."""
    count = 200_000
    terms = pi_floor_terms(count)
    B = mpmath.fsum(terms)
    err = mpmath.e / count
    out = cli_json("(-1)**floor(pi*n)*exp(cos(n))/n**2", capsys)
    assert out["converges"] is True
    assert mpmath.mpf(out["sum_lo"]) <= B - err and B + err <= mpmath.mpf(out["sum_hi"])
    tails = tails_from(B, terms, 3000)
    for row, eps in zip(out["trf"], EPS):
        margin = min(abs(abs(R) - eps * abs(B)) for R in tails)
        assert margin > 2 * err  # the reference decides every comparison
        assert row["exact"] and row["value"] == tail_rule(tails, B, eps), row


@pytest.mark.parametrize(
    "text, reference",
    [
        ("sin(n)*exp(cos(n))/n**2", lambda: sin_exp_cos_sum(2)),
        ("(-1)**n*exp(cos(n))/n**2", lambda: alternating_exp_cos_sum(2)),
    ],
)
def test_periodic_factors_of_both_signs_give_exact_trfs(text, reference, capsys):
    """Before the bound on every later tail these gave TRF lower bounds only; the exact TRFs
    equal the tail rule on the tails B - S_k from the Bessel-series B."""
    B = reference()
    with mpmath.workdps(40):
        f = sp.lambdify(N, P(text), "mpmath")
        terms = [f(mpmath.mpf(n)) for n in range(1, 3001)]
    tails = tails_from(B, terms, 3000)
    out = cli_json(text, capsys)
    assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
    for row, eps in zip(out["trf"], EPS):
        assert row["exact"] and row["value"] == tail_rule(tails, B, eps), row


def test_fourier_tail_sup_bounds_every_later_tail():
    """PeriodicProductTail.tail_sup(a) >= |R_k| for every k >= a in reach of the reference
    (sin(n) exp(cos(n)) log(n)/n^2: the Fourier bound of the module doc in absolute values)."""
    t = PeriodicProductTail(P("sin(n)*exp(cos(n))*log(n)/n**2"), 1, any_width_tail)
    B = t.tail(1)
    with mpmath.workdps(30):
        terms = [
            mpmath.sin(n) * mpmath.exp(mpmath.cos(n)) * mpmath.log(n) / n**2 for n in range(1, 2001)
        ]
    Bm = mpmath.mpf(B.mid().str(30, radius=False))
    tails = tails_from(Bm, terms, 2000)
    slack = float(B.rad())
    for a in (1, 5, 50, 500, 1999):
        assert max(abs(R) for R in tails[a - 1 :]) - slack <= float(t.tail_sup(a).upper())
    assert t.tail_sup(10**6).upper() < 1e-3  # and it falls: h(a) log-ish, T(a) ~ log(a)/a


def test_wide_balls_are_multiplied_and_exponentiated_as_intervals():
    """exp(-n sin(n)^2) on n in [2^k, 2^(k+1)]: midpoint-radius arithmetic takes the product
    to +2^(k+1) 2^-30 (the radius of sin^2 reaches below 0 by its rounding) and exp of it to
    10^5336 at k = 40; as intervals, with the argument <= 0 by its form, it stays in [0, 1],
    so exp(-n*sin(n)**2)/n**2 gets B and exact TRFs (a lower bound only before)."""
    f = arb_function(P("exp(-n*sin(n)**2)"))
    for k in (17, 40, 100, 1023):
        box = arb(2) ** k
        v = f(box.union(2 * box))
        assert v.is_finite() and v.upper() < 1.01 and v.lower() > -0.01
    g = arb_function(P("-n*cos(n)**2"))(arb(10).union(arb(20)))  # exact ends: [-20, 0]
    assert g.lower() >= -20.001 and g.upper() < 1e-6


def test_exp_minus_n_sin_squared_over_n_squared(capsys):
    """B (0 < b_n <= 1/n^2: the sum to 10^6 in mpmath plus at most 1e-6) and the TRFs from
    the partial sums."""
    with mpmath.workdps(20):
        terms = [mpmath.exp(-n * mpmath.sin(n) ** 2) / n**2 for n in range(1, 10**5 + 1)]
    partial = mpmath.fsum(terms)  # B - partial in (0, 1e-5]
    out = cli_json("exp(-n*sin(n)**2)/n**2", capsys)
    lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
    assert lo <= partial + mpmath.mpf("1e-5") and partial <= hi
    S, want = mpmath.mpf(0), []
    for eps in EPS:  # Eq. 22: the first j with S_j >= (1 - eps) B, B within [partial, +1e-5]
        j, S = 0, mpmath.mpf(0)
        while S < (1 - eps) * partial:
            S += terms[j]
            j += 1
        assert S >= (1 - eps) * (partial + mpmath.mpf("1e-5"))  # decided by the reference
        want.append(j)
    assert [row["value"] for row in out["trf"]] == want and all(r["exact"] for r in out["trf"])


@pytest.mark.parametrize(
    "text, reference, digits",
    [
        ("(-1)**n*exp(cos(n))/n**2", lambda: alternating_exp_cos_sum(2), 12),
        ("(-1)**n*exp(cos(n))/n**3", lambda: alternating_exp_cos_sum(3), 12),
    ],
)
def test_a_sign_shifts_the_fourier_tail(text, reference, digits, capsys):
    """(-1)^n G(n) n^-p: the Fourier tail with every frequency shifted by pi (the mean's
    term alternating) takes B from the majorant's 4 digits to 12+, inside the Bessel
    series, and every TRF exact and equal to the tail rule on the reference tails."""
    B = reference()
    out = cli_json(text, capsys)
    with mpmath.workdps(40):  # (the enclosure is narrower than double precision)
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
    assert out["sum_digits"] >= digits
    with mpmath.workdps(40):
        f = sp.lambdify(N, P(text), "mpmath")
        terms = [f(mpmath.mpf(n)) for n in range(1, 3001)]
    tails = tails_from(B, terms, 3000)
    for row, eps in zip(out["trf"], EPS):
        assert row["exact"] and row["value"] == tail_rule(tails, B, eps), row


def test_a_sign_with_a_log_factor():
    """(-1)^n log(n) exp(cos(n))/n^2 (periodic factor times a convex h, with the sign):
    B to 10+ digits, inside 10^5 terms at 30 digits (the alternating rest is below 1e-8)."""
    from theory.series.periodic_product import PeriodicProductTail

    t = PeriodicProductTail(P("(-1)**n*log(n)*exp(cos(n))/n**2"), 1, any_width_tail)
    B = t.tail(1)
    with mpmath.workdps(30):
        partial = mpmath.fsum(
            (-1) ** n * mpmath.log(n) * mpmath.exp(mpmath.cos(n)) / n**2
            for n in range(1, 10**5 + 1)
        )
    assert B.rad() < 1e-10 and abs(float(B.mid()) - float(partial)) < 1e-8
    assert t.nonneg_until == 3  # b_1 = 0, b_2 > 0, b_3 < 0: never claimed >= 0 beyond
