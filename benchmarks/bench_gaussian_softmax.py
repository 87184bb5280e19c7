"""Exact softmax statistics of i.i.d. Gaussian logits: quadrature vs Monte Carlo.

Prints, for a few (L, sigma), the time of the quadrature (accurate to ~1e-10) and of a
Monte Carlo run, the Monte Carlo standard error, and the ratio of the time Monte Carlo
would need to reach a 1e-4 standard error (SE ~ 1/sqrt(draws)) to the quadrature time.
Baseline: Monte Carlo, in the same process.  Timings are of this machine (the first
output line names it).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

# run as a file path (python benchmarks/NAME.py): the repository's packages come first
if not __package__:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import load_average, machine
from theory.core.arguments import output_file, positive_int
from theory.core.cli import CommandParser, command, write_text

CASES = [(512, 1.0), (512, 2.7), (15000, 2.7), (10**5, 4.0)]
EXAMPLES = """examples:
  OMP_NUM_THREADS=1 python -m benchmarks.bench_gaussian_softmax
  python -m benchmarks.bench_gaussian_softmax --quick --json gaussian.json
"""


def build_parser() -> CommandParser:
    p = CommandParser(prog="python -m benchmarks.bench_gaussian_softmax", description=__doc__,
                      epilog=EXAMPLES)  # fmt: skip
    p.add_argument("--quick", action="store_true", help="the first two cases only")
    p.add_argument("--mc-work", type=positive_int, default=2_000_000,
                   help="Monte Carlo logits drawn per case (draws = this / L, at least 20)")  # fmt: skip
    p.add_argument("--json", type=output_file, metavar="PATH", help="also write the numbers here")
    return p


def time_case(L: int, s: float, mc_work: int) -> dict:
    """Seconds of each quadrature and of a Monte Carlo run at (L, sigma = s)."""
    from theory.temperature.gaussian_softmax import (
        expected_pmax,
        laplace_integrals,
        mc_softmax_stats,
    )

    t0 = time.perf_counter()
    laplace_integrals(L, s)
    t1 = time.perf_counter()
    expected_pmax(L, s)
    t2 = time.perf_counter()
    draws = max(20, mc_work // L)
    mc = mc_softmax_stats(L, s, 1.0, draws, seed=0)
    t3 = time.perf_counter()
    se = mc["entropy"][1]
    mc_needed = (t3 - t2) * (se / 1e-4) ** 2
    return {"L": L, "sigma": s, "quad_H_s": t1 - t0, "quad_pmax_s": t2 - t1,
            "mc_s": t3 - t2, "draws": draws, "se_H": se,
            "mc_to_se_1e-4_over_quad": mc_needed / (t1 - t0)}  # fmt: skip


@command
def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    load = load_average()
    print(f"machine: {machine()}; load average {load}")
    print(
        f"{'L':>7s} {'sigma':>5s} {'quad H s':>9s} {'quad Pmax s':>11s} {'MC s':>7s} "
        f"{'draws':>6s} {'SE(H)':>8s} {'MC time to SE 1e-4 / quad':>26s}"
    )
    rows = []
    for L, s in CASES[:2] if args.quick else CASES:
        r = time_case(L, s, args.mc_work)
        rows.append(r)
        print(
            f"{L:7d} {s:5.1f} {r['quad_H_s']:9.3f} {r['quad_pmax_s']:11.3f} {r['mc_s']:7.3f} "
            f"{r['draws']:6d} {r['se_H']:8.2g} {r['mc_to_se_1e-4_over_quad']:26.3g}"
        )
    if args.json:
        record = {"machine": machine(), "load_average": load, "rows": rows}
        write_text(args.json, json.dumps(record))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
