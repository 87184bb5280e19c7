"""The seeded bundle of tiny models that the agreement tests, figures and paper checks read.

``python -m empirical.bundle --profile ci|paper`` trains every model of :data:`MODELS`
with each seed of the profile (worker processes, one torch thread each), measures it
and writes ``OUT/bundle.json``.  Per model and seed it records:

* every model: non-overlapping perplexity at ``m * 2^k`` (``empirical.training.extrapolate``);
* the RPE paper's set: up to 64m, and the ERF at 4m (``empirical.training.erf``);
* ``t5`` (T5's learned bucketed bias; distances >= m/2 share the last bucket, as
  distances >= 128 do in T5 trained at 512): window statistics per head at m, 2m, 4m,
  8m (``empirical.training.window_stats``), Algorithm 1's temperature (entropy and P_max
  alignment, ``theory.temperature.rules.algorithm1``) at 4m and 8m, and the
  perplexity there with that temperature;
* ``nope*`` (no positional encoding; InfoScale paper): window entropy and perplexity up
  to 16m for no scaling, the log_n rule and InfoScale (Eq. 15) at inference, a model
  trained with log-length scaling, and a CosScale model (Eqs. 6-7) with and without
  InfoScale; the attention-weighted cosine peak of the CosScale model (Eqs. 16-18).

Finished models are reused; the theory side is not stored (tests recompute it).
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import os
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from empirical.training.rpe import PAPER_SET

if TYPE_CHECKING:
    import torch

    from empirical.training.tiny_lm import TinyLM

PROFILES = {
    "ci": dict(
        seq_len=32,
        steps=800,
        batch=32,
        n_layer=2,
        d_model=64,
        n_head=4,
        lr=3e-3,
        warmup=30,
        seeds=(0, 1, 2),
        eval_tokens=8192,
        cos_alpha=16.0,
        cos_alpha_low=4.0,
    ),
    "paper": dict(
        seq_len=64,
        steps=2500,
        batch=32,
        n_layer=2,
        d_model=64,
        n_head=4,
        lr=2e-3,
        warmup=100,
        seeds=(0, 1, 2),
        eval_tokens=16384,
        cos_alpha=16.0,
        cos_alpha_low=4.0,
    ),
}
RPE_SET = PAPER_SET  # the RPE paper's set, in the order the bundle trains it
#: model name -> extra empirical.training.train arguments
MODELS = {
    **{r: ["--rpe", r] for r in RPE_SET},
    "t5": ["--rpe", "t5", "--t5-buckets", "16", "--t5-max-distance", "{half_m}"],
    "nope": ["--rpe", "none"],
    "nope_log_n": ["--rpe", "none", "--attn-scale", "log_n"],
    "nope_cosscale": ["--rpe", "none", "--attn-scale", "cosscale", "--cos-alpha", "{cos_alpha}"],
    "nope_cosscale_low": [
        "--rpe",
        "none",
        "--attn-scale",
        "cosscale",
        "--cos-alpha",
        "{cos_alpha_low}",
    ],
}
#: inference rules measured per model family (empirical.training.tiny_lm.INFERENCE_RULES)
SCALE_RULES = {
    "nope": ("none", "infoscale", "log_n"),
    "nope_log_n": ("none",),
    "nope_cosscale": ("none", "infoscale"),
    "nope_cosscale_low": ("none",),
}
WINDOW_ROWS = 1024


def train_argv(name: str, seed: int, prof: dict, out: Path) -> list[str]:
    extra = [
        a.format(
            half_m=prof["seq_len"] // 2,
            cos_alpha=prof["cos_alpha"],
            cos_alpha_low=prof["cos_alpha_low"],
        )
        for a in MODELS[name]
    ]
    keys = ("seq_len", "steps", "batch", "n_layer", "d_model", "n_head", "lr", "warmup")
    base = [x for k in keys for x in (f"--{k.replace('_', '-')}", str(prof[k]))]
    return (
        base
        + extra
        + [
            "--seed",
            str(seed),
            "--threads",
            "1",
            "--quiet",
            "--ckpt-every",
            str(prof["steps"]),
            "--out",
            str(out),
        ]
    )


def chunks_for(L: int, eval_tokens: int) -> int:
    """Test chunks of length L giving about WINDOW_ROWS window rows (at least 1)."""
    return max(1, min(eval_tokens // L, math.ceil(WINDOW_ROWS / max(1, L - (3 * L) // 4))))


def ppl_at(model: TinyLM, test: torch.Tensor, lengths: Iterable[int], eval_tokens: int) -> dict:
    from empirical.training.extrapolate import perplexity

    return {str(L): perplexity(model, test[: (eval_tokens // L) * L], L)["ppl"] for L in lengths}


def measure_t5(model: TinyLM, test: torch.Tensor, m: int, eval_tokens: int) -> dict:
    """Window statistics at m..8m, Algorithm 1's tau at 4m, 8m and the ppl with it."""
    from theory.temperature.rules import algorithm1
    from empirical.training.window_stats import per_head_stats, window_logits

    logits = {
        L: window_logits(model, test, L, chunks_for(L, eval_tokens))
        for L in (m, 2 * m, 4 * m, 8 * m)
    }
    out = {"heads": {str(L): per_head_stats(v) for L, v in logits.items()}, "alg1": {}}
    tr = logits[m].reshape(-1, m)
    for L in (4 * m, 8 * m):
        ex = logits[L].reshape(-1, L)
        row = {}
        for mode in ("entropy", "pmax"):
            r = algorithm1(tr, ex, mode, method="continuous", lo=0.05, hi=2.0, tol=1e-4)
            row[f"tau_{mode}"] = r.tau
            if r.tau is not None:
                model.set_inference("tau", r.tau)
                row[f"ppl_{mode}"] = ppl_at(model, test, [L], eval_tokens)[str(L)]
                model.set_inference("none")
        out["alg1"][str(L)] = row
    return out


