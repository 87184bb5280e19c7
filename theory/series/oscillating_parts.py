r"""A series whose terms are an oscillating part plus a part of one sign:
:math:`b_n = g(n)\,t(n) + P(n)`, decided from the two parts.

Here :math:`t` is a trigonometric polynomial with no constant component,
:math:`t(n) = \sum_j c_j e^{i\theta_j n}` with every :math:`\theta_j \notin 2\pi\mathbb{Z}`
(``sin(n)``, ``cos(2*n)``, ``(-1)**n``), not 0 at every integer; :math:`g` and :math:`P`
are smooth (exp-log: eventually monotone, with a limit in :math:`[0, \infty]`), :math:`g`
and :math:`P` each of one sign for large n.  Then

* :math:`g \to 0`: :math:`\sum g t` converges (Dirichlet's test: g eventually monotone, the
  partial sums of :math:`e^{i\theta n}` bounded), so :math:`\sum b_n` converges iff
  :math:`\sum P` does;
* :math:`|g| \ge c > 0` for large n: :math:`t(n)` does not tend to 0 (the mean of
  :math:`t(n)^2` over n is the sum of its squared amplitudes, > 0) and takes each sign
  infinitely often (its mean over n is 0: were it :math:`\le 0` for large n, the mean of
  :math:`|t|` and so of :math:`t^2 \le \max|t|\,|t|` would tend to 0).  If :math:`P \to 0`
  the terms do not tend to 0; if not, :math:`|P| \ge c' > 0` for large n and at the
  infinitely many n where :math:`g t` has the sign of :math:`P`,
  :math:`|b_n| \ge |P(n)| \ge c'`: the terms do not tend to 0 either.

So ``sin(n)/n**p + 1/n**q`` converges iff p > 0 and q > 1 (the free-parameter form is in
:mod:`theory.series.family_parts`).
"""

from __future__ import annotations

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.decision import Decision, Undecided
from theory.series.expressions import N
from theory.series.limits import (
    STEP_BUDGET,
    eventual_sign,
    limit_at_infinity,
    nonzero_constant,
    smooth,
)
from theory.series.sign_changing import (
    Decide,
    dirichlet_test,
    nonzero_at_integers,
    oscillation_not_to_zero_test,
)
from theory.series.trig_minorants import IN_2PI_Z_REASON, frequency_pieces

#: parts of the expanded terms looked at, at most
MAX_PARTS = 12
#: summands of the expanded terms collected over one oscillating factor, at most
MAX_SUMMANDS = 6


def _sign_power(e: sp.Basic) -> bool:
    return isinstance(e, sp.Pow) and e.base == -1 and e.exp.has(N)


