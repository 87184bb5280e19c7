r"""Terms that are small except where :math:`n \bmod 2\pi` comes close to a few angles,
and the :math:`n` that come close are rare.

For :math:`b_n = A(n)\,F(n)^{E(n)}` with F a function of :math:`\sin, \cos` of integer
multiples of :math:`\theta = n`, :math:`|F| \le 1` everywhere, :math:`|F| = 1` only at
angles :math:`\beta_j` (``(2 + sin(n))**(-n)/n``: :math:`F = 1/(2 + \sin\theta)`,
:math:`\beta = 3\pi/2`), suppose, all proved in ball arithmetic on the whole circle:

.. math::
   \log|F(\theta)| \le -c\,\min(\delta(\theta), h)^2, \qquad
   \delta(\theta) = \min_j |\theta - \beta_j|_{2\pi},

near each :math:`\beta_j` by Taylor's theorem (:math:`(\log|F|)'(\beta_j) = 0` exactly and
:math:`(\log|F|)'' \le -2c` on :math:`|\theta - \beta_j| \le h`), elsewhere by
:math:`|F| \le e^{-c h^2}` on a cover of the rest of the circle.  Let
:math:`E(n) \ge n^{\kappa}` eventually (:math:`\kappa > 0`) and :math:`A(n) = O(1/n)`.  Split
the dyadic block :math:`[M, 2M)` at :math:`\delta(n) = n^{-\rho}`, :math:`\rho = \kappa/4`:

* where :math:`\delta(n) \ge n^{-\rho}`, :math:`|b_n| \le A(n)\,e^{-c\,n^{\kappa/2}}`
  eventually, a convergent series;
* the other n number at most :math:`\#B\,(2M \cdot 2 (2M)^{-\rho}/(2\pi) + 2 \cdot 2M
  D_{2M})`, :math:`D_N` the discrepancy of :math:`(n/(2\pi))`, and each has
  :math:`|b_n| \le A(n) = O(1/M)`.  As :math:`\pi` has a finite irrationality measure
  (Mahler 1953, :math:`|\pi - p/q| > q^{-42}` for :math:`q \ge 2`), so has
  :math:`1/(2\pi)`, and :math:`D_N = O(N^{-\tau})` for some :math:`\tau > 0`
  (Erdős-Turán; Kuipers and Niederreiter, Ch. 2, Thm. 3.2), so the block contributes
  :math:`O(M^{-\rho} + M^{-\tau})`, summable over :math:`M = 2^k`.

So :math:`\sum |b_n|` converges.  Only the verdict is given: the constants of the
discrepancy bound are not computed.

>>> from theory.series.expressions import parse_expression as P
>>> rare_angle_test(P("(2 + sin(n))**(-n)/n")).converges
True
>>> rare_angle_test(P("(2 + sin(n))**(-n)")) is None    # A = 1 is not O(1/n)
True
"""

from __future__ import annotations

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import NotSupported, Undecided, arb_function, ball_precision
from theory.series.decision import Decision
from theory.series.expressions import N
from theory.series.limits import eventually_positive, limit_at_infinity
from theory.series.near_angle import split_power, unit_angles

#: CPU seconds for the symbolic and ball work
SECONDS = 3.0
#: half-widths h of the arcs tried around each angle
ARCS = (sp.Rational(1, 8), sp.Rational(1, 32), sp.Rational(1, 128))
#: pieces of the circle at the start, and how often a piece may be halved
PIECES, DEPTH = 64, 14
_THETA = sp.Symbol("theta", real=True)


def _maxima(F: sp.Expr) -> list[tuple[sp.Expr, int, sp.Expr]] | None:
    """:func:`theory.series.near_angle.unit_angles` where the derivative of log|F| is
    exactly 0 at each; None where some such angle has another slope."""
    out = unit_angles(F)
    if any(sp.simplify(sp.diff(g, _THETA).subs(_THETA, beta)) != 0 for beta, _, g in out):
        return None
    return out


@ball_precision
def _arc(g: sp.Expr, beta: sp.Expr) -> tuple[arb, arb, arb] | None:
    """(beta, h, c): (log|F|)'' <= -2c < 0 on |theta - beta| <= h, as balls; or None."""
    d2 = arb_function(sp.diff(g, _THETA, 2).subs(_THETA, N))
    b = arb_function(beta)(arb(0))
    for h in ARCS:
        hb = arb(h.p) / h.q
        try:
            v = d2(b + hb.union(-hb))
        except (NotSupported, Undecided, ArithmeticError, ValueError, TypeError):
            continue
        if v.is_finite() and v.upper() < 0:
            return b, hb, -arb(v.upper()) / 2
    return None


