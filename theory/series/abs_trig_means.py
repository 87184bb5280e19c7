r"""Mean-zero oscillation of :math:`|\sin|` and :math:`|\cos|`:
:math:`b_n = g(n)\,h(n)`, :math:`h = c_0 + \sum_i a_i |T_i(r_i n)|`, each :math:`T_i` sin or cos,
:math:`r_i` a nonzero rational, of mean :math:`c_0 + \frac{2}{\pi}\sum_i a_i = 0` (proved
symbolically), g exp-log: ``(Abs(sin(n)) - 2/pi)/n``, ``(Abs(cos(n)) - Abs(sin(n)))/n``.

**Fourier series.**  :math:`|\sin x| - 2/\pi = -\frac{4}{\pi}\sum_{k \ge 1}
\frac{\cos 2kx}{4k^2 - 1}` and :math:`|\cos x| - 2/\pi = -\frac{4}{\pi}\sum_{k \ge 1}
(-1)^k \frac{\cos 2kx}{4k^2 - 1}`, absolutely and uniformly convergent, with
:math:`\sum_{k > K} \frac{1}{4k^2 - 1} = \frac{1}{2(2K + 1)}` (telescoping); h is a linear
combination of such brackets.

**Partial sums.**  With :math:`f(n) = |\sin(rn)| - 2/\pi` and :math:`S_N = \sum_{n \le N} f(n)`,
:math:`|\sum_{n \le N} \cos(2krn)| \le \min(N, 1/|\sin(kr)|)`.  Writing :math:`r = u/v` and m
the integer nearest to :math:`kr/\pi`, :math:`|\sin(kr)| \ge \frac{2}{\pi}|kr - m\pi| =
\frac{2m}{\pi}\,|\frac{ku}{vm} - \pi|`, and the irrationality measure :math:`\mu` of
:math:`\pi` (:data:`theory.series.beatty_signs.MEASURES`: :math:`|\pi - p/q| >
q^{-\mu-\epsilon}` for q large) gives :math:`1/|\sin(kr)| \le C k^{\mu - 1 + \epsilon}` for
every k >= 1 (C depends on r and :math:`\epsilon`).  Then, for K >= 1,

.. math:: |S_N| \le \frac{4}{\pi}\Big(\sum_{k \le K} \frac{C k^{\mu - 1 + \epsilon}}{4k^2 - 1}
          + \frac{N}{2(2K + 1)}\Big) = O\big(K^{\mu - 2 + \epsilon} + N/K\big),

and :math:`K = N^{1/(\mu - 1)}` gives :math:`|S_N| = O(N^{\alpha})`,
:math:`\alpha = 1 - 1/(\mu - 1) + \epsilon`; the same holds for h.

**Summation by parts.**  :math:`\sum_{n \le N} g f = g(N) S_N + \sum_{n < N} S_n (g(n) -
g(n+1))`.  With g eventually monotone to 0 (exp-log: Hardy field) and
:math:`\sum |g(n)|\, n^{\alpha - 1} < \infty` (decided without parameters):
:math:`\sum n^{\alpha} |g(n) - g(n+1)| \le n_0^{\alpha} |g(n_0)| + \alpha \sum |g(n)|
(n-1)^{\alpha - 1} < \infty` (summation by parts again) and :math:`|g(N)| N^{\alpha} \to 0`
(:math:`|g(N)| \sum_{N/2 < n \le N} n^{\alpha - 1} \le \sum_{N/2 < n \le N} |g(n)| n^{\alpha - 1}
\to 0`): the series converges.  ``(Abs(sin(n)) - 2/pi)/n``: :math:`\sum n^{-1 - 0.1638...}`
converges.  Otherwise (``n**(-4/5)`` in place of 1/n) no verdict: the exponent is what the
known bound of :math:`\mu(\pi)` gives, not the truth.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.beatty_signs import EPSILON, PI_MEASURE
from theory.series.decision import Decision, proved_convergent
from theory.series.expressions import N
from theory.series.limits import STEP_BUDGET, eventual_sign, limit_at_infinity, smooth

_PI_MU, _PI_WHY = PI_MEASURE
#: the partial sums of |sin(rn)| - 2/pi are O(N^ALPHA): 1 - 1/(mu(pi) - 1) + epsilon
ALPHA = 1 - 1 / (_PI_MU - 1) + EPSILON


def _abs_trig_atoms(b: sp.Expr) -> list | None:
    """The Abs(sin(r n)) and Abs(cos(r n)) of b, r nonzero rationals (at least one, and
    no other Abs holding n); else None."""
    atoms = [a for a in b.atoms(sp.Abs) if a.has(N)]
    for a in atoms:
        inner = a.args[0]
        if not isinstance(inner, (sp.sin, sp.cos)):
            return None
        r = sp.cancel(inner.args[0] / N)
        if not (r.is_Rational and r != 0):
            return None
    return sorted(atoms, key=sp.default_sort_key) or None


def mean_zero_parts(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(g, h) with b = g h exactly, h = c_0 + sum_i a_i A_i (A_i = Abs(sin(r_i n)) or
    Abs(cos(r_i n)), a_i and c_0 numbers) of mean c_0 + (2/pi) sum a_i = 0, g free of the
    A_i and smooth; else None."""
    atoms = _abs_trig_atoms(b)
    if atoms is None:
        return None
    with step_budget(STEP_BUDGET):
        bb = sp.expand(b)
        coeffs = [bb.coeff(A) for A in atoms]
        g = coeffs[0]
        rest = sp.expand(bb - sum(c * A for c, A in zip(coeffs, atoms)))
        if g == 0 or g.has(*atoms) or rest.has(*atoms) or not smooth(g) or not g.has(N):
            return None
        a = [sp.cancel(c / g) for c in coeffs]
        c0 = sp.cancel(rest / g)
        if not all(x.is_number for x in (*a, c0)):
            return None
        if sp.simplify(c0 + 2 * sum(a) / sp.pi) != 0:
            return None
    return g, c0 + sum(x * A for x, A in zip(a, atoms))


