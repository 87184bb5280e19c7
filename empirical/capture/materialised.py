"""Statistics of a softmax that a captured module materialises itself.

Eager-only modules (BLOOM, MPT, GPT-J, GPT-Neo; LongT5's local and transient-global
blocks) compute their attention logits and call ``softmax``; the swapped ``softmax``
(:mod:`~empirical.capture.patches`) hands the first such call of a module to
:func:`softmax_with_stats`, which returns the model's own probabilities and counts every
row by :func:`empirical.capture.softmax_rows.record_rows`: key ``j`` at position ``j``
for (B, H, L, K) logits (or (B * H, L, K) of a module that folds its heads into the
batch: XGLM, FSMT, MVP), LongT5's blocks and Longformer's sliding-window bands at their
tokens' positions.  A softmax whose
rows are not the module's query positions raises
:class:`~empirical.capture.state.CaptureUnsupported`.
"""

from __future__ import annotations

import torch

from empirical.capture import softmax_rows
from empirical.capture.registry import REGISTRY
from empirical.capture.routing import folded_heads, keys_beside
from empirical.capture.state import CaptureSession, CaptureUnsupported


def softmax_with_stats(session: CaptureSession, name: str, x: torch.Tensor) -> torch.Tensor:
    """softmax(x / tau) of logits that a module materialised, with the statistics of
    every row: (B, H, L, K) with key ``j`` at position ``j``, or LongT5's blocked local
    (and transient-global) layout (B, nb, H, bl, K).  Entries at most half the dtype's
    minimum (or below -1e9) count as masked."""
    mod = session.modules.get(name)
    heads = folded_heads(mod, x)
    if heads is not None:  # (B * H, L, K): the same rows as (B, H, L, K)
        p = softmax_with_stats(session, name, x.reshape(-1, heads, *x.shape[1:]))
        return p.reshape(x.shape)
    tau = session.config.tau_for(name)
    lg = softmax_rows.masked_to_inf(x, tau)
    if x.ndim == 5 and hasattr(mod, "block_len") and x.shape[-2] == mod.block_len:
        return _blocked_softmax(session, name, mod, x, lg, tau)
    band = getattr(mod, "one_sided_attn_window_size", None)
    if x.ndim == 4 and isinstance(band, int) and x.shape[-1] == 2 * band + 1:
        return _banded_softmax(session, name, x, lg, tau, band)
    if x.ndim == 4 and isinstance(band, int) and x.shape[-1] > 2 * band + 1:
        raise CaptureUnsupported(
            f"{session.config.model_class}: attention module {name!r} ({type(mod).__name__}) "
            f"has global tokens (a global_attention_mask; Longformer's classification and "
            f"question-answering classes set one on the first or the question's tokens): "
            f"its rows hold {x.shape[-1] - 2 * band - 1} global keys beside the "
            f"{2 * band + 1} of the band, and the global tokens' own rows are a second "
            "softmax over every key; not supported (the model without global attention "
            "is measured: its masked-LM or base class)"
        )
    if x.ndim != 4:
        raise CaptureUnsupported(
            f"{session.config.model_class}: attention module {name!r} ({type(mod).__name__}) "
            f"computes a softmax of shape {tuple(x.shape)} whose key positions are unknown"
        )
    bsz, heads, lq, lk = x.shape
    if keys_beside(session, name, lq, lk):
        pooled = lq < lk and lk == session.state.input_len
        raise CaptureUnsupported(
            f"{session.config.model_class}: attention module {name!r} ({type(mod).__name__}) "
            f"computes a softmax of {lq} query rows over {lk} keys "
            + (
                "(fewer rows than the sequence's positions: pooled queries, such as "
                "Funnel's pooling between blocks); its rows are not the sequence's "
                "positions, not supported"
                if pooled
                else "(keys beside the sequence's, such as prefix or prompt keys, memory "
                "or a cache); its keys are not the sequence's positions, not supported"
            )
        )
    if session.state.seq_len is not None and lq != session.state.seq_len:
        raise CaptureUnsupported(
            f"{session.config.model_class}: attention module {name!r} ({type(mod).__name__}) "
            f"computes a softmax of shape {tuple(x.shape)} whose rows are not its "
            f"{session.state.seq_len} query positions"
        )
    qpos = torch.arange(lq, device=x.device)
    p = softmax_rows.record_rows(
        session.stats,
        name,
        lg,
        qpos,
        softmax_rows.key_positions(qpos, lk),
        row_valid=session.valid_rows(name, bsz, lq),
        raw=lg * tau,
    )
    return _same_as_model(p, lg, x, tau)


