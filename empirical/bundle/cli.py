"""``python -m empirical.bundle``: train the seeded bundle of tiny models and measure it.

``--profile NAME`` (ci or a rung of the ladder) trains every model of :data:`empirical.training.profile_bundle.MODELS`
(the RPE paper's set of RPEs, the T5 bias, the NoPE and CosScale models) with each seed of
the profile in ``--workers`` processes, measures it and writes ``OUT/bundle.json``, read by
:mod:`empirical.agreement` (the agreement tests, ``python -m empirical.results``), the
figures and the paper checks.  Finished models are reused; interrupted runs resume.
"""

from __future__ import annotations

from pathlib import Path

from empirical.training.profile_bundle import MODELS, PROFILES, run_profile
from theory.core.arguments import output_dir, positive_int
from theory.core.cli import CommandParser, command, fail
from theory.core.cli import dumps as json_dumps

EPILOG = """examples:
  python -m empirical.bundle --profile ci --out runs/ci          # CI bundle, 2 workers
  python -m empirical.bundle --profile bytes128 --out runs/bytes128   # a rung of the ladder
  python -m empirical.bundle --profile ci --models alibi t5 --out runs/part
"""


@command
def main(argv: list[str] | None = None) -> int:
    p = CommandParser(prog="python -m empirical.bundle", description=__doc__, epilog=EPILOG)
    p.add_argument(
        "--profile",
        choices=tuple(PROFILES),
        required=True,
        help="which seeded bundle to train (empirical.training.profile_bundle.PROFILES)",
    )
    p.add_argument("--workers", type=positive_int, default=2, help="worker processes")
    p.add_argument("--models", nargs="+", default=None, help="subset of the models")
    p.add_argument("--out", type=output_dir, default=None, help="default runs/PROFILE")
    p.add_argument("--quiet", action="store_true", help="no progress line per model and seed")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    args = p.parse_args(argv)
    out = args.out or f"runs/{args.profile}"
    try:
        bad = sorted(set(args.models or ()) - set(MODELS))
        if bad:
            raise ValueError(f"--models {bad[0]}: unknown model (known: {', '.join(MODELS)})")
        bundle = run_profile(args.profile, Path(out), args.workers, args.models, args.quiet)
    except (ValueError, FileNotFoundError) as exc:
        return fail(exc)
    if args.json:
        print(json_dumps({k: bundle[k] for k in ("profile", "settings", "wall_s", "workers")}))
        return 0
    print(
        f"profile {bundle['profile']}: {len(bundle['results'])} models x "
        f"{len(bundle['settings']['seeds'])} seeds in {bundle['wall_s']} s "
        f"({bundle['workers']} workers) -> {out}"
    )
    return 0
