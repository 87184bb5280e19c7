"""The seeded bundle of tiny models that the agreement tests, figures and paper checks read.

``python -m empirical.bundle --profile NAME`` trains every model of :data:`MODELS`
with each seed of the profile (worker processes, one torch thread each), measures it
and writes ``OUT/bundle.json``.  The profiles (:data:`PROFILES`) are the rungs of a
ladder: ``ci`` (trained by the test run), the CPU rungs ``bytes128`` and ``kjv192``
(stored in ``empirical/agreement/rungs``) and ``paper``, for one GPU.  It stores measurements only -- no theory number --
per model and seed:

* every model: non-overlapping perplexity at ``m * 2^k`` (``empirical.training.extrapolate``);
* the RPE paper's set: at ``m * f`` for f in the profile's ``rpe_factors`` (to 64m at
  ci, to 32m with 18m, the paper's 512 -> 9216, above it); at 4m the attention by distance (queries >= m), the
  RPE-only attention on the same axes, the learned bias per head and distance, and each
  head's series spec (``empirical.training.rpe_theory.rpe_series_specs``: the learned
  parameters the theory's series is built from when a test runs);
* ``t5`` (T5's learned bucketed bias; distances >= m/2 share the last bucket, as
  distances >= 128 do in T5 trained at 512): window statistics per head at m, 2m, 4m,
  8m (``empirical.training.window_stats``); per head P_max and entropy of the window's
  logits divided by each tau of :data:`TAU_GRID` at 2m..8m; perplexity per tau at 4m, 8m;
* ``nope`` (no positional encoding): window entropy and P_max at m and at 16m for each
  tau of the grid (logits beyond m divided by tau in the model);
* ``nope_cosscale`` (CosScale, InfoScale paper Eqs. 6-7): the same at tau = 1, the
  histograms of the causal (query, key) cosines per layer, trained and at the run's
  initial weights, and at the initial weights, on uniformly random bytes, the window
  entropy of ``softmax(a cos)`` at m, 4m and 16m for each logit scale a of
  :data:`SCALE_GRID`;
* ``nope`` also, at its initial weights on uniformly random bytes, the mean P_max of the
  first layer's window rows at m/4, m/2 and m per head, each row's logits brought to the
  population std s of each :data:`PMAX_SCALES` (``init_pmax``).

Algorithm 1, Props. 1-2, the Gaussian values, InfoScale's factor, eta*, the TRF and which
series converge are computed from these by ``empirical.agreement`` when a test runs.
Finished models are reused; a ``measure.json`` of an older :data:`FORMAT` is measured
again from its checkpoint.
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

import numpy as np

from empirical.agreement.bundle_io import FORMAT  # measure.json's layout
from empirical.training.rpe import PAPER_SET
from theory.core.cli import dumps as json_dumps

if TYPE_CHECKING:
    import torch

    from empirical.training.tiny_lm import TinyLM

_RPE_FACTORS_CI = (1, 2, 4, 8, 16, 32, 64)
_FACTORS = (1, 2, 4, 8, 16)
#: the ladder of CPU rungs, smallest first: the same models and seeds grown along the
#: papers' axes (context m in tokens, extrapolation ratio, training tokens, the text).
#: ``rpe_factors``/``factors``: the lengths m * f at which perplexity is stored (the RPE
#: set / the other models); 18 is the RPE paper's 512 -> 9216.
PROFILES = {
    "ci": dict(
        corpus="stdlib",
        tokenizer="bytes",
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
        rpe_factors=_RPE_FACTORS_CI,
        factors=_FACTORS,
    ),
    # 4x ci's context on the same text and tokens, 5x its training tokens
    "bytes128": dict(
        corpus="stdlib",
        tokenizer="bytes",
        seq_len=128,
        steps=1000,
        batch=32,
        n_layer=2,
        d_model=64,
        n_head=4,
        lr=2e-3,
        warmup=60,
        seeds=(0, 1, 2),
        eval_tokens=16384,
        cos_alpha=16.0,
        cos_alpha_low=4.0,
        rpe_factors=(1, 2, 4, 8, 16, 18, 32),
        factors=_FACTORS,
    ),
    # English prose with a BPE trained here: 192 tokens, about 600 characters (19x ci's
    # span of text), 1.84M training tokens (about 5.8M characters, 1.6 passes over the KJV
    # training split; bytes128 sees 4.1M characters)
    "kjv192": dict(
        corpus="kjv",
        tokenizer="bpe2048",
        seq_len=192,
        steps=600,
        batch=16,
        n_layer=2,
        d_model=64,
        n_head=4,
        lr=2e-3,
        warmup=60,
        seeds=(0, 1, 2),
        eval_tokens=16384,
        cos_alpha=16.0,
        cos_alpha_low=4.0,
        rpe_factors=(1, 2, 4, 8, 16, 18, 32),
        factors=_FACTORS,
    ),
    # the paper rung, for one GPU (training there, measurement on its CPU cores): the RPE
    # paper's m = 512 evaluated to 18m = 9216, T5's bias and the NoPE/CosScale models from
    # 512 to 16m = 8192.  Cut from the papers' setting: 4 layers of width 128 (GPT-2 small
    # has 12 of 768), 2,000 steps of 16 x 512 tokens (16M tokens), the KJV (not Wikitext or
    # Books), a BPE of 8,192 tokens trained here.
    "paper": dict(
        corpus="kjv",
        tokenizer="bpe8192",
        seq_len=512,
        steps=2000,
        batch=16,
        n_layer=4,
        d_model=128,
        n_head=4,
        lr=1e-3,
        warmup=100,
        seeds=(0, 1, 2),
        eval_tokens=18432,
        cos_alpha=16.0,
        cos_alpha_low=4.0,
        rpe_factors=(1, 2, 4, 8, 16, 18),
        factors=_FACTORS,
        device="cuda",
        measure_threads=2,
    ),
}
RPE_SET = PAPER_SET  # the RPE paper's set, in the order the bundle trains it
#: model name -> extra empirical.training.train arguments
MODELS = {
    **{r: ["--rpe", r] for r in RPE_SET},
    "t5": ["--rpe", "t5", "--t5-buckets", "16", "--t5-max-distance", "{half_m}"],
    "nope": ["--rpe", "none"],
    "nope_cosscale": ["--rpe", "none", "--attn-scale", "cosscale", "--cos-alpha", "{cos_alpha}"],
}
#: inference rules measured per model family (empirical.training.tiny_lm.INFERENCE_RULES)
SCALE_RULES = {"nope": ("none",), "nope_cosscale": ("none",)}
WINDOW_ROWS = 1024
GRID_MODELS = ("nope",)  # measured on the whole temperature grid


def train_argv(name: str, seed: int, prof: dict, out: Path) -> list[str]:
    extra = [
        a.format(
            half_m=prof["seq_len"] // 2,
            cos_alpha=prof["cos_alpha"],
        )
        for a in MODELS[name]
    ]
    keys = ("corpus", "tokenizer", "seq_len", "steps", "batch", "n_layer", "d_model", "n_head")
    keys += ("lr", "warmup")
    base = [x for k in keys for x in (f"--{k.replace('_', '-')}", str(prof[k]))]
    return (
        base
        + extra
        + [
            "--seed",
            str(seed),
            "--threads",
            "1",
            "--device",
            prof.get("device", "cpu"),
            "--quiet",
            "--ckpt-every",
            str(max(1, prof["steps"] // 5)),  # resume points
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


#: temperatures (logits divided by tau beyond m) at which statistics and perplexities are
#: stored; Algorithm 1, Props. 1-2, InfoScale and the log rule are looked up on it at test time
TAU_GRID = tuple(round(0.30 + 0.05 * k, 2) for k in range(19))  # 0.30 .. 1.20
#: bins of the cosine histograms of CosScale models (InfoScale paper Eq. 16), on [-1, 1]
COS_BINS = 800
#: logit scales a of the window entropy H(L, a) of softmax(a cos) at initial weights
#: (CosScale models): InfoScale's invariant factor is read off it at test time
SCALE_GRID = tuple(round(0.25 * k, 2) for k in range(1, 65))  # 0.25 .. 16
#: logit stds s of the P_max experiment at initial weights (dot-product NoPE model)
PMAX_SCALES = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0)
#: window rows per head and length of that experiment
PMAX_ROWS = 2**15


def grid_stats(rows: np.ndarray) -> dict:
    """Per head (layer-major) mean P_max and entropy of ``softmax(rows / tau)`` for each
    tau of :data:`TAU_GRID`: ``{"pmax": [[head] tau], "entropy": [[head] tau]}``."""
    from theory.temperature.rules import softmax_pmax_entropy

    flat = rows.reshape(-1, rows.shape[-2], rows.shape[-1])  # (heads, rows, L)
    out = {"pmax": [], "entropy": []}
    for tau in TAU_GRID:
        p, h = softmax_pmax_entropy(flat, tau)
        out["pmax"].append(p.mean(-1).tolist())
        out["entropy"].append(h.mean(-1).tolist())
    return out


def batched_ppl(model: TinyLM, test: torch.Tensor, L: int, eval_tokens: int) -> float:
    """Non-overlapping perplexity at length L in one batch (the same predictions as
    :func:`empirical.training.extrapolate.chunk_nll`: each chunk's tokens 1..L-1)."""
    import torch
    import torch.nn.functional as F

    n = max(1, eval_tokens // L)
    chunks = test[: n * L].view(n, L)
    with torch.no_grad():
        logits = model(chunks[:, :-1])
    nll = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), chunks[:, 1:].reshape(-1))
    return math.exp(float(nll))


