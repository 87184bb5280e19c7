"""Capture against stock fused attention: wall time, CPU time and peak extra memory.

Three one-layer models built from configs (random init, seed 0), one sequence of length L:

* ``llama``    LLaMA-style causal decoder layer: hidden 512, 8 heads of 64, rotary;
* ``mistral``  the same with Mistral's sliding window of 4096 keys (a boolean mask);
* ``t5``       T5 encoder layer: d_model 512, 8 heads of 64, relative position bias.

Each is run as stock ``sdpa`` (PyTorch's fused kernel) and under
:func:`empirical.capture.session.capture` with the default statistics (P_max, entropy, mean
distance of every head), and at the attention level alone (``attn``: one call of
``F.scaled_dot_product_attention`` against :func:`empirical.capture.attention.attend` on the same
random q, k, v of shape (1, 8, L, 64), causal for llama, with the window mask for mistral,
with a T5-sized float bias for t5).  Variants alternate within each repeat; medians over
``--repeats`` are reported, with the load average (the machine may be shared: the CPU-time
ratio is the steadier one).  Peak extra memory is the peak resident set size (CPU; sampled every 1 ms) or
``torch.cuda.max_memory_allocated`` (GPU) during the call minus the level just before;
``capture - sdpa`` is the capture's own extra memory, to compare with its work tensors
(``block MiB``: two float32 tensors, the logits and their exponentials, for each worker
(one on the causal path with the fused CPU pass, which writes the weights over the logits):
heads x rows x L on the blocked path; heads x rows x a chunk of keys on the causal path,
at most 1 MiB each on CPU or one head's rows x chunk; the causal path runs one
single-threaded worker per torch thread).

``--busy N`` runs N processes that spin on the CPU for the duration (started and stopped by
the benchmark), to measure how each variant degrades on a loaded machine against the same
run without them.

When CUDA is available a GPU section repeats the runs in bfloat16 up to
``--gpu-lengths`` (default 2k..32k); there the capture takes the fused Triton kernel
(:mod:`empirical.capture.fused_kernel`) and ``attn capture-torch`` times the tiled PyTorch path
beside it.  On CPU, ``attn capture-ops`` times the tiled causal path with tensor operations in
place of its fused C++ pass (:mod:`empirical.capture.cpu_kernel`); the record names the CPU
model and vector ISA, and whether that pass and its whole-tile call with the products
(``cpu_tile``) were built (or why not).

    python -m benchmarks.capture                      # L = 2048, 8192, 16384 on CPU
    python -m benchmarks.capture --lengths 8192 --json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

# run as a file path (python benchmarks/NAME.py): the repository's packages come first
if not __package__:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import machine
from theory.core.arguments import int_range, output_file, positive_int
from theory.core.cli import CommandParser, UsageError, command, write_text

WINDOW = 4096  # the mistral layer's sliding window (Mistral-7B's)


def _rss() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _available() -> int:
    with open("/proc/meminfo") as fh:
        for line in fh:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return 0


def _ratio(a: float, b: float) -> float | None:
    """``a / b``, or None where ``b`` is below the clock's resolution (a tiny length)."""
    return a / b if b > 0 else None


def _fmt(ratio: float | None) -> str:
    return f"{ratio:6.2f}" if ratio is not None else f"{'-':>6s}"


def _peak_cpu(fn):
    """(wall s, cpu s, peak extra RSS bytes) of ``fn()``."""
    base = _rss()
    peak, done = [base], threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], _rss())
            time.sleep(0.001)

    th = threading.Thread(target=sample, daemon=True)
    th.start()
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    dt, dc = time.perf_counter() - t0, time.process_time() - c0
    done.set()
    th.join()
    del out
    return dt, dc, max(peak[0], _rss()) - base


def _peak_gpu(fn):
    import torch

    torch.cuda.synchronize()
    base = torch.cuda.memory_allocated()
    torch.cuda.reset_peak_memory_stats()
    t0 = time.perf_counter()
    out = fn()
    torch.cuda.synchronize()
    dt = time.perf_counter() - t0
    del out
    return dt, dt, torch.cuda.max_memory_allocated() - base


