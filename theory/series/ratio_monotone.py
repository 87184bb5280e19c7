r"""A bound :math:`0 < s\,r(n) \le q < 1` on :math:`[P, \infty)` for a term ratio that is
neither rational nor analytic in :math:`1/n` (``n**n/(n + 1)**n`` from ``factorial(n)/n**n``),
proved from the monotonicity of :math:`r`.

The ratio (``gammasimp``) is read as :math:`r = s\,e^{g}` on :math:`[P, \infty)`: a constant
of sign :math:`s`, powers :math:`p(n)^{e(n)}` whose base is proved positive there
(:func:`theory.series.eventual_signs.derivative_sign`), exponentials and powers
:math:`c^{e(n)}` of positive constants give
:math:`g = \log|c| + \sum e \log p + \sum u + \dots`, so :math:`s\,r > 0` by construction.
Let :math:`j` be the least order with :math:`g^{(j)}` of one sign on :math:`[P, \infty)`
(proved factor by factor, never sampled) and :math:`L = \lim s\,r` (Gruntz's limit, the one the
ratio test used).

* :math:`j = 1`: :math:`g` is monotone.
* :math:`0 < L` (:math:`g \to \log L` finite): :math:`g^{(j-1)}` is monotone, hence of one
  sign from some point on, and so is every lower derivative; a function with a finite limit
  and a monotone derivative has that derivative tend to 0, so
  :math:`g', \dots, g^{(j-1)} \to 0`, each strictly monotone on :math:`[P, \infty)`, and
  :math:`\operatorname{sign} g^{(i)} = -\operatorname{sign} g^{(i+1)}` there:
  :math:`\operatorname{sign} g' = (-1)^{j-1} \operatorname{sign} g^{(j)}`.
* :math:`L = 0` (:math:`g \to -\infty`), :math:`j = 2`, :math:`g'' > 0`: :math:`g'`
  increases to a limit :math:`\ell \le 0` (:math:`\ell > 0` would send :math:`g` to
  :math:`+\infty`), so :math:`g' < 0`.

A decreasing :math:`s\,r` is at most :math:`s\,r(P)` (a ball at the integer :math:`P`), an
increasing one below :math:`L`; ``q`` is that bound rounded up to a multiple of
:math:`2^{-20}`, and must be below 1.  Where the ratio as a whole is not proved monotone
(``exp(-sqrt(n))*factorial(n)/n**n``), :func:`factorwise_ratio_bound` bounds the ratios of
the term's factors one by one and multiplies the bounds.

>>> from theory.series.expressions import parse_expression as P
>>> q, start, s, note = monotone_ratio_bound(P("n**n/(n + 1)**n"), 1)   # r(1) = 1/2, -> 1/e
>>> q * 2**20, start, s                   # 1/2 rounded up on the grid (r(1) is a ball)
(524289, 1, 1)
"""

from __future__ import annotations

import math

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import (
    NotCertified,
    NotSupported,
    Undecided,
    arb_function,
    ball_precision,
)
from theory.series.comparison_tests import GAMMA_LIKE, term_ratio
from theory.series.eventual_signs import derivative_sign
from theory.series.expressions import N
from theory.series.limits import limit_at_infinity

MAX_ORDER = 4  # derivatives of log|r| tried
MAX_START_LOG2 = 12  # P is searched among n0, 2 n0, ... up to 2^12 (the head is summed to P)
GRID = 2**20  # q is a multiple of 1/GRID
#: CPU seconds for each derivative of log r (factored; about 0.3 s for the moving powers of
#: (1 + 1/n)**(n**2), several times that in a large test process)
DERIVATIVE_SECONDS = 2.0


