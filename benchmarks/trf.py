"""Benchmark of theory.series.convergence / theory.series.trf_search against baselines.

(a) convergence decisions: ours vs sympy's ``Sum(b, (n, start, oo)).is_convergent()`` on a
    held-out set of RPE-like series and the adversarial set
    ``tests/theory/series/adversarial_verdicts.py`` (every failure class, each with a verdict
    derived by hand), timed in the same process (both run under the same fork guard);
    inputs that must be refused are run through ``python -m theory.trf`` (exit 2, one
    ``error:`` line);
(b) TRF(eps): ours (Eq. 22) vs the paper's truncated cumulative sum (App. E) at 10^7 terms,
    and our ``exact`` integers against ``theory.series.reference.exact_trf``;
(c) sums B: ``series_sum`` enclosures against closed forms at 50 digits (and the cases of
    ``tests/theory/series/adversarial_series.py`` where that module exists).

Run:  python -m benchmarks.trf            (its duration depends on the machine and its load)
      python -m benchmarks.trf --quick    (a subset)
      python -m benchmarks.trf --only decisions --set fresh --processes
                                          (the second held-out set; whole processes too)
Prints one table per part and the summary lines; ``--json PATH`` writes all numbers.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import statistics
import sys
import time
from pathlib import Path

import mpmath
import numpy as np
import sympy as sp
from tqdm import tqdm

# run as a file path (python benchmarks/NAME.py): the repository's packages come first
if not __package__:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from theory.core.arguments import int_range, output_file, positive_float
from theory.core.budget import BudgetExceeded, run_guarded
from theory.core.cli import CommandParser, command, write_text
from theory.series import reference
from theory.series.convergence import decide
from theory.series.decision import SeriesError
from theory.series.expressions import N, parse_assignments, parse_expression
from theory.series.rpe_library import log_b_values, resolve_rpe
from theory.series.trf_search import trf_table
from theory.trf.cli import main as trf_main

TESTS = Path(__file__).resolve().parent.parent / "tests" / "theory" / "series"
#: a decision slower than this (wall-clock seconds) counts as a time-out
TIMEOUT_S = 20.0


def load_cases(name: str):
    """The module ``tests/theory/series/<name>.py`` (None where it does not exist)."""
    path = TESTS / f"{name}.py"
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up while it loads
    spec.loader.exec_module(mod)
    return mod


C, D = True, False

# (b_n, start, truth, reason) -- held out: none of these is in the unit tests' lists
HELD_OUT = [
    ("exp(-n/2)", 0, C, "geometric"),
    ("exp(-n/8)", 0, C, "geometric"),
    ("(1 + n)**(-2)", 0, C, "p = 2"),
    ("(1 + 2*n)**(-1)", 0, D, "harmonic"),
    ("(1 + n/2)**(-11/10)", 0, C, "p = 1.1"),
    ("(1 + n)**(-9/10)", 0, D, "p = 0.9"),
    ("exp(-n**(1/2))", 0, C, "stretched exponential"),
    ("exp(-n**(3/2)/4)", 0, C, "faster than geometric"),
    ("exp(-log(n)**2)", 1, C, "Type2"),
    ("exp(-log(n)**(3/2))", 1, C, "-ln b / ln n -> oo"),
    ("exp(-2*log(n))", 1, C, "1/n^2"),
    ("exp(-log(n))", 1, D, "1/n"),
    ("exp(-log(n) - 2*log(log(n)))", 2, C, "1/(n ln^2 n)"),
    ("exp(-log(n) - log(log(n)))", 2, D, "1/(n ln n)"),
    ("1/(n*log(n)**2)", 2, C, "Bertrand"),
    ("1/(n*log(n))", 2, D, "Bertrand"),
    ("1/(n*sqrt(log(n)))", 2, D, "Bertrand q = 1/2"),
    ("n**(-3/2)*log(n)**3", 1, C, "p = 1.5, log factor"),
    ("exp(2*(cos(n/10) - 1))", 0, D, "Sandwich d = 2: b >= e^-4"),
    ("exp(cos(n/3) + cos(n/30) - 2)", 0, D, "Sandwich d = 4: b >= e^-4"),
    ("Piecewise((exp(-n/4), n < 128), (exp(-32), True))", 0, D, "T5-like constant tail"),
    ("Piecewise((1/n**2, n < 512), (0, True))", 1, C, "finite window"),
    ("(2 + cos(n))/n**2", 1, C, "majorant 3/n^2"),
    ("(1 + sin(n)**2)/n", 1, D, "minorant 1/n"),
    ("exp(-n)*(2 + cos(n))", 0, C, "majorant 3 e^-n"),
    ("1 - cos(1/n)", 1, C, "~ 1/(2n^2) (cancellation)"),
    ("n**2*(1 - cos(1/n))", 1, D, "-> 1/2"),
    ("n*(1 - cos(1/n))", 1, D, "~ 1/(2n) (cancellation)"),
    ("1/n - sin(1/n)", 1, C, "~ 1/(6n^3) (cancellation)"),
    ("n*(1/n - sin(1/n))", 1, C, "~ 1/(6n^2) (cancellation)"),
    ("exp(1/n) - 1 - 1/n", 1, C, "~ 1/(2n^2) (cancellation)"),
    ("n*(exp(1/n) - 1) - 1", 1, D, "~ 1/(2n) (cancellation)"),
    ("log(1 + 1/n**2)", 1, C, "~ 1/n^2"),
    ("log(1 + 1/n)", 1, D, "~ 1/n"),
    ("1/n - log(1 + 1/n)", 1, C, "~ 1/(2n^2) (cancellation)"),
    ("sqrt(n**2 + 1) - n", 1, D, "~ 1/(2n) (cancellation)"),
    ("sqrt(n**4 + 1) - n**2", 1, C, "~ 1/(2n^2) (cancellation)"),
    ("exp(-n/log(n + 1))", 1, C, "b <= e^(-sqrt n)"),
    ("1/n**2 + sin(n)/n**3", 1, C, "absolutely"),
    ("1/((n + 1)*(n + 2))", 1, C, "telescoping"),
    ("1/(sqrt(n)*(n + 1))", 1, C, "p = 3/2"),
    ("1/(sqrt(n)*sqrt(n + 1))", 1, D, "~ 1/n"),
]

# (b_n, start, truth, reason) -- a second held-out set, written after the decision code was
# last tuned and never run while changing it: none of these is in the unit tests, in
# HELD_OUT or in the adversarial set (``--set fresh`` times ours against sympy on it alone)
FRESH = [
    ("exp(-2*n/3)", 0, C, "geometric, ratio e^(-2/3)"),
    ("exp(-3*n/2)", 0, C, "geometric, ratio e^(-3/2)"),
    ("(2 + n)**(-3)", 0, C, "p = 3"),
    ("(3 + n)**(-1/2)", 0, D, "p = 1/2"),
    ("(1 + 3*n)**(-6/5)", 0, C, "p = 6/5"),
    ("(4 + n)**(-1)", 0, D, "harmonic, shifted"),
    ("exp(-n**(1/3))", 0, C, "stretched exponential: b <= n^-2 eventually"),
    ("exp(-n**2/7)", 0, C, "Gaussian"),
    ("exp(-log(n + 1)**3)", 0, C, "-ln b / ln(n+1) = ln(n+1)^2 -> oo"),
    ("exp(-3*log(n))", 1, C, "1/n^3"),
    ("exp(-log(n)/2)", 1, D, "1/sqrt(n)"),
    ("exp(-sqrt(log(n)))", 1, D, "sqrt(ln n) <= ln n, so b >= 1/n"),
    ("1/(n*log(n)**3)", 2, C, "Bertrand, q = 3"),
    ("1/(n*log(n)**2*log(log(n)))", 3, C, "<= 1/(n ln^2 n) for n >= 16 (ln ln n >= 1)"),
    ("log(n)**2/n**2", 1, C, "<= n^(-3/2) eventually"),
    ("log(n)/n", 1, D, ">= 1/n for n >= 3"),
    ("n**3*exp(-n)", 0, C, "ratio test: e^-1"),
    ("n**5/2**n", 0, C, "ratio test: 1/2"),
    ("(3/5)**n", 0, C, "geometric"),
    ("exp(-n/5)*(1 + sin(n)**2)", 0, C, "majorant 2 e^(-n/5)"),
    ("(3 + sin(n))/n**(3/2)", 1, C, "majorant 4 n^(-3/2)"),
    ("(2 + cos(2*n))/(n + 1)", 0, D, "minorant 1/(n+1)"),
    ("exp(cos(n/7) - 1)", 0, D, "b >= e^-2: terms do not tend to 0"),
    ("Piecewise((exp(-n/2), n < 64), (exp(-16), True))", 0, D, "constant tail e^-16"),
    ("Piecewise((1/n, n < 1000), (0, True))", 1, C, "finitely many nonzero terms"),
    ("sin(1/n**2)", 1, C, "<= 1/n^2"),
    ("sin(2/n)", 1, D, ">= (2/pi)(2/n) = 4/(pi n)"),
    ("tan(1/n**2)", 1, C, "~ 1/n^2"),
    ("atan(1/n)", 1, D, "~ 1/n"),
    ("1 - exp(-1/n**2)", 1, C, "<= 1/n^2"),
    ("n**(1/n) - 1", 1, D, ">= ln(n)/n"),
    ("log(n)/n**(5/4)", 1, C, "<= n^(-9/8) eventually"),
    ("1/(n**2 + 3*n + 7)", 0, C, "~ 1/n^2"),
    ("n/(n**3 + 1)", 0, C, "~ 1/n^2"),
    ("(n + 1)/(n**2 + 5)", 0, D, "~ 1/n"),
    ("exp(-2*sqrt(n))", 0, C, "stretched exponential"),
    ("1/2**sqrt(n)", 0, C, "= e^(-ln2 sqrt n)"),
    ("1/log(n)**log(n)", 2, C, "= n^(-ln ln n) <= n^-2 for n >= e^(e^2)"),
    ("1/(sqrt(n)*log(n))", 2, D, ">= 1/n for large n"),
    ("exp(-log(n)**2/10)", 1, C, "= n^(-ln(n)/10) <= n^-2 for n >= e^20"),
    ("1/(n*log(n)**(3/2))", 2, C, "Bertrand, q = 3/2"),
    ("exp(-n/(log(n) + 1))", 1, C, "n/(ln n + 1) >= 2 ln n eventually"),
]

#: a third held-out set, written for the timing after the engines of the others were done:
#: none of these is in a test list or a benchmark above
UNSEEN = [
    ("1/(n**2 + n + 1)", 1, C, "~ 1/n^2"),
    ("n/(n**3 - n + 7)", 1, C, "~ 1/n^2"),
    ("1/(n*sqrt(n + 1))", 1, C, "~ n^(-3/2)"),
    ("log(n)**3/n**(6/5)", 1, C, "<= n^(-11/10) eventually"),
    ("1/(sqrt(n)*log(n + 1))", 1, D, ">= 1/n eventually"),
    ("n**5/3**n", 1, C, "ratio -> 1/3"),
    ("2**n/n**10", 1, D, "terms -> oo"),
    ("factorial(n)**2/factorial(2*n)", 1, C, "ratio -> 1/4"),
    ("n**n/(factorial(n)*3**n)", 1, C, "ratio -> e/3 < 1"),
    ("exp(-sqrt(n))", 1, C, "stretched exponential"),
    ("exp(-log(n)**(3/2))", 1, C, "= n^(-sqrt(ln n)) <= n^-2 eventually"),
    ("1/log(n)**2", 2, D, ">= 1/n eventually"),
    ("1/(n*log(n)*log(log(n)))", 3, D, "Bertrand, level 2, q = 1"),
    ("(1 + 1/n)**(-n**2)", 1, C, "root test: (1 + 1/n)^(-n) -> 1/e"),
    ("(1 - 1/n)**(n**2)", 2, C, "root test: (1 - 1/n)^n -> 1/e"),
    ("sin(1/n**2)", 1, C, "<= 1/n^2"),
    ("tan(1/n)", 1, D, ">= 1/n"),
    ("1 - cos(1/n)", 1, C, "<= 1/(2 n^2)"),
    ("cos(n)**2/n", 1, D, "mean 1/2 over equidistributed angles"),
    ("sin(n)/n**(3/5)", 1, C, "Dirichlet"),
    ("(-1)**n/n**(3/10)", 1, C, "Leibniz"),
    ("(-1)**n*n/(n + 1)", 1, D, "terms do not tend to 0"),
    ("exp(-n)*n**100", 1, C, "ratio -> 1/e"),
    ("1/n**(1 + 1/log(n))", 2, D, "= 1/(e n)"),
    ("1/(n**(3/2) + (-1)**n*n)", 2, C, "<= 2 n^(-3/2) eventually"),
    ("gamma(n + 1/2)/(gamma(n)*n**2)", 1, C, "~ n^(-3/2)"),
    ("binomial(2*n, n)/5**n", 1, C, "ratio -> 4/5"),
    ("exp(cos(n))/n**2", 1, C, "<= e/n^2"),
    ("1/(n*(log(n)**2 + 1))", 1, C, "<= 1/(n log^2 n)"),
    ("exp(-n/log(n + 1))", 1, C, "n/log(n + 1) >= 2 log n eventually"),
    ("n**(-log(n))", 1, C, "<= n^-2 for n >= e^2"),
    ("(log(n)/n)**2", 1, C, "<= n^(-3/2) eventually"),
    ("1/(n**2 - 10*n + 30)", 1, C, "positive (no real root), ~ 1/n^2"),
    ("Abs(cos(n))**3/n", 1, D, "positive mean over equidistributed angles"),
    ("Max(cos(n), 0)/n", 1, D, "positive mean over equidistributed angles"),
    ("floor(sqrt(n))/n**2", 1, C, "<= n^(-3/2)"),
    ("1/(n*(2 + (-1)**n))", 1, D, ">= 1/(3n)"),
    ("(n + (-1)**n)**(-2)", 2, C, "<= 1/(n - 1)^2"),
]

TRF_SET = [
    ("1/n**2", 1),
    ("exp(-log(n)**2)", 1),
    ("exp(-n/2)", 0),
    ("(1 + n)**(-3/2)", 0),
    ("(1 + n)**(-2)", 0),
    ("exp(-n**(1/2))", 0),
    ("1/(n*log(n)**2)", 2),
    ("1 - cos(1/n)", 1),
]
EPS = [1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6]


def _sympy_verdict(b, start):
    k = sp.Symbol("k", integer=True, positive=True)
    r = sp.Sum(b.subs(N, k), (k, start, sp.oo)).is_convergent()
    return True if r is sp.true else (False if r is sp.false else None)


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the forked workers)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _sympy_timed(b, start, budget):
    t0, c0 = time.perf_counter(), _cpu()
    try:
        theirs, note = run_guarded(_sympy_verdict, (b, start), budget=budget), ""
    except BudgetExceeded:
        theirs, note = None, "timeout"
    except Exception as exc:  # noqa: BLE001 - sympy raising counts as undecided
        theirs, note = None, type(exc).__name__
    return theirs, time.perf_counter() - t0, note, _cpu() - c0


def _refused(case) -> tuple:
    """Run ``python -m theory.trf`` on an input that must be refused: (ok, stderr line)."""
    argv = ["--rpe", case.text, "--start", str(case.start), "--eps", "0.1", "--json"]
    for k, v in case.params.items():
        argv += ["--param", f"{k}={v}"]
    err, out = io.StringIO(), io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        rc = trf_main(argv)
    lines = err.getvalue().splitlines()
    ok = rc == 2 and len(lines) == 1 and lines[0].startswith("error:") and not out.getvalue()
    return ok, (lines[0] if lines else f"exit {rc}")


def _decide_case(case):
    """(verdict or 'refused: ...', seconds, b, start, CPU seconds) through the CLI's own path."""
    t0, c0 = time.perf_counter(), _cpu()
    try:
        rpe = resolve_rpe(
            case.text, parse_assignments([f"{k}={v}" for k, v in case.params.items()])
        )
        start = rpe.start if rpe.source != "user" else case.start
        ours = decide(rpe.b, start).converges
    except (SeriesError, ValueError) as exc:
        return f"refused: {exc}", time.perf_counter() - t0, None, case.start, _cpu() - c0
    return ours, time.perf_counter() - t0, rpe.b, start, _cpu() - c0


