"""Terms analytic in z = e^(-lambda n) (``theory.series.exp_atom_tail``) and terms whose
logarithm holds a negative factor (``theory.series.positive_log``): verdicts, certified B
and exact TRFs against mpmath references computed here."""

import json

import mpmath
import pytest
import sympy as sp
from flint import arb

from theory.series.arb_eval import NotCertified
from theory.series.exp_atom_tail import ExpAtomTail, exp_atom_test, in_exp_atom
from theory.series.expressions import parse_expression
from theory.series.inverse_power_tail import InversePowerTail
from theory.series.positive_log import log_of_positive
from theory.trf.cli import main

EPS = [0.1, 0.01, 0.001]


def run_json(capsys, *argv) -> dict:
    code = main([*argv, "--json", "--time-limit", "60", "--eps", *map(str, EPS)])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


def direct_tail(f, start, stop):
    """R(j) = sum_(start + j <= n < stop) f(n) at 60 digits; each case below bounds what
    lies beyond ``stop`` (by hand, in its comment) far under the tolerances used."""
    with mpmath.workdps(60):
        terms = [f(mpmath.mpf(n)) for n in range(start, stop)]
        suffix = [mpmath.mpf(0)] * (len(terms) + 1)
        for i in range(len(terms) - 1, -1, -1):
            suffix[i] = suffix[i + 1] + terms[i]
    return lambda j: suffix[j] if j < len(suffix) else mpmath.mpf(0)


def check_b_and_trf(out, R, tol=mpmath.mpf(10) ** -30):
    """B enclosed (reference within the ends up to the references' own error ``tol``) and
    narrow; every TRF exact and the least j with |R(j)| < eps |B| <= |R(j - 1)| (one
    sign: |R| decreases)."""
    B = R(0)
    assert out["certified"], out.get("sum_error")
    assert [t["eps"] for t in out["trf"]] == EPS
    with mpmath.workdps(60):  # the arithmetic of the comparisons at 60 digits too
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo - tol <= B <= hi + tol, (lo, B, hi)
        assert hi - lo < abs(B) * mpmath.mpf(10) ** -18
        for t in out["trf"]:
            eps, j = mpmath.mpf(repr(t["eps"])), t["value"]
            assert t["exact"], t
            assert abs(R(j)) < eps * abs(B) <= abs(R(j - 1)), (t, R(j), R(j - 1))


# (formula, start, mpmath term, stop): beyond ``stop`` every |b_n| <= 2 e^(-n) (or
# 2 * 2^-n), by |F(z)| <= 2|z| for |z| <= 1/16 for these F (|F'| <= 1.5 near 0, by hand),
# so the rest is < 4 e^(-stop) < 10^-60
ANALYTIC = [
    ("exp(exp(-n)) - 1", 1, lambda n: mpmath.exp(mpmath.exp(-n)) - 1, 160),
    ("-log(1 - exp(-n))", 1, lambda n: -mpmath.log(1 - mpmath.exp(-n)), 160),
    ("-log(1 - 2**(-n))", 1, lambda n: -mpmath.log(1 - 2**-n), 220),
    ("1/(2**n - 1)", 1, lambda n: 1 / (2**n - 1), 220),
    ("1 - cos(exp(-n))", 1, lambda n: 1 - mpmath.cos(mpmath.exp(-n)), 160),
    ("cos(exp(-n)) - 1", 1, lambda n: mpmath.cos(mpmath.exp(-n)) - 1, 160),
    ("sqrt(1 + exp(-n)) - 1", 1, lambda n: mpmath.sqrt(1 + mpmath.exp(-n)) - 1, 160),
    ("1/(exp(n) - 1) - exp(-n)", 1, lambda n: 1 / (mpmath.exp(n) - 1) - mpmath.exp(-n), 160),
    ("atan(exp(-n))", 1, lambda n: mpmath.atan(mpmath.exp(-n)), 160),
    ("log(cosh(2**(-n)))", 1, lambda n: mpmath.log(mpmath.cosh(mpmath.mpf(2) ** -n)), 220),
    # F(z) = -log(1 - 3 z): singular at z = 1/3, so analytic only on |z| <= 1/8
    ("-log(1 - 3*exp(-n))", 2, lambda n: -mpmath.log(1 - 3 * mpmath.exp(-n)), 160),
    # F(z) = z/(z - 1/10): a pole at z = 1/10 inside |z| <= 1/8; analytic on |z| <= 1/64
    (
        "exp(-n)/(exp(-n) - 1/10)",
        3,
        lambda n: mpmath.exp(-n) / (mpmath.exp(-n) - mpmath.mpf(1) / 10),
        160,
    ),
]


