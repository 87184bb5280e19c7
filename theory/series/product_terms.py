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
``Product(1 + 1/m**2, (m, 1, n))/n**2`` (its closed form has gamma functions of complex
arguments) is the case in point: :math:`P_n \uparrow \sinh(\pi)/\pi`.

Products with a real closed form (``Product(1 + 1/m, (m, 1, n)) = n + 1``,
``Product(1 - 1/(2*m), (m, 1, n)) = Gamma(n + 1/2)/(sqrt(pi) n!)``) are replaced by it when
the formula is read (:mod:`theory.series.expressions`) and never reach this module.
Anything else is refused with its reason (:class:`ProductError`).
"""

from __future__ import annotations

import mpmath
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
from theory.series.enclosure import arb_bounds
from theory.series.expressions import N
from theory.series.lower_bounds import terms_nonnegative
from theory.series.results import SeriesSum
from theory.series.sums import certify_tail

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
    _check_factors(a, g, lo, start)
    d = decide_in_process(g, start)
    bound = (
        f"b_n = g(n) P_n with P_n = prod_(m={lo})^n (1 + a_m), a_m = {a.subs(N, sp.Symbol('m'))} "
        ">= 0 and sum a_m < oo, so 1 <= P_n <= P_oo < oo and sum b_n converges exactly "
        f"when sum g(n) does, g(n) = {g} >= 0"
    )
    return Decision(
        d.converges, f"{bound}; for g(n): {d.certificate}", test="product bounds", start=start
    )


def _check_factors(a: sp.Expr, g: sp.Expr, lo: int, start: int) -> None:
    if start < lo - 1:
        raise ProductError(f"the series starts at n = {start}, before the product's range")
    if not terms_nonnegative(a, lo):
        raise ProductError(
            "the product's factors 1 + a_m are not proved >= 1 (a_m >= 0); factors below 1 "
            "are supported only through a real closed form"
        )
    da = decide_in_process(a, lo)
    if da.converges is not True:
        raise ProductError(
            "the product tends to infinity or is not proved bounded (sum a_m "
            f"{'diverges' if da.converges is False else 'not proved finite'}), and it has no "
            "real closed form"
        )
    if not terms_nonnegative(g, start):
        raise ProductError(f"the factor g(n) = {g} is not proved >= 0")


@ball_precision
def product_analysis(b: sp.Expr, start: int, eps_list: list) -> WideResult:
    """A certified enclosure of B and certified TRF brackets for b_n = g(n) P_n."""
    a, g, lo = split_product(b)
    _check_factors(a, g, lo, start)
    fa, fg = arb_function(a), arb_function(g)
    M = start + DIRECT_TERMS
    P = arb(1)
    try:
        for m in range(lo, start + 1):  # P_start (1 when start = lo - 1)
            P *= 1 + term_ball(fa, m)
        terms = []
        for n in range(start, M):
            if n > start:
                P *= 1 + term_ball(fa, n)
            terms.append(P * term_ball(fg, n))
    except (NotSupported, Undecided) as exc:
        raise ProductError(f"a term is not evaluated in ball arithmetic ({exc})") from None
    P_last = P  # P_(M-1)
    # exp(sum_(m>=M) a_m) <= exp(the upper end of the certified tail of a)
    growth = certify_tail(a, M, max_rel_width=float("inf")).tail(M).upper().exp()
    gcert = certify_tail(g, M, max_rel_width=float("inf"))

    def far(x: int) -> arb:  # the union of the two ends holds [P G, P e^T G], G >= 0
        G = gcert.tail(x)
        return (P_last * G).union(P_last * growth * G)

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
    blo, bhi = arb_bounds(B)
    with mpmath.workprec(400):
        mid = (blo + bhi) / 2
        radius = max(mid - blo, bhi - mid)
    S = SeriesSum(
        mid,
        radius,
        start,
        "certified enclosure (product bounds; ball arithmetic)",
        lo=blo,
        hi=bhi,
        certified=True,
        certificate=(
            f"terms n < {M} in balls; beyond, P_(M-1) G(n) <= b-tail <= P_(M-1) "
            f"exp(sum_(m>={M}) a_m) G(n) with G the certified tail of g ({gcert.certificate})"
        ),
    )
    return WideResult(S, [trf_bracket(tail, start, B, e, True) for e in eps_list])
