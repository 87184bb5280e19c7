r"""B and TRF(eps) as certified brackets from any certified tail, however wide or far.

TRF (RPE paper, Eq. 22) is :math:`\min\{ j : R_j < B\epsilon \}` with
:math:`R_j = \sum_{k \ge j} b_{s+k}`.  From enclosures of the tails alone:

* a :math:`j` with :math:`R_j < B\epsilon` proved (every point of the ball of :math:`R_j`
  below every point of the ball of :math:`B\epsilon`) gives :math:`\mathrm{TRF} \le j`;
* a :math:`j` with :math:`R_j \ge B\epsilon` proved gives :math:`\mathrm{TRF} \ge j + 1` when
  the terms are :math:`\ge 0` (the tails before :math:`j` are larger still).

Up to :math:`j = 10^{15}` the search is over integers (doubling, then bisection); beyond it,
an engine with real-argument bounds (:class:`theory.series.integral_test.IntegralTail`) is
searched in :math:`t = \log x`, and the bracket is printed as :math:`\log_{10}` of its ends,
rounded outwards; beyond :math:`t = 10^{300}` the search goes on in :math:`s = \log t`
(:math:`t = e^s` a ball, as far as ball arithmetic keeps it finite), and the bracket is one of
:math:`\log_{10}\log_{10}\mathrm{TRF}` (:func:`loglog10_bounds`).  A wide enclosure of B
(wider than the sum's precision goal) is kept as what it is, a certified bracket, and its TRF
brackets follow from it.

>>> from theory.series.expressions import parse_expression as P
>>> w = wide_analysis(P("1/(n*log(n)**2)"), 2, [0.01])
>>> lo, hi = w.trf[0]["log10_bracket"]     # R(x) ~ 1/log(x) = 0.01 B, B = 2.1097428012...
>>> lo < 20.585186101767253 < hi           # mpmath reference (tests/.../test_integral_test.py)
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import mpmath
import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import NotCertified, ball_precision
from theory.series.expressions import N
from theory.series.integral_test import IntegralTail
from theory.series.leading_term import LeadingTermTail
from theory.series.lower_bounds import terms_nonnegative
from theory.series.quadrature_tail import log_shifts
from theory.series.residue_classes import MAX_PERIOD, class_term, floor_period
from theory.series.results import TAIL_RULE, SeriesSum
from theory.series.shifted_integral import ShiftedIntegralTail
from theory.series.sums import any_width_tail, certify_tail, enclosed_sum

#: largest j searched over the integers; beyond it the search is in log x
INTEGER_LIMIT = 10**15
#: largest log x searched (x = e^(1e300) is still a ball)
LOG_LIMIT = 1e300
#: a certified tail this narrow (relative) is kept without trying the integral test
NARROW = 1e-12
#: log10 brackets of TRF up to 10^REFINE_LOG10 are refined to integers, in at most
#: REFINE_SECONDS each
REFINE_LOG10 = 60
REFINE_SECONDS = 1.0


@dataclass
class WideResult:
    """A certified B (``sum``, possibly wide) and one TRF bracket per eps (dicts in the
    CLI's --json form)."""

    sum: SeriesSum
    trf: list = field(default_factory=list)


def _target(B: arb, eps: float) -> arb:
    e = sp.Rational(repr(eps))  # the float64 eps typed, read from its shortest repr
    return B * arb(int(e.p)) / arb(int(e.q))


@ball_precision
def trf_bracket(
    tail: Callable[[int], arb],
    start: int,
    B: arb,
    eps: float,
    nonneg: bool,
    real_bounds: Callable[[float], tuple] | None = None,
) -> dict:
    """The certified bracket of TRF(eps) (module docstring): ``tail(a)`` encloses
    R(a) = sum_{n >= a} b_n at integers a >= start; ``real_bounds(t)`` (optional) gives
    (lower, upper) enclosures of R(ceil(e^t)) for e^t beyond the integer range."""
    target = _target(B, eps)

    def lt(j):
        return bool(tail(start + j) < target)

    def ge(j):
        return bool(tail(start + j) >= target)

    out = {"eps": eps, "value": None, "exact": False, "definition": "Eq. 22 (full series)"}
    below, hi = 0, 1
    while hi < INTEGER_LIMIT and not lt(hi):
        below, hi = hi, min(2 * hi, INTEGER_LIMIT)  # the last step lands on the limit itself
    if lt(hi):
        return _integer_bracket(lt, ge if nonneg and ge(0) else None, 0, below, hi, out)
    lower_int = INTEGER_LIMIT + 1 if nonneg and ge(INTEGER_LIMIT) else None
    if real_bounds is None:
        out.update(lower_bound=lower_int, note="certified lower bound only (beyond 10^15)")
        return out
    out = _log_bracket(real_bounds, start, target, out, lower_int is not None)
    return _refined(lt, ge if nonneg else None, out)


def _integer_bracket(lt, ge, g0: int, a: int, c: int, out: dict) -> dict:
    """The bracket from ``lt(c)`` proved (R_c < B eps) and R_a < B eps not proved: the least
    proved j in (a, c] by bisection, and with ``ge`` (terms >= 0, R_g0 >= B eps proved) the
    largest proved R_g >= B eps in [g0, a], so g + 1 <= TRF <= j."""
    while c - a > 1:
        m = (a + c) // 2
        a, c = (a, m) if lt(m) else (m, c)
    out.update(upper_bound=c, log10=math.log10(c), lower_bound=None)
    if ge is not None:
        g, h = (a, a + 1) if ge(a) else (g0, a)
        while h - g > 1:
            m = (g + h) // 2
            g, h = (m, h) if ge(m) else (g, m)
        out["lower_bound"] = g + 1
    if out["lower_bound"] == c:
        out.update(value=c, exact=True)
    out["note"] = "certified bracket from the enclosures of B and of the tails R_j"
    return out


def _refined(lt, ge, out: dict) -> dict:
    """A log10 bracket of TRF below 10^REFINE_LOG10 with an integer one added (exact where
    it closes), where the tails at its integer ends are proved on their sides (``tail`` at
    integers beyond 10^15 as well): the log search bisects float t = log x, so it stops some
    ulps of t short of the integer (1e16 +- 200).  Within REFINE_SECONDS, else the log
    bracket alone."""
    lo10, hi10 = out.get("log10_bracket") or (None, None)
    if lo10 is None or hi10 is None or hi10 > REFINE_LOG10:
        return out
    try:
        with step_budget(REFINE_SECONDS), mpmath.workprec(4 * REFINE_LOG10 + 64):
            c = int(mpmath.ceil(mpmath.mpf(10) ** hi10))
            a = max(int(mpmath.floor(mpmath.mpf(10) ** lo10)) - 1, 0)
            if not lt(c) or lt(a):
                return out
            refined = _integer_bracket(lt, ge if ge is not None and ge(a) else None, a, a, c, {})
    except (StepTimeout, NotCertified, ArithmeticError, ValueError, TypeError):
        return out
    keep = {k: v for k, v in out.items() if k not in ("note", "relative_accuracy")}
    refined["note"] += " (integers found inside the certified log10 bracket, which is kept)"
    return {**keep, **refined, "log10": out["log10"]}


def _bisect(a: float, c: float, left: Callable[[float], bool]) -> tuple[float, float]:
    """Halve [a, c] (``left(m)``: keep [a, m], else [m, c]) until no float lies between."""
    for _ in range(200):
        m = (a + c) / 2
        if m in (a, c):
            break
        a, c = (a, m) if left(m) else (m, c)
    return a, c


def _proofs(side: Callable, target: arb) -> tuple[Callable, Callable]:
    """(lt, ge): R < target proved from the upper end ``side(x, 1)``, R >= target from the
    lower end ``side(x, 0)`` (False where an end is not evaluated)."""

    def lt(x):
        v = side(x, 1)
        return v is not None and bool(v < target)

    def ge(x):
        v = side(x, 0)
        return v is not None and bool(v >= target)

    return lt, ge


def _log_bracket(real_bounds, start, target, out, nonneg) -> dict:
    """TRF beyond 10^15: bisection in t = log x on float t (x = e^t a ball)."""

    def side(t, k):  # the lower (k = 0) or upper (k = 1) end; None where not evaluated
        try:
            return real_bounds(t)[k]
        except (NotCertified, ArithmeticError, ValueError):
            return None

    lt, ge = _proofs(side, target)

    t_lo = math.log(INTEGER_LIMIT)
    t_hi = 2 * t_lo
    while not lt(t_hi):
        t_lo, t_hi = t_hi, 2 * t_hi
        if t_hi > LOG_LIMIT:
            return _loglog_bracket(real_bounds, start, target, out, nonneg, math.log(t_lo))
    t_ge = t_lo if nonneg and ge(t_lo) else None
    t_hi = _bisect(t_lo, t_hi, lt)[1]  # the smallest t with R(ceil(e^t)) < B eps proved
    if t_ge is not None:  # the largest t with R(ceil(e^t)) >= B eps proved
        t_lo = _bisect(t_ge, t_hi, lambda m: not ge(m))[0]
    nonneg = t_ge is not None
    # TRF <= ceil(e^t_hi) - start and TRF >= ceil(e^t_lo) - start + 1 > e^t_lo - start
    with mpmath.workprec(128):
        lo10 = mpmath.log10(mpmath.exp(mpmath.mpf(t_lo)) - start) if nonneg else None
        hi10 = mpmath.log10(mpmath.exp(mpmath.mpf(t_hi)) + 1)
    lo_f = None if lo10 is None else math.nextafter(math.nextafter(float(lo10), 0), 0)
    hi_f = math.nextafter(math.nextafter(float(hi10), math.inf), math.inf)
    out.update(
        log10=float(hi10),
        log10_bracket=[lo_f, hi_f],
        note="certified bracket of log10 TRF (integral-test tails at x = e^t, ball arithmetic)"
        if lo_f is not None
        else "certified upper bound of log10 TRF",
    )
    return out


def _loglog_bracket(real_bounds, start, target, out, nonneg, s_lo) -> dict:
    r"""TRF beyond :math:`e^{10^{300}}`: bisection in :math:`s = \log\log x` on float s,
    :math:`t = e^s` an arb ball (``real_bounds`` takes it), while it stays finite;
    :math:`R(\lceil e^t \rceil) < B\epsilon` is not proved at :math:`s_{lo}`."""

    def side(s, k):
        t = arb(s).exp()
        if not t.is_finite():
            return None
        try:
            return real_bounds(t)[k]
        except (NotCertified, ArithmeticError, ValueError):
            return None

    lt, ge = _proofs(side, target)

    s_hi = 2 * s_lo
    while not lt(s_hi):
        s_lo, s_hi = s_hi, 2 * s_hi
        if not arb(s_hi).exp().is_finite():
            out["note"] = (
                f"R < B eps not proved up to x = exp(exp({s_lo:.3g})), the farthest point "
                "evaluated: certified lower bound 10^15 only"
            )
            out["lower_bound"] = INTEGER_LIMIT + 1 if nonneg else None
            return out
    s_ge = s_lo if nonneg and ge(s_lo) else None
    s_hi = _bisect(s_lo, s_hi, lt)[1]
    if s_ge is not None:
        s_lo = _bisect(s_ge, s_hi, lambda m: not ge(m))[0]
    lo, hi = loglog10_bounds(s_lo if s_ge is not None else None, s_hi, start)
    out.update(
        log10=None,
        log10_log10=hi,
        log10_log10_bracket=[lo, hi],
        note="certified bracket of log10 log10 TRF (integral-test tails at x = exp(exp(s)), "
        "ball arithmetic)"
        if lo is not None
        else "certified upper bound of log10 log10 TRF",
    )
    return out


@ball_precision
def loglog10_bounds(s_lo: float | None, s_hi: float, start: int) -> tuple[float | None, float]:
    r"""Floats ``lo <= log10 log10 TRF <= hi`` (rounded outwards) from
    :math:`\lceil e^{e^{s_{lo}}} \rceil - start + 1 \le \mathrm{TRF} \le
    \lceil e^{e^{s_{hi}}} \rceil - start` (``s_lo`` None: no lower end), with
    :math:`t = e^s \ge s` and :math:`u = start\, e^{-t} \le start\, e^{-s} \le 1/2`:

    .. math::
       \log \mathrm{TRF} \le \log(e^t + 1) \le t + e^{-t} \le t + e^{-s}, \qquad
       \log \mathrm{TRF} \ge \log(e^t - start) = t + \log(1 - u) \ge t - 2 start\, e^{-s}.

    >>> lo, hi = loglog10_bounds(2302.0, 2302.0, 3)  # mpmath: log10(e^2302 / ln 10) = 999.38...
    >>> lo < 999.38368165258624 < hi and hi - lo < 1e-12
    True
    """
    ln10 = arb(10).log()

    def loglog10(log_trf: arb) -> arb:
        return (log_trf / ln10).log() / ln10

    hi = loglog10(arb(s_hi).exp() + arb(-s_hi).exp()).upper()
    up = math.nextafter(math.nextafter(float(hi), math.inf), math.inf)
    if s_lo is None:
        return None, up
    u = arb(max(start, 0)) * arb(-s_lo).exp()
    if not u <= 0.5:
        return None, up
    lo = loglog10(arb(s_lo).exp() - 2 * u).lower()
    return math.nextafter(math.nextafter(float(lo), -math.inf), -math.inf), up


def _engine(b: sp.Expr, start: int, integral_only: bool = False):
    """(engine, is_integral): the narrower of any certified tail (however wide its
    enclosure) and the integral-test tail (narrow for slowly converging series), directly,
    through a shift of the index (:mod:`theory.series.shifted_integral`) or on the dominant
    part (:mod:`theory.series.leading_term`)."""
    if integral_only:
        return _narrowest_far(b, start), True
    try:
        cert = certify_tail(b, start, max_rel_width=math.inf)
    except (NotCertified, ArithmeticError, ValueError, TypeError, StepTimeout):
        cert = None
    if cert is not None:
        B = cert.tail(start)
        if B.is_finite() and B.rad() <= NARROW * abs(B.mid()):
            return cert, False
    shifted = _log_shifted(b)
    why = NotCertified("no integral test applies")
    if not shifted:
        try:
            return IntegralTail(b, start), True
        except (NotCertified, ArithmeticError, ValueError, TypeError) as exc:
            why = exc
    # e.g. 1/(n log(n + 1)^2): the integral test on 1/(m log(m)^2), m = n + 1;
    # log(n)/(n log(n)^3 + 1): on 1/(n log(n)^2) plus a remainder
    makers = [ShiftedIntegralTail, LeadingTermTail]
    if shifted:  # then the direct test, in u = log(x + c)
        makers.insert(1, lambda b, start, _: IntegralTail(b, start))
    for make in makers:
        try:
            other = make(b, start, any_width_tail)
            if cert is None or other.tail(start).rad() < cert.tail(start).rad():
                return other, True
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
            pass
    if cert is None:
        raise why
    return cert, False


def _log_shifted(b: sp.Expr) -> bool:
    """The logs of n in b are of n + c, c != 0 (``1/(n*log(n - 1)**2)``): the shifted
    integral test (a closed form in m = n + c) comes before the direct one (a quadrature in
    log(x + c))."""
    return bool(log_shifts(b) - {0})


#: the far point at which the integral engines' brackets are compared (x = e^FAR_T)
FAR_T = 200.0
#: a far bracket narrower than this (relative) ends the search for a narrower one
FAR_NARROW = 1e-15


@ball_precision
def _narrowest_far(b: sp.Expr, start: int, known=None):
    """The integral-test engine (direct, shifted or on the dominant part) whose bracket of
    the tail at x = e^FAR_T (or e^(2 log start) beyond a far start) is the narrowest, the
    search ending at the first narrower than FAR_NARROW (``(log(n) + 1)/(n log(n)^3)``: the
    direct test bounds the tail within b_a, the split within its remainder's far tail);
    NotCertified where none applies.  ``known``: an engine of one of these kinds for b from
    start, already built (it is taken for its kind)."""
    best, why = None, NotCertified("no integral test applies")
    kinds = [
        (IntegralTail, lambda: IntegralTail(b, start)),
        (ShiftedIntegralTail, lambda: ShiftedIntegralTail(b, start, any_width_tail)),
        (LeadingTermTail, lambda: LeadingTermTail(b, start, any_width_tail)),
    ]
    if _log_shifted(b):  # the shifted closed form first: its queries cost no quadrature
        kinds[:2] = kinds[1::-1]
    for kind, make in kinds:
        try:
            t = known if type(known) is kind else make()
        except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError) as exc:
            why = exc if best is None else why
            continue
        width = _far_width(t, start)
        if best is None or width < best[1]:
            best = (t, width)
        if best[1] < FAR_NARROW:
            break
    if best is None:
        raise why
    return best[0]


