r"""Euler-Maclaurin tails of :math:`\sum_{n\ge a} b_n` (the estimate behind B and the TRF search).

.. math::
   \sum_{n \ge a} f(n) = \int_a^\infty f + \tfrac12 f(a)
   - \sum_{k=1}^{p} \frac{B_{2k}}{(2k)!} f^{(2k-1)}(a) + R_p,\qquad
   |R_p| \le \frac{2\zeta(2p)}{(2\pi)^{2p}} \big|f^{(2p-1)}(a)\big|

(when :math:`f^{(2p)}` keeps one sign on :math:`[a,\infty)`, checked on grids, not proved:
the guaranteed enclosure of B is :mod:`theory.series.enclosure`).  The integral is a sympy
closed form evaluated at increasing precision until two precisions agree, or mpmath quadrature.

>>> from theory.series.expressions import parse_expression as P
>>> with mpmath.workdps(40):
...     v, err = Tail(P("1/n**2")).tail(10)
...     abs(v - mpmath.zeta(2, 10)) <= err < 1e-11       # Hurwitz zeta(2, 10)
True
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.decision import SeriesError
from theory.series.expressions import N
from theory.series.limits import limit_at_infinity
from theory.series.results import DPS
from theory.series.rpe_library import log_b_numpy

EM_ORDER = 5  # p: derivatives up to 2p - 1 in the correction, 2p in the bound
_X = sp.Symbol("x", positive=True)
_A = sp.Symbol("a", positive=True)


class Tail:
    """Euler-Maclaurin tail sum_{n >= a} f(n) with an error bound."""

    def __init__(self, b: sp.Expr):
        self.b = b
        self.f = sp.lambdify(N, b, modules="mpmath")
        self.closed = _closed_form_integral(b)
        self._derivatives(b)
        self.integral_method = "closed form" if self.closed is not None else "mpmath quadrature"

    def _derivatives(self, b):
        """f^(k) = f * Y_k(g', ..., g^(k)) with g = log f (complete Bell polynomials): the
        derivatives of log f stay small where those of f grow (e.g. exp(-ln^2 n))."""
        g = sp.expand_log(sp.log(b), force=True)
        direct = []

        def direct_derivs(a):
            if not direct:
                derivs, d = [], b
                for _ in range(2 * EM_ORDER):
                    d = sp.diff(d, N)
                    derivs.append(d)
                direct.append(sp.lambdify(N, derivs, modules="mpmath"))
            return direct[0](a)

        if g.has(sp.zoo, sp.nan) or not g.has(N) or sp.count_ops(g) >= sp.count_ops(b):
            self.all_derivs = direct_derivs  # log f is no simpler than f
            return
        gs, d = [], g
        for _ in range(2 * EM_ORDER):
            d = sp.diff(d, N)
            gs.append(d)
        glam = sp.lambdify(N, gs, modules="mpmath")

        def all_derivs(a):
            try:
                gv, Y = glam(a), [mpmath.mpf(1)]
            except (ZeroDivisionError, ValueError, OverflowError):
                return direct_derivs(a)  # e.g. log f underflows: differentiate f
            for k in range(2 * EM_ORDER):  # Y_(k+1) = sum_i C(k, i) Y_(k-i) g^(i+1)
                Y.append(
                    mpmath.fsum(mpmath.binomial(k, i) * Y[k - i] * gv[i] for i in range(k + 1))
                )
            fa = self.f(a)
            return [fa * y for y in Y[1:]]

        self.all_derivs = all_derivs

    def odd(self, a: float | mpmath.mpf) -> list[mpmath.mpf | mpmath.mpc]:
        d = self.all_derivs(a)
        return [d[2 * k - 2] for k in range(1, EM_ORDER + 1)]

    def top(self, a: float | mpmath.mpf) -> mpmath.mpf | mpmath.mpc:
        return self.all_derivs(a)[-1]

    def integral(self, a: mpmath.mpf, fast: bool = False) -> tuple[mpmath.mpf, mpmath.mpf]:
        if self.closed is not None:
            v = _eval_stable(self.closed, a)
            if v is not None:
                return v, abs(v) * mpmath.mpf(10) ** (-DPS + 5)
        dps = 20 if fast else DPS
        with mpmath.workdps(dps):
            ks = (0, 2, 8, 32) if fast else (0, 1, 3, 7, 15, 31)
            pts = [a * mpmath.mpf(2) ** k for k in ks] + [mpmath.inf]
            val, err = mpmath.quad(self.f, pts, error=True)
        return val, abs(err) + abs(val) * mpmath.mpf(10) ** (-dps + 8)

    def em_sign_ok(self, a: float | mpmath.mpf) -> bool:
        """f^(2p) keeps one sign on a geometric grid a .. 1e30 a (assumption of the bound),
        and on a dense float64 scan (every integer up to 2^15, then 32 points per octave):
        a narrow bump between the grid points (e.g. exp(-(n-1000)^2)) breaks the bound."""
        if not self._dense_sign_ok(a):
            return False
        g = self.top
        signs = set()
        with mpmath.workdps(DPS):
            for k in range(0, 101, 2):
                v = g(a * mpmath.mpf(2) ** k)
                if isinstance(v, mpmath.mpc):
                    return False
                if v != 0:
                    signs.add(v > 0)
        return len(signs) <= 1

    def _dense_sign_ok(self, a) -> bool:
        """No sign change of f^(2p) (float64) at the scan points >= a; points where float64
        over/underflows carry no information.  The signs are computed once and cached."""
        if not hasattr(self, "_scan"):
            self._scan = _dense_signs(self.b, 2 * EM_ORDER)
        pts, sgn = self._scan
        if pts is None:
            return True  # float64 cannot evaluate f^(2p): the mpmath grid decides
        sel = sgn[pts >= a]
        return not ((sel > 0).any() and (sel < 0).any())

    def tail(self, a: float | mpmath.mpf, fast: bool = False) -> tuple[mpmath.mpf, mpmath.mpf]:
        """(value, error bound) of sum_{n >= a} b_n, a an integer (``fast``: ~15 digits)."""
        a = mpmath.mpf(a)
        with mpmath.workdps(DPS):
            integral, err = self.integral(a, fast)
            val = integral + self.f(a) / 2
            odd = self.odd(a)
            for k in range(1, EM_ORDER + 1):
                val -= mpmath.bernoulli(2 * k) / mpmath.factorial(2 * k) * odd[k - 1]
            p = EM_ORDER
            rem = 2 * mpmath.zeta(2 * p) / (2 * mpmath.pi) ** (2 * p) * abs(odd[p - 1])
        return val, rem + err


#: the dense scans cover every integer up to this, then _SCAN_PER_OCTAVE points per octave
_SCAN_INT = 2**15
_SCAN_PER_OCTAVE = 32


def scan_points(lo: int) -> np.ndarray:
    """Every integer in [lo, 2^15], then a geometric grid from max(lo, 2^15) to 2^100 lo."""
    ints = np.arange(lo, _SCAN_INT + 1, dtype=float) if lo <= _SCAN_INT else np.empty(0)
    top = max(float(lo), float(_SCAN_INT))
    geo = top * 2.0 ** (np.arange(0, 100 * _SCAN_PER_OCTAVE + 1) / _SCAN_PER_OCTAVE)
    return np.concatenate([ints, np.floor(geo)])


def _dense_signs(b, order):
    """(points, sign of b^(order) there) in float64 for n >= 1, or (None, None) when the
    derivative cannot be built or evaluated within a short budget."""
    try:
        with step_budget(3.0):
            d = sp.diff(b, N, order)
            fn = sp.lambdify(N, d, modules="numpy")
            pts = scan_points(1)
            with np.errstate(all="ignore"):
                v = np.broadcast_to(np.asarray(fn(pts), dtype=complex), pts.shape)
    except Exception:  # noqa: BLE001 - no float64 information (the mpmath grid still applies)
        return None, None
    ok = np.isfinite(v) & (np.abs(v.imag) <= 1e-12 * np.abs(v.real))
    return pts, np.where(ok, np.sign(v.real), 0.0)


def _geometric_majorant_ok(b, n, v, rho) -> bool:
    """b_m <= b_n rho^(m - n) for all scan points m > n (float64, log scale, with slack):
    the assumption behind the geometric tail bound of the fast path (a later bump, e.g.
    exp(-n) + 1e-10 exp(-(n-5000)^2/10^4), breaks it).  NaN points carry no information."""
    try:
        with step_budget(3.0):
            pts = scan_points(n + 1)
            lb = log_b_numpy(b)(pts)
    except Exception:  # noqa: BLE001 - cannot check: no fast path
        return False
    lv, lr = float(mpmath.log(v)), float(mpmath.log(rho))
    bound = lv + (pts - n) * lr
    slack = 1e-9 * (abs(lv) + np.abs((pts - n) * lr)) + 1e-9
    with np.errstate(invalid="ignore"):
        bad = lb > bound + slack
    return not bad.any()


def _closed_form_integral(b):
    """A function a -> int_a^oo b(x) dx from a sympy antiderivative, or None.

    Tries ``manualintegrate`` in x and in t = log x (fast), then ``integrate``; every
    antiderivative F is checked (F' = b at three points, 30 digits) and its limit at
    infinity taken by Gruntz."""
    if not all(isinstance(s, (sp.exp, sp.log, sp.cos, sp.sin)) for s in b.atoms(sp.Function)):
        return None
    from sympy.integrals.manualintegrate import manualintegrate

    t = sp.Symbol("t", positive=True)
    tries = [
        (b.subs(N, _X), _X, _A),
        (sp.powsimp(sp.expand_log(b.subs(N, sp.exp(t)) * sp.exp(t), force=True)), t, sp.log(_A)),
    ]
    attempts = [
        (manualintegrate, tries[0]),
        (manualintegrate, tries[1]),
        (lambda g, v: sp.integrate(g, v), tries[0]),
    ]
    for method, (integrand, var, at) in attempts:
        if True:
            try:
                with step_budget(1.0):
                    F = method(integrand, var)
                    if F.has(sp.Integral) or not _antiderivative_ok(F, integrand, var):
                        continue
                    f_inf = limit_at_infinity(F.subs(var, N))
                if f_inf is None or not f_inf.is_finite:
                    continue
                r = f_inf - F.subs(var, at)
                if r.has(sp.erf):
                    r = sp.expand(r.rewrite(sp.erfc))
                return sp.lambdify(_A, r, modules="mpmath")
            except Exception:  # noqa: BLE001 - no usable closed form: try the next way
                continue
    return None


def _antiderivative_ok(F, g, var) -> bool:
    dF = sp.lambdify(var, sp.diff(F, var) - g, modules="mpmath")
    gg = sp.lambdify(var, g, modules="mpmath")
    with mpmath.workdps(40):
        for x in ("2.5", "7.25", "31.5"):
            x = mpmath.mpf(x)
            if abs(dF(x)) > mpmath.mpf(10) ** -28 * max(abs(gg(x)), mpmath.mpf(10) ** -300):
                return False
    return True


def _eval_stable(fn, a):
    """Evaluate at doubling precision until two precisions agree to DPS digits."""
    prev = None
    for dps in (DPS + 10, 2 * DPS + 20, 4 * DPS + 40, 8 * DPS + 80):
        try:
            with mpmath.workdps(dps):
                v = fn(mpmath.mpf(a))
                if isinstance(v, mpmath.mpc):
                    if abs(v.imag) > abs(v.real) * mpmath.mpf(10) ** (-dps + 5):
                        return None
                    v = v.real
        except (ZeroDivisionError, ValueError, OverflowError):
            return None
        if (
            prev is not None
            and mpmath.isfinite(v)
            and abs(v - prev) <= abs(v) * mpmath.mpf(10) ** (-DPS)
        ):
            return +v
        prev = v
    return None


class CutTail:
    """Tail beyond a cut-off n_c where the terms have become negligible (fast decay)."""

    def __init__(self, cutoff, bound):
        self.cutoff, self.bound = cutoff, bound

    def tail(self, a: float | mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
        if a < self.cutoff:
            raise SeriesError("internal: tail requested before the cut-off")
        return mpmath.mpf(0), self.bound


def smooth_beyond(b: sp.Expr) -> int:
    """An n beyond which b is smooth (past Piecewise/Min/Max/Abs break points), for the
    Euler-Maclaurin formula; SeriesError where there is none (floor: a jump at every n)."""
    if any(
        isinstance(x, (sp.floor, sp.ceiling, sp.frac, sp.sign)) and x.has(N)
        for x in sp.preorder_traversal(b)
    ):
        raise SeriesError(
            "the terms are not a smooth function of n (floor/ceiling/sign): the "
            "Euler-Maclaurin tail bound does not apply"
        )
    eqs = []
    for x in sp.preorder_traversal(b):
        if isinstance(x, sp.Piecewise):
            eqs += [
                c.lhs - c.rhs for _, c in x.args if isinstance(c, sp.core.relational.Relational)
            ]
        elif isinstance(x, (sp.Min, sp.Max)) and x.has(N):
            eqs += [x.args[0] - a for a in x.args[1:]]
        elif isinstance(x, sp.Abs) and x.has(N):
            eqs.append(x.args[0])
    top = 0
    for e in eqs:
        try:
            with step_budget(1.0):
                roots = sp.solve(e, N)
        except Exception:  # noqa: BLE001 - cannot locate the break point
            raise SeriesError(f"cannot locate the break point {e} = 0 of the terms") from None
        for r in roots:
            if r.is_real:
                top = max(top, float(r))
    return math.ceil(top) + 1 if eqs else 0


def fast_decay_sum(
    b: sp.Expr, n0: int, head_sum: mpmath.mpf
) -> tuple[mpmath.mpf, mpmath.mpf, int] | None:
    """Sum until a term is < 10^-(DPS+10) of the sum with ratios < 1/2 and falling; the rest
    is bounded by the geometric series of the last ratio (assumes non-increasing ratios)."""
    f = sp.lambdify(N, b, modules="mpmath")
    s, prev, ratios = head_sum, None, []
    for n in range(n0, n0 + 400):
        if n - n0 == 48 and ratios and ratios[-1] > 0.5:
            return None  # not (yet) geometric with ratio <= 1/2: use Euler-Maclaurin
        try:
            with step_budget(0.5):
                v = f(mpmath.mpf(n))
        except (OverflowError, StepTimeout, ValueError):
            return None
        s += v
        if prev is not None and prev > 0:
            ratios.append(v / prev)
        prev = v
        if (
            len(ratios) >= 3
            and v < abs(s) * mpmath.mpf(10) ** -(DPS + 10)
            and ratios[-1] < 0.5
            and ratios[-1] <= ratios[-2] <= ratios[-3]
        ):
            rho = ratios[-1]
            if not _stays_small(b, n, v) or not _geometric_majorant_ok(b, n, v, rho):
                return None
            return s, v * rho / (1 - rho), n + 1
    return None


def _stays_small(b, n, v) -> bool:
    """log b at n 2^k (k = 1..40) stays below log b_n (guards against a later rise,
    e.g. a Piecewise tail); points that cannot be evaluated end the check (>= 5 needed)."""
    try:
        lb = sp.lambdify(N, sp.expand_log(sp.log(b), force=True), modules="mpmath")
    except Exception:  # noqa: BLE001 - e.g. log(0): cannot check, so no fast path
        return False
    top, checked = mpmath.log(v), 0
    for k in range(1, 41):
        try:
            with step_budget(0.2):
                x = lb(mpmath.mpf(n) * 2**k)
        except (OverflowError, StepTimeout, ValueError, ZeroDivisionError, MemoryError):
            break
        if isinstance(x, mpmath.mpc) or x > top:
            return False
        checked += 1
    return checked >= 5
