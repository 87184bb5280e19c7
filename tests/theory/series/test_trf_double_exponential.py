"""TRF beyond x = e^(1e300): the certified bracket of log10 log10 TRF from the search in
s = log log x (theory.series.certified_trf, IntegralTail.log_bounds at an arb t = e^s).

References are independent of the code under test, mpmath at 50 digits from the closed forms:

* f(x) = 1/(x log(x)^p): I(a) = int_a^oo f = log(a)^(1-p)/(p-1);
  f(x) = 1/(x log(x) log(log(x))^p): I(a) = log(log(a))^(1-p)/(p-1).
* Integral test (f > 0 decreasing): I(a) <= R(a) <= I(a) + f(a).  So R(a) < eps B fails while
  I(a) >= eps B (TRF above the root s1 of I = eps B in s = log log a) and holds once
  I(a) + f(a) < eps B (TRF below the root s2 >= s1 of I + f = eps B); TRF = ceil(a) - start
  differs from a by less than start + 1, far below 1e-40 in log log a at these sizes.
* B: the terms summed directly for n < 2000, plus the Euler-Maclaurin tail from n = 2000
  (I + f/2 - f'/12 + f'''/720 - f^(5)/30240, derivatives by mpmath.diff; the next term is
  below 1e-25 of B here), compared with the tool's certified B with tolerance 1e-20.
"""

import json

import mpmath
import pytest
from flint import arb, ctx

from theory.series.certified_trf import loglog10_bounds, wide_analysis
from theory.series.expressions import parse_expression as P
from theory.series.integral_test import IntegralTail
from theory.trf.cli import main

HEAD = 2000


def _exp_upto(s):
    """min(e^s, 10^6): an upper bound of f in s from it stays an upper bound (mpmath's
    exp(-e^s) overflows for s ~ 1e20); the root of I + f_upper = eps B is then >= s2."""
    return mpmath.exp(min(s, mpmath.log(10**6)))


def _closed_form(p: str, double: bool):
    """(f(x), I(x), f and I written in s = log log x) for the two families (module docstring)."""
    q = mpmath.mpf(p)
    if not double:
        f = lambda x: 1 / (x * mpmath.log(x) ** q)  # noqa: E731
        Ix = lambda x: mpmath.log(x) ** (1 - q) / (q - 1)  # noqa: E731
        # x = e^(e^s): I = e^((1-q) s)/(q-1), f = exp(-e^s - q s)
        I_s = lambda s: mpmath.exp((1 - q) * s) / (q - 1)  # noqa: E731
        f_s = lambda s: mpmath.exp(-_exp_upto(s) - q * s)  # noqa: E731
    else:
        f = lambda x: 1 / (x * mpmath.log(x) * mpmath.log(mpmath.log(x)) ** q)  # noqa: E731
        Ix = lambda x: mpmath.log(mpmath.log(x)) ** (1 - q) / (q - 1)  # noqa: E731
        I_s = lambda s: s ** (1 - q) / (q - 1)  # noqa: E731
        f_s = lambda s: mpmath.exp(-_exp_upto(s) - s - q * mpmath.log(s))  # noqa: E731
    return f, Ix, I_s, f_s


def _reference_B(p: str, double: bool, start: int) -> mpmath.mpf:
    f, Ix, _, _ = _closed_form(p, double)
    s = mpmath.fsum(f(mpmath.mpf(n)) for n in range(start, HEAD))
    a = mpmath.mpf(HEAD)
    d = [mpmath.diff(f, a, k) for k in (1, 3, 5)]
    return s + Ix(a) + f(a) / 2 - d[0] / 12 + d[1] / 720 - d[2] / 30240


def _root(h, lo, hi):
    """[lo, hi] around the sign change of h (h(lo) > 0 > h(hi)), by bisection."""
    assert h(lo) > 0 > h(hi)
    for _ in range(400):
        m = (lo + hi) / 2
        lo, hi = (m, hi) if h(m) > 0 else (lo, m)
    return lo, hi


def _reference_loglog10(p: str, double: bool, B, eps: float):
    """[lo, hi] holding log10 log10 TRF(eps) (module docstring), with B's tolerance."""
    _, _, I_s, f_s = _closed_form(p, double)
    e = mpmath.mpf(repr(eps))
    tol = mpmath.mpf(10) ** -20 * B

    def ll10(s):  # log10 log10 x for s = log log x
        return mpmath.log10(mpmath.exp(s) / mpmath.log(10))

    # I decreasing in s: I(s1) = eps (B + tol) is the smallest crossing, I + f = eps (B - tol)
    # the largest
    s1 = _root(lambda s: I_s(s) - e * (B + tol), mpmath.mpf(1), mpmath.mpf(10) ** 40)[0]
    s2 = _root(lambda s: I_s(s) + f_s(s) - e * (B - tol), mpmath.mpf(1), mpmath.mpf(10) ** 40)[1]
    slack = mpmath.mpf(10) ** -40
    return ll10(s1) - slack, ll10(s2) + slack


