"""The one process-wide state of the capture: :data:`REGISTRY`.

Which attention modules belong to which open capture, which captures have ``softmax``
or ``scaled_dot_product_attention`` swapped, how many captures are open (the attention
function stays registered with transformers while any is), torch's own functions that
the swaps replace, and the pools of single-threaded workers of the tiled causal path.
Every entry is added and removed by a context manager of
:func:`empirical.capture.session.capture`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import torch


@dataclass(frozen=True)
class Originals:
    """torch's functions as they were before any capture swapped them."""

    softmax: Callable[..., Any] = torch.nn.functional.softmax
    torch_softmax: Callable[..., Any] = torch.softmax
    tensor_softmax: Callable[..., Any] = torch.Tensor.softmax
    sdpa: Callable[..., Any] = torch.nn.functional.scaled_dot_product_attention


@dataclass
class Registry:
    """The open captures and what they have installed."""

    originals: Originals = field(default_factory=Originals)
    modules: dict = field(default_factory=dict)  # id(attention module) -> (session, name)
    open: int = 0  # open capture contexts (the attention function is registered while > 0)
    causal_skip: list = field(default_factory=list)  # per open capture: may a causal
    # mask be left to is_causal (the model supports sdpa)
    softmax_sessions: list = field(default_factory=list)  # captures with softmax swapped
    sdpa_sessions: list = field(default_factory=list)  # captures with sdpa swapped
    tile_pools: dict = field(default_factory=dict)  # workers -> ThreadPoolExecutor

    def tile_pool(self, n: int) -> ThreadPoolExecutor:
        """A pool of ``n`` workers whose torch operations are single-threaded, made once."""
        pool = self.tile_pools.get(n)
        if pool is None:
            pool = self.tile_pools[n] = ThreadPoolExecutor(
                n,
                thread_name_prefix="lengthx-tiles",
                initializer=torch.set_num_threads,
                initargs=(1,),
            )
        return pool


REGISTRY = Registry()
os.register_at_fork(after_in_child=REGISTRY.tile_pools.clear)  # a child has none of the threads
