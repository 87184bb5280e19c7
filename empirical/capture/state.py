"""What one capture is: its frozen configuration, its per-forward state, its sizing.

:class:`CaptureConfig` fixes, for one ``capture`` context, where the statistics go, the
temperature of Algorithm 1 (attention-alignment paper) and of which modules, and how the
attention pass is cut into blocks, tiles and chunks of keys.  :class:`ForwardState` is
what the hooks and patches learn while a forward pass runs (the module being run, whether
it went through the capture).  :class:`CaptureSession` holds both, with the model's
attention modules and the work buffers reused across blocks and layers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import torch

from empirical.capture.stats import AttentionStats

CPU_KEY_CHUNK = 512
CPU_TILE_BYTES = 2**20


class CaptureUnsupported(NotImplementedError):
    """The model (class named in the message) cannot be captured."""


@dataclass(frozen=True)
class CaptureConfig:
    """What one ``capture`` context does: where statistics go, which temperature, and
    the sizes of the blocks (blocked path) and tiles (tiled causal path)."""

    stats: AttentionStats | None = None
    tau: float = 1.0
    tau_layers: tuple | None = None  # regexes on module names; None = every softmax
    block_size: int | None = None  # query rows per block; None = from block_bytes
    block_bytes: int = 256 * 2**20
    fused: bool | None = None  # the fused Triton kernel: None = on CUDA when importable
    key_chunk: int | None = None  # keys per chunk of a causal tile; None = by device
    cpu_kernel: bool = True  # the fused CPU pass (empirical.capture.cpu_kernel) where it builds
    model_class: str = "model"
    cross_attention: bool = False  # an encoder-decoder model: keys may differ from queries

    def tau_for(self, name: str) -> float:
        """The temperature of the module ``name``: ``tau`` where ``tau_layers`` is None
        or one of its regexes matches, else 1."""
        if self.tau_layers is None or any(re.search(p, name) for p in self.tau_layers):
            return float(self.tau)
        return 1.0

    def rows_per_block(
        self, batch: int, heads: int, key_len: int, q_len: int, device: str = "cpu"
    ) -> int:
        """Query rows per block: ``block_size``, else as many as fit ``block_bytes`` of
        float32 logits (at least 1 GiB on GPU, where few large blocks are fast), at most
        128 on CPU (measured fastest there) and 4096 on GPU."""
        if self.block_size:
            return max(1, min(q_len, int(self.block_size)))
        cap, budget = (
            (128, self.block_bytes) if device == "cpu" else (4096, max(self.block_bytes, 2**30))
        )
        return max(1, min(q_len, cap, budget // max(1, 4 * batch * heads * key_len)))

    def tile_rows(self, q_len: int, device: str = "cpu") -> int:
        """Query rows per tile of the causal path: ``block_size``, else 256 on CPU and
        4096 on GPU."""
        return max(1, min(q_len, self.block_size or (256 if device == "cpu" else 4096)))

    def chunk_keys(self, keys: int, device: str = "cpu") -> int:
        """Keys per chunk of a causal tile: ``key_chunk``, else 512 on CPU (a chunk's
        logits and weights stay in the core's cache; measured fastest) and all of them on
        GPU."""
        return max(1, min(keys, self.key_chunk or (CPU_KEY_CHUNK if device == "cpu" else keys)))

    def tile_heads(self, n: int, rows: int, keys: int, device: str = "cpu") -> int:
        """Heads per tile of the causal path: as many as keep a float32 (heads, rows,
        chunk of keys) work tensor within ``block_bytes`` when ``block_size`` is set, else
        within 1 MiB on CPU (per tile worker; measured fastest) and 1 GiB on GPU; at least
        one, so that the extra memory is O(L x rows) per head."""
        if self.block_size:
            budget = self.block_bytes
        else:
            budget = CPU_TILE_BYTES if device == "cpu" else 2**30
        chunk = self.chunk_keys(keys, device)
        return max(1, min(n, budget // (4 * rows * chunk)))


@dataclass
class ForwardState:
    """What the hooks and patches learn while a forward pass runs."""

    current: str | None = None  # module being run (hooks); for the patches
    hit: bool = False  # the current module went through the capture
    seq_len: int | None = None  # length of the current module's input (blocked layouts)
    first_qk: tuple | None = None  # (query, key) of the current module's first call
    busy: bool = False  # the capture's own computation runs (softmax proxies stand aside)
    counting: bool = True  # False while a module's repeated call is computed, not counted
    row_valid: dict = field(default_factory=dict, repr=False)  # "enc"/"dec" -> (B, L)
    input_len: int | None = None  # tokens per sequence of the model's input_ids (hooks)

    def enter(self, name: str, seq_len: int | None) -> None:
        """The module ``name`` starts, on an input of ``seq_len`` positions."""
        self.current, self.hit, self.first_qk, self.seq_len = name, False, None, seq_len


@dataclass
class CaptureSession:
    """One open capture: its configuration, the model's attention modules, the state of
    the forward pass and the work buffers."""

    config: CaptureConfig = field(default_factory=CaptureConfig)
    names: tuple = ()  # the captured attention modules, in model order
    modules: dict = field(default_factory=dict, repr=False)  # name -> attention module
    row_side: dict = field(default_factory=dict, repr=False)  # module name -> "enc"/"dec"
    state: ForwardState = field(default_factory=ForwardState)
    calls: int = 0  # attention calls computed (a repeated call of a module counts once)
    fused_checked: set = field(default_factory=set, repr=False)  # kinds checked once
    _buffers: dict = field(default_factory=dict, repr=False)

    @property
    def stats(self) -> AttentionStats | None:
        """Where the current call's statistics go: the configuration's, None while a
        module's repeated call is computed but not counted."""
        return self.config.stats if self.state.counting else None

    def buffer(self, tag: str, shape: tuple, like: torch.Tensor) -> torch.Tensor:
        """A work tensor of ``shape`` carved from a flat one reused across blocks and
        layers (fresh large allocations cost page faults on every block)."""
        n = 1
        for x in shape:
            n *= x
        key = (tag, like.dtype, like.device)
        t = self._buffers.get(key)
        if t is None or t.numel() < n:
            t = self._buffers[key] = torch.empty(n, dtype=like.dtype, device=like.device)
        return t[:n].view(shape)

    def valid_rows(self, name: str, bsz: int, lq: int) -> torch.Tensor | None:
        """(B, Lq) boolean of the query rows that are not padding (the model's
        ``attention_mask``, or the decoder's for decoder modules), None when every row
        counts or the shapes do not match this call."""
        v = self.state.row_valid.get(self.row_side.get(name, "enc"))
        if v is None or tuple(v.shape) != (bsz, lq) or bool(v.all()):
            return None
        return v
