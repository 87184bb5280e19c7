"""``python -m empirical.extrapolate``: perplexity of trained runs at lengths beyond their
training length (:func:`empirical.training.extrapolate.evaluate_runs`), as a table, CSV and plot."""

from __future__ import annotations

from pathlib import Path

import torch

from empirical.cli_util import threads_int
from empirical.training import extrapolate as extrapolate_module
from empirical.training.extrapolate import evaluate_runs, plot_ppl, table, write_csv
from theory.core.arguments import int_range, nonnegative_int, output_file, positive_int
from theory.core.cli import CommandParser, command, fail, say_written
from theory.core.cli import dumps as json_dumps

EPILOG = """examples:
  python -m empirical.extrapolate runs/* --lengths 128 256 512 1024 2048 --json
  python -m empirical.extrapolate runs/type2 runs/sinusoidal --csv ppl.csv --plot ppl.png
  python -m empirical.extrapolate runs/alibi --lengths 256 512 --sliding 64
"""


@command
def main(argv: list[str] | None = None) -> int:
    p = CommandParser(
        prog="python -m empirical.extrapolate",
        description=extrapolate_module.__doc__,
        epilog=EPILOG,
    )
    p.add_argument("runs", nargs="+", help="run folders written by empirical.training.train")
    p.add_argument(
        "--lengths",
        type=int_range(2, 10**7),
        nargs="+",
        default=[128, 256, 512, 1024, 2048],
        help="inference lengths L (tokens) at which perplexity is measured",
    )
    p.add_argument(
        "--eval-tokens",
        type=positive_int,
        default=None,
        help="test tokens scored at every length (default 2 x max length)",
    )
    p.add_argument(
        "--sliding",
        type=nonnegative_int,
        default=0,
        help="sliding-window stride (0: off; at most the shortest length)",
    )
    p.add_argument("--threads", type=threads_int, default=1)
    p.add_argument("--csv", type=output_file, default=None, help="write rows as CSV")
    p.add_argument(
        "--plot",
        type=output_file,
        default=None,
        help="write a PNG like Figs. 3-4 (its data: same name, .json)",
    )
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    try:
        for r in args.runs:
            if not (Path(r) / "ckpt.pt").exists():
                raise ValueError(f"{r!r} is not a trained run (no ckpt.pt)")
        if args.sliding > min(args.lengths):
            raise ValueError(
                f"--sliding {args.sliding} is longer than the shortest length {min(args.lengths)}"
            )
        rows = evaluate_runs(args.runs, args.lengths, args.eval_tokens, args.sliding)
    except (ValueError, FileNotFoundError) as exc:
        return fail(exc)
    if args.csv:
        write_csv(rows, args.csv)
        say_written(args.csv, "rows:")
    if args.plot:
        plot_ppl(rows, args.plot)
        say_written(args.plot, "plot:", data=True)
    if args.json:
        print(json_dumps({"rows": rows, "table": table(rows), "sliding": args.sliding}))
    else:
        labels = list(dict.fromkeys(r["label"] for r in rows))
        print("length  " + "  ".join(f"{l:>12}" for l in labels))
        for L, d in table(rows).items():
            print(f"{L:<7} " + "  ".join(f"{d.get(l, float('nan')):>12.4f}" for l in labels))
    return 0
