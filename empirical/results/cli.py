"""``python -m empirical.results``: the seeded bundle's measurements with their seed
intervals, or every contrast of :mod:`empirical.agreement.catalogue` (text, JSON or Markdown)."""

from __future__ import annotations

from empirical.agreement.bundle_io import load_profile_bundle
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
        "(runs/paper or runs/ci); the agreement tests compare them with the theory.",
        epilog="examples:\n  python -m empirical.results --json\n"
        "  python -m empirical.results --bundle runs/ci\n"
        "  python -m empirical.results --markdown\n"
        "  python -m empirical.results --contrasts --markdown",
    )
    p.add_argument(
        "--bundle", default=None, help="bundle folder (default: runs/paper, else runs/ci)"
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
    try:
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
        return fail(f"{b['folder']}/bundle.json has no entry {exc} (a run that was not measured?)")
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
