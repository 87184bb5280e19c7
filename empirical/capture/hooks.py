"""Forward hooks of a capture: the module being run, and the rows that are padding.

:func:`module_hooks` tells the session which attention module runs (the swapped
``softmax`` and ``scaled_dot_product_attention`` need it) and raises
:class:`~empirical.capture.state.CaptureUnsupported` for a module that ran without going
through the capture (never a silent pass-through); :func:`padding_hooks` keeps the
model's ``attention_mask`` so that the query rows it marks as padding are not counted.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

import torch

from empirical.capture.state import CaptureSession, CaptureUnsupported


def _in_features(mod: torch.nn.Module) -> int | None:
    """The width of the hidden states ``mod`` projects (its first linear or 1-D
    convolution layer: ``in_features``, ``in_channels``, GPT-2's ``Conv1D.nx``)."""
    for c in mod.modules():
        for key in ("in_features", "in_channels", "nx"):
            v = getattr(c, key, None)
            if isinstance(v, int):
                return v
    return None


def _input_length(mod: torch.nn.Module, args, kwargs, tokens: int | None = None) -> int | None:
    """Positions of the module's 3-D input: ``shape[1]`` of (batch, length, channels),
    ``shape[2]`` when the channels come first (SqueezeBERT's (batch, channels, length),
    told by the module's projection width), ``shape[0]`` when the length comes first
    (XLNet's (length, batch, channels): the first dimension is the model input's
    ``tokens`` and the second is not).

    >>> lin = torch.nn.Sequential(torch.nn.Linear(8, 8))
    >>> _input_length(lin, (torch.zeros(1, 5, 8),), {}), _input_length(lin, (torch.zeros(1, 8, 5),), {})
    (5, 5)
    >>> _input_length(lin, (torch.zeros(5, 1, 8),), {}, tokens=5)
    5
    """
    h = kwargs.get("hidden_states", args[0] if args else None)
    if not isinstance(h, torch.Tensor) or h.ndim != 3:
        return None
    width = _in_features(mod)
    if width is not None and h.shape[-1] != width and h.shape[1] == width:
        return int(h.shape[2])
    if tokens is not None and h.shape[1] != tokens and h.shape[0] == tokens:
        if width is None or h.shape[2] == width:
            return int(h.shape[0])
    return int(h.shape[1])


@contextmanager
def module_hooks(session: CaptureSession) -> Iterator[None]:
    """Forward hooks on the session's attention modules: before each, the module is the
    current one of :class:`~empirical.capture.state.ForwardState`; after it, a module
    that did not go through the capture fails loudly."""
    hooks = []

    def pre(mod, args, kwargs, name):
        tokens = session.state.input_len if session.row_side.get(name) != "dec" else None
        session.state.enter(name, _input_length(mod, args, kwargs, tokens))

    def post(mod, args, output, name):
        hit, session.state.current = session.state.hit, None
        if not hit:
            raise CaptureUnsupported(
                f"{session.config.model_class}: attention module {name!r} "
                f"({type(mod).__name__}) "
                f"ran without going through the capture (attention implementation "
                f"{getattr(mod, 'config', None) and mod.config._attn_implementation!r}): "
                "it computes its attention without a softmax over keys or an attention "
                "function that the capture sees (a recurrence, hashing, an approximation "
                "or its own exp and logsumexp); not supported"
            )

    try:
        for n in session.names:
            mod = session.modules[n]
            hooks.append(
                mod.register_forward_pre_hook(
                    lambda m, a, k, n=n: pre(m, a, k, n), with_kwargs=True
                )
            )
            hooks.append(mod.register_forward_hook(lambda m, a, o, n=n: post(m, a, o, n)))
        yield
    finally:
        for h in hooks:
            h.remove()


def _positional_index(mod: torch.nn.Module, name: str) -> int | None:
    """Position of the parameter ``name`` of ``mod.forward`` (for masks passed
    positionally), None when it has none."""
    try:
        params = list(inspect.signature(mod.forward).parameters)
    except (TypeError, ValueError):
        return None
    return params.index(name) if name in params else None


def _encoder(model: torch.nn.Module) -> torch.nn.Module | None:
    """The encoder of an encoder-decoder model, None for other models."""
    if getattr(model.config, "is_encoder_decoder", False) and hasattr(model, "get_encoder"):
        return model.get_encoder()
    return None


def row_sides(model: torch.nn.Module, names: Iterable[str]) -> dict:
    """Module name -> ``"enc"``, or ``"dec"`` for every module under an encoder-decoder
    model's decoder: whose padding mask leaves the module's query rows out."""
    enc = _encoder(model)
    side = {n: "enc" for n in names}
    if enc is not None:
        prefix = next((k for k, m in model.named_modules() if m is enc), None)
        for n in side:
            if prefix is not None and not (n + ".").startswith(prefix + "."):
                side[n] = "dec"
    return side


@contextmanager
def padding_hooks(session: CaptureSession, model: torch.nn.Module) -> Iterator[None]:
    """Hooks that keep the model's ``attention_mask`` (and ``decoder_attention_mask``)
    in :class:`~empirical.capture.state.ForwardState` so that padded query rows are
    left out of the statistics (:meth:`~empirical.capture.state.CaptureSession.valid_rows`)."""
    enc = _encoder(model)

    def grab(mod, args, kwargs, side_of):
        ids = kwargs.get("input_ids", args[0] if args else None)
        # (batch, length), or (batch, choices, length) of a multiple-choice head
        if isinstance(ids, torch.Tensor) and ids.ndim in (2, 3):
            session.state.input_len = int(ids.shape[-1])
        for key, side in side_of:
            m = kwargs.get(key)
            at = _positional_index(mod, key)
            if m is None and at is not None and at < len(args):
                m = args[at]
            if isinstance(m, torch.Tensor) and m.ndim == 2:
                session.state.row_valid[side] = m.bool()
            elif key == "attention_mask":
                session.state.row_valid.pop(side, None)

    pairs = (("attention_mask", "enc"), ("decoder_attention_mask", "dec"))
    hooks = [
        model.register_forward_pre_hook(lambda m, a, k: grab(m, a, k, pairs), with_kwargs=True)
    ]
    if enc is not None and enc is not model:  # the encoder run alone (the audit)
        hooks.append(
            enc.register_forward_pre_hook(
                lambda m, a, k: grab(m, a, k, pairs[:1]), with_kwargs=True
            )
        )
    try:
        yield
    finally:
        for h in hooks:
            h.remove()