def ppl_grid(model: TinyLM, test: torch.Tensor, L: int, eval_tokens: int) -> list:
    """Perplexity at length L with the logits beyond m divided by each tau of the grid."""
    out = []
    for tau in TAU_GRID:
        model.set_inference("tau", tau)
        out.append(batched_ppl(model, test, L, eval_tokens))
    model.set_inference("none")
    return out


def measure_t5(model: TinyLM, test: torch.Tensor, m: int, eval_tokens: int) -> dict:
    """Window statistics per head at m..8m; per head P_max and entropy of the window's
    logits divided by each tau of the grid at 2m..8m; perplexity per tau at 2m..8m."""
    from empirical.training.window_stats import per_head_stats, window_logits

    logits = {
        L: window_logits(model, test, L, chunks_for(L, eval_tokens))
        for L in (m, 2 * m, 4 * m, 8 * m)
    }
    return {
        "heads": {str(L): per_head_stats(v) for L, v in logits.items()},
        "tau_grid": list(TAU_GRID),
        "grid": {str(L): grid_stats(logits[L]) for L in (2 * m, 4 * m, 8 * m)},
        "grid_ppl": {str(L): ppl_grid(model, test, L, eval_tokens) for L in (4 * m, 8 * m)},
    }


def cos_histogram(model: TinyLM, test: torch.Tensor, L: int, n_chunks: int, layer: int) -> list:
    """Histogram (:data:`COS_BINS` bins on [-1, 1]) of the cosines of all causal
    (query, key) pairs of one layer of a CosScale model."""
    from empirical.training.window_stats import weighted_cosines

    eta, _ = weighted_cosines(model, test, L, n_chunks, layer)
    return np.histogram(eta, bins=COS_BINS, range=(-1.0, 1.0))[0].tolist()


