"""``python -m empirical.audit`` on tiny checkpoints of families outside the capture
matrix, each saved to disk as a researcher's checkpoint (its language-model class, a
trained tokenizer) and audited through the command's ``main``; every per-head P_max,
entropy (<= 1e-5) and mean attended distance (<= 1e-3 tokens) of the report, at L_tr and
L_ex, must equal those of the eager model's ``output_attentions`` on the same windows.

The families: UMT5 (per-layer relative-position bias, encoder run), DistilBERT and
ModernBERT (masked-LM encoders without ``is_decoder``), GPT-J, GPT-Neo with a local
layer, MPT with ALiBi (eager-only attention modules), LongT5 (blocked local attention),
GPT-OSS (attention sinks: the report's statistics are those of the weights applied to
the values, as the eager weights are, and the sink's mass is reported), MiniMax (a
hybrid: the linear-attention layer listed, not audited).  A sceptic's alternatives fail
the same comparison: the statistics of the sink-renormalised weights (GPT-OSS), and
UMT5 loaded as ``T5EncoderModel`` (the shared bias of T5, the old behaviour).
"""

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

pytestmark = pytest.mark.empirical
transformers.logging.set_verbosity_error()

L_TR, L_EX = 32, 64
FAST = ["umt5", "distilbert", "gpt_oss", "longt5", "minimax"]
SLOW = ["modernbert", "gptj", "gpt_neo", "mpt"]
TOL, TOL_DISTANCE = 1e-5, 1e-3


def _audit(folder, out, capsys) -> dict:
    from empirical.audit.cli import main

    argv = ["--model", str(folder), "--text", "stdlib", "--L-tr", str(L_TR)]
    argv += ["--L-ex", str(L_EX), "--n-tr", "1", "--out", str(out), "--quiet", "--json"]
    rc = main(argv)
    cap = capsys.readouterr()
    assert rc == 0, cap.err
    return json.loads(cap.out)


def _eager(folder):
    cfg = transformers.AutoConfig.from_pretrained(folder)
    cls = getattr(transformers, cfg.architectures[0])
    return cls.from_pretrained(folder, attn_implementation="eager").eval()


def eager_per_head(folder, report: dict, length: int, renormalise_sink: bool = False) -> dict:
    """Per module, per head P_max, entropy and mean distance of the eager weights on the
    windows the audit used (rows >= the report's query_from)."""
    from empirical.capture.measure import sequences
    from empirical.capture.models import encoder_part, load_model
    from empirical.capture.sweep.architectures import eager_probabilities, reference_statistics

    lm = load_model(str(folder))
    model = _eager(folder)
    n = report["n_tr"] if length == report["L_tr"] else report["n_ex"]
    q0 = report["query_from"][str(length)]
    sums: dict = {}
    for ids in sequences(lm, report["text"], length, n):
        enc = encoder_part(model)
        with torch.no_grad():
            out = (enc or model)(input_ids=ids, output_attentions=True)
        probs = eager_probabilities(model, out, report["attention_modules"])
        for name, p in probs.items():
            if renormalise_sink:
                p = p / p.sum(-1, keepdim=True)
            glob = getattr(model.config, "global_block_size", None)
            r = reference_statistics(p, ids.shape[1], q0, glob)
            for k, v in r.items():
                sums.setdefault(name, {}).setdefault(k, []).append(v)
    return {n: {k: torch.stack(v).mean(0) for k, v in d.items()} for n, d in sums.items()}


def max_errors(report: dict, ref: dict, length: int) -> tuple[float, float]:
    disp = report["lengths"][str(length)]["dispersion"]
    assert set(disp) == set(ref), (sorted(disp), sorted(ref))
    err, err_d = 0.0, 0.0
    for name, r in ref.items():
        got = disp[name]["per_head"]
        for k in ("pmax", "entropy"):
            err = max(err, float((torch.tensor(got[k]) - r[k]).abs().max()))
        d = torch.tensor(got["mean_distance"]) - r["mean_distance"]
        err_d = max(err_d, float(d.abs().max()))
    return err, err_d


