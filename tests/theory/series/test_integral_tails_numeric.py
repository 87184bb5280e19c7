"""B and TRF of slowly converging series whose tail integral has no antiderivative
(theory.series.quadrature_tail, theory.series.integral_test), against mpmath.

References: :func:`reference` below at 40 digits (mpmath only, none of the code under test):
the terms n < 3000 summed directly, the tail by Euler-Maclaurin at N = 3000,
int_N^oo f + f(N)/2 - f'(N)/12 + f'''(N)/720 - f^(5)(N)/30240, with int_N^oo f =
int_(log N)^oo f(e^u) e^u du by mpmath.quad (the integrand decays at least exponentially
in u for these terms), or the closed form 10/log(N)^(1/10) for 1/(n log(n)^1.1); log10
TRF is the root t/ln(10) of I(e^t) + f(e^t)/2 = eps B.  Recomputed at N = 6000 the B
agree to 33 digits and the roots to 24.  TRF itself is the first j with
R(start + j) < eps B, so an exact TRF j must satisfy start + j - 1 < x* < start + j at the
root x*."""

import signal
import time

import mpmath
import pytest
import sympy as sp
from flint import arb, ctx

from theory.core.budget import StepTimeout
from theory.series.arb_eval import NotCertified
from theory.series.certified_trf import wide_analysis
from theory.series.enclosure import arb_bounds
from theory.series.expressions import N
from theory.series.expressions import parse_expression as P
from theory.series.quadrature_tail import QuadratureTail, acb_function, rigorous_integral
from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]
# (term, start, B, log10 of the root x* for eps = 0.1, 0.01, 0.001): reference() at 40 digits
CASES = [
    (
        "exp(-log(n)**(101/100))",
        1,
        "27.9696821727907838868493737772660559",
        ["20.9747464170801350669347", "38.9061489414437348425317", "55.6117657850449991095816"],
    ),
    (
        "exp(-log(n)**(105/100))",
        1,
        "8.72691460405428123811826024480097148",
        ["5.47500775176513827686235", "9.93688135387687238632809", "13.9848764245243932606416"],
    ),
    (
        "exp(-log(n)*log(log(n))**(3/2))",
        3,
        "4.80640353860639767159597195938438598",
        ["1.22050965414031423038335", "1.66534345261186660229932", "2.02945325570051421399286"],
    ),
    (  # exp(-sqrt(log(n))*log(n)**0.6) as typed; sympy writes it exp(-log(n)**(11/10))
        "exp(-sqrt(log(n))*log(n)**(3/5))",
        1,
        "5.64191021034134236259419949478325893",
        ["3.09975911291468022056399", "5.5364365393639545318111", "7.70146984271669898474003"],
    ),
    (  # closed form I(x) = 10/log(x)^(1/10): log10 x* = (10/(eps B))^10/ln(10)
        "1/(n*log(n)**(11/10))",
        2,
        "10.82119596375167087079815596851968557846",
        [
            "1972566679.331168901783889911290978733039",
            "19725666793311689017.83889911290978733039",
            "197256667933116890178388991129.0978733039",
        ],
    ),
    # h convex, so the far part is bounded through k(s) = h(e^s) + s (concave); None: the
    # root x* is below 3000, where the exact TRF is checked by direct summation instead
    (
        "exp(-log(n)**(7/10))/n",
        1,
        "1.94825065085022607900926199198045579",
        [None, "4.40818456521967882329233", "7.74488614791200343654943"],
    ),
    (
        "exp(-log(n)/log(log(n)))/n",
        3,
        "0.383908369858880835438919733830805714",
        ["5.02071009307619532543669", "9.5455561366264498578833", "14.4160874032280340860729"],
    ),
    (
        "exp(-log(n + 1)**(3/5))/(n + 1)",
        1,
        "1.20306765884433723660296684630854953",
        ["3.75500601762875701142155", "9.20945318448668636723997", "16.1387074449281845894728"],
    ),
    # h convex in u and in s = log u, u h' -> -3 and -2: the far part through u^q e^h
    # decreasing, q = 2 and 3/2 (theory.series.quadrature_tail.power_start)
    ("1/(n*log(n)**3*log(log(n)))", 3, "3.25549569189506075336545466858420318", [None] * 3),
    (
        "1/(n*log(n)**2*sqrt(log(log(n))))",
        3,
        "1.77306040836194297596175206605672731",
        [None, "11.9784727673111002846137", "97.459205485834713232384"],
    ),
    (
        "exp(-sqrt(log(n))*log(log(n)))/n",
        3,
        "1.12946695427479335137681324858254333",
        [None, None, "4.29471495085863422845702"],
    ),
]


def _ends(v: arb) -> tuple:
    """The exact ends of a ball (taken at 192 bits, not the default 53)."""
    old = ctx.prec
    ctx.prec = 192
    try:
        return arb_bounds(v)
    finally:
        ctx.prec = old


