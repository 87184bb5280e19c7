r"""What is certified when B has no enclosure: a lower bound on B, and bounds on the TRF.

**Nonnegative terms.**  When every term is proved :math:`\ge 0`, each partial sum is a
lower bound on :math:`B`:

.. math::
   B \ge S_M = \sum_{k<M} b_{s+k}, \qquad
   \mathrm{TRF}(\epsilon) > j \ \text{ whenever } \ S_j \le S_M (1-\epsilon)

(RPE paper Eq. 22: the partial sums increase, and :math:`S_j \le S_M(1-\epsilon) \le
B(1-\epsilon)` means :math:`j` terms are not enough).  :math:`S_j` is summed in ball
arithmetic, so both statements are guaranteed; :math:`B` is printed as ``[S_M, unknown]``.

**Terms of both signs.**  The TRF is defined by the tail (``docs/conventions.md``):
:math:`\mathrm{TRF}(\epsilon) = \min\{j : |R_k| < \epsilon |B| \text{ for every } k \ge j\}`,
:math:`R_k = \sum_{i \ge k} b_{s+i}`.  A certified enclosure of :math:`B` and of the partial sums
proves :math:`|R_j| \ge \epsilon |B|` at single :math:`j`, hence the lower bound
:math:`\mathrm{TRF}(\epsilon) > j`; the exact value needs :math:`|R_k|` bounded for every
:math:`k \ge j`, which :func:`trf_from_tail_bound` takes from a tail engine that proves such a
bound (otherwise the value is not given).

>>> from theory.series.expressions import parse_expression as P
>>> terms_nonnegative(P("Abs(sin(n))/n"), 1), terms_nonnegative(P("sin(n)/sqrt(n)"), 1)
(True, False)
>>> lb = partial_sum_bounds(P("1/n**2"), 1, None, [0.1], max_terms=100)
>>> float(lb.lower), lb.terms, lb.trf_lower               # S_100 = 1.6349...; TRF(0.1) = 6
(1.634983900184893, 100, [6])
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import mpmath
import sympy as sp
from flint import arb

if TYPE_CHECKING:
    from theory.series.enclosure import CertifiedTail
    from theory.series.oscillating import DirichletTail
    from theory.series.rpe_library import BiasHead

from theory.core.budget import StepTimeout, cache_answers, step_budget
from theory.series.arb_eval import (
    NotSupported,
    Undecided,
    arb_function,
    ball_precision,
)
from theory.series.cancellation import without_cancellation
from theory.series.enclosure import arb_bounds
from theory.series.exp_atom_tail import exp_atom_nonneg
from theory.series.expressions import N
from theory.series.inverse_power_tail import expansion_nonneg
from theory.series.log_monomial_signs import log_monomial_sign
from theory.series.periodic import residue_classes

_NI = sp.Symbol("n", integer=True, positive=True)


def terms_nonnegative(b: sp.Expr, n0: int, check: int = 64) -> bool:
    """b_n >= 0 proved for every integer n >= n0: structurally (sympy's assumptions with n a
    positive integer, or every sin/cos replaced by the ball [-1, 1]) and, for the first
    ``check`` terms (n = 0 is not positive), in ball arithmetic; else, for an entire
    function of 1/n, by its expansion with Cauchy's remainder bound
    (:func:`theory.series.inverse_power_tail.expansion_nonneg`); else for b written
    without its cancellation (:func:`theory.series.cancellation.without_cancellation`:
    ``sqrt(n**4 + 1) - n**2 = 1/(n**2 + sqrt(n**4 + 1))``, an identity from n = 1 on); else a
    product factor by factor."""
    if _terms_nonnegative(b, n0, check):
        return True
    if isinstance(b, sp.Mul) and _product_nonnegative(b, n0, check):
        return True
    r = without_cancellation(b) if n0 >= 1 else None
    return r is not None and _terms_nonnegative(r[0], n0, check)


def _product_nonnegative(b: sp.Expr, n0: int, check: int) -> bool:
    """A product, factor by factor; a negative coefficient paired with the first factor
    proved nonpositive (``ceiling(n/5)*sin(1/n**3)`` is ``-floor(-n/5)*sin(n**-3)``)."""
    c, rest = b.as_coeff_Mul()
    factors = list(sp.Mul.make_args(rest))
    if c < 0:
        flip = next((i for i, f in enumerate(factors) if _terms_nonnegative(-f, n0, check)), None)
        if flip is None:
            return False
        factors[flip] = -factors[flip]
    return all(
        terms_nonnegative(f, n0, check) if f.has(N) else f.is_nonnegative is True
        for f in factors  # a constant factor too: (1 - pi)*floor(n/5)*sin(1/n**3) < 0
    )


def _terms_nonnegative(b: sp.Expr, n0: int, check: int) -> bool:
    """:func:`terms_nonnegative` on b as it is written."""
    try:
        b = sp.sympify(b)
        shifted = b.subs(N, _NI + (n0 - 1)) if n0 >= 1 else b.subs(N, _NI)
        structural = (
            shifted.is_nonnegative is True
            or _bounded_nonneg(b)
            or _rational_nonneg(b, n0)
            or _log_rational_nonneg(b, n0)
        )
        first = 1
        if not structural and b.has(sp.log):  # log(log(n))/(n (log(n)**2 - 1)), n >= 3
            sign = log_monomial_sign(b, n0)
            if sign is not None and sign[0] > 0:
                first, structural = sign[1], True
        if not structural:  # class by class: (n - 2*floor(n/2))/n**2 is 0 or 1/n**2
            first, structural = _classes_nonneg(b)
        if not structural and b.has(sp.sin, sp.cos):  # 1/(n**2 + sin(n)): n >= n1, s >= -1
            n1 = max(n0, 1) + check
            first, structural = (n1, True) if _trig_shift_nonneg(b, n1) else (first, False)
        if not structural:  # cosh(1/n) - 1, 1/(2n) - log(1 + 1/(2n)): convex in 1/n
            n1 = max(n0, 1) + check
            first, structural = (n1, True) if _convex_in_inverse(b, n1) else (first, False)
        if not structural and b.has(sp.exp, sp.sinh):  # n/(exp(2*pi*n) - 1)
            n1 = max(n0, 1) + check
            first, structural = (n1, True) if _increasing_shift_nonneg(b, n1) else (first, False)
        if not structural and n0 >= 1 and _exp_ratio_nonneg(b, n0):  # 1/(3**n - 2**n)
            first, structural = n0, True
    except (TypeError, ValueError, RecursionError):
        return False
    if structural:
        try:
            f = arb_function(b)
            if all(f(arb(n)) >= 0 for n in range(n0, max(n0 + check, first)) if n < first):
                return True
        except (NotSupported, Undecided, ArithmeticError, ValueError):
            pass
    # 1 - n*sin(1/n): an entire function of 1/n, by its expansion; exp(exp(-n)) - 1 and
    # 1 - cos(exp(-n)) (whose first terms' balls span 0): a function of e^(-n), by its own
    return expansion_nonneg(b, n0) or exp_atom_nonneg(b, n0)


def _trig_shift_nonneg(b: sp.Expr, n1: int) -> bool:
    """b >= 0 for every real n >= n1 and every value of its sin/cos atoms in [-1, 1],
    proved by sympy's sign rules on a superset: n = n1 + m and each atom s = -1 + u (or
    each s = 1 - u) with m, u >= 0 free (``1/(n**2 + sin(n))``: 1/((n1 + m)^2 - 1 + u))."""
    atoms = sorted(b.atoms(sp.sin, sp.cos), key=str)
    if not atoms:
        return False
    m = sp.Dummy("m", nonnegative=True)
    for sign in (1, -1):
        shift = {a: sp.Integer(-sign) + sign * sp.Dummy("u", nonnegative=True) for a in atoms}
        e = b.xreplace(shift)
        if e.has(sp.sin, sp.cos):  # an atom inside another one's argument
            return False
        e = e.subs(N, n1 + m)
        if e.is_nonnegative is True:
            return True
        try:
            with step_budget(1.0):  # (65 + m)**2 - 1 + u: positive once expanded
                if sp.expand(e).is_nonnegative is True:
                    return True
            with step_budget(1.0):  # (1 + (u - 1)/(65 + m)): over one denominator
                if sp.factor_terms(sp.together(e)).is_nonnegative is True:
                    return True
        except StepTimeout:
            pass
    return False


_NONSMOOTH = (sp.floor, sp.ceiling, sp.Piecewise, sp.Abs, sp.Min, sp.Max, sp.sign)


#: increasing functions on the whole real line: F(a(n)) >= F(a(n1)) wherever a(n) >= a(n1)
_INCREASING = (sp.exp, sp.sinh, sp.tanh, sp.atan)


def _exp_ratio_nonneg(b: sp.Expr, n0: int) -> bool:
    r"""b >= 0 for every n >= n0 >= 1, proved by sympy's sign rules on a superset: every
    exponential :math:`a^{cn} = e^{rn}` (a > 0, c real) is written with the fastest
    rate :math:`r_{\max}`, as :math:`P` where :math:`r = r_{\max}` and as
    :math:`P/(1 + w)` where :math:`r < r_{\max}` (so :math:`w = e^{(r_{\max} - r)n} - 1 > 0`
    at n >= 1), with :math:`P, w > 0` free and n = n0 + m elsewhere:

    .. math::
       \frac{1}{3^n - 2^n} \;\to\; \frac{1}{P - P/(1 + w)} = \frac{1 + w}{P w} > 0.

    >>> from theory.series.expressions import parse_expression as P
    >>> _exp_ratio_nonneg(P("1/(3**n - 2**n)"), 1), _exp_ratio_nonneg(P("1/(2**n - 3**n)"), 1)
    (True, False)
    """
    rates = {}
    for e in b.atoms(sp.Pow, sp.exp):
        if isinstance(e, sp.exp):
            base, ex = sp.E, e.args[0]
        elif e.base.is_number and e.base.is_positive and e.exp.has(N):
            base, ex = e.base, e.exp
        else:
            continue
        c = sp.expand(ex).coeff(N)
        if not (c.is_number and c.is_real and sp.expand(ex - c * N) == 0):
            return False  # an exponent that is not c n: not this rule
        rates[e] = c * sp.log(base)
    if len(rates) < 2:
        return False
    top = max(rates.values(), key=lambda r: float(r))
    gaps = {e: sp.expand_log(top - r, force=True) for e, r in rates.items()}
    if any(g.is_zero is not True and g.is_positive is not True for g in gaps.values()):
        return False  # equal or slower not decided exactly
    P, m = sp.Dummy("P", positive=True), sp.Dummy("m", nonnegative=True)
    shift = {e: P if g.is_zero else P / (1 + sp.Dummy("w", positive=True)) for e, g in gaps.items()}
    e = b.xreplace(shift)
    if e.has(sp.exp) or any(p.exp.has(N) for p in e.atoms(sp.Pow)):
        return False
    e = e.subs(N, n0 + m)
    try:
        with step_budget(1.0):
            return (
                e.is_nonnegative is True or sp.factor_terms(sp.together(e)).is_nonnegative is True
            )
    except StepTimeout:
        return False


def _increasing_shift_nonneg(b: sp.Expr, n1: int) -> bool:
    r"""b >= 0 for every real n >= n1, proved by sympy's sign rules on a superset: each atom
    F(a) with F increasing (exp, sinh, tanh, atan) and a(n1 + m) >= a(n1) for m >= 0 is
    replaced by F(a(n1)) + u, one with a(n1 + m) <= a(n1) by F(a(n1)) - u, u >= 0 free, and
    n by n1 + m:

    .. math::
       \frac{n}{e^{2\pi n} - 1} \;\to\; \frac{n_1 + m}{e^{2\pi n_1} - 1 + u} \ge 0, \qquad
       \sinh(\pi n)^{-2} \;\to\;
       \left(\tfrac{e^{\pi n_1} - e^{-\pi n_1}}{2} + \tfrac{u + v}{2}\right)^{-2} \ge 0.

    >>> from theory.series.expressions import parse_expression as P
    >>> f = _increasing_shift_nonneg
    >>> f(P("n/(exp(2*pi*n) - 1)"), 65), f(P("1/(exp(n/100) - 3/2)"), 1)
    (True, False)
    >>> f(P("1/sinh(pi*n)**2"), 65), f(P("1/(exp(-n/100) - 1/2)"), 1)
    (True, False)
    """
    m = sp.Dummy("m", nonnegative=True)
    up, down, low = {}, {}, {}  # atoms of increasing and of decreasing argument
    positive_arg = set()  # decreasing atoms whose argument stays >= 0
    for atom in sorted(b.atoms(*_INCREASING), key=str):
        a = atom.args[0]
        if not a.has(N):
            continue
        a1 = a.subs(N, n1)
        if a1.has(*_INCREASING):
            continue
        step = sp.expand(a.subs(N, n1 + m) - a1)
        if step.is_nonnegative is None and step.is_nonpositive is None:
            step = sp.together(step)  # 2/(n1 + m) - 2/n1 = -2 m/(n1 (n1 + m))
        if step.is_nonnegative is True:
            up[atom] = atom.func(a1) + sp.Dummy("u", nonnegative=True)
        elif step.is_nonpositive is True:  # a decreasing argument: F(a(n)) <= F(a(n1))
            down[atom] = atom.func(a1) - sp.Dummy("u", nonnegative=True)
            # and F(a(n)) >= F(0) where a >= 0 (exp(2/n) >= 1, tanh(1/n) >= 0), exp > 0
            if a.subs(N, n1 + m).is_nonnegative is True:
                low[atom] = atom.func(0) + sp.Dummy("u", nonnegative=True)
                positive_arg.add(atom)
            elif atom.func is sp.exp:
                low[atom] = sp.Dummy("u", nonnegative=True)
    # the decreasing atoms as they are (sympy's own sign rules), each bounded from below
    # (tanh(1/n) >= 0), from above (exp(-pi*n) <= exp(-pi*n1) in sinh(pi*n)), or from below
    # where its argument is >= 0 and from above elsewhere (atan(1/n)/(exp(n) - exp(-n)))
    mixed = {x: low[x] if x in positive_arg else v for x, v in down.items()}
    tries = [up] + ([{**up, **low}, {**up, **down}, {**up, **mixed}] if down else [])
    return any(shift and _shift_nonneg(b, shift, n1, m) for shift in tries)


def _shift_nonneg(b: sp.Expr, shift: dict, n1: int, m: sp.Dummy) -> bool:
    """The superset of :func:`_increasing_shift_nonneg` proved >= 0 by sympy's sign rules."""
    e = b.xreplace(shift).subs(N, n1 + m)
    if e.is_nonnegative is True or _signed_constants(e).is_nonnegative is True:
        return True
    try:
        with step_budget(1.0):
            return sp.together(e).is_nonnegative is True
    except StepTimeout:
        return False


