"""One attention call flattened for the capture's paths, and the sums of its statistics.

:func:`prepare_call` turns a call (query (B, H, Lq, d), key/value (B, H, Lk, .), mask,
bias, softcapping, temperature) into float32 (B*H, L, .) tensors (:class:`AttentionCall`)
that the blocked path (:mod:`~empirical.capture.blocked`) and the tiled causal path
(:mod:`~empirical.capture.tiled_causal`) read; :class:`Accumulator` adds the per-row
P_max, entropy and mean distance of either (and the per-offset mass of the blocked path)
into per-head sums on the device, sent to :class:`~empirical.capture.stats.AttentionStats`
once per call.  The constants below bound ``exp`` and the weights (the module docstrings
of both paths say why).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch

from empirical.capture.stats import AttentionStats, skew_sum

MASKED = -1e30  # finite stand-in for -inf where products with e are taken
NO_SHIFT = 30.0  # rows whose max logit is below this in size need no shift
# exp() on CPU takes a slow path, 20-60x slower, where its result underflows; below this
# floor the weight exp(x) <= 1.7e-38 is below float32 resolution beside the row's largest
# weight (>= exp(-NO_SHIFT)), so clamping there changes no sum.
EXP_FLOOR = -87.0
# weights below this are set to 0 before the product with the values: a product of a weight
# near the float32 minimum with a value is subnormal, and a matrix product meeting
# subnormals runs up to hundreds of times slower on CPU; such a weight is below 1e-16 of
# the row's largest (>= exp(-NO_SHIFT)), so no sum changes at float32 resolution.
TINY = 1e-30
# the tiled causal path keeps its logits in bits (base 2: q carries log2 e) and takes
# exp2, which on CPU runs 3-5x faster than exp (measured: a chunk of 2 x 256 x 512
# logits, 36-57 us against 160-230 us, float32, one thread) at the same accuracy (about
# 1 ulp); its exp floor is 2^-126 (the smallest normal float32, <= e^-87).
LOG2E = 1.0 / math.log(2.0)
EXP2_FLOOR = -126.0
NO_SHIFT_BITS = NO_SHIFT * LOG2E


@dataclass
class AttentionCall:
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


def split_mask(
    mask: torch.Tensor | None,
) -> tuple[torch.Tensor | None, torch.Tensor | None]:
    """(boolean validity, finite additive part or None) of a model's attention mask."""
    if mask is None:
        return None, None
    if mask.dtype == torch.bool:
        return mask, None
    valid = mask > torch.finfo(mask.dtype).min / 2
    add = torch.where(valid, mask, 0.0).float()
    return valid, (add if bool(add.any()) else None)


def max_abs(t: torch.Tensor) -> float:
    """The largest absolute entry of ``t``, 0 for an empty tensor."""
    return float(t.abs().max()) if t.numel() else 0.0


class Accumulator:
    """Per-head sums of one call on the device, added to the statistics once."""

    def __init__(self, stats: AttentionStats, name: str, shape: tuple, device: torch.device):
        self.stats, self.name, self.shape = stats, name, shape
        bsz, heads, lq, lk = shape
        self.sums = torch.zeros(4, heads, dtype=torch.float64, device=device)
        self.mass = None
        if stats.wants_mass(name):
            self.n = max(lq, lk)
            self.mass = torch.zeros(heads, 2 * self.n - 1, dtype=torch.float64, device=device)

    def row_filter(self, r0: int, r1: int) -> torch.Tensor | None:
        """Which of rows r0..r1-1 count (``query_from``), None when all of them do."""
        qf = self.stats.query_from
        return None if qf <= r0 else torch.arange(r0, r1) >= qf

    def add(self, blk: dict, r0: int, r1: int, lo: int) -> None:
        """Adds the per-row statistics ``blk`` of rows r0..r1-1 (keys from ``lo``)."""
        bsz, heads = self.shape[:2]
        keep = blk["ok"]
        if self.stats.query_from > r0:
            keep = keep & (torch.arange(r0, r1, device=keep.device) >= self.stats.query_from)
        keep = keep.view(bsz, heads, -1)
        for k, key in enumerate(("pmax", "entropy", "distance")):
            v = torch.where(keep, blk[key].view(bsz, heads, -1), 0.0)
            self.sums[k + 1] += v.sum((0, 2), dtype=torch.float64)  # rows summed in float64
        self.sums[0] += keep.sum((0, 2)).double()
        if self.mass is not None:
            p = (blk["probs"].view(bsz, heads, r1 - r0, -1) * keep[..., None]).sum(0)
            sk = skew_sum(p)  # index c: offset c-(b-1)+lo-r0
            first = lo - r0 - (r1 - r0 - 1) + self.n - 1
            self.mass[:, first : first + sk.shape[1]] += sk.double()

    def flush(self) -> None:
        """Sends the sums to the statistics."""
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


def prepare_call(
    query: torch.Tensor,
    key: torch.Tensor,
    value: torch.Tensor,
    mask: torch.Tensor | None,
    bias: torch.Tensor | None,
    scale: float,
    tau: float,
    causal: bool,
    softcap: float | None,
    tiled: bool = False,
) -> AttentionCall:
    """The call flattened to float32 (B*H, L, .); for the tiled causal path (``tiled``)
    the queries also carry log2 e, so that their logits are in bits, and the values are
    not augmented (its tiles sum the weights and positions apart)."""
    bsz, heads, lq, d = query.shape
    lk, dv = key.shape[2], value.shape[3]
    valid, add = split_mask(mask)
    linear = bias is None and softcap is None and add is None
    f = torch.float32
    unit = LOG2E if tiled else 1.0
    q = query.to(f).reshape(bsz * heads, lq, d) * ((scale / tau if linear else scale) * unit)
    k = key.to(f).reshape(bsz * heads, lk, d)
    v = value.to(f).reshape(bsz * heads, lk, dv).contiguous()
    j = torch.arange(lk, device=q.device, dtype=f)[None, :, None].expand(bsz * heads, lk, 1)
    pad = (-(dv + 2)) % 16  # aligned widths are markedly faster in the product
    cols = [v, torch.ones_like(j), j] + ([j.new_zeros(bsz * heads, lk, pad)] if pad else [])
    return AttentionCall(
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
