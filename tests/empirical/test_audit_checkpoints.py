"""The commands that run a model, on checkpoints as a researcher saves them with
transformers 5 (tiny, seeded, built from configs): learned position tables shorter than
the longest length are refused up front by every command, naming the table; models whose
positions extend run; per-layer head sizes (Gemma 4), channels-first hidden states
(SqueezeBERT), a causal text model without a language-model head (``Qwen3VLTextModel``)
and a whole multimodal checkpoint (Qwen3-VL) are audited, equal to eager attention.
"""

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
from capture_helpers import saved_once  # noqa: E402 (needs torch and transformers)

pytestmark = pytest.mark.empirical
transformers.logging.set_verbosity_error()
transformers.utils.logging.disable_progress_bar()

TABLE = 128  # max_position_embeddings of the short-table checkpoints


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return tmp_path_factory.mktemp("ckpts")


def _load(folder: Path):
    cfg = transformers.AutoConfig.from_pretrained(folder)
    cls = getattr(transformers, cfg.architectures[0])
    return cls.from_pretrained(folder, attn_implementation="eager").eval()


def _runs(model, length: int) -> bool:
    """Whether an eager forward pass of ``length`` tokens runs (the part run on text)."""
    from empirical.capture.models import run_encoder

    try:
        run_encoder(model, torch.full((1, length), 5))
    except (IndexError, RuntimeError, ValueError):
        return False
    return True


# (model type, class saved (None: its causal/masked LM), table module, rows of the table)
SHORT_TABLES = [
    ("gpt_neo", None, "transformer.wpe", TABLE),
    # BART's offset of 2; the encoder is what runs of the sequence-to-sequence model
    ("bart", "BartForConditionalGeneration", "model.encoder.embed_positions", TABLE + 2),
    ("bart", None, "model.decoder.embed_positions", TABLE + 2),  # BartForCausalLM
    ("opt", None, "model.decoder.embed_positions", TABLE + 2),  # OPT's offset of 2
    ("biogpt", None, "biogpt.embed_positions", TABLE + 2),
    # tables held as tensors: CTRL's sinusoidal buffer, GPT-J's and CodeGen's rotary
    # sin/cos buffers (computed for max_position_embeddings rows, indexed by position)
    ("ctrl", None, "transformer.pos_encoding", TABLE),
    ("gptj", None, "transformer.h.0.attn.embed_positions", TABLE),
    ("codegen", None, "transformer.h.0.attn.embed_positions", TABLE),
    ("bert", None, "bert.embeddings.position_embeddings", TABLE),
    ("roberta", None, "roberta.embeddings.position_embeddings", TABLE),  # from pad + 1
]


@pytest.mark.parametrize("model_type,cls,table,rows", SHORT_TABLES)
def test_position_table_found_from_the_modules(model_type, cls, table, rows, root):
    """The table, its rows and the longest input it allows, read from the modules; the
    reference for the longest input is the eager model itself: it runs at that length
    and fails one token later."""
    from empirical.capture.positions import position_limit

    folder = saved_once(root, model_type, cls, max_position_embeddings=TABLE)
    config = json.loads((folder / "config.json").read_text())
    assert config.get("position_embedding_type") in (None, "absolute")
    model = _load(folder)
    got = position_limit(model)
    assert (got.name, got.rows) == (table, rows)
    assert _runs(model, got.longest) and not _runs(model, got.longest + 1)


