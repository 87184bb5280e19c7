"""The audit command run on a saved tiny checkpoint of a model type.

A researcher's checkpoint is a folder written by ``save_pretrained`` from the class with
the language-model head (:func:`checkpoint_class`: the sequence-to-sequence class, else
the masked-LM class, else the causal-LM class, as transformers' auto mappings name them),
beside a tokenizer.  :func:`run_audit` writes such a folder for the tiny model of a type
(:func:`empirical.capture.checkpoints.tiny_config`, a byte-level BPE tokenizer trained
here) and runs ``python -m empirical.audit`` on it in this process, through its own
``main`` (loading, the up-front checks, the measurements at ``L_tr`` and ``L_ex``,
Algorithm 1 and the temperature rules, the written report).  The audit has run when it
exits 0 and its ``report.md`` exists.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch
import transformers
from transformers.models.auto import modeling_auto

from empirical.audit.cli import main as audit_main
from empirical.capture.checkpoints import FAMILIES, tiny_config, train_tokenizer

#: the audit's lengths on the tiny checkpoints (L_tr, L_ex), one window each
L_TR, L_EX = 16, 32
# encoders with a masked-LM class (BERT, RoBERTa) are saved from it, as their hub
# checkpoints are, even where transformers also has a causal-LM class for the type
HEADS = (
    (
        modeling_auto.MODEL_FOR_SEQ_TO_SEQ_CAUSAL_LM_MAPPING_NAMES,
        transformers.AutoModelForSeq2SeqLM,
    ),
    (modeling_auto.MODEL_FOR_MASKED_LM_MAPPING_NAMES, transformers.AutoModelForMaskedLM),
    (modeling_auto.MODEL_FOR_CAUSAL_LM_MAPPING_NAMES, transformers.AutoModelForCausalLM),
)


@dataclass
class AuditRun:
    """Exit status of ``python -m empirical.audit`` and its ``error:`` line ("" on 0)."""

    code: int
    error: str = ""

    @property
    def reported(self) -> bool:
        return self.code == 0 and not self.error


def checkpoint_class(model_type: str) -> type:
    """The auto class a checkpoint of ``model_type`` is saved from (module docstring).

    >>> checkpoint_class("llama").__name__, checkpoint_class("t5").__name__
    ('AutoModelForCausalLM', 'AutoModelForSeq2SeqLM')
    """
    for names, auto in HEADS:
        if model_type in names:
            return auto
    return transformers.AutoModel


def save_checkpoint(model_type: str, folder: Path, seed: int = 0, **overrides: Any) -> Path:
    """The tiny seeded ``model_type`` checkpoint with its head and a trained tokenizer,
    saved into ``folder`` (config fields ``overrides`` over
    :func:`~empirical.capture.checkpoints.tiny_config`)."""
    cfg = tiny_config(model_type, **overrides)
    torch.manual_seed(seed)
    model = checkpoint_class(model_type).from_config(cfg)
    model.save_pretrained(folder)
    train_tokenizer(FAMILIES["gpt2"]).save_pretrained(folder)
    return folder


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return (lines[0] if lines else type(exc).__name__)[:300]


def run_audit(
    model_type: str, seed: int = 0, dtype: torch.dtype = torch.float32, **overrides: Any
) -> AuditRun:
    """``python -m empirical.audit --model CHECKPOINT --text stdlib --L-tr 16 --L-ex 32
    --n-tr 1 --dtype DTYPE --json`` on the saved tiny checkpoint of ``model_type``: its
    exit status and error line, or an error naming what is missing from a run that
    exited 0 (config fields ``overrides`` over the tiny config)."""
    with tempfile.TemporaryDirectory(prefix="lengthx-sweep-") as tmp:
        try:
            ckpt = save_checkpoint(model_type, Path(tmp) / "checkpoint", seed, **overrides)
        except Exception as exc:  # noqa: BLE001 - transformers' own refusal, kept
            return AuditRun(-1, f"cannot save its checkpoint: {_first_line(exc)}")
        out = Path(tmp) / "audit"
        argv = [
            "--model", str(ckpt), "--text", "stdlib", "--L-tr", str(L_TR),
            "--L-ex", str(L_EX), "--n-tr", "1", "--out", str(out), "--quiet", "--json",
            "--dtype", str(dtype).removeprefix("torch."),
        ]  # fmt: skip
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = audit_main(argv)
        errors = [x for x in stderr.getvalue().splitlines() if x.startswith("error:")]
        if code:
            line = errors[-1] if errors else f"exit {code} without an error line"
            return AuditRun(code, re.sub(r"^error:\s*", "", line)[:300])
        try:
            files = json.loads(stdout.getvalue())["files"]
        except (ValueError, KeyError, TypeError):
            return AuditRun(code, "exit 0 without its JSON report on stdout")
        if not Path(files["markdown"]).is_file():
            return AuditRun(code, f"exit 0 without {files['markdown']}")
        return AuditRun(0)
