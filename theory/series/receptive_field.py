r"""The sum B of exp(RPE) and the Theoretical Receptive Field TRF(eps) (RPE paper, Eq. 22).

With the project's index convention (see :mod:`theory.series.rpe_library`), term :math:`k` of the
series is :math:`b_{s+k}`, :math:`k = 0, 1, \dots`, and

.. math::
   B = \sum_{k \ge 0} b_{s+k}, \qquad
   \mathrm{TRF}(\epsilon) = \min\Big\{ j : \sum_{k=0}^{j-1} b_{s+k} > B(1-\epsilon) \Big\}
   = \min\Big\{ j : R_j = \sum_{k \ge j} b_{s+k} < B\epsilon \Big\}.

**B** is the direct sum of the first terms (mpmath) plus the Euler-Maclaurin tail

.. math::
   \sum_{n \ge a} f(n) = \int_a^\infty f + \tfrac12 f(a)
   - \sum_{k=1}^{p} \frac{B_{2k}}{(2k)!} f^{(2k-1)}(a) + R_p,\qquad
   |R_p| \le \frac{2\zeta(2p)}{(2\pi)^{2p}} \big|f^{(2p-1)}(a)\big|

(the bound holds when :math:`f^{(2p)}` keeps one sign on :math:`[a,\infty)`, checked on a
geometric grid up to :math:`10^{30} a`).  The integral is a sympy closed form evaluated at
increasing precision until two precisions agree, or mpmath quadrature.

**TRF** is exact (an integer, certified by the error bounds) up to :math:`10^{12}`: the
tails :math:`R_j` of the first :math:`2^{20}` terms come from a reversed float64 cumulative
sum (``math.fsum`` near the answer), beyond that from the Euler-Maclaurin tail and a
bisection on :math:`j`.  Larger TRFs are a value with a stated relative accuracy, its
``log10`` and, when even that is huge, ``log10_log10``.

The paper's own procedure (Appendix E: an array of ``m`` terms, its sum as B, the first
``j`` with partial sum ``>=`` that sum times ``1-eps``) is available as ``truncate=m``.

>>> from theory.series.expressions import parse_expression as P
>>> s = series_sum(P("1/n**2"))
>>> float(s.value), s.error_bound < 1e-20      # zeta(2) = pi^2/6
(1.6449340668482264, True)
>>> trf(P("1/n**2"), 0.01).value                # brute force: 61
61
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import mpmath
import numpy as np
import sympy as sp

from theory.series.expressions import N
from theory.series.rpe_library import RPE, log_b_numpy
from theory.series.convergence import (SeriesError, decide_in_process, limit_at_infinity, as_expr, check_terms,
                                       free_parameters)
from theory.core.budget import StepTimeout, run_guarded, step_budget

DPS = 40
EM_ORDER = 5                 # p: derivatives up to 2p - 1 in the correction, 2p in the bound
TRUNCATE_LIMIT = 10 ** 8      # terms of the paper's truncated procedure (800 MB of float64)
DIRECT_TERMS = 2 ** 12       # float64 terms kept for the tails R_j (EM beyond)
EXACT_LIMIT = 10 ** 12
DEFAULT_BUDGET = 30.0
_X = sp.Symbol("x", positive=True)
_A = sp.Symbol("a", positive=True)


@dataclass
class SeriesSum:
    """B = sum_{k>=0} b_{start+k} with an absolute error bound."""

    value: mpmath.mpf
    error_bound: mpmath.mpf
    start: int
    method: str
    assumptions: str = ""

    def digits(self) -> int:
        """Correct significant digits guaranteed by the error bound."""
        if self.error_bound == 0:
            return DPS
        return max(0, int(mpmath.floor(mpmath.log10(abs(self.value) / self.error_bound))))


@dataclass
class TRF:
    """TRF(eps): ``value`` is an int when ``exact``; else an mpf with ``relative_accuracy``."""

    eps: float
    value: object
    exact: bool
    log10: float | None
    log10_log10: float | None = None
    relative_accuracy: float | None = None
    definition: str = "Eq. 22 (full series)"
    note: str = ""

    def as_dict(self) -> dict:
        v = self.value
        if isinstance(v, int):
            value = v
        elif v is None:
            value = None
        elif self.log10 is not None and self.log10 < 300:
            value = float(v)
        elif self.log10 is not None and self.log10 < 1e15:
            value = mpmath.nstr(v, 12)
        elif self.log10 is not None:
            value = f"10^{self.log10:.12g}"
        elif self.log10_log10 is not None:
            value = f"10^(10^{self.log10_log10:.12g})"
        else:
            value = None
        out = {"eps": self.eps, "value": value, "exact": self.exact, "log10": self.log10,
               "definition": self.definition}
        if self.log10_log10 is not None:
            out["log10_log10"] = self.log10_log10
        if self.relative_accuracy is not None:
            out["relative_accuracy"] = self.relative_accuracy
        if self.note:
            out["note"] = self.note
        return out


# --------------------------------------------------------------------------- public API

def series_sum(b_expr, start: int | None = None, budget: float = DEFAULT_BUDGET) -> SeriesSum:
    """B = sum_{k >= 0} b_{start+k} to >= 15 significant digits with an error bound."""
    b, start, head = _normalise(b_expr, start)
    return run_guarded(_series_sum_impl, (b, start, head), budget=budget)


def trf(b_expr, eps, start: int | None = None, truncate: int | None = None,
        budget: float = DEFAULT_BUDGET) -> TRF:
    """TRF(eps) of Eq. 22; ``truncate=m`` gives the paper's App. E procedure instead."""
    return trf_table(b_expr, [eps], start, truncate, budget)[0]


