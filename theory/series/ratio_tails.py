r"""Certified tails of factorial-like terms whose term ratio is a rational function with limit
:math:`|\rho| < 1` (``factorial(n)**2/factorial(2*n)``, ``binomial(3*n, n)/8**n``, ...).

With :math:`r(n) = b_{n+1}/b_n = P(n)/Q(n)` (``gammasimp``) and a rational :math:`q`,
:math:`|\rho| < q < 1`, the polynomial inequalities :math:`Q > 0`, :math:`\pm P > 0` and
:math:`qQ \mp P > 0` are proved for all real :math:`n \ge N_1` (every coefficient of the
polynomial in :math:`t = n - N_1` is :math:`\ge 0`, the constant term :math:`> 0`).  A ratio
with real powers of polynomials (``n**(1/4)/(n + 1)**(1/4)``) is written in :math:`t = 1/n`,
analytic at 0, and :math:`0 < \pm r < q` is proved by ball evaluation on :math:`[0, 1/N_1]`.  Then
:math:`|b_{n+1}| \le q |b_n|` for :math:`n \ge N_1`, and for :math:`M \ge N_1`

.. math::
   \sum_{n \ge M} b_n \in \Big[b_M,\ \frac{b_M}{1-q}\Big] \ (b_M > 0,\ r > 0), \qquad
   \Big|\sum_{n \ge M} b_n\Big| \le \frac{|b_M|}{1-q} \ \text{otherwise}.

The terms before :math:`M` are summed in ball arithmetic (python-flint): directly up to
:math:`N_1`, then by the recurrence :math:`b_{n+1} = r(n) b_n`.

>>> from theory.series.expressions import parse_expression as P
>>> t = RatioTail(P("factorial(n)**2/factorial(2*n)"), 1)
>>> t.tail(1).overlaps(arb(1) / 3 + 2 * arb.pi() * arb(3).sqrt() / 27)  # closed form
True
"""

from __future__ import annotations

import math

import sympy as sp
from flint import arb

from theory.core.budget import step_budget
from theory.series.arb_eval import (
    NotCertified,
    NotSupported,
    Undecided,
    arb_function,
    ball_precision,
    tail_start,
    term_ball,
)
from theory.series.comparison_tests import GAMMA_LIKE, term_ratio
from theory.series.expressions import N
from theory.series.limits import smooth
from theory.series.ratio_monotone import factorwise_ratio_bound, monotone_ratio_bound

MAX_TERMS = 200_000  # terms summed before the geometric bound takes over, at most
MAX_N1_LOG2 = 40  # N_1 is searched among n0, 2 n0, 4 n0, ... up to 2^40
REL_TOL = 2.0**-80  # the remainder bound is pushed below this share of the largest term
EVERYWHERE = 10**30  # nonneg_until when every term from n0 on is proved >= 0


def _holds(rel) -> bool:
    """A sympy relation between numbers that is proved true."""
    return rel is True or rel is sp.true


def _positive_from(poly: sp.Expr, n1: int) -> bool:
    """poly(n) > 0 for every real n >= n1: the coefficients of poly(n1 + t) in t are >= 0
    and the constant term is > 0."""
    t = sp.Dummy("t")
    coeffs = sp.Poly(sp.expand(poly.subs(N, n1 + t)), t).all_coeffs()
    return coeffs[-1].is_positive is True and all(c.is_nonnegative is True for c in coeffs)


