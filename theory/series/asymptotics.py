"""Asymptotic order of TRF(eps) as eps -> 0, derived from sympy limits of b_n (RPE paper Sec. 3).

>>> from theory.series.expressions import parse_expression as P
>>> str(trf_asymptotic(P("1/n**2"), 1)).startswith("TRF(eps) ~ 1/(B*eps)")
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import mpmath
import sympy as sp

from theory.core.budget import run_guarded
from theory.series.comparison_tests import GAMMA_LIKE, term_ratio
from theory.series.expressions import N
from theory.series.limits import limit_at_infinity
from theory.series.raabe_tails import power_law
from theory.series.results import DPS
from theory.series.rpe_library import RPE
from theory.series.sums import normalise_series, series_sum


@dataclass
class Asymptotic:
    """Leading behaviour of TRF(eps) as eps -> 0, derived from limits of b_n."""

    formula: str
    derivation: str
    evaluate: object = None  # eps -> mpf approximation (None when not available)
    kind: str = ""

    def __str__(self):
        return self.formula


def trf_asymptotic(
    b_expr: str | float | sp.Basic | RPE,
    start: int | None = None,
    B: mpmath.mpf | None = None,
    budget: float = 15.0,
) -> Asymptotic | None:
    """Asymptotic order of TRF(eps) as eps -> 0 (closed form), or None when not derived.

    Classes (each constant is a sympy limit of b_n, checked numerically):
    ``b_n ~ C n^-p`` (p > 1): TRF ~ (C/((p-1) B eps))^(1/(p-1));
    ``b_n ~ C/(n (ln n)^q)`` (q > 1): ln TRF ~ (C/((q-1) B eps))^(1/(q-1));
    ``-ln b_n ~ c n^a``: TRF ~ (ln(1/eps)/c)^(1/a);
    ``-ln b_n ~ c (ln n)^a`` (a > 1): ln TRF ~ (ln(1/eps)/c)^(1/a).
    """
    b, start, head = normalise_series(b_expr, start)
    if B is None:
        B = series_sum(RPE("x", b, start=start, head=head)).value
    res = run_guarded(asymptotic_order, (b,), budget=budget)
    if res is None:
        return None
    formula, derivation, kind, consts = res
    if "B" in formula:
        formula += f"  (B = {mpmath.nstr(B, 10)})"
    return Asymptotic(formula, derivation, asymptotic_evaluator(kind, consts, B), kind)


def asymptotic_evaluator(
    kind: str, c: Mapping[str, mpmath.mpf], B: mpmath.mpf
) -> Callable[[float | mpmath.mpf], mpmath.mpf | None]:
    def f(eps):
        eps = mpmath.mpf(eps)
        if kind == "power":
            return (c["C"] / ((c["p"] - 1) * B * eps)) ** (1 / (c["p"] - 1))
        if kind == "power-log":
            return mpmath.exp((c["C"] / ((c["q"] - 1) * B * eps)) ** (1 / (c["q"] - 1)))
        if kind == "stretched-exp":
            return (mpmath.log(1 / eps) / c["c"]) ** (1 / c["a"])
        if kind == "log-normal":
            return mpmath.exp((mpmath.log(1 / eps) / c["c"]) ** (1 / c["a"]))
        return None

    return f


_EPS = sp.Symbol("eps", positive=True)
_B = sp.Symbol("B", positive=True)


def _fmt_pow(coef, expo) -> str:
    """(coef/(B*eps))^expo, written compactly."""
    base = "1/(B*eps)" if coef == 1 else f"{sp.sstr(coef)}/(B*eps)"
    return base if expo == 1 else f"({base})^({sp.sstr(expo)})"


def _fmt(e) -> str:
    return sp.sstr(sp.powsimp(e, force=True)).replace("log(", "ln(")


def _num(x):
    return mpmath.mpf(sp.N(x, 30))


def asymptotic_order(b: sp.Expr) -> tuple[str, str, str, dict[str, mpmath.mpf]] | None:
    mpmath.mp.dps = DPS
    geo = _ratio_order(b) or _gamma_power_order(b)
    if geo is not None:
        return geo
    L = sp.expand_log(sp.log(b), force=True)
    quick = _log_polynomial_order(L) or _stretched_order(L)
    if quick is not None:
        return quick
    lam = limit_at_infinity(L / sp.log(N))
    if lam is None or not lam.is_number:
        return None
    if lam.is_finite and lam < -1:
        p = -lam
        C = limit_at_infinity(b * N**p)
        if C is None or not (C.is_finite and C.is_positive):
            return None
        return _power_result(p, C, f"p = lim -log(b_n)/log(n) = {p}, C = lim b_n n^p = {C}")
    if lam == -1:
        mu = limit_at_infinity((L + sp.log(N)) / sp.log(sp.log(N)))
        if mu is None or not (mu.is_number and mu.is_finite and mu < -1):
            return None
        q = -mu
        C = limit_at_infinity(b * N * sp.log(N) ** q)
        if C is None or not (C.is_finite and C.is_positive):
            return None
        return (
            f"ln TRF(eps) ~ {_fmt_pow(C / (q - 1), 1 / (q - 1))}",
            f"b_n ~ C/(n (ln n)^q) with q = {q}, C = {C}; the tail is ~ C (ln n)^(1-q)/(q-1); "
            "setting it to B eps and solving for ln n",
            "power-log",
            {"q": _num(q), "C": _num(C)},
        )
    if lam != -sp.oo:
        return None
    g = -L  # -log b_n -> oo faster than log n
    a = limit_at_infinity(sp.log(g) / sp.log(N))
    if a is not None and a.is_number and a.is_finite and a > 0:
        c = limit_at_infinity(g / N**a)
        if c is not None and c.is_finite and c.is_positive:
            return _stretched_result(a, c, f"a = lim ln(-ln b_n)/ln n = {a}, c = {c}")
    if a == 0:
        a2 = limit_at_infinity(sp.log(g) / sp.log(sp.log(N)))
        if a2 is not None and a2.is_number and a2.is_finite and a2 > 1:
            c = limit_at_infinity(g / sp.log(N) ** a2)
            if c is not None and c.is_finite and c.is_positive:
                return _log_normal_result(a2, c)
    return None


def _log_normal_result(a, c) -> tuple[str, str, str, dict[str, mpmath.mpf]]:
    return (
        f"ln TRF(eps) ~ {_fmt((sp.log(1 / _EPS) / c) ** (1 / a))}",
        f"-ln b_n ~ c (ln n)^a with a = {a}, c = {c}; the tail is n b_n times a factor "
        "polynomial in ln n, so ln(tail) ~ -c (ln n)^a; setting it to ln eps and "
        "solving for ln n",
        "log-normal",
        {"a": _num(a), "c": _num(c)},
    )


def _log_polynomial_order(L: sp.Expr) -> tuple[str, str, str, dict[str, mpmath.mpf]] | None:
    """log b_n = P(ln n) with P a polynomial of degree d >= 2 and leading coefficient -c < 0
    (the paper's Type 2, exp(-ln(n)^2)): -ln b_n ~ c (ln n)^d read off P, no limit needed."""
    x = sp.Dummy("x")
    P = L.subs(sp.log(N), x)
    if P.has(N) or not P.is_polynomial(x):
        return None
    poly = sp.Poly(P, x)
    lc = poly.LC()
    if poly.degree() < 2 or not (lc.is_number and lc.is_negative):
        return None
    return _log_normal_result(sp.Integer(poly.degree()), -lc)


def _stretched_order(L: sp.Expr) -> tuple[str, str, str, dict[str, mpmath.mpf]] | None:
    """log b_n = a0 - c n^a with numbers c, a > 0 (exp(-n**(10**10))): the stretched-exp
    order read off, no limit (sympy's sign rules would expand n**(10**10) - 1 densely)."""
    a0, rest = L.as_independent(N, as_Add=True)
    c, power = (-rest).as_independent(N, as_Add=False)
    a = sp.Integer(1) if power == N else (power.exp if power.is_Pow and power.base == N else None)
    if a is None or not (a0.is_number and c.is_number and a.is_number):
        return None
    if not (c.is_positive and a.is_positive):
        return None
    return _stretched_result(a, c, f"a = {a}, c = {c} read off log b_n = {L}")


def _stretched_result(a, c, how: str) -> tuple[str, str, str, dict[str, mpmath.mpf]]:
    return (
        f"TRF(eps) ~ {_fmt((sp.log(1 / _EPS) / c) ** (1 / a))}",
        f"-ln b_n ~ c n^a with {how}; the tail is "
        "b at the cut-off times a factor sub-exponential in n, so ln(tail) ~ -c n^a; "
        "setting it to ln(B eps) ~ ln eps and solving for n",
        "stretched-exp",
        {"a": _num(a), "c": _num(c)},
    )


def _power_result(p, C, how: str) -> tuple[str, str, str, dict[str, mpmath.mpf]]:
    return (
        f"TRF(eps) ~ {_fmt_pow(C / (p - 1), 1 / (p - 1))}",
        f"b_n ~ C n^-p with {how}; "
        f"the tail is sum_(m>=n) b_m ~ C n^(1-p)/(p-1); setting it to B eps and solving for n",
        "power",
        {"p": _num(p), "C": _num(C)},
    )


def _gamma_power_order(b: sp.Expr) -> tuple[str, str, str, dict[str, mpmath.mpf]] | None:
    """Factorial-like terms whose ratio prod (n + a_i)^e_i tends to 1: b_n ~ C n^-h from
    Gamma(n + a)/Gamma(n) ~ n^a (no Gruntz limit of the gamma functions needed)."""
    if not b.has(*GAMMA_LIKE):
        return None
    law = power_law(b)
    if law is None or not law[0] > 1:
        return None
    p, C = law
    return _power_result(
        p,
        C,
        f"p = {p}, C = {C} (b_(n+1)/b_n is a product of powers of n + a_i, so b_n is a "
        "product of powers of Gamma(n + a_i), and Gamma(n + a)/Gamma(n) ~ n^a)",
    )


def _ratio_order(b: sp.Expr) -> tuple[str, str, str, dict[str, mpmath.mpf]] | None:
    """Factorial-like terms with a rational term ratio tending to rho in (0, 1): -ln b_n ~
    n ln(1/rho) (no Gruntz limit of the gamma functions needed)."""
    ratio = term_ratio(b)
    if ratio is None or not ratio.is_rational_function(N):
        return None
    num, den = (sp.Poly(x, N) for x in sp.fraction(sp.cancel(sp.together(ratio))))
    if num.degree() != den.degree():
        return None
    rho = num.LC() / den.LC()
    if not (rho.is_positive and (rho < 1) is sp.true):
        return None
    c = sp.log(1 / rho)
    return (
        f"TRF(eps) ~ {_fmt(sp.log(1 / _EPS) / c)}",
        f"b_(n+1)/b_n = {ratio} -> rho = {rho}, so -ln b_n ~ n ln(1/rho) and the tail is "
        "b at the cut-off times a factor sub-exponential in n; setting it to B eps and "
        "solving for n",
        "stretched-exp",
        {"a": mpmath.mpf(1), "c": _num(c)},
    )
