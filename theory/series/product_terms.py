r"""Series whose term is a product with no real closed form: b_n = g(n) P_n,
:math:`P_n = \prod_{m=l}^{n} (1 + a_m)`, decided and summed from real bounds on P_n.

For :math:`a_m \ge 0` with :math:`\sum a_m < \infty` the partial products increase to a finite
limit, and for :math:`n \ge M - 1`

.. math::
   P_{M-1} \le P_n \le P_{M-1} \exp\Big(\sum_{m \ge M} a_m\Big)

(:math:`\log(1 + x) \le x`; Knopp, *Theory and Application of Infinite Series*, Sec. 28).
So :math:`1 \le P_n \le P_\infty` and :math:`\sum b_n` converges exactly when
:math:`\sum g(n)` does (:math:`g \ge 0`; comparison), and B and every tail
:math:`R(a) = \sum_{n \ge a} b_n` are enclosed by the terms up to :math:`M - 1` in balls
plus :math:`[P_{M-1} G(a), P_{M-1} e^{T_M} G(a)]`, with :math:`G(a)` the certified tail of
:math:`g` and :math:`T_M` the certified tail of :math:`a` (:func:`theory.series.sums.certify_tail`).
For factors below 1 or of both signs with :math:`\sum |a_m| < \infty`, once
:math:`T = \sum_{m \ge M} |a_m| < 1` is certified, every :math:`|a_m| \le T` and
:math:`-|x|/(1 - T) \le \log(1 + x) \le x` give
:math:`P_n / P_{M-1} \in [e^{-T/(1 - T)}, e^{T}]`; the first partial products are proved
:math:`> 0` in balls, so :math:`0 < \inf P_n \le \sup P_n < \infty` again.
``Product(1 + 1/m**2, (m, 1, n))/n**2`` (its closed form has gamma functions of complex
arguments) is the case in point: :math:`P_n \uparrow \sinh(\pi)/\pi`.

Products with a real closed form (``Product(1 + 1/m, (m, 1, n)) = n + 1``,
``Product(1 - 1/(2*m), (m, 1, n)) = Gamma(n + 1/2)/(sqrt(pi) n!)``) are replaced by it when
the formula is read (:mod:`theory.series.expressions`) and never reach this module.
Anything else is refused with its reason (:class:`ProductError`).
"""

from __future__ import annotations

import sympy as sp
from flint import arb

from theory.series.arb_eval import (
    NotCertified,
    NotSupported,
    Undecided,
    arb_function,
    ball_precision,
    term_ball,
)
from theory.series.certified_trf import WideResult, trf_bracket
from theory.series.convergence import decide_in_process
from theory.series.decision import Decision, SeriesError
from theory.series.expressions import N
from theory.series.lower_bounds import terms_nonnegative
from theory.series.sums import certify_tail, enclosed_sum

#: terms summed in balls before the bounds on P_n take over (P_n is then known to
#: exp(T_M) - 1 ~ 1/M relative, and B to about 1/M^2 for a = 1/m^2, g = 1/n^2)
DIRECT_TERMS = 20000


class ProductError(SeriesError):
    """A product-defined term this module does not bound (the message says why)."""


def has_product(b: sp.Expr) -> bool:
    return isinstance(b, sp.Basic) and b.has(sp.Product)


def split_product(b: sp.Expr) -> tuple[sp.Expr, sp.Expr, int]:
    """(a_n, g(n), l) with b_n = g(n) prod_{m=l}^{n} (1 + a_m); :class:`ProductError`
    unless b is one such product times a factor without products."""
    products = [f for f in sp.Mul.make_args(b) if isinstance(f, sp.Product)]
    rest = sp.Mul(*[f for f in sp.Mul.make_args(b) if not isinstance(f, sp.Product)])
    if len(products) != 1 or rest.has(sp.Product):
        raise ProductError(f"{b}: only one product times a factor without products is supported")
    p = products[0]
    if len(p.limits) != 1:
        raise ProductError(f"{p}: only a single product index is supported")
    k, lo, hi = p.limits[0]
    if hi != N or not lo.is_Integer:
        raise ProductError(f"{p}: the product must run from an integer to n")
    a = sp.simplify(p.function - 1).subs(k, N)
    if a.has(sp.Product) or a.free_symbols - {N}:
        raise ProductError(f"{p}: its factor must be a function of its index alone")
    return a, rest, int(lo)


def decide_product(b: sp.Expr, start: int) -> Decision:
    """The verdict for b_n = g(n) P_n (module docstring); never wrong, None if unsure."""
    a, g, lo = split_product(b)
    nonneg, abs_a = _check_factors(a, g, lo, start)
    if nonneg:
        bound = f"a_m >= 0 and sum a_m < oo, so 1 <= P_n <= P_oo < oo for n >= {start}"
    else:
        M = next((M for M in (64, 1024, 16384) if _positive_products(a, abs_a, lo, start, M)), 0)
        if not M:
            raise ProductError("the partial products are not proved > 0")
        bound = (
            f"sum |a_m| < oo, P_n > 0 for {start} <= n < {start + M} (ball arithmetic) and "
            f"P_n/P_{start + M - 1} >= exp(-T/(1 - T)) > 0 beyond, T = sum_(m>={start + M}) "
            "|a_m| < 1, so 0 < inf P_n <= sup P_n < oo"
        )
    d = decide_in_process(g, start)
    text = (
        f"b_n = g(n) P_n with P_n = prod_(m={lo})^n (1 + a_m), a_m = {a.subs(N, sp.Symbol('m'))}: "
        f"{bound}, and sum b_n converges exactly when sum g(n) does, g(n) = {g} >= 0"
    )
    return Decision(
        d.converges, f"{text}; for g(n): {d.certificate}", test="product bounds", start=start
    )


