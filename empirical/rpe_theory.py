"""The theory-side b_n of a (possibly trained) RPE module, for theory.receptive_field.

Returns a list of ``(sympy expression in theory.expressions.N, start)``, one per head,
with learned parameters substituted as exact rationals of their float values, or
``None`` for RPEs without a closed form (T5 buckets, sinusoidal, none).  Index
convention: the bias at distance t is log b_{start + t}.

>>> from empirical.rpe import build_rpe
>>> rpe_b_expressions(build_rpe("alibi", 2))[0]
(exp(1/16 - n/16), 1)
"""
from __future__ import annotations

import sympy as sp

from theory.expressions import N


def _num(x: float):
    return sp.nsimplify(float(x), rational=True, tolerance=1e-12)


def rpe_b_expressions(rpe):
    """[(b_n expr, start)] per head, or None when the RPE has no closed form."""
    from .rpe import AlibiRPE, ExpressionRPE, KerpleLogRPE, KerplePowerRPE, SandwichRPE
    H = rpe.n_heads
    if isinstance(rpe, ExpressionRPE):
        return [(rpe.b_expr, rpe.start)] * H
    t = N - 1                                       # distance for start = 1
    if isinstance(rpe, AlibiRPE):
        return [(sp.exp(-_num(m) * t), 1) for m in rpe.slopes.tolist()]
    if isinstance(rpe, KerpleLogRPE):
        r, k = rpe.params()
        return [((1 + _num(kk) * t) ** (-_num(rr)), 1) for rr, kk in zip(r.tolist(), k.tolist())]
    if isinstance(rpe, KerplePowerRPE):
        r, k = rpe.params()
        return [(sp.exp(-_num(kk) * t ** _num(rr)), 1) for rr, kk in zip(r.tolist(), k.tolist())]
    if isinstance(rpe, SandwichRPE):
        d = rpe.dim
        s = sum(sp.cos(t / sp.Integer(int(rpe.base)) ** sp.Rational(2 * j, d))
                for j in range(1, d // 2 + 1))
        return [(sp.exp(_num(k) * (s - sp.Rational(d, 2))), 1) for k in rpe.k.tolist()]
    return None
