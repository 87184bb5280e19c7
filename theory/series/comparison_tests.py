r"""Comparison tests for terms of one sign (RPE paper Thm 3.3/3.4: the series of
:math:`b_n = \exp(\mathrm{RPE}(n))` converges or not).

* terms do not tend to 0 (:func:`terms_not_to_zero`, also through a positive lower bound);
* the logarithmic test and its iterated-log refinements (Bertrand / Cauchy condensation,
  :func:`log_test`):

  .. math::
     \lambda = \lim_{n\to\infty} \frac{\log b_n}{\log n} < -1 \Rightarrow
     b_n \le n^{-p}\ (1 < p < -\lambda) \text{ eventually},\qquad \lambda > -1 \Rightarrow
     b_n \ge n^{-1} \text{ eventually},

  with :math:`\lambda = -1` refined by :math:`\lim (\log b_n + \log n)/\log\log n`
  (comparison with :math:`1/(n (\log n)^q)`), and up to five iterated logarithms;
* the ratio and Raabe tests (:func:`ratio_tests`), and for factorial-like terms the ratio,
  Raabe and Gauss tests on a gamma-free :math:`b_{n+1}/b_n` (:func:`gamma_ratio_test`).
"""

from __future__ import annotations

import sympy as sp

from theory.core.budget import step_budget
from theory.series.decision import Decision
from theory.series.expressions import N, constant_power_log
from theory.series.limits import (
    STEP_BUDGET,
    eventual_sign,
    eventually_positive,
    limit_at_infinity,
    sign_of_const,
    smooth,
)

GAMMA_LIKE = (
    sp.factorial,
    sp.gamma,
    sp.binomial,
    sp.RisingFactorial,
    sp.FallingFactorial,
    sp.factorial2,
    sp.Product,
)


def term_ratio(b: sp.Expr) -> sp.Expr | None:
    """b_(n+1)/b_n without gamma functions for a factorial-like term (factorials, gamma,
    binomials; simplified by gammasimp), else None.

    >>> from theory.series.expressions import parse_expression as P
    >>> term_ratio(P("factorial(n)**2/factorial(2*n)"))
    (n + 1)/(2*(2*n + 1))
    """
    if not b.has(*GAMMA_LIKE):
        return None
    try:
        with step_budget(STEP_BUDGET):
            ratio = sp.gammasimp(sp.expand_func(sp.combsimp(b.subs(N, N + 1) / b)))
    except Exception:  # noqa: BLE001 - no simplification: other tests
        return None
    if ratio.has(*GAMMA_LIKE) or not smooth(ratio):
        return None
    return ratio


def gamma_ratio_test(b: sp.Expr) -> Decision | None:
    r"""Ratio / Raabe / Gauss tests for factorial-like terms: b_(n+1)/b_n simplifies
    (gammasimp) to an expression without gamma functions; its eventual positivity makes the
    sign of b_n eventually constant, so the tests apply to |b_n|.  Gauss: for a rational
    ratio, :math:`b_n/b_{n+1} = 1 + h/n + O(n^{-2})`, and the series converges iff h > 1.

    >>> from theory.series.expressions import parse_expression as P
    >>> gamma_ratio_test(P("gamma(n)/gamma(n + 1)")).converges        # = 1/n
    False
    >>> gamma_ratio_test(P("binomial(2*n, n)/(4**n*n)")).converges    # ~ n^(-3/2)/sqrt(pi)
    True
    """
    ratio = term_ratio(b)
    if ratio is None:
        return None
    rho = limit_at_infinity(ratio)
    if rho is not None and rho.is_number and (rho == -sp.oo or rho < 0):
        return _alternating_ratio_test(ratio, rho)
    if rho == 0:  # of either sign
        return Decision(
            True,
            f"ratio test: |b_(n+1)/b_n| = |{ratio}| -> 0 < 1 (absolute convergence)",
            test="ratio test",
        )
    if rho is None or not rho.is_number or not (rho == sp.oo or rho > 0):
        return None
    what = f"b_(n+1)/b_n = {ratio}"
    if rho == sp.oo or rho > 1:
        return Decision(False, f"ratio test: {what} -> {rho} > 1", test="ratio test")
    if rho < 1:
        return Decision(
            True, f"ratio test: {what} -> {rho} < 1 (absolute convergence)", test="ratio test"
        )
    raabe = limit_at_infinity(N * (1 / ratio - 1))
    if raabe is not None and raabe.is_number and raabe != 1 and eventual_sign(ratio) == 1:
        conv = bool(raabe > 1)
        return Decision(
            conv,
            f"Raabe's test on |b_n|: {what} > 0 for large n (b_n keeps "
            f"one sign), lim n (b_n/b_(n+1) - 1) = {raabe} {'>' if conv else '<'} 1"
            + (" (absolute convergence)" if conv else " (|b_n| ~ sign-constant b_n)"),
            test="Raabe test",
        )
    if raabe != 1 or eventual_sign(ratio) != 1:
        return None
    if ratio.is_rational_function(N):
        why = "is rational with"
    else:  # e.g. n^(3/2)/(sqrt(n + 1) (n + 1/2)): the O(1/n^2) term from a finite limit
        g = limit_at_infinity(N**2 * (1 / ratio - 1 - 1 / N))
        if g is None or not (g.is_number and g.is_finite):
            return None
        why = f"has lim n^2 (b_n/b_(n+1) - 1 - 1/n) = {g}, so"
    return Decision(  # b_n/b_(n+1) = 1 + 1/n + O(1/n^2)
        False,
        f"Gauss's test: {what} {why} b_n/b_(n+1) = 1 + 1/n + O(1/n^2) "
        "(b_n keeps one sign for large n), so sum |b_n| diverges like sum 1/n",
        test="Gauss test",
    )


