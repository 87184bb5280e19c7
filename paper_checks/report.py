"""The report of ``python -m paper_checks`` (its command line is :mod:`paper_checks.cli`):
the checks selected, run, and written as report.md and report.json with their figures."""

from __future__ import annotations

import argparse
import collections
import datetime
import importlib.util
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from theory.core.cli import dumps as json_dumps
from theory.core.cli import (
    write_text,
)
from theory.core.progress import track
from theory.core.registry import Registry

from .evidence import consistency_rows, fmt
from .inferred import NotComputable, load_inferred
from .registry import PAPERS, ROOT_CAUSES, VERDICTS, Claim, Context, run_claim
from .scale import planned_rungs


def select(registry: Registry[Claim], args: argparse.Namespace) -> list[Claim]:
    """The claims ``--paper``/``--id`` choose (all without them); an unknown id or a
    selection that matches nothing is a ``KeyError`` naming it."""
    claims = list(registry.values())
    if args.paper:
        claims = [c for c in claims if c.paper in args.paper]
    if args.id:
        unknown = set(args.id) - set(registry)
        if unknown:
            raise KeyError(f"unknown claim id(s): {', '.join(sorted(unknown))}")
        claims = [c for c in claims if c.id in args.id]
    if not claims:
        raise KeyError(
            f"the selection --paper {' '.join(args.paper or [])} --id "
            f"{' '.join(args.id or [])} matches no claim"
        )
    return claims


def selection_name(args: argparse.Namespace) -> str:
    """The selection as a folder-name tail ('' for a full run).

    >>> selection_name(argparse.Namespace(paper=["rpe"], id=None))
    'rpe'
    >>> selection_name(argparse.Namespace(paper=None, id=["rpe-eq5", "rpe-eq8"]))
    'rpe-eq5+rpe-eq8'
    """
    parts = sorted(set(args.paper or [])) + sorted(set(args.id or []))
    name = "+".join(parts)
    return name if len(name) <= 80 else name[:70] + f"+{len(parts)}-more"


def report_folder(args: argparse.Namespace) -> Path:
    """Where this run writes: ``--out``, or report/ (full run) or report-<selection>/.  A
    selection refuses (``ValueError``) a folder holding a full report unless ``--force``."""
    sel = selection_name(args)
    out = Path(args.out) if args.out is not None else Path("report" + (f"-{sel}" if sel else ""))
    previous = out / "report.json"
    if sel and not args.force and previous.is_file():
        try:
            full = not json.loads(previous.read_text()).get("selection")
        except (OSError, ValueError):
            full = False
        if full:
            raise ValueError(
                f"{out} holds a full report; a selection ({sel}) would replace it: "
                "choose another --out, or add --force"
            )
    return out


#: how a verdict decided by the best-scoring reading is counted (apart from the others)
SCORE_DECIDED = "{} (decided by a reading's score)"


def summarize(rows: list[dict]) -> dict[str, dict[str, int]]:
    """Per paper, the number of claims with each verdict; a verdict that the best-scoring
    reading decided (the readings disagree) is counted apart (:data:`SCORE_DECIDED`)."""
    table = collections.defaultdict(collections.Counter)
    for r in rows:
        key = SCORE_DECIDED.format(r["verdict"]) if r.get("best_reading") else r["verdict"]
        table[r["paper"]][key] += 1
    return {paper: dict(counter) for paper, counter in table.items()}


def _cell(text: str, width: int = 300) -> str:
    """One Markdown table cell: no pipes or newlines, at most ``width`` characters."""
    text = " ".join(str(text).replace("|", "/").split())
    return text if len(text) <= width else text[: width - 1] + "…"


#: packages of the ``empirical`` extra; a figure needing one is skipped when it is missing
OPTIONAL_MODULES = {"torch", "transformers", "tokenizers", "safetensors"}


