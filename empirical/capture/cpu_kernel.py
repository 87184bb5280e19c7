r"""An optional fused CPU pass over a chunk of the tiled causal path's logits.

For a chunk of logits ``s`` in bits (rows x keys, contiguous; keys ``j0 .. j0 + keys - 1``)
and a shift :math:`m_i` per row, one pass writes the weights :math:`e_{ij} = 2^{d_{ij}}`,
:math:`d_{ij} = \max(l_{ij} - m_i, F)`, set to 0 where not above
:data:`~empirical.capture.attention_call.TINY` (:math:`F` =
:data:`~empirical.capture.attention_call.EXP2_FLOOR`), and per row the four sums that
:func:`~empirical.capture.tiled_causal._add_chunk_sums` and the row maximum get from separate
tensor operations: :math:`\max_j l_{ij}`, :math:`\Sigma_i = \sum_j e_{ij}`,
:math:`\sum_j e_{ij}\, j` and :math:`\sum_j e_{ij} d_{ij}` (the entropy's sum,
:math:`H_i = \ln \Sigma_i - \ln 2 \sum_j e_{ij} (l_{ij} - m_i) / \Sigma_i`).  The
weights are the same ``exp2`` (SLEEF's, through ``at::vec``) as ``torch.exp2``'s, bit for
bit; the sums add in another order (within float32 rounding of the separate operations).

The pass is C++ built at run time by PyTorch's inductor compiler cache (the compiler the
machine has, the vector ISA inductor detects, no extra package), once per machine: the
library is cached on disk, its path kept in ``~/.cache/lengthx/cpu_kernel.json`` (keyed by
the source, torch's version and CPU kernels), and later processes load it from there
directly, without importing inductor.  :func:`chunk_kernel`
builds and checks it once per process against the tensor operations; where there is no
working compiler, or the check fails, it returns None, the reason is kept in
:data:`STATE` (``reason``), and the capture runs the tensor operations instead.
``LENGTHX_CPU_KERNEL=0`` turns the pass off.
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

SOURCE = r"""
#include <torch/csrc/inductor/cpp_prefix.h>
#include <functional>
#include <limits>