def trf_table(b_expr, eps_list, start: int | None = None, truncate: int | None = None,
              budget: float = DEFAULT_BUDGET) -> list[TRF]:
    """TRF for several eps at once (one B, one set of tails)."""
    b, start, head = _normalise(b_expr, start)
    eps_list = [float(e) for e in eps_list]
    for e in eps_list:
        if not 0 < e < 1:
            raise ValueError(f"eps must be in (0, 1), got {e}")
    if truncate is not None:
        return [trf_truncated(RPE("x", b, start=start, head=head), e, truncate, start) for e in eps_list]
    return run_guarded(_trf_impl, (b, start, head, eps_list), budget=budget)


def _normalise(b_expr, start):
    head = None
    if isinstance(b_expr, RPE):
        head = b_expr.head
        start = b_expr.start if start is None else start
    b = as_expr(b_expr)
    if free_parameters(b):
        raise SeriesError(f"give values for the free parameters {', '.join(free_parameters(b))}")
    return b, (1 if start is None else int(start)), head


# --------------------------------------------------------------------------- the tail engine

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
            self.all_derivs = direct_derivs     # log f is no simpler than f
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
                return direct_derivs(a)         # e.g. log f underflows: differentiate f
            for k in range(2 * EM_ORDER):        # Y_(k+1) = sum_i C(k, i) Y_(k-i) g^(i+1)
                Y.append(mpmath.fsum(mpmath.binomial(k, i) * Y[k - i] * gv[i] for i in range(k + 1)))
            fa = self.f(a)
            return [fa * y for y in Y[1:]]
        self.all_derivs = all_derivs

    def odd(self, a):
        d = self.all_derivs(a)
        return [d[2 * k - 2] for k in range(1, EM_ORDER + 1)]

    def top(self, a):
        return self.all_derivs(a)[-1]

    def integral(self, a, fast=False):
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

    def em_sign_ok(self, a) -> bool:
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
            return True              # float64 cannot evaluate f^(2p): the mpmath grid decides
        sel = sgn[pts >= a]
        return not ((sel > 0).any() and (sel < 0).any())

    def tail(self, a, fast=False):
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
_SCAN_INT = 2 ** 15
_SCAN_PER_OCTAVE = 32


def _scan_points(lo):
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
            pts = _scan_points(1)
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
            pts = _scan_points(n + 1)
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
    tries = [(b.subs(N, _X), _X, _A),
             (sp.powsimp(sp.expand_log(b.subs(N, sp.exp(t)) * sp.exp(t), force=True)), t, sp.log(_A))]
    attempts = [(manualintegrate, tries[0]), (manualintegrate, tries[1]),
                (lambda g, v: sp.integrate(g, v), tries[0])]
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
        if prev is not None and mpmath.isfinite(v) and \
                abs(v - prev) <= abs(v) * mpmath.mpf(10) ** (-DPS):
            return +v
        prev = v
    return None


def _require_convergent(b, start):
    d = decide_in_process(b, start)
    if d.converges is not True:
        what = "diverges" if d.converges is False else "is not known to converge"
        raise SeriesError(f"the series {what}, so B and TRF are not finite ({d.certificate})")
    return d


def _direct_mp(b, lo, hi):
    f = sp.lambdify(N, b, modules="mpmath")
    with mpmath.workdps(DPS):
        return mpmath.fsum(f(mpmath.mpf(n)) for n in range(lo, hi))


def _sum_parts(b, start, head):
    """(head_sum, tail engine, n0): terms before n0 are the head (given values)."""
    n0 = start + (0 if head is None else len(head))
    head_sum = mpmath.mpf(0) if head is None else mpmath.fsum(mpmath.mpf(float(x)) for x in head)
    return head_sum, n0


