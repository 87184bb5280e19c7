"""``python -m empirical.audit``: the audit of a model's attention from its training length to
long contexts (:func:`empirical.audit.command.audit`), written as a report by
:mod:`empirical.audit.report`."""

from __future__ import annotations

import argparse
from pathlib import Path

from empirical.audit.command import MeasurementProgress, audit, completed_measurements, prune_cache
from empirical.cli_util import setup_torch, threads_int
from empirical.training.corpora import check_text_field
from theory.core.arguments import nonnegative_int, output_dir, positive_float, positive_int
from theory.core.cli import (
    OVERWRITE_HELP,
    CommandParser,
    check_output_folder,
    command,
    describe,
    fail,
    output_folder,
)
from theory.core.cli import dumps as json_dumps

EXAMPLES = """examples:
  python -m empirical.audit --model /models/llama --text book.txt --L-tr 2048 --L-ex 8192 16384 --out audit
  python -m empirical.audit --model /models/flan-t5 --text docs/ --L-tr 512 --L-ex 2048 --device cuda --dtype bfloat16 --out a
  python -m empirical.audit --model /models/qwen --text data.jsonl --text-field content --L-tr 4096 --L-ex 32768 --json --out q
  python -m empirical.audit --model llama-config:tiny --text stdlib --L-tr 64 --L-ex 256 --out tiny
"""


def parser() -> CommandParser:
    p = CommandParser(
        prog="python -m empirical.audit",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Audit a model's attention from L_tr to long contexts: "
        "dispersion, Assumptions 1-2, Algorithm 1 and every temperature rule "
        "with the alignment error and perplexity each leaves.",
    )
    p.add_argument(
        "--model",
        required=True,
        help="checkpoint folder or SPEC (empirical.capture.models: llama-config:tiny, t5-config:tiny, ...)",
    )
    p.add_argument(
        "--tokenizer", help="tokenizer folder or its tokenizer.json (default: the model folder)"
    )
    p.add_argument(
        "--text",
        required=True,
        help="plain text file, folder of files, JSONL "
        "file, or a built-in corpus (stdlib, pydoc, kjv)",
    )
    p.add_argument(
        "--text-field",
        default=None,
        metavar="FIELD",
        help="JSONL field holding the text (default: text; refused for a plain text file)",
    )
    p.add_argument("--L-tr", dest="l_tr", type=int, required=True, help="training length")
    p.add_argument(
        "--L-ex", dest="l_ex", type=int, nargs="+", required=True, help="extrapolation lengths"
    )
    p.add_argument("--n-tr", type=positive_int, default=4, help="windows at L_tr (default 4)")
    p.add_argument("--n-ex", type=positive_int, default=1, help="windows at each L_ex (default 1)")
    p.add_argument(
        "--query-from",
        type=int,
        default=None,
        help="count query positions >= "
        "this at L_ex (default: L_tr for a causal model, 0 for an encoder)",
    )
    p.add_argument(
        "--sorted-layers",
        nargs="+",
        default=["first"],
        help="modules with "
        "sorted-logit statistics (sigma, lmax, QQ): 'first' (default), 'all', names",
    )
    p.add_argument("--lo", type=positive_float, default=0.05, help="continuous search: lower tau")
    p.add_argument("--hi", type=positive_float, default=1.0, help="continuous search: upper tau")
    p.add_argument(
        "--tol", type=positive_float, default=1e-3, help="continuous search: tau tolerance"
    )
    p.add_argument("--device", default="cpu", help="cpu (default), cuda, cuda:N, mps")
    p.add_argument("--dtype", choices=("float32", "bfloat16", "float16"), default="float32")
    p.add_argument("--batch-size", type=positive_int, default=1, help="windows per forward pass")
    p.add_argument(
        "--device-map",
        default=None,
        metavar="MAP",
        help="split a model larger "
        "than one GPU (accelerate): auto, balanced, sequential or a JSON object",
    )
    p.add_argument(
        "--allow-weight-mismatch",
        action="store_true",
        help="accept a checkpoint whose weights transformers reports missing, unexpected "
        "or of another shape (default: an error naming them)",
    )
    p.add_argument("--seed", type=nonnegative_int, default=0, help="seed of a config-built model")
    p.add_argument("--threads", type=threads_int, default=1, help="torch CPU threads")
    p.add_argument(
        "--out",
        type=output_dir,
        required=True,
        help="report folder (also the resume cache: the measurements completed before an "
        "interruption or a failure are kept, and the same command resumes from them)",
    )
    p.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    return p


def check_args(a: argparse.Namespace) -> str | None:
    """The first problem with the numbers on the command line, or None."""
    if a.l_tr < 2:
        return f"--L-tr must be >= 2, got {a.l_tr}"
    if any(L <= a.l_tr for L in a.l_ex):
        return f"every --L-ex must be larger than --L-tr {a.l_tr}, got {a.l_ex}"
    if a.n_tr < 1 or a.n_ex < 1:
        return f"--n-tr and --n-ex must be >= 1, got {a.n_tr} and {a.n_ex}"
    if a.batch_size < 1:
        return f"--batch-size must be >= 1, got {a.batch_size}"
    if not 0 < a.lo < a.hi or a.tol <= 0:
        return "need 0 < --lo < --hi and --tol > 0"
    return None


def _close_group() -> None:
    import torch.distributed as dist

    if dist.is_available() and dist.is_initialized():
        dist.destroy_process_group()


@command
def main(argv: list[str] | None = None) -> int:
    a = parser().parse_args(argv)
    a.l_ex = sorted(set(a.l_ex))
    problem = check_args(a)
    if problem:
        return fail(problem)
    try:
        check_output_folder(a.out, a.overwrite)
        check_text_field(a.text, a.text_field)
    except ValueError as exc:
        return fail(exc)
    a.text_field = a.text_field or "text"
    setup_torch(a.threads)
    resumable = 0
    try:
        from empirical.capture.devices import init_distributed, resolve_dtype
        from empirical.capture.models import load_model

        a.ranks = init_distributed(a.device if a.device_map is None else "cpu")
        device = a.ranks.device if a.device_map is None else None
        lm = load_model(
            a.model,
            seed=a.seed,
            device_map=a.device_map,
            device=device,
            dtype=resolve_dtype(a.dtype),
            tokenizer=a.tokenizer,
            lm_head=True,
            allow_weight_mismatch=a.allow_weight_mismatch,
        )
        progress = MeasurementProgress(not a.quiet and a.ranks.rank == 0)
        out = Path(a.out)
        kept = lambda: completed_measurements(out / "cache") > 0  # noqa: E731
        try:
            with output_folder(out, keep=kept, create=False, mark=True):
                res = audit(lm, a, out, progress)
                if a.ranks.rank != 0:
                    return 0
                from empirical.audit.report import write_report

                slim = write_report(res, out)
        except BaseException:
            resumable = prune_cache(out / "cache")  # nothing partial is left behind
            raise
    except (ValueError, RuntimeError, NotImplementedError, OSError) as exc:
        if resumable:
            return fail(
                f"{describe(exc)} ({resumable} completed measurement(s) kept in "
                f"{out / 'cache'}: the same command resumes from them)"
            )
        return fail(exc)
    finally:
        _close_group()
    progress.note(f"wrote {slim['files']['markdown']} ({res['seconds']} s)")
    if a.json:
        print(json_dumps(slim))
    else:
        print(Path(slim["files"]["markdown"]).read_text(), end="")
    return 0
