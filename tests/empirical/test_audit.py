"""``python -m empirical.audit`` end to end on tiny saved checkpoints (LLaMA-like causal
LM, T5 encoder-decoder), checked against eager attention computed here, and its
bad-input table."""

import importlib.util
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

pytestmark = pytest.mark.empirical

L_TR, L_EX = 32, 96
ARGS = ["--L-tr", str(L_TR), "--L-ex", str(L_EX), "--n-tr", "2", "--quiet", "--json"]


@pytest.fixture(scope="module")
def ckpts(tmp_path_factory):
    from empirical.capture.checkpoints import save_tiny_checkpoint
    from empirical.training.corpora import load_corpus

    root = tmp_path_factory.mktemp("audit")
    text = root / "text.txt"
    text.write_text(load_corpus("stdlib", max_chars=12_000))
    jsonl = root / "text.jsonl"  # two records: windows stay inside one
    half = len(text.read_text()) // 2
    jsonl.write_text(
        "\n".join(
            json.dumps({"body": t}) for t in (text.read_text()[:half], text.read_text()[half:])
        )
    )
    notok = root / "no_tokenizer"
    llama = save_tiny_checkpoint("llama", root / "llama", initializer_range=0.5)
    notok.mkdir()
    for f in llama.iterdir():
        if not f.name.startswith("tokenizer"):
            shutil.copy(f, notok)
    return {
        "llama": llama,
        "t5": save_tiny_checkpoint("t5", root / "t5"),
        "text": text,
        "jsonl": jsonl,
        "no_tokenizer": notok,
        "root": root,
    }


def run_audit(argv, capsys):
    from empirical.audit.cli import main

    rc = main(argv)
    cap = capsys.readouterr()
    return rc, cap.out, cap.err


@pytest.fixture(scope="module")
def llama_audit(ckpts):
    from empirical.audit.cli import main

    out = ckpts["root"] / "out_llama"
    assert (
        main(
            ["--model", str(ckpts["llama"]), "--text", str(ckpts["text"]), *ARGS, "--out", str(out)]
        )
        == 0
    )
    return json.loads((out / "audit.json").read_text()), out


def test_audit_writes_every_file(llama_audit):
    res, out = llama_audit
    for name in (
        "report.md",
        "audit.json",
        "dispersion.png",
        "dispersion.csv",
        "qq_0.png",
        "qq_0.csv",
        "temperature.png",
        "temperature.csv",
    ):
        assert (out / name).stat().st_size > 0, name
    table = res["lengths"][str(L_EX)]["temperatures"]["table"]
    assert {"prop2", "log_rule", "infoscale", "yarn", "longrope", "algorithm1_grid_pmax"} <= set(
        table
    )
    assert res["query_from"][str(L_EX)] == L_TR and res["special_tokens"]["prefix"]


def eager_rows(path, ids, q0, tau=1.0):
    """[perplexity of the predictions from rows >= q0, then (P_max, entropy, mean |i-j|)
    per layer] from eager attention (output_attentions) and the model's own logits,
    attention logits divided by ``tau`` through each module's scaling, rows >= q0."""
    import torch
    import transformers

    m = transformers.AutoModelForCausalLM.from_pretrained(path, attn_implementation="eager")
    for mod in m.modules():
        if hasattr(mod, "scaling") and type(mod).__name__.endswith("Attention"):
            mod.scaling = mod.scaling / tau
    with torch.no_grad():
        o = m(ids, output_attentions=True)
    nll = torch.nn.functional.cross_entropy(
        o.logits[:, q0:-1].transpose(1, 2).double(), ids[:, q0 + 1 :], reduction="none"
    )
    out = [float(torch.exp(nll.mean()))]
    for a in o.attentions:
        p = a[:, :, q0:].double()
        d = (torch.arange(p.shape[-1])[None, :] - torch.arange(q0, a.shape[2])[:, None]).abs()
        out.append(
            (
                float(p.amax(-1).mean()),
                float(torch.special.entr(p).sum(-1).mean()),
                float((p * d).sum(-1).mean()),
            )
        )
    return out


