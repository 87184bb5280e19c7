r"""Certified tails of terms analytic in :math:`t = 1/n`: :math:`b_n = F(1/n)`, F entire.

For ``n*sin(1/n) - 1``, ``1 - cos(1/n)`` or ``exp(-1/n) - 1 + 1/n`` the terms are a
difference of nearly equal numbers, so the interval evaluation of the far tail in
:mod:`theory.series.enclosure` loses every digit.  Here F is built from numbers, t,
sums, products, integer powers and the entire functions exp, sin, cos, sinh, cosh, with
negative powers of t alone and never inside a function (``cos(2/t)``, i.e. ``cos(2*n)``,
has an essential singularity at 0 and is refused), so F is analytic on
:math:`\mathbb{C} \setminus \{0\}` with at most a pole at 0; when its
Laurent series at 0 (sympy, exact rational coefficients) has no negative powers, 0 is a
removable singularity and F is entire, :math:`F(t) = \sum_k c_k t^k`.  Cauchy's estimate
on the circle :math:`|z| = R`,

.. math::
   |c_k| \le M_R R^{-k}, \quad M_R = \max_{|z| = R} |F(z)|,

bounds the remainder after K terms: for :math:`0 < t \le t_0 < R`,

.. math::
   \Big|F(t) - \sum_{k<K} c_k t^k\Big| \le \frac{M_R (t/R)^K}{1 - t_0/R},

with :math:`M_R` enclosed by complex ball arithmetic on boxes covering the circle (64 arcs).
With :math:`c_0 = c_1 = 0` the tail from :math:`a \ge M` is then

.. math::
   \sum_{n \ge a} b_n \in \sum_{k=2}^{K-1} c_k\,\zeta(k, a)
   \pm \frac{M_R R^{-K}\,\zeta(K, a)}{1 - 1/(aR)}

(Hurwitz zeta in ball arithmetic), and the terms :math:`n_0 \le n < M` are summed one by one.
The sign of the terms follows from the same bound: for :math:`t \le t_0`,
:math:`F(t)/t^2 \ge c_2 - \sum_{2<k<K} |c_k| t_0^{k-2} - M_R R^{-K} t_0^{K-2}/(1 - t_0/R)`.

>>> from theory.series.expressions import parse_expression as P
>>> t = InversePowerTail(P("1 - n*sin(1/n)"), 1)
>>> s = t.tail(1)                    # sum_n (1 - n sin(1/n)), mpmath nsum: 0.26533542925...
>>> abs(s.mid() - arb("0.2653354292584")) < 1e-12, s.rad() < 1e-25, t.nonneg_until > 10**20
(True, True, True)
"""

from __future__ import annotations

import sympy as sp
from flint import acb, arb

from theory.core.budget import StepTimeout, cache_answers, step_budget
from theory.series.analytic_disc import Z, analytic_disc
from theory.series.arb_eval import (
    NotCertified,
    NotSupported,
    Undecided,
    arb_function,
    ball_precision,
    head_suffix,
    tail_start,
    term_ball,
)
from theory.series.expressions import N

T = sp.Symbol("t", positive=True)
ORDER = 12  # K: coefficients c_0 .. c_(K-1) exact, the rest bounded by Cauchy's estimate
RADIUS = 1  # R for an entire F
DISC_RADII = (sp.Rational(1, 2), sp.Rational(1, 8))  # R for an F with a log or a root
ARCS = 64  # boxes covering the circle |z| = R
HEAD = 1024  # terms n0 <= n < n0 + HEAD summed one by one
EVERYWHERE = 10**30  # nonneg_until when every term from n0 on is proved >= 0
_ENTIRE = {sp.exp: "exp", sp.sin: "sin", sp.cos: "cos", sp.sinh: "sinh", sp.cosh: "cosh"}