def log_ratio(ratio: sp.Expr) -> tuple[int, sp.Expr, list[sp.Expr]]:
    """(s, g, bases): r = s e^g wherever every base is positive (module doc)."""
    s, g, bases = 1, sp.Integer(0), []
    for f in sp.Mul.make_args(ratio):
        if not f.has(N):
            if f.is_extended_real is not True or f.is_zero is not False:
                raise NotCertified(f"the term ratio's constant factor {f} is not a nonzero real")
            if f.is_negative:
                s, f = -s, -f
            g += sp.log(f)
        elif isinstance(f, sp.exp):
            g += f.args[0]
        elif isinstance(f, sp.Pow) and not f.base.has(N):
            if f.base.is_positive is not True:
                raise NotCertified(f"the base of {f} is not a positive constant")
            g += f.exp * sp.log(f.base)
        else:
            base, e = (f.base, f.exp) if isinstance(f, sp.Pow) else (f, sp.Integer(1))
            bases.append(base)
            g += e * sp.log(base)
    if not g.has(N) or g.has(sp.I) or any(x.has(sp.I) for x in bases):
        raise NotCertified(f"the term ratio {ratio} is not a real function of n")
    return s, g, bases


def _derivatives(g: sp.Expr) -> list[sp.Expr]:
    """g', g'', ... (each factored), as far as sympy manages within its budget."""
    out, d = [], g
    try:
        for _ in range(MAX_ORDER):
            with step_budget(DERIVATIVE_SECONDS):
                d = sp.factor(sp.together(sp.diff(d, N)))
            out.append(d)
    except (StepTimeout, RecursionError, ValueError, TypeError, sp.PolynomialError):
        pass
    return out


def _direction(derivs: list[sp.Expr], P: int, limit_positive: bool) -> tuple[int, str] | None:
    """(+1/-1, how): g increases/decreases strictly on [P, oo) (module doc), else None."""
    for j, d in enumerate(derivs, start=1):
        sign = derivative_sign(d, P)
        if sign is None:
            continue
        how = f"g^({j}) = {d} is {'>' if sign > 0 else '<'} 0 on [{P}, oo)"
        if j == 1:
            return sign, how
        if limit_positive:
            return (-1) ** (j - 1) * sign, how + f", g^(1..{j - 1}) -> 0"
        if j == 2 and sign > 0:
            return -1, how + ", g -> -oo"
        return None
    return None


@ball_precision
def _ball(expr: sp.Expr, x: int) -> arb:
    try:
        v = arb_function(expr)(arb(int(x)))
    except (NotSupported, Undecided, ArithmeticError, ValueError, TypeError) as exc:
        raise NotCertified(f"{expr} at n = {x}: {exc}") from None
    if not v.is_finite():
        raise NotCertified(f"{expr} at n = {x} is not finite in ball arithmetic")
    return v


def _grid_above(v: arb) -> sp.Rational:
    """The least multiple of 1/GRID at or above the ball's upper end."""
    up = v.upper()  # an exact binary number
    k = math.ceil(float(up * GRID))
    while not arb(k) / GRID >= up:
        k += 1
    return sp.Rational(k, GRID)


def _prepared(ratio: sp.Expr) -> tuple:
    """(s, g, bases, L, L as a ball, derivatives of g) of a ratio (module doc), or
    NotCertified when it has no finite limit >= 0."""
    s, g, bases = log_ratio(ratio)
    L = _ratio_limit(s, g, ratio)
    if L is None or not L.is_number or L.is_extended_real is not True or not L.is_finite:
        raise NotCertified(f"no finite limit of the term ratio {ratio}")
    Lball = _ball(L, 0)
    if not Lball >= 0:
        raise NotCertified(f"the term ratio tends to {L}, not to a limit >= 0")
    return s, g, bases, L, Lball, _derivatives(g)


def _ratio_limit(s: int, g: sp.Expr, ratio: sp.Expr) -> sp.Expr | None:
    """lim s r = exp(lim g) (s r = e^g exactly; exp is continuous on [-oo, oo]), the logs
    expanded: Gruntz is several times faster on a sum of logs than on the product of moving
    powers ((1 + 1/n)**(n**2)/3**n: 0.13 s against 0.86 s); the ratio itself where that
    limit fails."""
    lg = limit_at_infinity(sp.expand(sp.expand_log(g, force=True)))
    if lg is not None and lg.is_number and lg.is_extended_real is True:
        return sp.Integer(0) if lg is -sp.oo else sp.exp(lg)
    return limit_at_infinity(s * ratio)