def measure_scaling(name: str, model: TinyLM, test: torch.Tensor, m: int, eval_tokens: int) -> dict:
    """Window entropy and ppl at m..16m for each inference rule; CosScale cosine peak."""
    from theory.infoscale.cosscale import kde_mode
    from empirical.training.window_stats import row_stats, weighted_cosines, window_logits

    lengths = [m * 2**k for k in range(5)]
    out = {"rules": {}}
    for rule in SCALE_RULES[name]:
        model.set_inference(rule)
        ent = {
            str(L): row_stats(window_logits(model, test, L, chunks_for(L, eval_tokens)))
            for L in lengths
        }
        out["rules"][rule] = {"window": ent, "ppl": ppl_at(model, test, lengths, eval_tokens)}
    model.set_inference("none")
    if model.cfg.cos_alpha:
        peaks = []
        for layer in range(model.cfg.n_layer):
            eta, w = weighted_cosines(model, test, m, chunks_for(m, eval_tokens) // 4, layer)
            peaks.append(
                {
                    "layer": layer,
                    "weighted_mode": kde_mode(eta, w)[0],
                    "unweighted_mode": kde_mode(eta, w * 0 + 1.0)[0],
                    "mean_cos": float(eta.mean()),
                    "pairs": int(eta.size),
                }
            )
        out["cos_peak"] = {
            "alpha": model.cfg.cos_alpha,
            "d_head": model.cfg.d_model // model.cfg.n_head,
            "layers": peaks,
        }
    return out


def measure(name: str, run: Path, prof: dict) -> dict:
    from empirical.training.data import run_test_tokens
    from empirical.training.erf import erf_for_run
    from empirical.training.train import load_model

    model, cfg = load_model(run)
    test, m, et = run_test_tokens(cfg), prof["seq_len"], prof["eval_tokens"]
    top = 6 if name in RPE_SET else 4
    res = {"ppl": ppl_at(model, test, [m * 2**k for k in range(top + 1)], et)}
    if name in RPE_SET and name != "sinusoidal":
        e = erf_for_run(run, 4 * m, n_chunks=4, tokens=test)
        res["erf"] = {
            k: e[k]
            for k in (
                "eps",
                "n_emp",
                "n_the_window",
                "length",
                "mean_distance_emp",
                "mean_distance_the",
                "rpe_params",
            )
        }
    if name == "t5":
        res.update(measure_t5(model, test, m, et))
    if name in SCALE_RULES:
        res.update(measure_scaling(name, model, test, m, et))
    return res


def job(task: tuple[str, int, dict, str]) -> tuple:
    """Train (or reuse) and measure one (model, seed); runs in a worker process."""
    import torch
    from empirical.training.train import build_parser, train

    name, seed, prof, out = task
    torch.set_num_threads(1)
    run = Path(out) / name / f"seed{seed}"
    done = run / "measure.json"
    if done.exists():
        return name, seed, json.loads(done.read_text())
    t0 = time.perf_counter()
    metrics = train(build_parser().parse_args(train_argv(name, seed, prof, run)))
    t1 = time.perf_counter()
    res = {"metrics": metrics, "train_s": round(t1 - t0, 2), **measure(name, run, prof)}
    res["measure_s"] = round(time.perf_counter() - t1, 2)
    done.write_text(json.dumps(res))
    return name, seed, res


def run_profile(
    profile: str,
    out: Path,
    workers: int,
    models: Iterable[str] | None = None,
    quiet: bool = False,
) -> dict:
    prof = PROFILES[profile]
    out.mkdir(parents=True, exist_ok=True)
    names = list(models or MODELS)
    order = sorted(names, key=lambda n: n not in RPE_SET)  # longest evaluations first
    tasks = [(n, s, prof, str(out)) for n in order for s in prof["seeds"]]
    t0, results = time.perf_counter(), {}
    ctx = mp.get_context("spawn")
    with ctx.Pool(workers) as pool:
        for k, (name, seed, res) in enumerate(pool.imap_unordered(job, tasks)):
            results.setdefault(name, {})[str(seed)] = res
            if not quiet:
                print(
                    f"[{k + 1}/{len(tasks)}] {name} seed {seed}: train {res['train_s']} s, "
                    f"measure {res['measure_s']} s",
                    file=sys.stderr,
                )
    bundle = {
        "profile": profile,
        "settings": prof,
        "models": {n: MODELS[n] for n in names},
        "wall_s": round(time.perf_counter() - t0, 1),
        "workers": workers,
        "cpu_count": os.cpu_count(),
        "results": {n: results[n] for n in names},
    }
    (out / "bundle.json").write_text(json.dumps(bundle, indent=1))
    return bundle
