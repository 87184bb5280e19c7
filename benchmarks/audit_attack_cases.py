"""The cases of :mod:`benchmarks.audit_attack`: tiny seeded checkpoints written as
researchers write them (``save_pretrained``, safetensors, a byte-level BPE tokenizer trained
here), broken folders, and a layer that raises, each with the outcome a correct audit
gives (``exact``, or ``refused`` with the reason its error line must name)."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import torch
import transformers

from empirical.capture.checkpoints import Family, tiny_config, train_tokenizer

L_TR, L_EX = 16, 48
TOKENIZER = Family(
    "",
    "",
    {},
    specials=dict(bos_token="<s>", eos_token="</s>", unk_token="<unk>", pad_token="<pad>"),
)


@dataclass
class Case:
    """A checkpoint (``make(folder)`` writes it), the command run on it, and what a
    correct audit does: ``exact``, or ``refused`` with an error line matching ``why``."""

    name: str
    make: Callable[[Path], None]
    expect: str = "exact"
    why: str = ""
    command: str = "audit"
    l_ex: int = L_EX
    extra: list = field(default_factory=list)
    patch: Callable | None = None  # a context manager around the command (a raising layer)


# ---------------------------------------------------------------------- checkpoints
def _tokenizer():
    return train_tokenizer(TOKENIZER)


def _ids(tok) -> dict:
    return {
        f"{k}_token_id": tok.convert_tokens_to_ids(t)
        for k, t in (("bos", "<s>"), ("eos", "</s>"), ("pad", "<pad>"))
    }


def saved(
    model_type: str, cls: str, dtype=None, shard: str | None = None, **overrides
) -> Callable[[Path], None]:
    """A writer of the tiny ``model_type`` checkpoint saved from class ``cls`` (config
    fields ``overrides`` over :func:`tiny_config`), its weights in ``dtype``, in
    safetensors shards of at most ``shard`` (``"60KB"``) with their index."""

    def make(folder: Path) -> None:
        tok = _tokenizer()
        ids = _ids(tok)
        cfg = tiny_config(model_type, vocab_size=len(tok), **{**ids, **overrides})
        if getattr(cfg, "is_encoder_decoder", False):
            cfg.decoder_start_token_id = ids["pad_token_id"]
        torch.manual_seed(1)
        model = getattr(transformers, cls)(cfg).eval()
        if dtype is not None:
            model.to(dtype)
        model.save_pretrained(folder, **({"max_shard_size": shard} if shard else {}))
        tok.save_pretrained(folder)

    return make


def bert2gpt2(folder: Path) -> None:
    """An ``EncoderDecoderModel`` of a BERT encoder and a GPT-2 decoder (the
    ``bert2gpt2`` composition), saved as one checkpoint."""
    tok = _tokenizer()
    ids = _ids(tok)
    enc = tiny_config("bert", vocab_size=len(tok), **ids)
    dec = tiny_config("gpt2", vocab_size=len(tok), add_cross_attention=True, is_decoder=True, **ids)
    cfg = transformers.EncoderDecoderConfig.from_encoder_decoder_configs(enc, dec)
    cfg.decoder_start_token_id = ids["bos_token_id"]
    cfg.pad_token_id = ids["pad_token_id"]
    torch.manual_seed(1)
    transformers.EncoderDecoderModel(config=cfg).eval().save_pretrained(folder)
    tok.save_pretrained(folder)


def bert2bert_tied(folder: Path) -> None:
    """An ``EncoderDecoderModel`` of two BERTs sharing their weights
    (``tie_encoder_decoder``, as bert2bert summarisers are configured)."""
    tok = _tokenizer()
    ids = _ids(tok)
    enc = tiny_config("bert", vocab_size=len(tok), **ids)
    dec = tiny_config("bert", vocab_size=len(tok), is_decoder=True, add_cross_attention=True, **ids)
    cfg = transformers.EncoderDecoderConfig.from_encoder_decoder_configs(
        enc, dec, tie_encoder_decoder=True
    )
    cfg.decoder_start_token_id = ids["bos_token_id"]
    cfg.pad_token_id = ids["pad_token_id"]
    torch.manual_seed(1)
    transformers.EncoderDecoderModel(config=cfg).eval().save_pretrained(folder)
    tok.save_pretrained(folder)


def edited_weights(base: Callable[[Path], None], drop: str = "", add: str = ""):
    """``base``'s checkpoint with the weight ``drop`` removed from, or a weight ``add``
    added to, its safetensors file."""
    from safetensors.torch import load_file, save_file

    def make(folder: Path) -> None:
        base(folder)
        path = folder / "model.safetensors"
        w = load_file(path)
        if drop:
            del w[drop]
        if add:
            w[add] = torch.zeros(4, 4)
        save_file(w, path, metadata={"format": "pt"})

    return make


def edited_folder(base: Callable[[Path], None] | None, edit: Callable[[Path], None]):
    def make(folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        if base is not None:
            base(folder)
        edit(folder)

    return make


def _malformed_config(folder: Path) -> None:
    (folder / "config.json").write_text('{"model_type": "llama", "hidden_size": 64,')


def _truncated(folder: Path) -> None:
    path = folder / "model.safetensors"
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _no_tokenizer(folder: Path) -> None:
    for f in folder.glob("tokenizer*"):
        f.unlink()
    (folder / "special_tokens_map.json").unlink(missing_ok=True)


def _not_a_model(folder: Path) -> None:
    (folder / "notes.txt").write_text("a folder of notes, not a checkpoint\n")


def pickle_only(folder: Path) -> None:
    """The safetensors file replaced by the ``pytorch_model.bin`` an older
    ``save_pretrained`` wrote (a pickle)."""
    from safetensors.torch import load_file

    path = folder / "model.safetensors"
    torch.save(load_file(path), folder / "pytorch_model.bin")
    path.unlink()


class _Payload:
    """A pickle that runs code when unpickled without ``weights_only``."""

    def __reduce__(self):
        return (exec, ("open('PWNED', 'w').write('code ran')",))


def pickle_with_code(folder: Path) -> None:
    """``pytorch_model.bin`` holding the weights and an object whose unpickling runs
    code (it would write ``PWNED`` in the working folder)."""
    from safetensors.torch import load_file

    path = folder / "model.safetensors"
    torch.save({**load_file(path), "payload": _Payload()}, folder / "pytorch_model.bin")
    path.unlink()


def _unknown_type(folder: Path) -> None:
    cfg = json.loads((folder / "config.json").read_text())
    cfg["model_type"] = "my_private_arch"
    cfg["architectures"] = ["MyPrivateArchForCausalLM"]
    (folder / "config.json").write_text(json.dumps(cfg))


def _remote_code(folder: Path) -> None:
    cfg = json.loads((folder / "config.json").read_text())
    cfg["auto_map"] = {"AutoModelForCausalLM": "modeling_mine.MyModel"}
    (folder / "config.json").write_text(json.dumps(cfg))
    (folder / "modeling_mine.py").write_text("raise SystemExit('remote code ran')\n")


@contextlib.contextmanager
def raising_mlp(longer_than: int = 0):
    """LLaMA's MLP raising torch's own shape error on inputs longer than ``longer_than``
    tokens (a layer that fails mid-forward, as a custom layer or an out-of-memory
    error at the longest length does)."""
    from transformers.models.llama import modeling_llama

    cls = modeling_llama.LlamaMLP
    original = cls.forward

    def forward(self, x):
        if x.shape[1] > longer_than:
            return x @ torch.zeros(x.shape[-1] + 1, 4)  # torch raises a RuntimeError
        return original(self, x)

    cls.forward = forward
    try:
        yield
    finally:
        cls.forward = original


# ---------------------------------------------------------------------- the cases
def cases() -> list[Case]:
    gelu = dict(hidden_act="gelu_pytorch_tanh")
    llama = saved("llama", "LlamaForCausalLM")
    short = r"position table .* of (\d+) rows: inputs of at most \d+ tokens"
    out = [
        # head classes
        Case("llama_seqcls", saved("llama", "LlamaForSequenceClassification", num_labels=3)),
        Case("bert_seqcls", saved("bert", "BertForSequenceClassification", num_labels=2)),
        Case("bert_maskedlm", saved("bert", "BertForMaskedLM")),
        Case("bert_decoder", saved("bert", "BertLMHeadModel", is_decoder=True)),
        Case("roberta_causal", saved("roberta", "RobertaForCausalLM", is_decoder=True)),
        Case(
            "electra_maskedlm",
            saved("electra", "ElectraForMaskedLM", embedding_size=32),
        ),
        Case("bart_seqcls", saved("bart", "BartForSequenceClassification")),
        Case("t5_flan", saved("t5", "T5ForConditionalGeneration", feed_forward_proj="gated-gelu")),
        Case("mt5", saved("mt5", "MT5ForConditionalGeneration")),
        Case("bert2gpt2", bert2gpt2),
        Case(
            "distilbert_sinusoidal",
            saved("distilbert", "DistilBertForMaskedLM", sinusoidal_pos_embds=True),
        ),
        Case(
            "deberta_v2",
            saved(
                "deberta-v2",
                "DebertaV2ForMaskedLM",
                relative_attention=True,
                position_biased_input=False,
                pos_att_type=["p2c", "c2p"],
                max_relative_positions=-1,
                position_buckets=256,
                norm_rel_ebd="layer_norm",
                share_att_key=True,
            ),
        ),
        # per-layer attention as real configs set it
        Case(
            "qwen2_sliding_layers",
            saved(
                "qwen2",
                "Qwen2ForCausalLM",
                use_sliding_window=True,
                sliding_window=8,
                max_window_layers=1,
                layer_types=["full_attention", "sliding_attention"],
            ),
        ),
        Case(
            "gemma3_local_rope",
            saved(
                "gemma3_text",
                "Gemma3ForCausalLM",
                sliding_window=8,
                layer_types=["sliding_attention", "full_attention"],
                rope_parameters={
                    "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
                    "full_attention": {"rope_type": "linear", "rope_theta": 1e6, "factor": 8.0},
                },
                query_pre_attn_scalar=16,
                **gelu,
            ),
        ),
        Case(
            "gemma2_softcap",
            saved(
                "gemma2",
                "Gemma2ForCausalLM",
                sliding_window=8,
                attn_logit_softcapping=50.0,
                final_logit_softcapping=30.0,
                query_pre_attn_scalar=16,
                **gelu,
            ),
        ),
        Case(
            "gemma3_seqcls",
            saved(
                "gemma3_text",
                "Gemma3TextForSequenceClassification",
                sliding_window=8,
                layer_types=["sliding_attention", "full_attention"],
            ),
        ),
        Case("mistral_window", saved("mistral", "MistralForCausalLM", sliding_window=8)),
        Case(
            "cohere2_layers",
            saved(
                "cohere2",
                "Cohere2ForCausalLM",
                sliding_window=8,
                layer_types=["sliding_attention", "full_attention"],
            ),
        ),
        Case(
            "phi3_longrope",
            saved(
                "phi3",
                "Phi3ForCausalLM",
                original_max_position_embeddings=32,
                max_position_embeddings=512,
                rope_parameters={
                    "rope_type": "longrope",
                    "rope_theta": 10000.0,
                    "short_factor": [1.0] * 8,
                    "long_factor": [2.0] * 8,
                },
            ),
        ),
        Case(
            "llama3_rope",
            saved(
                "llama",
                "LlamaForCausalLM",
                rope_parameters={
                    "rope_type": "llama3",
                    "rope_theta": 500000.0,
                    "factor": 8.0,
                    "low_freq_factor": 1.0,
                    "high_freq_factor": 4.0,
                    "original_max_position_embeddings": 32,
                },
            ),
        ),
        Case(
            "qwen3_moe_sparse",
            saved("qwen3_moe", "Qwen3MoeForCausalLM", decoder_sparse_step=2, mlp_only_layers=[0]),
        ),
        Case(
            "gpt_neox_partial_rotary",
            saved("gpt_neox", "GPTNeoXForCausalLM", rotary_pct=0.25, use_parallel_residual=True),
        ),
        Case(
            "falcon_new_arch",
            saved(
                "falcon",
                "FalconForCausalLM",
                new_decoder_architecture=True,
                num_kv_heads=2,
                parallel_attn=True,
            ),
        ),
        Case(
            "gpt2_scaled",
            saved(
                "gpt2",
                "GPT2LMHeadModel",
                scale_attn_by_inverse_layer_idx=True,
                reorder_and_upcast_attn=True,
                tie_word_embeddings=False,
            ),
        ),
        Case("starcoder2_window", saved("starcoder2", "Starcoder2ForCausalLM", sliding_window=8)),
        Case("gpt_bigcode_mqa", saved("gpt_bigcode", "GPTBigCodeForCausalLM", multi_query=True)),
        # weights in half precision, ties
        Case("llama_float16", saved("llama", "LlamaForCausalLM", torch.float16)),
        Case("llama_bfloat16", saved("llama", "LlamaForCausalLM", torch.bfloat16)),
        Case("llama_tied", saved("llama", "LlamaForCausalLM", tie_word_embeddings=True)),
        Case("bert_float16", saved("bert", "BertForMaskedLM", torch.float16)),
        # more heads and compositions
        Case("llama_base", saved("llama", "LlamaModel")),
        Case("llama_tokcls", saved("llama", "LlamaForTokenClassification", num_labels=5)),
        Case("llama_qa", saved("llama", "LlamaForQuestionAnswering")),
        Case("bert_qa", saved("bert", "BertForQuestionAnswering")),
        Case("t5_encoder_only", saved("t5", "T5EncoderModel")),
        Case("electra_causal", saved("electra", "ElectraForCausalLM", is_decoder=True)),
        Case("xlm_roberta_causal", saved("xlm-roberta", "XLMRobertaForCausalLM", is_decoder=True)),
        Case("bert2bert_tied", bert2bert_tied),
        Case(
            "llama_head_dim",
            saved("llama", "LlamaForCausalLM", head_dim=32, attention_bias=True, mlp_bias=True),
        ),
        Case(
            "qwen2_yarn",
            saved(
                "qwen2",
                "Qwen2ForCausalLM",
                rope_parameters={
                    "rope_type": "yarn",
                    "rope_theta": 1e6,
                    "factor": 4.0,
                    "original_max_position_embeddings": 16,
                },
            ),
        ),
        Case(
            "llama_dynamic_ntk",
            saved(
                "llama",
                "LlamaForCausalLM",
                max_position_embeddings=16,
                rope_parameters={"rope_type": "dynamic", "rope_theta": 10000.0, "factor": 2.0},
            ),
        ),
        Case(
            "gemma3_five_to_one",
            saved(
                "gemma3_text",
                "Gemma3ForCausalLM",
                num_hidden_layers=6,
                sliding_window=8,
                layer_types=["sliding_attention"] * 5 + ["full_attention"],
                query_pre_attn_scalar=16,
            ),
        ),
        Case(
            "mixtral_window",
            saved("mixtral", "MixtralForCausalLM", sliding_window=8),
        ),
        Case(
            "phi_partial_rotary",
            saved("phi", "PhiForCausalLM", partial_rotary_factor=0.5, qk_layernorm=True),
        ),
        Case(
            "stablelm_parallel",
            saved(
                "stablelm",
                "StableLmForCausalLM",
                partial_rotary_factor=0.25,
                qk_layernorm=True,
                use_parallel_residual=True,
            ),
        ),
        Case(
            "modernbert_local",
            saved(
                "modernbert",
                "ModernBertForMaskedLM",
                num_hidden_layers=3,
                global_attn_every_n_layers=3,
                local_attention=8,
                layer_types=["full_attention", "sliding_attention", "sliding_attention"],
            ),
        ),
        Case("longformer_window", saved("longformer", "LongformerForMaskedLM", attention_window=8)),
        Case(
            "led_window",
            saved("led", "LEDForConditionalGeneration", attention_window=8),
        ),
        Case("sharded", saved("llama", "LlamaForCausalLM", shard="60KB")),
        Case("bloom_long", saved("bloom", "BloomForCausalLM"), l_ex=600),
        Case(
            "esm_rotary_long",
            saved("esm", "EsmForMaskedLM", position_embedding_type="rotary"),
            l_ex=600,
        ),
        Case("fsmt_long", saved("fsmt", "FSMTForConditionalGeneration"), l_ex=600),
        Case("m2m_100_long", saved("m2m_100", "M2M100ForConditionalGeneration"), l_ex=600),
        Case("xglm_long", saved("xglm", "XGLMForCausalLM"), l_ex=600),
        # position tables shorter than --L-ex, for types the sweep never ran past one
        Case(
            "gpt_neo_short",
            saved("gpt_neo", "GPTNeoForCausalLM", max_position_embeddings=128),
            "refused",
            short,
            l_ex=256,
        ),
    ]
    for t, cls in (
        ("gpt_bigcode", "GPTBigCodeForCausalLM"),
        ("marian", "MarianMTModel"),
        ("pegasus", "PegasusForConditionalGeneration"),
        ("blenderbot", "BlenderbotForConditionalGeneration"),
        ("xlm", "XLMWithLMHeadModel"),
        ("led", "LEDForConditionalGeneration"),
        ("mbart", "MBartForConditionalGeneration"),
        ("electra", "ElectraForMaskedLM"),
        ("megatron-bert", "MegatronBertForMaskedLM"),
        ("xlm-roberta", "XLMRobertaForMaskedLM"),
        ("mpt", "MptForCausalLM"),
        ("esm", "EsmForMaskedLM"),
        ("plbart", "PLBartForConditionalGeneration"),
        ("mvp", "MvpForConditionalGeneration"),
        ("blenderbot-small", "BlenderbotSmallForConditionalGeneration"),
        ("xmod", "XmodForMaskedLM"),
        ("prophetnet", "ProphetNetForConditionalGeneration"),
        ("roformer", "RoFormerForMaskedLM"),
        ("openai-gpt", "OpenAIGPTLMHeadModel"),
        ("deberta", "DebertaForMaskedLM"),
        ("distilbert", "DistilBertForMaskedLM"),
        ("albert", "AlbertForMaskedLM"),
        ("nystromformer", "NystromformerForMaskedLM"),
        ("mpnet", "MPNetForMaskedLM"),
        ("big_bird", "BigBirdForMaskedLM"),
        ("squeezebert", "SqueezeBertForMaskedLM"),
        ("mobilebert", "MobileBertForMaskedLM"),
        ("flaubert", "FlaubertWithLMHeadModel"),
        ("ernie", "ErnieForMaskedLM"),
        ("roc_bert", "RoCBertForMaskedLM"),
        ("data2vec-text", "Data2VecTextForMaskedLM"),
        ("ibert", "IBertForMaskedLM"),
        ("rembert", "RemBertForMaskedLM"),
        ("convbert", "ConvBertForMaskedLM"),
        ("biogpt", "BioGptForCausalLM"),
    ):
        kw: dict = {"max_position_embeddings": 32}
        if t == "led":
            kw = {"max_encoder_position_embeddings": 32, "max_decoder_position_embeddings": 32}
        if t == "mpt":
            kw = {"max_seq_len": 32, "attn_config": {"alibi": False}}
        if t == "esm":
            kw["position_embedding_type"] = "absolute"
        if t == "big_bird":
            kw["attention_type"] = "original_full"
        out.append(Case(f"{t}_short", saved(t, cls, **kw), "refused", short))
    for command in ("align", "assumptions", "collect"):
        out.append(
            Case(
                f"gpt_bigcode_short_{command}",
                saved("gpt_bigcode", "GPTBigCodeForCausalLM", max_position_embeddings=32),
                "refused",
                short,
                command=command,
            )
        )
    out += [
        # broken folders
        Case(
            "missing_weight",
            edited_weights(llama, drop="model.layers.1.self_attn.k_proj.weight"),
            "refused",
            r"model\.layers\.1\.self_attn\.k_proj\.weight",
        ),
        Case(
            "extra_weight",
            edited_weights(llama, add="model.layers.0.self_attn.extra.weight"),
            "refused",
            r"model\.layers\.0\.self_attn\.extra\.weight",
        ),
        Case(
            "missing_shard",
            edited_folder(
                saved("llama", "LlamaForCausalLM", shard="60KB"),
                lambda f: sorted(f.glob("model-*.safetensors"))[-1].unlink(),
            ),
            "refused",
            r"No such file or directory: .*model-00009-of-00009\.safetensors$",
        ),
        Case(
            "truncated_weights",
            edited_folder(llama, _truncated),
            "refused",
            r"model\.safetensors",
        ),
        Case(
            "no_tokenizer",
            edited_folder(llama, _no_tokenizer),
            "refused",
            r"tokenizer",
        ),
        Case(
            "canine",
            saved("canine", "CanineModel"),
            "refused",
            r"CanineModel has no embedding table indexed by token ids",
        ),
        Case("malformed_config", edited_folder(llama, _malformed_config), "refused", "config.json"),
        Case("not_a_model", edited_folder(None, _not_a_model), "refused", "config.json"),
        # a pickle is read only by torch.load(weights_only=True): tensors load, code does not
        Case("pickle_only", edited_folder(llama, pickle_only)),
        Case(
            "pickle_with_code",
            edited_folder(llama, pickle_with_code),
            "refused",
            r"pytorch_model\.bin: a pickle holding more than tensors \(GLOBAL .*exec\)",
        ),
        Case("unknown_type", edited_folder(llama, _unknown_type), "refused", "my_private_arch"),
        Case("remote_code", edited_folder(llama, _remote_code), "exact"),
        # a forward pass that raises: one error line naming the layer and the length
        Case(
            "raises_at_every_length",
            llama,
            "refused",
            r"^error: in the audit's probe of which attention modules run \(a short text of 6 tokens, "
            r"before any --L-tr / --L-ex window\), the forward pass of LlamaForCausalLM "
            r"failed in module 'model\.layers\.0\.mlp' \(LlamaMLP\) on an input of 1 x 6 "
            r"tokens: RuntimeError: mat1 and mat2",
            patch=raising_mlp,
        ),
        Case(
            "raises_at_L_ex",
            llama,
            "refused",
            r"failed in module 'model\.layers\.0\.mlp' \(LlamaMLP\) on an input of 1 x 48 "
            r"tokens: RuntimeError: .* \(1 completed measurement\(s\) kept in .*cache",
            patch=lambda: raising_mlp(L_TR),
        ),
    ]
    for command in ("align", "assumptions", "collect"):
        out.append(
            Case(
                f"raises_{command}",
                llama,
                "refused",
                r"failed in module 'model\.layers\.0\.mlp' \(LlamaMLP\) on an input of 1 x \d+ "
                r"tokens: RuntimeError: mat1 and mat2",
                command=command,
                patch=raising_mlp,
            )
        )
    return out


HEADS = {
    "sequence-classification": "MODEL_FOR_SEQUENCE_CLASSIFICATION_MAPPING_NAMES",
    "token-classification": "MODEL_FOR_TOKEN_CLASSIFICATION_MAPPING_NAMES",
    "question-answering": "MODEL_FOR_QUESTION_ANSWERING_MAPPING_NAMES",
    "multiple-choice": "MODEL_FOR_MULTIPLE_CHOICE_MAPPING_NAMES",
}


def head_cases(head: str) -> list[Case]:
    """Every text model type of the sweep saved from its ``head`` class (a key of
    :data:`HEADS`: the classification and question-answering heads the sweep never
    saves), its sweep recipe (:func:`tiny_config`) otherwise; each must be exact, or
    refused for the reason the sweep's table gives for its type."""
    from transformers.models.auto import modeling_auto

    from empirical.capture.sweep.architectures import text_model_types

    names = getattr(modeling_auto, HEADS[head])
    table = sweep_table()
    out = []
    for t in text_model_types():
        cls = names.get(t)
        cls = cls[0] if isinstance(cls, tuple) else cls
        if not (cls and hasattr(transformers, cls)):
            continue
        v = table.get(t)
        if t == "longformer" and head != "token-classification":
            # these heads set global attention on the first tokens (or assert three
            # separators for it); the token-classification head attends locally only
            why = "has global tokens|three separator tokens"  # QA: its input's check
            out.append(Case(f"{t}:{head}", saved(t, cls), "refused", why))
        elif v is not None and v.verdict == "refused":  # refused for the sweep's reason
            found = re.search(r"\((\w+(Attention|MLA))\)", v.detail)
            why = re.escape(found[1] if found else v.detail.split(": ", 1)[-1][:40])
            out.append(Case(f"{t}:{head}", saved(t, cls), "refused", why))
        else:
            out.append(Case(f"{t}:{head}", saved(t, cls)))
    return out


def sweep_table() -> dict:
    """The sweep's verdicts by model type, as docs/guide/capture.md has them."""
    from empirical.capture.sweep.architectures import BEGIN, END, parse_table

    doc = (Path(__file__).resolve().parents[1] / "docs" / "guide" / "capture.md").read_text()
    return {v.model_type: v for v in parse_table(doc[doc.index(BEGIN) : doc.index(END)])}
