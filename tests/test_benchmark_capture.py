"""``python -m benchmarks.capture`` runs end to end at a tiny length and prints one JSON
object whose rows compare every capture variant with stock sdpa (its numbers are not judged
here: timings are for the benchmark itself, on a quiet machine); bad input is refused before
the run with one ``error:`` line, exit 2."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from theory.core.budget import HANG_FACTOR, cpu_limit

pytest.importorskip("torch")
pytest.importorskip("transformers")
ROOT = Path(__file__).resolve().parents[1]


def _run(*args):
    cmd = [sys.executable, "-m", "benchmarks.capture", *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                          preexec_fn=cpu_limit(300), timeout=300 * HANG_FACTOR)  # fmt: skip


def test_capture_benchmark_smoke(tmp_path):
    res = _run("--lengths", "64", "--repeats", "1", "--threads", "1", "--json")
    assert res.returncode == 0, res.stderr
    info = json.loads(res.stdout)
    got = {(r["model"], r["variant"]) for r in info["rows"]}
    variants = ("layer sdpa", "layer capture", "attn sdpa", "attn capture")
    want = {(m, v) for m in ("llama", "mistral", "t5") for v in variants}
    want |= {(m, "attn capture-ops") for m in ("llama", "mistral")}  # tiled: the ops beside
    assert got == want
    assert "ISA " in info["machine"]  # the CPU model and its vector ISA
    assert info["cpu_kernel"]  # "fused C++ pass", or why it was not used
    assert info["cpu_tile"]  # whole tiles in C++, or why not
    assert all(r["wall_ratio"] is None or r["wall_ratio"] > 0 for r in info["rows"])
    assert all(r["block_MiB"] > 0 for r in info["rows"])
    assert info["threads"] == 1 and len(info["load_average_before"]) == 3
    out = tmp_path / "capture.json"
    res = _run(
        "--lengths", "32", "--repeats", "1", "--models", "llama", "--busy", "1", "--json", str(out)
    )
    assert res.returncode == 0, res.stderr
    info = json.loads(out.read_text())
    assert {r["L"] for r in info["rows"]} == {32} and info["busy_processes"] == 1


@pytest.mark.parametrize(
    "args",
    [
        ("--lengths", "0"),
        ("--lengths", "64", "-8"),
        ("--repeats", "0"),
        ("--threads", "-1"),
        ("--models", "gpt"),
        ("--json", "/nonexistent-folder/capture.json"),
    ],
)
def test_capture_benchmark_refuses_bad_input_before_running(args):
    res = _run(*args)
    assert res.returncode == 2
    assert res.stdout == ""  # nothing was measured
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), res.stderr


def test_capture_benchmark_help_names_every_default():
    res = _run("--help")
    assert res.returncode == 0
    text = " ".join(res.stdout.split())
    for opt in (
        "--lengths",
        "--gpu-lengths",
        "--models",
        "--repeats",
        "--threads",
        "--json",
        "--busy",
    ):
        assert opt in text
    assert text.count("(default:") == 7
