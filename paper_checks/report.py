"""Command line and report writer for ``python -m paper_checks``."""
from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time
from pathlib import Path

from .registry import PAPERS, VERDICTS, Context, load_all, run_claim

EXAMPLES = """examples:
  python -m paper_checks                      # every check that needs no training
  python -m paper_checks --list               # ids, papers and locations only
  python -m paper_checks --paper infoscale --out report/
  python -m paper_checks --id rpe-thm3.4 --json
  python -m paper_checks --empirical          # also the checks that train or run models
"""


def build_parser():
    p = argparse.ArgumentParser(prog="python -m paper_checks", epilog=EXAMPLES,
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                description="Check every claim of the three papers and "
                                "write a report (Markdown with figures, and JSON).")
    p.add_argument("--paper", choices=sorted(PAPERS), action="append",
                   help="only this paper (repeatable)")
    p.add_argument("--id", action="append", help="only this claim id (repeatable)")
    p.add_argument("--list", action="store_true", help="list the claims and exit")
    p.add_argument("--empirical", action="store_true",
                   help="also run checks that train or run models (slow)")
    p.add_argument("--quick", action="store_true", help="smaller sizes (for tests)")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    p.add_argument("--out", default="report", help="report folder (default: report/)")
    return p


def select(registry, args):
    claims = list(registry.values())
    if args.paper:
        claims = [c for c in claims if c.paper in args.paper]
    if args.id:
        unknown = set(args.id) - set(registry)
        if unknown:
            raise KeyError(f"unknown claim id(s): {', '.join(sorted(unknown))}")
        claims = [c for c in claims if c.id in args.id]
    return claims


def summarize(rows):
    table = collections.defaultdict(collections.Counter)
    for r in rows:
        table[r["paper"]][r["verdict"]] += 1
    return {paper: dict(counter) for paper, counter in table.items()}


def write_markdown(rows, summary, path: Path, seconds: float):
    cols = list(VERDICTS) + ["skipped (empirical)", "crashed"]
    lines = ["# Paper checks", "", f"{len(rows)} claims, {seconds:.1f} s.", "",
             "| paper | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
    for paper in sorted(summary):
        lines.append(f"| {paper} | " + " | ".join(str(summary[paper].get(c, 0))
                                                  for c in cols) + " |")
    for paper in sorted(PAPERS):
        mine = [r for r in rows if r["paper"] == paper]
        if not mine:
            continue
        lines += ["", f"## {PAPERS[paper]}", ""]
        for r in mine:
            lines += [f"### `{r['id']}` — {r['location']}", "",
                      f"*Claim:* {r['statement']}", "",
                      f"**Verdict: {r['verdict']}.** {r['summary']}", ""]
            if r.get("error") is not None:
                lines.append(f"Error: {r['error']:.3g} ({r.get('measured_range', '')})")
            for fig in r.get("figures", []):
                rel = os.path.relpath(fig, path.parent)
                lines += ["", f"![{r['id']}]({rel})"]
            ev = {k: v for k, v in r.get("evidence", {}).items() if k != "traceback"}
            if ev:
                lines += ["", "<details><summary>evidence</summary>", "", "```json",
                          json.dumps(ev, indent=1, default=str)[:6000], "```",
                          "", "</details>"]
            lines.append("")
    path.write_text("\n".join(lines))


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    registry = load_all()
    try:
        claims = select(registry, args)
    except KeyError as exc:
        print(f"error: {exc.args[0]}", file=sys.stderr)
        return 2
    if args.list:
        for c in claims:
            print(f"{c.id:28s} {c.paper:9s} {c.kind:9s} {c.location}")
        return 0
    out = Path(args.out)
    (out / "figures").mkdir(parents=True, exist_ok=True)
    ctx = Context(outdir=out / "figures", empirical=args.empirical, quick=args.quick)
    rows, t0 = [], time.perf_counter()
    from tqdm import tqdm
    for c in tqdm(claims, desc="checks", file=sys.stderr, disable=None):
        if c.empirical and not args.empirical:
            rows.append({"id": c.id, "paper": c.paper, "location": c.location,
                         "statement": c.statement, "kind": c.kind,
                         "verdict": "skipped (empirical)", "crashed": False,
                         "summary": "needs --empirical (trains or runs models)",
                         "evidence": {}})
            continue
        rows.append(run_claim(c, ctx))
    seconds = time.perf_counter() - t0
    summary = summarize(rows)
    report = {"summary": summary, "seconds": round(seconds, 2), "claims": rows}
    (out / "report.json").write_text(json.dumps(report, indent=1, default=str))
    write_markdown(rows, summary, out / "report.md", seconds)
    if args.json:
        print(json.dumps(report, default=str))
    else:
        for r in rows:
            print(f"{r['id']:28s} {r['verdict']:24s} {r['summary'][:90]}")
        print(f"\n{len(rows)} claims in {seconds:.1f} s; report: {out / 'report.md'}")
        for paper, counts in sorted(summary.items()):
            print(f"  {paper:9s} " + ", ".join(f"{v}: {n}" for v, n in sorted(counts.items())))
    return 1 if any(r.get("crashed") for r in rows) else 0
