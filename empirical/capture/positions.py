"""The part of a model that runs on text, its learned position tables, its causality.

A model with a learned (or stored sinusoidal) absolute position table of ``P`` rows
indexes it with the token positions; a window longer than the table allows fails deep in
the forward pass (an ``IndexError`` or a shape error).  :func:`position_limit` finds the
table from the model's modules (an ``nn.Embedding`` whose name says positions: ``wpe``,
``embed_positions``, ``position_embeddings``, ...) and tensors (a floating-point buffer or
parameter of ``(P, d)`` or ``(1, P, d)`` so named: CTRL's sinusoidal ``pos_encoding``,
GPT-J's and CodeGen's rotary sin/cos table ``embed_positions``), and biases a module
builds for a fixed number of keys (MPT's ALiBi bias, for the ``max_seq_len`` its
``build_mpt_alibi_tensor`` is called with), never from a config field alone that may be
missing, and counts the rows that positions cannot use: BART, OPT, BioGPT and MBart start
at row 2 (the module's ``offset``), RoBERTa-like models at ``padding_idx + 1``.  Rotary,
ALiBi (BLOOM, Falcon: built for the input), relative-bucket and position-free models have
no such table and run at any length.
:func:`check_length` refuses a length past the table before any work is done.

:func:`text_part` is the module that runs on text: the encoder of an encoder-decoder model
(the part the capture counts), the language model of a multimodal checkpoint, else the
model.  :func:`attends_causally` reads causality from that part's attention modules
(their ``is_causal``) and the config's ``is_decoder``/``is_causal``, not from the class
name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import torch
import transformers
from transformers.models.auto.modeling_auto import (
    MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
    MODEL_FOR_MASKED_LM_MAPPING_NAMES,
)

from empirical.capture.causality import applied_causality
from empirical.capture.discovery import (
    attention_module_names,
    config_value,
    head_size,
    is_embedding,
    layer_geometry,
    not_softmax_modules,
    table_rows,
)

POSITION_NAME = re.compile(r"(^|_)(wpe|pos|position|positions|positional)(_|$)")
RELATIVE_NAME = re.compile(r"(relative|(^|_)rel(_|$)|bucket)")
# a tensor held as a table of positions (not a bias or ids named for positions)
TENSOR_TABLE_NAME = re.compile(
    r"^(wpe|embed_positions|(pos|position|positional)_(enc|encoding|encodings|emb|embed"
    r"|embeds|embedding|embeddings|table))$"
)
TOWER_NAME = re.compile(r"(^|[._])(vision|visual|audio|image|video|speech)")
EXTENDS = ("make_weight", "make_weights")  # sinusoidal tables rebuilt for longer inputs


def in_tower(name: str) -> bool:
    """Whether the module ``name`` lies in a vision, audio or video tower (a part that
    does not run on text).

    >>> in_tower("encoder.vision_tower.layers.0.attn"), in_tower("model.layers.0.attn")
    (True, False)
    """
    return bool(TOWER_NAME.search(name))


class PositionLimitError(ValueError):
    """A length past the model's absolute position table (one-line message)."""


@dataclass(frozen=True)
class PositionTable:
    """A learned absolute position table: module name, class, rows, and the longest input
    its rows can index."""

    name: str
    kind: str
    rows: int
    longest: int


def text_part(model: torch.nn.Module) -> torch.nn.Module:
    """The module run on text: the encoder of an encoder-decoder model, the submodule
    whose config is the text config of a multimodal checkpoint (Qwen3-VL's
    ``model.language_model``), else ``model`` itself."""
    cfg = getattr(model, "config", None)
    if config_value(cfg, "is_encoder_decoder", False) and hasattr(model, "get_encoder"):
        return model.get_encoder()
    get_text = getattr(cfg, "get_text_config", None)
    text_cfg = get_text() if get_text is not None else cfg
    if text_cfg is not None and text_cfg is not cfg:
        for _, mod in model.named_modules():
            if mod is not model and getattr(mod, "config", None) is text_cfg:
                return mod
    return model


def part_prefix(model: torch.nn.Module, part: torch.nn.Module) -> str:
    """The name prefix (``""`` or ``"model.language_model."``) of ``part`` in ``model``."""
    if part is model:
        return ""
    return next(k for k, m in model.named_modules() if m is part) + "."


def text_attention_names(model: torch.nn.Module) -> list:
    """The attention modules of ``model`` with those of the part run on text
    (:func:`text_part`) first, so that "the first layer" is the language model's first
    layer of a multimodal checkpoint, not its vision tower's (:func:`in_tower`)."""
    names = attention_module_names(model)
    prefix = part_prefix(model, text_part(model))
    return sorted(names, key=lambda n: not n.startswith(prefix) or in_tower(n))


