"""The sum stage is total: hypothesis builds formulas from the whitelist grammar (powers,
exp, log, sin, cos, floor of non-linear arguments, Abs, Max, Min, gamma, factorial, signs
(-1)**n and products of sin/cos with (-1)**n) and the command must answer each with a
verdict and either a certified B, a certified lower bound or "no estimate" -- never an
internal error, a traceback, or an uncertified number.  When an enclosure is printed for
terms of one sign, it is checked against an mpmath partial sum (a lower bound for B, 30
digits); enclosures of signed forms are checked in test_dirichlet_abel.py."""

from __future__ import annotations

import json

import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from theory.series.expressions import N, parse_expression
from theory.trf.cli import main

ATOMS = ["n", "n + 1", "log(n + 1)", "sqrt(n)", "2", "1/2", "3"]
UNARY = ["exp(-{})", "log(1 + {})", "sin({})", "cos({})", "floor({})", "Abs({})", "1/(1 + {})"]


@st.composite
def expr(draw, depth=2):
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from(ATOMS))
    kind = draw(st.sampled_from(["unary", "add", "mul", "max", "min"]))
    a = draw(expr(depth - 1))
    if kind == "unary":
        return draw(st.sampled_from(UNARY)).format(a)
    b = draw(expr(depth - 1))
    return {"add": f"({a}) + ({b})", "mul": f"({a})*({b})"}.get(kind, f"{kind.title()}({a}, {b})")


@st.composite
def term(draw):
    """A series term: a decaying envelope times a factor from the grammar."""
    env = draw(
        st.sampled_from(
            [
                "n**(-2)",
                "exp(-n/3)",
                "exp(-log(n)**2)",
                "1/(n*log(n + 1)**2)",
                "2**(-floor(log(n)/log(2)))/n",
                "gamma(n)/gamma(n + 3)",
                "factorial(n)/factorial(n + 2)",
                "n**(-1/2)",
                "binomial(2*n, n)/(4**n*n)",
                "gamma(n + 1/2)/(gamma(n + 1)*n**(3/4))",
            ]
        )
    )
    factor = draw(expr())
    sign = draw(
        st.sampled_from(["", "(-1)**n*", "sin(n)*", "(-1)**n*cos(n)*", "sin(pi*n/3)*cos(n)*"])
    )
    return f"{sign}({env})*({factor})"


def _run(text: str, capsys):
    code = main(["--rpe", text, "--json", "--time-limit", "3", "--eps", "0.1", "0.001"])
    cap = capsys.readouterr()
    return code, cap


def check_total(text: str, capsys) -> None:
    code, cap = _run(text, capsys)
    assert "Traceback" not in cap.err and "internal error" not in cap.err + cap.out, text
    if code == 2:  # a refused input: one error line
        lines = cap.err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error:"), (text, cap.err)
        return
    assert code == 0, (text, cap.err)
    out = json.loads(cap.out)
    assert "internal error" not in json.dumps(out), text
    if out["sum"] is not None:
        assert out["certified"], (text, "an uncertified number was printed")
    for t in out["trf"]:
        assert t["exact"] or t["value"] is None or out["certified"], (text, t)
    if out["certified"] or out.get("sum_lo") is not None:
        _check_lower(text, out)


def _check_lower(text, out):
    """Without sin, cos or (-1)**n every grammar term is >= 0 (the atoms are positive and
    every operation keeps that): a printed upper end is then >= the sum of the first 200
    terms (mpmath, 30 digits), a printed lower end <= the upper end."""
    if any(w in text for w in ("sin", "cos", "(-1)")):
        return
    f = sp.lambdify(N, parse_expression(text), modules="mpmath")
    with mpmath.workdps(30):
        vals = [mpmath.re(f(mpmath.mpf(n))) for n in range(1, 201)]
    assert all(v >= 0 for v in vals), text
    if out["sum_hi"] is not None:
        assert mpmath.mpf(out["sum_lo"]) <= mpmath.mpf(out["sum_hi"]), text
        assert mpmath.fsum(vals) <= mpmath.mpf(out["sum_hi"]) * (1 + mpmath.mpf(10) ** -20)


COMMON = dict(
    derandomize=True, deadline=None, suppress_health_check=list(HealthCheck), database=None
)


@settings(max_examples=8, **COMMON)
@given(text=term())
def test_sum_stage_is_total(text, capsys):
    check_total(text, capsys)


@pytest.mark.slow
@settings(max_examples=120, **COMMON)
@given(text=term())
def test_sum_stage_is_total_many(text, capsys):
    check_total(text, capsys)


@st.composite
def hypergeometric_term(draw):
    """prod_i gamma(n + a_i)/gamma(n + c_i) * n^-s * x^n (a_i, c_i >= -5/6: every term > 0 for
    n >= 1): the term ratio tends to x, and at x = 1 the Raabe exponent sum c - sum a + s
    falls on both sides of 1 (ratio test, telescoper, Raabe/Gauss divergence)."""
    k = draw(st.integers(1, 3))
    shift = st.fractions(min_value="-5/6", max_value=3, max_denominator=6)
    ups, downs = [draw(shift) for _ in range(k)], [draw(shift) for _ in range(k)]
    s = draw(st.sampled_from(["0", "1/4", "1/2", "1", "3/2"]))
    x = draw(st.sampled_from(["1", "1", "1/2", "3/4"]))
    num = "*".join(f"gamma(n + ({a}))" for a in ups)
    den = "*".join(f"gamma(n + ({c}))" for c in downs)
    return f"{num}/({den})*n**(-({s}))*({x})**n"


@settings(max_examples=8, **COMMON)
@given(text=hypergeometric_term())
def test_sum_stage_is_total_on_hypergeometric_terms(text, capsys):
    check_total(text, capsys)


@pytest.mark.parametrize(
    "text",
    [
        "exp(-floor(log(n)/log(2)))",  # floor of a non-linear argument
        "sin(n)/log(n + 1)",  # oscillating, slow
        "exp(-2*n**(1/100))",  # B ~ 8.3e41 beyond every enclosure: no number claimed
        "Max(1/n**2, exp(-n))",
        "(-1)**n/n**2",
    ],
)
def test_named_totality_cases(text, capsys):
    check_total(text, capsys)
