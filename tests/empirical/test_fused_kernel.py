"""The fused Triton attention kernel against a float64 softmax.

Without a GPU the kernel runs in Triton's CPU interpreter (``TRITON_INTERPRET=1``, set here
before the kernel module is imported); with one, the tests run the compiled kernel on it
(that branch has not been run where this file was written).  The reference materialises
every logit in float64 and computes the statistics from the probabilities themselves (max,
-sum p log p, sum p |i-j|), so both the kernel's running sums and the formulas
P_max = 1/S, H = log S - E/S, distance = D/S are checked.  Speed is not measured here.
"""

import json
import math
import os
import subprocess
import sys
import zlib
from pathlib import Path
from typing import NamedTuple

import pytest

torch = pytest.importorskip("torch")
ON_GPU = torch.cuda.is_available()
# Triton decorates its own helpers (tl.max, tl.cdiv, ...) when it is first imported, so the
# interpreter works only if TRITON_INTERPRET was set before that: otherwise this file is run
# again in a fresh process (test_in_a_fresh_process) and its other tests skip here.
TOO_LATE = not ON_GPU and "triton" in sys.modules and os.environ.get("TRITON_INTERPRET") != "1"
if not ON_GPU:
    os.environ["TRITON_INTERPRET"] = "1"
pytest.importorskip("triton")
DEVICE = "cuda" if ON_GPU else "cpu"
here = pytest.mark.skipif(TOO_LATE, reason="triton was imported without the interpreter")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import empirical.capture.fused_kernel as fk  # noqa: E402
from theory.core.budget import HANG_FACTOR, cpu_limit  # noqa: E402

pytestmark = pytest.mark.empirical
torch.set_num_threads(1)

# Declared tolerances.  Float32: max abs error 1e-5 for out, P_max and entropy, relative
# (to max(1, |ref|)) for mean distance and m.  With dyadic inputs the float32 logits are
# exact, so this holds at any logit size (the peaked cases reach |l| ~ 200).  With randn
# inputs the float32 rounding of q.k itself grows with |l| (a float32 materialised softmax
# errs as much), so there the tolerance is 1e-5 * max(1, max|l| / 64).
# 16-bit: q, k, v are rounded to the dtype and the reference is computed from the rounded
# values, so the statistics keep the float32 tolerance; out also carries p rounded to the
# dtype before P V and its own final rounding, declared elementwise as
# |out - ref| <= u (1 + u) sum_j p_ij |v_j| + u |ref_i| + 1e-5, u the largest relative error
# of one conversion to the dtype: float16 rounds to nearest (2^-11); Triton 3.9's interpreter
# converts float32 to bfloat16 by truncation (2^-7; a GPU rounds to nearest, 2^-8).
F32_TOL, F32_LOGIT_SCALE = 1e-5, 64.0
UNIT_ROUNDOFF = {torch.bfloat16: 2.0**-7, torch.float16: 2.0**-11}


class Case(NamedTuple):
    name: str
    n: int
    lq: int
    lk: int
    d: int
    dv: int
    scale: float
    causal: bool = False
    window: int | None = None
    softcap: float | None = None
    tau: float = 1.0
    dtype: torch.dtype = torch.float32
    tiles: tuple | None = (16, 16)  # None: the public entry point with default tiles
    inputs: str = "randn"  # or "dyadic" (exact float32 logits), "rising" (dyadic, l_ij rising in j)


