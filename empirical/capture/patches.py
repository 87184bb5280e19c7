"""``softmax`` and ``scaled_dot_product_attention`` swapped while a capture is open.

Modules that materialise their softmax instead of calling an attention function
(eager-only modules: BLOOM, MPT, GPT-J, GPT-Neo; LongT5's blocks) are captured through
``torch.nn.functional.softmax``, ``torch.softmax`` and ``Tensor.softmax``: the first
attention-shaped softmax inside a captured module that has not gone through the capture
is that module's attention (:func:`~empirical.capture.routing.softmax_session`), counted
by :func:`~empirical.capture.materialised.softmax_with_stats`.  Falcon's direct
``torch.nn.functional.scaled_dot_product_attention`` call is routed to
:func:`~empirical.capture.attention.attend`.  Every other call goes to torch's own
function (:class:`~empirical.capture.registry.Originals`).  :func:`softmax_swapped` and
:func:`sdpa_swapped` install the swaps for one session and put torch's functions back
when the last session using them closes.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch
from transformers.integrations.sdpa_attention import repeat_kv

from empirical.capture.attention import attend
from empirical.capture.materialised import softmax_with_stats
from empirical.capture.registry import REGISTRY
from empirical.capture.routing import sdpa_session, softmax_session
from empirical.capture.state import CaptureSession, CaptureUnsupported


def _softmax_proxy(x, dim=None, _stacklevel=3, dtype=None):
    """``torch.nn.functional.softmax`` while a capture is open (also ``torch.softmax``
    and ``Tensor.softmax``): attention softmaxes of captured modules go to
    :func:`~empirical.capture.materialised.softmax_with_stats`, everything else to the original."""
    s = softmax_session(x, dim)
    if s is None:
        return REGISTRY.originals.softmax(x, dim=dim, _stacklevel=_stacklevel, dtype=dtype)
    s.state.hit = True
    s.calls += 1
    s.state.busy = True
    try:
        return softmax_with_stats(s, s.state.current, x).to(dtype or x.dtype)
    finally:
        s.state.busy = False


def _torch_softmax_proxy(x, dim, dtype=None, **kw):
    if softmax_session(x, dim) is None:
        return REGISTRY.originals.torch_softmax(x, dim, dtype=dtype, **kw)
    return _softmax_proxy(x, dim, dtype=dtype)


def _tensor_softmax_proxy(self, dim, dtype=None, **kw):
    if softmax_session(self, dim) is None:
        return REGISTRY.originals.tensor_softmax(self, dim, dtype=dtype, **kw)
    return _softmax_proxy(self, dim, dtype=dtype)


def _sdpa_proxy(
    query,
    key,
    value,
    attn_mask=None,
    dropout_p=0.0,
    is_causal=False,
    scale=None,
    enable_gqa=False,
    **kw,
):
    """``F.scaled_dot_product_attention`` while a capture of a model that calls it
    directly (Falcon) is open: calls made inside a captured module go to
    :func:`~empirical.capture.attention.attend`."""
    s = sdpa_session()
    if s is not None:
        if dropout_p:
            raise CaptureUnsupported(f"{s.config.model_class}: capture is for inference")
        n_rep = query.shape[1] // key.shape[1]
        key, value = repeat_kv(key, n_rep), repeat_kv(value, n_rep)
        s.state.busy = True
        try:
            return attend(
                s,
                s.state.current,
                query,
                key,
                value,
                attn_mask,
                None,
                scale,
                bool(is_causal) and attn_mask is None,
            )
        finally:
            s.state.busy = False
    return REGISTRY.originals.sdpa(
        query,
        key,
        value,
        attn_mask=attn_mask,
        dropout_p=dropout_p,
        is_causal=is_causal,
        scale=scale,
        enable_gqa=enable_gqa,
        **kw,
    )


@contextmanager
def softmax_swapped(session: CaptureSession) -> Iterator[None]:
    """``torch.nn.functional.softmax``, ``torch.softmax`` and ``Tensor.softmax``
    routed through the capture for ``session``; torch's own back when no capture is
    left using them."""
    REGISTRY.softmax_sessions.append(session)
    torch.nn.functional.softmax = _softmax_proxy
    torch.softmax = _torch_softmax_proxy
    torch.Tensor.softmax = _tensor_softmax_proxy
    try:
        yield
    finally:
        REGISTRY.softmax_sessions.remove(session)
        if not REGISTRY.softmax_sessions:
            torch.nn.functional.softmax = REGISTRY.originals.softmax
            torch.softmax = REGISTRY.originals.torch_softmax
            torch.Tensor.softmax = REGISTRY.originals.tensor_softmax


@contextmanager
def sdpa_swapped(session: CaptureSession) -> Iterator[None]:
    """``torch.nn.functional.scaled_dot_product_attention`` routed through the capture
    for ``session`` (a model that calls it directly); torch's own back when no capture is
    left using it."""
    REGISTRY.sdpa_sessions.append(session)
    torch.nn.functional.scaled_dot_product_attention = _sdpa_proxy
    try:
        yield
    finally:
        REGISTRY.sdpa_sessions.remove(session)
        if not REGISTRY.sdpa_sessions:
            torch.nn.functional.scaled_dot_product_attention = REGISTRY.originals.sdpa
