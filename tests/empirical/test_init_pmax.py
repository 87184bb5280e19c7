"""The P_max experiment at initial weights: the byte logit table is the first layer's
logits, the rows are brought to the requested std, and the candidates are computed."""

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from empirical.agreement.align import pmax_candidates  # noqa: E402
from empirical.training.tiny_lm import LMConfig, TinyLM  # noqa: E402
from empirical.training.window_stats import (  # noqa: E402
    byte_logit_table,
    window_logits,
    window_pmax_by_scale,
    window_start,
)

CFG = dict(rpe="none", train_len=16, n_layer=2, d_model=16, n_head=2, d_ff=32)


def test_byte_table_is_the_first_layer_logits():
    lm = TinyLM(LMConfig(**CFG)).eval()
    tokens = torch.randint(0, 256, (3 * 16,), generator=torch.Generator().manual_seed(1))
    rows = window_logits(lm, tokens, 16, 3)[0]  # (H, rows, L)
    table = byte_logit_table(lm).numpy()
    chunks = tokens.view(3, 16)
    q = chunks[:, window_start(16) :].reshape(-1).numpy()
    for r, (c, i) in enumerate((c, i) for c in range(3) for i in range(window_start(16), 16)):
        keys = chunks[c, : i + 1].numpy()
        np.testing.assert_allclose(rows[:, r, : i + 1], table[:, q[r]][:, keys], atol=1e-5)
        assert np.all(np.isneginf(rows[:, r, i + 1 :]))


@pytest.mark.parametrize("kw", [dict(rpe="alibi"), dict(attn_scale="cosscale", cos_alpha=4.0)])
def test_byte_table_needs_a_dot_product_nope_model(kw):
    lm = TinyLM(LMConfig(**{**CFG, **kw}))
    with pytest.raises(ValueError, match="dot-product NoPE"):
        byte_logit_table(lm)


def test_rows_get_the_requested_std():
    lm = TinyLM(LMConfig(**CFG)).eval()
    tokens = torch.randint(0, 256, (64 * 16,), generator=torch.Generator().manual_seed(2))
    r = window_pmax_by_scale(lm, tokens, 16, 64, [0.5, 2.0])
    for head in r["sigma"]:  # sample std of 13..16 draws: near the population std
        assert 0.4 < head[0] < 0.55 and 1.6 < head[1] < 2.2
    assert all(h[0] < h[1] for h in r["pmax"])


def test_pmax_candidates_near_uniform():
    c = pmax_candidates([7, 8], 1e-4)
    uniform = (1 / 7 + 1 / 8) / 2
    assert math.isclose(c["Gaussian E[P_max]"], uniform, rel_tol=1e-3)
    assert math.isclose(c["E[P_max] halved"], uniform / 2, rel_tol=1e-3)
    assert math.isclose(c["uniform 1/L"], uniform, rel_tol=1e-12)
    # N^L for N^(L-1): L/(L+1) E[P_max](L+1) -> L/(L+1)^2 per row at s -> 0
    assert math.isclose(c["N^L for N^(L-1)"], (7 / 64 + 8 / 81) / 2, rel_tol=1e-3)
