"""``python -m empirical.erf``: the empirical receptive field (ERF) of trained runs against the
TRF of their RPE, with the rank correlation (:mod:`empirical.training.erf`)."""

from __future__ import annotations

import torch

from empirical.cli_util import threads_int
from empirical.training import erf as erf_module
from empirical.training.erf import erf_for_run, plot_erf, spearman
from theory.core.arguments import finite_float, int_range, output_file, positive_int
from theory.core.cli import CommandParser, command, fail, say_written
from theory.core.cli import dumps as json_dumps
from theory.core.progress import track

EPILOG = """examples:
  python -m empirical.erf runs/type2 runs/alibi --length 512 --json
  python -m empirical.erf runs/* --plot erf.png --eps 0.5 0.2 0.1
"""


@command
def main(argv: list[str] | None = None) -> int:
    p = CommandParser(
        prog="python -m empirical.erf",
        description=erf_module.__doc__,
        epilog=EPILOG,
    )
    p.add_argument("runs", nargs="+", help="run folders written by empirical.training.train")
    p.add_argument(
        "--length",
        type=int_range(2, 10**6),
        default=None,
        help="chunk length (default 4 x training length)",
    )
    p.add_argument("--chunks", type=positive_int, default=2, help="test chunks averaged per run")
    p.add_argument(
        "--eps",
        type=finite_float,
        nargs="+",
        default=[0.5, 0.2, 0.1],
        help="eps values in (0, 1] for the Spearman rank correlation",
    )
    p.add_argument(
        "--series-trf",
        action="store_true",
        help="also the infinite-series TRF per head (theory; slow)",
    )
    p.add_argument(
        "--plot",
        type=output_file,
        default=None,
        help="PNG of ERF vs TRF (its data: same name, .json)",
    )
    p.add_argument("--threads", type=threads_int, default=1)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    torch.set_num_threads(args.threads)
    try:
        if any(not 0 < e <= 1 for e in args.eps):
            raise ValueError("--eps values must lie in (0, 1]")
        results = [
            erf_for_run(r, args.length, args.chunks, with_series_trf=args.series_trf)
            for r in track(args.runs, "erf")
        ]
    except (ValueError, FileNotFoundError) as exc:
        return fail(exc)
    rank = [spearman(results, e) for e in args.eps] if len(results) > 2 else []
    if args.plot:
        plot_erf(results, args.plot)
        say_written(args.plot, "plot:", data=True)
    if args.json:
        print(json_dumps({"results": results, "spearman": rank}))
    else:
        for r in results:
            i = r["eps"].index(min(r["eps"], key=lambda e: abs(e - 0.1)))
            print(
                f"{r['label']:>14}: n_emp(0.1) = {r['n_emp'][i]:5d}   "
                f"n_the_window(0.1) = {r['n_the_window'][i]:5d}"
            )
        for s in rank:
            print(f"Spearman(ERF, TRF) at eps={s['eps']}: {s['rho']:.3f}")
    return 0
