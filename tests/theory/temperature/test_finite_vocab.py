"""E[P_max] with keys drawn from a finite vocabulary (theory.temperature.finite_vocab):
its exact cases and its V -> oo limit."""

import math

import mpmath as mp
import numpy as np
import pytest

from theory.temperature.finite_vocab import finite_vocab_pmax
from theory.temperature.gaussian_softmax import expected_pmax

S = [0.5, 1.0, 2.0, 3.0]


def _pmax2(s: float) -> float:
    # L = 2 distinct keys: P_max = sigmoid(|d|), d ~ N(0, 2 s^2) (mpmath quadrature)
    sd = s * mp.sqrt(2)
    return float(mp.quad(lambda d: mp.npdf(d, 0, sd) / (1 + mp.exp(-abs(d))), [-mp.inf, 0, mp.inf]))


@pytest.mark.parametrize("vocab", [2, 7, 256])
def test_two_keys_closed_form(vocab):
    # closed form (module docstring): the two keys are one token with probability 1/V,
    # then P_max = 1/2; otherwise two distinct tokens
    m, se = finite_vocab_pmax([2], S, vocab, rows=100_000, seed=11)
    ref = np.array([0.5 / vocab + (1 - 1 / vocab) * _pmax2(s) for s in S])
    assert np.all(np.abs(m - ref) < 4 * se)


def test_one_token_vocabulary_is_uniform():
    # V = 1: every key the same token, every weight 1/L exactly
    m, se = finite_vocab_pmax([9], S, 1, rows=1000)
    assert np.allclose(m, 1 / 9, rtol=1e-12) and np.all(se < 1e-12)
    m, _ = finite_vocab_pmax([3, 9], S, 1, rows=1000)  # key counts evenly over the rows
    assert np.allclose(m, (1 / 3 + 1 / 9) / 2, rtol=1e-12)


@pytest.mark.parametrize("L", [8, 40])
def test_distinct_keys_match_the_quadrature(L):
    # V -> oo: the paper's i.i.d. value (expected_pmax, checked against mpmath at L = 2
    # in test_gaussian_softmax)
    m, se = finite_vocab_pmax([L], S, None, rows=60_000, seed=3)
    ref = np.array([expected_pmax(L, s) for s in S])
    assert np.all(np.abs(m - ref) < 4 * se)


def test_repeats_lower_pmax_and_vanish_with_the_vocabulary():
    # a repeated maximal token splits its weight over its positions while every repeat
    # of another token counts again in the sum: at 64 keys E[P_max] rises towards the
    # distinct-key value as V grows
    vals = [finite_vocab_pmax([64], [2.0], v, rows=40_000, seed=5) for v in (16, 256, 4096)]
    assert vals[0][0][0] < vals[1][0][0] < vals[2][0][0] < expected_pmax(64, 2.0)
    far, se = finite_vocab_pmax([64], [2.0], 10**9, rows=40_000, seed=5)
    assert abs(far[0] - expected_pmax(64, 2.0)) < 4 * se[0]


def test_seeded_and_validated():
    a = finite_vocab_pmax([5, 6], [1.0], 50, rows=500, seed=2)
    b = finite_vocab_pmax([5, 6], [1.0], 50, rows=500, seed=2)
    assert a[0][0] == b[0][0] and math.isfinite(a[1][0])
    for bad in ([0], []):
        with pytest.raises(ValueError):
            finite_vocab_pmax(bad, [1.0], 10)
    with pytest.raises(ValueError):
        finite_vocab_pmax([3], [1.0], 0)