BF16, F16 = torch.bfloat16, torch.float16
CASES = [
    Case("bidirectional", 2, 17, 17, 16, 16, 0.25),
    Case("bidirectional-public-tiles", 2, 100, 100, 40, 24, 0.158),
    Case("causal-ragged", 1, 100, 100, 64, 64, 0.125, causal=True),
    Case("causal-public-tiles", 3, 100, 100, 40, 40, 0.158, causal=True, tiles=None),
    Case("length-1", 1, 1, 1, 16, 16, 0.25, causal=True),
    Case("one-query-many-keys", 2, 1, 100, 16, 16, 0.25),
    Case("lq<lk-causal-top-left", 1, 17, 100, 16, 16, 0.25, causal=True),
    Case("lq>lk-causal", 1, 100, 17, 16, 16, 0.25, causal=True),
    Case("window-1", 1, 40, 40, 16, 16, 0.25, causal=True, window=1),
    Case("window-5-d40", 2, 100, 100, 40, 40, 0.158, causal=True, window=5),
    Case("window-16-block-edge", 1, 100, 100, 16, 16, 0.25, causal=True, window=16),
    Case("window-17", 1, 100, 100, 16, 16, 0.25, causal=True, window=17),
    Case("window-40-interior-blocks", 1, 100, 100, 16, 16, 0.25, causal=True, window=40),
    Case("window-40-bidirectional", 1, 100, 100, 16, 16, 0.25, window=40),
    Case("window>=L", 1, 100, 100, 16, 16, 0.25, causal=True, window=200),
    Case("window=L", 1, 100, 100, 16, 16, 0.25, causal=True, window=100),
    Case("window-one-sided-bidirectional", 1, 50, 50, 16, 16, 0.25, window=7),
    Case("window-empty-rows-causal", 1, 60, 17, 16, 16, 0.25, causal=True, window=5),
    Case("window-empty-rows-bidirectional", 1, 60, 17, 16, 16, 0.25, window=5),
    Case("window-empty-rows-public", 2, 100, 17, 16, 16, 0.25, causal=True, window=3, tiles=None),
    Case("tiles-32x16-window", 1, 100, 100, 16, 16, 0.25, causal=True, window=21, tiles=(32, 16)),
    Case("tiles-16x32-window", 1, 100, 100, 16, 16, 0.25, causal=True, window=21, tiles=(16, 32)),
    Case("softcap-saturated", 1, 100, 100, 64, 64, 1.0, causal=True, softcap=5.0),
    Case("softcap-series-branch", 1, 50, 50, 16, 16, 0.05, softcap=50.0),
    Case("softcap-window-tau", 2, 60, 60, 40, 24, 0.5, causal=True, window=9, softcap=3.0, tau=0.7),
    Case("tau-0.5", 1, 60, 60, 16, 16, 0.25, causal=True, tau=0.5),
    Case("tau-3", 1, 60, 60, 16, 16, 0.25, tau=3.0),
    Case("dv>d", 1, 50, 50, 16, 40, 0.25, causal=True),
    Case("dv<d", 1, 50, 50, 64, 16, 0.125),
    Case("peaked-randn", 1, 100, 100, 16, 16, 8.0, causal=True),
    Case("peaked", 2, 100, 100, 16, 16, 32.0, causal=True, inputs="dyadic"),
    Case("peaked-bidirectional", 1, 100, 100, 64, 64, 16.0, inputs="dyadic"),
    Case("rising-logits", 1, 100, 100, 16, 16, 1.0, causal=True, inputs="rising"),
    Case("rising-logits-peaked", 1, 100, 100, 16, 16, 32.0, inputs="rising"),
    Case("bf16-causal", 2, 100, 100, 64, 64, 0.125, causal=True, dtype=BF16),
    Case(
        "bf16-window-softcap",
        1,
        100,
        100,
        40,
        24,
        0.5,
        causal=True,
        window=9,
        softcap=5.0,
        tau=0.8,
        dtype=BF16,
    ),  # fmt: skip
    Case("bf16-public-bidirectional", 2, 100, 37, 64, 64, 0.125, dtype=BF16, tiles=None),
    Case("bf16-empty-rows", 1, 60, 17, 16, 16, 0.25, causal=True, window=5, dtype=BF16),
    Case("f16-causal", 1, 100, 100, 64, 64, 0.125, causal=True, dtype=F16),
    Case("no-keys", 2, 5, 0, 16, 16, 0.25, causal=True),
    Case("no-queries", 2, 0, 5, 16, 16, 0.25),
]


