"""The perturbation engine (theory.series.perturbation_tail): b_n = n^-p Psi(1/n, sin(n)).

References (mpmath, 40 digits, independent of the engine): the terms n < N summed directly,
plus the tail sum_(n>=N) of the expansion sum_j a_j sin(n)^j n^-(p+j') in closed form:
sin(n)^j is a sum of cos(m n), sin(m n), and sum_(n>=1) cos(m n)/n^s, sin(m n)/n^s are
Clausen functions (mpmath.clcos, mpmath.clsin), less their first N - 1 terms; the dropped
orders are bounded by max|a_j| zeta(q, N) (q the first dropped power), far below the tolerance.
"""

from __future__ import annotations

import json

import mpmath
import pytest

from theory.series import perturbation_tail as pt
from theory.series.arb_eval import NotCertified
from theory.series.enclosure import arb_bounds
from theory.series.expressions import parse_expression as P
from theory.series.perturbation_tail import PerturbationTail
from theory.trf.cli import main

DPS = 40
CUT = 3000  # terms summed directly in the references


def _sin_power_tail(j: int, s: int, N: int) -> mpmath.mpf:
    """sum_(n >= N) sin(n)^j / n^s: sin^j expanded in cos(m n), sin(m n) (binomial theorem on
    (e^(in) - e^(-in))^j / (2i)^j), each full sum a Clausen function, less the first terms."""
    total = mpmath.mpf(0)
    for k in range(j + 1):
        m = j - 2 * k  # e^(i m n) with coefficient C(j, k) (-1)^k / (2i)^j
        c = mpmath.binomial(j, k) * (-1) ** k / (2j) ** j
        full = mpmath.zeta(s) if m == 0 else mpmath.clcos(s, m) + 1j * mpmath.clsin(s, m)
        head = mpmath.fsum(
            mpmath.expjpi(m * n / mpmath.pi) / mpmath.mpf(n) ** s for n in range(1, N)
        )
        total += c * (full - head)
    return mpmath.re(total)


def _reference(f, start: int, series: list[tuple[mpmath.mpf, int, int]]) -> mpmath.mpf:
    """sum_(start <= n < CUT) f(n) + sum_(n >= CUT) sum_j a_j sin(n)^j n^-s_j."""
    with mpmath.workdps(DPS):
        head = mpmath.fsum(f(mpmath.mpf(n)) for n in range(start, CUT))
        return head + mpmath.fsum(a * _sin_power_tail(j, s, CUT) for a, j, s in series)


def _ref_inverse_square_plus_sin() -> mpmath.mpf:
    # 1/(n^2 + s) = n^-2 - s n^-4 + s^2 n^-6 - s^3 n^-8; dropped: <= zeta(10, 3000) ~ 1e-32
    return _reference(
        lambda n: 1 / (n**2 + mpmath.sin(n)),
        1,
        [(1, 0, 2), (-1, 1, 4), (1, 2, 6), (-1, 3, 8)],
    )


def test_inverse_square_plus_sin_to_many_digits():
    """Before: B to 4 digits (power majorant on wide boxes); now > 18 digits."""
    t = PerturbationTail(P("1/(n**2 + sin(n))"), 1)
    B = _ref_inverse_square_plus_sin()
    with mpmath.workdps(DPS):
        lo, hi = arb_bounds(t.tail(1))
        assert lo <= B <= hi and hi - lo < B * 1e-18, (lo, B, hi)
        for a in (50, 5000, t.M, t.M + 12345):  # tails inside and beyond the head
            ref = B - mpmath.fsum(1 / (n**2 + mpmath.sin(n)) for n in range(1, min(a, CUT)))
            if a > CUT:
                ref = mpmath.fsum(
                    c * _sin_power_tail(j, s, a) for c, j, s in [(1, 0, 2), (-1, 1, 4), (1, 2, 6)]
                )  # dropped: zeta(8, a) < 1e-27
            lo, hi = arb_bounds(t.tail(a))
            assert lo - mpmath.mpf(10) ** -26 <= ref <= hi + mpmath.mpf(10) ** -26, (a, lo, ref, hi)