@pytest.mark.parametrize("model_type,cls,table,rows", SHORT_TABLES)
def test_audit_refuses_past_the_table_up_front(
    model_type, cls, table, rows, root, tmp_path, capsys
):
    from empirical.audit.cli import main
    from empirical.capture.positions import position_limit

    folder = saved_once(root, model_type, cls, max_position_embeddings=TABLE)
    longest = position_limit(_load(folder)).longest
    capsys.readouterr()
    out = tmp_path / "out"
    argv = ["--model", str(folder), "--text", "stdlib", "--L-tr", "64", "--L-ex", "96", "256"]
    rc = main([*argv, "--n-tr", "1", "--out", str(out), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].startswith("error: "), err
    assert f"table {table} " in err[0] and f"of {rows} rows" in err[0]
    assert f"at most {longest} tokens" in err[0] and "--L-ex 256" in err[0]
    assert not out.exists() or not any(out.iterdir())


@pytest.mark.parametrize(
    "module,args",
    [
        ("empirical.align.cli", ["--L-tr", "64", "--L-ex", "256", "--n-tr", "1"]),
        ("empirical.assumptions.cli", ["--L-tr", "64", "--L-ex", "256", "--n-tr", "1"]),
        ("empirical.collect.cli", ["--length", "256", "--n-seq", "1"]),
    ],
)
def test_every_command_refuses_past_the_table(module, args, root, tmp_path, capsys):
    import importlib

    folder = saved_once(root, "gpt_neo", None, max_position_embeddings=TABLE)
    main = importlib.import_module(module).main
    extra = ["--out", str(tmp_path / "o")] if "assumptions" in module else []
    rc = main(["--model", str(folder), *args, *extra])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1, err
    assert "transformer.wpe" in err[0] and "at most 128 tokens" in err[0]
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "model_type,table",
    [
        ("nystromformer", "embeddings.position_embeddings"),  # position_ids start at 2
        ("yoso", "embeddings.position_embeddings"),
        ("ibert", "embeddings.position_embeddings"),  # a QuantEmbedding, no num_embeddings
        ("fsmt", None),  # a sinusoidal table rebuilt for longer inputs
        ("t5gemma2", None),  # the table of the vision tower inside the encoder
    ],
)
def test_position_tables_of_more_layouts(model_type, table):
    """The longest input found equals what the eager model runs (and one more token
    fails); a model without a limiting table runs past its config's 512 positions."""
    from empirical.capture.positions import position_limit
    from empirical.capture.sweep.architectures import build

    model = build(model_type)
    limit = position_limit(model)
    assert (limit and limit.name) == table
    if limit is None:
        assert _runs(model, 600)
    else:
        assert _runs(model, limit.longest) and not _runs(model, limit.longest + 1)


@pytest.mark.parametrize(
    "model_type,overrides",
    [
        ("llama", {}),  # RoPE
        ("t5", {}),  # relative buckets
        ("bloom", {}),  # ALiBi built for the input
        ("gpt_bigcode", dict(n_positions=64)),  # a learned table: the negative control
    ],
)
def test_only_learned_tables_limit(model_type, overrides):
    from empirical.capture.checkpoints import tiny_config
    from empirical.capture.positions import position_limit

    cfg = tiny_config(model_type, **overrides)
    model = transformers.AutoModel.from_config(cfg)
    limit = position_limit(model)
    assert (limit is None) == (model_type != "gpt_bigcode"), limit
    if limit is None:
        assert _runs(model.eval(), 600)  # past max_position_embeddings (512)


def _audit(folder, out, capsys, l_tr=16, l_ex=32) -> dict:
    from empirical.audit.cli import main

    argv = ["--model", str(folder), "--text", "stdlib", "--L-tr", str(l_tr)]
    argv += ["--L-ex", str(l_ex), "--n-tr", "1", "--out", str(out), "--quiet", "--json"]
    rc = main(argv)
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    return json.loads(cap.out)


def test_rope_model_runs_past_max_position_embeddings(root, tmp_path, capsys):
    folder = saved_once(root, "llama", None, max_position_embeddings=16)
    report = _audit(folder, tmp_path / "o", capsys, 16, 48)
    assert report["L_ex"] == [48]


def _equal_to_eager(folder, report):
    from test_audit_families import TOL, TOL_DISTANCE, eager_per_head, max_errors

    for length in (report["L_tr"], *report["L_ex"]):
        err, err_d = max_errors(report, eager_per_head(folder, report, length), length)
        assert err <= TOL and err_d <= TOL_DISTANCE, (length, err, err_d)


