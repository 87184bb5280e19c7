"""Tiny Hugging Face checkpoints of every supported family, written to disk.

:func:`save_tiny_checkpoint` builds a randomly initialised model of a family from its
config (2 layers, hidden size 64, 4 heads, vocabulary of 512 by default), seeded, and
saves it with ``save_pretrained`` beside a fast tokenizer trained here with
``tokenizers`` (byte-level BPE on the Python standard library sources, corpus
``stdlib``), with the special tokens the family's real tokenizers use (BOS for
LLaMA/Mistral/Gemma/Phi-3, ``</s>`` first for OPT, EOS appended for T5, ``[CLS]``/``[SEP]``
for BERT).  Nothing is fetched from a hub.  The folders are what a researcher's local
checkpoint looks like, so loading code and capture can be tested on every family.

>>> import tempfile, transformers
>>> with tempfile.TemporaryDirectory() as d:
...     path = save_tiny_checkpoint("llama", d)
...     tok = transformers.AutoTokenizer.from_pretrained(path)
...     m = transformers.AutoModelForCausalLM.from_pretrained(path)
...     ids = tok("def f(x): return x")["input_ids"]
>>> ids[0] == tok.bos_token_id, type(m).__name__, m.config.num_hidden_layers
(True, 'LlamaForCausalLM', 2)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch
import transformers

from empirical.training.corpora import load_corpus

TOKENIZER_CHARS = 200_000
VOCAB = 512


@dataclass(frozen=True)
class Family:
    """How to build one family: config class, model class, config fields, tokens."""

    config: str
    model: str
    fields: dict
    bos: str | None = None  # prepended to every text
    eos: str | None = None  # appended to every text
    specials: dict = field(default_factory=dict)  # tokenizer attribute -> token


_DEC = dict(
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    max_position_embeddings=4096,
)
_LLAMA_TOK = dict(bos="<s>", specials=dict(bos_token="<s>", eos_token="</s>", unk_token="<unk>"))
_GEMMA_TOK = dict(
    bos="<bos>",
    specials=dict(bos_token="<bos>", eos_token="<eos>", unk_token="<unk>", pad_token="<pad>"),
)
_GPT_TOK = dict(
    specials=dict(bos_token="<|endoftext|>", eos_token="<|endoftext|>", unk_token="<|endoftext|>")
)
_T5_TOK = dict(eos="</s>", specials=dict(eos_token="</s>", unk_token="<unk>", pad_token="<pad>"))

FAMILIES: dict[str, Family] = {
    "llama": Family(
        "LlamaConfig", "LlamaForCausalLM", dict(_DEC, num_key_value_heads=2), **_LLAMA_TOK
    ),
    "mistral": Family(
        "MistralConfig",
        "MistralForCausalLM",
        dict(_DEC, num_key_value_heads=2, sliding_window=4096),
        **_LLAMA_TOK,
    ),
    "mixtral": Family(
        "MixtralConfig",
        "MixtralForCausalLM",
        dict(
            _DEC,
            num_key_value_heads=2,
            num_local_experts=4,
            num_experts_per_tok=2,
            sliding_window=None,
        ),
        **_LLAMA_TOK,
    ),
    "qwen2": Family(
        "Qwen2Config",
        "Qwen2ForCausalLM",
        dict(_DEC, num_key_value_heads=2),
        specials=dict(
            eos_token="<|endoftext|>", pad_token="<|endoftext|>", unk_token="<|endoftext|>"
        ),
    ),
    "qwen3": Family(
        "Qwen3Config",
        "Qwen3ForCausalLM",
        dict(_DEC, num_key_value_heads=2, head_dim=16),
        specials=dict(
            eos_token="<|endoftext|>", pad_token="<|endoftext|>", unk_token="<|endoftext|>"
        ),
    ),
    "gemma": Family(
        "GemmaConfig",
        "GemmaForCausalLM",
        dict(_DEC, num_key_value_heads=1, head_dim=16),
        **_GEMMA_TOK,
    ),
    "gemma2": Family(
        "Gemma2Config",
        "Gemma2ForCausalLM",
        dict(
            _DEC, num_key_value_heads=2, head_dim=16, sliding_window=4096, query_pre_attn_scalar=16
        ),
        **_GEMMA_TOK,
    ),
    "gemma3": Family(
        "Gemma3TextConfig",
        "Gemma3ForCausalLM",
        dict(
            _DEC, num_key_value_heads=2, head_dim=16, sliding_window=512, query_pre_attn_scalar=16
        ),
        **_GEMMA_TOK,
    ),
    "phi": Family("PhiConfig", "PhiForCausalLM", dict(_DEC), **_GPT_TOK),
    "phi3": Family(
        "Phi3Config",
        "Phi3ForCausalLM",
        dict(_DEC, num_key_value_heads=4, sliding_window=2047, pad_token_id=0),
        **_LLAMA_TOK,
    ),
    "gpt_neox": Family("GPTNeoXConfig", "GPTNeoXForCausalLM", dict(_DEC), **_GPT_TOK),
    "gpt2": Family(
        "GPT2Config",
        "GPT2LMHeadModel",
        dict(n_embd=64, n_layer=2, n_head=4, n_positions=1024),
        **_GPT_TOK,
    ),
    "opt": Family(
        "OPTConfig",
        "OPTForCausalLM",
        dict(
            hidden_size=64,
            ffn_dim=128,
            num_hidden_layers=2,
            num_attention_heads=4,
            word_embed_proj_dim=64,
            max_position_embeddings=2048,
        ),
        bos="</s>",
        specials=dict(bos_token="</s>", eos_token="</s>", unk_token="</s>", pad_token="<pad>"),
    ),
    "falcon": Family(
        "FalconConfig",
        "FalconForCausalLM",
        dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4),
        **_GPT_TOK,
    ),
    "t5": Family(
        "T5Config",
        "T5ForConditionalGeneration",
        dict(d_model=64, d_ff=128, num_layers=2, num_heads=4, d_kv=16),
        **_T5_TOK,
    ),
    "t5_encoder": Family(
        "T5Config",
        "T5EncoderModel",
        dict(d_model=64, d_ff=128, num_layers=2, num_heads=4, d_kv=16),
        **_T5_TOK,
    ),
    "bloom": Family(
        "BloomConfig",
        "BloomForCausalLM",
        dict(hidden_size=64, n_layer=2, n_head=4),
        bos=None,
        specials=dict(bos_token="<s>", eos_token="</s>", unk_token="<unk>", pad_token="<pad>"),
    ),
    "bert": Family(
        "BertConfig",
        "BertModel",
        dict(
            hidden_size=64,
            intermediate_size=128,
            num_hidden_layers=2,
            num_attention_heads=4,
            max_position_embeddings=1024,
        ),
        bos="[CLS]",
        eos="[SEP]",
        specials=dict(
            cls_token="[CLS]",
            sep_token="[SEP]",
            pad_token="[PAD]",
            mask_token="[MASK]",
            unk_token="[UNK]",
        ),
    ),
}


def _special_tokens(fam: Family) -> list[str]:
    toks = list(dict.fromkeys(fam.specials.values()))
    return [t for t in toks if t is not None]


def train_tokenizer(
    fam: Family, vocab_size: int = VOCAB, train_chars: int = TOKENIZER_CHARS
) -> transformers.PreTrainedTokenizerFast:
    """A byte-level BPE tokenizer (``tokenizers``) trained on the ``stdlib`` corpus, with
    the family's special tokens first in the vocabulary and its BOS/EOS template."""
    from tokenizers import Tokenizer

    text = _trained(tuple(_special_tokens(fam)), fam.bos, fam.eos, vocab_size, train_chars)
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=Tokenizer.from_str(text), **fam.specials
    )


