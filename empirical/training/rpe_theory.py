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


def rpe_series_specs(rpe: RPE) -> list[dict] | None:
    """JSON-able ``{"spec": name or formula, "params": {...}, "start": n0}`` per head,
    the learned values as plain floats; ``None`` when the RPE has no closed form.
    :func:`theory.series.rpe_library.resolve_rpe` turns one into its series.

    >>> from empirical.training.rpe import build_rpe
    >>> rpe_series_specs(build_rpe("alibi", 2))[0]
    {'spec': 'alibi', 'params': {'k': 0.0625}}
    """
    from empirical.training.rpe import (
        AlibiRPE,
        ExpressionRPE,
        KerpleLogRPE,
        KerplePowerRPE,
        SandwichRPE,
    )

    if isinstance(rpe, ExpressionRPE):
        return [{"spec": rpe.formula, "params": {}, "start": rpe.start}] * rpe.n_heads
    if isinstance(rpe, AlibiRPE):
        return [{"spec": "alibi", "params": {"k": float(m)}} for m in rpe.slopes.tolist()]
    if isinstance(rpe, (KerpleLogRPE, KerplePowerRPE)):
        r, k = rpe.params()
        name = "kerple-log" if isinstance(rpe, KerpleLogRPE) else "kerple-power"
        return [
            {"spec": name, "params": {"r": float(a), "k": float(b)}}
            for a, b in zip(r.tolist(), k.tolist())
        ]
    if isinstance(rpe, SandwichRPE):
        return [
            {"spec": "sandwich", "params": {"k": float(k), "r": int(rpe.base), "d": rpe.dim}}
            for k in rpe.k.tolist()
        ]
    return None


def series_of_spec(spec: dict) -> tuple[sp.Expr, int]:
    """(b_n, start) of one head's spec (:func:`rpe_series_specs`), built by
    :func:`theory.series.rpe_library.resolve_rpe` (learned floats as 17-digit sympy Floats).

    >>> series_of_spec({"spec": "alibi", "params": {"k": 0.0625}})
    (exp(-0.0625*n), 0)
    """
    params = {k: (_num(v) if isinstance(v, float) else v) for k, v in spec["params"].items()}
    th = resolve_rpe(spec["spec"], params)
    start = spec.get("start", th.start)
    return th.b, start


def rpe_b_expressions(rpe: RPE) -> list[tuple[sp.Expr, int]] | None:
    """[(b_n expr, start)] per head, or None when the RPE has no closed form."""
    from empirical.training.rpe import ExpressionRPE

    if isinstance(rpe, ExpressionRPE):
        return [(rpe.b_expr, rpe.start)] * rpe.n_heads
    specs = rpe_series_specs(rpe)
    return None if specs is None else [series_of_spec(s) for s in specs]
