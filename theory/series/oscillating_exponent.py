r"""The verdict of :math:`\sum P(n)\, n^{E(\theta_n)}`: a power of n whose exponent oscillates.

For ``1/n**(3/2 + sin(n))`` the terms are :math:`n^{-1/2}` where :math:`\sin n \approx -1`
and :math:`n^{-5/2}` where :math:`\sin n \approx 1`: no power of n bounds them from below
for all n, and the logarithmic test sees only :math:`n^{-5/2} \le b_n \le n^{-1/2}`.
Here the terms are split as :math:`b_n = P(n)\, n^{E}` with P free of sin/cos and
:math:`E = E(\theta_n)` a function of one angle :math:`\theta_n = a n`
(:func:`theory.series.arc_minorants.angle_function`).  Let
:math:`p = \lim \log P / \log n` (finite; P > 0 for large n).  If ball arithmetic finds an
angle :math:`\theta_1` with :math:`E(\theta_1) > -1 - p`, pick a rational :math:`e^*` with

.. math::  -1 - p < e^* < E(\theta_1).

Then for large n, :math:`P(n)\, n^{e^*} \ge n^{-1}` (its logarithm over :math:`\log n` tends
to :math:`p + e^* > -1`), and :math:`n^{E - e^*} \ge 1 \ge \min(1, E - e^*)` where
:math:`E \ge e^*`, so

.. math::
   b_n \ge \frac{1}{n}\, \max\big(0, \min(1, E(\theta_n) - e^*)\big) \qquad (n \text{ large}),

a nonnegative function h of the angle, positive near :math:`\theta_1`, over n.  The arc
minorant of :mod:`theory.series.arc_minorants` gives :math:`h \ge c\, q(\cos(\theta -
\theta_0))`, a cosine polynomial :math:`c(d_0 + \sum_{k \ge 1} d_k \cos k(\theta -
\theta_0))` of mean :math:`c d_0 > 0`; each :math:`\sum_n \cos(k(an - \theta_0))/n`
converges (Dirichlet: its partial sums are at most :math:`1/|\sin(ka/2)|`, ka not in
:math:`2\pi\mathbb{Z}`), so the series of the right side diverges with
:math:`c d_0 \sum 1/n`, and so does :math:`\sum b_n`.

**At the boundary**, E reaching :math:`-1 - p` exactly at an angle :math:`\theta^*` (sympy,
on the angles :math:`k\pi/12`: ``1/n**(2 + sin(n))``), the series still diverges when a is
rational, E is Lipschitz by its structure (sin/cos of integer multiples of the angle,
sums, products, powers, Abs, Max, Min: constant L) and
:math:`P/n^p \to K \in (0, \infty]`: for n in [N, 2N) with
:math:`|\theta_n - \theta^*| \le 1/\log 2N`, :math:`n^{E} \ge n^{-1-p} e^{-L}`, so
:math:`b_n \ge c/n`; by the Erdos-Turan inequality, with
:math:`|\sum_n e^{ihan}| \le 1/|\sin(ha/2)| \le C h^{41}` (Mahler 1953:
:math:`|\pi - p/q| > q^{-42}` for :math:`q \ge 2`, as in
:mod:`theory.series.abs_trig_means`), the discrepancy of :math:`an/2\pi` on [N, 2N) is
:math:`O(N^{-1/42})`, so at least :math:`N/(2\pi\log 2N)` of those n lie on the arc for
large N, and the dyadic blocks add at least :math:`c'/j`, a divergent series.  With
:math:`P/n^p \to 0` (``n**(-2 - sin(n))/log(n)``) or an irrational a nothing is said.

**Below**, a bound :math:`E \le e_{up}` on every arc of the circle (ball arithmetic on
1024 arcs) with :math:`p + e_{up} < -1` and :math:`P/n^p \to K < \infty` gives
:math:`b_n \le 2K n^{p + e_{up}}` for large n: the series converges
(``1/n**(19/10 + sin(n)**2*cos(n))``, whose E is at most :math:`-1.9 + 2/(3\sqrt 3)`).

>>> from theory.series.expressions import parse_expression as P
>>> d = oscillating_exponent_test(P("1/n**(3/2 + sin(n))"))
>>> d.converges
False
>>> oscillating_exponent_test(P("1/n**(2 + sin(n))")).test    # max E = -1 exactly
'oscillating exponent (boundary)'
>>> oscillating_exponent_test(P("n**(-2 - sin(n))/log(n)")) is None   # P/n^p -> 0
True
"""