def _far_width(t, start: int) -> arb:
    """The relative width of t's bracket of the tail at x = e^FAR_T (or e^(2 log start)
    beyond a far start: e^200 < 10^100); infinite where it has none."""
    far = max(FAR_T, 2 * math.log(max(start, 1) + 2))
    try:
        lo, hi = t.log_bounds(far)
        return (hi.upper() - lo.lower()) / abs(lo.mid() + hi.mid()) * 2
    except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
        return arb("inf")  # no far bracket to compare: kept, after any that has one


@ball_precision
def wide_analysis(
    b: sp.Expr, start: int, eps_list: list, integral_only: bool = False
) -> WideResult:
    """A certified (possibly wide) enclosure of B and certified TRF brackets;
    :class:`NotCertified` when no certified tail exists (``integral_only``: when the
    integral test does not apply)."""
    cert, integral = _engine(b, start, integral_only)
    return wide_from(cert, integral, b, start, eps_list)


def far_brackets(cert: object, b: sp.Expr, start: int, eps_list: list) -> WideResult | None:
    """``wide_analysis(b, start, eps_list, integral_only=True)`` where ``cert``, the engine
    B came from, is one of the integral-test engines: it stands in for its own kind in
    :func:`_narrowest_far` instead of a second build (a split on the dominant part costs
    seconds); None for any other engine."""
    if type(cert) not in (IntegralTail, ShiftedIntegralTail, LeadingTermTail):
        return None
    return wide_from(_narrowest_far(b, start, known=cert), True, b, start, eps_list)


