"""Attention statistics of a trained tiny LM (``empirical.training.tiny_lm``) in a query window.

For an inference length ``L`` the *window* is the last quarter of each test chunk,
queries ``i in [3L/4, L)``: each sees between ``3L/4 + 1`` and ``L`` keys (causal mask),
so the statistics describe attention "at length L".  For every layer and head this
module measures, averaged over the window's rows (attention-alignment paper, Sec. 3):

* ``entropy``  :math:`H = -\\sum_j p_{ij}\\log p_{ij}` and ``pmax`` :math:`\\max_j p_{ij}`;
* ``sigma``    the standard deviation of the logits of a row over its visible keys
  (the paper's :math:`\\sigma`, Assumption 1: logits ~ N(mu, sigma^2));
* ``keys``     the mean number of visible keys (the ``L`` of the Gaussian-logit theory).

:func:`window_logits` also returns the raw rows (for Algorithm 1), and
:func:`weighted_cosines` the cosines :math:`\\eta_{ij}` of a CosScale model with the
unnormalised attention :math:`e^{\\alpha\\eta_{ij}}` as weights (InfoScale paper Eq. 16), and
:func:`window_entropy_by_scale` the window entropy of ``softmax(a cos)`` for a sweep of
logit scales ``a`` with the cosines held fixed (the ``H(n, alpha)`` of Eq. 9).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import torch
import torch.nn.functional as F

from theory.temperature.rules import softmax_pmax_entropy

if TYPE_CHECKING:
    from empirical.training.tiny_lm import TinyLM


def window_start(L: int) -> int:
    """First query of the window at length L.

    >>> window_start(32), window_start(7)
    (24, 5)
    """
    return (3 * L) // 4


@torch.no_grad()
def window_logits(model: TinyLM, tokens: torch.Tensor, L: int, n_chunks: int) -> np.ndarray:
    """(layers, heads, rows, L) attention logits of the window's queries (``-inf`` on
    masked keys), ``n_chunks`` consecutive test chunks of length L, with the model's
    current inference rule applied."""
    q0, per_layer = window_start(L), []
    chunks = [tokens[c * L : (c + 1) * L] for c in range(n_chunks)]
    if len(chunks[-1]) < L:
        raise ValueError(f"test split too short for {n_chunks} chunks of {L}")
    x, _, bias, g = model.hidden(torch.stack(chunks), upto=0)
    for blk in model.blocks:
        logits, _ = blk.attn.scores(blk.ln1(x), bias, g)  # (C, H, L, L)
        rows = logits[:, :, q0:, :].permute(1, 0, 2, 3).reshape(logits.shape[1], -1, L)
        per_layer.append(rows.double().numpy())
        x, _ = blk(x, bias, False, g)
    return np.stack(per_layer)


def row_stats(rows: np.ndarray) -> dict:
    """Mean entropy, pmax, sigma and key count of logit rows (..., L) with -inf masks.

    Rows: two equal keys (H = ln 2, sigma 0) and logits (1, -1, 0) (H = 0.83240,
    sigma = sqrt(2/3)); the means are (ln 2 + 0.83240)/2 and sqrt(2/3)/2:

    >>> r = row_stats(np.array([[0.0, 0.0, -np.inf], [1.0, -1.0, 0.0]]))
    >>> round(r["entropy"], 4), round(r["keys"], 2), round(r["sigma"], 4)
    (0.7628, 2.5, 0.4082)
    """
    pmax, H = softmax_pmax_entropy(rows)
    finite = np.isfinite(rows)
    k = finite.sum(-1)
    x = np.where(finite, rows, 0.0)
    mu = x.sum(-1) / k
    var = (np.where(finite, (x - mu[..., None]) ** 2, 0.0)).sum(-1) / k
    return {
        "entropy": float(np.mean(H)),
        "pmax": float(np.mean(pmax)),
        "sigma": float(np.sqrt(var).mean()),
        "keys": float(k.mean()),
    }


def per_head_stats(logits: np.ndarray) -> list[dict]:
    """:func:`row_stats` for each (layer, head) of :func:`window_logits`' output."""
    return [
        {"layer": l, "head": h, **row_stats(logits[l, h])}
        for l in range(logits.shape[0])
        for h in range(logits.shape[1])
    ]


@torch.no_grad()
def cosine_rows(
    model: TinyLM, tokens: torch.Tensor, L: int, n_chunks: int, layer: int = 0
) -> torch.Tensor:
    """(chunks, heads, L, L) cosines :math:`\\eta_{ij}` of the queries and keys of one layer
    of a CosScale model (``nan`` on masked keys ``j > i``)."""
    if not model.cfg.cos_alpha:
        raise ValueError("cosines need a CosScale model (attn_scale='cosscale')")
    chunks = [tokens[c * L : (c + 1) * L] for c in range(n_chunks)]
    if len(chunks[-1]) < L:
        raise ValueError(f"test split too short for {n_chunks} chunks of {L}")
    x, _, _, _ = model.hidden(torch.stack(chunks), upto=layer)
    att = model.blocks[layer].attn
    B, _, D = x.shape
    q, k, _ = att.qkv(model.blocks[layer].ln1(x)).split(D, dim=-1)
    q, k = (F.normalize(z.view(B, L, att.h, att.dh), dim=-1).transpose(1, 2) for z in (q, k))
    cos = (q @ k.transpose(-1, -2)).double()  # (B, H, L, L)
    return cos.masked_fill(~torch.ones(L, L, dtype=torch.bool).tril(), float("nan"))