def _longest(mod: torch.nn.Module, parent: torch.nn.Module | None) -> int:
    """Positions the table's rows can index: ``rows - offset`` (BART, OPT, BioGPT: 2),
    ``rows - padding_idx - 1`` for a table with a padding row (RoBERTa: positions start
    after it), and at most the leading entries of the embeddings' ``position_ids``
    buffer that index a row (Nystromformer's start at 2)."""
    rows = table_rows(mod)
    longest = rows
    offset = getattr(mod, "offset", None)
    if isinstance(offset, int):
        longest = rows - offset
    elif getattr(mod, "padding_idx", None) is not None:
        longest = rows - int(mod.padding_idx) - 1
    ids = getattr(parent, "position_ids", None)
    if isinstance(ids, torch.Tensor) and not ids.is_floating_point() and ids.numel():
        first = ids.reshape(-1, ids.shape[-1])[0]
        fits = (first >= 0) & (first < rows)
        longest = min(longest, int(fits.long().cumprod(0).sum()))
    return longest


def position_tables(model: torch.nn.Module) -> list:
    """The absolute position tables (:class:`PositionTable`) of the part of ``model`` run
    on text (:func:`text_part`), in model order.

    >>> import transformers
    >>> m = transformers.GPT2Model(transformers.GPT2Config(n_embd=8, n_layer=1, n_head=2,
    ...     n_positions=128, vocab_size=10))
    >>> position_tables(m)
    [PositionTable(name='wpe', kind='Embedding', rows=128, longest=128)]
    """
    part = text_part(model)
    prefix = part_prefix(model, part)
    mods = dict(part.named_modules())
    out = []
    for name, mod in mods.items():
        last = name.rsplit(".", 1)[-1].lower()
        if (
            is_embedding(mod)
            and POSITION_NAME.search(last)
            and not RELATIVE_NAME.search(last)
            and not in_tower(name)
            and not any(hasattr(mod, k) for k in EXTENDS)
        ):
            parent = mods.get(name.rsplit(".", 1)[0] if "." in name else "")
            longest = _longest(mod, parent)
            out.append(PositionTable(prefix + name, type(mod).__name__, table_rows(mod), longest))
    return out + _tensor_tables(part, prefix) + _computed_tables(part, prefix)


def _computed_tables(part: torch.nn.Module, prefix: str) -> list:
    """Position biases computed each forward pass for a fixed number of keys, not for
    the input: MPT builds its ALiBi bias (``build_mpt_alibi_tensor``) for
    ``config.max_seq_len`` keys and slices it to the input, so a longer input fails with
    a shape error (MPT-7B: 2048)."""
    out = []
    for name, mod in part.named_modules():
        rows = config_value(getattr(mod, "config", None), "max_seq_len", None)
        if hasattr(mod, "build_mpt_alibi_tensor") and isinstance(rows, int):
            kind = "ALiBi bias built for config.max_seq_len keys"
            out.append(
                PositionTable(prefix + name if name else prefix.rstrip("."), kind, rows, rows)
            )
    return out


def _tensor_tables(part: torch.nn.Module, prefix: str) -> list:
    """Position tables held as plain tensors of ``part``: a floating-point buffer or
    parameter of shape ``(P, d)`` or ``(1, P, d)`` named as a table of positions
    (:data:`TENSOR_TABLE_NAME`: CTRL's sinusoidal ``pos_encoding``, the rotary sin/cos
    table ``embed_positions`` of GPT-J and CodeGen, both indexed by the positions),
    outside towers and outside modules that rebuild their table for longer inputs;
    position ids (integers) and biases named for positions are not tables."""
    out = []
    mods = dict(part.named_modules())
    buffers = {n for n, _ in part.named_buffers()}
    tensors = [*part.named_buffers(), *part.named_parameters()]
    for name, t in dict(tensors).items():
        owner, _, last = name.rpartition(".")
        table_like = t.ndim == 2 or (t.ndim == 3 and t.shape[0] == 1)
        if (
            t.is_floating_point()
            and table_like
            and TENSOR_TABLE_NAME.match(last.lower())
            and not in_tower(name)
            and not any(hasattr(mods.get(owner), k) for k in EXTENDS)
        ):
            rows = int(t.shape[-2])
            kind = f"{'buffer' if name in buffers else 'parameter'} {tuple(t.shape)}"
            out.append(PositionTable(prefix + name, kind, rows, rows))
    return out


def position_limit(model: torch.nn.Module) -> PositionTable | None:
    """The table that allows the shortest input, None for a model without one (rotary,
    ALiBi, relative buckets, no positions)."""
    tables = position_tables(model)
    return min(tables, key=lambda t: t.longest) if tables else None


