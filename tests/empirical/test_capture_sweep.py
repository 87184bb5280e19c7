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


@pytest.mark.parametrize(
    "model_type",
    ["lfm2_moe", "cohere_compass_text", "squeezebert", "dbrx", "xmod"],
)
def test_built_as_real_checkpoints_are_configured(model_type):
    """Types that need their layer types (LFM2-MoE), RoPE parameters per layer type
    (Cohere Compass), embedding size equal to the hidden size (SqueezeBERT, whose hidden
    states are laid out batch, channels, length), the RoPE base in the attention config
    (DBRX) or a default language (X-MOD) set as their real checkpoints have them build,
    are exact, and their checkpoints audited (Funnel, its class named, builds and is
    refused by name: tests/empirical/test_audit_refusals.py)."""
    v = sweep.compare(model_type)
    assert v.verdict == "exact", (v.model_type, v.verdict, v.detail)


@pytest.mark.parametrize("model_type", ["granitemoehybrid", "prophetnet"])
def test_the_part_the_audit_runs_is_compared(model_type):
    """Granite 4.0-H with an attention layer beside its Mamba layer, as its checkpoints,
    and ProphetNet, whose decoder's n-gram attention the capture refuses but whose
    encoder (what the audit measures; its output_attentions are the scores before the
    softmax) is exact: both exact, and the audit writes its report."""
    v = sweep.compare(model_type)
    assert v.verdict == "exact", (v.model_type, v.verdict, v.detail)


def test_the_audit_decides_the_verdict():
    """Exact stays exact only with the audit's report; refused stays refused only when
    the audit refuses too (exit 2); anything else is a crash of the audit."""
    from empirical.capture.sweep.audit_run import AuditRun

    exact, refused = sweep.Verdict("t", "exact", "ok"), sweep.Verdict("t", "refused", "no")
    assert sweep.audited(exact, AuditRun(0)).verdict == "exact"
    assert sweep.audited(refused, AuditRun(2, "TModel: no")).verdict == "refused"
    v = sweep.audited(exact, AuditRun(2, "'head_dim' is a per-layer attribute"))
    assert v.verdict == "crashed" and "exits 2: 'head_dim'" in v.detail
    assert sweep.audited(exact, AuditRun(1, "unexpected IndexError")).verdict == "crashed"
    assert sweep.audited(refused, AuditRun(0)).verdict == "crashed"


def test_the_audit_command_is_run(monkeypatch):
    """The audit itself runs on each checkpoint, past capture: its temperature rules
    failing as Gemma 4's did (transformers' RuntimeError on the global ``head_dim`` of a
    per-layer config) make ``python -m empirical.audit`` exit 2 with no report, and the
    type crashed where capture alone is exact."""
    from empirical.audit import align

    def per_layer(*args, **kw):
        raise RuntimeError("'head_dim' is a per-layer attribute and may vary across layers")

    monkeypatch.setattr(align, "rule_predictions", per_layer)
    v = sweep.compare("llama")
    assert v.verdict == "crashed" and "the audit of its checkpoint exits 2" in v.detail, v
    assert "per-layer attribute" in v.detail, v
    monkeypatch.undo()
    assert sweep.compare("llama").verdict == "exact"


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


# ---- bfloat16: the capture of a bfloat16 model against its eager attention in bfloat16
@pytest.mark.parametrize("model_type", ["llama", "bert", "xlnet"])
def test_bfloat16_exact_to_its_declared_tolerances(model_type):
    """A bfloat16 sweep of LLaMA (causal, GQA), BERT (encoder) and XLNet (whose
    checkpoint loaded in bfloat16 kept float32 projections and failed the audit): exact
    to the declared bfloat16 tolerances, above the measured differences (module comment
    of :data:`~empirical.capture.sweep.architectures.TOLERANCES`), the audit run in
    bfloat16 on its checkpoint; the float32 tolerances would call them different."""
    v = sweep.compare(model_type, dtype=torch.bfloat16)
    assert v.verdict == "exact", (v.model_type, v.verdict, v.detail)
    assert 1e-4 < v.error < 0.5, v  # the largest error over its tolerance
    err = dict(re.findall(r"(P_max|entropy) ([0-9.e+-]+)", v.detail))
    assert float(err["entropy"]) > sweep.TOL["entropy"], v.detail


def test_bfloat16_planted_error_is_caught(monkeypatch):
    """In bfloat16 a capture that counts every query one position off is still
    'different' (the declared distance tolerance is 4e-3 x L = 0.16 tokens)."""
    from empirical.capture import softmax_rows

    orig = softmax_rows.record_rows

    def shifted(stats, name, lg, qpos, kpos, **kw):
        return orig(stats, name, lg, qpos + 1, kpos, **kw)

    monkeypatch.setattr(softmax_rows, "record_rows", shifted)
    assert sweep.compare("gptj", dtype=torch.bfloat16).verdict == "different"


def test_bfloat16_maps_are_probabilities():
    """Eager bfloat16 maps (probabilities rounded to 8 bits, rows summing to 1 within
    2^-9) are a reference; a row summing to 1.02 is not."""
    p = torch.softmax(torch.randn(1, 2, 40, 40), -1).to(torch.bfloat16)
    assert float(p.double().sum(-1).max()) > 1 + 1e-4  # the float32 slack would refuse it
    assert len(sweep._maps([p], "maps")) == 1
    with pytest.raises(sweep.NoReference, match="not probabilities"):
        sweep._maps([p * 1.02], "maps")


def test_bfloat16_has_no_docs_table(tmp_path, capsys):
    """--write-docs writes the float32 table: with --dtype bfloat16 it is refused up
    front (exit 2, one error line), before any model is built."""
    from empirical.capture.sweep.cli import main

    doc = tmp_path / "capture.md"
    doc.write_text(f"{sweep.BEGIN}\n{sweep.END}\n")
    rc = main(["--types", "llama", "--dtype", "bfloat16", "--write-docs", str(doc)])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "float32 table" in err[0], (rc, err)
