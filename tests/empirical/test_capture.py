"""Capture and streaming statistics: capture-on == stock, temperature,
block-wise == full-matrix statistics at L = 2048, mergeability, distributed == single."""

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from capture_helpers import full_matrix_stats  # noqa: E402

from empirical.capture.discovery import attention_module_names  # noqa: E402
from empirical.capture.hf_interface import CAPTURE_NAME, capture_attention_forward  # noqa: E402
from empirical.capture.session import capture  # noqa: E402
from empirical.capture.stats import AttentionStats  # noqa: E402

pytestmark = pytest.mark.empirical
ROOT = Path(__file__).resolve().parents[2]
torch.set_num_threads(1)
transformers.logging.set_verbosity_error()

# (name, model factory, extra forward kwargs) -- one declarative list, one test
T5 = dict(d_model=64, d_ff=128, num_layers=2, num_heads=4, d_kv=16, vocab_size=100)
CASES = [
    ("t5-encoder", lambda: transformers.T5EncoderModel(transformers.T5Config(**T5)), {}),
    (
        "t5-encoder-decoder",
        lambda: transformers.T5ForConditionalGeneration(transformers.T5Config(**T5)),
        {"decoder_input_ids": torch.arange(9)[None] + 3},
    ),
    (
        "llama-rotary-gqa",
        lambda: transformers.LlamaModel(
            transformers.LlamaConfig(
                hidden_size=64,
                intermediate_size=128,
                num_hidden_layers=2,
                num_attention_heads=4,
                num_key_value_heads=2,
                vocab_size=100,
            )
        ),
        {},
    ),
    (
        "bloom-alibi",
        lambda: transformers.BloomModel(
            transformers.BloomConfig(hidden_size=64, n_layer=2, n_head=4, vocab_size=100)
        ),
        {},
    ),
    (
        "bert",
        lambda: transformers.BertModel(
            transformers.BertConfig(
                hidden_size=64,
                intermediate_size=128,
                num_hidden_layers=2,
                num_attention_heads=4,
                vocab_size=100,
            )
        ),
        {},
    ),
]


def _out(o):
    return o.logits if getattr(o, "logits", None) is not None else o.last_hidden_state


@pytest.mark.parametrize("name,factory,kw", CASES, ids=[c[0] for c in CASES])
def test_capture_equals_stock(name, factory, kw):
    torch.manual_seed(0)
    model = factory().eval()
    ids = torch.randint(0, 100, (1, 37))
    before = model.config._attn_implementation
    with torch.no_grad():
        ref = _out(model(ids, **kw))
        stats = AttentionStats(sorted_layers="all")
        with capture(model, stats=stats, block_size=5) as session:  # 8 blocks, ragged end
            got = _out(model(ids, **kw))
    assert session.calls >= 2 and len(stats.order) >= 2
    assert float((got - ref).abs().max()) < 1e-5
    assert model.config._attn_implementation == before
    # every captured row is a probability distribution: pmax in (0, 1]
    for s in stats.summary().values():
        assert 0 < s["pmax"] <= 1


def test_capture_removed_after_error():
    from transformers import AttentionInterface

    model = CASES[0][1]().eval()
    with pytest.raises(RuntimeError):
        with capture(model):
            raise RuntimeError("boom")
    assert model.config._attn_implementation == "sdpa"
    assert CAPTURE_NAME not in AttentionInterface._global_mapping


def test_temperature_all_layers_equals_scaled_weights():
    """T5 logits are q.k + b (no 1/sqrt(d)); tau = 0.5 is the stock model with the query
    projections and the shared relative bias doubled."""
    torch.manual_seed(1)
    model = transformers.T5EncoderModel(transformers.T5Config(**T5)).eval()
    ref = copy.deepcopy(model)
    with torch.no_grad():
        for blk in ref.encoder.block:
            blk.layer[0].SelfAttention.q.weight *= 2
        ref.encoder.block[0].layer[0].SelfAttention.relative_attention_bias.weight *= 2
        ids = torch.randint(0, 100, (1, 30))
        with capture(model, tau=0.5):
            got = model(ids).last_hidden_state
        assert float((got - ref(ids).last_hidden_state).abs().max()) < 1e-5
        assert float((got - model(ids).last_hidden_state).abs().max()) > 1e-3