@pytest.mark.parametrize("formula,start,f,stop", ANALYTIC, ids=[c[0] for c in ANALYTIC])
def test_analytic_in_exp_atom(capsys, formula, start, f, stop):
    out = run_json(capsys, f"--rpe={formula}", "--start", str(start))
    assert out["converges"] is True
    check_b_and_trf(out, direct_tail(f, start, stop))


def test_exp_atom_enclosure_against_lambert_series():
    """sum_(n >= a) 1/(2^n - 1) = sum_(k >= 1) 2^(-a k)/(1 - 2^-k) (a Lambert series,
    expanded by hand), mpmath at 50 digits, for tails far beyond the head."""
    t = ExpAtomTail(parse_expression("1/(2**n - 1)"), 1)
    with mpmath.workdps(50):
        for a in (1, 7, 40, 300):
            ref = mpmath.nsum(
                lambda k, a=a: mpmath.mpf(2) ** (-a * k) / (1 - 2**-k), [1, mpmath.inf]
            )
            s = t.tail(a)
            assert s.overlaps(arb(mpmath.nstr(ref, 45))), (a, s, ref)
            assert s.rad() < abs(s.mid()) * 1e-25


def test_exp_atom_verdicts():
    """F(0) = 0: absolute convergence; F(0) != 0: terms tend to F(0) (by hand)."""
    P = parse_expression
    assert exp_atom_test(P("cos(exp(-n)) - 1")).converges is True
    assert exp_atom_test(P("sinh(2**(-n))")).converges is True
    assert exp_atom_test(P("cosh(2**(-n))")).converges is False  # -> 1
    assert exp_atom_test(P("exp(-n)/n")) is None  # n outside the exponential
    assert exp_atom_test(P("exp(-n) + 3**(-n*sqrt(2))")) is None  # rates not commensurable
    # sympy Floats (the parser reads 0.1 as 1/10; a caller may pass floats): sympy would
    # round 0.1*(n + 0.3) to 0.1*n + 0.03, not the terms' binary values
    assert in_exp_atom(sp.exp(sp.exp(sp.Float(-0.1) * (P("n") + sp.Float(0.3)))) - 1) is None


def test_pole_inside_the_disc_is_not_taken_for_analytic():
    """z/(z - 1/10) has a pole at 1/10: the radii 1/2 and 1/8 must be refused, only 1/64
    (where Re(z - 1/10) < 0 on the whole circle) accepted, so the expansion starts where
    e^(-n) <= 1/1024."""
    t = ExpAtomTail(parse_expression("exp(-n)/(exp(-n) - 1/10)"), 3)
    assert t.R == arb(1) / 64 and mpmath.exp(-t.M) <= mpmath.mpf(1) / 1024


def test_in_exp_atom_forms():
    P = parse_expression
    F, lam = in_exp_atom(P("exp(2*exp(1 - n/2) + exp(-n)) - 1"))
    z = sp.Symbol("z")
    assert lam == sp.Rational(1, 2) and sp.simplify(F - (sp.exp(z**2 + 2 * sp.E * z) - 1)) == 0
    with pytest.raises(NotCertified):
        ExpAtomTail(P("exp(-n)*n"), 1)


# sum_(n >= m) -log(1 - 1/n^2) = log(m/(m - 1)): the product telescopes
def test_negative_log_telescoping(capsys):
    out = run_json(capsys, "--rpe=-log(1-1/n**2)", "--start", "2")
    with mpmath.workdps(50):
        check_b_and_trf(out, lambda j: mpmath.log(mpmath.mpf(2 + j) / (1 + j)))


def test_nonpositive_log_telescoping(capsys):
    """log(1 - 1/n^2) <= 0: B = -log 2 (the same product), the TRF unchanged."""
    out = run_json(capsys, "--rpe=log(1-1/n**2)", "--start", "2")
    with mpmath.workdps(50):
        check_b_and_trf(out, lambda j: -mpmath.log(mpmath.mpf(2 + j) / (1 + j)))


def test_minus_log_cos(capsys):
    """-log cos x = sum_k 2^(2k-1) (2^(2k) - 1) |B_2k| x^(2k) / (k (2k)!) (the series of
    log cos, checked by hand at k = 1, 2: x^2/2, x^4/12), so the tail from m is
    sum_k c_k zeta(2k, m): Fubini, every term positive; mpmath at 50 digits, 60 terms
    (c_k zeta(2k, 2) < 2 (2/pi)^(2k) 2^(-2k) beyond)."""
    out = run_json(capsys, "--rpe=-log(cos(1/n))", "--start", "2")
    with mpmath.workdps(50):

        def c(k):
            return (
                2 ** (2 * k - 1)
                * (2 ** (2 * k) - 1)
                * abs(mpmath.bernoulli(2 * k))
                / (k * mpmath.factorial(2 * k))
            )

        check_b_and_trf(
            out, lambda j: mpmath.fsum(c(k) * mpmath.zeta(2 * k, 2 + j) for k in range(1, 61))
        )


