r"""Certified tails of terms analytic in :math:`z = q^n`: :math:`b_n = F(q^n)`, :math:`0 < q < 1`.

``exp(exp(-n)) - 1``, ``-log(1 - exp(-n))``, ``sinh(2**(-n))`` or ``1/(exp(n) - 1) - exp(-n)``
hold n only in exponentials :math:`e^{\alpha + \beta n}` whose rates are rational multiples
of one :math:`\lambda > 0`; with :math:`z = e^{-\lambda n}` each is :math:`e^{\alpha} z^{k}`,
k an integer, and the term is :math:`F(z)`.  F is accepted when its structure shows it
analytic on a closed disc :math:`|z| \le R` (:mod:`theory.series.analytic_disc`: entire
functions of analytic parts; a log, a reciprocal or a power only of a part whose real part
is positive on the circle, hence on the disc).  Cauchy's estimate then bounds the Taylor
coefficients :math:`c_k = F^{(k)}(0)/k!` beyond the first K:

.. math::
   \Big|F(z) - \sum_{k<K} c_k z^k\Big| \le \frac{M_R\,(|z|/R)^K}{1 - |z|/R}, \qquad
   M_R = \max_{|z| = R} |F(z)|.

With :math:`c_0 = F(0) = 0` (exactly, by sympy; otherwise the terms do not tend to 0)
and :math:`z_a = q^a \le R/16`, the tail is a sum of geometric series:

.. math::
   \sum_{n \ge a} b_n \in \sum_{k=1}^{K-1} \frac{c_k z_a^k}{1 - q^k}
   \pm \frac{M_R (z_a/R)^K}{(1 - q^K)(1 - z_a/R)},

the :math:`c_k` from arb's Taylor series of F at 0 (balls).  The terms
:math:`n_0 \le n < M` before :math:`q^M \le R/16` are summed one by one.  The sign of
the far terms follows from the first nonzero :math:`c_j` (the earlier ones exactly 0):
:math:`F(z)/z^j \ge c_j - \sum_{j<k<K} |c_k| z_M^{k-j} - M_R R^{-K} z_M^{K-j}/(1 - z_M/R)`.

>>> from theory.series.expressions import parse_expression as P
>>> t = ExpAtomTail(P("exp(exp(-n)) - 1"), 1)
>>> s = t.tail(1)   # sum_(k >= 1) e^(-k)/(k! (1 - e^(-k))): mpmath 0.669805705834900...
>>> abs(s.mid() - arb("0.6698057058349")) < 1e-12, s.rad() < 1e-25, t.nonneg_until > 10**20
(True, True, True)
"""

from __future__ import annotations

import math
from fractions import Fraction

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, cache_answers, step_budget
from theory.series.analytic_disc import Z, analytic_disc
from theory.series.arb_eval import (
    BallTerms,
    NotCertified,
    NotSupported,
    Undecided,
    arb_function,
    ball_precision,
    head_suffix,
    tail_start,
    taylor,
)
from theory.series.decision import Decision
from theory.series.expressions import N

ORDER = 24  # K: c_0 .. c_(K-1) as balls, the rest bounded by Cauchy's estimate
SHRINK = 16  # the expansion is used where z = q^n <= R / SHRINK
MAX_HEAD = 20000  # at most this many terms before the expansion applies
EVERYWHERE = 10**30  # nonneg_until when every term from n0 on is proved >= 0