def test_temperature_chosen_layer_equals_scaled_weights():
    """tau on ``layers.1`` only of a LLaMA (rotary is linear in q) == q_proj of layer 1
    scaled by 1/tau in the stock model."""
    torch.manual_seed(2)
    model = CASES[2][1]().eval()
    ref = copy.deepcopy(model)
    with torch.no_grad():
        ref.layers[1].self_attn.q_proj.weight /= 0.7
        ids = torch.randint(0, 100, (1, 25))
        with capture(model, tau=0.7, tau_layers=[r"^layers\.1\."]):
            got = model(ids).last_hidden_state
        assert float((got - ref(ids).last_hidden_state).abs().max()) < 1e-5


class _Dummy(torch.nn.Module):
    is_causal = False


@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("with_bias", [True, False], ids=["t5-bias", "no-bias"])
def test_blockwise_stats_equal_full_matrix_L2048(causal, with_bias):
    """The attention function's block-wise statistics vs the materialised (B, H, L, L)
    computation in float64, at L = 2048 with a T5-style additive bias (entropy from the
    logits) or without one (entropy from the key-augmented values)."""
    torch.manual_seed(3)
    L, H, D = (2048 if with_bias else 1024), 2, 16  # 1024: keep the suite short
    q, k, v = (torch.randn(1, H, L, D) for _ in range(3))
    bias = torch.randn(1, H, L, L) * 0.5 if with_bias else None
    mod = _Dummy()
    mod.is_causal = causal
    stats = AttentionStats(sorted_layers=["x"], mass_layers=["x"])
    from empirical.capture.registry import REGISTRY
    from empirical.capture.state import CaptureConfig, CaptureSession

    session = CaptureSession(CaptureConfig(stats=stats, block_size=96))  # 22 ragged blocks
    REGISTRY.modules[id(mod)] = (session, "x")
    try:
        out, _ = capture_attention_forward(mod, q, k, v, None, scaling=D**-0.5, position_bias=bias)
    finally:
        REGISTRY.modules.pop(id(mod))
    logits = q @ k.transpose(-1, -2) * D**-0.5 + (0.0 if bias is None else bias)
    if causal:
        logits = logits.masked_fill(torch.ones(L, L, dtype=torch.bool).triu(1), float("-inf"))
    ref = full_matrix_stats(logits)
    ls = stats.layers["x"]
    diffs = {
        "pmax": np.abs(ls.pmax_sum / ls.rows - ref["pmax"]).max(),
        "entropy": np.abs(ls.ent_sum / ls.rows - ref["entropy"]).max(),
        "mean_distance": np.abs(ls.mean_distance() - ref["mean_distance"]).max(),
        "mass": np.abs(ls.mass - ref["mass"]).max(),
        "averaged_logit_vector": np.abs(
            ls.averaged_logit_vector() - ref["averaged_logit_vector"]
        ).max(),
        "output": float((out.transpose(1, 2) - torch.softmax(logits, -1) @ v).abs().max()),
    }
    print("max abs difference block-wise vs full matrix, L=2048:", diffs)
    # float32 blocks vs float64 reference; distances are in tokens (up to 2047)
    tol = {
        "pmax": 1e-6,
        "entropy": 1e-5,
        "mean_distance": 1e-3,
        "mass": 1e-4,
        "averaged_logit_vector": 1e-5,
        "output": 1e-5,
    }
    assert all(diffs[k] < tol[k] for k in tol), diffs


