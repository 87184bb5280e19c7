r"""Terms that do not tend to 0 because the angle :math:`n \bmod 2\pi` comes close to a
point :math:`\beta` where :math:`|F| = 1`.

Lemma (inhomogeneous approximation).  For every real :math:`\beta` there are infinitely
many integers :math:`n` with :math:`|n - \beta - 2\pi k| \le 6\pi/n` for some integer
:math:`k`.  Proof: :math:`\alpha = 1/(2\pi)` is irrational, so it has infinitely many
convergents :math:`p/q` with :math:`\gcd(p, q) = 1` and :math:`|\alpha - p/q| < 1/q^2`.  The
:math:`j p/q \bmod 1`, :math:`j = 1..q`, are all multiples of :math:`1/q`, so some :math:`j`
has :math:`\|jp/q - (\gamma - q\alpha)\| \le 1/(2q)` (:math:`\gamma = \beta/(2\pi)`); then
:math:`n = q + j \le 2q` has :math:`\|n\alpha - \gamma\| \le 1/(2q) + j/q^2 \le 3/(2q) \le
3/n`.

For :math:`b_n = A(n)\,F(\theta_n)^{E(n)}`, :math:`\theta_n = n` (F a function of
:math:`\sin, \cos` of integer multiples of n), with :math:`|F(\beta)| = 1`: on
:math:`|\delta| \le h = 6\pi/n_0`, Taylor's theorem gives

.. math::
   |\log|F(\beta + \delta)|| \le |c_1|\,|\delta| + K\,\delta^2, \qquad
   c_1 = (\log|F|)'(\beta), \quad K = \tfrac12 \sup |(\log|F|)''|

(K enclosed in ball arithmetic on the whole arc), so along the n of the lemma

.. math::
   \log|b_n| \ge \log|A(n)| - |E(n)| \Bigl(|c_1| \frac{6\pi}{n} + K \frac{36\pi^2}{n^2}\Bigr),

and where the limit of the right side is not :math:`-\infty`, infinitely many terms stay
above a positive number: the series diverges.  ``(2 + sin(n))**(-n)``:
:math:`\beta = 3\pi/2`, :math:`c_1 = 0`, :math:`K \approx 1/2`, the bound tends to 0;
``sin(n)**n`` and ``cos(n)**(n**2)`` likewise.  Where :math:`|F|^{\pm 1} \ge 1 + \delta`
on a whole arc around a grid angle (the sign of E; in balls), the n of the lemma for any
point of the arc give :math:`\log|b_n| \ge \log|A(n)| + |E(n)| \log(1 + \delta)`, and the
series diverges where that does not tend to :math:`-\infty`: ``(2/(2 + cos(n)))**n/n**2``.

>>> from theory.series.expressions import parse_expression as P
>>> near_angle_test(P("(2 + sin(n))**(-n)")).converges
False
>>> near_angle_test(P("(2 + sin(n))**(-n)/n")) is None      # the bound tends to -oo
True
"""

from __future__ import annotations

import math

import sympy as sp
from flint import arb
from sympy.polys.polyerrors import BasePolynomialError

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import NotSupported, Undecided, arb_function, ball_precision
from theory.series.decision import Decision
from theory.series.expressions import N
from theory.series.limits import eventually_positive, limit_at_infinity

#: candidate angles beta = k pi / GRID, k = 0 .. 2 GRID - 1
GRID = 12
#: the arc |delta| <= 6 pi / N0 on which K is enclosed (every n >= N0)
N0 = 2**12
#: CPU seconds for the symbolic work
SECONDS = 2.0
_THETA = sp.Symbol("theta", real=True)


def _angle_form(e: sp.Expr) -> sp.Expr | None:
    """e with sin(k n), cos(k n) (k a nonzero integer) written in theta; None where n is
    left over."""
    atoms = [a for a in e.atoms(sp.sin, sp.cos) if a.has(N)]
    rep = {}
    for a in atoms:
        k = sp.simplify(a.args[0] / N)
        if not (k.is_Integer and k != 0):
            return None
        rep[a] = type(a)(k * _THETA)
    out = e.xreplace(rep)
    return None if out.has(N) else out


