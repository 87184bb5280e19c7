r"""Limits at :math:`n \to \infty` that a convergence certificate may rely on, and the
eventual signs of expressions in n.

:func:`limit_at_infinity` takes sympy's Gruntz limit and, outside the exp-log class (where
Gruntz is complete), cross-checks it numerically with mpmath at :math:`n = 10^3 \dots
10^{24}`; any doubt gives ``None``.  :func:`eventual_sign` is Gruntz's ``sign`` confirmed
far out (:math:`n = 10^{24}, 10^{60}, 10^{150}`); :func:`smooth` tells expressions free of
oscillating or non-smooth parts; :func:`nonzero_constant` proves a constant nonzero by
ball arithmetic or agreeing evaluations at 30, 60 and 90 digits.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import mpmath
import sympy as sp
from flint import arb
from sympy.series.gruntz import gruntz
from sympy.series.gruntz import sign as gruntz_sign

from theory.core.budget import StepTimeout, cache_answers, step_budget
from theory.series.arb_eval import NotSupported, arb_function
from theory.series.decision import SeriesError
from theory.series.expressions import N

#: seconds for one symbolic limit
STEP_BUDGET = 1.5
#: where a limit outside the exp-log class is checked numerically (and terms are checked)
CHECK_POINTS = (10**3, 10**6, 10**12, 10**24)
_OSC = (
    sp.cos,
    sp.sin,
    sp.floor,
    sp.ceiling,
    sp.Abs,
    sp.Min,
    sp.Max,
    sp.Piecewise,
    sp.sign,
    sp.frac,
)


def mp_function(expr: sp.Expr) -> Callable:
    """``expr`` as a function of n evaluated with mpmath (SeriesError if not finite)."""
    if expr.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise SeriesError(f"the terms {expr} are not finite numbers")
    return sp.lambdify(N, expr, modules="mpmath")


def sign_of_const(v: sp.Expr) -> int | None:
    """+1/-1 for a real constant clearly away from 0, else None."""
    r = robust_value(v)
    return None if r is None else (1 if r.real > 0 else -1)


def nonzero_constant(c: sp.Expr) -> bool:
    """A constant proved nonzero: from its structure (e^a with a finite real is positive,
    whatever its magnitude: e^(-10^308) is beyond every ball), by ball arithmetic (any
    magnitude within Arb's: exp(-1000) is not 0), else by agreeing evaluations at 30, 60
    and 90 digits."""
    if _structurally_nonzero(c):
        return True
    try:
        v = arb_function(c)(arb(0))
        if v.is_finite() and not v.contains(0):
            return True
    except (NotSupported, ArithmeticError, ValueError):
        pass
    return robust_value(c) is not None


def _structurally_nonzero(c: sp.Expr) -> bool:
    """A nonzero rational, e^a with a finite real constant a, or a product of such."""
    if c.is_Rational:
        return c != 0
    if isinstance(c, sp.exp):
        a = c.args[0]
        return not a.free_symbols and a.is_extended_real is True and a.is_finite is True
    if c.is_Mul:
        return all(_structurally_nonzero(f) for f in c.args)
    return False


def robust_value(v: sp.Expr) -> complex | None:
    """A real nonzero constant (the same at 30, 60 and 90 digits), else None."""
    try:
        v30, v60 = complex(sp.N(v, 30)), complex(sp.N(v, 60))
    except (TypeError, ValueError):
        return None
    if abs(v30.imag) > 1e-20 or abs(v60.imag) > 1e-20 or not math.isfinite(v30.real):
        return None
    if v30.real == 0 or abs(v30.real - v60.real) > 1e-20 * abs(v30.real):
        return None  # an exact zero shows up as noise that changes with precision
    try:
        v90 = complex(sp.N(v, 90))
    except (TypeError, ValueError):
        return None
    if abs(v90.real - v60.real) > 1e-20 * abs(v60.real):
        return None
    return complex(v60.real, 0)


def _exp_log_class(e: sp.Expr) -> bool:
    """True if only + * / ** exp log and numbers occur (Gruntz is complete there); a
    constant such as sin(pi/7) is a number."""
    for sub in sp.preorder_traversal(e):
        if isinstance(sub, sp.Function) and not isinstance(sub, (sp.exp, sp.log)) and sub.has(N):
            return False
    return True


@cache_answers(None)  # a None from a time-out is not kept
def limit_at_infinity(expr: sp.Expr, check: bool | None = None) -> sp.Expr | None:
    """lim_{n->oo} expr by Gruntz, or None; numerically cross-checked outside exp-log."""
    return _lim_uncached(expr, check)


def _lim_uncached(expr, check):
    try:
        with step_budget(STEP_BUDGET):
            val = _gruntz_or_limit(expr)
    except (
        StepTimeout,
        NotImplementedError,
        ValueError,
        TypeError,
        ZeroDivisionError,
        AttributeError,
        RecursionError,
        sp.PoleError,
    ):
        return None
    except Exception:  # noqa: BLE001 - sympy raises many kinds of errors; unsure -> None
        return None
    if (
        val is sp.nan
        or val.has(sp.AccumBounds)  # e.g. oo*sign(AccumBounds(-2, -1)): not a limit
        or val.has(sp.zoo)
        or val.has(sp.Limit)
        or (val.free_symbols - expr.free_symbols)
    ):
        return None
    if val.is_extended_real is False or (
        val.is_number and val.is_finite is False and val not in (sp.oo, -sp.oo)
    ):
        return None
    if check is None:
        check = not _exp_log_class(expr)
    if check and not val.free_symbols and not _numerically_consistent(expr, val):
        return None
    return val


def _gruntz_or_limit(expr):
    """Gruntz directly for exp-log expressions (about 30% faster), sympy's limit otherwise."""
    if _exp_log_class(expr):
        try:
            return gruntz(expr, N, sp.oo)
        except StepTimeout:
            raise
        except Exception:  # noqa: BLE001 - fall back to limit's heuristics
            pass
    return sp.limit(expr, N, sp.oo)


def _numerically_consistent(expr, val) -> bool:
    """Values of ``expr`` at n = 10^3 ... 10^24 (mpmath, 60+ digits) approach ``val``
    (with parameters, a limit free of them: at the parameters 1 and 3/2 each)."""
    params = expr.free_symbols - {N}
    if params:
        return all(
            _numerically_consistent(expr.xreplace({p: v for p in params}), val)
            for v in (sp.Integer(1), sp.Rational(3, 2))
        )
    f = mp_function(expr)
    pts = []
    try:
        with step_budget(1.0):
            for n in CHECK_POINTS:
                with mpmath.workdps(60 + 4 * len(str(n))):
                    v = f(mpmath.mpf(n))
                if isinstance(v, mpmath.mpc):
                    if abs(v.imag) > 1e-20:
                        return False
                    v = v.real
                if not mpmath.isfinite(v):
                    return False
                pts.append(mpmath.mpf(v))
    except (StepTimeout, ZeroDivisionError, ValueError, OverflowError, TypeError):
        return False
    if val == sp.oo:
        return pts[-1] > pts[0] and pts[-1] > 3
    if val == -sp.oo:
        return pts[-1] < pts[0] and pts[-1] < -3
    v = mpmath.mpf(sp.N(val, 30))
    d = [abs(p - v) for p in pts]
    return d[-1] <= d[0] + 1e-12 and d[-1] <= max(0.3 * abs(v + 1), 0.05)


# --------------------------------------------------------------------------- bounds


def smooth(e: sp.Expr) -> bool:
    """No oscillating or non-smooth part in n (cos/sin of an argument with a finite
    limit, like cos(1/n), count as smooth)."""
    return not any(_oscillating_atom(s) for s in sp.preorder_traversal(e))


@functools.lru_cache(maxsize=512)
def _oscillating_atom(s) -> bool:
    if not (isinstance(s, _OSC) and s.has(N)):
        return False
    if isinstance(s, (sp.cos, sp.sin)) and smooth(s.args[0]):
        a = limit_at_infinity(s.args[0], check=False)
        return not (a is not None and a.is_finite)
    return True


def eventually_nonneg(x: sp.Expr) -> bool:
    if x.is_nonnegative:
        return True
    if not smooth(x) or not x.has(N):
        return bool(x.is_nonnegative)
    lim = limit_at_infinity(x)
    if lim is not None and lim.is_number and bool(lim > 0):
        return True
    if lim == 0:
        return eventual_sign(x) == 1
    return False


def eventual_sign(x: sp.Expr) -> int | None:
    """Sign of x for all large n by Gruntz's ``sign`` (exp-log class), checked numerically."""
    try:
        with step_budget(STEP_BUDGET):
            s = gruntz_sign(x, N)
    except Exception:  # noqa: BLE001 - unsure -> None
        return None
    f = mp_function(x)
    try:
        with step_budget(1.0):
            ok = all(_mp_sign(f, n) == s for n in _SIGN_POINTS)
    except Exception:  # noqa: BLE001
        return None
    return s if ok else None


#: where an eventual sign from Gruntz is confirmed numerically: far out, since iterated
#: logarithms change sign late (log(log(log(log(n)))) > 0 only for n > 3.8e6)
_SIGN_POINTS = (10**24, 10**60, 10**150)


def _mp_sign(f: object, n: int) -> int:
    """Sign of f(n) with enough digits for cancellations of size n^2."""
    with mpmath.workdps(40 + 3 * len(str(n))):
        return int(mpmath.sign(mpmath.re(f(mpmath.mpf(n)))))


def eventually_positive(x: sp.Expr) -> bool:
    if x.is_positive:
        return True
    return eventually_nonneg(x) and not (x.is_number and x == 0)
