r"""The Theoretical Receptive Field (RPE paper, Eq. 22): the integer search for TRF(eps).

.. math::
   \mathrm{TRF}(\epsilon) = \min\Big\{ j : \sum_{k=0}^{j-1} b_{s+k} > B(1-\epsilon) \Big\}
   = \min\Big\{ j : R_j = \sum_{k \ge j} b_{s+k} < B\epsilon \Big\}.

The tails :math:`R_j` of the first :math:`2^{12}` terms come from a reversed float64 cumulative
sum (``math.fsum`` near the answer), beyond that from the Euler-Maclaurin tail of
:mod:`theory.series.tails` and a bisection on :math:`j`.  A TRF is marked ``exact`` only when
the guaranteed enclosures (:mod:`theory.series.enclosure`) of B and of the tails on both sides
of the crossing separate them from :math:`B\epsilon`; larger TRFs are a value with a relative
accuracy, its ``log10`` and, when even that is huge, ``log10_log10``.  The paper's own
procedure (Appendix E) is ``truncate=m`` (:mod:`theory.series.truncated`).

>>> from theory.series.expressions import parse_expression as P
>>> t = trf(P("1/n**2"), 0.01)                 # brute force: 61
>>> t.value, t.exact
(61, True)
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterable
from typing import Any

import mpmath
import numpy as np
import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, run_guarded, step_budget
from theory.series.angle_means import max_min_free
from theory.series.arb_eval import NotCertified, ball_precision, raised_precision
from theory.series.asymptotics import Asymptotic, asymptotic_evaluator, asymptotic_order
from theory.series.certified_trf import far_brackets
from theory.series.decision import SeriesError
from theory.series.expressions import N
from theory.series.geometric import GeometricTail
from theory.series.lower_bounds import signed_trf, terms_nonnegative
from theory.series.poly_geometric import PolyGeometricTail
from theory.series.ratio_tails import EVERYWHERE
from theory.series.rational_tail import RationalTail
from theory.series.results import CLOSED_FORM_EXACT_LIMIT, DPS, TAIL_RULE, TRF, SeriesSum
from theory.series.rpe_library import RPE, BiasHead, log_b_numpy, numpy_function
from theory.series.split_tail import SplitTail, split_parts
from theory.series.sums import DEFAULT_BUDGET, any_width_tail, normalise_series, series_sum_core
from theory.series.superexp_tail import SuperExpTail
from theory.series.tails import CutTail, scan_points
from theory.series.truncated import trf_truncated

DIRECT_TERMS = 2**12  # float64 terms kept for the tails R_j (EM beyond)
EXACT_LIMIT = 10**12
#: bits of the retries of a tie from a bias file (a subnormal bias is 2^-1074)
TIE_BITS = (1200, 4400)
ASYMPTOTIC_BUDGET = 2.0  # CPU seconds for the (optional) asymptotic order


def trf(
    b_expr: str | float | sp.Basic | RPE,
    eps: float,
    start: int | None = None,
    truncate: int | None = None,
    budget: float = DEFAULT_BUDGET,
) -> TRF:
    """TRF(eps) of Eq. 22; ``truncate=m`` gives the paper's App. E procedure instead."""
    return trf_table(b_expr, [eps], start, truncate, budget)[0]


def trf_table(
    b_expr: str | float | sp.Basic | RPE,
    eps_list: Iterable[float],
    start: int | None = None,
    truncate: int | None = None,
    budget: float = DEFAULT_BUDGET,
) -> list[TRF]:
    """TRF for several eps at once (one B, one set of tails)."""
    b, start, head = normalise_series(b_expr, start)
    eps_list = [float(e) for e in eps_list]
    for e in eps_list:
        if not 0 < e < 1:
            raise ValueError(f"eps must be in (0, 1), got {e}")
    if truncate is not None:
        return [
            trf_truncated(RPE("x", b, start=start, head=head), e, truncate, start) for e in eps_list
        ]
    return run_guarded(_trf_impl, (b, start, head, eps_list), budget=budget)


