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

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.numeric import decide_numeric
>>> beatty_sign_test(P("(-1)**floor(sqrt(2)*n)/n"), decide_numeric).converges
True
>>> beatty_sign_test(P("(-1)**floor(pi*n)/n"), decide_numeric) is None   # pi: quotients unknown
True
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.decision import Decision, Undecided
from theory.series.expressions import N
from theory.series.limits import eventual_sign, limit_at_infinity, smooth

#: CPU seconds for the minimal polynomial of the slope
ALGEBRA_SECONDS = 1.0


def _beatty_sign(p: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(alpha, beta) where p = (-1)**floor(alpha n + beta), alpha real and beta a real
    number; else None."""
    if not (isinstance(p, sp.Pow) and p.base == -1 and isinstance(p.exp, sp.floor)):
        return None
    inner = sp.expand(p.exp.args[0])
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
    g, p = sp.Integer(1), sp.Integer(1)
    for f in sp.Mul.make_args(b):
        if _beatty_sign(f) is not None and p == 1:
            p = f
        else:
            g *= f
    if p == 1 or not g.has(N) or g.has(sp.floor, sp.sin, sp.cos):
        return None
    alpha = _beatty_sign(p)[0]
    return (g, p, alpha) if quadratic_irrational(alpha) else None


def beatty_sign_test(b: sp.Expr, decide: Callable[[sp.Expr], Decision]) -> Decision | None:
    """Convergence of sum g(n) (-1)**floor(alpha n + beta) (module doc); None where the
    term is not of this form or a condition is not proved."""
    parts = beatty_parts(b)
    if parts is None or not smooth(parts[0]):
        return None
    g, p, alpha = parts
    if limit_at_infinity(g) != 0 or eventual_sign(sp.diff(g, N)) not in (1, -1):
        return None
    try:
        d = decide(g / N)
    except (Undecided, StepTimeout):
        return None
    if d.converges is not True:
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
