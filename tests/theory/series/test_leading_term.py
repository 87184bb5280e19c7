"""B and TRF of slowly converging terms whose numerator or denominator is a sum
(theory.series.leading_term: the integral test on the dominant part plus a remainder),
against mpmath; and the signs of log monomials (theory.series.log_monomial_signs) that
the split relies on.

Reference (mpmath at 34 digits, none of the code under test): the terms start <= n < K =
2000 summed directly, the tail by Euler-Maclaurin at K, int_K^oo f + f(K)/2 - f'(K)/12 +
f'''(K)/720 - f^(5)(K)/30240, with int_K^oo f written in u = log x (the integrand f(e^u) e^u
decays like u^-2 or faster) and integrated by mpmath.quad."""

import json

import mpmath
import pytest
from flint import arb

from theory.series.arb_eval import arb_function
from theory.series.expressions import parse_expression as P
from theory.series.leading_term import LeadingTermTail, dominant_split
from theory.series.log_monomial_signs import log_monomial_sign
from theory.series.lower_bounds import terms_nonnegative
from theory.series.sums import any_width_tail
from theory.trf.cli import main

L, LL = mpmath.log, lambda x: mpmath.log(mpmath.log(x))

# (text, start, the same term for mpmath); none of these had B before the split
CASES = [
    ("log(n)/(n*log(n)**3 + 1)", 1, lambda n: L(n) / (n * L(n) ** 3 + 1)),
    # the remainder (3 log^2 n - 2)/(n (log^3 n + 1) log^2 n): its sign is proved only with
    # the denominator left unfactored (log^2 n - log n + 1 is [1, oo) - [1, oo) on a box)
    ("(2*log(n) + 3)/(n*log(n)**3 + n)", 2, lambda n: (2 * L(n) + 3) / (n * L(n) ** 3 + n)),
    ("1/(n*log(n)**2 - 1)", 3, lambda n: 1 / (n * L(n) ** 2 - 1)),
    ("(n + 1)/(n**2*log(n)**2 + 1)", 3, lambda n: (n + 1) / (n**2 * L(n) ** 2 + 1)),
    ("log(log(n))/(n*log(n)**2 + log(n))", 3, lambda n: LL(n) / (n * L(n) ** 2 + L(n))),
    ("(log(n) + 1)/(n*log(n)**3)", 3, lambda n: (L(n) + 1) / (n * L(n) ** 3)),
    ("1/(n*log(n)**2 + n*log(log(n)))", 3, lambda n: 1 / (n * L(n) ** 2 + n * LL(n))),
]


def _fast_first(k):
    """The first k cases in the fast suite, the rest under ``-m slow``."""
    return [c if i < k else pytest.param(*c, marks=pytest.mark.slow) for i, c in enumerate(CASES)]


def _tail_integral(f, x):
    """int_x^oo f, in u = log(y)."""
    u0 = mpmath.log(x)
    g = lambda u: f(mpmath.exp(u)) * mpmath.exp(u)  # noqa: E731
    return mpmath.quad(g, [u0, u0 + 1, 2 * u0, 10 * u0, 100 * u0, mpmath.inf])


def _reference(f, start):
    with mpmath.workdps(34):
        K = 2000
        head = mpmath.fsum(f(mpmath.mpf(n)) for n in range(start, K))
        d1, d3, d5 = (mpmath.diff(f, K, j) for j in (1, 3, 5))
        return head + _tail_integral(f, K) + f(K) / 2 - d1 / 12 + d3 / 720 - d5 / 30240


@pytest.mark.parametrize("text, start, f", _fast_first(3))
def test_the_split_encloses_b(text, start, f):
    t = LeadingTermTail(P(text), start, any_width_tail)
    B = t.tail(start)
    ref = _reference(f, start)
    with mpmath.workdps(34):
        lo, hi = (
            mpmath.mpf(B.lower().str(40, radius=False)),
            mpmath.mpf(B.upper().str(40, radius=False)),
        )
        assert lo <= ref <= hi, (text, B.str(25), ref)
    assert B.rad() < 1e-12 * abs(B.mid())  # 13 digits at least (the nested remainder)


@pytest.mark.parametrize("text, start, f", _fast_first(1))
def test_far_bounds_hold_the_reference_tail(text, start, f):
    """R(ceil(e^t)) against int_x^oo f + f(x)/2 (Euler-Maclaurin; the next term, f'(x)/12,
    is below 1e-40 of it at these x), at t below and beyond LOG_SPACE."""
    t = LeadingTermTail(P(text), start, any_width_tail)
    for u in (60.0, 700.0, 2e4):
        lo, hi = t.log_bounds(u if u < 1e4 else arb(u))
        with mpmath.workdps(34):
            x = mpmath.ceil(mpmath.exp(u))
            ref = _tail_integral(f, x) + f(x) / 2
            low = mpmath.mpf(lo.lower().str(40, radius=False))
            high = mpmath.mpf(hi.upper().str(40, radius=False))
            assert low <= ref <= high, (text, u, lo.str(20), hi.str(20), ref)
            assert high - low < 1e-6 * ref  # the nested remainder's far tail: 1e-9