def make_figures(
    outdir: Path, empirical: bool, quick: bool, papers: list[str] | None = None
) -> list:
    """Regenerate every figure (the empirical ones only with ``empirical``) into
    ``outdir``; a figure that raises is recorded as crashed, never raised."""
    from figures.registry import load_all as load_figures

    rows = []
    chosen = [f for f in load_figures().values() if not papers or f.paper in papers]
    for fig in track(chosen, "figures"):
        row = {"name": fig.name, "paper": fig.paper, "description": fig.description}
        if fig.empirical and not empirical:
            rows.append(dict(row, skipped="needs --empirical"))
            continue
        t0 = time.perf_counter()
        try:
            res = fig.make(outdir, quick=quick)
            row.update(
                png=str(res.get("png")),
                data=res.get("data"),
                comparison=res.get("comparison"),
                crashed=False,
            )
        except ModuleNotFoundError as exc:
            if exc.name not in OPTIONAL_MODULES:
                raise
            row.update(
                skipped=f"needs the empirical extra ({exc.name} is not installed: "
                "pip install -e '.[empirical]')"
            )
        except Exception as exc:  # recorded in the report and the exit code
            row.update(crashed=True, error=f"{type(exc).__name__}: {exc}")
        row["seconds"] = round(time.perf_counter() - t0, 2)
        rows.append(row)
    return rows


def _figure_markdown(figs, path: Path) -> list:
    lines = [
        "",
        "## Figures",
        "",
        "Regenerated by `python -m figures` (theory and experiment on the same axes; "
        "the data behind each PNG sits beside it).",
        "",
    ]
    for f in figs:
        lines.append(f"### {f['name']} ({f['paper']}): {f['description']}")
        if f.get("skipped") or f.get("crashed"):
            lines += ["", f"*{f.get('skipped') or 'crashed: ' + f.get('error', '')}*", ""]
            continue
        lines += ["", f"![{f['name']}]({os.path.relpath(f['png'], path.parent)})", ""]
        if f.get("comparison"):
            lines += [
                "<details><summary>theory vs experiment</summary>",
                "",
                "```json",
                json_dumps(f["comparison"], indent=1, default=str)[:4000],
                "```",
                "",
                "</details>",
                "",
            ]
    return lines


def _evidence_table(table) -> list:
    """The evidence rows of one claim as a Markdown table."""
    if not table:
        return []
    lines = [
        "| quantity | computed | paper | source | tolerance | outcome |",
        "|---|---|---|---|---|---|",
    ]
    for t in table:
        comp = t.get("comparison") or ""
        computed = t.get("computed") if t.get("kind") != "MissingInput" else "—"
        paper = t.get("paper") if t.get("kind") != "MissingInput" else t.get("missing")
        outcome = t.get("step") or t["outcome"]
        if t.get("error") is not None and t["outcome"] != "agrees":
            outcome += f" (error {fmt(t['error'])})"
        rel = f"{comp} " if comp in ("<", "<=", ">", ">=", "~") else ""
        lines.append(
            f"| {_cell(t['quantity'], 120)} | {_cell(fmt(computed), 80)} | "
            f"{_cell(rel + fmt(paper), 80)} | {_cell(t.get('source', ''), 60)} | "
            f"{_cell(t.get('tolerance', ''), 160)} | {outcome} |"
        )
    return lines


def _consistency_table(rows) -> list:
    """Consistency rows (:func:`~paper_checks.readings.consistency_rows`) as a Markdown
    table: each residual on its declared scale, circular rows marked and not scored."""
    if not rows:
        return []
    lines = [
        "| quantity | predicted | paper | source | scale | residual (relative) |",
        "|---|---|---|---|---|---|",
    ]
    for t in rows:
        res = (
            f"{fmt(t['residual'])} ({fmt(t['relative residual'])})"
            if t["residual"] is not None
            else t["outcome"]
        )
        lines.append(
            f"| {_cell(t['quantity'], 120)} | {_cell(fmt(t['computed']), 80)} | "
            f"{_cell(fmt(t['paper']), 80)} | {_cell(t.get('source', ''), 60)} | "
            f"{t['scale']} | {_cell(res, 160)} |"
        )
    return lines


