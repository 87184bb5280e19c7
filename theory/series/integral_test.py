r"""The integral test as a certified tail, for slowly converging positive series.

For :math:`f > 0` decreasing on :math:`[X, \infty)` with an antiderivative :math:`F`
(sympy's rule-based ``manualintegrate``, also through :math:`x = e^u` where that makes the
integrand rational: :math:`\arctan \log x` for :math:`1/(x(\log^2 x + 1))`;
:math:`F' = f` checked by sympy, :math:`F(\infty)` a finite limit), every :math:`a \ge X` has

.. math::
   I(a) \le R(a) = \sum_{n \ge a} f(n) \le f(a) + I(a), \qquad
   I(a) = \int_a^\infty f = F(\infty) - F(a)

(Cauchy's integral test; e.g. Knopp, *Theory and Application of Infinite Series*, Sec. 19).
Both ends are evaluated in ball arithmetic, also at astronomically large :math:`a`
(:math:`a = e^t` with :math:`t` itself large), so the tail of
:math:`1/(n \log n (\log\log n)^2)`, about :math:`1/\log\log n`, is bracketed where no
comparison series bounds it.  ``f`` decreasing is proved from its structure
(:func:`decreasing_on`): positive constants, :math:`h^{-s}`, :math:`e^{-h}` and products of
such with :math:`h` increasing (:math:`n`, :math:`\log h`, :math:`h^s`, sums, products of
positive increasing terms), the positivity of :math:`h` checked at :math:`X` in balls.
When ``f`` is also convex (completely monotone, :mod:`theory.series.monotone`), the
trapezoid and midpoint inequalities narrow the bracket from :math:`f(a)` to
:math:`O(f'(a))`:

.. math::
   I(a) + f(a)/2 \le R(a) \le I(a - 1/2).

Without an antiderivative (or one that ball arithmetic cannot evaluate), :math:`I(a)` is
enclosed by rigorous quadrature in :math:`u = \log x` with a far bound from the proved
log-concavity of :math:`f(e^u) e^u` (:mod:`theory.series.quadrature_tail`).  Without
convexity, the tails from :math:`M` on are narrowed by Euler-Maclaurin (DLMF 2.10.1, order
4): :math:`R(a) = I(a) + f(a)/2 - f'(a)/12 + e`,
:math:`|e| \le \tfrac{1}{360}\int_a^Q |f^{(4)}| + \tfrac32 f(Q) + |f'(Q)|/12`, with
:math:`|f^{(4)}|` enclosed as one ball on each :math:`[2^k M, 2^{k+1} M]` and
:math:`R(Q+1) \in [I(Q) - f(Q), I(Q) + f(Q)]`; each tail is the intersection of the two
enclosures.

>>> from theory.series.expressions import parse_expression as P
>>> t = IntegralTail(P("1/(n*log(n)**2)"), 2)
>>> lo, hi = t.bounds(arb(10) ** 6)           # R(10^6) = I + f/2 + O(f'), I = 1/log(10^6)
>>> L = 6 * arb(10).log()
>>> bool(lo.lower() < 1 / L + 1 / (2 * 10**6 * L**2) < hi.upper())
True
"""

from __future__ import annotations

import sympy as sp
from flint import arb
from sympy.integrals.manualintegrate import manualintegrate

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import (
    NotCertified,
    NotSupported,
    Undecided,
    arb_function,
    ball,
    ball_precision,
    taylor,
    term_ball,
)
from theory.series.eventual_signs import derivative_sign
from theory.series.expressions import N
from theory.series.limits import limit_at_infinity
from theory.series.monotone import completely_monotone, positive_at
from theory.series.quadrature_tail import QuadratureTail, log_positive, log_shift