// s, e: rows x cols (row stride cols; e may be s: each logit is read before its weight is
// written); out: 4 x rows (max l, sum e, sum e j, sum e d),
// written (add == 0) or added to (add != 0; the max taken with the one there); row r's
// shift at m[(r / nr) * mstride + r % nr]; d = max(l - shift, floor), e = 2^d or 0
extern "C" void kernel(const float* s, float* e, float* out, const float* m, int64_t rows,
                       int64_t cols, int64_t j0, int64_t add, int64_t nr, int64_t mstride) {
    using V = at::vec::Vectorized<float>;
    constexpr int64_t W = V::size();
    const V lo(FLOOR_BITS), tiny(TINY_WEIGHT), zero(0.0f), ninf(-std::numeric_limits<float>::infinity());
    const V lane = V::arange(0.0f, 1.0f);
    for (int64_t r = 0; r < rows; ++r) {
        const float* sr = s + r * cols;
        float* er = e + r * cols;
        const V shift(m[(r / nr) * mstride + r % nr]);
        V mx = ninf, a0 = zero, a1 = zero, a2 = zero;
        for (int64_t c = 0; c < cols; c += W) {
            const int64_t n = std::min<int64_t>(W, cols - c);
            V l = n == W ? V::loadu(sr + c) : V::loadu(sr + c, n);
            V keep = lane < V(static_cast<float>(n));
            V lc = at::vec::maximum(l - shift, lo);
            V x = lc.exp2();
            x = V::blendv(zero, x, (x > tiny) & keep);
            if (n == W) x.store(er + c); else x.store(er + c, n);
            mx = at::vec::maximum(mx, V::blendv(ninf, l, keep));
            a0 = a0 + x;
            a1 = at::vec::fmadd(x, lane + V(static_cast<float>(j0 + c)), a1);
            a2 = at::vec::fmadd(x, lc, a2);
        }
        const float top = at::vec::vec_reduce_all<float>(
            [](V& p, V& q) { return at::vec::maximum(p, q); }, mx);
        const float t0 = at::vec::vec_reduce_all<float>([](V& p, V& q) { return p + q; }, a0);
        const float t1 = at::vec::vec_reduce_all<float>([](V& p, V& q) { return p + q; }, a1);
        const float t2 = at::vec::vec_reduce_all<float>([](V& p, V& q) { return p + q; }, a2);
        if (add) {
            out[r] = std::max(out[r], top);
            out[rows + r] += t0;
            out[2 * rows + r] += t1;
            out[3 * rows + r] += t2;
        } else {
            out[r] = top;
            out[rows + r] = t0;
            out[2 * rows + r] = t1;
            out[3 * rows + r] = t2;
        }
    }
}
"""

#: why the fused pass is not used in this process (None: not decided yet, or it is used)
STATE: dict = {"kernel": None, "tried": False, "reason": None}
_LOCK = threading.Lock()


def _build() -> Callable[..., None]:
    """The compiled pass as a Python callable ``f(s, e, out, rows, cols, j0, add)`` that drops
    the GIL while it runs (tile workers run it side by side)."""
    from torch._inductor.codecache import CppPythonBindingsCodeCache

    class _Unlocked(CppPythonBindingsCodeCache):
        cache: dict = {}
        call_entry_function = (
            "auto call = std::bind(kernel, {}); Py_BEGIN_ALLOW_THREADS call(); "
            "Py_END_ALLOW_THREADS Py_RETURN_NONE;"
        )

    argtypes = ["const float*", "float*", "float*", "const float*"] + ["int64_t"] * 6
    return _Unlocked.load_pybinding(argtypes, _source(), "cpu", needs_vec_isa=True)


def _source() -> str:
    return SOURCE.replace("FLOOR_BITS", f"{EXP2_FLOOR!r}f").replace("TINY_WEIGHT", f"{TINY!r}f")


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


def _load_built(src: str) -> Callable[..., None] | None:
    """The library built by an earlier process, loaded directly (importing inductor and
    its ISA checks take seconds), or None where none is recorded or it does not load."""
    try:
        path = json.loads(_index().read_text()).get(_key(src))
        if not path or not os.path.exists(path):
            return None
        os.environ["_TORCHINDUCTOR_PYOBJECT_TENSOR_DATA_PTR"] = str(
            torch._C._dynamo.guards._torchinductor_pyobject_tensor_data_ptr
        )
        name = f"lengthx_cpu_kernel_{_key(src)}.kernel"
        module = sys.modules.get(name)
        if module is None:
            spec = importlib.util.spec_from_file_location(name, path)
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            sys.modules[name] = module
        return module.kernel
    except Exception:  # a stale or foreign record: built again
        return None


def _record_built(src: str, kernel: Callable[..., None]) -> None:
    """Keeps the path of the library just built for later processes (best effort)."""
    try:
        path = next(
            m.__file__ for m in list(sys.modules.values())
            if getattr(m, "kernel", None) is kernel and getattr(m, "__file__", None)
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


def reference(s: torch.Tensor, j0: int, m: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """The weights and the four row sums of the pass by tensor operations (the check),
    logits ``s`` (..., keys) shifted by ``m`` (...)."""
    lc = (s - m[..., None]).clamp(min=EXP2_FLOOR)
    e = torch.threshold(torch.exp2(lc), TINY, 0.0)
    j = torch.arange(j0, j0 + s.shape[-1], dtype=s.dtype)
    sums = torch.stack([s.amax(-1), e.sum(-1), e @ j, (e * lc).sum(-1)])
    return e, sums


def _check(kernel: Callable[..., None]) -> str | None:
    """None when ``kernel`` gives :func:`reference`'s weights bit for bit and its sums to
    float32 rounding on logits with masked entries, odd widths and large values."""
    g = torch.Generator().manual_seed(0)
    for rows, cols in ((3, 37), (5, 512), (1, 1)):
        s = torch.randn(rows, cols, generator=g) * 40
        s[0, cols // 2 :] = -1e30  # a masked corner
        m = torch.zeros(rows, 2)
        m[1:, 1] = s[1:].amax(-1)  # rows shifted by their max, every second shift used
        e, out = torch.empty_like(s), torch.empty(4, rows)
        kernel(s, e, out, m[:, 1], rows, cols, 7, 0, 1, 2)
        want_e, want = reference(s, 7, m[:, 1])
        if not torch.equal(e, want_e):
            return "its weights differ from torch.exp2's"
        if not torch.allclose(out, want, rtol=1e-5, atol=0):
            return "its row sums differ from the tensor operations'"
        kernel(s, e, out, m[:, 1], rows, cols, 7, 1, 1, 2)  # added: twice the sums, the same max
        want[1:] *= 2
        if not torch.allclose(out, want, rtol=1e-5, atol=0):
            return "its added row sums differ from the tensor operations'"
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
) -> None:
    """The pass on a chunk ``s`` (heads, rows, keys; contiguous, float32) shifted by ``m``
    (heads, rows; rows contiguous) into ``e`` (same shape) and ``out`` (4, heads, rows;
    contiguous): the row sums written, or added to ``out``'s (``add``; the max taken with
    ``out``'s)."""
    nh, nr, cols = s.shape
    assert m.shape == (nh, nr) and m.stride(-1) == 1
    kernel(s, e, out, m, nh * nr, cols, j0, int(add), nr, m.stride(0))