def _scale_markdown(scale: dict) -> list:
    """The scale an empirical verdict rests on: its wording, and per rung (smallest first)
    its setting, its verdict and each deciding contrast's theory error."""
    if not scale.get("ladder"):  # a model or table of its own: the summary names it
        return []
    lines = [
        f"*Scale:* {scale['text']}.",
        "",
        "| rung | setting | verdict | theory's error per contrast (95% over seeds) |",
        "|---|---|---|---|",
    ]
    for name, rr in scale["per_rung"].items():
        errs = "; ".join(
            f"{c['title']}: {fmt(c['theory'][1])} [{fmt(c['theory'][0])}, {fmt(c['theory'][2])}]"
            + (" agrees" if c["agrees"] else " exceeds its tolerance")
            + (f", loses to {', '.join(c['loses_to'])}" if c["loses_to"] else "")
            for c in rr.get("contrasts", [])
        )
        tag = " (decides)" if rr.get("decides") else ""
        lines.append(
            f"| {name}{tag} | {_cell(rr['setting'], 120)} | {rr['verdict']} | "
            f"{_cell(errs or '—', 600)} |"
        )
    if scale.get("trends"):
        lines += [
            "",
            "Trend of the theory's error across rungs: "
            + "; ".join(f"{t}: {v}" for t, v in scale["trends"].items())
            + ".",
        ]
    return lines + [""]


def _claim_markdown(r, path: Path) -> list:
    lines = [
        f"### `{r['id']}` — {r['location']}",
        "",
        f"*Claim:* {r['statement']}",
        "",
        f"**Verdict: {r.get('label', r['verdict'])}.** {r['summary']}",
        "",
    ]
    if r.get("error") is not None:
        lines.append(f"Error: {r['error']:.3g} ({r.get('measured_range', '')})")
    lines += _scale_markdown(r.get("scale") or {})
    for fig in r.get("figures", []):
        lines += ["", f"![{r['id']}]({os.path.relpath(fig, path.parent)})"]
    for reading in r.get("readings") or []:
        score = reading.get("score")
        lines += [
            "",
            f"*Reading '{reading['reading']}'"
            + (f" ({reading['reason']})" if reading.get("reason") else "")
            + f": {reading['verdict']}; consistency score "
            + (fmt(score) if score is not None else "none (predicts no other printed number)")
            + (" (best)" if reading.get("best") else "")
            + ".*",
            "",
        ] + _evidence_table(reading["table"])
        if reading.get("consistency"):
            lines += ["", "Consistency with the paper's other printed numbers:", ""]
            lines += _consistency_table(reading["consistency"])
    out = r.get("outside_setting") or {}
    if out:
        lines += [
            "",
            f"*Outside the paper's setting ({out['why']}), judged separately: {out['verdict']}.* "
            + out["summary"],
            "",
        ] + _evidence_table(out.get("table"))
    if r.get("table"):
        lines += [""] + _evidence_table(r["table"])
    for note in r.get("notes") or []:
        lines += ["", f"Note: {note}"]
    ev = {
        k: v
        for k, v in r.get("evidence", {}).items()
        if k not in ("traceback", "table", "readings")
    }
    if ev:
        lines += [
            "",
            "<details><summary>evidence</summary>",
            "",
            "```json",
            json_dumps(ev, indent=1, default=str)[:6000],
            "```",
            "",
            "</details>",
        ]
    return lines + [""]


def findings(rows: list[dict]) -> list[dict]:
    """The report's findings: each claim that does not hold, claims with one root cause
    (:data:`~paper_checks.registry.ROOT_CAUSES`) as one finding whose symptoms they are,
    and each claim whose readings disagree with no score to rank them."""
    out, by_cause = [], {}
    for r in rows:
        if r["verdict"] == "does not hold" and r.get("root_cause"):
            by_cause.setdefault(r["root_cause"], []).append(r)
        elif r["verdict"] in ("does not hold", "depends on the reading"):
            out.append(
                {
                    "finding": f"{r['id']} ({r['location']})",
                    "claims": [r["id"]],
                    "verdict": r.get("label", r["verdict"]),
                    "summary": r["summary"],
                }
            )
    for cause, rs in by_cause.items():
        sev = {r.get("severity") for r in rs}
        out.append(
            {
                "finding": f"{cause}: {ROOT_CAUSES[cause]}",
                "claims": [r["id"] for r in rs],
                "verdict": "does not hold" + (f" ({sev.pop()})" if len(sev) == 1 else ""),
                "summary": "; ".join(f"{r['id']}: {r['summary']}" for r in rs),
            }
        )
    return out