CASES = [
    # (p, double log, start, eps list); log10 log10 TRF(0.1) = 999.6059399546..., 9999.60593...,
    # 4379320618.885...
    ("1.001", False, 3, [0.1, 0.01, 0.001]),
    ("1.0001", False, 3, [0.1, 0.001]),
    ("1.1", True, 16, [0.1, 0.01]),
]


def _formula(p: str, double: bool) -> str:
    return f"1/(n*log(n)*log(log(n))**{p})" if double else f"1/(n*log(n)**{p})"


@pytest.mark.parametrize("p, double, start, eps", CASES)
def test_loglog10_bracket_holds_the_reference(p, double, start, eps):
    w = wide_analysis(P(_formula(p, double)), start, eps, integral_only=True)
    with mpmath.workdps(50):
        B = _reference_B(p, double, start)
        assert w.sum.lo - B * 1e-20 <= B <= w.sum.hi + B * 1e-20
        for t, e in zip(w.trf, eps):
            lo, hi = t["log10_log10_bracket"]
            r_lo, r_hi = _reference_loglog10(p, double, B, e)
            assert r_hi - r_lo < 1e-17 * r_hi  # the reference is sharper than the bracket
            # the tool's bracket holds the true value, which the reference interval holds
            assert lo <= r_hi and r_lo <= hi, (lo, hi, r_lo, r_hi)
            assert lo < hi and hi - lo < 1e-12 * hi  # narrow
            assert t["log10_log10"] == hi and t["log10"] is None and t["value"] is None


def test_loglog10_bounds_round_outwards():
    """log10 log10 of e^(e^s) +- start, against mpmath at 60 digits (the correction
    log10(1 + start e^(-e^s)) is below 1e-400 here)."""
    for s, start in [(700.0, 3), (2302.5, 16), (1e10, 0), (12345.678, 10**6)]:
        lo, hi = loglog10_bounds(s, s, start)
        with mpmath.workdps(60):
            r = mpmath.log10(mpmath.exp(mpmath.mpf(s)) / mpmath.log(10))
            assert lo < r < hi and hi - r < 1e-12 * abs(r) and r - lo < 1e-12 * abs(r)
    assert loglog10_bounds(None, 700.0, 3)[0] is None


def test_log_bounds_at_an_arb_t():
    """R(ceil(e^t)) at t = e^2302 (a ball): I(x) = 1000/t^(1/1000) = 1000 e^(-2.302)."""
    T = IntegralTail(P("1/(n*log(n)**1.001)"), 3)
    old = ctx.prec  # the default 53 bits, whatever a test before this one left
    ctx.prec = 53
    try:
        lo, hi = T.log_bounds(arb(2302).exp())  # t a 53-bit ball
    finally:
        ctx.prec = old
    with mpmath.workdps(50):
        r = 1000 * mpmath.exp(mpmath.mpf(-2302) / 1000)
        lo, hi = (mpmath.mpf(x.str(45, radius=False)) for x in (lo.lower(), hi.upper()))
        assert lo <= r <= hi and hi - lo < 1e-12 * r


def test_cli_prints_and_json_is_strict(capsys):
    """``python -m theory.trf``: 10^10^[lo, hi] in the table, strict JSON with
    log10_log10_bracket (reference: test_loglog10_bracket_holds_the_reference)."""
    rpe = ["--rpe", "1/(n*log(n)**1.001)", "--start", "3", "--eps", "0.1"]
    with mpmath.workdps(50):
        r_lo, r_hi = _reference_loglog10("1.001", False, _reference_B("1.001", False, 3), 0.1)
    assert main([*rpe, "--time-limit", "60"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "10^10^[" in x)
    lo, hi = (mpmath.mpf(v) for v in line.split("10^10^[")[1].split("]")[0].split(", "))
    assert lo <= r_hi and r_lo <= hi and hi - lo < 1e-9 * hi  # 12 digits printed

    def strict(c):
        raise ValueError(c)

    assert main([*rpe, "--time-limit", "60", "--json"]) == 0
    out = json.loads(capsys.readouterr().out, parse_constant=strict)
    (t,) = out["trf"]
    lo, hi = t["log10_log10_bracket"]
    assert lo <= r_hi and r_lo <= hi and t["value"] is None


@pytest.mark.slow
def test_plot_does_not_break(capsys, tmp_path):
    png = tmp_path / "t.png"
    rpe = ["--rpe", "1/(n*log(n)**1.001)", "--start", "3", "--eps", "0.1", "--plot", str(png)]
    assert main([*rpe, "--time-limit", "60"]) == 0
    assert png.exists()
    data = json.loads((tmp_path / "t.json").read_text())
    assert data["trf_eq22"] == []
