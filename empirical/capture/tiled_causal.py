"""The tiled causal path of the capture: causal calls without a bias or padding.

LLaMA, Qwen, Mistral, Gemma 1-3 with their sliding windows and softcapping, Phi, GPT-2,
GPT-NeoX, OPT, Falcon: their calls (:func:`~empirical.capture.attention.plain_structure`)
are cut into tiles of heads x rows over the keys from the window's start to the
diagonal (:func:`_causal_tiles`), each run over chunks of keys small enough that a
chunk's logits and weights stay in the core's cache (:func:`_key_chunks`): an online
softmax, the sums of a row adding up over its chunks, its shift m moving to the running
maximum only where ``exp`` could otherwise overflow, the sums so far rescaled
(:func:`_moves_shift`).  Per-row sums (:math:`\\Sigma`, :math:`\\sum_j e_{ij} j`,
:math:`\\sum_j e_{ij}(l_{ij}-m)`, the row max) are kept in (B*H, L) tensors and turned
into P_max, entropy and mean distance once, as in :mod:`~empirical.capture.blocked`.  On
CPU one single-threaded worker per torch thread takes the next tile when done with one
(:func:`_run_tiles`; the pools are kept in
:data:`~empirical.capture.registry.REGISTRY`).

The logits are kept in bits (``q`` carries log2 e) and raised with ``exp2``, 3-5x faster
than ``exp`` on CPU; P_max and the entropy are turned back into nats once.  Arguments of
``exp2`` are clamped at :data:`~empirical.capture.attention_call.EXP2_FLOOR` where they
may fall below it (CPU ``exp2`` is 4-60x slower where its result underflows), and weights
below :data:`~empirical.capture.attention_call.TINY` are then set to 0 (their products
with the values would be subnormal, which slows a CPU matrix product by orders of
magnitude); both changes are below float32 resolution beside the row's largest weight.
"""

from __future__ import annotations

import math
import threading
from concurrent.futures import wait
from dataclasses import dataclass, field

import torch

from empirical.capture.attention_call import (
    EXP2_FLOOR,
    LOG2E,
    MASKED,
    NO_SHIFT_BITS,
    TINY,
    Accumulator,
    AttentionCall,
    max_abs,
)
from empirical.capture.cpu_kernel import chunk_kernel, run_tile, tile_kernel
from empirical.capture.registry import REGISTRY
from empirical.capture.state import CaptureSession


def _mask_chunk(c: AttentionCall, sums, s: torch.Tensor, r0: int, r1: int, a: int, b: int) -> bool:
    """Softcapping (then the temperature) of the logits ``s`` in bits (heads, rows
    r0..r1-1, keys a..b-1) in place (:func:`_softcap_chunk`), and MASKED added to the
    causal corner and to the part left of the sliding window (:func:`_band`; an addition
    of a cached mask is 6-10x faster on CPU than ``masked_fill_``, and l + MASKED is
    MASKED in float32 for any finite logit below 1e22 in size); whether any entry was
    masked."""
    _softcap_chunk(c, s)
    window = sums.window
    right = r0 + 1 < b  # keys right of some row's diagonal
    left = window is not None and a < r1 - window  # keys left of some row's window
    if right:  # key c0 + y of row r0 + x is masked where y - x > r0 - c0
        c0 = max(a, r0)
        s[..., c0 - a :].add_(_band(sums.masks, s, r1 - r0, b - c0, r0 - c0, True))
    if left:  # key a + y of row r0 + x where y - x <= r0 - window - a
        cut = min(b, r1 - window)
        s[..., : cut - a].add_(_band(sums.masks, s, r1 - r0, cut - a, r0 - window - a, False))
    return right or left


def _softcap_chunk(c: AttentionCall, s: torch.Tensor) -> None:
    """Softcapping, then the temperature, of the logits ``s`` in bits, in place (nothing
    without softcapping: the temperature is then in q)."""
    if c.softcap is not None:  # q carries the scaling and log2 e: cap, then the temperature
        cap = c.softcap * LOG2E  # c tanh(x / c) in nats is cap tanh(y / cap) in bits
        s.div_(cap).tanh_().mul_(cap / c.tau)


