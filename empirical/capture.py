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
    _buffers: dict = field(default_factory=dict, repr=False)

    def buffer(self, tag: str, shape: tuple, like: torch.Tensor, zero: bool = False):
        """A work tensor reused across blocks and layers (fresh large allocations cost
        page faults on every block)."""
        key = (tag, tuple(shape), like.dtype, like.device)
        t = self._buffers.get(key)
        if t is None:
            t = self._buffers[key] = (torch.zeros if zero else torch.empty)(
                shape, dtype=like.dtype, device=like.device)
        return t

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


def _blocked_softmax(session, name, scores_fn, q_len, k_len, shape, causal, mask, value):
    """Shared loop: ``scores_fn(r0, r1)`` gives the pre-temperature logits of a block;
    returns ``softmax(l/tau) @ value`` (or the probabilities when ``value`` is None)."""
    bsz, heads = shape
    tau = session.tau_for(name)
    b = session.rows_per_block(bsz, heads, k_len, q_len)
    out = None
    for r0 in range(0, q_len, b):
        r1 = min(q_len, r0 + b)
        raw = scores_fn(r0, r1)
        valid, add = _valid_block(mask, r0, r1, q_len)
        if causal:
            i = torch.arange(r0, r1, device=raw.device)[:, None]
            c = torch.arange(k_len, device=raw.device)[None, :] <= i
            valid = c if valid is None else valid & c
        grad = torch.is_grad_enabled() and raw.requires_grad
        if add is not None:
            raw = raw.add_(add) if value is not None and not grad else raw + add
        if value is None:
            blk = _probs_block(session, name, raw, valid, tau, r0)
        elif grad:                       # autograd: out-of-place reference path
            blk = torch.matmul(_probs_block(session, name, raw, valid, tau, r0).to(value.dtype),
                               value)
        else:
            bb = r1 - r0
            buf = session.buffer("skew", (bsz * heads, bb * (k_len + bb + 1)), raw, zero=True)
            blk = _output_block(session, name, raw, valid, tau, r0, value, buf)
        if out is None:
            out = blk.new_empty(*blk.shape[:2], q_len, blk.shape[-1])
        out[:, :, r0:r1] = blk
    return out


def _valid_block(mask, r0, r1, q_len):
    """(boolean validity, additive finite part) of a block of the model's mask."""
    if mask is None:
        return None, None
    m = mask[..., r0:r1, :] if mask.shape[-2] == q_len else mask
    if m.dtype == torch.bool:
        return m, None
    valid = m > torch.finfo(m.dtype).min / 2
    return valid, torch.where(valid, m, 0.0).float()


def _sorted_update(session, name, raw, valid, r0):
    st = session.stats
    if st is not None and st.wants_sorted(name):
        raw = raw.detach()
        x = raw if valid is None else raw.masked_fill(~valid, float("-inf"))
        st.update_sorted(name, x, r0)


def _probs_block(session, name, raw, valid, tau, r0):
    """Reference path (BLOOM's patched softmax): probabilities of the block."""
    _sorted_update(session, name, raw, valid, r0)
    lg = raw / tau if tau != 1.0 else raw
    if valid is not None:
        lg = lg.masked_fill(~valid, float("-inf"))
    p = torch.softmax(lg, -1).nan_to_num(0.0)
    if session.stats is not None:
        session.stats.update(name, lg.detach(), p.detach(), r0, sorted_rows=False)
    return p


def _output_block(session, name, raw, valid, tau, r0, value, buf):
    """Fast path: softmax(raw/tau) @ value with the statistics from the same passes.
    With m the row max, e = exp(l - m), s = sum(e):  pmax = 1/s and
    H = log s - sum(e (l - m))/s;  p = e/s is written once into ``buf``, laid out so
    that a reshape skews the rows for the per-distance mass (see ``stats``)."""
    _sorted_update(session, name, raw, valid, r0)
    lg = raw.div_(tau) if tau != 1.0 else raw           # raw is a work buffer: in place
    if valid is not None:
        lg.masked_fill_(~valid, torch.finfo(lg.dtype).min)
    bsz, heads, b, k = lg.shape
    lg.sub_(lg.amax(-1, keepdim=True))
    pv = buf[:, : b * (k + b)].view(bsz, heads, b, k + b)[..., b:]
    torch.exp(lg, out=pv)
    s = pv.sum(-1, keepdim=True)
    st = session.stats
    if st is not None:
        dot = torch.einsum("bhik,bhik->bhi", pv, lg)
        ss = s[..., 0]
    pv.div_(s)
    if st is not None:
        skew = buf.view(bsz, heads, b, k + b + 1).sum(2).sum(0)
        st.update_parts(name, b * bsz, (1.0 / ss).sum((0, 2)),
                        (torch.log(ss) - dot / ss).sum((0, 2)), skew, b + r0, k)
    return torch.matmul(pv.to(value.dtype), value)


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

    bsz, heads, _, dim = query.shape

    grad = torch.is_grad_enabled() and (query.requires_grad or key.requires_grad or (
        position_bias is not None and position_bias.requires_grad))

    def scores(r0, r1):
        q = query[:, :, r0:r1]
        if grad:                         # autograd cannot write into work buffers
            s = torch.matmul(q, kt) * scaling
            if position_bias is not None:
                s = s + (position_bias[..., r0:r1, :] if position_bias.shape[-2] == q_len
                         else position_bias)
            return s.float()
        raw = session.buffer("raw", (bsz * heads, r1 - r0, kt.shape[-1]), query)
        if position_bias is None:
            torch.bmm(q.reshape(bsz * heads, r1 - r0, dim), kt.reshape(bsz * heads, dim, -1),
                      out=raw)
            if scaling != 1.0:
                raw.mul_(scaling)
        else:
            pb = position_bias[..., r0:r1, :] if position_bias.shape[-2] == q_len else position_bias
            pb = pb.expand(bsz, heads, r1 - r0, kt.shape[-1]).reshape(bsz * heads, r1 - r0, -1)
            torch.baddbmm(pb.to(q.dtype), q.reshape(bsz * heads, r1 - r0, dim),
                          kt.reshape(bsz * heads, dim, -1), alpha=scaling, out=raw)
        return raw.view(bsz, heads, r1 - r0, -1).float()

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
