"""Which open capture, and which of its modules, an attention call belongs to.

Captures nest (a capture may be opened while another is open, on the same model or
another), and the swapped ``softmax`` and ``scaled_dot_product_attention`` are
process-wide: each call asks :data:`~empirical.capture.registry.REGISTRY` which session
it belongs to, by its module (:func:`module_session`: the attention interface), or by the
module a session's hooks say is running and has not yet gone through the capture
(:func:`softmax_session`, :func:`sdpa_session`).
"""

from __future__ import annotations

from typing import Any

import torch

from empirical.capture.registry import REGISTRY
from empirical.capture.state import CaptureSession, CaptureUnsupported


def module_session(module: torch.nn.Module) -> tuple[CaptureSession, str] | None:
    """``(session, name)`` of a captured attention module, None outside any capture."""
    return REGISTRY.modules.get(id(module))


def softmax_session(x: Any, dim: Any) -> CaptureSession | None:
    """The open capture whose current module has not yet gone through the capture, when
    ``x`` looks like attention logits (4-D, LongT5's 5-D blocks, or (B * H, L, K) of a
    module with ``num_heads`` heads: :func:`folded_heads`; softmax over the last
    dimension)."""
    if not isinstance(x, torch.Tensor) or x.ndim < 3 or dim not in (-1, x.ndim - 1):
        return None
    for s in REGISTRY.softmax_sessions:
        if s.state.current is None or s.state.busy:
            continue
        if x.ndim == 3:  # (B * H, L, K) of a module that folds its heads into the batch
            if s.state.hit or folded_heads(s.modules.get(s.state.current), x) is None:
                continue
            return s
        if not s.state.hit:
            return s
        mod = s.modules.get(s.state.current)
        raise CaptureUnsupported(
            f"{s.config.model_class}: attention module {s.state.current!r} "
            f"({type(mod).__name__}) "
            f"computes another softmax of shape {tuple(x.shape)} after its attention "
            "(two sets of rows in one module, such as global tokens' and local blocks'); "
            "not supported"
        )
    return None


def folded_heads(mod: torch.nn.Module | None, x: torch.Tensor) -> int | None:
    """The module's head count ``H`` when ``x`` is (B * H, L, K) logits of it (the heads
    folded into the batch, as XGLM, FSMT and MVP compute ``bmm(q, k^T)``), else None."""
    heads = getattr(mod, "num_heads", None)
    if not isinstance(heads, int) or heads < 1 or x.ndim != 3 or x.shape[0] % heads:
        return None
    return heads


def keys_beside(session: CaptureSession, name: str, lq: int, lk: int) -> bool:
    """Whether a module's ``lq`` query rows see ``lk`` keys that are not one sequence's
    positions: more or fewer keys than queries outside an encoder-decoder model's
    decoder (prefix or prompt keys, memory, a cache, patches), or, in the decoder,
    neither its own ``lq`` keys nor the encoder's input (a cross-attention)."""
    if lk == lq:
        return False
    dec = session.config.cross_attention and session.row_side.get(name) == "dec"
    return not (dec and session.state.input_len in (None, lk))


def sdpa_session() -> CaptureSession | None:
    """The open capture with ``scaled_dot_product_attention`` swapped whose current
    module has not yet gone through the capture (its direct sdpa call is its attention)."""
    for s in REGISTRY.sdpa_sessions:
        if s.state.current is not None and not s.state.hit:
            return s
    return None
