"""Test helpers of the capture: a full-matrix reference of its statistics, and tiny
seeded checkpoints of any text model type (used only by the tests)."""

from pathlib import Path
from typing import Any

import torch
import transformers

from empirical.capture.checkpoints import Family, tiny_config, train_tokenizer


def full_matrix_stats(logits: torch.Tensor) -> dict:
    """Reference: the same statistics from the whole (B, H, L, K) logit tensor at once
    (materialised; used only to test the block-wise path).  Returns per-head arrays."""
    p = torch.softmax(logits.double(), -1)
    b, h, l, k = p.shape
    i = torch.arange(l)[:, None]
    j = torch.arange(k)[None, :]
    d = (j - i).double()
    srt = torch.sort(logits.double(), -1, descending=True).values
    fin = torch.isfinite(srt)
    ssum = torch.where(fin, srt, 0.0).sum((0, 2))
    cnt = fin.sum((0, 2)).double()
    mass = torch.zeros(h, 2 * max(l, k) - 1, dtype=torch.float64)
    off = (j - i + max(l, k) - 1).expand(l, k).reshape(-1)
    for hh in range(h):
        mass[hh].index_add_(0, off, p[:, hh].sum(0).reshape(-1))
    return {
        "rows": b * l,
        "pmax": p.amax(-1).mean((0, 2)).numpy(),
        "entropy": torch.special.entr(p).sum(-1).mean((0, 2)).numpy(),
        "mean_distance": (p * d.abs()).sum(-1).mean((0, 2)).numpy(),
        "mass": mass.numpy(),
        "averaged_logit_vector": (ssum.sum(0) / cnt.sum(0)).numpy(),
    }


def lm_class(model_type: str) -> type:
    """The class a checkpoint of ``model_type`` is usually saved from: its causal LM,
    else its sequence-to-sequence LM, else its masked LM, else its base model."""
    from transformers.models.auto import modeling_auto as ma

    for mapping in (
        ma.MODEL_FOR_CAUSAL_LM_MAPPING_NAMES,
        ma.MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES,
        ma.MODEL_FOR_MASKED_LM_MAPPING_NAMES,
        ma.MODEL_MAPPING_NAMES,
    ):
        if model_type in mapping:
            return getattr(transformers, mapping[model_type])
    raise ValueError(f"no model class for {model_type!r}")


TYPE_TOKENIZER = Family(
    "",
    "",
    {},
    specials=dict(bos_token="<s>", eos_token="</s>", unk_token="<unk>", pad_token="<pad>"),
)


def save_tiny_type_checkpoint(
    model_type: str, folder: str | Path, seed: int = 0, cls: str | None = None, **overrides: Any
) -> Path:
    """A tiny seeded checkpoint of any text ``model_type`` (:func:`tiny_config`, saved
    from :func:`lm_class`, or the transformers class named ``cls``) with a trained
    byte-level BPE tokenizer, in ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tok = train_tokenizer(TYPE_TOKENIZER)
    ids = {
        f"{k}_token_id": tok.convert_tokens_to_ids(t)
        for k, t in (("bos", "<s>"), ("eos", "</s>"), ("pad", "<pad>"))
    }
    cfg = tiny_config(model_type, vocab_size=len(tok), **{**ids, **overrides})
    if getattr(cfg, "is_encoder_decoder", False):
        cfg.decoder_start_token_id = ids["pad_token_id"]
    torch.manual_seed(seed)
    model = (getattr(transformers, cls) if cls else lm_class(model_type))(cfg).eval()
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder


def saved_once(root: Path, model_type: str, cls: str | None = None, **overrides: Any) -> Path:
    """The tiny checkpoint of ``model_type`` (its usual class or ``cls``) in a folder of
    ``root`` named by its arguments, saved on the first call and reused after."""
    folder = root / "_".join([model_type, str(cls), *map(str, overrides.values())])
    if not (folder / "config.json").exists():
        save_tiny_type_checkpoint(model_type, folder, seed=1, cls=cls, **overrides)
    return folder