def _band(cache: dict, like: torch.Tensor, rows: int, cols: int, off: int, right: bool):
    """(rows, cols) tensor, MASKED where ``y - x > off`` (``right``) or ``y - x <= off``
    (else) at row x, column y, and 0 elsewhere; kept in ``cache`` (one per call)."""
    key = (rows, cols, off, right)
    band = cache.get(key)
    if band is None:
        dev = like.device
        y_x = torch.arange(cols, device=dev) - torch.arange(rows, device=dev)[:, None]
        hit = y_x > off if right else y_x <= off
        band = cache[key] = torch.where(hit, MASKED, 0.0).to(like.dtype)
    return band


def _causal_tiles(session, bh: int, lq: int, lk: int, window, device: str) -> list:
    """Tiles ``(h0, h1, r0, r1, lo, hi)`` (heads h0..h1-1, query rows r0..r1-1, keys
    lo..hi-1: from the window's start to the diagonal) covering every row of every head
    once, the rows with the most keys first (so that the last tiles are short)."""
    b = session.config.tile_rows(lq, device)
    tiles = []
    for r0 in reversed(range(0, lq, b)):
        r1 = min(lq, r0 + b)
        lo, hi = (0 if window is None else max(0, r0 - window + 1)), min(lk, r1)
        hc = session.config.tile_heads(bh, r1 - r0, hi - lo, device)
        tiles += [(h0, min(bh, h0 + hc), r0, r1, lo, hi) for h0 in range(0, bh, hc)]
    return tiles


@dataclass
class _CausalSums:
    """Where the tiles of one causal call write: the output (B*H, Lq, dv), the per-row
    sums ``rows`` (Sigma, sum e*j, sum e*(l - m), row max) and the shift m (0 where no
    shift was needed); logits l, their max and m in bits, e = 2^(l - m); ``pos`` the key
    positions j (float32)."""

    out: torch.Tensor
    rows: torch.Tensor
    shift: torch.Tensor
    pos: torch.Tensor
    bounded: bool  # every |logit| below -log2(TINY) / 2: only masked entries need the floor
    small: bool  # on CPU, every logit below NO_SHIFT_BITS in size: no shift at all
    window: int | None
    stats: bool
    kernel: object = None  # the fused pass of :mod:`~empirical.capture.cpu_kernel`, or None
    tile: object = None  # its whole tile with both products (small calls), or None
    masks: dict = field(default_factory=dict)  # the masks of :func:`_band` of this call


def _key_chunks(tile, step: int) -> list:
    """Key ranges ``(a, b)`` of a tile ``(h0, h1, r0, r1, lo, hi)`` in chunks of about
    ``step`` keys, the chunk at the diagonal first: it starts at or left of ``r0``, so
    that it holds a visible key of every row (the key at the row's own position, or the
    last key when queries outnumber keys).

    >>> _key_chunks((0, 1, 8, 12, 0, 12), 4)
    [(8, 12), (4, 8), (0, 4)]
    >>> _key_chunks((0, 1, 8, 12, 0, 12), 3)
    [(8, 12), (5, 8), (2, 5), (0, 2)]
    """
    h0, h1, r0, r1, lo, hi = tile
    a = max(lo, min(r0, hi - step))
    out = [(a, hi)]
    while a > lo:
        out.append((max(lo, a - step), a))
        a = out[-1][0]
    return out


