"""Signs of derivative factors proved at the far end: t^k f(t^-m) enclosed on [0, P^(-1/m)].

Each truth is argued in a comment from the function itself; the end-to-end sums are checked
against mpmath.nsum (alternating-series acceleration) at 40 digits, computed here."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import mpmath
import pytest
import sympy as sp

from theory.series.eventual_signs import derivative_sign, signed_derivatives
from theory.series.expressions import N
from theory.series.expressions import parse_expression as P

ROOT = Path(__file__).resolve().parents[3]

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
    # d/dx sin(1/sqrt(x)) = -cos(x^(-1/2))/(2 x^(3/2)) < 0 on [1, oo): x^(-1/2) <= 1 < pi/2
    (sp.diff(sp.sin(1 / sp.sqrt(N)), N), 1, -1),
    # dominant monomial of a polynomial in x and L = log x: 2xL - 3x + L^2 - 2L + 1 (from
    # the 2nd derivative of x^(1/x)); the other quotients at 16 sum to 0.74 < 1
    (2 * N * sp.log(N) - 3 * N + sp.log(N) ** 2 - 2 * sp.log(N) + 1, 16, 1),
    # x - 100 L^2: 100 L^2/x decreases for L >= 2 and is 0.19 at 2^16
    (N - 100 * sp.log(N) ** 2, 2**16, 1),
    # -x^(3/2) L + 5 x L^3: 5 L^2/sqrt(x) decreases for L >= 4, 0.34 at 2^24 (2.4 at 2^16)
    (-(N ** sp.Rational(3, 2)) * sp.log(N) + 5 * N * sp.log(N) ** 3, 2**24, -1),
]

# each of these changes sign on [P, oo) or is 0 at infinity: no sign may be claimed
NO_SIGN = [
    (sp.cos(2 / N), 1),  # 2/x runs through (0, 2]: cos(2) < 0 < cos(1/2)
    (sp.cos(N), 2),  # oscillates
    (sp.sin(1 / N) - 1 / N + sp.Rational(1, 10**6) * sp.cos(3 / N), 1),  # < 0 at x = 1, > 0 far
    (sp.sin(N) / N, 2),  # oscillates
    (sp.cos(3 / sp.sqrt(N)), 1),  # 3/sqrt(x) runs through (0, 3]: cos(3) < 0 < cos(1)
    (N - 100 * sp.log(N) ** 2, 2**12),  # 4096 - 100 log(4096)^2 = -2823 < 0, > 0 far out
    (-(N ** sp.Rational(3, 2)) * sp.log(N) + 5 * N * sp.log(N) ** 3, 2**16),  # > 0 at 2^16
    (N - N * sp.log(N) / 10**9, 2),  # x (1 - 1e-9 L) changes sign at L = 1e9
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
    # orders beyond the first need t^k to cancel the pole (how many fit in the proof's CPU
    # budget depends on the machine)
    assert s is not None and s.orders >= 2 and "t^k f(t^-m)" in s.note


@pytest.mark.parametrize(
    ("text", "f"),
    [
        ("(-1)**n*sin(1/n)", lambda n: (-1) ** n * mpmath.sin(1 / n)),
        ("(-1)**n*cos(1/n)/n", lambda n: (-1) ** n * mpmath.cos(1 / n) / n),
        ("(-1)**n*sin(1/sqrt(n))", lambda n: (-1) ** n * mpmath.sin(1 / mpmath.sqrt(n))),
    ],
)
def test_alternating_sum_with_reciprocal_trig_is_enclosed(text, f):
    r = subprocess.run(
        [sys.executable, "-m", "theory.trf", "--rpe", text, "--json", "--time-limit", "60"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    with mpmath.workdps(40):
        ref = mpmath.nsum(f, [1, mpmath.inf], method="alternating")
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        assert lo <= ref <= hi, (text, lo, ref, hi)
    # derivative orders beyond the first signed at the far end (poles cancelled by t^k):
    # Euler's transform gives 30+ digits on a quiet machine (the orders proved depend on a
    # CPU budget), where the first derivative alone gave about 11
    assert out["certified"] and out["sum_digits"] >= 15, out["sum_digits"]
