"""Calls of the capture that go to the fused Triton kernel, checked once on the device.

:func:`fused_wanted` decides (``capture(..., fused=...)``, else on CUDA when triton is
importable); :func:`attend_fused` runs
:func:`empirical.capture.fused_kernel.fused_attention_stats` and turns its row sums into
P_max, entropy and mean distance; the first call of each kind (device, dtype, causal,
window, softcap, temperature) is recomputed in float32 on its last rows
(:func:`_check_fused_rows`), and a disagreement raises
:class:`~empirical.capture.state.CaptureUnsupported`.
"""

from __future__ import annotations

import importlib.util

import torch

from empirical.capture.attention_call import Accumulator, max_abs
from empirical.capture.state import CaptureSession, CaptureUnsupported


def fused_wanted(session: CaptureSession, query: torch.Tensor) -> bool:
    """Whether a :func:`~empirical.capture.attention.plain_structure` call goes to the fused Triton kernel:
    ``session.config.fused``, else on CUDA when triton is importable."""
    if session.config.fused is not None:
        return session.config.fused
    return query.device.type == "cuda" and importlib.util.find_spec("triton") is not None


def attend_fused(
    session: CaptureSession,
    name: str,
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    scale: float,
    softcap: float | None,
    causal: bool,
    window: int | None,
) -> torch.Tensor:
    """:func:`~empirical.capture.attention.attend` through
    :func:`empirical.capture.fused_kernel.fused_attention_stats`, for a
    :func:`~empirical.capture.attention.plain_structure` call ``(causal, window)``."""
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
        tau=session.config.tau_for(name),
    )
    spec = (query.device, query.dtype, d, dv, causal, window, softcap, session.config.tau_for(name))
    if spec not in session.fused_checked:
        _check_fused_rows(session.config.model_class, query, key, value, out, rows, spec, scale)
        session.fused_checked.add(spec)
    if session.stats is not None:
        ok = rows[0] > 0
        den = torch.where(ok, rows[0], 1.0)
        blk = {"ok": ok, "pmax": 1 / den, "entropy": den.log() - rows[2] / den}
        blk["distance"] = rows[1] / den
        acc = Accumulator(session.stats, name, (bsz, heads, lq, lk), query.device)
        acc.add(blk, 0, lq, 0)
        acc.flush()
    return out.view(bsz, heads, lq, dv)


_CHECK_ROWS = 16  # query rows of the first fused call recomputed in float32


def _check_fused_rows(model_class, query, key, value, out, rows, spec, scale) -> None:
    """Recompute the last rows of the first call of each kind (device, dtype, causal,
    window, softcap, tau) by materialising their logits in float32, and raise
    :class:`~empirical.capture.state.CaptureUnsupported` if the fused kernel's output or statistics differ (a check
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
    err = {k: max_abs((got[k] - want[k])[:, ok]) for k in got}
    err["distance"] /= max(1, lk)
    err["empty rows"] = float(((s[0] > 0) != ok).sum())
    scale_v = float(v.abs().max()) if v.numel() else 1.0
    tol_out = (1e-4 if dtype == torch.float32 else 2e-2) * max(1.0, scale_v)
    err_out = max_abs(out[:heads, i[:, 0]].float() - p @ v)
    if max(err.values()) > 1e-3 or err_out > tol_out:
        raise CaptureUnsupported(
            f"{model_class}: the fused attention kernel disagrees with a float32 recomputation "
            f"on {device} ({dtype}): statistics error {err}, output error {err_out:.3g}; "
            "run with capture(..., fused=False)"
        )