def make_inputs(c: Case, seed: int):
    """randn, or dyadic q, k (multiples of 1/4 in [-1, 1]) whose logits are exact in float32
    when the scale is a power of two: errors then come from the kernel, not the inputs."""
    g = torch.Generator().manual_seed(seed)
    if c.inputs == "randn":
        q = torch.randn(c.n, c.lq, c.d, generator=g)
        k = torch.randn(c.n, c.lk, c.d, generator=g)
    else:
        q = torch.randint(-4, 5, (c.n, c.lq, c.d), generator=g) / 4.0
        k = torch.randint(-4, 5, (c.n, c.lk, c.d), generator=g) / 4.0
    if c.inputs == "rising":  # q_i . k_j = j/16 + O(1/4): the row maximum keeps moving right
        q[..., 0], k[..., 0] = 1.0, torch.arange(c.lk) / 16.0
        q[..., 1:] /= 8.0
    v = torch.randn(c.n, c.lk, c.dv, generator=g)
    return (x.to(DEVICE, c.dtype) for x in (q, k, v))


def reference(q, k, v, c: Case) -> dict:
    """Float64 softmax over the materialised logits, the mask written out in full."""
    q, k, v = (x.cpu().double() for x in (q, k, v))
    x = c.scale * q @ k.transpose(1, 2)
    if c.softcap is not None:
        x = c.softcap * torch.tanh(x / c.softcap)
    i, j = torch.arange(c.lq)[:, None], torch.arange(c.lk)[None, :]
    ok = torch.ones(c.lq, c.lk, dtype=torch.bool)
    if c.causal:
        ok &= j <= i
    if c.window is not None:
        ok &= i - j < c.window
    l = (x / c.tau).masked_fill(~ok, -math.inf)
    p = torch.softmax(l, -1).nan_to_num(0.0)  # empty rows: all -inf -> nan -> 0
    plogp = torch.where(p > 0, p * p.log(), 0.0)
    pad = lambda x, value: torch.nn.functional.pad(x, (0, 1), value=value)  # noqa: E731
    return dict(  # (maxima over a padded column / a zero: defined when Lq or Lk is 0)
        out=p @ v,
        pmax=pad(p, 0.0).amax(-1),
        entropy=-plogp.sum(-1),
        distance=(p * (i - j).abs()).sum(-1),
        m=pad(l, -math.inf).amax(-1),
        empty=~ok.any(-1),
        p_abs_v=p @ v.abs(),
        max_logit=torch.cat([l.masked_fill(~ok, 0.0).abs().flatten(), torch.zeros(1)]).max().item(),
    )


def run_kernel(q, k, v, c: Case):
    kw = dict(scale=c.scale, causal=c.causal, window=c.window, softcap=c.softcap, tau=c.tau)
    if c.tiles is None:
        return fk.fused_attention_stats(q, k, v, **kw)
    return fk.fused_attention_stats_tiled(q, k, v, fk.LogitSpec(**kw), fk.KernelTiles(*c.tiles))


def errors(out, rows, ref) -> dict:
    """Max errors of out and of each derived statistic over the rows with visible keys."""
    live = ~ref["empty"].expand_as(rows[0])
    s, dsum, esum, m = (r.double()[live] for r in rows)
    rel = lambda a, b: ((a - b).abs() / b.abs().clamp(min=1)).max().item()  # noqa: E731
    return dict(
        out=(out.double() - ref["out"]).abs().max().item(),
        pmax=(1 / s - ref["pmax"][live]).abs().max().item(),
        entropy=(s.log() - esum / s - ref["entropy"][live]).abs().max().item(),
        distance=rel(dsum / s, ref["distance"][live]),
        m=rel(m, ref["m"][live]),
    )


