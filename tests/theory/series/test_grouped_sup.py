"""TRF by the tail rule for terms of both signs whose engine groups them
(theory.series.grouped_sup: GroupedTail.tail_sup) or splits them into parts
(SplitTail.tail_sup with a part of one sign, also where the sum's own engine has no bound).

Tail rule (docs/conventions.md): TRF = the least j with |R_k| < eps |B| for every k >= j,
R_k = sum_{n >= start + k} b_n.  References (mpmath, 60 digits): B in closed form,
R_k = R_(k-1) - b_(start+k-1) from R_0 = B, checked for every k up to K, where a
decreasing envelope E(k) >= |R_k|, proved by hand for each series, falls below eps |B|."""

import mpmath
import pytest

from theory.series.expressions import parse_expression as P
from theory.series.grouped_sup import GroupSup, class_majorant
from theory.series.periodic import residue_classes
from theory.series.sums import series_sum_core
from theory.series.trf_search import analyse_series


def _reference_trf(B, term, envelope, eps, start=1):
    target = abs(B) * mpmath.mpf(repr(eps))
    K = 1
    while envelope(K) >= target:
        K *= 2
    R, last = B, -1  # last: the largest k with |R_k| >= target
    for k in range(K + 1):
        if abs(R) >= target:
            last = k
        R -= term(start + k)
    return last + 1


CASES = [
    (  # GroupedTail, L = 2.  |R_k| <= 1/k (alternating, Leibniz) + 1/(k - 1) (integral)
        "(-1)**n/n + 1/n**2",
        lambda: -mpmath.log(2) + mpmath.pi**2 / 6,
        lambda n: (-1) ** n / mpmath.mpf(n) + 1 / mpmath.mpf(n) ** 2,
        lambda k: 1 / mpmath.mpf(k) + 1 / mpmath.mpf(max(k - 1, 1) - 0.5),
        (0.1, 0.01, 0.001),
    ),
    (  # GroupedTail, L = 4, signs + - - + + - - ...; B = (psi(1/2) + psi(3/4) - psi(1/4)
        # - psi(1))/4 by the classes n = 4m + r; |R_k| <= 3/k + 1/(4(k - 3)) (<= 3 terms
        # up to n = 1 mod 4, then sums of n = 4m+1..4m+4, 0 <= c_m <= 1/(4m + 1)^2)
        "(-1)**floor(n/2)/n",
        lambda: (
            (mpmath.digamma(0.5) + mpmath.digamma(0.75) - mpmath.digamma(0.25) - mpmath.digamma(1))
            / 4
        ),
        lambda n: (-1) ** (n // 2) / mpmath.mpf(n),
        lambda k: 3 / mpmath.mpf(k) + 1 / (4 * mpmath.mpf(max(k - 3, 1))),
        (0.1, 0.01),
    ),
    (  # SplitTail: (-1)^n/sqrt(n) (Dirichlet's tail bound) + 1/n^2 (one sign).
        # B = -(1 - sqrt(2)) zeta(1/2) + zeta(2); |R_k| <= 1/sqrt(k) + 1/(k - 1)
        "(-1)**n/sqrt(n) + 1/n**2",
        lambda: -(1 - mpmath.sqrt(2)) * mpmath.zeta(0.5) + mpmath.zeta(2),
        lambda n: (-1) ** n / mpmath.sqrt(n) + 1 / mpmath.mpf(n) ** 2,
        lambda k: 1 / mpmath.sqrt(k) + 1 / mpmath.mpf(max(k - 1, 1) - 0.5),
        (0.1, 0.01),
    ),
    (  # the same with 1/n^3: its far boxes once spent the step's time on a cancellation
        # with square roots, and the time-out left no enclosure at all.  B = -eta(1/2) +
        # zeta(3); |R_k| <= 1/sqrt(k) + 1/(2 k^2)
        "(-1)**n/sqrt(n) + 1/n**3",
        lambda: -mpmath.altzeta(0.5) + mpmath.zeta(3),
        lambda n: (-1) ** n / mpmath.sqrt(n) + 1 / mpmath.mpf(n) ** 3,
        lambda k: 1 / mpmath.sqrt(k) + 1 / (2 * mpmath.mpf(k) ** 2),
        (0.1, 0.01),
    ),
    (  # the Lerch engine has no bound on every later tail; the TRF takes the parts' (trf_search
        # ._split_with_sup).  B = (pi - 1)/2 + zeta(2) (sum sin(n)/n = (pi - 1)/2);
        # |R_k| <= 1/(k sin(1/2)) (summation by parts, |sum sin| <= 1/sin(1/2)) + 1/(k - 1)
        "sin(n)/n + 1/n**2",
        lambda: (mpmath.pi - 1) / 2 + mpmath.zeta(2),
        lambda n: mpmath.sin(n) / n + 1 / mpmath.mpf(n) ** 2,
        lambda k: 1 / (k * mpmath.sin(0.5)) + 1 / mpmath.mpf(max(k - 1, 1) - 0.5),
        (0.1, 0.01, 0.001),
    ),
]


@pytest.mark.parametrize("text, B, term, envelope, eps_list", CASES)
def test_signed_trf_is_exact_and_equals_the_reference(text, B, term, envelope, eps_list):
    b = P(text)
    S, table = analyse_series(b, list(eps_list), start=1)[:2]
    with mpmath.workdps(60):  # the digamma sum cancels: 40 digits left only 38 there
        ref_B = B()
        assert S.lo <= ref_B <= S.hi
        for t, eps in zip(table, eps_list):
            assert t.exact, (text, eps, t)
            assert t.value == _reference_trf(ref_B, term, envelope, eps), (text, eps)


def test_the_bound_holds_for_every_later_tail():
    # the bound at a, against |R_k| for every k in [a, a + 400] (closed-form B, recursion)
    b = P("(-1)**n/n + 1/n**2")
    cert = series_sum_core(b, 1, None)[2]
    with mpmath.workdps(40):
        B = -mpmath.log(2) + mpmath.pi**2 / 6
        R = [B]
        for n in range(1, 1200):
            R.append(R[-1] - ((-1) ** n / mpmath.mpf(n) + 1 / mpmath.mpf(n) ** 2))
        for a in (1, 2, 7, 100, 501):
            sup = mpmath.mpf(cert.tail_sup(a).str(30, radius=False))
            top = max(abs(R[k - 1]) for k in range(a, a + 400))
            assert top <= sup, a
            assert sup < 4 * top + mpmath.mpf(1) / a  # not vacuous: a few times the truth


def test_class_majorant_refuses_what_it_cannot_prove():
    n = P("n")
    assert class_majorant(1 / n, 1) == (1, 1)
    assert class_majorant(-1 / (2 * n + 1), 1)[0] == -1
    assert class_majorant(P("sin(n)/n"), 1) is None  # no one sign
    assert class_majorant(P("n/(n**2 + 100)"), 1)[1] >= 16  # increases up to n = 10
    L, classes = residue_classes(P("(-1)**n*(n - 5)/n**2"))  # classes change sign at 5
    s = GroupSup.build(L, classes, 1)
    assert s is None or s.start >= 3
