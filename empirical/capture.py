"""Capture of pre-softmax attention logits inside Hugging Face models, block by block.

``with capture(model, stats=AttentionStats(...), tau=0.8): model(ids)`` switches the
model (``model.set_attn_implementation``) to the attention function
``lengthx_capture`` registered in transformers' ``AttentionInterface`` (with the
matching boolean mask function in ``AttentionMaskInterface``), and restores the previous
implementation and unregisters both on exit, also on error.  The function computes, for
query rows ``r0 .. r0+b-1`` at a time,

.. math:: l = \\frac{1}{\\tau}\\left(s\\, Q_{r_0:r_0+b} K^\\top + B_{r_0:r_0+b}\\right)
          + M_{r_0:r_0+b}, \\qquad O_{r_0:r_0+b} = \\mathrm{softmax}(l)\\, V

(``s`` the model's scaling, ``B`` T5's relative position bias, ``M`` the mask: the
temperature-scaled softmax of Algorithm 1 in the attention-alignment paper), feeds every
block to :class:`empirical.stats.AttentionStats` and never holds more than
``B x H x b x L`` logits.  Rotary (LLaMA) is applied by the model before the call, so it
is covered; grouped-query attention is expanded.  Models without the interface (BLOOM,
ALiBi) are handled by patching ``F.softmax`` in their modeling module for the duration
(the model materialises its logits itself there).

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

import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field

import torch
from transformers import AttentionInterface
from transformers.integrations.sdpa_attention import repeat_kv, sdpa_attention_forward
from transformers.masking_utils import AttentionMaskInterface, sdpa_mask

from .stats import AttentionStats

CAPTURE_NAME = "lengthx_capture"
_MODULES: dict = {}        # id(attention module) -> (session, name)
_ACTIVE = [0]              # number of open capture contexts


@dataclass
class CaptureSession:
    """What one ``capture`` context does: where statistics go, which temperature."""
    stats: AttentionStats | None = None
    tau: float = 1.0
    tau_layers: list | None = None      # regexes on module names; None = every softmax
    block_size: int | None = None       # query rows per block; None = from block_bytes
    block_bytes: int = 64 * 2 ** 20
    names: list = field(default_factory=list)
    current: str | None = None          # for the softmax patch (BLOOM)
    calls: int = 0

    def tau_for(self, name: str) -> float:
        if self.tau_layers is None or any(re.search(p, name) for p in self.tau_layers):
            return float(self.tau)
        return 1.0

    def rows_per_block(self, batch: int, heads: int, key_len: int, q_len: int) -> int:
        if self.block_size:
            return max(1, min(q_len, int(self.block_size)))
        return max(1, min(q_len, self.block_bytes // max(1, 4 * batch * heads * key_len)))


def attention_module_names(model: torch.nn.Module) -> list:
    """Names of the innermost modules whose class name ends in ``Attention`` (the ones
    that own a softmax): ``encoder.block.0.layer.0.SelfAttention`` for T5, ...

    >>> import transformers
    >>> m = transformers.T5EncoderModel(transformers.T5Config(d_model=8, d_ff=8,
    ...     num_layers=2, num_heads=2, d_kv=4, vocab_size=10))
    >>> attention_module_names(m)
    ['encoder.block.0.layer.0.SelfAttention', 'encoder.block.1.layer.0.SelfAttention']
    """
    out = []
    for name, mod in model.named_modules():
        if type(mod).__name__.endswith("Attention") and not any(
                type(c).__name__.endswith("Attention") for c in mod.modules() if c is not mod):
            out.append(name)
    return out


def _mask_block(lg, mask, r0, r1, q_len):
    if mask is None:
        return lg
    m = mask[..., r0:r1, :] if mask.shape[-2] == q_len else mask
    if m.dtype == torch.bool:
        return lg.masked_fill(~m, float("-inf"))
    return torch.where(m > torch.finfo(m.dtype).min / 2, lg + m, float("-inf"))


def _blocked_softmax(session, name, scores_fn, q_len, k_len, shape, causal, mask, value):
    """Shared loop: ``scores_fn(r0, r1)`` gives the pre-temperature logits of a block;
    returns ``softmax(l/tau) @ value`` (or the probabilities when ``value`` is None)."""
    bsz, heads = shape
    tau = session.tau_for(name)
    b = session.rows_per_block(bsz, heads, k_len, q_len)
    out = None
    for r0 in range(0, q_len, b):
        r1 = min(q_len, r0 + b)
        raw = _mask_block(scores_fn(r0, r1), mask, r0, r1, q_len)
        if causal:
            i = torch.arange(r0, r1, device=raw.device)[:, None]
            j = torch.arange(k_len, device=raw.device)[None, :]
            raw = raw.masked_fill(j > i, float("-inf"))
        lg = raw / tau if tau != 1.0 else raw
        p = torch.softmax(lg, -1).nan_to_num_(0.0)
        if session.stats is not None:
            session.stats.update(name, lg, p, r0, raw_logits=raw if tau != 1.0 else None)
        blk = p if value is None else torch.matmul(p.to(value.dtype), value)
        if out is None:
            out = blk.new_empty(*blk.shape[:2], q_len, blk.shape[-1])
        out[:, :, r0:r1] = blk
    return out


def capture_attention_forward(module, query, key, value, attention_mask, dropout=0.0,
                              scaling=None, is_causal=None, position_bias=None, **kwargs):
    """Attention function for ``AttentionInterface`` (same signature as transformers'
    ``sdpa_attention_forward``); modules outside any ``capture`` context fall back to
    sdpa.  Returns ``(attn_output (B, L, H, D), None)``."""
    entry = _MODULES.get(id(module))
    if entry is None:
        return sdpa_attention_forward(module, query, key, value, attention_mask, dropout=dropout,
                                      scaling=scaling, is_causal=is_causal,
                                      position_bias=position_bias, **kwargs)
    session, name = entry
    for unsupported in ("softcap", "sliding_window", "s_aux"):
        if kwargs.get(unsupported) is not None:
            raise NotImplementedError(f"capture does not support {unsupported}")
    if module.training and dropout:
        raise NotImplementedError("capture is for inference: call model.eval()")
    n_rep = getattr(module, "num_key_value_groups", 1)
    key, value = repeat_kv(key, n_rep), repeat_kv(value, n_rep)
    scaling = query.shape[-1] ** -0.5 if scaling is None else scaling
    q_len = query.shape[2]
    causal = is_causal if is_causal is not None else getattr(module, "is_causal", True)
    causal = bool(q_len > 1 and attention_mask is None and causal)
    if causal and key.shape[2] > q_len:          # as sdpa_attention_forward does
        key, value = key[:, :, :q_len], value[:, :, :q_len]
        if position_bias is not None:
            position_bias = position_bias[..., :q_len]
    kt = key.transpose(-1, -2)

    def scores(r0, r1):
        s = torch.matmul(query[:, :, r0:r1], kt)
        s = s * scaling if scaling != 1.0 else s
        if position_bias is not None:
            pb = position_bias[..., r0:r1, :] if position_bias.shape[-2] == q_len else position_bias
            s = s + pb
        return s.float()

    session.calls += 1
    out = _blocked_softmax(session, name, scores, q_len, key.shape[2], query.shape[:2],
                           causal, attention_mask, value)
    return out.to(query.dtype).transpose(1, 2).contiguous(), None


AttentionInterface.register(CAPTURE_NAME, capture_attention_forward)
AttentionMaskInterface.register(CAPTURE_NAME, sdpa_mask)


def _register_globally():
    AttentionInterface.register(CAPTURE_NAME, capture_attention_forward)
    AttentionMaskInterface.register(CAPTURE_NAME, sdpa_mask)


def _unregister_globally():
    AttentionInterface._global_mapping.pop(CAPTURE_NAME, None)
    AttentionMaskInterface._global_mapping.pop(CAPTURE_NAME, None)


class _FunctionalProxy:
    """Stands in for ``torch.nn.functional`` inside a modeling module; only ``softmax``
    differs (BLOOM computes ``F.softmax(scores + mask, dim=-1, dtype=float32)``)."""

    def __init__(self, session):
        self._session = session

    def __getattr__(self, item):
        return getattr(torch.nn.functional, item)

    def softmax(self, x, dim=-1, dtype=None, **kw):
        s = self._session
        if s.current is None or dim not in (-1, x.ndim - 1) or x.ndim != 4:
            return torch.nn.functional.softmax(x, dim=dim, dtype=dtype, **kw)
        name, s.current = s.current, None
        xf = x.float()
        q_len, k_len = x.shape[-2:]
        s.calls += 1
        p = _blocked_softmax(s, name, lambda r0, r1: torch.where(
            xf[:, :, r0:r1] > torch.finfo(x.dtype).min / 2, xf[:, :, r0:r1], float("-inf")),
            q_len, k_len, x.shape[:2], False, None, None)
        return p.to(dtype or x.dtype)


def supports_interface(model) -> bool:
    return bool(type(model)._can_set_attn_implementation())


@contextmanager
def capture(model, stats: AttentionStats | None = None, tau: float = 1.0,
            tau_layers=None, block_size: int | None = None, block_bytes: int = 64 * 2 ** 20):
    """Install the capture on ``model``; yields the :class:`CaptureSession`.

    ``tau`` divides the logits of every softmax, or only of the modules whose names
    match one of the regexes ``tau_layers``.  ``stats`` (optional) receives every block.
    On exit (also on error) the model's previous attention implementation is restored and
    the registration removed once no capture is open.
    """
    if tau <= 0:
        raise ValueError(f"temperature must be positive, got {tau}")
    session = CaptureSession(stats, tau, list(tau_layers) if tau_layers else None,
                             block_size, block_bytes)
    names = attention_module_names(model)
    if not names:
        raise ValueError(f"{type(model).__name__}: no attention modules found")
    session.names = names
    mods = dict(model.named_modules())
    prev = model.config._attn_implementation
    patched, hooks = [], []
    _ACTIVE[0] += 1
    _register_globally()
    try:
        for n in names:
            _MODULES[id(mods[n])] = (session, n)
        if supports_interface(model):
            model.set_attn_implementation(CAPTURE_NAME)
        else:
            for n in names:
                modname = type(mods[n]).__module__
                g = vars(sys.modules[modname])
                if "F" not in g:
                    raise NotImplementedError(f"{type(model).__name__}: no attention "
                                              "interface and no F.softmax to patch")
                if all(m != modname for m, _ in patched):
                    patched.append((modname, g["F"]))
                    g["F"] = _FunctionalProxy(session)
                hooks.append(mods[n].register_forward_pre_hook(
                    lambda mod, args, n=n: setattr(session, "current", n)))
        yield session
    finally:
        for h in hooks:
            h.remove()
        for modname, orig in patched:
            vars(sys.modules[modname])["F"] = orig
        for n in names:
            _MODULES.pop(id(mods[n]), None)
        if model.config._attn_implementation == CAPTURE_NAME:
            model.set_attn_implementation(prev)
        _ACTIVE[0] -= 1
        if _ACTIVE[0] == 0:
            _unregister_globally()


_unregister_globally()   # registered only while a capture is open
