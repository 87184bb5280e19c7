"""Statistics of softmax rows that a module materialises itself: eager-only attention
modules (GPT-J, GPT-Neo, MPT, DistilBERT's eager path, BLOOM), LongT5's blocked local and
transient-global attention, and rows with an attention sink (GPT-OSS).

A block of rows arrives as logits ``l`` (B, H, R, K) already divided by the temperature,
masked entries ``-inf``, with the position of every query row and the distance
``|i - j|`` of every key from it.  With an attention sink ``s`` (one more logit in the
softmax denominator, attached to no value; see docs/conventions.md, "Attention sinks"):

.. math:: p_{ij} = \\frac{e^{l_{ij}}}{e^{s} + \\sum_k e^{l_{ik}}}, \\qquad
          p_{i,\\mathrm{sink}} = \\frac{e^{s}}{e^{s} + \\sum_k e^{l_{ik}}}

and the statistics are those of the weights the module applies to its values:
:math:`P_{max} = \\max_j p_{ij}`, :math:`H = -\\sum_j p_{ij}\\log p_{ij}`,
:math:`\\sum_j p_{ij}|i-j|` (sums over keys only), the sink's mass
:math:`p_{i,\\mathrm{sink}}` being reported beside them.  Without a sink these are the
usual statistics.

>>> import torch
>>> from empirical.capture.stats import AttentionStats
>>> st = AttentionStats()
>>> lg = torch.zeros(1, 1, 2, 2)
>>> lg[..., 0, 1] = float("-inf")
>>> p = record_rows(st, "a", lg, torch.arange(2), key_positions(torch.arange(2), 2),
...                 sink=torch.zeros(1, 1, 2))
>>> p[0, 0].tolist(), [round(x, 4) for x in st.layers["a"].sink_sum.tolist()]
([[0.5, 0.0], [0.3333333432674408, 0.3333333432674408]], [0.8333])
"""

from __future__ import annotations

import torch

from empirical.capture.stats import AttentionStats


def key_positions(qpos: torch.Tensor, k: int) -> torch.Tensor:
    """Key positions (R, K) of rows that see keys ``0 .. K-1``.

    >>> key_positions(torch.arange(2), 3).tolist()
    [[0, 1, 2], [0, 1, 2]]
    """
    return torch.arange(k, device=qpos.device)[None, :].expand(qpos.shape[0], k)


@torch.no_grad()
def record_rows(
    stats: AttentionStats | None,
    name: str,
    lg: torch.Tensor,
    qpos: torch.Tensor,
    kpos: torch.Tensor,
    sink: torch.Tensor | None = None,
    row_valid: torch.Tensor | None = None,
    raw: torch.Tensor | None = None,
    kdist: torch.Tensor | None = None,
) -> torch.Tensor:
    """Probabilities (B, H, R, K) of the logits ``lg`` (float32, divided by the
    temperature, masked entries ``-inf``) and their statistics added to ``stats``.

    ``qpos`` (R,) query positions; ``kpos`` (R, K) key positions (for the distance and
    the per-offset mass); ``kdist`` (R, K) distances that replace ``|kpos - qpos|``
    where given (keys standing for several tokens); ``sink`` (B, H, R) the sink logit
    of each row (divided by the temperature); ``row_valid`` (B, R) rows that count
    (padding excluded); ``raw`` logits before the temperature for the sorted rows
    (default ``lg``).  Rows without any finite logit, and rows at positions below
    ``stats.query_from``, are not counted.
    """
    if sink is not None:
        full = torch.cat([lg, sink[..., None].to(lg.dtype)], -1)
        pfull = torch.softmax(full, -1).nan_to_num(0.0)
        p, psink = pfull[..., :-1], pfull[..., -1]
    else:
        p, psink = torch.softmax(lg, -1).nan_to_num(0.0), None
    if stats is None:
        return p
    bsz, heads, r, k = lg.shape
    keep = torch.isfinite(lg).any(-1) & (qpos >= stats.query_from)[None, None, :]
    if row_valid is not None:
        keep = keep & row_valid[:, None, :].to(keep.device)
    pk = p * keep[..., None]
    dist = (kpos - qpos[:, None]).abs().to(p.dtype) if kdist is None else kdist.to(p.dtype)
    max_len = int(max(k, int(qpos.max()) + 1 if qpos.numel() else 0, int(kpos.max()) + 1))

    def per_head(t: torch.Tensor):
        return t.sum((0, 2), dtype=torch.float64).cpu().numpy()  # rows summed in float64

    mass = None
    if stats.wants_mass(name):
        if kdist is not None:
            raise ValueError(f"{name}: no per-offset mass for keys standing for several tokens")
        off = (kpos - qpos[:, None] + max_len - 1).reshape(-1)
        mass = torch.zeros(heads, 2 * max_len - 1, dtype=torch.float64, device=p.device)
        mass.index_add_(1, off, pk.sum(0).reshape(heads, -1).double())
        mass = mass.cpu().numpy()
    stats.add_sums(
        name,
        heads,
        max_len,
        per_head(keep.double()),
        per_head(pk.amax(-1)),
        per_head(torch.special.entr(pk).sum(-1)),
        per_head((pk * dist).sum(-1)),
        mass,
    )
    if psink is not None:
        stats.add_sink(name, per_head(psink * keep))
    if stats.wants_sorted(name):
        stats.update_sorted(name, lg if raw is None else raw, 0, keep)
    return p