def _check_factors(a: sp.Expr, g: sp.Expr, lo: int, start: int) -> tuple[bool, sp.Expr]:
    """(a_m >= 0 proved, |a_m| as a term) after checking what the bounds need."""
    if start < lo - 1:
        raise ProductError(f"the series starts at n = {start}, before the product's range")
    nonneg = terms_nonnegative(a, lo)
    abs_a = a if nonneg else sp.Abs(a)
    da = decide_in_process(abs_a, lo)
    if da.converges is not True:
        grows = "tends to infinity" if nonneg else "tends to 0 or infinity, or oscillates"
        raise ProductError(
            f"the product {grows}, or is not proved bounded (sum |a_m| "
            f"{'diverges' if da.converges is False else 'not proved finite'}), and it has no "
            "real closed form"
        )
    if not terms_nonnegative(g, start):
        raise ProductError(f"the factor g(n) = {g} is not proved >= 0")
    return nonneg, abs_a


@ball_precision
def _partial_products(a: sp.Expr, lo: int, start: int, M: int) -> list:
    """P_n for start <= n < M in balls."""
    fa, P, out = arb_function(a), arb(1), []
    try:
        for m in range(lo, start + 1):  # P_start (1 when start = lo - 1)
            P *= 1 + term_ball(fa, m)
        for n in range(start, M):
            if n > start:
                P *= 1 + term_ball(fa, n)
            out.append(P)
    except (NotSupported, Undecided) as exc:
        raise ProductError(f"a factor is not evaluated in ball arithmetic ({exc})") from None
    return out


@ball_precision
def _ratio_bounds(abs_a: sp.Expr, nonneg: bool, M: int) -> tuple[arb, arb]:
    """Balls holding lower and upper bounds of P_n/P_(M-1) for every n >= M - 1: with
    T >= sum_(m>=M) |a_m| (certified) and T < 1, every |a_m| <= T and
    -|x|/(1 - T) <= log(1 + x) <= x, so the ratio is in [exp(-T/(1 - T)), exp(T)]
    ([1, exp(T)] when a_m >= 0)."""
    T = certify_tail(abs_a, M, max_rel_width=float("inf")).tail(M).upper()
    if nonneg:
        return arb(1), T.exp()
    if not T < 1:
        raise ProductError(f"sum_(m>={M}) |a_m| is not proved < 1")
    return (-T / (1 - T)).exp(), T.exp()


def _positive_products(a, abs_a, lo, start, M) -> bool:
    try:
        P = _partial_products(a, lo, start, start + M)
        low, _ = _ratio_bounds(abs_a, False, start + M)
    except (ProductError, NotCertified, ArithmeticError, ValueError):
        return False
    return all(p > 0 for p in P) and bool(low > 0)


@ball_precision
def product_analysis(b: sp.Expr, start: int, eps_list: list) -> WideResult:
    """A certified enclosure of B and certified TRF brackets for b_n = g(n) P_n."""
    a, g, lo = split_product(b)
    nonneg, abs_a = _check_factors(a, g, lo, start)
    M = start + DIRECT_TERMS
    P = _partial_products(a, lo, start, M)
    fg = arb_function(g)
    try:
        terms = [p * term_ball(fg, n) for n, p in zip(range(start, M), P)]
    except (NotSupported, Undecided) as exc:
        raise ProductError(f"g is not evaluated in ball arithmetic ({exc})") from None
    if not all(p > 0 for p in P):
        raise ProductError("the partial products are not proved > 0")
    P_last = P[-1]  # P_(M-1)
    low, high = _ratio_bounds(abs_a, nonneg, M)
    gcert = certify_tail(g, M, max_rel_width=float("inf"))

    def far(x: int) -> arb:  # the hull of the two ends holds [P low G, P high G], G >= 0
        G = gcert.tail(x)
        return (P_last * low * G).union(P_last * high * G)

    suffix, acc = [arb(0)] * (len(terms) + 1), arb(0)
    for i in range(len(terms) - 1, -1, -1):
        acc += terms[i]
        suffix[i] = acc
    tail_M = far(M)

    def tail(x: int) -> arb:
        x = int(x)
        return suffix[x - start] + tail_M if x < M else far(x)

    B = tail(start)
    if not (B.is_finite() and B > 0):
        raise NotCertified("the enclosure of B is not finite and positive")
    S = enclosed_sum(
        B,
        start,
        "certified enclosure (product bounds; ball arithmetic)",
        (
            f"terms n < {M} in balls; beyond, P_n/P_(M-1) in [exp(-T/(1 - T)), exp(T)] "
            f"([1, exp(T)] for a_m >= 0), T = sum_(m>={M}) |a_m|, times G(n), the certified "
            f"tail of g ({gcert.certificate})"
        ),
    )
    return WideResult(S, [trf_bracket(tail, start, B, e, True) for e in eps_list])