@ball_precision
def wide_from(cert: object, integral: bool, b: sp.Expr, start: int, eps_list: list) -> WideResult:
    """B and the TRF brackets from a certified tail engine (``integral``: an integral-test
    engine with ``log_bounds``, whose terms are positive)."""
    B = cert.tail(start)
    if not B.is_finite():
        raise NotCertified("the enclosure of B is not finite")
    how = "integral test" if integral else "certified tail, wider than the precision goal"
    S = enclosed_sum(B, start, f"certified enclosure ({how}; ball arithmetic)", cert.certificate)
    nonneg = integral or terms_nonnegative(b, start)
    if not (B > 0 or (B < 0 and not nonneg)):  # 1/(n (n + 1)) - 2^-n: B = 0
        return WideResult(S, [_undetermined(e, B, nonneg) for e in eps_list])
    real = cert.log_bounds if integral else None
    cache: dict = {}

    def tail(a):
        if a not in cache:
            cache[a] = cert.tail(a)
        return cache[a]

    if nonneg:
        trf = [trf_bracket(tail, start, B, e, nonneg, real) for e in eps_list]
    else:
        sup = getattr(cert, "tail_sup", None)
        trf = [signed_bracket(tail, sup, start, B, e) for e in eps_list]
    return WideResult(S, trf)