def test_merge_of_shards_equals_single_pass():
    torch.manual_seed(4)
    blocks = [torch.randn(1, 3, 64, 200) for _ in range(4)]
    single, shards = AttentionStats(sorted_layers="all"), []
    for lg in blocks:
        single.update("a", lg, torch.softmax(lg, -1), row0=0)
        s = AttentionStats(sorted_layers="all")
        s.update("a", lg, torch.softmax(lg, -1), row0=0)
        shards.append(s)
    merged = shards[0]
    for s in shards[1:]:
        merged.merge(s)
    from empirical.capture.collect import flatten, unflatten

    assert np.allclose(flatten(merged), flatten(single), rtol=1e-12, atol=1e-12)
    back = unflatten(copy.deepcopy(single), flatten(single))
    assert np.array_equal(flatten(back), flatten(single))
    # state round trip (JSON) is exact
    again = AttentionStats.from_state(json.loads(json.dumps(single.state())))
    assert np.array_equal(flatten(again), flatten(single))


def test_merge_of_different_lengths_pads():
    a, b = (AttentionStats(sorted_layers="all", mass_layers="all") for _ in range(2))
    la, lb = torch.randn(1, 1, 10, 10), torch.randn(1, 1, 30, 30)
    a.update("x", la, torch.softmax(la, -1), 0)
    b.update("x", lb, torch.softmax(lb, -1), 0)
    a.merge(b)
    ls = a.layers["x"]
    assert ls.max_len == 30 and ls.rows.sum() == 40
    assert np.isclose(ls.mass.sum(), 40.0)  # every row sums to one


@pytest.mark.slow
def test_torchrun_two_processes_equal_single(tmp_path):
    # without the Triton interpreter that tests/conftest.py turns on for this process: with
    # it, a torchrun worker sometimes aborts at exit (measured: 4 of 31 runs, 0 of 23 without)
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env.update(OMP_NUM_THREADS="1", PYTHONPATH=str(ROOT))
    args = ["--model", "t5-config:tiny", "--length", "256", "--n-seq", "4"]
    subprocess.run(
        [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--standalone",
            "--nproc-per-node",
            "2",
            "-m",
            "empirical.collect",
            *args,
            "--out",
            str(tmp_path / "d.json"),
        ],
        check=True,
        cwd=ROOT,
        env=env,
        capture_output=True,
    )
    subprocess.run(
        [
            sys.executable,
            "-m",
            "empirical.collect",
            *args,
            "--out",
            str(tmp_path / "s.json"),
        ],
        check=True,
        cwd=ROOT,
        env=env,
        capture_output=True,
    )
    from empirical.capture.collect import flatten

    d, s = (
        flatten(AttentionStats.from_state(json.loads((tmp_path / f).read_text())))
        for f in ("d.json", "s.json")
    )
    assert d.size == s.size and np.allclose(d, s, rtol=1e-12, atol=1e-12)


def test_attention_module_names_t5_encdec():
    m = CASES[1][1]()
    names = attention_module_names(m)
    assert len(names) == 2 + 2 * 2  # encoder self; decoder self + cross
    assert names[0] == "encoder.block.0.layer.0.SelfAttention"