def ratio_in_t(ratio: sp.Expr) -> sp.Expr:
    r"""R(t) = r(1/t) as an expression in ``n`` standing for t, analytic at 0, from the
    factorisation of r into powers of polynomials: a factor :math:`p(n)^e` with
    :math:`\deg p = d` becomes :math:`t^{-de} \tilde p(t)^e`, :math:`\tilde p(t) = t^d p(1/t)`,
    and the powers of t cancel when r tends to a finite nonzero limit.

    >>> ratio_in_t(N*(2*N + 1)/(2*(N + 1)**2))
    (n + 2)/(2*(n + 1)**2)
    """
    const, factors, degree = sp.Integer(1), [], sp.Integer(0)
    for f in sp.Mul.make_args(ratio):
        if not f.has(N):
            const *= f
            continue
        base, e = (f.base, f.exp) if f.is_Pow else (f, sp.Integer(1))
        if e.has(N) or not e.is_Rational or not base.is_polynomial(N):
            raise NotCertified(f"the term ratio factor {f} is not a power of a polynomial in n")
        coeffs = sp.Poly(base, N).all_coeffs()  # leading first: t^d p(1/t) has them reversed
        factors.append((sp.Poly(coeffs[::-1], N).as_expr(), e))
        degree += (len(coeffs) - 1) * e
    if degree != 0:
        raise NotCertified(f"the term ratio {ratio} does not tend to a finite nonzero limit")
    return const * sp.Mul(*[sp.Pow(p, e) for p, e in factors])


def _ball_ratio_bound(ratio: sp.Expr, n0: int) -> tuple[sp.Rational, int, int]:
    """ratio_bound for a ratio with real powers (n^(1/4)/(n + 1)^(1/4) ...): s R(t) in (0, q)
    for t = 1/n in [0, 1/N_1], R = r(1/t) analytic at 0 (:func:`ratio_in_t`), proved by
    ball evaluation on the t-interval in up to 64 pieces."""
    try:
        R = arb_function(ratio_in_t(ratio))
        rho = R(arb(0))
    except (NotSupported, Undecided, ArithmeticError, ValueError) as exc:
        raise NotCertified(f"the term ratio {ratio} in 1/n: {exc}") from None
    if not (abs(rho) < 1 and rho.is_finite()) or rho.contains(0):
        raise NotCertified(f"the term ratio tends to {rho.str(5)}, not below 1 in absolute value")
    q = sp.Rational(math.ceil(float((1 + abs(rho.mid())) / 2) * 2**20), 2**20)
    s, qa = (1 if rho > 0 else -1), arb(q.p) / q.q
    n1 = max(int(n0), 1)
    while n1.bit_length() <= MAX_N1_LOG2:
        for parts in (1, 8, 64):
            try:
                pieces = [
                    (arb(i) / (parts * n1)).union(arb(i + 1) / (parts * n1)) for i in range(parts)
                ]
                vals = [s * R(p) for p in pieces]
            except (Undecided, ArithmeticError, ValueError):
                continue
            if all(v > 0 and v < qa for v in vals) and abs(rho) < qa:
                return q, n1, s
        n1 *= 2
    raise NotCertified(f"|b_(n+1)/b_n| <= {q} not proved for n <= 2^{MAX_N1_LOG2}")


def proved_ratio_bound(
    ratio: sp.Expr, n0: int, b: sp.Expr | None = None
) -> tuple[sp.Rational, int, int, str]:
    """(q, N_1, s, how): :func:`ratio_bound` and the way it was proved: polynomial
    inequalities (a rational ratio), ball evaluation in 1/n (real powers of polynomials),
    the monotonicity of the ratio (:mod:`theory.series.ratio_monotone`: ``n**n/(n + 1)**n``),
    or, given the term ``b`` itself, of its factors' ratios one by one
    (``exp(-sqrt(n))*factorial(n)/n**n``)."""
    if ratio.is_rational_function(N):
        q, n1, s = ratio_bound(ratio, n0)
        return q, n1, s, f"polynomial inequalities in n - {n1} with nonnegative coefficients"
    try:
        q, n1, s = _ball_ratio_bound(ratio, n0)
        return q, n1, s, f"ball evaluation of the ratio in 1/n on [0, 1/{n1}]"
    except NotCertified as exc:
        # the factors one by one first: where a factor's ratio is monotone but the whole
        # ratio's derivatives are not signed (atan(n)*factorial(n)/n**n), the search of
        # the whole ratio's monotonicity up to n = 2^12 takes seconds before it fails
        if b is not None:
            try:
                return factorwise_ratio_bound(b, n0)
            except (NotCertified, ArithmeticError, ValueError, TypeError) as exc3:
                exc = NotCertified(f"{exc}; {exc3}")
        try:
            return monotone_ratio_bound(ratio, n0)
        except (NotCertified, ArithmeticError, ValueError, TypeError) as exc2:
            raise NotCertified(f"{exc}; {exc2}") from None


