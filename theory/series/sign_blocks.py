r"""Signs in blocks of growing length: :math:`b_n = (-1)^{\lfloor g(n) \rfloor + c} f(n)`
with g increasing to infinity (``(-1)**floor(sqrt(n))/n``).

The sign is constant on the blocks :math:`B_k = \{n : k \le g(n) < k + 1\} =
[h(k), h(k+1))`, :math:`h = g^{-1}`, and alternates from block to block.  With
:math:`|f|` eventually decreasing and :math:`S_k = \sum_{n \in B_k} |f(n)|`, a partial
sum of the series lies between the partial sums at the two ends of its block (the terms
inside a block have one sign), so :math:`\sum b_n` converges iff
:math:`\sum_k (-1)^k S_k` does.  The block sums are enclosed by integrals of :math:`|f|`
(F an antiderivative, checked by differentiation):

.. math:: L_k = F(h(k+1)) - F(h(k) + 1) \le S_k \le |f|(h(k)) + F(h(k+1)) - F(h(k)) = U_k

(:math:`\sum_{a}^{b} |f| \ge \int_a^{b+1} |f|` and :math:`\le |f(a)| + \int_a^b |f|` for
:math:`|f|` decreasing, with :math:`a = \lceil h(k) \rceil`, :math:`b + 1 = \lceil
h(k+1) \rceil`); where h maps integers to integers, :math:`a = h(k)` and :math:`b + 1 =
h(k+1)` exactly, so :math:`L_k = F(h(k+1)) - F(h(k))` and
:math:`U_k = |f|(h(k)) + F(h(k+1) - 1) - F(h(k))`.

* :math:`\lim L_k > 0`: the block sums do not tend to 0, so the partial sums at the ends
  of the blocks are no Cauchy sequence: **diverges** (``(-1)**floor(log(n))/n``,
  :math:`L_k \to 1`; ``(-1)**floor(sqrt(n))/sqrt(n)``, :math:`L_k \to 2`).
* :math:`U_k \to 0`, :math:`\sum_k (U_k - L_k) < \infty` (logarithmic test) and
  :math:`\varphi_k = (L_k + U_k)/2` eventually decreasing: :math:`S_k = \varphi_k + e_k`
  with :math:`|e_k| \le (U_k - L_k)/2`, so :math:`\sum (-1)^k \varphi_k` converges
  (Leibniz) and :math:`\sum (-1)^k e_k` absolutely: **converges**
  (``(-1)**floor(sqrt(n))/n``: :math:`\varphi_k \sim 2/k`, :math:`U_k - L_k = O(k^{-3})`).

Otherwise no verdict (never a guess).
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.comparison_tests import log_test
from theory.series.conditions import bool_text, normal_form
from theory.series.decision import Decision
from theory.series.expressions import N
from theory.series.limits import (
    STEP_BUDGET,
    eventual_sign,
    limit_at_infinity,
    nonzero_constant,
    smooth,
)

_K = sp.Symbol("k", positive=True)
_KI = sp.Symbol("k", integer=True, positive=True)


def _sign_pattern(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(g, f) with b = (-1)^floor(g(n)) f(n), g and f smooth (a constant c in the exponent,
    (-1)^(floor(g) + c), goes into f as (-1)^c)."""
    pows = [a for a in sp.Mul.make_args(b) if isinstance(a, sp.Pow) and a.base == -1]
    if len(pows) != 1 or not pows[0].exp.has(sp.floor):
        return None
    c, rest = pows[0].exp.as_coeff_Add()
    if isinstance(rest, sp.Mul) and rest.args[0] == -1:  # (-1)^(-k) = (-1)^k
        rest = -rest
    if not (c.is_Integer and isinstance(rest, sp.floor)):
        return None
    sign = -1 if c % 2 else 1
    g = rest.args[0]
    f = sign * sp.Mul(*(a for a in sp.Mul.make_args(b) if a is not pows[0]))
    if not (g.has(N) and smooth(g) and smooth(f)) or f.has(sp.floor, sp.ceiling, sp.frac):
        return None
    if any(isinstance(e, sp.Pow) and e.base == -1 for e in sp.preorder_traversal(f)):
        return None
    return g, f