def test_capture_with_autograd_matches_stock_gradients():
    """Without torch.no_grad the capture takes its out-of-place path: same outputs and
    the same gradients as the stock model."""
    torch.manual_seed(5)
    model = transformers.T5EncoderModel(transformers.T5Config(**T5)).eval()
    ids = torch.randint(0, 100, (1, 21))
    model(ids).last_hidden_state.square().sum().backward()
    ref = model.encoder.block[0].layer[0].SelfAttention.q.weight.grad.clone()
    model.zero_grad()
    with capture(model, stats=AttentionStats(), block_size=8):
        model(ids).last_hidden_state.square().sum().backward()
    got = model.encoder.block[0].layer[0].SelfAttention.q.weight.grad
    assert torch.allclose(got, ref, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("idx", [2, 4], ids=["llama-padded-batch", "bert-padded-batch"])
def test_capture_equals_stock_with_padding_mask(idx):
    """A batch of two with right padding: the model's boolean mask reaches the capture;
    outputs at real tokens equal the stock ones."""
    torch.manual_seed(6)
    model = CASES[idx][1]().eval()
    ids = torch.randint(1, 100, (2, 19))
    mask = torch.ones(2, 19, dtype=torch.long)
    mask[1, 13:] = 0
    with torch.no_grad():
        ref = model(ids, attention_mask=mask).last_hidden_state
        with capture(model, stats=AttentionStats(), block_size=4):
            got = model(ids, attention_mask=mask).last_hidden_state
    keep = mask.bool()
    assert float((got[keep] - ref[keep]).abs().max()) < 1e-5


def _tiny_checkpoint(path):
    """A seeded tiny LLaMA and a word-level tokenizer saved with save_pretrained."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    torch.manual_seed(3)
    model = transformers.LlamaModel(
        transformers.LlamaConfig(
            hidden_size=64,
            intermediate_size=128,
            num_hidden_layers=2,
            num_attention_heads=4,
            num_key_value_heads=2,
            vocab_size=100,
        )
    ).eval()
    model.save_pretrained(path)
    tok = Tokenizer(models.WordLevel({f"w{i}": i for i in range(100)}, unk_token="w0"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    transformers.PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="w0").save_pretrained(path)
    return model


# device maps through the project's loader; on a CPU-only machine "auto" maps to cpu
DEVICE_MAPS = ["cpu", "auto", '{"": "cpu"}']


@pytest.mark.parametrize("device_map", DEVICE_MAPS)
def test_device_map_checkpoint_stats_equal_plain(tmp_path, device_map, monkeypatch):
    pytest.importorskip("accelerate")
    from empirical.capture.measure import collect_stats
    from empirical.capture.models import input_device, load_model

    built = _tiny_checkpoint(tmp_path)
    plain = load_model(str(tmp_path))
    seen, orig = [], transformers.LlamaModel.from_pretrained  # the class config.json names
    monkeypatch.setattr(
        transformers.LlamaModel,
        "from_pretrained",
        lambda *a, **kw: seen.append(kw.get("device_map")) or orig(*a, **kw),
    )
    mapped = load_model(str(tmp_path), device_map=device_map)
    # the map reached from_pretrained (transformers sets hf_device_map only for >1 device)
    assert seen == [json.loads(device_map) if device_map.startswith("{") else device_map]
    assert input_device(mapped.model) == torch.device("cpu")
    assert mapped.encode("w5 w7") == [5, 7]
    seqs = [
        torch.randint(0, 100, (1, 40), generator=torch.Generator().manual_seed(i)) for i in range(2)
    ]
    ref = collect_stats(built, seqs, sorted_layers="all", block_bytes=4096)
    for lm in (plain, mapped):
        got = collect_stats(lm.model, seqs, sorted_layers="all", block_bytes=4096)
        assert got.order == ref.order
        for name in ref.order:
            a, b = ref.layers[name], got.layers[name]
            for f in ("rows", "pmax_sum", "ent_sum", "dist_sum", "sorted_sum", "sorted_count"):
                np.testing.assert_allclose(getattr(b, f), getattr(a, f), rtol=1e-5, atol=1e-6)


def test_device_map_config_built_model_dispatch():
    """Config-built models are placed with accelerate's dispatch_model after the seeded
    build, so their weights and statistics do not depend on the map."""
    pytest.importorskip("accelerate")
    from empirical.capture.measure import collect_stats
    from empirical.capture.models import dispatch

    torch.manual_seed(4)
    model = transformers.T5EncoderModel(transformers.T5Config(**T5)).eval()
    ref_model = copy.deepcopy(model)
    mapped = dispatch(model, "auto")
    assert mapped.hf_device_map
    seqs = [torch.randint(0, 100, (1, 33), generator=torch.Generator().manual_seed(9))]
    ref = collect_stats(ref_model, seqs, sorted_layers="all", block_bytes=4096).summary()
    got = collect_stats(mapped, seqs, sorted_layers="all", block_bytes=4096).summary()
    for name in ref:
        for k in ("pmax", "entropy", "mean_distance", "sigma", "lmax"):
            assert got[name][k] == pytest.approx(ref[name][k], rel=1e-6)


@pytest.mark.parametrize("text", ['{"a": ', '["cpu"]', '{"a": [1]}', " "])
def test_device_map_bad_input_is_one_line_error(text, capsys):
    from empirical.collect.cli import main

    assert main(["--model", "t5-config:tiny", "--device-map", text]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "device-map" in err


@pytest.mark.parametrize("with_bias", [False, True], ids=["no-bias", "bias"])
def test_query_from_keeps_only_late_rows(with_bias):
    """``AttentionStats(query_from=q0)``: statistics of rows q0.. only, equal to the
    full-matrix reference restricted to those rows; the output is unchanged."""
    from empirical.capture.attention import attend
    from empirical.capture.state import CaptureConfig, CaptureSession

    torch.manual_seed(7)
    L, H, D, q0 = 300, 2, 8, 190
    q, k, v = (torch.randn(1, H, L, D) for _ in range(3))
    bias = torch.randn(1, H, L, L) if with_bias else None
    stats = AttentionStats(query_from=q0, sorted_layers="all", mass_layers="all")
    session = CaptureSession(CaptureConfig(stats=stats, block_size=64))
    out = attend(session, "x", q, k, v, bias=bias, causal=True)
    logits = q @ k.transpose(-1, -2) * D**-0.5 + (0.0 if bias is None else bias)
    logits = logits.masked_fill(torch.ones(L, L, dtype=torch.bool).triu(1), float("-inf"))
    assert float((out - torch.softmax(logits, -1) @ v).abs().max()) < 1e-5
    ref = full_matrix_stats(logits[:, :, q0:])
    ls = stats.layers["x"]
    assert ls.rows.tolist() == [L - q0] * H
    np.testing.assert_allclose(ls.pmax_sum / ls.rows, ref["pmax"], atol=1e-6)
    np.testing.assert_allclose(ls.ent_sum / ls.rows, ref["entropy"], atol=1e-6)
    np.testing.assert_allclose(ls.averaged_logit_vector(), ref["averaged_logit_vector"], atol=1e-5)
    # the reference indexes rows from 0: its offsets are shifted by q0
    p = torch.softmax(logits.double(), -1)[0, :, q0:]
    i, j = torch.arange(q0, L)[:, None], torch.arange(L)[None, :]
    np.testing.assert_allclose(ls.mean_distance(), (p * (j - i).abs()).sum(-1).mean(-1), atol=1e-4)
    assert np.allclose(ls.mass.sum(1), L - q0)


def test_default_statistics_skip_mass_and_sorted():
    """By default only P_max, entropy and distance are collected (the fast path)."""
    model = CASES[2][1]().eval()
    stats = AttentionStats()
    with torch.no_grad(), capture(model, stats=stats):
        model(torch.randint(0, 100, (1, 20)))
    for ls in stats.layers.values():
        assert ls.mass is None and ls.sorted_sum is None and ls.rows.sum() == 4 * 20
    summ = stats.summary()
    assert all("receptive_field_95" not in s["per_head"] for s in summ.values())


def _logits_q(kind: str, lq: int, lk: int, heads: int, d: int, batch: int, seed: int):
    """(q, k, v) for one case of :data:`CAUSAL_CASES`: ``randn`` for "normal"; logits
    up to ~+-300 for "peaked" (the max is subtracted); logits 35 +- 1 for "offset" (the
    max is subtracted, no logit falls below the exp floor); for "underflow" a row maximum
    below 30 in size (no shift) with most logits 100-250 below it (exp underflows); for
    "near-shift" row maxima just below 30 (the largest unshifted weights, e^29.9) and the
    other logits down to -95, across both floors (e^-87, 2^-126 = e^-87.3) of the
    tiled path's exp2 in bits."""
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(batch, heads, n, d, generator=g) for n in (lq, lk, lk))
    if kind == "peaked":
        q = q * 40
    elif kind == "offset":  # every logit near 35: shifted, yet within the exp floor
        q = torch.zeros(batch, heads, lq, d)
        q[..., 0] = d**0.5
        k = 0.3 * k
        k[..., 0] = 35 + k[..., 0]
    elif kind in ("underflow", "near-shift"):
        lo, hi, top = (-250, -100, (-5, 5)) if kind == "underflow" else (-95, 29, (29.5, 29.95))
        x = torch.empty(batch, heads, lk).uniform_(lo, hi, generator=g)
        x[..., ::7] = torch.empty(batch, heads, len(range(0, lk, 7))).uniform_(*top, generator=g)
        q = torch.zeros(batch, heads, lq, d)
        q[..., 0] = d**0.5  # l_ij = x_j after the scaling d**-0.5
        k = torch.zeros(batch, heads, lk, d)
        k[..., 0] = x
    return q, k, v