def _signed_constants(e: sp.Expr) -> sp.Expr:
    """e with the constant part c of every sum (e^(65 pi)/2 - e^(-65 pi)/2) replaced by a free
    positive symbol, or its negative, by the sign of c (sympy's sign of a number, evaluated
    with error control): a superset of the values, on which the sign rules can decide."""

    def group(a):
        const = sp.Add(*[t for t in a.args if not t.free_symbols])
        if const == 0 or len(a.args) < 2:
            return a
        sign = 1 if const.is_positive is True else (-1 if const.is_negative is True else 0)
        if sign == 0:
            return a
        rest = sp.Add(*[t for t in a.args if t.free_symbols])
        return rest + sign * sp.Dummy("c", positive=True)

    try:
        with step_budget(1.0):
            return e.replace(lambda a: isinstance(a, sp.Add) and a.free_symbols, group)
    except StepTimeout:
        return e


def _convex_in_inverse(b: sp.Expr, n1: int) -> bool:
    """b_n = F(1/n) >= 0 for every real n >= n1, from F(0) >= 0, F'(0) >= 0 and F'' >= 0 on
    [0, 1/n1], all in ball arithmetic (Taylor's theorem with the integral remainder:
    F(t) = F(0) + F'(0) t + int_0^t (t - s) F''(s) ds); F smooth there (no floor, Abs,
    Max/Min, Piecewise).  cosh(1/n) - 1 has F'' = cosh(t) >= 1, u - log(1 + u) with
    u = 1/(2n) has F'' = 1/(4 (1 + t/2)^2)."""
    if b.has(*_NONSMOOTH):
        return False
    t = sp.Dummy("t", positive=True)
    try:
        with step_budget(1.0):
            F = b.subs(N, 1 / t)
            F1 = sp.diff(F, t)
            F2 = sp.diff(F1, t)
        zero, box = arb(0), arb(0).union(arb(1) / n1)
        values = [arb_function(e.subs(t, N))(x) for e, x in ((F, zero), (F1, zero), (F2, box))]
    except (NotSupported, Undecided, ArithmeticError, ValueError, TypeError, StepTimeout):
        return False
    return all(v.is_finite() and v >= 0 for v in values)