def _series_sum_impl(b, start, head) -> SeriesSum:
    mpmath.mp.dps = DPS          # runs in the guarded child: the working precision of all sums
    return _series_sum_core(b, start, head)[0]


class _CutTail:
    """Tail beyond a cut-off n_c where the terms have become negligible (fast decay)."""

    def __init__(self, cutoff, bound):
        self.cutoff, self.bound = cutoff, bound

    def tail(self, a):
        if a < self.cutoff:
            raise SeriesError("internal: tail requested before the cut-off")
        return mpmath.mpf(0), self.bound


def _smooth_beyond(b):
    """An n beyond which b is smooth (past Piecewise/Min/Max/Abs break points), for the
    Euler-Maclaurin formula; SeriesError where there is none (floor: a jump at every n)."""
    if any(isinstance(x, (sp.floor, sp.ceiling, sp.frac, sp.sign)) and x.has(N)
           for x in sp.preorder_traversal(b)):
        raise SeriesError("the terms are not a smooth function of n (floor/ceiling/sign): the "
                          "Euler-Maclaurin tail bound does not apply")
    eqs = []
    for x in sp.preorder_traversal(b):
        if isinstance(x, sp.Piecewise):
            eqs += [c.lhs - c.rhs for _, c in x.args if isinstance(c, sp.core.relational.Relational)]
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


def _fast_decay_sum(b, n0, head_sum):
    """Sum until a term is < 10^-(DPS+10) of the sum with ratios < 1/2 and falling; the rest
    is bounded by the geometric series of the last ratio (assumes non-increasing ratios)."""
    f = sp.lambdify(N, b, modules="mpmath")
    s, prev, ratios = head_sum, None, []
    for n in range(n0, n0 + 400):
        if n - n0 == 48 and ratios and ratios[-1] > 0.5:
            return None             # not (yet) geometric with ratio <= 1/2: use Euler-Maclaurin
        try:
            with step_budget(0.5):
                v = f(mpmath.mpf(n))
        except (OverflowError, StepTimeout, ValueError):
            return None
        s += v
        if prev is not None and prev > 0:
            ratios.append(v / prev)
        prev = v
        if len(ratios) >= 3 and v < abs(s) * mpmath.mpf(10) ** -(DPS + 10) \
                and ratios[-1] < 0.5 and ratios[-1] <= ratios[-2] <= ratios[-3]:
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
                x = lb(mpmath.mpf(n) * 2 ** k)
        except (OverflowError, StepTimeout, ValueError, ZeroDivisionError, MemoryError):
            break
        if isinstance(x, mpmath.mpc) or x > top:
            return False
        checked += 1
    return checked >= 5


def _series_sum_core(b, start, head):
    check_terms(b, start + (0 if head is None else len(head)))
    _require_convergent(b, start)
    head_sum, n0 = _sum_parts(b, start, head)
    if b.is_zero:
        return SeriesSum(head_sum, mpmath.mpf(0), start, "finite sum (the terms are 0 from "
                         f"n = {n0} on)"), _CutTail(n0, mpmath.mpf(0))
    fast = _fast_decay_sum(b, n0, head_sum)
    if fast is not None:
        total, bound, cutoff = fast
        err = bound + abs(total) * mpmath.mpf(10) ** (-DPS + 5)
        return SeriesSum(total, err, start, f"terms summed directly up to n = {cutoff - 1} "
                         f"(mpmath, {DPS} digits); the rest bounded by a geometric series",
                         assumptions=f"the ratios b_(n+1)/b_n keep falling for n >= {cutoff - 1}"
                         ), _CutTail(cutoff, bound)
    eng = Tail(b)
    smooth_from = _smooth_beyond(b)
    for m in (64, 512, 4096, 32768):
        a = n0 + m
        if a <= smooth_from:
            continue
        if not eng.em_sign_ok(a):
            continue
        direct = _direct_mp(b, n0, a)
        tail, err = eng.tail(a)
        total = head_sum + direct + tail
        err += abs(total) * mpmath.mpf(10) ** (-DPS + 5)
        if err <= abs(total) * mpmath.mpf(10) ** -18 or m == 32768:
            return SeriesSum(total, err, start, f"{m} terms summed directly (mpmath, {DPS} digits) + "
                             f"Euler-Maclaurin tail from n = {a} (p = {EM_ORDER}, integral: "
                             f"{eng.integral_method})",
                             assumptions=f"the {2 * EM_ORDER}th derivative of b keeps one sign "
                             f"for n >= {a} (checked on a grid up to {a}*2^100)"), eng
    raise SeriesError("cannot bound the tail: the Euler-Maclaurin remainder bound does not "
                      "apply (derivatives change sign, e.g. oscillating terms)")


