r"""Certified tails of factorial-like terms with a power tail, :math:`b_n = n^{-p} e^{h(1/n)}`
(p > 1), whose term ratio is not a product of powers of polynomials
(``exp(n)*gamma(n)/n**(n+1)`` :math:`\sim \sqrt{2\pi}\, n^{-3/2}`, ratio
:math:`e\,(n/(n+1))^{n+2} \to 1`): Stirling's series made exact by its error bound.

For :math:`n \ge M` every factor of :math:`\log b_n` is rewritten exactly:

* :math:`\log\Gamma(x) = (x - \tfrac12)\log x - x + \tfrac12\log 2\pi
  + \sum_{k=1}^{K_s} \frac{B_{2k}}{2k(2k-1)x^{2k-1}} + R_{K_s}(x)`, x > 0 real, with
  :math:`R_{K_s}(x)` between 0 and the first neglected term (DLMF 5.11.1 and §5.11(ii));
* :math:`\log(\alpha n + \beta) = \log\alpha + \log n + u\,\ell(u)`, :math:`u = \beta/(\alpha n)`,
  :math:`\ell(u) = \log(1+u)/u = \sum_{k<J} (-u)^k/(k+1) + \rho_J(u)`,
  :math:`|\rho_J(u)| \le |u|^J/((J+1)(1-|u|))` for :math:`|u| < 1`;

with exponentials, positive constants and powers of linear polynomials (exponents polynomial
in n) as they are.  Collecting terms (sympy, exactly), :math:`\log b_n = -p\log n + h(t) + r_n`,
:math:`t = 1/n`, where h must be a rational function of t analytic at 0 (the growing parts
:math:`n\log n`, n cancel, as Stirling's formula says they do) and :math:`r_n` lies in a ball
proved for every :math:`n \ge a` (the remainders above).  With the Taylor coefficients
:math:`c_k` of :math:`e^{h}` at 0 and the Lagrange remainder on :math:`[0, 1/a]`,

.. math::
   \sum_{n \ge a} b_n \in e^{[r]} \Big( \sum_{k<K} c_k\, \zeta(p + k, a)
   + \zeta(p + K, a)\, \big[\sup_{[0, 1/a]} |c_K|\big] \Big),

Hurwitz zeta values in ball arithmetic (python-flint), for every :math:`a \ge M`: tails as far
as the TRF search needs, each in one evaluation.  A factor :math:`\log^k n` (k <= 8) is kept
apart: :math:`\zeta(s, a)` becomes :math:`\sum_{n \ge a} n^{-s}\log^k n = (-1)^k
\zeta^{(k)}(s, a)`, and the bound holds as before since :math:`\log^k n \ge 0`.  The terms
before M are summed one by one.

>>> from theory.series.expressions import parse_expression as P
>>> t = StirlingTail(P("exp(n)*gamma(n)/n**(n+1)"), 1)
>>> float(t.p), t.tail(10**6).rad() < 1e-30 * t.tail(10**6).mid()
(1.5, True)
"""

from __future__ import annotations

import math

import sympy as sp
from flint import arb, arb_series

from theory.core.budget import step_budget
from theory.series.arb_eval import (
    NotCertified,
    NotSupported,
    Undecided,
    arb_function,
    ball_precision,
    tail_start,
    taylor,
    term_ball,
)
from theory.series.expressions import N
from theory.series.ratio_tails import EVERYWHERE

STIRLING_TERMS = 8  # K_s: Bernoulli terms of log Gamma kept exactly (remainder ~ x^-17)
LOG_TERMS = 32  # J: terms of log(1 + u)/u kept exactly (|u| <= 1/64: remainder < 2^-192)
TAYLOR_ORDER = 24  # K: Taylor order of e^h in t = 1/n
MAX_LOG_POWER = 8  # log(n)^k factors summed by derivatives of Hurwitz zeta, k <= 8
FIRST_M = 64  # the tail formula is used from M = max(n0, 64, ...) on

_T = sp.Dummy("t")  # t = 1/n
_LN = sp.Dummy("LN")  # log n


