"""The third round of bad inputs: output folders that belong to another command or hold a
model checkpoint, inputs told by their content (upper-case ``.NPY``, ``.npz``, compressed,
JSONL under another suffix, a tokenizer file), ``--json`` in every mode, a parameter given
twice, late or cut-off errors, a read-only HOME, benchmark scripts run as file paths.

Each bad case exits 2 with exactly one ``error:`` line (the last on stderr), no traceback,
nothing on stdout under ``--json``, nothing left behind and no file of the workspace
changed (checked by content).  The helpers are those of :mod:`tests.cli.test_bad_inputs`.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.cli.test_bad_inputs import ROOT, _env, assert_fails_well, call
from theory.core.budget import HANG_FACTOR, cpu_limit
from theory.core.cli import OUTPUT_MARKER

HAS_TORCH = importlib.util.find_spec("torch") is not None

MODULES = {
    "theory.trf": "theory.trf.cli",
    "figures": "figures.cli",
    "paper_checks": "paper_checks.cli",
    "empirical.train": "empirical.train.cli",
    "empirical.audit": "empirical.audit.cli",
    "empirical.assumptions": "empirical.assumptions.cli",
    "empirical.collect": "empirical.collect.cli",
}

TINY = "--steps 2 --seq-len 16 --n-layer 1 --d-model 16 --batch 2 --max-chars 20000"
AUDIT = "empirical.audit --model t5-config:tiny --text stdlib --L-tr 16 --L-ex 32 --n-tr 1 --n-ex 1"
ASSUME = "empirical.assumptions --model t5-config:tiny --L-tr 16 --L-ex 32 --n-tr 1 --n-ex 1"
COLLECT = "empirical.collect --model t5-config:tiny --length 16 --n-seq 1"

# (command line, what the error line must contain)
CASES = [
    # an output folder belongs to one command
    (f"empirical.train {TINY} --out {{hf}}", ["model checkpoint", "--overwrite"]),
    (f"empirical.train {TINY} --out {{hf}} --json", ["model checkpoint"]),
    ("paper_checks --id rpe-eq5 --out {audit}", ["empirical.audit", "--overwrite"]),
    ("paper_checks --id rpe-eq5 --out {audit} --json", ["empirical.audit"]),
    ("paper_checks --id rpe-eq5 --out {marked_audit}", ["empirical.audit"]),
    (f"{AUDIT} --out {{report}}", ["paper_checks", "--overwrite"]),
    (f"{AUDIT} --out {{report}} --json", ["paper_checks"]),
    (f"{AUDIT} --out {{file}}", ["--out", "not a folder"]),
    (f"{AUDIT} --out {{hf}}", ["model checkpoint"]),
    (f"{ASSUME} --out {{report}}", ["paper_checks"]),
    (f"{ASSUME} --out {{unknown}}", ["did not write", "notes.txt"]),
    ("figures rpe-fig5 --quick --out {hf}", ["model checkpoint"]),
    ("figures rpe-fig5 --quick --out {marked_audit} --json", ["empirical.audit"]),
    ("figures rpe-fig5 --quick --out {unknown}", ["did not write"]),
    (f"empirical.train {TINY} --out {{report}}", ["paper_checks"]),
    # inputs told by their content
    ("theory.trf --bias-file {two_npz}", ["two.npz", "2 arrays", ".npy"]),
    ("theory.trf --bias-file {png}", ["picture.dat", "PNG", ".npy"]),
    ("theory.trf --bias-file {text_gz} --json", ["words.txt.gz", "float"]),
    (f"{COLLECT} --corpus {{npy_upper}}", ["BIAS.NPY", "NumPy", "expected"]),
    (f"{COLLECT} --corpus {{npz}}", ["one.npz", "zip", "expected"]),
    (f"{COLLECT} --corpus {{plain}} --text-field content", ["plain.txt", "--text-field"]),
    (f"{COLLECT} --corpus {{ndjson}} --text-field nosuch --json", ["data.ndjson", "nosuch"]),
    (f"{COLLECT} --corpus {{bad_gz}}", ["broken.gz", "gzip"]),
    (f"{COLLECT} --corpus stdlib --tokenizer {{plain}}", ["--tokenizer", "checkpoint folder"]),
    (
        "empirical.collect --model {t5} --corpus stdlib --length 16 --n-seq 1 --tokenizer {plain}",
        ["plain.txt", "tokenizer.json"],
    ),
    # a parameter given twice
    ("theory.trf --rpe alibi --param r=1 --param r=2", ["--param r", "twice"]),
    ("theory.trf --rpe kerple-log --param r1=1 --param r1=1 --json", ["r1", "twice"]),
    # late errors: the reason is kept, counts checked
    (f"{COLLECT} --corpus stdlib --model {{bad_config}}", ["num_hidden_layers", "expected int"]),
    (
        "empirical.collect --model llama-config:tiny,num_hidden_layers=0 --length 16 --n-seq 1",
        ["num_hidden_layers", ">= 1"],
    ),  # fmt: skip
]


def _params():
    out = []
    for k, (line, wanted) in enumerate(CASES):
        cmd = line.split(" ", 1)[0]
        marks = [pytest.mark.empirical] if cmd.startswith("empirical.") else []
        out.append(pytest.param(line, wanted, id=f"{k:02d}-{line[:60]}", marks=marks))
    return out


def _digest(root: Path) -> dict:
    """Every file under ``root`` with the hash of its content."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def ws(tmp_path_factory):
    """Folders of other commands, a model checkpoint, and inputs whose suffix misleads."""
    root = tmp_path_factory.mktemp("round 3")
    hf = root / "hf model"
    hf.mkdir()
    cfg = {"model_type": "llama", "num_hidden_layers": 1, "hidden_size": 16}
    (hf / "config.json").write_text(json.dumps(cfg))
    (hf / "model.safetensors").write_bytes(b"\x00" * 64)
    audit = root / "an audit"  # as written before folders were marked
    audit.mkdir()
    (audit / "report.md").write_text("# audit\n")
    (audit / "audit.json").write_text("{}")
    marked = root / "marked audit"
    marked.mkdir()
    (marked / "report.md").write_text("# audit\n")
    (marked / OUTPUT_MARKER).write_text(json.dumps({"command": "empirical.audit"}))
    report = root / "a report"
    report.mkdir()
    (report / "report.md").write_text("# paper checks\n")
    (report / "report.json").write_text(json.dumps({"selection": None}))
    unknown = root / "my notes"
    unknown.mkdir()
    (unknown / "notes.txt").write_text("mine\n")
    (root / "file.txt").write_text("just text\n")
    with open(root / "BIAS.NPY", "wb") as fh:  # np.save would add ".npy"
        np.save(fh, -np.arange(8) / 4)
    np.savez(root / "two.npz", a=np.zeros(3), b=np.ones(3))
    np.savez(root / "one.npz", a=np.zeros(3))
    (root / "picture.dat").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
    (root / "words.txt.gz").write_bytes(gzip.compress(b"not numbers at all\n"))
    (root / "broken.gz").write_bytes(b"\x1f\x8b" + b"\x00" * 20)
    (root / "plain.txt").write_text("plain words " * 400)
    recs = [{"content": "some words " * 100} for _ in range(4)]
    (root / "data.ndjson").write_text("".join(json.dumps(r) + "\n" for r in recs))
    bad = root / "bad config"
    bad.mkdir()
    (bad / "config.json").write_text(json.dumps({**cfg, "num_hidden_layers": "abc"}))
    t5 = root / "t5 model"
    if HAS_TORCH:  # a complete model folder, its tokenizer given by --tokenizer
        import transformers

        t5_cfg = transformers.T5Config(
            d_model=16, d_kv=4, num_heads=4, d_ff=32, num_layers=1, vocab_size=4200
        )
        transformers.T5EncoderModel(t5_cfg).save_pretrained(t5)
    cwd = root / "work dir"
    cwd.mkdir()
    paths = {
        "hf": hf,
        "audit": audit,
        "marked_audit": marked,
        "report": report,
        "unknown": unknown,
        "file": root / "file.txt",
        "npy_upper": root / "BIAS.NPY",
        "two_npz": root / "two.npz",
        "npz": root / "one.npz",
        "png": root / "picture.dat",
        "text_gz": root / "words.txt.gz",
        "bad_gz": root / "broken.gz",
        "plain": root / "plain.txt",
        "ndjson": root / "data.ndjson",
        "bad_config": bad,
        "t5": t5,
    }
    return {"root": root, "cwd": cwd, "paths": {k: str(v) for k, v in paths.items()}}


