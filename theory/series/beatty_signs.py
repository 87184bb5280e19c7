r"""Signs along a Beatty sequence: :math:`\sum g(n)\,(-1)^{\lfloor \alpha n + \beta \rfloor}`
with :math:`\alpha` a quadratic irrational.

The sign :math:`s(n) = (-1)^{\lfloor \alpha n + \beta \rfloor}` is :math:`h(\{n\gamma +
\delta\})` with :math:`\gamma = \alpha/2`, :math:`\delta = \beta/2` and :math:`h = +1` on
:math:`[0, 1/2)`, :math:`-1` on :math:`[1/2, 1)` (mean 0), so

.. math::
   S_N = \sum_{n \le N} s(n) = 2\,\bigl(\#\{n \le N : \{n\gamma + \delta\} \in [0, \tfrac12)\}
   - \tfrac N2\bigr), \qquad |S_N| \le 4 N D_N(\{n\gamma\}),

the count of a shifted interval being within twice the extreme discrepancy
:math:`D_N` of :math:`(\{n\gamma\})` (the interval shifted by :math:`-\delta` is at most two
intervals).  A quadratic irrational has a periodic continued fraction (Lagrange), so
bounded partial quotients :math:`a_i \le A`, and :math:`N D_N = O(\sum_{i \le m+1} a_i) =
O(\log N)` for :math:`q_m \le N < q_{m+1}` (Ostrowski; Hardy and Littlewood; Kuipers and
Niederreiter, *Uniform distribution of sequences*, Ch. 2, Sec. 3), the denominators
:math:`q_m` growing at least like the Fibonacci numbers.  With g eventually monotone to 0
and :math:`\sum g(n)/n < \infty`, Abel's summation

.. math::
   \sum_{n=M}^{K} g(n) s(n) = S_K g(K) - S_{M-1} g(M) + \sum_{n=M}^{K-1} S_n\,(g(n) - g(n+1))

converges: :math:`S_K g(K) = O(g(K) \log K) \to 0` (Cauchy condensation, as
:math:`\sum g(n)/n` converges and g decreases) and
:math:`\sum \log(n+1)\,|g(n) - g(n+1)| \le g(M)\log(M+1) + \sum g(n)/n` by summation by
parts.  Only the verdict is given: the constant of :math:`O(\log N)` is not computed.

Other slopes whose irrationality measure :math:`\mu` has a known upper bound (:data:`MEASURES`:
:math:`\pi`, e, :math:`\log 2`, :math:`\pi^2`, each times a nonzero rational plus a
rational, and algebraic irrationals of any degree, Roth) are of type :math:`\eta = \mu - 1`,
so :math:`D_N = O(N^{-1/\eta + \epsilon})` for every :math:`\epsilon > 0` (Kuipers and
Niederreiter, Ch. 2, Thm 3.2) and :math:`S_N = O(N^{c})`, :math:`c = 1 - 1/\eta + \epsilon`.
Abel's summation then converges where :math:`\sum g(n)\, n^{c - 1}` does (g eventually
monotone to 0; :math:`\sum n^c |g(n) - g(n+1)| \le g(M) M^c + c \sum n^{c-1} g(n)`),
tried with :math:`\epsilon` = :data:`EPSILON` and :math:`\eta` from the rounded-up
:math:`\mu`.

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.numeric import decide_numeric
>>> beatty_sign_test(P("(-1)**floor(sqrt(2)*n)/n"), decide_numeric).converges
True
>>> beatty_sign_test(P("(-1)**floor(pi*n)/n**(9/10)"), decide_numeric).converges  # mu(pi) < 7.11
True
>>> beatty_sign_test(P("(-1)**floor(pi*n)/n**(4/5)"), decide_numeric) is None   # 4/5 < 1 - 1/6.11
True
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.decision import Decision, proved_convergent
from theory.series.expressions import N
from theory.series.limits import eventual_sign, limit_at_infinity, smooth

#: CPU seconds for the minimal polynomial of the slope
ALGEBRA_SECONDS = 1.0
#: upper bounds of irrationality measures, rounded up: abs(c - p/q) > q^-(mu + eps) for
#: every eps > 0 and q large enough; r c + s (r != 0, s rational) has the measure of c
MEASURES: tuple[tuple[sp.Expr, sp.Rational, str], ...] = (
    (sp.pi, sp.Rational(71033, 10000), "mu(pi) <= 7.103206 (Zeilberger and Zudilin 2020)"),
    (sp.E, sp.Integer(2), "mu(e) = 2 (partial quotients of e growing linearly)"),
    (sp.log(2), sp.Rational(35746, 10000), "mu(log 2) <= 3.574554 (Marcovecchio 2009)"),
    (sp.pi**2, sp.Rational(50955, 10000), "mu(pi^2) <= 5.095412 (Zudilin 2014)"),
)
#: (mu, source) of pi, the measure Weyl sums, small sines and |sin| means rest on
PI_MEASURE: tuple[sp.Rational, str] = next((mu, why) for c, mu, why in MEASURES if c == sp.pi)
#: the epsilon of the discrepancy exponent -1/eta + epsilon tried
EPSILON = sp.Rational(1, 10**6)


def _beatty_sign(p: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(alpha, beta) where p = (-1)**floor(alpha n + beta), alpha real and beta a real
    number; else None.  An integer k outside the floor (sympy writes floor(x + 1) as
    floor(x) + 1) is taken in: floor(x) + k = floor(x + k)."""
    if not (isinstance(p, sp.Pow) and p.base == -1):
        return None
    floors = [a for a in sp.Add.make_args(p.exp) if isinstance(a, sp.floor)]
    shift = p.exp - floors[0] if len(floors) == 1 else None
    if shift is None or not shift.is_integer or shift.has(N):
        return None
    inner = sp.expand(floors[0].args[0] + shift)
    alpha, beta = inner.coeff(N, 1), inner.coeff(N, 0)
    if alpha.has(N) or beta.has(N) or sp.expand(alpha * N + beta - inner) != 0:
        return None
    if not (alpha.is_number and beta.is_number and alpha.is_real and beta.is_real):
        return None
    return alpha, beta