def _linear(x: sp.Expr) -> tuple[sp.Rational, sp.Rational]:
    """(alpha, beta) with x = alpha n + beta, alpha > 0 rational, beta rational."""
    try:
        poly = sp.Poly(sp.expand(x), N)
    except sp.PolynomialError:
        raise NotCertified(f"{x} is not a polynomial in n") from None
    if poly.degree() != 1:
        raise NotCertified(f"{x} is not linear in n")
    alpha, beta = poly.coeff_monomial(N), poly.coeff_monomial(1)
    if not (alpha.is_Rational and beta.is_Rational and alpha > 0):
        raise NotCertified(f"{x} is not alpha n + beta with rational alpha > 0, beta")
    return alpha, beta


class _Form:
    """log b_n = -p log n + h(t) + remainders, built factor by factor (module doc)."""

    def __init__(self):
        self.total = sp.Integer(0)
        self.logs: list[tuple[sp.Symbol, sp.Rational]] = []  # (symbol of l(u), beta/alpha)
        self.gammas: list[tuple[sp.Symbol, sp.Rational, sp.Rational]] = []  # (R, alpha, beta)
        self.lines: list[tuple[sp.Rational, sp.Rational]] = []  # every alpha n + beta used
        self.ys: list[tuple[sp.Symbol, sp.Rational, sp.Rational]] = []  # (Y, alpha, beta)

    def log_linear(self, alpha: sp.Rational, beta: sp.Rational) -> sp.Expr:
        """log(alpha n + beta) = log alpha + log n + (beta/alpha)/n * l(beta/(alpha n))."""
        self.lines.append((alpha, beta))
        out = sp.log(alpha) + _LN
        if beta != 0:
            q = sp.Dummy("l")
            self.logs.append((q, beta / alpha))
            out += beta / alpha / N * q
        return out

    def log_gamma(self, alpha: sp.Rational, beta: sp.Rational) -> sp.Expr:
        """Stirling's series of log Gamma(alpha n + beta) with a remainder symbol."""
        x = alpha * N + beta
        out = (x - sp.Rational(1, 2)) * self.log_linear(alpha, beta) - x
        out += sp.log(2 * sp.pi) / 2
        y = sp.Dummy("Y")  # 1/(alpha + beta/n): x^(1-2k) = n^(1-2k) y^(2k-1)
        self.ys.append((y, alpha, beta))
        for k in range(1, STIRLING_TERMS + 1):
            c = sp.bernoulli(2 * k) / (2 * k * (2 * k - 1))
            out += c * N ** (1 - 2 * k) * y ** (2 * k - 1)
        r = sp.Dummy("R")
        self.gammas.append((r, alpha, beta))
        return out + r

    def log_factor(self, f: sp.Expr) -> sp.Expr:
        """log f for one factor of b_n (positive for large n), in the symbols of the form."""
        if not f.has(N):
            if f.is_positive is not True:
                raise NotCertified(f"the constant factor {f} is not proved positive")
            return sp.log(f)
        if isinstance(f, sp.exp):
            if f.args[0].is_extended_real is False:
                raise NotCertified(f"{f} is not real")
            return f.args[0]
        base, e = (f.base, f.exp) if isinstance(f, sp.Pow) else (f, sp.Integer(1))
        if not base.has(N):
            if base.is_positive is not True:
                raise NotCertified(f"the base of {f} is not a positive constant")
            return e * sp.log(base)
        if e.is_extended_real is not True:
            raise NotCertified(f"the exponent of {f} is not proved real")
        if isinstance(base, sp.gamma):
            if e.has(N):
                raise NotCertified(f"the exponent of {f} depends on n")
            return e * self.log_gamma(*_linear(base.args[0]))
        if not base.is_polynomial(N) or not e.is_polynomial(N):
            raise NotCertified(f"the factor {f} is not supported (gamma, exp, powers)")
        coeff, parts = sp.factor_list(base, N)
        out = sp.Integer(0)
        for p, mult in parts:
            alpha, beta = _linear(p) if sp.Poly(p, N).LC() > 0 else _linear(-p)
            if sp.Poly(p, N).LC() < 0:
                coeff *= (-1) ** mult
            out += mult * self.log_linear(alpha, beta)
        if not (coeff.is_Rational and coeff > 0):
            raise NotCertified(f"the polynomial {base} is not positive for large n")
        return e * (sp.log(coeff) + out)


