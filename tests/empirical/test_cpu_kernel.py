"""The fused CPU pass of the tiled causal path (empirical.capture.cpu_kernel)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

import empirical.capture.cpu_kernel as ck
from empirical.capture.attention_call import EXP2_FLOOR, TINY


@pytest.fixture
def kernel():
    """The pass; where a C++ compiler is on the PATH it must build and pass its check."""
    k = ck.chunk_kernel()
    if k is None:
        if shutil.which("g++") or shutil.which("c++"):
            pytest.fail(f"the fused CPU pass is not used: {ck.STATE['reason']}")
        pytest.skip(f"the fused CPU pass is not built here: {ck.STATE['reason']}")
    return k


@pytest.mark.parametrize("cols", [1, 15, 16, 17, 300, 512])
def test_pass_equals_float64_reference(kernel, cols):
    """Weights and row sums (max, Sigma, sum e j, sum e d) of a chunk with masked and
    underflowing entries and shifted rows against float64: ``2^d``, d = max(l - m, -126),
    0 where not above 1e-30
    (the reference is computed in float64 from the float32 logits); the weights within
    2 float32 ulp, the sums within 1e-6 relative (float32 accumulation of <= 512 terms)."""
    g = torch.Generator().manual_seed(cols)
    s = torch.randn(2, 3, cols, generator=g) * 12
    s[0, 0, cols // 2 :] = -1e30  # masked keys
    s[1, 2, :] = -110.0 + torch.randn(cols, generator=g)  # weights below 1e-30: set to 0
    s[1, 1, ::3] = -99.0  # 2^-99 > 1e-30: kept
    m = torch.zeros(2, 5)
    m[1, :3] = torch.tensor([3.0, -20.5, 7.25])  # shifts of the second head's rows
    e, out = torch.empty_like(s), torch.empty(4, 2, 3)
    ck.run_chunk(kernel, s, e, out, m[:, :3], 40, False)
    # l - m rounded to float32 as the tensor operations' ``s.sub_(m)`` (the pass's input
    # error), the rest in float64
    ld = (s - m[:, :3, None]).double().clamp(min=EXP2_FLOOR)
    ed = torch.exp2(ld)
    ed = torch.where(ed > TINY, ed, 0.0)
    j = torch.arange(40, 40 + cols, dtype=torch.float64)
    want = torch.stack([s.double().amax(-1), ed.sum(-1), ed @ j, (ed * ld).sum(-1)])
    np.testing.assert_allclose(e.double(), ed, rtol=2 * 2**-23, atol=0)
    assert torch.equal(e == 0, ed == 0)
    np.testing.assert_allclose(out.double(), want, rtol=1e-6, atol=1e-30)
    before = out.clone()  # the same chunk added: the sums double, the max stays
    ck.run_chunk(kernel, s, e, out, m[:, :3], 40, True)
    np.testing.assert_array_equal(out[0], before[0])
    np.testing.assert_array_equal(out[1:], 2 * before[1:])


@pytest.mark.parametrize("bounded", [False, True])
@pytest.mark.parametrize("window", [None, 1, 5, 200])
@pytest.mark.parametrize("i0", [0, 37, 250, 600])
def test_pass_masks_causal_and_window(kernel, i0, window, bounded):
    """Rows at query positions i0.. over keys 40..339: weights 0 at every key right of
    the row and (with a window w) w or more keys left of it, the max and sums over the
    visible keys only (-inf and 0 for a row that sees none; added: unchanged), against
    float64 with the masked entries dropped; the logits at masked keys are large, so a
    leak shows in every sum.  Unshifted visible logits below 43 in size: the same with
    ``bounded`` (no floor, no threshold)."""
    g = torch.Generator().manual_seed(i0 + (window or 0))
    rows, cols, j0 = 23, 300, 40
    s = torch.randn(2, rows, cols, generator=g) * 8
    i = torch.arange(i0, i0 + rows)[:, None]
    j = torch.arange(j0, j0 + cols)[None, :]
    ok = (j <= i) & ((j > i - window) if window else True)
    s = torch.where(ok, s, 50.0)  # a masked key that leaked would dominate every sum
    m = torch.zeros(2, rows)
    e, out = torch.empty_like(s), torch.empty(4, 2, rows)
    ck.run_chunk(kernel, s, e, out, m, j0, False, i0, window, bounded)
    ed = torch.where(ok, torch.exp2(s.double()), 0.0)
    jd = j[0].double()
    top = s.double().masked_fill(~ok, float("-inf")).amax(-1)
    want = torch.stack([top, ed.sum(-1), ed @ jd, (ed * s.double()).sum(-1)])
    assert torch.equal(e == 0, ~ok.expand_as(e))
    np.testing.assert_allclose(e.double(), ed, rtol=2 * 2**-23, atol=0)
    np.testing.assert_allclose(out.double(), want, rtol=1e-6, atol=1e-30)
    before = out.clone()
    ck.run_chunk(kernel, s, e, out, m, j0, True, i0, window, bounded)
    np.testing.assert_array_equal(out[0], before[0])
    np.testing.assert_array_equal(out[1:], 2 * before[1:])


def test_weights_within_one_ulp_of_exp2(kernel):
    """The pass's 2^d (a polynomial in the registers) on every 7th float32 multiple of
    2^-16 in [-126, 44] (the range of d in the capture) within 1 float32 ulp of float64
    2^d (SLEEF's exp2, torch.exp2's, is within 1 ulp too)."""
    d = torch.arange(-126 * 2**16, 44 * 2**16, 7, dtype=torch.float64).div(2**16).float()
    d = d[: d.numel() // 512 * 512].view(1, -1, 512)
    e, out = torch.empty_like(d), torch.empty(4, 1, d.shape[1])
    ck.run_chunk(kernel, d, e, out, torch.zeros(1, d.shape[1]), 0, False)
    want = torch.exp2(d.double())
    ulp = torch.exp2(torch.floor(torch.log2(want)) - 23)
    keep = want > TINY  # the rest are 0 by design
    assert torch.equal(e == 0, ~keep)
    assert float(((e.double() - want).abs() / ulp)[keep].max()) <= 1.0


def test_build_failure_falls_back_and_says_why(monkeypatch, tmp_path):
    """Without a working compiler the pass is None, the reason is kept, and the capture
    gives the tensor operations' result bit for bit."""
    from empirical.capture.attention import attend
    from empirical.capture.state import CaptureConfig, CaptureSession
    from empirical.capture.stats import AttentionStats

    def broken():
        raise OSError("no C++ compiler\nsecond line")

    monkeypatch.setenv("LENGTHX_CPU_KERNEL_CACHE", str(tmp_path))  # no library recorded
    monkeypatch.setattr(ck, "STATE", {"kernel": None, "tried": False, "reason": None})
    monkeypatch.setattr(ck, "_build", broken)
    assert ck.chunk_kernel() is None
    assert ck.STATE["reason"] == "not built: OSError: no C++ compiler"
    g = torch.Generator().manual_seed(0)
    q, k, v = (torch.randn(1, 2, 90, 8, generator=g) for _ in range(3))
    outs = [
        attend(
            CaptureSession(CaptureConfig(stats=AttentionStats(), cpu_kernel=flag)),
            "x",
            q,
            k,
            v,
            causal=True,
        )  # fmt: skip
        for flag in (True, False)
    ]
    assert torch.equal(*outs)