def _monotone_sup(ratio: sp.Expr, prep: tuple, P: int) -> tuple[arb, str] | None:
    """(sup, how): 0 < s r(n) <= sup for every real n >= P, from the monotonicity of g
    (module doc), or None where it is not proved from P on."""
    s, g, bases, L, Lball, derivs = prep
    if not all(derivative_sign(base, P) == 1 for base in bases):
        return None
    found = _direction(derivs, P, limit_positive=bool(Lball > 0))
    if found is None:
        return None
    direction, how = found
    if direction < 0:
        return _ball(s * ratio, P), f"g = {g}: {how}, so g decreases and s r(n) <= s r({P})"
    return Lball, f"g = {g}: {how}, so g increases and s r(n) < lim s r = {L}"


def monotone_ratio_bound(ratio: sp.Expr, n0: int) -> tuple[sp.Rational, int, int, str]:
    """(q, P, s, how): 0 < s r(n) <= q < 1 proved for every real n >= P >= n0 (module doc)."""
    prep = _prepared(ratio)
    s, L, Lball = prep[0], prep[3], prep[4]
    if not Lball < 1:
        raise NotCertified(f"the term ratio tends to {L}, not to a limit in [0, 1)")
    P = max(int(n0), 1)
    while P.bit_length() <= MAX_START_LOG2 + 1:
        found = _monotone_sup(ratio, prep, P)
        if found is not None:
            q = _grid_above(found[0])
            if q < 1:
                note = (
                    f"s r = e^g, {found[1]} "
                    f"(s = {s}; every base of a power proved > 0 on [{P}, oo))"
                )
                return q, P, s, note
        P *= 2
    raise NotCertified(f"the term ratio {ratio} is not proved monotone below 1 (n <= 2^12)")


def _factor_sup(psi: sp.Expr, d2: sp.Expr, L: sp.Expr | None, P: int) -> tuple[arb, str] | None:
    r"""(sup, how): :math:`0 < \psi(n+1)/\psi(n) \le` sup for every real n >= P, from the sign
    of :math:`(\log\psi)''` on :math:`[P, \infty)` (:func:`factorwise_ratio_bound`)."""
    if derivative_sign(psi, P) != 1:
        return None
    step = psi.subs(N, N + 1) / psi
    if d2 == 0:  # psi = e^(a + c n): a constant ratio
        return _ball(step, P), f"{psi}: constant ratio"
    sign = derivative_sign(d2, P)
    if sign is not None and sign < 0:
        return _ball(step, P), f"{psi}: (log)'' = {d2} < 0 on [{P}, oo), ratio <= its value at {P}"
    if sign is not None and sign > 0 and L is not None:
        return _ball(L, 0), f"{psi}: (log)'' = {d2} > 0 on [{P}, oo), ratio < its limit {L}"
    return None


def factorwise_ratio_bound(b: sp.Expr, n0: int) -> tuple[sp.Rational, int, int, str]:
    r"""(q, P, s, how): :math:`0 < s\,b_{n+1}/b_n \le q < 1` for every n >= P, the ratio's
    factors bounded one by one where the ratio as a whole is not proved monotone
    (``exp(-sqrt(n))*factorial(n)/n**n``, ``log(n)*factorial(n)/n**n``).

    :math:`b_n = G_n \prod_i \psi_i(n)` with G the factorial-like part (gamma functions,
    powers of polynomials, constants: its ratio bounded by :func:`_monotone_sup`) and every
    other factor :math:`\psi_i > 0` on :math:`[P, \infty)`.  Since
    :math:`\log(\psi(n+1)/\psi(n)) = \int_n^{n+1} (\log\psi)'`, its derivative is
    :math:`\int_n^{n+1} (\log\psi)''`: a sign of :math:`(\log\psi)''` proved on
    :math:`[P, \infty)` makes the factor's ratio decrease (bounded by its value at P:
    ``log(n + 1)/log(n)``) or increase (bounded by its limit: ``exp(sqrt(n) - sqrt(n + 1))``
    below 1).  The bound q is the product of the factors' bounds, rounded up on the grid.

    >>> from theory.series.expressions import parse_expression as P
    >>> q, start, s, how = factorwise_ratio_bound(P("log(n)*factorial(n)/n**n"), 1)
    >>> start, s, float(q) < 0.71                   # (2/3)^2 log(3)/log(2) = 0.7044...
    (2, 1, True)
    """
    try:
        return _factorwise(b, n0, apart=False)
    except NotCertified as exc:
        if not any(_varying(f) for f in sp.Mul.make_args(b)):
            raise
        try:
            return _factorwise(b, n0, apart=True)
        except NotCertified as exc2:
            raise NotCertified(f"{exc}; with the varying powers apart: {exc2}") from None