def ratio_bound(ratio: sp.Expr, n0: int) -> tuple[sp.Rational, int, int]:
    """(q, N_1, s): s r(n) > 0 and s r(n) < q < 1 proved for every n >= N_1 >= n0, s = +-1."""
    if not ratio.is_rational_function(N):
        return proved_ratio_bound(ratio, n0)[:3]
    with step_budget(2.0):
        P, Q = (sp.Poly(x, N) for x in sp.fraction(sp.cancel(sp.together(ratio))))
    if P.is_zero or P.degree() > Q.degree():
        raise NotCertified(f"the term ratio {ratio} does not tend to a limit below 1")
    rho = P.LC() / Q.LC() if P.degree() == Q.degree() else sp.Integer(0)
    if not _holds(abs(rho) < 1):
        raise NotCertified(f"the term ratio tends to {rho}, not below 1 in absolute value")
    q = sp.Rational(math.ceil(float((1 + abs(rho)) / 2) * 2**20), 2**20)
    if not (_holds(q < 1) and _holds(q > abs(rho))):
        raise NotCertified(f"no rational q between |rho| = {rho} and 1")
    s = 1 if _holds(P.LC() / Q.LC() > 0) else -1
    Pe, Qe = P.as_expr(), Q.as_expr()
    if _holds(Q.LC() < 0):
        Pe, Qe = -Pe, -Qe
    n1 = max(int(n0), 1)
    with step_budget(3.0):
        while n1.bit_length() <= MAX_N1_LOG2:
            if all(_positive_from(e, n1) for e in (Qe, s * Pe, q * Qe - s * Pe)):
                return q, n1, s
            n1 *= 2
    raise NotCertified(f"|b_(n+1)/b_n| <= {q} not proved for n <= 2^{MAX_N1_LOG2}")


def has_moving_power(b: sp.Expr) -> bool:
    """Whether b has a power whose base and exponent both depend on n (``(1 + 1/n)**(n**2)``)
    and no factorial-like function: its term ratio may still be bounded below 1."""
    return not b.has(*GAMMA_LIKE) and any(p.base.has(N) and p.exp.has(N) for p in b.atoms(sp.Pow))


def power_ratio(b: sp.Expr) -> sp.Expr | None:
    r"""b_(n+1)/b_n with powers collected (``powsimp``) for a smooth term with a moving power
    (:func:`has_moving_power`), else None: the ratio as it is, for the monotonicity proof of
    :mod:`theory.series.ratio_monotone`.

    >>> from theory.series.expressions import parse_expression as P
    >>> power_ratio(P("(1 + 1/n)**(n**2)/3**n"))
    (n/(n + 1))**(n**2)*((n + 2)/(n + 1))**((n + 1)**2)/3
    """
    if not has_moving_power(b) or not smooth(b):
        return None
    try:
        with step_budget(1.0):  # bases over one denominator: (1 - 1/(n + 1)) -> n/(n + 1)
            b = b.replace(
                lambda e: e.is_Pow and e.base.has(N) and e.exp.has(N),
                lambda e: sp.Pow(sp.together(e.base), e.exp),
            )
            return sp.powsimp(b.subs(N, N + 1) / b)
    except Exception:  # noqa: BLE001 - no simplification: other engines
        return None


class HeadTerms:
    """The head b_(n0), ..., b_M held as balls (``terms``); beyond M each term is evaluated
    directly (``_direct``).  Shared by the engines that sum a head and bound the rest."""

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        n = int(n)
        return self.terms[n - self.n0] if self.n0 <= n <= self.M else self._direct(n)

    def tail_start(self, a: int) -> int:
        """``a`` as an int, checked to be a start this engine can sum from (``a >= n0``)."""
        a = tail_start(a, self.n0)
        return a