def test_audit_numbers_equal_eager_attention(llama_audit, ckpts):
    """Dispersion at L_ex over rows >= L_tr, and the target at L_tr, equal the same
    averages computed from eager attention probabilities on the same windows."""
    from empirical.capture.measure import sequences
    from empirical.capture.models import load_model

    res, _ = llama_audit
    lm = load_model(str(ckpts["llama"]))
    for L, q0, n in ((L_EX, L_TR, 1), (L_TR, 0, 2)):
        ids = sequences(lm, str(ckpts["text"]), L, n)
        import torch

        ppl, *ref = eager_rows(ckpts["llama"], torch.cat(ids), q0)
        assert res["lengths"][str(L)]["perplexity_beyond"] == pytest.approx(ppl, rel=1e-6)
        disp = res["lengths"][str(L)]["dispersion"]
        for (pm, ent, dist), d in zip(ref, disp.values()):
            assert d["pmax"] == pytest.approx(pm, rel=1e-5)
            assert d["entropy"] == pytest.approx(ent, rel=1e-5)
            assert d["mean_distance"] == pytest.approx(dist, rel=1e-5)
    assert res["targets"]["pmax"] == pytest.approx(
        np.mean(
            [
                r[0]
                for r in eager_rows(
                    ckpts["llama"], torch.cat(sequences(lm, str(ckpts["text"]), L_TR, 2)), 0
                )[1:]
            ]
        ),
        rel=1e-5,
    )


def test_algorithm1_temperature_aligns_the_statistic(llama_audit, ckpts):
    """At the continuous Algorithm 1 temperature, P_max over rows >= L_tr (eager
    attention, logits scaled by 1/tau here) equals the target to 1e-3 relative."""
    import torch

    from empirical.capture.measure import sequences
    from empirical.capture.models import load_model

    res, _ = llama_audit
    c = res["lengths"][str(L_EX)]["temperatures"]["algorithm1"]["pmax"]["continuous"]
    assert c["bracketed"] and c["tau"] < 1
    lm = load_model(str(ckpts["llama"]))
    ids = torch.cat(sequences(lm, str(ckpts["text"]), L_EX, 1))
    at_tau = np.mean([r[0] for r in eager_rows(ckpts["llama"], ids, L_TR, c["tau"])[1:]])
    at_one = np.mean([r[0] for r in eager_rows(ckpts["llama"], ids, L_TR)[1:]])
    target = res["targets"]["pmax"]
    assert abs(at_tau - target) / target < 1e-3 < abs(at_one - target) / target


def test_audit_resumes_from_its_cache(llama_audit, ckpts, capsys):
    res, out = llama_audit
    rc, stdout, _ = run_audit(
        ["--model", str(ckpts["llama"]), "--text", str(ckpts["text"]), *ARGS, "--out", str(out)],
        capsys,
    )
    again = json.loads(stdout)
    assert rc == 0 and again["forward_passes_this_run"] == 0
    assert again["lengths"] == res["lengths"]


def test_batched_windows_give_the_same_numbers(llama_audit, ckpts, capsys):
    res, _ = llama_audit
    rc, stdout, err = run_audit(
        [
            "--model",
            str(ckpts["llama"]),
            "--text",
            str(ckpts["text"]),
            *ARGS,
            "--batch-size",
            "2",
            "--out",
            str(ckpts["root"] / "out_batched"),
        ],
        capsys,
    )
    assert rc == 0, err
    got = json.loads(stdout)
    assert got["targets"]["pmax"] == pytest.approx(res["targets"]["pmax"], rel=1e-6)
    for L, e in res["lengths"].items():
        for name, d in e["dispersion"].items():
            g = got["lengths"][L]["dispersion"][name]
            assert g["entropy"] == pytest.approx(d["entropy"], rel=1e-6)