def bench_decisions(cases, sympy_budget):
    rows = []
    for case in tqdm(cases, desc="decisions", file=sys.stderr):
        row = {
            "series": case.text,
            "start": case.start,
            "truth": case.truth,
            "why": case.why,
            "cls": case.cls,
            "rpe_like": case.rpe_like,
            "params": case.params,
        }
        if case.truth == "error":
            t0 = time.perf_counter()
            ok, line = _refused(case)
            row.update(
                ours="error" if ok else f"not refused: {line}",
                t_ours=time.perf_counter() - t0,
                sympy=None,
                t_sympy=None,
                sympy_note="",
                cpu_ours=None,
                cpu_sympy=None,
            )
            rows.append(row)
            continue
        ours, t_ours, b, start, c_ours = _decide_case(case)
        if b is None:
            theirs, t_sympy, note, c_sympy = None, None, "", None
        else:
            theirs, t_sympy, note, c_sympy = _sympy_timed(b, start, sympy_budget)
        row.update(
            ours=ours,
            t_ours=t_ours,
            sympy=theirs,
            t_sympy=t_sympy,
            sympy_note=note,
            cpu_ours=c_ours,
            cpu_sympy=c_sympy,
        )
        rows.append(row)
    return rows


def _truncated(text, start, eps_list, m):
    t0 = time.perf_counter()
    terms = np.exp(log_b_values(parse_expression(text), np.arange(m), start))
    cs = np.cumsum(terms)
    vals = [int(np.searchsorted(cs, cs[-1] * (1 - e), side="left")) + 1 for e in eps_list]
    return vals, time.perf_counter() - t0


