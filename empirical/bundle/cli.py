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
from empirical.training.reproduce import compare_measurements
from theory.core.arguments import nonnegative_int, output_dir, positive_int
from theory.core.cli import CommandParser, command, fail
from theory.core.cli import dumps as json_dumps

EPILOG = """examples:
  python -m empirical.bundle --profile ci --out runs/ci          # CI bundle, 2 workers
  python -m empirical.bundle --profile bytes128 --out runs/bytes128   # a rung of the ladder
  python -m empirical.bundle --profile ci --models alibi t5 --out runs/part
  python -m empirical.bundle --profile kjv192 --models alibi --seeds 0 --reproduce --out /tmp/r
  python -m empirical.bundle --store runs/kjv192     # keep a trained rung in the repository
"""

#: the largest relative difference between a re-run and the stored rung that still counts
#: as reproduced (single-threaded seeded training: bit-identical on the machine that
#: trained it; other CPU families round their kernels differently)
REPRODUCE_RTOL = 1e-4


def store_rung(folder: Path) -> Path:
    """Write ``folder/bundle.json`` (checked) to the stored rungs, compact and gzip-compressed
    (deterministic bytes: no timestamp in the gzip header); ci is never stored."""
    import gzip
    import json

    from empirical.agreement import bundle_io
    from theory.core.cli import atomic_path

    path = folder / "bundle.json"
    if not path.is_file():
        raise FileNotFoundError(f"{folder}: no bundle.json (train the rung first)")
    b = bundle_io.read_bundle(path)
    bundle_io.check_bundle(b, path)
    name = b.get("profile")
    if name not in PROFILES or name == bundle_io.CI:
        raise ValueError(f"{path}: profile {name!r} is not a rung to store (ci is trained by CI)")
    raw = json.dumps(b, separators=(",", ":"), allow_nan=False).encode("utf-8")
    target = bundle_io.RUNGS_DIR / f"{name}.json.gz"
    target.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(target) as tmp:
        Path(tmp).write_bytes(gzip.compress(raw, 9, mtime=0))
    return target


@command
def main(argv: list[str] | None = None) -> int:
    p = CommandParser(prog="python -m empirical.bundle", description=__doc__, epilog=EPILOG)
    p.add_argument(
        "--profile",
        choices=tuple(PROFILES),
        default=None,
        help="which seeded bundle to train (empirical.training.profile_bundle.PROFILES)",
    )
    p.add_argument("--workers", type=positive_int, default=2, help="worker processes")
    p.add_argument("--models", nargs="+", default=None, help="subset of the models (all)")
    p.add_argument(
        "--seeds",
        nargs="+",
        type=nonnegative_int,
        default=None,
        help="subset of the profile's seeds (all)",
    )
    p.add_argument(
        "--reproduce",
        action="store_true",
        help="train the chosen models and seeds afresh into --out and compare their "
        "measurements with the stored rung's (exit 1 when a number differs by more than "
        f"a relative {REPRODUCE_RTOL:g})",
    )
    p.add_argument("--out", type=output_dir, default=None, help="default runs/PROFILE")
    p.add_argument("--quiet", action="store_true", help="no progress line per model and seed")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument(
        "--store",
        type=output_dir,
        default=None,
        metavar="FOLDER",
        help="instead of training: copy FOLDER/bundle.json of a finished rung into the "
        "repository's stored rungs (empirical/agreement/rungs/PROFILE.json.gz, gzip, "
        "measurements only) for the agreement tests, --scales and the paper checks",
    )
    args = p.parse_args(argv)
    if (args.profile is None) == (args.store is None):
        p.error("give --profile NAME (train) or --store FOLDER (keep a trained rung)")
    if args.store is not None:
        try:
            path = store_rung(Path(args.store))
        except (ValueError, FileNotFoundError) as exc:
            return fail(exc)
        print(json_dumps({"stored": str(path)}) if args.json else f"stored {path}")
        return 0
    out = args.out or f"runs/{args.profile}"
    try:
        bad = sorted(set(args.models or ()) - set(MODELS))
        if bad:
            raise ValueError(f"--models {bad[0]}: unknown model (known: {', '.join(MODELS)})")
        if args.seeds is not None:
            bad = sorted(set(args.seeds) - set(PROFILES[args.profile]["seeds"]))
            if bad:
                raise ValueError(
                    f"--seeds {bad[0]}: not a seed of profile {args.profile} "
                    f"({list(PROFILES[args.profile]['seeds'])})"
                )
        stored = None
        if args.reproduce:
            if args.out is None:
                raise ValueError("--reproduce needs --out (a fresh folder for the re-run)")
            if (Path(out) / "bundle.json").exists() or any(Path(out).glob("*/seed*/ckpt.pt")):
                raise ValueError(f"--reproduce: {out} already holds runs; give a fresh folder")
            from empirical.agreement.bundle_io import load_rung

            stored = load_rung(args.profile)
        bundle = run_profile(
            args.profile, Path(out), args.workers, args.models, args.quiet, args.seeds
        )
    except (ValueError, FileNotFoundError) as exc:
        return fail(exc)
    if stored is not None:
        rows = {
            f"{m} seed {sd}": compare_measurements(res, stored["results"][m][sd])
            for m, per in bundle["results"].items()
            for sd, res in per.items()
        }
        ok = all(r["max_rel"] <= REPRODUCE_RTOL and not r["mismatched"] for r in rows.values())
        if args.json:
            print(json_dumps({"profile": args.profile, "reproduced": ok, "runs": rows}))
        else:
            for k, r in rows.items():
                what = (
                    "bit-identical"
                    if r["identical"]
                    else (f"max relative difference {r['max_rel']:.3g} at {r['worst']}")
                )
                print(f"{k}: {r['values']} numbers, {what}")
            print(f"reproduced: {ok} (relative tolerance {REPRODUCE_RTOL:g})")
        return 0 if ok else 1
    if args.json:
        print(json_dumps({k: bundle[k] for k in ("profile", "settings", "wall_s", "workers")}))
        return 0
    print(
        f"profile {bundle['profile']}: {len(bundle['results'])} models x "
        f"{len(bundle['settings']['seeds'])} seeds in {bundle['wall_s']} s "
        f"({bundle['workers']} workers) -> {out}"
    )
    return 0