def _analytic_off_zero(e: sp.Expr, entire: bool = False) -> bool:
    """e (in T) is a finite sum of T^-j times entire functions: built from real numbers, T,
    +, *, integer powers and the entire functions of ``_ENTIRE``, with negative powers of T
    alone and never inside a function (``cos(2/t)`` has an essential singularity at 0).
    So e is analytic on C minus {0} with at most a pole at 0; ``entire``: no pole at all."""
    if e.is_number:
        return e.is_real is True and e.is_finite is True
    if e == T:
        return True
    if isinstance(e, (sp.Add, sp.Mul)):
        return all(_analytic_off_zero(a, entire) for a in e.args)
    if isinstance(e, sp.Pow):
        base, ex = e.args
        if not ex.is_Integer:
            return False
        if ex < 0:
            return base == T and not entire
        return _analytic_off_zero(base, entire)
    if type(e) in _ENTIRE:
        return _analytic_off_zero(e.args[0], True)
    return False


def _acb(e: sp.Expr, z: acb) -> acb:
    """e at the complex ball z (T -> z), for e accepted by :func:`_analytic_off_zero`."""
    if e.is_number:
        return acb(arb_function(e)(arb(0)))
    if e == T:
        return z
    if isinstance(e, sp.Add):
        return sum((_acb(a, z) for a in e.args), acb(0))
    if isinstance(e, sp.Mul):
        out = acb(1)
        for a in e.args:
            out *= _acb(a, z)
        return out
    if isinstance(e, sp.Pow):
        return _acb(e.args[0], z) ** int(e.args[1])
    return getattr(_acb(e.args[0], z), _ENTIRE[type(e)])()


def taylor_in_inverse_n(b: sp.Expr) -> tuple[sp.Expr, list] | None:
    """(F, [c_0, ..., c_(K-1)]) with b_n = F(1/n) = sum_k c_k n^-k, F entire (module doc),
    or None when b is not of that form."""
    if not b.has(N):
        return None
    try:
        with step_budget(3.0):
            F = b.subs(N, 1 / T)
            if not _analytic_off_zero(F):
                F = _arguments_cancelled(F)  # log((n + 1)/n) = log(1 + t)
                if _disc(F) is None:
                    return None
            series = sp.expand(sp.series(F, T, 0, ORDER).removeO())
    except (
        StepTimeout,
        TypeError,
        ValueError,
        NotImplementedError,
        RecursionError,
        sp.PoleError,
    ):
        return None
    coeffs = [sp.Integer(0)] * ORDER
    for term in sp.Add.make_args(series):
        c, p = term.as_coeff_exponent(T)
        if not (p.is_Integer and 0 <= p < ORDER and c.is_number and c.is_real):
            return None  # a pole at 0 (F not entire), or a term sympy did not resolve
        coeffs[int(p)] += c
    return F, coeffs


def _arguments_cancelled(F: sp.Expr) -> sp.Expr:
    """F with the argument of every log and the base of every power over one denominator,
    cancelled: log((1/t + 1) t) = log(t + 1), 1/(1 + 1/t) = t/(t + 1), analytic at t = 0."""
    return F.replace(
        lambda e: isinstance(e, sp.log) or (isinstance(e, sp.Pow) and e.base.has(T)),
        lambda e: e.func(sp.cancel(sp.together(e.args[0])), *e.args[1:]),
    )


@cache_answers(64)
def _disc(F: sp.Expr) -> tuple[sp.Rational, arb] | None:
    """(R, M_R) for F that is not entire (a log or a real power of an analytic part):
    analytic on |t| <= R, R = 1/2 or 1/8, by :mod:`theory.series.analytic_disc`."""
    try:
        return analytic_disc(F.subs(T, Z), DISC_RADII, poles=True)
    except (NotCertified, NotSupported, Undecided, ArithmeticError, ValueError, TypeError):
        return None


def _circle_max(F: sp.Expr, R: int) -> arb:
    """An upper bound of |F| on |z| = R: each arc of angle 2 delta lies in the box of half
    side R delta around its mid point."""
    top = arb(0)
    delta = arb.pi() / ARCS
    for j in range(ARCS):
        theta = delta * (2 * j + 1)
        centre = acb(R * theta.cos(), R * theta.sin())
        box = centre + acb(arb(0, R * delta.upper()), arb(0, R * delta.upper()))
        v = _acb(F, box)
        if not v.is_finite():
            raise NotCertified(f"|F| on the circle |z| = {R} is not bounded in ball arithmetic")
        top = top.max(v.abs_upper())
    return top


