"""Attention outputs of Eq. 7 (the full and the windowed one) and the worst gap between
them over a window, as the RPE checks of Lemma 3.2 and Theorems 3.3-3.4 measure it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np


def attention_outputs(
    q: np.ndarray,
    kk: np.ndarray,
    v: np.ndarray,
    b: np.ndarray,
    i_: int,
    j_: int,
    scale: float = 1.0,
) -> tuple[np.ndarray, np.ndarray, float, float]:
    """o_i^i and o_i^j of Eq. 7 (1-based positions; vectors as rows) and C_ii, C_ij."""
    s = np.arange(1, i_ + 1)
    a = np.exp(scale * (kk[s - 1] @ q[i_ - 1]))
    c = a * b[i_ - s]
    full = c @ v[s - 1] / c.sum()
    near = c[i_ - j_ :]
    win = near @ v[s[i_ - j_ :] - 1] / near.sum()
    return full, win, c.sum(), near.sum()


def sup_delta_rows(
    q: np.ndarray,
    kk: np.ndarray,
    v: np.ndarray,
    b: np.ndarray,
    js: Iterable[int],
    step: int,
    scale: float,
    bound: Callable[[int], float],
) -> list[dict]:
    """For each window j: max over i (stride ``step``) of ``|o_i^i - o_i^j|`` and ``bound(j)``."""
    rows = []
    for j_ in js:
        worst = max(
            float(np.linalg.norm(np.subtract(*attention_outputs(q, kk, v, b, i_, j_, scale)[:2])))
            for i_ in range(j_ + 1, len(b) + 1, step)
        )
        rows.append({"j": j_, "sup_i_delta": worst, "bound": bound(j_)})
    return rows


def random_in_ball(rng: np.random.Generator, count: int, dim: int, radius: float) -> np.ndarray:
    x = rng.normal(size=(count, dim))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x * radius * rng.uniform(0.2, 1.0, size=(count, 1))