def _varying(f: sp.Expr) -> bool:
    """A power p(n)^e(n) of a polynomial base with an exponent depending on n (n**log(n))."""
    return isinstance(f, sp.Pow) and f.exp.has(N) and f.base.is_polynomial(N) and f.base.has(N)


def _factorwise(b: sp.Expr, n0: int, apart: bool) -> tuple[sp.Rational, int, int, str]:
    """:func:`factorwise_ratio_bound` with powers of polynomials in the factorial-like part
    (n**n beside factorial(n)), or with ``apart`` those whose exponent depends on n bounded
    as factors of their own (n**log(n) beside factorial(n): its ratio tends to 1)."""
    main, others = [], []
    for f in sp.Mul.make_args(b):
        base = f.base if isinstance(f, sp.Pow) else f
        if apart and _varying(f):
            others.append(f)
        elif not f.has(N) or f.has(*GAMMA_LIKE) or base.is_polynomial(N) or not base.has(N):
            main.append(f)
        else:
            others.append(f)
    if not others:
        raise NotCertified("no factor to bound apart from the factorial-like part")
    G = sp.Mul(*main)
    if not G.has(N):  # a constant factor: its ratio is 1 (the sign of b is fixed)
        raise NotCertified("no factorial-like part: the term ratio needs no factorwise bound")
    ratio = term_ratio(G) if G.has(*GAMMA_LIKE) else sp.powsimp(G.subs(N, N + 1) / G)
    if ratio is None:
        raise NotCertified(f"the term ratio of {G} does not simplify")
    prep = _prepared(ratio)
    pieces, bases = [], []
    for psi in others:
        if isinstance(psi, sp.Pow) and psi.exp.has(N):  # p^e = e^(e log p) where p > 0
            bases.append(psi.base)
            psi = sp.exp(psi.exp * sp.log(psi.base))
        with step_budget(1.0):
            d2 = sp.factor(sp.together(sp.diff(sp.expand_log(sp.log(psi), force=True), N, 2)))
        step = psi.subs(N, N + 1) / psi
        L = limit_at_infinity(step)
        ok = L is not None and L.is_number and L.is_finite and L.is_extended_real is True
        pieces.append((psi, d2, L if ok else None))
    limit = prep[4]
    for _psi, _d2, L in pieces:
        limit *= _ball(L, 0) if L is not None else arb(0)
    if not limit < 1 and all(L is not None for _psi, _d2, L in pieces):
        raise NotCertified(f"the term ratio of {b} tends to {limit.str(5)}, not below 1")
    P = max(int(n0), 1)
    while P.bit_length() <= MAX_START_LOG2 + 1:
        found = [_monotone_sup(ratio, prep, P)]
        found += [_factor_sup(psi, d2, L, P) for psi, d2, L in pieces]
        found += [None for p in bases if derivative_sign(p, P) != 1]  # the bases of p^e
        if all(x is not None for x in found):
            sup = arb(1)
            for x, _how in found:
                sup *= x
            q = _grid_above(sup)
            if q < 1:
                hows = "; ".join(h for _x, h in found)
                note = f"the ratio's factors bounded one by one on [{P}, oo): {hows}"
                return q, P, prep[0], note
        P *= 2
    raise NotCertified(f"the factors of {b} are not proved to have ratios with product below 1")