def _check_family(model_type, tmp_path, capsys):
    from capture_helpers import save_tiny_type_checkpoint

    folder = save_tiny_type_checkpoint(model_type, tmp_path / model_type, seed=1)
    report = _audit(folder, tmp_path / "out", capsys)
    for length in (L_TR, L_EX):
        err, err_d = max_errors(report, eager_per_head(folder, report, length), length)
        assert err <= TOL and err_d <= TOL_DISTANCE, (model_type, length, err, err_d)
    return folder, report


@pytest.mark.parametrize("model_type", FAST)
def test_family_audited_equal_to_eager(model_type, tmp_path, capsys):
    folder, report = _check_family(model_type, tmp_path, capsys)
    if model_type == "minimax":
        assert list(report["not_softmax_attention"]) == ["model.layers.1.self_attn"]
        assert report["attention_modules"] == ["model.layers.0.self_attn"]
    if model_type == "gpt_oss":  # the sink's mass is reported; renormalising differs
        disp = report["lengths"][str(L_TR)]["dispersion"]
        assert all(0 < d["sink_mass"] < 1 for d in disp.values())
        alt = eager_per_head(folder, report, L_TR, renormalise_sink=True)
        assert max_errors(report, alt, L_TR)[0] > 1e-3


@pytest.mark.slow
@pytest.mark.parametrize("model_type", SLOW)
def test_family_audited_equal_to_eager_slow(model_type, tmp_path, capsys):
    _check_family(model_type, tmp_path, capsys)


def test_umt5_is_not_read_as_t5(tmp_path, capsys):
    """UMT5 is loaded as the class its config names; as ``T5EncoderModel`` (the old
    hand-kept map) the per-layer bias of layer 1 is dropped, which loading reports as
    unexpected weights: an error naming them, or different statistics when accepted."""
    from capture_helpers import save_tiny_type_checkpoint

    from empirical.capture.models import ModelSpecError, load_weights

    folder = save_tiny_type_checkpoint("umt5", tmp_path / "umt5", seed=1)
    cfg = transformers.T5Config.from_pretrained(folder)
    with pytest.raises(ModelSpecError, match="unexpected.*relative_attention_bias"):
        load_weights(transformers.T5EncoderModel, folder, cfg, {}, False)
    eager = {"attn_implementation": "eager"}
    wrong = load_weights(transformers.T5EncoderModel, folder, cfg, eager, True).eval()
    right = _eager(folder).get_encoder()
    ids = torch.arange(4, 40)[None]
    with torch.no_grad():
        a = wrong(ids, output_attentions=True).attentions[1]
        b = right(ids, output_attentions=True).attentions[1]
    assert float((a - b).abs().max()) > 1e-3


LONG = [(t, {}) for t in FAST + SLOW] + [
    ("longt5", dict(local_radius=127, global_block_size=16)),  # LongT5's defaults
    (
        "longt5",
        dict(local_radius=127, global_block_size=16, encoder_attention_type="transient-global"),
    ),
    ("gpt_neo", dict(window_size=256)),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    "model_type,overrides", LONG, ids=[f"{t}-{i}" for i, (t, _) in enumerate(LONG)]
)
def test_family_audited_by_the_command_at_long_lengths(model_type, overrides, tmp_path):
    """As a researcher runs it: ``python -m empirical.audit`` in a process of its own,
    L_tr 64 and L_ex 256, 512, exit 0, every per-head statistic equal to eager."""
    import os
    import subprocess
    import sys

    from capture_helpers import save_tiny_type_checkpoint

    folder = save_tiny_type_checkpoint(model_type, tmp_path / model_type, seed=2, **overrides)
    argv = [sys.executable, "-m", "empirical.audit", "--model", str(folder), "--text"]
    argv += ["stdlib", "--L-tr", "64", "--L-ex", "256", "512", "--n-tr", "2", "--json"]
    argv += ["--quiet", "--out", str(tmp_path / "out")]
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=root)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    for length in (64, 256, 512):
        err, err_d = max_errors(report, eager_per_head(folder, report, length), length)
        assert err <= TOL and err_d <= TOL_DISTANCE, (model_type, length, err, err_d)
