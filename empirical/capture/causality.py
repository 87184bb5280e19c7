"""Causality measured from the attention a model actually applies.

A causal model's row ``i`` gives probability exactly 0 to every later key ``j > i``: the
mask (boolean, additive ``-inf`` or the dtype's minimum, or ``is_causal``) makes
``exp(l_ij - max_j l_ij)`` vanish there.  :func:`applied_causality` runs a short probe
(``PROBE_TOKENS`` tokens, no padding) through the capture with the per-offset attention
mass recorded for every module, :math:`M_h(d) = \\sum_i p^h_{i, i+d}` (attention-alignment
paper, Sec. 4: the receptive-field mass), and calls the model causal when
:math:`M_h(d) = 0` exactly for every offset :math:`d > 0`, every head and every module
that ran.  The decision thus follows the mask the attention call applied, whatever the
class is called or whether the model has a language-model head (``Qwen3VLTextModel``, a
``LlamaModel`` without head: causal; BERT: not; BERT built with ``is_decoder``: causal).

A model the capture cannot run on the probe falls back to the static reading
(:func:`~empirical.capture.positions.attends_causally`: the attention modules'
``is_causal``, else the config's ``is_causal``/``is_decoder``, else a causal-LM class);
:attr:`Causality.signal` says which signal decided.

>>> import transformers
>>> cfg = dict(hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
...            intermediate_size=16, vocab_size=50)
>>> applied_causality(transformers.LlamaModel(transformers.LlamaConfig(**cfg))).causal
True
>>> applied_causality(transformers.BertModel(transformers.BertConfig(**cfg))).causal
False
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch

from empirical.capture.models import run_encoder
from empirical.capture.positions import attends_causally, position_limit
from empirical.capture.session import capture
from empirical.capture.state import CaptureUnsupported
from empirical.capture.stats import AttentionStats

PROBE_TOKENS = 12
MASK = "applied mask"  # signal: the probe's attention mass on later keys
STATIC = "module is_causal / config"  # signal: attends_causally, the probe could not run


@dataclass(frozen=True)
class Causality:
    """Whether every row sees only earlier keys, and the evidence: ``signal`` is
    :data:`MASK` or :data:`STATIC`; ``later_mass`` the largest per-module attention mass
    on later keys in the probe (0.0 exactly for a causal model; None without a probe);
    ``detail`` one line for the report."""

    causal: bool
    signal: str
    later_mass: float | None
    detail: str


def probe_ids(model: torch.nn.Module, n: int = PROBE_TOKENS) -> torch.Tensor:
    """``(1, n')`` token ids spread over the vocabulary (``n' = min(n, table rows)``)."""
    table = position_limit(model)
    n = min(n, table.longest) if table is not None else n
    vocab = model.get_input_embeddings().num_embeddings
    return ((torch.arange(n) * 7919 + 3) % vocab)[None]


def later_key_mass(stats: AttentionStats) -> dict:
    """Per module that ran: the largest (over heads) attention mass on keys after the
    query, :math:`\\max_h \\sum_{d > 0} M_h(d)`."""
    out = {}
    for name, st in stats.layers.items():
        later = st.mass[:, st.max_len :]  # offsets d = 1 .. max_len - 1
        out[name] = float(np.max(later.sum(-1))) if later.size else 0.0
    return out


def applied_causality(model: torch.nn.Module, n: int = PROBE_TOKENS) -> Causality:
    """:class:`Causality` of ``model``'s text part from its applied attention (module
    docstring); the static reading when the capture cannot run the probe."""
    ids = probe_ids(model, n)
    stats = AttentionStats(mass_layers="all")
    try:
        with capture(model, stats=stats):
            run_encoder(model, ids)
    except (CaptureUnsupported, RuntimeError, ValueError, TypeError, IndexError) as exc:
        why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        causal = attends_causally(model)
        return Causality(causal, STATIC, None, f"{STATIC} (probe not run: {why})")
    mass = later_key_mass(stats)
    if not mass:
        causal = attends_causally(model)
        return Causality(causal, STATIC, None, f"{STATIC} (no attention ran on the probe)")
    worst = max(mass, key=mass.get)
    if mass[worst] == 0.0:
        detail = f"{MASK}: {len(mass)} modules give exactly 0 to later keys ({ids.shape[1]} tokens)"
        return Causality(True, MASK, 0.0, detail)
    detail = (
        f"{MASK}: {worst} gives {mass[worst]:.3g} of its rows' mass to later keys "
        f"({ids.shape[1]} tokens)"
    )
    return Causality(False, MASK, mass[worst], detail)
