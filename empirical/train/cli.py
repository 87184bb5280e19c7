"""``python -m empirical.train``: train a tiny language model with any RPE
(:func:`empirical.training.train.train`); :func:`build_parser` is also the schema of a
run's settings that the bundles fill in."""

from __future__ import annotations

import argparse
from pathlib import Path

from empirical.cli_util import threads_int
from empirical.training import train as train_module
from empirical.training.corpora import CORPORA, CorpusError
from empirical.training.data import check_tokenizer
from empirical.training.rpe import check_rpe
from empirical.training.tiny_lm import SCALINGS
from empirical.training.train import check_device, train
from theory.core.arguments import (
    finite_float,
    int_range,
    nonnegative_int,
    output_dir,
    positive_float,
    positive_int,
)
from theory.core.cli import (
    OVERWRITE_HELP,
    CommandParser,
    check_output_folder,
    command,
    fail,
    output_folder,
)
from theory.core.cli import dumps as json_dumps


def tokenizer_name(text: str) -> str:
    try:
        return check_tokenizer(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


EPILOG = """examples:
  python -m empirical.train --rpe type2 --corpus stdlib --seq-len 128 --steps 400 --out runs/type2
  python -m empirical.train --rpe "exp(-ln(n)**2)" --steps 100 --out runs/expr --json
  python -m empirical.train --rpe alibi --steps 800 --out runs/alibi   # resumes runs/alibi
  python -m empirical.train --rpe kerple_log --corpus kjv --tokenizer bpe2048 --out runs/kjv
"""


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(
        prog="python -m empirical.train",
        description=train_module.__doc__,
        epilog=EPILOG,
    )
    p.add_argument(
        "--rpe",
        default="type2",
        help="named RPE (type1 type2 inv_n inv_nlogn "
        "alibi kerple_log kerple_power sandwich t5 sinusoidal none) or a formula b_n",
    )
    p.add_argument("--corpus", default="stdlib", help=f"one of {', '.join(CORPORA)}")
    p.add_argument("--max-chars", type=positive_int, default=6_000_000, help="corpus size cap")
    p.add_argument(
        "--tokenizer",
        type=tokenizer_name,
        default="bytes",
        help="bytes (UTF-8 bytes, vocabulary 256) or bpeV, a byte-level BPE of V tokens "
        "trained here on the corpus's training split (for example bpe2048)",
    )
    p.add_argument(
        "--seq-len", type=int_range(2, 8192), default=128, help="training length m (at most 8192)"
    )
    p.add_argument("--steps", type=positive_int, default=400, help="optimiser steps")
    p.add_argument("--batch", type=int_range(1, 10**6), default=32, help="sequences per step")
    p.add_argument("--lr", type=positive_float, default=2e-3, help="peak learning rate (AdamW)")
    p.add_argument(
        "--warmup", type=nonnegative_int, default=40, help="steps of linear learning-rate warm-up"
    )
    p.add_argument("--weight-decay", type=finite_float, default=0.01, help="AdamW weight decay")
    p.add_argument("--n-layer", type=int_range(1, 1024), default=2, help="transformer layers")
    p.add_argument("--n-head", type=int_range(1, 64), default=4, help="attention heads per layer")
    p.add_argument(
        "--d-model",
        type=int_range(1, 10**5),
        default=128,
        help="model width (a multiple of --n-head)",
    )
    p.add_argument(
        "--attn-scale",
        default="none",
        choices=SCALINGS,
        help="logit scaling trained into the model (log_n: ln(i+1)/ln m; "
        "cosscale: alpha cos(q, k))",
    )
    p.add_argument("--cos-alpha", type=positive_float, default=16.0, help="CosScale alpha")
    p.add_argument(
        "--t5-buckets", type=int_range(2, 10**4), default=32, help="T5 bias: causal buckets"
    )
    p.add_argument(
        "--t5-max-distance",
        type=int_range(2, 10**9),
        default=128,
        help="T5 bias: distances >= this share the last bucket",
    )
    p.add_argument("--seed", type=nonnegative_int, default=0)
    p.add_argument("--threads", type=threads_int, default=1, help="torch CPU threads")
    p.add_argument(
        "--device",
        default="cpu",
        help="torch device to train on (cpu, cuda, cuda:1, ...); the checkpoint loads on "
        "any device, and the bundles measure on the CPU (default: cpu)",
    )
    p.add_argument(
        "--ckpt-every",
        type=positive_int,
        default=100,
        help="steps between checkpoints (resume points)",
    )
    p.add_argument("--eval-every", type=nonnegative_int, default=0, help="0: only at the end")
    p.add_argument(
        "--stop-at",
        type=positive_int,
        default=None,
        help="stop (checkpointed) at this step; rerun to resume (schedule uses --steps)",
    )
    p.add_argument("--fresh", action="store_true", help="ignore an existing checkpoint")
    p.add_argument("--out", type=output_dir, required=True, help="run folder")
    p.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


@command
def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        check_output_folder(args.out, args.overwrite)
        if args.d_model % args.n_head:
            raise ValueError(
                f"--d-model {args.d_model} is not a multiple of --n-head {args.n_head}"
            )
        check_rpe(args.rpe, "--rpe", args.n_head, args.seq_len)  # before loading data
        check_device(args.device)
        with output_folder(
            args.out, keep=lambda: (Path(args.out) / "ckpt.pt").exists(), create=False, mark=True
        ):
            metrics = train(args)
    except (ValueError, CorpusError) as exc:
        return fail(exc)
    if args.json:
        print(json_dumps(metrics))
    else:
        print(
            f"{metrics['run']}: {metrics['steps']} steps, val loss {metrics['val_loss']:.4f} "
            f"nats/token (ppl {metrics['val_ppl']:.3f}), {metrics['steps_per_s']} steps/s"
        )
    return 0
