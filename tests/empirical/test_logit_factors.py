"""Per-query logit factors of the tiny LM (log_n, CosScale, inference temperature and
InfoScale), the window statistics and the seed intervals the agreement tests use."""

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from empirical.agreement.contrast import seed_interval  # noqa: E402
from empirical.training.tiny_lm import LMConfig, TinyLM  # noqa: E402
from empirical.training.window_stats import row_stats, window_logits  # noqa: E402
from theory.infoscale.infoscale import infoscale  # noqa: E402

pytestmark = pytest.mark.empirical
M = 8
SMALL = dict(n_layer=2, n_head=2, d_model=32, d_ff=64, train_len=M)


def model(**kw):
    return TinyLM(LMConfig(**{**SMALL, **kw})).eval()


# (model kwargs, inference rule, tau, g_i for query i = 0..11 from the definitions)
CASES = [
    ({}, "none", 1.0, None),
    (
        {"attn_scale": "log_n"},
        "none",
        1.0,
        [math.log(max(i + 1, 2)) / math.log(M) for i in range(12)],
    ),
    ({}, "tau", 0.5, [1.0] * M + [2.0] * 4),
    ({}, "log_n", 1.0, [1.0] * M + [math.log(i + 1) / math.log(M) for i in range(M, 12)]),
    ({}, "infoscale", 1.0, [1.0] * M + [infoscale(i + 1, M, 16) for i in range(M, 12)]),
]


@pytest.mark.parametrize("kw,rule,tau,want", CASES)
def test_query_factors(kw, rule, tau, want):
    g = model(**kw).set_inference(rule, tau).query_factors(12)
    if want is None:
        assert g is None
    else:
        np.testing.assert_allclose(g.numpy(), want, rtol=1e-6)


@pytest.mark.parametrize(
    "kw", [{"attn_scale": "log_n"}, {"rpe": "none", "attn_scale": "cosscale", "cos_alpha": 16.0}]
)
def test_scaled_models_have_finite_loss_and_gradients(kw):
    m = model(seed=4, **kw).train()
    loss = m.loss(torch.randint(0, 256, (2, 2 * M)))
    loss.backward()
    assert torch.isfinite(loss) and all(
        torch.isfinite(p.grad).all() for p in m.parameters() if p.grad is not None
    )


def test_inference_rule_leaves_training_positions_unchanged():
    """Rules act only on queries that see more than m keys: logits at i < m are equal."""
    m = model(seed=3)
    x = torch.randint(0, 256, (2, 3 * M))
    with torch.no_grad():
        a = m.set_inference("none")(x)
        b = m.set_inference("tau", 0.3)(x)
    assert torch.allclose(a[:, :M], b[:, :M], atol=1e-6)
    assert (a[:, M:] - b[:, M:]).abs().max() > 1e-4


def test_cosscale_logits_are_alpha_cosines():
    """CosScale (InfoScale paper Eqs. 6-7): |logit| <= alpha and the diagonal of
    identical q, k rows would be alpha; here: bounded by alpha, not by q.k/sqrt(d)."""
    m = model(rpe="none", attn_scale="cosscale", cos_alpha=5.0, seed=1)
    rows = window_logits(m, torch.randint(0, 256, (64,)), 16, 4)
    fin = rows[np.isfinite(rows)]
    assert np.abs(fin).max() <= 5.0 + 1e-5


def test_window_stats_match_softmax_of_probs():
    """Entropy from the window logits equals -sum p log p of the model's own probs."""
    m = model(seed=2)
    tok = torch.randint(0, 256, (64,))
    rows = window_logits(m, tok, 16, 4)
    with torch.no_grad():
        _, probs = m(torch.stack([tok[c * 16 : (c + 1) * 16] for c in range(4)]), want_probs=True)
    p = probs[0][:, :, 12:, :].double()
    h = float(-(p * torch.log(p.clamp(min=1e-300))).sum(-1).mean())
    assert abs(row_stats(rows[0])["entropy"] - h) < 1e-5


@pytest.mark.parametrize(
    "values,level,half",
    [
        ([1.0, 2.0, 3.0], 0.95, 4.302652729749464 / math.sqrt(3)),  # t_{0.975, 2} (scipy, tables)
        ([0.0, 1.0], 0.90, 6.313751514675041 * math.sqrt(0.5) / math.sqrt(2)),  # t_{0.95, 1}
    ],
)
def test_seed_interval(values, level, half):
    iv = seed_interval(values, level)
    assert abs((iv.hi - iv.lo) / 2 - half) < 1e-9 and iv.n == len(values)


def test_seed_interval_rejects_one_seed():
    with pytest.raises(ValueError):
        seed_interval([1.0])
