"""Benchmark of theory.series.convergence / theory.series.trf_search against baselines.

(a) convergence decisions: ours vs sympy's ``Sum(b, (n, start, oo)).is_convergent()`` on a
    held-out set of RPE-like series (each with a known verdict and the reason), timed in the
    same process (sympy runs under the same fork guard, budget ``--sympy-budget`` s);
(b) TRF(eps): ours (Eq. 22) vs the paper's truncated cumulative sum (App. E) at 10^7 terms.

Run:  python -m benchmarks.trf            (about 3-6 minutes on 2 busy cores)
      python -m benchmarks.trf --quick    (a subset)
Prints one table per part and the ratios; ``--json PATH`` writes all numbers.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time

import numpy as np
import sympy as sp
from tqdm import tqdm

from theory.series.expressions import N, parse_expression
from theory.series.trf_search import trf_table
from theory.series.rpe_library import log_b_values
from theory.series.convergence import decide
from theory.core.budget import BudgetExceeded, run_guarded

C, D = True, False

# (b_n, start, truth, reason) -- held out: none of these is in the unit tests' lists
HELD_OUT = [
    ("exp(-n/2)", 0, C, "geometric"), ("exp(-n/8)", 0, C, "geometric"),
    ("(1 + n)**(-2)", 0, C, "p = 2"), ("(1 + 2*n)**(-1)", 0, D, "harmonic"),
    ("(1 + n/2)**(-11/10)", 0, C, "p = 1.1"), ("(1 + n)**(-9/10)", 0, D, "p = 0.9"),
    ("exp(-n**(1/2))", 0, C, "stretched exponential"), ("exp(-n**(3/2)/4)", 0, C, "faster than geometric"),
    ("exp(-log(n)**2)", 1, C, "Type2"), ("exp(-log(n)**(3/2))", 1, C, "-ln b / ln n -> oo"),
    ("exp(-2*log(n))", 1, C, "1/n^2"), ("exp(-log(n))", 1, D, "1/n"),
    ("exp(-log(n) - 2*log(log(n)))", 2, C, "1/(n ln^2 n)"), ("exp(-log(n) - log(log(n)))", 2, D, "1/(n ln n)"),
    ("1/(n*log(n)**2)", 2, C, "Bertrand"), ("1/(n*log(n))", 2, D, "Bertrand"),
    ("1/(n*sqrt(log(n)))", 2, D, "Bertrand q = 1/2"), ("n**(-3/2)*log(n)**3", 1, C, "p = 1.5, log factor"),
    ("exp(2*(cos(n/10) - 1))", 0, D, "Sandwich d = 2: b >= e^-4"),
    ("exp(cos(n/3) + cos(n/30) - 2)", 0, D, "Sandwich d = 4: b >= e^-4"),
    ("Piecewise((exp(-n/4), n < 128), (exp(-32), True))", 0, D, "T5-like constant tail"),
    ("Piecewise((1/n**2, n < 512), (0, True))", 1, C, "finite window"),
    ("(2 + cos(n))/n**2", 1, C, "majorant 3/n^2"), ("(1 + sin(n)**2)/n", 1, D, "minorant 1/n"),
    ("exp(-n)*(2 + cos(n))", 0, C, "majorant 3 e^-n"),
    ("1 - cos(1/n)", 1, C, "~ 1/(2n^2) (cancellation)"), ("n**2*(1 - cos(1/n))", 1, D, "-> 1/2"),
    ("n*(1 - cos(1/n))", 1, D, "~ 1/(2n) (cancellation)"), ("1/n - sin(1/n)", 1, C, "~ 1/(6n^3) (cancellation)"),
    ("n*(1/n - sin(1/n))", 1, C, "~ 1/(6n^2) (cancellation)"), ("exp(1/n) - 1 - 1/n", 1, C, "~ 1/(2n^2) (cancellation)"),
    ("n*(exp(1/n) - 1) - 1", 1, D, "~ 1/(2n) (cancellation)"), ("log(1 + 1/n**2)", 1, C, "~ 1/n^2"),
    ("log(1 + 1/n)", 1, D, "~ 1/n"), ("1/n - log(1 + 1/n)", 1, C, "~ 1/(2n^2) (cancellation)"),
    ("sqrt(n**2 + 1) - n", 1, D, "~ 1/(2n) (cancellation)"), ("sqrt(n**4 + 1) - n**2", 1, C, "~ 1/(2n^2) (cancellation)"),
    ("exp(-n/log(n + 1))", 1, C, "b <= e^(-sqrt n)"), ("1/n**2 + sin(n)/n**3", 1, C, "absolutely"),
    ("1/((n + 1)*(n + 2))", 1, C, "telescoping"), ("1/(sqrt(n)*(n + 1))", 1, C, "p = 3/2"),
    ("1/(sqrt(n)*sqrt(n + 1))", 1, D, "~ 1/n"),
]

TRF_SET = [("1/n**2", 1), ("exp(-log(n)**2)", 1), ("exp(-n/2)", 0), ("(1 + n)**(-3/2)", 0),
           ("(1 + n)**(-2)", 0), ("exp(-n**(1/2))", 0), ("1/(n*log(n)**2)", 2), ("1 - cos(1/n)", 1)]
EPS = [1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6]


def _sympy_verdict(b, start):
    k = sp.Symbol("k", integer=True, positive=True)
    r = sp.Sum(b.subs(N, k), (k, start, sp.oo)).is_convergent()
    return True if r is sp.true else (False if r is sp.false else None)


def bench_decisions(cases, sympy_budget):
    rows = []
    for text, start, truth, why in tqdm(cases, desc="decisions", file=sys.stderr):
        b = parse_expression(text)
        t0 = time.perf_counter()
        ours = decide(b, start).converges
        t_ours = time.perf_counter() - t0
        t0 = time.perf_counter()
        try:
            theirs = run_guarded(_sympy_verdict, (b, start), budget=sympy_budget)
            note = ""
        except BudgetExceeded:
            theirs, note = None, "timeout"
        except Exception as exc:  # noqa: BLE001 - sympy raising counts as undecided
            theirs, note = None, type(exc).__name__
        t_sympy = time.perf_counter() - t0
        rows.append({"series": text, "start": start, "truth": truth, "why": why, "ours": ours,
                     "t_ours": t_ours, "sympy": theirs, "t_sympy": t_sympy, "sympy_note": note})
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
            rows.append({"series": text, "start": start, "eps": e, "ours": d["value"], "exact": t.exact,
                         "log10": t.log10, "truncated": tr, "truncated_wrong": wrong,
                         "t_ours_table": t_ours, "t_truncated": t_trunc})
    return rows


def _fmt(v):
    return {True: "conv", False: "div", None: "?"}[v]


def report(dec, trf_rows, m):
    print("== (a) convergence decisions: ours vs sympy Sum.is_convergent ==")
    print(f"{'series':44s} {'start':>5} {'truth':>5} {'ours':>5} {'t_ours':>7} {'sympy':>6} {'t_sympy':>8}")
    for r in dec:
        flag = lambda v: "" if v is None or v == r["truth"] else "!"  # noqa: E731
        print(f"{r['series'][:44]:44s} {r['start']:>5} {_fmt(r['truth']):>5} {_fmt(r['ours']) + flag(r['ours']):>5} "
              f"{r['t_ours']:7.2f} {_fmt(r['sympy']) + flag(r['sympy']):>6} {r['t_sympy']:8.2f} {r['sympy_note']}")
    n = len(dec)
    summary = {}
    for who in ("ours", "sympy"):
        decided = sum(r[who] is not None for r in dec)
        wrong = sum(r[who] is not None and r[who] != r["truth"] for r in dec)
        med = statistics.median(r["t_" + who] for r in dec)
        summary[who] = {"decided": decided, "wrong": wrong, "median_s": med,
                        "total_s": sum(r["t_" + who] for r in dec)}
        print(f"{who:6s}: decided {decided}/{n} ({100 * decided / n:.0f}%), wrong {wrong}, "
              f"median time {med:.3f} s, total {summary[who]['total_s']:.1f} s")
    wrong_sympy = [r["series"] for r in dec if r["sympy"] is not None and r["sympy"] != r["truth"]]
    print(f"sympy wrong on: {wrong_sympy}")
    print(f"ratio median time ours/sympy = {summary['ours']['median_s'] / summary['sympy']['median_s']:.2f}; "
          f"decided ours/sympy = {summary['ours']['decided']}/{summary['sympy']['decided']}")
    print(f"\n== (b) TRF(eps): ours (Eq. 22) vs the paper's truncated cumsum (App. E) at m = {m:.0e} ==")
    print(f"{'series':22s} {'eps':>7} {'ours':>24} {'exact':>5} {'truncated':>10} {'trunc ok':>8}")
    for r in trf_rows:
        print(f"{r['series'][:22]:22s} {r['eps']:7.0e} {str(r['ours'])[:24]:>24} {str(r['exact']):>5} "
              f"{r['truncated']:>10} {'no' if r['truncated_wrong'] else 'yes':>8}")
    tables = {(r["series"], r["start"]): (r["t_ours_table"], r["t_truncated"]) for r in trf_rows}
    per_eps = [t / len(EPS) for t, _ in tables.values()]
    print("per series: time of our whole TRF table (6 eps, incl. B) vs the truncated cumsum:")
    for (s, _), (t1, t2) in tables.items():
        print(f"  {s[:30]:30s} ours {t1:6.2f} s   truncated {t2:6.2f} s   ratio {t1 / t2:6.2f}")
    wrong = sum(r["truncated_wrong"] for r in trf_rows)
    print(f"truncated cumsum wrong in {wrong}/{len(trf_rows)} (series, eps) pairs; max per-table time ours "
          f"{max(t for t, _ in tables.values()):.2f} s (max per eps {max(per_eps):.2f} s)")
    summary["trf"] = {"pairs": len(trf_rows), "truncated_wrong": wrong,
                      "max_table_s": max(t for t, _ in tables.values())}
    return summary


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog="example: python -m benchmarks.trf --quick --json bench.json")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--sympy-budget", type=float, default=10.0)
    ap.add_argument("--terms", type=int, default=10**7, help="m of the truncated baseline")
    ap.add_argument("--json", metavar="PATH")
    args = ap.parse_args(argv)
    cases = HELD_OUT[::3] if args.quick else HELD_OUT
    trf_cases = TRF_SET[:3] if args.quick else TRF_SET
    dec = bench_decisions(cases, args.sympy_budget)
    rows = bench_trf(trf_cases, EPS, args.terms)
    summary = report(dec, rows, args.terms)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"decisions": dec, "trf": rows, "summary": summary}, fh, indent=1, default=str)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