def _analytic(expr: sp.Expr, ys: list) -> sp.Expr:
    """expr (in t and the symbols Y = 1/(alpha + beta t), expanded) with its terms of
    negative power in t proved to cancel, as an expression in the symbol n (for the ball
    evaluator): every other term is t^k (k >= 0) times powers of the Y, alpha > 0, and
    constants, analytic at t = 0.  NotCertified otherwise (b_n is then not
    C n^-p (1 + o(1)) in this form)."""
    neg, keep = [], []
    for term in sp.Add.make_args(sp.expand(expr)):
        k = sp.sympify(term.as_powers_dict().get(_T, 0))
        (neg if k.is_number and k < 0 else keep).append(term)
    if neg and sp.expand(sp.Add(*neg)) != 0:
        raise NotCertified(f"log b_n + p log n grows like {sp.Add(*neg)} (t = 1/n)")
    body = sp.Add(*keep)
    for x in sp.preorder_traversal(body):
        if isinstance(x, sp.Function) and x.has(_T):
            raise NotCertified(f"{x} is not analytic at 1/n = 0 in this form")
        if isinstance(x, sp.Pow) and x.base.has(_T) and x.base != _T:
            raise NotCertified(f"{x} is not analytic at 1/n = 0 in this form")
        if isinstance(x, sp.Pow) and x.base == _T and not (x.exp.is_Integer and x.exp >= 0):
            raise NotCertified(f"{x} is not analytic at 1/n = 0")
    body = body.subs({y: 1 / (alpha + beta * _T) for y, alpha, beta in ys})  # alpha > 0
    return body.subs(_T, N)


