r"""Proofs that the derivatives :math:`g^{(j)}`, :math:`j = 1, \dots, J`, keep one sign on
:math:`[P, \infty)`, and periodic factors written as trigonometric polynomials.

Leibniz's test and its Euler-transformed refinement
(:class:`theory.series.oscillating.DirichletTail`) need the differences
:math:`\delta^i g(n) = \int_{[0,1]^i} g^{(i)}(n + t_1 + \dots + t_i)\,dt` to be monotone in n
from some point on, for :math:`i = 0, \dots, J - 1`: this holds on :math:`[P, \infty)` when
:math:`g^{(i+1)}` has one sign there.  A completely monotone g has it for every order from
:math:`x_0` on (:mod:`theory.series.monotone`); ``log(n)/sqrt(n)`` is not monotone on
:math:`[1, e^2]`, yet :math:`g^{(j)}(x) = x^{-1/2-j}(\alpha_j \log x + \beta_j)` keeps one sign
once :math:`\log x > -\beta_j/\alpha_j`.

The sign is proved on the whole half-line, never by sampling: the derivative is factored
(``sympy.factor``) and each factor classified exactly:

* a constant: its sign in ball arithmetic;
* :math:`x^c`, :math:`\log x` (:math:`P \ge 2`), :math:`e^{(\cdot)}`: positive;
* a polynomial in :math:`x`, or in :math:`L = \log(x + c)` alone (c rational): its real roots
  isolated exactly (``Poly.intervals``, rational endpoints) all lie below :math:`P` (resp.
  :math:`\log(P + c)`, compared in ball arithmetic), and the sign is that of its leading
  coefficient;
* a sum of monomials :math:`c\,x^a L^b`, :math:`L = \log(x + c)`: the sign of its leading
  monomial, when the other quotients, each nonincreasing on :math:`[P, \infty)`, sum to less
  than 1 at P (:func:`_dominant_sign`; ``2 n - (n + 2) log(n + 2)``);
* a power with a constant exponent: an even integer exponent of a real base is >= 0 only, so
  it is refused unless its base is classified; an odd one keeps its base's sign, other
  exponents need a positive base;
* any other factor f made of exp, log, sin, cos, atan and hyperbolic functions:
  :math:`t^k f(t^{-m})`, m = 1, 2, k = 0 or the order of its pole at t = 0, expanded and
  enclosed in ball arithmetic on a ball containing :math:`[0, P^{-1/m}]` (``cos(1/x)``, the
  derivative of ``sin(1/x)``; ``cos(1/sqrt(x))``); an enclosure that excludes 0 is the sign
  on the whole half-line.  Where G vanishes at t = 0 to an order k (its Taylor
  coefficients below k exactly 0, by sympy's series), :math:`G(t) = t^k G^{(k)}(\xi)/k!`
  with :math:`\xi \in [0, t]` (Taylor's theorem, Lagrange remainder), so an enclosure of
  :math:`G^{(k)}/k!` on the ball that excludes 0 is the sign
  (``1 - cos(t) - t sin(t) = -t^2/2 + ...``, the derivative of ``x (1 - cos(1/x))``).

Anything else is not classified, and the order fails (no proof is claimed).

A q-periodic factor :math:`p` (``(-1)**floor(n/2)``) is written exactly as
:math:`p(n) = \sum_{k<q} c_k e^{2\pi i k n/q}`, :math:`c_k = q^{-1} \sum_{r<q} p_r e^{-2\pi i k r/q}`
(discrete Fourier transform of its values on the residue classes).

>>> from theory.series.expressions import parse_expression as P
>>> s = signed_derivatives(P("log(n)/sqrt(n)"), 1)
>>> s.start, s.orders                # g' < 0 needs log x > 2; g^(40) one sign from 512
(512, 24)
>>> periodic_pieces(P("(-1)**floor(n/2)"))[0]  # mean 0
0
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, cache_answers, step_budget
from theory.series.arb_eval import NotSupported, Undecided, arb_function, ball_precision, taylor
from theory.series.expressions import N
from theory.series.periodic import residue_classes

#: highest derivative order tried (Euler orders 0..MAX_ORDER-1: ``|delta^i g(M)| / 2^i`` at
#: M >= 256 is below 10^-30 B for i near 24 on the forms met)
MAX_ORDER = 24
#: CPU seconds for all orders together (the orders proved by then are kept)
SECONDS = 2.0
#: candidate starts P of the proved range (powers of two up to the direct part's length)
STARTS = tuple(2**k for k in range(1, 17))

_L = sp.Symbol("L", positive=True)


@dataclass
class SignedDerivatives:
    """g^(j) has one sign on [start, oo) for j = 1..orders (proved; module doc)."""

    start: int
    orders: int
    note: str


@ball_precision
def _const_sign(c: sp.Expr) -> int | None:
    try:
        v = arb_function(c)(arb(0))
    except (NotSupported, Undecided, ArithmeticError, ValueError, TypeError):
        return None
    if not v.is_finite():
        return None
    return 1 if v > 0 else (-1 if v < 0 else None)


@ball_precision
def _poly_sign(poly: sp.Poly, lo: arb) -> int | None:
    """The sign of a real polynomial on [lo, oo) when every real root is proved < lo; with
    real constant coefficients (``(2 - log(2))*n - log(2)``), at an exact lo, when every
    coefficient of poly(lo + t) in t has one proved sign (or is exactly 0)."""
    if not (poly.domain.is_QQ or poly.domain.is_ZZ):
        return _shifted_sign(poly, lo)
    for (_a, b), _mult in poly.intervals():
        if not arb(int(b.p)) / int(b.q) < lo:
            return None
    return _const_sign(poly.LC())


def _shifted_sign(poly: sp.Poly, lo: arb) -> int | None:
    """+1/-1 when every coefficient of poly(lo + t) in t is 0 or of that proved sign and the
    constant one is not 0 (then poly keeps the sign for t >= 0); None otherwise."""
    if not (lo.is_exact() and lo.mid().man_exp()[1] >= 0):
        return None
    n0 = int(lo.mid().man_exp()[0]) << int(lo.mid().man_exp()[1])
    t = sp.Dummy("t")
    try:
        shifted = sp.Poly(sp.expand(poly.as_expr().subs(poly.gen, n0 + t)), t).all_coeffs()
    except (sp.PolynomialError, ValueError, TypeError):
        return None
    signs = {0 if c == 0 else _const_sign(c) for c in shifted}
    if None in signs or shifted[-1] == 0:
        return None
    signs.discard(0)
    return signs.pop() if len(signs) == 1 else None


def _factor_sign(f: sp.Expr, P: int, past_zero: bool = False) -> int | None:
    """+1/-1: the factor keeps this sign on [P, oo) (proved); None: not classified.
    ``past_zero``: far forms vanishing at t = 0 are tried too (:func:`_sign_past_zero`)."""
    if not f.has(N):
        return _const_sign(f)
    if f == N or isinstance(f, sp.exp):
        return 1 if f == N or f.args[0].is_real is not False else None
    if isinstance(f, sp.log) and f.args[0] == N:
        return 1 if P >= 2 else None
    if isinstance(f, sp.Pow) and f.exp.has(N):  # n**(1/n): a positive base, a real power
        real = f.exp.subs(N, sp.Symbol("x", positive=True)).is_real is True
        return 1 if real and _factor_sign(f.base, P, past_zero) == 1 else None
    if isinstance(f, sp.Pow) and not f.exp.has(N):
        if f.base == N:
            return 1
        s = _factor_sign(f.base, P, past_zero)
        if s is None:
            return None
        if f.exp.is_Integer:
            return s ** int(f.exp) if int(f.exp) % 2 else 1
        return 1 if s > 0 else None
    try:
        with step_budget(1.0):
            if f.is_polynomial(N):
                return _poly_sign(sp.Poly(f, N), arb(P))
            logs = [a for a in f.atoms(sp.log) if a.has(N)]
            c = sp.expand(logs[0].args[0] - N) if len(logs) == 1 else None
            if c is not None and c.is_Rational and P + c > 0:  # log(n + c), increasing
                g = f.subs(logs[0], _L)
                if not g.has(N) and g.is_polynomial(_L):
                    return _poly_sign(sp.Poly(g, _L), (arb(P) + arb(c.p) / c.q).log())
            if isinstance(f, sp.Add):
                dominant = _dominant_sign(f, P)
                if dominant is not None:
                    return dominant
    except (StepTimeout, sp.PolynomialError, ValueError, TypeError):
        return None
    if isinstance(f, sp.atan):  # odd and increasing: the sign of its argument
        return _factor_sign(f.args[0], P, past_zero)
    far = _sign_near_infinity(f, P, past_zero)
    if far is None and isinstance(f, sp.Add):  # 2*n*atan(n) + 1: summands of one proved sign
        signs = {derivative_sign(a, P, past_zero) for a in f.args}
        return signs.pop() if len(signs) == 1 and None not in signs else None
    return far


def _monomials(f: sp.Expr, log_atom: sp.Expr) -> list | None:
    """[(c, a, b)] with f = sum c x^a L^b, L = ``log_atom``, a and b rational, c a real
    constant."""
    out = []
    for t in sp.Add.make_args(sp.expand(f.subs(log_atom, _L))):
        c, a, b = sp.Integer(1), sp.Integer(0), sp.Integer(0)
        for factor, e in t.as_powers_dict().items():
            if factor == N and e.is_Rational:
                a += e
            elif factor == _L and e.is_Rational:
                b += e
            elif not factor.has(N, _L):
                c *= factor**e
            else:
                return None
        out.append((c, a, b))
    return out


def _dominant_sign(f: sp.Expr, P: int) -> int | None:
    r"""The sign on :math:`[P, \infty)` of :math:`f = \sum_i c_i x^{a_i} L^{b_i}`,
    :math:`L = \log(x + c)` (one rational c, :math:`P + c > 1`), from its leading monomial
    :math:`c_0 x^{a_0} L^{b_0}` (largest a, then largest b): each other quotient
    :math:`|c_i/c_0| x^{-\delta} L^{\beta}` (:math:`\delta = a_0 - a_i`,
    :math:`\beta = b_i - b_0`) is nonincreasing where :math:`\delta L \ge \beta x/(x + c)`
    (its derivative is :math:`x^{-\delta} L^{\beta - 1} (\beta/(x + c) - \delta L/x)`),
    which holds on :math:`[P, \infty)` when it holds at P with :math:`\max(1, P/(P + c))`
    for :math:`x/(x + c)` (or :math:`\delta = 0 > \beta`); so its value at P bounds it.
    When these bounds sum to less than 1 (ball arithmetic) f has the sign of :math:`c_0`
    (``2 x log x - 3 x + log(x)^2 - 2 log x + 1``, a factor of the second derivative of
    :math:`x^{1/x}`, is positive from 16 on; the bounds at 8 sum to 1.006).

    >>> _dominant_sign(2*N*sp.log(N) - 3*N + sp.log(N)**2 - 2*sp.log(N) + 1, 16)
    1
    >>> _dominant_sign(2*N*sp.log(N) - 3*N + sp.log(N)**2 - 2*sp.log(N) + 1, 8) is None
    True
    >>> _dominant_sign(2*N - (N + 2)*sp.log(N + 2), 16)  # log(n + 2)/sqrt(n), derivative
    -1
    """
    logs = [a for a in f.atoms(sp.log) if a.has(N)]
    if len(logs) != 1:
        return None
    shift = sp.expand(logs[0].args[0] - N)
    if not (shift.is_Rational and P + shift > 1):
        return None
    terms = _monomials(f, logs[0])
    if terms is None or len(terms) < 2:
        return None
    c0, a0, b0 = max(terms, key=lambda t: (t[1], t[2]))
    s0 = _const_sign(c0)
    if s0 is None:
        return None

    def q(r: sp.Rational) -> arb:
        return arb(int(r.p)) / int(r.q)

    x, L = arb(P), (arb(P) + q(shift)).log()
    stretch = x / (x + q(shift)) if shift < 0 else arb(1)  # sup of x/(x + c) on [P, oo)
    total = arb(0)
    for c, a, b in terms:
        if (a, b) == (a0, b0):
            if (c, a, b) != (c0, a0, b0):
                return None  # equal monomials that expand did not collect
            continue
        delta, beta = q(a0 - a), q(b - b0)
        if b - b0 > 0 and not delta * L >= beta * stretch:
            return None
        ratio = arb_function(sp.Abs(c / c0))(arb(0))
        total += ratio * x ** (-delta) * L**beta
    return s0 if total.is_finite() and total < 1 else None


#: functions whose composition the far-end enclosure accepts (real-analytic where finite)
_NEAR_INFINITY_OK = (sp.sin, sp.cos, sp.exp, sp.log, sp.atan, sp.sinh, sp.cosh, sp.tanh)


def _sign_near_infinity(f: sp.Expr, P: int, past_zero: bool = False) -> int | None:
    r"""The sign of f on :math:`[P, \infty)` from :math:`G(t) = t^k f(t^{-m})`, m = 1, 2,
    k = 0 or the order of the pole at t = 0 (expanded, so that ``cos(1/x)/x**2`` or
    ``2*x*cos(1/x) - sin(1/x)`` lose their poles at t = 0; m = 2 turns ``cos(1/sqrt(x))`` into ``cos(t)``), enclosed in ball
    arithmetic on one ball containing :math:`[0, P^{-1/m}]`: t^k > 0 on (0, P^(-1/m)], so a G
    enclosure excluding 0 is the sign of f at every x >= P.  A G that is not finite on the
    ball (a pole, a log or a square root at t = 0) proves nothing."""
    balls = {m: arb(0).union(1 / arb(P).root(m)) for m in _FAR_ROOTS}
    finite = []  # forms finite on the ball whose enclosure holds 0: tried past the zero
    for m, G, expr in _far_forms(f):
        try:
            v = G(balls[m])
        except (NotSupported, Undecided, ArithmeticError, ValueError, TypeError):
            continue
        if v.is_finite() and (v > 0 or v < 0):
            return 1 if v > 0 else -1
        if v.is_finite():
            finite.append((m, G, expr))
    for m, G, expr in finite if past_zero else ():
        s = _sign_past_zero(G, expr, balls[m])
        if s is not None:
            return s
    return None


#: highest order of a zero of the far form at t = 0 that is looked for
_MAX_ZERO_ORDER = 6


@cache_answers(256)
def _zero_order(expr: sp.Expr) -> int:
    """The order k <= _MAX_ZERO_ORDER of the zero of expr (in n standing for t) at t = 0:
    its Taylor coefficients below k exactly 0 by sympy's series; 0 when there is none or
    it is not found."""
    t = N
    try:
        with step_budget(1.0):
            poly = sp.series(expr, t, 0, _MAX_ZERO_ORDER + 1).removeO()
            coeffs = [sp.simplify(poly.coeff(t, j)) for j in range(_MAX_ZERO_ORDER + 1)]
    except (StepTimeout, RecursionError, ValueError, TypeError, NotImplementedError):
        return 0
    if poly.has(sp.log) or not poly.is_polynomial(t) or any(c.has(t) for c in coeffs):
        return 0  # a fractional power or a log at t = 0: no Taylor expansion there
    return next((j for j, c in enumerate(coeffs) if c != 0), 0)


@ball_precision
def _sign_past_zero(G, expr: sp.Expr, t_ball: arb) -> int | None:
    """The sign of G on (0, r] (``t_ball`` contains [0, r]) where G vanishes at 0 to an
    order k <= _MAX_ZERO_ORDER: the coefficients of t^j, j < k, of sympy's Taylor series
    at 0 exactly 0 and an enclosure of G^(k)/k! on the ball excluding 0 (module doc)."""
    k = _zero_order(expr)
    if not k:  # no zero at t = 0 (or none found): nothing to add
        return None
    try:
        at_zero = taylor(G, arb(0), k)  # a check of sympy's zeros in ball arithmetic
        c = taylor(G, t_ball, k + 1)[k]
    except (NotSupported, Undecided, ArithmeticError, ValueError, TypeError):
        return None
    if not all(z.contains(0) for z in at_zero):
        return None
    if c.is_finite() and (c > 0 or c < 0):
        return 1 if c > 0 else -1
    return None


#: x = t^(-m): the substitutions of the far-end enclosure
_FAR_ROOTS = (1, 2)


def _pole_orders(g: sp.Expr) -> set[int]:
    """{k}: the order k <= 24 of the largest pole t^(-k) among g's expanded terms, when it is
    an integer (t^k g then has no pole left to cancel); empty otherwise."""
    low = min((sp.sympify(t.as_powers_dict().get(N, 0)) for t in sp.Add.make_args(g)), default=0)
    return {int(-low)} if sp.sympify(low).is_Integer and -24 <= low < 0 else set()


@cache_answers(256)
def _far_forms(f: sp.Expr) -> tuple:
    """(m, ball function of t^k f(t^-m), its expression in n standing for t), m in
    _FAR_ROOTS, k = 0 and the pole's order, for a factor made of whitelisted functions
    (none for anything else)."""
    fns = {type(a) for a in f.atoms(sp.Function)}
    if not fns or not all(issubclass(t, _NEAR_INFINITY_OK) for t in fns):
        return ()
    forms = []
    try:
        with step_budget(1.0):
            for m in _FAR_ROOTS:
                g = sp.expand(f.subs(N, N ** (-m)))
                for k in sorted({0, *_pole_orders(g)}):
                    try:
                        form = sp.expand(N**k * g)
                        forms.append((m, arb_function(form), form))
                    except NotSupported:
                        pass
    except (StepTimeout, RecursionError, ValueError, TypeError):
        pass
    return tuple(forms)


def derivative_sign(d: sp.Expr, P: int, past_zero: bool = False) -> int | None:
    """The sign of d on [P, oo), proved factor by factor, else None."""
    sign = 1
    for f in sp.Mul.make_args(d):
        s = _factor_sign(f, P, past_zero)
        if s is None:
            return None
        sign *= s
    return sign


def signed_derivatives(
    g: sp.Expr, x0: int, max_order: int = MAX_ORDER, max_start: int = STARTS[-1]
) -> SignedDerivatives | None:
    """The largest J <= max_order and least P in STARTS (P >= x0, P <= max_start) with
    g^(j) of one sign on [P, oo) for every j = 1..J (J >= 1), else None."""
    start, d, orders = max(int(x0), 1), g, 0
    stop = time.process_time() + SECONDS
    try:
        for j in range(1, max_order + 1):
            if time.process_time() > stop:
                break
            with step_budget(1.0):  # the factored form is differentiated next (no swell)
                d = sp.factor(sp.together(sp.diff(d, N)))
            fd = d
            found = None
            for past_zero in (False, True):  # forms vanishing at t = 0 only where needed
                for P in STARTS:
                    if P < start or P > max_start:
                        continue
                    if derivative_sign(fd, P, past_zero) is not None:
                        found = P
                        break
                if found is not None:
                    break
            if found is None:
                break
            start, orders = max(start, found), j
    except (StepTimeout, RecursionError, ValueError, TypeError):
        pass
    if orders == 0:
        return None
    return SignedDerivatives(
        start,
        orders,
        f"g^(j) of one sign on [{start}, oo) for j = 1..{orders} (each derivative factored; "
        "every factor's sign proved exactly: powers, logs, exact real-root isolation of "
        "polynomials in n or log n, or t^k f(t^-m) enclosed on [0, P^(-1/m)] in ball arithmetic, "
        "where it vanishes at t = 0 its first nonzero Taylor coefficient there, by Taylor's "
        "theorem)",
    )


def periodic_pieces(p: sp.Expr) -> tuple[sp.Expr, list] | None:
    """(c_0, [(c_k, 2 pi k/q)]) with p(n) = c_0 + sum_k c_k e^(2 pi i k n/q) exactly, for a
    periodic p whose values on the residue classes are constants (module doc), else None."""
    split = residue_classes(p)
    if split is None:
        return None
    q, values = split
    if any(v.has(N) for v in values):
        return None
    coeffs = [
        sp.expand(
            sp.Add(*[v * sp.exp(-2 * sp.pi * sp.I * k * r / q) for r, v in enumerate(values)]) / q,
            complex=True,
        )
        for k in range(q)
    ]
    return coeffs[0], [(c, 2 * sp.pi * k / q) for k, c in enumerate(coeffs) if k and c != 0]
