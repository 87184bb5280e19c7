"""``python -m theory.infoscale``: the InfoScale factor (InfoScale paper Eq. 15), the
exact entropy drift it leaves, and the factor that keeps the entropy invariant."""

from __future__ import annotations

import argparse
import sys

from theory.core.arguments import MAX_LENGTH, finite_float, int_range, length_int
from theory.core.cli import CommandParser, command
from theory.core.cli import dumps as json_dumps
from theory.infoscale.derivation import infoscale_derivation
from theory.infoscale.infoscale import SCALINGS, drift_grid, drift_row

EXAMPLES = """examples:
  python -m theory.infoscale --d 128 --n-tr 64 --n 4096
  python -m theory.infoscale --d 128 --n-tr 64 --n 4096 --eps 0.5 --json
  python -m theory.infoscale --d 64 --n-tr 512 --n 32768 --alpha-tr 8   # your own alpha_tr
  python -m theory.infoscale --grid --json          # d in {32,64,128,768}, n up to 64 n_tr
  python -m theory.infoscale --derivation --markdown
"""


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(
        prog="python -m theory.infoscale",
        epilog=EXAMPLES,
        description="InfoScale factor (InfoScale paper Eq. 15), the exact entropy "
        "drift it leaves under Assumptions 3.1-3.2 (Eq. 9 by quadrature), and the "
        "factor that would keep that entropy invariant.",
    )
    p.add_argument("--d", type=int_range(4, 10**6), help="head dimension d_k (>= 4)")
    p.add_argument("--n-tr", type=int_range(2, MAX_LENGTH), help="training length n_tr (>= 2)")
    p.add_argument("--n", type=length_int, help="inference length n")
    p.add_argument(
        "--eps",
        type=finite_float,
        default=0.0,
        help="InfoScale's epsilon (default 0, the paper's setting)",
    )
    p.add_argument(
        "--alpha-tr",
        type=finite_float,
        default=None,
        help="training logit scale alpha = lambda v d (default: Eq. 14's, "
        "d sqrt(1 - e^(2 eps/d) n_tr^(-2/d)))",
    )
    p.add_argument(
        "--method",
        choices=("eta", "theta", "bessel"),
        default="eta",
        help="route for the exact entropy (quadrature in eta or theta, or Bessel)",
    )
    p.add_argument(
        "--grid",
        action="store_true",
        help="the drift grid (d in 32,64,128,768; n_tr in 64,512; n = n_tr * 2^k up to 64 n_tr)",
    )
    p.add_argument("--derivation", action="store_true", help="verify the derivation")
    p.add_argument("--markdown", action="store_true", help="derivation as Markdown")
    p.add_argument("--quick", action="store_true", help="derivation on a smaller grid")
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    return p


def _single(args) -> dict:
    if args.d is None or args.n_tr is None or args.n is None:
        raise ValueError("--d, --n-tr and --n are required (or use --grid / --derivation)")
    if args.d < 4:
        raise ValueError(f"--d must be >= 4, got {args.d}")
    if not (args.n >= 1 and args.n_tr > 1):
        raise ValueError(f"need --n >= 1 and --n-tr > 1, got {args.n:g} and {args.n_tr:g}")
    if args.alpha_tr is not None and not 0 < args.alpha_tr < 1e4:
        raise ValueError(f"--alpha-tr must be in (0, 1e4), got {args.alpha_tr}")
    row = drift_row(args.n, args.n_tr, args.d, args.eps, args.alpha_tr, args.method)
    row["method"] = args.method
    return row


def _print_single(r):
    print(
        f"InfoScale(n={r['n']:g}, n_tr={r['n_tr']:g}, d={r['d']}, eps={r['eps']:g}) = "
        f"{r['scale']['infoscale']:.6f}"
    )
    print(
        f"training alpha = lambda v d = {r['alpha_tr']:.6g}; exact entropy at n_tr = "
        f"{r['entropy_train']:.6f} nats (Eq. 12 says {r['eq12_entropy_train']:.6f})"
    )
    print(f"{'scaling':14s} {'factor':>10s} {'exact drift (nats)':>19s}")
    for k in SCALINGS:
        print(f"{k:14s} {r['scale'][k]:10.6f} {r['drift'][k]:19.6f}")
    e = r["eq10_no_taylor"]
    print(
        f"without the Taylor step (Eq. 10 solved exactly, its own alpha_tr = "
        f"{e['alpha_tr']:.4g}): factor {e['scale']:.6f}, exact drift {e['drift']:.6f}"
    )


@command
def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.derivation:
            rep = infoscale_derivation(quick=args.quick).verify(seed=0)
            if args.json:
                print(json_dumps(rep.as_dict()))
            elif args.markdown:
                print(rep.to_markdown())
            else:
                for r in rep.results:
                    err = (
                        ""
                        if r.max_error is None
                        else f"  max {r.step.error} error {r.max_error:.3g}"
                    )
                    print(f"{r.step.source:18s} {r.verdict:21s} {r.step.label}{err}")
            return 0
        if args.grid:
            rows = drift_grid(eps=args.eps, method=args.method, progress=True)
            if args.json:
                print(json_dumps({"rows": rows}))
            else:
                print(
                    f"{'d':>4s} {'n_tr':>5s} {'n':>7s} {'alpha_tr':>8s} "
                    + " ".join(f"{k:>12s}" for k in SCALINGS)
                    + "   (drift, nats)"
                )
                for r in rows:
                    print(
                        f"{r['d']:4d} {r['n_tr']:5d} {r['n']:7d} {r['alpha_tr']:8.3f} "
                        + " ".join(f"{r['drift'][k]:12.4f}" for k in SCALINGS)
                    )
            return 0
        row = _single(args)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json_dumps(row))
    else:
        _print_single(row)
    return 0