def bench_trf(cases, eps_list, m):
    rows = []
    for text, start in tqdm(cases, desc="TRF", file=sys.stderr):
        t0 = time.perf_counter()
        table = trf_table(parse_expression(text), eps_list, start)
        t_ours = time.perf_counter() - t0
        trunc, t_trunc = _truncated(text, start, eps_list, m)
        for e, t, tr in zip(eps_list, table, trunc):
            d = t.as_dict()
            wrong = not (t.exact and t.value == tr)
            rows.append(
                {
                    "series": text,
                    "start": start,
                    "eps": e,
                    "ours": d["value"],
                    "exact": t.exact,
                    "log10": t.log10,
                    "truncated": tr,
                    "truncated_wrong": wrong,
                    "t_ours_table": t_ours,
                    "t_truncated": t_trunc,
                }
            )
    return rows


REF_TRF = [
    ("alibi", {"k": 1}),
    ("kerple-log", {"k": 1, "r": 1.5}),
    ("kerple-power", {"k": 1, "r": 0.5}),
    ("type1", {}),
    ("type2", {}),
]


def bench_exact(eps_list):
    """Our TRF table for named families vs reference.exact_trf: wrong `exact` integers."""
    rows = []
    for name, params in tqdm(REF_TRF, desc="exact TRF", file=sys.stderr):
        t0 = time.perf_counter()
        table = trf_table(resolve_rpe(name, params), eps_list)
        dt = time.perf_counter() - t0
        for e, t in zip(eps_list, table):
            ref = reference.exact_trf(name, {k: float(v) for k, v in params.items()}, e)
            rows.append(
                {
                    "series": name,
                    "eps": e,
                    "ours": t.as_dict()["value"],
                    "exact": t.exact,
                    "reference": ref,
                    "wrong_exact": bool(t.exact and t.value != ref),
                    "t_table": dt,
                }
            )
    return rows