def _undetermined(eps: float, B: arb, nonneg: bool) -> dict:
    """The TRF entry where the enclosure of B holds 0: TRF(eps) compares the tails with
    eps B (eps |B|), which is not known to be nonzero."""
    return {
        "eps": eps,
        "value": None,
        "exact": False,
        "definition": "Eq. 22 (full series)" if nonneg else TAIL_RULE,
        "note": f"not determined: the certified enclosure of B, {B.str(3)}, holds 0, and the "
        "TRF compares the tails with eps B",
    }


@ball_precision
def signed_bracket(
    tail: Callable[[int], arb],
    sup: Callable[[int], arb] | None,
    start: int,
    B: arb,
    eps: float,
) -> dict:
    r"""The TRF bracket of terms of both signs by the tail rule (the conventions page: the
    least j with :math:`|R_k| < \epsilon |B|` for every k >= j): TRF <= j where
    ``sup(start + j)`` (a bound on every later :math:`|R_k|`) is below
    :math:`\epsilon |B|`, TRF >= j + 1 where :math:`|R_j| \ge \epsilon |B|` is proved;
    without ``sup`` no bracket (Eq. 22 read literally would stop at the first negative
    tail)."""
    out = {
        "eps": eps,
        "value": None,
        "exact": False,
        "definition": TAIL_RULE,
    }
    if sup is None:
        out["note"] = "no bound on every later tail: no TRF bracket for terms of both signs"
        return out
    target = abs(_target(B, eps))

    def below(j):
        return bool(sup(start + j) < target)

    hi = 1
    while not below(hi) and hi <= INTEGER_LIMIT:
        hi *= 2
    if hi > INTEGER_LIMIT:
        out["note"] = "no bound on the later tails below eps |B| up to 10^15"
        return out
    a, c = (hi // 2 if hi > 1 else 0), hi
    while c - a > 1:
        m = (a + c) // 2
        a, c = (a, m) if below(m) else (m, c)
    out.update(upper_bound=c, lower_bound=None, log10=math.log10(c))
    k = _last_above(tail, start, target, c - 1)
    if k is not None:
        out["lower_bound"] = k + 1  # |R_k| >= eps |B|: TRF > k
        if k == c - 1:
            out.update(value=c, exact=True)
    out["note"] = "tail rule: a bound on every later |R_k| below eps |B| from j on"
    return out


#: tails tried one by one below a signed TRF's upper bound, then in steps of 5 %
LAST_ABOVE_STEPS = 4096


def _last_above(tail: Callable[[int], arb], start: int, target: arb, top: int) -> int | None:
    """The largest k <= top found with |R_k| >= target proved: k = top, top - 1, ...
    (LAST_ABOVE_STEPS of them, where an enclosure too wide to decide is passed over, and
    fewer where 32 in a row hold 0: a bound beyond a head), then k = 0.95 k, ... (at most
    200 tries); None where none is proved."""
    k, tried, zeros = top, 0, 0
    while k >= 0 and tried < LAST_ABOVE_STEPS + 200:
        R = tail(start + k)
        if bool(abs(R) >= target):
            return k
        zeros = zeros + 1 if R.contains(arb(0)) else 0
        tried = max(tried + 1, LAST_ABOVE_STEPS if zeros >= 32 else 0)
        k = k - 1 if tried < LAST_ABOVE_STEPS else (k * 19) // 20 - (k < 20)
    return None


def merge_brackets(table: list, brackets: list) -> list:
    """The TRF table (--json dicts) with each entry that is not exact replaced by its
    certified bracket when that is exact, else given the bracket's bounds beside its value."""
    out = []
    for t, w in zip(table, brackets):
        if t.get("exact") or w.get("eps") != t.get("eps"):
            out.append(t)
        elif w.get("exact"):
            out.append(w)
        else:
            names = ("lower_bound", "upper_bound", "log10_bracket", "log10_log10_bracket")
            keep = {k: w[k] for k in names if k in w}
            if keep.get("log10_log10_bracket"):
                keep["log10_log10"] = w["log10_log10"]
            if keep:
                est = "; the value is an estimate" if t.get("value") is not None else ""
                t = {**t, **keep, "note": w["note"] + est}
                lo, hi = keep.get("lower_bound"), keep.get("upper_bound")
                v = t.get("value")
                if isinstance(v, (int, float)) and lo is not None and hi is not None:
                    if not lo <= v <= hi:  # an estimate outside the certified bracket
                        t["value"] = None
            out.append(t)
    return out


#: CPU seconds for sympy's closed forms of B and of one tail at a tie
TIE_SECONDS = 1.0


def resolve_ties(b: sp.Expr, start: int, table: list, seconds: float = TIE_SECONDS) -> list:
    r"""The TRF table (--json dicts) with each short bracket [lo, hi] of nonnegative terms made
    exact where sympy's closed forms decide it: ball arithmetic proved
    :math:`R_{lo-1} \ge \epsilon B` and :math:`R_{hi} < \epsilon B` (eps the decimal typed)
    and left the tails between unseparated from :math:`\epsilon B`, which exact equality
    explains.  Going up from lo, a tail equal to :math:`\epsilon B` in closed form fails
    :math:`R_j < \epsilon B`; the first that is below it (a nonzero difference of sign
    proved at 60 digits) is the TRF, else hi (``1/(n*(n + 1))``: :math:`R_j = 1/(j + 1)`,
    B = 1, so TRF(0.1) = 10; floor/ceiling terms summed class by class n = L m + r,
    :func:`theory.series.residue_classes.class_term`).  Anything sympy cannot sum in closed
    form, or a difference of unproved sign, keeps its bracket."""
    todo = [
        t
        for t in table
        if not t.get("exact")
        and t.get("lower_bound") is not None
        and t.get("upper_bound") is not None
        and 1 <= t["upper_bound"] - t["lower_bound"] <= MAX_TIE_BRACKET
        and t.get("definition", "").startswith("Eq. 22")
    ]
    if not todo or seconds <= 0 or not terms_nonnegative(b, start):
        return table
    out = list(table)
    try:
        with step_budget(seconds):
            B = _closed_sum(b, start)
            if B is None or not B.is_number or not B.is_positive:
                return table
            for t in todo:
                j = _closed_crossing(b, start, B, sp.Rational(repr(t["eps"])), t)
                if j is None:
                    continue
                note = (
                    f"exact tie: tails equal to eps B in closed form (sympy: B = {B}), so TRF = {j}"
                )
                new = {**t, "value": j, "exact": True, "log10": math.log10(j) if j > 0 else None}
                for k in ("lower_bound", "upper_bound", "relative_accuracy"):
                    new.pop(k, None)
                new["note"] = note
                out[out.index(t)] = new
    except (StepTimeout, TypeError, ValueError, NotImplementedError, RecursionError):
        return out
    return out


#: the widest bracket [lo, hi] of a tie that sympy is asked to settle (one closed-form tail
#: per integer in it)
MAX_TIE_BRACKET = 8


def _closed_crossing(b: sp.Expr, start: int, B: sp.Expr, e: sp.Rational, t: dict) -> int | None:
    """The TRF inside t's bracket from closed-form tails (see :func:`resolve_ties`), or None."""
    lo, hi = int(t["lower_bound"]), int(t["upper_bound"])
    for j in range(lo, hi):
        R = _closed_sum(b, start + j)
        if R is None:
            return None
        diff = sp.simplify(R - e * B)
        if diff == 0:
            continue  # R_j = eps B: not below it
        v = sp.N(diff, 60)
        if not v.is_Float or abs(v) < sp.Float(10) ** -50:
            return None
        if v < 0:
            return j
    return hi


def _closed_sum(b: sp.Expr, a: int) -> sp.Expr | None:
    """sum_(n >= a) b_n by sympy, class by class n = L m + r where b has floor/ceiling of a
    rational-linear argument; None where a sum is not in closed form."""
    L = floor_period(b)
    if L is None:
        S = sp.summation(b, (N, a, sp.oo))
        return None if S.has(sp.Sum) else S
    if L > MAX_PERIOD:
        return None
    total = sp.Integer(0)
    for r in range(L):
        term = class_term(b, L, r)
        if term is None:
            return None
        S = sp.summation(term, (N, max(0, -(-(a - r) // L)), sp.oo))
        if S.has(sp.Sum):
            return None
        total += S
    return total