# --------------------------------------------------------------------------- TRF

def _float_terms(b, start, head, count):
    """The first ``count`` terms as float64 (head, then b), or None if float64 is inaccurate."""
    L = 0 if head is None else len(head)
    out = np.empty(count)
    if L:
        out[:min(L, count)] = head[:count]
    if count > L:
        n = start + np.arange(L, count, dtype=float)
        try:
            with np.errstate(all="ignore"):
                out[L:] = np.exp(log_b_numpy(b)(n))
        except (OverflowError, TypeError, ValueError):
            return None             # numbers beyond float64: use mpmath terms
        f = sp.lambdify(N, b, modules="mpmath")
        probe = sorted({L, L + 1, L + 7} | {int(x) for x in np.geomspace(L + 1, count - 1, 24)})
        with mpmath.workdps(DPS):
            for k in probe:
                if k >= count:
                    continue
                ref = f(mpmath.mpf(start + k))
                if not (abs(out[k] - ref) <= 1e-13 * abs(ref) or (ref < 1e-300 and out[k] < 1e-290)):
                    return None
    if not np.all(np.isfinite(out)) or np.any(out < 0):
        raise SeriesError("a term is negative or not finite; TRF needs non-negative terms")
    return out


def _trf_impl(b, start, head, eps_list):
    return _trf_core(b, start, head, eps_list)[1]


def _trf_core(b, start, head, eps_list, S=None, eng=None):
    """(SeriesSum, [TRF]) in one pass."""
    mpmath.mp.dps = DPS
    if S is None:
        S, eng = _series_sum_core(b, start, head)
    B = S.value
    if B <= 0:
        raise SeriesError(f"B = {mpmath.nstr(B, 6)} <= 0: TRF (Eq. 22) needs a positive sum")
    if not mpmath.mpf(10) ** -250 < B < mpmath.mpf(10) ** 250:   # TRF is invariant under b -> c b
        m = int(-mpmath.nint(mpmath.log10(B)))
        # 10^m as an integer only while it is small: B = exp(-10^10) once built a
        # 4e9-digit integer here (minutes, gigabytes); exp(m log 10) stays symbolic
        scale = sp.Integer(10) ** m if abs(m) <= 4000 else sp.exp(int(-mpmath.nint(mpmath.log(B))))
        bs = b * scale if abs(m) <= 4000 else sp.powsimp(b * scale)
        if head is not None and abs(m) > 300:
            raise SeriesError(f"B = {mpmath.nstr(B, 6)} is out of float64 range together with "
                              "the given head values")
        return S, _trf_impl(bs, start, None if head is None else head * float(scale), eps_list)
    K = max(DIRECT_TERMS, 0 if head is None else len(head) + 64)
    if isinstance(eng, _CutTail):
        K = eng.cutoff - start
    terms = _float_terms(b, start, head, K)
    if terms is None:  # float64 loses digits (cancellation): fewer, mpmath-computed terms
        K = 4096 if head is None else max(4096, len(head))
        f = sp.lambdify(N, b, modules="mpmath")
        with mpmath.workdps(DPS):
            terms = np.array([float(head[k]) if head is not None and k < len(head)
                              else float(f(mpmath.mpf(start + k))) for k in range(K)])
    f_mp = sp.lambdify(N, b, modules="mpmath")

    def term(k):                                  # term k of the series, in mpmath
        if head is not None and k < len(head):
            return mpmath.mpf(float(head[k]))
        return f_mp(mpmath.mpf(start + k))

    RK, errK = eng.tail(start + K)
    R = np.append(np.cumsum(terms[::-1])[::-1], 0.0) + float(RK)
    out = []
    for eps in eps_list:
        target = B * mpmath.mpf(repr(eps))   # the decimal the user typed, not its binary double
        t_err = S.error_bound * mpmath.mpf(repr(eps))    # B is known to +- its error bound
        first = None
        if (terms < 0).any():            # partial sums not monotone: Eq. 22 wants the FIRST j
            try:
                first = _trf_first_crossing(R, terms, K, errK + t_err, target, eps, b, start)
            except _NotInWindow:
                pass
        if first is not None:
            out.append(first)
        elif RK + errK < target:
            out.append(_trf_direct(R, terms, RK, errK + t_err, target, eps, K, term))
        elif isinstance(eng, _CutTail):
            raise SeriesError(f"eps = {eps:g} is below the resolution {mpmath.nstr(errK / B, 3)} "
                              "of the tail bound for this series")
        else:
            out.append(_trf_tail(eng, start, K, target, eps, S, t_err))
    return S, out