def build(kind: str, device, dtype):
    import torch
    import transformers

    transformers.logging.set_verbosity_error()
    torch.manual_seed(0)
    if kind in ("llama", "mistral"):
        dims = dict(
            hidden_size=512,
            intermediate_size=1376,
            num_hidden_layers=1,
            num_attention_heads=8,
            num_key_value_heads=8,
            vocab_size=1000,
            max_position_embeddings=1 << 17,
        )
        if kind == "llama":
            model = transformers.LlamaModel(transformers.LlamaConfig(**dims))
        else:
            cfg = transformers.MistralConfig(sliding_window=WINDOW, **dims)
            model = transformers.MistralModel(cfg)
    else:
        cfg = transformers.T5Config(
            d_model=512, d_ff=2048, num_layers=1, num_heads=8, d_kv=64, vocab_size=1000
        )
        model = transformers.T5EncoderModel(cfg)
    return model.eval().to(device=device, dtype=dtype)


def variants(kind: str, L: int, device, dtype) -> dict:
    """name -> zero-argument callable, for one model kind and length."""
    import torch
    import torch.nn.functional as F

    from empirical.capture.attention import attend
    from empirical.capture.session import capture
    from empirical.capture.state import CaptureConfig, CaptureSession
    from empirical.capture.stats import AttentionStats

    model = build(kind, device, dtype)
    ids = torch.randint(0, 1000, (1, L), generator=torch.Generator().manual_seed(1)).to(device)
    g = torch.Generator(device=device).manual_seed(2)
    q, k, v = (torch.randn(1, 8, L, 64, generator=g, device=device, dtype=dtype) for _ in range(3))
    bias = (
        torch.randn(1, 8, L, L, generator=g, device=device, dtype=dtype) if kind == "t5" else None
    )
    causal = kind == "llama"
    mask = window = None
    if kind == "mistral":  # the boolean sliding-window mask transformers builds
        i, j = torch.arange(L, device=device)[:, None], torch.arange(L, device=device)[None]
        mask, window = ((j <= i) & (j > i - WINDOW))[None, None], WINDOW
    config = CaptureConfig(stats=AttentionStats())  # for its block size only

    def layer_sdpa():
        with torch.no_grad():
            return model(ids).last_hidden_state

    def layer_capture():
        with torch.no_grad(), capture(model, stats=AttentionStats()):
            return model(ids).last_hidden_state

    def attn_sdpa():
        with torch.no_grad():
            extra = bias if mask is None else mask
            return F.scaled_dot_product_attention(q, k, v, attn_mask=extra, is_causal=causal)

    def attn_capture():
        with torch.no_grad():  # a fresh session: its buffers count in the peak
            return attend(
                CaptureSession(CaptureConfig(stats=AttentionStats())), "x", q, k, v, mask, bias,
                causal=causal, window=window,
            )  # fmt: skip

    def attn_capture_torch():  # on GPU: the tiled PyTorch path instead of the fused kernel
        with torch.no_grad():
            return attend(
                CaptureSession(CaptureConfig(stats=AttentionStats(), fused=False)), "x", q, k, v,
                mask, bias, causal=causal, window=window,
            )  # fmt: skip

    def attn_capture_ops():  # on CPU: the tensor operations instead of the fused C++ pass
        with torch.no_grad():
            return attend(
                CaptureSession(CaptureConfig(stats=AttentionStats(), cpu_kernel=False)), "x", q,
                k, v, mask, bias, causal=causal, window=window,
            )  # fmt: skip

    fns = {
        "layer sdpa": layer_sdpa,
        "layer capture": layer_capture,
        "attn sdpa": attn_sdpa,
        "attn capture": attn_capture,
    }
    if device.type == "cuda":
        fns["attn capture-torch"] = attn_capture_torch
    elif kind != "t5":
        fns["attn capture-ops"] = attn_capture_ops
    return fns, config