def _float_terms(b, start, head, count):
    """The first ``count`` terms as float64 (head, then b), or None if float64 is inaccurate."""
    L = 0 if head is None else len(head)
    out = np.empty(count)
    if L:
        out[: min(L, count)] = head.floats()[:count]
    if count > L:
        n = start + np.arange(L, count, dtype=float)
        try:
            with np.errstate(all="ignore"):
                out[L:] = np.exp(log_b_numpy(b)(n))
        except (OverflowError, TypeError, ValueError):
            return None  # numbers beyond float64: use mpmath terms
        f = sp.lambdify(N, b, modules="mpmath")
        probe = sorted({L, L + 1, L + 7} | {int(x) for x in np.geomspace(L + 1, count - 1, 24)})
        with mpmath.workdps(DPS):
            for k in probe:
                if k >= count:
                    continue
                ref = f(mpmath.mpf(start + k))
                if not (
                    abs(out[k] - ref) <= 1e-13 * abs(ref) or (ref < 1e-300 and out[k] < 1e-290)
                ):
                    return None
    if not np.all(np.isfinite(out)) or np.any(out < 0):
        raise SeriesError("a term is negative or not finite; TRF needs non-negative terms")
    return out


def _trf_impl(b, start, head, eps_list):
    return _trf_core(b, start, head, eps_list)[1]


def _trf_core(b, start, head, eps_list, S=None, eng=None, cert=None):
    """(SeriesSum, [TRF]) in one pass; every TRF marked exact is proved so by the enclosures."""
    mpmath.mp.dps = DPS
    if S is None:
        S, eng, cert = series_sum_core(b, start, head)
    B = S.value
    # b_n >= 0 from n0 on: proved by the engine, or by the sign prover from the formula
    proved = cert is not None and (
        cert.nonneg_until >= EVERYWHERE
        or terms_nonnegative(b, start + (0 if head is None else len(head)))
    )
    signed = cert is not None and not proved
    if isinstance(cert, (GeometricTail, PolyGeometricTail, RationalTail)):  # closed-form tails
        # the crossing is proved in closed form: exact however far (up to 10^300)
        table = [cert.trf(eps, CLOSED_FORM_EXACT_LIMIT, head) for eps in eps_list]
        if all(t is not None for t in table):
            return S, table
    if B <= 0 and not (signed and S.certified and S.hi < 0):  # tail rule: |B| > 0 suffices
        raise SeriesError(f"B = {mpmath.nstr(B, 6)} <= 0: TRF (Eq. 22) needs a positive sum")
    if not mpmath.mpf(10) ** -250 < abs(B) < mpmath.mpf(10) ** 250:  # invariant under b -> c b
        m = int(-mpmath.nint(mpmath.log10(abs(B))))
        # 10^m as an integer only while it is small: B = exp(-10^10) once built a
        # 4e9-digit integer here (minutes, gigabytes); exp(m log 10) stays symbolic
        scale = (
            sp.Integer(10) ** m if abs(m) <= 4000 else sp.exp(int(-mpmath.nint(mpmath.log(abs(B)))))
        )
        bs = b * scale if abs(m) <= 4000 else sp.powsimp(b * scale)
        hs = None if head is None else head.scaled(sp.log(scale))
        return S, _trf_impl(bs, start, hs, eps_list)
    if signed:
        return S, signed_table(cert, b, start, head, eps_list)
    if isinstance(cert, SuperExpTail):  # a few terms carry B: the enclosures give the TRF
        table = _few_terms_table(cert, start, head, eps_list)
        return S, certify_exact(table, cert, start, head, proved)
    S2, out = _trf_search(b, start, head, eps_list, S, eng)
    return S2, certify_exact(out, cert, start, head, proved)


def signed_table(
    cert: Any, b: sp.Expr, start: int, head: BiasHead | None, eps_list: list
) -> list[TRF]:
    """Terms not proved >= 0: the TRF by the tail rule (docs/conventions.md), exact where
    :func:`theory.series.lower_bounds.signed_trf` proves it, a certified bracket where it
    proves one beyond its exact range, else a certified lower bound.  An engine without a
    bound on every later tail gives way, for the TRF, to the sum of b's parts where that
    has one (:func:`_split_with_sup`: ``sin(n)/n + 1/n**2``)."""
    if not hasattr(cert, "tail_sup") and head is None:
        cert = _split_with_sup(b, cert.n0) or cert
    out = []
    for eps in eps_list:
        found = signed_trf(cert, b, start, head, eps)
        j, exact = found[:2]
        t = TRF(eps, j if exact else None, exact, math.log10(j) if exact else None)
        t.definition = TAIL_RULE
        if len(found) > 2:
            _signed_bracket(t, j, found[2])
        elif not exact:
            t.lower_bound = j
            t.note = "terms of both signs: only a certified lower bound"
        out.append(t)
    return out