def _log_rational_nonneg(b: sp.Expr, n0: int) -> bool:
    """b a product of factors each >= 0 at the integers n >= n0, at least one of them
    log(R) with R rational in n: log(R) >= 0 iff R - 1 >= 0, proved by
    :func:`_rational_nonneg` (``log((n+1)**2/(n*(n+2)))``: R - 1 = 1/(n (n + 2)))."""
    factors = sp.Mul.make_args(b)
    logs = [f for f in factors if isinstance(f, sp.log) and f.args[0].is_rational_function(N)]
    if not logs or not all(_rational_nonneg(sp.cancel(f.args[0] - 1), n0) for f in logs):
        return False
    rest = [f for f in factors if f not in logs]
    return all(f.subs(N, _NI + max(n0, 1) - 1).is_nonnegative is True for f in rest)


def _classes_nonneg(b: sp.Expr) -> tuple[int, bool]:
    """(L, True) when b_(L m + r) >= 0 is proved structurally for every residue class r and
    every integer m >= 1 (:func:`theory.series.periodic.residue_classes`), so b_n >= 0 for
    every n >= L; the caller checks the terms below L in ball arithmetic."""
    split = residue_classes(b)
    if split is None:
        return 1, False
    L, classes = split
    ok = all(
        c.subs(N, _NI).is_nonnegative is True or _bounded_nonneg(c) or _rational_nonneg(c, 1)
        for c in classes
    )
    return L, ok


