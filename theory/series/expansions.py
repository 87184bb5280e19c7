r"""Terms that are a convergent or divergent series in disguise: a certified expansion in a
small oscillating quantity.

For :math:`b_n = F(n)\,(G(n) + H(n))^{-s}` with G smooth, :math:`G \to +\infty`, H
oscillating and bounded by :math:`|H| \le \bar H` with :math:`\bar H/G \to 0`, and
:math:`|F| \le \bar F` (:func:`theory.series.bounds.bounds_or_none`), put
:math:`u = H/G`.  Taylor's theorem with the Lagrange remainder for :math:`(1+u)^{-s}` gives

.. math::
   b_n = F G^{-s} \sum_{k<K} \binom{-s}{k} u^k + r_n, \qquad
   |r_n| \le \Big|\binom{-s}{K}\Big| \, 2^{s+K}\, \bar F\, \bar H^K G^{-s-K}

once :math:`|u| \le 1/2` (all large n, since :math:`\bar H/G \to 0`).  When
:math:`\sum \bar F \bar H^K G^{-s-K}` converges (logarithmic test), :math:`\sum r_n`
converges absolutely, and :math:`\sum b_n` has the verdict of the expanded main part,
decided by the whole decision (Dirichlet's test, trigonometric minorants, equidistribution,
sums of series).  K is the least order up to :data:`MAX_ORDER` that makes the remainder
summable.

``sin(n)/(sqrt(n) + sin(n))`` = :math:`\sin n/\sqrt n - \sin^2 n/n + r_n`,
:math:`|r_n| \le 8 n^{-3/2}`: :math:`\sum \sin n/\sqrt n` converges (Dirichlet),
:math:`\sum \sin^2 n/n` diverges (its mean is 1/2: trigonometric minorant), so the series
diverges.  With :math:`n^{3/4}` in place of :math:`\sqrt n` the squared part is
:math:`\sin^2 n/n^{3/2}`, summable, and the series converges.  The same holds for
:math:`\log(1 + u)` and :math:`e^u - 1` with u oscillating, :math:`|u| \le \bar U \to 0`
(:func:`small_argument_test`).

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.numeric import decide_numeric
>>> expansion_test(P("sin(n)/(sqrt(n) + sin(n))"), decide_numeric).converges
False
>>> expansion_test(P("sin(n)/(n**(3/4) + sin(n))"), decide_numeric).converges
True
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.bounds import bounds_or_none
from theory.series.comparison_tests import log_test
from theory.series.decision import Decision, Undecided
from theory.series.expressions import N
from theory.series.limits import STEP_BUDGET, eventually_positive, limit_at_infinity, smooth

#: expansion orders tried, at most
MAX_ORDER = 4

Decide = Callable[[sp.Expr], Decision]


def _split_denominator(b: sp.Expr):
    """(F, G, H, s) with b = F (G + H)^-s, G the smooth terms and H the oscillating terms
    of one factor's base (s > 0 a number), or None."""
    for f in sp.Mul.make_args(b):
        if not (isinstance(f, sp.Pow) and f.exp.is_number and f.exp.is_negative):
            continue
        base = f.base
        if not (isinstance(base, sp.Add) and base.has(N)):
            continue
        parts = sp.Add.make_args(base)
        G = sp.Add(*[p for p in parts if smooth(p)])
        H = sp.Add(*[p for p in parts if not smooth(p)])
        if G == 0 or H == 0:
            continue
        F = sp.Mul(*[g for g in sp.Mul.make_args(b) if g is not f])
        return F, G, H, -f.exp
    return None


def _abs_bound(e: sp.Expr) -> sp.Expr | None:
    """An expression >= |e| for all large n, free of oscillation, or None."""
    if smooth(e):
        if not e.has(N):
            return abs(e)
        with step_budget(STEP_BUDGET):
            return e if eventually_positive(e) else (-e if eventually_positive(-e) else None)
    lo, hi, _ = bounds_or_none(e)
    if lo is None or hi is None:
        return None
    return sp.Abs(lo) if lo == hi else sp.Abs(lo) + sp.Abs(hi)


