"""Relative positional encodings as an additive attention bias from the distance.

Every RPE here gives, for head ``h`` and distance ``t = i - j >= 0``, the bias
``log b_{h, start + t}`` added to the attention logit ``q_i . k_j / sqrt(d)`` (Eq. 4-5 of
the RPE paper, ``b_n = exp(RPE)``).  **Project index convention** (shared with
``theory``): distance ``t = 0, 1, 2, ...`` uses ``n = start + t`` with ``start = 1``.

.. math::

    O = \\mathrm{Softmax}(QK^\\top/\\sqrt{d} + M + P)\\,V,\\qquad
    P_{ij} = \\log b_{\\mathrm{start} + i - j}

Named RPEs (``build_rpe(name, n_heads)``):

========================  ========================================================
``type1``                 b_n = 1/n^2                    (RPE paper Sec. 3.4)
``type2``                 b_n = exp(-ln^2 n)             (RPE paper Sec. 3.4)
``inv_n``  (``1/n``)      b_n = 1/n          divergent control (Sec. 4)
``inv_nlogn``             b_n = 1/(n ln n)   divergent control; start = 2 because b_1
                          is infinite (1/(1 * ln 1)); distance t uses n = t + 2
``alibi``                 bias = -m_h t, m_h = 2^(-8(h+1)/H)  (ALiBi slopes)
``kerple_log``            bias = -r_h ln(1 + k_h t), r_h, k_h > 0 learnable
``kerple_power``          bias = -k_h t^(r_h), k_h > 0, 0 < r_h <= 2 learnable
``sandwich``              bias = k_h (sum_{j=1}^{d/2} cos(t / 10000^(2j/d)) - d/2),
                          d = 128, k_h = ALiBi slope m_h
``t5``                    learned bias per (head, log bucket), 32 buckets, max 128
``sinusoidal``            no bias; absolute sinusoidal embeddings added to the input
``none``                  no position information at all (NoPE)
any other text            a formula for b_n in ``n`` (theory parser), e.g.
                          ``"exp(-ln(n)**2)"``; bias = log b_{start+t}
========================  ========================================================

>>> import torch
>>> rpe = build_rpe("type1", n_heads=2)
>>> [round(v, 4) for v in rpe.log_b(torch.arange(3))[0].tolist()]  # log 1, log 1/4, log 1/9
[0.0, -1.3863, -2.1972]
"""

from __future__ import annotations

import itertools

import numpy as np
import torch
import torch.nn as nn

from theory.series.expressions import ExpressionError, N, parse_expression
from theory.series.rpe_library import log_b_values, resolve_rpe, t5_bucket
from theory.series.rpe_names import (
    RPE_NAMES,
    canonical_rpe_name,
    suggest_rpe_name,
    underscore_name,
)

#: name -> (formula for b_n, start index, theory.series.rpe_library name) of each fixed RPE;
#: names, aliases, labels and formulas all come from theory.series.rpe_names.RPE_NAMES
_CPU = torch.empty(0)  # the device of an RPE without parameters or buffers
FIXED_FORMULAS = {
    underscore_name(n): (e.formula, e.start, n)
    for n, e in RPE_NAMES.items()
    if e.formula is not None
}
ALIASES = {
    **{a: underscore_name(n) for n, e in RPE_NAMES.items() for a in e.formula_aliases + e.aliases},
    **{n: underscore_name(n) for n in RPE_NAMES if "-" in n},
}
NAMED = tuple(underscore_name(n) for n in RPE_NAMES)
#: the paper's set of RPEs (Tables 4-6) in the order the bundle trains them
PAPER_SET = (
    "sinusoidal",
    "alibi",
    "kerple_log",
    "kerple_power",
    "sandwich",
    "type1",
    "type2",
    "inv_n",
    "inv_nlogn",
)
#: the paper's label of each RPE
LABELS = {underscore_name(n): e.label for n, e in RPE_NAMES.items()}


def alibi_slopes(n_heads: int) -> torch.Tensor:
    """ALiBi head slopes 2^(-8(h+1)/H), h = 0..H-1 (Press et al., geometric sequence)."""
    return torch.tensor([2.0 ** (-8.0 * (h + 1) / n_heads) for h in range(n_heads)])


class RPE(nn.Module):
    """Base class: ``log_b(t) -> (H, T)`` bias per head for distances ``t`` (long, >= 0)."""

    absolute = False
    name = "rpe"

    def __init__(self, n_heads: int):
        super().__init__()
        self.n_heads = n_heads

    def log_b(self, t: torch.Tensor) -> torch.Tensor:  # pragma: no cover - abstract
        raise NotImplementedError

    def bias_matrix(self, length: int) -> torch.Tensor:
        """(H, L, L) additive bias: log b at distance i-j for j <= i, -inf above."""
        dev = next(itertools.chain(self.parameters(), self.buffers()), _CPU).device
        idx = torch.arange(length, device=dev)
        dist = idx[:, None] - idx[None, :]  # (L, L) i - j
        bias = self.log_b(idx).to(dev)  # (H, L); a formula's values are computed on the CPU
        mat = bias[:, dist.clamp(min=0)]  # (H, L, L)
        return mat.masked_fill(dist < 0, float("-inf"))

    def describe(self) -> dict:
        """Name and (learned) parameters, JSON-able."""
        return {"name": self.name}


