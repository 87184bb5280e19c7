"""Capture through the fused Triton kernel (``capture(..., fused=True)``), run in Triton's
CPU interpreter, against the tiled PyTorch path on tiny checkpoints of several families:
outputs, the temperature, and P_max / entropy / mean distance per layer and head.  Calls
the kernel cannot take (T5's bias, a padding mask) must fall back to the PyTorch path.
GPU speed is not exercised here (no GPU)."""

import os
import sys

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
ON_GPU = torch.cuda.is_available()
# the interpreter works only if TRITON_INTERPRET was set before triton's first import
# (tests/conftest.py sets it where there is no GPU)
if not ON_GPU and "triton" in sys.modules and os.environ.get("TRITON_INTERPRET") != "1":
    pytest.skip("triton was imported without its interpreter", allow_module_level=True)
if not ON_GPU:
    os.environ["TRITON_INTERPRET"] = "1"
pytest.importorskip("triton")
DEVICE = "cuda" if ON_GPU else "cpu"

import empirical.capture.fused_kernel as fk  # noqa: E402
from empirical.capture.checkpoints import save_tiny_checkpoint  # noqa: E402
from empirical.capture.session import capture  # noqa: E402
from empirical.capture.stats import AttentionStats  # noqa: E402

pytestmark = pytest.mark.empirical
torch.set_num_threads(1)
transformers.logging.set_verbosity_error()

W = 6  # sliding window shorter than the 24-token input
# (case id, family, config overrides, kernel calls expected per forward, batch)
CASES = [
    ("llama", "llama", {}, 2, 1),
    ("qwen2-gqa", "qwen2", {}, 2, 1),
    ("mistral-sliding", "mistral", dict(sliding_window=W), 2, 1),
    ("gemma2-softcap-sliding", "gemma2", dict(sliding_window=W, attn_logit_softcapping=0.5), 2, 1),
    ("gpt2", "gpt2", {}, 2, 1),
    ("falcon-boolean-causal-mask", "falcon", {}, 2, 1),
    ("bert-bidirectional", "bert", {}, 2, 1),
    ("t5-bias-falls-back", "t5_encoder", {}, 0, 1),
    ("llama-padding-falls-back", "llama", {}, 0, 2),
]


def _run(model, ids, mask, fused: bool, tau: float = 1.0):
    stats = AttentionStats()
    kw = {} if mask is None else {"attention_mask": mask}
    with torch.no_grad(), capture(model, stats=stats, tau=tau, fused=fused):
        out = model(ids, **kw)
    out = out.logits if getattr(out, "logits", None) is not None else out.last_hidden_state
    return out, stats


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_fused_capture_equals_pytorch_path(case, tmp_path, monkeypatch):
    cid, family, overrides, want_calls, batch = case
    path = save_tiny_checkpoint(family, tmp_path / cid, seed=2, **overrides)
    cfg = transformers.AutoConfig.from_pretrained(path)
    model = getattr(transformers, cfg.architectures[0]).from_pretrained(path).eval().to(DEVICE)
    ids = torch.randint(3, 200, (batch, 24), generator=torch.Generator().manual_seed(5))
    ids, mask = ids.to(DEVICE), None
    if batch > 1:
        mask = torch.ones(batch, 24, dtype=torch.long, device=DEVICE)
        mask[1, :5] = 0  # left padding on the second row
    calls = []
    kernel = fk.fused_attention_stats
    monkeypatch.setattr(
        fk, "fused_attention_stats", lambda *a, **k: calls.append(1) or kernel(*a, **k)
    )
    for tau in (1.0, 0.6):
        ref, ref_stats = _run(model, ids, mask, fused=False, tau=tau)
        calls.clear()
        got, stats = _run(model, ids, mask, fused=True, tau=tau)
        assert len(calls) == want_calls
        assert float((got - ref).abs().max()) < 1e-5, (cid, tau)
        for name, ls in ref_stats.layers.items():
            fs = stats.layers[name]
            assert np.array_equal(fs.rows, ls.rows)
            for key, a, b, tol in (
                ("pmax", fs.pmax_sum / fs.rows, ls.pmax_sum / ls.rows, 1e-6),
                ("entropy", fs.ent_sum / fs.rows, ls.ent_sum / ls.rows, 1e-6),
                ("distance", fs.mean_distance(), ls.mean_distance(), 1e-6 * 24),
            ):
                np.testing.assert_allclose(a, b, rtol=0, atol=tol, err_msg=f"{cid} {name} {key}")


@pytest.mark.parametrize("broken", ["entropy-sum", "output"])
def test_a_wrong_kernel_is_caught_on_its_first_call(broken, tmp_path, monkeypatch):
    """The first fused call of each kind is recomputed on its last rows in float32: a
    kernel that is off (here: made so on purpose) stops the capture with an error."""
    from empirical.capture.state import CaptureUnsupported

    path = save_tiny_checkpoint("llama", tmp_path / "llama", seed=2)
    model = transformers.LlamaModel.from_pretrained(path).eval().to(DEVICE)
    kernel = fk.fused_attention_stats

    def off(*a, **k):
        out, rows = kernel(*a, **k)
        if broken == "output":
            return out + 0.01, rows
        return out, rows + torch.tensor([0.0, 0.0, 0.01, 0.0], device=rows.device)[:, None, None]

    monkeypatch.setattr(fk, "fused_attention_stats", off)
    ids = torch.randint(3, 200, (1, 24), generator=torch.Generator().manual_seed(5)).to(DEVICE)
    with pytest.raises(CaptureUnsupported, match="fused attention kernel disagrees"):
        _run(model, ids, None, fused=True)
