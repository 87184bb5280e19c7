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
# slopes of known irrationality measure mu: S_N = O(N^(1 - 1/(mu - 1) + eps)), so Abel's
# summation converges where sum g(n) n^(-1/(mu - 1) + eps) does
BY_MEASURE = [
    ("(-1)**floor(pi*n)/n", "Zeilberger and Zudilin"),  # 1 > 1 - 1/6.1033 = 0.8362
    ("(-1)**floor(pi*n)/n**(17/20)", "Zeilberger and Zudilin"),  # 0.85 > 0.8362
    ("(-1)**floor(3*pi*n/2 + 1)/n", "Zeilberger and Zudilin"),  # a rational affine map of pi
    ("(-1)**floor(E*n)/n**(1/100)", "partial quotients of e"),  # mu(e) = 2: any power > 0
    ("(-1)**floor(2**(1/3)*n)/n**(1/5)", "Roth"),  # algebraic of degree 3: mu = 2
    ("(-1)**floor(log(4)*n)/n**(7/10)", "Marcovecchio"),  # 0.7 > 1 - 1/2.5746 = 0.6116
    ("(-1)**floor(pi**2*n/6)/n**(4/5)", "Zudilin"),  # 0.8 > 1 - 1/4.0955 = 0.7558
]
# not taken: slope of no known measure or bounded partial quotients, g not -> 0, a power
# at or below the measure's threshold, or sum g(n)/n not convergent (the O(log N) bound is
# then not enough)
REFUSED = [
    "(-1)**floor(pi*n)/n**(4/5)",  # 0.8 < 0.8362: the measure of pi does not settle it
    "(-1)**floor(log(4)*n)/n**(3/5)",  # 0.6 < 0.6116
    "(-1)**floor(exp(pi)*n)/n",  # no irrationality measure of e^pi is known here
    "(-1)**floor(E*n)",  # g does not tend to 0
    # S_N = O(N^eps) for every eps > 0 only: sum g(n) n^(eps - 1) diverges for every eps
    "(-1)**floor(E*n)/log(n + 1)**2",
    "(-1)**floor(sqrt(2)*n)",
    "(-1)**floor(sqrt(2)*n)/log(n + 1)",
    "(-1)**floor(sqrt(2)*n**2)/n",
]


@pytest.mark.parametrize("text", CONVERGE)
def test_converges(text):
    d = beatty_sign_test(P(text), decide_numeric)
    assert d is not None and d.converges is True and "quadratic irrational" in d.certificate


@pytest.mark.parametrize("text, source", BY_MEASURE)
def test_converges_by_the_irrationality_measure(text, source):
    d = beatty_sign_test(P(text), decide_numeric)
    assert d is not None and d.converges is True and source in d.certificate, d


def test_partial_sums_of_pi_signs_stay_below_the_measure_rate():
    """The sceptic's alternative is a random walk, |S_N| ~ sqrt(N): with exact floors
    (pi to 60 digits, so floor(pi n) is right for n <= 2^16), max |S_N|/N^0.5 over
    2^10 <= N <= 2^16 stays small (pi/2 has small partial quotients early: |S_N| is in fact
    O(log N) on this range), and far below the N^0.84 the proof allows."""
    import mpmath

    with mpmath.workdps(60):
        pi = mpmath.pi
        S, worst = 0, 0.0
        for n in range(1, 2**16 + 1):
            S += -1 if int(mpmath.floor(pi * n)) % 2 else 1
            if n >= 2**10:
                worst = max(worst, abs(S) / n**0.5)
    assert worst < 1


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