def _same_as_model(p: torch.Tensor, lg: torch.Tensor, x: torch.Tensor, tau: float):
    """``p`` where a row has a visible key; the model's own softmax of ``x / tau`` in
    rows it masks whole (their output is kept as the model computes it)."""
    empty = ~torch.isfinite(lg).any(-1)
    if bool(empty.any()):
        p = torch.where(empty[..., None], REGISTRY.originals.softmax(x.float() / tau, dim=-1), p)
    return p


def _blocked_softmax(session, name, mod, x, lg, tau):
    """LongT5's local / transient-global blocks (B, nb, H, bl, K): statistics of the
    rows of the sequence's tokens at their positions."""
    bsz, nb, heads, bl, kk = x.shape
    seq_len = session.state.seq_len or nb * bl
    if session.stats is not None and session.stats.wants_mass(name) and kk > 3 * bl:
        raise CaptureUnsupported(
            f"{session.config.model_class}: no per-offset mass for {type(mod).__name__} "
            "(its global keys stand for blocks of tokens)"
        )
    qpos, kpos, kdist, key_ok = softmax_rows.blocked_local_layout(
        x, bl, seq_len, getattr(mod, "global_block_size", None)
    )
    rows = lg.permute(0, 2, 1, 3, 4).reshape(bsz, heads, nb * bl, kk)
    rows = rows.masked_fill(~key_ok, float("-inf"))[:, :, :seq_len]
    rv = session.valid_rows(name, bsz, seq_len)
    p = softmax_rows.record_rows(
        session.stats,
        name,
        rows,
        qpos[:seq_len],
        kpos[:seq_len],
        row_valid=rv,
        raw=rows * tau,
        kdist=None if kdist is None else kdist[:seq_len],
    )
    full = REGISTRY.originals.softmax(
        x.float() / tau, dim=-1
    )  # padded rows of the last block, as computed
    full = full.permute(0, 2, 1, 3, 4).reshape(bsz, heads, nb * bl, kk).clone()
    keep = torch.isfinite(rows).any(-1, keepdim=True)
    full[:, :, :seq_len] = torch.where(keep, p, full[:, :, :seq_len])
    return full.reshape(bsz, heads, nb, bl, kk).permute(0, 2, 1, 3, 4)


def _banded_softmax(session, name, x, lg, tau, w):
    """Longformer's (and LED's) sliding-window rows (B, L', H, 2w + 1): query ``i`` of
    the input padded to L' (a multiple of the window) and key offsets ``-w .. w``, key
    ``k`` at position ``i - w + k``; the statistics of the rows of the input's tokens,
    keys outside the input masked (the model masks them too: out of range, or padding).
    Rows with global keys in front (``global_attention_mask``) have more than 2w + 1
    columns and are not this layout."""
    bsz, lp, heads, kk = x.shape
    n = min(session.state.input_len or lp, lp)
    qpos = torch.arange(n, device=x.device)
    kpos = qpos[:, None] - w + torch.arange(kk, device=x.device)[None, :]
    inside = (kpos >= 0) & (kpos < n)
    rows = lg.permute(0, 2, 1, 3)[:, :, :n].masked_fill(~inside, float("-inf"))
    p = softmax_rows.record_rows(
        session.stats,
        name,
        rows,
        qpos,
        kpos.clamp(0, max(n - 1, 0)),
        row_valid=session.valid_rows(name, bsz, n),
        raw=rows * tau,
        kdist=(kpos - qpos[:, None]).abs(),
    )
    full = REGISTRY.originals.softmax(x.float() / tau, dim=-1).permute(0, 2, 1, 3).clone()
    keep = torch.isfinite(rows).any(-1, keepdim=True)
    full[:, :, :n] = torch.where(keep, p, full[:, :, :n])
    return full.permute(0, 2, 1, 3)