def _split_with_sup(b: sp.Expr, n0: int) -> SplitTail | None:
    """b's parts summed part by part (:class:`theory.series.split_tail.SplitTail`) where
    that engine bounds every later tail, else None."""
    if len(split_parts(b)) < 2:
        return None
    try:
        t = SplitTail(b, n0, any_width_tail)
    except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
        return None
    return t if hasattr(t, "tail_sup") else None


def _signed_bracket(t: TRF, lo: int, hi: int) -> None:
    """The certified bracket lo <= TRF <= hi: integers up to 10^15, else a log10 bracket
    rounded outward; the value is their geometric mean, an estimate."""
    lo10, hi10 = math.log10(lo), math.log10(hi)
    t.log10 = (lo10 + hi10) / 2
    t.note = "terms of both signs: certified bracket from a bound on every later tail |R_k| "
    t.note += "and a proved |R_p| >= eps |B|; the value is an estimate"
    if hi <= 10**15:
        t.lower_bound, t.upper_bound = lo, hi
        return
    t.value = mpmath.power(10, mpmath.mpf(t.log10))
    t.relative_accuracy = float(mpmath.mpf(hi) / lo - 1)
    down, up = math.nextafter(lo10, -math.inf), math.nextafter(hi10, math.inf)
    t.log10_bracket = [math.nextafter(down, -math.inf), math.nextafter(up, math.inf)]


def _trf_search(b, start, head, eps_list, S, eng):
    """The TRF integers from the estimate engine (exactness decided by :func:`certify_exact`)."""
    B = S.value
    K = max(DIRECT_TERMS, 0 if head is None else len(head) + 64)
    if isinstance(eng, CutTail):
        K = eng.cutoff - start
    terms = _float_terms(b, start, head, K)
    if terms is None:  # float64 loses digits (cancellation): fewer, mpmath-computed terms
        K = 4096 if head is None else max(4096, len(head))
        f = sp.lambdify(N, b, modules="mpmath")
        with mpmath.workdps(DPS):
            terms = np.array(
                [
                    float(head.mp(k))
                    if head is not None and k < len(head)
                    else float(f(mpmath.mpf(start + k)))
                    for k in range(K)
                ]
            )
    f_mp = sp.lambdify(N, b, modules="mpmath")

    def term(k):  # term k of the series, in mpmath
        if head is not None and k < len(head):
            return head.mp(k)
        return f_mp(mpmath.mpf(start + k))

    RK, errK = eng.tail(start + K)
    R = np.append(np.cumsum(terms[::-1])[::-1], 0.0) + float(RK)
    out = []
    for eps in eps_list:
        target = B * mpmath.mpf(repr(eps))  # the decimal the user typed, not its binary double
        t_err = S.error_bound * mpmath.mpf(repr(eps))  # B is known to +- its error bound
        first = None
        if (terms < 0).any():  # partial sums not monotone: Eq. 22 wants the FIRST j
            try:
                first = _trf_first_crossing(R, terms, K, errK + t_err, target, eps, b, start)
            except _NotInWindow:
                pass
        if first is not None:
            out.append(first)
        elif RK + errK < target:
            out.append(_trf_direct(R, terms, RK, errK + t_err, target, eps, K, term))
        elif isinstance(eng, CutTail):
            raise SeriesError(
                f"eps = {eps:g} is below the resolution {mpmath.nstr(errK / B, 3)} "
                "of the tail bound for this series"
            )
        else:
            out.append(_trf_tail(eng, start, K, target, eps, S, t_err))
    return S, out


@ball_precision
def _few_terms_table(cert, start: int, head: BiasHead | None, eps_list: list) -> list[TRF]:
    """TRF estimates for a tail engine that carries B in its first ``cert.K`` terms: the first
    j whose tail R_j has its midpoint below B eps (proved or not by :func:`certify_exact`);
    no float64 or mpmath term is formed (exp(-3**(10**10)) exists only as a ball)."""
    L = 0 if head is None else len(head)
    head_arb = head.arb_list() if L else []

    def R(i):
        if i < L:
            return sum(head_arb[i:], arb(0)) + cert.tail(cert.n0)
        return cert.tail(start + i)

    B = R(0)
    out = []
    for eps in eps_list:
        e = sp.Rational(repr(eps))
        target = (B * arb(int(e.p)) / arb(int(e.q))).mid()
        j = 1
        while R(j).mid() >= target and j < cert.K - start + 64:
            j += 1
        out.append(TRF(eps, j, False, math.log10(j)))
    return out