NO_COMPILER = """
import torch
from empirical.capture import cpu_kernel as ck
from empirical.capture.attention import attend
from empirical.capture.state import CaptureConfig, CaptureSession
from empirical.capture.stats import AttentionStats
assert ck.chunk_kernel() is None, "built"
print(ck.STATE["reason"])
q, k, v = (torch.randn(1, 2, 300, 16, generator=torch.Generator().manual_seed(s)) for s in (0, 1, 2))
s = CaptureSession(CaptureConfig(stats=AttentionStats()))
out = attend(s, "x", q, k, v, causal=True)
ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True)
assert float((out - ref).abs().max()) < 1e-5
p = torch.softmax((q @ k.transpose(-1, -2) / 4).masked_fill(torch.ones(300, 300).triu(1).bool(), -1e30), -1)
got = s.stats.layers["x"].pmax_sum / 300
assert abs(got - p.amax(-1).mean((0, 2)).numpy()).max() < 1e-6
"""


def test_no_compiler_on_the_path_falls_back(tmp_path):
    """A process whose PATH holds no C++ compiler (and empty library and inductor caches)
    gets no pass, says why, and its capture (the tensor operations) equals sdpa's output
    and the softmax's P_max."""
    bindir = Path(sys.executable).parent
    if any((bindir / cc).exists() for cc in ("g++", "c++", "clang++")):
        pytest.skip("a compiler sits beside the interpreter")
    env = {k: v for k, v in os.environ.items() if k not in ("CXX", "CC")}
    env |= {
        "PATH": str(bindir),
        "LENGTHX_CPU_KERNEL_CACHE": str(tmp_path / "lengthx"),
        "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / "inductor"),
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
    }
    run = subprocess.run(
        [sys.executable, "-c", NO_COMPILER], env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith("not built: ")


def test_check_refuses_a_wrong_pass(monkeypatch, tmp_path):
    """A pass whose weights or sums differ from the tensor operations is not used."""
    monkeypatch.setenv("LENGTHX_CPU_KERNEL_CACHE", str(tmp_path))  # no library recorded
    monkeypatch.setattr(ck, "STATE", {"kernel": None, "tried": False, "reason": None})

    def off_by_one(s, e, out, m, rows, cols, j0, add, nr, mstride, i0, window, bounded):
        e_, sums = ck.reference(s, j0, m, i0, window or None)
        e.copy_(e_)
        sums[2] += sums[1]  # sum e (j + 1): positions shifted by one
        out.copy_(sums)

    monkeypatch.setattr(ck, "_build", lambda: off_by_one)
    assert ck.chunk_kernel() is None
    assert ck.STATE["reason"] == "its row sums differ from the float64 reference"


def test_turned_off_by_the_environment(monkeypatch):
    monkeypatch.setattr(ck, "STATE", {"kernel": None, "tried": False, "reason": None})
    monkeypatch.setenv("LENGTHX_CPU_KERNEL", "0")
    assert ck.chunk_kernel() is None
    assert "LENGTHX_CPU_KERNEL=0" in ck.STATE["reason"]


def test_later_process_loads_the_recorded_library(kernel, monkeypatch, tmp_path):
    """The library's path is recorded once built; a later process (the state cleared)
    loads it without building, and a stale record (the file gone) builds again."""
    monkeypatch.setenv("LENGTHX_CPU_KERNEL_CACHE", str(tmp_path))
    fresh = {"kernel": None, "tried": False, "reason": None}
    monkeypatch.setattr(ck, "STATE", dict(fresh))
    assert ck.chunk_kernel() is not None  # built (inductor's disk cache) and recorded
    (path,) = json.loads((tmp_path / "cpu_kernel.json").read_text()).values()
    built = ck._build

    def no_build():
        raise OSError("no C++ compiler")

    monkeypatch.setattr(ck, "_build", no_build)
    monkeypatch.setattr(ck, "STATE", dict(fresh))
    assert ck.chunk_kernel() is not None and ck.STATE["reason"] is None  # loaded
    (tmp_path / "cpu_kernel.json").write_text(json.dumps({ck._key(ck._source()): path + ".x"}))
    monkeypatch.setattr(ck, "STATE", dict(fresh))
    assert ck.chunk_kernel() is None  # stale: built again, which fails here
    monkeypatch.setattr(ck, "_build", built)
    monkeypatch.setattr(ck, "STATE", dict(fresh))
    assert ck.chunk_kernel() is not None


@pytest.mark.parametrize("window", [None, 37])
def test_tile_equals_the_pass_with_torch_products(kernel, monkeypatch, window):
    """The whole-tile call (both products through sgemm) where it builds: the capture's
    output and statistics equal those of the pass with ``torch.bmm`` products (the tile
    turned off) to float32 rounding, on ragged tiles and chunks, causal and windowed."""
    import empirical.capture.tiled_causal as tc
    from empirical.capture.attention import attend
    from empirical.capture.state import CaptureConfig, CaptureSession
    from empirical.capture.stats import AttentionStats

    tile = ck.tile_kernel()
    if tile is None:  # a tile that builds and fails its check is an error
        assert not ck.TILE_STATE["reason"].startswith("its"), ck.TILE_STATE["reason"]
        pytest.skip(f"no whole-tile call here: {ck.TILE_STATE['reason']}")
    g = torch.Generator().manual_seed(3)
    q, k, v = (torch.randn(2, 3, 300, 16, generator=g) for _ in range(3))
    i, j = torch.arange(300)[:, None], torch.arange(300)[None, :]
    mask = None if window is None else ((j <= i) & (j > i - window))[None, None]
    runs, calls = [], []
    real = ck.run_tile
    monkeypatch.setattr(tc, "run_tile", lambda *a: calls.append(1) or real(*a))
    for on in (True, False):
        monkeypatch.setitem(ck.TILE_STATE, "kernel", tile if on else None)
        cfg = CaptureConfig(stats=AttentionStats(), block_size=96, key_chunk=40)
        session = CaptureSession(cfg)
        out = attend(session, "x", q, k, v, mask, causal=window is None, window=window)
        ls = session.stats.layers["x"]
        runs.append((out, ls.pmax_sum / ls.rows, ls.ent_sum / ls.rows, ls.mean_distance()))
    assert calls  # the tile ran (first pass only)
    np.testing.assert_allclose(runs[0][0], runs[1][0], rtol=0, atol=1e-6)
    for a, b in zip(runs[0][1:], runs[1][1:], strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-7)


def test_tile_turned_off_by_the_environment(monkeypatch):
    monkeypatch.setattr(ck, "TILE_STATE", {"kernel": None, "tried": False, "reason": None})
    monkeypatch.setenv("LENGTHX_CPU_TILE", "0")
    assert ck.tile_kernel() is None
    assert ck.TILE_STATE["reason"] is not None
