"""Alternating hypergeometric terms (theory.series.alternating_pairs): B against closed
forms and mpmath, TRF by the tail rule against the tails computed here term by term."""

import json

import mpmath
import pytest
from flint import arb

from theory.series.alternating_pairs import AlternatingPairTail, alternating_ratio
from theory.series.expressions import parse_expression as P
from theory.series.sums import certify_tail
from theory.trf.cli import main


def _ref_B(name):
    with mpmath.workdps(40):
        return {
            # sum_n c_n x^n/n = 2 log(2/(1 + sqrt(1 - x))), c_n = binomial(2n, n)/4^n, at x = -1
            "c/n": 2 * mpmath.log(2 * (mpmath.sqrt(2) - 1)),
            # sum_(n >= 0) c_n x^n = 1/sqrt(1 - x), without n = 0
            "c": 1 / mpmath.sqrt(2) - 1,
            # Gamma(n + 1/2)/Gamma(n + 1) = sqrt(pi) c_n
            "gamma": mpmath.sqrt(mpmath.pi) * (1 / mpmath.sqrt(2) - 1),
            # mpmath's alternating-series acceleration
            "1/binomial": mpmath.nsum(
                lambda n: (-1) ** n / mpmath.binomial(2 * n, n), [1, mpmath.inf]
            ),
        }[name]


CASES = [
    ("(-1)**n*binomial(2*n, n)/(4**n*n)", "c/n"),
    ("(-1)**n*binomial(2*n, n)/4**n", "c"),
    ("(-1)**n*factorial(n)**2/factorial(2*n)", "1/binomial"),
    # a half-integer shift: the ratio is rational only after expanding the gammas
    ("(-1)**n*gamma(n + 1/2)/gamma(n + 1)", "gamma"),
]


@pytest.mark.parametrize("text, name", CASES)
def test_b_is_enclosed(text, name):
    t = AlternatingPairTail(P(text), 1, certify_tail)
    B = t.tail(1)
    with mpmath.workdps(40):
        ref = _ref_B(name)
        lo = mpmath.mpf(B.lower().str(45, radius=False))
        hi = mpmath.mpf(B.upper().str(45, radius=False))
        assert lo <= ref <= hi, (text, B.str(30), ref)
    assert B.rad() < 1e-15
    # tails from odd and even starts add up: R(5) = b_5 + R(6)
    assert (t.tail(5) - t.term(5) - t.tail(6)).contains(arb(0))


def test_trf_by_the_tail_rule_against_the_tails(capsys):
    """(-1)^n c_n from n = 1: R_k = B - S_k by the recurrence c_(n+1) = c_n (2n+1)/(2n+2)
    at 30 digits; the tail rule's TRF is 1 + the last k with |R_k| >= eps |B| (for k past
    20000, |R_k| <= c_k < 0.004 < 0.01 |B|)."""
    assert main(["--rpe", "(-1)**n*binomial(2*n, n)/4**n", "--eps", "0.1", "0.01", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    with mpmath.workdps(30):
        B = 1 / mpmath.sqrt(2) - 1
        c, S, R = mpmath.mpf(1), mpmath.mpf(0), [B]
        for n in range(1, 20001):
            c = c * (2 * n - 1) / (2 * n)
            S += (-1) ** n * c
            R.append(B - S)
        refs = {
            eps: 1 + max(k for k, r in enumerate(R) if abs(r) >= abs(B) * mpmath.mpf(repr(eps)))
            for eps in (0.1, 0.01)
        }
    assert out["certified"] and out["sum_digits"] >= 15
    assert [(t["value"], t["exact"]) for t in out["trf"]] == [(refs[0.1], True), (refs[0.01], True)]


def test_a_shifted_sign_and_a_negative_coefficient(capsys):
    """(-1)**(n+1) a_n (sympy keeps the shifted power) and -(-1)**n a_n: B = -2 log(2 (sqrt(2)
    - 1)) both, the same TRFs as (-1)**n a_n."""
    with mpmath.workdps(40):
        ref = -_ref_B("c/n")
        # the tail rule on R_k = B - S_k, 300 terms by c_(n+1) = c_n (2n+1)/(2n+2); past
        # them |R_k| <= c_k/k < 2e-4 < 0.001 |B|
        c, S, R = mpmath.mpf(1), mpmath.mpf(0), [ref]
        for n in range(1, 301):
            c = c * (2 * n - 1) / (2 * n)
            S += (-1) ** (n + 1) * c / n
            R.append(ref - S)
        trf = [
            1 + max(k for k, r in enumerate(R) if abs(r) >= abs(ref) * mpmath.mpf(e))
            for e in ("0.1", "0.01", "0.001")
        ]
    for text in ("(-1)**(n + 1)*binomial(2*n, n)/(4**n*n)", "-(-1)**n*binomial(2*n, n)/(4**n*n)"):
        assert main(["--rpe", text, "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        with mpmath.workdps(40):
            assert mpmath.mpf(out["sum_lo"]) <= ref <= mpmath.mpf(out["sum_hi"]), out["sum"]
        assert [(t["value"], t["exact"]) for t in out["trf"]] == [(j, True) for j in trf]


def test_terms_that_do_not_tend_to_zero_are_refused():
    """(n+1)/n decreases to 1: the pairs would sum to a number, but the series diverges;
    the engine checks a_n -> 0 (Gauss: lim n (1 - rho) = 0 here) rather than trust a caller."""
    from theory.series.arb_eval import NotCertified

    with pytest.raises(NotCertified, match="does not tend to 0"):
        AlternatingPairTail(P("(-1)**n*(n + 1)/n"), 1, certify_tail)


def test_forms_refused():
    assert alternating_ratio(P("(-1)**n*binomial(2*n, n)/(4**n*sqrt(n))")) is None  # sqrt ratio
    assert alternating_ratio(P("binomial(2*n, n)/4**n")) is None  # no sign
    assert alternating_ratio(P("(-1)**n*cos(n)/n**2")) is None


def test_every_later_tail_is_below_tail_sup():
    """a_n = 1/(1 + (n/10)^8): decreasing, not convex before the drop near n = 10, where
    |R_k| rises from k = 1 to 2 (computed here): ``tail_sup(a)`` must still bound every
    |R_k|, k >= a (the tail rule's premise), which |R_a| alone would not."""
    t = AlternatingPairTail(P("(-1)**n/(1 + n**8/10**8)"), 1, certify_tail)
    with mpmath.workdps(30):
        f = lambda n: 1 / (1 + (mpmath.mpf(n) / 10) ** 8)  # noqa: E731
        B = mpmath.nsum(lambda n: (-1) ** n * f(n), [1, mpmath.inf])
        R, S = [B], mpmath.mpf(0)
        for n in range(1, 400):
            S += (-1) ** n * f(n)
            R.append(B - S)  # R[k]: the tail from n = k + 1
        assert abs(R[2]) > abs(R[1])  # the rise the bound must cover
        for a in range(1, 120):
            sup = max(abs(r) for r in R[a - 1 :])
            bound = mpmath.mpf(t.tail_sup(a).upper().str(30, radius=False))
            assert bound >= sup, (a, bound, sup)
