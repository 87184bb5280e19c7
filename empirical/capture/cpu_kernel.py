r"""An optional fused CPU pass over a chunk of the tiled causal path's logits.

For a chunk of logits ``s`` in bits (rows x keys, contiguous; keys ``j0 .. j0 + keys - 1``;
row r of each head at query position :math:`i = i_0 + r`) and a shift :math:`m_i` per row,
one pass writes the weights :math:`e_{ij} = 2^{d_{ij}}`,
:math:`d_{ij} = \max(l_{ij} - m_i, F)`, set to 0 where not above
:data:`~empirical.capture.attention_call.TINY` (:math:`F` =
:data:`~empirical.capture.attention_call.EXP2_FLOOR`) and at every key the row does not
see (causal: :math:`j > i`; with a sliding window :math:`w` also :math:`j \le i - w`), and
per row, over the keys it sees, the four sums that
:func:`~empirical.capture.tiled_causal._add_chunk_sums` and the row maximum get from separate
tensor operations: :math:`\max_j l_{ij}`, :math:`\Sigma_i = \sum_j e_{ij}`,
:math:`\sum_j e_{ij}\, j` and :math:`\sum_j e_{ij} d_{ij}` (the entropy's sum,
:math:`H_i = \ln \Sigma_i - \ln 2 \sum_j e_{ij} (l_{ij} - m_i) / \Sigma_i`).  The mask is
applied by the pass itself (no masked logits are written before it).

The weights are :math:`2^d = 2^n p(f)`, :math:`n = \mathrm{round}(d)`, :math:`f = d - n`,
with :data:`EXP2_POLY` a degree-6 polynomial fit of :math:`2^f` on :math:`[-1/2, 1/2]`
(relative error 1.9e-9 before rounding; within 1 float32 ulp of :math:`2^d` in float64
after it, as SLEEF's ``exp2`` of ``torch.exp2``, which is 1 ulp), evaluated inline in the
vector registers (SLEEF's is a function call per vector: the pass took twice as long with
it).  The sums add in another order than the tensor operations (within float32 rounding).

The pass is C++ built at run time by PyTorch's inductor compiler cache (the compiler the
machine has, the vector ISA inductor detects, no extra package), once per machine: the
library is cached on disk, its path kept in ``~/.cache/lengthx/cpu_kernel.json`` (keyed by
the source, torch's version and CPU kernels), and later processes load it from there
directly, without importing inductor.  :func:`chunk_kernel`
builds and checks it once per process against a float64 reference; where there is no
working compiler, or the check fails, it returns None, the reason is kept in
:data:`STATE` (``reason``), and the capture runs the tensor operations instead.
``LENGTHX_CPU_KERNEL=0`` turns the pass off.

:func:`tile_kernel` builds a second library around the pass: a whole causal tile, head by
head and chunk by chunk, the product with K, the pass and the product with V, the
products through MKL's ``sgemm_`` that PyTorch's x86 builds link into ``libtorch_cpu``
(the products no longer pass through torch's dispatch, and one head's chunk stays in
the core's cache); for unshifted calls with bounded logits and no softcapping only.  It
is checked against float64 once per process; where it does not build or load (a
PyTorch without that symbol) or fails the check, the tiles take ``torch.bmm``
(``LENGTHX_CPU_TILE=0`` turns it off).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import pathlib
import platform
import sys
import threading
from collections.abc import Callable

import torch

from empirical.capture.attention_call import EXP2_FLOOR, TINY

#: p(f) = sum_k c_k f^k ~ 2^f on [-1/2, 1/2], c_0 = 1: a weighted least-squares fit of the
#: relative error, reweighted to its minimax (Lawson's iteration, 200 steps on 4000
#: Chebyshev nodes, float64); max relative error 1.86e-9 on a grid of 200001 points
#: (tests/empirical/test_cpu_kernel.py checks the pass against float64 ``2^d``)
EXP2_POLY = (
    1.0,
    0.6931472057372609,
    0.24022646890619462,
    0.05550328776976866,
    0.009618488958699914,
    0.0013399931215315895,
    0.00015345811572498258,
)

SOURCE = r"""
#include <torch/csrc/inductor/cpp_prefix.h>
#include <functional>
#include <limits>

using V = at::vec::Vectorized<float>;
using VI = at::vec::Vectorized<int32_t>;

