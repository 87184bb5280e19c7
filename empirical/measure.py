"""Run a model over token sequences under :func:`empirical.capture.capture` and collect
:class:`empirical.stats.AttentionStats` -- the one loop shared by ``align``,
``assumptions``, ``collect``, ``audit``, the figures and the claims."""
from __future__ import annotations

import sys

import torch
from tqdm import tqdm

from .capture import capture
from .corpora import document_windows, load_documents
from .models import LoadedModel, run_encoder
from .stats import AttentionStats


def sequences(lm: LoadedModel, source: str, length: int, n: int, offset: int = 0,
              text_field: str = "text") -> list:
    """``n`` windows of ``length`` tokens of ``source`` (a built-in corpus, a file, a
    folder or a JSONL file: :func:`empirical.corpora.load_documents`) for ``lm``, with
    its tokenizer's special tokens (LongTensor (1, L) each)."""
    if lm.max_positions is not None and length > lm.max_positions:
        raise ValueError(f"{lm.spec} has absolute positions up to {lm.max_positions}; "
                         f"length {length} cannot be run")
    docs = load_documents(source, text_field)
    return [torch.tensor([s]) for s in document_windows(docs, lm.encode, length, n, offset,
                                                        lm.prefix, lm.suffix)]


def batches(seqs: list, batch_size: int) -> list:
    """Sequences of equal length stacked ``batch_size`` at a time (no padding).

    >>> [tuple(b.shape) for b in batches([torch.zeros(1, 4)] * 5, 2)]
    [(2, 4), (2, 4), (1, 4)]
    """
    if batch_size < 1:
        raise ValueError(f"batch size must be >= 1, got {batch_size}")
    return [torch.cat(seqs[i:i + batch_size]) for i in range(0, len(seqs), batch_size)]


def collect_stats(model, seqs, tau: float = 1.0, sorted_layers=(), tau_layers=None,
                  progress=None, block_bytes: int = 64 * 2 ** 20, batch_size: int = 1,
                  on_output=None) -> AttentionStats:
    """Statistics of every softmax of ``model`` over ``seqs`` at temperature ``tau``,
    ``batch_size`` sequences per forward pass.  ``progress``: a label (own tqdm bar on
    stderr) or a tqdm bar to advance per sequence.  ``on_output(ids, output)`` sees
    every forward pass's output (e.g. the logits for a perplexity)."""
    stats = AttentionStats(sorted_layers=sorted_layers)
    bar = tqdm(total=len(seqs), desc=progress, file=sys.stderr, leave=False) \
        if isinstance(progress, str) else progress
    with capture(model, stats=stats, tau=tau, tau_layers=tau_layers, block_bytes=block_bytes):
        for ids in batches(seqs, batch_size):
            out = run_encoder(model, ids)
            if on_output is not None:
                on_output(ids, out)
            if bar is not None:
                bar.update(ids.shape[0])
    if isinstance(progress, str):
        bar.close()
    return stats