#: CPU seconds for sympy's antiderivative, its check and its limit at infinity
SYMBOLIC_BUDGET = 3.0
#: CPU seconds for sympy's search where logs and x stay mixed after x = e^u (found at once
#: where it is found at all: log(n)/n**2 in 0.1 s)
MIXED_LOG_SECONDS = 0.5
#: CPU seconds for the first tail by quadrature (the walks of later ones are kept)
QUADRATURE_SECONDS = 3.0
#: terms summed in balls before the integral bounds take over (the enclosure of B is then
#: f(M) wide: 1e-6 of B for 1/(n log n (log log n)^2))
DIRECT_TERMS = 20000
#: log x beyond which the bounds are evaluated in t = log x, without forming x = e^t
LOG_SPACE = 1e4
#: doublings [a, 2a] past M bounded for the Euler-Maclaurin remainder of the tail at M
EM_BLOCKS = 300
#: the remainder beyond Q = 2^k M stops there at this size relative to I(M)
EM_REL = 2.0**-80
_X = sp.Symbol("x", positive=True)


def increasing_on(h: sp.Expr, x0: int) -> bool:
    """h nondecreasing on [x0, oo), proved from its structure (module docstring)."""
    if not h.has(N):
        return h.is_real is True
    if h == N:
        return True
    if isinstance(h, sp.Add):
        return all(increasing_on(a, x0) for a in h.args)
    if isinstance(h, sp.Mul):
        c, rest = h.as_independent(N, as_Add=False)
        if c != 1:
            return c.is_positive is True and increasing_on(rest, x0)
        return all(increasing_positive(a, x0) for a in h.args)
    if isinstance(h, sp.Pow) and not h.exp.has(N):
        return h.exp.is_positive is True and increasing_positive(h.base, x0)
    if isinstance(h, sp.log):
        return increasing_positive(h.args[0], x0)
    if isinstance(h, sp.exp):
        return increasing_on(h.args[0], x0)
    return False


def increasing_positive(h: sp.Expr, x0: int) -> bool:
    """h > 0 and nondecreasing on [x0, oo)."""
    return increasing_on(h, x0) and positive_at(h, x0)


def powers_as_exponentials(f: sp.Expr, x0: int) -> sp.Expr:
    """f with every power h^e whose exponent depends on n, and whose base is a positive
    constant or proved positive and increasing from x0 on, written exp(e log h) expanded:
    the same values there, in the form the structural rules and the quadrature read.

    >>> from theory.series.expressions import parse_expression as P
    >>> powers_as_exponentials(P("n**(-1 - 1/sqrt(log(n)))"), 2)
    exp(-sqrt(log(n)))/n
    """

    def positive_power(e) -> bool:
        return (
            isinstance(e, sp.Pow)
            and e.exp.has(N)
            and (
                e.base.is_positive is True if not e.base.has(N) else increasing_positive(e.base, x0)
            )
        )

    try:
        with step_budget(1.0):
            return f.replace(positive_power, lambda e: sp.exp(sp.expand(e.exp * sp.log(e.base))))
    except (StepTimeout, ValueError, TypeError):
        return f


def decreasing_on(f: sp.Expr, x0: int, deep: bool = True) -> bool:
    """f > 0 and nonincreasing on [x0, oo), proved from its structure; False: not proved.
    ``deep=False``: without the log-derivative rule (whose terms may be as large as f)."""
    if not f.has(N):
        return f.is_positive is True
    if isinstance(f, sp.Mul):
        if all(decreasing_on(a, x0, deep) for a in f.args):
            return True
        return deep and _log_derivative_negative(f, x0)
    if isinstance(f, sp.Pow) and not f.exp.has(N):
        return f.exp.is_negative is True and increasing_positive(f.base, x0)
    if isinstance(f, sp.exp):
        return increasing_on(-f.args[0], x0)
    return False


