"""Train a small causal LM with a chosen RPE on a local corpus (CPU, minutes).

Seeded and resumable: the batch at step ``s`` depends only on ``(seed, s)``, and the
checkpoint ``OUT/ckpt.pt`` holds model, optimiser and step, so an interrupted run
continued with the same command gives the same model as an uninterrupted one.
Writes ``OUT/config.json`` (all settings and seeds), ``OUT/log.csv`` (step, loss,
val_loss) and ``OUT/metrics.json``.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import pickle
import time
from pathlib import Path

import torch

from empirical.training.data import load_split, sample_batch
from empirical.training.tiny_lm import LMConfig, TinyLM
from theory.core.cli import (
    atomic_path,
    write_text,
)
from theory.core.cli import dumps as json_dumps
from theory.core.progress import Progress


def lr_at(step: int, args: argparse.Namespace) -> float:
    """Linear warmup then cosine decay to 10% of the peak."""
    if step < args.warmup:
        return args.lr * (step + 1) / args.warmup
    frac = (step - args.warmup) / max(1, args.steps - args.warmup)
    return args.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, frac))))


@torch.no_grad()
def eval_loss(
    model: TinyLM,
    tokens: torch.Tensor,
    length: int,
    n_batches: int = 8,
    batch: int = 16,
    seed: int = 12345,
) -> float:
    model.eval()
    dev = next(model.parameters()).device
    losses = [
        model.loss(sample_batch(tokens, batch, length, seed + i).to(dev)).item()
        for i in range(n_batches)
    ]
    model.train()
    return sum(losses) / len(losses)


def run_settings(args: argparse.Namespace, vocab_size: int = 256) -> dict:
    model = LMConfig(
        rpe=args.rpe,
        vocab_size=vocab_size,
        n_layer=args.n_layer,
        n_head=args.n_head,
        d_model=args.d_model,
        d_ff=4 * args.d_model,
        seed=args.seed,
        attn_scale=args.attn_scale,
        cos_alpha=args.cos_alpha if args.attn_scale == "cosscale" else 0.0,
        train_len=args.seq_len,
        t5_buckets=args.t5_buckets,
        t5_max_distance=args.t5_max_distance,
    ).as_dict()
    train = {
        k: getattr(args, k)
        for k in (
            "corpus",
            "max_chars",
            "tokenizer",
            "seq_len",
            "batch",
            "lr",
            "warmup",
            "weight_decay",
            "seed",
        )
    }
    return {"model": model, "train": train}


def load_model(run_dir: str | Path) -> tuple[TinyLM, dict]:
    """(model in eval mode, config dict) from a run folder."""
    run_dir = Path(run_dir)
    try:
        cfg = json.loads((run_dir / "config.json").read_text())
        model = TinyLM(LMConfig(**cfg["model"]))
        state = torch.load(run_dir / "ckpt.pt", map_location="cpu", weights_only=True)
        model.load_state_dict(state["model"])
    except (
        OSError,
        RuntimeError,
        ValueError,
        KeyError,
        TypeError,
        EOFError,
        pickle.UnpicklingError,
    ) as exc:
        why = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise ValueError(
            f"{run_dir} is not a readable run of empirical.training.train ({why})"
        ) from None
    return model.eval(), cfg


def train(args: argparse.Namespace) -> dict:
    torch.set_num_threads(args.threads)
    out = Path(args.out)
    splits, data_info = load_split(args.corpus, args.max_chars, 0.05, args.tokenizer)
    settings = run_settings(args, data_info["vocab_size"])
    check_lengths(splits, args.seq_len, args.corpus)
    out.mkdir(parents=True, exist_ok=True)
    model = TinyLM(LMConfig(**settings["model"])).to(args.device)
    decay = [p for n, p in model.named_parameters() if p.dim() >= 2]
    other = [p for n, p in model.named_parameters() if p.dim() < 2]
    opt = torch.optim.AdamW(
        [
            {"params": decay, "weight_decay": args.weight_decay},
            {"params": other, "weight_decay": 0.0},
        ],
        lr=args.lr,
        betas=(0.9, 0.98),
        eps=1e-8,
    )
    step, ckpt = 0, out / "ckpt.pt"
    if ckpt.exists() and not args.fresh:
        old = json.loads((out / "config.json").read_text())
        old_train = {"tokenizer": "bytes", **old["train"]}  # runs from before tokenizers
        if old["model"] != settings["model"] or old_train != settings["train"]:
            raise ValueError(f"{out} holds a run with other settings; use --fresh or another --out")
        state = torch.load(ckpt, map_location=args.device, weights_only=True)
        model.load_state_dict(state["model"])
        opt.load_state_dict(state["opt"])
        step = state["step"]
    elif args.fresh or not ckpt.exists():
        write_text(out / "log.csv", "step,loss,val_loss,lr\n")
    write_text(
        out / "config.json",
        json_dumps({**settings, "data": data_info, "steps": args.steps}, indent=2),
    )
    start_step, t0 = step, time.perf_counter()
    bar = Progress(
        f"train {args.rpe}", total=args.steps, initial=step, unit="steps", enabled=not args.quiet
    )
    with open(out / "log.csv", "a", newline="") as fh:
        log = csv.writer(fh)
        stop = min(args.steps, args.stop_at or args.steps)
        while step < stop:
            for g in opt.param_groups:
                g["lr"] = lr_at(step, args)
            x = sample_batch(
                splits["train"], args.batch, args.seq_len, args.seed * 1_000_003 + step
            ).to(args.device)
            loss = model.loss(x)
            opt.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            step += 1
            val = ""
            if args.eval_every and step % args.eval_every == 0:
                val = f"{eval_loss(model, splits['val'], args.seq_len):.5f}"
            log.writerow([step, f"{loss.item():.5f}", val, f"{lr_at(step - 1, args):.3g}"])
            bar.update(1, loss=f"{loss.item():.3f}")
            if step % args.ckpt_every == 0 or step == stop:
                with atomic_path(ckpt) as tmp:
                    torch.save(
                        {"model": model.state_dict(), "opt": opt.state_dict(), "step": step}, tmp
                    )
                fh.flush()
    bar.close()
    elapsed = time.perf_counter() - t0
    metrics = {
        "run": str(out),
        "rpe": args.rpe,
        "steps": step,
        "steps_this_call": step - start_step,
        "steps_per_s": round((step - start_step) / elapsed, 3) if step > start_step else None,
        "threads": args.threads,
        "device": args.device,
        "n_params": model.n_params(),
        "val_loss": round(eval_loss(model, splits["val"], args.seq_len), 5),
        "rpe_params": model.rpe.describe()
        if args.rpe in ("kerple_log", "kerple_power")
        else {"name": model.rpe.name},
    }
    metrics["val_ppl"] = round(math.exp(metrics["val_loss"]), 4)
    write_text(out / "metrics.json", json_dumps(metrics, indent=2))
    return metrics


def check_device(name: str) -> None:
    """A device torch knows and this machine has (ValueError naming it otherwise)."""
    try:
        dev = torch.device(name)
    except RuntimeError:
        raise ValueError(
            f"--device {name!r}: not a torch device (cpu, cuda, cuda:1, ...)"
        ) from None
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError(f"--device {name}: torch sees no CUDA device on this machine")
    if dev.type not in ("cpu", "cuda"):
        raise ValueError(f"--device {name}: only cpu and cuda are supported")


def check_lengths(splits: dict, seq_len: int, corpus: str) -> None:
    """Every split must hold more than one window of ``seq_len + 1`` tokens."""
    short = min(splits, key=lambda k: len(splits[k]))
    if len(splits[short]) <= seq_len + 1:
        raise ValueError(
            f"--seq-len {seq_len} does not fit the {short} split of corpus "
            f"{corpus!r} ({len(splits[short])} tokens); raise --max-chars or "
            "lower --seq-len"
        )