def measure(kind: str, L: int, repeats: int, device, dtype) -> list:
    import torch

    fns, config = variants(kind, L, device, dtype)
    peak = _peak_gpu if device.type == "cuda" else _peak_cpu
    for fn in fns.values():  # warm-up (allocator, kernels)
        fn()
    runs = {n: [] for n in fns}
    for _ in range(repeats):
        for n, fn in fns.items():
            runs[n].append(peak(fn))
    rows = []
    tiled = kind != "t5"
    dev = device.type
    tile = config.tile_rows(L, dev) if tiled else config.rows_per_block(1, 8, L, L, dev)
    heads = config.tile_heads(8, tile, L, dev) if tiled else 8
    keys = config.chunk_keys(L, dev) if tiled else L
    workers = torch.get_num_threads() if tiled and dev == "cpu" else 1
    from empirical.capture.cpu_kernel import STATE

    fused_cpu = tiled and dev == "cpu" and STATE["kernel"] is not None
    for n, rs in runs.items():
        nbuf = 1 if fused_cpu and n != "attn capture-ops" else 2  # logits (and weights)
        rows.append(
            {
                "model": kind,
                "L": L,
                "variant": n,
                "device": device.type,
                "dtype": str(dtype).replace("torch.", ""),
                "wall_s": statistics.median(r[0] for r in rs),
                "cpu_s": statistics.median(r[1] for r in rs),
                "peak_extra_MiB": max(r[2] for r in rs) / 2**20,
                "block_rows": tile,
                "block_heads": heads,
                "block_keys": keys,
                "block_MiB": nbuf * 4 * heads * tile * keys * workers / 2**20,
            }
        )
    for r in rows:
        ref = next(x for x in rows if x["variant"] == r["variant"].split()[0] + " sdpa")
        r["wall_ratio"] = _ratio(r["wall_s"], ref["wall_s"])
        r["cpu_ratio"] = _ratio(r["cpu_s"], ref["cpu_s"])
        r["extra_vs_sdpa_MiB"] = r["peak_extra_MiB"] - ref["peak_extra_MiB"]
    del fns
    if device.type == "cuda":
        torch.cuda.empty_cache()
    return rows


HEADER = None


def _print(rows: list) -> None:
    global HEADER
    if HEADER is None:
        HEADER = True
        print(
            f"{'model':6s} {'L':>6s} {'dev':4s} {'dtype':8s} {'variant':14s} {'wall s':>8s} "
            f"{'x sdpa':>6s} {'cpu s':>8s} {'x sdpa':>6s} {'peak MiB':>9s} {'- sdpa':>8s} "
            f"{'block MiB':>9s}"
        )
    for r in rows:
        print(
            f"{r['model']:6s} {r['L']:6d} {r['device']:4s} {r['dtype']:8s} {r['variant']:14s} "
            f"{r['wall_s']:8.3f} {_fmt(r['wall_ratio'])} {r['cpu_s']:8.3f} {_fmt(r['cpu_ratio'])} "
            f"{r['peak_extra_MiB']:9.1f} {r['extra_vs_sdpa_MiB']:8.1f} {r['block_MiB']:9.1f}",
            flush=True,
        )


class _Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Defaults in every option's help; the examples kept as written."""


def _parser() -> CommandParser:
    p = CommandParser(
        prog="python -m benchmarks.capture",
        description=__doc__.split("\n")[0],
        formatter_class=_Formatter,
        epilog="examples:\n  python -m benchmarks.capture --models llama --threads 1\n"
        "  python -m benchmarks.capture --lengths 8192 --json\n"
        "  python -m benchmarks.capture --lengths 2048 --json out.json",
    )
    p.add_argument(
        "--lengths", type=positive_int, nargs="+", default=[2048, 8192, 16384],
        help="sequence lengths measured on CPU",
    )  # fmt: skip
    p.add_argument(
        "--gpu-lengths", type=positive_int, nargs="+", default=[2048, 8192, 16384, 32768],
        help="sequence lengths measured on the GPU (bfloat16), when CUDA is available",
    )  # fmt: skip
    p.add_argument(
        "--models", nargs="+", default=["llama", "mistral", "t5"],
        choices=["llama", "mistral", "t5"], help="layers to measure",
    )  # fmt: skip
    p.add_argument(
        "--repeats", type=positive_int, default=3,
        help="interleaved repeats of every variant (medians are reported)",
    )  # fmt: skip
    p.add_argument(
        "--threads", type=positive_int, default=None,
        help="torch CPU threads; None: torch's default, one per core (default: %(default)s)",
    )  # fmt: skip
    p.add_argument(
        "--json", nargs="?", const="-", default=None, metavar="PATH",
        help="print one JSON object on stdout instead of the table, or write it to PATH; "
        "None: the table only (default: %(default)s)",
    )  # fmt: skip
    p.add_argument(
        "--busy", type=int_range(0, 64), default=0,
        help="processes spinning on the CPU during the measurements (a loaded machine)",
    )  # fmt: skip
    return p