def _enclosure(S):
    """(lo, hi, certified) of a series_sum result (enclosure API, or value +- bound)."""
    with mpmath.workdps(60):  # value +- bound must not round the bound away
        if hasattr(S, "lo"):
            if S.lo is None or not S.certified:
                return None, None, False
            return mpmath.mpf(S.lo), mpmath.mpf(S.hi), True
        if S.error_bound is None:
            return None, None, False
        return S.value - S.error_bound, S.value + S.error_bound, True


def _sum_cases():
    own = load_cases("adversarial_verdicts")
    cases = [(t, s, ref, why) for t, s, ref, why in own.SUMS]
    other = load_cases("adversarial_series")
    for c in getattr(other, "CASES", []) if other else []:
        ref = getattr(c, "reference", None)
        if ref is not None:
            cases.append(
                (
                    c.text,
                    c.start,
                    ref if callable(ref) else (lambda r=ref: mpmath.mpf(r)),
                    getattr(c, "why", ""),
                )
            )
    return cases


def bench_sums(cases):
    from theory.series.sums import series_sum

    rows = []
    for text, start, ref, _why in tqdm(cases, desc="sums", file=sys.stderr):
        # the reference at 100 digits: an enclosure can be far narrower than 1e-50
        with mpmath.workdps(100):
            truth = mpmath.mpf(ref())
        t0 = time.perf_counter()
        try:
            lo, hi, cert = _enclosure(series_sum(parse_expression(text), start))
            note = ""
        except Exception as exc:  # noqa: BLE001 - no enclosure claimed: nothing can miss
            lo = hi = None
            cert, note = False, f"{type(exc).__name__}: {str(exc)[:60]}"
        with mpmath.workdps(100):
            miss = bool(cert and lo is not None and not (lo <= truth <= hi))
        rows.append(
            {
                "series": text,
                "start": start,
                "reference": mpmath.nstr(truth, 25),
                "lo": None if lo is None else mpmath.nstr(lo, 25),
                "hi": None if hi is None else mpmath.nstr(hi, 25),
                "certified": cert,
                "miss": miss,
                "t": time.perf_counter() - t0,
                "note": note,
            }
        )
    return rows


