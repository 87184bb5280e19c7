"""Fused attention forward that also returns the sums behind per-row softmax statistics.

One flash-attention-style Triton kernel computes, for every query row :math:`i`, the
attention output and four row sums, never forming the :math:`L_q \\times L_k` matrix.
The logits are

.. math:: l_{ij} = \\frac{1}{\\tau}\\,\\mathrm{cap}(s\\, q_i\\cdot k_j), \\qquad
          \\mathrm{cap}(x) = c \\tanh(x/c)\\ \\text{(Gemma-2 softcapping, if } c
          \\text{ is given)}

over the visible keys: every :math:`j < L_k`; with ``causal`` only :math:`j \\le i`
(top-left aligned, as ``scaled_dot_product_attention(is_causal=True)``); with ``window``
:math:`w` additionally :math:`i - j < w`.  For causal attention this is exactly the sliding
window of transformers' Mistral / Gemma-2 (``transformers.masking_utils.sliding_window_overlay``
keeps ``kv_idx > q_idx - sliding_window``, i.e. the query and its :math:`w-1` predecessors).
Without ``causal`` the window is one-sided (every later key stays visible); it is *not*
transformers' ``sliding_window_bidirectional_overlay``, which keeps :math:`|i-j| \\le w`.

Key blocks are visited left to right with the online-softmax recurrence (Milakov &
Gimelshein 2018; FlashAttention, Dao et al. 2022, Algorithm 1).  A block with logits
:math:`l_{ij}` raises the running maximum :math:`m` to
:math:`m' = \\max(m, \\max_j l_{ij})`; with :math:`\\alpha = e^{m - m'}` and
:math:`p_{ij} = e^{l_{ij} - m'}`

.. math:: S' = \\alpha S + \\sum_j p_{ij}, \\qquad
          D' = \\alpha D + \\sum_j p_{ij} |i - j|, \\qquad
          A' = \\alpha A + \\sum_j p_{ij} v_j,

.. math:: E' = \\alpha\\,\\bigl(E + (m - m') S\\bigr) + \\sum_j p_{ij} (l_{ij} - m'),

since :math:`\\sum_j e^{l_{ij}-m}(l_{ij}-m)\\,e^{m-m'} = \\sum_j e^{l_{ij}-m'}(l_{ij}-m') -
(m - m') \\sum_j e^{l_{ij}-m'}`.  At the end ``out = A / S`` and
``rows = [S, D, E, m]``, so that :math:`P_{max} = 1/S`, the entropy is
:math:`\\log S - E/S` and the mean attended distance :math:`D/S`.  A row with no visible key
(possible with a window when :math:`L_q > L_k`) gets ``out = 0``, :math:`S = 0`,
:math:`m = -\\infty`.

Key blocks wholly above the causal diagonal or wholly left of the window are never read,
so causal attention costs about half of bidirectional attention; key blocks that every row
of a query block sees are swept without evaluating the mask.  ``tl.dot`` runs with
``input_precision="ieee"`` for float32 inputs (no TF32) and on the native tensor-core path
for bfloat16 / float16 inputs (the probabilities are rounded to the value dtype before
the :math:`PV` product, as in FlashAttention); every sum is accumulated in float32.

Verification and what is not verified.  The kernel is checked here in Triton's interpreter
on CPU (``TRITON_INTERPRET=1`` in the environment before ``triton`` is first imported; there
bfloat16 operands are widened to float32 before ``tl.dot``, whose interpreted bfloat16
product is wrong) against a float64 softmax, and compiled without a GPU for sm_90 (H100) by
:func:`compile_kernel` (16-bit inputs take the ``wgmma`` tensor-core path):
``tests/empirical/test_fused_kernel.py``.
It has **never run on a GPU here: neither its GPU results nor its GPU speed have been
measured**.  The interpreter computes with numpy, not with the GPU's ``ex2.approx`` and
tensor-core summation order, so the tolerances reached there are not a GPU measurement; the
default :func:`default_tiles` only avoid register spills at compile time and are untuned.
Inputs with NaN or infinite entries are not supported.

A row's statistics from the sums (on a GPU; the same call runs on CPU tensors under the
interpreter):

>>> q = k = v = torch.randn(8, 4096, 64, device="cuda", dtype=torch.bfloat16)  # doctest: +SKIP
>>> out, (S, D, E, m) = fused_attention_stats(q, k, v, scale=0.125, causal=True)  # doctest: +SKIP
>>> p_max, entropy, mean_distance = 1 / S, S.log() - E / S, D / S  # doctest: +SKIP

The logit specification is checked before any launch:

>>> LogitSpec(scale=0.125, causal=True, window=0)
Traceback (most recent call last):
    ...
ValueError: window must be an integer >= 1, got 0
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import torch
import triton
import triton.language as tl

# Coefficients of tanh(x) = x (1 + c1 x^2 + c2 x^4 + ...), Abramowitz & Stegun 4.5.64.
_T3, _T5, _T7 = tl.constexpr(-1 / 3), tl.constexpr(2 / 15), tl.constexpr(-17 / 315)
_T9, _T11 = tl.constexpr(62 / 2835), tl.constexpr(-1382 / 155925)


@triton.jit
def _tanh(x):
    """tanh in float32 to a few ulps: Taylor series to x^11 for |x| < 1/4 (remainder below
    2e-9 relative), otherwise (1 - t) / (1 + t) with t = exp(-2|x|) <= e^-1/2."""
    a = tl.abs(x)
    t = tl.exp(-2.0 * a)
    big = (1.0 - t) / (1.0 + t)
    z = a * a
    small = a * (1.0 + z * (_T3 + z * (_T5 + z * (_T7 + z * (_T9 + z * _T11)))))
    r = tl.where(a < 0.25, small, big)
    return tl.where(x < 0, -r, r)


@triton.jit
def _dot(a, b, DOT: tl.constexpr):
    """a @ b accumulated in float32: IEEE for float32 operands (DOT 0), the native tensor-core
    path for 16-bit ones (DOT 1), or 16-bit operands widened to float32 first (DOT 2: Triton
    3.9's interpreter multiplies bfloat16 operands as their raw uint16 storage)."""
    if DOT == 0:
        r = tl.dot(a, b, input_precision="ieee")
    elif DOT == 1:
        r = tl.dot(a, b)
    else:
        r = tl.dot(a.to(tl.float32), b.to(tl.float32), input_precision="ieee")
    return r


@triton.jit
def _key_range(row0, Lk, window, CAUSAL: tl.constexpr, WINDOWED: tl.constexpr,
               BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):  # fmt: skip
    """Keys [lo, hi) that rows row0 .. row0+BLOCK_M-1 may see, lo a multiple of BLOCK_N."""
    hi = Lk
    if CAUSAL:
        hi = tl.minimum(hi, row0 + BLOCK_M)
    lo = 0
    if WINDOWED:
        lo = tl.maximum(0, row0 - window + 1)
        lo = (lo // BLOCK_N) * BLOCK_N
    return lo, hi


@triton.jit
def _unmasked_range(row0, lo, hi, Lk, window, CAUSAL: tl.constexpr, WINDOWED: tl.constexpr,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):  # fmt: skip
    """[a, b) within [lo, hi): whole key blocks every row of the block sees (no mask needed),
    a and b multiples of BLOCK_N; [lo, a) and [b, hi) are swept with the mask."""
    full_hi = (Lk // BLOCK_N) * BLOCK_N  # no ragged tail
    if CAUSAL:  # j <= row0 for every key
        full_hi = tl.minimum(full_hi, ((row0 + 1) // BLOCK_N) * BLOCK_N)
    full_lo = lo
    if WINDOWED:  # j >= row0 + BLOCK_M - window for every key
        full_lo = tl.cdiv(tl.maximum(0, row0 + BLOCK_M - window), BLOCK_N) * BLOCK_N
    a = tl.minimum(tl.maximum(full_lo, lo), hi)
    b = tl.maximum(a, tl.minimum(full_hi, hi))
    return a, b


@triton.jit
def _logits(q, K, offs_n, offs_d, skm, Lk, d, scale, inv_tau, softcap,
            SOFTCAP: tl.constexpr, DOT: tl.constexpr):  # fmt: skip
    """cap(scale * q k^T) / tau for one key block (BLOCK_M x BLOCK_N, float32)."""
    kt = tl.load(
        K + offs_n[None, :] * skm + offs_d[:, None],
        mask=(offs_n[None, :] < Lk) & (offs_d[:, None] < d),
        other=0.0,
    )
    s = _dot(q, kt, DOT) * scale
    if SOFTCAP:
        s = softcap * _tanh(s / softcap)
    return s * inv_tau


@triton.jit
def _visible(offs_m, offs_n, Lk, window, CAUSAL: tl.constexpr, WINDOWED: tl.constexpr):
    """Mask of the visible (row, key) pairs of one block."""
    i = offs_m[:, None]
    j = offs_n[None, :]
    ok = (j < Lk) & (i >= 0)
    if CAUSAL:
        ok = ok & (j <= i)
    if WINDOWED:
        ok = ok & (i - j < window)
    return ok


@triton.jit
def _online_update(l, dist, v, m, s, dsum, esum, acc, MASKED: tl.constexpr, DOT: tl.constexpr):
    """One step of the online softmax with the extra running sums (module docstring).
    Masked logits are -inf: their p is exactly 0, and p > 0 keeps p (l - m') finite."""
    m_new = tl.maximum(m, tl.max(l, 1))
    m_use = tl.where(m_new == float("-inf"), 0.0, m_new)
    alpha = tl.exp(m - m_use)
    shift = tl.where(s > 0, m - m_use, 0.0)
    lm = l - m_use[:, None]
    p = tl.exp(lm)
    if MASKED:
        lm = tl.where(p > 0, lm, 0.0)
    plm = p * lm
    esum = alpha * (esum + shift * s) + tl.sum(plm, 1)
    s = alpha * s + tl.sum(p, 1)
    dsum = alpha * dsum + tl.sum(p * dist, 1)
    acc = acc * alpha[:, None] + _dot(p.to(v.dtype), v, DOT)
    return m_new, s, dsum, esum, acc


@triton.jit
def _sweep(q, K, V, offs_m, lo, hi, m, s, dsum, esum, acc, skm, svm, Lk, d, dv,
           scale, inv_tau, softcap, window, MASKED: tl.constexpr, CAUSAL: tl.constexpr,
           WINDOWED: tl.constexpr, SOFTCAP: tl.constexpr, DOT: tl.constexpr,
           BLOCK_N: tl.constexpr, D_PAD: tl.constexpr, DV_PAD: tl.constexpr):  # fmt: skip
    """Key blocks [lo, hi) into the running state; the mask is applied only if MASKED."""
    offs_d = tl.arange(0, D_PAD)
    offs_e = tl.arange(0, DV_PAD)
    for start in range(lo, hi, BLOCK_N):
        offs_n = start + tl.arange(0, BLOCK_N)
        l = _logits(q, K, offs_n, offs_d, skm, Lk, d, scale, inv_tau, softcap, SOFTCAP, DOT)
        if MASKED:
            ok = _visible(offs_m, offs_n, Lk, window, CAUSAL, WINDOWED)
            l = tl.where(ok, l, float("-inf"))
        dist = tl.abs(offs_m[:, None] - offs_n[None, :]).to(tl.float32)
        v = tl.load(
            V + offs_n[:, None] * svm + offs_e[None, :],
            mask=(offs_n[:, None] < Lk) & (offs_e[None, :] < dv),
            other=0.0,
        )
        m, s, dsum, esum, acc = _online_update(l, dist, v, m, s, dsum, esum, acc, MASKED, DOT)
    return m, s, dsum, esum, acc


@triton.jit
def _attention_stats_kernel(Q, K, V, O, R, sqn, sqm, skn, skm, svn, svm, son, som, plane,
                            Lq, Lk, d, dv, scale, inv_tau, softcap, window,
                            CAUSAL: tl.constexpr, WINDOWED: tl.constexpr,
                            SOFTCAP: tl.constexpr, DOT: tl.constexpr,
                            BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                            D_PAD: tl.constexpr, DV_PAD: tl.constexpr):  # fmt: skip
    """One program: BLOCK_M query rows of one (batch, head) slice, all its visible keys."""
    row0 = tl.program_id(0) * BLOCK_M
    n = tl.program_id(1).to(tl.int64)
    offs_m = row0 + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, D_PAD)
    offs_e = tl.arange(0, DV_PAD)
    q = tl.load(
        Q + n * sqn + offs_m[:, None] * sqm + offs_d[None, :],
        mask=(offs_m[:, None] < Lq) & (offs_d[None, :] < d),
        other=0.0,
    )
    m = tl.full([BLOCK_M], float("-inf"), tl.float32)
    s = tl.zeros([BLOCK_M], tl.float32)
    dsum = tl.zeros([BLOCK_M], tl.float32)
    esum = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, DV_PAD], tl.float32)
    lo, hi = _key_range(row0, Lk, window, CAUSAL, WINDOWED, BLOCK_M, BLOCK_N)
    a, b = _unmasked_range(row0, lo, hi, Lk, window, CAUSAL, WINDOWED, BLOCK_M, BLOCK_N)
    Kn, Vn = K + n * skn, V + n * svn
    for part in tl.static_range(3):  # masked edge, unmasked interior, masked edge
        if part == 0:
            start, stop = lo, a
        elif part == 1:
            start, stop = a, b
        else:
            start, stop = b, hi
        m, s, dsum, esum, acc = _sweep(
            q, Kn, Vn, offs_m, start, stop, m, s, dsum, esum, acc, skm, svm, Lk, d, dv,
            scale, inv_tau, softcap, window, part != 1, CAUSAL, WINDOWED, SOFTCAP, DOT,
            BLOCK_N, D_PAD, DV_PAD)  # fmt: skip
    out = acc / tl.where(s > 0, s, 1.0)[:, None]
    tl.store(
        O + n * son + offs_m[:, None] * som + offs_e[None, :],
        out.to(O.dtype.element_ty),
        mask=(offs_m[:, None] < Lq) & (offs_e[None, :] < dv),
    )
    r = R + n * Lq + offs_m
    live = offs_m < Lq
    tl.store(r, s, mask=live)
    tl.store(r + plane, dsum, mask=live)  # one step of plane at a time: no int32 overflow
    tl.store(r + plane + plane, esum, mask=live)
    tl.store(r + plane + plane + plane, m, mask=live)


@dataclass(frozen=True)
class LogitSpec:
    """Which logits a row sees: ``cap(scale q.k) / tau`` over the causal / window mask."""

    scale: float
    causal: bool = False
    window: int | None = None
    softcap: float | None = None
    tau: float = 1.0

    def __post_init__(self) -> None:
        if not math.isfinite(self.scale):
            raise ValueError(f"scale must be finite, got {self.scale}")
        if not (math.isfinite(self.tau) and self.tau > 0):
            raise ValueError(f"tau must be a finite positive number, got {self.tau}")
        if self.softcap is not None and not (math.isfinite(self.softcap) and self.softcap > 0):
            raise ValueError(f"softcap must be a finite positive number, got {self.softcap}")
        if self.window is not None and (
            isinstance(self.window, bool) or not isinstance(self.window, int) or self.window < 1
        ):
            raise ValueError(f"window must be an integer >= 1, got {self.window!r}")


@dataclass(frozen=True)
class KernelTiles:
    """Launch shape: rows per program, keys per loop step, warps and pipeline stages.

    Both blocks must be powers of two >= 16 (the minimum ``tl.dot`` shape)."""

    block_m: int = 64
    block_n: int = 64
    num_warps: int = 4
    num_stages: int = 2

    def __post_init__(self) -> None:
        for b in (self.block_m, self.block_n):
            if b < 16 or b & (b - 1):
                raise ValueError(f"blocks must be powers of two >= 16, got {b}")


# (float32 inputs?, largest padded head dim) -> tiles.  Chosen from sm_90 compiles (Triton
# 3.9 and its ptxas, no GPU present) of the plain and the causal+window+softcap variants
# at padded head dims 16-256: none spills registers except float32 with every flag at
# d 16 (24 bytes) and d 128 (40 bytes).  16-bit inputs use wgmma up to d 128 and mma.sync at d 256 (the 64-row
# wgmma tiles spill there).  No GPU timing backs any of them: tune on the target GPU.
_DEFAULT_TILES = [
    (True, 64, KernelTiles(64, 32, num_warps=8, num_stages=2)),
    (True, 1 << 30, KernelTiles(16, 16, num_warps=4, num_stages=2)),
    (False, 128, KernelTiles(128, 32, num_warps=8, num_stages=3)),
    (False, 1 << 30, KernelTiles(32, 32, num_warps=8, num_stages=3)),
]


def default_tiles(dtype: torch.dtype, head_dim: int) -> KernelTiles:
    """The launch shape :func:`fused_attention_stats` uses for ``dtype`` and ``max(d, dv)``.

    >>> default_tiles(torch.bfloat16, 128)
    KernelTiles(block_m=128, block_n=32, num_warps=8, num_stages=3)
    """
    wide = dtype == torch.float32
    return next(t for f, dmax, t in _DEFAULT_TILES if f == wide and _pad(head_dim) <= dmax)


def interpreted() -> bool:
    """True when Triton runs kernels in its CPU interpreter (``TRITON_INTERPRET=1``)."""
    return bool(triton.knobs.runtime.interpret)


def _check_inputs(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> None:
    if q.dim() != 3 or k.dim() != 3 or v.dim() != 3:
        raise ValueError("q, k, v must be 3-d (N, L, d)")
    if q.shape[0] != k.shape[0] or k.shape[:2] != v.shape[:2] or q.shape[2] != k.shape[2]:
        raise ValueError(
            f"shapes do not match: q {tuple(q.shape)}, k {tuple(k.shape)}, v {tuple(v.shape)}"
        )
    if q.dtype not in (torch.float32, torch.bfloat16, torch.float16):
        raise ValueError(f"dtype must be float32, bfloat16 or float16, got {q.dtype}")
    if k.dtype != q.dtype or v.dtype != q.dtype:
        raise ValueError("q, k, v must share one dtype")
    if k.device != q.device or v.device != q.device:
        raise ValueError("q, k, v must be on one device")
    if any(t.shape[2] > 1 and t.stride(2) != 1 for t in (q, k, v)):
        raise ValueError("q, k, v must be contiguous in the last dimension")


def _dot_mode(dtype: torch.dtype) -> int:
    if dtype == torch.float32:
        return 0
    return 2 if dtype == torch.bfloat16 and interpreted() else 1


def _pad(n: int) -> int:
    return max(16, triton.next_power_of_2(n))


CUDA_MAX_GRID_Y = 65535  # (batch*head) slices per launch: CUDA's cap on grid dimension y


def _launch(q, k, v, out, rows, spec: LogitSpec, tiles: KernelTiles) -> None:
    (N, Lq, d), Lk, dv = q.shape, k.shape[1], v.shape[2]
    window = spec.window if spec.window is not None and spec.window < Lq else None
    _attention_stats_kernel[(triton.cdiv(Lq, tiles.block_m), N)](
        q, k, v, out, rows,
        q.stride(0), q.stride(1), k.stride(0), k.stride(1), v.stride(0), v.stride(1),
        out.stride(0), out.stride(1), rows.stride(0), Lq, Lk, d, dv,
        float(spec.scale), 1.0 / spec.tau, float(spec.softcap or 1.0), int(window or 1),
        **_constexprs(q.dtype, d, dv, spec.causal, window is not None, spec.softcap, tiles),
        num_warps=tiles.num_warps, num_stages=tiles.num_stages)  # fmt: skip


def _constexprs(dtype, d, dv, causal, windowed, softcap, tiles: KernelTiles) -> dict:
    return dict(CAUSAL=bool(causal), WINDOWED=bool(windowed), SOFTCAP=softcap is not None,
                DOT=_dot_mode(dtype), BLOCK_M=tiles.block_m, BLOCK_N=tiles.block_n,
                D_PAD=_pad(d), DV_PAD=_pad(dv))  # fmt: skip


def fused_attention_stats_tiled(
    q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, spec: LogitSpec, tiles: KernelTiles
) -> tuple[torch.Tensor, torch.Tensor]:
    """:func:`fused_attention_stats` with an explicit launch shape."""
    _check_inputs(q, k, v)
    (N, Lq, _), Lk, dv = q.shape, k.shape[1], v.shape[2]
    if N == 0 or Lq == 0 or Lk == 0:  # nothing to launch: every row is empty
        rows = torch.zeros(4, N, Lq, dtype=torch.float32, device=q.device)
        rows[3] = -math.inf
        return torch.zeros(N, Lq, dv, dtype=q.dtype, device=q.device), rows
    out = torch.empty(N, Lq, dv, dtype=q.dtype, device=q.device)  # the kernel writes every row
    rows = torch.empty(4, N, Lq, dtype=torch.float32, device=q.device)
    for n0 in range(0, N, CUDA_MAX_GRID_Y):
        n1 = min(N, n0 + CUDA_MAX_GRID_Y)
        _launch(q[n0:n1], k[n0:n1], v[n0:n1], out[n0:n1], rows[:, n0:n1], spec, tiles)
    return out, rows


_SCALAR_ARGS = {
    **dict.fromkeys(("sqn", "sqm", "skn", "skm", "svn", "svm", "son", "som", "plane"), "i32"),
    **dict.fromkeys(("Lq", "Lk", "d", "dv"), "i32"),
    **dict.fromkeys(("scale", "inv_tau", "softcap"), "fp32"),
    "window": "i32",
}
_TRITON_TYPES = {torch.float32: "fp32", torch.bfloat16: "bf16", torch.float16: "fp16"}


def compile_kernel(
    dtype: torch.dtype,
    head_dim: int,
    *,
    causal: bool = True,
    windowed: bool = False,
    softcap: bool = False,
    arch: int = 90,
    tiles: KernelTiles | None = None,
) -> Any:
    """Compile the kernel ahead of time for an NVIDIA GPU of compute capability ``arch``
    (90: H100) without running it; no GPU is needed (Triton's own LLVM and ``ptxas``).

    Returns Triton's compiled kernel: ``.asm["ptx"]``, ``.asm["cubin"]``,
    ``.metadata.shared`` (bytes of shared memory).  Not available under the interpreter."""
    if interpreted():
        raise RuntimeError("compile_kernel needs TRITON_INTERPRET unset")
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource

    tiles = tiles or default_tiles(dtype, head_dim)
    cap = 1.0 if softcap else None
    const = _constexprs(dtype, head_dim, head_dim, causal, windowed, cap, tiles)
    ptr = f"*{_TRITON_TYPES[dtype]}"
    sig = {**dict.fromkeys("QKVO", ptr), "R": "*fp32", **_SCALAR_ARGS}
    sig |= dict.fromkeys(const, "constexpr")
    src = ASTSource(fn=_attention_stats_kernel, signature=sig, constexprs=const)
    opts = dict(num_warps=tiles.num_warps, num_stages=tiles.num_stages)
    return triton.compile(src, target=GPUTarget("cuda", arch, 32), options=opts)


def fused_attention_stats(
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    *,
    scale: float,
    causal: bool = False,
    window: int | None = None,
    softcap: float | None = None,
    tau: float = 1.0,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Attention output and per-row softmax sums in one fused pass (module docstring).

    q (N, Lq, d), k (N, Lk, d), v (N, Lk, dv) (N = batch*heads; kv heads already
    repeated), float32 / bfloat16 / float16, contiguous in the last dim.  Logits
    ``l_ij = cap(scale * q_i . k_j) / tau``, ``cap(x) = softcap*tanh(x/softcap)`` if
    ``softcap``, over all keys j, or j <= i when ``causal`` (top-left aligned, as
    ``scaled_dot_product_attention(is_causal=True)``), and additionally i - j < window when
    ``window`` is given (for causal attention the sliding window of transformers'
    Mistral / Gemma-2).  Returns ``out`` (N, Lq, dv) in q's dtype = softmax(l) V, and
    ``rows`` (4, N, Lq) float32:

    - ``rows[0]`` = S_i = sum_j exp(l_ij - m_i)
    - ``rows[1]`` = ``sum_j exp(l_ij - m_i) * abs(i - j)``
    - ``rows[2]`` = sum_j exp(l_ij - m_i) (l_ij - m_i)
    - ``rows[3]`` = m_i = max_j l_ij

    so that P_max = 1/S, entropy = log S - rows[2]/S, mean distance = rows[1]/S.  A row
    with no visible key: out 0, S = 0, rows[3] = -inf.  GPU speed has not been measured.
    """
    spec = LogitSpec(scale=scale, causal=causal, window=window, softcap=softcap, tau=tau)
    _check_inputs(q, k, v)
    tiles = default_tiles(q.dtype, max(q.shape[-1], v.shape[-1]))
    return fused_attention_stats_tiled(q, k, v, spec, tiles)