def split_power(b: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr] | None:
    """(A, F, E) with b = A F^E, A and E free of trigonometric atoms, F a function of the
    angle (in theta); None otherwise.  An exponential exp(E G) is F^E with F = exp(G).

    >>> from theory.series.expressions import parse_expression as P
    >>> split_power(P("exp(n*(cos(n) - 1))/n"))
    (1/n, exp(cos(theta) - 1), n)
    """
    A, trig = sp.Integer(1), []
    for f in sp.Mul.make_args(b):
        if f.has(sp.sin, sp.cos):
            trig.append(f)
        else:
            A *= f
    if len(trig) != 1:
        return None
    base, E = trig[0].as_base_exp()
    if isinstance(trig[0], sp.exp):  # exp(n (cos(n) - 1)) = F^n with F = exp(cos(theta) - 1)
        G = [a for a in sp.Mul.make_args(trig[0].args[0]) if a.has(sp.sin, sp.cos)]
        base, E = sp.exp(sp.Mul(*G)), trig[0].args[0] / sp.Mul(*G)
    if E.has(sp.sin, sp.cos) or not E.has(N):
        return None
    if isinstance(base, sp.Abs):  # |b_n| is what the lemma bounds: |Abs(G)^E| = |G|^E
        base = base.args[0]
    F = _angle_form(base)
    return None if F is None else (A, F, E)


def _unit_value(F: sp.Expr, beta: sp.Expr) -> int | None:
    """1 or -1 where F(beta) equals it exactly (the difference's minimal polynomial is x:
    a value 1 + 10^-30 is not 1), else None.

    >>> _unit_value(1 / (2 + sp.sin(_THETA)), 3 * sp.pi / 2), _unit_value(sp.sin(_THETA), 0)
    (1, None)
    """
    try:
        v = sp.nsimplify(sp.simplify(F.subs(_THETA, beta)))
        if v not in (1, -1):
            return None
        x = sp.Dummy("x")
        if sp.minimal_polynomial(F.subs(_THETA, beta) - v, x) != x:
            return None
    except (NotImplementedError, ValueError, TypeError, BasePolynomialError):
        return None
    return int(v)


def unit_angles(F: sp.Expr) -> list[tuple[sp.Expr, int, sp.Expr]]:
    """[(beta, v, log|F| near beta)] for the grid angles beta = k pi/GRID where F(beta) =
    v, v = 1 or -1 exactly (log|F| is log(v F) there).

    >>> unit_angles(1 / (2 + sp.sin(_THETA)))
    [(3*pi/2, 1, log(1/(sin(theta) + 2)))]
    """
    out = []
    for k in range(2 * GRID):
        beta = k * sp.pi / GRID
        v = _unit_value(F, beta)
        if v is not None:
            out.append((beta, v, sp.log(F) if v == 1 else sp.log(-F)))
    return out


@ball_precision
def _curvature(g2: sp.Expr, beta: sp.Expr) -> sp.Rational | None:
    """A rational K >= sup |g2|/2 on |theta - beta| <= 6 pi / N0, or None."""
    try:
        f = arb_function(g2.subs(_THETA, N))
        h = 6 * arb.pi() / N0
        c = arb_function(beta)(arb(0))
        v = f(c + h.union(-h))
    except (NotSupported, Undecided, ArithmeticError, ValueError, TypeError):
        return None
    if not v.is_finite():
        return None
    top = float(abs(v).upper()) / 2
    return sp.Rational(math.nextafter(top, math.inf)) if math.isfinite(top) else None