def _log_derivative_negative(f: sp.Expr, x0: int) -> bool:
    r"""A product f of positive factors, each decreasing or increasing (so f > 0), with
    :math:`D = n (\log f)' < 0` on :math:`[x_0, \infty)`: D expanded is a sum of
    :math:`c_i g_i` with every :math:`g_i` positive and decreasing (or constant), so
    :math:`D(n) \le \sum_{c_i > 0} c_i g_i(x_0) + \sum_{c_i < 0,\ g_i\ \mathrm{const}}
    c_i g_i`, evaluated in balls (``log(log(n))/(n*log(n)**2)`` from 16:
    :math:`D = 1/(\log n \log\log n) - 1 - 2/\log n \le 0.36 - 1`).

    A factor :math:`e^{z}` with z built from n, constants, +, *, powers and logs is positive
    too when :math:`z(x_0)` is real: the summands of :math:`n z'` are among the :math:`c_i
    g_i`, proved finite and real on the whole range, so z stays real
    (``exp(-log(n)/log(log(n)))/n`` from 16)."""
    if not all(
        decreasing_on(a, x0) or increasing_positive(a, x0) or _real_exponential(a, x0)
        for a in f.args
    ):
        return False
    try:
        with step_budget(2.0):
            D = sp.expand(N * sp.diff(sp.expand_log(sp.log(f), force=True), N))
            if _summands_negative(D, x0):
                return True
            return derivative_sign(sp.factor(sp.together(D)), x0) == -1
    except (StepTimeout, NotSupported, Undecided, ArithmeticError, ValueError, TypeError):
        return False


def _summands_negative(D: sp.Expr, x0: int) -> bool:
    """D < 0 on [x0, oo) from its summands c g (:func:`_log_derivative_negative`); a g that
    is not decreasing is bounded by its factors (:func:`_factor_range`)."""
    bound = arb(0)
    for t in sp.Add.make_args(D):
        c, g = t.as_coeff_Mul()
        if not (c.is_Rational and c != 0):
            return False
        if not g.has(N):
            if g.is_positive is not True:
                return False
            bound += arb_function(c * g)(arb(0))
        elif decreasing_on(g, x0, deep=False):  # one level: no endless recursion
            if c > 0:
                bound += arb_function(c * g)(arb(x0))  # g decreasing: g(n) <= g(x0)
            # c < 0 and g > 0: the summand is < 0, bounded above by 0
        else:  # factored: n log(n)/(2 n sqrt(L + 1) L + 2 n sqrt(L + 1)) -> L/(2 (L + 1)^(3/2))
            c, g = sp.factor(t).as_coeff_Mul()
            lo, hi = _factor_range(g, x0) or (None, None)
            if not (c.is_Rational and lo is not None and lo >= 0):
                return False
            bound += arb(int(c.p)) / int(c.q) * (hi if c > 0 else lo)  # c exactly
    return bool(bound < 0)


def _factor_range(g: sp.Expr, x0: int) -> tuple[arb, arb] | None:
    r"""(lo, hi) with :math:`0 \le` lo <= g(n) <= hi on [x0, oo), for g = R(n) prod h_i with
    R rational in n and monotone there (the sign of R' factored, proved), so between R(x0)
    and its limit, and every h_i positive and decreasing (between 0 and h_i(x0)):
    ``n/((n + 1) log(n + 1))`` lies in [0, 1/log(x0 + 1)]; else None."""
    rational = [a for a in sp.Mul.make_args(g) if a.is_rational_function(N)]
    factors = [a for a in sp.Mul.make_args(g) if a not in rational]
    lo, hi = arb(0 if factors else 1), arb(1)  # each other factor lies in (0, its bound]
    for u, v, a, b in _dominated_pairs(factors, x0):
        factors = [h for h in factors if h not in (u**a, v ** (-b))]
        hi *= arb_function(v ** (a - b))(arb(x0))  # (u/v)^a <= 1, v^(a-b) decreasing
    for h in factors:
        if not decreasing_on(h, x0, deep=False):
            return None
        hi *= arb_function(h)(arb(x0))
    R = sp.Mul(*rational)
    if R.has(N):
        if derivative_sign(sp.factor(sp.together(sp.diff(R, N))), x0) not in (1, -1):
            return None
        lim = limit_at_infinity(R)
        if lim is None or not (lim.is_real and lim.is_finite):
            return None
        ends = arb_function(R)(arb(x0)).union(arb_function(lim)(arb(0)))
        if not ends.lower() >= 0:
            return None
        lo, hi = lo * arb(ends.lower()), hi * arb(ends.upper())
    else:
        c = arb_function(R)(arb(0))
        if not c > 0:
            return None
        lo, hi = lo * c, hi * c
    return lo, hi


