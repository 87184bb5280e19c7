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
_MISSING = object()


def config_value(cfg: object, key: str, default: object = None) -> object:
    """``cfg.key``, or ``default`` when the config has no such field or its accessor
    raises (transformers' heterogeneous configs raise a ``RuntimeError`` for a per-layer
    attribute such as Gemma 4's ``head_dim`` read globally).

    >>> class C:
    ...     @property
    ...     def head_dim(self):
    ...         raise RuntimeError("'head_dim' is a per-layer attribute")
    >>> config_value(C(), "head_dim", 0), config_value(None, "x", 1)
    (0, 1)
    """
    if cfg is None:
        return default
    try:
        value = getattr(cfg, key, _MISSING)
    except Exception:  # noqa: BLE001 - any failing accessor means "not one global value"
        return default
    return default if value is _MISSING else value


def _text_config(model: torch.nn.Module) -> object:
    cfg = getattr(model, "config", None)
    return cfg.get_text_config() if hasattr(cfg, "get_text_config") else cfg


def _first_int(mod: torch.nn.Module, keys: tuple) -> int | None:
    for key in keys:
        v = config_value(mod, key, None)
        if isinstance(v, int) and not isinstance(v, bool) and v > 0:
            return v
    return None


def layer_geometry(model: torch.nn.Module, names: list) -> dict:
    """Per attention module: its head size, sliding window (None: every key) and attention
    type, read from the module (``head_dim``, T5's ``key_value_proj_dim``, BERT's
    ``attention_head_size``; ``sliding_window``/``window_size``; ``layer_type``,
    ``attention_type`` or the config's ``layer_types`` at its ``layer_idx``), so that
    per-layer configurations (Gemma 4: head size 16 on sliding layers, 32 on full ones)
    are read as each layer runs.

    >>> import transformers
    >>> cfg = transformers.Gemma3TextConfig(hidden_size=16, intermediate_size=16, head_dim=4,
    ...     num_hidden_layers=2, num_attention_heads=2, num_key_value_heads=1,
    ...     vocab_size=10, sliding_window=8, layer_types=["sliding_attention", "full_attention"])
    >>> m = transformers.Gemma3TextModel(cfg)
    >>> layer_geometry(m, attention_module_names(m))["layers.0.self_attn"]
    {'head_dim': 4, 'window': 8, 'attention_type': 'sliding_attention'}
    """
    mods = dict(model.named_modules())
    types = config_value(_text_config(model), "layer_types", None) or ()
    out = {}
    for name in names:
        mod = mods[name]
        kind = config_value(mod, "layer_type", None) or config_value(mod, "attention_type", None)
        idx = config_value(mod, "layer_idx", None)
        if not isinstance(kind, str) and isinstance(idx, int) and idx < len(types):
            kind = types[idx]
        window = _first_int(mod, ("sliding_window", "window_size"))
        if config_value(mod, "is_sliding", None) is False or kind in ("full_attention", "global"):
            window = None
        out[name] = {
            "head_dim": _first_int(mod, ("head_dim", "key_value_proj_dim", "attention_head_size")),
            "window": window,
            "attention_type": kind if isinstance(kind, str) else None,
        }
    return out


#: endings of the class names of attention modules: ``...Attention``, and LongCat-Flash's
#: multi-head latent attention ``LongcatFlashMLA`` (a softmax attention through
#: transformers' attention interface)
ATTENTION_CLASS_ENDINGS = ("Attention", "MLA")


def is_attention_class(mod: torch.nn.Module) -> bool:
    """Whether the class name of ``mod`` ends as an attention module's does
    (:data:`ATTENTION_CLASS_ENDINGS`)."""
    return type(mod).__name__.endswith(ATTENTION_CLASS_ENDINGS)


def _projects(mod: torch.nn.Module) -> bool:
    """Whether ``mod`` holds a matrix (a projection of queries, keys or values): a
    module named like attention with none is a step on the attention's output
    (NeoMME's ``ExclusiveSelfAttention``, one gain per head), not an attention."""
    return any(p.ndim >= 2 for p in mod.parameters())


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
    types = config_value(_text_config(model), "layer_types", None) or ()
    out = {}
    for name, mod in model.named_modules():
        idx = getattr(mod, "layer_idx", None)
        if not is_attention_class(mod) or not isinstance(idx, int):
            continue
        if idx < len(types) and types[idx] in NOT_SOFTMAX_LAYER_TYPES:
            out[name] = f"{type(mod).__name__}: {types[idx]} layer, not softmax attention"
    return out