def masked_to_inf(x: torch.Tensor, tau: float) -> torch.Tensor:
    """Logits of a materialised softmax input ``x`` in float32 divided by ``tau``, with
    the entries a model masks (at most half its dtype's minimum, or below -1e9 as
    LongT5's -1e10) at ``-inf``.

    >>> masked_to_inf(torch.tensor([1.0, -1e10, torch.finfo(torch.float32).min]), 0.5).tolist()
    [2.0, -inf, -inf]
    """
    lg = x.float()
    floor = max(torch.finfo(x.dtype).min / 2, -1e9)
    return torch.where(lg > floor, lg / tau, float("-inf"))


def blocked_local_layout(
    x: torch.Tensor, block_len: int, seq_len: int, global_block: int | None = None
) -> tuple:
    """LongT5's blocked logits (B, nb, H, bl, 3 bl [+ G]) as rows (B, H, nb bl, K):
    ``(qpos, kpos, kdist, key_ok)``; query row ``r`` of block ``b`` is token
    ``b bl + r``, local key ``c`` token ``b bl - bl + c``; transient-global key ``g``
    stands for the tokens of fixed block ``g`` (``global_block`` tokens, the tokens of
    an incomplete last block joining the one before), and its distance is the mean
    ``|i - j|`` over them.  ``key_ok`` (R, K): keys inside the sequence (the positions
    of the others are clamped into it; they are masked).

    >>> q, k, d, ok = blocked_local_layout(torch.zeros(1, 2, 1, 2, 6), 2, 3)
    >>> k[2].tolist(), ok[2].tolist()
    ([0, 1, 2, 2, 2, 2], [True, True, True, False, False, False])
    """
    bsz, nb, heads, bl, kk = x.shape
    dev = x.device
    qpos = torch.arange(nb * bl, device=dev)
    c = torch.arange(3 * bl, device=dev)
    local = (qpos // bl * bl - bl)[:, None] + c[None, :]
    kdist = None
    if kk > 3 * bl:
        n_glob = kk - 3 * bl
        gb = int(global_block or 1)
        tok = torch.arange(seq_len, device=dev)
        blocks = torch.clamp(tok // gb, max=max(seq_len // gb, 1) - 1)
        member = (blocks[None, :] == torch.arange(n_glob, device=dev)[:, None]).double()
        cnt = member.sum(1)
        far = (qpos[:, None, None] - tok[None, None, :]).abs().double() * member[None]
        gdist = far.sum(-1) / cnt.clamp(min=1)[None]
        kdist = torch.cat([(local - qpos[:, None]).abs().double(), gdist], 1)
        gpos = torch.full((nb * bl, n_glob), 0, device=dev, dtype=local.dtype)
        kpos = torch.cat([local, gpos], 1)
        ok = torch.cat([(local >= 0) & (local < seq_len), (cnt > 0)[None].expand(nb * bl, -1)], 1)
    else:
        kpos = local
        ok = (local >= 0) & (local < seq_len)
    return qpos, kpos.clamp(0, max(seq_len - 1, 0)), kdist, ok