def _trf_first_crossing(R, terms, K, err, target, eps, b, start):
    """Eq. 22 with terms of both signs: the partial sums may exceed B(1 - eps) and fall back
    (1, -1/2, 1/9, 1/16, ... has TRF(0.1) = 1; the monotone search said 11).  The first j
    with R_j < B eps among the first K terms, certified with float64 margins; beyond K only
    when the terms from there on are >= 0 (dense float64 scan)."""
    tf = float(target)
    below = np.nonzero(R < tf)[0]
    if below.size == 0:
        pts = _scan_points(start + K)
        with np.errstate(all="ignore"):
            v = np.broadcast_to(np.asarray(sp.lambdify(N, b, modules="numpy")(pts), dtype=float), pts.shape)
        if (v < 0).any():
            raise SeriesError(f"TRF(eps = {eps:g}) lies beyond the first {K} terms and the terms "
                              "change sign there: not computed")
        raise _NotInWindow()
    j = int(below[0])
    absum = np.append(np.cumsum(np.abs(terms[::-1]))[::-1], 0.0)    # rounding scale of R
    margin = (np.abs(R) * 1e-11 + absum * 1e-13 + float(err))[:j + 1]
    exact = bool(R[j] + margin[j] < tf and (R[:j] - margin[:j] >= tf).all())
    return TRF(eps, j, exact, math.log10(j) if j > 0 else None,
               note="" if exact else "a tail is within rounding of B*eps (tie)")


class _NotInWindow(Exception):
    """The first crossing lies beyond the direct window (terms >= 0 there)."""


def _trf_direct(R, terms, RK, errK, target, eps, K, term):
    """Smallest j <= K with R_j < target, certified: float64 tails first (terms are checked
    to 1e-13), then, where the margin is thinner than 1e-11, the tails summed in mpmath."""
    j = int(np.searchsorted(-R, -float(target), side="right"))

    def rough(i):
        v = mpmath.fsum([math.fsum(terms[i:K]), RK])
        return v, errK + abs(v) * mpmath.mpf(10) ** -11

    def precise(i):
        v = mpmath.fsum([term(k) for k in range(i, K)] + [RK])
        return v, errK + abs(v) * mpmath.mpf(10) ** (-DPS + 8)

    def certified(i):
        v, e = rough(i)
        return (v, e) if abs(v - target) > e else precise(i)

    lo_v, lo_e = certified(j - 1) if j > 0 else (mpmath.inf, 0)
    hi_v, hi_e = certified(j)
    while hi_v - hi_e >= target and j < K:        # rounding moved the answer up
        j += 1
        lo_v, lo_e, (hi_v, hi_e) = hi_v, hi_e, certified(j)
    while j > 1 and lo_v + lo_e < target:         # ... or down
        j -= 1
        hi_v, hi_e, (lo_v, lo_e) = lo_v, lo_e, certified(j - 1)
    exact = hi_v + hi_e < target and lo_v - lo_e >= target
    note = "" if exact else "the tails at j-1 and j are within rounding of B*eps (tie)"
    return TRF(eps, j, exact, math.log10(j) if j > 0 else None, note=note)


def _trf_tail(eng, start, K, target, eps, S, t_err=0):
    def T(n):
        return eng.tail(n, fast=True)

    lo = start + K                                 # T(lo) >= target
    hi = lo * 2
    while T(hi)[0] >= target and hi < 10 * EXACT_LIMIT:
        lo, hi = hi, hi * 8
    if T(hi)[0] < target:
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if T(mid)[0] < target:
                hi = mid
            else:
                lo = mid
        (vh, eh), (vl, el) = eng.tail(hi), eng.tail(hi - 1)     # full precision
        for _ in range(8):            # the fast bisection can be off by one near a tie
            if vh >= target:
                hi += 1
                (vl, el), (vh, eh) = (vh, eh), eng.tail(hi)
            elif vl < target:
                hi -= 1
                (vh, eh), (vl, el) = (vl, el), eng.tail(hi - 1)
            else:
                break
        j = hi - start
        eh, el = eh + t_err, el + t_err
        exact = vh + eh < target and vl - el >= target and j <= EXACT_LIMIT
        rel = None if exact else float((eh + el) / target) + 1e-15
        value = j if exact else mpmath.mpf(j)
        return TRF(eps, value, exact, math.log10(j), relative_accuracy=rel,
                   note="" if exact else "beyond the exact range or within the error bound")
    return _trf_log_scale(eng, start, target, eps, hi)