#: largest root bound for which :func:`_rational_nonneg` checks the integers below it
RATIONAL_CHECK_UP_TO = 4096


def _rational_nonneg(b: sp.Expr, n0: int) -> bool:
    """b = P(n)/Q(n) >= 0 at every integer n >= n0 (P, Q polynomials with rational
    coefficients): every real root of P Q is below Cauchy's bound R = 1 + max |c_i/c_lead|,
    so beyond R the sign of P Q is that of its leading coefficient; the integers n0..R are
    checked exactly (``binomial(n, 3)/n**5`` is 0 at n = 1, 2 and positive beyond)."""
    if not b.has(N) or not b.is_rational_function(N):
        return False
    num, den = sp.fraction(sp.cancel(sp.together(b)))
    try:
        pq = sp.Poly(sp.expand(num * den), N)
    except sp.PolynomialError:
        return False
    coeffs = pq.all_coeffs()
    if not all(c.is_Rational for c in coeffs) or coeffs[0] <= 0:
        return False
    R = 1 + max((abs(c / coeffs[0]) for c in coeffs[1:]), default=0)
    if R > RATIONAL_CHECK_UP_TO:
        return False
    top = int(sp.floor(R)) + 1
    den_poly = sp.Poly(den, N)
    return all(
        den_poly.eval(k) != 0 and pq.eval(k) >= 0 for k in range(max(n0, 0), max(n0, top) + 1)
    )


