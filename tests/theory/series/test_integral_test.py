"""Certified tails by the integral test (theory.series.integral_test) and the certified B / TRF
brackets built on them (theory.series.certified_trf), for slowly converging series.

References are independent of the code under test: mpmath at 50 digits, the terms summed
directly up to n = 39999 plus the Euler-Maclaurin tail from the closed-form antiderivative
(I(x) + f(x)/2 - f'(x)/12 + f'''(x)/720 - f^(5)(x)/30240, last correction below 1e-31);
TRF from the root in t = log x of I(e^t) + f(e^t)/2 = eps B (mpmath.findroot)."""

import json

import mpmath
import pytest
import sympy as sp
from flint import arb

from theory.series.arb_eval import NotCertified
from theory.series.certified_trf import merge_brackets, trf_bracket, wide_analysis
from theory.series.expressions import N
from theory.series.expressions import parse_expression as P
from theory.series.integral_test import IntegralTail, decreasing_on, increasing_on
from theory.series.quadrature_tail import QuadratureTail
from theory.trf.cli import main

# (term, start, B to 30 digits, {eps: log10 TRF}) -- mpmath references, module docstring
CASES = [
    # B: also OEIS A115563, sum_(n>=2) 1/(n log(n)^2) = 2.1097428012368919744792...
    ("1/(n*log(n)**2)", 2, "2.10974280123689197447925719762", {0.01: "20.585186101767253515"}),
    ("1/(n*log(n)**1.5)", 2, "2.93766363790123177403532753815", {0.1: "20.129832787462332468"}),
    ("exp(-sqrt(log(n)))/n", 1, "2.71671883187598337037995683239", {0.01: "17.153328847873108583"}),
    # the terms of exp(-sqrt(log(n)))/n written as a power of n (read as exp(e log n))
    ("n**(-1 - 1/sqrt(log(n)))", 1, "2.71671883187598337037995683239", {}),
    # I(x) = int_(log x)^oo exp(-u/log(u)) du by mpmath.quad (no closed form), same method
    ("1/n**(1 + 1/log(log(n)))", 3, "0.383908369858880835438919733831", {}),
    ("1/(n*log(n)*log(log(n))**3)", 3, "372.804491879382879123893238125", {}),
    # decreasing by the sign of n (log f)' = -1 - 1/sqrt(L + 1) + L/(2 (L + 1)^(3/2)),
    # L = log n, factored (no summand rule); I(x) by mpmath.quad in u, same method, from
    # 30000 and from 40000 (the two agree to 4e-31)
    ("n**(-1 - 1/sqrt(log(n) + 1))", 1, "3.12684240803447758631113529192323", {}),
    # log(n + 1) with log(n): quadrature in u = log(x + 1), h = h0(u) + E kappa(u),
    # E = log(1 - e^-u); I(x) = int_(log(x + 1))^oo f(e^u - 1) e^u du by mpmath.quad, same
    # method, from 20000 and from 30000 (agreeing to every digit given)
    ("n**(-1 - 1/sqrt(log(n + 1)))", 1, "2.79349796246984886823596737119", {}),
    ("exp(-sqrt(log(1 + n)))*log(1 + n)/n", 1, "12.326299625200517040401951093", {}),
    ("n**(-1 - 1/log(n + 1)**(1/3))", 1, "2.06710661671739199315043058655", {}),
    (
        "1/(n*log(n)*log(log(n))**2)",
        3,
        "38.4067680928217863184937477011",
        # root of 1/log(log(x)) = 0.001 B (b_x/2 ~ 10^(-8.8e10) left out): log10 x =
        # e^(1000/B)/ln(10) at 50 digits (an earlier float root gave ...193519, 5e-16 off)
        {0.001: "88215200251.193567044"},
    ),
]


@pytest.mark.parametrize("text, start, ref, _", CASES)
def test_integral_tail_encloses_the_reference_sum(text, start, ref, _):
    t = IntegralTail(P(text), start, direct=2000)
    B = t.tail(start)
    with mpmath.workdps(50):
        r = mpmath.mpf(ref)
        lo, hi = (mpmath.mpf(x.str(40, radius=False)) for x in (B.lower(), B.upper()))
    assert lo <= r <= hi
    assert hi - lo < 1e-8 * r  # narrow: a neighbour 1e-8 away is rejected