def quadratic_irrational(alpha: sp.Expr) -> bool:
    """alpha real with a minimal polynomial of degree 2 over Q (so irrational, with a
    periodic continued fraction).

    >>> quadratic_irrational(sp.sqrt(2) / 3), quadratic_irrational(sp.Rational(3, 2))
    (True, False)
    >>> quadratic_irrational(2 ** sp.Rational(1, 3)), quadratic_irrational(sp.pi)
    (False, False)
    """
    if not (alpha.is_real and alpha.is_algebraic):
        return False
    x = sp.Dummy("x")
    try:
        with step_budget(ALGEBRA_SECONDS):
            return sp.degree(sp.minimal_polynomial(alpha, x), x) == 2
    except (StepTimeout, NotImplementedError, ValueError, TypeError):
        return False


def beatty_parts(b: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr] | None:
    """(g, s, alpha) with b = g s, s = (-1)**floor(alpha n + beta), alpha a quadratic
    irrational and g free of floor, sin and cos; None otherwise.

    >>> beatty_parts(sp.Pow(-1, sp.floor(sp.sqrt(2) * N)) / N)
    (1/n, (-1)**floor(sqrt(2)*n), sqrt(2))
    """
    parts = _sign_split(b)
    return parts if parts is not None and quadratic_irrational(parts[2]) else None


def _sign_split(b: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr] | None:
    """(g, s, alpha) with b = g s, s = (-1)**floor(alpha n + beta) and g free of floor,
    sin and cos (any real slope alpha); None otherwise."""
    g, p = sp.Integer(1), sp.Integer(1)
    for f in sp.Mul.make_args(b):
        if _beatty_sign(f) is not None and p == 1:
            p = f
        else:
            g *= f
    if p == 1 or not g.has(N) or g.has(sp.floor, sp.sin, sp.cos):
        return None
    return g, p, _beatty_sign(p)[0]