def certify_exact(
    table: list, cert: Any, start: int, head: BiasHead | None, nonneg: bool = False
) -> list:
    """Mark a TRF ``exact`` only when ball arithmetic proves R_j < B eps <= R_(j-1) and the
    terms before j are >= 0 (so no earlier j crosses; ``nonneg``: every term after the head
    is proved >= 0); a proved neighbour (j +- 1) replaces a search that was off by one.
    Without a certified tail nothing is exact."""
    for t in table:
        if cert is None:  # an estimate only: no accuracy is claimed for it
            t.exact, t.relative_accuracy = False, None
            t.note = "an estimate: B has no guaranteed enclosure (not certified)"
            continue
        if not isinstance(t.value, int):
            t.exact = False
            continue
        j, proved = _proved_crossing(cert, start, head, t.eps, t.value, nonneg)
        for bits in TIE_BITS if head is not None and not proved else ():
            with raised_precision(bits):  # the file's binary values, read to their last bit
                j, proved = _proved_crossing(cert, start, head, t.eps, t.value, nonneg)
            if proved:
                break
        if proved:
            t.value, t.exact, t.log10, t.note = j, True, (math.log10(j) if j > 0 else None), ""
        else:
            t.exact = False
            t.note = (
                "a tie or too close: the enclosures do not separate the tails at j-1 and j "
                "from B*eps (not certified)"
            )
            lo, hi = _proved_bracket(cert, start, head, t.eps, t.value)
            if lo is not None and hi is not None and lo <= hi:
                t.lower_bound, t.upper_bound = lo, hi
                t.note = (
                    f"a tie or too close: certified {lo} <= TRF <= {hi} only (the enclosures "
                    f"of the tails R_j do not separate B*eps within it; the value is an estimate)"
                )
    return table


@ball_precision
def _proved_bracket(cert, start, head, eps, j) -> tuple[int | None, int | None]:
    """(lo, hi) with lo <= TRF(eps) <= hi proved: R_hi < B eps by the enclosures (so the
    first crossing is no later), and R_(lo-1) >= B eps with every term before lo - 1 proved
    >= 0 (so the tails before it are larger still).  None where a side is not proved."""
    L = 0 if head is None else len(head)
    head_arb = head.arb_list() if L else []

    def R(i):
        if i < L:
            return sum(head_arb[i:], arb(0)) + cert.tail(cert.n0)
        return cert.tail(start + i)

    e = sp.Rational(repr(eps))
    target = R(0) * arb(int(e.p)) / arb(int(e.q))
    below = max(int(j), 1)  # smallest proved R_i < target, by doubling then bisection
    while not R(below) < target:
        below *= 2
        if below > EXACT_LIMIT:
            return None, None
    a = 0  # R_a < target not proved
    while below - a > 1:
        m = (a + below) // 2
        a, below = (a, m) if R(m) < target else (m, below)
    above, c = 0, below  # largest proved R_i >= target in [0, below)
    if not R(0) >= target:
        return None, below
    while c - above > 1:
        m = (above + c) // 2
        above, c = (m, c) if R(m) >= target else (above, m)
    nonneg = all(x >= 0 for x in head_arb[:above]) and cert.nonneg_until >= start + above
    return (above + 1 if nonneg else None), below


@ball_precision
def _proved_crossing(cert, start, head, eps, j, tail_nonneg=False):
    L = 0 if head is None else len(head)
    head_arb = head.arb_list() if L else []

    def R(i):  # enclosure of the tail of the series from term i
        if i < L:
            return sum(head_arb[i:], arb(0)) + cert.tail(cert.n0)
        return cert.tail(start + i)

    B = R(0)
    e = sp.Rational(repr(eps))
    target = B * arb(int(e.p)) / arb(int(e.q))
    for _ in range(4):
        if j < 1 or j > EXACT_LIMIT:
            return j, False
        hi_side, lo_side = R(j), R(j - 1)
        if hi_side >= target:
            j += 1
        elif lo_side < target:
            j -= 1
        elif hi_side < target and lo_side >= target:
            nonneg = all(x >= 0 for x in head_arb[:j]) and (
                tail_nonneg or cert.nonneg_until >= start + j - 1
            )
            return j, nonneg or _no_earlier_crossing(cert, start, head_arb, B, target, j)
        else:
            return j, False
    return j, False


