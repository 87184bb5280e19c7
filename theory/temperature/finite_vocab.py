"""E[P_max] of softmax rows whose keys are tokens drawn with replacement from a finite
vocabulary, each distinct token carrying one i.i.d. Gaussian logit (the
attention-alignment paper's Assumption 1 applied per token, not per key).

A row of L keys whose tokens are drawn uniformly, with replacement, from V tokens holds
k <= L distinct tokens with multiplicities :math:`c_1, \\dots, c_k` (:math:`\\sum c_v = L`);
with one logit :math:`x_v \\sim N(0, s^2)` per distinct token (i.i.d.),

.. math:: P_{max} = \\frac{e^{x_{max}}}{\\sum_{v} c_v\\, e^{x_v}},

the largest attention weight of one key position.  When every key is a different token
(:math:`V \\to \\infty`) this is the paper's i.i.d. value :math:`E[P_{max}]` at L keys
(App. A.2, Eq. 2's exact form, :func:`theory.temperature.gaussian_softmax.expected_pmax`);
repeats lower it (a repeated maximal token splits its weight over its positions, and
every repeat of another token counts again in the sum), and at L = 2 exactly

.. math:: E[P_{max}] = \\tfrac{1}{V}\\cdot\\tfrac12 + \\bigl(1 - \\tfrac1V\\bigr)
          E[\\sigma(|x_1 - x_2|)],\\quad x_1 - x_2 \\sim N(0, 2s^2).

:func:`finite_vocab_pmax` computes the mean over rows by a **seeded Monte Carlo** with
its standard error: each row's tokens are drawn, its distinct tokens found (sorting),
one standard normal drawn per distinct token, and the same draws scaled by every s
(common random numbers across s).  Its checks: the L = 2 closed form above, V = 1 (every
key the same token: 1/L), and V = None (all keys distinct) against the quadrature of
``expected_pmax``.

>>> m, se = finite_vocab_pmax([4], [1e-9], vocab=None, rows=64)
>>> round(float(m[0]), 6), float(se[0]) < 1e-9
(0.25, True)
>>> m, se = finite_vocab_pmax([5], [2.0], vocab=1, rows=64)
>>> round(float(m[0]), 12)
0.2
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def _row_logits(tokens: np.ndarray, lengths: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Standard-normal logit per key position, equal for equal tokens of one row; the
    positions at or beyond a row's length are ``-inf`` (no key)."""
    n, width = tokens.shape
    pos = np.arange(width)[None, :]
    live = pos < lengths[:, None]
    # positions past the row's length: a token of their own, never equal to a real one
    t = np.where(live, tokens, -1 - pos)
    order = np.argsort(t, axis=1, kind="stable")
    st = np.take_along_axis(t, order, axis=1)
    new = np.ones((n, width), dtype=bool)
    new[:, 1:] = st[:, 1:] != st[:, :-1]
    group = np.cumsum(new, axis=1) - 1  # distinct-token index in sorted order
    z = rng.standard_normal((n, width))
    sorted_logits = np.take_along_axis(z, group, axis=1)
    logits = np.empty_like(sorted_logits)
    np.put_along_axis(logits, order, sorted_logits, axis=1)
    return np.where(live, logits, -np.inf)


def finite_vocab_pmax(
    keys: Sequence[int],
    scales: Sequence[float],
    vocab: int | None,
    rows: int = 2**16,
    seed: int = 0,
    chunk: int = 4096,
) -> tuple[np.ndarray, np.ndarray]:
    """Mean P_max (module docstring) over ``rows`` rows whose key counts run evenly through
    ``keys`` (row r has ``keys[r % len(keys)]`` keys), each key a token drawn uniformly
    with replacement from ``vocab`` tokens (``None``: every key a different token), one
    i.i.d. N(0, s^2) logit per distinct token, for each s of ``scales``.

    Returns ``(mean, standard_error)``, arrays over ``scales``; the standard error is the
    rows' sample standard deviation over sqrt(rows) (the key-count strata pooled, which
    only overstates it).  Seeded: the same arguments give the same numbers.
    """
    keys = np.asarray(keys, dtype=np.int64)
    s = np.asarray(scales, dtype=float)
    if keys.size == 0 or keys.min() < 1:
        raise ValueError(f"key counts must be >= 1, got {keys.tolist()}")
    if vocab is not None and vocab < 1:
        raise ValueError(f"vocab must be >= 1 (or None), got {vocab}")
    if rows < 2 or s.size == 0 or not np.all(s >= 0):
        raise ValueError("need rows >= 2 and scales >= 0")
    rng = np.random.default_rng(seed)
    width = int(keys.max())
    total = np.zeros(s.size)
    total_sq = np.zeros(s.size)
    for a in range(0, rows, chunk):
        n = min(chunk, rows - a)
        lengths = keys[(a + np.arange(n)) % keys.size]
        if vocab is None:
            tokens = np.broadcast_to(np.arange(width), (n, width))
        else:
            tokens = rng.integers(0, vocab, size=(n, width))
        z = _row_logits(tokens, lengths, rng)
        zmax = z.max(axis=1, keepdims=True)
        for j, sj in enumerate(s):
            with np.errstate(invalid="ignore"):
                d = np.where(np.isfinite(z), np.exp(sj * (z - zmax)), 0.0).sum(axis=1)
            p = 1.0 / d  # e^{s (x_max - x_max)} = 1 over the sum
            total[j] += p.sum()
            total_sq[j] += (p * p).sum()
    mean = total / rows
    var = np.maximum(total_sq / rows - mean * mean, 0.0) * rows / (rows - 1)
    return mean, np.sqrt(var / rows)
