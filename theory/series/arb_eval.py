r"""Ball-arithmetic evaluation of a series term (a sympy expression in ``n``) with python-flint.

:func:`arb_function` turns a whitelisted sympy expression into a function of an ``arb`` ball
(a rigorous enclosure of :math:`f(x)` for every real :math:`x` in the ball) or of an
``arb_series`` (the Taylor coefficients :math:`f^{(k)}(x)/k!` at such a ball, each a rigorous
enclosure).  Branches (``Piecewise``, ``Min``, ``Max``, ``Abs``, ``floor``) are taken only where
the ball decides them; otherwise :class:`Undecided` is raised and the caller splits the ball
(``Min``/``Max`` of plain balls that overlap are enclosed by arb's ``min``/``max`` instead:
``Max(1/n**2, 2**(-n))`` at n = 2, where both are 1/4).  A sign ``(-1)**k(n)``, k an
integer at every integer n, is exact at an integer; on a ball that is not one integer it is
[-1, 1], which holds its value at every integer in the ball (the sums read balls only at
integers; ``(-1)**floor(sqrt(2)*n)`` is real, and in [-1, 1], at every real n).
Anything outside the whitelist raises :class:`NotSupported`.  Nothing is evaluated in floating
point: constants are exact rationals or arb constants.

>>> from flint import arb
>>> from theory.series.expressions import parse_expression as P
>>> f = arb_function(P("exp(-log(n)**2)"))
>>> f(arb(10)).overlaps(arb("0.00498212829644 +/- 1e-14"))  # exp(-ln(10)^2) = 0.004982128296...
True
>>> f = arb_function(P("Piecewise((1, n < 5), (2, True))"))
>>> f(arb(4)), f(arb(5))
(1.00000000000000, 2.00000000000000)
>>> f(ball(4, 6))           # doctest: +IGNORE_EXCEPTION_DETAIL
Traceback (most recent call last):
...
theory.series.arb_eval.Undecided: Piecewise condition n < 5 is not decided on [4, 6]
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import TypeVar

import sympy as sp
from flint import arb, arb_series, ctx

from theory.series.expressions import N, integer_valued
from theory.series.log1p_remainder import Log1pRemainder, log1p_remainder


class NotSupported(ValueError):
    """The expression uses something the ball evaluator does not implement."""


class Undecided(ArithmeticError):
    """A branch (Piecewise, Min, Max, Abs, floor) is not decided on the given ball."""


class NotCertified(ArithmeticError):
    """No guaranteed enclosure could be proved (the message says why)."""


#: bits of the ball arithmetic used for certified sums
PREC = 192
_T = TypeVar("_T")


@contextlib.contextmanager
def raised_precision(bits: int) -> Iterator[None]:
    """Every :func:`ball_precision` call inside the block works at ``bits`` (at least PREC):
    a bias of -2^-1074 gives a term 1 - 2^-1074 that 192 bits do not tell from 1."""
    global PREC
    old = PREC
    PREC = max(old, int(bits))
    try:
        yield
    finally:
        PREC = old


_FLOOR_HULLS = False


@contextlib.contextmanager
def floor_hulls() -> Iterator[None]:
    """Inside the block, floor/ceiling of a plain ball that holds an integer is the ball
    [floor(lo), floor(hi)] (it holds the value at every real point of the ball: enough for a
    range of values over a box, as a majorant's constants need), not :class:`Undecided`; a
    Taylor series (whose derivatives a jump has not) is still refused."""
    global _FLOOR_HULLS
    old, _FLOOR_HULLS = _FLOOR_HULLS, True
    try:
        yield
    finally:
        _FLOOR_HULLS = old


def ball_precision(fn: Callable[..., _T]) -> Callable[..., _T]:
    """Run ``fn`` with python-flint at PREC bits (restored afterwards)."""

    def wrapped(*args, **kwargs):
        old = ctx.prec
        ctx.prec = PREC
        try:
            return fn(*args, **kwargs)
        finally:
            ctx.prec = old

    wrapped.__doc__, wrapped.__name__ = fn.__doc__, fn.__name__
    return wrapped


def _const(x) -> arb:
    """An exact (or rigorously rounded) arb for a sympy number."""
    if x is sp.pi:
        return arb.pi()
    if x is sp.E:
        return arb.const_e()
    if x is sp.EulerGamma:
        return arb.const_euler()
    if isinstance(x, sp.Integer):
        return arb(int(x))
    if isinstance(x, sp.Rational):
        return arb(int(x.p)) / arb(int(x.q))
    if isinstance(x, sp.Float):
        man, exp = sp.Float(x)._mpf_[1], sp.Float(x)._mpf_[2]
        sign = -1 if sp.Float(x)._mpf_[0] else 1
        return arb(sign * int(man)) * arb(2) ** exp  # the binary value sympy holds, exactly
    raise NotSupported(f"constant {x}")


def _center(v) -> arb:
    """The ball of values (constant coefficient of a series)."""
    return v.coeffs()[0] if isinstance(v, arb_series) else v


def _pow(base, e, e_expr):
    if e_expr.is_Integer:
        k = int(e_expr)
        if k.bit_length() > 64 and isinstance(base, arb_series) and _center(base) > 0:
            return (k * base.log()).exp()  # one log and one exp, not 1330 series squarings
        if k >= 0:  # square and multiply: n**(10**10) in 34 squarings, not 10^10 products
            out, sq = base * 0 + 1, base
            if k > 0 and k % 2 == 0 and isinstance(base, arb) and not (base > 0 or base < 0):
                # an even power of a ball around 0 lies in [0, u^k]: sin(x)**2 in [0, 1]
                u = abs(base.lower()).max(abs(base.upper()))  # exact ends, rounded outwards
                if u == 0:
                    return arb(0)
                if u.is_finite() and u > 0:  # (a ball that is not finite: the plain product)
                    return arb(0).union(_pow(u, e, e_expr))
            while k:
                if k & 1:
                    out = out * sq
                k >>= 1
                if k:
                    sq = sq * sq
            return out
        return 1 / _pow(base, -sp.Integer(k), -e_expr)
    if e_expr == sp.Rational(1, 2):
        return base.sqrt()
    c = _center(base)
    if not c > 0:
        if isinstance(base, arb) and c == 0 and e_expr.is_positive:
            return arb(0)
        if isinstance(base, arb) and base < 0 and isinstance(e, arb) and e.is_exact():
            if e.is_integer():  # (-a)^k = (-1)^k a^k at an integer k: (-1)**n at n
                odd = int(e.mid().man_exp()[0] * 2 ** max(e.mid().man_exp()[1], 0)) % 2
                mag = arb(1) if base == -1 else (e * (-base).log()).exp()
                return -mag if odd else mag
        raise Undecided(f"base of a real power not positive on {c}")
    return (e * base.log()).exp()


def _decide(rel, args) -> bool:
    """A relational between two evaluated sides, decided on the ball or Undecided."""
    a, b = (_center(x) if not isinstance(x, (int, float)) else arb(x) for x in args)
    ops = {
        sp.StrictLessThan: (lambda: a < b, lambda: a >= b),
        sp.LessThan: (lambda: a <= b, lambda: a > b),
        sp.StrictGreaterThan: (lambda: a > b, lambda: a <= b),
        sp.GreaterThan: (lambda: a >= b, lambda: a < b),
    }
    if type(rel) not in ops:
        raise NotSupported(f"condition {rel}")
    yes, no = ops[type(rel)]
    if yes():
        return True
    if no():
        return False
    raise Undecided(f"Piecewise condition {rel} is not decided on {a}")


_UNARY = {
    sp.exp: "exp",
    sp.log: "log",
    sp.sin: "sin",
    sp.cos: "cos",
    sp.tan: "tan",
    sp.atan: "atan",
    sp.erf: "erf",
    sp.erfc: "erfc",
    sp.gamma: "gamma",
    sp.loggamma: "lgamma",
}


def _compile(e: sp.Expr) -> Callable:
    """Closure x -> value of ``e`` at x (x an arb or an arb_series)."""
    if e == N:
        return lambda x: x
    if e.is_Number or e in (sp.pi, sp.E, sp.EulerGamma):
        c = _const(e)
        return lambda x: c
    if e.free_symbols - {N}:
        raise NotSupported(f"free symbols {sorted(map(str, e.free_symbols - {N}))}")
    g = _structural(e)
    if not e.has(N):  # a constant subexpression (log(2), exp(-1/16)): once
        c = g(arb(0))
        return lambda x: c
    return g


def _structural(e: sp.Expr) -> Callable:
    diff = _root_difference(e)
    if diff is not None:
        return diff
    minus_one = _exp_minus_one(e)
    if minus_one is not None:
        return minus_one
    if isinstance(e, sp.Add):
        parts = [_compile(a) for a in e.args]
        return lambda x: _fold(lambda p, q: p + q, [p(x) for p in parts])
    if isinstance(e, sp.Mul):
        parts = [_compile(a) for a in e.args]
        return lambda x: _fold(_times, [p(x) for p in parts])
    if isinstance(e, sp.Pow):
        base, ex = _compile(e.base), _compile(e.exp)
        if e.exp.has(N) and not (e.base.is_number and e.base.is_negative):
            return lambda x: _moving_pow(base(x), ex(x))
        if e.base == -1 and e.exp.has(N) and integer_valued(e.exp):
            return _sign_power(base, ex, e.exp)
        return lambda x: _pow(base(x), ex(x), e.exp)
    return _compile_function(e)


def _sign_power(base, ex, e_expr) -> Callable:
    """(-1)**k(n), k integer-valued (``(-1)**floor(sqrt(2)*n)``): exact where k is decided;
    on a ball of reals where it is not, the value is one of -1, 1, so in [-1, 1]."""

    def f(x):
        try:
            return _pow(base(x), ex(x), e_expr)
        except Undecided:
            if not isinstance(x, arb) or x.is_exact():
                raise
            return arb(0, 1)

    return f


def _moving_pow(base, e):
    """base^e = exp(e log base) for an exponent that depends on n; an exact 0 to a positive
    power is 0 (``(1 - 1/n)**(n**2)`` at n = 1), where exp(e log 0) is not finite."""
    if isinstance(base, arb) and base == 0 and isinstance(e, arb) and e > 0:
        return arb(0)
    return (e * base.log()).exp()


def _root_difference(e: sp.Expr) -> Callable | None:
    """sqrt(A) - sqrt(B) as (A - B)/(sqrt(A) + sqrt(B)), A - B simplified exactly: no
    cancellation where both roots are huge (sqrt(n + 1) - sqrt(n) = 1/(sqrt(n + 1) +
    sqrt(n)) near n = 2^1024, where the difference of two balls lost every digit); None
    for any other expression."""
    if not isinstance(e, sp.Add) or len(e.args) != 2:
        return None
    roots = []
    for a in e.args:
        c, r = a.as_coeff_Mul()
        if not (r.is_Pow and r.exp == sp.Rational(1, 2) and c in (1, -1)):
            return None
        roots.append((c, r.base))
    (ca, A), (cb, B) = sorted(roots, key=lambda t: -t[0])
    if (ca, cb) != (1, -1):
        return None
    num = _compile(sp.expand(A - B))
    den = _compile(sp.sqrt(A) + sp.sqrt(B))
    return lambda x: num(x) / den(x)


def _exp_minus_one(e: sp.Expr) -> Callable | None:
    """exp(u) - 1 (or 1 - exp(u)) as expm1(u): no cancellation where u is tiny
    (exp(log(1 + 1/n)/3) - 1 near n = 2^1024, where the ball of exp(u) is 1 to every bit).
    A Taylor series u = u_0 + v is expm1(u_0) + exp(u_0) (exp(v) - 1), whose exp(v) has the
    constant term 1 exactly; None for any other expression.

    >>> from theory.series.expressions import parse_expression as P
    >>> f = arb_function(P("exp(1/n**3) - 1"))
    >>> v = f(arb(2) ** 400)
    >>> bool(abs(v / arb(2) ** -1200 - 1) < 1e-40)
    True
    """
    if not (isinstance(e, sp.Add) and len(e.args) == 2 and e.has(N)):
        return None
    (one, rest), sign = sorted(e.args, key=lambda a: not a.is_number), 1
    if one == 1 and isinstance(-rest, sp.exp):
        rest, sign = -rest, -1
    elif one != -1 or not isinstance(rest, sp.exp):
        return None
    u = _compile(rest.args[0])

    def f(x):
        v = u(x)
        if isinstance(v, arb):
            return sign * v.expm1()
        v0 = v[0]
        return sign * (v0.expm1() + v0.exp() * ((v - v0).exp() - 1))

    return f


def _times(p, q):
    """p q; for two wide real balls, the interval product (the hull of the products of
    their ends): midpoint-radius multiplication overshoots where a ball reaches 0, so
    -n sin(n)^2 on n in [2^16, 2^17] would reach +3e4 and its exp 10^14000."""
    if not (isinstance(p, arb) and isinstance(q, arb)) or p.is_exact() or q.is_exact():
        return p * q
    if not (p.rad() > abs(p.mid()) * WIDE or q.rad() > abs(q.mid()) * WIDE):
        return p * q
    if not (p.is_finite() and q.is_finite()):
        return p * q
    a, b, c, d = p.lower(), p.upper(), q.lower(), q.upper()
    return (a * c).union(a * d).union(b * c).union(b * d)


def _exp(v, nonpositive: bool = False):
    """exp; of a wide real ball, the hull of exp at its ends (exp increases), the upper end
    taken at most 0 where the argument is <= 0 by its form (``-n*sin(n)**2``: on n in
    [2^40, 2^41] its ball reaches about +2^41 2^-30 by the rounding of radii, and arb's exp
    of it 10^5336, not 1)."""
    if isinstance(v, arb) and v.is_finite() and v.rad() > 1:
        top = v.upper().min(arb(0)) if nonpositive else v.upper()
        return v.lower().exp().union(top.exp())
    return v.exp()


#: a ball this wide relative to its midpoint is multiplied as an interval
WIDE = 2.0**-10


def _fold(op, vals):
    out = vals[0]
    for v in vals[1:]:
        out = op(out, v)
    return out


def _compile_function(e) -> Callable:
    args = [_compile(a) for a in e.args] if not isinstance(e, sp.Piecewise) else None
    t = type(e)
    if t is sp.log and isinstance(e.args[0], sp.Add) and e.args[0].has(N):
        one, rest = e.args[0].as_independent(N, as_Add=True)
        if one == 1:  # log(1 + u) = log1p(u): no cancellation where u is tiny
            return _log1p(_compile(rest))
    if t is Log1pRemainder:
        k, a = int(e.args[0]), args[1]
        return lambda x: log1p_remainder(k, a(x))
    if t is sp.exp:
        a, nonpositive = args[0], e.args[0].is_nonpositive is True
        return lambda x: _exp(a(x), nonpositive)
    if t in _UNARY:
        name, a = _UNARY[t], args[0]
        return lambda x: getattr(a(x), name)()
    if t is sp.factorial:
        a = args[0]
        return lambda x: (a(x) + 1).gamma()
    if t is sp.binomial:
        a, b = args
        return lambda x: (a(x) + 1).gamma() / ((b(x) + 1).gamma() * (a(x) - b(x) + 1).gamma())
    if t in (sp.sinh, sp.cosh, sp.tanh):
        a, kind = args[0], t
        return lambda x: _hyperbolic(kind, a(x))
    if t is sp.Abs:
        a = args[0]
        return lambda x: _abs(a(x))
    if t in (sp.Min, sp.Max):
        return _minmax(t, args, e)
    if t in (sp.floor, sp.ceiling):
        return _floor_function(e, args[0])
    if t is sp.sinc:  # sin(u)/u, finite at u = 0 (a majorant's bounds beyond 2^1024 in 1/n)
        a = args[0]
        return lambda x: _sinc(a(x))
    if t is sp.Piecewise:
        return _piecewise(e)
    raise NotSupported(f"function {t.__name__}")


def _log1p(u: Callable) -> Callable:
    """x -> log(1 + u(x)) without cancellation where u is tiny (log(1 + n**(-3)) near
    n = 2^1024: 1 + u is a ball around 1 of radius 2^-3072, whose log lost every digit).
    A ball takes arb's log1p; a Taylor series u = u_0 + v (arb_series has no log1p) is
    log1p(u_0) + log(1 + v/(1 + u_0)), whose argument has the constant term 1 exactly."""

    def f(x):
        v = u(x)
        if isinstance(v, arb):
            return v.log1p()
        v0 = v[0]  # the rest with constant term 0 exactly (v - v0 would double a wide v0)
        rest = arb_series([arb(0)] + v.coeffs()[1:], prec=v.prec)
        return (1 + rest / (1 + v0)).log() + v0.log1p()

    return f


def _sinc(v):
    if isinstance(v, arb):
        return v.sinc()
    c = _center(v)
    if c > 0 or c < 0:
        return v.sin() / v
    raise Undecided(f"sinc of a Taylor series at a ball {c} holding 0")


def _hyperbolic(kind, v):
    ep, em = v.exp(), (-v).exp()
    if kind is sp.sinh:
        return (ep - em) / 2
    if kind is sp.cosh:
        return (ep + em) / 2
    return (ep - em) / (ep + em)


def _abs(v):
    c = _center(v)
    if c >= 0:
        return v
    if c <= 0:
        return -v
    if isinstance(v, arb):  # a plain ball around 0: |x| lies in [0, max(|lo|, |hi|)]
        return arb(0).union(abs(v.lower()).max(abs(v.upper())))
    raise Undecided(f"sign of Abs argument not decided on {c}")  # no one branch's series


def _minmax(t, args, e):
    def f(x):
        vals = [a(x) for a in args]
        best = vals[0]
        for v in vals[1:]:
            b, c = _center(best), _center(v)
            smaller = (c < b) if t is sp.Min else (c > b)
            other = (c >= b) if t is sp.Min else (c <= b)
            if smaller:
                best = v
            elif other:
                continue
            elif isinstance(best, arb) and isinstance(v, arb):
                # overlapping balls (1/n**2 and 2**(-n) at n = 2): the value lies in
                # [max(lo), max(hi)] whichever argument is larger, and arb's max encloses it
                best = best.min(v) if t is sp.Min else best.max(v)
            else:  # Taylor series: no one branch's coefficients hold on the whole ball
                raise Undecided(f"{t.__name__} not decided on {_center(x)}")
        return best

    return f


def _floor_function(e, a) -> Callable:
    """floor/ceiling: exact (rational arithmetic) at an integer n when the argument is
    rational-linear in n; otherwise decided on the ball or Undecided."""
    name = "floor" if isinstance(e, sp.floor) else "ceil"
    arg = e.args[0]
    lin = sp.Poly(arg, N) if arg.is_polynomial(N) else None
    exact = lin is not None and lin.degree() <= 1 and all(c.is_Rational for c in lin.all_coeffs())
    if exact:  # a n + c as integer fractions: Python's integers, not sympy's, per term
        (a_num, a_den), (c_num, c_den) = [
            (int(q.p), int(q.q)) for q in ([sp.Integer(0)] * 2 + lin.all_coeffs())[-2:]
        ]

    def f(x):
        c = _center(x)
        if exact and c.is_exact() and c.is_integer():
            m = int(c.unique_fmpz())
            num, den = (a_num * m * c_den + c_num * a_den), a_den * c_den
            return arb(num // den if name == "floor" else -((-num) // den))
        try:
            return _floor(a(x), name)
        except Undecided:
            if not (isinstance(x, arb) and x.is_exact() and x.is_integer()):
                raise
            return _exact_floor(e, int(x.unique_fmpz()))  # e.g. log(8)/log(2) = 3 exactly

    return f


def _exact_floor(e, n: int) -> arb:
    """floor/ceiling of a non-linear argument at an integer n whose ball straddles an integer:
    sympy decides it exactly (it proves log(8)/log(2) = 3), else Undecided."""
    from theory.core.budget import StepTimeout, step_budget

    try:
        with step_budget(1.0):
            v = e.func(e.args[0].subs(N, n))
    except (StepTimeout, TypeError, ValueError) as exc:
        raise Undecided(f"{e} at n = {n} not decided ({exc})") from None
    if not v.is_Integer:
        raise Undecided(f"{e} at n = {n} not decided")
    return arb(int(v))


def _floor(v, name):
    c = _center(v)
    lo, hi = getattr(c.lower(), name)(), getattr(c.upper(), name)()
    if lo == hi and lo.is_exact():
        return lo
    if _FLOOR_HULLS and isinstance(v, arb) and lo.is_finite() and hi.is_finite():
        return lo.union(hi)  # floor is nondecreasing: every value on the ball lies between
    raise Undecided(f"{name} not decided on {c}")


def _piecewise(e) -> Callable:
    branches = [(_compile(val), cond) for val, cond in e.args]
    conds = []
    for _, cond in branches:
        if cond is sp.true:
            conds.append(None)
        elif isinstance(cond, sp.core.relational.Relational):
            conds.append((type(cond), _compile(cond.lhs), _compile(cond.rhs), cond))
        else:
            raise NotSupported(f"Piecewise condition {cond}")

    def f(x):
        for (val, _), c in zip(branches, conds):
            if c is None:
                return val(x)
            t, lhs, rhs, rel = c
            a, b = _center(lhs(x)), _center(rhs(x))
            try:
                ok = _decide(rel, (a, b))
            except Undecided:
                raise Undecided(
                    f"Piecewise condition {rel} is not decided on {_center(x)}"
                ) from None
            if ok:
                return val(x)
        raise NotSupported("Piecewise without a default branch")

    return f


def arb_function(expr: sp.Expr) -> Callable:
    """A function x -> f(x) for an arb ball or an arb_series x (see the module docstring).

    Raises :class:`NotSupported` for names outside the whitelist (``Product``, unknown
    functions, free parameters)."""
    return _compile(sp.sympify(expr))


def tail_start(a: int, n0: int) -> int:
    """``a`` as an int, checked to be a start a tail engine can sum from (``a >= n0``).

    >>> tail_start(5.0, 2)
    5
    """
    a = int(a)
    if a < n0:
        raise ValueError(f"tail from {a} < n0 = {n0}")
    return a


def head_suffix(f: Callable, n0: int, M: int) -> tuple[list, int]:
    """(suffix, nonneg_until) of the head terms n0 <= n < M of a tail engine:
    ``suffix[i]`` encloses sum_{n0 + i <= n < M} f(n) (ball arithmetic, :func:`term_ball`),
    ``nonneg_until`` is the first n whose term is not proved >= 0 (M when every one is).

    >>> suffix, until = head_suffix(arb_function(1 / N**2), 1, 3)
    >>> suffix[0].overlaps(arb(5) / 4), until
    (True, 3)
    """
    terms, nonneg_until = [], n0
    for n in range(n0, M):
        v = term_ball(f, n)
        if n == nonneg_until and v >= 0:
            nonneg_until = n + 1
        terms.append(v)
    suffix = [arb(0)] * (len(terms) + 1)
    for i in range(len(terms) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + terms[i]
    return suffix, nonneg_until


def suffix_sups(suffix: list) -> list:
    """``sups[i]``: an upper bound on every :math:`|\text{suffix}[j]|`, j >= i (the largest
    head tail from n0 + i on, for a bound on every later tail of terms of both signs).

    >>> [float(v) for v in suffix_sups([arb(-3), arb(2), arb(0)])]
    [3.0, 2.0, 0.0]
    """
    top, sups = arb(0), []
    for v in reversed(suffix):
        top = top.max(arb(v.abs_upper()))
        sups.append(top)
    return sups[::-1]


def term_ball(f: Callable, n: int) -> arb:
    """The enclosure ``f(n)`` of a term at the exact integer ``n`` (where ``(-1)**n`` and
    ``floor`` are exact), or :class:`NotCertified` naming the term when it cannot be
    evaluated or is not finite in ball arithmetic.

    >>> term_ball(arb_function(1 / N**2), 4).mid() == arb(1) / 16
    True
    """
    try:
        v = f(arb(int(n)))
    except (Undecided, ArithmeticError, ValueError) as exc:
        raise NotCertified(f"b_{n}: {exc}") from None
    if not v.is_finite():
        raise NotCertified(f"b_{n} is not finite in ball arithmetic")
    return v


def taylor(f: Callable, x: arb, order: int) -> list:
    """Enclosures of f^(k)(x)/k!, k = 0..order-1, for every point of the ball ``x``.

    python-flint truncates series products to ``ctx.cap`` terms: the cap is raised for the
    call and the length of the result is checked (a missing coefficient is never a zero)."""
    old = ctx.cap
    ctx.cap = max(old, order)
    try:
        v = f(arb_series([x, 1], prec=order))
    finally:
        ctx.cap = old
    if not isinstance(v, arb_series):  # a constant
        return [v] + [arb(0)] * (order - 1)
    if v.prec < order:
        raise ArithmeticError(f"series truncated to {v.prec} < {order} terms")
    c = v.coeffs()
    return c + [arb(0)] * (order - len(c))


def box_taylor(f: Callable, lo: arb, hi: arb, order: int) -> list:
    r"""The Taylor model of f on the box [lo, hi]: the coefficients :math:`c_j = f^{(j)}(m)/j!`
    at the centre m (the exact midpoint of the ball (lo + hi)/2) for j < K = ``order``, then
    :math:`c_K` enclosed over the whole box (Lagrange remainder): for every x in the box,

    .. math::
       f(x) \in \sum_{j<K} c_j (x - m)^j + c_K([lo, hi]) (x - m)^K .

    Models of f and g on the same box subtract coefficient by coefficient (the model of
    f - g); read the range with :func:`taylor_range`. Where f is a sum of large terms that
    cancel, interval evaluation on the box loses the cancellation, while coefficients at
    a point keep it.

    >>> from flint import arb
    >>> c = box_taylor(lambda x: x.log(), arb(1), arb(2), 4)
    >>> r = taylor_range(c, arb(1), arb(2))
    >>> r.lower() < 0 < arb(2).log() < r.upper()
    True
    """
    c = taylor(f, _box_centre(lo, hi), order)
    return c + [taylor(f, lo.union(hi), order + 1)[order]]


def _box_centre(lo: arb, hi: arb) -> arb:
    return arb(((lo + hi) / 2).mid())


def taylor_range(coeffs: list, lo: arb, hi: arb) -> arb:
    r"""Enclosure of :math:`\sum_j c_j t^j` for every t in [lo - m, hi - m] (``coeffs`` from
    :func:`box_taylor` on [lo, hi], m its centre): with h the larger distance from m to an
    end, odd powers range over [-h^j, h^j], even ones over [0, h^j]."""
    m = _box_centre(lo, hi)
    hu = abs(hi - m).upper().max(abs(m - lo).upper())
    total = coeffs[0]
    for j, c in enumerate(coeffs[1:], start=1):
        total += c * (arb(0).union(hu**j) if j % 2 == 0 else (-(hu**j)).union(hu**j))
    return total


def ball(lo: int, hi: int) -> arb:
    """The arb ball containing the real interval [lo, hi]."""
    return arb(lo).union(arb(hi))


class BallTerms:
    """Mixin of the tail engines: ``term(n)``, the enclosure of b_n from ``self.f`` (the
    term compiled by :func:`arb_function`) at the exact integer n."""

    f: Callable

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return term_ball(self.f, int(n))
