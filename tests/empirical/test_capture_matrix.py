"""Capture on every supported family: a tiny checkpoint saved to disk with its trained
tokenizer (empirical.capture.checkpoints), loaded back, run on real text.

For each case: (1) the captured statistics (P_max, entropy, mean distance, per-offset
mass, per layer and head) equal those of the eager model's ``output_attentions``
probabilities to 1e-6 in float32; (2) the outputs with the capture on equal the stock
outputs; (3) with a temperature the outputs equal the eager model whose attention
softmax is given the logits divided by tau.  Sliding windows shorter than the text and
Gemma-2's logit softcapping are cases of their own.
"""

import contextlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from empirical.capture.checkpoints import save_tiny_checkpoint  # noqa: E402
from empirical.capture.discovery import attention_module_names  # noqa: E402
from empirical.capture.session import capture  # noqa: E402
from empirical.capture.state import CaptureUnsupported  # noqa: E402
from empirical.capture.stats import AttentionStats  # noqa: E402

pytestmark = pytest.mark.empirical
torch.set_num_threads(1)
transformers.logging.set_verbosity_error()

TEXT = (
    "def window(seq, n):\n    it = iter(seq)\n    out = tuple(next(it) for _ in range(n))\n"
    "    yield out\n    for x in it:\n        out = out[1:] + (x,)\n        yield out\n"
)
W = 6  # sliding window shorter than the ~40-token text
# (case id, family, config overrides)
CASES = [
    ("llama", "llama", {}),
    ("qwen2", "qwen2", {}),
    (
        "qwen2-sliding",
        "qwen2",
        dict(use_sliding_window=True, sliding_window=W, max_window_layers=1),
    ),
    ("qwen3", "qwen3", {}),
    ("mistral-default-window", "mistral", {}),
    ("mistral-sliding", "mistral", dict(sliding_window=W)),
    ("mixtral", "mixtral", {}),
    ("gemma", "gemma", {}),
    ("gemma2-softcap-sliding", "gemma2", dict(sliding_window=W, attn_logit_softcapping=0.5)),
    ("gemma3-sliding", "gemma3", dict(sliding_window=W)),
    ("phi", "phi", {}),
    ("phi3-sliding", "phi3", dict(sliding_window=W)),
    ("gpt-neox", "gpt_neox", {}),
    ("gpt2", "gpt2", {}),
    ("opt", "opt", {}),
    ("falcon", "falcon", {}),
    # transformers' eager Falcon adds ALiBi twice (eager != sdpa); the reference for this
    # case is the materialised softmax inside the sdpa calls the model makes by default
    ("falcon-alibi", "falcon", dict(alibi=True)),
    ("t5-encoder", "t5_encoder", {}),
    ("t5-encoder-decoder", "t5", {}),
    ("bloom", "bloom", {}),
    ("bert", "bert", {}),
]
TAU = 0.7


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("ckpt")
    return {cid: save_tiny_checkpoint(fam, root / cid, seed=1, **ov) for cid, fam, ov in CASES}


def _load(path, **kw):
    cfg = transformers.AutoConfig.from_pretrained(path)
    cls = getattr(transformers, cfg.architectures[0])
    return cls.from_pretrained(path, **kw).eval()


def _inputs(path, model):
    tok = transformers.AutoTokenizer.from_pretrained(path)
    ids = torch.tensor([tok(TEXT)["input_ids"][:40]])
    kw = {"decoder_input_ids": ids[:, :17]} if model.config.is_encoder_decoder else {}
    return ids, kw


def _main(out):
    for k in ("logits", "last_hidden_state"):
        if getattr(out, k, None) is not None:
            return out[k]
    raise AssertionError("no output tensor")


def _eager_probs(out, names) -> dict:
    """Eager probabilities per attention module name."""
    if getattr(out, "encoder_attentions", None) is not None:
        it = {
            "enc": iter(out.encoder_attentions),
            "self": iter(out.decoder_attentions),
            "cross": iter(out.cross_attentions),
        }
        keys = [
            "enc" if n.startswith("encoder.") else "cross" if "EncDec" in n else "self"
            for n in names
        ]
        return {n: next(it[k]) for n, k in zip(names, keys)}
    assert len(out.attentions) == len(names)
    return dict(zip(names, out.attentions))