@pytest.mark.parametrize("line, wanted", _params())
def test_bad_input_round3(line, wanted, ws, monkeypatch):
    cmd, *argv = shlex.split(line)
    argv = [a.format(**ws["paths"]) for a in argv]
    monkeypatch.chdir(ws["cwd"])
    monkeypatch.setenv("LENGTHX_PROGRESS_SECONDS", "0.2")
    before = _digest(ws["root"])
    code, out, err = call_module(cmd, argv)
    assert_fails_well(code, out, err, argv)
    last = err.splitlines()[-1]
    assert all(w in last for w in wanted), last
    assert _digest(ws["root"]) == before, "a file was changed or left behind"


def call_module(cmd: str, argv: list) -> tuple:
    """:func:`tests.cli.test_bad_inputs.call` for the commands of this table."""
    from tests.cli import test_bad_inputs

    test_bad_inputs.MODULES.setdefault(cmd, MODULES[cmd])
    return call(cmd, argv)


# ---- what is accepted: by content, the same command again, --overwrite ----------------
def test_bias_file_by_content(ws, monkeypatch):
    """An upper-case .NPY, an .npz with one array and a gzip text file are read."""
    root = ws["root"]
    (root / "bias.txt.gz").write_bytes(gzip.compress(b"0\n-0.25\n-0.5\n-0.75\n"))
    try:
        for name in ("BIAS.NPY", "one.npz", "bias.txt.gz"):
            code, out, err = call_module("theory.trf", ["--bias-file", str(root / name), "--json"])
            assert code == 0, err
            assert json.loads(out)["name"] == f"bias-file:{name}"
    finally:
        (root / "bias.txt.gz").unlink()


