"""The audit on checkpoints of architectures whose attention it cannot measure, saved as
a researcher saves them (tiny, seeded, built from configs): each refused by name, exit
2 and one ``error:`` line naming the module class and the reason, never exit 1.
"""

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
from capture_helpers import saved_once  # noqa: E402 (needs torch and transformers)

pytestmark = pytest.mark.empirical
transformers.logging.set_verbosity_error()
transformers.utils.logging.disable_progress_bar()


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return tmp_path_factory.mktemp("ckpts")


def _refusal(folder: Path, out: Path, capsys) -> str:
    """The audit's one error line on ``folder`` (asserting exit 2 and nothing else on
    stderr)."""
    from empirical.audit.cli import main

    capsys.readouterr()
    argv = ["--model", str(folder), "--text", "stdlib", "--L-tr", "16", "--L-ex", "32"]
    rc = main([*argv, "--n-tr", "1", "--out", str(out), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].startswith("error: "), (rc, err)
    return err[0]


def test_funnel_refused_by_its_pooled_queries():
    """Funnel pools the sequence between blocks: the first layer of its second block
    attends from the pooled rows to every position, rows whose positions are not the
    sequence's (they were counted as positions 0 .. L/2 - 1); refused by name, by the
    capture and by the audit."""
    from empirical.capture.sweep import architectures as sweep

    v = sweep.compare("funnel")
    assert v.verdict == "refused", (v.verdict, v.detail)
    assert "(FunnelRelMultiheadAttention)" in v.detail and "pooled queries" in v.detail


def test_blt_refused_by_its_cross_attention(root, tmp_path, capsys):
    """BLT's forward builds a key/value cache from a config without
    ``num_hidden_layers`` (transformers' ``AttributeError``) unless the cache is off;
    with it off, its cross-attention between bytes and patches (rows and keys of two
    sequences) is refused by name."""
    err = _refusal(saved_once(root, "blt"), tmp_path / "o", capsys)
    assert "BltForCausalLM" in err and "(BltCrossAttention)" in err, err
    assert "cross-attention between the input's positions and another sequence" in err


@pytest.mark.parametrize(
    "model_type,cls,module",
    [
        ("big_bird", "BigBirdForMaskedLM", "(BigBirdBlockSparseAttention)"),
        (
            "bigbird_pegasus",
            "BigBirdPegasusForConditionalGeneration",
            "(BigBirdPegasusBlockSparseAttention)",
        ),
    ],
)
def test_block_sparse_bigbird_refused_up_front(model_type, cls, module, root, tmp_path, capsys):
    """BigBird and BigBird-Pegasus as their checkpoints are configured (attention_type
    'block_sparse'): each row attends a selection of key blocks, and on a short input the
    model switches itself to full attention for good (BigBird-Pegasus replacing its
    modules, so the capture saw no rows; BigBird was then measured with full attention
    at every length).  Refused by name before any forward pass, by the sweep and by the
    audit, with nothing written."""
    from empirical.capture.sweep import architectures as sweep

    v = sweep.compare(model_type)
    assert v.verdict == "refused" and module in v.detail and "is block-sparse" in v.detail, v
    out = tmp_path / "o"
    err = _refusal(saved_once(root, model_type, cls), out, capsys)
    assert module in err and "attention_type 'block_sparse'" in err, err
    assert not out.exists()


# types once refused or without a reference whose attention is a plain softmax: found,
# configured as their real checkpoints are, and measured exactly (capture against eager
# attention, then the audit of the saved checkpoint writes its report)
MEASURED = [
    "xglm",  # (B * H, L, K) logits: heads folded into the batch
    "fsmt",  # the same, hidden states (length, batch, channels)
    "longcat_flash",  # multi-head latent attention named LongcatFlashMLA
    "neomme",  # NeoMMEExclusiveSelfAttention: a step on the output, not an attention
    "bamba",  # attention layers among the Mamba layers, as Bamba-9B
    "recurrent_gemma",  # (recurrent, recurrent, attention) blocks, a local window
]


@pytest.mark.parametrize("model_type", MEASURED)
def test_measured_and_audited(model_type):
    from empirical.capture.sweep import architectures as sweep

    v = sweep.compare(model_type)
    assert v.verdict == "exact", (v.model_type, v.verdict, v.detail)


@pytest.mark.parametrize("model_type", ["seamless_m4t", "t5gemma2"])
def test_eager_reference_of_the_modules_that_ran(model_type):
    """SeamlessM4T on text (its speech encoder does not run) and T5Gemma 2 (a vision
    tower in its encoder that does not run) have an eager reference of the modules that
    ran and are exact (T5Gemma 2 on its encoder, what the audit measures: its decoder's
    one softmax over its own and the encoder's keys is refused by name)."""
    from empirical.capture.sweep import architectures as sweep

    v = sweep.compare(model_type)
    assert v.verdict == "exact", (v.model_type, v.verdict, v.detail)


def test_attention_modules_found_by_class_and_projection():
    from empirical.capture.discovery import attention_module_names
    from empirical.capture.sweep.architectures import build

    names = attention_module_names(build("neomme"))
    assert names == ["layers.0.self_attn", "layers.1.self_attn"], names
    names = attention_module_names(build("longcat_flash"))
    assert names and all(n.startswith("layers.") and n[-1].isdigit() for n in names), names


@pytest.mark.parametrize("window", [8, 512])  # 512: Longformer's checkpoints
def test_longformer_band_against_full_softmax(window):
    """Longformer's sliding-window softmax (rows of key offsets -w .. w, the input padded
    to a multiple of the window) measured at the keys' positions: per head P_max,
    entropy and mean distance equal those of a float64 softmax of the module's own
    query and key projections over the keys with ``|i - j| <= w``, written here."""
    from empirical.capture.checkpoints import tiny_config
    from empirical.capture.session import capture
    from empirical.capture.stats import AttentionStats

    torch.manual_seed(0)
    cfg = tiny_config("longformer", attention_window=window)
    model = transformers.AutoModel.from_config(cfg, attn_implementation="eager").eval()
    name = "encoder.layer.0.attention.self"
    mod = dict(model.named_modules())[name]
    seen = {}

    def keep(m, args, kwargs):
        seen["h"] = kwargs.get("hidden_states", args[0] if args else None)

    hook = mod.register_forward_pre_hook(keep, with_kwargs=True)
    n = 40
    ids = torch.randint(4, 500, (1, n), generator=torch.Generator().manual_seed(1))
    stats = AttentionStats()
    with torch.no_grad(), capture(model, stats=stats):
        model(input_ids=ids)
    hook.remove()
    h = seen["h"][:, :n].double()
    heads, d = mod.num_heads, mod.head_dim

    def split(x):
        return x.view(1, n, heads, d).transpose(1, 2)

    q = split(torch.nn.functional.linear(h, mod.query.weight.double(), mod.query.bias.double()))
    k = split(torch.nn.functional.linear(h, mod.key.weight.double(), mod.key.bias.double()))
    i, j = torch.arange(n)[:, None], torch.arange(n)[None, :]
    s = (q @ k.transpose(-1, -2)) / d**0.5
    p = torch.softmax(s.masked_fill((i - j).abs() > window // 2, float("-inf")), -1)
    ls = stats.layers[name]
    rows = torch.as_tensor(ls.rows, dtype=torch.float64)
    want = {
        "pmax": p.amax(-1).mean((0, 2)),
        "entropy": torch.special.entr(p).sum(-1).mean((0, 2)),
        "distance": (p * (i - j).abs()).sum(-1).mean((0, 2)),
    }
    got = {
        "pmax": torch.as_tensor(ls.pmax_sum) / rows,
        "entropy": torch.as_tensor(ls.ent_sum) / rows,
        "distance": torch.as_tensor(ls.mean_distance()),
    }
    assert rows.tolist() == [n] * heads
    for key, tol in (("pmax", 1e-6), ("entropy", 2e-6), ("distance", 1e-6 * n)):
        assert float((got[key] - want[key]).abs().max()) <= tol, (key, got[key], want[key])
    if window < n:
        assert float(got["distance"].max()) <= window // 2


def _audit(folder: Path, out: Path, capsys) -> dict:
    import json

    from empirical.audit.cli import main

    capsys.readouterr()
    argv = ["--model", str(folder), "--text", "stdlib", "--L-tr", "16", "--L-ex", "32"]
    rc = main([*argv, "--n-tr", "1", "--out", str(out), "--quiet", "--json"])
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    return json.loads(cap.out)


@pytest.mark.parametrize("cls", ["BertLMHeadModel", "BertForMaskedLM"])
def test_causal_bert_perplexity(cls, root, tmp_path, capsys):
    """BERT with ``is_decoder`` attends causally; its head (``cls.predictions``, whose
    bias ``set_output_embeddings`` ties to the new layer's) gives the audit's perplexity
    from rows >= L_tr, equal to that of the model's own logits on the same window."""
    from empirical.capture.measure import sequences
    from empirical.capture.models import load_model

    folder = saved_once(root, "bert", cls, is_decoder=True)
    report = _audit(folder, tmp_path / "o", capsys)
    assert report["causal"] is True and report["causal_lm_head"] is True
    lm = load_model(str(folder))
    (ids,) = sequences(lm, "stdlib", 32, 1)
    model = getattr(transformers, cls).from_pretrained(folder).eval()
    with torch.no_grad():
        logits = model(input_ids=ids).logits
    nll = torch.nn.functional.cross_entropy(logits[0, 16:-1].double(), ids[0, 17:])
    assert report["lengths"]["32"]["perplexity_beyond"] == pytest.approx(
        float(torch.exp(nll)), rel=1e-6
    )


def test_prompt_keys_are_refused_not_measured():
    """MVP with prompts: its decoder's self-attention sees prompt keys before the
    sequence's (a (B * H, L, P + L) softmax), whose positions are not the sequence's:
    refused by name, where it was measured as if key ``j`` were at position ``j``."""
    from empirical.capture.session import capture
    from empirical.capture.state import CaptureUnsupported
    from empirical.capture.sweep.architectures import build

    model = build("mvp", use_prompt=True, prompt_length=4, prompt_mid_dim=16)
    ids = torch.randint(4, 500, (1, 12), generator=torch.Generator().manual_seed(0))
    with pytest.raises(CaptureUnsupported) as exc, torch.no_grad(), capture(model):
        model(input_ids=ids, decoder_input_ids=ids[:, :6], use_cache=False)
    msg = str(exc.value)
    assert "'decoder.layers.0.self_attn' (MvpAttention)" in msg, msg
    assert "6 query rows over 10 keys (keys beside the sequence's" in msg, msg


@pytest.mark.parametrize(
    "model_type,overrides",
    [
        ("mistral", dict(sliding_window=8)),  # a window shorter than L_tr
        ("llama", dict(num_key_value_heads=1)),  # one key head for all query heads
        ("mbart", dict(encoder_layers=3, decoder_layers=1)),  # uneven encoder, decoder
        ("falcon", dict(alibi=True)),
        ("t5", dict(relative_attention_num_buckets=8, relative_attention_max_distance=16)),
        # LongT5 as its tglobal checkpoints: transient-global keys (the sweep's reference
        # crashed on their 5-D blocks without the global block size)
        ("longt5", dict(encoder_attention_type="transient-global")),
        # real configurations of the attack on the audit: Llama 3's RoPE scaling, Phi-3's
        # LongRoPE past its original length, a sliding window on some layers (Qwen 2),
        # Gemma 3's local RoPE base and linear scaling on its full layers
        (
            "llama",
            dict(
                rope_parameters={
                    "rope_type": "llama3",
                    "rope_theta": 500000.0,
                    "factor": 8.0,
                    "low_freq_factor": 1.0,
                    "high_freq_factor": 4.0,
                    "original_max_position_embeddings": 64,
                }
            ),
        ),
        (
            "phi3",
            dict(
                sliding_window=None,
                max_position_embeddings=128,
                rope_parameters={
                    "rope_type": "longrope",
                    "rope_theta": 10000.0,
                    "short_factor": [1.0] * 8,
                    "long_factor": [1.0 + i for i in range(8)],
                    "original_max_position_embeddings": 16,
                },
            ),
        ),
        ("qwen2", dict(use_sliding_window=True, sliding_window=8, max_window_layers=1)),
        (
            "gemma3_text",
            dict(
                sliding_window=8,
                rope_parameters={
                    "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
                    "full_attention": {
                        "rope_type": "linear",
                        "factor": 8.0,
                        "rope_theta": 1000000.0,
                    },
                },
            ),
        ),
    ],
)
def test_variants_exact_and_audited(model_type, overrides):
    """Settings the sweep's defaults do not try, as checkpoints carry them."""
    from empirical.capture.sweep import architectures as sweep

    v = sweep.compare(model_type, **overrides)
    assert v.verdict == "exact", (v.model_type, v.verdict, v.detail)


def test_write_docs_with_types_keeps_the_other_rows(monkeypatch, tmp_path, capsys):
    """``--write-docs MD --types T``: T's row replaced from this run, every other row of
    the table in MD kept (a refused type measured now moves to the exact list)."""
    from empirical.capture.sweep import architectures as sweep
    from empirical.capture.sweep import cli

    before = [
        sweep.Verdict("bert", "exact"),
        sweep.Verdict("xglm", "refused", "XGLMModel: planted"),
        sweep.Verdict("rwkv", "refused", "RwkvModel: kept"),
    ]
    doc = tmp_path / "capture.md"
    doc.write_text(f"prose\n{sweep.BEGIN}\n{sweep.table(before)}{sweep.END}\nmore\n")
    monkeypatch.setattr(cli, "compare", lambda t, **kw: sweep.Verdict(t, "exact", "now"))
    assert cli.main(["--types", "xglm", "--write-docs", str(doc)]) == 0
    capsys.readouterr()
    text = doc.read_text()
    got = sweep.parse_table(text[text.index(sweep.BEGIN) + len(sweep.BEGIN) :])
    assert [(v.model_type, v.verdict) for v in got] == [
        ("rwkv", "refused"),
        ("bert", "exact"),
        ("xglm", "exact"),
    ]
    assert text.startswith("prose\n") and text.endswith(f"{sweep.END}\nmore\n")
    assert "RwkvModel: kept" in text and "planted" not in text