def test_log_of_positive_keeps_the_sign():
    """The sign rule: an odd number of negative factors is refused, an even one made real."""
    P = parse_expression
    assert log_of_positive(P("-log(1 - 1/n**3)*sqrt(n)")) == (
        sp.log(parse_expression("n")) / 2 + sp.log(-sp.log(1 - 1 / parse_expression("n") ** 3))
    )
    assert str(log_of_positive(P("1/log(1 - 1/n**2)**2"))) == "-2*log(-log(1 - 1/n**2))"
    for negative in ("-1/n**2", "log(1 - 1/n**2)", "-exp(-n)*log(1 + 1/n)", "(-1)**n/n**2"):
        with pytest.raises(NotCertified):
            log_of_positive(P(negative))


# F(1/n) with a log or an arctangent: analytic only on a disc (|t| <= 1/2), not entire
INVERSE_ON_A_DISC = [
    # sum_n (1/n - log(1 + 1/n)) = Euler's gamma (the partial sums are H_N - log(N + 1))
    ("1/n - log(1 + 1/n)", lambda: +mpmath.euler),
    # prod_n (1 + 1/n^2) = sinh(pi)/pi (Euler's product for sin(pi z)/(pi z) at z = i)
    ("log(1 + 1/n**2)", lambda: mpmath.log(mpmath.sinh(mpmath.pi) / mpmath.pi)),
    # n = 1 gives 1 - pi/4; for n >= 2, atan t = sum_k (-1)^k t^(2k+1)/(2k+1) absolutely
    # (t <= 1/2), so the rest is sum_(k >= 1) (-1)^(k+1) (zeta(2k+1) - 1)/(2k+1)
    (
        "1/n - atan(1/n)",
        lambda: (
            1
            - mpmath.pi / 4
            + mpmath.nsum(
                lambda k: (-1) ** (k + 1) * (mpmath.zeta(2 * k + 1) - 1) / (2 * k + 1),
                [1, mpmath.inf],
            )
        ),
    ),
]


@pytest.mark.parametrize("formula,ref", INVERSE_ON_A_DISC, ids=[c[0] for c in INVERSE_ON_A_DISC])
def test_inverse_power_tail_on_a_disc(formula, ref):
    t = InversePowerTail(parse_expression(formula), 1)
    with mpmath.workdps(50):
        r = ref()
        s = t.tail(1)
        assert s.overlaps(arb(mpmath.nstr(r, 45))), (s, r)
        assert s.rad() < abs(s.mid()) * 1e-25 and t.R == arb(1) / 2
        assert t.nonneg_until >= 10**20  # each term > 0 (log(1 + t) < t, atan t < t)


def test_difference_of_logs_is_euler_gamma(capsys):
    """log(n) - log(n + 1) + 1/n: the logs combined into log(n/(n + 1)) (both arguments
    positive); R(j) = sum_(n > j) = gamma - (H_j - log(j + 1)) exactly (partial sums)."""
    out = run_json(capsys, "--rpe=1/n - log(n+1) + log(n)")
    with mpmath.workdps(50):
        check_b_and_trf(out, lambda j: mpmath.euler - (mpmath.harmonic(j) - mpmath.log(j + 1)))


def test_log_ratio_minus_harmonic(capsys):
    """log(2n + 1) - log(2n - 1) - 1/n (2n - 1 > 0 from n = 1: the logs combine; then an
    analytic function of 1/n on |t| <= 1/2): the partial sums telescope to
    log(2N + 1) - H_N, so R(j) = log 2 - gamma - log(2j + 1) + H_j exactly."""
    out = run_json(capsys, "--rpe=log(2*n + 1) - log(2*n - 1) - 1/n")
    with mpmath.workdps(50):
        check_b_and_trf(
            out,
            lambda j: mpmath.log(2) - mpmath.euler - mpmath.log(2 * j + 1) + mpmath.harmonic(j),
        )


def test_log_minus_rational_of_inverse_n(capsys):
    """log(1 + 1/n) - 1/(n + 1) = F(1/n), F(t) = log(1 + t) - t/(1 + t): the rational part's
    denominator cancelled too (before: 1/(1 + 1/t) left a pole at 0 in the form, no B,
    "terms not proved nonnegative").  Partial sums telescope: sum_(n<=N) = log(N + 1) -
    (H_(N+1) - 1), so R(j) = sum_(n > j) = H_(j+1) - 1 - log(j + 1) + 1 - gamma
    = H_(j+1) - log(j + 1) - gamma; B = 1 - gamma."""
    out = run_json(capsys, "--rpe=log(1 + 1/n) - 1/(n + 1)")
    with mpmath.workdps(50):
        check_b_and_trf(out, lambda j: mpmath.harmonic(j + 1) - mpmath.log(j + 1) - mpmath.euler)
