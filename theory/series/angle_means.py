r"""Terms built from :math:`\sin n, \cos n` by Max/Min/Abs/sqrt, and reciprocal sines.

Three tests, each never wrong:

* :func:`angle_mean_test` -- :math:`b_n = g(n)\,F(n)` with :math:`F` a continuous function of
  the angle :math:`n \bmod 2\pi` (``Max(sin(n), cos(n))``, ``sqrt(1 + cos(n))``) and
  :math:`g > 0` nonincreasing with :math:`\sum g = \infty`.  The angles are uniformly
  distributed (Weyl, since :math:`1/(2\pi)` is irrational), so
  :math:`S_N = \sum_{n \le N} (F(n) - \mu) = o(N)` with :math:`\mu = \frac1{2\pi}\int_0^{2\pi}
  F`, and Abel summation gives
  :math:`\sum_{n \le N} g_n F(n) = \mu G_N + \sum_{n<N} S_n (g_n - g_{n+1}) + S_N g_N
  = \mu G_N + o(G_N)`, :math:`G_N = \sum_{n \le N} g_n \to \infty`.  When ball arithmetic
  (lower and upper Riemann sums over 512 arcs) proves :math:`\mu \ne 0`, the series diverges.
* :func:`near_zero_angle_test` -- :math:`b_n = g(n) \prod_i (c_{i0} + \sum_j c_{ij}
  |T(n)|^{s_{ij}})^{-r_i}` with T = sin or cos and coefficients :math:`\ge 0`: by
  Dirichlet's approximation theorem :math:`|\pi - p/q| < 1/q^2` for infinitely many
  :math:`p, q`; then :math:`|\sin p| = |\sin(p - q\pi)| \le |p - q\pi| < 1/q` and
  :math:`p < q\pi + 1 < 4q`, so :math:`|\sin p| < 4/p`.  By Minkowski's inhomogeneous
  theorem (Cassels, *An Introduction to Diophantine Approximation*, ch. III, thm. II:
  :math:`|q|\,\|q\theta - \alpha\| < 1/4` for infinitely many q when
  :math:`\theta` is irrational and :math:`\alpha \notin \mathbb{Z}\theta + \mathbb{Z}`),
  with :math:`\theta = 1/\pi`, :math:`\alpha = 1/2`: :math:`|\cos p| < \pi/(4p)` for
  infinitely many p.  Each factor decreases in :math:`|T|`, so :math:`b_p \ge M(p)`, the
  terms at :math:`|T| = \kappa/p`; when :math:`\lim M > 0` the terms do not tend to 0
  (``1/(n**2*sin(n)**2)``, ``1/(1 + n**2*cos(n)**2)`` diverge).
* :func:`max_min_rewrite_test` -- ``Max(x, y) = (x + y + |x - y|)/2`` and
  ``Min(x, y) = (x + y - |x - y|)/2`` put in, the same terms decided again
  (``(Max(sin(n), 0) - Max(-sin(n), 0))/n`` is ``sin(n)/n``).

:func:`proved_positive` tells from the form of :math:`b_n` alone that every term is
:math:`> 0` (for the certificate of a series left undecided: its terms do not change sign).
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from flint import arb

from theory.core.budget import step_budget
from theory.series.comparison_tests import log_test
from theory.series.decision import Decision, Undecided
from theory.series.expressions import N
from theory.series.limits import eventually_nonneg, eventually_positive, limit_at_infinity, smooth

#: arcs of the lower and upper Riemann sums of the mean of F
ARCS = 512
_ANGLES = (sp.sin(N), sp.cos(N))


def _nonzero(e: sp.Expr) -> bool:
    """e != 0 for every integer n >= 1 (sin(k n), cos(k n) with k rational != 0: pi is
    irrational)."""
    if isinstance(e, (sp.sin, sp.cos)):
        k = e.args[0] / N
        return k.is_Rational and k != 0
    if isinstance(e, sp.Abs):
        return _nonzero(e.args[0])
    if isinstance(e, sp.Pow):
        return _nonzero(e.base) and (e.exp.is_integer or proved_positive(e.base))
    if isinstance(e, sp.Mul):
        return all(_nonzero(a) for a in e.args)
    return proved_positive(e) or proved_positive(-e)


def proved_positive(e: sp.Expr) -> bool:
    """b_n > 0 for every integer n >= 1, from the form of e alone (sympy's assumptions,
    x! and Gamma(x) of positive arguments, even powers and absolute values of factors that
    never vanish).

    >>> from theory.series.expressions import parse_expression as P
    >>> proved_positive(P("1/(n**2*sin(n)**2)")), proved_positive(P("sin(n)/n"))
    (True, False)
    """
    if e.is_positive:
        return True
    if e == N or isinstance(e, sp.exp) and e.args[0].is_real:
        return True
    if isinstance(e, sp.factorial):  # x! = Gamma(x + 1) > 0 for x > -1
        return bool((e.args[0] + 1).is_positive)
    if isinstance(e, sp.gamma):  # Gamma > 0 on (0, oo)
        return bool(e.args[0].is_positive)
    if isinstance(e, sp.Abs):
        return _nonzero(e.args[0])
    if isinstance(e, sp.Pow):
        if proved_positive(e.base) and e.exp.is_real:
            return True
        return bool(e.exp.is_even) and _nonzero(e.base)
    if isinstance(e, (sp.Mul, sp.Add)):
        return all(proved_positive(a) for a in e.args) or _shifted_trig_positive(e)
    return False


def _shifted_trig_positive(e: sp.Expr) -> bool:
    """c + s trig(k n) > 0 at every integer n >= 1 (k rational != 0, trig sin or cos):
    c > |s|, or c = |s| > 0, since sin(k n), cos(k n) = +-1 needs k n in (pi/2) Z, and pi
    is irrational (``1 + sin(n)``, ``n + n*sin(n)`` = n (1 + sin n))."""
    e = sp.factor_terms(e)
    if isinstance(e, sp.Mul):
        return all(proved_positive(a) or _shifted_trig_positive(a) for a in e.args)
    if not isinstance(e, sp.Add) or len(e.args) != 2:
        return False
    c, t = e.as_independent(N, as_Add=True)
    s, trig = t.as_independent(N, as_Add=False)
    if not (c.is_number and s.is_number and isinstance(trig, (sp.sin, sp.cos))):
        return False
    k = trig.args[0] / N
    if not (k.is_Rational and k != 0):
        return False
    return bool(c > abs(s)) or bool(c == abs(s) and c > 0)


def _multiple(e: sp.Expr) -> int | None:
    """k for sin(k n) or cos(k n) with k a nonzero integer (a function of n mod 2 pi); else None."""
    if isinstance(e, (sp.sin, sp.cos)):
        k = e.args[0] / N
        if k.is_Integer and k != 0:
            return int(k)
    return None


def angle_only(e: sp.Expr) -> bool:
    """e depends on n only through sin(k n), cos(k n) (k a nonzero integer), by continuous
    operations."""
    if not e.has(N):
        return e.is_real is True and e.is_finite is not False
    if e in _ANGLES or _multiple(e) is not None:
        return True
    if isinstance(e, (sp.Add, sp.Mul, sp.Max, sp.Min, sp.Abs)):
        return all(angle_only(a) for a in e.args)
    if isinstance(e, sp.Pow):
        if e.exp.is_Integer and e.exp >= 0:
            return angle_only(e.base)
        if e.exp == sp.S.Half and angle_only(e.base):
            x = sp.Dummy("x", real=True)
            try:
                m = sp.minimum(e.base.subs(N, x), x, sp.Interval(0, 2 * sp.pi))
            except Exception:  # noqa: BLE001 - no minimum found: not proved real
                return False
            return bool(m.is_nonnegative)
    return False


def nonneg_angle(f: sp.Expr) -> bool:
    """F >= 0 at every angle (sympy's assumptions, or its minimum over a period)."""
    x = sp.Dummy("x", real=True)
    fx = f.subs(N, x)
    if fx.is_nonnegative:
        return True
    try:
        with step_budget(3.0):
            return bool(sp.minimum(fx, x, sp.Interval(0, 2 * sp.pi)).is_nonnegative)
    except Exception:  # noqa: BLE001 - no minimum: not proved
        return False


def _const(v: sp.Expr) -> arb:
    if v.is_Rational:
        return arb(int(v.p)) / int(v.q)
    f = sp.Float(v.evalf(40), 40)
    return arb(str(f), "1e-35")


def _hull(lo: arb, hi: arb) -> arb:
    return arb.union(lo, hi)


def _ball(e: sp.Expr, theta: arb) -> arb:
    """A ball that contains F(t) for every t in the ball theta."""
    if not e.has(N):
        return _const(e)
    if (k := _multiple(e)) is not None:
        return (k * theta).sin() if isinstance(e, sp.sin) else (k * theta).cos()
    args = [_ball(a, theta) for a in e.args] if not isinstance(e, sp.Pow) else None
    if isinstance(e, sp.Add):
        return sum(args[1:], args[0])
    if isinstance(e, sp.Mul):
        out = args[0]
        for a in args[1:]:
            out = out * a
        return out
    if isinstance(e, sp.Abs):
        x = args[0]
        return _hull(arb(0), abs(x).upper()) if 0 in x else abs(x)
    if isinstance(e, (sp.Max, sp.Min)):
        pick = max if isinstance(e, sp.Max) else min
        lo = pick((a.lower() for a in args), key=float)
        hi = pick((a.upper() for a in args), key=float)
        return _hull(lo, hi)
    if isinstance(e, sp.Pow):
        x = _ball(e.base, theta)
        if e.exp == sp.S.Half:  # the base is >= 0 everywhere (checked by angle_only)
            up = x.upper()
            lo = x.lower()
            return _hull(lo.sqrt() if lo > 0 else arb(0), up.sqrt() if up > 0 else arb(0))
        return x ** int(e.exp)
    raise Undecided(f"cannot enclose {e}")


def angle_mean_bounds(f: sp.Expr, arcs: int = ARCS) -> tuple[float, float]:
    r"""Lower and upper bounds (rigorous) of :math:`\mu = \frac1{2\pi}\int_0^{2\pi} F`:
    the Riemann sums of the balls of F over ``arcs`` equal arcs.

    >>> from theory.series.expressions import parse_expression as P
    >>> lo, hi = angle_mean_bounds(P("Abs(sin(n))"))   # 2/pi = 0.6366...
    >>> lo < 0.6366 < hi and hi - lo < 0.02
    True
    """
    two_pi = 2 * arb.pi()
    lo_sum, hi_sum = arb(0), arb(0)
    for k in range(arcs):
        theta = _hull(two_pi * k / arcs, two_pi * (k + 1) / arcs)
        v = _ball(f, theta)
        if not v.is_finite():
            raise Undecided(f"{f} is not bounded on an arc")
        lo_sum += v.lower()
        hi_sum += v.upper()
    return float((lo_sum / arcs).lower()), float((hi_sum / arcs).upper())


def _split(b: sp.Expr, keep: Callable[[sp.Expr], bool]) -> tuple[sp.Expr, sp.Expr] | None:
    """b = g * F with F the product of the factors ``keep`` accepts, g free of sin/cos."""
    f_part, g_part = [], []
    for a in sp.Mul.make_args(b):
        if a.has(N) and keep(a):
            f_part.append(a)
        elif a.has(sp.sin, sp.cos, sp.Max, sp.Min, sp.Abs) and a.has(N):
            return None
        else:
            g_part.append(a)
    if not f_part:
        return None
    return sp.Mul(*g_part), sp.Mul(*f_part)


def angle_mean_test(b: sp.Expr) -> Decision | None:
    """Divergence of sum g(n) F(n mod 2 pi) when the mean of F is proved != 0 (module doc)."""
    parts = _split(b, angle_only)
    if parts is None:
        return None
    g, f = parts
    if not (smooth(g) and g.has(N)):
        return None
    if not eventually_positive(g):
        g, f = -g, -f  # b_n = (-g)(-F)
        if not eventually_positive(g):
            return None
    lo, hi = angle_mean_bounds(f)
    if not (lo > 0 or hi < 0):
        return None
    if not eventually_nonneg(-sp.diff(g, N)):
        return _growing_weight(f, g, lo, hi)
    d = log_test(g, conv=False, label=f"g = {g}")
    if not d or d.converges is not False:
        return None
    return Decision(
        False,
        f"equidistribution: b_n = g(n) F(n) with F = {f} continuous in the angle n mod 2 pi, "
        f"whose mean lies in [{lo:.6g}, {hi:.6g}] (ball arithmetic, {ARCS} arcs), != 0; "
        f"g = {g} > 0 is nonincreasing for large n and sum g diverges ({d.certificate}); "
        "the angles are uniformly distributed (Weyl), so by Abel summation "
        "sum_{n<=N} b_n = mean * sum_{n<=N} g_n + o(sum g_n): the series diverges",
        test="equidistribution",
    )


def _growing_weight(f, g, lo, hi) -> Decision | None:
    """g > 0 nondecreasing and F of one sign with mean != 0: |F g| >= g(n0) |F|, and
    sum |F(n)| diverges over the equidistributed angles."""
    if not eventually_nonneg(sp.diff(g, N)):
        return None
    if not (nonneg_angle(f) if lo > 0 else nonneg_angle(-f)):
        return None
    return Decision(
        False,
        f"equidistribution: b_n = g(n) F(n) with F = {f} of one sign in the angle n mod 2 pi "
        f"and mean in [{lo:.6g}, {hi:.6g}] != 0, g = {g} > 0 nondecreasing for large n: "
        "|b_n| >= g(n0) |F(n)|, and sum |F(n)| diverges (Weyl: its mean is > 0)",
        test="equidistribution",
    )


#: kappa with the absolute value of T(p) below kappa/p for infinitely many p (module doc)
_NEAR_ZERO = {sp.sin: sp.Integer(4), sp.cos: sp.pi / 4}
_WHY_NEAR_ZERO = {
    sp.sin: "by Dirichlet's approximation theorem |pi - p/q| < 1/q^2 for infinitely many "
    "p, q, so |sin p| <= |p - q pi| < 1/q and p < 4q: |sin p| < 4/p",
    sp.cos: "by Minkowski's inhomogeneous approximation theorem (1/pi irrational, 1/2 not in "
    "Z/pi + Z) |q| ||q/pi - 1/2|| < 1/4 for infinitely many integers q, and with p = |q|, "
    "|p - pi/2 - k pi| < pi/(4p) for some k: |cos p| < pi/(4p)",
}


def _angle_power(a: sp.Expr) -> tuple | None:
    """(T, s) for a = |T(n)|^s written as T(n)^(even k), Abs(T(n))^s (s > 0), T in sin/cos."""
    base, s = (a.base, a.exp) if isinstance(a, sp.Pow) else (a, sp.Integer(1))
    if not (s.is_number and s.is_positive):
        return None
    if isinstance(base, sp.Abs):
        base = base.args[0]
    elif not (s.is_Integer and s.is_even):
        return None
    if isinstance(base, (sp.sin, sp.cos)) and base.args[0] == N:
        return type(base), s
    return None


def _near_zero_factor(a: sp.Expr) -> tuple | None:
    """(T, lower(y)) for a factor (c_0 + sum c_j |T|^(s_j))^(-r) (r > 0; c_j >= 0
    eventually, c_j > 0 for j >= 1), nonincreasing in y = |T(n)|: lower(y) is the factor at
    |T| = y, a bound from below wherever |T(n)| <= y."""
    if not (isinstance(a, sp.Pow) and a.exp.is_number and a.exp.is_negative):
        return None
    pure = _angle_power(sp.Pow(a.base, -a.exp, evaluate=False))
    if pure is not None:  # |T|^(-s)
        T, s = pure
        return T, lambda y: y ** (-s)
    if not isinstance(a.base, sp.Add):
        return None
    T, const, powers = None, [], []
    for term in a.base.args:
        c, rest = term.as_independent(sp.sin, sp.cos, as_Add=False)
        if not rest.has(sp.sin, sp.cos):
            const.append(term)
            continue
        ap = _angle_power(rest)
        if ap is None or (T is not None and ap[0] is not T) or c.has(sp.sin, sp.cos):
            return None
        T = ap[0]
        powers.append((c, ap[1]))
    c0 = sp.Add(*const)
    if T is None or not smooth(c0) or not eventually_nonneg(c0):
        return None
    if not all(smooth(c) and eventually_positive(c) for c, _ in powers):
        return None
    return T, lambda y: (c0 + sp.Add(*[c * y**s for c, s in powers])) ** a.exp


def near_zero_angle_test(b: sp.Expr) -> Decision | None:
    r"""Terms that do not tend to 0 near the zeros of :math:`\sin n` or :math:`\cos n`:
    :math:`b_n = g(n) \prod_i (c_{i0}(n) + \sum_j c_{ij}(n) |T(n)|^{s_{ij}})^{-r_i}`, one
    angle function T, :math:`g > 0`, :math:`c_{ij} \ge 0` eventually (so each factor
    decreases in :math:`|T|`).  :math:`|T(p)| < \kappa/p` for infinitely many p (Dirichlet's
    theorem for sin, :math:`\kappa = 4`; Minkowski's inhomogeneous theorem for cos,
    :math:`\kappa = \pi/4`), so :math:`b_p \ge M(p)`, M the product at
    :math:`|T| = \kappa/p`; :math:`\lim M > 0` means the terms do not tend to 0
    (``1/(n**2*sin(n)**2)``, ``1/(1 + n**2*cos(n)**2)``)."""
    g_part, lows, T = [], [], None
    for a in sp.Mul.make_args(b):
        if not (a.has(N) and a.has(sp.sin, sp.cos)):
            g_part.append(a)
            continue
        got = _near_zero_factor(a)
        if got is None or (T is not None and got[0] is not T):
            return None
        T = got[0]
        lows.append(got[1])
    if T is None:
        return None
    g = sp.Mul(*g_part)
    if g.has(sp.Max, sp.Min, sp.Abs) or not (smooth(g) and eventually_positive(g)):
        return None
    y = _NEAR_ZERO[T] / N
    M = g * sp.Mul(*[low(y) for low in lows])
    lim = limit_at_infinity(M)
    if lim is None or not (lim == sp.oo or (lim.is_number and lim.is_finite and bool(lim > 0))):
        return None
    name = T.__name__
    return Decision(
        False,
        f"terms not -> 0: b_n is {g} times factors nonincreasing in |{name} n| (their "
        f"coefficients >= 0 for large n); {_WHY_NEAR_ZERO[T]}; there b_p >= M(p) = "
        f"{sp.sstr(M)} with lim M(n) = {lim} > 0: |b_p| is bounded below by a positive "
        "number for infinitely many p",
        test="terms not -> 0",
    )


def _max_min_as_abs(e: sp.Expr) -> sp.Expr:
    def two(args, sign):
        out = args[0]
        for a in args[1:]:
            out = (out + a + sign * sp.Abs(out - a)) / 2
        return out

    return e.replace(
        lambda x: isinstance(x, (sp.Max, sp.Min)),
        lambda x: two(x.args, 1 if isinstance(x, sp.Max) else -1),
    )


def max_min_free(b: sp.Expr) -> sp.Expr:
    r"""b with every Max and Min written as :math:`\max(x, y) = (x + y + |x - y|)/2`,
    :math:`\min(x, y) = (x + y - |x - y|)/2` and expanded, when that leaves no Max, Min or
    Abs (the absolute values cancel: ``Max(c, 0) - Max(-c, 0)`` is c); else b unchanged.  The
    same terms, so the same sum, in a form the summation engines read."""
    if not b.has(sp.Max, sp.Min):
        return b
    c = sp.expand(_max_min_as_abs(b))
    return b if c.has(sp.Max, sp.Min, sp.Abs) else c


def max_min_rewrite_test(b: sp.Expr, decide: Callable[[sp.Expr], Decision]) -> Decision | None:
    """The terms with Max and Min written with Abs, decided again (module doc)."""
    if not b.has(sp.Max, sp.Min):
        return None
    c = sp.expand(_max_min_as_abs(b))
    if c == b or c.has(sp.Max, sp.Min):
        return None
    d = decide(c)
    if d and d.converges is not None:
        d.certificate = (
            f"with Max(x, y) = (x + y + |x - y|)/2, Min(x, y) = (x + y - |x - y|)/2 the "
            f"terms are b_n = {c}: " + d.certificate
        )
    return d