def _inverse(g: sp.Expr) -> sp.Expr | None:
    """h with g(h(k)) = k and h(k) -> oo increasing: the blocks' left ends."""
    x = sp.Symbol("x", positive=True)
    with step_budget(STEP_BUDGET):
        sols = sp.solve(sp.Eq(g.subs(N, x), _K), x, dict=False)
    good = []
    for h in sols if isinstance(sols, list) else []:
        if not (h.is_real is not False and h.has(_K)):
            continue
        with step_budget(STEP_BUDGET):
            if sp.simplify(g.subs(N, h) - _K) != 0:
                continue
        hn = h.subs(_K, N)
        if limit_at_infinity(hn) == sp.oo and eventual_sign(sp.diff(hn, N)) == 1:
            good.append(h)
    return good[0] if len(good) == 1 else None


def _antiderivative(f: sp.Expr) -> sp.Expr | None:
    """F with F' = f exactly (checked by differentiation), free of unevaluated integrals."""
    x = sp.Symbol("x", positive=True)
    with step_budget(STEP_BUDGET):
        F = sp.integrate(f.subs(N, x), x)
        if F.has(sp.Integral) or sp.simplify(sp.diff(F, x) - f.subs(N, x)) != 0:
            return None
    return F.subs(x, N)


def _increasing_pattern(b: sp.Expr) -> tuple[sp.Expr, sp.Expr, int] | None:
    """(g, f, sign of f) for b_n = (-1)^floor(g(n)) f(n) with g increasing to infinity and f
    of one sign for large n, else None."""
    pattern = _sign_pattern(b)
    if pattern is None:
        return None
    g, f = pattern
    if limit_at_infinity(g) != sp.oo or eventual_sign(sp.diff(g, N)) != 1:
        return None
    s_f = eventual_sign(f)
    if s_f not in (1, -1):
        return None
    return g, f, s_f


def block_sum_bounds(b: sp.Expr) -> tuple[sp.Expr, sp.Expr, sp.Expr, bool] | None:
    """(h, L, U, exact) for b_n = (-1)^floor(g(n)) f(n) with |f| decreasing (the module
    doc): the blocks' left ends h(k) and the enclosure L_k <= S_k <= U_k of the block sums
    of |f|, as expressions in n standing for k; exact when h maps integers to integers.
    None when b has another form, or g, h or F are not found."""
    pattern = _increasing_pattern(b)
    if pattern is None:
        return None
    g, f, s_f = pattern
    h, F = _inverse(g), _antiderivative(s_f * f)
    if h is None or F is None:
        return None
    return (h.subs(_K, N), *_block_bounds(s_f * f, F, h))


def _block_bounds(af: sp.Expr, F: sp.Expr, h: sp.Expr) -> tuple[sp.Expr, sp.Expr, bool]:
    """(L_k, U_k, exact ends) as expressions in n (standing for k)."""
    h0, h1 = h, h.subs(_K, _K + 1)
    integral_ends = h.subs(_K, _KI).is_integer is True
    at = lambda e: F.subs(N, e)  # noqa: E731 - a local shorthand
    if integral_ends:
        lower = at(h1) - at(h0)
        upper = af.subs(N, h0) + at(h1 - 1) - at(h0)
    else:
        lower = at(h1) - at(h0 + 1)
        upper = af.subs(N, h0) + at(h1) - at(h0)
    return lower.subs(_K, N), upper.subs(_K, N), integral_ends


def _in_k(certificate: str) -> str:
    """A logarithmic test's certificate on d_k = U_k - L_k written with the index k."""
    for a, b in (
        ("log(b_n)", "log(d_k)"),
        ("b_n", "d_k"),
        ("log(n)", "log(k)"),
        ("n^", "k^"),
        ("large n", "large k"),
    ):
        certificate = certificate.replace(a, b)
    return certificate


def sign_block_test(b: sp.Expr) -> Decision | None:
    """Blocks of one sign (module doc).

    >>> from theory.series.expressions import parse_expression as P
    >>> sign_block_test(P("(-1)**floor(sqrt(n))/n")).converges
    True
    >>> sign_block_test(P("(-1)**floor(sqrt(n))/sqrt(n)")).converges
    False
    """
    try:
        return _sign_block_test(b)
    except (StepTimeout, TypeError, ValueError, NotImplementedError, ZeroDivisionError):
        return None


