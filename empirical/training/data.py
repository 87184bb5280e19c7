"""Tokenisation and a contiguous train/validation/test split of a corpus.

Two tokenizers (:data:`TOKENIZERS`): ``bytes``, the UTF-8 bytes of the text (vocabulary
256, no training needed), and ``bpeV`` (for example ``bpe2048``), a byte-level BPE of V
tokens trained here with ``tokenizers`` on the **training split only** (deterministic:
the same text gives the same merges, recorded by their SHA-256).  The split is contiguous
and disjoint: train = first ``1 - 2*frac`` of the text, validation = the next ``frac``,
test = the last ``frac``; no character belongs to two parts.

>>> s = split_tokens(encode("abcdefghij" * 10), frac=0.1)
>>> [len(s[k]) for k in ("train", "val", "test")]
[80, 10, 10]
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

import torch

from empirical.training.corpora import load_corpus

if TYPE_CHECKING:
    from tokenizers import Tokenizer


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


#: tokenizer names: ``bytes`` or ``bpe`` followed by the vocabulary size
TOKENIZERS = ("bytes", "bpeV")
_BPE = re.compile(r"bpe([0-9]+)")


def check_tokenizer(name: str) -> str:
    """``name`` if it is ``bytes`` or ``bpeV`` with 257 <= V <= 65536, else ValueError."""
    m = _BPE.fullmatch(name)
    if name == "bytes" or (m and 257 <= int(m.group(1)) <= 65536):
        return name
    raise ValueError(f"tokenizer {name!r}: use 'bytes' or 'bpeV' with 257 <= V <= 65536")


def train_bpe(text: str, vocab: int) -> Tokenizer:
    """A byte-level BPE of ``vocab`` tokens trained on ``text`` (``tokenizers``), fed in
    fixed 1 MB pieces so that the merges depend on the text alone."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
        special_tokens=[],
    )
    step = 1_000_000
    tok.train_from_iterator((text[i : i + step] for i in range(0, len(text), step)), trainer)
    return tok


def _bpe_encode(tok: Tokenizer, text: str) -> torch.Tensor:
    step = 1_000_000  # piece boundaries move at most a word's merges; fixed, so deterministic
    ids = [i for k in range(0, len(text), step) for i in tok.encode(text[k : k + step]).ids]
    return torch.tensor(ids, dtype=torch.long)


def tokenize_split(text: str, tokenizer: str, frac: float = 0.05) -> tuple[dict, dict]:
    """(splits, info) of ``text``: the split is cut on characters first, then each part is
    tokenised (a BPE is trained on the training part alone)."""
    check_tokenizer(tokenizer)
    if tokenizer == "bytes":
        splits = split_tokens(encode(text), frac)
        return splits, {"tokenizer": "bytes", "vocab_size": 256}
    n_eval = int(len(text) * frac)
    a, b = len(text) - 2 * n_eval, len(text) - n_eval
    parts = {"train": text[:a], "val": text[a:b], "test": text[b:]}
    tok = train_bpe(parts["train"], int(tokenizer[3:]))
    splits = {k: _bpe_encode(tok, v) for k, v in parts.items()}
    info = {
        "tokenizer": tokenizer,
        "vocab_size": tok.get_vocab_size(),
        "tokenizer_sha256": hashlib.sha256(tok.to_str().encode("utf-8")).hexdigest()[:16],
        "chars_per_token": round(len(parts["test"]) / max(1, len(splits["test"])), 4),
    }
    return splits, info


@functools.lru_cache(maxsize=4)
def load_split(
    corpus: str, max_chars: int, frac: float = 0.05, tokenizer: str = "bytes"
) -> tuple[dict, dict]:
    """(splits, info) for a named corpus; info has sizes, the tokenizer and a SHA-256 of
    the text.

    Cached per process (the tensors are shared: do not modify them in place)."""
    text = load_corpus(corpus, max_chars=max_chars)
    splits, tok_info = tokenize_split(text, tokenizer, frac)
    info = {
        "corpus": corpus,
        "max_chars": max_chars,
        "split_frac": frac,
        "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()[:16],
        **tok_info,
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
    tokenizer = cfg["train"].get("tokenizer", "bytes")
    splits, info = load_split(cfg["train"]["corpus"], cfg["train"]["max_chars"], 0.05, tokenizer)
    want = cfg.get("data", {}).get("sha256")
    if want and info["sha256"] != want:
        raise ValueError(
            f"corpus {cfg['train']['corpus']!r} differs from the one this run "
            f"was trained on (sha256 {info['sha256']} != {want}); the test "
            "split would not be held out"
        )
    sha = cfg.get("data", {}).get("tokenizer_sha256")
    if sha and info.get("tokenizer_sha256") != sha:
        raise ValueError(
            f"the {tokenizer} tokenizer trained now differs from this run's "
            f"(sha256 {info.get('tokenizer_sha256')} != {sha}; another tokenizers version?)"
        )
    return splits["test"]