def _causal_tile(session, c: AttentionCall, sums: _CausalSums, tile, slot: int) -> None:
    """One tile of :func:`attend_causal`: for each chunk of its keys (small enough to
    stay in the core's cache) the logits (in bits), exp2, the product with V and the row
    sums of :func:`_add_chunk_sums`, added to the tile's (an online softmax whose shift
    moves only where ``exp2`` could overflow), written to the tile's rows of ``sums``
    (tiles do not overlap)."""
    h0, h1, r0, r1, lo, hi = tile
    nh, nr, cpu = h1 - h0, r1 - r0, c.q.device.type == "cpu"
    chunks = _key_chunks(tile, session.config.chunk_keys(hi - lo, c.q.device.type))
    size = nh * nr * max(b - a for a, b in chunks)
    sbuf = session.buffer(f"s{slot}", (size,), c.q)
    ebuf = None if sums.kernel is not None else session.buffer(f"e{slot}", (size,), c.q)
    w = session.buffer(f"w{slot}", (nh, nr, c.dv), c.q)
    rs = session.buffer(f"r{slot}", (3, nh, nr), c.q)  # Sigma, sum e j, sum e (l - m)
    cm, mx = (session.buffer(f"{t}{slot}", (nh, nr), c.q) for t in ("c", "m"))
    m = sums.shift[h0:h1, r0:r1]
    qt, kt, vt = c.q[h0:h1, r0:r1], c.kt[h0:h1], c.vaug[h0:h1]
    if sums.kernel is not None:
        return _fused_tile(session, c, sums, tile, slot, chunks, (sbuf, ebuf, w))
    shifted, views = False, {}
    for n, (a, b) in enumerate(chunks):
        if b - a not in views:  # (logits, weights) of a chunk of b - a keys
            views[b - a] = tuple(t[: nh * nr * (b - a)].view(nh, nr, b - a) for t in (sbuf, ebuf))
        s, e = views[b - a]
        torch.bmm(qt, kt.narrow(2, a, b - a), out=s)
        masked = _mask_chunk(c, sums, s, r0, r1, a, b)
        torch.amax(s, -1, out=mx if n == 0 else cm)
        if n:
            torch.maximum(mx, cm, out=mx)
        if not sums.small and _moves_shift(n, m, mx, w, rs, sums.stats, cpu):
            shifted = True
        if shifted:
            s.sub_(m[..., None])
        tiny = masked or not sums.bounded  # masked entries (or any entry) may underflow
        if tiny:
            s.clamp_(min=EXP2_FLOOR)
        torch.exp2(s, out=e)
        if tiny:
            torch.threshold_(e, TINY, 0.0)
        if n == 0:
            torch.bmm(e, vt.narrow(1, a, b - a), out=w)
        else:
            w.baddbmm_(e, vt.narrow(1, a, b - a))
        _add_chunk_sums(n, rs, cm, s, e, sums.pos[a:b], sums.stats)
    torch.div(w, rs[0, ..., None], out=sums.out[h0:h1, r0:r1])
    rows = sums.rows[:, h0:h1, r0:r1]
    rows[: 3 if sums.stats else 1] = rs[: 3 if sums.stats else 1]
    if sums.stats:
        rows[3] = mx


