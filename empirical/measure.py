"""Run a model over token sequences under :func:`empirical.capture.capture` and collect
:class:`empirical.stats.AttentionStats` -- the one loop shared by ``align``,
``assumptions``, ``collect``, the figures and the claims."""
from __future__ import annotations

import torch
from theory.core.progress import Progress

from .capture import attention_module_names, capture
from .corpora import token_sequences
from .models import LoadedModel, run_encoder
from .stats import AttentionStats


def sequences(lm: LoadedModel, corpus: str, length: int, n: int, offset: int = 0) -> list:
    """``n`` windows of ``length`` tokens of ``corpus`` for ``lm`` (LongTensor (1, L))."""
    if lm.max_positions is not None and length > lm.max_positions:
        raise ValueError(f"{lm.spec} has absolute positions up to {lm.max_positions}; "
                         f"length {length} cannot be run")
    return [torch.tensor([s]) for s in token_sequences(lm.encode, corpus, length, n, offset)]


def encoder_attention_names(model) -> list:
    """Attention modules counted by Algorithm 1 (the encoder's, for encoder-decoders)."""
    names = attention_module_names(model)
    enc = [n for n in names if n.startswith("encoder.")]
    return enc if enc and any(n.startswith("decoder.") for n in names) else names


def collect_stats(model, seqs, tau: float = 1.0, sorted_layers=(), tau_layers=None,
                  progress=None, block_bytes: int = 64 * 2 ** 20) -> AttentionStats:
    """Statistics of every softmax of ``model`` over ``seqs`` at temperature ``tau``.
    ``progress``: a label (own progress display on stderr) or a
    :class:`theory.core.progress.Progress` (or tqdm bar) to advance per pass."""
    stats = AttentionStats(sorted_layers=sorted_layers)
    bar = Progress(progress, total=len(seqs), leave=False) \
        if isinstance(progress, str) else progress
    with capture(model, stats=stats, tau=tau, tau_layers=tau_layers, block_bytes=block_bytes):
        for ids in seqs:
            run_encoder(model, ids)
            if bar is not None:
                bar.update(1)
    if isinstance(progress, str):
        bar.close()
    return stats


def find_s(model, seqs, tau: float, mode: str, layers=None) -> float:
    """Algorithm 1's FINDS(tau, M): the average over every softmax row (of the modules
    ``layers``, default all) of its max probability (``pmax``) or entropy."""
    st = collect_stats(model, seqs, tau=tau)
    if layers:
        st.layers = {k: v for k, v in st.layers.items() if k in layers}
        st.order = [k for k in st.order if k in layers]
    return st.overall(mode)
