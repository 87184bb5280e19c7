"""The theory-side series b_n of a (possibly trained) RPE module.

``rpe_b_expressions(rpe)`` returns one ``(b_n sympy expression, start)`` per head, built
with :func:`theory.series.rpe_library.resolve_rpe` from the module's (learned) parameters, so
the model's bias at distance t equals ``theory.series.rpe_library.log_b_values(b, [t], start)``.
It returns ``None`` for RPEs without a closed form (T5 buckets, sinusoidal, none).
Learned float32 values are passed as sympy Floats (17 digits).

>>> from empirical.training.rpe import build_rpe
>>> rpe_b_expressions(build_rpe("alibi", 2))[0]
(exp(-0.0625*n), 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import sympy as sp

from theory.series.rpe_library import resolve_rpe

if TYPE_CHECKING:
    from empirical.training.rpe import RPE


def _num(x: float):
    return sp.Float(float(x), 17)


def rpe_b_expressions(rpe: RPE) -> list[tuple[sp.Expr, int]] | None:
    """[(b_n expr, start)] per head, or None when the RPE has no closed form."""
    from empirical.training.rpe import (
        AlibiRPE,
        ExpressionRPE,
        KerpleLogRPE,
        KerplePowerRPE,
        SandwichRPE,
    )

    if isinstance(rpe, ExpressionRPE):
        return [(rpe.b_expr, rpe.start)] * rpe.n_heads
    if isinstance(rpe, AlibiRPE):
        heads = [("alibi", {"k": _num(m)}) for m in rpe.slopes.tolist()]
    elif isinstance(rpe, (KerpleLogRPE, KerplePowerRPE)):
        r, k = rpe.params()
        name = "kerple-log" if isinstance(rpe, KerpleLogRPE) else "kerple-power"
        heads = [(name, {"r": _num(a), "k": _num(b)}) for a, b in zip(r.tolist(), k.tolist())]
    elif isinstance(rpe, SandwichRPE):
        heads = [
            ("sandwich", {"k": _num(k), "r": int(rpe.base), "d": rpe.dim}) for k in rpe.k.tolist()
        ]
    else:
        return None
    out = []
    for name, params in heads:
        th = resolve_rpe(name, params)
        out.append((th.b, th.start))
    return out
