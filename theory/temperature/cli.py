"""Command line: ``python -m theory.temperature``.

Prints every softmax temperature rule side by side for given lengths (and, where the
rule needs them, the logit standard deviations, the training maximum probability, the
head dimension), or a verified derivation of Prop. 1 / Prop. 2 of the
attention-alignment paper.  Bad input exits with code 2 and one ``error:`` line.
"""

from __future__ import annotations

import argparse
import math
import sys

from theory.core.arguments import finite_float, length_int, nonnegative_int, positive_int
from theory.core.cli import CommandParser, command
from theory.core.cli import dumps as json_dumps
from theory.core.progress import Progress
from theory.temperature.rules import TemperatureInputError, temperature_rules

EXAMPLES = """examples:
  python -m theory.temperature --L-tr 512 --L-ex 15000 --sigma-tr 2.7 --sigma-ex 2.7 --pmax-tr 0.28 --d 64
  python -m theory.temperature --L-tr 512 --L-ex 15000 --json
  python -m theory.temperature --derivation prop1
  python -m theory.temperature --derivation prop2 --markdown
  python -m theory.temperature --truth --L 15000 --sigma 2.7 --tau 0.7 --draws 200
"""


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(
        prog="python -m theory.temperature",
        epilog=EXAMPLES,
        description="Softmax temperature for length extrapolation: every rule "
        "(Prop. 1, Prop. 2, log_Lex Ltr, InfoScale, YaRN, LongRoPE) side by "
        "side, or the verified derivation of Prop. 1 / 2.",
    )
    p.add_argument("--L-tr", type=length_int, help="training length (tokens)")
    p.add_argument("--L-ex", type=length_int, help="extrapolation length (tokens, >= L_tr)")
    p.add_argument("--sigma-tr", type=finite_float, help="logit std at L_tr (Prop. 1, 2)")
    p.add_argument("--sigma-ex", type=finite_float, help="logit std at L_ex (Prop. 1, 2)")
    p.add_argument(
        "--pmax-tr", type=finite_float, help="max probability at L_tr, in (0,1) (Prop. 1)"
    )
    p.add_argument("--d", type=positive_int, help="head dimension (InfoScale)")
    p.add_argument(
        "--derivation",
        choices=("prop1", "prop2"),
        help="print the step-by-step verified derivation instead",
    )
    p.add_argument("--markdown", action="store_true", help="derivation as Markdown")
    p.add_argument(
        "--truth",
        action="store_true",
        help="exact E[P_max], E[H] of softmax "
        "over L i.i.d. N(0, sigma^2) logits at temperature tau, next to the "
        "paper's approximations (needs --L, --sigma; --tau, --draws optional)",
    )
    p.add_argument("--L", type=length_int, help="length for --truth")
    p.add_argument("--sigma", type=finite_float, help="logit std for --truth")
    p.add_argument("--tau", type=finite_float, default=1.0, help="temperature for --truth")
    p.add_argument("--draws", type=nonnegative_int, default=0, help="Monte Carlo draws for --truth")
    p.add_argument(
        "--fast",
        action="store_true",
        help="derivation: fewer grid points "
        "for the approximation steps (seconds instead of tens of seconds)",
    )
    p.add_argument("--seed", type=nonnegative_int, default=0, help="seed of the spot checks")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def _derivation(args) -> int:
    from theory.temperature.derivations import DERIVATIONS

    report = DERIVATIONS[args.derivation](fast=args.fast).verify(seed=args.seed)
    if args.json:
        print(json_dumps(report.as_dict()))
    elif args.markdown:
        print(report.to_markdown())
    else:
        for i, r in enumerate(report.results, 1):
            err = "" if r.max_error is None else f"  (max {r.step.error} error {r.max_error:.3g})"
            print(f"{i:2d}. [{r.verdict}] {r.step.label}{err}")
    return 0