def _bounded_nonneg(b: sp.Expr) -> bool:
    """b >= 0 where n enters only through sin/cos (each in [-1, 1]) and positive factors."""
    unit = arb(-1).union(arb(1))
    trig = {a: sp.Dummy() for a in b.atoms(sp.sin, sp.cos)}
    e = b.xreplace(trig)
    if e.has(N):
        factors = sp.Mul.make_args(sp.factor_terms(e))
        rest = [f for f in factors if f.has(N)]
        if not all(f.subs(N, _NI).is_positive is True and not f.has(*trig.values()) for f in rest):
            return False
        e = sp.Mul(*[f for f in factors if not f.has(N)])
    try:
        v = _arb_with(e, {d: unit for d in trig.values()})
    except (NotSupported, Undecided, ArithmeticError, ValueError, TypeError):
        return False
    return bool(v >= 0)


def _arb_with(e: sp.Expr, balls: dict) -> arb:
    """Evaluate a constant expression with some symbols standing for balls."""
    if e in balls:
        return balls[e]
    if e.is_Number or not e.free_symbols:
        return arb_function(e)(arb(0))
    args = [_arb_with(a, balls) for a in e.args]
    if isinstance(e, sp.Add):
        return sum(args[1:], args[0])
    if isinstance(e, sp.Mul):
        out = args[0]
        for a in args[1:]:
            out = out * a
        return out
    if isinstance(e, sp.Pow) and e.exp.is_Integer and e.exp >= 0:
        return args[0] ** int(e.exp)
    if isinstance(e, sp.Abs):
        return abs(args[0])
    raise NotSupported(str(type(e).__name__))