// 2^x for FLOOR_BITS <= x <= 127: 2^n p(f), n = round(x), f = x - n in [-1/2, 1/2], p the
// degree-6 fit of 2^f (EXP2_POLY; relative error 1.9e-9 on [-1/2, 1/2]) by Horner's rule;
// x >= -126 keeps 2^n and the result normal floats (no subnormal operand or result); the
// capture's d never exceed 44 (its shift moves before they would)
static inline V exp2_poly(V x) {
    const V n = x.round();
    const V f = x - n;
    V p = at::vec::fmadd(f, V(EXP2_C6), V(EXP2_C5));
    p = at::vec::fmadd(p, f, V(EXP2_C4));
    p = at::vec::fmadd(p, f, V(EXP2_C3));
    p = at::vec::fmadd(p, f, V(EXP2_C2));
    p = at::vec::fmadd(p, f, V(EXP2_C1));
    p = at::vec::fmadd(p, f, V(1.0f));
    const VI b = (at::vec::convert_to_int_of_same_size(n) + VI(127)) << VI(23);
    return p * at::vec::cast<float>(b);
}

// one row's visible columns c0 .. c1 - 1 of s into e, and their max l, sum e, sum e j,
// sum e d into t; BOUNDED: the shift is 0 and every d = l is above log2(TINY_WEIGHT) (no
// clamp, no threshold: the same weights)
template <bool BOUNDED>
static inline void row_pass(const float* sr, float* er, float m, int64_t c0, int64_t c1,
                            int64_t j0, float* t) {
    constexpr int64_t W = V::size();
    const V lo(FLOOR_BITS), tiny(TINY_WEIGHT), zero(0.0f), step(static_cast<float>(W));
    const V ninf(-std::numeric_limits<float>::infinity()), shift(m);
    const V lane = V::arange(0.0f, 1.0f);
    V mx = ninf, a0 = zero, a1 = zero, a2 = zero;
    V pos = lane + V(static_cast<float>(j0 + c0));
    int64_t c = c0;
    for (; c + W <= c1; c += W) {
        const V l = V::loadu(sr + c);
        const V d = BOUNDED ? l : at::vec::clamp_min(l - shift, lo);
        V x = exp2_poly(d);
        if (!BOUNDED) x = x & (x > tiny);
        x.store(er + c);
        mx = at::vec::clamp_min(mx, l);
        a0 = a0 + x;
        a1 = at::vec::fmadd(x, pos, a1);
        a2 = at::vec::fmadd(x, d, a2);
        pos = pos + step;
    }
    if (c < c1) {  // the last c1 - c < W visible columns
        const int64_t n = c1 - c;
        const V keep = lane < V(static_cast<float>(n));
        const V l = V::loadu(sr + c, n);
        const V d = at::vec::clamp_min(l - shift, lo);
        V x = exp2_poly(d);
        x = x & (x > tiny) & keep;
        x.store(er + c, n);
        mx = at::vec::clamp_min(mx, V::blendv(ninf, l, keep));
        a0 = a0 + x;
        a1 = at::vec::fmadd(x, pos, a1);
        a2 = at::vec::fmadd(x, d, a2);
    }
    t[0] = at::vec::vec_reduce_all<float>([](V& p, V& q) { return at::vec::clamp_min(p, q); }, mx);
    t[1] = at::vec::vec_reduce_all<float>([](V& p, V& q) { return p + q; }, a0);
    t[2] = at::vec::vec_reduce_all<float>([](V& p, V& q) { return p + q; }, a1);
    t[3] = at::vec::vec_reduce_all<float>([](V& p, V& q) { return p + q; }, a2);
}

