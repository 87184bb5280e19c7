"""psi_k(t) = (log(1 + t) - sum_(j<k) (-1)^(j+1) t^j/j)/t^k in balls and Taylor series
(theory.series.log1p_remainder) against mpmath at 60 digits: the closed form evaluated with
enough digits to absorb its cancellation, and its derivatives by mpmath.diff."""

import mpmath
import pytest
from flint import arb, arb_series, ctx

from theory.series.arb_eval import PREC, arb_function
from theory.series.expressions import N
from theory.series.log1p_remainder import Log1pRemainder, log1p_remainder


def _psi(k, t):
    head = mpmath.fsum((-1) ** (j + 1) * t**j / j for j in range(1, k))
    return (mpmath.log1p(t) - head) / t**k


def _holds(ball, ref):
    with mpmath.workdps(100):  # 80 digits: the string's own error is far below the radius
        return ball.overlaps(arb(mpmath.nstr(ref, 80)))


@pytest.fixture(autouse=True)
def _prec():
    old = ctx.prec
    ctx.prec = PREC
    yield
    ctx.prec = old


@pytest.mark.parametrize("k", [1, 2, 3, 5])
@pytest.mark.parametrize(
    "p, q", [(1, 3), (-1, 5), (1, 1000), (-1, 1024), (1, 2**200), (3, 1), (-9, 10)]
)
def test_points_and_derivatives_against_mpmath(k, p, q):
    """psi_k^(m)(t)/m!, m < 6, at t = p/q (as a 192-bit ball): inside mpmath's value of the
    closed form at 400 digits (it cancels about 200 k bits at t = 2^-200), and narrow."""
    x = arb(p) / q
    s = log1p_remainder(k, arb_series([x, 1], prec=6)).coeffs()
    with mpmath.workdps(400):
        tm = mpmath.mpf(p) / q
        refs = [mpmath.diff(lambda u: _psi(k, u), tm, m) / mpmath.factorial(m) for m in range(6)]
    for m, (c, ref) in enumerate(zip(s, refs)):
        assert _holds(c, ref), (k, p, q, m, c, ref)
        assert c.rad() < 1e-40 * max(abs(ref), 1e-30), (k, p, q, m, c)


def test_wide_ball_is_the_hull_of_its_ends():
    """psi_2 on [1/20, 1/10] (monotone): inside [psi(1/20), psi(1/10)], and not much wider;
    the plain formula on the same ball is ~ 2000 times wider."""
    box = arb(1) / 20 + arb(0).union(arb(1) / 20)
    v = log1p_remainder(2, box)
    with mpmath.workdps(40):
        a, b = _psi(2, mpmath.mpf(1) / 20), _psi(2, mpmath.mpf(1) / 10)
    assert v.lower() <= a and b <= v.upper() and v.rad() < 1.01 * float(b - a) / 2
    plain = ((1 + box).log() - box) / box**2
    assert plain.rad() > 100 * v.rad()


def test_compiled_form_of_a_cancelling_power():
    """(1 + 1/n)^(n^2) e^(-n) = e^(psi_2(1/n)) on the box [10, 20]: the compiled remainder form
    encloses it tightly where the power evaluated as written does not."""
    form = arb_function(Log1pRemainder(2, 1 / N))
    box = arb(15, 5)  # [10, 20]
    v = form(box).exp()
    with mpmath.workdps(30):
        lo = mpmath.exp(_psi(2, mpmath.mpf(1) / 10))
        hi = mpmath.exp(_psi(2, mpmath.mpf(1) / 20))
        assert v.lower() <= (1 + mpmath.mpf(1) / 20) ** 400 * mpmath.exp(-20)
        assert (1 + mpmath.mpf(1) / 10) ** 100 * mpmath.exp(-10) <= v.upper()
    assert float(v.upper() - v.lower()) < 1.01 * float(lo - hi)  # psi_2 increases in t = 1/n


def test_a_ball_coefficient_of_the_input_is_kept():
    """A Taylor input whose first-order coefficient is a ball around 0 (not exactly 0) is
    composed, not dropped: the output's first coefficient is at least psi' times that ball."""
    t = arb(1) / 8
    s = log1p_remainder(2, arb_series([t, arb(0, 2.0**-30)], prec=3)).coeffs()
    with mpmath.workdps(40):
        d1 = abs(mpmath.diff(lambda u: _psi(2, u), mpmath.mpf(1) / 8))
    assert s[1].contains(arb(0)) and s[1].rad() >= 0.99 * float(d1) * 2.0**-30


#: (term, start, eps list): powers (1 + r)^E whose growth cancels against exp(...)
CANCELLING = [
    ("(1+1/n)**(n**2)*exp(-n)/n**2", 1),
    ("(1-1/n)**(n**2)*exp(n)/n**2", 2),
    ("(1+1/n)**(n**2)/(exp(n)*n**(3/2))", 1),
    ("(1+1/n)**(n**2+n)*exp(-n)/n**3", 1),  # n log(1 + 1/n) as psi_1(1/n) as well
]


def _log1p_term(text):
    """The same terms for mpmath, the power written exp(E log1p(r)) (as typed, (1 + 1/n)
    rounds to 1 where n passes the working precision)."""
    L = mpmath.log1p
    return {
        CANCELLING[0][0]: lambda n: mpmath.exp(n**2 * L(1 / n) - n) / n**2,
        CANCELLING[1][0]: lambda n: mpmath.exp(n**2 * L(-1 / n) + n) / n**2,
        CANCELLING[2][0]: lambda n: mpmath.exp(n**2 * L(1 / n) - n) / n ** mpmath.mpf(1.5),
        CANCELLING[3][0]: lambda n: mpmath.exp((n**2 + n) * L(1 / n) - n) / n**3,
    }[text]


@pytest.mark.parametrize("text, start", CANCELLING)
def test_cancelling_powers_b_and_trf_against_euler_maclaurin(text, start, capsys):
    """B against Euler-Maclaurin at N = 1000 at 150 digits (terms below N summed, the
    integral by mpmath.quad, corrections to f^(7); the next term is below 1e-34 of B), and
    each exact TRF j by the direct partial sums: R(start + j) < eps B <= R(start + j - 1).
    (mpmath.nsum is off by 6e-3 on the third: its tail decays like n^(-1/2).)"""
    import json

    from theory.trf.cli import main

    argv = ["--rpe", text, "--start", str(start), "--json", "--time-limit", "60"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    g = _log1p_term(text)
    with mpmath.workdps(150):
        M = 1000
        head = mpmath.fsum(g(mpmath.mpf(k)) for k in range(start, M))
        integral = mpmath.quad(g, [M, 2 * M, 8 * M, 64 * M, mpmath.inf])
        d = [mpmath.diff(g, M, k) for k in (1, 3, 5, 7)]
        B = head + integral + g(mpmath.mpf(M)) / 2 - d[0] / 12 + d[1] / 720
        B += -d[2] / 30240 + d[3] / 1209600
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        slack = mpmath.mpf(10) ** -33 * B
        assert lo - slack <= B <= hi + slack and hi - lo < mpmath.mpf(10) ** -15 * B
        for eps, t in zip((0.1, 0.01, 0.001), out["trf"]):
            if not t["exact"] or t["value"] > 5000:
                continue
            j = t["value"]
            part = mpmath.fsum(g(mpmath.mpf(k)) for k in range(start, start + j - 1))
            R_before, R_at = B - part, B - part - g(mpmath.mpf(start + j - 1))
            assert R_at < mpmath.mpf(eps) * B <= R_before, (t, R_at, R_before)
