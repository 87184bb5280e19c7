"""``benchmarks/capture.py`` runs end to end at a tiny length and prints one JSON object
whose rows compare every capture variant with stock sdpa (its numbers are not judged
here: timings are for the benchmark itself, on a quiet machine)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from theory.core.budget import HANG_FACTOR, cpu_limit

pytest.importorskip("torch")
pytest.importorskip("transformers")
ROOT = Path(__file__).resolve().parents[1]


def test_capture_benchmark_smoke():
    cmd = [sys.executable, "benchmarks/capture.py", "--lengths", "64", "--repeats", "1"]
    res = subprocess.run(cmd + ["--threads", "1", "--json"], cwd=ROOT, capture_output=True,
                         text=True, preexec_fn=cpu_limit(300), timeout=300 * HANG_FACTOR)  # fmt: skip
    assert res.returncode == 0, res.stderr
    info = json.loads(res.stdout)
    got = {(r["model"], r["variant"]) for r in info["rows"]}
    variants = ("layer sdpa", "layer capture", "attn sdpa", "attn capture")
    assert got == {(m, v) for m in ("llama", "mistral", "t5") for v in variants}
    assert all(r["wall_ratio"] > 0 and r["block_MiB"] > 0 for r in info["rows"])
