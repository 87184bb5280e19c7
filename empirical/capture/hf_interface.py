"""The capture's attention function in transformers' ``AttentionInterface``.

Models using the interface are switched (``set_attn_implementation``) to
``lengthx_capture`` (:data:`CAPTURE_NAME`) while a capture is open:
:func:`capture_attention_forward` sends each call of a captured module to
:func:`~empirical.capture.attention.attend`, or, for modules with an attention sink
(``s_aux``, ``sinks``), to :func:`attend_with_sink`; a module calling the function again
with the same queries and keys is counted once.  :func:`capture_mask` is the matching
mask function.  A tensor argument that the capture does not apply, dropout in training
or keys beside the sequence's (a cache, compressed keys, a cross-attention to patches
outside an encoder-decoder model) raise :class:`~empirical.capture.state.CaptureUnsupported`
naming the module.  The context managers register the functions, route the modules and
switch the model, each undoing itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch
from transformers import AttentionInterface
from transformers.integrations.sdpa_attention import repeat_kv, sdpa_attention_forward
from transformers.masking_utils import AttentionMaskInterface, sdpa_mask

from empirical.capture import softmax_rows
from empirical.capture.attention import attend
from empirical.capture.attention_call import split_mask
from empirical.capture.registry import REGISTRY
from empirical.capture.routing import keys_beside, module_session
from empirical.capture.state import CaptureSession, CaptureUnsupported

CAPTURE_NAME = "lengthx_capture"

# tensors that models pass to the attention function and that do not change its result
# in sdpa or eager attention (positions, flash attention's packing); any other tensor
# argument is refused by name
_PASSIVE_KWARGS = frozenset(
    {
        "position_ids",
        "cache_position",
        "position_embeddings",
        "cu_seq_lens_q",
        "cu_seq_lens_k",
        "max_length_q",
        "max_length_k",
    }
)


def capture_attention_forward(
    module: torch.nn.Module,
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    attention_mask: torch.Tensor | None,
    dropout: float = 0.0,
    scaling: float | None = None,
    is_causal: bool | None = None,
    position_bias: torch.Tensor | None = None,
    softcap: float | None = None,
    s_aux: torch.Tensor | None = None,
    **kwargs: Any,
) -> tuple[torch.Tensor, None]:
    """Attention function for ``AttentionInterface`` (same signature as transformers'
    ``sdpa_attention_forward``); modules outside any ``capture`` context fall back to
    sdpa.  Sliding windows arrive in ``attention_mask``; attention sinks in ``s_aux``
    (:func:`attend_with_sink`).  A module that calls the interface again with the same
    queries and keys (DiffLlama: one call per half of the values) has its rows counted
    once.  Returns ``(attn_output (B, L, H, D), None)``."""
    entry = module_session(module)
    if entry is None:
        return sdpa_attention_forward(
            module,
            query,
            key,
            value,
            attention_mask,
            dropout=dropout,
            scaling=scaling,
            is_causal=is_causal,
            position_bias=position_bias,
            softcap=softcap,
            s_aux=s_aux,
            **kwargs,
        )
    session, name = entry
    if s_aux is None:
        s_aux = kwargs.pop("sinks", None)  # Inkling-2's per-row sinks (B, H, L, 1)
    causal = is_causal if is_causal is not None else getattr(module, "is_causal", True)
    causal = bool(query.shape[2] > 1 and attention_mask is None and causal)
    _check_call(session, name, module, query, key, causal, dropout, kwargs)
    n_rep = query.shape[1] // key.shape[1]
    args = (query, repeat_kv(key, n_rep), repeat_kv(value, n_rep), attention_mask)
    repeat = session.state.hit and session.state.current == name
    session.state.first_qk = session.state.first_qk if repeat else (query, key)
    counting, calls = session.state.counting, session.calls
    if repeat:  # the same softmax rows again: computed, not counted
        session.state.counting = False
    session.state.busy = True
    try:
        if s_aux is not None:
            out = attend_with_sink(
                session, name, *args, scaling, causal, s_aux, position_bias, softcap
            )
        else:
            out = attend(
                session,
                name,
                *args,
                position_bias,
                scaling,
                causal,
                softcap,
                kwargs.get("sliding_window"),
            )
    finally:
        session.state.counting, session.state.busy = counting, False
        if repeat:
            session.calls = calls
    return out.transpose(1, 2).contiguous(), None


def _check_call(session, name, module, query, key, causal, dropout, kwargs) -> None:
    """:class:`~empirical.capture.state.CaptureUnsupported` naming the module for a call the capture would not
    compute as the model does: a tensor argument it does not apply, dropout in training,
    more or fewer keys than queries outside an encoder-decoder model, or a second call
    of the module with other queries or keys."""
    what = f"{session.config.model_class}: attention module {name!r} ({type(module).__name__})"
    unknown = sorted(
        k for k, v in kwargs.items() if isinstance(v, torch.Tensor) and k not in _PASSIVE_KWARGS
    )
    if unknown:
        chosen = any("ind" in k for k in unknown)
        raise CaptureUnsupported(
            f"{what} passes {', '.join(unknown)} to the attention function, which the "
            "capture does not apply"
            + (" (a selection of keys per query: a sparse attention)" if chosen else "")
        )
    if module.training and dropout:
        raise CaptureUnsupported(
            f"{session.config.model_class}: capture is for inference: call model.eval()"
        )
    lq, lk = query.shape[2], key.shape[2]
    if keys_beside(session, name, lq, lk) or (lk != lq and causal):
        cross = "cross" in f"{name}.{type(module).__name__}".lower()
        raise CaptureUnsupported(
            f"{what} attends from {lq} queries to {lk} keys"
            + (
                ": a cross-attention between the input's positions and another sequence "
                "(patches, latents) in a model that is not an encoder-decoder"
                if cross
                else " (keys beside the sequence's, such as compressed ones, or a cache)"
            )
            + "; its rows and keys are not one sequence's positions, not supported"
        )
    first = session.state.first_qk if session.state.hit and session.state.current == name else None
    if first is not None and not (first[0] is query and first[1] is key):
        raise CaptureUnsupported(
            f"{what} calls attention twice with different queries or keys; not supported"
        )


def attend_with_sink(
    session: CaptureSession,
    name: str,
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    mask: torch.Tensor | None,
    scale: float | None,
    causal: bool,
    sink: torch.Tensor,
    bias: torch.Tensor | None = None,
    softcap: float | None = None,
) -> torch.Tensor:
    """:func:`~empirical.capture.attention.attend` for a module with an attention sink (GPT-OSS's ``s_aux``, one logit
    per head, or Inkling-2's ``sinks``, one per row (B, H, L, 1)), added to every row's
    softmax denominator and attached to no value, by blocks of rows whose logits are
    materialised; statistics by :func:`empirical.capture.softmax_rows.record_rows`
    (docs/conventions.md, "Attention sinks").  The temperature divides the sink's logit
    too; ``bias`` is added and ``softcap`` applied before the mask, as in eager."""
    session.calls += 1
    session.state.hit = True
    tau = session.config.tau_for(name)
    scale = query.shape[-1] ** -0.5 if scale is None else scale
    valid, add = split_mask(mask)
    bsz, heads, lq, _ = query.shape
    lk = key.shape[2]
    rv = session.valid_rows(name, bsz, lq)
    k, v = key.float().transpose(-1, -2), value.float()
    sk = sink.float().reshape(1, -1, 1, 1) if sink.ndim == 1 else sink.float()
    sk = torch.broadcast_to(sk, (bsz, heads, lq, 1))[..., 0] / tau
    outs = []
    b = session.config.rows_per_block(bsz, heads, lk, lq, query.device.type)
    for r0 in range(0, lq, b):
        r1 = min(lq, r0 + b)
        s = torch.matmul(query[:, :, r0:r1].float(), k) * scale
        if bias is not None:
            s = s + (bias[..., r0:r1, :] if bias.shape[-2] > 1 else bias).float()
        if softcap is not None:
            s = torch.tanh(s / softcap) * softcap
        if add is not None:
            s = s + (add[..., r0:r1, :] if add.shape[-2] > 1 else add)
        qpos = torch.arange(r0, r1, device=s.device)
        ok = torch.ones(r1 - r0, lk, dtype=torch.bool, device=s.device)
        if causal:
            ok = torch.arange(lk, device=s.device)[None] <= qpos[:, None]
        if valid is not None:
            ok = ok & (valid[..., r0:r1, :] if valid.shape[-2] > 1 else valid)
        s = s.masked_fill(~ok, float("-inf")) / tau
        p = softmax_rows.record_rows(
            session.stats,
            name,
            s,
            qpos,
            softmax_rows.key_positions(qpos, lk),
            sink=sk[:, :, r0:r1],
            row_valid=None if rv is None else rv[:, r0:r1],
            raw=s * tau,
        )
        outs.append(torch.matmul(p, v))
    return torch.cat(outs, 2).to(query.dtype)


def capture_mask(*args: Any, **kwargs: Any) -> Any:
    """The mask function registered with the capture: sdpa's, which leaves out a mask
    that is only causal (the call then follows the module's ``is_causal``), except while
    a model without sdpa support is captured: its modules may not set ``is_causal`` and
    rely on the mask as in eager attention, so the mask is always built."""
    if REGISTRY.causal_skip and not all(REGISTRY.causal_skip):
        kwargs["allow_is_causal_skip"] = False
    return sdpa_mask(*args, **kwargs)


@contextmanager
def interface_registered(model: torch.nn.Module) -> Iterator[None]:
    """:func:`capture_attention_forward` and :func:`capture_mask` registered with
    transformers as ``lengthx_capture`` while any capture is open (unregistered when the
    last one closes); the causal mask of ``model`` is always built if it lacks sdpa
    support."""
    REGISTRY.open += 1
    AttentionInterface.register(CAPTURE_NAME, capture_attention_forward)
    AttentionMaskInterface.register(CAPTURE_NAME, capture_mask)
    REGISTRY.causal_skip.append(bool(getattr(model, "_supports_sdpa", False)))
    try:
        yield
    finally:
        REGISTRY.causal_skip.pop()
        REGISTRY.open -= 1
        if REGISTRY.open == 0:
            AttentionInterface._global_mapping.pop(CAPTURE_NAME, None)
            AttentionMaskInterface._global_mapping.pop(CAPTURE_NAME, None)


@contextmanager
def modules_routed(session: CaptureSession) -> Iterator[None]:
    """The session's attention modules known to :func:`capture_attention_forward`."""
    try:
        for n in session.names:
            REGISTRY.modules[id(session.modules[n])] = (session, n)
        yield
    finally:
        for n in session.names:
            REGISTRY.modules.pop(id(session.modules[n]), None)


@contextmanager
def implementation_switched(model: torch.nn.Module) -> Iterator[None]:
    """``model`` switched to the ``lengthx_capture`` attention implementation, and back
    to its previous one."""
    prev = model.config._attn_implementation
    try:
        model.set_attn_implementation(CAPTURE_NAME)
        yield
    finally:
        if model.config._attn_implementation == CAPTURE_NAME:
            model.set_attn_implementation(prev)