def _alternating_ratio_test(ratio: sp.Expr, rho: sp.Expr) -> Decision | None:
    r"""A negative limit of :math:`b_{n+1}/b_n`: the terms alternate in sign for large n.
    :math:`|\rho| > 1`: :math:`|b_n| \to \infty`, diverges; :math:`|\rho| < 1`: absolute
    convergence (ratio test).  :math:`\rho = -1`: with
    :math:`h = \lim n (|b_n/b_{n+1}| - 1)`, :math:`h > 0` makes :math:`|b_n|` eventually
    decreasing and :math:`\log|b_n| = \sum \log(1 - h/k + o(1/k)) \to -\infty` (Leibniz:
    converges); :math:`h < 0` makes :math:`|b_n|` eventually increasing (terms not -> 0).

    >>> from theory.series.expressions import parse_expression as P
    >>> gamma_ratio_test(P("(-1)**n*binomial(2*n, n)/4**n")).converges   # ~ (-1)^n/sqrt(pi n)
    True
    """
    what = f"b_(n+1)/b_n = {ratio}"
    if rho == -sp.oo or rho < -1:
        return Decision(
            False,
            f"ratio test: {what} -> {rho}, |b_(n+1)/b_n| -> {-rho} > 1: |b_n| grows, "
            "the terms do not tend to 0",
            test="ratio test",
        )
    if rho > -1:
        return Decision(
            True,
            f"ratio test: {what} -> {rho}, |b_(n+1)/b_n| -> {-rho} < 1 (absolute convergence)",
            test="ratio test",
        )
    if eventual_sign(ratio) != -1:
        return None
    h = limit_at_infinity(N * (-1 / ratio - 1))
    if h is None or not h.is_number or h == 0:
        return None
    if h > 0:
        return Decision(
            True,
            f"Leibniz's test: {what} < 0 for large n (the terms alternate) and "
            f"lim n (|b_n/b_(n+1)| - 1) = {h} > 0, so |b_n| decreases for large n and "
            "tends to 0 (log|b_n| = sum log(1 - h/k + o(1/k)) -> -oo)",
            test="Leibniz test",
        )
    return Decision(
        False,
        f"terms do not tend to 0: {what} < 0 for large n and lim n (|b_n/b_(n+1)| - 1) = "
        f"{h} < 0, so |b_n| increases for large n",
        test="terms not -> 0",
    )


def positive_fast_path(b: sp.Expr) -> Decision | None:
    """Terms positive by sympy's assumptions: the level-0 logarithmic test alone decides
    unless lim log(b_n)/log(n) = -1 (a limit b_n -> c > 0 gives 0 > -1: divergence)."""
    return log_test(b, conv=True, label="b_n", levels=1) or log_test(
        b, conv=False, label="b_n", levels=1
    )


