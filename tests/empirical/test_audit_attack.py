"""The audit on checkpoints saved as researchers save them (:mod:`benchmarks.audit_attack`):
a forward pass that raises is one ``error:`` line naming the module and the input's
length, with no partial cache left behind (completed measurements are kept and said to
be, and a resume uses them); a weight pickle is read with ``weights_only=True`` and one
that would run code is refused by name without running it.  Under ``-m slow`` every case
of the attack script, each exact against eager attention or refused for its reason.
"""

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from benchmarks import audit_attack as A  # noqa: E402 (needs torch and transformers)

pytestmark = pytest.mark.empirical
transformers.logging.set_verbosity_error()
transformers.utils.logging.disable_progress_bar()


@pytest.fixture(scope="module")
def llama(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("attack") / "llama"
    A.saved("llama", "LlamaForCausalLM")(folder)
    return folder


def _audit(folder: Path, out: Path, capsys, *extra: str) -> tuple[int, dict | None, list]:
    from empirical.audit.cli import main

    argv = ["--model", str(folder), "--text", "stdlib", "--L-tr", str(A.L_TR), "--n-tr", "1"]
    argv += ["--L-ex", str(A.L_EX), "--out", str(out), "--json", "--quiet", *extra]
    rc = main(argv)
    cap = capsys.readouterr()
    errors = [x for x in cap.err.splitlines() if x.strip()]
    return rc, (json.loads(cap.out) if rc == 0 else None), errors


def test_forward_error_names_the_module_and_length(llama, tmp_path, capsys):
    """A layer raising torch's shape error on the first measured window (L_tr; the
    audit's short probe of which modules run passes): exit 2, one line naming the
    module, its class, the input's batch and length and torch's message; the new --out
    folder, whose cache had been started, is not left behind (nothing was completed)."""
    out = tmp_path / "out"
    with A.raising_mlp(longer_than=8):
        rc, _, errors = _audit(llama, out, capsys)
    assert rc == 2 and len(errors) == 1, errors
    assert errors[0].startswith(
        "error: the forward pass of LlamaForCausalLM failed in module 'model.layers.0.mlp' "
        f"(LlamaMLP) on an input of 1 x {A.L_TR} tokens: "
    )
    assert "RuntimeError: mat1 and mat2 shapes cannot be multiplied" in errors[0]
    assert not out.exists()


def test_forward_error_in_the_probe_says_it_was_the_probe(llama, tmp_path, capsys):
    """A layer raising on every input fails first in the audit's short probe of which
    modules run (6 tokens), before any --L-tr / --L-ex window: the line says it was the
    probe and its length, so the user does not look for the fault at --L-tr / --L-ex."""
    out = tmp_path / "out"
    with A.raising_mlp():
        rc, _, errors = _audit(llama, out, capsys)
    assert rc == 2 and len(errors) == 1, errors
    assert errors[0].startswith(
        "error: in the audit's probe of which attention modules run (a short text of 6 "
        "tokens, before any --L-tr / --L-ex window), the forward pass of LlamaForCausalLM "
        "failed in module 'model.layers.0.mlp' (LlamaMLP) on an input of 1 x 6 tokens: "
    ), errors
    assert not out.exists()


def test_forward_error_in_an_existing_folder_leaves_no_cache(llama, tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    with A.raising_mlp(longer_than=8):
        rc, _, errors = _audit(llama, out, capsys)
    assert rc == 2 and len(errors) == 1, errors
    assert not (out / "cache").exists(), sorted(p.name for p in out.rglob("*"))


def test_failed_audit_keeps_its_completed_measurements_and_resumes(llama, tmp_path, capsys):
    """Failing at L_ex (as an out-of-memory error at the longest length does): the
    measurement at L_tr is kept, the error line says so, nothing partial is there, and
    the same command resumes from it."""
    out = tmp_path / "out"
    with A.raising_mlp(longer_than=A.L_TR):
        rc, _, errors = _audit(llama, out, capsys)
    assert rc == 2 and len(errors) == 1, errors
    assert f"on an input of 1 x {A.L_EX} tokens" in errors[0]
    assert f"(1 completed measurement(s) kept in {out / 'cache'}" in errors[0]
    files = sorted(p.name for p in (out / "cache").rglob("*") if p.is_file())
    assert files == [f"L{A.L_TR}_tau1.000000000000.npz"], files
    rc, report, errors = _audit(llama, out, capsys)
    assert rc == 0, errors
    fresh = tmp_path / "fresh"
    rc, again, _ = _audit(llama, fresh, capsys)
    assert report["forward_passes_this_run"] == again["forward_passes_this_run"] - 1
    assert report["lengths"] == again["lengths"]


def test_forward_error_in_collect(llama, tmp_path, capsys):
    from empirical.collect.cli import main

    with A.raising_mlp():
        rc = main(["--model", str(llama), "--length", "32", "--n-seq", "1"])
    err = [x for x in capsys.readouterr().err.splitlines() if x.strip()]
    assert rc == 2 and len(err) == 1 and "failed in module 'model.layers.0.mlp'" in err[0], err


def test_pickled_weights_load_with_weights_only(llama, tmp_path, capsys):
    """``pytorch_model.bin`` alone (as older ``save_pretrained`` wrote it): its tensors
    are read by ``torch.load(weights_only=True)`` and the audit equals the safetensors
    checkpoint's."""
    import shutil

    folder = tmp_path / "bin"
    shutil.copytree(llama, folder)
    A.pickle_only(folder)
    rc, got, errors = _audit(folder, tmp_path / "a", capsys)
    rc2, ref, _ = _audit(llama, tmp_path / "b", capsys)
    assert rc == rc2 == 0, errors
    assert got["lengths"] == ref["lengths"]


def test_pickle_that_runs_code_is_refused_unrun(llama, tmp_path, capsys, monkeypatch):
    import shutil

    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "bad"
    shutil.copytree(llama, folder)
    A.pickle_with_code(folder)
    rc, _, errors = _audit(folder, tmp_path / "out", capsys)
    assert not (tmp_path / "PWNED").exists()
    assert rc == 2 and len(errors) == 1, errors
    assert "pytorch_model.bin: a pickle holding more than tensors (GLOBAL " in errors[0]
    assert "\x1b" not in errors[0]


def test_failing_module_is_the_innermost():
    from empirical.capture.measure import failing_module

    inner = torch.nn.Linear(3, 2)
    model = torch.nn.Sequential(torch.nn.Sequential(torch.nn.Identity(), inner))
    with pytest.raises(RuntimeError) as info:
        model(torch.zeros(1, 4))
    assert failing_module(model, info.value.__traceback__) == "0.1"


@pytest.mark.slow
@pytest.mark.parametrize("name", [c.name for c in A.cases()])
def test_attack_case(name, tmp_path):
    """``python -m benchmarks.audit_attack --cases NAME``: exact or refused as expected."""
    case = {c.name: c for c in A.cases()}[name]
    got, detail = A.outcome(case, tmp_path)
    assert got == case.expect, detail


def test_model_without_a_token_table_is_refused_by_name(tmp_path, capsys):
    """CANINE hashes code points into several tables (transformers'
    ``get_input_embeddings`` raises): refused, naming the class, not transformers'
    ``NotImplementedError`` text alone."""
    folder = tmp_path / "canine"
    A.saved("canine", "CanineModel")(folder)
    rc, _, errors = _audit(folder, tmp_path / "out", capsys)
    assert rc == 2 and len(errors) == 1, errors
    assert errors[0].startswith("error: CanineModel has no embedding table indexed by token ids")


def test_longformer_global_tokens_refused_by_name(tmp_path, capsys):
    """``LongformerForSequenceClassification`` puts global attention on the first token:
    refused naming the global tokens (not as keys of a cache or a prompt); the masked-LM
    class of the same model, without global attention, is audited."""
    folder = tmp_path / "longformer"
    A.saved("longformer", "LongformerForSequenceClassification", attention_window=8)(folder)
    rc, _, errors = _audit(folder, tmp_path / "out", capsys)
    assert rc == 2 and len(errors) == 1, errors
    assert "(LongformerSelfAttention) has global tokens" in errors[0]


def test_cache_is_not_reused_for_another_training_length(llama, tmp_path, capsys):
    """A causal model's rows at L_ex are counted from L_tr: an audit rerun into the same
    folder with another ``--L-tr`` must not reuse the L_ex measurement counted from the
    old one; it equals a fresh audit at the new L_tr."""
    out = tmp_path / "out"
    rc, first, _ = _audit(llama, out, capsys)
    assert rc == 0 and first["query_from"][str(A.L_EX)] == A.L_TR
    rc, again, errors = _audit(llama, out, capsys, "--L-tr", "8")
    assert rc == 0, errors
    rc, fresh, _ = _audit(llama, tmp_path / "fresh", capsys, "--L-tr", "8")
    assert again["query_from"][str(A.L_EX)] == 8
    assert again["lengths"][str(A.L_EX)] == fresh["lengths"][str(A.L_EX)]


def test_model_input_check_is_one_error_line(tmp_path, capsys):
    """Longformer's question-answering head asserts three separator tokens in its input
    (an ``AssertionError`` of the model's own): one error line naming the class, the
    length and the assertion, exit 2 (not an unexpected error, exit 1)."""
    folder = tmp_path / "longformer-qa"
    A.saved("longformer", "LongformerForQuestionAnswering", attention_window=8)(folder)
    rc, _, errors = _audit(folder, tmp_path / "out", capsys)
    assert rc == 2 and len(errors) == 1, errors
    assert "the forward pass of LongformerForQuestionAnswering failed on an input" in errors[0]
    assert "AssertionError: There should be exactly three separator tokens" in errors[0]


def test_time_major_multiple_choice_head_is_exact(tmp_path):
    """XLNet's multiple-choice head (input (batch, choices, length), hidden states
    (length, batch, channels)): the input's length is read from the last dimension of
    its 3-D ids, so the time-major rows are counted and the audit is exact."""
    case = A.Case("xlnet_mc", A.saved("xlnet", "XLNetForMultipleChoice"))
    got, detail = A.outcome(case, tmp_path)
    assert got == "exact", detail


@pytest.mark.parametrize("command", ["audit", "collect"])
def test_multiple_choice_head_runs_its_encoder_on_one_choice(command, tmp_path):
    """A multiple-choice head (input (batch, choices, length)) gets each sequence as one
    choice: the audit is exact against the eager model's attention, and collect runs;
    before, the head's reshape of (1, L) into choices failed (``shape '[-1, L]' is
    invalid``)."""
    case = A.Case("bert_mc", A.saved("bert", "BertForMultipleChoice"), command=command)
    got, detail = A.outcome(case, tmp_path)
    assert got == ("exact" if command == "audit" else "ran"), detail


def test_longformer_token_classification_head_is_exact(tmp_path):
    """Longformer's token-classification head sets no global attention (its
    sequence-classification and question-answering heads do): the audit is exact
    against the eager model, and the attack expects exact for it."""
    (case,) = [c for c in A.head_cases("token-classification") if c.name.startswith("longformer")]
    assert case.expect == "exact", case
    got, detail = A.outcome(case, tmp_path)
    assert got == "exact", detail
