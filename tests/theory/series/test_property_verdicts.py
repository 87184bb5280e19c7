"""Property-based checks of the engine on random RPE-like series (hypothesis).

A grammar builds b_n from the paper's families (ALiBi, Kerple log/power, p-series, Type2,
Bertrand, a T5-like constant tail written with Min) with random parameters, shifts, scale
factors, bounded oscillating factors, bumps, floor(n/2) arguments, and Min/Max/sums of two
families.  Each formula carries its true verdict, derived from rules of analysis that do not
use the engine: a family converges by its own criterion (p > 1, r > 1, q > 1, exponential
decay; a constant tail diverges); shifts, positive scales, bounded positive factors, bumps
and floor(n/2) keep the verdict; a sum or Max of two positive terms converges iff both do,
a Min iff either does (the families are eventually ordered).  Then:

* the verdict of :func:`decide` is that truth or undecided, never the other one;
* the terms are positive (sampled with mpmath at 30 digits), as the rules assume;
* for fast-decaying convergent series, B's stated error bound holds against an mpmath sum at
  50 digits (direct summation to where the terms are below 1e-60, with a geometric tail
  bound), and TRF(eps) equals the brute-force count on those partial sums.

The default suite runs a fixed, derandomized set of examples; more run under ``slow``.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from theory.core.budget import BudgetExceeded
from theory.series.convergence import decide
from theory.series.decision import SeriesError
from theory.series.expressions import N, parse_expression

R = sp.Rational


class Series:
    """A formula text, its true verdict, and whether it decays at least geometrically."""

    def __init__(self, text: str, converges: bool, fast: bool):
        self.text, self.converges, self.fast = text, converges, fast

    def __repr__(self):
        return f"Series({self.text!r}, converges={self.converges})"


def _fraction(draw, values):
    return draw(st.sampled_from(values))


@st.composite
def family(draw, arg="n"):
    """One paper family in the argument ``arg`` (an expression >= 1 for n >= 1)."""
    kind = draw(
        st.sampled_from(
            ["alibi", "kerple_log", "kerple_power", "p", "type2", "bertrand", "t5_tail"]
        )
    )
    k = _fraction(draw, ["1/8", "1/4", "1/2", "1", "2"])
    if kind == "alibi":  # RPE paper App. B Eq. 30
        return Series(f"exp(-{k}*({arg}))", True, R(k) >= R(1, 4))
    if kind == "kerple_log":  # Eq. 32: converges iff r > 1
        r = _fraction(draw, ["1/2", "1", "3/2", "2", "3"])
        return Series(f"(1 + {k}*({arg}))**(-{r})", R(r) > 1, False)
    if kind == "kerple_power":  # Eq. 34: converges for r > 0
        r = _fraction(draw, ["1/3", "1/2", "1", "3/2"])
        return Series(f"exp(-{k}*({arg})**({r}))", True, R(r) >= 1 and R(k) >= R(1, 2))
    if kind == "p":
        p = _fraction(draw, ["1/2", "1", "11/10", "3/2", "2", "3"])
        return Series(f"({arg})**(-{p})", R(p) > 1, False)
    if kind == "type2":
        return Series(f"exp(-log({arg})**2)", True, False)
    if kind == "bertrand":  # 1/(m log^q m), m = arg + 2
        q = _fraction(draw, ["1/2", "1", "2"])
        return Series(f"1/(({arg} + 2)*log({arg} + 2)**{q})", R(q) > 1, False)
    m = _fraction(draw, ["8", "32", "128"])  # T5-like constant tail
    return Series(f"exp(-Min({arg}, {m})/{k})", False, False)


@st.composite
def modified(draw):
    """A family with an optional shift, floor(n/2) argument, scale, factor and bump."""
    arg = draw(st.sampled_from(["n", "n + 1", "n + 5", "floor(n/2) + 1"]))
    s = draw(family(arg))
    text, fast = s.text, s.fast
    scale = draw(st.sampled_from(["", "3*", "1/10*"]))
    factor = draw(st.sampled_from(["", "*(2 + cos(n))", "*(1 + exp(-n))", "*(3 + sin(n/3))/2"]))
    text = f"{scale}({text}){factor}"
    if draw(st.booleans()):
        m = draw(st.sampled_from(["3", "50"]))
        text = f"{text} + exp(-(n - {m})**2)/10"  # a bump: a convergent addition
    return Series(text, s.converges, fast and "floor" not in arg)


@st.composite
def rpe_like(draw):
    a = draw(modified())
    how = draw(st.sampled_from(["one", "one", "sum", "max", "min"]))
    if how == "one":
        return a
    b = draw(modified())
    if how == "sum":
        return Series(f"{a.text} + {b.text}", a.converges and b.converges, a.fast and b.fast)
    if how == "max":
        return Series(f"Max({a.text}, {b.text})", a.converges and b.converges, a.fast and b.fast)
    return Series(f"Min({a.text}, {b.text})", a.converges or b.converges, False)


def _terms_positive(b, points=(1, 2, 3, 10, 100, 10**4, 10**8)) -> bool:
    f = sp.lambdify(N, b, modules="mpmath")
    with mpmath.workdps(30):
        return all(mpmath.re(f(mpmath.mpf(n))) > 0 for n in points)


def check_verdict(s: Series) -> None:
    b = parse_expression(s.text)
    assert _terms_positive(b), s
    d = decide(b, 1)
    assert d.converges in (None, s.converges), (s, d.certificate)


COMMON = dict(
    derandomize=True, deadline=None, suppress_health_check=list(HealthCheck), database=None
)


@settings(max_examples=6, **COMMON)
@given(rpe_like())
def test_verdict_never_wrong(s):
    check_verdict(s)


@pytest.mark.slow
@settings(max_examples=150, **COMMON)
@given(rpe_like())
def test_verdict_never_wrong_many(s):
    check_verdict(s)


def reference_sum(b, start: int = 1):
    """sum_{n >= start} b_n: direct sum at 80 digits (a certified enclosure can be 1e-60
    narrow, finer than the rounding of thousands of additions at 50 digits) until the terms
    fall below 1e-60 and decrease geometrically (ratio <= rho < 1 over the last 50 terms),
    plus the geometric tail bound b_last*rho/(1-rho); returns (partial sums, B, tail bound)."""
    f = sp.lambdify(N, b, modules="mpmath")
    with mpmath.workdps(80):
        partial, total, n, last = [], mpmath.mpf(0), start, []
        while n < start + 5000:
            t = mpmath.re(f(mpmath.mpf(n)))
            total += t
            partial.append(total)
            last = (last + [t])[-50:]
            n += 1
            if t < mpmath.mpf(10) ** -60 and len(last) == 50:
                rho = max(last[i + 1] / last[i] for i in range(49))
                if rho < 1:
                    return partial, total, last[-1] * rho / (1 - rho)
    return None


def check_sum_and_trf(s: Series) -> None:
    from theory.series.sums import series_sum
    from theory.series.trf_search import trf_table

    b = parse_expression(s.text)
    ref = reference_sum(b)
    if ref is None:
        return
    partial, B, tail = ref
    try:
        S = series_sum(b, 1)
        table = trf_table(b, [1e-2, 1e-4], 1)
    except (SeriesError, BudgetExceeded):  # no number claimed: nothing to check
        return
    with mpmath.workdps(60):  # compare without rounding the bound away
        if getattr(S, "lo", None) is not None:  # an enclosure [lo, hi]
            if S.certified:
                assert S.lo - tail <= B <= S.hi + tail, (s, S.lo, S.hi, B)
        elif S.error_bound is not None:  # a value with a stated error bound
            assert abs(S.value - B) <= S.error_bound + tail, (s, S.value, S.error_bound, B)
    for t in table:
        if t.exact:  # brute force: first j with S_j > B(1-eps)
            with mpmath.workdps(60):
                want = next(j + 1 for j, p in enumerate(partial) if p > B * (1 - mpmath.mpf(t.eps)))
            assert t.value == want, (s, t.eps, t.value, want)


@settings(max_examples=2, **COMMON)
@given(rpe_like().filter(lambda s: s.converges and s.fast))
def test_sum_and_trf_against_brute_force(s):
    check_sum_and_trf(s)


@pytest.mark.slow
@settings(max_examples=40, **COMMON)
@given(rpe_like().filter(lambda s: s.converges and s.fast))
def test_sum_and_trf_against_brute_force_many(s):
    check_sum_and_trf(s)