def check(c: Case, seed: int) -> dict:
    """Run one case; assert shapes, empty rows and the declared tolerances; return errors."""
    q, k, v = make_inputs(c, seed)
    out, rows = (x.cpu() for x in run_kernel(q, k, v, c))
    assert out.shape == (c.n, c.lq, c.dv) and out.dtype == c.dtype
    assert rows.shape == (4, c.n, c.lq) and rows.dtype == torch.float32
    ref = reference(q, k, v, c)
    empty = ref["empty"].expand_as(rows[0])
    assert torch.all(rows[0][empty] == 0) and torch.all(rows[3][empty] == -math.inf)
    assert torch.all(out[empty] == 0) and torch.all(rows[:3][:, empty] == 0)
    if bool(empty.all()):
        return {}
    err = errors(out, rows, ref)
    tol = F32_TOL
    if c.inputs == "randn":
        tol *= max(1.0, ref["max_logit"] / F32_LOGIT_SCALE)
    for key, e in err.items():
        assert key == "out" and c.dtype != torch.float32 or e <= tol, (c.name, key, e, tol)
    if c.dtype != torch.float32:
        u = UNIT_ROUNDOFF[c.dtype]
        bound = u * ref["p_abs_v"] * (1 + u) + u * ref["out"].abs() + 1e-5
        assert bool(((out.double() - ref["out"]).abs() <= bound).all()), c.name
        err["out/bound"] = ((out.double() - ref["out"]).abs() / bound).max().item()
    return err


@here
@pytest.mark.parametrize("c", CASES, ids=[c.name for c in CASES])
def test_kernel_matches_float64_softmax(c: Case) -> None:
    check(c, seed=zlib.crc32(c.name.encode()))  # a case's inputs do not move with the table


def test_table_has_empty_rows() -> None:
    """The empty-row cases really produce rows without a visible key (else they test less)."""
    for c in CASES:
        if "empty-rows" in c.name:
            assert bool(reference(*make_inputs(c, 0), c)["empty"].any()), c.name


@here
def test_slices_beyond_the_grid_cap_are_launched_in_chunks(monkeypatch) -> None:
    """N larger than the grid's y cap (65535 on CUDA; 2 here) runs in several launches."""
    c = Case("chunks", 5, 20, 20, 16, 16, 0.25, causal=True, window=4)
    q, k, v = make_inputs(c, 0)
    whole = run_kernel(q, k, v, c)
    monkeypatch.setattr(fk, "CUDA_MAX_GRID_Y", 2)
    chunked = run_kernel(q, k, v, c)
    assert torch.equal(whole[0], chunked[0]) and torch.equal(whole[1], chunked[1])
    check(c, 0)


@here
@pytest.mark.filterwarnings("ignore:All-NaN slice")  # the other query blocks do read NaN
@pytest.mark.parametrize(
    "causal, window, poisoned",
    [
        (True, None, slice(16, None)),  # key blocks right of the diagonal block
        (True, 5, slice(0, 32)),  # rows 48..63 with window 5 see keys >= 44: blocks 0, 1 unused
        (False, 5, slice(0, 32)),
    ],
)
def test_fully_masked_key_blocks_are_not_read(causal: bool, window, poisoned: slice) -> None:
    """NaN in key blocks that no row of a query block can see leaves those rows exact."""
    c = Case("poison", 1, 64, 64, 16, 16, 0.25, causal=causal, window=window)
    q, k, v = make_inputs(c, 0)
    rows_checked = slice(0, 16) if causal and window is None else slice(48, 64)
    kp, vp = k.clone(), v.clone()
    kp[:, poisoned], vp[:, poisoned] = math.nan, math.nan
    out, rows = run_kernel(q, kp, vp, c)
    ref_out, ref_rows = run_kernel(q, k, v, c)
    assert torch.equal(out[:, rows_checked], ref_out[:, rows_checked])
    assert torch.equal(rows[:, :, rows_checked], ref_rows[:, :, rows_checked])


@here
@settings(max_examples=8, deadline=None, derandomize=True)
@given(
    lq=st.integers(1, 40),
    lk=st.integers(1, 40),
    causal=st.booleans(),
    window=st.none() | st.integers(1, 45),
    softcap=st.none() | st.floats(1.0, 20.0),
    tau=st.floats(0.3, 3.0),
    scale=st.floats(0.05, 5.0),
    seed=st.integers(0, 2**16),
)
def test_random_shapes_and_masks(lq, lk, causal, window, softcap, tau, scale, seed) -> None:
    c = Case("hypothesis", 2, lq, lk, 16, 24, scale, causal, window, softcap, tau)
    check(c, seed)


