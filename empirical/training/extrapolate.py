"""Perplexity of trained runs at inference lengths beyond the training length.

Non-overlapping evaluation (RPE paper Sec. 2.4 / Fig. 1): the same ``--eval-tokens``
test tokens are cut into consecutive chunks of length L and every next-token prediction
inside a chunk is scored, so PPL_L uses exactly the same predicted tokens for every L
and every run.  ``--sliding S``: windows of length L moved by S, scoring only the last
S predictions of each window (the first window scores all of its predictions).

.. math::

    \\mathrm{ppl}_L = \\exp\\Big(-\\frac{1}{|T|}\\sum_{t \\in T} \\log p(x_t \\mid x_{\\text{chunk}(t), < t})\\Big)
"""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable, Sequence
from pathlib import Path

import torch

from empirical.training.data import run_test_tokens
from empirical.training.rpe import LABELS
from empirical.training.train import load_model
from theory.core.cli import (
    atomic_path,
    save_figure,
)
from theory.core.progress import track


@torch.no_grad()
def chunk_nll(
    model: torch.nn.Module, tokens: torch.Tensor, length: int, score_from: int = 0
) -> tuple[float, int]:
    """Sum of NLL (nats) and count over predictions at positions >= score_from of a chunk."""
    logits = model(tokens[None, :-1])[0]  # (L-1, V)
    nll = torch.nn.functional.cross_entropy(logits, tokens[1:], reduction="none")
    nll = nll[max(0, score_from - 1) :]
    return float(nll.sum()), int(nll.numel())


def perplexity(
    model: torch.nn.Module,
    tokens: torch.Tensor,
    length: int,
    sliding: int = 0,
    progress: bool = False,
    desc: str = "",
) -> dict:
    """ppl at inference length ``length`` over ``tokens`` (len a multiple of length)."""
    total, count = 0.0, 0
    if sliding:
        starts = list(range(0, len(tokens) - length, sliding))
    else:
        starts = list(range(0, len(tokens) - length + 1, length))
    for k, s in enumerate(track(starts, desc or f"length {length}", enabled=progress, leave=False)):
        if sliding:
            chunk = tokens[s : s + length + 1]
            t, c = chunk_nll(model, chunk, length, score_from=0 if k == 0 else length - sliding + 1)
        else:
            chunk = tokens[s : s + length]
            t, c = chunk_nll(model, chunk, length)
        total += t
        count += c
    return {
        "length": length,
        "nll": total / count,
        "ppl": math.exp(total / count),
        "predictions": count,
    }


def evaluate_runs(
    runs: Iterable[str | Path],
    lengths: Sequence[int],
    eval_tokens: int | None = None,
    sliding: int = 0,
    progress: bool = True,
) -> list[dict]:
    """One row per (run, length): run, rpe, train_len, length, ppl, nll, predictions."""
    rows, cache = [], {}
    eval_tokens = eval_tokens or 2 * max(lengths)
    if eval_tokens < max(lengths) + (1 if sliding else 0):
        raise ValueError(
            f"--eval-tokens {eval_tokens} is shorter than the longest length "
            f"{max(lengths)}: no chunk to score"
        )
    for run in runs:
        model, cfg = load_model(run)
        data = cfg.get("data", {})
        key = (cfg["train"]["corpus"], cfg["train"]["max_chars"], data.get("sha256"))
        key += (cfg["train"].get("tokenizer", "bytes"),)
        if key not in cache:
            cache[key] = run_test_tokens(cfg)
        test = cache[key]
        if len(test) < eval_tokens + 1:
            raise ValueError(
                f"test split has {len(test)} tokens, fewer than --eval-tokens {eval_tokens}"
            )
        for L in track(lengths, f"eval {Path(run).name}", enabled=progress):
            span = (eval_tokens // L) * L if not sliding else eval_tokens + 1
            r = perplexity(model, test[:span], L, sliding=sliding)
            rows.append(
                {
                    "run": str(run),
                    "rpe": cfg["model"]["rpe"],
                    "label": LABELS.get(cfg["model"]["rpe"], cfg["model"]["rpe"]),
                    "train_len": cfg["train"]["seq_len"],
                    **r,
                }
            )
    return rows


def write_csv(rows: list[dict], path: str | Path) -> None:
    with atomic_path(path) as tmp, open(tmp, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


def plot_ppl(
    rows: list[dict],
    path: str | Path,
    title: str = "Perplexity vs inference length",
    note: str = "",
) -> None:
    """PPL vs length, one line per run (like the RPE paper's Figs. 3-4); the rows are
    written beside the PNG (same name, ``.json``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for run in dict.fromkeys(r["run"] for r in rows):
        rr = [r for r in rows if r["run"] == run]
        ax.plot([r["length"] for r in rr], [r["ppl"] for r in rr], marker="o", label=rr[0]["label"])
    ax.axvline(rows[0]["train_len"], color="gray", ls=":", lw=1)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("inference length (tokens)")
    ax.set_ylabel("test perplexity (bytes)")
    ax.set_title(title, fontsize=10)
    if note:
        fig.text(0.01, 0.01, note, fontsize=7, color="dimgray")
    ax.legend(fontsize=7)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    save_figure(fig, path, data={"title": title, "note": note, "rows": rows}, dpi=120)
    plt.close(fig)


def table(rows: Iterable[dict]) -> dict:
    """{length: {label: ppl}} (Table 4/6 layout)."""
    out: dict = {}
    for r in rows:
        out.setdefault(r["length"], {})[r["label"]] = round(r["ppl"], 4)
    return out