// s, e: rows x cols (row stride cols; e may be s: each logit is read before its weight is
// written); out: 4 x rows (max l, sum e, sum e j, sum e d) over the visible keys,
// written (add == 0) or added to (add != 0; the max taken with the one there); row r
// (query position i = i0 + r % nr) sees key j = j0 + c where j <= i and, with window > 0,
// j > i - window; its shift is m[(r / nr) * mstride + r % nr]; d = max(l - shift, floor),
// e = 2^d where above TINY_WEIGHT, else 0 (and 0 at every key the row does not see);
// bounded != 0: the caller knows every shift is 0 and every visible logit above -99
extern "C" void kernel(const float* s, float* e, float* out, const float* m, int64_t rows,
                       int64_t cols, int64_t j0, int64_t add, int64_t nr, int64_t mstride,
                       int64_t i0, int64_t window, int64_t bounded) {
    for (int64_t r = 0; r < rows; ++r) {
        const float* sr = s + r * cols;
        float* er = e + r * cols;
        const int64_t i = i0 + r % nr;  // visible: columns c0 .. c1 - 1
        const int64_t c0 = std::min<int64_t>(cols, window > 0 ? std::max<int64_t>(0, i - window + 1 - j0) : 0);
        const int64_t c1 = std::max<int64_t>(c0, std::min<int64_t>(cols, i - j0 + 1));
        std::fill(er, er + c0, 0.0f);
        std::fill(er + c1, er + cols, 0.0f);
        float t[4];
        const float shift = m[(r / nr) * mstride + r % nr];
        if (bounded) row_pass<true>(sr, er, shift, c0, c1, j0, t);
        else row_pass<false>(sr, er, shift, c0, c1, j0, t);
        if (add) {
            out[r] = std::max(out[r], t[0]);
            out[rows + r] += t[1];
            out[2 * rows + r] += t[2];
            out[3 * rows + r] += t[3];
        } else {
            for (int k = 0; k < 4; ++k) out[k * rows + r] = t[k];
        }
    }
}
"""

#: why the fused pass is not used in this process (None: not decided yet, or it is used)
STATE: dict = {"kernel": None, "tried": False, "reason": None}
_LOCK = threading.Lock()


def _compile(src: str, entry: str, argtypes: list) -> Callable[..., None]:
    """The function ``entry`` of the C++ ``src`` compiled as a Python callable that drops
    the GIL while it runs (tile workers run it side by side)."""
    from torch._inductor.codecache import CppPythonBindingsCodeCache

    class _Unlocked(CppPythonBindingsCodeCache):
        cache: dict = {}
        call_entry_function = (
            f"auto call = std::bind({entry}, {{}}); Py_BEGIN_ALLOW_THREADS call(); "
            "Py_END_ALLOW_THREADS Py_RETURN_NONE;"
        )

    return _Unlocked.load_pybinding(argtypes, src, "cpu", needs_vec_isa=True)


def _build() -> Callable[..., None]:
    """The compiled pass (:func:`run_chunk`'s arguments)."""
    argtypes = ["const float*", "float*", "float*", "const float*"] + ["int64_t"] * 9
    return _compile(_source(), "kernel", argtypes)


def _source() -> str:
    src = SOURCE.replace("FLOOR_BITS", f"{EXP2_FLOOR!r}f").replace("TINY_WEIGHT", f"{TINY!r}f")
    for n, c in enumerate(EXP2_POLY[1:], 1):
        src = src.replace(f"EXP2_C{n}", f"{c!r}f")
    return src


def _key(src: str) -> str:
    """What the built library depends on: the source, torch's version and CPU kernels."""
    parts = (src, torch.__version__, torch.backends.cpu.get_cpu_capability(), platform.machine())
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:32]


def _index() -> pathlib.Path:
    """Where the path of the built library is kept (``LENGTHX_CPU_KERNEL_CACHE``, else
    ``$XDG_CACHE_HOME/lengthx`` or ``~/.cache/lengthx``)."""
    base = os.environ.get("LENGTHX_CPU_KERNEL_CACHE")
    if not base:
        home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        base = os.path.join(home, "lengthx")
    return pathlib.Path(base) / "cpu_kernel.json"


def _load_built(src: str, entry: str = "kernel") -> Callable[..., None] | None:
    """The library built by an earlier process, loaded directly (importing inductor and
    its ISA checks take seconds), or None where none is recorded or it does not load."""
    try:
        path = json.loads(_index().read_text()).get(_key(src))
        if not path or not os.path.exists(path):
            return None
        os.environ["_TORCHINDUCTOR_PYOBJECT_TENSOR_DATA_PTR"] = str(
            torch._C._dynamo.guards._torchinductor_pyobject_tensor_data_ptr
        )
        name = f"lengthx_cpu_{entry}_{_key(src)}.kernel"  # its init is PyInit_kernel
        module = sys.modules.get(name)
        if module is None:
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            sys.modules[name] = module
        return module.kernel  # inductor names the binding kernel
    except Exception:  # a stale or foreign record: built again
        return None


def _record_built(src: str, fn: Callable[..., None]) -> None:
    """Keeps the path of the library just built for later processes (best effort)."""
    try:
        path = next(
            m.__file__ for m in list(sys.modules.values())
            if getattr(m, "kernel", None) is fn and getattr(m, "__file__", None)
        )  # fmt: skip
        index = _index()
        index.parent.mkdir(parents=True, exist_ok=True)
        try:
            known = json.loads(index.read_text())
        except (OSError, ValueError):
            known = {}
        known[_key(src)] = path
        tmp = index.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(known))
        tmp.replace(index)
    except (StopIteration, OSError):
        pass