def _dominated_pairs(factors: list, x0: int) -> list[tuple]:
    r"""Pairs (u, v, a, b) of factors :math:`u^a` and :math:`v^{-b}` with
    :math:`0 < a \le b`, u and v positive and increasing from x0 and :math:`v \ge u` there
    (v - u a nonnegative constant, or :math:`\log r` with r - 1 >= 0 proved), so that
    :math:`u^a v^{-b} \le v^{a - b} \le v(x_0)^{a-b}`: ``log(n)/log(n + 1)**(3/2)``,
    ``log(n)/(log(n) + 1)**(3/2)``."""
    ups = [(h.base, h.exp) if h.is_Pow else (h, sp.Integer(1)) for h in factors]
    out, used = [], set()
    for u, a in ups:
        for v, mb in ups:
            b = -mb
            if (u, a) in used or (v, mb) in used or u == v:
                continue
            if not (a.is_positive and b.is_positive and (b - a).is_nonnegative):
                continue
            if not (increasing_positive(u, x0) and increasing_positive(v, x0)):
                continue
            if _at_least(v, u, x0):
                out.append((u, v, a, b))
                used |= {(u, a), (v, mb)}
    return out


def _at_least(v: sp.Expr, u: sp.Expr, x0: int) -> bool:
    """v >= u on [x0, oo): v - u a nonnegative constant, or log(r) with r >= 1 proved."""
    d = sp.logcombine(sp.expand(v - u), force=True)
    if not d.has(N):
        return d.is_nonnegative is True
    if isinstance(d, sp.log) and d.args[0].is_rational_function(N):
        r1 = sp.factor(sp.together(d.args[0] - 1))
        return r1 == 0 or derivative_sign(r1, x0) == 1
    return False


def _real_exponential(a: sp.Expr, x0: int) -> bool:
    """a = e^z, z of n, constants, +, *, powers and logs only, with z(x0) real in balls
    (positive on the range where the summands of n z' are proved finite and real)."""
    if not isinstance(a, sp.exp):
        return False
    z = a.args[0]
    allowed = (sp.Add, sp.Mul, sp.Pow, sp.log, sp.Symbol, sp.Number, sp.NumberSymbol)
    if not all(isinstance(e, allowed) for e in sp.preorder_traversal(z)):
        return False
    try:
        v = arb_function(z)(arb(x0))
    except (NotSupported, Undecided, ArithmeticError, ValueError, TypeError):
        return False
    return v.is_finite()


