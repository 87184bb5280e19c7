"""Causality read from the attention a model actually applies.

A model attends causally when every row ``i`` of every softmax of the part run on text
gives weight exactly 0 to every later key ``j > i``.  :func:`applied_causality` runs one
short forward pass (16 tokens) under the capture with the per-offset mass of every
module (:attr:`~empirical.capture.stats.LayerStats.mass`,
:math:`m_d = \\sum_i p_{i,i+d}`) and reads the mass at the offsets :math:`d > 0`: 0 in
every module is causal, any positive mass is not.  The weights are the ones the capture
computes equal to eager attention, so the answer follows the mask (or ``is_causal``
flag) that the attention call really applied, whatever the class is called (a
``Qwen3VLTextModel`` without a language-model class is causal).  None when the pass
cannot tell (it fails, or no module's rows were counted).
"""

from __future__ import annotations

import numpy as np
import torch

from empirical.capture.discovery import config_value, table_rows
from empirical.capture.session import capture
from empirical.capture.stats import AttentionStats

PROBE_TOKENS = 16


def probe_ids(model: torch.nn.Module, length: int) -> torch.Tensor:
    """(1, length) token ids that are none of the config's special tokens (a padding id
    would change the positions of RoBERTa-like models), on the embeddings' device."""
    emb = model.get_input_embeddings()
    vocab = table_rows(emb)
    cfg = getattr(model, "config", None)
    text_cfg = cfg.get_text_config() if hasattr(cfg, "get_text_config") else cfg
    special = set()
    for c in (cfg, text_cfg):
        for key in ("pad_token_id", "bos_token_id", "eos_token_id", "decoder_start_token_id"):
            v = config_value(c, key, None)
            special.update(v if isinstance(v, list) else [v])
    pool = [i for i in range(min(vocab, length + len(special) + 8)) if i not in special]
    ids = [pool[(7 * k + 3) % len(pool)] for k in range(length)]
    return torch.tensor([ids], device=emb.weight.device)


def later_key_mass(model: torch.nn.Module, length: int = PROBE_TOKENS) -> dict:
    """Per attention module whose rows were counted: the attention mass on later keys,
    :math:`\\sum_{d > 0} m_d`, summed over heads, of one forward pass of ``length``
    tokens (:func:`probe_ids`)."""
    stats = AttentionStats(mass_layers="all")
    ids = probe_ids(model, length)
    enc = model.get_encoder() if config_value(model.config, "is_encoder_decoder", False) else None
    training = model.training
    model.eval()  # the probe reads inference attention (no dropout)
    try:
        with torch.no_grad(), capture(model, stats=stats):
            (enc or model)(input_ids=ids)
    finally:
        model.train(training)
    out = {}
    for name, st in stats.layers.items():
        if st.mass is not None and float(np.asarray(st.rows).sum()) > 0:
            out[name] = float(st.mass[:, st.offsets() > 0].sum())
    return out


def applied_causality(
    model: torch.nn.Module, names: list | None = None, length: int = PROBE_TOKENS
) -> bool | None:
    """True when the modules ``names`` (default: every one counted) give weight exactly 0
    to every later key in a forward pass of ``length`` tokens, False when one of them
    gives a later key weight, None when the pass fails or counts none of them.

    >>> import transformers
    >>> cfg = dict(hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
    ...            intermediate_size=16, vocab_size=40)
    >>> applied_causality(transformers.BertModel(transformers.BertConfig(**cfg)))
    False
    >>> applied_causality(transformers.LlamaModel(transformers.LlamaConfig(**cfg)))
    True
    """
    try:
        mass = later_key_mass(model, length)
    except Exception:  # noqa: BLE001 - a model the probe cannot run: the caller falls back
        return None
    if names is not None:
        mass = {n: v for n, v in mass.items() if n in names}
    if not mass:
        return None
    return all(v == 0.0 for v in mass.values())