def _no_earlier_crossing(cert, start, head_arb, B, target, j, limit=4096) -> bool:
    """R_i >= B eps proved for every i < j - 1 (terms of both signs: partial sums in balls)."""
    if j > limit:
        return False
    partial = arb(0)
    for i in range(j - 1):
        if not B - partial >= target:
            return False
        partial += head_arb[i] if i < len(head_arb) else cert.term(start + i)
    return True


def _trf_first_crossing(R, terms, K, err, target, eps, b, start):
    """Eq. 22 with terms of both signs: the partial sums may exceed B(1 - eps) and fall back
    (1, -1/2, 1/9, 1/16, ... has TRF(0.1) = 1; the monotone search said 11).  The first j
    with R_j < B eps among the first K terms, certified with float64 margins; beyond K only
    when the terms from there on are >= 0 (dense float64 scan)."""
    tf = float(target)
    below = np.nonzero(R < tf)[0]
    if below.size == 0:
        pts = scan_points(start + K)
        with np.errstate(all="ignore"):
            v = np.broadcast_to(np.asarray(numpy_function(b)(pts), dtype=float), pts.shape)
        if (v < 0).any():
            raise SeriesError(
                f"TRF(eps = {eps:g}) lies beyond the first {K} terms and the terms "
                "change sign there: not computed"
            )
        raise _NotInWindow()
    j = int(below[0])
    absum = np.append(np.cumsum(np.abs(terms[::-1]))[::-1], 0.0)  # rounding scale of R
    margin = (np.abs(R) * 1e-11 + absum * 1e-13 + float(err))[: j + 1]
    exact = bool(R[j] + margin[j] < tf and (R[:j] - margin[:j] >= tf).all())
    return TRF(
        eps,
        j,
        exact,
        math.log10(j) if j > 0 else None,
        note="" if exact else "a tail is within rounding of B*eps (tie)",
    )


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
    while hi_v - hi_e >= target and j < K:  # rounding moved the answer up
        j += 1
        lo_v, lo_e, (hi_v, hi_e) = hi_v, hi_e, certified(j)
    while j > 1 and lo_v + lo_e < target:  # ... or down
        j -= 1
        hi_v, hi_e, (lo_v, lo_e) = lo_v, lo_e, certified(j - 1)
    exact = hi_v + hi_e < target and lo_v - lo_e >= target
    note = "" if exact else "the tails at j-1 and j are within rounding of B*eps (tie)"
    return TRF(eps, j, exact, math.log10(j) if j > 0 else None, note=note)


def _trf_tail(eng, start, K, target, eps, S, t_err=0):
    def T(n):
        return eng.tail(n, fast=True)

    lo = start + K  # T(lo) >= target
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
        (vh, eh), (vl, el) = eng.tail(hi), eng.tail(hi - 1)  # full precision
        for _ in range(8):  # the fast bisection can be off by one near a tie
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
        return TRF(
            eps,
            value,
            exact,
            math.log10(j),
            relative_accuracy=rel,
            note="" if exact else "beyond the exact range or within the error bound",
        )
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
            x = mpmath.exp(root)  # the tail from the real index x equals B eps
            value = (
                (mpmath.floor(x) + 1 - start) if log10 < 30 else x - start
            )  # Eq. 22: next integer
            return TRF(
                eps,
                value,
                False,
                log10,
                relative_accuracy=rel,
                note="value from the Euler-Maclaurin tail and a root in log n; not an exact integer",
            )

        def h_w(w):
            return mpmath.log(eng.tail(mpmath.exp(mpmath.exp(w)))[0]) - lt

        w_lo, w_hi = mpmath.log(u_lo), mpmath.log(u_hi)
        while h_w(w_hi) > 0:  # doubling (w_hi > log 1e6 > 0), the last step to 2000
            if w_hi >= 2000:
                return TRF(eps, None, False, None, note="TRF exceeds exp(exp(2000)); not resolved")
            w_lo, w_hi = w_hi, min(2 * w_hi, mpmath.mpf(2000))
        root = _illinois(h_w, w_lo, w_hi)
        log10 = mpmath.exp(root) / mpmath.ln10
        # relative accuracy of log10(TRF) = accuracy of u = e^w: |dw| ~ |h|/|h'|
        d = (h_w(root + mpmath.mpf(10) ** -12) - h_w(root)) / mpmath.mpf(10) ** -12
        rel = max(float(abs(h_w(root) / d)), 1e-12) if d else None
        return TRF(
            eps,
            mpmath.exp(mpmath.exp(root)),
            False,
            float(log10) if log10 < 1e300 else None,
            log10_log10=float(mpmath.log10(log10)),
            relative_accuracy=rel,
            note="relative accuracy refers to log10(TRF); value from a root in log log n",
        )


