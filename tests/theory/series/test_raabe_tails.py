"""Certified sums of terms whose ratio tends to 1 (theory.series.raabe_tails): Raabe/Gauss
regime, b_n ~ C n^-h with h > 1.

Every enclosure is checked against a reference computed here by another route (a closed
form, Gauss's 2F1(a, b; c; 1), Watson's 3F2, mpmath's hypergeometric series, a Mellin
integral), and must be narrow enough to reject a neighbour 1e-20 away; divergent neighbours
(h <= 1) must get no enclosure at all, and a wrong telescoper must not produce a wrong one."""

import time

import mpmath
import pytest
import sympy as sp
from flint import arb
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from theory.series import raabe_tails
from theory.series.arb_eval import NotCertified
from theory.series.convergence import decide_in_process
from theory.series.expressions import N
from theory.series.expressions import parse_expression as P
from theory.series.raabe_tails import RaabeTail, power_law
from theory.series.sums import series_sum_core
from theory.series.trf_search import analyse_series

Q = mpmath.mpf


def _gauss(a, b, c):
    """Gauss: 2F1(a, b; c; 1) = Gamma(c) Gamma(c-a-b)/(Gamma(c-a) Gamma(c-b)), Re(c-a-b) > 0."""
    g = mpmath.gamma
    return g(c) * g(c - a - b) / (g(c - a) * g(c - b))


def _mellin_three_quarters():
    """sum_(n>=1) (1/2)_n/n! n^(-3/4) = (1/Gamma(3/4)) int_0^oo t^(-1/4) ((1-e^-t)^(-1/2) - 1) dt
    (n^-s = int t^(s-1) e^(-nt) dt / Gamma(s), sum (1/2)_n/n! x^n = (1-x)^(-1/2)); with
    t = v^4 the integrand is smooth at 0."""

    def g(v):
        return 4 * v**2 * ((-mpmath.expm1(-(v**4))) ** (-Q(1) / 2) - 1)

    return mpmath.quad(g, [0, 0.5, 1, 2, mpmath.inf]) / mpmath.gamma(Q(3) / 4)


CASES = [
    # sum (1/2)_n/(n! n) = psi(1) - psi(1/2) = 2 ln 2 (int_0^1 ((1-x)^(-1/2) - 1)/x dx)
    ("binomial(2*n, n)/(4**n*n)", 1, lambda: 2 * mpmath.log(2)),
    ("gamma(n + 1/2)/(gamma(n + 1)*n)", 1, lambda: 2 * mpmath.sqrt(mpmath.pi) * mpmath.log(2)),
    ("Product((2*k - 1)/(2*k), (k, 1, n))/n", 1, lambda: 2 * mpmath.log(2)),
    # sum 4^n/(n^2 binom(2n, n)) = 2 arcsin(1)^2 = pi^2/2 (sum (2x)^(2n)/(n^2 C(2n,n)) = 2 asin(x)^2)
    ("factorial(n)**2*4**n/(factorial(2*n)*n**2)", 1, lambda: mpmath.pi**2 / 2),
    # mpmath's 4F3 at z = 1 (its own series acceleration): (1/4) 4F3(3/2,3/2,1,1; 2,2,2; 1)
    (
        "binomial(2*n, n)**2/(16**n*n)",
        1,
        lambda: mpmath.hyper([1.5, 1.5, 1, 1], [2, 2, 2], 1) / 4,
    ),
    # Watson / Ramanujan: 3F2(1/2, 1/2, 1/2; 1, 1; 1) = pi/Gamma(3/4)^4, minus the n = 0 term
    ("Product(1 - 1/(2*k), (k, 1, n))**3", 1, lambda: mpmath.pi / mpmath.gamma(Q(3) / 4) ** 4 - 1),
    # Gauss: Gamma(1/2) Gamma(1/3)/Gamma(2) * 2F1(1/2, 1/3; 2; 1)
    (
        "gamma(n + 1/2)*gamma(n + 1/3)/(gamma(n + 2)*factorial(n))",
        0,
        lambda: mpmath.gamma(0.5) * mpmath.gamma(Q(1) / 3) * _gauss(Q(1) / 2, Q(1) / 3, Q(2)),
    ),
    # h = 1.1 (tail ~ n^-0.1 carries most of B): pi * 2F1(1/2, 1/2; 11/10; 1)/Gamma(11/10)
    (
        "gamma(n + 1/2)**2/(gamma(n + 11/10)*factorial(n))",
        0,
        lambda: mpmath.pi * _gauss(Q(1) / 2, Q(1) / 2, Q(11) / 10) / mpmath.gamma(Q(11) / 10),
    ),
    # h = 1.001: pi * 2F1(1/2, 1/2; 1001/1000; 1)/Gamma(1001/1000), B ~ 1000 is nearly all tail
    (
        "gamma(n + 1/2)**2/(gamma(n + 1001/1000)*factorial(n))",
        0,
        lambda: (
            mpmath.pi * _gauss(Q(1) / 2, Q(1) / 2, Q(1001) / 1000) / mpmath.gamma(Q(1001) / 1000)
        ),
    ),
    # 1/27 is not exact in binary: (1/3)(2/3) 4F3(1, 1, 4/3, 5/3; 2, 2, 2; 1) (mpmath's series)
    (
        "factorial(3*n)/(factorial(n)**3*27**n*n)",
        1,
        lambda: mpmath.hyper([1, 1, Q(4) / 3, Q(5) / 3], [2, 2, 2], 1) * 2 / 9,
    ),
    # signed head, then one sign: sum_(n>=0) (a)_n/n! = 2F1(a, 1; 1; 1) = 0 for a = -5/2
    ("gamma(n - 5/2)/gamma(n + 1)", 1, lambda: -mpmath.gamma(Q(-5) / 2)),
    # a ratio that is not rational (n^(3/4)): the Mellin integral above
    ("factorial(2*n)/(factorial(n)**2*4**n*n**(3/4))", 1, _mellin_three_quarters),
    # a later start: 2 ln 2 minus the first six terms
    (
        "binomial(2*n, n)/(4**n*n)",
        7,
        lambda: (
            2 * mpmath.log(2) - sum(mpmath.binomial(2 * k, k) / (4**k * k) for k in range(1, 7))
        ),
    ),
]