def terms_not_to_zero(lo: sp.Expr, hi: sp.Expr, exact: bool, how: str) -> Decision | None:
    if smooth(lo) and lo.has(N):
        lim = limit_at_infinity(lo)
        if lim is not None and lim.is_number and (lim == sp.oo or sign_of_const(lim) == 1):
            what = "b_n" if exact else f"the lower bound {lo} of b_n"
            return Decision(
                False,
                f"terms do not tend to 0: lim {what} = {lim} > 0" + ("" if exact else f" ({how})"),
                test="terms not -> 0",
                details={"limit": str(lim)},
            )
    elif not lo.has(N) and sign_of_const(lo) == 1:
        return Decision(
            False,
            f"terms do not tend to 0: b_n >= {lo} > 0 for all large n ({how})",
            test="terms not -> 0",
            details={"lower_bound": str(lo)},
        )
    if smooth(hi) and hi.has(N):
        lim = limit_at_infinity(hi)
        if lim is not None and lim.is_number and (lim == -sp.oo or sign_of_const(lim) == -1):
            return Decision(
                False,
                f"terms do not tend to 0: lim of the upper bound {hi} = {lim} < 0",
                test="terms not -> 0",
            )
    return None


#: iterated-log levels of the logarithmic test (level L compares with
#: 1/(n log(n) ... log_(L-1)(n) log_L(n)^p), log_j the j-fold logarithm)
LOG_LEVELS = 6


def _log_j(j: int) -> str:
    return "n" if j == 0 else "log(" * j + "n" + ")" * j


def _level_name(level: int) -> str:
    num = " + ".join(["log(b_n)"] + [f"log({_log_j(j)})" for j in range(level)])
    return f"({num})/{_log_j(level + 1)}" if level else "log(b_n)/log(n)"


def _level_compare(level: int) -> str:
    if level == 0:
        return "n^(-p)"
    return "1/(" + " ".join([_log_j(j) for j in range(level)] + [f"{_log_j(level)}^p"]) + ")"


LEVEL_NAMES = [_level_name(i) for i in range(LOG_LEVELS)]
_COMPARE_WITH = [_level_compare(i) for i in range(LOG_LEVELS)]


def _below_one(v: sp.Expr) -> bool:
    """v -> 1 from below (so log(v) < 0 for large n)."""
    return limit_at_infinity(v) == 1 and eventually_positive(1 - v)


def _signs_paired(g: sp.Expr) -> sp.Expr:
    """g with the minus signs of its factors taken out in pairs, so that each log of a
    factor is real: -(-n/5 - 1) sin(n^-3)/(n^2 + 1) is (n/5 + 1) sin(n^-3)/(n^2 + 1) (whose
    log expands without log(-1)); g itself where the count is odd or g is no product.

    >>> from theory.series.expressions import N
    >>> _signs_paired(-(-N/5 - 1) / (N**2 + 1))
    (n/5 + 1)/(n**2 + 1)
    """
    if not g.is_Mul:
        return g
    flips, out = 0, []
    for f in g.args:
        if f.is_number and f.is_negative:
            flips, f = flips + 1, -f
        elif f.is_Add and f.could_extract_minus_sign():
            flips, f = flips + 1, -f
        elif f.is_Pow and f.exp.is_odd and f.base.is_Add and f.base.could_extract_minus_sign():
            flips, f = flips + 1, (-f.base) ** f.exp
        elif isinstance(f, sp.log) and f.has(N) and _below_one(f.args[0]):
            flips, f = flips + 1, sp.log(sp.Pow(f.args[0], -1, evaluate=False))
        out.append(f)
    return sp.Mul(*out) if flips % 2 == 0 and flips else g


#: functions with F(u)/u -> 1 as u -> 0
_LINEAR_AT_ZERO = (sp.sin, sp.tan, sp.sinh, sp.tanh, sp.asin, sp.atan, sp.asinh, sp.atanh)