@ball_precision
def _off_arcs(F: sp.Expr, arcs: list) -> tuple[arb, bool] | None:
    """(sup |F| off the arcs, F > 0 there) on a cover of [0, 2 pi] by balls, halving a
    piece up to DEPTH times; None where |F| < 1 is not proved on some piece."""
    f = arb_function(F.subs(_THETA, N))
    two_pi = 2 * arb.pi()
    stack = [(two_pi * k / PIECES, two_pi * (k + 1) / PIECES, 0) for k in range(PIECES)]
    top, positive = arb(0), True
    while stack:
        lo, hi, depth = stack.pop()
        ball = lo.union(hi)
        if any(_inside(ball, b, h) for b, h, _ in arcs):
            continue
        try:
            v = f(ball)
        except (NotSupported, Undecided, ArithmeticError, ValueError, TypeError):
            v = arb("nan")
        if v.is_finite() and abs(v).upper() < 1:
            top = arb(max(top.upper(), abs(v).upper()))
            positive = positive and bool(v > 0)
            continue
        if depth >= DEPTH:
            return None
        mid = (lo + hi) / 2
        stack += [(lo, mid, depth + 1), (mid, hi, depth + 1)]
    return top, positive


def _inside(ball: arb, beta: arb, h: arb) -> bool:
    """Every theta in ball lies within h of beta modulo 2 pi (beta in [0, 2 pi))."""
    two_pi = 2 * arb.pi()
    return any(bool(abs(ball - (beta + k * two_pi)) < h) for k in (-1, 0, 1))


def rare_angle_test(b: sp.Expr) -> Decision | None:
    """Absolute convergence by the module docstring's argument, or None."""
    parts = split_power(b)
    if parts is None:
        return None
    A, F, E = parts
    try:
        with step_budget(SECONDS):
            return _test(A, F, E)
    except (StepTimeout, RecursionError, ValueError, TypeError, NotImplementedError):
        return None


def _test(A: sp.Expr, F: sp.Expr, E: sp.Expr) -> Decision | None:
    if eventually_positive(-E):  # (2 + sin(n))**(-n) = (1/(2 + sin(n)))**n
        F, E = 1 / F, -E
    elif not eventually_positive(E):
        return None
    kappa = limit_at_infinity(sp.log(E) / sp.log(N))
    if kappa is None or not (kappa == sp.oo or (kappa.is_positive and kappa.is_finite)):
        return None
    size = limit_at_infinity(N * sp.Abs(A))
    if size is None or not size.is_finite:
        return None
    maxima = _maxima(F)
    if not maxima:
        return None
    arcs = []
    for beta, _, g in maxima:
        arc = _arc(g, beta)
        if arc is None:
            return None
        arcs.append(arc)
    off = _off_arcs(F, arcs)
    if off is None:
        return None
    sup, positive = off
    integer_power = E.subs(N, sp.Symbol("m", integer=True, positive=True)).is_integer
    if not (positive and all(v == 1 for _, v, _ in maxima)):
        if integer_power is not True:  # F < 0 somewhere and a fractional power
            return None
    angles = ", ".join(str(beta) for beta, _, _ in maxima)
    return Decision(
        True,
        f"rare angles: |b_n| = |A(n)| |F(n)|^E(n) with A = {A} = O(1/n), "
        f"F = {F.subs(_THETA, N)}, E = {E} >= n^kappa eventually (kappa = {kappa}); "
        f"|F| = 1 only at theta in {{{angles}}}, where log|F| has slope 0 and curvature "
        f"below a negative bound on an arc, and |F| <= {sup.str(5)} < 1 off the arcs (ball "
        "arithmetic on a cover of the circle), so |b_n| <= A(n) exp(-c E(n) min(delta_n, "
        "h)^2), delta_n the distance of n mod 2 pi to those angles; the n with delta_n < "
        "n^(-kappa/4) are O(M^(1 - tau) + M^(1 - kappa/4)) in each block [M, 2M) (finite "
        "irrationality measure of pi, Mahler; Erdos-Turan), the rest decay like "
        "exp(-c n^(kappa/2)): the series converges absolutely",
        test="rare angles",
    )