@pytest.mark.parametrize("text, start, ref", CASES, ids=[f"{c[0]}@{c[1]}" for c in CASES])
def test_certified_sum_contains_the_reference(text, start, ref):
    with mpmath.workdps(70):  # the reference to 70 digits: the enclosures are ~50 wide
        value = ref()
        S = series_sum_core(P(text), start, None, estimate=False)[0]
        assert S.certified and "telescoper" in S.certificate
        tol = Q(10) ** -65 * abs(value)  # the reference's own rounding
        assert S.lo - tol <= value <= S.hi + tol
        assert S.hi - S.lo < Q(10) ** -25 * abs(value)  # a neighbour 1e-20 off is rejected


def _brute_trf(text, start, eps, B):
    """First j with sum of the first j terms > B (1 - eps): exact rationals via the ratio."""
    b = P(text)
    ratio = sp.lambdify(N, sp.gammasimp(b.subs(N, N + 1) / b), modules="mpmath")
    with mpmath.workdps(50):
        t, s, target = mpmath.mpf(sp.N(b.subs(N, start), 60)), Q(0), B * (1 - Q(repr(eps)))
        for j in range(1, 10**5):
            s += t
            if s > target:
                return j
            t *= ratio(Q(start + j - 1))
    return None


@pytest.mark.parametrize("text", ["binomial(2*n, n)/(4**n*n)", "binomial(2*n, n)**2/(16**n*n)"])
def test_exact_trfs_equal_the_brute_force_crossing(text):
    S, table, err, asym = analyse_series(P(text), [0.1, 0.01], 1, budget=60)
    assert err is None and S.certified
    for t in table:
        assert t.exact
        assert t.value == _brute_trf(text, 1, t.eps, S.value)
    # the asymptotic order from Gamma(n + a)/Gamma(n) ~ n^a predicts the exact TRF(0.01)
    predicted = float(asym.evaluate(0.01))
    assert abs(predicted / table[1].value - 1) < 0.05


@pytest.mark.parametrize(
    "text",
    [
        "binomial(2*n, n)/4**n",  # ~ 1/sqrt(pi n): h = 1/2, divergent
        "factorial(n)**2*4**n/(factorial(2*n)*n**(3/2))",  # ~ sqrt(pi)/n: h = 1 (Gauss), divergent
        "gamma(n)/gamma(n + 1)",  # = 1/n
        "binomial(2*n, n)**2/16**n",  # ~ 1/(pi n): h = 1
    ],
)
def test_divergent_neighbours_get_no_enclosure_and_diverge(text):
    with pytest.raises(NotCertified, match="Raabe exponent"):
        RaabeTail(P(text), 1)
    t0 = time.process_time()
    d = decide_in_process(P(text), 1)
    # Stirling's scale (the quotient by n^e_0 tends to a positive constant) comes first
    assert d.converges is False, d.certificate
    assert d.test in ("log-scale rule", "Raabe test", "Gauss test"), d.certificate
    assert time.process_time() - t0 < 3.0  # CPU seconds: a symbolic test, not a search