def abs_trig_mean_zero_test(b: sp.Expr, decide: Callable[[sp.Expr], Decision]) -> Decision | None:
    """The module doc's test: converges where g -> 0 eventually monotone and
    sum |g| n^(alpha - 1) converges; None otherwise (never a divergence)."""
    try:
        parts = mean_zero_parts(b)
    except (StepTimeout, TypeError, ValueError):
        return None
    if parts is None:
        return None
    g, h = parts
    if limit_at_infinity(g) != 0:
        return None
    sign, slope = eventual_sign(g), eventual_sign(sp.diff(g, N))
    if sign not in (1, -1) or slope not in (1, -1):
        return None
    weight = sp.powsimp(sign * g * N ** (ALPHA - 1))
    d = proved_convergent(decide, weight)
    if d is None:
        return None
    eta = _PI_MU - 1
    return Decision(
        True,
        f"b_n = g(n) h(n) with g = {g} -> 0, of one sign and monotone for large n "
        f"(g' keeps one sign), h = {h} of mean 0 (|sin| and |cos| have mean 2/pi): "
        "|sin x| - 2/pi = -(4/pi) sum_k cos(2 k x)/(4 k^2 - 1) and |cos x| - 2/pi = "
        "-(4/pi) sum_k (-1)^k cos(2 k x)/(4 k^2 - 1) (absolutely convergent; the tail past "
        "K is at most (4/pi)/(2(2K + 1))); at x = r n, r rational, the partial sums of "
        "cos(2 k r n) are at most min(N, 1/|sin(k r)|) and 1/|sin(k r)| <= C k^(mu - 1 + "
        f"eps), mu = the irrationality measure of pi, at most {_PI_MU} ({_PI_WHY}), so with "
        f"K = N^(1/(mu - 1)) the partial sums of h are O(N^alpha), alpha = 1 - 1/{eta} + "
        f"eps = {ALPHA}; by summation by parts the series converges, since "
        f"sum |g| n^(alpha - 1) converges ({d.certificate}) and then g(N) N^alpha -> 0 and "
        "sum n^alpha |g(n) - g(n+1)| converges",
        test="mean-zero |sin|",
    )