def _root_accuracy(h, root, eng, xform):
    """Relative accuracy of x = exp(root) from the residual and the tail's error bound."""
    step = mpmath.mpf(10) ** -12
    d = (h(root + step) - h(root)) / step
    if d == 0:
        return None
    x = xform(root)
    val, err = eng.tail(x)
    return max(float((abs(h(root)) + err / val) / abs(d)), 1e-12)  # conservative floor


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


def analyse_series(
    b_expr: str | float | sp.Basic | RPE,
    eps_list: Iterable[float],
    start: int | None = None,
    budget: float = DEFAULT_BUDGET,
    wall: float | None = None,
    estimate: bool = True,
    decided: bool = False,
) -> tuple[SeriesSum, list[TRF] | None, str | None, Asymptotic | None]:
    """B, the TRF table and the asymptotic order in one guarded pass (what the CLI prints),
    within ``budget`` s of CPU time and ``wall`` s of wall-clock time (default 4 * budget).
    ``decided=True`` when the caller has already proved the series convergent (the check
    is not repeated, see :func:`theory.series.sums.series_sum_core`).

    Returns ``(SeriesSum, [TRF] or None, trf_error or None, Asymptotic or None)``.
    """
    b, start, head = normalise_series(b_expr, start)
    b = max_min_free(b)  # the same terms (Max(c, 0) - Max(-c, 0) is c), engines read it
    eps_list = [float(e) for e in eps_list]
    S, table, err, asym = run_guarded(
        _analyse_impl,
        (b, start, head, eps_list, estimate, decided, budget),
        budget=budget,
        wall=wall,
    )
    if asym is not None:
        formula, derivation, kind, consts = asym
        if "B" in formula:
            formula += f"  (B = {mpmath.nstr(S.value, 10)})"
        asym = Asymptotic(formula, derivation, asymptotic_evaluator(kind, consts, S.value), kind)
    return S, table, err, asym


#: shares of a guarded pass's CPU budget up to which its later steps may run: the TRF
#: table, the asymptotic order, the TRF brackets (B, computed first, is kept when one of
#: them runs out, instead of the whole pass being stopped at its budget)
TABLE_SHARE, ASYMPTOTIC_SHARE, BRACKETS_SHARE = 0.7, 0.8, 0.85


def _analyse_impl(b, start, head, eps_list, estimate=True, decided=False, budget=math.inf):
    mpmath.mp.dps = DPS
    t0 = time.process_time()

    def left(share: float) -> float:  # CPU seconds this pass may still spend up to share
        return min(share * budget - (time.process_time() - t0), 600.0)

    S, eng, cert = series_sum_core(b, start, head, estimate, decided)
    try:
        if left(TABLE_SHARE) <= 0.2:
            raise StepTimeout("no time left")
        with step_budget(left(TABLE_SHARE)):
            table, err = _trf_core(b, start, head, eps_list, S, eng, cert)[1], None
    except SeriesError as exc:
        table, err = None, str(exc)
    except StepTimeout:
        table, err = None, "the TRF search ran out of its share of the time limit"
    try:
        with step_budget(min(ASYMPTOTIC_BUDGET, left(ASYMPTOTIC_SHARE))):
            asym = asymptotic_order(b) if S.value > 0 else None
    except Exception:  # noqa: BLE001 - the asymptotic order is optional
        asym = None
    if head is None and (table is None or not all(t.exact for t in table)):
        S.trf_brackets = _far_brackets(b, start, eps_list, cert, left(BRACKETS_SHARE))
    return S, table, err, asym


def _far_brackets(b, start: int, eps_list: list, cert, left: float) -> list | None:
    """The certified TRF brackets of the integral test (:func:`far_brackets`) with the engine
    that enclosed B, inside the guarded pass within ``left`` CPU seconds; None where they are
    not found."""
    if left <= 0.5 or cert is None:
        return None
    try:
        with step_budget(left):
            far = far_brackets(cert, b, start, eps_list)
    except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
        return None
    return None if far is None else far.trf