def test_first_order_and_large_perturbations():
    """1/(n - sin(n))^2 = sum_k (k+1) sin(n)^k n^-(k+2); 1/(n^2 - 100 sin(n)) from n = 11
    (n^2 > 100 there) = sum_k 100^k sin(n)^k n^-(2k+2)."""
    cases = [
        (
            "1/(n - sin(n))**2",
            1,
            lambda n: 1 / (n - mpmath.sin(n)) ** 2,
            [(k + 1, k, k + 2) for k in range(7)],  # dropped: 8 zeta(9, 3000) ~ 1e-29
        ),
        (
            "1/(n**2 - 100*sin(n))",
            11,
            lambda n: 1 / (n**2 - 100 * mpmath.sin(n)),
            [(100**k, k, 2 * k + 2) for k in range(6)],  # dropped: 1e12 zeta(14, 3000) ~ 1e-37
        ),
    ]
    for text, start, f, series in cases:
        t = PerturbationTail(P(text), start)
        B = _reference(f, start, series)
        with mpmath.workdps(DPS):
            lo, hi = arb_bounds(t.tail(start))
            assert lo <= B <= hi and hi - lo < abs(B) * 1e-12, (text, lo, B, hi)


def test_periodic_leading_coefficient():
    """1/(n^2 (2 + sin n)): Psi = 1/(2 + S) does not depend on t.  Reference: the Fourier
    series 1/(2 + sin x) = (1 + 2 sum_k r^k cos(k (x + pi/2)))/sqrt(3), r = 2 - sqrt(3)
    (1/(a + cos y) = (1 + 2 sum (-r)^k cos(k y))/sqrt(a^2 - 1), y = x - pi/2), summed
    against n^-2 with Clausen functions; 90 terms leave r^90 < 1e-50."""
    t = PerturbationTail(P("1/(n**2*(2 + sin(n)))"), 1)
    with mpmath.workdps(DPS):
        r = 2 - mpmath.sqrt(3)
        s = mpmath.zeta(2)
        for k in range(1, 90):
            c, d = mpmath.cos(k * mpmath.pi / 2), mpmath.sin(k * mpmath.pi / 2)
            s += 2 * r**k * (c * mpmath.clcos(2, k) - d * mpmath.clsin(2, k))
        B = s / mpmath.sqrt(3)
        lo, hi = arb_bounds(t.tail(1))
        assert lo <= B <= hi and hi - lo < B * 1e-10, (lo, B, hi)


def test_fractional_powers_in_a_root_of_n():
    """1/(n^(3/2) + 10 sin n): t = n^(-1/2), Psi = 1/(1 + 10 S t^3) (before: no B; the
    power majorant's boxes gave no enclosure).  Reference: 1/(n^1.5 + 10 s) = sum_j (-10 s)^j
    n^(-1.5 (j + 1)), j < 7 (dropped: 10^7 zeta(12, 3000) ~ 5e-33), Clausen functions of
    real order."""
    t = PerturbationTail(P("1/(n**1.5 + 10*sin(n))"), 1)
    assert t.q == 2 and "t = n^(-1/2)" in t.certificate
    with mpmath.workdps(DPS):
        head = mpmath.fsum(1 / (mpmath.mpf(n) ** 1.5 + 10 * mpmath.sin(n)) for n in range(1, CUT))
        B = head + mpmath.fsum(
            (-10) ** j * _sin_power_tail(j, mpmath.mpf(3) / 2 * (j + 1), CUT) for j in range(7)
        )
        lo, hi = arb_bounds(t.tail(1))
        assert lo <= B <= hi and hi - lo < B * 1e-13, (lo, B, hi)