def test_gemma4_per_layer_head_size(root, tmp_path, capsys):
    """Gemma 4 text as its real config: head size 16 on the sliding layer, 32
    (``global_head_dim``) on the full-attention one; its config's ``head_dim`` raises."""
    from empirical.audit.align import head_dim
    from empirical.capture.discovery import config_value

    folder = saved_once(root, "gemma4_text", None, global_head_dim=32)
    model = _load(folder)
    with pytest.raises(RuntimeError, match="per-layer attribute"):
        model.config.head_dim  # noqa: B018 - what the audit read before
    assert config_value(model.config, "head_dim", "none") == "none"
    report = _audit(folder, tmp_path / "o", capsys)
    geo = report["layer_geometry"]
    mods = dict(model.named_modules())
    for name in report["attention_modules"]:
        attn = mods[name]  # reference: the query projection's width over the heads
        heads = model.config.num_attention_heads
        assert geo[name]["head_dim"] == attn.q_proj.out_features // heads == head_dim(model, name)
    assert [g["head_dim"] for g in geo.values()] == [16, 32]
    assert [g["window"] for g in geo.values()] == [model.config.sliding_window, None]
    assert report["lengths"]["32"]["temperatures"]["rules"]["infoscale"]["tau"] is not None
    _equal_to_eager(folder, report)
    assert "head size 32" in (tmp_path / "o" / "report.md").read_text()


def test_squeezebert_channels_first(root, tmp_path, capsys):
    """SqueezeBERT's hidden states are (batch, channels, length); its eager maps are the
    scores before the softmax, so the reference is their softmax."""
    from empirical.capture.measure import sequences
    from empirical.capture.models import load_model
    from empirical.capture.sweep.architectures import reference_statistics

    folder = saved_once(root, "squeezebert", None, embedding_size=64)
    report = _audit(folder, tmp_path / "o", capsys)
    model, lm = _load(folder), load_model(str(folder))
    for length in (16, 32):
        (ids,) = sequences(lm, "stdlib", length, 1)
        with torch.no_grad():
            out = model(input_ids=ids, output_attentions=True)
        disp = report["lengths"][str(length)]["dispersion"]
        assert list(disp) == report["attention_modules"] and len(disp) == len(out.attentions)
        for name, scores in zip(disp, out.attentions):
            ref = reference_statistics(scores.softmax(-1))
            for k, tol in (("pmax", 1e-5), ("entropy", 1e-5), ("mean_distance", 1e-3)):
                got = torch.tensor(disp[name]["per_head"][k], dtype=torch.float64)
                assert float((got - ref[k]).abs().max()) <= tol, (name, k)


def test_causal_text_model_without_lm_head(root, tmp_path, capsys):
    """``Qwen3VLTextModel`` (no language-model class of its own) attends causally: rows
    are counted from L_tr at L_ex."""
    folder = saved_once(root, "qwen3_vl_text")
    report = _audit(folder, tmp_path / "o", capsys)
    assert report["causal"] is True and report["query_from"] == {"16": 0, "32": 16}
    _equal_to_eager(folder, report)


def test_multimodal_checkpoint_audits_its_language_model(root, tmp_path, capsys):
    """A whole Qwen3-VL checkpoint on text: the language model's attention audited, the
    vision tower's listed as not run."""
    folder = saved_once(root, "qwen3_vl")
    report = _audit(folder, tmp_path / "o", capsys)
    assert all(n.startswith("language_model.") for n in report["attention_modules"])
    assert report["not_run_on_text"] and all(
        n.startswith("visual.") for n in report["not_run_on_text"]
    )
    assert report["causal"] is True and report["query_from"]["32"] == 16
    assert "not run" in (tmp_path / "o" / "report.md").read_text()
    _equal_to_eager(folder, report)


def test_whole_multimodal_checkpoint_perplexity(root, tmp_path, capsys):
    """Qwen3-VL saved with its language-model head (``Qwen3VLForConditionalGeneration``)
    on text: the perplexity of the predictions from rows >= L_tr equals that of the
    model's own logits on the same window; the vision blocks are listed as not run."""
    from empirical.capture.measure import sequences
    from empirical.capture.models import load_model

    folder = saved_once(root, "qwen3_vl", "Qwen3VLForConditionalGeneration")
    report = _audit(folder, tmp_path / "o", capsys)
    assert report["causal_lm_head"] is True
    assert sorted(report["not_run_on_text"]) == [
        "model.visual.blocks.0.attn",
        "model.visual.blocks.1.attn",
    ]
    (ids,) = sequences(load_model(str(folder)), "stdlib", 32, 1)
    with torch.no_grad():
        logits = _load(folder)(input_ids=ids).logits
    nll = torch.nn.functional.cross_entropy(logits[0, 16:-1].double(), ids[0, 17:])
    assert report["lengths"]["32"]["perplexity_beyond"] == pytest.approx(
        float(torch.exp(nll)), rel=1e-6
    )
    _equal_to_eager(folder, report)