BAD = [  # (what is wrong, keyword overrides / tensor shapes)
    ("window 0", dict(window=0)),
    ("window bool", dict(window=True)),
    ("tau 0", dict(tau=0.0)),
    ("tau nan", dict(tau=math.nan)),
    ("softcap negative", dict(softcap=-1.0)),
    ("scale inf", dict(scale=math.inf)),
    ("head dims differ", dict(k_shape=(1, 8, 32))),
    ("key and value lengths differ", dict(v_shape=(1, 9, 16))),
    ("2-d input", dict(q_shape=(8, 16))),
]


@pytest.mark.parametrize("what, bad", BAD, ids=[b[0] for b in BAD])
def test_bad_input_raises_value_error(what: str, bad: dict) -> None:
    shapes = {key: bad.pop(key, (1, 8, 16)) for key in ("q_shape", "k_shape", "v_shape")}
    q, k, v = (torch.zeros(s, device=DEVICE) for s in shapes.values())
    kw = dict(scale=1.0) | bad
    with pytest.raises(ValueError):
        fk.fused_attention_stats(q, k, v, **kw)


def test_bad_dtype_and_layout_raise() -> None:
    x = torch.zeros(1, 8, 16)
    with pytest.raises(ValueError):
        fk.fused_attention_stats(x.double(), x.double(), x.double(), scale=1.0)
    with pytest.raises(ValueError):
        fk.fused_attention_stats(x, x.half(), x, scale=1.0)
    y = torch.zeros(1, 16, 8).transpose(1, 2)  # last dim strided
    with pytest.raises(ValueError):
        fk.fused_attention_stats(y, x, x, scale=1.0)
    with pytest.raises(ValueError):
        fk.KernelTiles(block_m=48)


COMPILE_SCRIPT = """
import json, sys, torch
from empirical.capture.fused_kernel import compile_kernel
out = []
for dtype, head_dim, flags in [(torch.bfloat16, 64, True), (torch.bfloat16, 128, True),
                               (torch.float16, 64, False), (torch.float32, 64, True)]:
    c = compile_kernel(dtype, head_dim, causal=flags, windowed=flags, softcap=flags, arch=90)
    out.append(dict(dtype=str(dtype), head_dim=head_dim, shared=c.metadata.shared,
                    wgmma="wgmma" in c.asm["ptx"], cubin=len(c.asm["cubin"])))
print(json.dumps(out))
"""


def test_kernel_compiles_for_sm90_without_a_gpu(tmp_path) -> None:
    """The real (not interpreted) kernel compiles to an H100 cubin; 16-bit inputs take the
    wgmma tensor-core path and every variant fits in the 227 KiB of shared memory per block."""
    pytest.importorskip("triton.backends.nvidia")
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env |= dict(TRITON_CACHE_DIR=str(tmp_path), TRITON_DEFAULT_FP_FUSION="1")
    root = Path(__file__).resolve().parents[2]
    res = subprocess.run([sys.executable, "-c", COMPILE_SCRIPT], cwd=root, env=env,
                         capture_output=True, text=True, preexec_fn=cpu_limit(300),
                         timeout=300 * HANG_FACTOR)  # fmt: skip
    assert res.returncode == 0, res.stderr[-2000:]
    for c in json.loads(res.stdout):
        assert c["cubin"] > 0 and c["shared"] <= 227 * 1024, c
        assert c["wgmma"] == (c["dtype"] != "torch.float32"), c


@pytest.mark.skipif(not TOO_LATE, reason="this process interprets the kernel itself")
def test_in_a_fresh_process() -> None:
    """Where triton was imported before this file could switch on the interpreter."""
    env = os.environ | {"TRITON_INTERPRET": "1"}
    args = [sys.executable, "-m", "pytest", __file__, "-q", "-p", "no:cacheprovider"]
    res = subprocess.run(args, cwd=Path(__file__).resolve().parents[2], env=env,
                         capture_output=True, text=True, preexec_fn=cpu_limit(600),
                         timeout=600 * HANG_FACTOR)  # fmt: skip
    assert res.returncode == 0, res.stdout[-3000:]