class InversePowerTail:
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of b_n = F(1/n), F entire with F(0) = F'(0) = 0 (module doc)."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, head: int = HEAD):
        found = taylor_in_inverse_n(b)
        if found is None:
            raise NotCertified("the terms are not an entire function of 1/n")
        F, coeffs = found
        if coeffs[0] != 0 or coeffs[1] != 0:
            raise NotCertified("the expansion in 1/n does not start at n^-2")
        disc = None if _analytic_off_zero(F) else _disc(F)
        R = sp.Integer(RADIUS) if disc is None else disc[0]
        self.R = arb(int(R.p)) / int(R.q)
        self.n0, self.M = int(n0), max(int(n0) + int(head), 2 * int(sp.ceiling(1 / R)) + 1)
        try:
            self.f = arb_function(b)
            self.c = [arb_function(c)(arb(0)) for c in coeffs]
            self.exact = list(coeffs)
            self.M_R = _circle_max(F, RADIUS) if disc is None else disc[1]
        except (NotSupported, Undecided, ArithmeticError, ValueError) as exc:
            raise NotCertified(f"the expansion in 1/n: {exc}") from None
        self.rem = self.M_R / self.R**ORDER  # |c_k| <= rem * R^(K-k) for k >= K
        self._head_sums()
        if self.nonneg_until == self.M and self._far_nonneg():
            self.nonneg_until = EVERYWHERE
        poly = " + ".join(f"({c})*n^-{k}" for k, c in enumerate(coeffs) if c != 0)
        self.certificate = (
            f"b_n = F(1/n) with F analytic on |z| <= {R}: b_n = {poly} + r_n, |r_n| <= M "
            f"R^-{ORDER} n^-{ORDER} / (1 - 1/(n R)) with M = max_(|z|={R}) |F(z)| <= "
            f"{self.M_R.upper().str(5, radius=False)} "
            f"(Cauchy's estimate, complex balls on {ARCS} arcs); terms n0 = {self.n0} <= n < "
            f"{self.M} one by one, beyond the expansion summed by Hurwitz zeta functions "
            "(ball arithmetic)"
        )

    def _far_nonneg(self) -> bool:
        """F(t)/t^j >= 0 proved for 0 < t <= 1/M, j the first k with c_k != 0 (exactly; the
        module doc's bound with j in place of 2: sin(1/n)**2 - 1/n**2 + 1/(3 n**4) starts
        at 2/(45 n^6))."""
        j = next((k for k in range(2, ORDER) if self.exact[k] != 0), None)
        if j is None:
            return False
        t0 = arb(1) / self.M
        low = (
            self.c[j]
            - sum((abs(self.c[k]) * t0 ** (k - j) for k in range(j + 1, ORDER)), arb(0))
            - self.rem * t0 ** (ORDER - j) / (1 - t0 / self.R)
        )
        return bool(low > 0)

    def _head_sums(self):
        """suffix[i] = sum_{n0 + i <= n < M} b_n (ball arithmetic); nonneg_until from the signs."""
        self.suffix, self.nonneg_until = head_suffix(self.f, self.n0, self.M)

    def _far(self, a: int) -> arb:
        """sum_{n >= a} b_n for a >= M: the expansion by Hurwitz zeta functions."""
        A = arb(a)
        main = sum((self.c[k] * arb(k).zeta(A) for k in range(2, ORDER) if self.c[k] != 0), arb(0))
        bound = self.rem * arb(ORDER).zeta(A) / (1 - 1 / (A * self.R))
        return main + arb(0).union(bound).union(-bound)

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return term_ball(self.f, int(n))

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        if a >= self.M:
            return self._far(a)
        return self.suffix[a - self.n0] + self._far(self.M)


@cache_answers(64)
def expansion_nonneg(b: sp.Expr, n0: int) -> bool:
    """b_n >= 0 for every n >= n0 proved by the expansion in 1/n (head terms in balls)."""
    if taylor_in_inverse_n(b) is None:
        return False
    try:
        return InversePowerTail(b, n0).nonneg_until >= EVERYWHERE
    except (NotCertified, ArithmeticError, ValueError, TypeError):
        return False
