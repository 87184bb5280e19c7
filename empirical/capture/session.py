"""Capture of attention statistics inside Hugging Face models, in the attention pass.

``with capture(model, stats=AttentionStats(...), tau=0.8): model(ids)`` routes every
attention module of ``model`` (:func:`~empirical.capture.discovery.attention_module_names`)
through :func:`~empirical.capture.attention.attend`, which computes the module's output
and the statistics of its softmax rows in one pass, without forming the L x L matrix:
by the fused Triton kernel (:mod:`~empirical.capture.fused_path`), the tiled causal path
(:mod:`~empirical.capture.tiled_causal`) or the blocked path
(:mod:`~empirical.capture.blocked`).

How a model is routed: models using transformers' ``AttentionInterface`` are switched to
``lengthx_capture`` and back (:mod:`~empirical.capture.hf_interface`); the others have
``softmax`` and ``scaled_dot_product_attention`` swapped while the capture is open
(:mod:`~empirical.capture.patches`).  Query rows that the model's ``attention_mask``
marks as padding are not counted, and a forward hook on every attention module checks
that the module really went through the capture (:mod:`~empirical.capture.hooks`); a
module that did not, a softmax whose rows are not the query positions, a second softmax
in a module, or a tensor argument of the attention function that the capture does not
apply raise :class:`~empirical.capture.state.CaptureUnsupported` naming the module class
(never a silent pass-through).  Each of these is a context manager that undoes itself;
:func:`capture` stacks them.

>>> import torch, transformers
>>> cfg = transformers.T5Config(d_model=32, d_ff=64, num_layers=1, num_heads=2, d_kv=16,
...                             vocab_size=50)
>>> m = transformers.T5EncoderModel(cfg).eval()
>>> ids = torch.arange(12)[None]
>>> ref = m(ids).last_hidden_state
>>> with capture(m) as session:
...     out = m(ids).last_hidden_state
>>> bool(torch.allclose(out, ref, atol=1e-5)), m.config._attn_implementation
(True, 'sdpa')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import ExitStack, contextmanager

import torch

from empirical.capture.discovery import (
    attention_module_names,
    block_sparse_reason,
    no_attention_reason,
    supports_interface,
)
from empirical.capture.hf_interface import (
    implementation_switched,
    interface_registered,
    modules_routed,
)
from empirical.capture.hooks import module_hooks, padding_hooks, row_sides
from empirical.capture.patches import sdpa_swapped, softmax_swapped
from empirical.capture.state import CaptureConfig, CaptureSession, CaptureUnsupported
from empirical.capture.stats import AttentionStats


@contextmanager
def capture(
    model: torch.nn.Module,
    stats: AttentionStats | None = None,
    tau: float = 1.0,
    tau_layers: Iterable[str] | None = None,
    block_size: int | None = None,
    block_bytes: int = 256 * 2**20,
    fused: bool | None = None,
) -> Iterator[CaptureSession]:
    """Install the capture on ``model``; yields the
    :class:`~empirical.capture.state.CaptureSession`.

    ``tau`` divides the logits of every softmax, or only of the modules whose names
    match one of the regexes ``tau_layers``.  ``stats`` (optional) receives every block.
    ``fused``: route calls without a bias (and without a mask other than the causal
    sliding window) through the fused Triton kernel; None (default) does so on CUDA when
    triton is importable, True also elsewhere (Triton's CPU interpreter, for tests).
    Query rows that the model's ``attention_mask`` marks as padding are not counted.
    On exit (also on error) the model's previous attention implementation is restored and
    the registration removed once no capture is open.
    """
    if tau <= 0:
        raise ValueError(f"temperature must be positive, got {tau}")
    config = CaptureConfig(
        stats=stats,
        tau=tau,
        tau_layers=tuple(tau_layers) if tau_layers else None,
        block_size=block_size,
        block_bytes=block_bytes,
        fused=fused,
        model_class=type(model).__name__,
        cross_attention=bool(getattr(model.config, "is_encoder_decoder", False)),
    )
    names = attention_module_names(model)
    if not names:
        raise CaptureUnsupported(no_attention_reason(model))
    sparse = block_sparse_reason(model, names)
    if sparse:
        raise CaptureUnsupported(sparse)
    mods = dict(model.named_modules())
    session = CaptureSession(
        config,
        names=tuple(names),
        modules={n: mods[n] for n in names},
        row_side=row_sides(model, names),
    )
    with ExitStack() as stack:
        stack.enter_context(interface_registered(model))
        stack.enter_context(softmax_swapped(session))
        stack.enter_context(modules_routed(session))
        if supports_interface(model):
            stack.enter_context(implementation_switched(model))
        else:
            stack.enter_context(sdpa_swapped(session))
        stack.enter_context(module_hooks(session))
        stack.enter_context(padding_hooks(session, model))
        yield session