@command
def main(argv=None) -> int:
    a = _parser().parse_args(argv)
    if a.json not in (None, "-"):
        try:
            a.json = output_file(a.json)  # checked before the run
        except argparse.ArgumentTypeError as exc:
            raise UsageError(f"--json: {exc}") from None
    import torch

    if a.threads:
        torch.set_num_threads(a.threads)
    with _busy(a.busy):
        info = run(a, torch)
    info["busy_processes"] = a.busy
    if a.json == "-":
        print(json.dumps(info))
    elif a.json is not None:
        write_text(a.json, json.dumps(info))
    if a.json != "-":
        print(
            f"load average before {info['load_average_before']}, after "
            f"{info['load_average_after']}; {info['threads']} torch threads; {a.busy} busy "
            f"processes; medians of {a.repeats} interleaved repeats; tiled causal path on CPU: "
            f"{info['cpu_kernel']}; small calls: {info['cpu_tile']}; {info['machine']}"
        )
    return 0


@contextlib.contextmanager
def _busy(n: int):
    """``n`` child processes spinning on the CPU for the block, stopped after it."""
    procs = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"], stdin=subprocess.DEVNULL)
        for _ in range(n)
    ]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
            p.wait()


def run(a, torch) -> dict:
    """Every (device, model, length) of the arguments ``a``; the JSON object (with the
    machine's CPU model and vector ISA, and whether the tiled causal path's fused CPU pass
    of :mod:`empirical.capture.cpu_kernel` ran or why not)."""
    from empirical.capture.cpu_kernel import STATE, TILE_STATE, chunk_kernel, tile_kernel

    chunk_kernel()  # built or loaded before any timing
    tile_kernel()
    lengths = sorted(set(a.lengths))
    plans = [(torch.device("cpu"), torch.float32, lengths)]
    if torch.cuda.is_available():
        plans.append((torch.device("cuda"), torch.bfloat16, sorted(set(a.gpu_lengths))))
    rows = []
    load0 = os.getloadavg()
    for device, dtype, lens in plans:
        for kind in a.models:
            for L in lens:
                skip = _skip_reason(kind, L, device, dtype, torch)
                if skip:
                    rows.append({"model": kind, "L": L, "skipped": skip})
                    if a.json != "-":
                        print(f"{kind} L={L}: skipped ({skip})")
                    continue
                got = measure(kind, L, a.repeats, device, dtype)
                rows += got
                if a.json != "-":
                    _print(got)
    return {
        "machine": machine(),
        "cpu_kernel": "fused C++ pass" if STATE["kernel"] is not None else STATE["reason"],
        "cpu_tile": "whole tiles in C++ (sgemm)"
        if TILE_STATE["kernel"] is not None
        else TILE_STATE["reason"],
        "load_average": round(load0[0], 2),
        "load_average_before": load0,
        "load_average_after": os.getloadavg(),
        "threads": torch.get_num_threads(),
        "repeats": a.repeats,
        "rows": rows,
    }


def _skip_reason(kind, L, device, dtype, torch) -> str | None:
    """Why T5 at ``L`` is not run: its L x L biases (the model's, the benchmark's, sdpa's
    copy) would not fit in 80% of the free memory."""
    need = 3 * dtype.itemsize * 8 * L * L if kind == "t5" else 0
    free = torch.cuda.mem_get_info()[0] if device.type == "cuda" else _available()
    if need > 0.8 * free:
        return f"needs ~{need / 2**30:.0f} GiB, {free / 2**30:.0f} GiB available"
    return None


if __name__ == "__main__":
    sys.exit(main())