def test_causality_from_the_config_and_modules():
    from empirical.capture.checkpoints import tiny_config
    from empirical.capture.positions import attends_causally, declared_causality

    for model_type, kw, causal in [
        ("bert", {}, False),
        ("bert", dict(is_decoder=True), True),
        ("qwen3_vl_text", {}, True),
        ("t5", {}, False),  # the encoder is what runs
        ("bloom", {}, True),  # no is_causal on its modules: its causal-LM class
    ]:
        model = transformers.AutoModel.from_config(tiny_config(model_type, **kw))
        assert attends_causally(model) is causal, (model_type, kw)
        assert declared_causality(model) is causal, (model_type, kw)


def _later_weights(model, length=16) -> float:
    """The reference: eager attention's weight on later keys (j > i), summed over every
    layer, head and row, of ``output_attentions`` on ``length`` tokens."""
    from empirical.capture.causality import probe_ids

    model.set_attn_implementation("eager")
    with torch.no_grad():
        atts = model(input_ids=probe_ids(model, length), output_attentions=True).attentions
    later = torch.ones(length, length, dtype=torch.bool).triu(1)
    return float(sum(a[..., later].double().sum() for a in atts))


@pytest.mark.parametrize(
    "model_type,cls,causal",
    [
        ("qwen3_vl_text", "Qwen3VLTextModel", True),  # causal, no language-model head
        ("llama", "LlamaForCausalLM", True),  # decoder-only
        ("bert", "BertModel", False),  # encoder
    ],
)
def test_causality_from_the_weights_applied(model_type, cls, causal, root):
    """On saved checkpoints: the probe's mass on later keys is 0 exactly when eager
    attention's weights on later keys are (the reference), and decides causality."""
    from empirical.capture.causality import applied_causality, later_key_mass
    from empirical.capture.positions import attends_causally

    model = _load(saved_once(root, model_type, cls))
    mass = later_key_mass(model)
    assert sum(mass.values()) == pytest.approx(_later_weights(model), rel=1e-5, abs=1e-12)
    assert applied_causality(model) is causal and attends_causally(model) is causal


def test_causality_follows_the_mask_not_the_declaration(root):
    """The applied attention decides: a Qwen3-VL text model whose attention modules and
    config declare nothing (no ``is_causal``, no causal-LM class) is still causal, and a
    Llama model whose modules call attention without the causal flag (sdpa skips the
    causal mask, so the flag is what is applied) attends to later keys."""
    from empirical.capture.checkpoints import tiny_config
    from empirical.capture.positions import attends_causally, declared_causality

    model = _load(saved_once(root, "qwen3_vl_text", "Qwen3VLTextModel"))
    for mod in model.modules():
        if "is_causal" in vars(mod):
            del mod.is_causal
    assert declared_causality(model) is False and attends_causally(model) is True

    model = transformers.AutoModel.from_config(tiny_config("llama")).eval()
    for mod in model.modules():
        if hasattr(mod, "is_causal"):
            mod.is_causal = False
    assert _later_weights(model) == 0.0  # eager builds the causal mask anyway
    model.set_attn_implementation("sdpa")
    assert attends_causally(model) is False


