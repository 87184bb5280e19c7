"""Train the RPE paper's set of RPEs at a small budget and write its tables and figures.

Trains sinusoidal, ALiBi, Kerple log, Kerple power, Sandwich, Type1, Type2, 1/n and
1/(n ln n) with identical settings and seed, evaluates non-overlapping perplexity at
each inference length (Tables 4-6, Figs. 3-4), ERF vs windowed TRF (Figs. 5-6) with the
Spearman rank correlation, and writes into ``--out``:

``table.csv`` / ``table.md`` (PPL per length and RPE), ``ppl_rows.csv``, ``erf.json``,
``fig3.png`` (convergent RPEs + sinusoidal), ``fig4.png`` (1/n, 1/(n ln n), Type1),
``fig6.png`` (ERF vs TRF), ``summary.json`` (settings, seeds, steps/s, verdicts).
Finished runs are reused (a rerun only evaluates), interrupted runs resume.

``--profile ci|paper`` instead trains the seeded set of :mod:`empirical.training.profile_bundle`
(RPE set, T5 bias, InfoScale/CosScale models; 3 seeds each) in ``--workers`` processes
and writes ``bundle.json`` (read by :mod:`empirical.training.results`, the agreement tests and the
figures).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path


from empirical.training.erf import erf_for_run, plot_erf, spearman
from empirical.training.extrapolate import evaluate_runs, plot_ppl, table, write_csv
from empirical.training.rpe import LABELS, PAPER_SET
from empirical.train.cli import build_parser as train_parser
from empirical.training.train import train
from theory.core.cli import (
    CommandParser,
    atomic_path,
    command,
    fail,
    int_range,
    nonnegative_int,
    output_dir,
    output_folder,
    positive_int,
    write_text,
)
from theory.core.progress import track

from empirical.cli_util import threads_int

DEFAULT_STEPS, QUICK_STEPS = 400, 60
CONVERGENT = ("alibi", "kerple_log", "kerple_power", "sandwich", "type1", "type2")
DIVERGENT = ("inv_n", "inv_nlogn")
EPILOG = """examples:
  python -m empirical.bundle --profile ci --out runs/ci                    # CI bundle, 2 workers
  python -m empirical.bundle --profile paper --out runs/paper              # same set, longer
  python -m empirical.bundle --budget-steps 400 --out runs/bundle          # 1 thread; time grows with the steps
  python -m empirical.bundle --quick --out runs/bundle_quick --json        # 60 steps per model
  python -m empirical.bundle --rpes type2 inv_n sinusoidal --budget-steps 200 --out runs/b3