def visible(rows: int, cols: int, j0: int, i0: int, window: int | None) -> torch.Tensor:
    """(rows, cols) boolean: row r (query ``i0 + r``) sees key ``j0 + c`` where it is not
    right of the row (causal) and, with ``window``, not ``window`` or more keys left of it."""
    i = torch.arange(i0, i0 + rows)[:, None]
    j = torch.arange(j0, j0 + cols)[None, :]
    ok = j <= i
    return ok & (j > i - window) if window else ok


def reference(
    s: torch.Tensor, j0: int, m: torch.Tensor, i0: int = 1 << 40, window: int | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """The weights and the four row sums of the pass in float64 from the float32 logits
    ``s`` (heads, rows, keys) shifted by ``m`` (heads, rows): ``2^d`` (float64),
    ``d = max(l - m, EXP2_FLOOR)`` rounded to float32 as the pass computes it, 0 where not
    above TINY or not :func:`visible` (rows at ``i0 ..``; by default every key is seen);
    the max over the visible keys (-inf where none)."""
    ok = visible(s.shape[-2], s.shape[-1], j0, i0, window)
    d = (s - m[..., None]).clamp(min=EXP2_FLOOR).double()
    e = torch.exp2(d)
    e = torch.where((e > TINY) & ok, e, 0.0)
    j = torch.arange(j0, j0 + s.shape[-1], dtype=torch.float64)
    top = s.double().masked_fill(~ok, float("-inf")).amax(-1)
    sums = torch.stack([top, e.sum(-1), e @ j, (e * d).sum(-1)])
    return e, sums


#: the pass's weights against :func:`reference`: relative error (2 float32 ulp)
WEIGHT_RTOL = 2 * 2.0**-23


def _check(kernel: Callable[..., None]) -> str | None:
    """None when ``kernel`` gives :func:`reference`'s weights within WEIGHT_RTOL (and the
    same zeros) and its sums to float32 rounding, on logits with masked corners (causal
    and windowed rows), odd widths, weights below TINY and large values, shifted rows, and
    (``bounded``) unshifted logits below 43 in size."""
    g = torch.Generator().manual_seed(0)
    cases = ((2, 3, 37, 20, None, 0), (1, 5, 512, 300, 100, 0), (1, 1, 1, 7, 1, 0))
    cases += ((2, 4, 300, 290, None, 1), (1, 3, 40, 50, 9, 1))
    for heads, rows, cols, i0, window, bounded in cases:
        s = torch.randn(heads, rows, cols, generator=g) * 40
        m = torch.zeros(heads, rows + 3)  # the shifts of a head's rows, then a gap
        if bounded:  # unshifted
            s = s.clamp(-43, 43)
        else:
            m[:, :rows] = s.amax(-1)  # rows shifted by their max (weights up to 1) ...
            m[:, 0] -= 30  # ... the first by 30 bits less (weights up to 2^30)
        shift = m[:, :rows]
        args = (heads * rows, cols, 7, 0, rows, rows + 3, i0, window or 0, bounded)
        e, out = torch.empty_like(s), torch.empty(4, heads, rows)
        kernel(s, e, out, shift, *args)
        want_e, want = reference(s, 7, shift, i0, window)
        if not torch.equal(e == 0, want_e == 0) or not torch.allclose(
            e.double(), want_e, rtol=WEIGHT_RTOL, atol=0
        ):
            return "its weights differ from 2^d"
        if not torch.allclose(out.double(), want, rtol=1e-5, atol=1e-30):
            return "its row sums differ from the float64 reference"
        kernel(s, e, out, shift, *args[:3], 1, *args[4:])
        want[1:] *= 2  # added: twice the sums, the same max
        if not torch.allclose(out.double(), want, rtol=1e-5, atol=1e-30):
            return "its added row sums differ from the float64 reference"
    return None


def chunk_kernel() -> Callable[..., None] | None:
    """The fused pass (built, loaded and checked once per process), or None: then
    ``STATE["reason"]`` says why (no compiler, the check failed, turned off)."""
    if STATE["tried"]:
        return STATE["kernel"]
    with _LOCK:
        if not STATE["tried"]:
            kernel, reason = None, None
            if os.environ.get("LENGTHX_CPU_KERNEL", "1") == "0":
                reason = "turned off (LENGTHX_CPU_KERNEL=0)"
            else:
                try:
                    kernel = _load_built(_source())
                    if kernel is None or _check(kernel) is not None:
                        kernel = _build()
                        _record_built(_source(), kernel)
                    reason = _check(kernel)
                except Exception as exc:  # no compiler, headers, or another torch version
                    reason = f"not built: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
                if reason is not None:
                    kernel = None
            STATE.update(kernel=kernel, reason=reason, tried=True)
    return STATE["kernel"]


def run_chunk(
    kernel: Callable[..., None],
    s: torch.Tensor,
    e: torch.Tensor,
    out: torch.Tensor,
    m: torch.Tensor,
    j0: int,
    add: bool,
    i0: int = 1 << 40,
    window: int | None = None,
    bounded: bool = False,
) -> None:
    """The pass on a chunk ``s`` (heads, rows, keys; contiguous, float32) shifted by ``m``
    (heads, rows; rows contiguous) into ``e`` (same shape) and ``out`` (4, heads, rows;
    contiguous): the row sums written, or added to ``out``'s (``add``; the max taken with
    ``out``'s); rows at query positions ``i0 ..`` (by default every key is seen), keys at
    ``j0 ..``, causal, and with ``window`` a sliding window; ``bounded``: every shift is 0
    and every visible logit is above -99 (the pass skips the floor and the threshold,
    which change nothing there)."""
    nh, nr, cols = s.shape
    assert m.shape == (nh, nr) and m.stride(-1) == 1
    kernel(
        s, e, out, m, nh * nr, cols, j0, int(add), nr, m.stride(0), i0, window or 0, int(bounded)
    )


TILE_SOURCE = r"""
// MKL's sgemm (LP64), which PyTorch's x86 builds carry in libtorch_cpu, column-major
extern "C" void sgemm_(const char*, const char*, const int*, const int*, const int*,
                       const float*, const float*, const int*, const float*, const int*,
                       const float*, float*, const int*);

// nh heads x nr query rows (positions r0 ..) of a causal tile over the key chunks
// (a_n, b_n) = chunks[2n], chunks[2n + 1] (the first holding each row's diagonal key):
// per head, per chunk, s = q k^T (nr x (b - a), row-major), the pass (unshifted, bounded
// logits: the caller's promise) over s in place, w (+)= s v; w: nh x nr x dv
// (contiguous), acc: 4 x nh x nr (max l, sum e, sum e j, sum e l); q, k, v with rows of
// stride ldq, ldk, ldv and heads hq, hk, hv apart (unit stride within a row)
extern "C" void tile(const float* q, const float* k, const float* v, float* s, float* w,
                     float* acc, int64_t nh, int64_t nr, int64_t d, int64_t dv, int64_t hq,
                     int64_t ldq, int64_t hk, int64_t ldk, int64_t hv, int64_t ldv,
                     const int64_t* chunks, int64_t nchunks, int64_t r0, int64_t window) {
    const float one = 1.0f, zero = 0.0f;
    const int D = d, DV = dv, NR = nr, LQ = ldq, LK = ldk, LV = ldv;
    std::vector<float> t(4 * nr), m(nr, 0.0f);
    for (int64_t h = 0; h < nh; ++h) {
        float* wh = w + h * nr * dv;
        for (int64_t n = 0; n < nchunks; ++n) {
            const int64_t a = chunks[2 * n];
            const int C = chunks[2 * n + 1] - a;
            sgemm_("T", "N", &C, &NR, &D, &one, k + h * hk + a * ldk, &LK, q + h * hq, &LQ,
                   &zero, s, &C);
            kernel(s, s, t.data(), m.data(), nr, C, a, n, nr, nr, r0, window, 1);
            sgemm_("N", "N", &DV, &NR, &C, &one, v + h * hv + a * ldv, &LV, s, &C,
                   n ? &one : &zero, wh, &DV);
        }
        for (int64_t x = 0; x < 4; ++x)
            std::copy(t.begin() + x * nr, t.begin() + (x + 1) * nr, acc + (x * nh + h) * nr);
    }
}
"""

#: why the tile is not used in this process (None: not decided yet, or it is used)
TILE_STATE: dict = {"kernel": None, "tried": False, "reason": None}


def _tile_source() -> str:
    return (
        _source().replace("#include <limits>", "#include <limits>\n#include <vector>") + TILE_SOURCE
    )


def _build_tile() -> Callable[..., None]:
    """The compiled tile (:func:`run_tile`'s arguments)."""
    argtypes = ["const float*"] * 3 + ["float*"] * 3 + ["int64_t"] * 10
    return _compile(_tile_source(), "tile", argtypes + ["const int64_t*"] + ["int64_t"] * 3)


def run_tile(
    tile: Callable[..., None],
    q: torch.Tensor,
    k: torch.Tensor,
    v: torch.Tensor,
    s: torch.Tensor,
    w: torch.Tensor,
    acc: torch.Tensor,
    chunks: torch.Tensor,
    r0: int,
    window: int | None,
) -> None:
    """The tile on ``q`` (heads, rows, d: the tile's query rows), ``k`` and ``v`` (heads,
    keys, .: every key), each with unit stride in its last dimension, over ``chunks``
    (an int64 tensor of key ranges (a, b), the first holding each row's diagonal key),
    rows at query positions ``r0 ..`` (causal, and with ``window`` a sliding window),
    logits unshifted and below 43 in size; ``s`` a buffer of rows x (the widest chunk),
    ``w`` (heads, rows, dv) and ``acc`` (4, heads, rows) contiguous, written."""
    nh, nr, d = q.shape
    tile(
        q, k, v, s, w, acc, nh, nr, d, v.shape[-1], q.stride(0), q.stride(1), k.stride(0),
        k.stride(1), v.stride(0), v.stride(1), chunks, chunks.shape[0], r0, window or 0,
    )  # fmt: skip


def _check_tile(tile: Callable[..., None]) -> str | None:
    """None when ``tile`` gives the float64 softmax sums and products of two heads of
    ragged causal and windowed tiles (strided q, k, v) to float32 rounding."""
    g = torch.Generator().manual_seed(1)
    for r0, nr, window, chunks in ((30, 5, None, [(23, 35), (10, 23), (0, 10)]),
                                   (16, 7, 6, [(10, 23), (3, 10)])):  # fmt: skip
        lk = max(b for _, b in chunks)
        q = torch.randn(2, 40, 12, generator=g)[:, r0 : r0 + nr, :8]  # strided rows
        k, v = torch.randn(2, lk, 9, generator=g)[..., :8], torch.randn(2, lk, 6, generator=g)
        s, w, acc = torch.empty(nr * 13), torch.empty(2, nr, 6), torch.empty(4, 2, nr)
        run_tile(tile, q, k, v, s, w, acc, torch.tensor(chunks), r0, window)
        ok = visible(nr, lk, 0, r0, window)
        lg = (q.double() @ k.double().transpose(1, 2)).masked_fill(~ok, float("-inf"))
        e = torch.exp2(lg)
        j = torch.arange(lk, dtype=torch.float64)
        want = torch.stack(
            [lg.amax(-1), e.sum(-1), e @ j, (e * lg.masked_fill(~ok, 0)).sum(-1)]
        )  # fmt: skip
        if not torch.allclose(acc.double(), want, rtol=1e-5, atol=1e-5):
            return "its row sums differ from the float64 reference"
        if not torch.allclose(w.double(), e @ v.double(), rtol=1e-5, atol=1e-5):
            return "its product with V differs from the float64 reference"
    return None


def tile_kernel() -> Callable[..., None] | None:
    """The whole-tile pass with both products (MKL's sgemm, as PyTorch links it) for
    unshifted bounded calls, built, loaded and checked once per process; or None (then
    ``TILE_STATE["reason"]`` says why: no fused pass, no sgemm in this PyTorch, the check
    failed, turned off), and the tiles run the products through ``torch.bmm``."""
    if TILE_STATE["tried"]:
        return TILE_STATE["kernel"]
    chunk_kernel()  # the pass first (its own lock)
    with _LOCK:
        if not TILE_STATE["tried"]:
            tile, reason = None, None
            if STATE["kernel"] is None:
                reason = f"no fused pass ({STATE['reason']})"
            elif os.environ.get("LENGTHX_CPU_TILE", "1") == "0":
                reason = "turned off (LENGTHX_CPU_TILE=0)"
            else:
                try:
                    src = _tile_source()
                    tile = _load_built(src, "tile")
                    if tile is None or _check_tile(tile) is not None:
                        tile = _build_tile()
                        _record_built(src, tile)
                    reason = _check_tile(tile)
                except Exception as exc:  # no sgemm to link, no compiler
                    reason = f"not built: {type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
                if reason is not None:
                    tile = None
            TILE_STATE.update(kernel=tile, reason=reason, tried=True)
    return TILE_STATE["kernel"]