def _trf_log_scale(eng, start, target, eps, hi):
    """TRF beyond 10^13: root of log T(exp(u)) = log(B eps) (or in w = log u)."""
    with mpmath.workdps(DPS):
        lt = mpmath.log(target)

        def h_u(u):
            return mpmath.log(eng.tail(mpmath.exp(u))[0]) - lt

        u_lo, u_hi = mpmath.log(hi) - 1, mpmath.log(hi) * 2
        level = "u"
        while h_u(u_hi) > 0:
            u_lo, u_hi = u_hi, u_hi * 2
            if u_hi > 1e6:
                level = "w"
                break
        if level == "u":
            root = _illinois(h_u, u_lo, u_hi)
            rel = _root_accuracy(h_u, root, eng, mpmath.exp)
            log10 = float(root / mpmath.ln10)
            x = mpmath.exp(root)                 # the tail from the real index x equals B eps
            value = (mpmath.floor(x) + 1 - start) if log10 < 30 else x - start   # Eq. 22: next integer
            return TRF(eps, value, False, log10, relative_accuracy=rel,
                       note="value from the Euler-Maclaurin tail and a root in log n; not an exact integer")

        def h_w(w):
            return mpmath.log(eng.tail(mpmath.exp(mpmath.exp(w)))[0]) - lt

        w_lo, w_hi = mpmath.log(u_lo), mpmath.log(u_hi)
        while h_w(w_hi) > 0:
            w_lo, w_hi = w_hi, w_hi + 1
            if w_hi > 2000:
                return TRF(eps, None, False, None, note="TRF exceeds exp(exp(2000)); not resolved")
        root = _illinois(h_w, w_lo, w_hi)
        log10 = mpmath.exp(root) / mpmath.ln10
        # relative accuracy of log10(TRF) = accuracy of u = e^w: |dw| ~ |h|/|h'|
        d = (h_w(root + mpmath.mpf(10) ** -12) - h_w(root)) / mpmath.mpf(10) ** -12
        rel = max(float(abs(h_w(root) / d)), 1e-12) if d else None
        return TRF(eps, mpmath.exp(mpmath.exp(root)), False, float(log10) if log10 < 1e300 else None,
                   log10_log10=float(mpmath.log10(log10)), relative_accuracy=rel,
                   note="relative accuracy refers to log10(TRF); value from a root in log log n")


def _root_accuracy(h, root, eng, xform):
    """Relative accuracy of x = exp(root) from the residual and the tail's error bound."""
    step = mpmath.mpf(10) ** -12
    d = (h(root + step) - h(root)) / step
    if d == 0:
        return None
    x = xform(root)
    val, err = eng.tail(x)
    return max(float((abs(h(root)) + err / val) / abs(d)), 1e-12)   # conservative floor


def _illinois(h, a, b, tol=mpmath.mpf(10) ** -25, maxiter=200):
    """Root of a decreasing h on [a, b] with h(a) > 0 > h(b) (Illinois regula falsi)."""
    fa, fb, side = h(a), h(b), 0
    for _ in range(maxiter):
        c = (a * fb - b * fa) / (fb - fa)
        fc = h(c)
        if abs(b - a) <= tol * max(1, abs(c)) or fc == 0:
            return c
        if fc > 0:
            a, fa = c, fc
            if side == -1:
                fb /= 2
            side = -1
        else:
            b, fb = c, fc
            if side == 1:
                fa /= 2
            side = 1
    return (a + b) / 2


def trf_truncated(b_expr, eps: float, m: int, start: int | None = None) -> TRF:
    """The paper's procedure (RPE paper App. E): m terms, B replaced by their sum, and the
    first j whose partial sum is >= (1-eps) times that sum.  Not Eq. 22 when the series
    converges slowly: it can never exceed m."""
    from theory.series.rpe_library import log_b_values
    rpe = b_expr if isinstance(b_expr, RPE) else RPE("x", as_expr(b_expr), start=1 if start is None else start)
    st = rpe.start if start is None else start
    if not 1 <= int(m) <= TRUNCATE_LIMIT:
        raise ValueError(f"the truncated TRF takes 1 to {TRUNCATE_LIMIT} terms, got m = {m}")
    t = np.arange(int(m))
    terms = np.exp(log_b_values(RPE(rpe.name, rpe.b, start=st, head=rpe.head), t, st))
    bad = np.isnan(terms) & (t >= (0 if rpe.head is None else len(rpe.head)))
    if bad.any():                  # negative terms: log b is NaN there, take b itself
        with np.errstate(all="ignore"):
            terms[bad] = np.broadcast_to(np.asarray(sp.lambdify(N, rpe.b, modules="numpy")(
                (st + t[bad]).astype(float)), dtype=float), t[bad].shape)
    if not np.isfinite(terms).all():
        raise SeriesError("the truncated TRF needs finite real terms")
    cs = np.cumsum(terms)
    # the FIRST j (partial sums need not be monotone when terms change sign)
    j = int(np.argmax(cs >= cs[-1] * (1 - eps))) + 1
    return TRF(eps, j, True, math.log10(j), definition=f"truncated (RPE paper App. E, m = {m} terms)",
               note="exact for the truncated definition only")


