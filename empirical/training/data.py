"""Byte-level tokenisation and a contiguous train/validation/test split of a corpus.

Tokens are the UTF-8 bytes of the text (vocabulary 256, no training needed).  The split
is contiguous and disjoint: train = first ``1 - 2*frac`` of the bytes, validation = the
next ``frac``, test = the last ``frac``; no byte belongs to two parts.

>>> s = split_tokens(encode("abcdefghij" * 10), frac=0.1)
>>> [len(s[k]) for k in ("train", "val", "test")]
[80, 10, 10]
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable

import torch

from empirical.training.corpora import load_corpus


def encode(text: str) -> torch.Tensor:
    """UTF-8 bytes as a 1-D long tensor."""
    return torch.frombuffer(bytearray(text.encode("utf-8")), dtype=torch.uint8).long()


def decode(tokens: torch.Tensor | Iterable[int]) -> str:
    return bytes(int(t) for t in tokens).decode("utf-8", errors="replace")


def split_tokens(tokens: torch.Tensor, frac: float = 0.05) -> dict:
    """Contiguous disjoint split; returns dict train/val/test of 1-D tensors."""
    n = len(tokens)
    n_eval = int(n * frac)
    a, b = n - 2 * n_eval, n - n_eval
    return {"train": tokens[:a], "val": tokens[a:b], "test": tokens[b:]}


@functools.lru_cache(maxsize=4)
def load_split(corpus: str, max_chars: int, frac: float = 0.05) -> tuple[dict, dict]:
    """(splits, info) for a named corpus; info has sizes and a SHA-256 of the text.

    Cached per process (the tensors are shared: do not modify them in place)."""
    text = load_corpus(corpus, max_chars=max_chars)
    splits = split_tokens(encode(text), frac)
    info = {
        "corpus": corpus,
        "max_chars": max_chars,
        "split_frac": frac,
        "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()[:16],
        **{f"{k}_tokens": len(v) for k, v in splits.items()},
    }
    return splits, info


def sample_batch(tokens: torch.Tensor, batch: int, length: int, seed: int) -> torch.Tensor:
    """(batch, length + 1) random windows of ``tokens``, determined by ``seed`` alone."""
    g = torch.Generator().manual_seed(seed)
    starts = torch.randint(0, len(tokens) - length - 1, (batch,), generator=g)
    return torch.stack([tokens[s : s + length + 1] for s in starts.tolist()])


def run_test_tokens(cfg: dict) -> torch.Tensor:
    """Test split of the corpus a run was trained on; refuses a corpus whose text
    changed since training (SHA-256 recorded in the run's config.json)."""
    splits, info = load_split(cfg["train"]["corpus"], cfg["train"]["max_chars"])
    want = cfg.get("data", {}).get("sha256")
    if want and info["sha256"] != want:
        raise ValueError(
            f"corpus {cfg['train']['corpus']!r} differs from the one this run "
            f"was trained on (sha256 {info['sha256']} != {want}); the test "
            "split would not be held out"
        )
    return splits["test"]
