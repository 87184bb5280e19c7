"""Training steps/s of the tiny LM per RPE, as a ratio to the no-position baseline ('none')
measured in the same process (2 layers, d_model 128, 4 heads, batch 32, m = 128).

    python benchmarks/bench_tiny_lm.py --steps 10 --threads 1
"""

from __future__ import annotations

import argparse
import time

import torch

from empirical.training.rpe import PAPER_SET
from empirical.training.tiny_lm import LMConfig, TinyLM


def steps_per_s(rpe: str, steps: int, batch: int, length: int) -> float:
    model = TinyLM(LMConfig(rpe=rpe))
    opt = torch.optim.AdamW(model.parameters(), 1e-3)
    x = torch.randint(0, 256, (batch, length + 1), generator=torch.Generator().manual_seed(0))
    for i in range(steps + 2):
        if i == 2:
            t0 = time.perf_counter()
        loss = model.loss(x)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return steps / (time.perf_counter() - t0)


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--steps", type=int, default=10)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--seq-len", type=int, default=128)
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    base = steps_per_s("none", args.steps, args.batch, args.seq_len)
    print(f"{'none (baseline)':>16}: {base:6.2f} steps/s  ratio 1.00")
    for rpe in PAPER_SET + ("t5",):
        s = steps_per_s(rpe, args.steps, args.batch, args.seq_len)
        print(f"{rpe:>16}: {s:6.2f} steps/s  ratio {s / base:.2f}")


if __name__ == "__main__":
    main()