# --------------------------------------------------------------------------- asymptotics

@dataclass
class Asymptotic:
    """Leading behaviour of TRF(eps) as eps -> 0, derived from limits of b_n."""

    formula: str
    derivation: str
    evaluate: object = None    # eps -> mpf approximation (None when not available)
    kind: str = ""

    def __str__(self):
        return self.formula


def analyse_series(b_expr, eps_list, start: int | None = None, budget: float = DEFAULT_BUDGET):
    """B, the TRF table and the asymptotic order in one guarded pass (what the CLI prints).

    Returns ``(SeriesSum, [TRF] or None, trf_error or None, Asymptotic or None)``.
    """
    b, start, head = _normalise(b_expr, start)
    eps_list = [float(e) for e in eps_list]
    S, table, err, asym = run_guarded(_analyse_impl, (b, start, head, eps_list), budget=budget)
    if asym is not None:
        formula, derivation, kind, consts = asym
        if "B" in formula:
            formula += f"  (B = {mpmath.nstr(S.value, 10)})"
        asym = Asymptotic(formula, derivation, _asym_evaluator(kind, consts, S.value), kind)
    return S, table, err, asym


def _analyse_impl(b, start, head, eps_list):
    mpmath.mp.dps = DPS
    S, eng = _series_sum_core(b, start, head)
    try:
        table, err = _trf_core(b, start, head, eps_list, S, eng)[1], None
    except SeriesError as exc:
        table, err = None, str(exc)
    try:
        asym = _asymptotic_impl(b) if S.value > 0 else None
    except Exception:  # noqa: BLE001 - the asymptotic order is optional
        asym = None
    return S, table, err, asym


def trf_asymptotic(b_expr, start: int | None = None, B=None, budget: float = 15.0):
    """Asymptotic order of TRF(eps) as eps -> 0 (closed form), or None when not derived.

    Classes (each constant is a sympy limit of b_n, checked numerically):
    ``b_n ~ C n^-p`` (p > 1): TRF ~ (C/((p-1) B eps))^(1/(p-1));
    ``b_n ~ C/(n (ln n)^q)`` (q > 1): ln TRF ~ (C/((q-1) B eps))^(1/(q-1));
    ``-ln b_n ~ c n^a``: TRF ~ (ln(1/eps)/c)^(1/a);
    ``-ln b_n ~ c (ln n)^a`` (a > 1): ln TRF ~ (ln(1/eps)/c)^(1/a).
    """
    b, start, head = _normalise(b_expr, start)
    if B is None:
        B = series_sum(RPE("x", b, start=start, head=head)).value
    res = run_guarded(_asymptotic_impl, (b,), budget=budget)
    if res is None:
        return None
    formula, derivation, kind, consts = res
    if "B" in formula:
        formula += f"  (B = {mpmath.nstr(B, 10)})"
    return Asymptotic(formula, derivation, _asym_evaluator(kind, consts, B), kind)


def _asym_evaluator(kind, c, B):
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