def test_progress_lines_when_stderr_is_not_a_terminal(capsys):
    from empirical.audit.command import MeasurementProgress

    p = MeasurementProgress(interval=0)
    for k in range(5):
        p(128, 1.0 - 0.1 * k, cached=False)
    p.bar.close()
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 6 and all(x.startswith("audit: measurements: ") for x in lines)
    assert "5 (" not in lines[0] and "L=128" in lines[-1]


def test_audit_t5_jsonl(ckpts, capsys):
    """A T5 checkpoint is audited as its encoder (every row counted, EOS appended) on
    JSONL text; Algorithm 1's continuous answer reaches the target."""
    rc, stdout, err = run_audit(
        [
            "--model",
            str(ckpts["t5"]),
            "--text",
            str(ckpts["jsonl"]),
            "--text-field",
            "body",
            *ARGS,
            "--out",
            str(ckpts["root"] / "out_t5"),
        ],
        capsys,
    )
    assert rc == 0, err
    res = json.loads(stdout)
    assert res["query_from"][str(L_EX)] == 0 and res["special_tokens"]["suffix"]
    assert not res["causal_lm_head"]
    ex = res["lengths"][str(L_EX)]["temperatures"]
    c = ex["algorithm1"]["pmax"]["continuous"]
    assert c["bracketed"] and abs(c["gap"]) / res["targets"]["pmax"] < 1e-2
    assert Path(res["files"]["markdown"]).exists()


BAD = [  # (argv builder, expected text in the error line)
    (lambda c: ["--model", str(c["no_tokenizer"]), "--text", str(c["text"])], "tokenizer"),
    (lambda c: ["--model", "t5-config:tiny,foo=3", "--text", "stdlib"], "unknown T5Config key"),
    (
        lambda c: ["--model", str(c["llama"]), "--text", str(c["text"]), "--L-ex", "100000"],
        "larger than the text",
    ),
    (lambda c: ["--model", str(c["llama"]), "--text", str(c["text"]), "--n-tr", "0"], "--n-tr"),
    (lambda c: ["--model", str(c["llama"]), "--text", str(c["text"]), "--n-tr", "-1"], "--n-tr"),
    (lambda c: ["--model", str(c["llama"]), "--text", str(c["text"]), "--n-ex", "0"], "--n-ex"),
    (
        lambda c: ["--model", str(c["t5"]), "--text", str(c["text"]), "--query-from", "96"],
        "--query-from 96 must be in [0, L_ex)",
    ),
    (
        lambda c: ["--model", str(c["llama"]), "--text", str(c["root"] / "missing.txt")],
        "no such file",
    ),
    (
        lambda c: ["--model", str(c["llama"]), "--text", str(c["text"]), "--L-ex", "16"],
        "larger than --L-tr",
    ),
    (
        lambda c: ["--model", str(c["root"] / "mamba"), "--text", str(c["text"])],
        "no softmax attention modules",
    ),
]


@pytest.mark.parametrize("build,needle", BAD, ids=[b[1] for b in BAD])
def test_bad_input_is_one_error_line(ckpts, capsys, build, needle):
    if needle == "no softmax attention modules" and not (ckpts["root"] / "mamba").exists():
        import transformers

        cfg = transformers.MambaConfig(
            hidden_size=16, num_hidden_layers=1, vocab_size=512, state_size=4
        )
        transformers.MambaForCausalLM(cfg).save_pretrained(ckpts["root"] / "mamba")
        for f in ckpts["llama"].glob("tokenizer*"):
            shutil.copy(f, ckpts["root"] / "mamba")
    argv = build(ckpts)
    argv += [] if "--L-ex" in argv else ["--L-ex", str(L_EX)]
    rc, out, err = run_audit(
        ["--L-tr", str(L_TR), *argv, "--out", str(ckpts["root"] / "bad"), "--quiet"], capsys
    )
    assert rc == 2 and out == ""
    assert err.startswith("error:") and len(err.strip().splitlines()) == 1, err
    assert needle in err


