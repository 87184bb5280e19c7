"""Tiny causal LM with pluggable RPE: shapes, causality, bias = theory log b_n, training,
resumption, evaluation beyond the training length, ERF = TRF when content is removed."""

import json
import math

import mpmath
import numpy as np
import pytest
import sympy as sp

torch = pytest.importorskip("torch")

from empirical.training.rpe import FIXED_FORMULAS, NAMED, alibi_slopes, build_rpe  # noqa: E402
from empirical.training.rpe_theory import rpe_b_expressions  # noqa: E402
from empirical.training.tiny_lm import LMConfig, TinyLM  # noqa: E402
from theory.series.expressions import ExpressionError, N  # noqa: E402

pytestmark = pytest.mark.empirical
SMALL = dict(n_layer=2, n_head=2, d_model=32, d_ff=64)
ALL_RPES = list(NAMED) + ["exp(-ln(n)**2)", "1/(1+n)**3"]


def tiny(rpe, seed=0):
    torch.manual_seed(seed)
    return TinyLM(LMConfig(rpe=rpe, seed=seed, **SMALL)).eval()


@pytest.mark.parametrize("rpe", ALL_RPES)
def test_shapes(rpe):
    m = tiny(rpe)
    x = torch.randint(0, 256, (3, 17))
    logits, probs = m(x, want_probs=True)
    assert logits.shape == (3, 17, 256)
    assert len(probs) == 2 and probs[0].shape == (3, 2, 17, 17)
    assert torch.allclose(probs[0].sum(-1), torch.ones(3, 2, 17), atol=1e-5)
    bias = m.rpe.bias_matrix(17)
    assert bias.shape == (2, 17, 17)
    assert (
        torch.isinf(bias[:, 0, 1:]).all()
        and torch.isfinite(torch.tril(bias)[:, torch.ones(17, 17).tril().bool()]).all()
    )


@pytest.mark.parametrize("rpe", ALL_RPES)
def test_causality(rpe):
    """Perturbing token p leaves the outputs at positions < p unchanged, and changes p."""
    m = tiny(rpe, seed=1)
    with torch.no_grad():
        m.emb.weight.normal_(0, 1)  # make every position's output depend on input
    x = torch.randint(0, 256, (2, 40))
    y = x.clone()
    p = 23
    y[:, p] = (y[:, p] + 1) % 256
    with torch.no_grad():
        a, b = m(x), m(y)
    assert torch.allclose(a[:, :p], b[:, :p], atol=1e-6)
    assert (a[:, p] - b[:, p]).abs().max() > 1e-3


def mp_log_b(expr, n):
    """log b_n by mpmath at 30 digits from the sympy expression (independent reference)."""
    with mpmath.workdps(30):
        return float(mpmath.log(sp.lambdify(N, expr, "mpmath")(mpmath.mpf(int(n)))))


@pytest.mark.parametrize("name", sorted(FIXED_FORMULAS))
def test_fixed_bias_equals_log_b(name):
    """Model bias at distance t == theory's log b_{start+t} == mpmath reference."""
    from theory.series.expressions import parse_expression
    from theory.series.rpe_library import log_b_values, resolve_rpe

    formula, start, theory_name = FIXED_FORMULAS[name]
    th = resolve_rpe(theory_name)
    assert th.start == start  # one index convention for both areas
    rpe = build_rpe(name, 2)
    t = np.arange(0, 300)
    got = rpe.log_b(torch.as_tensor(t))[0].double().numpy()
    np.testing.assert_allclose(got, log_b_values(th.b, t, start=th.start), rtol=1e-6, atol=1e-6)
    want = np.array([mp_log_b(parse_expression(formula), start + k) for k in t])
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_type2_bias_values():
    # Type2: b_n = exp(-ln^2 n) (RPE paper Sec. 3.4); distance 9 -> n = 10, bias = -ln(10)^2
    rpe = build_rpe("exp(-ln(n)**2)", 1)
    assert rpe.log_b(torch.tensor([0, 9]))[0].tolist() == pytest.approx(
        [0.0, -(math.log(10) ** 2)], rel=1e-6
    )


def test_alibi_slopes():
    # ALiBi with 8 heads: slopes 1/2, 1/4, ..., 1/256 (Press et al. 2022, Sec. 3)
    assert alibi_slopes(8).tolist() == [2.0**-k for k in range(1, 9)]


@pytest.mark.parametrize(
    "name", ["alibi", "kerple_log", "kerple_power", "sandwich", "type2", "inv_nlogn"]
)
def test_theory_expression_matches_model_bias(name):
    """The b_n handed to the theory (learned params substituted) reproduces the bias."""
    torch.manual_seed(3)
    rpe = build_rpe(name, 3)
    exprs = rpe_b_expressions(rpe)
    t = [0, 1, 5, 40, 127]
    got = rpe.log_b(torch.tensor(t)).detach().double().numpy()
    for h, (expr, start) in enumerate(exprs):
        want = [mp_log_b(expr, start + k) for k in t]
        np.testing.assert_allclose(got[h], want, rtol=1e-6, atol=2e-5)


def test_bad_formula_is_rejected():
    with pytest.raises(ExpressionError):
        build_rpe("__import__('os')", 2)
    with pytest.raises(ExpressionError):
        build_rpe("1/(n-1)", 2).log_b(torch.arange(3))  # b_1 infinite


