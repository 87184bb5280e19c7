"""Training steps/s of the tiny LM per RPE, as a ratio to the no-position baseline
('none') measured in the same process (2 layers, d_model 128, 4 heads, batch 32, m = 128
by default).  Timings are of this machine (the first output line names it)."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

# run as a file path (python benchmarks/NAME.py): the repository's packages come first
if not __package__:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import load_average, machine
from theory.core.arguments import int_range, output_file, positive_int
from theory.core.cli import CommandParser, command, write_text

EXAMPLES = """examples:
  python -m benchmarks.bench_tiny_lm --steps 10 --threads 1
  python -m benchmarks.bench_tiny_lm --rpes alibi type2 --json tiny_lm.json
"""


def steps_per_s(rpe: str, steps: int, batch: int, length: int) -> float:
    """Optimiser steps per second of the default tiny LM with ``rpe`` (2 warm-up steps)."""
    import torch

    from empirical.training.tiny_lm import LMConfig, TinyLM

    model = TinyLM(LMConfig(rpe=rpe))
    opt = torch.optim.AdamW(model.parameters(), 1e-3)
    x = torch.randint(0, 256, (batch, length + 1), generator=torch.Generator().manual_seed(0))
    for i in range(steps + 2):
        if i == 2:
            t0 = time.perf_counter()
        loss = model.loss(x)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return steps / (time.perf_counter() - t0)


def build_parser() -> CommandParser:
    from empirical.cli_util import threads_int
    from empirical.training.rpe import PAPER_SET

    p = CommandParser(prog="python -m benchmarks.bench_tiny_lm", description=__doc__,
                      epilog=EXAMPLES)  # fmt: skip
    p.add_argument("--steps", type=positive_int, default=10, help="timed steps per RPE")
    p.add_argument("--threads", type=threads_int, default=1, help="torch CPU threads")
    p.add_argument("--batch", type=int_range(1, 4096), default=32, help="sequences per step")
    p.add_argument("--seq-len", type=int_range(2, 8192), default=128, help="training length m")
    p.add_argument("--rpes", nargs="+", default=[*PAPER_SET, "t5"], help="RPEs to time")
    p.add_argument("--json", type=output_file, metavar="PATH", help="also write the numbers here")
    return p


@command
def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    import torch

    from empirical.training.rpe import check_rpe

    for rpe in args.rpes:  # every input checked before the first timing
        check_rpe(rpe, "--rpes", length=min(args.seq_len, 64))
    torch.set_num_threads(args.threads)
    load = load_average()
    print(f"machine: {machine()}; torch threads {args.threads}; load average {load}")
    base = steps_per_s("none", args.steps, args.batch, args.seq_len)
    rows = [{"rpe": "none", "steps_per_s": base, "ratio": 1.0}]
    print(f"{'none (baseline)':>16}: {base:6.2f} steps/s  ratio 1.00")
    for rpe in args.rpes:
        s = steps_per_s(rpe, args.steps, args.batch, args.seq_len)
        rows.append({"rpe": rpe, "steps_per_s": s, "ratio": s / base})
        print(f"{rpe:>16}: {s:6.2f} steps/s  ratio {s / base:.2f}")
    if args.json:
        settings = {k: getattr(args, k) for k in ("steps", "threads", "batch", "seq_len")}
        record = {"machine": machine(), "load_average": load, **settings, "rows": rows}
        write_text(args.json, json.dumps(record))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