def beatty_sign_test(b: sp.Expr, decide: Callable[[sp.Expr], Decision]) -> Decision | None:
    """Convergence of sum g(n) (-1)**floor(alpha n + beta) (module doc); None where the
    term is not of this form or a condition is not proved."""
    parts = beatty_parts(b)
    if parts is None:
        return _measure_test(b, decide)
    if not smooth(parts[0]):
        return None
    g, p, alpha = parts
    if limit_at_infinity(g) != 0 or eventual_sign(sp.diff(g, N)) not in (1, -1):
        return None
    d = proved_convergent(decide, g / N)
    if d is None:
        return None
    return Decision(
        True,
        f"Abel summation along a Beatty sequence: b_n = g(n) s(n), s(n) = {p}, slope "
        f"{alpha} a quadratic irrational (periodic continued fraction, bounded partial "
        "quotients), so the partial sums of s are O(log N) (discrepancy of (n alpha/2): "
        f"Ostrowski, Hardy-Littlewood); g = {g} eventually monotone to 0 with sum g(n)/n "
        f"convergent ({d.certificate}), so sum S_n (g(n) - g(n+1)) converges absolutely "
        "(conditional convergence)",
        test="Beatty sign",
    )


def irrationality_measure(alpha: sp.Expr) -> tuple[sp.Rational, str] | None:
    """(an upper bound of the irrationality measure of alpha, its source); None where none
    is known here (rationals included).

    >>> irrationality_measure(3 * sp.pi / 2 + 1)[0], irrationality_measure(2 ** sp.Rational(1, 3))
    (71033/10000, (2, 'mu = 2 for an algebraic irrational (Roth 1955)'))
    >>> irrationality_measure(sp.Rational(3, 2)) is None, irrationality_measure(sp.exp(sp.pi)) is None
    (True, True)
    """
    a = sp.expand(sp.expand_log(alpha, force=True))
    for c, mu, why in MEASURES:
        r = a.coeff(c)
        if r.is_Rational and r != 0 and sp.expand(a - r * c).is_Rational:
            return mu, why
    if not (alpha.is_real and alpha.is_algebraic) or alpha.is_Rational:
        return None
    x = sp.Dummy("x")
    try:
        with step_budget(ALGEBRA_SECONDS):
            degree = sp.degree(sp.minimal_polynomial(alpha, x), x)
    except (StepTimeout, NotImplementedError, ValueError, TypeError):
        return None
    return (
        (sp.Integer(2), "mu = 2 for an algebraic irrational (Roth 1955)") if degree >= 2 else None
    )


def _measure_parts(b: sp.Expr) -> tuple | None:
    """(g, s, alpha, mu, why) with b = g s as in :func:`beatty_parts` but alpha any slope
    of known irrationality measure (:func:`irrationality_measure`); else None."""
    parts = _sign_split(b)
    measure = None if parts is None else irrationality_measure(parts[2])
    return None if measure is None else (*parts, *measure)


def _measure_test(b: sp.Expr, decide: Callable[[sp.Expr], Decision]) -> Decision | None:
    """The slope of known irrationality measure (module doc)."""
    parts = _measure_parts(b)
    if parts is None or not smooth(parts[0]):
        return None
    g, p, alpha, mu, why = parts
    if limit_at_infinity(g) != 0 or eventual_sign(sp.diff(g, N)) not in (1, -1):
        return None
    eta = mu - 1
    c = 1 - 1 / eta + EPSILON
    d = proved_convergent(decide, g * N ** (c - 1))
    if d is None:
        return None
    return Decision(
        True,
        f"Abel summation along a Beatty sequence: b_n = g(n) s(n), s(n) = {p}, slope "
        f"{alpha} of irrationality measure at most {mu} ({why}), so of type eta <= {eta}: "
        f"the discrepancy of (n alpha/2) is O(N^(-1/eta + eps)) for every eps > 0 "
        f"(Kuipers-Niederreiter Ch. 2 Thm 3.2) and the partial sums of s are O(N^c), "
        f"c = {c}; g = {g} eventually monotone to 0 with sum g(n) n^(c - 1) convergent "
        f"({d.certificate}), so sum S_n (g(n) - g(n+1)) converges absolutely and "
        "S_N g(N) -> 0 (conditional convergence)",
        test="Beatty sign",
    )
