"""``python -m empirical.results``: the seeded bundle's measurements with their seed
intervals, or every contrast of :mod:`empirical.agreement.catalogue` (text, JSON or Markdown)."""

from __future__ import annotations

from empirical.agreement.bundle_io import load_profile_bundle, load_rung, rung_names
from empirical.agreement.catalogue import all_contrasts
from empirical.agreement.markdown import (
    contrasts_markdown,
    measurement_summary,
    measurements_markdown,
)
from theory.core.cli import CommandParser, command, fail
from theory.core.cli import dumps as json_dumps


@command
def main(argv: list[str] | None = None) -> int:
    p = CommandParser(
        prog="python -m empirical.results",
        description="Measurements of the seeded bundle with their seed intervals "
        "(runs/ci, or a stored rung of the ladder); the agreement tests compare them with "
        "the theory.  --scales: every contrast on every rung, with its trend.",
        epilog="examples:\n  python -m empirical.results --json\n"
        "  python -m empirical.results --bundle runs/ci\n"
        "  python -m empirical.results --rung kjv192 --contrasts\n"
        "  python -m empirical.results --scales --json\n"
        "  python -m empirical.results --markdown\n"
        "  python -m empirical.results --contrasts --markdown",
    )
    p.add_argument(
        "--bundle", default=None, help="bundle folder (default: $LENGTHX_AGREEMENT, else runs/ci)"
    )
    p.add_argument(
        "--rung",
        default=None,
        help="a rung of the ladder by name instead of --bundle (ci or a stored one; default: none)",
    )
    p.add_argument(
        "--scales",
        action="store_true",
        help="every contrast on every rung (ci and the stored ones), with the trend of the "
        "theory's error across them",
    )
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument(
        "--contrasts",
        action="store_true",
        help="every agreement contrast (theory against alternatives) instead",
    )
    p.add_argument(
        "--markdown",
        action="store_true",
        help="a Markdown section (the measurements, or with --contrasts the contrasts)",
    )
    args = p.parse_args(argv)
    if args.rung is not None and args.bundle is not None:
        p.error("--rung and --bundle name two bundles: give one")
    b = None
    try:
        if args.scales:
            from empirical.agreement.scales import scale_report, scale_table

            report = scale_report(rung_names())
            print(json_dumps(report) if args.json else scale_table(report))
            return 0
        if args.rung is not None:
            b = load_rung(args.rung)
        else:
            b = load_profile_bundle(args.bundle)
        if args.contrasts:
            if args.markdown:
                print(contrasts_markdown(b), end="")
            elif args.json:
                print(json_dumps([c.as_dict() for c in all_contrasts(b)]))
            else:
                print("\n\n".join(c.table() for c in all_contrasts(b)))
            return 0
        if args.markdown:
            print(measurements_markdown(b), end="")
            return 0
        s = measurement_summary(b)
    except (FileNotFoundError, ValueError) as exc:
        return fail(exc)
    except KeyError as exc:  # a format-4 bundle without an entry a contrast reads
        where = "a rung's bundle" if b is None else f"{b['folder']}"
        return fail(f"{where} has no entry {exc} (a run that was not measured?)")
    if args.json:
        print(json_dumps(s))
        return 0
    lines = [f"profile {s['profile']}, seeds {s['seeds']}, {s['folder']}"]
    for sec in ("ppl_ratio_16m", "t5_entropy"):
        lines += [
            f"{sec:>14} {k:>12}: {v['mean']:.4g} [{v['lo']:.4g}, {v['hi']:.4g}]"
            for k, v in s.get(sec, {}).items()
        ]
    print("\n".join(lines))
    return 0