def test_a_wrong_telescoper_cannot_give_a_wrong_enclosure(monkeypatch):
    """c_0 off by 1e-12 (a plausible slip, e.g. 1/h instead of 1/(h-1) to a few digits):
    the Taylor model of eps_n sees the defect; the enclosure widens or fails, never misses."""
    good = raabe_tails._solve_telescoper

    def planted(rs, order):
        c = good(rs, order)
        return [arb((c[0] * (1 + arb(10) ** -12)).mid())] + c[1:]

    def wrong_zero(rs, order):  # 1/h instead of 1/(h-1)
        c = good(rs, order)
        return [arb((c[0] * (-rs[1] - 1) / -rs[1]).mid())] + c[1:]

    with mpmath.workdps(40):
        ref = 2 * mpmath.log(2)
    for bug in (planted, wrong_zero):
        monkeypatch.setattr(raabe_tails, "_solve_telescoper", bug)
        try:
            t = RaabeTail(P("binomial(2*n, n)/(4**n*n)"), 1)
        except NotCertified:
            continue
        lo, hi = (mpmath.mpf(x) for x in (t.tail(1).lower().str(50), t.tail(1).upper().str(50)))
        assert lo <= ref <= hi


def test_eta_bounds_the_defect_at_sampled_n():
    """|eps_n| = |phi(n) - r(n) phi(n+1) - 1| <= eta for n >= M, recomputed in mpmath at 80
    digits from the same coefficients (a check of the Taylor model, not of the algebra)."""
    t = RaabeTail(P("gamma(n + 1/2)**2/(gamma(n + 11/10)*factorial(n))"), 0)
    ratio = (N + sp.Rational(1, 2)) ** 2 / ((N + sp.Rational(11, 10)) * (N + 1))
    with mpmath.workdps(80):
        c = [mpmath.mpf(x.mid().str(70, radius=False)) for x in t.c]
        r = sp.lambdify(N, ratio, modules="mpmath")

        def phi(n):
            return n * sum(ck * mpmath.mpf(n) ** -k for k, ck in enumerate(c))

        eta = mpmath.mpf(t.eta.str(30, radius=False))
        for n in (t.M, t.M + 1, 2 * t.M, 10 * t.M, 10**6):
            eps = phi(n) - r(mpmath.mpf(n)) * phi(n + 1) - 1
            assert abs(eps) <= eta * (1 + mpmath.mpf(10) ** -10), n


def test_power_law_constant_matches_the_terms():
    """C and h of b_n ~ C n^-h (Gamma(n + a)/Gamma(n) ~ n^a) against b_n n^h at n = 10^8
    (mpmath, relative error O(1/n)); a neighbouring exponent is off by a factor 10^(8/4)."""
    for text in (
        "binomial(2*n, n)/(4**n*n)",
        "factorial(2*n)/(factorial(n)**2*4**n*n**(3/4))",
        "Product(1 - 1/(2*k), (k, 1, n))**3",
    ):
        h, C = power_law(P(text))
        f = sp.lambdify(N, P(text), modules="mpmath")
        with mpmath.workdps(30):
            v = f(Q(10**8)) * Q(10**8) ** mpmath.mpf(sp.N(h, 30))
        assert abs(v / mpmath.mpf(sp.N(C, 30)) - 1) < 1e-6, text


# ------------------------------------------------------------------ property: 2F1 at z = 1

PARAMS = st.fractions(min_value=-3, max_value=3, max_denominator=7)