@pytest.mark.parametrize("text, start, ref, trf", [c for c in CASES if c[3]])
def test_log10_trf_brackets_hold_the_reference(text, start, ref, trf):
    w = wide_analysis(P(text), start, list(trf), integral_only=True)
    with mpmath.workdps(50):  # the enclosure is narrower than a double's precision
        assert w.sum.lo <= mpmath.mpf(ref) <= w.sum.hi
    for t, log10 in zip(w.trf, trf.values()):
        lo, hi = t["log10_bracket"]
        assert lo <= float(log10) <= hi and hi - lo < 1e-9 * float(log10)


def test_log_space_bounds_beyond_exp_of_big_exponents():
    """1/(n log(n)^1.01) from n = 2: TRF(0.01) ~ 10^(1.96e199), x = e^t with t ~ 4.5e199 is
    not a ball; the bounds are evaluated in t.  Reference (mpmath, 50 digits, as in the
    module docstring): B = 100.797286353852383558..., and I(x) = 100/log(x)^(1/100) = B eps
    gives log10 TRF = (100/(B eps))^100/ln(10) = 1.9629095333928399e199."""
    w = wide_analysis(P("1/(n*log(n)**(101/100))"), 2, [0.01], integral_only=True)
    with mpmath.workdps(50):  # the enclosure is narrower than a double's precision
        assert w.sum.lo <= mpmath.mpf("100.797286353852383558") <= w.sum.hi
    lo, hi = w.trf[0]["log10_bracket"]
    assert lo <= 1.9629095333928399e199 <= hi and hi - lo < 1e-9 * hi


def test_exact_trf_where_the_bracket_closes():
    """1/(n log(n) log(log(n))^2) from n = 3: TRF(0.01) = 739514 (reference root above:
    x = 10^5.868947766651 = 739516.3, first n past it 739517 = start + 739514)."""
    w = wide_analysis(P("1/(n*log(n)*log(log(n))**2)"), 3, [0.01], integral_only=True)
    assert w.trf[0]["exact"] and w.trf[0]["value"] == 739514


def test_bracket_from_tails_only():
    """sum 2^-n from n = 0 (B = 2, R_j = 2^(1-j)): TRF(0.1) = 4 (R_4 = 1/8 < 0.2 <= R_3 = 1/4)."""

    def tail(a):
        return arb(2) ** (1 - a)

    t = trf_bracket(tail, 0, arb(2), 0.1, True)
    assert t["exact"] and t["value"] == 4
    t = trf_bracket(tail, 0, arb(2), 0.1, False)  # signs unknown: the upper bound only
    assert t["lower_bound"] is None and t["upper_bound"] == 4


@pytest.mark.parametrize(
    "start, eps, ref",
    [
        # 1/n^2: R_j = psi'(start + j), the least j with R_j < B eps by bisection on mpmath's
        # trigamma at 50 digits (B = pi^2/6 from 1, psi'(10^12) from 10^12)
        (1, 1e-15, 607927101854027),  # between 2^49 and 10^15: the search used to skip it
        (1, 2e-15, 303963550927013),
        (10**12, 0.001, 998999999999501),
    ],
)
def test_exact_trf_just_below_the_integer_limit(start, eps, ref):
    """The doubling search stops at 10^15 itself, not at the first power of 2 past it: a
    TRF in (2^49, 10^15] is found exactly (it came out as '10^[?, 15.0]')."""
    with mpmath.workdps(50):
        B = mpmath.psi(1, start)
        assert (
            mpmath.psi(1, start + ref) < B * mpmath.mpf(repr(eps)) <= mpmath.psi(1, start + ref - 1)
        )

    # the tail R_j = zeta(2, a) (Hurwitz) as a ball
    t = trf_bracket(lambda a: arb(2).zeta(a), start, arb(2).zeta(start), eps, True)
    assert t["exact"] and t["value"] == ref, t


