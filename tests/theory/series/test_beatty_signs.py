"""Signs along Beatty sequences (theory.series.beatty_signs): the verdicts, the forms
refused, and the property the proof rests on, measured with exact integer floors."""

import json
import math

import pytest

from theory.series.beatty_signs import beatty_sign_test, quadratic_irrational
from theory.series.expressions import parse_expression as P
from theory.series.numeric import decide_numeric
from theory.trf.cli import main

CONVERGE = [
    "(-1)**floor(sqrt(2)*n)/n",
    "(-1)**floor(sqrt(3)*n)/n",
    "(-1)**floor((1 + sqrt(5))*n/2)/sqrt(n)",
    "(-1)**floor(sqrt(2)*n + 1/3)/log(n + 1)**2",  # sum g(n)/n = sum 1/(n log(n+1)^2)
    "-(-1)**floor(sqrt(7)*n/3)/n**(1/10)",
]
# not taken: slope not known to have bounded partial quotients, g not -> 0, or
# sum g(n)/n not convergent (the O(log N) bound is then not enough)
REFUSED = [
    "(-1)**floor(pi*n)/n",
    "(-1)**floor(2**(1/3)*n)/n",
    "(-1)**floor(sqrt(2)*n)",
    "(-1)**floor(sqrt(2)*n)/log(n + 1)",
    "(-1)**floor(sqrt(2)*n**2)/n",
]


@pytest.mark.parametrize("text", CONVERGE)
def test_converges(text):
    d = beatty_sign_test(P(text), decide_numeric)
    assert d is not None and d.converges is True and "quadratic irrational" in d.certificate


@pytest.mark.parametrize("text", REFUSED)
def test_refused(text):
    assert beatty_sign_test(P(text), decide_numeric) is None


def test_quadratic_irrationals():
    assert quadratic_irrational(P("(1 + sqrt(5))/2")) and quadratic_irrational(P("3 - sqrt(8)"))
    assert not quadratic_irrational(P("sqrt(8)/sqrt(2)"))  # = 2
    assert not quadratic_irrational(P("sqrt(2) + sqrt(3)"))  # degree 4
    assert not quadratic_irrational(P("E"))


@pytest.mark.parametrize("d, scale", [(2, 1), (3, 1), (5, 2)])
def test_partial_sums_grow_like_log_not_like_a_random_walk(d, scale):
    """S_N = sum_{n <= N} (-1)^floor(sqrt(d) n / scale), with floor(sqrt(d) n/scale) =
    isqrt(d n^2) // scale exactly: max |S_N| up to 2^16 is within 4 log2(N) (the proof's
    O(log N)), far below the sqrt(N) = 256 of random signs, the sceptic's alternative."""
    S, worst = 0, 0
    for n in range(1, 2**16 + 1):
        S += -1 if (math.isqrt(d * n * n) // scale) % 2 else 1
        worst = max(worst, abs(S) / max(1.0, math.log2(n)))
    assert worst < 4 and worst * 16 < 2**8


def test_the_verdict_on_the_command_line(capsys):
    assert main(["--rpe", "(-1)**floor(sqrt(2)*n)/n", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["converges"] is True and "Beatty" in out["certificate"]


def test_free_parameter_condition(capsys):
    """(-1)**floor(sqrt(2)*n)/n**p: Abel summation where p > 0 (sum n^(-1-p) converges),
    terms not -> 0 where p <= 0; the condition is checked at sample values by the sign-case
    machinery."""
    argv = ["--rpe", "(-1)**floor(sqrt(2)*n)/n**p", "--free", "p", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["condition"] == "converges iff p > 0", out["condition"]


def test_free_parameter_gap_is_not_filled(capsys):
    """(-1)**floor(sqrt(2)*n)/log(n)**q: g -> 0 for every q > 0 but sum g(n)/n converges
    only for q > 1; 0 < q <= 1 is not claimed."""
    argv = ["--rpe", "(-1)**floor(sqrt(2)*n)/log(n)**q", "--free", "q", "--start", "2", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert "converges iff" not in (out["condition"] or ""), out["condition"]