@settings(
    max_examples=16,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(a=PARAMS, b=PARAMS, gap=st.fractions(min_value="1/4", max_value=3, max_denominator=5))
def test_gauss_2f1_terms_contain_the_closed_form(a, b, gap):
    """Gamma(n+a) Gamma(n+b)/(Gamma(n+c) n!) from n = 0 with c = a + b + gap: the certified B
    contains Gamma(a) Gamma(b)/Gamma(c) times Gauss's 2F1(a, b; c; 1) =
    Gamma(c) Gamma(c-a-b)/(Gamma(c-a) Gamma(c-b))."""
    c = a + b + gap
    if any(x <= 0 and x.denominator == 1 for x in (a, b, c, c - a, c - b)):
        return  # a pole of a term or of the closed form
    A, Bq, Cq = (sp.Rational(x.numerator, x.denominator) for x in (a, b, c))
    expr = sp.gamma(N + A) * sp.gamma(N + Bq) / (sp.gamma(N + Cq) * sp.factorial(N))
    with mpmath.workdps(80):  # the enclosures are ~50 digits wide: the reference to 80
        am, bm, cm = (mpmath.mpf(x.numerator) / x.denominator for x in (a, b, c))
        ref = mpmath.gamma(am) * mpmath.gamma(bm) / mpmath.gamma(cm) * _gauss(am, bm, cm)
        S = series_sum_core(expr, 0, None, estimate=False)[0]
        assert S.certified and "telescoper" in S.certificate, expr
        tol = Q(10) ** -75 * abs(ref)
        assert S.lo - tol <= ref <= S.hi + tol, (expr, S.lo, S.hi, ref)
        assert S.hi - S.lo <= mpmath.mpf(10) ** -25 * max(1, abs(ref)), expr


def test_gauss_closed_form_cross_checks_the_telescoper(monkeypatch):
    """A 2F1 term at z = 1: the telescoper's tail and Gauss's closed form (ball arithmetic)
    are intersected; a closed form off by 2^-80 (a slip in Gamma(c-a-b), say) is caught as a
    disagreement instead of being intersected into a wrong enclosure."""
    text = "gamma(n + 1/2)*gamma(n + 1/3)/(gamma(n + 2)*factorial(n))"
    t = RaabeTail(P(text), 0)
    assert "Gauss" in t.certificate
    good = raabe_tails.gauss_tail

    def planted(*args):
        m0, G = good(*args)
        return m0, G * (1 + arb(2) ** -80)

    monkeypatch.setattr(raabe_tails, "gauss_tail", planted)
    with pytest.raises(NotCertified, match="disagree"):
        RaabeTail(P(text), 0)


def test_printed_lower_bound_is_below_the_partial_sum(capsys):
    """A log factor in the ratio (no telescoper): the command prints [S_M, unknown]; the
    printed S_M, rounded outwards to 20 digits, must not exceed the partial sum (mpmath, 40
    digits, by the term ratio) -- a 53-bit rounding to nearest printed a value 3e-17 above."""
    import json
    import re

    from theory.trf.cli import main

    text = "binomial(2*n, n)/(4**n*n*log(n + 1)**2)"
    assert main(["--rpe", text, "--json", "--eps", "0.1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert not out["certified"] and out["sum_lo"] is not None
    M = int(re.search(r"first (\d+) terms", out["sum_status"]).group(1))
    with mpmath.workdps(40):
        t, s = Q(1) / (2 * mpmath.log(2) ** 2), Q(0)  # b_1
        for n in range(1, M + 1):
            s += t
            t *= (
                Q((2 * n + 1) * n)
                / (2 * (n + 1) ** 2)
                * (mpmath.log(n + 1) / mpmath.log(n + 2)) ** 2
            )
        lo = mpmath.mpf(out["sum_lo"])
        assert lo <= s and s - lo < Q(10) ** -18 * s


@pytest.mark.parametrize(
    "text",
    [
        "binomial(2*n, n)/(4**n*n)",
        "Product((2*k - 1)/(2*k), (k, 1, n))/n",
        "factorial(2*n)/(factorial(n)**2*4**n*n**(3/4))",
    ],
)
def test_the_command_certifies_within_a_fifth_of_the_default_limit(text, capsys):
    """--time-limit 2 (CPU seconds in the tests, a fifth of the default 10 s): the verdict,
    the certified B and exact TRFs, not a lower bound."""
    import json

    from theory.trf.cli import main

    assert main(["--rpe", text, "--json", "--time-limit", "2"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["converges"] is True and out["certified"], out.get("sum_error")
    assert all(t["exact"] for t in out["trf"]) and out["asymptotic"]


def test_heavy_cancellation_stays_enclosed():
    """sum_(n>=1) Gamma(n - 201/2)/n! = -Gamma(-201/2) ~ 3.4e-159 (2F1(a, 1; 1; 1) = 0 with
    the n = 0 term removed), while single terms reach 1e-157 with alternating signs: the
    enclosure must hold the value and still give it to 10 digits."""
    t = RaabeTail(P("gamma(n - 201/2)/gamma(n + 1)"), 1)
    with mpmath.workdps(60):
        ref = -mpmath.gamma(Q(-201) / 2)
        lo, hi = (
            mpmath.mpf(x.str(60, radius=False)) for x in (t.tail(1).lower(), t.tail(1).upper())
        )
        assert lo <= ref <= hi and hi - lo < Q(10) ** -10 * ref
