"""``python -m paper_checks``: list, select and run the papers' checks and write the report
(:mod:`paper_checks.report`); exit 1 if a check or figure crashed."""

from __future__ import annotations

import argparse
import contextlib
import sys
from pathlib import Path

from paper_checks.registry import PAPERS, load_all
from paper_checks.report import report_folder, run_report, select
from theory.core.arguments import nonnegative_int, output_dir
from theory.core.cli import (
    OVERWRITE_HELP,
    CommandParser,
    check_output_folder,
    command,
    fail,
    output_folder,
)
from theory.core.cli import dumps as json_dumps

EXAMPLES = """examples:
  python -m paper_checks                      # every check that needs no training
  python -m paper_checks --list               # ids, papers and locations only
  python -m paper_checks --paper infoscale    # writes report-infoscale/, not report/
  python -m paper_checks --id rpe-thm3.4 --json
  python -m paper_checks --paper rpe --out report --force   # overwrite a full report
  python -m paper_checks --empirical          # also the checks that train or run models
"""


def build_parser() -> CommandParser:
    p = CommandParser(
        prog="python -m paper_checks",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Check every claim of the three papers and "
        "write a report (Markdown with figures, and JSON).",
    )
    p.add_argument(
        "--paper", choices=sorted(PAPERS), action="append", help="only this paper (repeatable)"
    )
    p.add_argument("--id", action="append", help="only this claim id (repeatable)")
    p.add_argument("--list", action="store_true", help="list the claims and exit")
    p.add_argument(
        "--empirical", action="store_true", help="also run checks that train or run models (slow)"
    )
    p.add_argument("--quick", action="store_true", help="smaller sizes (for tests)")
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object on stdout (the summary goes to stderr)",
    )
    p.add_argument(
        "--seed",
        type=nonnegative_int,
        default=0,
        help="seed for the checks' random draws (default 0); the same seed gives the same report",
    )
    p.add_argument(
        "--out",
        type=output_dir,
        default=None,
        help="report folder (default: report/ for a full run; a selection by --paper or --id "
        "writes report-<selection>/, so it never replaces the full report)",
    )
    p.add_argument(
        "--force",
        action="store_true",
        help="let a selection overwrite a folder that holds a full report (default: refused)",
    )
    p.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    p.add_argument(
        "--no-figures",
        action="store_true",
        help="do not regenerate the figures (python -m figures) into the report",
    )
    return p


@command
def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    registry = load_all()
    try:
        claims = select(registry, args)
        out = report_folder(args)
        if not args.list:
            check_output_folder(out, args.overwrite)
    except KeyError as exc:
        return fail(exc.args[0])
    except ValueError as exc:
        return fail(exc)
    if args.list and args.json:
        listed = [
            {"id": c.id, "paper": c.paper, "kind": c.kind, "location": c.location} for c in claims
        ]
        print(json_dumps({"claims": listed}))
        return 0
    if args.list:
        for c in claims:
            print(f"{c.id:28s} {c.paper:9s} {c.kind:9s} {c.location}")
        return 0
    if args.json:  # anything a check or figure prints must not break the one object
        with contextlib.redirect_stdout(sys.stderr):
            report, code = _run_in_folder(args, claims, out)
        print(json_dumps(report, default=str), flush=True)
        return code
    return _run_in_folder(args, claims, out)[1]


def _run_in_folder(args: argparse.Namespace, claims: list, out: Path) -> tuple[dict, int]:
    """Run in the report folder; a folder this run created is removed if it fails."""
    with output_folder(out, mark=True):
        return run_report(args, claims, out)
