"""T5's relative-position bucket as T5's code computes it, transcribed without torch.

The rule of ``_relative_position_bucket`` (Raffel et al.'s T5, which ``transformers``
copies into ``T5Attention``), bidirectional, in numpy with the same float32 arithmetic:
``relative_position = key - query``; keys after the query take the upper half of the
buckets; distances below ``max_exact = num_buckets / 4`` are their own bucket, larger
ones are log-spaced up to ``max_distance``.  It is a second route, independent of the
toolkit's :func:`theory.series.rpe_library.t5_bucket` (the paper's Sec. 3.2 formula),
and needs neither torch nor transformers.

.. math:: b = n_{max} + \\left\\lfloor \\frac{\\ln(|r| / n_{max})}{\\ln(D / n_{max})}
   (B/2 - n_{max}) \\right\\rfloor, \\quad n_{max} = B/4

>>> t5_code_buckets(np.array([0, 7, 8, 127, 128, -1, -8, -10**6])).tolist()
[0, 7, 8, 15, 15, 17, 24, 31]
"""

from __future__ import annotations

import math

import numpy as np


def t5_code_buckets(
    rel: np.ndarray | int, num_buckets: int = 32, max_distance: int = 128
) -> np.ndarray:
    """The bidirectional T5 bucket of ``rel = m - n`` (query m, key n), computed as T5's
    code does (``relative_position = n - m``, float32 logarithms)."""
    position = -np.asarray(rel, dtype=np.int64)
    half = num_buckets // 2
    buckets = (position > 0).astype(np.int64) * half
    position = np.abs(position)
    max_exact = half // 2
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.log(position.astype(np.float32) / np.float32(max_exact))
        large = max_exact + (
            ratio / np.float32(math.log(max_distance / max_exact)) * np.float32(half - max_exact)
        ).astype(np.int64)
    large = np.minimum(large, half - 1)
    return buckets + np.where(position < max_exact, position, large)
