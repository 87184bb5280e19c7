"""Signs of derivative factors proved at the far end: t^k f(1/t) enclosed on [0, 1/P].

Each truth is argued in a comment from the function itself; the end-to-end sums are checked
against mpmath.nsum (alternating-series acceleration) at 40 digits, computed here."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from theory.series.eventual_signs import derivative_sign, signed_derivatives
from theory.series.expressions import N
from theory.series.expressions import parse_expression as P
from theory.series.sums import certify_tail

CASES = [
    # cos(1/x) on [1, oo): 1/x in (0, 1], cos > cos(1) > 0
    (sp.cos(1 / N), 1, 1),
    # d/dx sin(1/x) = -cos(1/x)/x^2 < 0 on [2, oo)
    (sp.diff(sp.sin(1 / N), N), 2, -1),
    # x^4 d^2/dx^2 sin(1/x) = 2x cos(1/x) - sin(1/x) >= 2x cos(1/2) - 1 > 0 for x >= 2
    (2 * N * sp.cos(1 / N) - sp.sin(1 / N), 2, 1),
    # exp(-1/x) - 2 in (-2, -1] on [1, oo): negative
    (sp.exp(-1 / N) - 2, 1, -1),
    # atan(1/x) - 1 < atan(1) - 1 < 0 on [1, oo)
    (sp.atan(1 / N) - 1, 1, -1),
]

# each of these changes sign on [P, oo) or is 0 at infinity: no sign may be claimed
NO_SIGN = [
    (sp.cos(2 / N), 1),  # 2/x runs through (0, 2]: cos(2) < 0 < cos(1/2)
    (sp.cos(N), 2),  # oscillates
    (sp.sin(1 / N) - 1 / N + sp.Rational(1, 10**6) * sp.cos(3 / N), 1),  # < 0 at x = 1, > 0 far
    (sp.sin(N) / N, 2),  # oscillates
]


@pytest.mark.parametrize(("f", "start", "sign"), CASES, ids=[str(c[0]) for c in CASES])
def test_far_end_sign_is_proved(f, start, sign):
    assert derivative_sign(sp.factor(f), start) == sign


@pytest.mark.parametrize(("f", "start"), NO_SIGN, ids=[str(c[0]) for c in NO_SIGN])
def test_no_sign_where_the_factor_changes_sign(f, start):
    assert derivative_sign(sp.factor(f), start) is None


def test_sign_changing_witness_is_real():
    """The third NO_SIGN factor does change sign (the test above is not vacuous)."""
    f = sp.lambdify(N, NO_SIGN[2][0], "mpmath")
    assert f(mpmath.mpf(1)) < 0 < f(mpmath.mpf(10**4))


def test_sin_of_reciprocal_has_signed_derivatives():
    s = signed_derivatives(P("sin(1/n)"), 1)
    assert s is not None and s.orders >= 1 and "t^k f(1/t)" in s.note


@pytest.mark.parametrize(
    ("text", "f"),
    [
        ("(-1)**n*sin(1/n)", lambda n: (-1) ** n * mpmath.sin(1 / n)),
        ("(-1)**n*cos(1/n)/n", lambda n: (-1) ** n * mpmath.cos(1 / n) / n),
    ],
)
def test_alternating_sum_with_reciprocal_trig_is_enclosed(text, f):
    with mpmath.workdps(40):
        ref = mpmath.nsum(f, [1, mpmath.inf], method="alternating")
        t = certify_tail(P(text), 1)
        assert t is not None, text
        B = t.tail(1)
        lo, hi = (mpmath.mpf(x.str(40, radius=False)) for x in (B.lower(), B.upper()))
        assert lo <= ref <= hi, (text, lo, ref, hi)
