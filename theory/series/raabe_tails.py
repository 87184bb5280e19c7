r"""Certified tails of terms whose ratio tends to 1 with Raabe exponent :math:`h > 1`
(``binomial(2*n, n)/(4**n*n)``, ``gamma(n + 1/2)/(gamma(n + 1)*n)``, 2F1 terms at z = 1).

The term ratio :math:`r(n) = b_{n+1}/b_n` is a product of powers of polynomials (``gammasimp``);
in :math:`t = 1/n` it is :math:`R(t) = 1 - h t + O(t^2)`, analytic at :math:`t = 0`.  A
telescoper :math:`\phi(n) = n \sum_{k \le K} c_k n^{-k}` is solved from the power series of
:math:`R` so that

.. math::
   \phi(n) b_n - \phi(n+1) b_{n+1} = b_n (1 + \varepsilon_n), \qquad
   \varepsilon_n = \phi(n) - r(n)\phi(n+1) - 1 = O(n^{-K-1}),

with :math:`c_0 = 1/(h-1)`.  With :math:`E(t) = t\,\varepsilon` a Taylor model at :math:`t = 0`
(Lagrange remainder on :math:`[0, 1/M]`, ball arithmetic) bounds
:math:`|\varepsilon_n| \le \eta < 1` for every :math:`n \ge M`.  When :math:`\phi > 0` and
:math:`r > 0` there (proved on the same ball), :math:`|\phi(n) b_n|` decreases to 0 (a positive
limit would make :math:`\sum |b_n|` diverge against :math:`\sum |b_n|(1 - \eta) \le |\phi(M) b_M|`),
and summing the identity from :math:`M` gives

.. math::
   \sum_{n \ge M} b_n = \frac{\phi(M)\, b_M}{1 + \bar\varepsilon}, \qquad |\bar\varepsilon| \le \eta .

The terms before :math:`M` are summed in ball arithmetic (python-flint) by the recurrence
:math:`b_{n+1} = r(n) b_n`.  This is the Raabe/Gauss test made quantitative (RPE paper, Eq. 22
needs the tails :math:`\sum_{n \ge M} b_n` themselves).

>>> from theory.series.expressions import parse_expression as P
>>> t = RaabeTail(P("binomial(2*n, n)/(4**n*n)"), 1)
>>> t.tail(1).overlaps(2 * arb(2).log()), t.tail(1).rad() < 1e-30    # sum = 2 log 2
(True, True)
"""

from __future__ import annotations

import sympy as sp
from flint import arb, arb_series, ctx

from theory.series.arb_eval import (
    PREC,
    NotCertified,
    NotSupported,
    Undecided,
    arb_function,
    ball_precision,
    taylor,
)
from theory.series.comparison_tests import term_ratio
from theory.series.expressions import N
from theory.series.ratio_tails import EVERYWHERE, HeadTerms, ratio_in_t

ORDER = 24  # K: the telescoper has the terms n^(1-k), k = 0..K
START_CANDIDATES = (64, 256, 1024, 4096, 16384, 65536)  # the first M tried (and beyond n0)
ETA_TARGET = arb(2) ** -100  # |eps_n| <= eta wanted for n >= M
# r(n) > 0 is looked for on [2^j, oo) up to this j (the terms below are evaluated one by one)
MAX_RECURRENCE_START_LOG2 = 16


def gamma_form(ratio: sp.Expr) -> tuple[sp.Expr, list] | None:
    r"""(kappa, [(a_i, e_i)]) with :math:`r(n) = \kappa \prod_i (n + a_i)^{e_i}` (each
    polynomial factor split into linear factors with real roots), or None.  Then
    :math:`b_n = b_{n_0} \kappa^{n - n_0} \prod_i (\Gamma(n + a_i)/\Gamma(n_0 + a_i))^{e_i}`
    wherever every :math:`n + a_i > 0`.

    >>> gamma_form(N*(2*N + 1)/(2*(N + 1)**2))
    (1, [(0, 1), (1/2, 1), (1, -2)])
    """
    kappa, shifts = sp.Integer(1), {}
    for f in sp.Mul.make_args(ratio):
        if not f.has(N):
            kappa *= f
            continue
        base, e = (f.base, f.exp) if f.is_Pow else (f, sp.Integer(1))
        if e.has(N) or not e.is_Rational or not base.is_polynomial(N):
            return None
        coeff, parts = sp.factor_list(base, N)
        kappa *= coeff**e
        for p, mult in parts:
            c1, c0 = (sp.Poly(p, N).all_coeffs() + [0])[:2] if sp.degree(p, N) == 1 else (0, 0)
            if c1 == 0 or not (c0 / c1).is_real:
                return None
            kappa *= c1 ** (e * mult)
            shifts[c0 / c1] = shifts.get(c0 / c1, 0) + e * mult
    return kappa, sorted((a, e) for a, e in shifts.items() if e != 0)


