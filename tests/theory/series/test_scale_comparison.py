"""Limit comparison with the log-scale form found by limits
(theory.series.scale_comparison): terms whose cancellation hides their size from interval
bounds.  Each verdict is derived by hand in its comment (the asymptotics of the term), and
the limit b_n/M_n -> K the certificate states is checked against mpmath at n = 10^8."""

import json
import re

import mpmath
import pytest
import sympy as sp

from theory.series.expressions import N, parse_expression
from theory.series.scale_comparison import scale_comparison_test
from theory.trf.cli import main

# (formula, start, converges, mpmath M(n), K): b_n ~ K M_n by Taylor expansion
CASES = [
    # exp(x) - 1 = x + O(x^2), x = e^-n
    ("exp(exp(-n)) - 1", 1, True, lambda n: mpmath.exp(-n), 1),
    # pi/2 - atan(n) = atan(1/n) = 1/n + O(n^-3)
    ("pi/2 - atan(n)", 1, False, lambda n: 1 / n, 1),
    # 1 - tanh(n) = 2/(e^(2n) + 1) = 2 e^(-2n) + ...
    ("1 - tanh(n)", 1, True, lambda n: mpmath.exp(-2 * n), 2),
    # sqrt(n^4 + 1) - n^2 = 1/(sqrt(n^4 + 1) + n^2) ~ 1/(2 n^2)
    ("sqrt(n**4 + 1) - n**2", 1, True, lambda n: n**-2, sp.Rational(1, 2)),
    # 1 - exp(exp(-n)) < 0: -b_n ~ e^-n
    ("1 - exp(exp(-n))", 1, True, lambda n: mpmath.exp(-n), 1),
    # n^(1/n) - 1 = log(n)/n + ...: diverges (Bertrand, e_1 = 1 > -1)
    ("n**(1/n) - 1", 1, False, lambda n: mpmath.log(n) / n, 1),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_verdict_and_limit(case):
    formula, start, converges, M, K = case
    b = parse_expression(formula)
    d = scale_comparison_test(b)
    assert d is not None and d.converges is converges, (formula, d)
    s = -1 if d.certificate.startswith("limit comparison: -b_n") else 1
    k = parse_expression(re.search(r"-> (\S+) > 0", d.certificate).group(1))
    assert k == K
    with mpmath.workdps(60):
        n = mpmath.mpf(40) if "e^" in d.certificate else mpmath.mpf(10) ** 8  # a scale e^(c n)
        value = mpmath.mpf(str((s * b).subs(N, n).evalf(80)))
        assert abs(value / M(n) / mpmath.mpf(str(K)) - 1) < 1e-6, (formula, value)


@pytest.mark.parametrize(
    "formula",
    [
        "sin(n)/n",  # oscillating: not smooth
        "exp(-n)*sin(n)**2",  # oscillating factor
        "1/n**2",  # smooth, but nothing hidden: the answer is the same (converges)
    ],
)
def test_applies_only_to_smooth_terms(formula):
    d = scale_comparison_test(parse_expression(formula))
    assert d is None or (formula == "1/n**2" and d.converges is True)


def test_the_command_decides(capsys):
    """exp(exp(-n)) - 1 was undecided (no bounds showed a sign); pi/2 - atan(n) too."""
    for formula, verdict in (("exp(exp(-n))-1", True), ("pi/2-atan(n)", False)):
        assert main([f"--rpe={formula}", "--verdict-only", "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["converges"] is verdict