def _fmt(v):
    return {True: "conv", False: "div", None: "?"}[v]


def _fmt(v):
    if isinstance(v, str):
        return "ERR" if v == "error" else ("refused" if v.startswith("refused") else "!ACCEPT")
    return {True: "conv", False: "div", None: "?"}[v]


def _wrong(r, who):
    v = r[who]
    if r["truth"] == "error":
        return who == "ours" and v != "error"
    return v in (True, False) and v != r["truth"]


def report_decisions(dec):
    print("== (a) convergence decisions: ours vs sympy Sum.is_convergent ==")
    print(
        f"{'series':46s} {'cls':>3} {'truth':>5} {'ours':>7} {'t_ours':>7} {'sympy':>6} {'t_sympy':>8}"
    )
    for r in dec:
        ts = "" if r["t_sympy"] is None else f"{r['t_sympy']:8.2f}"
        print(
            f"{r['series'][:46]:46s} {r['cls']:>3} {_fmt(r['truth']):>5} "
            f"{_fmt(r['ours']) + ('!' if _wrong(r, 'ours') else ''):>7} {r['t_ours']:7.2f} "
            f"{_fmt(r['sympy']) + ('!' if _wrong(r, 'sympy') else ''):>6} {ts:>8} {r['sympy_note']}"
        )
    verdict = [r for r in dec if r["truth"] != "error"]
    timed = [r for r in verdict if r["t_sympy"] is not None]
    summary = {"cases": len(dec), "classes": sorted({r["cls"] for r in dec})}
    for who in ("ours", "sympy"):
        wrong = [r["series"] for r in verdict if _wrong(r, who)]
        med = statistics.median(r["t_" + who] for r in timed)
        summary[who] = {
            "wrong": len(wrong),
            "wrong_cases": wrong,
            "median_s": med,
            "decided": sum(r[who] in (True, False) for r in verdict),
        }
        print(
            f"{who:6s}: wrong verdicts {len(wrong)} {wrong if wrong else ''}; decided "
            f"{summary[who]['decided']}/{len(verdict)}; median decision time {med:.3f} s"
        )
    rpe = [r for r in verdict if r["rpe_like"]]
    dec_rpe = sum(r["ours"] in (True, False) for r in rpe)
    bad = [r for r in dec if r["truth"] == "error"]
    refused = sum(r["ours"] == "error" for r in bad)
    timeouts = [r["series"] for r in dec if r["t_ours"] > TIMEOUT_S]
    summary.update(
        rpe_like=len(rpe),
        rpe_like_decided=dec_rpe,
        bad_inputs=len(bad),
        bad_inputs_refused=refused,
        timeouts=len(timeouts),
        undecided=[r["series"] for r in verdict if r["ours"] not in (True, False)],
    )
    print(
        f"decided RPE-like convergent/divergent series: {dec_rpe}/{len(rpe)} "
        f"({100 * dec_rpe / max(len(rpe), 1):.1f}%)"
    )
    print(f"bad inputs refused (exit 2, one error: line): {refused}/{len(bad)}")
    print(
        f"median time ours/sympy = {summary['ours']['median_s'] / summary['sympy']['median_s']:.2f} "
        f"({summary['ours']['median_s']:.3f} s vs {summary['sympy']['median_s']:.3f} s, same run)"
    )
    cpu = {w: statistics.median(r["cpu_" + w] for r in timed) for w in ("ours", "sympy")}
    summary["median_cpu_s"] = cpu
    print(
        f"median CPU time ours/sympy = {cpu['ours'] / cpu['sympy']:.2f} "
        f"({cpu['ours']:.3f} s vs {cpu['sympy']:.3f} s of CPU, workers included, same run)"
    )
    with contextlib.suppress(OSError):
        print(f"load average at the end of the run: {os.getloadavg()[0]:.2f}")
    print(f"time-outs (> {TIMEOUT_S:g} s): {len(timeouts)} {timeouts if timeouts else ''}")
    print(f"undecided: {summary['undecided']}")
    return summary