class StirlingTail:
    """The certified tail engine (``n0``, ``tail``, ``term``, ``nonneg_until``,
    ``certificate``) of a positive factorial-like term with a power tail (module doc)."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, scale: float | None = None):
        self.b, self.n0 = b, int(n0)
        form = _Form()
        with step_budget(5.0):
            g = b.rewrite(sp.gamma) if b.has(sp.factorial, sp.binomial) else b
            factors, self.k = [], 0  # log(n)^k factors apart: sum n^-s log(n)^k
            for f in sp.Mul.make_args(g):
                base, e = (f.base, f.exp) if isinstance(f, sp.Pow) else (f, sp.Integer(1))
                if base == sp.log(N) and e.is_Integer and 0 < e <= MAX_LOG_POWER:
                    self.k += int(e)
                else:
                    factors.append(f)
            if self.k > MAX_LOG_POWER:
                raise NotCertified(f"log(n)^{self.k}: more than {MAX_LOG_POWER} powers of log(n)")
            total = sp.Add(*[form.log_factor(f) for f in factors])
            total = sp.expand(total)
        minus_p = total.coeff(_LN)
        rest = sp.expand(total - minus_p * _LN)
        if minus_p.free_symbols or rest.has(_LN):
            raise NotCertified("log b_n is not -p log n + o(log n)")
        self.p = -minus_p
        if not (self.p.is_number and self.p.is_real and (self.p - 1).is_positive):
            raise NotCertified(f"the power n^-{self.p} is not summable (p <= 1)")
        with step_budget(5.0):
            rest_t = sp.expand(rest.subs(N, 1 / _T))
        syms = [q for q, _ in form.logs] + [r for r, _, _ in form.gammas]
        coeffs = {s: rest_t.coeff(s) for s in syms}
        h = rest_t.subs({s: 0 for s in syms})
        linear = h + sp.Add(*[coeffs[s] * s for s in syms])
        if any(c.has(*syms) for c in coeffs.values()) or sp.expand(rest_t - linear) != 0:
            raise NotCertified("a remainder enters log b_n non-linearly")
        for q, c in form.logs:  # l(u) = sum_{k<J} (-u)^k/(k+1) + rho_J(u), u = c t
            h += coeffs[q] * sp.Add(*[(-c * _T) ** k / (k + 1) for k in range(LOG_TERMS)])
        try:
            self.h = _analytic(h, form.ys)
            self.exp_h = arb_function(sp.exp(self.h))
            self.log_coeffs = [
                (arb_function(_analytic(coeffs[q], form.ys)), c) for q, c in form.logs
            ]
            self.gamma_coeffs = [
                (arb_function(_analytic(coeffs[r], form.ys)), a, bb) for r, a, bb in form.gammas
            ]
            self.f = arb_function(b)
            self.pa = arb_function(self.p)(arb(0))
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        # M: every alpha n + beta > 0 and |u| = |beta/alpha|/n <= 1/64 for n >= M
        top = max([abs(bb / a) for a, bb in form.lines] + [sp.Integer(0)])
        self.M = max(self.n0, FIRST_M, int(sp.ceiling(64 * top)) + 1)
        try:  # the Taylor coefficients c_k of e^h at t = 0
            self.coeffs = taylor(self.exp_h, arb(0), TAYLOR_ORDER)
        except (Undecided, ArithmeticError, ValueError) as exc:
            raise NotCertified(f"e^h at 1/n = 0: {exc}") from None
        self._head()
        first = self.tail(self.M)
        if not (first.is_finite() and first > 0):
            raise NotCertified("the tail formula gives no finite positive enclosure")
        self.certificate = (
            f"ball arithmetic (python-flint): terms n0 = {self.n0} <= n < {self.M} one by one; "
            f"beyond, b_n = n^-{self.p} e^(h(1/n)) e^r with h(t) = {self.h.subs(N, sp.Symbol('t'))} "
            f"(Stirling's series of log Gamma to B_{2 * STIRLING_TERMS}, remainder between 0 "
            f"and the next term, DLMF 5.11(ii); log(1 + u)/u to u^{LOG_TERMS - 1} with a "
            f"geometric remainder), summed as sum_k c_k zeta({self.p} + k, a) with the Taylor "
            f"coefficients c_k of e^h and a Lagrange remainder of order {TAYLOR_ORDER}"
        )

    def _head(self) -> None:
        """suffix[i] = sum_{n0 + i <= n < M} b_n (ball arithmetic); nonneg_until."""
        terms = [term_ball(self.f, n) for n in range(self.n0, self.M)]
        first = 0
        while first < len(terms) and terms[first] >= 0:
            first += 1
        # from M on, b_n = n^-p e^(...) > 0 (every factor positive there)
        self.nonneg_until = EVERYWHERE if first == len(terms) else self.n0 + first
        suffix = [arb(0)] * (len(terms) + 1)
        for i in range(len(terms) - 1, -1, -1):
            suffix[i] = suffix[i + 1] + terms[i]
        self.suffix = suffix

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return term_ball(self.f, int(n))

    def _remainder(self, a: int) -> arb:
        """The ball of r_n for every n >= a (the truncated series' remainders)."""
        t = arb(0).union(1 / arb(a))
        r = arb(0)
        for coeff, c in self.log_coeffs:
            u = abs(arb(c.p) / c.q) / a  # |u| <= |beta/alpha|/a <= 1/64
            bound = u**LOG_TERMS / ((LOG_TERMS + 1) * (1 - u))
            r += coeff(t) * (-bound).union(bound)
        k = STIRLING_TERMS + 1  # the first neglected term B_2k/(2k(2k-1) x^(2k-1))
        nxt = sp.bernoulli(2 * k) / (2 * k * (2 * k - 1))
        for coeff, alpha, beta in self.gamma_coeffs:
            x = arb(alpha.p) / alpha.q * a + arb(beta.p) / beta.q  # the least x = alpha n + beta
            term = arb(nxt.p) / nxt.q / x ** (2 * k - 1)
            r += coeff(t) * arb(0).union(term)
        return r

    def _zeta(self, s: arb, a: arb) -> arb:
        """sum_(n >= a) n^-s log(n)^k = (-1)^k zeta^(k)(s, a) (Hurwitz zeta, derivative in s)."""
        if self.k == 0:
            return s.zeta(a)
        coeff = arb_series([s, 1], prec=self.k + 1).zeta(a).coeffs()[self.k]  # zeta^(k)/k!
        return (-1) ** self.k * math.factorial(self.k) * coeff

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        if a < self.M:
            return self.suffix[a - self.n0] + self.tail(self.M)
        A = arb(a)
        try:
            c = self.coeffs
            top = taylor(self.exp_h, arb(0).union(1 / A), TAYLOR_ORDER + 1)[TAYLOR_ORDER]
            s = sum(
                (c[k] * self._zeta(self.pa + k, A) for k in range(TAYLOR_ORDER)),
                top * self._zeta(self.pa + TAYLOR_ORDER, A),
            )
            return s * self._remainder(a).exp()
        except (Undecided, ArithmeticError, ValueError) as exc:
            raise NotCertified(f"the tail from {a}: {exc}") from None