@dataclass
class PartialSumBounds:
    """B >= ``lower`` (= S_M, M = ``terms``) and TRF(eps) >= ``trf_lower[i]``."""

    lower: mpmath.mpf
    terms: int
    trf_lower: list


@ball_precision
def partial_sum_bounds(
    b: sp.Expr,
    start: int,
    head: BiasHead | None,
    eps_list: Sequence[float],
    max_terms: int = 20000,
    stop_at: float | None = None,
) -> PartialSumBounds:
    """The certified statements for nonnegative terms (see the module docstring); the caller
    has proved the terms nonnegative.  Stops after ``max_terms`` terms (a step count) or,
    for a command's time limit, at ``time.monotonic() >= stop_at``."""
    f = arb_function(b)
    L = 0 if head is None else len(head)
    partial, sums = arb(0), []
    for k in range(max_terms):
        if stop_at is not None and k % 256 == 255 and time.monotonic() >= stop_at:
            break
        v = head.arb(k) if k < L else f(arb(start + k))
        if not v.is_finite():
            break
        partial += v
        sums.append(partial)
    if not sums:
        raise ArithmeticError("no term could be enclosed")
    total = sums[-1]
    lows = []
    for e in eps_list:
        q = sp.Rational(repr(e))
        target = total.lower() * (1 - arb(int(q.p)) / arb(int(q.q)))
        j = 0  # S_j <= target for j = 0, ..., found by bisection (S_j increases)
        lo, hi = 0, len(sums)
        while lo < hi:
            mid = (lo + hi) // 2
            if sums[mid].upper() <= target:
                lo = mid + 1
            else:
                hi = mid
        j = lo  # S_1..S_j are <= target (sums[i] is S_(i+1))
        lows.append(j + 1)
    return PartialSumBounds(arb_bounds(total)[0], len(sums), lows)