def measure_scaling(name: str, model: TinyLM, test: torch.Tensor, m: int, eval_tokens: int) -> dict:
    """Window statistics at m and 16m for each tau of the grid (models in
    :data:`GRID_MODELS`; the others at tau = 1 only); for a
    CosScale model the cosine histograms of the trained model and of the same
    configuration at initialisation (seeded), layer by layer."""
    from empirical.training.window_stats import row_stats, window_logits

    out = {"tau_grid": list(TAU_GRID), "window": {}}
    for L in (m, 16 * m):
        taus = TAU_GRID if L > m and name in GRID_MODELS else (1.0,)  # none beyond m at m
        rows = []
        for tau in taus:
            model.set_inference("tau", tau)
            rows.append(row_stats(window_logits(model, test, L, chunks_for(L, eval_tokens))))
        out["window"][str(L)] = {k: [r[k] for r in rows] for k in ("entropy", "pmax", "keys")}
    model.set_inference("none")
    if model.cfg.cos_alpha:
        from empirical.training.tiny_lm import TinyLM as _LM

        fresh = _LM(model.cfg).eval()  # same seed: the initial weights of this run
        n = max(1, eval_tokens // (4 * m) // 2)
        out["cos_hist"] = {
            "alpha": model.cfg.cos_alpha,
            "d_head": model.cfg.d_model // model.cfg.n_head,
            "length": 4 * m,
            "trained": [
                cos_histogram(model, test, 4 * m, n, la) for la in range(model.cfg.n_layer)
            ],
            "init": [cos_histogram(fresh, test, 4 * m, n, la) for la in range(model.cfg.n_layer)],
        }
        out["init_entropy"] = init_entropy(fresh, m, eval_tokens)
    elif model.cfg.rpe == "none" and model.cfg.attn_scale == "none":
        from empirical.training.tiny_lm import TinyLM as _LM

        out["init_pmax"] = init_pmax(_LM(model.cfg).eval(), m)
    return out


def init_pmax(fresh: TinyLM, m: int) -> dict:
    """Mean P_max of the first layer's window rows per head at m/4, m/2 and m for each
    logit std of :data:`PMAX_SCALES` (``window_stats.window_pmax_by_scale``), with the
    rows' key counts: the initial weights of a dot-product NoPE model on uniformly random
    bytes (seeded by the run's seed), where a query's logits over its keys are draws from
    its near-Gaussian logits against the byte alphabet (attention-alignment paper,
    Assumption 1; the keys repeat the 256 bytes, whose logits coincide)."""
    import torch

    from empirical.training.window_stats import window_pmax_by_scale, window_start

    gen = torch.Generator().manual_seed(fresh.cfg.seed)
    out = {"scales": list(PMAX_SCALES), "tokens": "uniform random bytes", "layer": 0}
    out["length"] = {}
    for L in (m // 4, m // 2, m):
        n = math.ceil(PMAX_ROWS / (L - window_start(L)))
        tokens = torch.randint(0, fresh.cfg.vocab_size, (n * L,), generator=gen)
        rec = window_pmax_by_scale(fresh, tokens, L, n, PMAX_SCALES)
        out["length"][str(L)] = {"keys": list(range(window_start(L) + 1, L + 1)), **rec}
    return out


def init_entropy(fresh: TinyLM, m: int, eval_tokens: int) -> dict:
    """Window entropy of ``softmax(a cos)`` per layer for each a of :data:`SCALE_GRID` at
    m, 4m and 16m, with the mean key count: the initial weights on uniformly random bytes
    (seeded by the run's seed), so that q and k are near uniform on the sphere
    (InfoScale paper Assumption 3.2; text repeats a few bytes, whose keys coincide)."""
    import torch

    from empirical.training.window_stats import window_entropy_by_scale, window_start

    gen = torch.Generator().manual_seed(fresh.cfg.seed)
    tokens = torch.randint(
        0, fresh.cfg.vocab_size, (16 * m * chunks_for(16 * m, eval_tokens),), generator=gen
    )
    out = {"scale_grid": list(SCALE_GRID), "tokens": "uniform random bytes", "length": {}}
    for L in (m, 4 * m, 16 * m):
        n = chunks_for(L, eval_tokens)
        out["length"][str(L)] = {
            "keys": float(np.mean(np.arange(window_start(L), L) + 1)),
            "entropy": [
                window_entropy_by_scale(fresh, tokens, L, n, SCALE_GRID, la)
                for la in range(fresh.cfg.n_layer)
            ],
        }
    return out


def measure_erf(run: Path, model: TinyLM, test: torch.Tensor, m: int) -> dict:
    """Attention by distance at 4m (queries >= m), the RPE-only attention on the same
    axes, the learned bias per head and distance, and each head's series spec."""
    import torch

    from empirical.training.erf import attention_by_distance, rpe_only_attention
    from empirical.training.rpe_theory import rpe_series_specs

    L = 4 * m
    return {
        "length": L,
        "first_query": m,
        "attention": attention_by_distance(model, test, L, m, n_chunks=4).tolist(),
        "rpe_only_attention": rpe_only_attention(model, L, m).tolist(),
        "bias": model.rpe.log_b(torch.arange(L)).detach().double().tolist(),
        "series": rpe_series_specs(model.rpe),
        "rpe_params": model.rpe.describe(),
    }


def measure(name: str, run: Path, prof: dict) -> dict:
    from empirical.training.data import run_test_tokens
    from empirical.training.train import load_model

    model, cfg = load_model(run)
    test, m, et = run_test_tokens(cfg), prof["seq_len"], prof["eval_tokens"]
    factors = prof["rpe_factors"] if name in RPE_SET else prof["factors"]
    res = {"format": FORMAT, "ppl": ppl_at(model, test, [m * f for f in factors], et)}
    if name in RPE_SET and name != "sinusoidal":
        res["erf"] = measure_erf(run, model, test, m)
    if name == "t5":
        res.update(measure_t5(model, test, m, et))
    if name in SCALE_RULES:
        res.update(measure_scaling(name, model, test, m, et))
    return res


def job(task: tuple[str, int, dict, str]) -> tuple:
    """Train (or reuse) and measure one (model, seed); runs in a worker process."""
    import torch

    from empirical.train.cli import build_parser
    from empirical.training.train import train

    name, seed, prof, out = task
    torch.set_num_threads(prof.get("measure_threads", 1))
    run = Path(out) / name / f"seed{seed}"
    done = run / "measure.json"
    if done.exists():
        old = json.loads(done.read_text())
        if old.get("format") == FORMAT:
            return name, seed, old
    t0 = time.perf_counter()
    metrics = train(build_parser().parse_args(train_argv(name, seed, prof, run)))
    t1 = time.perf_counter()
    res = {"metrics": metrics, "train_s": round(t1 - t0, 2), **measure(name, run, prof)}
    res["measure_s"] = round(time.perf_counter() - t1, 2)
    done.write_text(json_dumps(res))
    return name, seed, res


def data_record(prof: dict) -> dict:
    """The corpus, its SHA-256, the tokenizer (its hash and characters per token on the
    test split) and the split sizes a profile trains on."""
    from empirical.training.data import load_split

    return load_split(prof["corpus"], 6_000_000, 0.05, prof["tokenizer"])[1]


def machine_record() -> dict:
    """CPU model, Python, torch and tokenizers versions (bit-equal re-runs need the same)."""
    import platform

    import torch

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        import tokenizers

        tok = tokenizers.__version__
    except ImportError:
        tok = None
    return {
        "cpu": cpu,
        "python": platform.python_version(),
        "torch": torch.__version__,
        "tokenizers": tok,
        "numpy": np.__version__,
    }


def run_profile(
    profile: str,
    out: Path,
    workers: int,
    models: Iterable[str] | None = None,
    quiet: bool = False,
    seeds: Iterable[int] | None = None,
) -> dict:
    from empirical.training.train import check_device

    prof = PROFILES[profile]
    check_device(prof.get("device", "cpu"))  # before any worker starts
    if seeds is not None:
        prof = {**prof, "seeds": tuple(seeds)}
    out.mkdir(parents=True, exist_ok=True)
    names = list(models or MODELS)
    order = sorted(names, key=lambda n: n not in RPE_SET)  # longest evaluations first
    tasks = [(n, s, prof, str(out)) for n in order for s in prof["seeds"]]
    t0, results = time.perf_counter(), {}
    load = round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else None
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
        "format": FORMAT,
        "profile": profile,
        "settings": prof,
        "data": data_record(prof),
        "machine": machine_record(),
        "command": f"python -m empirical.bundle --profile {profile} --workers {workers}",
        # the runs' own wall seconds summed (each a single-threaded process): on an idle
        # machine with W workers the rung takes about runs_s / W
        "runs_s": round(
            sum(r["train_s"] + r["measure_s"] for rr in results.values() for r in rr.values()), 1
        ),
        "models": {n: MODELS[n] for n in names},
        "wall_s": round(time.perf_counter() - t0, 1),
        "workers": workers,
        "cpu_count": os.cpu_count(),
        "load_average": load,  # 1-minute load average when training started
        "results": {n: results[n] for n in names},
    }
    (out / "bundle.json").write_text(json_dumps(bundle, indent=1))
    return bundle