# (id, Lq, Lk, heads, d, batch, logits, block rows, block bytes, query_from, tau)
CAUSAL_CASES = [
    ("ragged-blocks", 300, 300, 2, 16, 1, "normal", 64, None, 0, 1.0),
    ("two-heads-per-tile", 300, 300, 4, 16, 1, "normal", 64, 2 * 4 * 64 * 300, 0, 1.0),
    ("one-head-per-tile", 130, 130, 3, 8, 2, "normal", 32, 1, 0, 1.0),
    ("default-tiles", 700, 700, 2, 32, 1, "normal", None, None, 0, 1.0),
    ("peaked-shifted", 257, 257, 2, 16, 1, "peaked", 64, None, 0, 1.0),
    ("underflow-no-shift", 200, 200, 2, 4, 1, "underflow", 48, None, 0, 1.0),
    ("offset-shifted", 200, 200, 2, 8, 1, "offset", 48, None, 0, 1.0),
    ("near-shift-floors", 200, 200, 2, 4, 1, "near-shift", 48, None, 0, 1.0),
    ("near-shift-cold", 200, 200, 2, 4, 1, "near-shift", 48, None, 0, 0.9),
    ("query-from", 300, 300, 2, 8, 1, "normal", 64, None, 190, 1.0),
    ("temperature", 150, 150, 2, 8, 1, "normal", 40, None, 0, 0.4),
    ("fewer-queries", 50, 80, 2, 8, 1, "normal", 16, None, 0, 1.0),
    ("more-queries", 80, 50, 2, 8, 1, "normal", 16, None, 0, 1.0),
    ("one-token", 1, 1, 2, 8, 1, "normal", None, None, 0, 1.0),
    # (..., {"window": w, "softcap": c}): a boolean sliding-window mask, Gemma-2 capping
    ("window-inside-tiles", 300, 300, 2, 8, 1, "normal", 64, None, 0, 1.0, {"window": 20}),
    ("window-across-tiles", 300, 300, 3, 8, 1, "normal", 32, 1, 0, 1.0, {"window": 75}),
    ("window-one-key", 100, 100, 2, 8, 1, "normal", 16, None, 0, 1.0, {"window": 1}),
    ("window-longer-than-text", 90, 90, 2, 8, 1, "normal", 16, None, 0, 1.0, {"window": 500}),
    ("window-peaked", 200, 200, 2, 16, 1, "peaked", 48, None, 0, 1.0, {"window": 33}),
    ("window-query-from-tau", 260, 260, 2, 8, 2, "normal", 64, None, 100, 0.7, {"window": 50}),
    ("softcap", 200, 200, 2, 16, 1, "peaked", 48, None, 0, 1.0, {"softcap": 5.0}),
    ("softcap-large-cold", 200, 200, 2, 16, 1, "peaked", 48, None, 0, 0.3, {"softcap": 40.0}),
    (
        "softcap-tau-window",
        200,
        200,
        2,
        8,
        1,
        "normal",
        64,
        None,
        0,
        0.5,
        {"softcap": 1.5, "window": 30},
    ),
]