def test_merge_keeps_exact_entries_and_adds_brackets():
    table = [{"eps": 0.1, "value": 3, "exact": True}, {"eps": 0.01, "value": 1e30, "exact": False}]
    brackets = [
        {"eps": 0.1, "exact": False},
        {"eps": 0.01, "log10_bracket": [29.9, 30.1], "note": "b"},
    ]
    out = merge_brackets(table, brackets)
    assert out[0] == table[0] and out[1]["log10_bracket"] == [29.9, 30.1]
    far = [{"eps": 0.01, "lower_bound": 5, "upper_bound": 9, "note": "b"}]
    assert merge_brackets(table[1:], far)[0]["value"] is None  # 1e30 is outside [5, 9]


def test_structural_monotonicity():
    assert increasing_on(P("log(log(n))**2 + n"), 3)
    assert decreasing_on(P("1/(n*log(n)*log(log(n))**2)"), 3)
    assert decreasing_on(P("exp(-log(n)**(101/100))"), 2)  # log(1) = 0 is not > 0
    assert not decreasing_on(P("(2 + sin(n))/n**2"), 1)
    assert not decreasing_on(P("1/(n*log(log(n)))"), 1)  # log(log(1)) is not positive


@pytest.mark.parametrize(
    "text, start, why",
    [
        ("(2 + sin(n))/n**2", 1, "not proved positive and decreasing"),
        ("1/(n*log(n))", 2, "diverges"),  # F = log(log(x)) -> oo
        # no F, not log-concave; u^(3/2) e^h decreases, but e^h as written,
        # e^u/(u^2 e^u + e^u log(u)), is not enclosed in balls far out
        ("1/(n*log(n)**2 + n*log(log(n)))", 3, "no digits left|did not converge"),
    ],
)
def test_refusals_are_named(text, start, why):
    with pytest.raises(NotCertified, match=why):
        IntegralTail(P(text), start, direct=100)


def test_cli_prints_the_wide_enclosure_and_brackets(capsys):
    """exp(-log(n)**1.01) has no antiderivative: the tail integral by quadrature in
    u = log n gives B to many digits and TRF brackets (reference: mpmath at 30 digits, the
    terms up to n = 19999 + int_(log 20000)^oo e^(u - u^1.01) du by quadrature + f/2 - f'/12
    at 20000: B = 27.96968217279...; log10 TRF(0.1) in
    tests/theory/series/test_integral_tails_numeric.py)."""
    assert (
        main(["--rpe", "exp(-log(n)**1.01)", "--json", "--eps", "0.1", "--time-limit", "30"]) == 0
    )
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(50):  # B to 36 digits: test_integral_tails_numeric.py
        B = mpmath.mpf("27.9696821727907838868493737772660559")
        assert out["certified"] and mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
    assert float(out["sum_hi"]) - float(out["sum_lo"]) < 1e-12 and "sum_error" not in out
    lo, hi = out["trf"][0]["log10_bracket"]
    assert lo <= 20.974746417080135 <= hi and hi - lo < 1e-6
    argv = ["--rpe", "1/(n*log(n)*log(log(n))**2)", "--start", "3", "--eps", "0.001"]
    assert main(argv + ["--time-limit", "30"]) == 0  # a busy machine's wall clock
    text = capsys.readouterr().out
    assert "certified" in text and "10^[8.82152002" in text