class ExpressionRPE(RPE):
    """bias(t) = log b_{start+t} for a formula ``b_n`` of the theory parser (same heads).

    Values come from :func:`theory.series.rpe_library.log_b_values` (the theory's own log b_n),
    so the model and the TRF use one definition of the series.
    """

    def __init__(
        self, n_heads: int, formula: str, start: int = 1, name: str | None = None, b_expr=None
    ):
        super().__init__(n_heads)
        self.formula, self.start = formula, int(start)
        self.name = name or formula
        self.b_expr = parse_expression(formula) if b_expr is None else b_expr
        if self.b_expr.free_symbols - {N}:
            raise ExpressionError(
                f"formula {formula!r} has free parameters "
                f"{sorted(map(str, self.b_expr.free_symbols - {N}))}; "
                "give numbers"
            )

    def log_b(self, t: torch.Tensor) -> torch.Tensor:
        d = t.detach().cpu().numpy().astype(np.int64)
        with np.errstate(all="ignore"):
            vals = log_b_values(self.b_expr, d, start=self.start) + 0.0  # no -0.0
        if not np.all(np.isfinite(vals)):
            bad = self.start + d[~np.isfinite(vals)][0]
            raise ExpressionError(f"log b_n is not finite at n = {bad} for b_n = {self.b_expr}")
        return torch.as_tensor(vals, dtype=torch.float32).expand(self.n_heads, -1)

    def describe(self) -> dict:
        return {"name": self.name, "formula": self.formula, "start": self.start}


class AlibiRPE(RPE):
    """bias = -m_h t (fixed slopes); b_n = exp(-m_h (n - 1)) in the project convention."""

    name = "alibi"

    def __init__(self, n_heads):
        super().__init__(n_heads)
        self.register_buffer("slopes", alibi_slopes(n_heads))

    def log_b(self, t: torch.Tensor) -> torch.Tensor:
        return -self.slopes[:, None] * t[None, :].float()

    def describe(self) -> dict:
        return {"name": self.name, "slopes": self.slopes.tolist()}


class KerpleLogRPE(RPE):
    """bias = -r_h ln(1 + k_h t) with r_h, k_h > 0 learnable (Kerple log; RPE paper Eq. 32).

    Constraint as in Kerple: parameters are clamped to >= 1e-2 in the forward pass.
    Initialisation (seeded by the model's seed): r_h ~ U(0, 2), k_h ~ U(0, 1).
    """

    name = "kerple_log"

    def __init__(self, n_heads):
        super().__init__(n_heads)
        self.r = nn.Parameter(torch.rand(n_heads) * 2)
        self.k = nn.Parameter(torch.rand(n_heads))

    def params(self) -> tuple[torch.Tensor, torch.Tensor]:
        return self.r.clamp(min=1e-2), self.k.clamp(min=1e-2)

    def log_b(self, t: torch.Tensor) -> torch.Tensor:
        r, k = self.params()
        return -r[:, None] * torch.log1p(k[:, None] * t[None, :].float())

    def describe(self) -> dict:
        r, k = self.params()
        return {"name": self.name, "r": r.tolist(), "k": k.tolist()}


class KerplePowerRPE(RPE):
    """bias = -k_h t^(r_h), k_h > 0, 0 < r_h <= 2 (Kerple power; RPE paper Eq. 34)."""

    name = "kerple_power"

    def __init__(self, n_heads):
        super().__init__(n_heads)
        self.r = nn.Parameter(torch.rand(n_heads) * 2)
        self.k = nn.Parameter(torch.rand(n_heads))

    def params(self) -> tuple[torch.Tensor, torch.Tensor]:
        return self.r.clamp(min=1e-2, max=2.0), self.k.clamp(min=1e-2)

    def log_b(self, t: torch.Tensor) -> torch.Tensor:
        r, k = self.params()
        return -k[:, None] * t[None, :].float().pow(r[:, None])

    def describe(self) -> dict:
        r, k = self.params()
        return {"name": self.name, "r": r.tolist(), "k": k.tolist()}