def _reference_stats(p: torch.Tensor) -> dict:
    """Per-head P_max, entropy, mean |i-j| and per-offset mass of (1, H, L, K) probs."""
    p = p.double()[0]
    h, lq, lk = p.shape
    i, j = torch.arange(lq)[:, None], torch.arange(lk)[None, :]
    n = max(lq, lk)
    mass = torch.zeros(h, 2 * n - 1, dtype=torch.float64)
    off = (j - i + n - 1).expand(lq, lk).reshape(-1)
    for hh in range(h):
        mass[hh].index_add_(0, off, p[hh].reshape(-1))
    return {
        "pmax": p.amax(-1).mean(1),
        "entropy": torch.special.entr(p).sum(-1).mean(1),
        "mean_distance": (p * (j - i).abs()).sum(-1).mean(1),
        "mass": mass,
    }


@contextlib.contextmanager
def _softmax_divided_by(tau):
    """The reference temperature: every 4-D attention softmax sees logits / tau."""
    orig = torch.nn.functional.softmax

    def soft(x, dim=None, *a, **kw):
        return orig(x / tau if x.ndim == 4 else x, dim, *a, **kw)

    torch.nn.functional.softmax = soft
    try:
        yield
    finally:
        torch.nn.functional.softmax = orig


@contextlib.contextmanager
def _math_sdpa(tau, probs: list):
    """Reference for models calling F.scaled_dot_product_attention themselves: the
    materialised softmax((scale q k^T + mask) / tau) V, probabilities recorded."""
    orig = torch.nn.functional.scaled_dot_product_attention

    def sdpa(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None, **kw):
        s = q @ k.transpose(-1, -2) * (q.shape[-1] ** -0.5 if scale is None else scale)
        if attn_mask is not None:
            s = (
                s.masked_fill(~attn_mask, float("-inf"))
                if attn_mask.dtype == torch.bool
                else s + attn_mask
            )
        if is_causal:
            s = s.masked_fill(torch.ones(s.shape[-2:], dtype=torch.bool).triu(1), float("-inf"))
        p = torch.softmax(s / tau, -1)
        probs.append(p)
        return p @ v

    torch.nn.functional.scaled_dot_product_attention = sdpa
    try:
        yield
    finally:
        torch.nn.functional.scaled_dot_product_attention = orig


def _references(cid, path, model, ids, kw, names):
    """(probabilities per module name, outputs at tau = TAU) of the reference model."""
    if cid == "falcon-alibi":
        probs, hot = [], []
        with _math_sdpa(1.0, probs):
            model(ids, **kw)
        with _math_sdpa(TAU, hot):
            hot_ref = _main(model(ids, **kw))
        return dict(zip(names, probs)), hot_ref
    eager = _load(path, attn_implementation="eager")
    eager_out = eager(ids, output_attentions=True, **kw)
    with _softmax_divided_by(TAU):
        hot_ref = _main(eager(ids, **kw))
    return _eager_probs(eager_out, names), hot_ref


@pytest.mark.parametrize("cid", [c[0] for c in CASES])
def test_capture_matrix(folders, cid):
    path = folders[cid]
    model = _load(path)
    ids, kw = _inputs(path, model)
    names = attention_module_names(model)
    with torch.no_grad():
        ref_out = _main(model(ids, **kw))
        ref_probs, hot_ref = _references(cid, path, model, ids, kw, names)
        stats = AttentionStats(mass_layers="all")
        with capture(model, stats=stats, block_size=7) as session:
            got = _main(model(ids, **kw))
        plain = AttentionStats()  # default statistics: the tiled path of causal calls
        with capture(model, stats=plain, block_size=7):
            model(ids, **kw)
        with capture(model, tau=TAU, block_size=7):
            hot = _main(model(ids, **kw))
    assert session.calls == len(names) and stats.order == names
    assert float((got - ref_out).abs().max()) < 1e-5  # (2)
    assert float((hot - hot_ref).abs().max()) < 1e-5  # (3)
    assert float((hot - got).abs().max()) > 1e-4  # tau acts
    for name, p in ref_probs.items():  # (1)
        ref, ls = _reference_stats(p), stats.layers[name]
        rows = ls.rows
        assert np.array_equal(rows, np.full(p.shape[1], p.shape[2]))
        # distances are in tokens: 1e-6 relative to the length
        lp = plain.layers[name]
        for key, got_v, tol in (
            ("pmax", ls.pmax_sum / rows, 1e-6),
            ("entropy", ls.ent_sum / rows, 1e-6),
            ("mean_distance", ls.mean_distance(), 1e-6 * p.shape[-1]),
            ("mass", ls.mass, 1e-6),
            ("pmax (default statistics)", lp.pmax_sum / lp.rows, 1e-6),
            ("entropy (default statistics)", lp.ent_sum / lp.rows, 1e-6),
            ("mean_distance (default statistics)", lp.mean_distance(), 1e-6 * p.shape[-1]),
        ):
            np.testing.assert_allclose(
                got_v,
                ref[key.split(" ")[0]].numpy(),
                rtol=0,
                atol=tol,
                err_msg=f"{cid} {name} {key}",
            )