def _asymptotic_impl(b):
    mpmath.mp.dps = DPS
    L = sp.expand_log(sp.log(b), force=True)
    lam = limit_at_infinity(L / sp.log(N))
    if lam is None or not lam.is_number:
        return None
    if lam.is_finite and lam < -1:
        p = -lam
        C = limit_at_infinity(b * N ** p)
        if C is None or not (C.is_finite and C.is_positive):
            return None
        return (f"TRF(eps) ~ {_fmt_pow(C / (p - 1), 1 / (p - 1))}",
                f"b_n ~ C n^-p with p = lim -log(b_n)/log(n) = {p}, C = lim b_n n^p = {C}; "
                f"the tail is sum_(m>=n) b_m ~ C n^(1-p)/(p-1); setting it to B eps and solving for n",
                "power", {"p": _num(p), "C": _num(C)})
    if lam == -1:
        mu = limit_at_infinity((L + sp.log(N)) / sp.log(sp.log(N)))
        if mu is None or not (mu.is_number and mu.is_finite and mu < -1):
            return None
        q = -mu
        C = limit_at_infinity(b * N * sp.log(N) ** q)
        if C is None or not (C.is_finite and C.is_positive):
            return None
        return (f"ln TRF(eps) ~ {_fmt_pow(C / (q - 1), 1 / (q - 1))}",
                f"b_n ~ C/(n (ln n)^q) with q = {q}, C = {C}; the tail is ~ C (ln n)^(1-q)/(q-1); "
                "setting it to B eps and solving for ln n", "power-log", {"q": _num(q), "C": _num(C)})
    if lam != -sp.oo:
        return None
    g = -L                                               # -log b_n -> oo faster than log n
    a = limit_at_infinity(sp.log(g) / sp.log(N))
    if a is not None and a.is_number and a.is_finite and a > 0:
        c = limit_at_infinity(g / N ** a)
        if c is not None and c.is_finite and c.is_positive:
            return (f"TRF(eps) ~ {_fmt((sp.log(1 / _EPS) / c) ** (1 / a))}",
                    f"-ln b_n ~ c n^a with a = lim ln(-ln b_n)/ln n = {a}, c = {c}; the tail is "
                    "b at the cut-off times a factor sub-exponential in n, so ln(tail) ~ -c n^a; "
                    "setting it to ln(B eps) ~ ln eps and solving for n", "stretched-exp",
                    {"a": _num(a), "c": _num(c)})
    if a == 0:
        a2 = limit_at_infinity(sp.log(g) / sp.log(sp.log(N)))
        if a2 is not None and a2.is_number and a2.is_finite and a2 > 1:
            c = limit_at_infinity(g / sp.log(N) ** a2)
            if c is not None and c.is_finite and c.is_positive:
                return (f"ln TRF(eps) ~ {_fmt((sp.log(1 / _EPS) / c) ** (1 / a2))}",
                        f"-ln b_n ~ c (ln n)^a with a = {a2}, c = {c}; the tail is n b_n times a factor "
                        "polynomial in ln n, so ln(tail) ~ -c (ln n)^a; setting it to ln eps and "
                        "solving for ln n", "log-normal", {"a": _num(a2), "c": _num(c)})
    return None


# --------------------------------------------------------------------------- Thm 3.5

@dataclass
class Comparison:
    """Thm 3.5: which series has the smaller TRF as eps -> 0, and why."""

    smaller: int | None          # 1, 2 or None (not decided by Thm 3.5)
    limit: str                   # lim (b1_n/B1)/(b2_n/B2)
    statement: str
    sums: tuple = ()
    numeric: list = field(default_factory=list)


def _ratio_limit(e1, e2):
    with step_budget(3.0):
        ratio = sp.simplify(e1 / e2)
    return limit_at_infinity(ratio)


def compare_trf(b1, b2, start: int | None = None, eps_check=(1e-2, 1e-4, 1e-6),
                budget: float = DEFAULT_BUDGET) -> Comparison:
    """Thm 3.5 of the RPE paper on two convergent series (same start).

    The normalised term ratio rho = lim (b1_n/B1)/(b2_n/B2): rho < 1 gives
    TRF1(eps) <= TRF2(eps) for all small eps, rho > 1 the reverse, rho = 1 no conclusion.
    """
    B1 = series_sum(b1, start).value
    B2 = series_sum(b2, start).value
    e1, e2 = as_expr(b1), as_expr(b2)
    lim = run_guarded(_ratio_limit, (e1, e2), budget=budget)
    numeric = []
    if eps_check:
        t1, t2 = trf_table(b1, eps_check, start), trf_table(b2, eps_check, start)
        numeric = [{"eps": e, "trf1": x.as_dict()["value"], "trf2": y.as_dict()["value"]}
                   for e, x, y in zip(eps_check, t1, t2)]
    if lim is None:
        return Comparison(None, "unknown", "lim b1_n/b2_n could not be computed; Thm 3.5 not applied",
                          (B1, B2), numeric)
    rho = lim * sp.Float(B2 / B1, 30) if lim.is_finite else lim
    if rho.is_number and rho.is_finite and abs(float(rho) - 1) < 1e-15:
        smaller, rel = None, "="          # equal within the accuracy of B1, B2: no conclusion
    elif rho == sp.oo or (rho.is_number and rho > 1):
        smaller, rel = 2, ">"
    elif rho.is_number and rho < 1:
        smaller, rel = 1, "<"
    else:
        smaller, rel = None, "="
    why = (f"lim (b1_n/B1)/(b2_n/B2) = (B2/B1) lim b1_n/b2_n = ({mpmath.nstr(B2, 10)}/{mpmath.nstr(B1, 10)})"
           f" * {lim} = {sp.N(rho, 8) if rho.is_finite else rho} {rel} 1")
    if smaller is None:
        text = why + "; Thm 3.5 does not decide"
    else:
        big = 3 - smaller
        text = (why + f"; so b{smaller}_n/B{smaller} < b{big}_n/B{big} for all large n and, by Thm 3.5, "
                f"TRF{smaller}(eps) <= TRF{big}(eps) for all small eps")
    return Comparison(smaller, str(rho), text, (B1, B2), numeric)
