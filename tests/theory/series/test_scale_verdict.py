"""The quick path of ``python -m theory.trf --verdict-only`` (theory.series.scale_verdict):
never a wrong verdict, silent (None) wherever it cannot prove one, and no sympy loaded.

References: the hand-derived verdicts of the held-out sets 5-11 (each case's ``note``), and
mpmath at 50 digits for the expansions' leading terms.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from fractions import Fraction

import mpmath as mp
import pytest

from theory.series.scale_asymptotics import ONE, Value
from theory.series.scale_verdict import _Builder, _parse, quick_verdict
from theory.trf.cli import main
from theory.trf.quick import DEFAULT_TIME_LIMIT, quick_answer, quick_request


def _formula(args: list) -> tuple | None:
    """(formula, start) of a case that is a plain ``--rpe FORMULA [--start S]`` command."""
    rpe, start, i = None, 1, 0
    while i < len(args):
        a = args[i]
        if a == "--rpe":
            rpe, i = args[i + 1], i + 2
        elif a == "--start":
            if not args[i + 1].lstrip("-").isdigit():
                return None
            start, i = int(args[i + 1]), i + 2
        elif a == "--time-limit":
            i += 2
        elif a == "--eps":
            i += 1
            while i < len(args) and not args[i].startswith("--"):
                i += 1
        elif a == "--json":
            i += 1
        else:
            return None
    return None if rpe is None else (rpe, start)


def _heldout_cases() -> list:
    """(set, id, formula, start, verdict) of every plain-formula case of sets 5-11 whose
    verdict was derived by hand (set 5: each convergent case carries its B)."""
    out = []
    for k in (5, 6, 7, 8, 9, 10, 11):
        m = importlib.import_module(f"tests.theory.series.heldout{k}_cases")
        cases = (
            m.build_cases()
            if hasattr(m, "build_cases")
            else m.CASES + getattr(m, "EXTRA_CASES", [])
        )
        for c in cases:
            verdict = getattr(c, "verdict", True if getattr(c, "B", None) else None)
            f = _formula(c.args)
            if f is not None and verdict in (True, False):
                out.append((k, getattr(c, "id", getattr(c, "name", "")), f[0], f[1], verdict))
    return out


@pytest.mark.slow
@pytest.mark.agreement
def test_never_wrong_on_the_heldout_sets():
    cases = _heldout_cases()
    decided = wrong = 0
    for k, cid, text, start, verdict in cases:
        v = quick_verdict(text, start)
        if v is None:
            continue
        decided += 1
        if v.converges != verdict:
            wrong += 1
            print("WRONG", k, cid, text, start, verdict, v.certificate)
    assert wrong == 0
    # the quick path is not vacuous: it decides a large share of these hand-derived cases
    assert len(cases) > 250 and decided > 0.4 * len(cases), (decided, len(cases))


# (formula, start, the verdict by hand)
DECIDED = [
    ("1/(n**2 + n + 1)", 1, True),  # ~ n^-2
    ("n/(n**3 - n + 7)", 1, True),  # ~ n^-2
    ("1/(sqrt(n)*log(n + 1))", 1, False),  # ~ n^-1/2 / log n
    ("exp(-log(n)**(3/2))", 1, True),  # beyond every power
    ("1/(n*log(n)*log(log(n)))", 3, False),  # Bertrand, level 2
    ("1/(n*log(n)*log(log(n))**2)", 3, True),  # Bertrand, level 2, exponent 2
    ("1/n**(1+1/10**6)", 1, True),  # p-series, p > 1
    ("1/n**(1-1/10**6)", 1, False),  # p-series, p < 1
    ("(1 + 1/n)**(-n**2)", 1, True),  # = e^(-n + 1/2 + ...)
    ("(1 - 1/n)**(n**2)", 2, True),
    ("(1 + 1/n)**(n**2)*exp(-n)", 1, False),  # -> e^(-1/2) != 0
    ("1 - cos(1/n)", 1, True),  # ~ 1/(2 n^2)
    ("tan(1/n)", 1, False),  # ~ 1/n
    ("atan(n)/n**2", 1, True),  # ~ (pi/2)/n^2
    ("(3 + sin(n))/n**(3/2)", 1, True),  # bounded factor in [2, 4]
    ("(2 + cos(2*n))/(n + 1)", 0, False),  # factor in [1, 3], harmonic
    ("exp(cos(n))/n", 1, False),  # factor in [1/e, e]
    ("(-1)**n/n**2", 1, True),  # absolutely
    ("factorial(n)**2/factorial(2*n)", 1, True),  # ~ sqrt(pi n) 4^-n
    ("gamma(n + 1/2)/(gamma(n)*n**2)", 1, True),  # ~ n^-3/2
    ("gamma(n + 1/2)/(gamma(n)*n**(3/2))", 1, False),  # ~ 1/n
    ("n**n/(factorial(n)*3**n)", 1, True),  # ~ (e/3)^n / sqrt(2 pi n)
    ("2**(n**(10**6))", 1, False),  # terms -> oo
    ("sinh(1/n**2)", 1, True),
    ("n**2*exp(-sqrt(n))", 0, True),
    # cancellations down to the second or third term of an expansion
    ("n**2*(1 - cos(1/n)) - 1/2", 1, True),  # ~ -1/(24 n^2)
    ("exp(1/n) - 1 - 1/n", 1, True),  # ~ 1/(2 n^2)
    ("log(1 + 1/n) - 1/n + 1/(2*n**2)", 1, True),  # ~ 1/(3 n^3)
    ("n*sin(1/n) - 1", 1, True),  # ~ -1/(6 n^2)
    ("atan(1/n) - 1/n", 1, True),  # ~ -1/(3 n^3)
    ("sqrt(n**4 + n) - n**2", 1, False),  # ~ 1/(2 n)
    ("n**(1/n) - 1", 1, False),  # ~ log(n)/n
    ("1/(n*log(n)) - 1/((n+1)*log(n+1))", 2, True),  # ~ 1/(n^2 log n)
    ("exp(-log(n)**2/(log(n) + 1))", 2, False),  # = e^(1 - 1/(log n + 1))/n ~ e/n
    ("exp(-n**2)*exp(n**2)", 1, False),  # exactly 1
    ("n**n/factorial(n)/E**n", 1, False),  # ~ 1/sqrt(2 pi n)
    ("exp(n)*factorial(n)/n**(n+1)", 1, False),  # ~ sqrt(2 pi)/sqrt(n)
    ("(n + (-1)**n)**(-2)", 2, True),  # ~ n^-2
    ("(n**2 - 1000)**(-2)", 1, True),  # no integer root; ~ n^-4
    ("1/(n**2 - 10**9)", 10**5, True),  # from beyond the root
    ("binomial(n, 3)/n**4", 3, False),  # ~ 1/(6 n)
    ("binomial(2*n, n)/4**n", 1, False),  # ~ 1/sqrt(pi n): 2 n log 2 - n log 4 cancels exactly
    ("4**n/(n**2*binomial(2*n, n))", 1, True),  # ~ sqrt(pi) n^(-3/2)
    ("6**n/(2**n*3**n*n)", 1, False),  # exactly 1/n
    ("gamma(n)/gamma(n + 1/2)", 1, False),  # ~ n^-1/2
    ("1/(n*log(n)*log(log(n))*log(log(log(n))))", 16, False),  # Bertrand, level 3
    ("1/(n*log(n)*log(log(n))*log(log(log(n)))**2)", 16, True),
    ("10**400/n**2", 1, True),
    ("1e-400/n**2", 1, True),
]


@pytest.mark.parametrize("text,start,verdict", DECIDED)
def test_decides_these(text, start, verdict):
    v = quick_verdict(text, start)
    assert v is not None, text
    assert v.converges is verdict, (text, v.certificate)


# formulas the quick path must leave to the full engine: undefined or unproved terms at
# some n >= start, sign changes it cannot settle, cancellations, names it does not read
LEFT = [
    ("1/(n-5)", 1),  # b_5 undefined
    ("1/(n**2 - 10*n + 24)", 1),  # b_4, b_6 undefined
    ("1/(n - 1000)**2", 1),  # b_1000 undefined (beyond the first 64 terms)
    ("1/(n**3 - 1000*n**2 + 1)", 1),  # the leading power dominates only beyond n = 1000
    ("log(n - 3)/n**2", 1),  # log(-2)
    ("1/log(n)**2", 1),  # 1/log(1)
    ("sqrt(n - 100)/n**3", 1),  # not real for n < 100
    ("tan(n)/n**2", 1),  # tan near its poles
    ("gamma(n - 3)/factorial(n)**2", 1),  # gamma poles
    ("(-2)**(1/n)/n**2", 1),  # a real power of a negative base
    ("(-1)**n/n", 1),  # conditionally convergent: the full engine's Leibniz test
    ("sin(n)/n**(3/5)", 1),  # Dirichlet: the full engine
    ("cos(n)**2/n", 1),  # diverges, but its factor [0, 1] reaches 0
    ("n - n", 1),  # identically 0
    ("1/n**2 + a", 1),  # a parameter
    ("type1", 1),  # a named RPE
    ("floor(sqrt(n))/n**2", 1),  # a function the quick path does not read
    ("exp(-sqrt(log(n)))", 1),  # exp of a monomial between 1 and log n: off the scale
    ("pi**n/(pi**n + n)", 1),  # G cancels between constants known only as intervals (log pi)
    ("1/(n + (-1)**n*sqrt(n))", 1),  # b_1 = 1/0
    ("(n-3)**(-2)", 1),  # b_3 = 1/0
    ("log(n)**(-2)/n", 1),  # b_1 = 1/0
    ("1/n**2", 0),  # b_0 = 1/0
    ("1/(n**2 - 10**9)", 1),  # no integer root, but not proved beyond the first terms
    ("(2 + sin(n))**(-n)", 1),  # an oscillating exponent
    ("tanh(n) - 1", 1),  # -2 e^(-2n): beyond the scale's exactness (cancels to 0 on it)
]


@pytest.mark.parametrize("text,start", LEFT)
def test_leaves_these_to_the_full_engine(text, start):
    assert quick_verdict(text, start) is None


# (formula, the same function in mpmath)
LIMITS = [
    # (1 + 1/n)^(n^2) e^-n -> e^(-1/2)
    ("(1 + 1/n)**(n**2)*exp(-n)", lambda n: (1 + 1 / n) ** (n**2) * mp.exp(-n)),
    # Gamma(n + 1/2) / (Gamma(n) sqrt(n)) -> 1
    ("gamma(n + 1/2)/(gamma(n)*sqrt(n))", lambda n: mp.gamma(n + 0.5) / (mp.gamma(n) * mp.sqrt(n))),
    # n^2 (1 - cos(1/n)) -> 1/2
    ("n**2*(1 - cos(1/n))", lambda n: n**2 * (1 - mp.cos(1 / n))),
    # n! e^n / (n^n sqrt(n)) -> sqrt(2 pi) (Stirling)
    (
        "factorial(n)*exp(n)/(n**n*sqrt(n))",
        lambda n: mp.factorial(n) * mp.exp(n) / (n**n * mp.sqrt(n)),
    ),
]


@pytest.mark.parametrize("text,f", LIMITS)
def test_leading_constant_against_mpmath(text, f):
    """The expansion's leading term is a constant c (monomial 1) whose interval holds the
    limit, which mpmath at 60 digits gives by the value at n = 10^20 (within 1e-15 of it:
    each of these converges like 1/n)."""
    v = _Builder(8).value(_parse(text))
    m, c = v.size()
    assert not v.g and m == ONE
    with mp.workdps(60):
        limit = f(mp.mpf(10) ** 20)
        lo = mp.mpf(c.lo.numerator) / c.lo.denominator
        hi = mp.mpf(c.hi.numerator) / c.hi.denominator
        assert lo - mp.mpf(10) ** -15 <= limit <= hi + mp.mpf(10) ** -15
        assert hi - lo < mp.mpf(10) ** -9  # and the interval is narrow


def test_exact_constants_stay_exact():
    v = Value.n().power(Fraction(1, 2)) * Value.const(4).power(Fraction(1, 2))
    ((m, c),) = v.p.terms
    assert c.lo == c.hi == 2 and m[0] == Fraction(1, 2)


def test_request_form():
    assert quick_request(["--rpe", "1/n**2", "--verdict-only"])["start"] == 1
    assert quick_request(["--rpe=1/n**2", "--verdict-only", "--start=3"])["start"] == 3
    assert quick_request(["--rpe", "1/n**2"]) is None  # B and TRF asked for
    assert quick_request(["--rpe", "1/n**2", "--verdict-only", "--param", "k=1"]) is None
    assert quick_request(["--rpe", "1/n**2", "--verdict-only", "--start", "-1"]) is None
    assert quick_request(["--rpe", "1/n**2", "--verdict-onl"]) is None  # abbreviations: argparse
    assert quick_request(["--rpe", "a", "--rpe", "b", "--verdict-only"]) is None


def test_default_time_limit_is_the_commands():
    from theory.trf.analysis import DEFAULT_TIME_LIMIT as FULL

    assert DEFAULT_TIME_LIMIT == FULL


@pytest.mark.parametrize("text", ["1/(n**2 + n + 1)", "exp(-sqrt(n))", "1/(sqrt(n)*log(n + 1))"])
def test_quick_and_full_answers_agree(text, capsys, monkeypatch):
    quick = quick_answer(["--rpe", text, "--verdict-only", "--json"])
    assert quick is not None and quick["decided_by"].startswith("asymptotic scale")
    from theory.trf import analysis

    # the full analysis takes the quick verdict too; without it, sympy's engine decides
    assert analysis.run(["--rpe", text, "--verdict-only", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == quick
    monkeypatch.setattr(analysis, "quick_decision", lambda *args: None)
    assert analysis.run(["--rpe", text, "--verdict-only", "--json"]) == 0
    full = json.loads(capsys.readouterr().out)
    assert full["decided_by"] == "full engine"
    assert full["converges"] == quick["converges"]
    assert set(full) == set(quick)


def test_the_full_analysis_uses_the_quick_verdict_only_on_plain_formulas(capsys):
    """B and TRF follow the quick verdict of a plain formula; a parameter, a named RPE or a
    bias goes to the full engine."""
    from theory.trf.analysis import run

    cases = [
        (["--rpe", "1/(factorial(n)+exp(n))"], True),
        (["--rpe", "1/n**k", "--param", "k=2"], False),
        (["--rpe", "alibi"], False),
        (["--bias=-2*log(n)"], False),
    ]
    for argv, quick in cases:
        assert run([*argv, "--verdict-only", "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["converges"] is True
        assert out["decided_by"].startswith("asymptotic scale") is quick, argv


def test_verdict_only_refuses_trf_options(capsys):
    assert main(["--rpe", "1/n**2", "--verdict-only", "--truncate", "10"]) == 2
    assert capsys.readouterr().err.startswith("error: --verdict-only prints no TRF")


def test_the_quick_process_does_not_load_sympy():
    code = (
        "import sys; from theory.trf.cli import main; "
        "main(['--rpe', '1/n**2', '--verdict-only', '--json']); "
        "print('sympy' in sys.modules, 'mpmath' in sys.modules)"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    first, last = res.stdout.strip().splitlines()[0], res.stdout.strip().splitlines()[-1]
    assert json.loads(first)["converges"] is True
    assert last == "False False"
