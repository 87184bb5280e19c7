"""Which modules of a model the capture treats as softmax attention.

:func:`attention_module_names`: the innermost modules whose class name ends in
``Attention``, less the layers of hybrids that compute no softmax over keys
(:func:`not_softmax_modules`: linear attention, Mamba, convolutions, by the config's
``layer_types``); :func:`supports_interface`: whether the model's attention goes through
transformers' ``AttentionInterface`` (else the capture swaps ``softmax`` and
``scaled_dot_product_attention``).
"""

from __future__ import annotations

import torch

NOT_SOFTMAX_LAYER_TYPES = ("linear_attention", "mamba", "conv", "lightning_attention")


def not_softmax_modules(model: torch.nn.Module) -> dict:
    """Modules named like attention modules that compute no softmax over keys (the
    linear-attention layers of hybrids such as MiniMax): name -> why, from the config's
    ``layer_types`` at the module's ``layer_idx``.

    >>> import transformers
    >>> cfg = transformers.MiniMaxConfig(hidden_size=16, intermediate_size=16, num_hidden_layers=2,
    ...     num_attention_heads=2, num_key_value_heads=1, head_dim=8, vocab_size=10,
    ...     num_local_experts=2, num_experts_per_tok=1)
    >>> not_softmax_modules(transformers.MiniMaxModel(cfg))
    {'layers.1.self_attn': 'MiniMaxLightningAttention: linear_attention layer, not softmax attention'}
    """
    cfg = getattr(model, "config", None)
    cfg = cfg.get_text_config() if hasattr(cfg, "get_text_config") else cfg
    types = getattr(cfg, "layer_types", None) or ()
    out = {}
    for name, mod in model.named_modules():
        idx = getattr(mod, "layer_idx", None)
        if not type(mod).__name__.endswith("Attention") or not isinstance(idx, int):
            continue
        if idx < len(types) and types[idx] in NOT_SOFTMAX_LAYER_TYPES:
            out[name] = f"{type(mod).__name__}: {types[idx]} layer, not softmax attention"
    return out


def attention_module_names(model: torch.nn.Module) -> list:
    """Names of the innermost modules whose class name ends in ``Attention`` (the ones
    that own a softmax), less those of :func:`not_softmax_modules`:
    ``encoder.block.0.layer.0.SelfAttention`` for T5, ...

    >>> import transformers
    >>> m = transformers.T5EncoderModel(transformers.T5Config(d_model=8, d_ff=8,
    ...     num_layers=2, num_heads=2, d_kv=4, vocab_size=10))
    >>> attention_module_names(m)
    ['encoder.block.0.layer.0.SelfAttention', 'encoder.block.1.layer.0.SelfAttention']
    """
    skip = not_softmax_modules(model)
    out = []
    for name, mod in model.named_modules():
        if type(mod).__name__.endswith("Attention") and not any(
            type(c).__name__.endswith("Attention") for c in mod.modules() if c is not mod
        ):
            if name not in skip:
                out.append(name)
    return out


def supports_interface(model: torch.nn.Module) -> bool:
    """Whether the model's attention goes through transformers' ``AttentionInterface``."""
    can = getattr(type(model), "_can_set_attn_implementation", None)
    return bool(can is not None and can())
