"""Attention statistics over many sequences, on one process or many.

``torchrun --nproc-per-node N -m empirical.collect --model SPEC --length 2048 --n-seq 8``

Rank ``r`` of ``W`` takes sequences ``r, r+W, r+2W, ...``; each rank's
:class:`~empirical.capture.stats.AttentionStats` (sums and counts) is flattened into one float64
vector and summed with ``torch.distributed.all_reduce`` (gloo on CPU, NCCL on GPU), so
the merged statistics equal a single-process run up to float64 summation order.  With
``--device cuda`` each rank runs on ``cuda:LOCAL_RANK`` (``torch.cuda.set_device``) and
the all-reduce tensor lives there (:mod:`empirical.capture.devices`).  Without torchrun it runs
on one process.  Rank 0 writes the full state (``--out``, JSON) and prints the summary.
"""

from __future__ import annotations

import numpy as np

from empirical.capture.stats import AttentionStats

_FIELDS = (
    "rows",
    "pmax_sum",
    "ent_sum",
    "dist_sum",
    "mass",
    "sorted_sum",
    "sorted_count",
    "sink_sum",
)


def flatten(stats: AttentionStats) -> np.ndarray:
    """All sums of ``stats`` in a fixed order (layers in ``order``, then ``_FIELDS``)."""
    parts = []
    for name in stats.order:
        ls = stats.layers[name]
        parts += [getattr(ls, f).ravel() for f in _FIELDS if getattr(ls, f) is not None]
    return np.concatenate(parts) if parts else np.zeros(0)


def unflatten(stats: AttentionStats, flat: np.ndarray) -> AttentionStats:
    """Write ``flat`` (from :func:`flatten` of a same-shaped object) back in place."""
    pos = 0
    for name in stats.order:
        ls = stats.layers[name]
        for f in _FIELDS:
            a = getattr(ls, f)
            if a is not None:
                setattr(ls, f, flat[pos : pos + a.size].reshape(a.shape).copy())
                pos += a.size
    if pos != flat.size:
        raise ValueError("statistics shapes differ between processes")
    return stats


def all_reduce_stats(stats: AttentionStats) -> AttentionStats:
    """Sum ``stats`` over all ranks of the default process group (float64)."""
    import torch
    import torch.distributed as dist

    from empirical.capture.devices import collective_device

    flat = flatten(stats)
    size = torch.tensor([flat.size], dtype=torch.int64, device=collective_device())
    sizes = [torch.zeros_like(size) for _ in range(dist.get_world_size())]
    dist.all_gather(sizes, size)
    if len({int(s) for s in sizes}) != 1:
        raise ValueError(f"ranks hold differently shaped statistics: {[int(s) for s in sizes]}")
    t = torch.from_numpy(flat).to(collective_device())
    dist.all_reduce(t, op=dist.ReduceOp.SUM)
    return unflatten(stats, t.cpu().numpy())


def rank_share(n: int, rank: int, world: int) -> list:
    """Indices of the sequences that rank ``rank`` of ``world`` takes.

    >>> rank_share(5, 1, 2)
    [1, 3]
    """
    return list(range(rank, n, world))