def near_angle_test(b: sp.Expr) -> Decision | None:
    """Divergence by the lemma of the module docstring, or None."""
    parts = split_power(b)
    if parts is None:
        return None
    A, F, E = parts
    try:
        with step_budget(SECONDS):
            return _test(A, F, E, b)
    except (StepTimeout, RecursionError, ValueError, TypeError, NotImplementedError):
        return None


def _test(A, F, E, b) -> Decision | None:
    if eventually_positive(E):
        absE = E
    elif eventually_positive(-E):
        absE = -E
    else:
        return None
    if not eventually_positive(A):
        return None
    for beta, _, g in unit_angles(F):  # |F| = F near beta where F(beta) = 1, else -F
        c1 = sp.simplify(sp.diff(g, _THETA).subs(_THETA, beta))
        if not c1.is_real:
            continue
        K = _curvature(sp.diff(g, _THETA, 2), beta)
        if K is None:
            continue
        lower = sp.log(A) - absE * (sp.Abs(c1) * 6 * sp.pi / N + K * 36 * sp.pi**2 / N**2)
        lim = limit_at_infinity(lower)
        if lim is None or lim == -sp.oo or not (lim == sp.oo or lim.is_finite):
            continue
        return Decision(
            False,
            f"terms not -> 0: b_n = A(n) F(n)^E(n) with A = {A}, F = {F.subs(_THETA, N)}, "
            f"E = {E}; |F({beta})| = 1, (log|F|)'({beta}) = {c1} and |(log|F|)''| <= 2*{K} "
            f"within 6 pi/{N0} of it (ball arithmetic), so log|b_n| >= log A - |E| (|c1| 6 pi/n "
            f"+ K 36 pi^2/n^2) -> {lim} along the infinitely many n within 6 pi/n of "
            f"{beta} mod 2 pi (inhomogeneous approximation by the convergents of 1/(2 pi)): "
            "the terms do not tend to 0",
            test="terms not -> 0",
        )
    return _arc_beyond_one(A, F, E, absE)


@ball_precision
def _arc_beyond_one(A, F, E, absE) -> Decision | None:
    """Divergence where |F|^E > 1 + delta on a whole arc around a grid angle (|F| >= 1 +
    delta for E > 0, |F| <= 1/(1 + delta) for E < 0, in balls), and log A + |E| log(1 +
    delta) does not tend to -oo: the n whose angle lies on the arc (infinitely many, by the
    lemma) have |b_n| bounded below (``(2/(2 + cos(n)))**n/n**2``: 2/(2 + cos) >= 4/3 - ...
    near pi)."""
    try:
        f = arb_function(F.subs(_THETA, N))
    except NotSupported:
        return None
    h = arb.pi() / (2 * GRID)
    for k in range(2 * GRID):
        beta = k * sp.pi / GRID
        try:
            v = abs(f(arb.pi() * k / GRID + h.union(-h)))
        except (Undecided, ArithmeticError, ValueError):
            continue
        if not v.is_finite():
            continue
        m = v.lower() if E is absE else 1 / v.upper()  # |F|^(E/|E|) >= m on the arc
        if not m > 1:
            continue
        delta = sp.Rational(math.nextafter(float(m.lower()) - 1, 0))
        if not delta > 0:
            continue
        lower = sp.log(A) + absE * sp.log(1 + delta)
        lim = limit_at_infinity(lower)
        if lim is None or lim == -sp.oo or not (lim == sp.oo or lim.is_finite):
            continue
        return Decision(
            False,
            f"terms not -> 0: b_n = A(n) F(n)^E(n) with A = {A}, F = {F.subs(_THETA, N)}, "
            f"E = {E}; |F|^sign(E) >= 1 + {delta} on the arc |theta - {beta}| <= pi/{2 * GRID} "
            f"(ball arithmetic), so log|b_n| >= log A + |E| log(1 + {delta}) -> {lim} along the "
            "infinitely many n whose angle lies on that arc (inhomogeneous approximation by "
            "the convergents of 1/(2 pi)): the terms do not tend to 0",
            test="terms not -> 0",
        )
    return None
