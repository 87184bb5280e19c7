"""Routes of the capture beyond the attention interface's plain calls, each against a
reference computed here: padded query rows left out of a right-padded batch (the
statistics of the batch equal those of its sequences run alone), a module calling the
attention function twice counted once, an attention sink's mass, a softmax whose rows
are not the query positions refused by name, and the tiny-model sweep's verdicts on
planted faults."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from empirical.capture.checkpoints import tiny_config  # noqa: E402
from empirical.capture.session import capture  # noqa: E402
from empirical.capture.state import CaptureUnsupported  # noqa: E402
from empirical.capture.stats import AttentionStats  # noqa: E402

pytestmark = pytest.mark.empirical
transformers.logging.set_verbosity_error()


def _model(model_type, **kw):
    torch.manual_seed(0)
    cfg = tiny_config(model_type, **kw)
    return transformers.AutoModel.from_config(cfg).eval()


def _stats(model, ids, mask=None) -> AttentionStats:
    st = AttentionStats()
    with torch.no_grad(), capture(model, stats=st):
        model(input_ids=ids, attention_mask=mask)
    return st


# llama: blocked path with a padding mask; bert: encoder with a key-padding mask;
# gptj: a module that materialises its softmax (eager only)
@pytest.mark.parametrize("model_type", ["llama", "bert", "gptj"])
def test_padded_rows_left_out(model_type):
    model = _model(model_type)
    g = torch.Generator().manual_seed(1)
    a, b = torch.randint(5, 400, (1, 24), generator=g), torch.randint(5, 400, (1, 15), generator=g)
    batch = torch.cat([a, torch.cat([b, torch.zeros(1, 9, dtype=torch.long)], 1)])
    mask = torch.cat([torch.ones(1, 24), torch.cat([torch.ones(1, 15), torch.zeros(1, 9)], 1)])
    got = _stats(model, batch, mask.long())
    alone = _stats(model, a).merge(_stats(model, b))
    for name in got.order:
        g_, w = got.layers[name], alone.layers[name]
        assert np.array_equal(g_.rows, w.rows) and g_.rows[0] == 24 + 15
        for f in ("pmax_sum", "ent_sum", "dist_sum"):
            np.testing.assert_allclose(getattr(g_, f), getattr(w, f), rtol=0, atol=2e-5)
    # without the mask the padded rows would count: the batch would have 48 rows a head
    assert got.layers[got.order[0]].rows[0] != 48


def test_module_calling_attention_twice_counts_once():
    model = _model("diffllama")
    ids = torch.arange(5, 35)[None]
    st = AttentionStats()
    with torch.no_grad(), capture(model, stats=st) as session:
        model(ids)
    assert session.calls == len(st.order) == 2
    assert all(st.layers[n].rows[0] == 30 for n in st.order)


def test_sink_mass_is_reported_and_is_the_missing_mass():
    """GPT-OSS: the sink's mean mass equals 1 - the mean row sum of the eager weights."""
    model = _model("gpt_oss", layer_types=["full_attention", "full_attention"])
    with torch.no_grad():
        model.layers[0].self_attn.sinks.normal_(0, 2.0)
    ids = torch.arange(5, 35)[None]
    st = _stats(model, ids)
    model.set_attn_implementation("eager")
    with torch.no_grad():
        att = model(ids, output_attentions=True).attentions
    for name, a in zip(st.order, att):
        want = 1 - a.double().sum(-1).mean((0, 2)).numpy()
        got = st.layers[name].summary()["per_head"]["sink_mass"]
        np.testing.assert_allclose(got, want, atol=1e-6)
        assert max(want) > 0.05  # the planted sinks take visible mass


def test_softmax_over_other_rows_is_refused_by_name():
    class Odd(torch.nn.Module):  # attention over 3 "global" rows of a 6-token input
        def forward(self, x):
            g = x[:, None, :3]
            return torch.nn.functional.softmax(g @ x[:, None].transpose(-1, -2), -1) @ x[:, None]

    class Attention(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = Odd()

        def forward(self, x):
            return self.inner(x)

    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.config = transformers.PretrainedConfig()
            self.attn = Attention()

        def forward(self, x):
            return self.attn(x)

    m = Model()
    m.attn.__class__.__name__ = "OddAttention"
    with pytest.raises(CaptureUnsupported, match="OddAttention"):
        with capture(m):
            m(torch.randn(1, 6, 4))


def test_longt5_transient_global_rows():
    """LongT5 transient-global (42 tokens, blocks of 4, global blocks of 4: tokens 40-41
    join the last full block): P_max and entropy of every row equal those of the eager
    weights over local and global keys; the distance of a global key is the mean
    |i - j| over the tokens of its block (docs/guide/capture.md), computed here."""
    torch.manual_seed(0)
    cfg = tiny_config(
        "longt5", encoder_attention_type="transient-global", local_radius=3, global_block_size=4
    )
    model = transformers.LongT5EncoderModel(cfg).eval()
    n = 42
    ids = torch.randint(5, 400, (1, n), generator=torch.Generator().manual_seed(2))
    st = _stats(model, ids)
    with torch.no_grad():
        att = model(ids, output_attentions=True).attentions
    for name, a in zip(st.order, att):
        bsz, nb, h, bl, kk = a.shape
        p = a.double().permute(0, 2, 1, 3, 4).reshape(bsz, h, nb * bl, kk)[:, :, :n]
        i = torch.arange(n)[:, None]
        local = (i // bl * bl - bl) + torch.arange(3 * bl)[None, :]
        d_local = (local - i).abs().double()
        g = kk - 3 * bl
        block = torch.clamp(torch.arange(n) // 4, max=n // 4 - 1)
        d_glob = torch.stack(
            [
                (i - torch.nonzero(block == b)[:, 0][None, :]).abs().double().mean(1)
                for b in range(g)
            ],
            1,
        )
        dist = torch.cat([d_local, d_glob], 1)
        ls = st.layers[name]
        assert ls.rows[0] == n
        np.testing.assert_allclose(ls.pmax_sum / n, p.amax(-1).mean((0, 2)), atol=1e-6)
        ent = torch.special.entr(p).sum(-1).mean((0, 2))
        np.testing.assert_allclose(ls.ent_sum / n, ent, atol=1e-6)
        np.testing.assert_allclose(ls.mean_distance(), (p * dist).sum(-1).mean((0, 2)), atol=1e-4)