@pytest.mark.parametrize(
    "formula,x0,expected",
    [
        # D = n (log f)' = 1/(log n log log n) - 1 - 2/log n: <= 0.36 - 1 from 16; at 3
        # the first summand is 9.7 and f increases there (f'(3) > 0)
        ("log(log(n))/(n*log(n)**2)", 16, True),
        ("log(log(n))/(n*log(n)**2)", 3, False),
        # f' = (1 - 2 log n)/n^3: < 0 from e^(1/2) = 1.65 on, > 0 on [1, 1.65)
        ("log(n)/n**2", 2, True),
        ("log(n)/n**2", 1, False),
        # decreasing only from e^(30/11) = 15.3 on: the bound at 3 is 1 - 11/10 + 3/log 3 > 0
        ("log(n)**3/n**(11/10)", 3, False),
        ("log(n)**3/n**(11/10)", 10**13, True),
        # a factor e^z, z(16) real: D = -1/L + 1/L^2 - 1, L = log(log(n)) >= 1.019 from 16;
        # at 3, 1/L^2 = 113
        ("exp(-log(n)/log(log(n)))/n", 16, True),
        ("exp(-log(n)/log(log(n)))/n", 3, False),
        # D = 2/L - (L^2 + 2 L + 2)/(L + 1)^2, L = log n: 0.59 > 0 at 3, -0.35 at 16
        # (the sign of D factored; its summands have no common bound)
        ("exp(-log(n)*(log(n) + 2)/(log(n) + 1))*log(n)**2", 3, False),
        ("exp(-log(n)*(log(n) + 2)/(log(n) + 1))*log(n)**2", 16, True),
        # D = 1/(L + 1)^2 > 0: increasing everywhere (a proved sign, the wrong one)
        ("exp(log(n)*(log(n) + 2)/(log(n) + 1))/n", 3, False),
        # D = -1 - 1/sqrt(L1) + n log(n)/(2 (n + 1) L1^(3/2)), L1 = log(n + 1): the last
        # summand <= 1/(2 sqrt(L1)) (log n <= L1, n/(n + 1) <= 1): D <= -1 (log n > 0 from 2)
        ("exp(-log(n)/sqrt(log(n + 1)))/n", 3, True),
        # n (log f)' = -1 + 1/sqrt(L1) - ...: f = n^(-1 + 1/sqrt(log(n + 1))) decreases too
        # (its series diverges: decreasing is all that is claimed)
        ("exp(log(n)/sqrt(log(n + 1)))/n", 3, True),
        # D = -1 - n/(2 (n + 1) sqrt(L1)) + n/((n + 1) L1): the rational factor n/(n + 1)
        # increases to 1, so D <= -1 + 1/log(x0 + 1): < 0 from 3 (1/log 4 = 0.72), not at 1
        # where D(1) = -1 - 0.30 + 0.72 < 0 but the bound 1/log 2 = 1.44 is not
        ("exp(-sqrt(log(n + 1)))*log(n + 1)/n", 3, True),
    ],
)
def test_decreasing_by_the_log_derivative(formula, x0, expected):
    assert decreasing_on(P(formula), x0) is expected


@pytest.mark.slow
@pytest.mark.parametrize(
    "text, start, f, I",
    [  # (term, start, mpmath term, int_x^oo f by hand: atan(log x)' = f, atan(log log x)' = f)
        (
            "1/(n*(log(n)**2 + 1))",
            1,
            lambda x: 1 / (x * (mpmath.log(x) ** 2 + 1)),
            lambda x: mpmath.pi / 2 - mpmath.atan(mpmath.log(x)),
        ),
        (
            "1/(n*log(n)*(log(log(n))**2 + 1))",
            3,
            lambda x: 1 / (x * mpmath.log(x) * (mpmath.log(mpmath.log(x)) ** 2 + 1)),
            lambda x: mpmath.pi / 2 - mpmath.atan(mpmath.log(mpmath.log(x))),
        ),
    ],
)
def test_antiderivative_through_log_substitution(text, start, f, I):
    """F = atan(log x) is found through x = e^u (1/(u^2 + 1) in u; twice for log log).
    Reference (mpmath, 40 digits): the terms n < K = 400 plus the Euler-Maclaurin tail
    I(K) + f(K)/2 - f'(K)/12 + f'''(K)/720 - f^(5)(K)/30240; log10 TRF(0.01) from
    I(x) = 0.01 B (f(x)/2 ~ 1/x is below 1e-30 of I there)."""
    w = wide_analysis(P(text), start, [0.01], integral_only=True)
    K = 400
    with mpmath.workdps(40):
        d = [mpmath.diff(f, K, k) for k in (1, 3, 5)]
        tail = I(mpmath.mpf(K)) + f(K) / 2 - d[0] / 12 + d[1] / 720 - d[2] / 30240
        B = mpmath.fsum(f(mpmath.mpf(n)) for n in range(start, K)) + tail
        assert w.sum.lo <= B <= w.sum.hi and w.sum.hi - w.sum.lo < 1e-15 * B
        t = mpmath.tan(mpmath.pi / 2 - mpmath.mpf("0.01") * B)  # I = 0.01 B at log x = t
        if "log(log" in text:
            t = mpmath.exp(t)
        log10 = float(t / mpmath.log(10))
    lo, hi = w.trf[0]["log10_bracket"]
    assert lo <= log10 <= hi and hi - lo < 1e-9 * log10


