"""``python -m theory.cosscale``: CosScale's attention peak eta* (InfoScale paper Eq. 18)
for given alpha and d, optionally against a Monte Carlo peak."""

from __future__ import annotations

import math

from theory.core.cli import command
from theory.core.cli import dumps as json_dumps
from theory.infoscale.cosscale import eta_star, eta_star_series, mc_peak

EXAMPLES = """examples:
  python -m theory.cosscale --d 128 --alpha 8 32 128 256
  python -m theory.cosscale --d 64 --alpha 16 64 --mc --json
"""


@command
def main(argv: list[str] | None = None) -> int:
    import sys

    from theory.core.arguments import float_range, int_range
    from theory.core.cli import CommandParser

    p = CommandParser(
        prog="python -m theory.cosscale",
        epilog=EXAMPLES,
        description="Peak eta* of the CosScale-tilted cosine law (InfoScale paper "
        "Eq. 18), its large-alpha expansion, and optionally a Monte Carlo peak.",
    )
    p.add_argument("--d", type=int_range(3, 10**6), required=True, help="head dimension (>= 3)")
    p.add_argument(
        "--alpha",
        type=float_range(1e-6, 1e12),
        nargs="+",
        required=True,
        help="CosScale values, in [1e-6, 1e12]",
    )
    p.add_argument(
        "--mc",
        action="store_true",
        help="also measure the peak from exact vMF "
        "draws (Wood's sampler, 8 x 100k samples per alpha)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    args = p.parse_args(argv)
    try:
        rows = []
        for a in args.alpha:
            if not (0 < a < math.inf):
                raise ValueError(f"alpha must be finite and > 0, got {a:g}")
            row = {
                "alpha": a,
                "eta_star": eta_star(a, args.d),
                "one_minus_eta_star": 1 - eta_star(a, args.d),
                "leading_term": eta_star_series(a, args.d, 1),
                "two_terms": eta_star_series(a, args.d, 2),
            }
            if args.mc:
                r = mc_peak(a, args.d, 100_000, 8, 0, "wood")
                row.update(mc_peak=r["peak"], mc_stderr=r["stderr"])
            rows.append(row)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json_dumps({"d": args.d, "rows": rows}))
        return 0
    print(f"d = {args.d}: eta* = (-(d-3) + sqrt((d-3)^2 + 4 alpha^2)) / (2 alpha)  (Eq. 18)")
    print(
        f"{'alpha':>8s} {'eta*':>8s} {'1-eta*':>8s} {'(d-3)/2a':>9s} {'2 terms':>8s}"
        + ("  MC peak (s.e.)" if args.mc else "")
    )
    for r in rows:
        mc = f"  {r['mc_peak']:.4f} ({r['mc_stderr']:.4f})" if args.mc else ""
        print(
            f"{r['alpha']:8g} {r['eta_star']:8.4f} {r['one_minus_eta_star']:8.4f} "
            f"{r['leading_term']:9.4f} {r['two_terms']:8.4f}{mc}"
        )
    return 0