def report_exact_and_sums(exact_rows, sum_rows):
    print("\n== (b') TRF `exact` integers vs reference.exact_trf ==")
    for r in exact_rows:
        print(
            f"  {r['series']:14s} {r['eps']:7.0e} ours {str(r['ours']):>14} exact {str(r['exact']):5s} "
            f"reference {r['reference']}{'  WRONG' if r['wrong_exact'] else ''}"
        )
    wrong = sum(r["wrong_exact"] for r in exact_rows)
    tmax = max(r["t_table"] for r in exact_rows)
    print(f"wrong exact integers: {wrong}/{len(exact_rows)}; max TRF table time {tmax:.2f} s")
    print("\n== (c) sums B: series_sum enclosures vs references (50 digits) ==")
    for r in sum_rows:
        print(
            f"  {r['series'][:34]:34s} ref {r['reference'][:22]:>22} [{str(r['lo'])[:22]}, "
            f"{str(r['hi'])[:22]}] cert {str(r['certified']):5s} {r['t']:5.2f} s"
            f"{'  MISS' if r['miss'] else ''} {r['note']}"
        )
    miss = sum(r["miss"] for r in sum_rows)
    cert = sum(r["certified"] for r in sum_rows)
    print(f"enclosures that miss the reference: {miss}/{len(sum_rows)} (certified {cert})")
    return {
        "wrong_exact": wrong,
        "exact_pairs": len(exact_rows),
        "max_exact_table_s": tmax,
        "sum_miss": miss,
        "sums": len(sum_rows),
        "sums_certified": cert,
    }