def findings_page(report: dict) -> str:
    """The docs' findings page (Markdown) from a report's JSON: refused for a selection
    (``ValueError``: the page must come from a full run), and stating the commit, machine
    and time the report was made at."""
    if report.get("selection"):
        raise ValueError(f"the report is a selection ({report['selection']}), not a full run")
    origin = report.get("provenance") or {}
    lines = [
        "# Findings",
        "",
        "Generated from a full run of `python -m paper_checks`"
        + (
            " made at commit {commit} on {machine}, Python {python}, {date (UTC)} UTC".format(
                **origin
            )
            if origin
            else ""
        )
        + ". Claims sharing a cause are one finding; each verdict is computed from the "
        "evidence in the report.",
        "",
        "| finding | claims (symptoms) | verdict | evidence (summary) |",
        "|---|---|---|---|",
    ]
    lines += [
        f"| {_cell(f['finding'], 200)} | {', '.join(f'`{c}`' for c in f['claims'])} | "
        f"{f['verdict']} | {_cell(f['summary'])} |"
        for f in report.get("findings") or findings(report["claims"])
    ]
    return "\n".join(lines) + "\n"


def _inferred_markdown(rows: list[dict]) -> list:
    """The inferred quantities (paper_checks.inferred) the selected claims use."""
    papers = {r["paper"] for r in rows}
    entries = [q for q in load_inferred().values() if q.paper in papers]
    if not entries:
        return []
    lines = ["", "## Quantities the papers do not print", ""]
    for q in entries:
        lines += ["", f"### `{q.key}` ({q.paper}): {q.quantity}", "", f"*Rule:* {q.rule}", ""]
        try:
            lines += [f"Value: `{json.dumps(q.value)}`", ""]
            lines += _consistency_table(consistency_rows(q.consistency))
        except NotComputable as exc:
            lines += [f"Not computable from the printed values: {exc}"]
    return lines


def write_markdown(
    rows: list[dict],
    summary: dict[str, dict[str, int]],
    path: Path,
    seconds: float,
    figs: Sequence[dict] = (),
    origin: dict | None = None,
) -> None:
    cols = list(VERDICTS) + ["skipped (empirical)", "crashed"]
    cols += sorted({c for counts in summary.values() for c in counts} - set(cols))
    lines = [
        "# Paper checks",
        "",
        f"{len(rows)} claims, {seconds:.1f} s"
        + (
            "; made at commit {commit} on {machine}, Python {python}, {date (UTC)} UTC; "
            "{selection}.".format(**origin)
            if origin
            else "."
        ),
        "",
        "| paper | " + " | ".join(cols) + " |",
        "|---" * (len(cols) + 1) + "|",
    ]
    for paper in sorted(summary):
        lines.append(
            f"| {paper} | " + " | ".join(str(summary[paper].get(c, 0)) for c in cols) + " |"
        )
    found = findings(rows)
    if found:
        lines += [
            "",
            f"## Findings ({len(found)})",
            "",
            "Claims that do not hold, those sharing a cause grouped as one finding with its "
            "symptoms, and statements whose readings disagree with no computed score to rank them.",
            "",
            "| finding | claims (symptoms) | verdict | evidence (summary) |",
            "|---|---|---|---|",
        ]
        lines += [
            f"| {_cell(f['finding'], 200)} | {', '.join(f'`{c}`' for c in f['claims'])} | "
            f"{f['verdict']} | {_cell(f['summary'])} |"
            for f in found
        ]
    lines += _inferred_markdown(rows)
    for paper in sorted(PAPERS):
        mine = [r for r in rows if r["paper"] == paper]
        if mine:
            lines += ["", f"## {PAPERS[paper]}", ""]
            for r in mine:
                lines += _claim_markdown(r, path)
    if figs:
        lines += _figure_markdown(figs, path)
    write_text(path, "\n".join(lines))