def test_cuda_without_cuda_is_an_error(ckpts, capsys):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    rc, _, err = run_audit(
        [
            "--model",
            str(ckpts["llama"]),
            "--text",
            str(ckpts["text"]),
            "--L-tr",
            "32",
            "--L-ex",
            "64",
            "--device",
            "cuda",
            "--out",
            str(ckpts["root"] / "bad"),
        ],
        capsys,
    )
    assert rc == 2 and err.startswith("error:") and "CUDA is not available" in err


@pytest.mark.slow
def test_torchrun_two_processes_equal_one(ckpts):
    """Each rank audits its share of the windows; the all-reduced report equals one
    process's (gloo on the CPU)."""
    import os
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    # without the Triton interpreter that tests/conftest.py turns on for this process: with
    # it, a torchrun worker sometimes aborts at exit (measured: 4 of 31 runs, 0 of 23 without)
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env.update(OMP_NUM_THREADS="1", PYTHONPATH=str(root))
    args = [
        "-m",
        "empirical.audit",
        "--model",
        str(ckpts["llama"]),
        "--text",
        str(ckpts["text"]),
        *ARGS,
        "--n-ex",
        "2",
    ]
    runs = {}
    for tag, launcher in (
        (
            "two",
            [
                sys.executable,
                "-m",
                "torch.distributed.run",
                "--standalone",
                "--nproc-per-node",
                "2",
            ],
        ),
        ("one", [sys.executable]),
    ):
        res = subprocess.run(
            [*launcher, *args, "--out", str(ckpts["root"] / f"tr_{tag}")],
            capture_output=True,
            text=True,
            cwd=root,
            env=env,
        )
        assert res.returncode == 0, res.stderr[-2000:]
        runs[tag] = json.loads(res.stdout)
    assert runs["two"]["processes"] == 2
    for key in ("targets",):
        assert runs["two"][key] == pytest.approx(runs["one"][key], rel=1e-12)
    a, b = (runs[t]["lengths"][str(L_EX)] for t in ("two", "one"))
    assert a["overall"] == pytest.approx(b["overall"], rel=1e-12)
    assert a["perplexity_beyond"] == pytest.approx(b["perplexity_beyond"], rel=1e-12)


def _families():
    if importlib.util.find_spec("torch") is None:  # collected, then skipped (conftest)
        return ["bert"]
    from empirical.capture.checkpoints import FAMILIES

    fast = {"bert", "gemma2"}  # an encoder loaded with an LM class; softcap + window
    return [pytest.param(f, marks=() if f in fast else pytest.mark.slow) for f in FAMILIES]


@pytest.mark.parametrize("family", _families())
def test_every_family_audits(family, ckpts, capsys):
    """Each family's tiny checkpoint goes through the whole audit; causal ones count rows
    from L_tr and report a perplexity, encoders count every row."""
    import transformers

    from empirical.capture.checkpoints import save_tiny_checkpoint
    from empirical.capture.models import is_causal_lm

    path = save_tiny_checkpoint(family, ckpts["root"] / f"fam_{family}")
    rc, out, err = run_audit(
        [
            "--model",
            str(path),
            "--text",
            str(ckpts["text"]),
            "--L-tr",
            str(L_TR),
            "--L-ex",
            "64",
            "--n-tr",
            "1",
            "--quiet",
            "--json",
            "--out",
            str(ckpts["root"] / f"ofam_{family}"),
        ],
        capsys,
    )
    assert rc == 0, err
    res = json.loads(out)
    causal = is_causal_lm(transformers.AutoConfig.from_pretrained(path))
    assert res["causal"] == causal and res["query_from"]["64"] == (L_TR if causal else 0)
    assert (res["lengths"]["64"]["perplexity_beyond"] is not None) == causal


