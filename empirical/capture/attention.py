"""One attention call of a captured module: its output and the statistics of its rows.

:func:`attend` is where every route into the capture ends (the attention interface,
the swapped ``scaled_dot_product_attention``); it picks one of four paths per call:

* calls that need gradients: :func:`~empirical.capture.blocked.attend_reference`;
* calls without a bias, with no mask other than causal or a causal sliding window
  (:func:`plain_structure`), whose rows are not needed whole (no per-offset mass or
  sorted rows): the fused Triton kernel (:mod:`~empirical.capture.fused_path`) on CUDA,
  else, when causal, the tiled causal path (:mod:`~empirical.capture.tiled_causal`);
* everything else: the blocked path (:mod:`~empirical.capture.blocked`).
"""

from __future__ import annotations

import torch

from empirical.capture.attention_call import Accumulator, prepare_call
from empirical.capture.blocked import attend_blocked, attend_reference
from empirical.capture.fused_path import attend_fused, fused_wanted
from empirical.capture.state import CaptureSession
from empirical.capture.tiled_causal import attend_causal


def plain_structure(
    mask: torch.Tensor | None,
    bias: torch.Tensor | None,
    causal: bool,
    window: int | None,
    lq: int,
    lk: int,
) -> tuple[bool, int | None] | None:
    """``(causal, window)`` of a call that sees all keys, the causal ones, or a causal
    sliding window (``window`` None for none), with no bias: no mask, or a boolean mask
    that is exactly causal or exactly the causal window.  None for anything else (a bias,
    padding, another mask, an empty call): those calls take the blocked path."""
    if bias is not None or min(lq, lk) == 0:
        return None
    if mask is None:
        return causal, None
    span = window if window is not None and window < lq else None  # None: plain causal
    if lq <= lk and _only_window(mask, span or lk, lq, lk):
        return True, span  # (every row sees at least its own key)
    return None


def attend(
    session: CaptureSession,
    name: str,
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    mask: torch.Tensor | None = None,
    bias: torch.Tensor | None = None,
    scale: float | None = None,
    causal: bool = False,
    softcap: float | None = None,
    window: int | None = None,
) -> torch.Tensor:
    """softmax(l) V of the module ``name`` (query (B, H, Lq, d), key/value (B, H, Lk, .),
    same head count) with its statistics sent to ``session.stats``; ``mask`` boolean
    (True = attend) or additive float; ``window`` the module's sliding window (used only
    to recognise a mask that is nothing else).  Returns (B, H, Lq, dv) in the query's
    dtype."""
    tau = session.config.tau_for(name)
    scale = query.shape[-1] ** -0.5 if scale is None else scale
    session.calls += 1
    session.state.hit = True
    if torch.is_grad_enabled() and any(
        t is not None and t.requires_grad for t in (query, key, value, bias)
    ):
        return attend_reference(
            session, name, query, key, value, mask, bias, scale, causal, softcap, tau
        )
    st = session.stats
    plain = None
    if not (st and (st.wants_mass(name) or st.wants_sorted(name))):  # rows not needed whole
        plain = plain_structure(mask, bias, causal, window, query.shape[2], key.shape[2])
    if plain is not None and fused_wanted(session, query):
        return attend_fused(session, name, query, key, value, scale, softcap, *plain)
    tiled = plain is not None and plain[0]
    c = prepare_call(query, key, value, mask, bias, scale, tau, causal, softcap, tiled=tiled)
    bsz, heads, lq, lk = c.shape
    out = c.q.new_empty(bsz * heads, lq, c.dv)
    acc = Accumulator(st, name, c.shape, c.q.device) if st is not None else None
    if tiled:
        attend_causal(session, c, out, acc, plain[1])
    else:
        attend_blocked(session, name, c, out, acc)
    if acc is not None:
        acc.flush()
    return out.view(bsz, heads, lq, c.dv).to(query.dtype)


def _only_window(mask: torch.Tensor, causal_window: int | None, lq: int, lk: int) -> bool:
    """Whether a boolean ``mask`` (B or 1, 1, Lq, Lk) is exactly the causal sliding window
    ``i - w < j <= i`` for every batch row (no padding), checked in slabs of rows."""
    if causal_window is None or mask.dtype != torch.bool or mask.shape[1] != 1:
        return False
    if tuple(mask.shape[-2:]) != (lq, lk):
        return False
    j = torch.arange(lk, device=mask.device)[None, :]
    for r0 in range(0, lq, 1024):
        i = torch.arange(r0, min(lq, r0 + 1024), device=mask.device)[:, None]
        want = (j <= i) & (j > i - causal_window)
        if not bool((mask[..., r0 : r0 + 1024, :] == want).all()):
            return False
    return True