def _small_argument(b: sp.Expr):
    """(form, u, c_k, C_K) for b = log(1 + u) or exp(u) - 1: b = sum_(1<=k<K) c_k u^k + R,
    |R| <= C_K |u|^K for |u| <= 1/2 (Lagrange: log's K-th derivative (K-1)!/(1+xi)^K
    gives |u|^K/(K (1 - |u|)^K) <= 2^K |u|^K/K; exp's gives e^(1/2) |u|^K/K! < 2 |u|^K/K!)."""
    if isinstance(b, sp.log):
        u = sp.expand(b.args[0] - 1)
        return (
            "log(1 + u)",
            u,
            lambda k: sp.Integer(-1) ** (k + 1) / k,
            lambda K: 2**K / sp.Integer(K),
        )
    exps = [p for p in sp.Add.make_args(b) if isinstance(p, sp.exp)]
    if isinstance(b, sp.Add) and len(exps) == 1 and sp.expand(b - exps[0]) == -1:
        return (
            "exp(u) - 1",
            exps[0].args[0],
            lambda k: 1 / sp.factorial(k),
            lambda K: 2 / sp.factorial(K),
        )
    return None


def small_argument_test(b: sp.Expr, decide: Decide) -> Decision | None:
    """b = log(1 + u) or exp(u) - 1 with u oscillating, |u| <= Ubar -> 0: the Taylor
    polynomial in u decides, the remainder C_K Ubar^K being summable
    (``log(1 + sin(n)/sqrt(n))`` = u - u^2/2 + r_n diverges)."""
    form = _small_argument(b)
    if form is None or smooth(form[1]):
        return None
    name, u, c, C = form
    try:
        Ub = _abs_bound(u)
        if Ub is None:
            return None
        with step_budget(STEP_BUDGET):
            if limit_at_infinity(Ub) != 0:
                return None
        for K in range(2, MAX_ORDER + 2):
            rem = log_test(Ub**K, conv=True, label=f"the remainder bound {Ub**K}")
            if rem is None:
                continue
            with step_budget(STEP_BUDGET):
                main = sp.expand(sum(c(k) * u**k for k in range(1, K)))
            d = decide(main)
            if d.converges is None:
                return None
            return Decision(
                d.converges,
                f"expansion of {name} in u = {u} (|u| <= {Ub} -> 0): b_n = {main} + r_n, "
                f"|r_n| <= {C(K)}*({Ub})**{K} for all large n (Lagrange remainder at order "
                f"{K}, |u| <= 1/2); sum |r_n| converges ({rem.certificate}); sum of the main "
                f"part {'converges' if d.converges else 'diverges'} ({d.certificate})",
                test="expansion",
            )
    except (Undecided, StepTimeout, TypeError, ValueError):
        return None
    return None


def expansion_test(b: sp.Expr, decide: Decide) -> Decision | None:
    """The verdict of the expanded main part of b = F (G + H)^-s (module doc), or of
    :func:`small_argument_test`, or None."""
    split = _split_denominator(b)
    if split is None:
        return small_argument_test(b, decide)
    F, G, H, s = split
    try:
        with step_budget(STEP_BUDGET):
            if limit_at_infinity(G) != sp.oo or not eventually_positive(G):
                return None
        Fb, Hb = _abs_bound(F), _abs_bound(H)
        if Fb is None or Hb is None:
            return None
        with step_budget(STEP_BUDGET):
            if limit_at_infinity(Hb / G) != 0:
                return None
        for K in range(1, MAX_ORDER + 1):
            major = Fb * Hb**K * G ** (-s - K)
            rem = log_test(major, conv=True, label=f"the remainder bound {major}")
            if rem is None:
                continue
            u = H / G
            with step_budget(STEP_BUDGET):
                main = sp.expand(F * G ** (-s) * sum(sp.binomial(-s, k) * u**k for k in range(K)))
            d = decide(main)
            if d.converges is None:
                return None
            bound = sp.powsimp(abs(sp.binomial(-s, K)) * 2 ** (s + K) * major)
            return Decision(
                d.converges,
                f"expansion in u = H/G = {u} (|u| <= {Hb}/({G}) -> 0): b_n = {main} + r_n, "
                f"|r_n| <= {bound} for all large n (Lagrange remainder of (1 + u)^(-{s}) "
                f"at order {K}, |u| <= 1/2); sum |r_n| converges ({rem.certificate}); "
                f"sum of the main part {'converges' if d.converges else 'diverges'} "
                f"({d.certificate})",
                test="expansion",
            )
    except (Undecided, StepTimeout, TypeError, ValueError):
        return None
    return None