def _fused_tile(session, c: AttentionCall, sums: _CausalSums, tile, slot, chunks, bufs) -> None:
    """:func:`_causal_tile` with the fused pass of :mod:`~empirical.capture.cpu_kernel`:
    per chunk, the product with K, softcapping, (where a shift may be needed) the masks,
    the row max and :func:`_moves_shift`, one pass for the masks, the weights and the four
    row sums (max, Sigma, sum e j, sum e (l - m)), the product with V."""
    h0, h1, r0, r1, lo, hi = tile
    nh, nr = h1 - h0, r1 - r0
    sbuf, _, w = bufs
    acc = session.buffer(f"a{slot}", (4, nh, nr), c.q)  # max, Sigma, sum e j, sum e (l - m)
    cm, mx = (session.buffer(f"{t}{slot}", (nh, nr), c.q) for t in ("c", "m"))
    m = sums.shift[h0:h1, r0:r1]  # 0 unless moved
    qt, kt, vt = c.q[h0:h1, r0:r1], c.kt[h0:h1], c.vaug[h0:h1]
    if sums.tile is not None:  # the products, the masks and the pass in one C++ call
        ks = c.kt[h0:h1].transpose(1, 2)
        keys = torch.tensor(chunks, dtype=torch.int64)
        run_tile(sums.tile, qt, ks, vt, sbuf, w, acc, keys, r0, sums.window)
        return _finish_tile(sums, tile, w, acc)
    views, kernel, mstride, window = {}, sums.kernel, m.stride(0), sums.window or 0
    small = int(sums.small)  # unshifted logits below NO_SHIFT_BITS in size: no floor needed
    for n, (a, b) in enumerate(chunks):
        if b - a not in views:  # the logits of a chunk of b - a keys, then its weights
            views[b - a] = sbuf[: nh * nr * (b - a)].view(nh, nr, b - a)
        s = e = views[b - a]  # the pass overwrites each logit with its weight: half the cache
        torch.bmm(qt, kt.narrow(2, a, b - a), out=s)
        if sums.small:  # the pass masks
            _softcap_chunk(c, s)
        else:  # the shift moves before the weights are taken: the max of the visible keys
            _mask_chunk(c, sums, s, r0, r1, a, b)
            torch.amax(s, -1, out=mx if n == 0 else cm)
            if n:
                torch.maximum(mx, cm, out=mx)
            _moves_shift(n, m, mx, w, acc[1:], sums.stats, True)
        kernel(s, e, acc, m, nh * nr, b - a, a, n, nr, mstride, r0, window, small)  # run_chunk
        if n == 0:
            torch.bmm(e, vt.narrow(1, a, b - a), out=w)
        else:
            w.baddbmm_(e, vt.narrow(1, a, b - a))
    _finish_tile(sums, tile, w, acc)


def _finish_tile(sums: _CausalSums, tile, w, acc) -> None:
    """The tile's output ``w / Sigma`` and its row sums ``acc`` (max, Sigma, sum e j,
    sum e (l - m)) written to ``sums``."""
    h0, h1, r0, r1 = tile[:4]
    torch.div(w, acc[1, ..., None], out=sums.out[h0:h1, r0:r1])
    rows = sums.rows[:, h0:h1, r0:r1]
    if sums.stats:
        rows[:3] = acc[1:]
        rows[3] = acc[0]
    else:
        rows[0] = acc[1]


def _add_chunk_sums(n: int, rs, cm, s, e, pos, stats: bool) -> None:
    """Adds chunk ``n``'s row sums of the weights ``e`` (heads, rows, keys) to ``rs``:
    Sigma = sum e, and with ``stats`` sum e j (``pos`` the chunk's key positions) and
    sum e (l - m) (``s`` holds l - m, overwritten); the first chunk writes them, ``cm``
    is scratch.  Apart from the product with V (on CPU, a product with [V | 1 | j] of
    80 columns costs 20-45% more than V's 64, and one of two columns as much as V's)."""
    torch.sum(e, -1, out=rs[0] if n == 0 else cm)
    if n:
        rs[0].add_(cm)
    if not stats:
        return
    torch.matmul(e, pos, out=rs[1] if n == 0 else cm)
    if n:
        rs[1].add_(cm)
    torch.sum(s.mul_(e), -1, out=rs[2] if n == 0 else cm)
    if n:
        rs[2].add_(cm)


def _moves_shift(n: int, m, mx, w, rs, stats: bool, cpu: bool) -> bool:
    """After chunk ``n`` of a tile, with ``mx`` the rows' running max (logits in bits):
    whether the shift ``m`` of its rows was moved.  After the first chunk (where every
    row's max is finite) ``m`` becomes ``mx`` unless every ``|mx|`` is below
    NO_SHIFT_BITS on CPU (``2^l`` is then safe unshifted); after a later one, the rows
    whose ``mx`` passed ``m + NO_SHIFT_BITS`` (``exp2`` could overflow) move to ``mx``:
    the sums so far (``w``, and ``rs``: Sigma, sum e j) scale by :math:`f = 2^{m - m'}`,
    and the entropy sum :math:`T = \\sum_j e_j (l_j - m)` (``rs[2]``) becomes
    :math:`f\\,(T + (m - m')\\Sigma)`."""
    if n == 0:
        if cpu and bool((mx.abs() < NO_SHIFT_BITS).all()):
            return False
        m.copy_(mx)
        return True
    if not bool((mx > m + NO_SHIFT_BITS).any()):
        return False
    new = torch.where(mx > m + NO_SHIFT_BITS, mx, m)
    f = torch.exp2(m - new)
    if stats:
        rs[2].add_((m - new) * rs[0])
    rs[: 3 if stats else 1].mul_(f)
    w.mul_(f[..., None])
    m.copy_(new)
    return True