def attention_module_names(model: torch.nn.Module) -> list:
    """Names of the innermost modules whose class name ends in ``Attention`` or ``MLA``
    (:func:`is_attention_class`: the ones that own a softmax), less those of
    :func:`not_softmax_modules`: ``encoder.block.0.layer.0.SelfAttention`` for T5, ...
    A module named so that holds no projection, inside one that does, is a step of the
    outer one (NeoMME's ``ExclusiveSelfAttention``), not an attention of its own.

    >>> import transformers
    >>> m = transformers.T5EncoderModel(transformers.T5Config(d_model=8, d_ff=8,
    ...     num_layers=2, num_heads=2, d_kv=4, vocab_size=10))
    >>> attention_module_names(m)
    ['encoder.block.0.layer.0.SelfAttention', 'encoder.block.1.layer.0.SelfAttention']
    """
    skip = not_softmax_modules(model)
    found = {n: m for n, m in model.named_modules() if is_attention_class(m)}
    projecting = {n for n, m in found.items() if _projects(m)}

    def step_of_outer(name: str) -> bool:
        parts = name.split(".")
        return name not in projecting and any(
            ".".join(parts[:i]) in projecting for i in range(1, len(parts))
        )

    out = []
    for name, mod in found.items():
        inner = [
            c
            for c in mod.modules()
            if c is not mod and is_attention_class(c) and (_projects(c) or not _projects(mod))
        ]
        if not inner and not step_of_outer(name) and name not in skip:
            out.append(name)
    return out


def no_attention_reason(model: torch.nn.Module) -> str:
    """Why :func:`attention_module_names` finds nothing in ``model``, in one line."""
    skip = not_softmax_modules(model)
    if skip:
        first = next(iter(skip.values()))
        return (
            f"{type(model).__name__}: no softmax attention modules found (its "
            f"{len(skip)} attention module(s) are not softmax attention: {first}, ...)"
        )
    return (
        f"{type(model).__name__}: no softmax attention modules found (no module whose "
        "class name ends in Attention or MLA and that holds a projection: a state-space, "
        "recurrent or Fourier mixer has no attention rows to measure)"
    )


def block_sparse_reason(model: torch.nn.Module, names: list) -> str | None:
    """Why ``model`` cannot be measured when one of its attention modules ``names`` is
    configured for block-sparse attention (BigBird's and BigBird-Pegasus's
    ``attention_type == "block_sparse"`` on the module or the wrapper holding it: each
    row attends a sliding window, global and random blocks of keys, a selection of keys
    per query; on inputs too short for its blocks the model switches itself to full
    attention for good, replacing its modules), else None.  BigBird-Pegasus's decoder,
    always full attention, carries no such attribute."""
    mods = dict(model.named_modules())
    for name in names:
        mod = mods[name]
        parent = mods.get(name.rpartition(".")[0])  # BigBird's wrapper of its .self
        kinds = (getattr(m, "attention_type", None) for m in (mod, parent) if m is not model)
        if "block_sparse" in kinds:
            cfg = getattr(mod, "config", None) or getattr(parent, "config", None)
            block = config_value(cfg, "block_size", None)
            rand = config_value(cfg, "num_random_blocks", None)
            full = (
                f"; full attention up to {(5 + 2 * rand) * block} tokens"
                if isinstance(block, int) and isinstance(rand, int)
                else ""
            )
            return (
                f"{type(model).__name__}: attention module '{name}' ({type(mod).__name__}) "
                f"is block-sparse (attention_type 'block_sparse': window, global and random "
                f"key blocks per query{full}), not supported (attention_type "
                "'original_full' is measured)"
            )
    return None


def supports_interface(model: torch.nn.Module) -> bool:
    """Whether the model's attention goes through transformers' ``AttentionInterface``."""
    can = getattr(type(model), "_can_set_attn_implementation", None)
    return bool(can is not None and can())


def head_size(model: torch.nn.Module, name: str) -> int | None:
    """The head size of the attention module ``name``: from the module
    (:func:`layer_geometry`), else from the text config (``d_kv``, ``head_dim``,
    ``hidden_size / num_attention_heads``; an accessor that raises counts as absent)."""
    d = layer_geometry(model, [name])[name]["head_dim"]
    if d is not None:
        return d
    c = _text_config(model)
    d = config_value(c, "d_kv") or config_value(c, "head_dim")
    hidden, heads = config_value(c, "hidden_size"), config_value(c, "num_attention_heads")
    if d is None and isinstance(hidden, int) and isinstance(heads, int) and heads:
        d = hidden // heads
    return d


def table_rows(mod: torch.nn.Module) -> int:
    """Rows of an embedding table: ``num_embeddings`` of a ``torch.nn.Embedding``, the
    first dimension of the ``weight`` of another embedding class (I-BERT's
    ``QuantEmbedding`` keeps no ``num_embeddings``)."""
    rows = getattr(mod, "num_embeddings", None)
    return int(rows) if isinstance(rows, int) else int(mod.weight.shape[0])


def is_embedding(mod: torch.nn.Module) -> bool:
    """A lookup table: a ``torch.nn.Embedding``, or a module named ``...Embedding`` with
    a 2-D ``weight`` (I-BERT's ``QuantEmbedding``)."""
    if isinstance(mod, torch.nn.Embedding):
        return True
    w = getattr(mod, "weight", None)
    return type(mod).__name__.endswith("Embedding") and isinstance(w, torch.Tensor) and w.ndim == 2