def verified_antiderivative(f: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(F, F(oo)) with F' = f checked symbolically and F(oo) a finite real limit;
    :class:`NotCertified` otherwise (no antiderivative, a check that fails or runs out)."""
    g = f.subs(N, _X)
    try:
        with step_budget(SYMBOLIC_BUDGET):
            F = _antiderivative(g)
            if F is None:
                raise NotCertified("sympy finds no antiderivative")
            if sp.simplify(sp.diff(F, _X) - g) != 0:
                raise NotCertified(f"d/dn of {F} is not proved equal to the term")
            F_inf = sp.limit(F, _X, sp.oo)
    except StepTimeout:
        raise NotCertified("no antiderivative within its time") from None
    except (ValueError, TypeError, NotImplementedError, RecursionError) as exc:
        raise NotCertified(f"no antiderivative ({type(exc).__name__})") from None
    if not (F_inf.is_real and F_inf.is_finite) or F_inf.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        raise NotCertified(f"int f diverges (F(oo) = {F_inf})")
    return F.subs(_X, N), F_inf


def _antiderivative(g: sp.Expr, x: sp.Symbol = _X, depth: int = 2) -> sp.Expr | None:
    """An antiderivative of g in x by sympy's rule-based ``manualintegrate`` (no unbounded
    heuristics), else through x = e^u (u real, log(e^u) = u) where that gives a rational
    function of u, up to ``depth`` times (1/(x log(x) (log(log(x))^2 + 1)) is 1/(v^2 + 1)
    in v = log log x), else None.
    Where x enters g only as log(x) and the factor 1/x, the substitution comes first: the
    integrand in u is the simpler one (log(log x)/(x log(x)^2) is log(u)/u^2, integrated
    several times faster).
    Unchecked: the caller differentiates it."""
    u = sp.Dummy("u", real=True)
    h = g.subs(x, sp.exp(u)) * sp.exp(u) if depth > 0 and g.has(sp.log) else None
    if h is not None and h.has(sp.exp):  # (2 u + 3) e^u/(e^u u^3 + e^u): e^u cancels
        h = sp.cancel(sp.together(h))
    if h is not None and not h.has(sp.exp):
        G = _antiderivative(h, u, depth - 1)
        if G is not None:
            return G.subs(u, sp.log(x))
    try:  # logs that x = e^u leaves mixed with x: sympy's search rarely ends well there
        with step_budget(MIXED_LOG_SECONDS if h is not None and h.has(sp.exp) else SYMBOLIC_BUDGET):
            F = manualintegrate(g, x)
    except StepTimeout:
        return None
    if not F.has(sp.Integral):
        return F
    if h is None or not h.has(sp.exp):
        return None  # (no log, or the substitution was tried above)
    if not (h.is_rational_function(u) or (depth > 1 and h.has(sp.log))):
        return None  # e^(u - u^1.01): no simpler in u (manualintegrate would only spend time)
    G = _antiderivative(h, u, depth - 1)
    return None if G is None else G.subs(u, sp.log(x))


class IntegralTail:
    """Certified tails R(a) of a positive decreasing term by the integral test (module
    docstring): ``tail(a)`` (an integer a >= n0) and ``bounds(x)`` (a real x >= X, the
    enclosure of R(ceil(x)), for x as large as ball arithmetic represents)."""

    def __init__(self, b: sp.Expr, n0: int, direct: int = DIRECT_TERMS):
        self.n0 = int(n0)
        if self.n0 >= 1:  # the rewrite holds where the bases are proved positive
            b = powers_as_exponentials(b, self.n0)
        self.b = b
        X = next((x for x in _candidates(self.n0) if decreasing_on(b, x)), None)
        if X is None:
            raise NotCertified("the term is not proved positive and decreasing")
        self.X, self.quad = X, None
        shifted = log_shift(log_positive(b)) is not None
        try:  # log(n + c): the quadrature in log(x + c) first (sympy's search is long there)
            self.quad = QuadratureTail(b, X) if shifted else None
        except NotCertified:
            pass
        if self.quad is None:
            try:
                self.F_expr, self.F_inf_expr = verified_antiderivative(b)
                arb_function(self.F_expr), arb_function(self.F_inf_expr)  # in balls
                integral = f"{sp.sstr(self.F_inf_expr - self.F_expr)} (antiderivative checked "
                integral += "by differentiation)"
            except (NotCertified, NotSupported) as exc:
                try:
                    self.quad = QuadratureTail(b, X) if not shifted else None
                except NotCertified as why:
                    raise NotCertified(f"{exc}; {why}") from None
                if self.quad is None:
                    raise NotCertified(f"{exc}; no quadrature in log(x + c)") from None
        if self.quad is not None:
            integral = self.quad.certificate
        self.convex = completely_monotone(b, X)
        bounds = (
            "I(a) + b_a/2 <= sum_(n>=a) b_n <= I(a - 1/2) (b convex: trapezoid and midpoint)"
            if self.convex
            else "I(a) <= sum_(n>=a) b_n <= b_a + I(a)"
        )
        self.certificate = (
            f"integral test: b_n > 0 decreasing for n >= {X}, "
            f"I(a) = int_a^oo b = {integral}, {bounds} (ball arithmetic)"
        )
        self.nonneg_until = 10**30
        self._log_space = None
        if self.quad is None:
            self._prepare(max(direct, X - self.n0 + 1))
            return
        try:  # a quadrature that loses its digits far out fails only after many pieces
            with step_budget(QUADRATURE_SECONDS):
                self._prepare(max(direct, X - self.n0 + 1))
        except StepTimeout:
            raise NotCertified(
                f"the tail integral's quadrature took more than {QUADRATURE_SECONDS:g} s"
            ) from None

    @ball_precision
    def _prepare(self, count: int) -> None:
        self._f = arb_function(self.b)
        if self.quad is None:
            self._F = arb_function(self.F_expr)
            self._F_inf = arb_function(self.F_inf_expr)(arb(1))
        self.M = self.n0 + count  # R(a) for a < M: the terms up to M, then the bounds at M
        terms = [term_ball(self._f, n) for n in range(self.n0, self.M)]
        if not all(t >= 0 for t in terms):
            raise NotCertified("a term before the decreasing range is not proved >= 0")
        suffix, acc = [arb(0)] * (count + 1), arb(0)
        for i in range(count - 1, -1, -1):
            acc += terms[i]
            suffix[i] = acc
        self._suffix, self._terms = suffix, terms
        lo, hi = self._integral_bounds(arb(self.M), arb(self.M))
        self._em_blocks: dict = {}
        self._tail_M = _narrower(lo.union(hi), self._euler_maclaurin(self.M))

    def _euler_maclaurin(self, a: int) -> arb | None:
        """R(a) = I(a) + f(a)/2 - f'(a)/12 + e for an integer a >= M (Euler-Maclaurin to
        order 4, DLMF 2.10.1, with R(Q + 1) in [I(Q) - f(Q), I(Q) + f(Q)] beyond
        Q = 2^k M): |e| <= (1/360) int_a^Q |f^(4)| + 3 f(Q)/2 + |f'(Q)|/12, the integral
        bounded on each [2^j M, 2^(j+1) M] by its length times |f^(4)| enclosed on that
        whole ball (blocks kept between calls); None where a bound is not finite."""
        try:
            f0 = taylor(self._f, arb(a), 2)
            main = self._I(arb(a)) + f0[0] / 2 - f0[1] / 12
            if not main.is_finite():
                return None
            j = (a // self.M).bit_length() - 1  # a in [2^j M, 2^(j+1) M)
            rem = arb(0)
            for k in range(j, j + EM_BLOCKS):
                block, end = self._em_block(k)
                rem += block
                if not (rem.is_finite() and end.is_finite()):
                    return None
                if end <= EM_REL * main.lower():
                    break
        except (Undecided, NotSupported, ArithmeticError, ValueError):
            return None
        err = (rem + end).upper()
        return main + arb(0).union(err).union(-err)

    def _em_block(self, k: int) -> tuple[arb, arb]:
        """((1/360) 2^k M sup |f^(4)| on [2^k M, 2^(k+1) M], the bound 3 f(Q)/2 + |f'(Q)|/12
        at Q = 2^(k+1) M), kept."""
        if k not in self._em_blocks:
            lo = self.M << k
            d4 = taylor(self._f, ball(lo, 2 * lo), 5)[4] * 24
            fq = taylor(self._f, arb(2 * lo), 2)
            self._em_blocks[k] = (
                arb(lo) * abs(d4).upper() / 360,
                3 * abs(fq[0]).upper() / 2 + abs(fq[1]).upper() / 12,
            )
        return self._em_blocks[k]

    def _integral_bounds(self, x_lo: arb, x_hi: arb) -> tuple[arb, arb]:
        """(lower enclosure, upper enclosure) of R(a) with x_lo <= a <= x_hi, a - 1/2 >= X:
        I(x_hi) <= I(a) <= R(a) <= I(a) + f(a) <= I(x_lo) + f(x_lo); for a convex f
        (completely monotone) I(x_hi) + f(x_hi)/2 <= I(a) + f(a)/2 <= R(a) <= I(a - 1/2)."""
        if self.convex:
            lower = self._I(x_hi) + self._f(x_hi) / 2
            upper = self._I(x_lo - arb(0.5))
        else:
            lower = self._I(x_hi)
            upper = self._I(x_lo) + self._f(x_lo)
        if not (lower.is_finite() and upper.is_finite()):
            raise NotCertified("the integral bounds are not finite in ball arithmetic")
        return lower, upper

    def _I(self, x: arb) -> arb:
        """I(x) = int_x^oo b: F(oo) - F(x), or the quadrature in u = log x."""
        if self.quad is not None:
            return self.quad.integral(x.log())
        return self._F_inf - self._F(x)

    def term(self, n: int) -> arb:
        return term_ball(self._f, n)

    @ball_precision
    def tail(self, a: int) -> arb:
        """An enclosure of R(a) = sum_{n >= a} b_n for an integer a >= n0."""
        a = int(a)
        if a < self.n0:
            raise ValueError(f"a = {a} < n0 = {self.n0}")
        if a < self.M:
            return self._suffix[a - self.n0] + self._tail_M
        lo, hi = self._integral_bounds(arb(a), arb(a))
        return _narrower(lo.union(hi), self._euler_maclaurin(a))

    @ball_precision
    def log_bounds(self, t: float | arb) -> tuple[arb, arb]:
        """(lower, upper) enclosures of R(ceil(x)) at x = e^t >= M, for every t in the ball
        ``t`` (a float, or an arb such as t = e^s beyond any float).  For t beyond
        LOG_SPACE, x itself is not formed: with F and f written in t (sympy puts
        log(e^t) = t), R(ceil(x)) is in [I(x + 1), I(x) + f(x)], within
        [I(x) - f(x), I(x) + f(x)] (f decreasing, so int_x^(x+1) f <= f(x))."""
        if not isinstance(t, arb) and t < LOG_SPACE:
            return self.bounds(arb(t).exp())
        if isinstance(t, arb) and not t > LOG_SPACE:
            raise NotCertified("log_bounds takes an arb t only beyond LOG_SPACE")
        if self.quad is not None:
            I, err = self.quad.integral(arb(t)), self.quad.term(arb(t))
        else:
            if self._log_space is None:
                T = sp.Symbol("t", positive=True)
                self._log_space = (
                    arb_function(self.F_expr.subs(N, sp.exp(T)).subs(T, N)),
                    arb_function(self.b.subs(N, sp.exp(T)).subs(T, N)),
                )
            F, f = self._log_space
            I, err = self._F_inf - F(arb(t)), f(arb(t))
        if not (I.is_finite() and err.is_finite()):
            raise NotCertified("the integral bounds are not finite in ball arithmetic")
        return I - err, I + err

    @ball_precision
    def bounds(self, x: arb) -> tuple[arb, arb]:
        """(lower, upper) enclosures with lower <= R(ceil(x)) <= upper, for real x >= M
        (ceil(x) is in [x, x + 1])."""
        if not x >= self.M:
            raise ValueError("bounds(x) needs x >= M")
        return self._integral_bounds(x, x + 1)


def _narrower(bracket: arb, other: arb | None) -> arb:
    """The intersection of two enclosures of one number (``other`` None: ``bracket``)."""
    if other is None or not other.overlaps(bracket):
        return bracket
    return other.intersection(bracket)


def _candidates(n0: int):
    """Starting points tried for the decreasing range: n0, then 3, 16, 256, ..."""
    yield max(n0, 1)
    for x in (3, 16, 256, 65536):
        if x > n0:
            yield x