def reference(text: str, start: int, N: int = 3000, dps: int = 40):
    """B by direct summation and Euler-Maclaurin at N, int_N^oo f by mpmath.quad in u."""
    n = sp.Symbol("n", positive=True)
    f = sp.lambdify(n, sp.sympify(text, locals={"n": n}), modules="mpmath")
    with mpmath.workdps(dps):

        def g(u):
            return f(mpmath.exp(u)) * mpmath.exp(u)

        t = mpmath.log(N)
        integral = mpmath.quad(g, [t] + [t * 2**k for k in range(1, 12)] + [mpmath.inf])
        d1, d3, d5 = (mpmath.diff(f, N, k) for k in (1, 3, 5))
        head = mpmath.fsum(f(mpmath.mpf(k)) for k in range(start, N))
        return head + integral + f(mpmath.mpf(N)) / 2 - d1 / 12 + d3 / 720 - d5 / 30240


def _tail_at(f, m):
    """R(m) = sum_(n >= m) f(n) at a large integer m by Euler-Maclaurin at 60 digits,
    int_m^oo f in u = log x with nodes from log m to 100 log m (for exp(-log(x)^(3/5))/x
    the integral agrees with Gamma(5/3, log(m)^(3/5))/(3/5) to 1e-60 at m = 1.4e16)."""
    with mpmath.workdps(60):
        m = mpmath.mpf(m)
        L = mpmath.log(m)
        g = lambda u: f(mpmath.exp(u)) * mpmath.exp(u)  # noqa: E731
        integral = mpmath.quad(g, [L, L + 1, L + 10, 2 * L, 10 * L, 100 * L, mpmath.inf])
        d1, d3 = (mpmath.diff(f, m, k) for k in (1, 3))
        return integral + f(m) / 2 - d1 / 12 + d3 / 720


def test_the_reference_reproduces_its_value():
    """The reference method itself, rerun on one case (the others took it at N = 3000)."""
    with mpmath.workdps(40):
        B = reference("exp(-log(n)*log(log(n))**(3/2))", 3, N=2000)
        assert abs(B - mpmath.mpf(CASES[2][2])) < mpmath.mpf(10) ** -28


@pytest.fixture(scope="module")
def analyses():
    return {c[0]: wide_analysis(P(c[0]), c[1], EPS, integral_only=True) for c in CASES}


@pytest.mark.parametrize("text, start, ref, roots", CASES)
def test_b_is_enclosed_to_many_digits(analyses, text, start, ref, roots):
    w = analyses[text]
    with mpmath.workdps(50):
        B = mpmath.mpf(ref)
        assert w.sum.lo <= B <= w.sum.hi
        assert w.sum.hi - w.sum.lo < mpmath.mpf(10) ** -15 * B  # at least 15 digits


@pytest.mark.parametrize("text, start, ref, roots", CASES)
def test_trf_brackets_hold_the_reference(analyses, text, start, ref, roots):
    """Each TRF around the root x*; where x* < 3000 (None), an exact TRF j is checked by the
    direct sum: R(start + j) < eps B <= R(start + j - 1), R(m) = B - sum_(start <= n < m)."""
    f = sp.lambdify(N, P(text), modules="mpmath")  # the whitelist parser, as the CLI reads it
    for eps, t, root in zip(EPS, analyses[text].trf, roots):
        with mpmath.workdps(50):
            if root is None:
                assert t["exact"], t
                B, j = mpmath.mpf(ref), t["value"]
                head = mpmath.fsum(f(mpmath.mpf(k)) for k in range(start, start + j - 1))
                R_before, R_at = B - head, B - head - f(mpmath.mpf(start + j - 1))
                assert R_at < mpmath.mpf(eps) * B <= R_before, (t, R_at, R_before)
                continue
            r = mpmath.mpf(root)
            if t["exact"] and r > 15:  # the root's 24 digits do not place x* among integers
                j = t["value"]
                target = mpmath.mpf(repr(eps)) * mpmath.mpf(ref)  # the decimal eps typed
                assert _tail_at(f, start + j) < target <= _tail_at(f, start + j - 1), t
            elif t["exact"]:  # start + j - 1 < x* < start + j
                x = mpmath.power(10, r)
                assert start + t["value"] - 1 < x < start + t["value"], (t, x)
            else:
                lo, hi = t["log10_bracket"]
                # 1e-6 wide, or a few float steps where log10 TRF is itself huge (2e29)
                assert lo <= r <= hi and hi - lo < max(1e-6, 1e-14 * float(r)), (t, r)


def test_far_bound_is_an_upper_bound_of_the_far_integral():
    """0 <= int_U^oo e^h <= e^h(U)/|h'(U)| (log-concavity), checked against mpmath at
    U = 50, 200, 1000 for h(u) = u - u^1.01, where the far part is a large share."""
    q = QuadratureTail(P("exp(-log(n)**(101/100))"), 3)
    for U in (50, 200, 1000):
        far = q._far(arb(U))
        with mpmath.workdps(30):
            exact = mpmath.quad(lambda u: mpmath.exp(u - u ** mpmath.mpf("1.01")), [U, mpmath.inf])
            assert exact <= _ends(far)[1] <= 40 * exact