def oscillating_factor(u: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(g, p) with u = g p, p the product of the factors holding sin/cos that oscillate or
    (-1)**(...), g the rest (smooth; 1 when there is none); None when no factor oscillates."""
    g, p = sp.Integer(1), sp.Integer(1)
    for f in sp.Mul.make_args(u):
        if (f.has(sp.sin, sp.cos) and not smooth(f)) or any(
            map(_sign_power, sp.preorder_traversal(f))
        ):
            p *= f
        else:
            g *= f
    if p == 1 or not smooth(g):
        return None
    return g, p


def split_oscillating_part(b: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr, list] | None:
    """(g, p, P, thetas) with b = g p + P for every n: the summands of b with an oscillating
    factor (:func:`oscillating_factor`) share the envelope g up
    to constant factors, p is their trigonometric polynomial without its constant
    component (which goes into P with g), thetas its frequencies; P is smooth and free of
    (-1)**n.  None for another form (no oscillating summand, or no smooth one left), or
    where a step runs out of its budget or sympy cannot take it."""
    try:
        return _split(b)
    except (StepTimeout, TypeError, ValueError):
        return None


def _split(b: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr, list] | None:
    with step_budget(STEP_BUDGET):
        parts = sp.Add.make_args(sp.expand(b))
    if not 1 < len(parts) <= MAX_PARTS:
        return None
    osc, rest = [], []
    for u in parts:
        split = oscillating_factor(u)
        if split is not None:
            osc.append(split)
        elif smooth(u) and not u.has(sp.floor, sp.ceiling, sp.frac, sp.Piecewise):
            rest.append(u)
        else:
            return None
    if not osc or not rest:
        return None
    g = osc[0][0]
    p = sp.Integer(0)
    for gu, pu in osc:
        ratio = sp.powsimp(sp.cancel(gu / g), force=True)
        if ratio.has(N):
            return None
        p += ratio * pu
    fp = frequency_pieces(p)
    if fp is None or not fp[1]:
        return None
    c0, pieces = fp
    if c0 != 0 and (c0.free_symbols or not c0.is_real):
        return None
    p = sp.expand(p - c0)
    if not nonzero_at_integers(p):
        return None
    thetas = sorted({str(k) for _, k in pieces})
    return g, p, sp.Add(*rest) + c0 * g, thetas


def _head(g, p, P, thetas) -> str:
    return (
        f"b_n = g(n) t(n) + P(n) with g = {g}, P = {P} smooth and t = {p} = "
        f"sum_j c_j e^(i theta_j n), theta_j in {{{', '.join(thetas)}}}, none a multiple "
        f"of 2*pi ({IN_2PI_Z_REASON}), no constant component and not 0 at every integer"
    )


def oscillating_part_test(b: sp.Expr, decide: Decide) -> Decision | None:
    """An oscillating part plus a smooth part of one sign (module doc): where the envelope
    g tends to 0 the verdict of sum P, else divergence (the terms do not tend to 0).

    >>> from theory.series.expressions import parse_expression as P
    >>> from theory.series.numeric import decide_numeric
    >>> oscillating_part_test(P("n*sin(n) + 1/sqrt(n)"), decide_numeric).converges
    False
    >>> oscillating_part_test(P("sin(n)/n + 1/n**2"), decide_numeric).converges
    True
    """
    split = split_oscillating_part(b)
    if split is None:
        return None
    g, p, P, thetas = split
    head = _head(g, p, P, thetas)
    lim_g = limit_at_infinity(g)
    if lim_g is None or not lim_g.is_number or lim_g is sp.nan:
        return None
    if lim_g == 0:
        if eventual_sign(sp.diff(g, N)) not in (1, -1):
            return None
        try:
            d = decide(P)
        except (Undecided, StepTimeout):
            return None
        if d.converges is None:
            return None
        d.certificate = (
            f"{head}: g -> 0 eventually monotone, so sum g t converges (Dirichlet's test) "
            f"and sum b_n converges iff sum P does; sum P "
            f"{'converges' if d.converges else 'diverges'}: {d.certificate}"
        )
        d.test = "oscillating part plus one-signed part"
        return d
    if not (lim_g.is_infinite or nonzero_constant(lim_g)):
        return None
    lim_p = limit_at_infinity(P)
    if lim_p is None or not lim_p.is_number or lim_p is sp.nan:
        return None
    if lim_p == 0:
        why = "P -> 0, so the terms do not tend to 0"
    elif lim_p.is_infinite or nonzero_constant(lim_p):
        why = (
            f"P -> {lim_p} != 0, and at the infinitely many n where g t has the sign of "
            "P, |b_n| >= |P(n)|, bounded away from 0: the terms do not tend to 0"
        )
    else:
        return None
    return Decision(
        False,
        f"{head}: g -> {lim_g} != 0, so g t does not tend to 0 and takes each sign "
        f"infinitely often (t has mean 0 and a positive mean square over n); {why}",
        test="oscillating part plus one-signed part",
    )


def collected_oscillation(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(G, t) with b = G t for every n: every summand of b (expanded) is g_i c_i t with
    g_i smooth, c_i free of n and t the same oscillating factor; None for another form."""
    try:
        with step_budget(STEP_BUDGET):
            parts = sp.Add.make_args(sp.expand(b))
            if len(parts) > MAX_SUMMANDS:
                return None
            split = [oscillating_factor(u) for u in parts]
            if None in split:
                return None
            t = split[0][1]
            G = sp.Integer(0)
            for g, p in split:
                ratio = sp.cancel(p / t)
                if ratio.has(N):
                    return None
                G += ratio * g
    except (StepTimeout, TypeError, ValueError):
        return None
    return G, t


def collected_factor_test(b: sp.Expr, decide: Decide) -> Decision | None:
    r"""Summands sharing one oscillating factor, collected: :math:`b_n = G(n)\,t(n)`
    (:func:`collected_oscillation`, at least two summands), then Dirichlet's test (G -> 0
    eventually monotone) or the terms not tending to 0 (:math:`|G| \to c \ne 0`) on the
    product, with its own certificate.

    >>> from theory.series.expressions import parse_expression as P
    >>> from theory.series.numeric import decide_numeric
    >>> collected_factor_test(P("n*sin(n) - sqrt(n)*sin(n)"), decide_numeric).converges
    False
    """
    if len(sp.Add.make_args(b)) < 2:
        return None
    split = collected_oscillation(b)
    if split is None:
        return None
    G, t = split
    if not G.has(N):
        return None
    product = sp.Mul(G, t)
    d = dirichlet_test(product, decide) or oscillation_not_to_zero_test(product)
    if d is None:
        return None
    d.certificate = f"b_n = ({G})*{t} (summands collected over {t}); {d.certificate}"
    return d