def attend_causal(
    session: CaptureSession,
    c: AttentionCall,
    out: torch.Tensor,
    acc: Accumulator | None,
    window: int | None,
) -> None:
    """:func:`~empirical.capture.attention.attend` for causal
    :func:`~empirical.capture.attention.plain_structure` calls, tiled over (heads, rows) so that a
    tile of logits stays in cache; per-row sums are kept in (B*H, Lq) tensors and turned
    into statistics once, after the last tile.  On CPU the tiles go to
    :func:`_run_tiles`' single-threaded workers."""
    bh, lq, lk = c.q.shape[0], c.shape[2], c.shape[3]
    # in bits, |l_ij| <= |q_i| |k_j| (q carries the scaling and log2 e), and <= softcap
    # log2(e) / tau: below the bound, only the masked parts of a tile can fall under the
    # exp2 floor
    bound = max_abs(c.q.norm(dim=-1)) * max_abs(c.kt.norm(dim=1))
    if c.softcap is not None:
        bound = min(bound, c.softcap * LOG2E) / c.tau
    sums = _CausalSums(
        out,
        c.q.new_empty(4, bh, lq),
        c.q.new_zeros(bh, lq),
        torch.arange(lk, device=c.q.device, dtype=c.q.dtype),
        2 * bound < -math.log2(TINY),
        c.q.device.type == "cpu" and bound < NO_SHIFT_BITS,
        window,
        acc is not None,
    )
    if c.q.device.type == "cpu" and c.q.dtype == torch.float32 and session.config.cpu_kernel:
        sums.kernel = chunk_kernel()
        if sums.kernel is not None and sums.small and c.softcap is None and c.kt.stride(1) == 1:
            sums.tile = tile_kernel()  # unshifted logits, in bits from q alone
    tiles = _causal_tiles(session, bh, lq, lk, window, c.q.device.type)
    _run_tiles(lambda tile, slot: _causal_tile(session, c, sums, tile, slot), tiles, c.q.device)
    if acc is not None:
        den, rows = sums.rows[0], sums.rows
        i = torch.arange(lq, device=den.device, dtype=den.dtype)
        blk = {"ok": den > 0, "pmax": torch.exp2(rows[3] - sums.shift) / den}
        blk["entropy"] = torch.log(den) - rows[2] * (1 / LOG2E) / den  # bits to nats
        blk["distance"] = i - rows[1] / den
        acc.add(blk, 0, lq, 0)


def _run_tiles(work, tiles: list, device: torch.device) -> None:
    """``work(tile, slot)`` for every tile: in this thread off the CPU or with one torch
    thread; else on ``torch.get_num_threads()`` workers whose torch operations are
    single-threaded, each taking the next tile when it is done with one (worker ``slot``
    has its own work buffers).  One wait at the end instead of one thread barrier per
    operation: on a busy machine, a worker that loses its core delays only its own tile."""
    n = min(len(tiles), torch.get_num_threads()) if device.type == "cpu" else 1
    if n <= 1:
        for tile in tiles:
            work(tile, 0)
        return
    todo, lock, stop = iter(tiles), threading.Lock(), threading.Event()

    def worker(slot: int) -> None:
        while not stop.is_set():
            with lock:
                tile = next(todo, None)
            if tile is None:
                return
            try:
                work(tile, slot)
            except BaseException:
                stop.set()
                raise

    futures = [REGISTRY.tile_pool(n).submit(worker, slot) for slot in range(n)]
    try:
        for f in futures:
            f.result()
    finally:
        stop.set()
        wait(futures)
