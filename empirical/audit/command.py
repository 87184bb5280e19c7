"""Audit a model's attention from its training length to long contexts, in one command.

``python -m empirical.audit --model PATH --text FILE|DIR|JSONL --L-tr 2048 --L-ex 8192 16384
32768 --out DIR`` writes ``DIR/report.md``, ``DIR/audit.json`` and PNG figures with their
data (CSV) beside:

* **dispersion**: entropy, :math:`P_{max}` and the attention-weighted mean distance
  :math:`\\frac1N\\sum_i\\sum_j p_{ij}|j-i|` of every layer and head at ``L_tr`` and each
  ``L_ex`` (temperature 1);
* **Assumptions 1-2** (attention-alignment paper, Sec. 6.1): Gaussianity numbers and QQ
  plots of the averaged sorted logit vector (:mod:`empirical.audit.assumptions`), sigma and
  :math:`l_{max}` at every length;
* **temperatures**: Algorithm 1 on the paper's grid and continuously, for :math:`P_{max}`
  and entropy alignment (:mod:`theory.temperature.rules`, the one implementation), and
  every rule (Props. 1-2 from the measured first-layer sigmas, the log rule, InfoScale,
  YaRN, LongRoPE), each with the alignment error it leaves (the statistic measured at
  its temperature against the target :math:`\\overline{S^{tr}}(1)`);
* **perplexity** at each ``L_ex`` with each temperature, for a causal LM.

Statistics at ``L_ex`` count only query positions ``>= --query-from`` (default ``L_tr``
for a causal model: the rows beyond the training length; an encoder's rows all see
every key, so there it is 0); the rows before it are still computed, only not counted.
Windows of one length are batched without padding.  Under ``torchrun`` each rank takes
its share of the windows on its device (``cuda:LOCAL_RANK`` with ``--device cuda``) and
the sums are all-reduced; rank 0 writes the report.  Every
forward pass's result is cached under ``DIR/cache/`` (keyed by model, text and
settings), so an interrupted audit resumes where it stopped.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from empirical.capture.stats import AttentionStats
from theory.core.progress import Progress
from theory.temperature.rules import PAPER_GRID

if TYPE_CHECKING:
    from empirical.capture.models import LoadedModel

MODES = ("pmax", "entropy")


# ---------------------------------------------------------------------- measurements
@dataclass
class Measurement:
    """Attention statistics (rows >= query_from) and next-token NLL sums of one length
    at one temperature: ``nll[k] = [sum, count]`` for k in ("beyond", "all")."""

    stats: AttentionStats
    nll: dict = field(default_factory=dict)

    def perplexity(self, part: str = "beyond") -> float | None:
        s = self.nll.get(part)
        return float(np.exp(s[0] / s[1])) if s and s[1] else None


def save_measurement(path: Path, m: Measurement) -> None:
    """``m`` as one ``.npz`` (arrays) with its scalars in a JSON entry; atomic."""
    state = m.stats.state()
    arrays, meta = (
        {},
        {**{k: v for k, v in state.items() if k != "layers"}, "nll": m.nll, "layers": {}},
    )
    for i, name in enumerate(m.stats.order):
        meta["layers"][name] = {}
        for k, v in vars(m.stats.layers[name]).items():
            if isinstance(v, np.ndarray):
                arrays[f"{i}.{k}"] = v
            else:
                meta["layers"][name][k] = v
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, meta=np.array(json.dumps(meta)), **arrays)
    tmp.replace(path)


def load_measurement(path: Path) -> Measurement:
    with np.load(path) as z:
        meta = json.loads(str(z["meta"]))
        for i, name in enumerate(meta["order"]):
            meta["layers"][name].update(
                {k.split(".", 1)[1]: z[k] for k in z.files if k.startswith(f"{i}.")}
            )
    return Measurement(AttentionStats.from_state(meta), meta.pop("nll"))


class Runner:
    """Forward passes of one model over fixed windows, cached in memory and on disk."""

    def __init__(
        self,
        lm,
        windows: dict,
        query_from: dict,
        sorted_layers,
        cache_dir: Path,
        batch_size: int = 1,
        progress=None,
        ranks=None,
    ):
        from empirical.capture.devices import Ranks

        self.lm, self.windows, self.query_from = lm, windows, query_from
        self.sorted_layers, self.cache_dir = sorted_layers, cache_dir
        self.batch_size, self.progress = batch_size, progress
        self.ranks = ranks or Ranks()
        self.memory: dict = {}
        self.passes = 0
        cache_dir.mkdir(parents=True, exist_ok=True)

    def _everywhere(self, flag: bool) -> bool:
        """``flag`` on every rank (a cache file must be seen by all ranks to be used)."""
        if not self.ranks.distributed:
            return flag
        import torch
        import torch.distributed as dist

        from empirical.capture.devices import collective_device

        t = torch.tensor([int(flag)], device=collective_device())
        dist.all_reduce(t, op=dist.ReduceOp.MIN)
        return bool(t.item())

    def __call__(self, length: int, tau: float) -> Measurement:
        key = (length, round(float(tau), 12))
        if key not in self.memory:
            path = self.cache_dir / f"L{length}_tau{key[1]:.12f}.npz"
            cached = self._everywhere(path.exists())
            if cached:
                self.memory[key] = load_measurement(path)
            else:
                self.memory[key] = self._run(length, key[1])
                if self.ranks.rank == 0:
                    save_measurement(path, self.memory[key])
            if self.progress:
                self.progress(length, key[1], cached)
        return self.memory[key]

    def _run(self, length: int, tau: float) -> Measurement:
        from contextlib import nullcontext

        from empirical.capture.measure import collect_stats, nll_head

        seqs, q0 = self.windows[length], self.query_from[length]
        head = nll_head(self.lm.model, q0) if self.lm.causal_lm else nullcontext()
        with head as acc:
            st = collect_stats(
                self.lm.model,
                seqs,
                tau,
                self.sorted_layers,
                batch_size=self.batch_size,
                query_from=q0,
            )
        self.passes += -(-len(seqs) // self.batch_size)
        nll = {"beyond": acc.beyond, "all": acc.all} if acc is not None else {}
        if self.ranks.distributed:
            st, nll = self._reduce(st, nll)
        return Measurement(st, nll)

    def _reduce(self, st: AttentionStats, nll: dict) -> tuple:
        """Sum statistics and NLL sums over the ranks (each ran its share of windows)."""
        import torch
        import torch.distributed as dist

        from empirical.capture.collect import all_reduce_stats
        from empirical.capture.devices import collective_device

        all_reduce_stats(st)
        if nll:
            t = torch.tensor(
                [*nll["beyond"], *nll["all"]], dtype=torch.float64, device=collective_device()
            )
            dist.all_reduce(t, op=dist.ReduceOp.SUM)
            v = t.cpu().tolist()
            nll = {"beyond": [v[0], int(v[1])], "all": [v[2], int(v[3])]}
        return st, nll


def completed_measurements(cache: Path) -> int:
    """The measurements saved whole under ``cache`` (``.npz`` files; a ``.tmp.npz`` is
    one whose writing was cut short)."""
    if not cache.is_dir():
        return 0
    return sum(1 for f in cache.rglob("*.npz") if not f.name.endswith(".tmp.npz"))


def prune_cache(cache: Path) -> int:
    """After a failed run: remove what cannot be resumed from under ``cache`` (files
    whose writing was cut short, then empty folders, ``cache`` itself included) and
    return the number of measurements kept (:func:`completed_measurements`)."""
    if not cache.is_dir():
        return 0
    for f in cache.rglob("*.tmp.npz"):
        f.unlink(missing_ok=True)
    for d in sorted((d for d in cache.rglob("*") if d.is_dir()), key=lambda d: -len(d.parts)):
        if not any(d.iterdir()):
            d.rmdir()
    if not any(cache.iterdir()):
        cache.rmdir()
    return completed_measurements(cache)


# ---------------------------------------------------------------------- analysis
def dispersion(m: Measurement) -> dict:
    """Per layer: P_max, entropy, mean distance (mean over heads and per head)."""
    out = {}
    for name, s in m.stats.summary().items():
        out[name] = {k: s[k] for k in ("rows", "pmax", "entropy", "mean_distance")}
        out[name]["per_head"] = {k: s["per_head"][k] for k in ("pmax", "entropy", "mean_distance")}
        if "sink_mass" in s:  # docs/conventions.md, attention sinks
            out[name]["sink_mass"] = s["sink_mass"]
            out[name]["per_head"]["sink_mass"] = s["per_head"]["sink_mass"]
    return out


def assumption_numbers(m: Measurement) -> dict:
    """Gaussianity (Assumption 1) and sigma, lmax (Assumption 2) of the averaged sorted
    logit vector of every layer with sorted statistics."""
    from empirical.audit.assumptions import gaussianity

    out = {}
    for name in m.stats.order:
        v = m.stats.layers[name].averaged_logit_vector()
        if v is not None and v.size >= 3:
            out[name] = {**gaussianity(v), "vector": v}
    return out


def evaluate(m: Measurement, targets: dict) -> dict:
    """The statistics of ``m`` against the targets, and its perplexities."""
    out = {"perplexity_beyond": m.perplexity("beyond"), "perplexity_all": m.perplexity("all")}
    for mode in MODES:
        s = m.stats.overall(mode)
        out[mode] = s
        out[f"{mode}_rel_error"] = (s - targets[mode]) / targets[mode]
    return out


def temperatures(
    run: Runner,
    l_tr: int,
    l_ex: int,
    targets: dict,
    first: str,
    d: int | None,
    search_kw: dict,
) -> dict:
    """Algorithm 1 (grid, continuous; both modes) and every rule at ``l_ex``, each with
    the alignment errors and perplexities measured at its temperature."""
    from empirical.audit.align import rule_predictions, search

    taus, found = {"none (tau = 1)": 1.0}, {}
    for mode in MODES:
        fn = lambda t, mode=mode: run(l_ex, t).stats.overall(mode)  # noqa: E731
        found[mode] = search(fn, targets[mode], **search_kw)
        taus[f"algorithm1_grid_{mode}"] = found[mode]["grid"]["tau"]
        if found[mode]["continuous"]["bracketed"]:
            taus[f"algorithm1_continuous_{mode}"] = found[mode]["continuous"]["tau"]
    tr, ex = (run(L, 1.0).stats.layers[first].summary() for L in (l_tr, l_ex))
    rules = rule_predictions(l_tr, l_ex, tr, ex, d)
    taus.update({k: v["tau"] for k, v in rules.items() if v["tau"] is not None})
    table = {k: {"tau": t, **evaluate(run(l_ex, t), targets)} for k, t in taus.items()}
    return {
        "algorithm1": {
            m: {"grid": {k: v for k, v in f["grid"].items()}, "continuous": f["continuous"]}
            for m, f in found.items()
        },
        "rules": rules,
        "table": table,
    }


# ---------------------------------------------------------------------- inputs
def fingerprint(args: argparse.Namespace, lm: LoadedModel) -> str:
    """A hash of everything that changes the numbers (model files, text, settings)."""
    parts = {
        k: getattr(args, k)
        for k in (
            "model",
            "tokenizer",
            "text",
            "text_field",
            "n_tr",
            "n_ex",
            "dtype",
            "device",
            "device_map",
            "seed",
            "sorted_layers",
        )
    }
    parts["query_from"] = args.query_from
    # a causal model's rows at L_ex are counted from L_tr (--query-from's default): a
    # measurement at L_ex belongs to its L_tr
    parts["l_tr"] = args.l_tr
    model = Path(args.model)
    if model.is_dir():
        parts["files"] = sorted(
            (f.name, f.stat().st_size, int(f.stat().st_mtime))
            for f in model.iterdir()
            if f.is_file()
        )
    text = Path(args.text)
    if text.exists():
        files = [text] if text.is_file() else sorted(f for f in text.rglob("*") if f.is_file())
        parts["text_files"] = [
            (str(f), f.stat().st_size, int(f.stat().st_mtime)) for f in files[:10000]
        ]
    parts["model_class"] = type(lm.model).__name__
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:16]


def check_supported(lm: LoadedModel) -> list:
    """The attention modules that run on text (the encoder's of an encoder-decoder model,
    the language model's of a multimodal checkpoint); an error naming the model class
    when capture records no rows for some of them on a short input (a silent
    pass-through)."""
    return audited_modules(lm)[0]


def audited_modules(lm: LoadedModel) -> tuple[list, dict]:
    """``(names, not_run)``: the attention modules of the part run on text
    (:func:`empirical.capture.positions.text_part`, less vision or audio towers inside
    it), and the modules that did not run on a short text input (name -> why): the
    towers of a multimodal checkpoint, and modules of the text part never called (the
    cross-attention of a decoder saved without its encoder); an error naming the model
    class when a module of the text part is called but records no rows, or none is
    called; a forward pass failing on that probe is a ForwardError saying it was the
    probe and its length (not the user's ``--L-tr`` / ``--L-ex``).  The decoder of an encoder-decoder model is not
    run, by design, and not listed."""
    import torch

    from empirical.capture.discovery import no_attention_reason
    from empirical.capture.measure import ForwardError, collect_stats
    from empirical.capture.models import encoder_part
    from empirical.capture.positions import (
        in_tower,
        part_prefix,
        text_attention_names,
        text_part,
    )

    every = text_attention_names(lm.model)
    prefix = part_prefix(lm.model, text_part(lm.model))
    names = [n for n in every if n.startswith(prefix) and not in_tower(n)]
    if not names:
        raise ValueError(no_attention_reason(lm.model))
    ids = [torch.tensor([[*lm.prefix, *lm.encode("def f(x):\n    return x + 1\n")[:6]]])]
    mods = dict(lm.model.named_modules())
    called: set = set()
    hooks = [mods[n].register_forward_pre_hook(lambda m, a, n=n: called.add(n)) for n in every]
    try:
        st = collect_stats(lm.model, ids)
    except ForwardError as exc:  # say it was the probe, not an --L-tr / --L-ex window
        raise ForwardError(
            f"in the audit's probe of which attention modules run (a short text of "
            f"{ids[0].shape[-1]} tokens, before any --L-tr / --L-ex window), {exc}"
        ) from exc
    finally:
        for h in hooks:
            h.remove()
    # a module never called on text (the cross-attention of a decoder saved without its
    # encoder: BartForCausalLM, BERT as a decoder) is listed as not run, not refused
    uncalled = [n for n in names if n not in called and n not in st.layers]
    if len(uncalled) < len(names):
        names = [n for n in names if n not in uncalled]
    else:
        uncalled = []
    missing = [n for n in names if n not in st.layers]
    if missing:
        raise ValueError(
            f"{type(lm.model).__name__} is not supported: capture recorded no "
            f"attention rows for {len(missing)} of {len(names)} attention "
            f"modules ({missing[0]}, ...)"
        )
    enc = encoder_part(lm.model) is not None
    others = [
        n
        for n in every
        if n not in names
        and n not in uncalled
        and (in_tower(n) or not (enc or n.startswith(prefix)))
    ]
    text = prefix.rstrip(".") or type(lm.model).__name__
    not_run = {
        n: f"{type(mods[n]).__name__}: outside the text model {text}, does not run on text"
        for n in others
        if n not in st.layers
    }
    for n in uncalled:
        not_run[n] = (
            f"{type(mods[n]).__name__}: not called on a text input (a cross-attention "
            "without encoder states, or a module the forward pass does not use)"
        )
    return [*names, *(n for n in others if n in st.layers)], not_run


def query_starts(causal: bool, l_tr: int, l_exs: list, query_from: int | None) -> dict:
    """The first counted query position per length (0 at L_tr)."""
    if query_from is None:
        query_from = l_tr if causal else 0
    bad = [L for L in l_exs if query_from >= L]
    if query_from < 0 or bad:
        raise ValueError(f"--query-from {query_from} must be in [0, L_ex) for every L_ex")
    return {l_tr: 0, **{L: query_from for L in l_exs}}


# ---------------------------------------------------------------------- the audit
class MeasurementProgress:
    """The audit's measurements counted on a :class:`theory.core.progress.Progress`
    display (a bar on a terminal, a line every few seconds in a log)."""

    def __init__(self, enabled: bool = True, interval: float | None = None) -> None:
        self.enabled = enabled
        self.bar = Progress("audit: measurements", enabled=enabled, interval=interval)

    def __call__(self, length: int, tau: float, cached: bool) -> None:
        self.bar.update(L=length, tau=f"{tau:.4f}", cached=cached)

    def note(self, text: str) -> None:
        if self.enabled:
            self.bar.close()
            print(f"audit: {text}", file=sys.stderr, flush=True)


def length_entry(m1: Measurement, length: int, query_from: int) -> dict:
    """What the report shows of one length at temperature 1."""
    return {
        "L": length,
        "query_from": query_from,
        "dispersion": dispersion(m1),
        "assumptions": assumption_numbers(m1),
        "overall": {k: m1.stats.overall(k) for k in MODES},
        "perplexity_beyond": m1.perplexity("beyond"),
        "perplexity_all": m1.perplexity("all"),
    }


def audit(
    lm: LoadedModel, args: argparse.Namespace, out: Path, progress: MeasurementProgress
) -> dict:
    """Every measurement of the audit (see the module docstring) as one JSON-able dict
    (Gaussianity vectors kept as arrays for the figures)."""
    from empirical.capture.measure import sequences
    from empirical.capture.positions import check_length, model_facts

    t0 = time.perf_counter()
    check_length(lm.model, max(args.l_ex), "--L-ex")
    names, not_run = audited_modules(lm)
    facts = model_facts(lm.model)
    causal = facts["causal"]
    q0 = query_starts(causal, args.l_tr, args.l_ex, args.query_from)
    sorted_layers = (
        "all"
        if args.sorted_layers == ["all"]
        else [names[0] if x == "first" else x for x in args.sorted_layers]
    )
    unknown = [x for x in ([] if sorted_layers == "all" else sorted_layers) if x not in names]
    if unknown:
        raise ValueError(f"unknown layer(s) {unknown}; the model has {names}")
    windows = {
        L: sequences(
            lm, args.text, L, args.n_tr if L == args.l_tr else args.n_ex, text_field=args.text_field
        )
        for L in [args.l_tr, *args.l_ex]
    }
    ranks = getattr(args, "ranks", None)
    if ranks is not None and ranks.distributed:
        from empirical.capture.collect import rank_share

        if min(args.n_tr, args.n_ex) < ranks.world:
            raise ValueError(
                f"--n-tr and --n-ex must be at least the number of processes "
                f"{ranks.world} (each rank takes its share of the windows)"
            )
        windows = {
            L: [w[i] for i in rank_share(len(w), ranks.rank, ranks.world)]
            for L, w in windows.items()
        }
    cache = out / "cache" / fingerprint(args, lm)
    run = Runner(lm, windows, q0, sorted_layers, cache, args.batch_size, progress, ranks)
    base = run(args.l_tr, 1.0)
    targets = {m: base.stats.overall(m) for m in MODES}
    res = {
        "model": lm.description,
        "model_class": type(lm.model).__name__,
        "causal": causal,
        "causal_lm_head": lm.causal_lm,
        "text": args.text,
        "L_tr": args.l_tr,
        "L_ex": args.l_ex,
        "n_tr": args.n_tr,
        "n_ex": args.n_ex,
        "query_from": q0,
        "special_tokens": {"prefix": list(lm.prefix), "suffix": list(lm.suffix)},
        "device": args.device,
        "dtype": args.dtype,
        "batch_size": args.batch_size,
        "processes": ranks.world if ranks is not None else 1,
        "attention_modules": names,
        "not_softmax_attention": facts["not_softmax_attention"],
        "not_run_on_text": not_run,
        "layer_geometry": {n: facts["layer_geometry"][n] for n in names},
        "sorted_layers": sorted_layers,
        "targets": targets,
        "lengths": {},
    }
    search_kw = {"grid": PAPER_GRID, "lo": args.lo, "hi": args.hi, "tol": args.tol}
    for L in [args.l_tr, *args.l_ex]:
        entry = length_entry(run(L, 1.0), L, q0[L])
        if L != args.l_tr:
            progress.note(f"L_ex = {L}: Algorithm 1 and the rules")
            entry["temperatures"] = temperatures(
                run, args.l_tr, L, targets, names[0], facts["head_dim"], search_kw
            )
        res["lengths"][str(L)] = entry
    res["forward_passes_this_run"] = run.passes
    res["measurements"] = len(run.memory)
    res["seconds"] = round(time.perf_counter() - t0, 2)
    return res