def _corrupt_copy(src: Path, dst: Path, how: str) -> Path:
    """A copy of checkpoint ``src`` with one defect: a config value its class rejects,
    config.json that is not JSON, a truncated weight file, or a weight removed."""
    from safetensors.torch import load_file, save_file

    shutil.copytree(src, dst)
    cfg = dst / "config.json"
    weights = dst / "model.safetensors"
    if how == "config value":
        d = json.loads(cfg.read_text())
        d["num_attention_heads"] = "four"
        cfg.write_text(json.dumps(d))
    elif how == "config json":
        cfg.write_text(cfg.read_text()[:40])
    elif how == "truncated weights":
        weights.write_bytes(weights.read_bytes()[: weights.stat().st_size // 2])
    else:
        tensors = load_file(weights)
        tensors.pop(sorted(k for k in tensors if k.endswith("o_proj.weight"))[0])
        save_file(tensors, weights, metadata={"format": "pt"})
    return dst


@pytest.mark.parametrize(
    "how,needle",
    [
        ("config value", "config.json"),
        ("config json", "config.json"),
        ("truncated weights", "model.safetensors"),
        ("missing weight", "missing model.layers.0.self_attn.o_proj.weight"),
    ],
)
def test_corrupt_checkpoint_is_one_error_line_naming_it(ckpts, capsys, tmp_path, how, needle):
    bad = _corrupt_copy(ckpts["llama"], tmp_path / "bad", how)
    argv = ["--model", str(bad), "--text", str(ckpts["text"]), "--L-tr", str(L_TR)]
    argv += ["--L-ex", str(L_EX), "--out", str(tmp_path / "out"), "--quiet"]
    rc, out, err = run_audit(argv, capsys)
    assert rc == 2 and out == "", err
    assert err.startswith("error:") and len(err.strip().splitlines()) == 1, err
    assert needle in err and "Traceback" not in err, err
    if how == "missing weight":  # accepted on purpose with the flag
        rc, out, err = run_audit([*argv, "--allow-weight-mismatch", "--n-tr", "1"], capsys)
        assert rc == 0, err


def test_temperature_figure_one_colour_per_method_legend_clear():
    """Eleven methods (the audit's count) get eleven colours, and the legend's box meets
    no panel (it would hide lines there)."""
    from empirical.audit.report import _plt, temperature_plot

    methods = [f"method {i}" for i in range(11)]
    row = {
        "tau": 0.8,
        "pmax_rel_error": 0.01,
        "entropy_rel_error": -0.01,
        "perplexity_beyond": 3.0,
    }
    res = {
        "L_tr": 32,
        "causal_lm_head": True,
        "lengths": {
            str(L): {"L": L, "temperatures": {"table": {m: dict(row) for m in methods}}}
            for L in (64, 128)
        },
    }
    fig, _ = temperature_plot(res)
    lines = [ln for ln in fig.axes[0].get_lines()]
    assert len({ln.get_color() for ln in lines}) == len(methods) == len(lines)
    fig.canvas.draw()
    legend = fig.legends[0].get_window_extent()
    assert not any(ax.get_window_extent().overlaps(legend) for ax in fig.axes)
    _plt().close(fig)


def test_rules_without_logit_spread():
    """A first layer whose logits are all equal (sigma = 0: ZAYA's tiny model, uniform
    rows) leaves Props. 1-2 undefined with the reason, and the length-only rules as
    they are; a positive sigma still gives Prop. 2 (reference: theory.temperature.rules,
    tau = sigma_tr / sigma_ex * ...)."""
    from empirical.audit.align import rule_predictions
    from theory.temperature.rules import temperature_rules

    flat = rule_predictions(64, 256, {"sigma": 0.0, "pmax": 0.5}, {"sigma": 0.0}, 16)
    assert flat["prop1"]["tau"] is None and flat["prop2"]["tau"] is None
    assert "sigma_tr and sigma_ex = 0" in flat["prop2"]["note"]
    ref = temperature_rules(64, 256, d=16)
    for k in ("log_rule", "yarn", "longrope", "infoscale"):
        assert flat[k]["tau"] == pytest.approx(ref[k].tau)
    spread = rule_predictions(64, 256, {"sigma": 1.0, "pmax": 0.5}, {"sigma": 1.2}, 16)
    want = temperature_rules(64, 256, sigma_tr=1.0, sigma_ex=1.2, pmax_tr=0.5, d=16)
    assert spread["prop2"]["tau"] == pytest.approx(want["prop2"].tau)