def _sign_block_test(b):
    pattern = _increasing_pattern(b)
    if pattern is None:
        return None
    g, f, s_f = pattern
    af = s_f * f
    lim_f = limit_at_infinity(af)
    if lim_f is None or not lim_f.is_number or lim_f is sp.nan:
        return None
    if lim_f != 0:
        if lim_f.is_infinite or nonzero_constant(lim_f):
            return Decision(
                False,
                f"terms do not tend to 0: |b_n| = |{f}| -> {lim_f} != 0",
                test="sign blocks",
            )
        return None
    if eventual_sign(sp.diff(af, N)) != -1:
        return None
    h, F = _inverse(g), _antiderivative(af)
    if h is None or F is None:
        return None
    lower, upper, exact = _block_bounds(af, F, h)
    k = sp.Symbol("k")
    head = (
        f"b_n = (-1)^floor(g(n)) f(n), g = {g} increasing to oo, "
        f"|f| = {af} decreasing to 0: the sign is constant on the blocks "
        f"h(k) <= n < h(k+1), h(k) = {h.subs(_K, k)}, and alternates, so the series converges "
        "iff sum_k (-1)^k S_k does (S_k the block sum of |f|; a partial sum lies between "
        "those at the ends of its block); by integrals of |f| (F(x) = "
        f"{F.subs(N, sp.Symbol('x'))}) L_k <= S_k <= U_k with L_k = {lower.subs(N, k)}, "
        f"U_k = {upper.subs(N, k)}"
        + (" (h maps integers to integers: exact block ends)" if exact else "")
    )
    lim_lo = limit_at_infinity(lower)
    if lim_lo is not None and lim_lo.is_number and lim_lo is not sp.nan and lim_lo != 0:
        if lim_lo.is_infinite or (nonzero_constant(lim_lo) and lim_lo > 0):
            return Decision(
                False,
                f"{head}; L_k -> {lim_lo} > 0: the block sums do not tend to 0, so the "
                "partial sums at the block ends are no Cauchy sequence: diverges",
                test="sign blocks",
            )
    if limit_at_infinity(upper) != 0:
        return None
    gap = upper - lower
    d = log_test(gap, conv=True, label=f"d_k = U_k - L_k = {gap.subs(N, k)}")
    if d is None or d.converges is not True:
        return None
    mid = (lower + upper) / 2
    if eventual_sign(sp.diff(mid, N)) != -1:
        return None
    return Decision(
        True,
        f"{head}; U_k -> 0, phi_k = (L_k + U_k)/2 is eventually decreasing to 0 and "
        f"S_k = phi_k + e_k with |e_k| <= (U_k - L_k)/2, summable ({_in_k(d.certificate)}): "
        "sum (-1)^k phi_k converges (Leibniz) and sum (-1)^k e_k absolutely, so the "
        "series converges",
        test="sign blocks",
    )