def _rate(u: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(alpha, beta) with u = alpha + beta n exactly (real numbers), or None."""
    u = sp.expand(u)
    beta = u.coeff(N, 1)
    alpha = sp.expand(u - beta * N)
    if alpha.has(N) or not (beta.is_number and alpha.is_number):
        return None
    if beta.is_real is not True or alpha.is_real is not True or beta.is_zero:
        return None
    return alpha, beta


def in_exp_atom(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(F, lambda): b_n = F(e^(-lambda n)) exactly, lambda > 0 (module doc), or None (also
    where sympy takes more than a second over it).

    >>> from theory.series.expressions import parse_expression as P
    >>> in_exp_atom(P("sinh(2**(-n)) + 4**(-n)"))
    (z**2 + exp(z)/2 - exp(-z)/2, log(2))
    >>> in_exp_atom(P("exp(-n)/n")) is None
    True
    """
    try:
        with step_budget(1.0):
            return _in_exp_atom(b)
    except (StepTimeout, TypeError, ValueError):
        return None


def _in_exp_atom(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """:func:`in_exp_atom` without its time limit."""
    if not b.has(N) or b.has(sp.Float):  # sympy's float arithmetic below would round
        return None
    atoms, rates = [], []  # e^(alpha + beta n) and a^(u) = e^(u log a), u linear in n
    for e in b.atoms(sp.exp, sp.Pow):
        if isinstance(e, sp.exp):
            r = _rate(e.args[0])
        elif e.base.is_number and e.base.is_positive and e.exp.has(N) and not e.base.has(N):
            r = _rate(e.exp)
            r = None if r is None else (r[0] * sp.log(e.base), r[1] * sp.log(e.base))
        else:
            continue
        if r is not None:
            atoms.append(e)
            rates.append(r)
    if not atoms:
        return None
    beta0 = rates[0][1]
    ratios = []
    for _, beta in rates:
        r = sp.nsimplify(sp.expand_log(beta / beta0, force=True), rational=False)
        if not (r.is_Rational and sp.expand_log(beta - r * beta0, force=True).simplify() == 0):
            return None
        ratios.append(Fraction(int(r.p), int(r.q)))
    g = Fraction(
        math.gcd(*(f.numerator for f in ratios)), math.lcm(*(f.denominator for f in ratios))
    )
    lam = sp.Abs(beta0) * sp.Rational(g.numerator, g.denominator)
    if not lam.is_positive:
        return None
    sign = 1 if beta0.is_positive else -1
    powers = [-sign * r / g for r in ratios]  # -beta/lambda, exactly
    if any(k.denominator != 1 for k in powers):
        return None
    F = b.xreplace(
        {e: sp.exp(alpha) * Z ** int(k) for e, (alpha, _), k in zip(atoms, rates, powers)}
    )
    if F.has(N):
        return None
    if any(isinstance(p, sp.Pow) and p.base == Z and p.exp.is_negative for p in F.atoms(sp.Pow)):
        F = sp.cancel(sp.together(F))  # 1/(e^n - 1) = z/(1 - z)
    return F, sp.simplify(lam)


def exp_atom_test(b: sp.Expr) -> Decision | None:
    r"""The verdict for b_n = F(e^(-lambda n)), F analytic on |z| <= R (module doc): with
    F(0) = 0, F(z)/z is analytic too and :math:`|F(z)| \le M_R |z|/(R - |z|)` (maximum
    principle on :math:`|z| = R`), so the series converges absolutely like
    :math:`\sum e^{-\lambda n}`; with F(0) != 0 the terms tend to F(0) and it diverges.

    >>> from theory.series.expressions import parse_expression as P
    >>> exp_atom_test(P("cos(exp(-n)) - 1")).converges
    True
    >>> exp_atom_test(P("cosh(2**(-n))")).converges
    False
    """
    try:
        with step_budget(3.0):
            found = in_exp_atom(b)
            if found is None:
                return None
            F, lam = found
            at0 = sp.simplify(F.subs(Z, 0))
            R, M_R = analytic_disc(F)
    except (
        NotCertified,
        NotSupported,
        Undecided,
        StepTimeout,
        ArithmeticError,
        ValueError,
        TypeError,
    ):
        return None
    form = f"b_n = F(z), z = e^(-({lam}) n), F(z) = {F} analytic on |z| <= {R}"
    if at0 == 0:
        return Decision(
            True,
            f"{form} with F(0) = 0: |b_n| <= M z/({R} - z), M = max_(|z|={R}) |F| <= "
            f"{M_R.upper().str(5, radius=False)} (complex balls), so sum b_n converges "
            "absolutely (geometric majorant)",
            test="analytic in e^(-lambda n)",
        )
    v = arb_function(at0)(arb(0)) if at0.is_number else None
    if v is not None and (v > 0 or v < 0):
        return Decision(
            False,
            f"{form}: b_n -> F(0) = {at0} != 0, so sum b_n diverges",
            test="analytic in e^(-lambda n)",
        )
    return None


class ExpAtomTail(BallTerms):
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of b_n = F(e^(-lambda n)), F analytic at 0 with F(0) = 0 (module doc)."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int):
        try:
            with step_budget(3.0):
                found = in_exp_atom(b)
                if found is None:
                    raise NotCertified("the terms are not a function of one e^(-lambda n)")
                F, lam = found
                if sp.simplify(F.subs(Z, 0)) != 0:
                    raise NotCertified("F(0) is not 0: the terms do not tend to 0")
            self.n0 = int(n0)
            self.f = arb_function(b)
            self.q = (-arb_function(lam)(arb(0))).exp()
            fz = arb_function(F.subs(Z, N))
            R, self.M_R = analytic_disc(F)
            self.R = arb(R.p) / R.q
            self.c = taylor(fz, arb(0), ORDER)
            self.c[0] = arb(0)  # F(0) = 0 exactly (sympy, above)
        except (NotSupported, Undecided, StepTimeout, ValueError, TypeError) as exc:
            raise NotCertified(f"the expansion in e^(-lambda n): {exc}") from None
        if not all(c.is_finite() for c in self.c):
            raise NotCertified("the Taylor coefficients of F at 0 are not finite")
        # M: the first n >= n0 with q^n <= R / SHRINK
        need = (self.R / SHRINK).log() / self.q.log()
        if not need.is_finite() or need.upper() > self.n0 + MAX_HEAD:
            raise NotCertified(f"more than {MAX_HEAD} terms before the expansion applies")
        self.M = max(self.n0 + 1, int(need.upper().ceil().unique_fmpz()) + 1)
        self.rem = self.M_R / self.R**ORDER
        self.suffix, self.nonneg_until = head_suffix(self.f, self.n0, self.M)
        if self.nonneg_until == self.M and self._far_nonneg():
            self.nonneg_until = EVERYWHERE
        self.certificate = (
            f"b_n = F(z), z = e^(-({lam}) n), F(z) = {F} analytic on |z| <= {R} (structure; "
            f"Re > 0 of every log/power argument on the circle), |F| <= "
            f"{self.M_R.upper().str(5, radius=False)} there; its Taylor series to order {ORDER} "
            f"with Cauchy's remainder bound sums the tail from n = {self.M} as geometric "
            f"series; terms n0 = {self.n0} <= n < {self.M} one by one (ball arithmetic)"
        )

    def _far_nonneg(self) -> bool:
        """F(z)/z^j > 0 for 0 < z <= q^M, j the first k with c_k not exactly 0."""
        j = next((k for k in range(1, ORDER) if not self.c[k] == 0), None)
        if j is None or any(not self.c[k] == 0 for k in range(1, j)):
            return False
        z0 = self.q**self.M
        low = (
            self.c[j]
            - sum((abs(self.c[k]) * z0 ** (k - j) for k in range(j + 1, ORDER)), arb(0))
            - self.rem * z0 ** (ORDER - j) / (1 - z0 / self.R)
        )
        return bool(low > 0)

    def _far(self, a: int) -> arb:
        """sum_{n >= a} b_n for a >= M: geometric series of the expansion."""
        za = self.q**a
        main = sum(
            (self.c[k] * za**k / (1 - self.q**k) for k in range(1, ORDER) if not self.c[k] == 0),
            arb(0),
        )
        bound = self.rem * za**ORDER / ((1 - self.q**ORDER) * (1 - za / self.R))
        return main + arb(0).union(bound).union(-bound)

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        if a >= self.M:
            return self._far(a)
        return self.suffix[a - self.n0] + self._far(self.M)


@cache_answers(64)
def exp_atom_nonneg(b: sp.Expr, n0: int) -> bool:
    """b_n >= 0 for every n >= n0 proved by the expansion in e^(-lambda n)."""
    if in_exp_atom(b) is None:
        return False
    try:
        return ExpAtomTail(b, n0).nonneg_until >= EVERYWHERE
    except (NotCertified, ArithmeticError, ValueError, TypeError):
        return False
