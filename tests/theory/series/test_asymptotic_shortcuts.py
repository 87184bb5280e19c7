"""The asymptotic order of TRF read off log b_n = P(ln n) without a limit must equal the
Gruntz-limit derivation it replaces (theory.series.asymptotics), and a term outside the class
(a log of a log, a positive leading coefficient, a power law) must be left to the limits."""

import pytest

from theory.series import asymptotics
from theory.series.expressions import parse_expression as P


@pytest.mark.parametrize(
    "text",
    ["exp(-ln(n)**2)", "exp(-ln(n)**3/2 + 5*ln(n))", "exp(-2*ln(n)**2 - 3)", "n**3*exp(-ln(n)**2)"],
)
def test_log_polynomial_shortcut_equals_the_limits(text, monkeypatch):
    quick = asymptotics.asymptotic_order(P(text))
    monkeypatch.setattr(asymptotics, "_log_polynomial_order", lambda L: None)
    slow = asymptotics.asymptotic_order(P(text))
    assert quick is not None and slow is not None
    assert quick[0] == slow[0] and quick[2] == slow[2] == "log-normal"
    assert all(abs(quick[3][k] - slow[3][k]) < 1e-25 for k in ("a", "c"))


@pytest.mark.parametrize(
    "text", ["n**(-2)", "exp(-ln(n)*ln(ln(n)))", "exp(ln(n)**2)", "exp(-sqrt(n))"]
)
def test_terms_outside_the_class_take_the_limits(text):
    import sympy as sp

    L = sp.expand_log(sp.log(P(text)), force=True)
    assert asymptotics._log_polynomial_order(L) is None, text