@functools.lru_cache(maxsize=16)
def _trained(specials: tuple, bos, eos, vocab_size: int, train_chars: int):
    """The trained ``tokenizers.Tokenizer`` as JSON (cached per special tokens and
    template)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        show_progress=False,
        special_tokens=list(specials),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    text = load_corpus("stdlib", max_chars=train_chars)
    tok.train_from_iterator([text[i : i + 5000] for i in range(0, len(text), 5000)], trainer)
    if bos or eos:
        head, tail = ([bos] if bos else []), ([eos] if eos else [])
        tok.post_processor = processors.TemplateProcessing(
            single=" ".join(head + ["$A"] + tail),
            pair=" ".join(head + ["$A"] + tail + ["$B:1"] + [t + ":1" for t in tail]),
            special_tokens=[(t, tok.token_to_id(t)) for t in head + tail],
        )
    return tok.to_str()


def _token_ids(fam: Family, tok) -> dict:
    """Config fields naming special token ids, from the trained tokenizer."""
    out = {}
    for attr, cfg_key in (
        ("bos_token", "bos_token_id"),
        ("eos_token", "eos_token_id"),
        ("pad_token", "pad_token_id"),
    ):
        t = fam.specials.get(attr)
        if t is not None:
            out[cfg_key] = tok.convert_tokens_to_ids(t)
    if fam.config == "T5Config":
        out["decoder_start_token_id"] = out.get("pad_token_id", 0)
    return out


def build_tiny_model(
    family: str, seed: int = 0, vocab_size: int = VOCAB, **config_overrides: Any
) -> torch.nn.Module:
    """The seeded random-init model of ``family`` (no tokenizer; ids < ``vocab_size``)."""
    fam = _family(family)
    cfg = getattr(transformers, fam.config)(
        **{**fam.fields, "vocab_size": vocab_size, **config_overrides}
    )
    torch.manual_seed(seed)
    return getattr(transformers, fam.model)(cfg).eval()


def _family(family: str) -> Family:
    if family not in FAMILIES:
        raise ValueError(f"unknown family {family!r}; one of {', '.join(FAMILIES)}")
    return FAMILIES[family]


def save_tiny_checkpoint(
    family: str, folder: str | Path, seed: int = 0, **config_overrides: Any
) -> Path:
    """Build the tiny ``family`` model (config fields overridden by ``config_overrides``),
    save it and its trained tokenizer into ``folder`` (created) and return the folder."""
    fam = _family(family)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tok = train_tokenizer(fam)
    ids = _token_ids(fam, tok)
    model = build_tiny_model(family, seed=seed, vocab_size=len(tok), **{**ids, **config_overrides})
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder


# ---- any text model type, from transformers' config mapping ---------------------------
SIZE = dict(
    hidden_size=64,
    intermediate_size=128,
    num_hidden_layers=2,
    num_attention_heads=4,
    num_key_value_heads=2,
    head_dim=16,
    vocab_size=512,
    d_model=64,
    d_ff=128,
    d_kv=16,
    num_layers=2,
    num_decoder_layers=2,
    num_heads=4,
    encoder_layers=2,
    decoder_layers=2,
    encoder_attention_heads=4,
    decoder_attention_heads=4,
    encoder_ffn_dim=128,
    decoder_ffn_dim=128,
    n_embd=64,
    n_layer=2,
    n_head=4,
    n_heads=4,
    n_layers=2,
    dim=64,
    hidden_dim=128,
    num_local_experts=4,
    num_experts=4,
    num_experts_per_tok=2,
    moe_intermediate_size=32,
    shared_expert_intermediate_size=32,
    sliding_window=16,
    max_position_embeddings=512,
    num_encoder_layers=2,
    pad_token_id=0,
    bos_token_id=1,
    eos_token_id=2,
    kv_lora_rank=16,
    q_lora_rank=32,
    qk_rope_head_dim=8,
    qk_nope_head_dim=8,
    v_head_dim=16,
    n_routed_experts=4,
    n_group=1,
    topk_group=1,
)
# types that need more than SIZE (keyed by model type)
EXTRA: dict[str, dict] = {
    "gptj": dict(rotary_dim=8),
    "codegen": dict(rotary_dim=8),
    "cpmant": dict(prompt_length=0),
    "gpt_neo": dict(num_layers=2, attention_types=[[["global", "local"], 1]], window_size=8),
    "longt5": dict(local_radius=4, global_block_size=4),
    # windows shrunk with the sizes (ModernBERT's 128-token local attention, Longformer's
    # and LED's 512-token bands), so that they cut the sweep's 40 tokens as they cut a
    # real checkpoint's inputs
    "modernbert": dict(
        pad_token_id=0,
        bos_token_id=1,
        eos_token_id=2,
        global_attn_every_n_layers=2,
        local_attention=16,
    ),
    "longformer": dict(attention_window=16),
    "led": dict(attention_window=16),
    "gpt_oss": dict(layer_types=["sliding_attention", "full_attention"]),
    "minimax": dict(layer_types=["full_attention", "linear_attention"]),
    "mpt": dict(attn_config=dict(alibi=True)),
    "jamba": dict(attn_layer_offset=0, attn_layer_period=2, expert_layer_period=2),
    "qwen3_next": dict(layer_types=["full_attention", "linear_attention"]),
    # as real checkpoints are configured: LFM2-MoE names its layer types, Cohere Compass
    # keys its RoPE parameters by layer type
    "squeezebert": dict(embedding_size=64),  # = hidden_size, as in its real checkpoints
    "lfm2_moe": dict(layer_types=["full_attention", "conv"], num_dense_layers=1),
    "cohere_compass_text": dict(
        rope_parameters={"full_attention": {"rope_type": "default", "rope_theta": 10000.0}}
    ),
    # DBRX: its attention config carries the RoPE base and clip_qkv (8 in dbrx-base/instruct)
    "dbrx": dict(
        d_model=64,
        n_heads=4,
        n_layers=2,
        attn_config=dict(kv_n_heads=2, rope_theta=10000.0, clip_qkv=8.0),
        ffn_config=dict(ffn_hidden_size=128, moe_num_experts=4, moe_top_k=2),
    ),
    # Gemma 4: its full-attention layers have a larger head (per_layer_config), as in
    # the default config (256, 512 on the full layers)
    "gemma4_text": dict(
        layer_types=["sliding_attention", "full_attention"],
        per_layer_config={"01": {"head_dim": 32}},
    ),
    # BLT: its local encoder and decoder take the global transformer's width
    "blt": dict(
        encoder_config=dict(hidden_size_global=64),
        decoder_config=dict(hidden_size_global=64),
    ),
    "dots1": dict(n_shared_experts=1),
    # MobileBERT: embeddings narrower than the hidden size (128 and 512 in its checkpoints;
    # its masked-LM head widens them by hidden_size - embedding_size)
    "mobilebert": dict(embedding_size=32),  # dots.llm1: one shared expert
    "esmc": dict(num_key_value_heads=4),  # no grouped-query attention
    # Funnel: its checkpoints name their class (two base classes share the type)
    "funnel": dict(
        architectures=["FunnelModel"], block_sizes=[1, 1], d_model=64, n_head=4, d_head=16
    ),
    # Gemma 3n: a sliding and a full layer, no KV sharing in a 2-layer model
    "gemma3n_text": dict(
        layer_types=["sliding_attention", "full_attention"],
        num_kv_shared_layers=0,
        activation_sparsity_pattern=[0.0, 0.0],
        hidden_size_per_layer_input=16,
        vocab_size_per_layer_input=512,
    ),
    # Granite 4.0-H: attention layers beside its Mamba ("linear_attention") layers
    "granitemoehybrid": dict(layer_types=["attention", "linear_attention"]),
    # Bamba: attention layers among its Mamba layers (attn_layer_indices [9, 18, 27] in
    # Bamba-9B; None, all Mamba, by default)
    "bamba": dict(attn_layer_indices=[0]),
    # RecurrentGemma: its block pattern (recurrent, recurrent, attention) reaches the
    # local-attention block at the third layer; a window shorter than the input
    "recurrent_gemma": dict(num_hidden_layers=3, attention_window_size=16),
    "mamba2": dict(num_heads=8),  # num_heads * head_dim = expand * hidden_size
    # Qwen4-Exp: its full-attention layers carry the QSA indexer (one key head)
    "qwen4_exp_text": dict(
        layer_types=["indexed_attention", "linear_attention"],
        indexer_n_heads=4,
        indexer_kv_heads=1,
        indexer_head_dim=16,
        indexer_budget=8,
        indexer_compress_ratio=4,
        linear_key_head_dim=16,
        linear_value_head_dim=16,
        linear_num_key_heads=2,
        linear_num_value_heads=4,
    ),
    # Reformer: axial position factors that sum to the hidden size, chunks that divide
    # the axial length
    "reformer": dict(
        axial_pos_embds_dim=[16, 48],
        axial_pos_shape=[8, 8],
        attn_layers=["local", "lsh"],
        local_attn_chunk_length=8,
        lsh_attn_chunk_length=8,
        attention_head_size=16,
        feed_forward_size=128,
        max_position_embeddings=64,
        num_buckets=4,
    ),
    "xmod": dict(default_language="en_XX"),  # as its checkpoints set it
    # Zamba: shared attention blocks (tied) in two hybrid layers; Zamba2: one hybrid layer
    "zamba": dict(num_hidden_layers=3, layers_block_type=["hybrid", "linear_attention", "hybrid"]),
    "zamba2": dict(layers_block_type=["linear_attention", "hybrid"], hybrid_layer_ids=[1]),
    "zaya": dict(num_experts_per_tok=1),  # ZAYA routes one expert per token
}


def tiny_config(model_type: str, **overrides: Any) -> transformers.PreTrainedConfig:
    """The config of a tiny ``model_type`` model from transformers' config mapping:
    :data:`SIZE` where the config class has the field, then :data:`EXTRA`, then
    ``overrides``.

    >>> cfg = tiny_config("llama")
    >>> cfg.hidden_size, cfg.num_hidden_layers, cfg.num_key_value_heads
    (64, 2, 2)
    """
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING

    cls = CONFIG_MAPPING[model_type]
    kw = _sized(cls)
    for key, value in {**EXTRA.get(model_type, {}), **overrides}.items():
        # a sub-config's fields are merged into its sized fields
        both = isinstance(value, dict) and isinstance(kw.get(key), dict)
        kw[key] = {**kw[key], **value} if both else value
    return cls(**kw)


def _sized(cls, depth: int = 2) -> dict:
    """:data:`SIZE` restricted to the fields of config class ``cls``, and of its
    sub-configs (T5Gemma's encoder and decoder, BLT's patcher, ...) as dicts."""
    known = set(cls().to_dict()) | set(getattr(cls, "attribute_map", {}))
    kw = {k: v for k, v in SIZE.items() if k in known}
    if "kv_lora_rank" in known:  # multi-head latent attention: head_dim is the rotary part
        kw["head_dim"] = kw["qk_rope_head_dim"]
        kw["num_key_value_heads"] = kw.get("num_attention_heads", 4)
    kinds = list(dict.fromkeys(cls().to_dict().get("layer_types") or ()))
    if "layer_types" in known and len(kinds) > 1 and "num_hidden_layers" in kw:
        # hybrids: a softmax layer first, then another kind (linear attention, mamba)
        soft = [k for k in kinds if "attention" in k and "linear" not in k][:1]
        kw["layer_types"] = (soft + [k for k in kinds if k not in soft])[:2]
    for name, sub in (getattr(cls, "sub_configs", None) or {}).items():
        if depth and isinstance(sub, type) and issubclass(sub, transformers.PreTrainedConfig):
            kw[name] = _sized(sub, depth - 1)
    return kw
