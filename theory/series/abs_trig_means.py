r"""Mean-zero oscillation of :math:`|\sin|` and :math:`|\cos|`:
:math:`b_n = g(n)\,(|\sin(rn)| - 2/\pi)` (or :math:`|\cos(rn)|`), r a nonzero rational,
g exp-log.

**Fourier series.**  :math:`|\sin x| - 2/\pi = -\frac{4}{\pi}\sum_{k \ge 1}
\frac{\cos 2kx}{4k^2 - 1}` and :math:`|\cos x| - 2/\pi = -\frac{4}{\pi}\sum_{k \ge 1}
(-1)^k \frac{\cos 2kx}{4k^2 - 1}`, absolutely and uniformly convergent, with
:math:`\sum_{k > K} \frac{1}{4k^2 - 1} = \frac{1}{2(2K + 1)}` (telescoping).

**Partial sums.**  With :math:`f(n) = |\sin(rn)| - 2/\pi` and :math:`S_N = \sum_{n \le N} f(n)`,
:math:`|\sum_{n \le N} \cos(2krn)| \le \min(N, 1/|\sin(kr)|)`.  By Mahler (K. Mahler, "On the
approximation of pi", Proc. Kon. Ned. Akad. Wetensch. A 56 = Indag. Math. 15 (1953),
30-42: :math:`|\pi - p/q| > q^{-42}` for integers p and :math:`q \ge 2`), writing :math:`r = u/v` and m the integer nearest to :math:`kr/\pi`,
:math:`|\sin(kr)| \ge \frac{2}{\pi}|kr - m\pi| = \frac{2m}{\pi}\,|\frac{ku}{vm} - \pi|
\ge \frac{2m}{\pi}(vm)^{-42}` once :math:`vm \ge 2`, and :math:`kr \notin \pi\mathbb{Z}` (π is
irrational), so :math:`1/|\sin(kr)| \le C k^{41}` for every k >= 1 (C depends on r only).
Then, for K >= 1,

.. math:: |S_N| \le \frac{4}{\pi}\Big(\sum_{k \le K} \frac{C k^{41}}{4k^2 - 1}
          + \frac{N}{2(2K + 1)}\Big) \le \frac{4}{\pi}\Big(\frac{C K^{40}}{3} + \frac{N}{4K}\Big),

and :math:`K = \lceil N^{1/41} \rceil` gives :math:`|S_N| = O(N^{\alpha})`, :math:`\alpha = 40/41`.

**Summation by parts.**  :math:`\sum_{n \le N} g f = g(N) S_N + \sum_{n < N} S_n (g(n) -
g(n+1))`.  With g eventually monotone to 0 (exp-log: Hardy field) and
:math:`\sum |g(n)|\, n^{\alpha - 1} < \infty` (decided without parameters):
:math:`\sum n^{\alpha} |g(n) - g(n+1)| \le n_0^{\alpha} |g(n_0)| + \alpha \sum |g(n)|
(n-1)^{\alpha - 1} < \infty` (summation by parts again) and :math:`|g(N)| N^{\alpha} \to 0`
(:math:`|g(N)| \sum_{N/2 < n \le N} n^{\alpha - 1} \le \sum_{N/2 < n \le N} |g(n)| n^{\alpha - 1}
\to 0`): the series converges.  ``(Abs(sin(n)) - 2/pi)/n``: :math:`\sum n^{-1 - 1/41}`
converges.  Otherwise (``n**(-9/10)`` in place of 1/n) no verdict: the exponent 41 is
what Mahler's bound gives, not the truth.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.decision import Decision, Undecided
from theory.series.expressions import N
from theory.series.limits import STEP_BUDGET, eventual_sign, limit_at_infinity, smooth

#: the partial sums of |sin(rn)| - 2/pi are O(N^ALPHA) (Mahler's exponent 42)
ALPHA = sp.Rational(40, 41)


def _abs_trig_atom(b: sp.Expr) -> sp.Expr | None:
    """The one Abs(sin(r n)) or Abs(cos(r n)) of b, r a nonzero rational; else None."""
    atoms = [a for a in b.atoms(sp.Abs) if a.has(N)]
    if len(atoms) != 1:
        return None
    (a,) = atoms
    inner = a.args[0]
    if not isinstance(inner, (sp.sin, sp.cos)):
        return None
    r = sp.cancel(inner.args[0] / N)
    if not (r.is_Rational and r != 0):
        return None
    return a


def mean_zero_parts(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(g, A) with b = g (A - 2/pi) exactly, A = Abs(sin(r n)) or Abs(cos(r n)), g free of
    A and smooth; else None."""
    A = _abs_trig_atom(b)
    if A is None:
        return None
    with step_budget(STEP_BUDGET):
        bb = sp.expand(b)
        g = bb.coeff(A)
        rest = sp.expand(bb - g * A)
        if g == 0 or g.has(A) or rest.has(A) or not smooth(g) or not g.has(N):
            return None
        if sp.simplify(rest + 2 * g / sp.pi) != 0:
            return None
    return g, A


def abs_trig_mean_zero_test(b: sp.Expr, decide: Callable[[sp.Expr], Decision]) -> Decision | None:
    """The module doc's test: converges where g -> 0 eventually monotone and
    sum |g| n^(alpha - 1) converges; None otherwise (never a divergence)."""
    try:
        parts = mean_zero_parts(b)
    except (StepTimeout, TypeError, ValueError):
        return None
    if parts is None:
        return None
    g, A = parts
    if limit_at_infinity(g) != 0:
        return None
    sign, slope = eventual_sign(g), eventual_sign(sp.diff(g, N))
    if sign not in (1, -1) or slope not in (1, -1):
        return None
    weight = sp.powsimp(sign * g * N ** (ALPHA - 1))
    try:
        d = decide(weight)
    except (Undecided, StepTimeout):
        return None
    if d.converges is not True:
        return None
    r = sp.cancel(A.args[0].args[0] / N)
    return Decision(
        True,
        f"b_n = g(n) ({A} - 2/pi) with g = {g} -> 0, of one sign and monotone for large n "
        f"(g' keeps one sign): {A.func(A.args[0].func(sp.Symbol('x')))} - 2/pi = -(4/pi) "
        "sum_k (+-1)^k cos(2 k x)/(4 k^2 - 1) (Fourier series, absolutely convergent; the "
        f"tail past K is at most (4/pi)/(2(2K + 1))); at x = r n, r = {r}, the partial sums "
        "of cos(2 k r n) are at most min(N, 1/|sin(k r)|) and 1/|sin(k r)| <= C k^41 "
        "(Mahler 1953: |pi - p/q| > q^-42 for q >= 2), so with K = N^(1/41) the partial "
        "sums of the bracket are O(N^(40/41)); by summation by parts the series converges, "
        f"since sum |g| n^(-1/41) converges ({d.certificate}) and then g(N) N^(40/41) -> 0 "
        "and sum n^(40/41) |g(n) - g(n+1)| converges",
        test="mean-zero |sin|",
    )