def _portable(rows, out: Path) -> list:
    """Rows without their run times and with figure paths relative to the report folder,
    so two runs with the same seed give the same JSON."""
    rel = lambda f: os.path.relpath(os.path.abspath(str(f)), out) if f else f
    fixed = []
    for r in rows:
        r = {k: v for k, v in r.items() if k != "seconds"}
        if r.get("figures"):
            r["figures"] = [rel(f) for f in r["figures"]]
        for key in ("png", "data"):  # one path or a list of paths (CSV and JSON)
            if isinstance(r.get(key), str):
                r[key] = rel(r[key])
            elif isinstance(r.get(key), (list, tuple)):
                r[key] = [rel(f) for f in r[key]]
        fixed.append(r)
    return fixed


def _skipped(c, ctx: Context) -> dict:
    """The row of an empirical claim that was not run, with the rungs it rests on when run."""
    return {
        "id": c.id,
        "paper": c.paper,
        "location": c.location,
        "statement": c.statement,
        "kind": c.kind,
        "verdict": "skipped (empirical)",
        "label": "skipped (empirical)",
        "crashed": False,
        "summary": "needs --empirical (trains or runs models)",
        "evidence": {},
        "rungs": planned_rungs(c.check, ctx),
        "scale": {"text": "not run (needs --empirical); it rests on the rungs listed when run"},
    }


def _print_summary(rows, figs, summary, seconds, out, stream) -> None:
    for r in rows:
        print(f"{r['id']:28s} {r.get('label', r['verdict']):24s} {r['summary'][:90]}", file=stream)
    print(f"\n{len(rows)} claims in {seconds:.1f} s; report: {out / 'report.md'}", file=stream)
    for paper, counts in sorted(summary.items()):
        print(
            f"  {paper:9s} " + ", ".join(f"{v}: {n}" for v, n in sorted(counts.items())),
            file=stream,
        )
    if figs:
        from figures.registry import outcome_summary

        print(f"  figures: {outcome_summary(figs)} (-> {out / 'figures'})", file=stream)


def provenance(selection: str) -> dict:
    """Where a report comes from: the commit it was made at (with "+changes" when the work
    tree differs), the machine, Python, the UTC time and the selection ('' for a full run).
    Machine-dependent verdicts (a missing optional package) are read against this."""
    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
        commit = (head + ("+changes" if dirty else "")) or "unknown (no git)"
    except (OSError, subprocess.SubprocessError):
        commit = "unknown (no git)"
    return {
        "commit": commit,
        "machine": f"{platform.node()} ({platform.platform()}, {os.cpu_count()} CPUs)",
        "python": platform.python_version(),
        "optional packages": {
            m: importlib.util.find_spec(m) is not None for m in sorted(OPTIONAL_MODULES)
        },
        "date (UTC)": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
        "selection": selection or "full run",
    }


def run_report(args: argparse.Namespace, claims: list, out: Path) -> tuple[dict, int]:
    """Run the selected checks (and figures), write report.md and report.json."""
    (out / "figures").mkdir(parents=True, exist_ok=True)
    ctx = Context(
        outdir=out / "figures", empirical=args.empirical, quick=args.quick, seed=args.seed
    )
    rows, t0 = [], time.perf_counter()
    for c in track(claims, "checks"):
        rows.append(_skipped(c, ctx) if c.empirical and not args.empirical else run_claim(c, ctx))
    figs = (
        []
        if args.no_figures or args.id
        else make_figures(out / "figures", args.empirical, args.quick, args.paper)
    )
    seconds = time.perf_counter() - t0
    summary = summarize(rows)
    report = {
        "summary": summary,
        "findings": findings(rows),
        "selection": selection_name(args) or None,
        "provenance": provenance(selection_name(args)),
        "seed": args.seed,
        "claims": _portable(rows, out.resolve()),
        "figures": _portable(figs, out.resolve()),
    }
    write_text(out / "report.json", json_dumps(report, indent=1, default=str))
    write_markdown(rows, summary, out / "report.md", seconds, figs, report["provenance"])
    _print_summary(rows, figs, summary, seconds, out, sys.stdout)
    return report, 1 if any(r.get("crashed") for r in rows + figs) else 0
