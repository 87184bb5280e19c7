"""Time and peak memory of the capture against the stock forward (issue 5).

A T5-small-like encoder (d_model 512, 8 heads, d_kv 64, d_ff 2048; ``--layers`` of
them, random init, seed 0) runs one sequence of real text (stdlib) of length L in three
ways, each in its own subprocess so that peak memory is clean:

* ``sdpa``     stock transformers forward (scaled_dot_product_attention);
* ``eager``    stock eager forward with ``output_attentions=True`` (materialises the
  probabilities; skipped when it cannot fit in the available memory);
* ``capture``  our block-wise capture with the Algorithm-1 statistics (pmax, entropy,
  per-distance mass) of every layer;
* ``capture+sorted``  the same plus the sorted-logit statistic of the first layer.

Peak memory is the peak resident set size during the forward, sampled every 2 ms,
minus the resident size just before it.  The variants run in interleaved rounds
(``--rounds``), one forward per subprocess; the minimum wall time and minimum process
CPU time (all threads; less sensitive to other load on a shared machine) are kept.
Ratios are against ``sdpa`` in the same run.

    python benchmarks/capture.py --lengths 4096 16384 --layers 1 --threads 2 --rounds 2
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VARIANTS = ("sdpa", "eager", "capture", "capture+sorted")


def _rss() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _available() -> int:
    with open("/proc/meminfo") as fh:
        for line in fh:
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    return 0


def predicted_bytes(variant: str, L: int, heads: int = 8) -> int:
    """Rough peak of the T5 forward: T5's ``compute_bias`` holds ~6 int64 L x L
    temporaries, then the (H, L, L) float32 bias; sdpa copies it (``contiguous``) into
    its float mask, eager adds scores and probabilities; the capture only reads it."""
    l2, bias = L * L, 4 * heads * L * L
    return {"sdpa": 2 * bias, "eager": 3 * bias}.get(variant, max(6 * 8 * l2, bias + 2 ** 30))


def child(L: int, variant: str, layers: int, threads: int, reps: int) -> dict:
    import torch
    sys.path.insert(0, str(ROOT))
    from empirical.capture import capture
    from empirical.measure import sequences
    from empirical.models import load_model
    from empirical.stats import AttentionStats
    torch.set_num_threads(threads)
    import transformers
    transformers.logging.set_verbosity_error()
    lm = load_model(f"t5-config:small,num_layers={layers}", seed=0)
    model = lm.model
    ids = sequences(lm, "stdlib", L, 1)[0]
    if variant == "eager":
        model.set_attn_implementation("eager")
    first = "encoder.block.0.layer.0.SelfAttention"

    def run():
        with torch.no_grad():
            if variant in ("sdpa", "eager"):
                return model(ids, output_attentions=(variant == "eager")).last_hidden_state
            st = AttentionStats(sorted_layers=[first] if variant == "capture+sorted" else ())
            with capture(model, stats=st):
                return model(ids).last_hidden_state

    with torch.no_grad():                      # warm-up at a small length
        model(ids[:, :256])
    times, peaks, cpus = [], [], []
    for _ in range(reps):
        base = _rss()
        peak = [base]
        done = threading.Event()

        def sample():
            while not done.is_set():
                peak[0] = max(peak[0], _rss())
                time.sleep(0.002)
        th = threading.Thread(target=sample, daemon=True)
        th.start()
        t0, c0 = time.perf_counter(), time.process_time()
        out = run()
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        done.set()
        th.join()
        peak[0] = max(peak[0], _rss())
        times.append(dt)
        cpus.append(dc)
        peaks.append(peak[0] - base)
        del out
    return {"L": L, "variant": variant, "layers": layers, "threads": threads,
            "seconds": min(times), "cpu_seconds": min(cpus), "peak_extra_bytes": max(peaks)}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lengths", type=int, nargs="+", default=[4096, 16384])
    p.add_argument("--layers", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--rounds", type=int, default=2,
                   help="interleaved rounds over the variants; the minimum is kept")
    p.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS)
    p.add_argument("--json", action="store_true")
    p.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.child:
        L, variant, layers, threads = a.child
        print(json.dumps(child(int(L), variant, int(layers), int(threads), 1)))
        return 0
    rows = []
    for L in a.lengths:
        runs = {v: [] for v in a.variants}
        for rnd in range(a.rounds):
            for v in a.variants:
                if rnd and runs[v] and "skipped" in runs[v][-1]:
                    continue
                runs[v].append(_measure(a, L, v))
        for v, rs in runs.items():
            ok = [r for r in rs if "seconds" in r]
            if not ok:
                rows.append(rs[-1])
                continue
            best = min(ok, key=lambda r: r["seconds"])
            rows.append({**best, "cpu_seconds": min(r["cpu_seconds"] for r in ok),
                         "peak_extra_bytes": max(r["peak_extra_bytes"] for r in ok),
                         "rounds": len(ok), "all_seconds": [r["seconds"] for r in ok]})
    return _report(a, rows)


def _measure(a, L, v) -> dict:
    need, avail = predicted_bytes(v, L), _available()
    if need > avail:
        row = {"L": L, "variant": v, "skipped": f"needs ~{need / 2**30:.1f} GiB, "
               f"{avail / 2**30:.1f} GiB available"}
    else:
        env = {**os.environ, "OMP_NUM_THREADS": str(a.threads)}
        cmd = [sys.executable, __file__, "--child", str(L), v, str(a.layers), str(a.threads)]
        res = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
        if res.returncode != 0:
            row = {"L": L, "variant": v, "skipped": f"failed (exit {res.returncode}): "
                   + (res.stderr.strip().splitlines() or ["killed"])[-1][:200]}
        else:
            row = json.loads(res.stdout.strip().splitlines()[-1])
    print(f"L={L} {v}: {row}", file=sys.stderr)
    return row


def _report(a, rows) -> int:
    by = {(r["L"], r["variant"]): r for r in rows if "seconds" in r}
    for r in rows:
        ref = by.get((r["L"], "sdpa"))
        if "seconds" in r and ref:
            r["time_ratio_vs_sdpa"] = r["seconds"] / ref["seconds"]
            r["cpu_ratio_vs_sdpa"] = r["cpu_seconds"] / ref["cpu_seconds"]
            r["extra_vs_sdpa_GiB"] = (r["peak_extra_bytes"] - ref["peak_extra_bytes"]) / 2**30
    if a.json:
        print(json.dumps({"rows": rows, "layers": a.layers, "threads": a.threads}))
        return 0
    print(f"T5-small-like encoder, {a.layers} layer(s), 8 heads, {a.threads} threads")
    print(f"{'L':>6s} {'variant':15s} {'wall s':>8s} {'x sdpa':>7s} {'cpu s':>8s} {'x sdpa':>7s}"
          f" {'peak GiB':>9s} {'extra vs sdpa GiB':>18s}")
    for r in rows:
        if "seconds" not in r:
            print(f"{r['L']:6d} {r['variant']:15s} {r['skipped']}")
            continue
        print(f"{r['L']:6d} {r['variant']:15s} {r['seconds']:8.2f} "
              f"{r.get('time_ratio_vs_sdpa', float('nan')):7.2f} {r['cpu_seconds']:8.2f} "
              f"{r.get('cpu_ratio_vs_sdpa', float('nan')):7.2f} "
              f"{r['peak_extra_bytes'] / 2**30:9.2f} {r.get('extra_vs_sdpa_GiB', float('nan')):18.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