def report_trf(trf_rows, m):
    summary = {}
    print(
        f"\n== (b) TRF(eps): ours (Eq. 22) vs the paper's truncated cumsum (App. E) at m = {m:.0e} =="
    )
    print(f"{'series':22s} {'eps':>7} {'ours':>24} {'exact':>5} {'truncated':>10} {'trunc ok':>8}")
    for r in trf_rows:
        print(
            f"{r['series'][:22]:22s} {r['eps']:7.0e} {str(r['ours'])[:24]:>24} {str(r['exact']):>5} "
            f"{r['truncated']:>10} {'no' if r['truncated_wrong'] else 'yes':>8}"
        )
    tables = {(r["series"], r["start"]): (r["t_ours_table"], r["t_truncated"]) for r in trf_rows}
    per_eps = [t / len(EPS) for t, _ in tables.values()]
    print("per series: time of our whole TRF table (6 eps, incl. B) vs the truncated cumsum:")
    for (s, _), (t1, t2) in tables.items():
        print(f"  {s[:30]:30s} ours {t1:6.2f} s   truncated {t2:6.2f} s   ratio {t1 / t2:6.2f}")
    wrong = sum(r["truncated_wrong"] for r in trf_rows)
    print(
        f"truncated cumsum wrong in {wrong}/{len(trf_rows)} (series, eps) pairs; max per-table time ours "
        f"{max(t for t, _ in tables.values()):.2f} s (max per eps {max(per_eps):.2f} s)"
    )
    summary["trf"] = {
        "pairs": len(trf_rows),
        "truncated_wrong": wrong,
        "max_table_s": max(t for t, _ in tables.values()),
    }
    return summary


def all_cases(quick: bool, which: str = "all"):
    """The held-out set and the adversarial set (every third case with --quick), or with
    ``which="fresh"`` the second held-out set alone, ``"unseen"`` the third."""
    mod = load_cases("adversarial_verdicts")
    if which in ("fresh", "unseen"):
        chosen = FRESH if which == "fresh" else UNSEEN
        cases = [mod.Case(t, st, truth, 0, why, {}, True) for t, st, truth, why in chosen]
    else:
        held = [mod.Case(t, st, truth, 0, why, {}, True) for t, st, truth, why in HELD_OUT]
        cases = held + list(mod.CASES)
    return cases[::3] if quick else cases


def _process_cpu(cmd: list, timeout: float) -> float:
    """CPU seconds (user + system) of the process ``cmd`` and its children; a process still
    running after ``timeout`` wall seconds is killed and counts with the CPU time it used
    (a lower bound of its time)."""
    return _process_run(cmd, timeout)[0]


def _process_run(cmd: list, timeout: float) -> tuple[float, str]:
    """(CPU seconds as :func:`_process_cpu`, what the process printed)."""
    import subprocess

    before = os.times()
    try:
        res = subprocess.run(
            cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False, timeout=timeout
        )
        out = res.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:  # run() has killed and reaped it
        out = ""
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return cpu, out


SYMPY_PROCESS = (
    "import sys, sympy as sp; k = sp.Symbol('k', integer=True, positive=True); "
    "b = sp.sympify(sys.argv[1], locals={'n': k}); "
    "print(sp.Sum(b, (k, int(sys.argv[2]), sp.oo)).is_convergent())"
)


def compile_bytecode() -> int:
    """Write the bytecode cache of the repository's ``theory`` package (as ``pip install``
    does for an installed package, and as sympy's own files have it), so that a timed
    process loads our modules as it loads sympy's; without it, where the environment sets
    ``PYTHONDONTWRITEBYTECODE`` (an editable install), every run compiles our sources again
    (about 0.3 s of CPU on this machine).  Returns the number of source files checked."""
    import compileall

    root = Path(__file__).resolve().parents[1] / "theory"
    files = sorted(root.rglob("*.py"))
    compileall.compile_dir(root, quiet=1)
    return len(files)