def nonnegative_from(b: sp.Expr, n0: int, limit: int = 4096) -> int | None:
    """An index m >= n0 with b_n >= 0 proved for every n >= m (b shifted, then the
    structural proof of :func:`terms_nonnegative`), or None (remembered: the TRF of each
    eps asks the same question)."""
    return _nonnegative_from(sp.sympify(b), int(n0), int(limit))


@cache_answers(64)
def _nonnegative_from(b: sp.Expr, n0: int, limit: int) -> int | None:
    m = n0
    while m <= limit:
        try:
            shifted = sp.sympify(b).subs(N, _NI + (m - 1))
            if shifted.is_nonnegative is True or terms_nonnegative(b, m, check=0):
                return m
        except (TypeError, ValueError, RecursionError):
            return None
        m = 2 * m + 1
    return None


@ball_precision
def signed_trf(
    cert: CertifiedTail,
    b: sp.Expr,
    start: int,
    head: BiasHead | None,
    eps: float,
    window: int = 4096,
) -> tuple[int, bool]:
    """(TRF, exact) by the tail rule.  ``exact``: a bound on every later tail
    (:func:`trf_from_tail_bound`) settles it, or the terms are >= 0 from some index m on
    (so the tails decrease from there), R_j < eps |B| is proved at some j >= m inside the
    window, and every |R_i| between the last i with |R_i| >= eps |B| and j is proved below
    it.  Otherwise (False) the value is 1 + the largest i < window with |R_i| >= eps |B|."""
    L = 0 if head is None else len(head)
    B = sum(head.arb_list() if L else [], arb(0)) + cert.tail(cert.n0)
    q = sp.Rational(repr(eps))
    target = abs(B) * arb(int(q.p)) / arb(int(q.q))
    if hasattr(cert, "tail_sup"):
        found = trf_from_tail_bound(cert, start, head, target)
        if found is not None:
            return found
    m = nonnegative_from(b, start + L)
    m = None if m is None else m - start
    best, partial, unsure = 0, arb(0), False
    for j in range(window):
        R = B - partial
        if abs(R) >= target:
            best, unsure = j, False
        elif not abs(R) < target:
            unsure = True
        elif m is not None and j >= m and not unsure:
            return best + 1, True
        partial += head.arb(j) if j < L else cert.term(start + j)
    return best + 1, False


#: tails summed one by one below the point where the tail bound falls under eps abs(B), at most
SCAN_LIMIT = 2**17
#: TRFs searched up to this many terms one by one; beyond, a certified bracket in log space
TAIL_BOUND_LIMIT = 10**12
#: the bracket beyond TAIL_BOUND_LIMIT is searched up to j = 2^FAR_LOG2_LIMIT
FAR_LOG2_LIMIT = 2**16


@ball_precision
def trf_from_tail_bound(
    cert: DirichletTail, start: int, head: BiasHead | None, target: arb
) -> tuple[int, bool] | tuple[int, bool, int] | None:
    r"""The TRF by the tail rule from a tail engine with ``tail_sup(a)``, a bound on
    :math:`|R_k|` for every :math:`k \ge a` (e.g.
    :class:`theory.series.oscillating.DirichletTail`): the least :math:`j_1` with
    ``tail_sup`` below :math:`\epsilon |B|` (doubling, then bisection), then
    :math:`R_k = R_{k+1} + b_{s+k}` downward from :math:`j_1` in balls to the first
    :math:`k` with :math:`|R_k| \ge \epsilon |B|` proved: TRF = k + 1, every later tail
    proved below: ``(k + 1, True)``.  When the bound stays above the target up to
    ``TAIL_BOUND_LIMIT`` terms, ``(p + 1, False, j_1)``: the certified bracket
    :math:`p + 1 \le \mathrm{TRF} \le j_1` of :func:`_far_bracket`, else ``(p + 1, False)``
    for the largest doubling point p with :math:`|R_p| \ge \epsilon |B|` proved (a lower
    bound).  None when a comparison is not
    decided; when the scan is longer than ``SCAN_LIMIT``, ``(k + 1, False)`` for a k below
    the scanned range with :math:`|R_k| \ge \epsilon |B|` proved (a lower bound).

    >>> from theory.series.expressions import parse_expression as P
    >>> from theory.series.oscillating import DirichletTail
    >>> t = DirichletTail(P("(-1)**n/n"), 1)                 # |R_k| ~ 1/(2k): last >= 0.00693
    >>> trf_from_tail_bound(t, 1, None, abs(t.tail(1)) / 100)
    (72, True)
    """
    L = 0 if head is None else len(head)

    def below(j):
        return bool(cert.tail_sup(start + j) < target)

    lo, hi = L, max(L, 1)
    while not below(hi):
        lo, hi = hi, 2 * hi
        if hi > TAIL_BOUND_LIMIT:
            return _far_bracket(cert, start, target, lo) or _far_lower_bound(
                cert, start, target, lo
            )
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if below(mid) else (mid, hi)
    R = cert.tail(start + hi)
    for k in range(hi - 1, max(-1, hi - 1 - SCAN_LIMIT), -1):
        R = R + (head.arb(k) if k < L else cert.term(start + k))
        if abs(R) >= target:
            return k + 1, True
        if not abs(R) < target:
            return None
    return _below_scan_lower_bound(cert, start, target, hi - 1 - SCAN_LIMIT, L)