def power_law(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    r"""(h, C) with :math:`b_n \sim C n^{-h}` for a term whose ratio is
    :math:`\prod_i (n + a_i)^{e_i}` with :math:`\sum_i e_i = 0`, from
    :math:`\Gamma(n + a)/\Gamma(n) \sim n^a`: :math:`h = -\sum_i e_i a_i`,
    :math:`C = b_{n_0} \prod_i \Gamma(n_0 + a_i)^{-e_i}`; None otherwise.

    >>> from theory.series.expressions import parse_expression as P
    >>> power_law(P("binomial(2*n, n)/(4**n*n)"))           # binomial(2n, n)/4^n ~ 1/sqrt(pi n)
    (3/2, 1/sqrt(pi))
    """
    ratio = term_ratio(b)
    form = None if ratio is None else gamma_form(ratio)
    if form is None or form[0] != 1 or sum(e for _, e in form[1]) != 0:
        return None
    h = -sum(a * e for a, e in form[1])
    n0 = max(1, max(int(sp.floor(-a)) + 1 for a, _ in form[1]))
    C = b.subs(N, n0) * sp.Mul(*[sp.gamma(n0 + a) ** (-e) for a, e in form[1]])
    C = sp.gammasimp(C)
    return (h, C) if C.is_positive and h.is_positive else None


def gauss_tail(ratio: sp.Expr, n0: int, start: int, top: int) -> tuple[int, arb] | None:
    r"""(m0, G) with :math:`\sum_{n \ge m_0} b_n = b_{m_0} G` by Gauss's theorem when
    :math:`r(n) = (n + a_1)(n + a_2)/((n + c_1)(n + 1 - m_0))` and the recurrence holds from
    :math:`m_0` (``max(n0, start) <= m0 <= top``): then
    :math:`b_{m_0+k} = b_{m_0} (a)_k (b)_k/((c)_k k!)` with :math:`a = m_0 + a_1`,
    :math:`b = m_0 + a_2`, :math:`c = m_0 + c_1`, and
    :math:`G = {}_2F_1(a, b; c; 1) = \Gamma(c)\Gamma(c-a-b)/(\Gamma(c-a)\Gamma(c-b))`
    (:math:`c - a - b = h - 1 > 0`).  None for other ratios.

    >>> m0, G = gauss_tail((N + sp.Rational(1, 2))**2/((N + 2)*(N + 1)), 0, 0, 64)
    >>> m0, G.overlaps(4 / arb.pi())      # 2F1(1/2, 1/2; 2; 1) = Gamma(2) Gamma(1)/Gamma(3/2)^2
    (0, True)
    """
    form = gamma_form(ratio)
    if form is None or form[0] != 1 or any(not e.is_Integer for _, e in form[1]):
        return None
    ups = [a for a, e in form[1] for _ in range(int(e))]
    downs = [a for a, e in form[1] for _ in range(int(-e))]
    if len(ups) != 2 or len(downs) != 2:
        return None
    for i, beta in enumerate(downs):
        m0 = 1 - beta
        if not (m0.is_Integer and max(n0, start) <= m0 <= top):
            continue
        a, b, c = (arb_function(m0 + x)(arb(0)) for x in (ups[0], ups[1], downs[1 - i]))
        if not (c - a - b) > 0:
            return None
        G = c.gamma() * (c - a - b).gamma() * (c - a).rgamma() * (c - b).rgamma()
        return (int(m0), G) if G.is_finite() else None
    return None


def _solve_telescoper(rs: list, order: int) -> list:
    """c_0..c_order (exact binary midpoints) with psi(t) - R(t) (1 + t) psi(t/(1+t)) - t =
    O(t^(order + 2)) for psi = sum c_k t^k, from the coefficients ``rs`` of R at 0."""
    cap, old = order + 2, ctx.cap
    ctx.cap = max(old, cap)  # python-flint truncates series products to ctx.cap terms
    try:
        s = arb_series([0, 1], prec=cap)
        R = arb_series(rs[:cap], prec=cap)
        u = []  # u_k = t^k - R (1 + t)^(1 - k) t^k = (h + k - 1) t^(k+1) + ...
        for k in range(order + 1):
            shift = (1 + s) ** (1 - k) if k <= 1 else 1 / (1 + s) ** (k - 1)
            uk = (s**k) * (1 - R * shift) if k else 1 - R * shift
            u.append(uk.coeffs() + [arb(0)] * cap)
    finally:
        ctx.cap = old
    c = []
    for j in range(order + 1):
        acc = arb(1 if j == 0 else 0) - sum((c[k] * u[k][j + 1] for k in range(j)), arb(0))
        diag = u[j][j + 1]
        if not abs(diag) > 0:
            raise NotCertified(f"the telescoper equation of order {j} is singular")
        c.append(arb((acc / diag).mid()))
    return c


class RaabeTail(HeadTerms):
    """The certified-tail interface (``n0``, ``tail``, ``term``, ``nonneg_until``,
    ``certificate``) for terms whose ratio tends to 1 with Raabe exponent h > 1."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, scale: float | None = None):
        self.b, self.n0 = b, int(n0)
        ratio = term_ratio(b)
        if ratio is None:
            raise NotCertified("the term ratio does not simplify to a gamma-free expression")
        try:
            self.f, self.r = arb_function(b), arb_function(ratio)
            Rt = ratio_in_t(ratio)
            self.R, self.R0 = arb_function(Rt), Rt.subs(N, 0)
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self._check_t_form()
        self._telescoper()
        self.start = self._recurrence_start()
        self.M = self._choose_m()
        self._sum_head()
        self.certificate = (
            f"term ratio b_(n+1)/b_n = {ratio} -> 1 with Raabe exponent h in "
            f"{self.h.str(6, radius=False)} > 1: sum_(n >= M) b_n = phi(M) b_M/(1 + e), "
            f"|e| <= {self.eta.upper().str(3, radius=False)}, for the telescoper phi(n) = "
            f"n sum_(k <= {ORDER}) c_k n^-k (Taylor model in 1/n, Lagrange remainder, on "
            f"n >= M = {self.M}); {len(self.terms)} terms summed in ball arithmetic "
            "(python-flint)"
        )
        self._gauss_check(ratio)

    def _gauss_check(self, ratio: sp.Expr) -> None:
        """A 2F1 term at z = 1 (r(n) = (n + a1)(n + a2)/((n + c1)(n + 1 - m0))): the tail
        from m0 is b_m0 2F1(m0 + a1, m0 + a2; m0 + c1; 1), Gauss's closed form in ball
        arithmetic; it must overlap the telescoper's enclosure, and the two are intersected."""
        gauss = gauss_tail(ratio, self.n0, self.n0, self.M)
        if gauss is None:
            return
        m0, factor = gauss
        for n in range(m0, self.start):  # the recurrence below the start, term by term
            t, r = self.terms[n - self.n0], self.r(arb(n))
            if not (r.is_finite() and self.terms[n + 1 - self.n0].overlaps(r * t)):
                return
        closed = self.terms[m0 - self.n0] * factor - self.suffix[m0 - self.n0]
        if not closed.overlaps(self.far):
            raise NotCertified("Gauss's closed form and the telescoper disagree")
        self.far = self.far.intersection(closed)
        self.certificate += (
            f"; the tail from n = {m0} also by Gauss's 2F1(a, b; c; 1) = "
            "Gamma(c) Gamma(c-a-b)/(Gamma(c-a) Gamma(c-b)) (intersected)"
        )

    def _check_t_form(self) -> None:
        """R(1/n) = r(n) at three large n (a guard on the factorisation)."""
        for n in (1009, 10**6 + 3, 2**40 + 1):
            try:
                a, b = self.r(arb(n)), self.R(1 / arb(n))
            except (Undecided, ArithmeticError, ValueError) as exc:
                raise NotCertified(f"the term ratio at n = {n}: {exc}") from None
            if not (a.is_finite() and a.overlaps(b)):
                raise NotCertified(f"the term ratio in 1/n disagrees with r({n})")

    def _telescoper(self) -> None:
        try:
            rs = taylor(self.R, arb(0), ORDER + 3)
        except (Undecided, ArithmeticError, ValueError) as exc:
            raise NotCertified(f"the term ratio is not analytic in 1/n at 0 ({exc})") from None
        if not (rs[0] - 1).contains(0) or not rs[0].is_finite():
            raise NotCertified(f"the term ratio tends to {rs[0].str(5)}, not 1")
        if sp.simplify(self.R0 - 1) != 0:  # R(0) = 1 exactly: E(0) = c_0 (1 - R(0)) is 0
            raise NotCertified(f"the term ratio tends to {self.R0}, not exactly 1")
        self.h = -rs[1]
        if not self.h > 1:
            raise NotCertified(f"the Raabe exponent {self.h.str(5)} is not proved > 1")
        self.c = _solve_telescoper(rs, ORDER)

    def psi(self, x: arb | arb_series) -> arb | arb_series:
        """sum_k c_k x^k (Horner), for an arb or an arb_series x."""
        out = self.c[-1] + 0 * x
        for ck in reversed(self.c[:-1]):
            out = out * x + ck
        return out

    def _defect(self, x):
        """E(t) = t eps(1/t) = psi(t) - R(t) (1 + t) psi(t/(1+t)) - t."""
        return self.psi(x) - self.R(x) * (1 + x) * self.psi(x / (1 + x)) - x

    def _eta_bound(self, m: int) -> arb | None:
        """An upper bound of |eps_n| for every n >= m (None if the model fails there)."""
        K = ORDER + 2  # E = sum_{j < K} e_j t^j + E_K(xi) t^K
        try:
            e = taylor(self._defect, arb(0), K)
            rem = taylor(self._defect, arb(0).union(1 / arb(m)), K + 1)[K]
        except (Undecided, ArithmeticError, ValueError):
            return None
        if not (e[0].contains(0) and rem.is_finite()):
            return None
        t = 1 / arb(m)
        bound = abs(rem).upper() * t ** (K - 1)
        for j in range(1, K):
            bound += abs(e[j]).upper() * t ** (j - 1)
        return bound.upper()

    def _positive_from(self, m: int, fn) -> bool:
        """fn(t) > 0 for t in [0, 1/m] (the interval in up to 64 pieces)."""
        for parts in (1, 8, 64):
            try:
                pieces = [
                    (arb(i) / (parts * m)).union(arb(i + 1) / (parts * m)) for i in range(parts)
                ]
                if all(fn(p) > 0 for p in pieces):
                    return True
            except (Undecided, ArithmeticError, ValueError):
                continue
        return False

    def _recurrence_start(self) -> int:
        """The first n_s >= n0 (n0, then powers of 2) with r > 0 on [n_s, oo)."""
        m = max(self.n0, 1)
        while m.bit_length() <= MAX_RECURRENCE_START_LOG2:
            if self._positive_from(m, self.R):
                return m
            m = max(2 * m, 2 ** m.bit_length())
        raise NotCertified(
            f"r(n) > 0 is not proved on any [2^j, oo) with j <= {MAX_RECURRENCE_START_LOG2}"
        )

    def _choose_m(self) -> int:
        for cand in START_CANDIDATES:
            m = max(cand, self.start)
            eta = self._eta_bound(m)
            if eta is not None and eta <= ETA_TARGET and self._positive_from(m, self.psi):
                self.eta = eta
                return m
        raise NotCertified("the telescoper does not bound the tail within 65536 terms")

    def _direct(self, n: int) -> arb:
        """b_n evaluated directly; at large n with 2 log2(n) extra bits (n + 1/2 needs the
        bits of n, and Gamma(n + 1/2) a relative accuracy below 1/(n log n))."""
        old = ctx.prec
        ctx.prec = max(old, PREC + 2 * int(n).bit_length())
        try:
            v = self.f(arb(n))
        except (Undecided, ArithmeticError, ValueError) as exc:
            raise NotCertified(f"b_{n}: {exc}") from None
        finally:
            ctx.prec = old
        if not v.is_finite():
            raise NotCertified(f"b_{n} is not finite in ball arithmetic")
        return v

    def _sum_head(self) -> None:
        """terms[i] = b_(n0+i) for n0 <= n <= M (direct up to the recurrence start, then
        b_(n+1) = r(n) b_n); suffix[i] = sum of terms[i:-1]."""
        terms = [self._direct(n) for n in range(self.n0, self.start + 1)]
        for m in range(self.start, self.M):
            terms.append(self.r(arb(m)) * terms[-1])
        for n in list(range(self.start + 1, min(self.start + 6, self.M + 1))) + [self.M]:
            if not terms[n - self.n0].overlaps(self._direct(n)):
                raise NotCertified(f"b_{n} != r({n - 1}) b_{n - 1} in ball arithmetic")
        self.terms = terms
        suffix = [arb(0)]
        for t in reversed(terms[:-1]):
            suffix.append(suffix[-1] + t)
        self.suffix = suffix[::-1]
        first = 0
        while first < len(terms) and terms[first] > 0:
            first += 1
        self.nonneg_until = EVERYWHERE if first == len(terms) else self.n0 + first
        self.far = self._remainder(self.M, terms[-1])

    def _remainder(self, m: int, bm: arb) -> arb:
        """Enclosure of sum_{n >= m} b_n from b_m, m >= M."""
        eta = (-self.eta).union(self.eta)
        return self.psi(1 / arb(m)) * m * bm / (1 + eta)

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n."""
        a = self.tail_start(a)
        if a >= self.M:
            return self.far if a == self.M else self._remainder(a, self._direct(a))
        return self.suffix[a - self.n0] + self.far
