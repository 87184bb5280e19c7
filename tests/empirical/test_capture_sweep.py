"""The capture against eager attention over text architectures of the installed
transformers (:mod:`empirical.capture.sweep`): each one exact, or refused with a one-line
error naming the model (and module) class, or not buildable here, or without an eager
reference (its output_attentions are not probabilities); never silently different.

The default suite runs a representative subset, one type of each route (interface with
and without bias, eager-only softmax, blocked local attention, attention sink, hybrid,
encoder without ``is_decoder``, a module calling attention twice); ``-m slow`` runs every
text type and checks the counts written in docs/guide/capture.md are today's.
"""

import re
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from empirical.capture.sweep import architectures as sweep  # noqa: E402

pytestmark = pytest.mark.empirical
transformers.logging.set_verbosity_error()

SUBSET = [
    "llama",
    "t5",
    "bloom",
    "gptj",
    "longt5",
    "gpt_oss",
    "minimax",
    "qwen3_next",
    "distilbert",
    "diffllama",
    "bart",
]


def _assert_verdict(v: sweep.Verdict) -> None:
    assert v.verdict in ("exact", "refused", "not buildable", "no eager reference"), (
        v.model_type,
        v.detail,
    )
    if v.verdict == "refused":  # one line naming the model class, and the module's if any
        assert "\n" not in v.detail and re.match(r"[A-Za-z0-9_]+Model: ", v.detail), v.detail
        assert "attention module '" not in v.detail or re.search(r"\(\w+\)", v.detail)


@pytest.mark.parametrize("model_type", SUBSET)
def test_subset_exact(model_type):
    v = sweep.compare(model_type)
    assert v.verdict == "exact", (v.model_type, v.verdict, v.detail)


@pytest.mark.parametrize("model_type", ["lfm2_moe", "cohere_compass_text", "squeezebert"])
def test_built_as_real_checkpoints_are_configured(model_type):
    """Types that need their layer types (LFM2-MoE), RoPE parameters per layer type
    (Cohere Compass) or embedding size equal to the hidden size (SqueezeBERT, whose hidden
    states are laid out batch, channels, length) set as their real checkpoints have them
    build and are exact."""
    v = sweep.compare(model_type)
    assert v.verdict == "exact", (v.model_type, v.verdict, v.detail)


def test_a_planted_error_is_caught(monkeypatch):
    """A capture that shifts every distance by a tenth of a token is 'different'."""
    from empirical.capture import softmax_rows

    orig = softmax_rows.record_rows

    def shifted(stats, name, lg, qpos, kpos, **kw):
        return orig(stats, name, lg, qpos + 0.1, kpos, **kw)

    monkeypatch.setattr(softmax_rows, "record_rows", shifted)
    assert sweep.compare("gptj").verdict == "different"


def test_the_audits_accessors_are_swept(monkeypatch):
    """Gemma 4 text with per-layer head sizes (16 on sliding layers, ``global_head_dim``
    on full ones, as its real config) is exact, and the audit's former head size, read
    from the config's global ``head_dim`` (transformers raises a RuntimeError there), is
    caught as crashed."""
    from empirical.capture import positions

    assert sweep.compare("gemma4_text").verdict == "exact"

    def global_read(model, name):
        c = model.config
        return getattr(c, "d_kv", None) or getattr(c, "head_dim", None)

    monkeypatch.setattr(positions, "head_size", global_read)
    v = sweep.compare("gemma4_text")
    assert v.verdict == "crashed" and "per-layer attribute" in v.detail, v


def test_text_types_exclude_multimodal_wrappers():
    types = sweep.text_model_types()
    assert {"llama", "t5", "umt5", "gpt_oss", "longt5", "modernbert"} <= set(types)
    assert not {"clip", "llava", "gemma3", "whisper"} & set(types)


@pytest.mark.slow
def test_every_text_type():
    verdicts = [sweep.compare(t) for t in sweep.text_model_types()]
    for v in verdicts:
        _assert_verdict(v)
    doc = Path(__file__).resolve().parents[2] / "docs" / "guide" / "capture.md"
    text = doc.read_text()
    table = text[text.index(sweep.BEGIN) + len(sweep.BEGIN) : text.index(sweep.END)]
    assert table.strip() == sweep.table(verdicts).strip(), (
        "docs/guide/capture.md is not today's sweep: run "
        "python -m empirical.capture.sweep --write-docs docs/guide/capture.md"
    )