def test_a_sum_in_the_denominator_is_factored_for_the_tail_integral(capsys):
    """1/(n log(n)^2 + n) = 1/(n (log(n)^2 + 1)): h(u) = -log(u^2 + 1) once the sum is
    factored (theory.series.quadrature_tail.log_positive), whose far part is below u^-3/2.
    Reference (mpmath, 30 digits): the terms 16 <= n < 20000 plus pi/2 - atan(log 20000) +
    f/2 - f'/12 + f'''/720 - f^(5)/30240 at 20000."""
    h = QuadratureTail(P("1/(n*log(n)**2 + n)"), 16).h
    assert sp.simplify(h - (-sp.log(N**2 + 1))) == 0
    argv = ["--rpe", "1/(n*log(n)**2+n)", "--start", "16", "--json", "--time-limit", "60"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(40):
        B = mpmath.mpf("0.349810485652865481724152337883")
        assert out["certified"] and mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        assert out["sum_digits"] >= 17
        # TRF(0.1): the root x* of R(x) = pi/2 - atan(log x) + f/2 - f'/12 = 0.1 B; the
        # exact TRF j has 16 + j - 1 < x* < 16 + j (x* - 16 = 2570820464781.29)
        f = lambda x: 1 / (x * (mpmath.log(x) ** 2 + 1))  # noqa: E731
        R = lambda a: (  # noqa: E731
            mpmath.pi / 2 - mpmath.atan(mpmath.log(a)) + f(a) / 2 - mpmath.diff(f, a) / 12
        )
        x = mpmath.exp(mpmath.findroot(lambda t: R(mpmath.exp(t)) - B / 10, 28))
        assert out["trf"][0]["exact"] and out["trf"][0]["value"] == int(mpmath.floor(x - 16)) + 1


def test_far_bound_in_log_x_plus_c_covers_the_perturbation():
    """exp(-log(x + 10^6)^2)/x in u = log(x + 10^6): h = -u^2 - log(1 - 10^6 e^-u), so e^h
    is up to twice e^(h0) = e^(-u^2) near u = log(2 10^6) = 14.5, and the tangent bound of h0
    alone, e^(-U^2)/(2U), is below the integral there (2.07e-113 < 2.32e-113 at U = 16).
    The far bound must hold the integral: 1/(1 - y) = sum_k y^k, y = 10^6 e^-u <= 0.12, and
    int_U^oo e^(-u^2 - k u) du = e^(k^2/4) (sqrt(pi)/2) erfc(U + k/2), 60 terms (mpmath,
    30 digits; mpmath.quad on a few pieces is 2e-4 off at U = 40)."""
    q = QuadratureTail(P("exp(-log(n + 1000000)**2)/n"), 1)
    assert q.c == 1000000
    for U in (16, 20, 40):
        far = q._far(arb(U))
        with mpmath.workdps(30):
            ref = mpmath.fsum(
                mpmath.mpf(10) ** (6 * k)
                * mpmath.exp(mpmath.mpf(k) ** 2 / 4)
                * mpmath.sqrt(mpmath.pi)
                / 2
                * mpmath.erfc(U + mpmath.mpf(k) / 2)
                for k in range(60)
            )
            hi = mpmath.mpf(far.upper().str(30, radius=False))
        assert ref <= hi <= 2 * ref, (U, ref, far)
