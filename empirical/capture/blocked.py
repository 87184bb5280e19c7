"""The blocked path of the capture: a call's output and row statistics in one pass over
blocks of ``b`` query rows, for every call that is neither fused nor tiled (biases such
as T5's relative positions and ALiBi, padding masks, bidirectional attention, the
per-offset mass and sorted rows).

For a block of rows :math:`r_0 .. r_0+b-1`

.. math:: l = \\frac{1}{\\tau}\\,\\mathrm{cap}\\!\\left(s\\, Q_{r_0:r_0+b} K^\\top + B\\right)
          + M, \\qquad e = \\exp(l - m), \\qquad
          [\\,O\\,|\\,\\Sigma\\,|\\,J\\,] = e\\,[\\,V\\,|\\,1\\,|\\,j\\,]

(``s`` the model's scaling, ``B`` an additive bias, ``cap`` Gemma-2's logit softcapping
:math:`c \\tanh(x/c)`, ``M`` the mask with causal, sliding-window and padding entries
:math:`-\\infty`, ``m`` the row maximum; the temperature ``tau`` of Algorithm 1 in the
attention-alignment paper divides the logits).  One product with the augmented values
gives the output :math:`O/\\Sigma`, the row sums and the attended position
:math:`\\sum_j p_{ij} j`, and one pass over the block the entropy, so that

.. math:: P_{max} = 1/\\Sigma, \\qquad
          H = \\log\\Sigma - \\frac{1}{\\Sigma}\\sum_j e_{ij}(l_{ij}-m), \\qquad
          \\sum_j p_{ij}|i-j| = i - \\frac{J}{\\Sigma} + \\frac{2}{\\Sigma}\\sum_{j>i} e_{ij}(j-i)

(exact; the last sum is over the keys right of the diagonal only, none for causal rows).
Only the keys a block can see are read (causal rows stop at the diagonal, sliding windows
start at the window), so memory is O(b x L) per head and the L x L matrix is never
formed.  Arguments of ``exp`` are clamped at
:data:`~empirical.capture.attention_call.EXP_FLOOR` where they may fall below it (CPU
``exp`` is 20-60x slower where its result underflows).  The per-offset mass and the
sorted logit rows cost a pass over the probabilities and a sort: they are computed only
for the modules named in :class:`~empirical.capture.stats.AttentionStats` ``mass_layers``
/ ``sorted_layers``.  :func:`attend_reference` is the out-of-place variant for autograd.
"""

from __future__ import annotations

import torch

from empirical.capture.attention_call import (
    EXP_FLOOR,
    MASKED,
    NO_SHIFT,
    Accumulator,
    AttentionCall,
    split_mask,
)
from empirical.capture.state import CaptureSession


def _key_range(c: AttentionCall, r0: int, r1: int):
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


def _logits(session, c: AttentionCall, r0: int, r1: int, lo: int, hi: int) -> torch.Tensor:
    """Block of logits l (B*H, b, hi-lo), masked entries MASKED.
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
        s.masked_fill_(~_rows(c.valid, r0, r1, lo, hi, c.shape), MASKED)
    elif c.causal and max(lo, r0) + 1 < hi:  # only the diagonal part of a causal block
        c0 = max(lo, r0)
        i = torch.arange(r0, r1, device=s.device)[:, None]
        j = torch.arange(c0, hi, device=s.device)[None, :]
        s[..., c0 - lo :].masked_fill_(j > i, MASKED)
    if not c.linear:
        s.clamp_(min=MASKED)  # -inf or finfo.min from masks folded in biases
    return s


def _block_stats(c: AttentionCall, s, e, w, m, r0, r1, lo, hi, want_mass: bool) -> dict:
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


def _run_block(session, name, c: AttentionCall, r0: int, r1: int, out: torch.Tensor, acc) -> None:
    lo, hi = _key_range(c, r0, r1)
    if hi <= lo:  # every key masked: output 0, no statistics
        out[:, r0:r1] = 0.0
        return
    st = session.stats
    s = _logits(session, c, r0, r1, lo, hi)
    if st is not None and st.wants_sorted(name):
        raw = torch.where(s > MASKED / 2, s * c.tau, float("-inf"))
        keep = acc.row_filter(r0, r1)
        rv = session.valid_rows(name, c.shape[0], c.shape[2])
        if rv is not None:
            rv = rv[:, None, r0:r1]
            keep = rv if keep is None else rv & keep.to(rv.device)
        st.update_sorted(name, raw.view(*c.shape[:2], r1 - r0, hi - lo), r0, keep)
    mx = s.amax(-1, keepdim=True)
    mx = torch.where(mx > MASKED / 2, mx, 0.0)
    if bool((mx.abs() < NO_SHIFT).all()):  # exp(l) safe: no pass to subtract the max
        m = torch.zeros_like(mx)
    else:
        m = mx
        s.sub_(m)
    if c.valid is None and not c.causal:  # no masked entry whose weight must stay 0
        s.clamp_(min=EXP_FLOOR)
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


def attend_blocked(
    session: CaptureSession,
    name: str,
    c: AttentionCall,
    out: torch.Tensor,
    acc: Accumulator | None,
) -> None:
    """:func:`~empirical.capture.attention.attend` for every call that is not tiled:
    blocks of query rows (:meth:`~empirical.capture.state.CaptureConfig.rows_per_block`)
    in order, each by :func:`_run_block`."""
    bsz, heads, lq, lk = c.shape
    b = session.config.rows_per_block(bsz, heads, lk, lq, c.q.device.type)
    for r0 in range(0, lq, b):
        _run_block(session, name, c, r0, min(lq, r0 + b), out, acc)


def attend_reference(
    session: CaptureSession,
    name: str,
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    mask: torch.Tensor | None,
    bias: torch.Tensor | None,
    scale: float,
    causal: bool,
    softcap: float | None,
    tau: float,
) -> torch.Tensor:
    """Out-of-place path for autograd: the same logits, softmax per block."""
    valid, add = split_mask(mask)
    lq, lk = query.shape[2], key.shape[2]
    outs = []
    b = session.config.rows_per_block(query.shape[0], query.shape[1], lk, lq)
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
