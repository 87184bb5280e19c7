"""Capture of attention statistics inside Hugging Face models, in the attention pass.

``with capture(model, stats=AttentionStats(...), tau=0.8): model(ids)`` routes every
attention module of ``model`` through :func:`attend`, which computes the module's output
and the statistics of its softmax rows in **one pass** over blocks of ``b`` query rows:

.. math:: l = \\frac{1}{\\tau}\\,\\mathrm{cap}\\!\\left(s\\, Q_{r_0:r_0+b} K^\\top + B\\right)
          + M, \\qquad e = \\exp(l - m), \\qquad
          [\\,O\\,|\\,\\Sigma\\,|\\,J\\,] = e\\,[\\,V\\,|\\,1\\,|\\,j\\,]

(``s`` the model's scaling, ``B`` an additive bias such as T5's relative positions or
ALiBi, ``cap`` Gemma-2's logit softcapping :math:`c \\tanh(x/c)`, ``M`` the mask with
causal, sliding-window and padding entries :math:`-\\infty`, ``m`` the row maximum; the
temperature ``tau`` of Algorithm 1 in the attention-alignment paper divides the logits).
One product with the augmented values gives the output :math:`O/\\Sigma`, the row sums
and the attended position :math:`\\sum_j p_{ij} j`, and one pass over the block the
entropy, so that

.. math:: P_{max} = 1/\\Sigma, \\qquad
          H = \\log\\Sigma - \\frac{1}{\\Sigma}\\sum_j e_{ij}(l_{ij}-m), \\qquad
          \\sum_j p_{ij}|i-j| = i - \\frac{J}{\\Sigma} + \\frac{2}{\\Sigma}\\sum_{j>i} e_{ij}(j-i)

(exact; the last sum is over the keys right of the diagonal only, none for causal rows).
Only the keys a block can see are read (causal rows stop at the diagonal, sliding windows
start at the window), so memory is O(b x L) per head and the L x L matrix is never
formed.  Causal calls without a bias or padding (LLaMA, Qwen, Mistral, Gemma 1-3 with
their sliding windows and softcapping, Phi, GPT-2, GPT-NeoX, OPT, Falcon) take a tiled path:
tiles of heads x rows over the keys from the window's start to the diagonal, each run over
chunks of keys small enough that a chunk's logits and weights stay in the core's cache
(an online softmax: the sums of a row add up over its chunks, and its shift m moves to the
running maximum only where ``exp`` could otherwise overflow, the sums so far rescaled);
per-row sums are kept in (B*H, L) tensors and turned into statistics once; on CPU one
single-threaded worker per torch thread takes the next tile when done with one.  The
tiled path keeps its logits in bits (``q`` carries log2 e) and takes ``exp2``, 3-5x
faster than ``exp`` on CPU; P_max and the entropy are turned back into nats once.
Arguments of ``exp`` are clamped at ``_EXP_FLOOR`` (``exp2``'s at ``_EXP2_FLOOR``) where
they may fall below it (CPU ``exp`` and ``exp2`` are 4-60x slower where their result
underflows), and weights below ``_TINY`` are
then set to 0 (their products with the values would be subnormal, which slows a CPU
matrix product by orders of magnitude); both changes are below float32 resolution beside
the row's largest weight.  The per-offset mass and the
sorted logit rows cost a pass over the probabilities and a sort: they are computed only
for the modules named in :class:`~empirical.capture.stats.AttentionStats` ``mass_layers`` /
``sorted_layers``.

How a model is routed: models using transformers' ``AttentionInterface`` are switched
(``set_attn_implementation``) to ``lengthx_capture`` and back; attention sinks (``s_aux``,
``sinks``) take :func:`attend_with_sink`; a module calling the function again with the
same queries and keys is counted once.  While a capture is open, ``softmax``
(``torch.nn.functional``, ``torch``, ``Tensor``) is replaced: the first attention-shaped
softmax inside a captured module that has not gone through the capture is that module's
attention (eager-only modules: BLOOM, MPT, GPT-J, GPT-Neo; LongT5's blocks), counted by
:func:`softmax_with_stats`; Falcon's direct
``torch.nn.functional.scaled_dot_product_attention`` call is routed to :func:`attend`.
Query rows that the model's ``attention_mask`` marks as padding are not counted.
Modules of hybrids that are not softmax attention (:func:`not_softmax_modules`) are left
out.  A forward hook on every attention module checks that the module really went
through the capture; a module that did not, a softmax whose rows are not the query
positions, a second softmax in a module, or a tensor argument of the attention function
that the capture does not apply raise :class:`CaptureUnsupported` naming the module
class (never a silent pass-through).

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

import importlib.util
import math
import os
import re
import threading
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import torch
from transformers import AttentionInterface
from transformers.integrations.sdpa_attention import repeat_kv, sdpa_attention_forward
from transformers.masking_utils import AttentionMaskInterface, sdpa_mask

from empirical.capture.stats import AttentionStats

CAPTURE_NAME = "lengthx_capture"
_MODULES: dict = {}  # id(attention module) -> (session, name)
_ACTIVE = [0]  # number of open capture contexts
_MASKED = -1e30  # finite stand-in for -inf where products with e are taken
_NO_SHIFT = 30.0  # rows whose max logit is below this in size need no shift
# exp() on CPU takes a slow path, 20-60x slower, where its result underflows; below this
# floor the weight exp(x) <= 1.7e-38 is below float32 resolution beside the row's largest
# weight (>= exp(-_NO_SHIFT)), so clamping there changes no sum.
_EXP_FLOOR = -87.0
# weights below this are set to 0 before the product with the values: a product of a weight
# near the float32 minimum with a value is subnormal, and a matrix product meeting
# subnormals runs up to hundreds of times slower on CPU; such a weight is below 1e-16 of
# the row's largest (>= exp(-_NO_SHIFT)), so no sum changes at float32 resolution.
_TINY = 1e-30
# the tiled causal path keeps its logits in bits (base 2: q carries log2 e) and takes
# exp2, which on CPU runs 3-5x faster than exp (measured: a chunk of 2 x 256 x 512
# logits, 36-57 us against 160-230 us, float32, one thread) at the same accuracy (about
# 1 ulp); its exp floor is 2^-126 (the smallest normal float32, <= e^-87).
_LOG2E = 1.0 / math.log(2.0)
_EXP2_FLOOR = -126.0
_NO_SHIFT_BITS = _NO_SHIFT * _LOG2E


class CaptureUnsupported(NotImplementedError):
    """The model (class named in the message) cannot be captured."""


@dataclass
class CaptureSession:
    """What one ``capture`` context does: where statistics go, which temperature."""

    stats: AttentionStats | None = None
    tau: float = 1.0
    tau_layers: list | None = None  # regexes on module names; None = every softmax
    block_size: int | None = None  # query rows per block; None = from block_bytes
    block_bytes: int = 256 * 2**20
    model_class: str = "model"
    names: list = field(default_factory=list)
    current: str | None = None  # module being run (hooks); for the patches
    hit: bool = False  # the current module went through the capture
    calls: int = 0
    fused: bool | None = None  # the fused Triton kernel: None = on CUDA when importable
    modules: dict = field(default_factory=dict, repr=False)  # name -> attention module
    seq_len: int | None = None  # length of the current module's input (blocked layouts)
    first_qk: tuple | None = None  # (query, key) of the current module's first call
    row_valid: dict = field(default_factory=dict, repr=False)  # "enc"/"dec" -> (B, L)
    row_side: dict = field(default_factory=dict, repr=False)  # module name -> "enc"/"dec"
    busy: bool = False  # the capture's own computation runs (softmax proxies stand aside)
    cross_attention: bool = False  # an encoder-decoder model: keys may differ from queries
    key_chunk: int | None = None  # keys per chunk of a causal tile; None = by device
    _buffers: dict = field(default_factory=dict, repr=False)
    _fused_checked: set = field(default_factory=set, repr=False)

    def buffer(self, tag: str, shape: tuple, like: torch.Tensor) -> torch.Tensor:
        """A work tensor of ``shape`` carved from a flat one reused across blocks and
        layers (fresh large allocations cost page faults on every block)."""
        n = 1
        for x in shape:
            n *= x
        key = (tag, like.dtype, like.device)
        t = self._buffers.get(key)
        if t is None or t.numel() < n:
            t = self._buffers[key] = torch.empty(n, dtype=like.dtype, device=like.device)
        return t[:n].view(shape)

    def valid_rows(self, name: str, bsz: int, lq: int) -> torch.Tensor | None:
        """(B, Lq) boolean of the query rows that are not padding (the model's
        ``attention_mask``, or the decoder's for decoder modules), None when every row
        counts or the shapes do not match this call."""
        v = self.row_valid.get(self.row_side.get(name, "enc"))
        if v is None or tuple(v.shape) != (bsz, lq) or bool(v.all()):
            return None
        return v

    def tau_for(self, name: str) -> float:
        if self.tau_layers is None or any(re.search(p, name) for p in self.tau_layers):
            return float(self.tau)
        return 1.0

    def rows_per_block(
        self, batch: int, heads: int, key_len: int, q_len: int, device: str = "cpu"
    ) -> int:
        """Query rows per block: ``block_size``, else as many as fit ``block_bytes`` of
        float32 logits (at least 1 GiB on GPU, where few large blocks are fast), at most
        128 on CPU (measured fastest there) and 4096 on GPU."""
        if self.block_size:
            return max(1, min(q_len, int(self.block_size)))
        cap, budget = (
            (128, self.block_bytes) if device == "cpu" else (4096, max(self.block_bytes, 2**30))
        )
        return max(1, min(q_len, cap, budget // max(1, 4 * batch * heads * key_len)))

    def tile_rows(self, q_len: int, device: str = "cpu") -> int:
        """Query rows per tile of the causal path: ``block_size``, else 256 on CPU and
        4096 on GPU."""
        return max(1, min(q_len, self.block_size or (256 if device == "cpu" else 4096)))

    def chunk_keys(self, keys: int, device: str = "cpu") -> int:
        """Keys per chunk of a causal tile: ``key_chunk``, else 512 on CPU (a chunk's
        logits and weights stay in the core's cache; measured fastest) and all of them on
        GPU."""
        return max(1, min(keys, self.key_chunk or (CPU_KEY_CHUNK if device == "cpu" else keys)))

    def tile_heads(self, n: int, rows: int, keys: int, device: str = "cpu") -> int:
        """Heads per tile of the causal path: as many as keep a float32 (heads, rows,
        chunk of keys) work tensor within ``block_bytes`` when ``block_size`` is set, else
        within 1 MiB on CPU (per tile worker; measured fastest) and 1 GiB on GPU; at least
        one, so that the extra memory is O(L x rows) per head."""
        if self.block_size:
            budget = self.block_bytes
        else:
            budget = CPU_TILE_BYTES if device == "cpu" else 2**30
        chunk = self.chunk_keys(keys, device)
        return max(1, min(n, budget // (4 * rows * chunk)))


CPU_KEY_CHUNK = 512
CPU_TILE_BYTES = 2**20


NOT_SOFTMAX_LAYER_TYPES = ("linear_attention", "mamba", "conv", "lightning_attention")


def not_softmax_modules(model: torch.nn.Module) -> dict:
    """Modules named like attention modules that compute no softmax over keys (the
    linear-attention layers of hybrids such as MiniMax): name -> why, from the config's
    ``layer_types`` at the module's ``layer_idx``.

    >>> import transformers
    >>> cfg = transformers.MiniMaxConfig(hidden_size=16, intermediate_size=16, num_hidden_layers=2,
    ...     num_attention_heads=2, num_key_value_heads=1, head_dim=8, vocab_size=10,
    ...     num_local_experts=2, num_experts_per_tok=1)
    >>> not_softmax_modules(transformers.MiniMaxModel(cfg))
    {'layers.1.self_attn': 'MiniMaxLightningAttention: linear_attention layer, not softmax attention'}
    """
    cfg = getattr(model, "config", None)
    cfg = cfg.get_text_config() if hasattr(cfg, "get_text_config") else cfg
    types = getattr(cfg, "layer_types", None) or ()
    out = {}
    for name, mod in model.named_modules():
        idx = getattr(mod, "layer_idx", None)
        if not type(mod).__name__.endswith("Attention") or not isinstance(idx, int):
            continue
        if idx < len(types) and types[idx] in NOT_SOFTMAX_LAYER_TYPES:
            out[name] = f"{type(mod).__name__}: {types[idx]} layer, not softmax attention"
    return out


def attention_module_names(model: torch.nn.Module) -> list:
    """Names of the innermost modules whose class name ends in ``Attention`` (the ones
    that own a softmax), less those of :func:`not_softmax_modules`:
    ``encoder.block.0.layer.0.SelfAttention`` for T5, ...

    >>> import transformers
    >>> m = transformers.T5EncoderModel(transformers.T5Config(d_model=8, d_ff=8,
    ...     num_layers=2, num_heads=2, d_kv=4, vocab_size=10))
    >>> attention_module_names(m)
    ['encoder.block.0.layer.0.SelfAttention', 'encoder.block.1.layer.0.SelfAttention']
    """
    skip = not_softmax_modules(model)
    out = []
    for name, mod in model.named_modules():
        if type(mod).__name__.endswith("Attention") and not any(
            type(c).__name__.endswith("Attention") for c in mod.modules() if c is not mod
        ):
            if name not in skip:
                out.append(name)
    return out


# ---- the attention pass --------------------------------------------------------------
@dataclass
class _Call:
    """One attention call, flattened to (B*H, L, d) float32 tensors."""

    q: torch.Tensor
    kt: torch.Tensor  # (BH, d, Lk)
    vaug: torch.Tensor  # (BH, Lk, dv + 2 + pad): [v | 1 | j | 0]; v alone when tiled
    dv: int
    shape: tuple  # (B, H, Lq, Lk)
    scale: float
    tau: float
    causal: bool
    linear: bool  # no bias, softcapping or float mask: scaling folded into q
    bias: torch.Tensor | None  # additive, before softcapping; to (B, H, Lq, Lk)
    valid: torch.Tensor | None  # boolean, broadcastable to (B, H, Lq, Lk)
    softcap: float | None
    mask_add: torch.Tensor | None = None  # finite part of a float mask, after softcapping
    tiled: bool = False  # the tiled causal path: q also carries log2 e (logits in bits)


def _split_mask(mask: torch.Tensor | None):
    """(boolean validity, finite additive part or None) of a model's attention mask."""
    if mask is None:
        return None, None
    if mask.dtype == torch.bool:
        return mask, None
    valid = mask > torch.finfo(mask.dtype).min / 2
    add = torch.where(valid, mask, 0.0).float()
    return valid, (add if bool(add.any()) else None)


def _key_range(c: _Call, r0: int, r1: int):
    """Keys [lo, hi) that rows r0..r1-1 can see (causal diagonal, window, padding)."""
    lk = c.shape[3]
    hi = min(lk, r1) if c.causal else lk
    if c.valid is None:
        return 0, hi
    vb = c.valid[..., r0:r1, :] if c.valid.shape[-2] > 1 else c.valid
    cols = vb.reshape(-1, vb.shape[-1]).any(0)[:hi].nonzero()
    if cols.numel() == 0:
        return 0, 0
    return int(cols[0]), int(cols[-1]) + 1


def _rows(t: torch.Tensor, r0: int, r1: int, lo: int, hi: int, shape) -> torch.Tensor:
    """Block of a tensor broadcastable to (B, H, Lq, Lk), as (B*H, b, hi-lo)."""
    bsz, heads = shape[:2]
    blk = t[..., r0:r1, lo:hi] if t.shape[-2] > 1 else t[..., lo:hi]
    return blk.expand(bsz, heads, r1 - r0, hi - lo).reshape(bsz * heads, r1 - r0, hi - lo)


def _logits(session, c: _Call, r0: int, r1: int, lo: int, hi: int) -> torch.Tensor:
    """Block of logits l (B*H, b, hi-lo), masked entries _MASKED.
    ``c.q`` is pre-multiplied by the scaling (and by 1/tau when linear)."""
    qb, kb = c.q[:, r0:r1], c.kt[:, :, lo:hi]
    s = torch.bmm(qb, kb, out=session.buffer("s", (qb.shape[0], r1 - r0, hi - lo), qb))
    if not c.linear:
        if c.bias is not None:
            s.add_(_rows(c.bias, r0, r1, lo, hi, c.shape))
        if c.softcap is not None:
            s.div_(c.softcap).tanh_().mul_(c.softcap)
        if c.mask_add is not None:
            s.add_(_rows(c.mask_add, r0, r1, lo, hi, c.shape))
        if c.tau != 1.0:
            s.div_(c.tau)
    if c.valid is not None:
        s.masked_fill_(~_rows(c.valid, r0, r1, lo, hi, c.shape), _MASKED)
    elif c.causal and max(lo, r0) + 1 < hi:  # only the diagonal part of a causal block
        c0 = max(lo, r0)
        i = torch.arange(r0, r1, device=s.device)[:, None]
        j = torch.arange(c0, hi, device=s.device)[None, :]
        s[..., c0 - lo :].masked_fill_(j > i, _MASKED)
    if not c.linear:
        s.clamp_(min=_MASKED)  # -inf or finfo.min from masks folded in biases
    return s


def _block_stats(c: _Call, s, e, w, m, r0, r1, lo, hi, want_mass: bool) -> dict:
    """Per-row 1/Sigma (P_max when m is the row max), entropy, mean distance (B*H, b)
    of one block, and the probabilities when the per-offset mass is wanted; ``e`` is
    exp(l - m), ``s`` is l - m (overwritten here)."""
    dv = c.dv
    ssum = w[..., dv]
    ok = ssum > 0
    den = torch.where(ok, ssum, 1.0)
    ent = torch.log(den) - s.mul_(e).sum(-1) / den  # s is not used after
    i = torch.arange(r0, r1, device=e.device, dtype=e.dtype)
    dist = i - w[..., dv + 1] / den
    c0, c1 = max(lo, r0), min(hi, r1)
    if c0 < c1 and not (c.causal and c.valid is None):
        rel = torch.arange(c0, c1, device=e.device, dtype=e.dtype)[None, :] - i[:, None]
        dist = dist + 2 * (e[..., c0 - lo : c1 - lo] * rel.clamp_(min=0)).sum(-1) / den
    if max(lo, r1) < hi:
        cr = max(lo, r1)
        jr = torch.arange(cr, hi, device=e.device, dtype=e.dtype)
        jr = torch.stack([jr, torch.ones_like(jr)], -1).expand(e.shape[0], -1, -1)
        t = torch.bmm(e[..., cr - lo :], jr)
        dist = dist + 2 * (t[..., 0] - i * t[..., 1]) / den
    out = {"ok": ok, "pmax": 1.0 / den, "entropy": ent, "distance": dist}
    if want_mass:
        out["probs"] = e / den[..., None]
    return out


def _run_block(session, name, c: _Call, r0: int, r1: int, out: torch.Tensor, acc) -> None:
    lo, hi = _key_range(c, r0, r1)
    if hi <= lo:  # every key masked: output 0, no statistics
        out[:, r0:r1] = 0.0
        return
    st = session.stats
    s = _logits(session, c, r0, r1, lo, hi)
    if st is not None and st.wants_sorted(name):
        raw = torch.where(s > _MASKED / 2, s * c.tau, float("-inf"))
        keep = acc.row_filter(r0, r1)
        rv = session.valid_rows(name, c.shape[0], c.shape[2])
        if rv is not None:
            rv = rv[:, None, r0:r1]
            keep = rv if keep is None else rv & keep.to(rv.device)
        st.update_sorted(name, raw.view(*c.shape[:2], r1 - r0, hi - lo), r0, keep)
    mx = s.amax(-1, keepdim=True)
    mx = torch.where(mx > _MASKED / 2, mx, 0.0)
    if bool((mx.abs() < _NO_SHIFT).all()):  # exp(l) safe: no pass to subtract the max
        m = torch.zeros_like(mx)
    else:
        m = mx
        s.sub_(m)
    if c.valid is None and not c.causal:  # no masked entry whose weight must stay 0
        s.clamp_(min=_EXP_FLOOR)
    e = torch.exp(s, out=session.buffer("e", s.shape, s))
    w = torch.bmm(e, c.vaug[:, lo:hi])
    ssum = w[..., c.dv : c.dv + 1]
    out[:, r0:r1] = w[..., : c.dv] / torch.where(ssum > 0, ssum, 1.0)
    if st is not None:
        blk = _block_stats(c, s, e, w, m, r0, r1, lo, hi, st.wants_mass(name))
        blk["pmax"] = torch.exp(mx[..., 0] - m[..., 0]) * blk["pmax"]
        rv = session.valid_rows(name, c.shape[0], c.shape[2])
        if rv is not None:  # padded query rows do not count
            blk["ok"] = blk["ok"] & rv[:, None, r0:r1].expand(-1, c.shape[1], -1).reshape(
                blk["ok"].shape
            )
        acc.add(blk, r0, r1, lo)


def _max_abs(t: torch.Tensor) -> float:
    return float(t.abs().max()) if t.numel() else 0.0


def _plain_structure(mask, bias, causal: bool, window: int | None, lq: int, lk: int):
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


def _mask_chunk(c: _Call, sums, s: torch.Tensor, r0: int, r1: int, a: int, b: int) -> bool:
    """Softcapping (then the temperature) of the logits ``s`` in bits (heads, rows
    r0..r1-1, keys a..b-1) in place, and _MASKED added to the causal corner and to the
    part left of the sliding window (:func:`_band`; an addition of a cached mask is 6-10x
    faster on CPU than ``masked_fill_``, and l + _MASKED is _MASKED in float32 for any
    finite logit below 1e22 in size); whether any entry was masked."""
    if c.softcap is not None:  # q carries the scaling and log2 e: cap, then the temperature
        cap = c.softcap * _LOG2E  # c tanh(x / c) in nats is cap tanh(y / cap) in bits
        s.div_(cap).tanh_().mul_(cap / c.tau)
    window = sums.window
    right = r0 + 1 < b  # keys right of some row's diagonal
    left = window is not None and a < r1 - window  # keys left of some row's window
    if right:  # key c0 + y of row r0 + x is masked where y - x > r0 - c0
        c0 = max(a, r0)
        s[..., c0 - a :].add_(_band(sums.masks, s, r1 - r0, b - c0, r0 - c0, True))
    if left:  # key a + y of row r0 + x where y - x <= r0 - window - a
        cut = min(b, r1 - window)
        s[..., : cut - a].add_(_band(sums.masks, s, r1 - r0, cut - a, r0 - window - a, False))
    return right or left


def _band(cache: dict, like: torch.Tensor, rows: int, cols: int, off: int, right: bool):
    """(rows, cols) tensor, _MASKED where ``y - x > off`` (``right``) or ``y - x <= off``
    (else) at row x, column y, and 0 elsewhere; kept in ``cache`` (one per call)."""
    key = (rows, cols, off, right)
    band = cache.get(key)
    if band is None:
        dev = like.device
        y_x = torch.arange(cols, device=dev) - torch.arange(rows, device=dev)[:, None]
        hit = y_x > off if right else y_x <= off
        band = cache[key] = torch.where(hit, _MASKED, 0.0).to(like.dtype)
    return band


def _causal_tiles(session, bh: int, lq: int, lk: int, window, device: str) -> list:
    """Tiles ``(h0, h1, r0, r1, lo, hi)`` (heads h0..h1-1, query rows r0..r1-1, keys
    lo..hi-1: from the window's start to the diagonal) covering every row of every head
    once, the rows with the most keys first (so that the last tiles are short)."""
    b = session.tile_rows(lq, device)
    tiles = []
    for r0 in reversed(range(0, lq, b)):
        r1 = min(lq, r0 + b)
        lo, hi = (0 if window is None else max(0, r0 - window + 1)), min(lk, r1)
        hc = session.tile_heads(bh, r1 - r0, hi - lo, device)
        tiles += [(h0, min(bh, h0 + hc), r0, r1, lo, hi) for h0 in range(0, bh, hc)]
    return tiles


@dataclass
class _CausalSums:
    """Where the tiles of one causal call write: the output (B*H, Lq, dv), the per-row
    sums ``rows`` (Sigma, sum e*j, sum e*(l - m), row max) and the shift m (0 where no
    shift was needed); logits l, their max and m in bits, e = 2^(l - m); ``pos`` the key
    positions j (float32)."""

    out: torch.Tensor
    rows: torch.Tensor
    shift: torch.Tensor
    pos: torch.Tensor
    bounded: bool  # every |logit| below -log2(_TINY) / 2: only masked entries need the floor
    small: bool  # on CPU, every logit below _NO_SHIFT_BITS in size: no shift at all
    window: int | None
    stats: bool
    masks: dict = field(default_factory=dict)  # the masks of :func:`_band` of this call


def _key_chunks(tile, step: int) -> list:
    """Key ranges ``(a, b)`` of a tile ``(h0, h1, r0, r1, lo, hi)`` in chunks of about
    ``step`` keys, the chunk at the diagonal first: it starts at or left of ``r0``, so
    that it holds a visible key of every row (the key at the row's own position, or the
    last key when queries outnumber keys).

    >>> _key_chunks((0, 1, 8, 12, 0, 12), 4)
    [(8, 12), (4, 8), (0, 4)]
    >>> _key_chunks((0, 1, 8, 12, 0, 12), 3)
    [(8, 12), (5, 8), (2, 5), (0, 2)]
    """
    h0, h1, r0, r1, lo, hi = tile
    a = max(lo, min(r0, hi - step))
    out = [(a, hi)]
    while a > lo:
        out.append((max(lo, a - step), a))
        a = out[-1][0]
    return out


def _causal_tile(session, c: _Call, sums: _CausalSums, tile, slot: int) -> None:
    """One tile of :func:`_attend_causal`: for each chunk of its keys (small enough to
    stay in the core's cache) the logits (in bits), exp2, the product with V and the row
    sums of :func:`_add_chunk_sums`, added to the tile's (an online softmax whose shift
    moves only where ``exp2`` could overflow), written to the tile's rows of ``sums``
    (tiles do not overlap)."""
    h0, h1, r0, r1, lo, hi = tile
    nh, nr, cpu = h1 - h0, r1 - r0, c.q.device.type == "cpu"
    chunks = _key_chunks(tile, session.chunk_keys(hi - lo, c.q.device.type))
    size = nh * nr * max(b - a for a, b in chunks)
    sbuf, ebuf = (session.buffer(f"{t}{slot}", (size,), c.q) for t in "se")
    w = session.buffer(f"w{slot}", (nh, nr, c.dv), c.q)
    rs = session.buffer(f"r{slot}", (3, nh, nr), c.q)  # Sigma, sum e j, sum e (l - m)
    cm, mx = (session.buffer(f"{t}{slot}", (nh, nr), c.q) for t in ("c", "m"))
    m = sums.shift[h0:h1, r0:r1]
    qt, kt, vt = c.q[h0:h1, r0:r1], c.kt[h0:h1], c.vaug[h0:h1]
    shifted, views = False, {}
    for n, (a, b) in enumerate(chunks):
        if b - a not in views:  # (logits, weights) of a chunk of b - a keys
            views[b - a] = tuple(t[: nh * nr * (b - a)].view(nh, nr, b - a) for t in (sbuf, ebuf))
        s, e = views[b - a]
        torch.bmm(qt, kt.narrow(2, a, b - a), out=s)
        masked = _mask_chunk(c, sums, s, r0, r1, a, b)
        torch.amax(s, -1, out=mx if n == 0 else cm)
        if n:
            torch.maximum(mx, cm, out=mx)
        if not sums.small and _moves_shift(n, m, mx, w, rs, sums.stats, cpu):
            shifted = True
        if shifted:
            s.sub_(m[..., None])
        tiny = masked or not sums.bounded  # masked entries (or any entry) may underflow
        if tiny:
            s.clamp_(min=_EXP2_FLOOR)
        torch.exp2(s, out=e)
        if tiny:
            torch.threshold_(e, _TINY, 0.0)
        if n == 0:
            torch.bmm(e, vt.narrow(1, a, b - a), out=w)
        else:
            w.baddbmm_(e, vt.narrow(1, a, b - a))
        _add_chunk_sums(n, rs, cm, s, e, sums.pos[a:b], sums.stats)
    torch.div(w, rs[0, ..., None], out=sums.out[h0:h1, r0:r1])
    rows = sums.rows[:, h0:h1, r0:r1]
    rows[: 3 if sums.stats else 1] = rs[: 3 if sums.stats else 1]
    if sums.stats:
        rows[3] = mx


def _add_chunk_sums(n: int, rs, cm, s, e, pos, stats: bool) -> None:
    """Adds chunk ``n``'s row sums of the weights ``e`` (heads, rows, keys) to ``rs``:
    Sigma = sum e, and with ``stats`` sum e j (``pos`` the chunk's key positions) and
    sum e (l - m) (``s`` holds l - m, overwritten); the first chunk writes them, ``cm``
    is scratch.  Apart from the product with V (on CPU, a product with [V | 1 | j] of
    80 columns costs 20-45% more than V's 64, and one of two columns as much as V's)."""
    torch.sum(e, -1, out=rs[0] if n == 0 else cm)
    if n:
        rs[0].add_(cm)
    if not stats:
        return
    torch.matmul(e, pos, out=rs[1] if n == 0 else cm)
    if n:
        rs[1].add_(cm)
    torch.sum(s.mul_(e), -1, out=rs[2] if n == 0 else cm)
    if n:
        rs[2].add_(cm)


def _moves_shift(n: int, m, mx, w, rs, stats: bool, cpu: bool) -> bool:
    """After chunk ``n`` of a tile, with ``mx`` the rows' running max (logits in bits):
    whether the shift ``m`` of its rows was moved.  After the first chunk (where every
    row's max is finite) ``m`` becomes ``mx`` unless every ``|mx|`` is below
    _NO_SHIFT_BITS on CPU (``2^l`` is then safe unshifted); after a later one, the rows
    whose ``mx`` passed ``m + _NO_SHIFT_BITS`` (``exp2`` could overflow) move to ``mx``:
    the sums so far (``w``, and ``rs``: Sigma, sum e j) scale by :math:`f = 2^{m - m'}`,
    and the entropy sum :math:`T = \\sum_j e_j (l_j - m)` (``rs[2]``) becomes
    :math:`f\\,(T + (m - m')\\Sigma)`."""
    if n == 0:
        if cpu and bool((mx.abs() < _NO_SHIFT_BITS).all()):
            return False
        m.copy_(mx)
        return True
    if not bool((mx > m + _NO_SHIFT_BITS).any()):
        return False
    new = torch.where(mx > m + _NO_SHIFT_BITS, mx, m)
    f = torch.exp2(m - new)
    if stats:
        rs[2].add_((m - new) * rs[0])
    rs[: 3 if stats else 1].mul_(f)
    w.mul_(f[..., None])
    m.copy_(new)
    return True


def _attend_causal(session, c: _Call, out: torch.Tensor, acc, window: int | None) -> None:
    """:func:`attend` for causal :func:`_plain_structure` calls, tiled over (heads, rows) so that a
    tile of logits stays in cache; per-row sums are kept in (B*H, Lq) tensors and turned
    into statistics once, after the last tile.  On CPU the tiles go to
    :func:`_run_tiles`' single-threaded workers."""
    bh, lq, lk = c.q.shape[0], c.shape[2], c.shape[3]
    # in bits, |l_ij| <= |q_i| |k_j| (q carries the scaling and log2 e), and <= softcap
    # log2(e) / tau: below the bound, only the masked parts of a tile can fall under the
    # exp2 floor
    bound = _max_abs(c.q.norm(dim=-1)) * _max_abs(c.kt.norm(dim=1))
    if c.softcap is not None:
        bound = min(bound, c.softcap * _LOG2E) / c.tau
    sums = _CausalSums(
        out,
        c.q.new_empty(4, bh, lq),
        c.q.new_zeros(bh, lq),
        torch.arange(lk, device=c.q.device, dtype=c.q.dtype),
        2 * bound < -math.log2(_TINY),
        c.q.device.type == "cpu" and bound < _NO_SHIFT_BITS,
        window,
        acc is not None,
    )
    tiles = _causal_tiles(session, bh, lq, lk, window, c.q.device.type)
    _run_tiles(lambda tile, slot: _causal_tile(session, c, sums, tile, slot), tiles, c.q.device)
    if acc is not None:
        den, rows = sums.rows[0], sums.rows
        i = torch.arange(lq, device=den.device, dtype=den.dtype)
        blk = {"ok": den > 0, "pmax": torch.exp2(rows[3] - sums.shift) / den}
        blk["entropy"] = torch.log(den) - rows[2] * (1 / _LOG2E) / den  # bits to nats
        blk["distance"] = i - rows[1] / den
        acc.add(blk, 0, lq, 0)


_TILE_POOLS: dict = {}  # number of workers -> ThreadPoolExecutor of single-threaded workers


def _tile_pool(n: int) -> ThreadPoolExecutor:
    pool = _TILE_POOLS.get(n)
    if pool is None:
        pool = _TILE_POOLS[n] = ThreadPoolExecutor(
            n, thread_name_prefix="lengthx-tiles", initializer=torch.set_num_threads, initargs=(1,)
        )
    return pool


os.register_at_fork(after_in_child=_TILE_POOLS.clear)  # a child has none of the threads


def _run_tiles(work, tiles: list, device: torch.device) -> None:
    """``work(tile, slot)`` for every tile: in this thread off the CPU or with one torch
    thread; else on ``torch.get_num_threads()`` workers whose torch operations are
    single-threaded, each taking the next tile when it is done with one (worker ``slot``
    has its own work buffers).  One wait at the end instead of one thread barrier per
    operation: on a busy machine, a worker that loses its core delays only its own tile."""
    n = min(len(tiles), torch.get_num_threads()) if device.type == "cpu" else 1
    if n <= 1:
        for tile in tiles:
            work(tile, 0)
        return
    todo, lock, stop = iter(tiles), threading.Lock(), threading.Event()

    def worker(slot: int) -> None:
        while not stop.is_set():
            with lock:
                tile = next(todo, None)
            if tile is None:
                return
            try:
                work(tile, slot)
            except BaseException:
                stop.set()
                raise

    futures = [_tile_pool(n).submit(worker, slot) for slot in range(n)]
    try:
        for f in futures:
            f.result()
    finally:
        stop.set()
        wait(futures)


class _Accumulator:
    """Per-head sums of one call on the device, added to the statistics once."""

    def __init__(self, stats: AttentionStats, name: str, shape: tuple, device):
        self.stats, self.name, self.shape = stats, name, shape
        bsz, heads, lq, lk = shape
        self.sums = torch.zeros(4, heads, dtype=torch.float64, device=device)
        self.mass = None
        if stats.wants_mass(name):
            self.n = max(lq, lk)
            self.mass = torch.zeros(heads, 2 * self.n - 1, dtype=torch.float64, device=device)

    def row_filter(self, r0: int, r1: int) -> torch.Tensor | None:
        qf = self.stats.query_from
        return None if qf <= r0 else torch.arange(r0, r1) >= qf

    def add(self, blk: dict, r0: int, r1: int, lo: int) -> None:
        bsz, heads = self.shape[:2]
        keep = blk["ok"]
        if self.stats.query_from > r0:
            keep = keep & (torch.arange(r0, r1, device=keep.device) >= self.stats.query_from)
        keep = keep.view(bsz, heads, -1)
        for k, key in enumerate(("pmax", "entropy", "distance")):
            v = torch.where(keep, blk[key].view(bsz, heads, -1), 0.0)
            self.sums[k + 1] += v.sum((0, 2)).double()
        self.sums[0] += keep.sum((0, 2)).double()
        if self.mass is not None:
            from empirical.capture.stats import skew_sum

            p = (blk["probs"].view(bsz, heads, r1 - r0, -1) * keep[..., None]).sum(0)
            sk = skew_sum(p)  # index c: offset c-(b-1)+lo-r0
            first = lo - r0 - (r1 - r0 - 1) + self.n - 1
            self.mass[:, first : first + sk.shape[1]] += sk.double()

    def flush(self) -> None:
        bsz, heads, lq, lk = self.shape
        s = self.sums.cpu().numpy()
        self.stats.add_sums(
            self.name,
            heads,
            max(lq, lk),
            s[0],
            s[1],
            s[2],
            s[3],
            None if self.mass is None else self.mass.cpu().numpy(),
        )


def _prepare(query, key, value, mask, bias, scale, tau, causal, softcap, tiled=False) -> _Call:
    """The call flattened to float32 (B*H, L, .); for the tiled causal path (``tiled``)
    the queries also carry log2 e, so that their logits are in bits, and the values are
    not augmented (its tiles sum the weights and positions apart)."""
    bsz, heads, lq, d = query.shape
    lk, dv = key.shape[2], value.shape[3]
    valid, add = _split_mask(mask)
    linear = bias is None and softcap is None and add is None
    f = torch.float32
    unit = _LOG2E if tiled else 1.0
    q = query.to(f).reshape(bsz * heads, lq, d) * ((scale / tau if linear else scale) * unit)
    k = key.to(f).reshape(bsz * heads, lk, d)
    v = value.to(f).reshape(bsz * heads, lk, dv).contiguous()
    j = torch.arange(lk, device=q.device, dtype=f)[None, :, None].expand(bsz * heads, lk, 1)
    pad = (-(dv + 2)) % 16  # aligned widths are markedly faster in the product
    cols = [v, torch.ones_like(j), j] + ([j.new_zeros(bsz * heads, lk, pad)] if pad else [])
    return _Call(
        q,
        k.transpose(1, 2),
        v if tiled else torch.cat(cols, -1),
        dv,
        (bsz, heads, lq, lk),
        float(scale),
        float(tau),
        bool(causal),
        linear,
        None if bias is None else bias.to(f),
        valid,
        softcap,
        add,
        tiled,
    )


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
    tau = session.tau_for(name)
    scale = query.shape[-1] ** -0.5 if scale is None else scale
    session.calls += 1
    session.hit = True
    if torch.is_grad_enabled() and any(
        t is not None and t.requires_grad for t in (query, key, value, bias)
    ):
        return _attend_reference(
            session, name, query, key, value, mask, bias, scale, causal, softcap, tau
        )
    st = session.stats
    plain = None
    if not (st and (st.wants_mass(name) or st.wants_sorted(name))):  # rows not needed whole
        plain = _plain_structure(mask, bias, causal, window, query.shape[2], key.shape[2])
    if plain is not None and _fused_wanted(session, query):
        return _attend_fused(session, name, query, key, value, scale, softcap, *plain)
    tiled = plain is not None and plain[0]
    c = _prepare(query, key, value, mask, bias, scale, tau, causal, softcap, tiled=tiled)
    bsz, heads, lq, lk = c.shape
    out = c.q.new_empty(bsz * heads, lq, c.dv)
    acc = _Accumulator(st, name, c.shape, c.q.device) if st is not None else None
    if tiled:
        _attend_causal(session, c, out, acc, plain[1])
    else:
        b = session.rows_per_block(bsz, heads, lk, lq, c.q.device.type)
        for r0 in range(0, lq, b):
            _run_block(session, name, c, r0, min(lq, r0 + b), out, acc)
    if acc is not None:
        acc.flush()
    return out.view(bsz, heads, lq, c.dv).to(query.dtype)


def _fused_wanted(session: CaptureSession, query: torch.Tensor) -> bool:
    """Whether a :func:`_plain_structure` call goes to the fused Triton kernel:
    ``session.fused``, else on CUDA when triton is importable."""
    if session.fused is not None:
        return session.fused
    return query.device.type == "cuda" and importlib.util.find_spec("triton") is not None


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


def _attend_fused(session, name, query, key, value, scale, softcap, causal, window):
    """:func:`attend` through :func:`empirical.capture.fused_kernel.fused_attention_stats`, for a
    :func:`_plain_structure` call ``(causal, window)``."""
    bsz, heads, lq, d = query.shape
    lk, dv = key.shape[2], value.shape[3]
    from empirical.capture.fused_kernel import fused_attention_stats

    out, rows = fused_attention_stats(
        query.reshape(bsz * heads, lq, d),
        key.reshape(bsz * heads, lk, d),
        value.reshape(bsz * heads, lk, dv),
        scale=scale,
        causal=causal,
        window=window,
        softcap=softcap,
        tau=session.tau_for(name),
    )
    spec = (query.device, query.dtype, d, dv, causal, window, softcap, session.tau_for(name))
    if spec not in session._fused_checked:
        _check_fused_rows(session.model_class, query, key, value, out, rows, spec, scale)
        session._fused_checked.add(spec)
    if session.stats is not None:
        ok = rows[0] > 0
        den = torch.where(ok, rows[0], 1.0)
        blk = {"ok": ok, "pmax": 1 / den, "entropy": den.log() - rows[2] / den}
        blk["distance"] = rows[1] / den
        acc = _Accumulator(session.stats, name, (bsz, heads, lq, lk), query.device)
        acc.add(blk, 0, lq, 0)
        acc.flush()
    return out.view(bsz, heads, lq, dv)


_CHECK_ROWS = 16  # query rows of the first fused call recomputed in float32


def _check_fused_rows(model_class, query, key, value, out, rows, spec, scale) -> None:
    """Recompute the last rows of the first call of each kind (device, dtype, causal,
    window, softcap, tau) by materialising their logits in float32, and raise
    :class:`CaptureUnsupported` if the fused kernel's output or statistics differ (a check
    of the kernel on the user's own hardware).  Tolerances: 1e-3 for the statistics,
    and 2e-2 of the largest |v| for the output in 16-bit dtypes (probabilities are rounded
    to the value dtype before the product), 1e-4 in float32."""
    device, dtype, d, dv, causal, window, softcap, tau = spec
    lq, lk = query.shape[2], key.shape[2]
    i = torch.arange(max(0, lq - _CHECK_ROWS), lq, device=device)[:, None]
    j = torch.arange(lk, device=device)[None, :]
    q, k, v = (t[0].float() for t in (query[:, :, i[:, 0]], key, value))  # (H, r, .)
    lg = q @ k.transpose(-1, -2) * scale
    if softcap is not None:
        lg = softcap * torch.tanh(lg / softcap)
    lg = lg / tau
    vis = (j <= i) if causal else torch.ones_like(j > i)
    if window is not None:
        vis = vis & (j > i - window)
    p = torch.softmax(lg.masked_fill(~vis, float("-inf")), -1).nan_to_num(0.0)
    dist = (p * (i - j).abs()).sum(-1)
    ent = torch.special.entr(p).sum(-1)
    heads = query.shape[1]
    s = rows[:, :heads, i[:, 0]]  # the first sequence of the batch
    den = torch.where(s[0] > 0, s[0], 1.0)
    got = {"pmax": 1 / den, "entropy": den.log() - s[2] / den, "distance": s[1] / den}
    want = {"pmax": p.amax(-1), "entropy": ent, "distance": dist}
    ok = vis.any(-1)  # rows with a visible key; the others must have S = 0
    err = {k: _max_abs((got[k] - want[k])[:, ok]) for k in got}
    err["distance"] /= max(1, lk)
    err["empty rows"] = float(((s[0] > 0) != ok).sum())
    scale_v = float(v.abs().max()) if v.numel() else 1.0
    tol_out = (1e-4 if dtype == torch.float32 else 2e-2) * max(1.0, scale_v)
    err_out = _max_abs(out[:heads, i[:, 0]].float() - p @ v)
    if max(err.values()) > 1e-3 or err_out > tol_out:
        raise CaptureUnsupported(
            f"{model_class}: the fused attention kernel disagrees with a float32 recomputation "
            f"on {device} ({dtype}): statistics error {err}, output error {err_out:.3g}; "
            "run with capture(..., fused=False)"
        )


def _attend_reference(session, name, query, key, value, mask, bias, scale, causal, softcap, tau):
    """Out-of-place path for autograd: the same logits, softmax per block."""
    valid, add = _split_mask(mask)
    lq, lk = query.shape[2], key.shape[2]
    outs = []
    b = session.rows_per_block(query.shape[0], query.shape[1], lk, lq)
    for r0 in range(0, lq, b):
        r1 = min(lq, r0 + b)
        s = torch.matmul(query[:, :, r0:r1].float(), key.float().transpose(-1, -2)) * scale
        if bias is not None:
            s = s + (bias[..., r0:r1, :] if bias.shape[-2] > 1 else bias)
        if softcap is not None:
            s = torch.tanh(s / softcap) * softcap
        if add is not None:
            s = s + (add[..., r0:r1, :] if add.shape[-2] > 1 else add)
        s = s / tau
        ok = torch.ones(r1 - r0, lk, dtype=torch.bool, device=s.device)
        if causal:
            i = torch.arange(r0, r1, device=s.device)[:, None]
            ok = torch.arange(lk, device=s.device)[None] <= i
        if valid is not None:
            ok = ok & (valid[..., r0:r1, :] if valid.shape[-2] > 1 else valid)
        s = s.masked_fill(~ok, float("-inf"))
        p = torch.softmax(s, -1).nan_to_num(0.0)
        if session.stats is not None:
            session.stats.update(name, s.detach(), p.detach(), r0, raw_logits=s.detach() * tau)
        outs.append(torch.matmul(p, value.float()))
    return torch.cat(outs, 2).to(query.dtype)


# ---- routes into attend ------------------------------------------------------------
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
    entry = _MODULES.get(id(module))
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
    repeat = session.hit and session.current == name
    session.first_qk = session.first_qk if repeat else (query, key)
    stats, calls = session.stats, session.calls
    if repeat:  # the same softmax rows again: computed, not counted
        session.stats = None
    session.busy = True
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
        session.stats, session.busy = stats, False
        if repeat:
            session.calls = calls
    return out.transpose(1, 2).contiguous(), None


def _check_call(session, name, module, query, key, causal, dropout, kwargs) -> None:
    """:class:`CaptureUnsupported` naming the module for a call the capture would not
    compute as the model does: a tensor argument it does not apply, dropout in training,
    more or fewer keys than queries outside an encoder-decoder model, or a second call
    of the module with other queries or keys."""
    what = f"{session.model_class}: attention module {name!r} ({type(module).__name__})"
    unknown = sorted(
        k for k, v in kwargs.items() if isinstance(v, torch.Tensor) and k not in _PASSIVE_KWARGS
    )
    if unknown:
        raise CaptureUnsupported(
            f"{what} passes {', '.join(unknown)} to the attention function, which the "
            "capture does not apply"
        )
    if module.training and dropout:
        raise CaptureUnsupported(
            f"{session.model_class}: capture is for inference: call model.eval()"
        )
    lq, lk = query.shape[2], key.shape[2]
    if lk != lq and (causal or not session.cross_attention):
        raise CaptureUnsupported(
            f"{what} attends from {lq} queries to {lk} keys (keys beside the sequence's, "
            "such as compressed ones, or a cache); not supported"
        )
    first = session.first_qk if session.hit and session.current == name else None
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
    """:func:`attend` for a module with an attention sink (GPT-OSS's ``s_aux``, one logit
    per head, or Inkling-2's ``sinks``, one per row (B, H, L, 1)), added to every row's
    softmax denominator and attached to no value, by blocks of rows whose logits are
    materialised; statistics by :func:`empirical.capture.softmax_rows.record_rows`
    (docs/conventions.md, "Attention sinks").  The temperature divides the sink's logit
    too; ``bias`` is added and ``softcap`` applied before the mask, as in eager."""
    from empirical.capture.softmax_rows import key_positions, record_rows

    session.calls += 1
    session.hit = True
    tau = session.tau_for(name)
    scale = query.shape[-1] ** -0.5 if scale is None else scale
    valid, add = _split_mask(mask)
    bsz, heads, lq, _ = query.shape
    lk = key.shape[2]
    rv = session.valid_rows(name, bsz, lq)
    k, v = key.float().transpose(-1, -2), value.float()
    sk = sink.float().reshape(1, -1, 1, 1) if sink.ndim == 1 else sink.float()
    sk = torch.broadcast_to(sk, (bsz, heads, lq, 1))[..., 0] / tau
    outs = []
    b = session.rows_per_block(bsz, heads, lk, lq, query.device.type)
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
        p = record_rows(
            session.stats,
            name,
            s,
            qpos,
            key_positions(qpos, lk),
            sink=sk[:, :, r0:r1],
            row_valid=None if rv is None else rv[:, r0:r1],
            raw=s * tau,
        )
        outs.append(torch.matmul(p, v))
    return torch.cat(outs, 2).to(query.dtype)


_CAUSAL_SKIP: list = []  # per open capture: may a causal mask be left to is_causal


def capture_mask(*args: Any, **kwargs: Any) -> Any:
    """The mask function registered with the capture: sdpa's, which leaves out a mask
    that is only causal (the call then follows the module's ``is_causal``), except while
    a model without sdpa support is captured: its modules may not set ``is_causal`` and
    rely on the mask as in eager attention, so the mask is always built."""
    if _CAUSAL_SKIP and not all(_CAUSAL_SKIP):
        kwargs["allow_is_causal_skip"] = False
    return sdpa_mask(*args, **kwargs)


def _register_globally():
    AttentionInterface.register(CAPTURE_NAME, capture_attention_forward)
    AttentionMaskInterface.register(CAPTURE_NAME, capture_mask)


def _unregister_globally():
    AttentionInterface._global_mapping.pop(CAPTURE_NAME, None)
    AttentionMaskInterface._global_mapping.pop(CAPTURE_NAME, None)


# ---- modules that materialise their softmax (no attention interface) -----------------
_SOFTMAX = torch.nn.functional.softmax
_TORCH_SOFTMAX = torch.softmax
_TENSOR_SOFTMAX = torch.Tensor.softmax
_SOFTMAX_SESSIONS: list = []


def _routing_session(x, dim) -> CaptureSession | None:
    """The open capture whose current module has not yet gone through the capture, when
    ``x`` looks like attention logits (4-D, or LongT5's 5-D blocks; softmax over the
    last dimension)."""
    if not isinstance(x, torch.Tensor) or x.ndim < 4 or dim not in (-1, x.ndim - 1):
        return None
    for s in _SOFTMAX_SESSIONS:
        if s.current is None or s.busy:
            continue
        if not s.hit:
            return s
        mod = s.modules.get(s.current)
        raise CaptureUnsupported(
            f"{s.model_class}: attention module {s.current!r} ({type(mod).__name__}) "
            f"computes another softmax of shape {tuple(x.shape)} after its attention; "
            "not supported"
        )
    return None


def _softmax_proxy(x, dim=None, _stacklevel=3, dtype=None):
    """``torch.nn.functional.softmax`` while a capture is open (also ``torch.softmax``
    and ``Tensor.softmax``): attention softmaxes of captured modules go to
    :func:`softmax_with_stats`, everything else to the original."""
    s = _routing_session(x, dim)
    if s is None:
        return _SOFTMAX(x, dim=dim, _stacklevel=_stacklevel, dtype=dtype)
    s.hit = True
    s.calls += 1
    s.busy = True
    try:
        return softmax_with_stats(s, s.current, x).to(dtype or x.dtype)
    finally:
        s.busy = False


def _torch_softmax_proxy(x, dim, dtype=None, **kw):
    if _routing_session(x, dim) is None:
        return _TORCH_SOFTMAX(x, dim, dtype=dtype, **kw)
    return _softmax_proxy(x, dim, dtype=dtype)


def _tensor_softmax_proxy(self, dim, dtype=None, **kw):
    if _routing_session(self, dim) is None:
        return _TENSOR_SOFTMAX(self, dim, dtype=dtype, **kw)
    return _softmax_proxy(self, dim, dtype=dtype)


def _patch_softmax(session: CaptureSession) -> None:
    _SOFTMAX_SESSIONS.append(session)
    torch.nn.functional.softmax = _softmax_proxy
    torch.softmax = _torch_softmax_proxy
    torch.Tensor.softmax = _tensor_softmax_proxy


def _unpatch_softmax(session: CaptureSession) -> None:
    _SOFTMAX_SESSIONS.remove(session)
    if not _SOFTMAX_SESSIONS:
        torch.nn.functional.softmax = _SOFTMAX
        torch.softmax = _TORCH_SOFTMAX
        torch.Tensor.softmax = _TENSOR_SOFTMAX


def softmax_with_stats(session: CaptureSession, name: str, x: torch.Tensor) -> torch.Tensor:
    """softmax(x / tau) of logits that a module materialised, with the statistics of
    every row: (B, H, L, K) with key ``j`` at position ``j``, or LongT5's blocked local
    (and transient-global) layout (B, nb, H, bl, K).  Entries at most half the dtype's
    minimum (or below -1e9) count as masked."""
    from empirical.capture.softmax_rows import masked_to_inf, key_positions, record_rows

    tau = session.tau_for(name)
    lg = masked_to_inf(x, tau)
    mod = session.modules.get(name)
    if x.ndim == 5 and hasattr(mod, "block_len") and x.shape[-2] == mod.block_len:
        return _blocked_softmax(session, name, mod, x, lg, tau)
    if x.ndim != 4:
        raise CaptureUnsupported(
            f"{session.model_class}: attention module {name!r} ({type(mod).__name__}) "
            f"computes a softmax of shape {tuple(x.shape)} whose key positions are unknown"
        )
    bsz, heads, lq, lk = x.shape
    if session.seq_len is not None and lq != session.seq_len:
        raise CaptureUnsupported(
            f"{session.model_class}: attention module {name!r} ({type(mod).__name__}) "
            f"computes a softmax of shape {tuple(x.shape)} whose rows are not its "
            f"{session.seq_len} query positions"
        )
    qpos = torch.arange(lq, device=x.device)
    p = record_rows(
        session.stats,
        name,
        lg,
        qpos,
        key_positions(qpos, lk),
        row_valid=session.valid_rows(name, bsz, lq),
        raw=lg * tau,
    )
    return _same_as_model(p, lg, x, tau)


def _same_as_model(p: torch.Tensor, lg: torch.Tensor, x: torch.Tensor, tau: float):
    """``p`` where a row has a visible key; the model's own softmax of ``x / tau`` in
    rows it masks whole (their output is kept as the model computes it)."""
    empty = ~torch.isfinite(lg).any(-1)
    if bool(empty.any()):
        p = torch.where(empty[..., None], _SOFTMAX(x.float() / tau, dim=-1), p)
    return p


def _blocked_softmax(session, name, mod, x, lg, tau):
    """LongT5's local / transient-global blocks (B, nb, H, bl, K): statistics of the
    rows of the sequence's tokens at their positions."""
    from empirical.capture.softmax_rows import blocked_local_layout, record_rows

    bsz, nb, heads, bl, kk = x.shape
    seq_len = session.seq_len or nb * bl
    if session.stats is not None and session.stats.wants_mass(name) and kk > 3 * bl:
        raise CaptureUnsupported(
            f"{session.model_class}: no per-offset mass for {type(mod).__name__} "
            "(its global keys stand for blocks of tokens)"
        )
    qpos, kpos, kdist, key_ok = blocked_local_layout(
        x, bl, seq_len, getattr(mod, "global_block_size", None)
    )
    rows = lg.permute(0, 2, 1, 3, 4).reshape(bsz, heads, nb * bl, kk)
    rows = rows.masked_fill(~key_ok, float("-inf"))[:, :, :seq_len]
    rv = session.valid_rows(name, bsz, seq_len)
    p = record_rows(
        session.stats,
        name,
        rows,
        qpos[:seq_len],
        kpos[:seq_len],
        row_valid=rv,
        raw=rows * tau,
        kdist=None if kdist is None else kdist[:seq_len],
    )
    full = _SOFTMAX(x.float() / tau, dim=-1)  # padded rows of the last block, as computed
    full = full.permute(0, 2, 1, 3, 4).reshape(bsz, heads, nb * bl, kk).clone()
    keep = torch.isfinite(rows).any(-1, keepdim=True)
    full[:, :, :seq_len] = torch.where(keep, p, full[:, :, :seq_len])
    return full.reshape(bsz, heads, nb, bl, kk).permute(0, 2, 1, 3, 4)


_SDPA = torch.nn.functional.scaled_dot_product_attention
_SDPA_SESSIONS: list = []


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
    directly (Falcon) is open: calls made inside a captured module go to :func:`attend`."""
    for s in _SDPA_SESSIONS:
        if s.current is not None and not s.hit:
            if dropout_p:
                raise CaptureUnsupported(f"{s.model_class}: capture is for inference")
            n_rep = query.shape[1] // key.shape[1]
            key, value = repeat_kv(key, n_rep), repeat_kv(value, n_rep)
            s.busy = True
            try:
                return attend(
                    s,
                    s.current,
                    query,
                    key,
                    value,
                    attn_mask,
                    None,
                    scale,
                    bool(is_causal) and attn_mask is None,
                )
            finally:
                s.busy = False
    return _SDPA(
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


def supports_interface(model: torch.nn.Module) -> bool:
    """Whether the model's attention goes through transformers' ``AttentionInterface``."""
    can = getattr(type(model), "_can_set_attn_implementation", None)
    return bool(can is not None and can())


def _input_length(args, kwargs) -> int | None:
    h = kwargs.get("hidden_states", args[0] if args else None)
    return int(h.shape[1]) if isinstance(h, torch.Tensor) and h.ndim == 3 else None


def _check_hooks(session: CaptureSession, mods: dict) -> list:
    """Forward hooks that fail loudly when an attention module was not captured."""
    hooks = []

    def pre(mod, args, kwargs, name):
        session.current, session.hit, session.first_qk = name, False, None
        session.seq_len = _input_length(args, kwargs)

    def post(mod, args, output, name):
        hit, session.current = session.hit, None
        if not hit:
            raise CaptureUnsupported(
                f"{session.model_class}: attention module {name!r} ({type(mod).__name__}) "
                f"ran without going through the capture (attention implementation "
                f"{getattr(mod, 'config', None) and mod.config._attn_implementation!r}); "
                "this architecture or setting is not supported"
            )

    for n in session.names:
        hooks.append(
            mods[n].register_forward_pre_hook(
                lambda m, a, k, n=n: pre(m, a, k, n), with_kwargs=True
            )
        )
        hooks.append(mods[n].register_forward_hook(lambda m, a, o, n=n: post(m, a, o, n)))
    return hooks


def _positional_index(mod: torch.nn.Module, name: str) -> int | None:
    """Position of the parameter ``name`` of ``mod.forward`` (for masks passed
    positionally), None when it has none."""
    import inspect

    try:
        params = list(inspect.signature(mod.forward).parameters)
    except (TypeError, ValueError):
        return None
    return params.index(name) if name in params else None


def _padding_hooks(session: CaptureSession, model: torch.nn.Module) -> list:
    """Hooks that keep the model's ``attention_mask`` (and ``decoder_attention_mask``)
    so that padded query rows are left out of the statistics; every module under an
    encoder-decoder model's decoder reads the decoder's mask."""
    enc = None
    if getattr(model.config, "is_encoder_decoder", False) and hasattr(model, "get_encoder"):
        enc = model.get_encoder()
    for n in session.names:
        session.row_side[n] = "enc"
    if enc is not None:
        prefix = next((k for k, m in model.named_modules() if m is enc), None)
        for n in session.names:
            if prefix is not None and not (n + ".").startswith(prefix + "."):
                session.row_side[n] = "dec"

    def grab(mod, args, kwargs, side_of):
        for key, side in side_of:
            m = kwargs.get(key)
            at = _positional_index(mod, key)
            if m is None and at is not None and at < len(args):
                m = args[at]
            if isinstance(m, torch.Tensor) and m.ndim == 2:
                session.row_valid[side] = m.bool()
            elif key == "attention_mask":
                session.row_valid.pop(side, None)

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
    return hooks


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
    """Install the capture on ``model``; yields the :class:`CaptureSession`.

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
    session = CaptureSession(
        stats,
        tau,
        list(tau_layers) if tau_layers else None,
        block_size,
        block_bytes,
        type(model).__name__,
        fused=fused,
    )
    names = attention_module_names(model)
    if not names:
        raise CaptureUnsupported(f"{type(model).__name__}: no attention modules found")
    session.names = names
    session.cross_attention = bool(getattr(model.config, "is_encoder_decoder", False))
    mods = dict(model.named_modules())
    session.modules = {n: mods[n] for n in names}
    prev = model.config._attn_implementation
    hooks, sdpa_patched = [], False
    _ACTIVE[0] += 1
    _register_globally()
    _patch_softmax(session)
    _CAUSAL_SKIP.append(bool(getattr(model, "_supports_sdpa", False)))
    try:
        for n in names:
            _MODULES[id(mods[n])] = (session, n)
        if supports_interface(model):
            model.set_attn_implementation(CAPTURE_NAME)
        else:
            _SDPA_SESSIONS.append(session)
            sdpa_patched = True
            torch.nn.functional.scaled_dot_product_attention = _sdpa_proxy
        hooks = _check_hooks(session, mods) + _padding_hooks(session, model)
        yield session
    finally:
        for h in hooks:
            h.remove()
        _unpatch_softmax(session)
        _CAUSAL_SKIP.pop()
        if sdpa_patched:
            _SDPA_SESSIONS.remove(session)
            if not _SDPA_SESSIONS:
                torch.nn.functional.scaled_dot_product_attention = _SDPA
        for n in names:
            _MODULES.pop(id(mods[n]), None)
        if model.config._attn_implementation == CAPTURE_NAME:
            model.set_attn_implementation(prev)
        _ACTIVE[0] -= 1
        if _ACTIVE[0] == 0:
            _unregister_globally()


_unregister_globally()  # registered only while a capture is open
