"""Causality measured from the attention a model applies
(:mod:`empirical.capture.causality`), checked against the model's own eager attention
weights: a causal model's weights are exactly 0 above the diagonal in every layer."""

import pytest
import torch
import transformers

from empirical.capture import causality
from empirical.capture.causality import MASK, STATIC, applied_causality, probe_ids
from empirical.capture.checkpoints import tiny_config
from empirical.capture.state import CaptureUnsupported

CASES = [
    ("llama", {}, transformers.AutoModel, True),  # causal base model, no LM head
    ("qwen3_vl_text", {}, transformers.AutoModel, True),  # no causal-LM class of its own
    ("llama", {}, transformers.AutoModelForCausalLM, True),  # decoder-only LM
    ("gpt2", {}, transformers.AutoModel, True),
    ("bert", {}, transformers.AutoModel, False),  # encoder
    ("bert", dict(is_decoder=True), transformers.AutoModel, True),  # BERT as a decoder
    ("t5", {}, transformers.AutoModel, False),  # the encoder is what runs on text
]


def _build(model_type, kw, auto, implementation=None):
    torch.manual_seed(0)
    extra = {} if implementation is None else {"attn_implementation": implementation}
    return auto.from_config(tiny_config(model_type, **kw), **extra).eval()


def _eager_upper_triangle_zero(model_type, kw, auto) -> bool:
    """The independent reference: the eager model's own attention weights on the probe
    (the encoder's, for an encoder-decoder model) are exactly 0 above the diagonal."""
    model = _build(model_type, kw, auto, "eager")
    ids = probe_ids(model)
    part = model.get_encoder() if model.config.is_encoder_decoder else model
    with torch.no_grad():
        weights = part(input_ids=ids, output_attentions=True).attentions
    assert weights and all(w is not None for w in weights)
    return all(bool((w.triu(1) == 0).all()) for w in weights)


@pytest.mark.parametrize("model_type,kw,auto,causal", CASES)
def test_causality_from_the_applied_mask(model_type, kw, auto, causal):
    assert _eager_upper_triangle_zero(model_type, kw, auto) is causal  # the reference
    got = applied_causality(_build(model_type, kw, auto))
    assert got.causal is causal, got
    assert got.signal == MASK, got
    assert (got.later_mass == 0.0) is causal and got.later_mass >= 0.0
    assert got.detail.startswith(MASK)


def test_a_model_the_probe_cannot_run_falls_back_to_the_modules(monkeypatch):
    def refuse(*a, **k):
        raise CaptureUnsupported("LlamaModel: refused for this test")

    monkeypatch.setattr(causality, "capture", refuse)
    got = applied_causality(_build("qwen3_vl_text", {}, transformers.AutoModel))
    assert (got.causal, got.signal, got.later_mass) == (True, STATIC, None)
    assert "refused for this test" in got.detail
    got = applied_causality(_build("bert", {}, transformers.AutoModel))
    assert (got.causal, got.signal) == (False, STATIC)