"""
NOTE = "tiny byte-level models trained here ({steps} steps, m={m}, stdlib corpus); not the paper's models"


def growth(rows: list[dict], label: str, train_len: int) -> dict:
    """ppl at the longest length / ppl at the training length (Def. 2.1's ratio)."""
    rr = sorted((r for r in rows if r["label"] == label), key=lambda r: r["length"])
    base = next(r["ppl"] for r in rr if r["length"] == train_len)
    return {
        "ppl_train_len": base,
        "ppl_max_len": rr[-1]["ppl"],
        "max_len": rr[-1]["length"],
        "ratio": rr[-1]["ppl"] / base,
        "delta": abs(rr[-1]["ppl"] - base) / base,
    }


def train_all(args: argparse.Namespace, out: Path) -> dict:
    metrics = {}
    for k, rpe in enumerate(args.rpes):
        argv = [
            "--rpe",
            rpe,
            "--corpus",
            args.corpus,
            "--seq-len",
            str(args.seq_len),
            "--steps",
            str(args.budget_steps),
            "--seed",
            str(args.seed),
            "--threads",
            str(args.threads),
            "--out",
            str(out / rpe),
            "--max-chars",
            str(args.max_chars),
        ]
        if args.quiet:
            argv.append("--quiet")
        print(f"[{k + 1}/{len(args.rpes)}] training {rpe}", file=sys.stderr)
        done = out / rpe / "metrics.json"
        if done.exists() and json.loads(done.read_text())["steps"] == args.budget_steps:
            metrics[rpe] = json.loads(done.read_text())
            continue
        metrics[rpe] = train(train_parser().parse_args(argv))
    return metrics


def markdown_table(tab: dict, labels: list[str]) -> str:
    lines = ["| Length | " + " | ".join(labels) + " |", "|" + "---|" * (len(labels) + 1)]
    for L, d in tab.items():
        lines.append(f"| {L} | " + " | ".join(f"{d[l]:.3f}" for l in labels) + " |")
    return "\n".join(lines) + "\n"


def check_bundle_args(args: argparse.Namespace) -> None:
    """Everything that can be checked before training: lengths, RPE names, the corpus."""
    if args.eval_tokens < max(args.lengths):
        raise ValueError(
            f"--eval-tokens {args.eval_tokens} is shorter than the longest "
            f"length {max(args.lengths)}: no chunk to score"
        )
    from empirical.training.rpe import check_rpe

    for rpe in args.rpes:
        check_rpe(rpe, "--rpes", length=min(args.seq_len, 64))
    from empirical.training.data import load_split
    from empirical.training.train import check_lengths

    check_lengths(load_split(args.corpus, args.max_chars)[0], args.seq_len, args.corpus)


def run_bundle(args: argparse.Namespace) -> dict:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    metrics = train_all(args, out)
    t_train = time.perf_counter() - t0
    runs = [out / r for r in args.rpes]
    rows = evaluate_runs(runs, args.lengths, args.eval_tokens, progress=not args.quiet)
    write_csv(rows, out / "ppl_rows.csv")
    tab = table(rows)
    labels = [LABELS.get(r, r) for r in args.rpes]
    with atomic_path(out / "table.csv") as tmp, open(tmp, "w") as fh:
        fh.write("length," + ",".join(labels) + "\n")
        for L, d in tab.items():
            fh.write(f"{L}," + ",".join(f"{d[l]:.4f}" for l in labels) + "\n")
    write_text(out / "table.md", markdown_table(tab, labels))
    note = NOTE.format(steps=args.budget_steps, m=args.seq_len)
    conv = [r for r in args.rpes if r in CONVERGENT or r == "sinusoidal"]
    div = [r for r in args.rpes if r in DIVERGENT or r == "type1"]
    for name, sel, title in (
        ("fig3", conv, "Convergent RPEs (cf. RPE paper Fig. 3)"),
        ("fig4", div, "Divergent 1/n, 1/(n ln n) vs Type1 (cf. Fig. 4)"),
    ):
        sub = [r for r in rows if r["rpe"] in sel]
        if sub:
            plot_ppl(sub, out / f"{name}.png", title=title, note=note)
    t1 = time.perf_counter()
    erf = [
        erf_for_run(out / r, args.erf_length, n_chunks=2, with_series_trf=True)
        for r in track(args.rpes, "erf", enabled=not args.quiet)
        if r != "sinusoidal"
    ]
    write_text(out / "erf.json", json.dumps(erf))
    plot_erf([e for e in erf if e["rpe"] in CONVERGENT], out / "fig6.png", note=note)
    conv_erf = [e for e in erf if e["rpe"] in CONVERGENT]
    rank = {
        "convergent": [spearman(conv_erf, e) for e in (0.5, 0.2, 0.1)] if len(conv_erf) > 2 else [],
        "all_bias_rpes": [spearman(erf, e) for e in (0.5, 0.2, 0.1)] if len(erf) > 2 else [],
    }
    summary = {
        "settings": {k: (v if not isinstance(v, Path) else str(v)) for k, v in vars(args).items()},
        "seeds": {
            "model_init": args.seed,
            "batches": f"seed*1000003 + step (seed={args.seed})",
            "eval": "first eval_tokens of the test split, no sampling",
        },
        "train_seconds": round(t_train, 1),
        "eval_erf_seconds": round(time.perf_counter() - t1, 1),
        "metrics": metrics,
        "table": {str(k): v for k, v in tab.items()},
        "growth": {
            LABELS.get(r, r): growth(rows, LABELS.get(r, r), args.seq_len)
            for r in args.rpes
            if args.seq_len in args.lengths
        },
        "spearman": rank,
        "learned": {r: metrics[r].get("rpe_params") for r in args.rpes if r.startswith("kerple")},
        "files": sorted(p.name for p in out.iterdir() if p.is_file()),
    }
    write_text(out / "summary.json", json.dumps(summary, indent=2, default=str))
    return summary


def profile_main(args: argparse.Namespace) -> int:
    from empirical.training.profile_bundle import MODELS, run_profile

    try:
        bad = sorted(set(args.models or ()) - set(MODELS))
        if bad or args.workers < 1:
            raise ValueError(
                f"unknown model {bad[0]!r} (known: {', '.join(MODELS)})"
                if bad
                else "--workers must be >= 1"
            )
        bundle = run_profile(
            args.profile,
            Path(args.out or f"runs/{args.profile}"),
            args.workers,
            args.models,
            args.quiet,
        )
    except (ValueError, FileNotFoundError) as exc:
        return fail(exc)
    if args.json:
        print(json.dumps({k: bundle[k] for k in ("profile", "settings", "wall_s", "workers")}))
        return 0
    print(
        f"profile {bundle['profile']}: {len(bundle['results'])} models x "
        f"{len(bundle['settings']['seeds'])} seeds in {bundle['wall_s']} s "
        f"({bundle['workers']} workers) -> {args.out or 'runs/' + args.profile}"
    )
    return 0


@command
def main(argv: list[str] | None = None) -> int:
    p = CommandParser(
        prog="python -m empirical.bundle",
        description=__doc__,
        epilog=EPILOG,
    )
    p.add_argument(
        "--profile",
        choices=("ci", "paper"),
        default=None,
        help="train the seeded agreement bundle (empirical.training.profile_bundle)",
    )
    p.add_argument("--workers", type=positive_int, default=2, help="processes for --profile")
    p.add_argument("--models", nargs="+", default=None, help="subset of models for --profile")
    p.add_argument(
        "--budget-steps",
        type=positive_int,
        default=None,
        help=f"training steps per RPE (default {DEFAULT_STEPS}; --quick: {QUICK_STEPS})",
    )
    p.add_argument("--quick", action="store_true", help="small budget for a smoke run")
    p.add_argument(
        "--rpes", nargs="+", default=list(PAPER_SET), help="named RPEs or formulas b_n to train"
    )
    p.add_argument("--corpus", default="stdlib")
    p.add_argument("--max-chars", type=positive_int, default=6_000_000, help="corpus size cap")
    p.add_argument(
        "--seq-len", type=int_range(2, 8192), default=128, help="training length m (at most 8192)"
    )
    p.add_argument(
        "--lengths",
        type=int_range(2, 10**7),
        nargs="+",
        default=[128, 256, 512, 1024, 2048],
        help="inference lengths (tokens) of the perplexity table",
    )
    p.add_argument(
        "--eval-tokens", type=positive_int, default=8192, help="test tokens scored at every length"
    )
    p.add_argument(
        "--erf-length", type=int_range(2, 10**6), default=None, help="default 4 x seq-len"
    )
    p.add_argument("--seed", type=nonnegative_int, default=0)
    p.add_argument("--threads", type=threads_int, default=1)
    p.add_argument(
        "--out", type=output_dir, default=None, help="default runs/bundle, or runs/PROFILE"
    )
    p.add_argument("--quiet", action="store_true")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.profile:
        return profile_main(args)
    args.out = args.out or "runs/bundle"
    if args.budget_steps is None:
        args.budget_steps = QUICK_STEPS if args.quick else DEFAULT_STEPS
    try:
        check_bundle_args(args)
        with output_folder(args.out, keep=lambda: any(Path(args.out).glob("*/ckpt.pt"))):
            summary = run_bundle(args)
    except (ValueError, FileNotFoundError) as exc:
        return fail(exc)
    if args.json:
        print(json.dumps(summary, default=str))
    else:
        print((Path(args.out) / "table.md").read_text())
        for lab, g in summary["growth"].items():
            print(f"{lab:>14}: ppl({g['max_len']})/ppl({args.seq_len}) = {g['ratio']:.3f}")
        for s in summary["spearman"]["convergent"]:
            print(f"Spearman ERF vs TRF (convergent set) eps={s['eps']}: {s['rho']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