class SandwichRPE(RPE):
    """bias = k_h (sum_{j=1}^{d/2} cos(t / 10000^(2j/d)) - d/2) (RPE paper App. B)."""

    name = "sandwich"

    def __init__(self, n_heads, dim: int = 128, base: float = 10000.0):
        super().__init__(n_heads)
        self.dim, self.base = dim, base
        self.register_buffer("k", alibi_slopes(n_heads))
        j = torch.arange(1, dim // 2 + 1, dtype=torch.float64)
        self.register_buffer("inv_freq", base ** (-2.0 * j / dim))

    def log_b(self, t: torch.Tensor) -> torch.Tensor:
        s = torch.cos(t.double()[:, None] * self.inv_freq[None, :]).sum(-1) - self.dim / 2
        return (self.k[:, None].double() * s[None, :]).float()

    def describe(self) -> dict:
        return {"name": self.name, "k": self.k.tolist(), "dim": self.dim, "base": self.base}


class T5RPE(RPE):
    """Learned bias per (head, bucket); causal log buckets as in T5 (32 buckets, max 128)."""

    name = "t5"

    def __init__(self, n_heads, num_buckets: int = 32, max_distance: int = 128):
        super().__init__(n_heads)
        self.num_buckets, self.max_distance = num_buckets, max_distance
        self.table = nn.Parameter(torch.zeros(n_heads, num_buckets))

    def bucket(self, t: torch.Tensor) -> torch.Tensor:
        """T5's causal bucket of each distance (theory.series.rpe_library.t5_bucket)."""
        b = t5_bucket(t.detach().cpu().numpy(), self.num_buckets, self.max_distance)
        return torch.as_tensor(b, dtype=torch.long, device=t.device)

    def log_b(self, t: torch.Tensor) -> torch.Tensor:
        return self.table[:, self.bucket(t)]

    def describe(self) -> dict:
        return {"name": self.name, "table": self.table.tolist()}


class NoBias(RPE):
    """No relative bias; ``absolute`` says whether sinusoidal embeddings are added."""

    def __init__(self, n_heads, absolute: bool):
        super().__init__(n_heads)
        self.absolute = absolute
        self.name = "sinusoidal" if absolute else "none"

    def log_b(self, t: torch.Tensor) -> torch.Tensor:
        return torch.zeros(self.n_heads, len(t))


def canonical_name(spec: str) -> str:
    """Resolve names in either spelling (``kerple-log``, ``Kerple_Log`` -> ``kerple_log``)
    and aliases (``"1/n"`` -> ``inv_n``); formulas are returned unchanged."""
    s = spec.strip()
    name = canonical_rpe_name(s)
    return underscore_name(name) if name is not None else ALIASES.get(s, s)


def build_rpe(spec: str, n_heads: int) -> RPE:
    """The RPE module for a name of :data:`NAMED` or a formula for b_n."""
    name = canonical_name(spec)
    if name in FIXED_FORMULAS:
        formula, _, theory_name = FIXED_FORMULAS[name]
        th = resolve_rpe(theory_name)  # the theory's b_n and start for this name
        return ExpressionRPE(n_heads, formula, start=th.start, name=name, b_expr=th.b)
    simple = {
        "alibi": AlibiRPE,
        "kerple_log": KerpleLogRPE,
        "kerple_power": KerplePowerRPE,
        "sandwich": SandwichRPE,
        "t5": T5RPE,
    }
    if name in simple:
        return simple[name](n_heads)
    if name in ("sinusoidal", "none"):
        return NoBias(n_heads, absolute=(name == "sinusoidal"))
    return ExpressionRPE(n_heads, spec, start=1)


def check_rpe(spec: str, flag: str = "--rpe", n_heads: int = 4, length: int = 64) -> None:
    """Build the RPE of ``spec`` once, before any data is read: a bad name or formula is a
    ``ValueError`` naming ``flag`` and the value, whose hint names only what a training
    command accepts (a named RPE; formulas in ``n`` without free parameters).

    >>> check_rpe("kerple", "--rpes")
    Traceback (most recent call last):
    ValueError: --rpes kerple: unknown name 'kerple'; did you mean kerple_log?
    """
    try:
        build_rpe(spec, n_heads).bias_matrix(length)
    except ValueError as exc:
        # the parser's hints name the flags of theory.trf (--free, --param, --rpe): dropped
        reason = "; ".join(c.strip() for c in str(exc).split(";") if "--" not in c)
        guess = suggest_rpe_name(spec, series_only=False)
        if guess is not None:
            reason += f"; did you mean {underscore_name(guess)}?"
        elif "unknown name" in reason:
            reason += (
                f"; give a named RPE ({', '.join(NAMED)}) or a formula in n with numbers "
                "for its parameters"
            )
        shown = spec if spec.strip() == spec and spec else repr(spec)
        raise ValueError(f"{flag} {shown}: {reason}") from None


def sinusoidal_embedding(length: int, dim: int) -> torch.Tensor:
    """(L, D) absolute sinusoidal position embedding of Vaswani et al. (any length)."""
    pos = torch.arange(length, dtype=torch.float32)[:, None]
    i = torch.arange(0, dim, 2, dtype=torch.float32)[None, :]
    ang = pos / (10000.0 ** (i / dim))
    emb = torch.zeros(length, dim)
    emb[:, 0::2], emb[:, 1::2] = torch.sin(ang), torch.cos(ang)
    return emb


__all__ = [
    "RPE",
    "build_rpe",
    "check_rpe",
    "canonical_name",
    "alibi_slopes",
    "sinusoidal_embedding",
    "PAPER_SET",
    "LABELS",
    "NAMED",
    "FIXED_FORMULAS",
]