def check_length(model: torch.nn.Module, length: int, what: str = "length") -> None:
    """:class:`PositionLimitError` naming the table, its rows and the longest length
    allowed when ``length`` tokens cannot be run through ``model``'s position table.

    >>> import transformers
    >>> m = transformers.GPT2Model(transformers.GPT2Config(n_embd=8, n_layer=1, n_head=2,
    ...     n_positions=128, vocab_size=10))
    >>> check_length(m, 128)
    >>> check_length(m, 256, "--L-ex")
    Traceback (most recent call last):
    ...
    empirical.capture.positions.PositionLimitError: GPT2Model has a position table wpe (Embedding) of 128 rows: inputs of at most 128 tokens can be run, not --L-ex 256
    """
    table = position_limit(model)
    if table is not None and length > table.longest:
        raise PositionLimitError(
            f"{type(model).__name__} has a position table {table.name} "
            f"({table.kind}) of {table.rows} rows: inputs of at most {table.longest} tokens "
            f"can be run, not {what} {length}"
        )


def is_causal_lm(cfg: transformers.PreTrainedConfig) -> bool:
    """Whether the model of this config attends causally and has a causal-LM class
    (LLaMA, GPT-2, BLOOM, ...): not an encoder-decoder, and not a masked-LM encoder
    (BERT) unless configured as a decoder.

    >>> is_causal_lm(transformers.LlamaConfig()), is_causal_lm(transformers.BertConfig())
    (True, False)
    """
    encoder = cfg.model_type in MODEL_FOR_MASKED_LM_MAPPING_NAMES and not config_value(
        cfg, "is_decoder", False
    )
    return (
        cfg.model_type in MODEL_FOR_CAUSAL_LM_MAPPING_NAMES
        and not encoder
        and not config_value(cfg, "is_encoder_decoder", False)
    )


def declared_causality(model: torch.nn.Module) -> bool:
    """Causality as the model declares it: never for the encoder of an encoder-decoder
    model; else the ``is_causal`` of its attention modules when they agree, else the
    config's ``is_causal``/``is_decoder`` (a BERT built as a decoder), else whether its
    model type has a causal-LM class."""
    part = text_part(model)
    cfg = getattr(model, "config", None)
    if part is not model and config_value(cfg, "is_encoder_decoder", False):
        return False
    mods = dict(part.named_modules())
    flags = {getattr(mods[n], "is_causal", None) for n in attention_module_names(part)}
    flags.discard(None)
    if len(flags) == 1 and isinstance(next(iter(flags)), bool):
        return next(iter(flags))
    part_cfg = getattr(part, "config", cfg)
    for key in ("is_causal", "is_decoder"):
        if config_value(part_cfg, key, None) is True:
            return True
    return part_cfg is not None and is_causal_lm(part_cfg)


def attends_causally(model: torch.nn.Module) -> bool:
    """Whether the rows of the part run on text (:func:`text_part`) see only earlier keys:
    never for the encoder of an encoder-decoder model; else from the attention the model
    applies (:func:`~empirical.capture.causality.applied_causality`: no weight on a later
    key in a short forward pass, whatever the mask, flag or class name), and where that
    pass cannot tell, as the model declares it (:func:`declared_causality`).

    >>> import transformers
    >>> attends_causally(transformers.BertModel(transformers.BertConfig(hidden_size=8,
    ...     num_hidden_layers=1, num_attention_heads=2, intermediate_size=8, vocab_size=10)))
    False
    """
    part = text_part(model)
    if part is not model and config_value(getattr(model, "config", None), "is_encoder_decoder"):
        return False
    prefix = part_prefix(model, part)
    names = [n for n in attention_module_names(model) if n.startswith(prefix) and not in_tower(n)]
    applied = applied_causality(model, names)
    return declared_causality(model) if applied is None else applied


def model_facts(model: torch.nn.Module) -> dict:
    """What the audit reads of a model before measuring it, by the same accessors:
    the attention modules (text model first), causality, the position table, each
    module's head size, window and attention type, the first module's head size (the
    ``d`` of the temperature rules), and the modules that are not softmax attention.
    The architecture sweep runs it on every type, so an accessor that fails on some
    configuration (a per-layer attribute read globally) is found there."""
    names = text_attention_names(model)
    return {
        "attention_modules": names,
        "causal": attends_causally(model),
        "position_table": position_limit(model),
        "layer_geometry": layer_geometry(model, names),
        "head_dim": head_size(model, names[0]) if names else None,
        "not_softmax_attention": not_softmax_modules(model),
    }