def _small_argument(h: sp.Expr) -> tuple[sp.Expr, int] | None:
    """(u, k) with h = F(u) ~ c u^k as u -> 0: F(u) with F in _LINEAR_AT_ZERO (k = 1),
    1 - cos(u) (k = 2, c = 1/2), exp(u) - 1 (k = 1), log(w) with w -> 1 (k = 1,
    u = w - 1, or 1 - v for w = 1/v); None for any other form."""
    if isinstance(h, _LINEAR_AT_ZERO):
        return h.args[0], 1
    if isinstance(h, sp.log):  # log(w) ~ w - 1 ~ 1 - 1/w
        w = h.args[0]
        return (1 - w.base, 1) if w.is_Pow and w.exp == -1 else (w - 1, 1)
    if h.is_Add and len(h.args) == 2:
        one, rest = sorted(h.args, key=lambda a: not a.is_number)
        if one == 1 and rest.func == sp.Mul and rest.args[0] == -1 and len(rest.args) == 2:
            if isinstance(rest.args[1], sp.cos):
                return rest.args[1].args[0], 2
        if one == -1 and isinstance(rest, sp.exp):
            return rest.args[0], 1
    return None


def _leading_log(h: sp.Expr, depth: int = 3) -> sp.Expr | None:
    """log(c u^k) for h = F(u) ~ c u^k with u -> 0 from above, u in n alone
    (:func:`_small_argument`), u's own log expanded the same way; log L for a function
    (not log) tending to L in (0, oo); None for any other h."""
    small = _small_argument(h) if depth else None
    if small is None:
        if not isinstance(h, sp.Function) or isinstance(h, sp.log) or h.free_symbols != {N}:
            return None
        lim = limit_at_infinity(h)  # gamma(1 + 1/n), cos(1/n), atan(n): log h -> log lim
        ok = lim is not None and lim.is_number and lim.is_positive and lim.is_finite
        return sp.log(lim) if ok else None
    u, k = small
    if u.free_symbols != {N} or limit_at_infinity(u) != 0 or not eventually_positive(u):
        return None
    c = sp.Rational(1, 2) if k == 2 else sp.Integer(1)
    inner = _leading_log(u, depth - 1)
    return sp.log(c) + k * (sp.expand_log(sp.log(u), force=True) if inner is None else inner)


def _expanded_log(f: sp.Expr) -> sp.Expr:
    r"""log f expanded, where each :math:`\log F(u)` whose argument u tends to 0 from above
    is replaced by :math:`\log(c u^k)` (:func:`_leading_log`): the difference
    :math:`\log(F(u)/(c u^k))` tends to 0, so after the division by the level's logarithm
    (which tends to infinity) the limit is the same, and sympy finds it (``log(sin(n**-2))``
    defeats its limits).  A factor is replaced before the expansion, which would turn
    ``log(log(1/cos(1/n)))`` into ``log(-log(cos(1/n)))``.  A term outside exp-log with a
    finite limit is replaced by it (the numerical check of such limits fails on a quotient
    by log(log(n)), which converges too slowly)."""
    lg = sp.Integer(0)
    for factor in sp.Mul.make_args(f):
        base, e = factor.as_base_exp()
        power = constant_power_log(factor, absolute=True)  # g > 0: log g = sum log|f|
        if power is not None:
            lg += power
            continue
        lead = _leading_log(base) if e.is_number else None
        lg += sp.expand_log(sp.log(factor), force=True) if lead is None else e * lead
    out = sp.Integer(0)
    for term in sp.Add.make_args(lg):  # only logs with a constant coefficient: o(1) stays o(1)
        c, a = term.as_coeff_Mul()
        lead = _leading_log(a.args[0]) if isinstance(a, sp.log) else None
        if lead is None and _not_exp_log(term):  # sin(1/n) from log(exp(sin(1/n))): -> 0
            lim = limit_at_infinity(term)
            lead = lim / c if lim is not None and lim.is_number and lim.is_finite else None
        out += term if lead is None else c * lead
    return out


def _not_exp_log(e: sp.Expr) -> bool:
    """e holds a function of n other than exp and log (where sympy's limits are checked
    numerically, and a slowly converging quotient of logarithms fails the check)."""
    return any(
        isinstance(s, sp.Function) and not isinstance(s, (sp.exp, sp.log)) and s.has(N)
        for s in sp.preorder_traversal(e)
    )


def level_logs(g: sp.Expr, level: int) -> tuple[sp.Expr, sp.Expr]:
    """log g + log n + ... (level terms), and the normalising iterated log; the log of a
    function at a vanishing argument is replaced by its leading log (:func:`_expanded_log`)."""
    logs = [sp.log(N)]
    for _ in range(level):
        logs.append(sp.log(logs[-1]))
    g = _signs_paired(g)
    k, rest = g.as_independent(N, as_Add=False)
    if k.is_number and k.is_positive and k != 1:  # expand_log loops on -cos(1 + pi/5)/n
        lg = sp.log(k) + _expanded_log(rest)
    else:
        lg = _expanded_log(g)
    return lg + sum(logs[:level], sp.Integer(0)), logs[level]