class RatioTail(HeadTerms):
    """The certified-tail interface (``n0``, ``tail``, ``term``, ``nonneg_until``,
    ``certificate``) for terms whose term ratio is proved below a q < 1 in absolute value
    from some N_1 on: factorial-like terms (:func:`term_ratio`) and terms with a moving power
    (:func:`power_ratio`)."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, scale: float | None = None):
        self.b, self.n0 = b, int(n0)
        ratio = term_ratio(b) if b.has(*GAMMA_LIKE) else power_ratio(b)
        if ratio is None:
            raise NotCertified("the term ratio does not simplify to a gamma-free expression")
        self.q, self.n1, self.sign, how = proved_ratio_bound(ratio, self.n0, b)
        try:
            self.f, self.r = arb_function(b), arb_function(ratio)
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self._sum_head()
        self.certificate = (
            f"term ratio b_(n+1)/b_n = {ratio}: 0 < {'' if self.sign > 0 else '-'}b_(n+1)/b_n "
            f"<= {self.q} for n >= {self.n1} ({how}); {len(self.terms)} terms summed in ball arithmetic "
            f"(python-flint), the rest bounded by the geometric series |b_M|/(1 - {self.q})"
        )

    def _direct(self, n: int) -> arb:
        return term_ball(self.f, n)

    def _sum_head(self) -> None:
        """terms[i] = b_(n0+i) up to M, where abs(b_M)/(1-q) is below REL_TOL of the largest
        term; suffix[i] = sum of terms[i:]."""
        terms = [self._direct(n) for n in range(self.n0, self.n1 + 1)]
        for n in range(self.n1 + 1, self.n1 + 6):  # the recurrence agrees with the terms
            terms.append(self._direct(n))
            if not terms[-1].overlaps(self.r(arb(n - 1)) * terms[-2]):
                raise NotCertified(f"b_{n} != r({n - 1}) b_{n - 1} in ball arithmetic")
        big = max((abs(t).upper() for t in terms), key=float)
        inv = 1 / (1 - arb(self.q.p) / self.q.q)
        while not abs(terms[-1]).upper() * inv <= big * REL_TOL:
            if len(terms) > MAX_TERMS:
                raise NotCertified(f"more than {MAX_TERMS} terms before the geometric bound")
            m = self.n0 + len(terms) - 1
            terms.append(self.r(arb(m)) * terms[-1])
        self.terms, self.inv = terms, inv
        self.M = self.n0 + len(terms) - 1  # the last term starts the remainder
        suffix = [arb(0)]
        for t in reversed(terms[:-1]):
            suffix.append(suffix[-1] + t)
        self.suffix = suffix[::-1]
        first = 0
        while first < len(terms) and terms[first] >= 0:
            first += 1
        positive_on = self.sign > 0 and terms[self.n1 - self.n0] > 0
        self.nonneg_until = (
            EVERYWHERE if first > self.n1 - self.n0 and positive_on else (self.n0 + first)
        )

    def _remainder(self, bm: arb) -> arb:
        """Enclosure of sum_{n >= m} b_n from b_m, m >= N_1."""
        if self.sign > 0 and bm > 0:
            return bm.union(bm * self.inv)
        u = (abs(bm) * self.inv).upper()
        return (-u).union(u)

    @ball_precision
    def tail_sup(self, a: int) -> arb:
        r"""A bound on :math:`|\sum_{n \ge k} b_n|` for every :math:`k \ge a`: from
        :math:`k \ge N_1` on, :math:`|b_k| \le |b_{\max(a, N_1)}|` and the remainder is at most
        :math:`|b_k|/(1 - q)`; the tails from a to :math:`N_1 - 1` are taken one by one."""
        a = self.tail_start(a)
        top = abs(self.term(max(a, self.n1))) * self.inv
        for k in range(a, self.n1):
            top = top.union(abs(self.tail(k)))
        return arb(top.upper())

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n."""
        a = self.tail_start(a)
        if a > self.M:
            return self._remainder(self._direct(a))
        return self.suffix[a - self.n0] + self._remainder(self.terms[-1])