from __future__ import annotations

import math

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import NotSupported, Undecided, arb_function, ball_precision
from theory.series.arc_minorants import THETA, angle_function, arc_minorant
from theory.series.decision import Decision
from theory.series.expressions import N
from theory.series.limits import eventual_sign, limit_at_infinity, smooth
from theory.series.trig_minorants import IN_2PI_Z_REASON, in_2pi_z

#: angles theta_j = 2 pi j / GRID where E is enclosed in ball arithmetic
GRID = 256
#: arcs covering the circle on which E is bounded above (the convergent side)
PIECES = 1024
_TRIG = (sp.sin, sp.cos)


def exponent_split(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(P, E) with b = P n^E, E holding sin/cos (``n**(-sin(n) - 3/2)``,
    ``exp(-log(n)*sin(n))/n``) and P a product of factors free of them and factors that
    are functions of an angle alone (``2 + cos(n)``), else None.

    >>> from theory.series.expressions import parse_expression as P
    >>> exponent_split(P("exp(1/n)/n**(3/2 + sin(n))"))
    (exp(1/n), -sin(n) - 3/2)
    """
    P, E, F = sp.Integer(1), sp.Integer(0), sp.Integer(1)
    for f in sp.Mul.make_args(b):
        if not f.has(*_TRIG):
            P *= f
        elif f.is_Pow and f.base == N:
            E += f.exp
        elif isinstance(f, sp.exp) and not sp.expand(f.args[0] / sp.log(N)).has(sp.log(N)):
            E += sp.expand(f.args[0] / sp.log(N))
        elif not f.has(sp.log(N)) and angle_function(f) is not None:
            F *= f  # a bounded factor of the angle alone (2 + cos(n)): bounded by arcs
        else:
            return None
    if E == 0 or not E.has(*_TRIG):
        return None
    return P * F, sp.expand(E)


@ball_precision
def _largest_lower(E_theta: sp.Expr) -> tuple[arb, sp.Expr] | None:
    """(lower end, angle) of the largest lower bound of E on the grid of angles."""
    try:
        f = arb_function(E_theta.subs(THETA, N))
    except NotSupported:
        return None
    best = None
    for j in range(GRID):
        theta = 2 * sp.pi * j / GRID
        try:
            v = f(2 * arb.pi() * j / GRID)
        except (Undecided, ArithmeticError, ValueError):
            continue
        if v.is_finite() and (best is None or v.lower() > best[0].lower()):
            best = (v, theta)
    return best


def oscillating_exponent_test(b: sp.Expr) -> Decision | None:
    """The verdict of sum P(n) n^E(theta_n) (module doc): divergence where E exceeds
    -1 - p at some angle (an arc minorant) or reaches it exactly (Mahler), convergence where
    a certified bound keeps E below -1 - p everywhere; None where the form or a step does
    not apply."""
    split = exponent_split(b)
    if split is None:
        return None
    P, E = split
    ah = angle_function(E)
    if ah is None:
        return None
    P, F = P.as_independent(*_TRIG, as_Add=False)
    bounds = _factor_bounds(F)
    if bounds is None or not smooth(P) or eventual_sign(P) != 1:
        return None
    a, E_theta = ah
    p = limit_at_infinity(sp.log(P) / sp.log(N))
    if p is None or not p.is_number or not p.is_finite or p.is_real is not True:
        return None
    head = f"oscillating exponent: b_n = P(n) n^E with P = {P}, E = {E} (theta = {a} n mod 2 pi)"
    if F != 1:
        f_lo, f_hi = bounds
        head += (
            f", times F = {F} in [{f_lo}, {f_hi}] (ball arithmetic on {PIECES} arcs): "
            f"{f_lo} P n^E <= b_n <= {f_hi} P n^E, a constant factor that changes no verdict"
        )
        K_scale = f_hi
    else:
        K_scale = 1
    found = _largest_lower(E_theta)
    if found is not None:
        d = _above(E, found, p, head)
        if d is not None:
            return d
    if not _lipschitz(E_theta):
        return None
    K = limit_at_infinity(P / N**p)
    if K is None or not (K.is_positive is True or K is sp.oo):
        return None
    if K is not sp.oo:
        d = _below(E_theta, p, K * K_scale, head)
        if d is not None:
            return d
    return _at_boundary(E_theta, a, p, K, head)


def _above(E: sp.Expr, found: tuple, p: sp.Expr, head: str) -> Decision | None:
    """Divergence where ball arithmetic shows E > -1 - p at an angle: the arc minorant."""
    v, theta1 = found
    floor_ = -1 - p  # E(theta1) must exceed it
    low = float(v.lower())
    mid = float(floor_) + (low - float(floor_)) / 4  # nearer -1 - p: a wider arc E > e*
    if not math.isfinite(mid) or not low > float(floor_):
        return None
    e_star = sp.Rational(round(mid * 2**30), 2**30)
    if not (e_star > floor_ and v.lower() > arb(int(e_star.p)) / int(e_star.q)):
        return None
    h = sp.Max(0, sp.Min(1, E - e_star))
    arc = arc_minorant(h)
    if arc is None or not arc.mean > 0 or not _frequencies_off_2pi_z(arc.a, arc.m + 1):
        return None
    return Decision(
        False,
        f"{head}; log P/log n -> p = {p}, and E >= {v.lower().str(8)} at the angle {theta1} "
        f"(ball arithmetic) exceeds -1 - p = {floor_}; with "
        f"e* = {e_star}: P n^e* >= 1/n for large n (p + e* > -1) and n^(E - e*) >= "
        f"min(1, E - e*) where E >= e*, so b_n >= h(theta_n)/n for large n with h = {h}; "
        + arc.note(h)
        + f"; so b_n >= c q(cos(theta_n - {arc.theta0}))/n = (mean + sum_(k=1..{arc.m + 1}) "
        f"c d_k cos(k (theta_n - {arc.theta0})))/n, where each sum_n cos(k (theta_n - "
        f"{arc.theta0}))/n converges (Dirichlet: 1/n decreases to 0 and the partial sums of "
        f"cos(k {arc.a} n + const) are at most 1/|sin(k {arc.a}/2)|, k {arc.a} not in 2 pi Z: "
        f"{_REASON}), and the mean {float(arc.mean):.4g} > 0 (exact above) leaves it times "
        "sum 1/n, which diverges",
        test="oscillating exponent",
    )


@ball_precision
def arc_range(g_theta: sp.Expr) -> arb | None:
    """A ball holding every value of g (a function of THETA) on the circle: the union of
    its enclosures on PIECES arcs covering [0, 2 pi]; None where one is not finite."""
    try:
        f = arb_function(g_theta.subs(THETA, N))
        width = 2 * arb.pi() / PIECES
        out = None
        for j in range(PIECES):
            v = f((j * width).union((j + 1) * width))
            if not v.is_finite():
                return None
            out = v if out is None else out.union(v)
    except (NotSupported, Undecided, ArithmeticError, ValueError):
        return None
    return out


def _factor_bounds(F: sp.Expr) -> tuple[sp.Rational, sp.Rational] | None:
    """(lo, hi) rationals with 0 < lo <= F <= hi at every angle (F = 1: (1, 1)), else None."""
    if F == 1:
        return sp.Integer(1), sp.Integer(1)
    ah = angle_function(F)
    r = None if ah is None else arc_range(ah[1])
    if r is None or not r.lower() > 0:
        return None
    lo = sp.Rational(math.floor(float(r.lower()) * 2**30 - 1), 2**30)
    if not (lo > 0 and arb(int(lo.p)) / int(lo.q) <= r.lower()):
        return None
    return lo, _grid_up(r)


def _grid_up(x: arb) -> sp.Rational:
    """A rational on the grid 2^-30 at least the upper end of x."""
    r = sp.Rational(math.ceil(float(x.upper()) * 2**30 + 1), 2**30)
    assert arb(int(r.p)) / int(r.q) >= x.upper()
    return r


def _below(E_theta: sp.Expr, p: sp.Expr, K: sp.Expr, head: str) -> Decision | None:
    """Convergence where E <= e_up on every arc of the circle (ball arithmetic on PIECES
    arcs) with p + e_up < -1: b_n = (P/n^p) n^(p + E) <= 2K n^(p + e_up) for large n."""
    r = arc_range(E_theta)
    if r is None:
        return None
    up = _grid_up(r)
    if not p + up < -1:
        return None
    return Decision(
        True,
        f"{head}; E <= {up} for every angle (ball arithmetic on {PIECES} arcs covering the "
        f"circle), P/n^p -> {K} with p = {p}, so b_n <= 2 ({K}) n^({p + up}) for large n, "
        f"and {p + up} < -1: the series converges",
        test="oscillating exponent",
    )


#: exact angles k pi / 12 tried as the point where E reaches -1 - p
BOUNDARY_ANGLES = 24


def _at_boundary(E_theta, a, p, K, head) -> Decision | None:
    r"""Divergence where E reaches -1 - p exactly at an angle theta* (sympy), a rational,
    E Lipschitz (constant L) and P/n^p -> K in (0, oo]: on the
    arc :math:`|\theta - \theta^*| \le 1/\log(2N)`, every n in [N, 2N) has
    :math:`n^{E} \ge n^{-1-p} e^{-L}`, so :math:`b_n \ge c/n`; the discrepancy of
    :math:`an/2\pi` on [N, 2N) is :math:`O(N^{-1/42})` (Erdos-Turan with
    :math:`|\sum e^{ihan}| \le 1/|\sin(ha/2)| \le C h^{41}`, Mahler 1953), so at least
    :math:`N/(2\pi\log 2N)` of those n lie on the arc for large N, and the block sums are at
    least :math:`c'/\log 2N`, whose sum over N = 2^j diverges."""
    if not (a.is_Rational and a != 0):
        return None
    target = -1 - p
    for k in range(BOUNDARY_ANGLES):
        theta = k * sp.pi / 12
        try:
            with step_budget(1.0):
                gap = sp.simplify(E_theta.subs(THETA, theta) - target)
        except (StepTimeout, TypeError, ValueError):
            continue
        if gap == 0 or gap.is_nonnegative is True:
            break
    else:
        return None
    return Decision(
        False,
        f"{head}; P/n^p -> {K} in (0, oo] with p = {p}, and E reaches -1 - p = {target} at "
        f"the angle {theta} (exactly: E(theta*) - (-1 - p) = {gap}); E is Lipschitz (built "
        "from sin/cos of integer multiples of theta by sums, products, powers, Abs, Max, Min), "
        "so |E(theta) - E(theta*)| <= L |theta - theta*| for some L; on the arc "
        "|theta - theta*| <= 1/log(2N) every n in [N, 2N) has n^E >= n^(-1-p) e^(-L), so "
        "b_n >= c/n there for large N; a = "
        f"{a} is rational and 1/|sin(h a/2)| <= C h^41 (Mahler 1953: |pi - p/q| > q^-42 for "
        "q >= 2), so by the Erdos-Turan inequality with H = N^(1/42) the discrepancy of "
        "a n/(2 pi) on [N, 2N) is O(N^(-1/42)), and at least N/(2 pi log(2N)) of those n lie "
        "on the arc for large N; each block [2^j, 2^(j+1)) then adds at least c'/(j + 1), "
        "and the series diverges",
        test="oscillating exponent (boundary)",
    )


def _lipschitz(E_theta: sp.Expr) -> bool:
    """E Lipschitz on the circle by its structure: numbers, sin/cos(k theta + c) (k integer,
    c real), and sums, products, nonnegative integer powers, Abs, Max and Min of such (each
    keeps a bounded function Lipschitz)."""
    e = E_theta
    if not e.has(THETA):
        return e.is_real is True
    if isinstance(e, (sp.sin, sp.cos)):
        arg = sp.expand(e.args[0])
        k, c = arg.coeff(THETA), sp.expand(arg - arg.coeff(THETA) * THETA)
        return bool(k.is_Integer and c.is_real and not c.has(THETA))
    if isinstance(e, (sp.Add, sp.Mul, sp.Abs, sp.Max, sp.Min)):
        return all(_lipschitz(x) for x in e.args)
    if e.is_Pow:
        return e.exp.is_Integer is True and e.exp >= 0 and _lipschitz(e.base)
    return False


_REASON = "a nonzero rational multiple of the rational a, or " + IN_2PI_Z_REASON


def _frequencies_off_2pi_z(a: sp.Expr, K: int) -> bool:
    """k a is not in 2 pi Z for k = 1 .. K: at once for a rational a (pi is irrational),
    else frequency by frequency (:func:`theory.series.trig_minorants.in_2pi_z`)."""
    if a.is_Rational and a != 0:
        return True
    return all(in_2pi_z(k * a) is False for k in range(1, K + 1))


def _structural_max(e: sp.Expr) -> sp.Expr | None:
    """c_0 + sum |c_i| for e = c_0 + sum c_i s_i, each s_i a sin or cos (an upper bound of
    e at every angle), else None."""
    top = sp.Integer(0)
    for t in sp.Add.make_args(sp.expand(e)):
        c, f = t.as_coeff_Mul()
        if not f.has(THETA):
            top += t
        elif isinstance(f, _TRIG) and c.is_real:
            top += abs(c)
        else:
            return None
    return top


def exponent_threshold(P: sp.Expr, E: sp.Expr) -> tuple[sp.Expr, str] | None:
    """(c*, why) with sum P(n) n^(E + c) converging iff c < c*, for every real c, where E
    holds sin/cos of one rational frequency (``-sin(n)``) and P is free of them: with
    M = max E over the angles exact (c_0 + sum |c_i| reached at an angle k pi / 12),
    c + M < -1 - p gives convergence (:func:`_below`'s bound with M itself) and
    c + M >= -1 - p divergence (:func:`_at_boundary`'s rule at that angle), so
    c* = -1 - p - M; None where a step does not apply.

    >>> from theory.series.expressions import parse_expression as P
    >>> exponent_threshold(sp.Integer(1), P("-sin(n)"))[0]
    -2
    """
    if E.has(*(s for s in E.free_symbols if s != N)) or P.has(*_TRIG):
        return None
    ah = angle_function(E)
    if ah is None or not smooth(P) or eventual_sign(P) != 1:
        return None
    a, e = ah
    if not (a.is_Rational and a != 0) or not _lipschitz(e):
        return None
    p = limit_at_infinity(sp.log(P) / sp.log(N))
    K = limit_at_infinity(P / N**p) if p is not None else None
    if p is None or not (p.is_number and p.is_real and p.is_finite):
        return None
    if K is None or not (K.is_positive is True and K.is_finite):
        return None
    top = _structural_max(e)
    if top is None:
        return None
    for k in range(BOUNDARY_ANGLES):
        theta = k * sp.pi / 12
        try:
            with step_budget(1.0):
                if sp.simplify(e.subs(THETA, theta) - top) == 0:
                    break
        except (StepTimeout, TypeError, ValueError):
            continue
    else:
        return None
    threshold = sp.simplify(-1 - p - top)
    why = (
        f"b_n = P(n) n^(E + c) with P = {P} (P/n^p -> {K}, p = {p}) and E = {E}, whose "
        f"maximum over the angles is {top} (the sum of the amplitudes, reached at "
        f"theta = {theta}; theta = {a} n mod 2 pi): c + {top} < -1 - p gives "
        f"b_n <= 2 ({K}) n^(p + c + {top}) for large n, a convergent series; at "
        "c + max E >= -1 - p the boundary rule (Lipschitz E, a rational frequency, "
        "Erdos-Turan with Mahler's bound) gives divergence: sum b_n converges iff "
        f"c < {threshold}"
    )
    return threshold, why
