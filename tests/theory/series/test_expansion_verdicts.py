"""Verdicts for F (G + H)^-s, G -> oo smooth, H bounded and oscillating: the certified
expansion of :mod:`theory.series.expansions`.

References, worked out by hand (the main part of the expansion and a summable remainder):

* sin(n)/(sqrt(n) + sin(n)) = sin/sqrt(n) - sin^2/n + O(n^-3/2): diverges (sin^2 has mean
  1/2); sympy's is_convergent agrees (False).
* cos(n)/(sqrt(n) + cos(n)): the same with cos; diverges (sympy: False).
* sin(2n)/(sqrt(n) - sin(2n)) = sin(2n)/sqrt(n) + sin(2n)^2/n + O(n^-3/2): diverges
  (sympy: False).
* sin(n)/(n^(3/4) + sin(n)) = sin/n^(3/4) + O(n^-3/2): converges.  sympy's is_convergent
  says False here, which is wrong: sum sin(n)/n^(3/4) converges by Dirichlet's test and
  the rest is absolutely summable.
* sin(n)/(n^(1/3) + sin(n)) = sin/n^(1/3) - sin^2/n^(2/3) + sin^3/n + O(n^-4/3): diverges.
* sin(n)/(sqrt(n) + cos(n)) = sin/sqrt(n) - sin(2n)/(2n) + O(n^-3/2): converges.
* cos(n)/(n + 2 cos(n)) = cos/n + O(n^-2): converges.

An independent numeric check: the partial sums of the divergent ones drift like
-(1/2) log N (float64 sums of 2^17 terms), those of the convergent ones settle.
"""

from __future__ import annotations

import numpy as np
import pytest

from theory.series.convergence import decide
from theory.series.expansions import expansion_test
from theory.series.expressions import parse_expression as P
from theory.series.numeric import decide_numeric

CASES = [
    ("sin(n)/(sqrt(n) + sin(n))", False),
    ("cos(n)/(sqrt(n) + cos(n))", False),
    ("sin(2*n)/(sqrt(n) - sin(2*n))", False),
    ("sin(n)/(n**0.75 + sin(n))", True),
    ("sin(n)/(n**(1/3) + sin(n))", False),
    ("sin(n)/(sqrt(n) + cos(n))", True),
    ("cos(n)/(n + 2*cos(n))", True),
    # log(1 + u) = u - u^2/2 + O(u^3), exp(u) - 1 = u + u^2/2 + O(u^3), u = sin(n)/sqrt(n):
    # the u^2 part has mean 1/(4n): diverges; with u = cos(n)/n^(3/4), u^2 is summable
    ("log(1 + sin(n)/sqrt(n))", False),
    ("exp(sin(n)/sqrt(n)) - 1", False),
    ("log(1 + cos(n)/n**0.75)", True),
    ("exp(cos(n)/n**0.75) - 1", True),
]


@pytest.mark.parametrize("text,converges", CASES)
def test_expansion_verdict(text, converges):
    d = decide(P(text), 2)
    assert d.converges is converges, (text, d.certificate)
    assert d.test == "expansion" and "r_n" in d.certificate


@pytest.mark.parametrize(
    "text",
    [
        "sin(n)/(log(n) + sin(n))",  # every remainder order ~ 1/log(n)^(K+1): not summable
        "sin(n)/(2 + sin(n))",  # G does not tend to infinity
        "sin(n)/(n*sin(n) + sqrt(n))",  # H/G does not tend to 0
        "log(1 + sin(n)/log(n))",  # every remainder order ~ 1/log(n)^K: not summable
        "log(2 + sin(n)/sqrt(n))",  # not small: log(2 + u) does not tend to 0
    ],
)
def test_no_expansion_no_verdict(text):
    assert expansion_test(P(text), decide_numeric) is None


def _drift(f) -> float:
    """S(2^17) - S(2^16) of b_n = f(n) in float64 (n >= 2)."""
    n = np.arange(2, 2**17, dtype=np.float64)
    b = f(n)
    return float(b[2**16 - 2 :].sum())


@pytest.mark.parametrize(
    "f,diverges",
    [
        (lambda n: np.sin(n) / (np.sqrt(n) + np.sin(n)), True),  # -(1/2) log 2 = -0.347
        (lambda n: np.sin(n) / (n**0.75 + np.sin(n)), False),
        (lambda n: np.sin(2 * n) / (np.sqrt(n) - np.sin(2 * n)), True),  # +0.347
        (lambda n: np.log1p(np.sin(n) / np.sqrt(n)), True),  # -(1/4) log 2 = -0.173
    ],
)
def test_partial_sums_agree(f, diverges):
    d = _drift(f)
    assert abs(d) > 0.15 if diverges else abs(d) < 0.02, d
