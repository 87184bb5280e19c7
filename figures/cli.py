"""Command line for ``python -m figures``."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from theory.core.arguments import output_dir
from theory.core.cli import (
    OVERWRITE_HELP,
    CommandParser,
    UsageError,
    check_output_folder,
    command,
    fail,
    output_folder,
)
from theory.core.cli import dumps as json_dumps

from .registry import load_all

EXAMPLES = """examples:
  python -m figures --list
  python -m figures rpe-fig5 --out figures_out/
  python -m figures all --quick
"""


@command
def main(argv: list[str] | None = None) -> int:
    figs = load_all()
    p = CommandParser(
        prog="python -m figures",
        epilog=EXAMPLES,
        description="Regenerate the papers' figures with theory "
        "and experiment on the same axes (PNG + data).",
    )
    p.add_argument("names", nargs="*", help="figure names, or 'all'")
    p.add_argument("--list", action="store_true", help="list the figures")
    p.add_argument("--out", type=output_dir, default="figures_out", help="output folder")
    p.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    p.add_argument("--quick", action="store_true", help="small sizes (seconds)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    if (args.list or not args.names) and args.json:
        listed = [
            {"name": f.name, "paper": f.paper, "description": f.description} for f in figs.values()
        ]
        print(json_dumps({"figures": listed}))
        return 0
    if args.list or not args.names:
        for f in figs.values():
            print(f"{f.name:24s} {f.paper:9s} {f.description}")
        return 0
    names = list(figs) if args.names == ["all"] else args.names
    unknown = [n for n in names if n not in figs]
    if unknown:
        shown = ", ".join(map(repr, unknown))
        return fail(f"unknown figure(s) {shown}; python -m figures --list shows the {len(figs)}")
    out = Path(args.out)
    try:
        check_output_folder(out, args.overwrite, own=[f"{name}.png" for name in figs])
    except UsageError as exc:
        return fail(exc)
    results, t0 = {}, time.perf_counter()
    with output_folder(out, mark=True):
        for name in names:
            t1 = time.perf_counter()
            res = figs[name].make(out, quick=args.quick)
            res["seconds"] = round(time.perf_counter() - t1, 2)
            results[name] = res
            if not args.json:
                why = str(res.get("skipped") or "").removeprefix(f"{name}: ")
                made = f"not drawn, {why}" if why else res.get("png")
                print(f"{name}: {made} ({res['seconds']} s)", file=sys.stderr)
    total = round(time.perf_counter() - t0, 2)
    if args.json:
        print(json_dumps({"figures": results, "seconds": total}, default=str))
    else:
        print(f"{len(names)} figure(s) in {total} s -> {out}")
    return 0