@pytest.fixture
def torch_threads():
    """Set torch's CPU threads for one test (the module runs with one), restored after."""
    before = torch.get_num_threads()
    yield torch.set_num_threads
    torch.set_num_threads(before)


@pytest.mark.parametrize("kernel", [True, False], ids=["fused-pass", "tensor-ops"])
@pytest.mark.parametrize("chunk", [None, 23])
@pytest.mark.parametrize("workers", [1, 3])
@pytest.mark.parametrize("case", CAUSAL_CASES, ids=[c[0] for c in CAUSAL_CASES])
def test_tiled_causal_path_equals_float64_reference(
    case, workers, chunk, kernel, monkeypatch, torch_threads
):
    """The tiled path of plain causal calls (no mask, no bias, default statistics):
    output, P_max, entropy and mean distance equal the materialised float64 softmax,
    on ragged tiles, head chunks, shifted and underflowing rows, late query rows, a
    temperature and Lq != Lk (causal top-left, as sdpa's ``is_causal``); in this thread
    (one torch thread) and on three tile workers; with the default chunks of keys and
    with chunks of 23 keys (many per tile, fewer keys than rows: the online softmax
    moves its shift when a later chunk holds a larger logit); with the fused CPU pass of
    :mod:`empirical.capture.cpu_kernel` (where it builds) and with the tensor operations."""
    import dataclasses

    import empirical.capture.attention as attention
    import empirical.capture.tiled_causal as tc
    from empirical.capture.cpu_kernel import chunk_kernel
    from empirical.capture.state import CaptureConfig, CaptureSession

    torch_threads(workers)

    cid, lq, lk, heads, d, batch, kind, rows, nbytes, q0, tau = case[:11]
    extra = case[11] if len(case) > 11 else {}
    w, cap = extra.get("window"), extra.get("softcap")
    q, k, v = _logits_q(kind, lq, lk, heads, d, batch, seed=len(cid))
    i, j = torch.arange(lq)[:, None], torch.arange(lk)[None, :]
    hidden = (j > i) | ((i - j >= w) if w else False)  # masked (query, key) pairs
    calls = []
    tiled = attention.attend_causal
    monkeypatch.setattr(attention, "attend_causal", lambda *a: calls.append(1) or tiled(*a))
    fused, fused_tile = [], tc._fused_tile
    monkeypatch.setattr(tc, "_fused_tile", lambda *a: fused.append(1) or fused_tile(*a))
    config = CaptureConfig(
        stats=AttentionStats(query_from=q0),
        tau=tau,
        block_size=rows,
        key_chunk=chunk,
        cpu_kernel=kernel,
    )
    if nbytes is not None:
        config = dataclasses.replace(config, block_bytes=nbytes)
    session = CaptureSession(config)
    mask = None if w is None else ~hidden[None, None]  # as transformers builds it
    out = attention.attend(
        session, "x", q, k, v, mask, scale=d**-0.5, causal=w is None, softcap=cap, window=w
    )
    assert calls == [1]  # the tiled path ran
    assert bool(fused) == (kernel and chunk_kernel() is not None)  # where it builds
    lg = (q.double() @ k.double().transpose(-1, -2)) * d**-0.5
    lg = (lg if cap is None else cap * torch.tanh(lg / cap)) / tau
    p = torch.softmax(lg.masked_fill(hidden, float("-inf")), -1)[:, :, q0:]
    dist = (p * (j - i)[q0:].abs()).sum(-1)
    ref = {
        "pmax": p.amax(-1).mean((0, 2)),
        "entropy": torch.special.entr(p).sum(-1).mean((0, 2)),
        "mean_distance": dist.mean((0, 2)),
    }
    ls = session.stats.layers["x"]
    got = {
        "pmax": ls.pmax_sum / ls.rows,
        "entropy": ls.ent_sum / ls.rows,
        "mean_distance": ls.mean_distance(),
    }
    assert ls.rows.tolist() == [batch * (lq - q0)] * heads
    # float32 tiles vs float64; distances in tokens, 1e-6 relative to the length; float32
    # logits carry an error ~6e-8 |l|, so tolerances grow with the largest |l| above 30
    grow = max(1.0, float(lg.abs().max()) / 30)
    tol = {"pmax": 1e-6 * grow, "entropy": 2e-6 * grow, "mean_distance": 1e-6 * lk * grow}
    for key in tol:
        np.testing.assert_allclose(got[key], ref[key].numpy(), rtol=0, atol=tol[key], err_msg=key)
    ref_out = torch.softmax(lg.masked_fill(hidden, float("-inf")), -1) @ v.double()
    assert float((out.double() - ref_out).abs().max()) < 1e-5 * grow