def _below_scan_lower_bound(cert, start: int, target: arb, top: int, L: int):
    """(k + 1, False) for the first k = top, 0.95 top, 0.95^2 top, ... (k >= L, at most
    400 tries) with abs(R_k) >= target proved: a certified lower bound when the scan below
    the tail bound's crossing is longer than SCAN_LIMIT; None if there is none."""
    k = top
    for _ in range(400):
        if k < max(L, 1):
            return None
        if abs(cert.tail(start + k)) >= target:
            return k + 1, False
        k = (k * 19) // 20
    return None


def _far_bracket(cert, start: int, target: arb, lo: int) -> tuple[int, bool, int] | None:
    r"""(p + 1, False, j_1) with :math:`p + 1 \le \mathrm{TRF} \le j_1` by the tail rule,
    for a TRF beyond ``lo`` (where ``tail_sup`` is not below the target): :math:`j_1` the
    first j = ceil(2^t) with ``tail_sup`` (a bound on every later :math:`|R_k|`) below
    :math:`\epsilon |B|`, found by doubling and then bisection in t; p a point below it with
    :math:`|R_p| \ge \epsilon |B|` proved (tried at relative distances 2^-50 ... 1/2 in t,
    which pins alternating tails, where |R_k| is close to its bound, to about 15 digits).
    None when no such p is proved or the crossing lies beyond 2^FAR_LOG2_LIMIT."""

    def at(t: float) -> int:
        with mpmath.workprec(int(t) + 64):
            return int(mpmath.ceil(mpmath.mpf(2) ** t))

    def below(j: int) -> bool:
        return bool(cert.tail_sup(start + j) < target)

    t_lo = math.log2(lo)
    t_hi = 2 * t_lo
    while not below(at(t_hi)):
        t_lo, t_hi = t_hi, 2 * t_hi
        if t_hi > FAR_LOG2_LIMIT:
            return None
    for _ in range(64):
        mid = (t_lo + t_hi) / 2
        if mid in (t_lo, t_hi):
            break
        t_lo, t_hi = (t_lo, mid) if below(at(mid)) else (mid, t_hi)
    upper = at(t_hi)
    for shrink in (0.0, 2.0**-50, 2.0**-40, 2.0**-30, 2.0**-20, 2.0**-10, 0.5):
        p = at(t_lo * (1 - shrink))
        if p >= lo and bool(abs(cert.tail(start + p)) >= target):
            return p + 1, False, upper
    return None


def _far_lower_bound(cert, start: int, target: arb, p: int) -> tuple[int, bool] | None:
    """(p + 1, False) for the largest p = 2^i <= the given one with abs(R_p) >= target."""
    while p >= 1:
        if abs(cert.tail(start + p)) >= target:
            return p + 1, False
        p //= 2
    return None