def power_block_family(
    b: sp.Expr, params: list, start: int, decide_positive: Callable[..., Decision] | None = None
) -> Decision | None:
    r""":math:`b_n = (-1)^{\lfloor g(n) \rfloor + c}\, C n^{-e}` with :math:`g = n^{1/d}`
    (d >= 2 an integer) or :math:`g = r \log n` (r > 0 a number), C a nonzero number and
    the exponent e holding the parameters (one sign case, the parameters positive
    symbols): converges iff :math:`e > 1 - 1/d`, and for :math:`g = r \log n` iff e > 1.

    The sign is constant on the blocks :math:`[k^d, (k+1)^d)` (exactly: :math:`k \le
    n^{1/d} < k + 1`) and alternates.  Where e > 0, with :math:`f(x) = x^{-e}` decreasing,
    the block sum :math:`S_k = \sum_{k^d \le n < (k+1)^d} f(n)` is
    :math:`I_k + e_k` with :math:`I_k = \int_{k^d}^{(k+1)^d} f = d \int_k^{k+1}
    u^{-s}\,du`, :math:`s = d(e - 1) + 1` (x = u^d), and
    :math:`0 \le e_k = \sum_n (f(n) - \int_n^{n+1} f) \le f(k^d) - f((k+1)^d)`, which
    telescopes: :math:`\sum_k (-1)^k e_k` converges absolutely.  If s > 0, :math:`I_k`
    decreases to 0 (its integrand decreases) and :math:`\sum (-1)^k I_k` converges
    (Leibniz); a partial sum lies between those at the ends of its block, so the series
    converges.  If :math:`s \le 0`, :math:`I_k \ge d` (the integrand is >= 1 for u >= 1):
    the block sums do not tend to 0, the partial sums at the block ends are no Cauchy
    sequence, and the series diverges; where :math:`e \le 0`, :math:`|b_n| \ge |C|` does
    not tend to 0.  So the region is :math:`s > 0`, i.e. :math:`e > 1 - 1/d`
    (``(-1)**floor(sqrt(n))/n**p``: p > 1/2).

    Blocks of exponential length, :math:`g = r \log n`: the blocks are
    :math:`B_k = [e^{k/r}, e^{(k+1)/r})`.  Where e > 1 the series converges absolutely
    (:math:`|b_n| = |C| n^{-e}`).  Where :math:`e \le 1`, :math:`|b_n| \ge |C|/n` for
    n >= 1, and since 1/x decreases the block sum is at least

    .. math:: |C| \int_{\lceil e^{k/r} \rceil}^{\lceil e^{(k+1)/r} \rceil} \frac{dx}{x}
              \ge |C| \int_{e^{k/r} + 1}^{e^{(k+1)/r}} \frac{dx}{x}
              = |C| \left(\frac1r - \log(1 + e^{-k/r})\right) \to \frac{|C|}{r} > 0,

    so the block sums do not tend to 0 and the series diverges
    (``(-1)**floor(log(n))/n**p``: p > 1).  None for another form."""
    split = _power_block_parts(b)
    if split is None:
        return None
    d, C, e = split
    if not e.free_symbols & set(params):
        return None
    bound = 1 - sp.Rational(1, d) if d is not None else sp.Integer(1)
    region = normal_form(sp.StrictGreaterThan(e, bound))
    points = []
    used = sorted(e.free_symbols & set(params), key=lambda p: p.name)
    if len(used) == 1:
        roots = sp.solve(sp.Eq(e, bound), used[0])
        points = [{used[0]: r} for r in roots if r.is_number and r.is_positive]
    if d is None:
        text = (
            f"b_n = (-1)^floor({sp.sstr(C[1] * sp.log(N))}) f(n) up to the sign of C = {C[0]}, f = n^(-e), "
            f"e = {e}: the sign is constant on the blocks e^(k/r) <= n < e^((k+1)/r), "
            f"r = {C[1]}, and alternates; e > 1: sum |b_n| = |C| sum n^(-e) converges; "
            "e <= 1: |b_n| >= |C|/n, so a block sum is at least |C| int dx/x over "
            "[e^(k/r) + 1, e^((k+1)/r)] = |C| (1/r - log(1 + e^(-k/r))) -> |C|/r > 0: the "
            "block sums do not tend to 0, the partial sums at the block ends are no Cauchy "
            f"sequence: diverges; so it converges iff {bool_text(region)}"
        )
    else:
        text = (
            f"b_n = (-1)^floor(n^(1/{d})) f(n) up to the sign of C = {C}, f = n^(-e), "
            f"e = {e}: the sign is constant on the blocks k^{d} <= n < (k+1)^{d} and "
            "alternates; where e > 0 the block sum of f is I_k + e_k with "
            f"I_k = {d} int_k^(k+1) u^(-s) du, s = {d}(e - 1) + 1, and 0 <= e_k <= "
            f"f(k^{d}) - f((k+1)^{d}) (f decreasing; telescoping, so sum (-1)^k e_k "
            "converges absolutely); s > 0: I_k decreases to 0, sum (-1)^k I_k converges "
            "(Leibniz) and a partial sum lies between those at the ends of its block: "
            f"converges; s <= 0: I_k >= {d}, the block sums do not tend to 0: diverges; "
            f"e <= 0: |b_n| >= |C| does not tend to 0; so it converges iff s > 0, i.e. "
            f"{bool_text(region)}"
        )
    return Decision(
        None,
        text,
        test="sign blocks",
        details={"region": region, "points": points},
    )


def _power_block_parts(b: sp.Expr) -> tuple | None:
    """(d, C, e) with b = (-1)^floor(n^(1/d)) C n^(-e), d >= 2 an integer, C a nonzero
    real number (the sign constant of the exponent taken in), e free of n; for
    b = (-1)^floor(r log(n)) C n^(-e), r > 0 a number, (None, (C, r), e); else None."""
    pattern = _sign_pattern(b)
    if pattern is None:
        return None
    g, f = pattern
    d, rate = None, None
    if isinstance(g, sp.Pow) and g.base == N and g.exp.is_Rational:
        r = g.exp
        if not (r.p == 1 and r.q >= 2):
            return None
        d = int(r.q)
    else:
        rate, lg = g.as_coeff_Mul()
        if not (lg == sp.log(N) and rate.is_number and rate.is_positive):
            rate, lg = g.as_independent(N, as_Add=False)
            if not (lg == sp.log(N) and rate.is_number and rate.is_positive is True):
                return None
    C, e = sp.Integer(1), sp.Integer(0)
    for a in sp.Mul.make_args(f):
        if a == N:
            e -= 1
        elif isinstance(a, sp.Pow) and a.base == N and not a.exp.has(N):
            e -= a.exp
        elif not a.has(N) and a.is_number:
            C *= a
        else:
            return None
    if not (C.is_real and C != 0):
        return None
    return (d, C, e) if d is not None else (None, (C, rate), e)