@pytest.mark.empirical
def test_texts_by_content(ws):
    """JSONL under .ndjson/.json and compressed JSONL are read as records, the field
    honoured."""
    from empirical.training.corpora import load_documents

    root = ws["root"]
    recs = "".join(json.dumps({"content": f"record {k} " * 20}) + "\n" for k in range(3))
    (root / "data.json").write_text(recs)
    (root / "data.jsonl.gz").write_bytes(gzip.compress(recs.encode()))
    try:
        for name in ("data.ndjson", "data.json", "data.jsonl.gz"):
            docs = load_documents(str(root / name), "content")
            assert len(docs) >= 3 and docs[0].name.endswith(":1"), name
    finally:
        (root / "data.json").unlink()
        (root / "data.jsonl.gz").unlink()


def test_same_command_and_overwrite(ws, tmp_path, monkeypatch):
    """A folder with the same command's outputs is written again; another command's
    only with --overwrite; the folder is marked."""
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "figs"
    for _ in range(2):
        code, _, err = call_module("figures", ["rpe-fig5", "--quick", "--out", str(out)])
        assert code == 0, err
    assert json.loads((out / OUTPUT_MARKER).read_text())["command"] == "figures"
    code, _, err = call_module("paper_checks", ["--id", "rpe-eq5", "--out", str(out)])
    assert code == 2 and "figures" in err
    code, _, err = call_module(
        "paper_checks", ["--id", "rpe-eq5", "--out", str(out), "--overwrite", "--no-figures"]
    )
    assert code == 0, err
    assert json.loads((out / OUTPUT_MARKER).read_text())["command"] == "paper_checks"


# ---- --json in every mode -----------------------------------------------------------
@pytest.mark.parametrize(
    "cmd, argv",
    [
        ("figures", ["--list", "--json"]),
        ("figures", ["--json"]),
        ("paper_checks", ["--list", "--json"]),
        ("paper_checks", ["--list", "--paper", "rpe", "--json"]),
        ("theory.trf", ["--version", "--json"]),
    ],
)
def test_json_in_every_mode(cmd, argv):
    code, out, err = call_module(cmd, argv)
    assert code == 0, err
    assert isinstance(json.loads(out), dict)
    assert len(out.strip().splitlines()) == 1


# ---- subprocesses: a read-only HOME, benchmark scripts as file paths ---------------------
def _subprocess(args: list, env: dict, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        args,
        capture_output=True,
        cwd=cwd,
        env=env,
        preexec_fn=cpu_limit(120),
        timeout=120 * HANG_FACTOR,
    )


def test_read_only_home_is_quiet(tmp_path):
    """With a HOME nothing can be written in, matplotlib says nothing under --quiet."""
    env = {**_env(), "HOME": "/proc/no-home"}
    env.pop("MPLCONFIGDIR", None)
    env.pop("XDG_CONFIG_HOME", None)
    env.pop("XDG_CACHE_HOME", None)
    res = _subprocess(
        [sys.executable, "-m", "figures", "rpe-fig5", "--quick", "--out", "f", "--json"],
        env,
        tmp_path,
    )
    err = res.stderr.decode()
    assert res.returncode == 0, err
    assert "matplotlib" not in err.lower() and "mkdir" not in err, err


@pytest.mark.empirical
def test_unwritable_cache_names_the_variable(tmp_path):
    env = {**_env(), "LENGTHX_CACHE": "/proc/no-cache"}
    res = _subprocess([sys.executable, "-m", *shlex.split(COLLECT), "--json"], env, tmp_path)
    err = res.stderr.decode()
    assert res.returncode == 2 and res.stdout == b"", err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "$LENGTHX_CACHE" in lines[0], err


@pytest.mark.parametrize(
    "script", ["capture.py", "trf.py", "bench_tiny_lm.py", "bench_gaussian_softmax.py"]
)
def test_benchmark_script_path(script, tmp_path):
    """``python benchmarks/NAME.py --help`` from anywhere: no ModuleNotFoundError."""
    env = {k: v for k, v in _env().items() if k != "PYTHONPATH"}
    if script in ("capture.py", "bench_tiny_lm.py") and not HAS_TORCH:
        pytest.skip("needs torch")
    res = _subprocess([sys.executable, str(ROOT / "benchmarks" / script), "--help"], env, tmp_path)
    err = res.stderr.decode()
    assert res.returncode == 0 and "Traceback" not in err, err
    assert res.stdout.decode().startswith("usage:")


def test_marker_is_hidden_and_small(tmp_path, monkeypatch):
    """The marker names the command; nothing else is added to the folder."""
    monkeypatch.chdir(tmp_path)
    code, _, err = call_module("figures", ["rpe-fig5", "--quick", "--out", "o"])
    assert code == 0, err
    names = sorted(p.name for p in (tmp_path / "o").iterdir())
    assert OUTPUT_MARKER in names and all(
        n == OUTPUT_MARKER or n.startswith("rpe-fig5") for n in names
    ), names
    assert os.path.getsize(tmp_path / "o" / OUTPUT_MARKER) < 200