def test_learned_params_respect_constraints():
    rpe = build_rpe("kerple_power", 4)
    with torch.no_grad():
        rpe.r.fill_(5.0)
        rpe.k.fill_(-3.0)
    r, k = rpe.params()
    assert (r <= 2).all() and (k > 0).all()


def train_args(out, steps, extra=()):
    from empirical.train.cli import build_parser

    return build_parser().parse_args(
        [
            "--rpe",
            "type2",
            "--steps",
            str(steps),
            "--seq-len",
            "32",
            "--batch",
            "8",
            "--n-layer",
            "1",
            "--d-model",
            "32",
            "--n-head",
            "2",
            "--max-chars",
            "200000",
            "--quiet",
            "--ckpt-every",
            "10",
            "--warmup",
            "5",
            "--out",
            str(out),
            *extra,
        ]
    )


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory):
    from empirical.training.train import train

    out = tmp_path_factory.mktemp("run") / "type2"
    metrics = train(train_args(out, 40))
    return out, metrics


def test_training_reduces_loss(trained_run):
    out, metrics = trained_run
    rows = (out / "log.csv").read_text().splitlines()[1:]
    losses = [float(r.split(",")[1]) for r in rows]
    assert len(losses) == 40
    assert np.mean(losses[-5:]) < np.mean(losses[:5]) - 0.5
    assert metrics["val_loss"] < math.log(256)


def test_resume_equals_uninterrupted(tmp_path):
    from empirical.training.train import load_model, train

    train(train_args(tmp_path / "a", 20))
    train(train_args(tmp_path / "b", 20, ["--stop-at", "10"]))  # interrupted at step 10
    train(train_args(tmp_path / "b", 20))  # resumes from step 10
    ma, _ = load_model(tmp_path / "a")
    mb, _ = load_model(tmp_path / "b")
    for (k, va), vb in zip(ma.state_dict().items(), mb.state_dict().values()):
        assert torch.allclose(va, vb, atol=1e-6), k


def test_eval_beyond_training_length(trained_run):
    from empirical.training.extrapolate import evaluate_runs

    out, _ = trained_run
    rows = evaluate_runs([out], [32, 128, 256], eval_tokens=512, progress=False)
    assert [r["length"] for r in rows] == [32, 128, 256]
    assert all(math.isfinite(r["ppl"]) and 1 < r["ppl"] < 256 for r in rows)
    # non-overlapping chunks: 512/L chunks of L - 1 scored predictions each
    assert [r["predictions"] for r in rows] == [16 * 31, 4 * 127, 2 * 255]


def test_erf_equals_trf_without_content(trained_run):
    """With W_q = W_k = 0 the attention is the RPE alone, so ERF == windowed TRF."""
    from empirical.training.erf import attention_by_distance, receptive_field, rpe_only_attention
    from empirical.training.train import load_model

    out, _ = trained_run
    model, _ = load_model(out)
    with torch.no_grad():
        for blk in model.blocks:
            blk.attn.qkv.weight[:64].zero_()
            blk.attn.qkv.bias[:64].zero_()
    tokens = torch.randint(0, 256, (400,))
    a = attention_by_distance(model, tokens, 128, first_query=32, n_chunks=2)
    a0 = rpe_only_attention(model, 128, first_query=32)
    np.testing.assert_allclose(a, a0, atol=1e-9)
    eps = [0.5, 0.1, 0.01]
    assert receptive_field(a, eps).tolist() == receptive_field(a0, eps).tolist()


def test_receptive_field_definition():
    from empirical.training.erf import receptive_field

    # Eq. 22 on b_t = 2^-t truncated at 4 terms: cum = 8/15, 12/15, 14/15, 1
    mass = np.array([8, 4, 2, 1], dtype=float)
    assert receptive_field(mass, [0.5, 0.2, 0.1, 0.05, 1e-9]).tolist() == [1, 3, 3, 4, 4]


def test_cli_errors_and_json(tmp_path, capsys, trained_run):
    from empirical.extrapolate import cli as extrapolate
    from empirical.train import cli as train

    assert train.main(["--rpe", "exp(", "--out", str(tmp_path / "x")]) == 2
    assert capsys.readouterr().err.startswith("error:")
    assert extrapolate.main([str(tmp_path / "nope"), "--json"]) == 2
    assert capsys.readouterr().err.startswith("error:")
    out, _ = trained_run
    assert (
        extrapolate.main([str(out), "--lengths", "32", "64", "--eval-tokens", "256", "--json"]) == 0
    )
    obj = json.loads(capsys.readouterr().out)
    assert set(obj["table"]) == {"32", "64"}


def test_changed_corpus_is_refused(trained_run, tmp_path):
    """Evaluating a run against a corpus whose text changed since training is an error."""
    import shutil

    from empirical.training.extrapolate import evaluate_runs

    out, _ = trained_run
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    cfg = json.loads((copy / "config.json").read_text())
    cfg["data"]["sha256"] = "0" * 16
    (copy / "config.json").write_text(json.dumps(cfg))
    with pytest.raises(ValueError, match="differs from the one this run was trained on"):
        evaluate_runs([copy], [32], eval_tokens=64, progress=False)