def test_sliding_window_is_active(folders):
    """The sliding-window cases really restrict attention: far keys get no mass."""
    path = folders["mistral-sliding"]
    model = _load(path)
    ids, kw = _inputs(path, model)
    stats = AttentionStats(mass_layers="all")
    with torch.no_grad(), capture(model, stats=stats):
        model(ids)
    ls = stats.layers[stats.order[0]]
    off = ls.offsets()
    assert ls.mass[:, off <= -W].sum() == 0 and ls.mass[:, (off > -W) & (off < 0)].sum() > 1


class _BareAttention(torch.nn.Module):
    def forward(self, x):
        return torch.softmax(x @ x.transpose(-1, -2), -1) @ x


class _Unsupported(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.config = transformers.PretrainedConfig()
        self.attn = _BareAttention()

    def forward(self, x):
        return self.attn(x)


def test_uncaptured_module_is_an_error_naming_the_class():
    model = _Unsupported()
    with pytest.raises(CaptureUnsupported, match="_Unsupported"):
        with capture(model):
            model(torch.randn(1, 5, 4))


LONG = [
    ("mistral-sliding", "mistral", dict(sliding_window=100)),
    ("gemma2-softcap-sliding", "gemma2", dict(sliding_window=100, attn_logit_softcapping=0.5)),
    ("qwen2", "qwen2", {}),
    ("t5-encoder", "t5_encoder", {}),
    ("falcon", "falcon", {}),
    ("bert", "bert", {}),
]


@pytest.mark.slow
@pytest.mark.parametrize("cid,family,overrides", LONG, ids=[c[0] for c in LONG])
def test_capture_matrix_long(tmp_path, cid, family, overrides):
    """The same checks at L = 400 real-text tokens (windows of 100), default blocks."""
    from empirical.training.corpora import load_corpus

    path = save_tiny_checkpoint(family, tmp_path / cid, seed=2, **overrides)
    model = _load(path)
    tok = transformers.AutoTokenizer.from_pretrained(path)
    ids = torch.tensor([tok(load_corpus("stdlib", max_chars=20000))["input_ids"][:400]])
    names = attention_module_names(model)
    with torch.no_grad():
        ref_out = _main(model(ids))
        ref_probs, hot_ref = _references(cid, path, model, ids, {}, names)
        stats = AttentionStats(mass_layers="all")
        with capture(model, stats=stats):
            got = _main(model(ids))
        with capture(model, tau=TAU):
            hot = _main(model(ids))
    assert float((got - ref_out).abs().max()) < 1e-5
    assert float((hot - hot_ref).abs().max()) < 1e-5
    for name, p in ref_probs.items():
        ref, ls = _reference_stats(p), stats.layers[name]
        np.testing.assert_allclose(ls.pmax_sum / ls.rows, ref["pmax"].numpy(), atol=1e-6)
        np.testing.assert_allclose(ls.ent_sum / ls.rows, ref["entropy"].numpy(), atol=1e-6)
        np.testing.assert_allclose(
            ls.mean_distance(), ref["mean_distance"].numpy(), atol=1e-6 * ids.shape[1]
        )
        np.testing.assert_allclose(ls.mass, ref["mass"].numpy(), atol=1e-6)