@pytest.mark.parametrize("attn_type,causal", [("bi", False), ("uni", True)])
def test_xlnet_length_first_layout(attn_type, causal):
    """XLNet's hidden states are (length, batch, channels) and its relative attention
    materialises its softmax: the rows are read as its query positions, the statistics
    equal eager attention's (the sweep's reference), and causality follows the
    attention type applied (bidirectional by default, although it has a causal-LM
    class)."""
    from empirical.capture.checkpoints import tiny_config
    from empirical.capture.positions import attends_causally, declared_causality
    from empirical.capture.sweep.architectures import TOL, TOL_DISTANCE, _inputs, compare_model

    torch.manual_seed(0)
    cfg = tiny_config("xlnet", attn_type=attn_type)
    model = transformers.XLNetModel(cfg).eval()
    err = compare_model(model, _inputs(model))
    assert err["pmax"] <= TOL["pmax"] and err["entropy"] <= TOL["entropy"], err
    assert err["distance"] <= TOL_DISTANCE and err["output"] == 0.0, err
    assert declared_causality(model) is True  # its causal-LM class: not what it applies
    assert attends_causally(model) is causal


def test_tensor_tables_are_named_tables_only():
    """A floating-point buffer or parameter named as a table of positions is a table
    (its rows the limit); a bias named for positions (DeepSeek V4's compressor
    ``position_bias``), integer position ids and a vision tower's table are not."""
    from empirical.capture.positions import position_tables

    class Part(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("pos_encoding", torch.zeros(24, 8))
            self.register_buffer("position_ids", torch.arange(24)[None])
            self.position_bias = torch.nn.Parameter(torch.zeros(4, 8))
            self.vision_tower = torch.nn.Module()
            self.vision_tower.pos_embed = torch.nn.Parameter(torch.zeros(1, 4, 8))

    got = position_tables(Part())
    assert [(t.name, t.kind, t.rows, t.longest) for t in got] == [
        ("pos_encoding", "buffer (24, 8)", 24, 24)
    ]


@pytest.mark.parametrize(
    "model_type,cls,overrides,cross",
    [
        ("bart", "BartForCausalLM", {}, "model.decoder.layers.0.encoder_attn"),
        (
            "bert",
            "BertLMHeadModel",
            {"is_decoder": True, "add_cross_attention": True},
            "bert.encoder.layer.0.crossattention.self",
        ),
    ],
)
def test_decoder_without_its_encoder(model_type, cls, overrides, cross, root, tmp_path, capsys):
    """A decoder saved without its encoder (BART's causal-LM class, BERT as the decoder
    of an encoder-decoder pair): its cross-attention is never called on text, so it is
    listed as not run (it was refused as 'capture recorded no attention rows'), and the
    self-attention is audited, equal to eager attention."""
    from test_audit_families import TOL, TOL_DISTANCE, eager_per_head, max_errors

    from empirical.audit.cli import main

    folder = saved_once(root, model_type, cls, **overrides)
    argv = ["--model", str(folder), "--text", "stdlib", "--L-tr", "16", "--L-ex", "32"]
    rc = main([*argv, "--n-tr", "1", "--out", str(tmp_path / "o"), "--quiet", "--json"])
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    report = json.loads(cap.out)
    assert "not called on a text input" in report["not_run_on_text"][cross]
    assert cross not in report["attention_modules"] and report["causal"] is True
    for length in (16, 32):
        err, err_d = max_errors(report, eager_per_head(folder, report, length), length)
        assert err <= TOL and err_d <= TOL_DISTANCE, (length, err, err_d)


def test_mpt_alibi_built_for_max_seq_len(root, tmp_path, capsys):
    """MPT builds its ALiBi bias for ``max_seq_len`` keys every pass and slices it to the
    input: a longer input failed with a shape error mid-run (exit 2 with torch's message,
    the cache left behind).  The limit is found from the module, the eager model runs
    at it and fails one token later, and the audit refuses past it up front."""
    from empirical.audit.cli import main
    from empirical.capture.positions import position_limit

    folder = saved_once(root, "mpt", None, max_seq_len=TABLE)
    model = _load(folder)
    limit = position_limit(model)
    assert (limit.name, limit.rows, limit.longest) == ("transformer", TABLE, TABLE)
    assert _runs(model, TABLE) and not _runs(model, TABLE + 1)
    out = tmp_path / "out"
    argv = ["--model", str(folder), "--text", "stdlib", "--L-tr", "64", "--L-ex", "256"]
    rc = main([*argv, "--n-tr", "1", "--out", str(out), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1, err
    assert "ALiBi bias built for config.max_seq_len keys" in err[0] and "at most 128" in err[0]
    assert not out.exists()