def _truth(args) -> int:
    from theory.temperature.gaussian_softmax import softmax_truth

    if args.L is None or args.sigma is None:
        raise TemperatureInputError("--truth needs --L and --sigma")
    if args.L < 1 or not (args.sigma > 0 and math.isfinite(args.sigma)):
        raise TemperatureInputError("--L must be >= 1 and --sigma > 0")
    if not (args.tau > 0 and math.isfinite(args.tau)) or args.sigma / args.tau > 50:
        raise TemperatureInputError("--tau must be > 0 with sigma/tau <= 50")
    if args.draws * args.L > 10**11:
        raise TemperatureInputError("--draws x --L must be <= 1e11 (Monte Carlo work)")
    with Progress(
        "softmax truth (quadratures, then Monte Carlo draws)", total=3 + args.draws
    ) as bar:
        t = softmax_truth(args.L, args.sigma, args.tau, args.draws, args.seed, progress=bar)
    if args.json:
        print(json_dumps(t))
        return 0
    print(
        f"L={args.L} sigma={args.sigma:g} tau={args.tau:g}  s=sigma/tau={t['s']:.4g}  "
        f"e^(s^2)={t['regime']['exp_s2']:.4g}  s_c=sqrt(2 ln L)={t['regime']['s_c']:.4g}"
    )
    print(
        f"{'statistic':14s} {'exact':>12s} {'paper approx':>13s}"
        + ("  Monte Carlo" if args.draws else "")
    )
    for k in ("pmax", "entropy", "log_partition"):
        mc = t.get("monte_carlo", {}).get(k)
        extra = f"  {mc['mean']:.6g} +- {mc['se']:.2g}" if mc else ""
        print(f"{k:14s} {t['exact'][k]:12.6g} {t['approx'][k]:13.6g}{extra}")
    return 0


def _table(rules, args) -> str:
    lines = [
        f"L_tr={args.L_tr:g}  L_ex={args.L_ex:g}  s=L_ex/L_tr={args.L_ex / args.L_tr:.4g}",
        f"{'rule':12s} {'tau':>10s}  note / source",
    ]
    for name, r in rules.items():
        tau = "-" if r.tau is None else f"{r.tau:.6f}"
        lines.append(f"{name:12s} {tau:>10s}  {r.note or ''}".rstrip())
        lines.append(f"{'':12s} {'':>10s}  [{r.source}]")
    return "\n".join(lines)


@command
def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.derivation:
            return _derivation(args)
        if args.truth:
            return _truth(args)
        if args.L_tr is None or args.L_ex is None:
            raise TemperatureInputError("--L-tr and --L-ex are required (or --derivation)")
        for name in ("L_tr", "L_ex", "sigma_tr", "sigma_ex", "pmax_tr"):
            v = getattr(args, name)
            if v is not None and not math.isfinite(v):
                raise TemperatureInputError(f"--{name.replace('_', '-')} must be finite")
        if args.pmax_tr is not None and not 0 < args.pmax_tr < 1:
            raise TemperatureInputError(f"--pmax-tr must be in (0, 1), got {args.pmax_tr:g}")
        for name in ("sigma_tr", "sigma_ex"):
            v = getattr(args, name)
            if v is not None and v <= 0:
                raise TemperatureInputError(f"--{name.replace('_', '-')} must be > 0, got {v:g}")
        rules = temperature_rules(
            args.L_tr, args.L_ex, args.sigma_tr, args.sigma_ex, args.pmax_tr, args.d
        )
    except TemperatureInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(
            json_dumps(
                {
                    "L_tr": args.L_tr,
                    "L_ex": args.L_ex,
                    "sigma_tr": args.sigma_tr,
                    "sigma_ex": args.sigma_ex,
                    "pmax_tr": args.pmax_tr,
                    "d": args.d,
                    "rules": {k: r.as_dict() for k, r in rules.items()},
                }
            )
        )
    else:
        print(_table(rules, args))
    return 0
