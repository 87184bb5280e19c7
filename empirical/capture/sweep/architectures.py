"""Capture against eager attention on every text architecture of the installed transformers.

For each text model type (:func:`text_model_types`: a type with a causal-LM, masked-LM or
sequence-to-sequence head in transformers' auto mappings, that is not a wrapper holding
a text config beside vision or audio ones) a tiny, seeded, randomly initialised model is
built from its config class by :func:`empirical.capture.checkpoints.tiny_config` (size
fields, and a short table for the types that need more).  It
is run on one random sequence twice: eagerly with ``output_attentions``, and under
:func:`empirical.capture.session.capture`.  The verdict (:func:`compare`) is one of

* ``exact``: every captured module's per-head P_max and entropy equal those of the eager
  probabilities to their declared tolerances (:data:`TOL`: P_max 1e-6, entropy 2e-6, as
  in docs/guide/capture.md) and the mean attended distance to :data:`TOL_DISTANCE`
  tokens, the outputs to 1e-4;
* ``refused``: the capture raised its one-line error naming the module class;
* ``not buildable``: the tiny model could not be built or run eagerly (the reason kept);
* ``different`` or ``crashed``: a failure of the capture, or of the accessors the audit
  reads the model with (:func:`empirical.capture.positions.model_facts`: attention
  modules, causality, position table, per-layer head size and window), never expected.

``python -m empirical.capture.sweep`` prints the counts and the table; ``--write-docs``
writes them between the markers of docs/guide/capture.md.

>>> "llama" in text_model_types(), "clip" in text_model_types()
(True, False)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
import transformers
from transformers.models.auto import configuration_auto, modeling_auto

from empirical.capture.checkpoints import tiny_config
from empirical.capture.discovery import attention_module_names, not_softmax_modules, table_rows
from empirical.capture.models import encoder_part
from empirical.capture.positions import model_facts
from empirical.capture.session import capture
from empirical.capture.state import CaptureUnsupported
from empirical.capture.stats import AttentionStats
from empirical.capture.sweep.audit_run import AuditRun, run_audit
from theory.core.budget import step_budget

LENGTH = 40
#: the declared tolerances of the statistics (docs/guide/capture.md, "Measured"; the
#: tiled path's table in tests/empirical/test_capture.py): P_max 1e-6, entropy 2e-6,
#: mean distance 1e-6 x L tokens
TOL = {"pmax": 1e-6, "entropy": 2e-6}
TOL_DISTANCE = 1e-6 * LENGTH
TOL_OUTPUT = 1e-4
#: the declared tolerances per statistic and floating-point type of the model: the capture
#: of the model in that type against its eager ``output_attentions`` in the same type
#: (``distance`` in tokens, ``output``: the largest difference of the first output).
#: In bfloat16 eager attention rounds its probabilities (and its logits, and the hidden
#: states every later layer reads) to 8 bits of mantissa, the capture keeps them in
#: float32, so the two differ by bfloat16 rounding carried through the layers, more
#: where logits are large (Gemma 4: unscaled logits of normalised q and k).  Measured on
#: CPU (torch 2.13, tiny seeded models, 40 tokens, seeds 0-2, the largest over them;
#: P_max, entropy, distance in tokens, output): LLaMA 6.4e-5, 2.4e-4, 1.4e-3, 2.3e-2;
#: Gemma 2 7.8e-5, 3.9e-4, 1.7e-3, 4.7e-2; BERT 1.5e-5, 2.8e-4, 1.6e-3, 1.6e-2; Qwen 3
#: 4.0e-4, 7.7e-4, 5.2e-3, 3.9e-2; T5 (relative bias, unscaled logits) 1.2e-3, 2.0e-3,
#: 1.6e-2, 3.1e-2; Gemma 4 text 7.5e-3, 1.1e-2, 7.6e-2, 1.4e-1.  Eager bfloat16 against
#: eager float32 differs by as much (T5 1.4e-3, 2.3e-3, 1.9e-2; Gemma 4 8.4e-3, 1.4e-2,
#: 8.7e-2), the bfloat16 capture against eager float32 by as much or less (LLaMA 9.1e-6,
#: 5.6e-7, 1.2e-4).  Declared: about twice the largest (Gemma 4's); an error smaller
#: than these (a distance shifted by a tenth of a token) is not seen in bfloat16, one
#: position off is.
TOLERANCES = {
    torch.float32: {"pmax": TOL["pmax"], "entropy": TOL["entropy"], "distance": TOL_DISTANCE,
                    "output": TOL_OUTPUT},
    torch.bfloat16: {"pmax": 1.5e-2, "entropy": 2.5e-2, "distance": 4e-3 * LENGTH,
                     "output": 0.3},
}  # fmt: skip
DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16}
CPU_BUDGET = 60.0  # seconds of CPU time per model type (build, eager, capture)
AUDIT_BUDGET = 120.0  # seconds of CPU time for the audit of its checkpoint
# types whose output_attentions are the scores before the softmax (SqueezeBERT returns
# its attention_score, ProphetNet's encoder its weights before the softmax): their
# reference is the softmax of those scores
SCORE_MAPS = ("squeezebert", "prophetnet")
MULTIMODAL = ("text_config", "vision", "audio", "speech", "vq_", "semantic", "acoustic")


def text_model_types() -> list[str]:
    """Model types with a text language-model head and a base model class taking
    ``input_ids`` in the installed transformers, less the multimodal wrappers."""
    heads = (
        set(modeling_auto.MODEL_FOR_CAUSAL_LM_MAPPING_NAMES)
        | set(modeling_auto.MODEL_FOR_MASKED_LM_MAPPING_NAMES)
        | set(modeling_auto.MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES)
    )
    out = []
    for t in sorted(heads & set(modeling_auto.MODEL_MAPPING_NAMES)):
        subs = getattr(configuration_auto.CONFIG_MAPPING[t], "sub_configs", {}) or {}
        cls_name = modeling_auto.MODEL_MAPPING_NAMES[t]
        cls_name = cls_name[0] if isinstance(cls_name, tuple) else cls_name
        base = getattr(transformers, cls_name, None)
        text_input = getattr(base, "main_input_name", "input_ids") == "input_ids"
        if text_input and not any(m in s for s in subs for m in MULTIMODAL):
            out.append(t)
    return out


@dataclass
class Verdict:
    model_type: str
    verdict: str  # exact / refused / not buildable / different / crashed
    detail: str = ""
    error: float = 0.0  # largest P_max or entropy error over its tolerance (exact, different)


def build(
    model_type: str, seed: int = 0, dtype: torch.dtype = torch.float32, **overrides: Any
) -> torch.nn.Module:
    """The tiny seeded base model of ``model_type`` in eval mode, eager attention, its
    weights in ``dtype`` (config fields ``overrides`` over
    :func:`~empirical.capture.checkpoints.tiny_config`)."""
    cfg = tiny_config(model_type, **overrides)
    torch.manual_seed(seed)
    model = transformers.AutoModel.from_config(cfg, attn_implementation="eager")
    return model.to(dtype).eval()


def _inputs(model, seed: int = 0) -> dict:
    g = torch.Generator().manual_seed(seed)
    vocab = table_rows(model.get_input_embeddings())
    ids = torch.randint(4, min(vocab, 500), (1, LENGTH), generator=g)
    kw = {"input_ids": ids}
    if getattr(model.config, "is_encoder_decoder", False):
        kw["decoder_input_ids"] = ids[:, : LENGTH // 2]
    if getattr(model.config, "use_cache", False):
        kw["use_cache"] = False
    return kw


def _main(out) -> torch.Tensor:
    """The first output (a ``ModelOutput`` indexes its first field that is set: the
    hidden states of a base model, the logits of SeamlessM4T's ``Seq2SeqLMOutput``)."""
    return out[0]


class NoReference(Exception):
    """The eager model gives no attention probabilities to compare with."""


def _maps(atts, what: str) -> list:
    maps = [a for a in (atts or ()) if a is not None]
    for a in maps:
        if not isinstance(a, torch.Tensor) or a.ndim < 4:
            raise NoReference(f"{what} are not (B, H, L, K) tensors")
        s = a.double().sum(-1)
        # a row of probabilities rounded to the maps' type sums to 1 within half its
        # epsilon (each weight errs by eps/2 of itself: 2^-9 in bfloat16)
        slack = max(1e-4, torch.finfo(a.dtype).eps) if a.is_floating_point() else 1e-4
        if bool((a < 0).any()) or bool((s > 1 + slack).any()):
            raise NoReference(f"{what} are not probabilities (rows sum to {float(s.max()):.3g})")
    return maps


def _assign(names: list, maps: list, what: str, order: list | None = None) -> dict:
    """Maps in the order the modules ran (``order``, else module order, cyclically); a
    module run k times (shared or recurrent layers) gets its k maps concatenated along
    the batch."""
    if order is not None and len(order) == len(maps):
        names = order
    elif not names or len(maps) % len(names):
        raise NoReference(f"{len(maps)} {what} for {len(names)} attention modules")
    out: dict = {}
    for i, a in enumerate(maps):
        out.setdefault(names[i % len(names)], []).append(a)
    return {n: torch.cat(v, 0) for n, v in out.items()}


def eager_probabilities(
    model: torch.nn.Module, out: Any, names: list, order: list | None = None
) -> dict:
    """The eager probabilities per attention module name, from ``output_attentions``
    (encoder, decoder self- and cross-attention in module order; a hybrid's maps of
    layers that are not softmax attention dropped); :class:`NoReference` when they are
    missing or not probabilities (ProphetNet returns logits).  With ``order`` (the
    modules in the order they ran), modules that did not run on text (a speech encoder,
    a vision tower) have no map and are left out."""
    if order is not None:
        names = [n for n in names if n in set(order)]
    enc = getattr(out, "encoder_attentions", None)
    if enc is not None:
        prefix = next(k for k, m in model.named_modules() if m is model.get_encoder())
        enc_names = [n for n in names if n.startswith(prefix + ".")]
        dec_names = [n for n in names if n not in enc_names]
        got = _assign(enc_names, _maps(enc, "encoder attentions"), "encoder maps")
        cross = _maps(getattr(out, "cross_attentions", None), "cross attentions")
        dec = _maps(out.decoder_attentions, "decoder attentions")
        per_layer = 2 if cross else 1
        if len(dec) * per_layer != len(dec_names) or (cross and len(cross) != len(dec)):
            raise NoReference(f"{len(dec)} + {len(cross)} decoder maps for {dec_names}")
        for i, n in enumerate(dec_names):
            got[n] = (dec if i % per_layer == 0 else cross)[i // per_layer]
        return got
    if not hasattr(out, "attentions"):
        raise NoReference("the model returns no attentions")
    atts = [a for a in (out.attentions or ()) if a is not None]
    skip = not_softmax_modules(model)
    if skip and len(atts) == len(names) + len(skip):  # hybrids: one map per layer
        every = [n for n, _ in model.named_modules() if n in skip or n in names]
        kept = {n: a for n, a in zip(every, atts) if n not in skip}
        return dict(zip(kept, _maps(list(kept.values()), "attentions")))
    return _assign(names, _maps(atts, "attentions"), "eager attention maps", order)


def sink_reference(model: torch.nn.Module, kw: dict, names: list) -> dict:
    """Probabilities per module name from a float64 attention function written here,
    for models whose modules have an attention sink (their ``output_attentions`` may be
    renormalised over the keys: Granite-SWA): ``softmax([s QK^T + bias + mask | sink])``
    without the sink's column, the weights applied to the values (docs/conventions.md)."""
    from transformers import AttentionInterface
    from transformers.masking_utils import AttentionMaskInterface, eager_mask

    mods = {id(m): n for n, m in model.named_modules() if n in names}
    got: dict = {}

    def fn(module, query, key, value, attention_mask, dropout=0.0, scaling=None, **kw):
        rep = query.shape[1] // key.shape[1]
        k = key.double().repeat_interleave(rep, 1)
        v = value.double().repeat_interleave(rep, 1)
        s = query.double() @ k.transpose(-1, -2) * scaling
        if kw.get("position_bias") is not None:
            s = s + kw["position_bias"].double()
        if kw.get("softcap") is not None:
            s = kw["softcap"] * torch.tanh(s / kw["softcap"])
        if attention_mask is not None:
            s = s + attention_mask.double()[..., : k.shape[2]]
        sink = kw.get("s_aux", kw.get("sinks"))
        if sink is not None:
            sink = sink.double().reshape(1, -1, 1, 1) if sink.ndim == 1 else sink.double()
            sink = torch.broadcast_to(sink, (*s.shape[:3], 1))
            p = torch.softmax(torch.cat([s, sink], -1), -1)[..., :-1]
        else:
            p = torch.softmax(s, -1)
        got[mods[id(module)]] = p
        return (p @ v).to(query.dtype).transpose(1, 2).contiguous(), p

    AttentionInterface.register("lengthx_reference", fn)
    AttentionMaskInterface.register("lengthx_reference", eager_mask)
    prev = model.config._attn_implementation
    try:
        model.set_attn_implementation("lengthx_reference")
        with torch.no_grad():
            model(**kw)
    finally:
        model.set_attn_implementation(prev)
        AttentionInterface._global_mapping.pop("lengthx_reference", None)
        AttentionMaskInterface._global_mapping.pop("lengthx_reference", None)
    return got


def reference_statistics(
    p: torch.Tensor,
    seq_len: int | None = None,
    query_from: int = 0,
    global_block: int | None = None,
) -> dict:
    """Per-head P_max, entropy and mean ``|i - j|`` over the query rows ``>= query_from``
    of eager probabilities (B, H, L, K), or of LongT5's blocks (B, nb, H, bl, 3 bl [+ G])
    of a ``seq_len``-token input: the local keys of a block are the tokens from one
    block before it to one block after it; a transient-global key ``g`` stands for the
    tokens ``t`` with ``min(t // global_block, seq_len // global_block - 1) == g`` and
    its distance is the mean over them (docs/guide/capture.md)."""
    p = p.double()
    if p.ndim == 5:
        bsz, nb, h, bl, kk = p.shape
        rows = p.permute(0, 2, 1, 3, 4).reshape(bsz, h, nb * bl, kk)[:, :, :seq_len]
        i = torch.arange(seq_len)[:, None]
        dist = ((i // bl * bl - bl) + torch.arange(3 * bl)[None, :] - i).abs().double()
        if kk > 3 * bl:
            block = torch.clamp(
                torch.arange(seq_len) // global_block, max=max(seq_len // global_block, 1) - 1
            )
            glob = [
                (i - torch.nonzero(block == g)[:, 0][None, :]).abs().double().mean(1)
                for g in range(kk - 3 * bl)
            ]
            dist = torch.cat([dist, torch.stack(glob, 1)], 1)
        rows, dist = rows[:, :, query_from:], dist[query_from:]
        return {
            "pmax": rows.amax(-1).mean((0, 2)),
            "entropy": torch.special.entr(rows).sum(-1).mean((0, 2)),
            "mean_distance": (rows * dist.nan_to_num(0.0)).sum(-1).mean((0, 2)),
        }
    i = torch.arange(query_from, p.shape[2])[:, None]
    j = torch.arange(p.shape[3])[None, :]
    p = p[:, :, query_from:]
    return {
        "pmax": p.amax(-1).mean((0, 2)),
        "entropy": torch.special.entr(p).sum(-1).mean((0, 2)),
        "mean_distance": (p * (i - j).abs()).sum(-1).mean((0, 2)),
    }


def unbanded(p: torch.Tensor, w: int) -> torch.Tensor:
    """Longformer's eager maps (B, H, L, 2w + 1), key ``k`` of row ``i`` at position
    ``i - w + k``, as (B, H, L, L) with key ``j`` at position ``j`` (offsets outside
    the sequence dropped: the model gives them no weight)."""
    bsz, heads, n, kk = p.shape
    i = torch.arange(n)[:, None]
    j = i - w + torch.arange(kk)[None, :]
    inside = (j >= 0) & (j < n)
    out = torch.zeros(bsz, heads, n, n, dtype=p.dtype)
    rows = i.expand(n, kk)[inside]
    out[:, :, rows, j[inside]] = p[:, :, inside]
    return out


def compare_model(model: torch.nn.Module, kw: dict, seq_len: int = LENGTH) -> dict:
    """The largest errors of the capture against eager attention on one input, by
    statistic (``pmax``, ``entropy``, ``distance`` in tokens, ``output``); raises the
    capture's refusal first, then :class:`NoReference` when eager attention gives nothing
    to compare with."""
    names = attention_module_names(model)
    with torch.no_grad():
        stats = AttentionStats()
        with capture(model, stats=stats):
            got = model(**kw)
        mods = dict(model.named_modules())
        order: list = []
        hooks = [
            mods[n].register_forward_pre_hook(lambda m, a, n=n: order.append(n)) for n in names
        ]
        try:
            out = model(**kw, output_attentions=True)
        finally:
            for h in hooks:
                h.remove()
    err = dict.fromkeys(("pmax", "entropy", "distance"), 0.0)
    err["output"] = float((_main(got).float() - _main(out).float()).abs().max())
    if any(isinstance(getattr(mods[n], "sinks", None), torch.Tensor) for n in names):
        ref = sink_reference(model, kw, names)
    elif getattr(model.config, "model_type", None) in SCORE_MAPS:
        ref = _assign(names, [a.softmax(-1) for a in out.attentions], "score maps", order)
    else:
        ref = eager_probabilities(model, out, names, order)
    for name, p in ref.items():
        band = getattr(mods[name], "one_sided_attn_window_size", None)
        if isinstance(band, int) and p.ndim == 4 and p.shape[-1] == 2 * band + 1:
            p = unbanded(p, band)
        glob = getattr(model.config, "global_block_size", None)  # LongT5's transient-global
        r = reference_statistics(p, seq_len, global_block=glob)
        ls = stats.layers[name]
        rows = torch.as_tensor(ls.rows).clamp(min=1)
        for key, sums in (("pmax", ls.pmax_sum), ("entropy", ls.ent_sum)):
            e = float((torch.as_tensor(sums) / rows - r[key]).abs().max())
            err[key] = max(err[key], e)
        d = torch.as_tensor(ls.mean_distance())
        err["distance"] = max(err["distance"], float((d - r["mean_distance"]).abs().max()))
    return err


class _OverBudget(BaseException):  # not caught by the handlers of one model
    pass


def compare(
    model_type: str,
    seed: int = 0,
    budget: float = CPU_BUDGET,
    dtype: torch.dtype = torch.float32,
    **overrides: Any,
) -> Verdict:
    """The verdict of the capture on a tiny ``model_type`` model in ``dtype`` (float32 or
    bfloat16, against eager attention in the same type, to :data:`TOLERANCES`), then of
    the audit on its saved checkpoint run in that type (module docstring); building and
    running it eagerly may use ``budget`` seconds of CPU time, the audit
    :data:`AUDIT_BUDGET`.  ``overrides``: config fields of a variant (a window, one key
    head, ``is_decoder``)."""
    if dtype not in TOLERANCES:
        raise ValueError(f"no declared tolerances for {dtype}; one of {list(DTYPES)}")
    try:
        with step_budget(budget, error=_OverBudget):
            v = _compare(model_type, seed, dtype, **overrides)
    except _OverBudget as exc:
        return Verdict(model_type, "not buildable", f"tiny model too slow: {exc}")
    if v.verdict not in ("exact", "refused"):
        return v
    try:
        with step_budget(AUDIT_BUDGET, error=_OverBudget):
            run = run_audit(model_type, seed, dtype, **overrides)
    except _OverBudget as exc:
        return Verdict(model_type, "crashed", f"the audit of its checkpoint: {exc}")
    return audited(v, run)


def audited(v: Verdict, run: AuditRun) -> Verdict:
    """The verdict once ``python -m empirical.audit`` has run on the checkpoint
    (:class:`~empirical.capture.sweep.audit_run.AuditRun`): an exact type stays exact
    only if the audit wrote its report; a refused type stays refused only if the audit
    refuses it too (exit 2, one error line); anything else is a crash of the audit."""
    if v.verdict == "exact" and run.reported:
        return v
    if v.verdict == "refused" and run.code == 2:
        return v
    if run.reported:
        why = f"the audit reports on what the capture refuses ({v.detail})"
    else:
        why = f"the audit of its checkpoint exits {run.code}: {run.error}"
    return Verdict(v.model_type, "crashed", why)


def _compare(model_type: str, seed: int, dtype: torch.dtype, **overrides: Any) -> Verdict:
    try:
        model = build(model_type, seed, dtype, **overrides)
    except Exception as exc:  # noqa: BLE001 - any failure to build
        return Verdict(model_type, "not buildable", _one_line(exc))
    try:  # the capture's checks on entry, on the model as built: a model may change
        with capture(model):  # itself in its first forward pass (BigBird's switch from
            pass  # block-sparse to full attention on short inputs)
    except CaptureUnsupported as exc:
        return Verdict(model_type, "refused", _one_line(exc))
    try:
        kw = _inputs(model, seed)
        with torch.no_grad():
            model(**kw, output_attentions=True)
    except Exception as exc:  # noqa: BLE001 - any failure to build or run eagerly
        return Verdict(model_type, "not buildable", _one_line(exc))
    try:
        model_facts(model)  # what the audit reads of the model, by its own accessors
    except Exception as exc:  # noqa: BLE001 - a failure of the audit's own code
        return Verdict(
            model_type, "crashed", f"the audit's accessors: {type(exc).__name__}: {_one_line(exc)}"
        )
    part = ""
    try:
        try:
            err = compare_model(model, kw)
        except CaptureUnsupported as exc:
            # an encoder-decoder model whose decoder is refused: the audit measures the
            # encoder only, so the encoder is what a user's audit gets
            enc = encoder_part(model)
            if enc is None or enc is model or not hasattr(enc, "config"):
                raise
            err = compare_model(enc, {"input_ids": kw["input_ids"]})
            part = f" (the encoder, which the audit measures; the decoder: {_one_line(exc)})"
    except CaptureUnsupported as exc:
        return Verdict(model_type, "refused", _one_line(exc))
    except NoReference as exc:
        return Verdict(model_type, "no eager reference", _one_line(exc))
    except Exception as exc:  # noqa: BLE001 - a failure of the capture itself
        return Verdict(model_type, "crashed", f"{type(exc).__name__}: {_one_line(exc)}")
    tol = TOLERANCES[dtype]
    ok = all(err[k] <= t for k, t in tol.items())
    detail = (
        f"P_max {err['pmax']:.1e}, entropy {err['entropy']:.1e}, distance "
        f"{err['distance']:.1e} tokens, output {err['output']:.1e}{part}"
    )
    worst = max(err[k] / t for k, t in tol.items())
    return Verdict(model_type, "exact" if ok else "different", detail, worst)


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return re.sub(r"\s+", " ", text[0] if text else type(exc).__name__)[:300]


def table(verdicts: list[Verdict], dtype: str = "float32") -> str:
    """Counts and the refused / not buildable types as Markdown (the type named when it
    is not float32)."""
    kinds = KINDS
    counts = {k: sum(v.verdict == k for v in verdicts) for k in kinds}
    where = "" if dtype == "float32" else f" in {dtype}"
    lines = [
        f"{len(verdicts)} text model types in transformers {transformers.__version__}{where}: "
        + ", ".join(f"{counts[k]} {k}" for k in kinds)
        + ".",
        "",
    ]
    for kind in kinds[1:]:
        rows = [v for v in verdicts if v.verdict == kind]
        if rows:
            lines += [f"{kind.capitalize()}:", ""]
            lines += [f"- `{v.model_type}`: {v.detail}" for v in rows]
            lines.append("")
    exact = [v.model_type for v in verdicts if v.verdict == "exact"]
    lines += ["Exact: " + ", ".join(f"`{t}`" for t in exact) + "."]
    return "\n".join(lines) + "\n"


BEGIN, END = "<!-- sweep: begin (generated) -->", "<!-- sweep: end -->"
KINDS = ("exact", "refused", "not buildable", "no eager reference", "different", "crashed")


def parse_table(text: str) -> list[Verdict]:
    """The verdicts written by :func:`table` (exact types without their numbers, which
    the table does not print).

    >>> [(v.model_type, v.verdict) for v in parse_table(table([Verdict("a", "exact"),
    ...     Verdict("b", "refused", "B: no")]))]
    [('b', 'refused'), ('a', 'exact')]
    """
    out, kind = [], None
    for line in text.splitlines():
        head = line.rstrip(":").lower()
        if line.endswith(":") and head in KINDS:
            kind = head
        elif line.startswith("Exact: "):
            out += [Verdict(t, "exact") for t in re.findall(r"`([^`]+)`", line)]
        elif kind and (m := re.match(r"- `([^`]+)`: (.*)$", line)):
            out.append(Verdict(m[1], kind, m[2]))
    return out


def merged(old: list[Verdict], new: list[Verdict], order: list[str]) -> list[Verdict]:
    """The verdicts of ``new`` over those of ``old`` (a table read back by
    :func:`parse_table`), in ``order`` (the sweep's order of types); types in neither
    are left out."""
    by = {v.model_type: v for v in old} | {v.model_type: v for v in new}
    return [by[t] for t in order if t in by]


def write_docs(text: str, path: Path) -> None:
    """Replace the text between :data:`BEGIN` and :data:`END` in ``path``."""
    doc = path.read_text()
    a, b = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    path.write_text(doc[:a] + "\n" + text + doc[b:])