def _tiled_call(session, seed=0, lq=300, heads=3):
    g = torch.Generator().manual_seed(seed)
    q, k, v = (torch.randn(2, heads, lq, 16, generator=g) for _ in range(3))
    from empirical.capture.attention import attend

    return attend(session, "x", q, k, v, causal=True)


def test_tile_workers_run_every_tile_once_and_agree_bitwise(monkeypatch, torch_threads):
    """With two torch threads the tiles go to two single-threaded workers, each tile once
    (counted), and output and statistics are bitwise those of one thread (the same tiles,
    the same single-threaded operations); a planted bug (a tile run twice, one skipped)
    changes them."""
    import threading

    import empirical.capture.tiled_causal as tc
    from empirical.capture.state import CaptureConfig, CaptureSession

    runs, tile_fn = [], tc._causal_tile

    def spy(s, c, sums, tile, slot):
        runs.append((tile, threading.current_thread().name))
        tile_fn(s, c, sums, tile, slot)

    monkeypatch.setattr(tc, "_causal_tile", spy)
    got = {}
    for n in (1, 2):
        torch_threads(n)
        runs.clear()
        session = CaptureSession(
            CaptureConfig(stats=AttentionStats(), block_size=32, block_bytes=40_000)
        )
        got[n] = (_tiled_call(session), session.stats.layers["x"])
        want = tc._causal_tiles(session, 6, 300, 300, None, "cpu")
        assert len(want) > 10  # 10 row blocks, split over the 6 heads where long
        assert sorted(t for t, _ in runs) == sorted(want)  # each tile once
        names = {name for _, name in runs}
        if n == 1:
            assert names == {"MainThread"}
        else:
            assert names and all(name.startswith("lengthx-tiles") for name in names)
    assert torch.equal(got[1][0], got[2][0])
    for key in ("rows", "pmax_sum", "ent_sum"):
        np.testing.assert_array_equal(getattr(got[1][1], key), getattr(got[2][1], key))
    np.testing.assert_array_equal(got[1][1].mean_distance(), got[2][1].mean_distance())

    def planted(s, c, sums, tile, slot):  # the first row block's first tile is lost
        if tile[2] != 0 or tile[0] != 0:
            tile_fn(s, c, sums, tile, slot)

    monkeypatch.setattr(tc, "_causal_tile", planted)
    session = CaptureSession(
        CaptureConfig(stats=AttentionStats(), block_size=32, block_bytes=40_000)
    )
    out = _tiled_call(session)
    assert not torch.equal(out, got[2][0])


def test_tile_worker_error_reaches_the_caller(monkeypatch, torch_threads):
    """An error in one tile on a worker is raised by ``attend`` (the other workers stop
    taking tiles), and the next call runs normally."""
    import empirical.capture.tiled_causal as tc
    from empirical.capture.state import CaptureConfig, CaptureSession

    torch_threads(2)
    tile_fn = tc._causal_tile

    def broken(s, c, sums, tile, slot):
        if tile[2] == 64:
            raise RuntimeError("planted failure in a tile")
        tile_fn(s, c, sums, tile, slot)

    monkeypatch.setattr(tc, "_causal_tile", broken)
    with pytest.raises(RuntimeError, match="planted failure"):
        _tiled_call(CaptureSession(CaptureConfig(stats=AttentionStats(), block_size=32)))
    monkeypatch.setattr(tc, "_causal_tile", tile_fn)
    out = _tiled_call(CaptureSession(CaptureConfig(stats=AttentionStats(), block_size=32)))
    assert bool(torch.isfinite(out).all())