def test_trf_of_the_split_against_the_reference_root(capsys):
    """TRF(0.01) of log(n)/(n log(n)^3 + 1) is about 5.9e30: its certified log10 bracket
    holds the root x* of int_x^oo f + f(x)/2 = 0.01 B (in log x), and TRF(0.1) is exact."""
    text, start, f = CASES[0]
    argv = ["--rpe", text, "--eps", "0.1", "0.01", "--json", "--time-limit", "60"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["sum_digits"] >= 18
    with mpmath.workdps(34):
        B = _reference(f, start)
        root = mpmath.findroot(
            lambda u: _tail_integral(f, mpmath.exp(u)) + f(mpmath.exp(u)) / 2 - B / 100, 70
        )
        log10_root = root / mpmath.log(10)
        # TRF(0.1): the first j with partial sum >= 0.9 B, counted by direct summation
        total, j = mpmath.mpf(0), 0
        while total < B * mpmath.mpf("0.9"):
            total += f(mpmath.mpf(start + j))
            j += 1
    first, second = out["trf"]
    assert first["exact"] and first["value"] == j
    lo, hi = second["log10_bracket"]
    assert lo <= log10_root <= hi and hi - lo < 1e-9, (lo, hi, log10_root)


def test_the_split_keeps_the_identity():
    """phi + r is b, symbolically and at sample points."""
    for text, start, _ in CASES:
        b = P(text)
        phi, r = dominant_split(b)
        g = arb_function(b - phi - r)
        for n in (max(start, 3), 17, 10**6):
            assert abs(g(arb(n))) < 1e-12


def test_no_split_where_nothing_dominates():
    assert dominant_split(P("1/(n*log(n)**2)")) is None  # not a sum
    assert dominant_split(P("1/(n*log(n)**2 + n*log(n)**2*sin(n))")) is None  # oscillating


# (text, n0, the sign and start claimed): each checked in ball arithmetic up to n = 3000
SIGNS = [
    ("1/(n*(n*log(n)**2 - 1)*log(n)**2)", 1, (1, 3)),  # 2 log(2)^2 < 1
    ("-log(log(n))/(n*(log(n)**2 + log(log(n)))*log(n)**2)", 1, (-1, 3)),
    ("(n*log(n)**2 - 1)/(n*(n**2*log(n)**2 + 1)*log(n)**2)", 2, (1, 3)),
    ("sqrt(n)*log(log(n)) - 1/n", 1, (1, 4)),  # sqrt(3) log(log(3)) < 1/3
    ("n - 3/log(n)", 1, (1, 3)),  # 2 - 3/log(2) < 0 < 3 - 3/log(3)
]
# not monotone, or not of this form: no sign claimed
NO_SIGN = [
    "10/n - 1",  # positive at n = 1..9, negative from 11: a decreasing positive part
    "log(n)**2 - n",
    "log(n)**3 - n",
    "n - 100*log(n)**2",
    "log(n + 1) - 1",
    "exp(-n)*log(n) - 1/n",
]


@pytest.mark.parametrize("text, n0, claim", SIGNS)
def test_log_monomial_signs(text, n0, claim):
    assert log_monomial_sign(P(text), n0) == claim
    sign, n1 = claim
    g = arb_function(P(text))
    assert all(sign * g(arb(n)) > 0 for n in range(n1, 3000))


@pytest.mark.parametrize("text", NO_SIGN)
def test_no_sign_where_the_rule_does_not_prove_one(text):
    assert log_monomial_sign(P(text), 1) is None


def test_nonnegative_terms_of_iterated_logs():
    """A case no earlier rule proved (sympy does not know log(log(n)) > 0 for n >= 3)."""
    assert terms_nonnegative(P("log(log(n))/(n*(log(n)**2 - 1))"), 3)
    assert terms_nonnegative(P("log(log(n))/(n*(log(n)**2 - 1))"), 2)  # b_2 > 0: both < 0
    assert not terms_nonnegative(P("log(log(n))/(n*(log(n)**2 + 1))"), 2)  # loglog(2) < 0


def test_the_engine_choice_keeps_a_far_start(capsys):
    """The integral engines are compared at x = e^200 only where that is past the start:
    from n = 10^100 (e^200 < 10^100) the comparison point moves on, and B of 1/(n log(n)^3)
    stays certified (reference: 1/(2 log(10^100)^2) + f/2 - ..., held-out set 12)."""
    start = 10**100
    argv = ["--rpe", "1/(n*log(n)**3)", "--start", str(start), "--eps", "0.1", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(40):
        N = mpmath.mpf(start)
        ref = 1 / (2 * mpmath.log(N) ** 2) + 1 / (2 * N * mpmath.log(N) ** 3)
        assert out["certified"] and mpmath.mpf(out["sum_lo"]) <= ref <= mpmath.mpf(out["sum_hi"])


@pytest.mark.slow
@pytest.mark.parametrize("text, start, f", CASES[1:5])
def test_every_trf_against_the_reference(capsys, text, start, f):
    """Each TRF of eps = 0.1, 0.01, 0.001: an exact value is the first j whose partial sum
    reaches (1 - eps) B (direct summation, values below 10^5), a log10 bracket holds the
    root of int_x^oo f + f(x)/2 = eps B in log x (the next Euler-Maclaurin term is below
    1e-30 of it there)."""
    argv = ["--rpe", text, "--start", str(start), "--json", "--time-limit", "60"]
    argv += ["--eps", "0.1", "0.01", "0.001"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(34):
        B = _reference(f, start)
        for t in out["trf"]:
            eps = mpmath.mpf(str(t["eps"]))
            if t.get("exact") and t["value"] < 10**5:
                j = t["value"]
                S = mpmath.fsum(f(mpmath.mpf(n)) for n in range(start, start + j))
                assert S >= (1 - eps) * B > S - f(mpmath.mpf(start + j - 1)), (text, t)
            elif "log10_bracket" in t:
                lo, hi = t["log10_bracket"]

                def gap(u, target=eps * B):
                    return _tail_integral(f, mpmath.exp(u)) + f(mpmath.exp(u)) / 2 - target

                u = mpmath.findroot(gap, mpmath.mpf(lo) * mpmath.log(10))
                assert lo <= u / mpmath.log(10) <= hi, (text, t, u / mpmath.log(10))
            else:
                assert t.get("exact"), (text, t)  # an exact value too large to sum here


def test_log_monomial_signs_on_random_products():
    """Random products of powers of sums of monomials in n, sqrt(n), log(n), log(log(n))
    (seeded; not tuned on): every sign the rule claims holds in ball arithmetic at
    n1..n1 + 300 and at n = 10^4, 10^7, ..., 10^58 (measured when written: 181 claims in
    800 draws, none false)."""
    import random

    rng = random.Random(20261129)
    atoms = ["n", "log(n)", "log(log(n))", "sqrt(n)", "log(n)**(1/2)"]

    def poly():
        terms = []
        for _ in range(rng.randint(1, 3)):
            c = rng.choice(["1", "2", "3", "1/2", "5", "10"])
            powers = [f"{rng.choice(atoms)}**{rng.choice([1, 2, -1, 3])}" for _ in range(2)]
            terms.append(("-" if rng.random() < 0.4 else "") + "*".join([c, *powers]))
        return "(" + " + ".join(terms) + ")"

    claims = 0
    for _ in range(150):
        text = (
            f"{poly()}**{rng.choice(['1', '-1', '2', '-3/2'])}*{poly()}**{rng.choice(['1', '-1'])}"
        )
        b = P(text)
        claim = log_monomial_sign(b, rng.choice([1, 3, 10]))
        if claim is None:
            continue
        claims += 1
        sign, n1 = claim
        g = arb_function(b)
        for n in [*range(n1, n1 + 300), *(10**k for k in range(4, 60, 3))]:
            assert not (sign * g(arb(n)) < 0), (text, claim, n)
    assert claims >= 10


def test_the_brackets_reuse_the_engine_that_enclosed_b(monkeypatch):
    """The TRF brackets computed beside B (``trf_search._far_brackets``) take the split B came
    from instead of building it a second time, and equal what a fresh
    ``wide_analysis(integral_only=True)`` gives."""
    import theory.series.certified_trf as ct
    import theory.series.leading_term as lt
    import theory.series.sums as sums
    from theory.series import trf_search

    b, eps = P("log(n)/(n*log(n)**3 + 1)"), [0.1, 0.01, 0.001]
    fresh = ct.wide_analysis(b, 1, eps, integral_only=True).trf
    builds = []

    class Counted(lt.LeadingTermTail):
        def __init__(self, *args, **kwargs):
            builds.append(args[1])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(sums, "LeadingTermTail", Counted)
    monkeypatch.setattr(ct, "LeadingTermTail", Counted)
    S, table, _, _ = trf_search._analyse_impl(b, 1, None, eps, False, True, 1e6)
    assert builds == [1]  # once, for B; the brackets reuse it
    assert not all(t.exact for t in table) and S.trf_brackets == fresh
