r"""Named relative positional encodings as series :math:`b_n = \exp(\mathrm{RPE}(n))`.

**Index convention of the project.**  The attention bias at distance
:math:`t = 0, 1, 2, \dots` is :math:`\log b_{s + t}` where :math:`s` is the *start* index;
term :math:`k` of the series is :math:`b_{s+k}`; and TRF(eps) is the number of terms
:math:`j` (distances :math:`0..j-1`) needed for the partial sum to exceed
:math:`B(1-\epsilon)` (RPE paper, Eq. 22, with :math:`b_t` there equal to :math:`b_{s+t}`
here).  The paper sums :math:`b_t` from :math:`t = 0` (Eq. 19-22) but writes Type1 as
:math:`1/n^2`, infinite at :math:`n=0`; its own Eq. 29 silently uses
:math:`1/(t+1)^2`, i.e. start :math:`s = 1`.  Every named RPE below therefore carries its
natural start: 0 where the paper's formula is finite at distance 0 (ALiBi, Kerple,
Sandwich, T5), 1 for Type1/Type2/1/n, 2 for 1/(n ln n).

.. math::
   \text{alibi: } e^{-kn},\quad \text{kerple-log: } (1+kn)^{-r},\quad
   \text{kerple-power: } e^{-k n^r},\quad
   \text{sandwich: } \exp\Big(k \sum_{j=1}^{d/2} \big(\cos(n / r^{2j/d}) - 1\big)\Big),

   \text{type1: } n^{-2},\quad \text{type2: } e^{-\ln^2 n},\quad
   \text{inv-n: } 1/n,\quad \text{inv-nlogn: } 1/(n \ln n)
   \quad\text{(RPE paper, App. B Eq. 30-37, Sec. 3.4, Sec. 4)}

>>> r = resolve_rpe("kerple-log", {"r": 1.5})
>>> r.b, r.params["r"], r.start
((n + 1)**(-3/2), 3/2, 0)
>>> resolve_rpe("(1 + k*n)**(-r)", free=["k", "r"]).free_params
['k', 'r']
>>> resolve_rpe("kerple_log").name                # both spellings of every named RPE
'kerple-log'
>>> import numpy as np
>>> log_b_values(resolve_rpe("type1").b, np.arange(3), start=1).round(4).tolist()
[-0.0, -1.3863, -2.1972]
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.core.file_kinds import DESCRIPTION, read_bytes
from theory.series.expressions import (
    ExpressionError,
    N,
    binary_value,
    parameter_symbol,
    parameter_value,
    parse_expression,
    parse_expression_names,
)
from theory.series.rpe_names import RPE_NAMES, canonical_rpe_name

_k, _r, _d = (parameter_symbol(x) for x in ("k", "r", "d"))


class BiasHead:
    r"""The first terms of a series given as bias values: term :math:`i` is
    :math:`b_i = \exp(\beta_i + c)` with :math:`\beta_i` the float64 values read from a file
    (exact binary numbers) and :math:`c` an exact constant (a rescaling, 0 unless the TRF
    search rescales B).  The exponential is taken in ball arithmetic (python-flint), so a
    bias of -1000 gives 5.1e-435, not the float64 underflow 0, and +720 gives 4.9e312.

    >>> h = BiasHead(np.array([-1000.0, 720.0]))
    >>> len(h), h.arb(0).str(3), h.arb(1).str(3)  # doctest: +ELLIPSIS
    (2, '[5.08e-435 +/- ...]', '[4.92e+312 +/- ...]')
    >>> h.scaled(-720).floats().tolist()
    [0.0, 1.0]
    """

    def __init__(self, bias: npt.ArrayLike, shift: sp.Expr | int = 0):
        self.bias = np.asarray(bias, dtype=float)
        self.shift = sp.sympify(shift)

    def __len__(self) -> int:
        return int(self.bias.size)

    def scaled(self, log_factor: sp.Expr | int) -> BiasHead:
        """The head multiplied by exp(log_factor) (exact: only the shift changes)."""
        return BiasHead(self.bias, self.shift + sp.sympify(log_factor))

    def arb(self, i: int) -> Any:
        """A guaranteed enclosure of term i (a python-flint ball at the current precision)."""
        from flint import arb

        from theory.series.arb_eval import arb_function

        return (arb(float(self.bias[i])) + arb_function(self.shift)(arb(0))).exp()

    def arb_list(self, count: int | None = None) -> list:
        return [self.arb(i) for i in range(len(self) if count is None else min(count, len(self)))]

    def mp(self, i: int) -> Any:
        """Term i in mpmath (at the working precision; no overflow or underflow).  A rational
        shift is added to the binary bias value exactly, then rounded once: 1 - 1e308 + 1e308
        is 1, not the 40-digit rounding of -1e308 (an error of 1e268) added to 1e308."""
        import mpmath

        if self.shift.is_Rational:
            x = Fraction(float(self.bias[i])) + Fraction(int(self.shift.p), int(self.shift.q))
            return mpmath.exp(mpmath.mpf(x.numerator) / x.denominator)
        return mpmath.exp(mpmath.mpf(float(self.bias[i])) + mpmath.mpf(sp.N(self.shift, 40)))

    def log_values(self) -> np.ndarray:
        """log of each term, float64."""
        return self.bias + float(self.shift)

    def floats(self) -> np.ndarray:
        """The terms in float64 (0 or inf outside its range; callers check)."""
        with np.errstate(over="ignore", under="ignore"):
            return np.exp(self.log_values())


@dataclass
class RPE:
    """A series b_n: ``b`` (sympy, in n), with optional explicit first terms ``head``.

    When ``head`` (a :class:`BiasHead`, a learned bias read from numbers) is given, term
    ``i`` of the series (distance ``i``) is ``head``'s term ``i`` for ``i < len(head)`` and
    ``b`` at ``n = start + i`` beyond; ``tail_assumption`` says in words what is assumed
    there.
    """

    name: str
    b: sp.Expr
    params: dict = field(default_factory=dict)
    free_params: list = field(default_factory=list)
    start: int = 1
    description: str = ""
    source: str = ""
    head: BiasHead | None = None
    tail_assumption: str = ""

    def scaled(self, log_factor: sp.Rational) -> RPE:
        """The series with every term multiplied by exp(log_factor), exactly: the head's
        shift and the tail's exponent take the constant (B scales by exp(log_factor), the
        TRF of Eq. 22 does not change)."""
        b = self.b if self.b == 0 else sp.powsimp(sp.exp(log_factor) * self.b)
        head = None if self.head is None else self.head.scaled(log_factor)
        return dataclasses.replace(self, b=b, head=head)

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "b_n": str(self.b),
            "params": {k: str(v) for k, v in self.params.items()},
            "free_params": self.free_params,
            "start": self.start,
            "source": self.source,
            "head_terms": 0 if self.head is None else int(len(self.head)),
            "tail_assumption": self.tail_assumption or None,
        }


def _sandwich(k, r, d):
    d = int(d)
    if d < 2 or d % 2 or d > 512:
        raise ExpressionError("sandwich needs an even integer d between 2 and 512")
    return sp.exp(
        k * sp.Add(*[sp.cos(N / r ** sp.Rational(2 * j, d)) - 1 for j in range(1, d // 2 + 1)])
    )


def _fixed_builder(name: str):  # noqa: ANN202 - returns a builder lambda
    """The series of a named RPE without parameters, from its formula in the name table."""
    return lambda p: parse_expression(RPE_NAMES[name].formula)


@dataclass(frozen=True)
class Param:
    """A named RPE's parameter: its default, what values it takes (``positive``: a real
    number > 0; ``count``: an integer >= 2; ``switch``: 0/1, written false/true) and its
    meaning."""

    default: int | sp.Expr
    meaning: str
    kind: str = "positive"

    def check(self, rpe: str, name: str, v: sp.Expr) -> sp.Expr:
        ok = {
            "positive": lambda: v.is_real and v.is_positive,
            "count": lambda: v.is_Integer and v >= 2,
            "switch": lambda: v in (0, 1),
        }[self.kind]()
        if not ok:
            need = {
                "positive": "a positive number",
                "count": "an integer >= 2",
                "switch": "true or false",
            }[self.kind]
            raise ExpressionError(f"--param {name}={v}: {name} of {rpe} must be {need}")
        return v


def _p(default, meaning, kind="positive") -> Param:
    return Param(sp.Integer(default) if isinstance(default, int) else default, meaning, kind)


#: name -> (builder, parameters, start, description, source); names as in
#: rpe_names.RPE_NAMES.  The one table of the named RPEs' parameters (--param NAME=VALUE).
LIBRARY = {
    "alibi": (
        lambda p: sp.exp(-p["k"] * N),
        {"k": _p(1, "slope")},
        0,
        "ALiBi, b_n = exp(-k n) (one head, slope k)",
        "RPE paper App. B Eq. 30; k = 1 as in App. C",
    ),
    "kerple-log": (
        lambda p: (1 + p["k"] * N) ** (-p["r"]),
        {"k": _p(1, "scale of n"), "r": _p(2, "power")},
        0,
        "Kerple log, b_n = (1 + k n)^(-r); converges iff r > 1",
        "RPE paper App. B Eq. 32 (k, r learned there; defaults ours)",
    ),
    "kerple-power": (
        lambda p: sp.exp(-p["k"] * N ** p["r"]),
        {"k": _p(1, "scale"), "r": _p(1, "power of n")},
        0,
        "Kerple power, b_n = exp(-k n^r), 0 < r <= 2",
        "RPE paper App. B Eq. 34 (defaults ours)",
    ),
    "sandwich": (
        lambda p: _sandwich(p["k"], p["r"], p["d"]),
        {
            "k": _p(1, "scale"),
            "r": _p(10000, "frequency base"),
            "d": _p(128, "head size (even, <= 512)", "count"),
        },
        0,
        "Sandwich, b_n = exp(k sum_{j=1}^{d/2} (cos(n / r^(2j/d)) - 1))",
        "RPE paper App. B Eq. 37 (r = 10000 as sinusoidal PE, d = 128 head size; defaults ours)",
    ),
    **{
        name: (_fixed_builder(name), {}, RPE_NAMES[name].start, desc, source)
        for name, desc, source in (
            ("type1", "Type1, b_n = 1/n^2", "RPE paper Sec. 3.4"),
            ("type2", "Type2, b_n = exp(-ln^2 n)", "RPE paper Sec. 3.4"),
            ("inv-n", "b_n = 1/n (diverges)", "RPE paper Sec. 4, Example 1"),
            (
                "inv-nlogn",
                "b_n = 1/(n ln n) (diverges)",
                "RPE paper Sec. 4, Example 2 (the paper's bound sums from n = 3)",
            ),
        )
    },
    "t5": (
        None,
        {
            "num_buckets": _p(32, "number of buckets", "count"),
            "max_distance": _p(128, "distance of the last bucket", "count"),
            "bidirectional": _p(
                0, "encoder buckets (half of them per side; keys before the query)", "switch"
            ),
        },
        0,
        "T5 bucketed bias: b_n = exp(values[bucket(n)]), n = distance to a key before the query",
        "Raffel et al. 2020 bucket function; bucket values given by the user",
    ),
}


def parameter_help() -> str:
    """The named RPEs' parameters with defaults, one line each (the CLI's epilog).

    >>> parameter_help().splitlines()[0]
    '  alibi: k=1 (slope)'
    """
    lines = []
    for name, (_, params, *_rest) in LIBRARY.items():
        if params:
            items = ", ".join(f"{k}={p.default} ({p.meaning})" for k, p in params.items())
            lines.append(f"  {name}: {items}")
    return "\n".join(lines)


def t5_bucket(
    distance: int | np.ndarray,
    num_buckets: int = 32,
    max_distance: int = 128,
    bidirectional: bool = False,
) -> int | np.ndarray:
    """T5's relative-position bucket of ``distance`` = query position - key position.

    The one definition of the toolkit (``empirical`` calls it for torch tensors): it equals
    ``transformers``' ``T5Attention._relative_position_bucket(-distance, ...)``.  Causal
    (``bidirectional=False``, the decoder) buckets distances ``t >= 0``; bidirectional (the
    encoder, Sec. 3.2 of the alignment paper) gives keys after the query (distance < 0)
    the upper half of the buckets.  Works on Python/numpy integers (returns an ``int``) and
    numpy integer arrays (returns an array).

    >>> [t5_bucket(t) for t in (0, 15, 16, 127, 128, 10**6)]
    [0, 15, 16, 31, 31, 31]
    >>> t5_bucket(np.array([0, 7, 8, 127, 128, -1, -8, -10**6]), bidirectional=True).tolist()
    [0, 7, 8, 15, 15, 17, 24, 31]
    """
    d = np.asarray(distance, dtype=np.int64)
    nb, offset = int(num_buckets), 0
    if bidirectional:
        nb //= 2
        offset = np.where(d < 0, nb, 0)
        d = np.abs(d)
    else:
        d = np.maximum(d, 0)
    exact = nb // 2
    with np.errstate(divide="ignore"):
        scaled = np.log(np.maximum(d, 1) / exact) / math.log(max_distance / exact) * (nb - exact)
    large = np.minimum(exact + scaled.astype(np.int64), nb - 1)
    out = offset + np.where(d < exact, d, large)
    return int(out) if np.ndim(out) == 0 else out


def _next_bucket_start(t: int, bk: int, num_buckets: int, max_distance: int, bi: bool) -> int:
    """The first distance after ``t`` whose bucket is past ``bk`` (buckets never decrease
    with the distance, so a doubling then bisecting search: O(log max_distance) bucket
    evaluations, where stepping through every distance took 5 s at max_distance 10^6)."""
    lo, step = t, 1  # bucket(lo) == bk
    while int(t5_bucket(lo + step, num_buckets, max_distance, bi)) == bk:
        lo, step = lo + step, step * 2
    hi = lo + step  # bucket(hi) > bk
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if int(t5_bucket(mid, num_buckets, max_distance, bi)) == bk:
            lo = mid
        else:
            hi = mid
    return hi


def t5_series(
    values: Iterable[float | sp.Basic],
    num_buckets: int = 32,
    max_distance: int = 128,
    bidirectional: bool = False,
) -> sp.Expr:
    """Piecewise b_n = exp(values[bucket(n)]) (distance n = t >= 0 to a key before the
    query, start 0); constant tail.

    >>> t5_series([0, -1, -2, -3], 4, 8)
    Piecewise((1, n < 1), (exp(-1), n < 2), (exp(-2), n < 4), (exp(-3), True))
    >>> t5_series(range(0, -8, -1), 8, 8, bidirectional=True)
    Piecewise((1, n < 1), (exp(-1), n < 2), (exp(-2), n < 4), (exp(-3), True))
    """
    values = [v if isinstance(v, sp.Basic) else binary_value(v) for v in values]
    if len(values) != num_buckets:
        raise ExpressionError(f"t5 needs {num_buckets} bucket values, got {len(values)}")
    if bidirectional and num_buckets % 2:
        raise ExpressionError("bidirectional t5 needs an even num_buckets")
    exact = num_buckets // (4 if bidirectional else 2)
    if exact < 1 or max_distance <= exact:
        raise ExpressionError(
            f"t5 needs max_distance > {max(exact, 1)} (the exact buckets) and enough buckets; "
            f"got num_buckets={num_buckets}, max_distance={max_distance}"
        )
    last = (num_buckets // 2 if bidirectional else num_buckets) - 1
    pieces, t = [], 0
    while True:
        bk = int(t5_bucket(t, num_buckets, max_distance, bidirectional))
        if bk == last:
            break
        t_next = _next_bucket_start(t, bk, num_buckets, max_distance, bidirectional)
        pieces.append((sp.exp(values[bk]), sp.Lt(N, t_next)))
        t = t_next
    pieces.append((sp.exp(values[last]), sp.true))
    return sp.Piecewise(*pieces)


def resolve_rpe(
    spec: str,
    params: dict | None = None,
    bias: bool = False,
    free: tuple | list = (),
    assumptions: dict | None = None,
) -> RPE:
    """A library name (``type2``, ``kerple-log`` or ``kerple_log``, ...) or a user formula
    -> :class:`RPE`.

    ``params`` gives parameter values (numbers, or for ``t5`` the list ``values``); for
    a library name missing ones take the defaults.  A user formula is b_n itself, or with
    ``bias=True`` the RPE, b_n = exp(spec).  In a formula the values are put in before
    any simplification; ``free`` names the parameters left symbolic (real, unless
    ``assumptions`` says e.g. ``{"k": "positive"}``); any other name is an error.
    """
    params = dict(params or {})
    key = canonical_rpe_name(spec, series_only=True) if isinstance(spec, str) else None
    other = canonical_rpe_name(spec) if isinstance(spec, str) and key is None else None
    if other is not None:
        series = ", ".join(n for n, e in RPE_NAMES.items() if e.series)
        raise ExpressionError(
            f"{spec.strip()!r} names the {RPE_NAMES[other].label} positional encoding, which "
            f"adds no relative bias: it has no series b_n = exp(RPE) (named RPEs with one: "
            f"{series})"
        )
    if key in LIBRARY:
        if free:
            raise ExpressionError(f"--free does not apply to the named RPE {key}")
        return _library_rpe(key, params)
    values = {k: parameter_value(k, v, keep_sympy_floats=True) for k, v in params.items()}
    both = set(values) & set(free)
    if both:
        raise ExpressionError(
            f"parameter {sorted(both)[0]!r} is both given a value and declared free"
        )
    expr, used = _parse_guarded(spec, values, tuple(free), assumptions)
    unused = sorted((set(values) | set(free)) - used)
    if unused:
        raise ExpressionError(f"parameter {unused[0]!r} does not occur in {spec!r}")
    if bias:
        expr = sp.exp(expr)
    names = sorted(s.name for s in expr.free_symbols if s != N)
    return RPE(
        name=spec.strip(),
        b=expr,
        params=values,
        free_params=names,
        start=1,
        description="user formula" + (" (RPE; b_n = exp(RPE))" if bias else ""),
        source="user",
    )


def _parse_guarded(spec: str, values: dict, free: tuple, assumptions: dict | None) -> tuple:
    """parse_expression under a time budget: sympy's automatic simplification can build
    huge integers, e.g. (cos(n)/2)**(10**10) expands 2**(10**10)."""
    from theory.core.budget import BudgetExceeded, run_guarded

    try:
        return run_guarded(
            parse_expression_names,
            (spec,),
            {"params": free, "values": values, "assumptions": assumptions},
            budget=3.0,
        )
    except BudgetExceeded:
        raise ExpressionError(
            "expression too large to build (its constants have too many digits)"
        ) from None


def _library_rpe(key, params) -> RPE:
    builder, defaults, start, desc, source = LIBRARY[key]
    unknown = set(params) - set(defaults) - ({"values"} if key == "t5" else set())
    if unknown:
        raise ExpressionError(
            f"{key} has no parameter {sorted(unknown)[0]!r}; "
            f"parameters: {', '.join(defaults) or 'none'}"
        )
    merged = {
        k: defaults[k].check(key, k, parameter_value(k, v, keep_sympy_floats=True))
        for k, v in {
            **{k: p.default for k, p in defaults.items()},
            **{k: v for k, v in params.items() if k != "values"},
        }.items()
    }
    if key == "t5":
        nb, md, bi = (int(merged[k]) for k in ("num_buckets", "max_distance", "bidirectional"))
        values = params.get("values")
        if values is None:
            values = [-sp.Rational(b, 4) for b in range(nb)]
            desc += "; default values[b] = -b/4 (illustrative, not from a trained model)"
        b = t5_series(values, nb, md, bool(bi))
        merged["values"] = [str(v) for v in values]
    else:
        b = builder(merged)
    return RPE(
        name=key, b=b, params=merged, free_params=[], start=start, description=desc, source=source
    )


TAIL_ASSUMPTIONS = {
    "constant": "beyond the last given distance L-1 the bias stays at its last value "
    "(as T5's last bucket does); the series then diverges unless that value is -inf",
    "zero": "beyond the last given distance the bias is -inf (b = 0: attention is cut off); "
    "the series is a finite sum",
    "linear": "beyond the last given distance the bias continues linearly with the slope of "
    "a least-squares line through the last 10% of the values (ALiBi-like)",
}


def read_bias_values(path: Path) -> np.ndarray:
    """The bias values of a file: a 1-D array of finite real numbers (float64), or an
    :class:`ExpressionError` naming the file and what is wrong (strings, 2-D, complex, ...)."""
    try:
        raw = _read_bias_array(path)
    except (OSError, ValueError, EOFError) as exc:
        raise ExpressionError(f"cannot read bias file {path}: {exc}") from None
    raw = np.asarray(raw)
    if raw.dtype.kind not in "iuf":
        what = {"c": "complex", "b": "boolean", "U": "text", "S": "bytes", "O": "objects"}
        raise ExpressionError(
            f"bias file {path}: the values must be real numbers, found "
            f"{what.get(raw.dtype.kind, raw.dtype.name)} ({raw.dtype})"
        )
    if raw.ndim != 1:
        raise ExpressionError(
            f"bias file {path}: expected one value per distance (a 1-D array), found shape "
            f"{raw.shape}"
        )
    values = raw.astype(float)
    if values.size == 0:
        raise ExpressionError(f"bias file {path} has no values")
    bad = np.flatnonzero(~np.isfinite(values))
    if bad.size:
        raise ExpressionError(f"bias file {path}: value at distance {bad[0]} is not finite")
    return values


#: what a bias file may be, for messages about a file that is none of it
BIAS_EXPECTED = (
    "expected a NumPy .npy array, an .npz holding one array, or a text file of numbers "
    "(either may be gzip, bz2 or xz compressed)"
)


def _read_bias_array(path: Path) -> np.ndarray:
    """The array in a bias file, by its content (not its suffix): a NumPy ``.npy`` (any
    case), an ``.npz`` with one array, or numbers as text; compressed files are read."""
    import io

    data, kind = read_bytes(path)
    if kind == "npy":
        return np.load(io.BytesIO(data), allow_pickle=False)
    if kind == "zip":
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                names = list(npz.files)
                if len(names) != 1:
                    raise ValueError(
                        f"an .npz archive with {len(names)} arrays "
                        f"({', '.join(names[:5]) or 'none'}); {BIAS_EXPECTED}"
                    )
                return npz[names[0]]
        except (OSError, EOFError) as exc:  # a zip that is not an .npz
            raise ValueError(f"{DESCRIPTION[kind]} that is not an .npz ({exc})") from None
    if kind != "text":
        raise ValueError(f"{DESCRIPTION[kind]}; {BIAS_EXPECTED}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError(f"neither a NumPy array nor UTF-8 text; {BIAS_EXPECTED}") from None
    return _read_text(text)


def _read_text(text: str) -> np.ndarray:
    """A text file of numbers: one per line (or one row); 2-D text stays 2-D."""
    import io
    import warnings

    with warnings.catch_warnings():  # an empty file: "has no values" is said below
        warnings.simplefilter("ignore", UserWarning)
        arr = np.loadtxt(io.StringIO(text), ndmin=2, dtype=float)
    return arr.ravel() if 1 in arr.shape else arr


def _exact_slope(y: np.ndarray) -> sp.Rational:
    """The least-squares slope of y against 0, 1, ..., in exact rational arithmetic on the
    binary values (a constant gives exactly 0, not float noise).

    >>> _exact_slope(np.array([-1000.0] * 5)), _exact_slope(np.array([0.0, -0.5, -1.0]))
    (0, -1/2)
    """
    from fractions import Fraction

    ys = [Fraction(float(v)) for v in y]
    xm, ym = Fraction(len(ys) - 1, 2), sum(ys) / len(ys)
    num = sum((i - xm) * (v - ym) for i, v in enumerate(ys))
    den = sum((i - xm) ** 2 for i in range(len(ys)))
    q = num / den
    return sp.Rational(q.numerator, q.denominator)


def load_bias_file(path: str | Path, tail: str = "constant", start: int = 0) -> RPE:
    """A learned bias, one value per distance 0, 1, ..., L-1 (.npy or text), as an RPE.

    ``tail`` says what is assumed beyond the last value (see :data:`TAIL_ASSUMPTIONS`).
    """
    path = Path(path)
    values = read_bias_values(path)
    if tail not in TAIL_ASSUMPTIONS:
        raise ExpressionError(
            f"unknown tail assumption {tail!r}; use {', '.join(TAIL_ASSUMPTIONS)}"
        )
    L = values.size
    last = binary_value(values[-1])
    if tail == "constant":
        b = sp.exp(last) + 0 * N
    elif tail == "zero":
        b = sp.Integer(0) + 0 * N
    else:
        m = max(2, L // 10)
        if L < 2:
            raise ExpressionError("a linear tail needs at least two values")
        b = sp.exp(last + _exact_slope(values[-m:]) * (N - (start + L - 1)))
    return RPE(
        name=f"bias-file:{path.name}",
        b=b,
        params={},
        free_params=[],
        start=start,
        description=f"learned bias, {L} values",
        source=str(path),
        head=BiasHead(values),
        tail_assumption=TAIL_ASSUMPTIONS[tail],
    )


#: a learned bias whose largest value M has |M| above this is summed as exp(M) times the sum
#: of exp(bias - M) (:func:`bias_log_scale`): python-flint's exp of 1e308 is infinite, and
#: e^M with M = 1e19 has a binary exponent of 1.4e19, too long to print exactly
LOG_SCALE_ABOVE = 10_000.0


def bias_log_scale(rpe: RPE) -> float | None:
    r"""M, the largest value of a learned bias (``rpe.head``), when :math:`|M|` exceeds
    :data:`LOG_SCALE_ABOVE`, else None.  Then :math:`B = e^M \sum_i e^{\beta_i - M}`
    (``rpe.scaled(-M)``, exact): every term of the rescaled series is at most 1 and the
    largest is 1, so its sum lies in [1, L + tail], whatever the values.  M is a float64 of
    the file (exact); a convergent tail (linear with slope < 0, or zero) never exceeds the
    last value, so M bounds every term.

    >>> r = RPE("x", sp.Integer(0), start=0, head=BiasHead(np.array([1e308, 0.0, -1.0])))
    >>> bias_log_scale(r), bias_log_scale(RPE("y", 1 / N**2))
    (1e+308, None)
    >>> r.scaled(-binary_value(1e308)).head.mp(0)
    mpf('1.0')
    """
    if rpe.head is None or not len(rpe.head):
        return None
    M = float(np.max(rpe.head.bias))
    return M if abs(M) > LOG_SCALE_ABOVE else None


def formula_log_scale(rpe: RPE) -> sp.Rational | None:
    r"""M, the constant term of :math:`\log b_n` (``expand_log``), when the series is a
    formula (no head) and M is an exact rational with :math:`|M|` above
    :data:`LOG_SCALE_ABOVE`, else None.  Then :math:`B = e^M \sum_n b_n e^{-M}`
    (``rpe.scaled(-M)``, exact): ``exp(1e308 - n)`` is summed as :math:`e^{10^{308}}` times
    the geometric series :math:`\sum e^{-n}`, as a learned bias is by
    :func:`bias_log_scale`.

    >>> formula_log_scale(RPE("x", sp.exp(10**308 - N))) == 10**308
    True
    >>> formula_log_scale(RPE("y", N**2 * sp.exp(-N))) is None
    True
    """
    if rpe.head is not None or rpe.b == 0:
        return None
    try:
        with step_budget(1.0):
            log_b = sp.expand(sp.expand_log(sp.log(rpe.b), force=True))
    except (StepTimeout, TypeError, ValueError, RecursionError):
        return None
    M = sum((t for t in sp.Add.make_args(log_b) if t.is_number), sp.Integer(0))
    if not (M.is_Rational and abs(M) > LOG_SCALE_ABOVE):
        return None
    return M


def log_b_values(b_expr: sp.Expr | RPE, distances: npt.ArrayLike, start: int = 1) -> np.ndarray:
    """log b_{start + t} for each distance t (float64 array; -inf where b = 0).

    This is the attention bias at distance t under the project's index convention.
    ``b_expr`` may be a sympy expression or an :class:`RPE` (whose ``head`` is used for
    the first distances).
    """
    t = np.asarray(distances)
    if t.size and (t.min() < 0 or not np.issubdtype(t.dtype, np.integer)):
        raise ValueError("distances must be integers >= 0")
    head = None
    if isinstance(b_expr, RPE):
        head, b_expr = b_expr.head, b_expr.b
    if b_expr.free_symbols - {N}:
        raise ValueError(
            f"free parameters {sorted(s.name for s in b_expr.free_symbols - {N})} need values"
        )
    out = np.empty(t.shape, dtype=float)
    mask = np.ones(t.shape, dtype=bool)
    if head is not None:
        inside = t < len(head)
        out[inside] = head.log_values()[t[inside]]
        mask = ~inside
    if mask.any() and b_expr == 0:  # a zero tail: log 0 (sympy's zoo has no numpy name)
        out[mask] = -np.inf
    elif mask.any():
        out[mask] = log_b_numpy(b_expr)((start + t[mask]).astype(float))
    return out


def numpy_function(expr: sp.Expr) -> Callable[[np.ndarray], np.ndarray]:
    """``lambdify(n, expr, "numpy")`` without its one-off ``from numpy import *`` (a tenth of a
    second of the command): the printer writes ``numpy.exp`` and the namespace holds numpy,
    math and functools; a name outside them falls back to sympy's full numpy namespace.

    >>> numpy_function(N**2 + sp.exp(-N))(np.array([1.0, 2.0])).round(4).tolist()
    [1.3679, 4.1353]
    """
    import functools

    from sympy.printing.numpy import NumPyPrinter

    printer = NumPyPrinter({"fully_qualified_modules": True, "allow_unknown_functions": True})
    fast = sp.lambdify(
        N, expr, modules=[{"numpy": np, "math": math, "functools": functools}], printer=printer
    )
    slow = []

    def evaluate(n):
        if not slow:
            try:
                return fast(n)
            except NameError:
                slow.append(sp.lambdify(N, expr, modules="numpy"))
        return slow[0](n)

    return evaluate


def log_b_numpy(b_expr: sp.Expr) -> Callable[[np.ndarray], np.ndarray]:
    lb = sp.expand_log(sp.log(b_expr), force=True)
    f = numpy_function(lb)

    def evaluate(n):
        with np.errstate(all="ignore"):
            v = np.asarray(f(n), dtype=complex if lb.has(sp.I) else float)
        v = np.broadcast_to(v, n.shape).astype(complex if np.iscomplexobj(v) else float)
        if np.iscomplexobj(v):
            v = np.where(np.abs(v.imag) < 1e-12, v.real, np.nan).real
        return np.where(np.isnan(v) & (n >= 0), _fallback(b_expr, n), v)

    return evaluate


def _fallback(b_expr, n):
    """log(b) via b itself where the log form failed (e.g. log of 0 -> -inf)."""
    g = numpy_function(b_expr)
    with np.errstate(all="ignore"):
        v = np.broadcast_to(np.asarray(g(n), dtype=float), n.shape)
        return np.log(v)