def test_quadrature_tail_against_mpmath():
    """int_t^oo e^(u - u^1.01) du inside the enclosures (mpmath.quad at 70 digits; at 45 it
    is off in the 33rd digit), also where the far bound is reached after local steps
    (t = 10^5: e^h ~ 10^-5300; the reference there is Gauss-Legendre on [t + k, t + k + 1],
    k < 600, at 40 digits: e^h falls by e per 7.5 units, so the rest is below 1e-34 of it;
    tanh-sinh over longer pieces is off from the 12th digit, and the Gauss-Legendre sums
    at 40 and 50 digits differ in the 27th, so there the reference is taken to 1e-24)."""
    q = QuadratureTail(P("exp(-log(n)**(101/100))"), 3)
    for t in (3, 40, 1000, 100000):
        v = q.integral(arb(t))
        with mpmath.workdps(70 if t < 10**5 else 40):

            def g(u):
                return mpmath.exp(u - u ** mpmath.mpf("1.01"))

            if t < 10**5:
                ref = mpmath.quad(g, [t, 1.25 * t, 2 * t, mpmath.inf])
            else:
                ref = mpmath.fsum(
                    mpmath.quad(g, [t + k, t + k + 1], method="gauss-legendre") for k in range(600)
                )
            lo, hi = _ends(v)
            slack = 0 if t < 10**5 else mpmath.mpf(10) ** -24 * ref  # the reference's error
            assert lo - slack <= ref <= hi + slack and hi - lo < mpmath.mpf(10) ** -25 * ref


@pytest.mark.parametrize(
    "text, why",
    [
        # h = -1.1 log u: convex, and u^q e^h decreases only for q <= 1.1, too close to 1
        ("1/(n*log(n)**(11/10))", "nor below a power"),
        # h = -log(log(u))^2 - log(u) - log(log(u)), k(s) = -log(s)^2 - log(s): convex in u and s
        ("exp(-log(log(log(n)))**2)/(n*log(n)*log(log(n)))", "not proved concave"),
        ("exp(-log(n)**(101/100))*(2 + cos(log(n)))", "not proved concave"),
    ],
)
def test_refusals_are_named(text, why):
    with pytest.raises(NotCertified, match=why):
        QuadratureTail(P(text), 3)


def test_interrupts_inside_the_quadrature_are_not_swallowed():
    """python-flint turns an exception raised in the integrand into SystemError for
    KeyboardInterrupt; Ctrl-C (here a timer's signal) and a step's time-out come out as
    themselves."""

    calls = []

    def slow(x, analytic):  # the ends' two values, then waits inside acb.integral
        calls.append(x)
        while len(calls) > 2:
            time.sleep(0.01)
        return x.exp()

    def stop(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, 0.05)
    try:
        with pytest.raises(KeyboardInterrupt):
            rigorous_integral(slow, arb(1), arb(2))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert len(calls) > 2  # interrupted inside the quadrature
    calls.clear()

    def timeout(x, analytic):
        calls.append(x)
        if len(calls) > 2:
            raise StepTimeout("more than 1 s of CPU time")
        return x.exp()

    with pytest.raises(StepTimeout):
        rigorous_integral(timeout, arb(1), arb(2))
    assert rigorous_integral(lambda x, a: x.exp(), arb(0), arb(1)).overlaps(arb(1).exp() - 1)
    # int_1^4 sqrt(u) du = 14/3: with the analytic flag ignored at sqrt's branch cut,
    # acb.integral returns 4.6694... (python-flint's documentation)
    v = rigorous_integral(acb_function(sp.sqrt(N)), arb(1), arb(4))
    assert v.overlaps(arb(14) / 3) and v.rad() < 1e-10  # 53 bits here


def test_cli_prints_b_and_trf_brackets(capsys):
    argv = ["--rpe", "exp(-log(n)**1.01)", "--time-limit", "60"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "2.7969682172790783886e1, 2.7969682172790783888e1" in text
    assert "10^[2.09747464170e1, 2.09747464171e1]" in text


def test_far_bound_through_log_u_is_an_upper_bound():
    """U e^h(U)/|U h'(U) + 1| >= int_U^oo e^h for h = -u^0.7 (k(s) = s - e^(0.7 s) concave),
    against mpmath at U = 10, 100, 1000: the bound is within a factor 2 once the far part
    is small."""
    q = QuadratureTail(P("exp(-log(n)**(7/10))/n"), 3)
    assert q.level == 2
    for U in (10, 100, 1000):
        far = q._far(arb(U))
        with mpmath.workdps(30):
            exact = mpmath.quad(
                lambda u: mpmath.exp(-(u ** (mpmath.mpf(7) / 10))), [U, 2 * U, 8 * U, mpmath.inf]
            )
            assert exact <= _ends(far)[1] <= (8 if U == 10 else 2) * exact