@torch.no_grad()
def weighted_cosines(
    model: TinyLM, tokens: torch.Tensor, L: int, n_chunks: int, layer: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """Cosines of all causal (query, key) pairs of one layer of a CosScale model and the
    weights :math:`e^{\\alpha(\\eta - 1)}` (Eq. 16's :math:`a_{ij}` up to a constant)."""
    cos = cosine_rows(model, tokens, L, n_chunks, layer)
    eta = cos[..., torch.ones(L, L, dtype=torch.bool).tril()].reshape(-1).numpy()
    return eta, np.exp(model.cfg.cos_alpha * (eta - 1.0))


@torch.no_grad()
def window_entropy_by_scale(
    model: TinyLM,
    tokens: torch.Tensor,
    L: int,
    n_chunks: int,
    alphas: Sequence[float],
    layer: int = 0,
) -> list[float]:
    """Mean entropy of the window's rows of ``softmax(a cos(q_i, k_j))`` over the causal
    keys, for each logit scale ``a`` of ``alphas`` (one layer of a CosScale model; the
    query-key cosines held fixed: the entropy ``H(n, a)`` of InfoScale paper Eq. 9).

    At ``a = 0`` every row is uniform: the mean of ``log(keys)`` (queries 6, 7 of L = 8):

    >>> from empirical.training.tiny_lm import LMConfig, TinyLM
    >>> lm = TinyLM(LMConfig(rpe="none", attn_scale="cosscale", cos_alpha=4.0, train_len=8,
    ...                      n_layer=1, d_model=16, n_head=2, d_ff=32))
    >>> h = window_entropy_by_scale(lm, torch.arange(16), 8, 2, [0.0, 4.0])
    >>> bool(abs(h[0] - (np.log(7) + np.log(8)) / 2) < 1e-12), h[1] < h[0]
    (True, True)
    """
    cos = cosine_rows(model, tokens, L, n_chunks, layer)[:, :, window_start(L) :, :]
    out = []
    for a in alphas:
        logp = torch.log_softmax((a * cos).nan_to_num(nan=float("-inf")), dim=-1)
        out.append(float(-(logp.exp() * logp.nan_to_num(neginf=0.0)).sum(-1).mean()))
    return out


@torch.no_grad()
def byte_logit_table(model: TinyLM) -> torch.Tensor:
    """(heads, V, V) first-layer attention logits of every query token against every key
    token of a dot-product NoPE model: there a key (and a query) of layer 0 is a function
    of its token alone, so a row of :func:`window_logits` (layer 0) is this table's row of
    the query's token read at the key tokens."""
    cfg = model.cfg
    if cfg.rpe != "none" or cfg.attn_scale != "none":
        raise ValueError(
            f"the byte logit table needs a dot-product NoPE model, got rpe={cfg.rpe!r}, "
            f"attn_scale={cfg.attn_scale!r}"
        )
    V, blk = cfg.vocab_size, model.blocks[0]
    x = model.emb(torch.arange(V))[None]
    logits, _ = blk.attn.scores(blk.ln1(x), torch.zeros(cfg.n_head, V, V), None)
    return logits[0].double()


@torch.no_grad()
def window_pmax_by_scale(
    model: TinyLM, tokens: torch.Tensor, L: int, n_chunks: int, scales: Sequence[float]
) -> dict:
    """Mean P_max of the window's first-layer rows of a dot-product NoPE model, each row
    divided by its query's population logit std (the std of :func:`byte_logit_table`'s
    row: the keys' tokens drawn uniformly) and multiplied by each ``s`` of ``scales``, so
    that the row's logits are draws with std ``s`` (the attention-alignment paper's
    sigma); per head: ``pmax[head][scale]`` and the rows' sample std ``sigma[head][scale]``.

    At a tiny scale every row is near uniform, P_max near the mean of 1/keys:

    >>> from empirical.training.tiny_lm import LMConfig, TinyLM
    >>> lm = TinyLM(LMConfig(rpe="none", train_len=8, n_layer=1, d_model=16, n_head=2,
    ...                      d_ff=32))
    >>> r = window_pmax_by_scale(lm, torch.arange(16) % 5, 8, 2, [1e-9, 1.0])
    >>> bool(abs(r["pmax"][0][0] - (1 / 7 + 1 / 8) / 2) < 1e-9), r["pmax"][0][1] > 1 / 7
    (True, True)
    """
    pop = byte_logit_table(model).std(dim=-1, unbiased=False).numpy()  # (H, V)
    rows = window_logits(model, tokens, L, n_chunks)[0]  # layer 0: (H, rows, L)
    chunks = tokens[: n_chunks * L].view(n_chunks, L)
    query = chunks[:, window_start(L) :].reshape(-1).numpy()  # row order of window_logits
    z = rows / pop[:, query][..., None]  # population std 1 per row
    out = {"pmax": [], "sigma": []}
    for h in range(z.shape[0]):
        p, s = [], []
        for a in scales:
            p.append(float(np.mean(softmax_pmax_entropy(a * z[h])[0])))
            s.append(row_stats(a * z[h])["sigma"])
        out["pmax"].append(p)
        out["sigma"].append(s)
    return out
