"""``python -m empirical.collect``: mergeable attention statistics of a model over sequences,
on one process or under torchrun with an all-reduce (:mod:`empirical.capture.collect`)."""

from __future__ import annotations

from empirical.capture.collect import all_reduce_stats, rank_share
from empirical.cli_util import add_device_map_argument, setup_torch, threads_int
from empirical.training.corpora import check_text_field
from theory.core.arguments import (
    int_range,
    nonnegative_int,
    output_file,
    positive_float,
    positive_int,
)
from theory.core.cli import CommandParser, command, fail, write_text
from theory.core.cli import dumps as json_dumps

EXAMPLES = """examples:
  python -m empirical.collect --model t5-config:tiny --length 256 --n-seq 4 --out runs/stats.json
  torchrun --nproc-per-node 2 -m empirical.collect --model t5-config:tiny --length 256 --n-seq 4 --json
"""


@command
def main(argv: list[str] | None = None) -> int:
    p = CommandParser(
        prog="python -m empirical.collect",
        epilog=EXAMPLES,
        description="Collect mergeable attention statistics "
        "(single process, or under torchrun with all-reduce).",
    )
    p.add_argument("--model", default="t5-config:tiny")
    p.add_argument(
        "--corpus", default="stdlib", help="built-in corpus, text file, folder or JSONL file"
    )
    p.add_argument(
        "--text-field",
        default=None,
        metavar="FIELD",
        help="JSONL field holding the text (default: text; refused for a plain text file)",
    )
    p.add_argument(
        "--tokenizer", help="tokenizer folder or its tokenizer.json (default: the model folder)"
    )
    p.add_argument("--length", type=int_range(2, 10**9), default=512, help="tokens per sequence")
    p.add_argument("--n-seq", type=positive_int, default=4, help="sequences (windows) measured")
    p.add_argument(
        "--tau", type=positive_float, default=1.0, help="softmax temperature applied to the logits"
    )
    p.add_argument(
        "--sorted-layers",
        nargs="*",
        default=["first"],
        help="module names for sorted-logit statistics; 'first', 'all' or none",
    )
    p.add_argument(
        "--device",
        default="cpu",
        help="cpu (default), cuda (cuda:LOCAL_RANK under torchrun), cuda:N",
    )
    p.add_argument("--dtype", choices=("float32", "bfloat16", "float16"), default="float32")
    p.add_argument("--batch-size", type=positive_int, default=1, help="sequences per forward pass")
    p.add_argument("--seed", type=nonnegative_int, default=0)
    p.add_argument("--threads", type=threads_int, default=1)
    p.add_argument("--out", type=output_file, help="write the full statistics state (JSON) here")
    p.add_argument("--json", action="store_true", help="print one JSON object (rank 0)")
    add_device_map_argument(p)
    a = p.parse_args(argv)
    try:
        check_text_field(a.corpus, a.text_field)
    except ValueError as exc:
        return fail(exc)
    a.text_field = a.text_field or "text"
    setup_torch(a.threads)
    from empirical.capture.devices import ranks_from_env

    rank, world, _ = ranks_from_env()
    if a.n_seq < world:
        return fail(f"--n-seq {a.n_seq} is smaller than the number of processes {world}")
    if a.tau <= 0 or a.length < 2 or a.batch_size < 1:
        return fail("need --tau > 0, --length >= 2 and --batch-size >= 1")
    import torch

    try:
        from empirical.capture.devices import init_distributed

        ranks = init_distributed(a.device if a.device_map is None else "cpu")
    except ValueError as exc:
        return fail(exc)
    try:
        stats, lm = _collect(a, ranks)
    except (ValueError, RuntimeError, NotImplementedError) as exc:
        return fail(exc)
    finally:
        if world > 1:
            torch.distributed.destroy_process_group()
    if rank == 0:
        _report(a, stats, lm, world)
    return 0


def _collect(a, ranks):
    """Load, run this rank's share of the sequences and all-reduce (under torchrun)."""
    from empirical.capture.devices import resolve_dtype
    from empirical.capture.measure import collect_stats, sequences
    from empirical.capture.models import load_model
    from empirical.capture.positions import check_length, text_attention_names
    from empirical.training.corpora import CORPORA

    lm = load_model(
        a.model,
        corpus=a.corpus if a.corpus in CORPORA else "stdlib",
        seed=a.seed,
        device_map=a.device_map,
        device=None if a.device_map else ranks.device,
        dtype=resolve_dtype(a.dtype),
        tokenizer=a.tokenizer,
    )
    check_length(lm.model, a.length, "--length")
    names = text_attention_names(lm.model)
    sl = a.sorted_layers
    sl = "all" if sl == ["all"] else [names[0] if x == "first" else x for x in sl]
    seqs = sequences(lm, a.corpus, a.length, a.n_seq, text_field=a.text_field)
    mine = [seqs[i] for i in rank_share(len(seqs), ranks.rank, ranks.world)]
    stats = collect_stats(
        lm.model,
        mine,
        a.tau,
        sorted_layers=sl,
        batch_size=a.batch_size,
        progress=f"rank {ranks.rank}" if ranks.rank == 0 else None,
    )
    if ranks.distributed:
        all_reduce_stats(stats)
    return stats, lm


def _report(a, stats, lm, world) -> None:
    if a.out:
        write_text(a.out, json_dumps(stats.state()))
    summ = {
        "model": lm.description,
        "world_size": world,
        "n_seq": a.n_seq,
        "length": a.length,
        "tau": a.tau,
        "pmax": stats.overall("pmax"),
        "entropy": stats.overall("entropy"),
        "layers": {k: {q: v[q] for q in v if q != "per_head"} for k, v in stats.summary().items()},
        "out": None if a.out is None else str(a.out),
    }
    print(json_dumps(summ) if a.json else json_dumps(summ, indent=1))