def bench_processes(cases, timeout: float) -> dict:
    """Whole processes, CPU time: the decision, ``python -m theory.trf --rpe b
    --verdict-only --json``, against ``python -c`` sympy's is_convergent on the same b_n
    (imports included, both loading cached bytecode: :func:`compile_bytecode`); and, for
    the record, the whole command (verdict, B and TRF: ``--eps 0.1``).  Either is stopped
    after ``timeout`` wall seconds.  Each verdict-only answer is compared with the case's
    truth, and the answers of the quick path (no sympy) are counted."""
    compile_bytecode()
    verdict, full, theirs, quick, wrong = [], [], [], 0, []
    for case in tqdm(cases, desc="processes", file=sys.stderr):
        head = [sys.executable, "-m", "theory.trf", "--rpe", case.text, "--start", str(case.start)]
        cpu, text = _process_run(head + ["--verdict-only", "--json"], timeout)
        verdict.append(cpu)
        try:
            answer = json.loads(text)
        except ValueError:
            answer = {}
        quick += answer.get("decided_by", "").startswith("asymptotic scale")
        said = answer.get("converges")
        if said is not None and case.truth in (True, False) and said != case.truth:
            wrong.append(case.text)
        full.append(_process_cpu(head + ["--eps", "0.1"], timeout))
        theirs.append(
            _process_cpu([sys.executable, "-c", SYMPY_PROCESS, case.text, str(case.start)], timeout)
        )
    med = statistics.median(verdict), statistics.median(full), statistics.median(theirs)
    print(
        f"whole process, median CPU time of the decision ours/sympy = {med[0] / med[2]:.2f} "
        f"({med[0]:.3f} s vs {med[2]:.3f} s; ours: python -m theory.trf --verdict-only, "
        f"{quick} of {len(cases)} answered without sympy; sympy: python -c is_convergent; "
        f"both from cached bytecode); wrong verdicts: {len(wrong)}"
    )
    print(
        f"whole command (verdict, B, TRF at eps 0.1) / sympy's decision = {med[1] / med[2]:.2f} "
        f"({med[1]:.3f} s)"
    )
    return {
        "verdict_only_cpu_s": verdict,
        "command_cpu_s": full,
        "sympy_cpu_s": theirs,
        "median": med,
        "quick_path_answers": quick,
        "wrong": wrong,
    }


def build_parser() -> CommandParser:
    p = CommandParser(
        prog="python -m benchmarks.trf",
        description=__doc__.split("\n\n")[0],
        epilog="example: python -m benchmarks.trf --quick --json bench.json",
    )
    p.add_argument("--quick", action="store_true", help="every third series, three eps")
    p.add_argument(
        "--sympy-budget",
        type=positive_float,
        default=10.0,
        help="seconds allowed to sympy's is_convergent per series",
    )
    p.add_argument(
        "--terms", type=int_range(1, 10**9), default=10**7, help="m of the truncated baseline"
    )
    p.add_argument("--only", choices=["decisions", "trf", "sums"], help="run one part")
    p.add_argument(
        "--set",
        choices=["all", "fresh", "unseen"],
        default="all",
        help="decisions on the held-out and adversarial sets, or on the second (fresh) or "
        "third (unseen) held-out set",
    )
    p.add_argument(
        "--processes",
        action="store_true",
        help="also time whole processes (the CLI against a python -c sympy process)",
    )
    p.add_argument("--json", type=output_file, metavar="PATH", help="also write the numbers here")
    return p


@command
def main(argv=None):
    args = build_parser().parse_args(argv)
    out = {}
    if args.only in (None, "decisions"):
        cases = all_cases(args.quick, args.set)
        out["decisions"] = bench_decisions(cases, args.sympy_budget)
        out["summary_decisions"] = report_decisions(out["decisions"])
        if args.processes:
            out["processes"] = bench_processes(cases, TIMEOUT_S)
    if args.only in (None, "trf"):
        out["trf"] = bench_trf(TRF_SET[:3] if args.quick else TRF_SET, EPS, args.terms)
        out["summary_trf"] = report_trf(out["trf"], args.terms)
    if args.only in (None, "sums"):
        out["exact"] = bench_exact(EPS[:3] if args.quick else EPS)
        out["sums"] = bench_sums(_sum_cases())
        out["summary_exact_sums"] = report_exact_and_sums(out["exact"], out["sums"])
    if args.json:
        write_text(args.json, json.dumps(out, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