def log_test(g: sp.Expr, conv: bool, label: str, levels: int = LOG_LEVELS) -> Decision | None:
    """Logarithmic test (and iterated-log refinements) on a positive expression g."""
    if not g.has(N):
        return None
    for level in range(levels):
        num, den = level_logs(g, level)
        lam = limit_at_infinity(num / den)
        if lam is None or not lam.is_number:
            return None if conv else _product_divergence(g, max(level, 1), label)
        if lam == -1:
            continue
        if conv and (lam == -sp.oo or lam < -1):
            return log_cert(g, lam, level, label, True)
        if not conv and (lam == sp.oo or lam > -1):
            return log_cert(g, lam, level, label, False)
        return None
    return None


def _product_divergence(g: sp.Expr, level: int, label: str) -> Decision | None:
    r"""Divergence where the logarithms' quotient has no limit sympy finds (a cancellation
    inside ``log(n/5 - 1) + log(sin(n**-2))``) but the product does:

    .. math:: \lim g\, n \log n \cdots \log_{L-1} n = c \in (0, \infty]
        \implies g \ge \frac{\min(c, 1)/2}{n \log n \cdots \log_{L-1} n}
        \text{ for large } n,

    and the series of the right side diverges (Bertrand's series with exponent 1 at level L).
    """
    logs = [N]
    for _ in range(1, level):
        logs.append(sp.log(logs[-1]))
    comp = sp.Mul(*logs)
    c = limit_at_infinity(g * comp)
    if c is None or not c.is_number or not (c == sp.oo or sign_of_const(c) == 1):
        return None
    test = "limit comparison with Bertrand's series"
    cert = (
        f"{test}: lim {label} * {comp} = {c} > 0, so b_n >= min({c}, 1)/2 * {1 / comp} for "
        f"all large n, and sum {1 / comp} diverges"
    )
    return Decision(False, cert, test=test, details={"level": level, "limit": str(c)})


def log_cert(g: sp.Expr, lam: sp.Expr, level: int, label: str, conv: bool) -> Decision:
    names = LEVEL_NAMES
    comp = _COMPARE_WITH[level]
    test = (
        "logarithmic test (comparison with n^-p)"
        if level == 0
        else f"Bertrand / Cauchy condensation test, level {level} (comparison with {comp})"
    )
    if conv:
        p = "2" if lam == -sp.oo else f"any p in (1, {-lam})"
        cert = (
            f"{test}: lim {names[level]} = {lam} < -1 for {label}, so b_n <= {comp} "
            f"for all large n with p = {p}, and sum {comp} converges (p > 1)"
        )
    else:
        p = "1" if lam == sp.oo else f"any p in ({-lam}, 1)"
        cert = (
            f"{test}: lim {names[level]} = {lam} > -1 for {label}, so b_n >= {comp} "
            f"for all large n with p = {p}, and sum {comp} diverges (p <= 1)"
        )
    details = {"level": level, "limit": str(lam)}
    return Decision(conv, cert, test=test.split(" (")[0], details=details)


def ratio_tests(b: sp.Expr) -> Decision | None:
    ratio = sp.simplify(b.subs(N, N + 1) / b)
    rho = limit_at_infinity(ratio)
    if rho is not None and rho.is_number:
        if rho < 1:
            return Decision(True, f"ratio test: lim b_(n+1)/b_n = {rho} < 1", test="ratio test")
        if rho > 1:
            return Decision(False, f"ratio test: lim b_(n+1)/b_n = {rho} > 1", test="ratio test")
    raabe = limit_at_infinity(N * (1 / ratio - 1))
    if raabe is not None and raabe.is_number:
        if raabe > 1:
            return Decision(
                True, f"Raabe's test: lim n (b_n/b_(n+1) - 1) = {raabe} > 1", test="Raabe test"
            )
        if raabe < 1:
            return Decision(
                False, f"Raabe's test: lim n (b_n/b_(n+1) - 1) = {raabe} < 1", test="Raabe test"
            )
    return None


# --------------------------------------------------------------------------- parameters