def test_roots_of_high_order_are_refused():
    """n^1.1 = n^(11/10): t = n^(-1/10) would need 60 coefficients and a disk wider than
    M^(-1/10) allows: refused by name."""
    with pytest.raises(NotCertified, match="n\\^\\(-1/10\\)"):
        PerturbationTail(P("1/(n**1.1 + sin(n))"), 1)


def test_pole_near_the_head_is_refused():
    """1/(n^2 - 100 sin(n)) has Psi = 1/(1 - 100 S t^2), a pole at |t| = 1/10: with a head
    of 8 terms only the disks |t| <= 1/2, 1/4 may be used, and both hold the pole (the bound
    would hold only for large n): refused."""
    with pytest.raises(NotCertified):
        PerturbationTail(P("1/(n**2 - 100*sin(n))"), 11, head_log2=3)


def test_wrong_expansion_is_refused(monkeypatch):
    """A planted wrong Taylor coefficient (the sign of c_2 of 1/(n^2 + sin n) flipped, i.e.
    a sandwich on the wrong side) disagrees with Psi at t = 1/M: refused."""
    real = pt.expansion

    def wrong(b, order=pt.ORDER):
        p, atoms, S, psi, coeffs, q = real(b, order)
        coeffs = list(coeffs)
        coeffs[2] = -coeffs[2]
        return p, atoms, S, psi, coeffs, q

    monkeypatch.setattr(pt, "expansion", wrong)
    with pytest.raises(NotCertified):
        PerturbationTail(P("1/(n**2 + sin(n))"), 1)


def test_not_an_expansion_is_refused():
    """log(n) is no function of 1/n analytic at 0; sin(n**2) is no atom; sqrt is refused
    where its branch cut may meet the disk (sqrt(t^-2 + S) at t = 0)."""
    for text in ("exp(cos(n))*log(n)/n**2", "1/(n**2 + sin(n**2))", "sqrt(n**2 + sin(n))/n**3"):
        with pytest.raises(NotCertified):
            PerturbationTail(P(text), 1, head_log2=4)


@pytest.mark.slow
def test_cli_exact_trfs():
    """Before: TRF(0.01) = 88 (in [87, 88]), TRF(0.001) = 892 (in [830, 964]), not exact;
    now both exact and equal to the first j with R_j < B eps, R_j = B - sum_(n<=j) b_n."""
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["--rpe", "1/(n**2+sin(n))", "--json", "--time-limit", "120"])
    out = json.loads(buf.getvalue())
    assert code == 0 and out["certified"], out
    B = _ref_inverse_square_plus_sin()
    with mpmath.workdps(DPS):
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        for t in out["trf"]:
            R, j = B, 0
            while R >= B * mpmath.mpf(repr(t["eps"])):
                j += 1
                R -= 1 / (j**2 + mpmath.sin(j))
            assert t["exact"] and t["value"] == j, (t, j)


def test_periodic_term_plus_smooth_correction():
    """exp(cos(n))/n^2 - 1/n^3: Psi = e^S - t (expanded: the power majorant left 5 digits).
    Reference: exp(cos x) = I_0(1) + 2 sum_k I_k(1) cos(k x) (Bessel generating function),
    so B = I_0(1) zeta(2) + 2 sum_k I_k(1) Cl_2(k) - zeta(3); I_k(1) < 1/(2^k k!): 40 terms."""
    t = PerturbationTail(P("exp(cos(n))/n**2 - 1/n**3"), 1)
    with mpmath.workdps(DPS):
        B = mpmath.besseli(0, 1) * mpmath.zeta(2) - mpmath.zeta(3)
        B += 2 * mpmath.fsum(mpmath.besseli(k, 1) * mpmath.clcos(2, k) for k in range(1, 40))
        lo, hi = arb_bounds(t.tail(1))
        assert lo <= B <= hi and hi - lo < B * 1e-10, (lo, B, hi)
