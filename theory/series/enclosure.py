r"""Guaranteed enclosures of :math:`\sum_{n \ge a} b_n` in ball arithmetic (python-flint).

The tail from ``a`` is cut into three parts, each enclosed without any unproved assumption
except where said:

1. **Blocks** of consecutive integers :math:`[\ell, u)` up to a far point :math:`X`.  On a block
   with centre :math:`m`, Taylor's theorem with the Lagrange remainder gives

   .. math::
      \sum_{n=\ell}^{u-1} f(n) = \sum_{k<K} c_k(m) \sum_{j=\ell-m}^{u-1-m} j^k + \rho, \qquad
      |\rho| \le \sup_{\xi \in [\ell, u-1]} |c_K(\xi)| \sum_j |j|^K,

   with :math:`c_k = f^{(k)}/k!` from ``arb_series`` (the sup is a ball evaluation over the
   whole block) and the power sums exact (Bernoulli polynomials).  A block whose remainder is
   too wide, or on which a branch, pole or bump is not resolved, is split; short blocks are
   summed term by term.  No monotonicity or sign of a derivative is assumed, so a narrow bump
   between two integers, a pole of ``1/(log(n) - c)**2`` or a ``Piecewise`` switch cannot fool it.
2. **The far tail** :math:`n \ge X`: a comparison term :math:`g_n = n^{-q}` or
   :math:`1/(n \log^q n)` (:math:`q > 1`, from the limits of :math:`\log b_n`), and bounds
   :math:`c_- \le b_n/g_n \le c_+` proved by interval evaluation (mean-value form) of
   :math:`\log b_n - \log g_n` on the boxes :math:`[2^k, 2^{k+1}]` up to :math:`2^{1024}`, then on
   :math:`\log_2 n \in [2^j, 2^{j+1}]` up to :math:`n = 2^{2^{60}}`; beyond that point the bound
   rests on the sympy limit of :math:`\log(b_n/g_n)` (stated in the certificate).  With the
   integral test for the decreasing :math:`g`,
   :math:`\sum_{n\ge X} b_n \in [c_- I(X),\ c_+ (g_X + I(X))]`, :math:`I(X) = \int_X^\infty g`.

A term the evaluator does not support, terms that are not positive in the far range, or a
remainder that does not shrink raise :class:`NotCertified`: nothing is claimed then.

>>> from theory.series.expressions import parse_expression as P
>>> from flint import arb
>>> t = CertifiedTail(P("1/n**2"), 1)
>>> s = t.tail(1)                                # zeta(2) = pi^2/6
>>> s.overlaps(arb.pi() ** 2 / 6), s.rad() < 1e-20
(True, True)
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass

import mpmath
import sympy as sp
from flint import arb, ctx

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import (
    PREC,
    NotCertified,
    NotSupported,
    Undecided,
    arb_function,
    ball,
    ball_precision,
    box_taylor,
    tail_start,
    taylor,
    taylor_range,
    term_ball,
)
from theory.series.evaluation_forms import (
    dominant_exp_form,
    exp_loggamma_form,
    log1p_form,
    loggamma_form,
    remainder_log_form,
)
from theory.series.expressions import N, small_exponent_denominators
from theory.series.limits import limit_at_infinity
from theory.series.positive_log import log_of_positive
from theory.series.tails import Tail

ORDER = 32  # K: Taylor order of the blocks (even)
DIRECT = 24  # blocks of at most this many integers are summed term by term
MAX_EVALS = 30000  # Taylor/term evaluations before giving up
FAR_LOG2 = (41, 64, 100, 160)  # candidate far points X = 2^k (>= 2^41: TRFs up to 10^12 in blocks)
REL_TOL = 2.0**-75  # target relative width of the whole enclosure
BOX_TOP_LOG2 = 1024  # boxes [2^k, 2^(k+1)] up to here; beyond, the bound rests on a sympy limit


@dataclass
class Comparison:
    """g_n = n^-q (``log_power = False``) or 1/(n log(n)^q), and ``c_- <= b_n/g_n <= c_+`` on [X, oo)."""

    q: arb
    log_power: bool
    c_lo: arb
    c_hi: arb
    X: int
    note: str

    def g(self, a: arb) -> arb:
        return a ** (-self.q) if not self.log_power else 1 / (a * a.log() ** self.q)

    def integral(self, a: arb) -> arb:
        if self.log_power:
            return a.log() ** (1 - self.q) / (self.q - 1)
        return a ** (1 - self.q) / (self.q - 1)

    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n for a >= X."""
        A = arb(a)
        sg = self.integral(A).union(self.integral(A) + self.g(A))
        return (self.c_lo * sg).union(self.c_hi * sg)


def _power_sums(h: int) -> list:
    """[sum_{j=1}^h j^k for k = 0..ORDER], exact integers as arb balls (Bernoulli polynomials)."""
    H = arb(h + 1)
    return [arb(h)] + [
        (H.bernoulli_poly(k + 1) - arb.bernoulli(k + 1)) / (k + 1) if k > 0 else arb(h)
        for k in range(1, ORDER + 1)
    ]


class CertifiedTail:
    """Enclosures of T(a) = sum_{n >= a} b_n for every integer a >= n0 (see the module doc).

    The blocks between the grid points n0 < g_1 < ... < X are summed once; ``tail(a)`` sums
    the partial block from a to the next grid point and adds the cached suffix."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, scale: float | None = None, far=None):
        """``far``: a certified far tail of the caller's (``X``, ``tail(a)`` for a >= X,
        ``note``) in place of the comparison series; the blocks run up to its X."""
        b = log1p_form(b)  # the same terms, without the cancellation of log(P/Q) near 1
        b = dominant_exp_form(b)  # exp(u) - 1 as exp(u) (1 - exp(-u)): no NaN on wide boxes
        self.b, self.n0, self.evals = b, int(n0), 0
        self.certificate = ""
        try:  # Gamma through log Gamma: a block's ball of n! spans zero, exp(lgamma) does not
            self.f = arb_function(exp_loggamma_form(b))
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self.nonneg_until = self.n0  # b_n >= 0 proved for n0 <= n < nonneg_until
        try:  # finite only where b > 0 (positive_log: the sign is in the flipped logs)
            logb = log_of_positive(b)
            self.logf = arb_function(logb)
        except (NotSupported, NotCertified):
            self.logf = None
        else:  # (1 + 1/n)**(n**2)*exp(-n): e^(psi_2(1/n)), no cancellation on the blocks
            remainder = remainder_log_form(logb)
            if remainder is not None:
                self.logf = arb_function(remainder)
                self.f = _exp_of(self.logf)
        first = abs(self._direct(self.n0, self.n0 + DIRECT)).upper()
        if scale is not None and not first > 0:
            first = arb(abs(scale))
        self.tol = (first if first > 0 else arb(2) ** -1000) * REL_TOL  # an exact arb
        self.far = self._far_comparison() if far is None else far
        self._grid_sums()
        self.certificate = (
            f"ball arithmetic (python-flint, {PREC} bits): terms n < {self.n0 + DIRECT} "
            f"and {len(self.grid) - 1} Taylor blocks (order {ORDER}, Lagrange remainder) "
            f"up to n = 2^{self.far.X.bit_length() - 1}; beyond, {self.far.note}"
        )

    # ------------------------------------------------------------------ blocks
    def _count(self, k=1):
        self.evals += k
        if self.evals > MAX_EVALS:
            raise NotCertified(
                f"more than {MAX_EVALS} evaluations (bumps, poles or oscillation "
                "that the blocks do not resolve)"
            )

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return self._term(n)

    def _term(self, n: int) -> arb:
        self._count()
        return term_ball(self.f, n)

    def _direct(self, lo: int, hi: int) -> arb:
        s = arb(0)
        for n in range(lo, hi):
            v = self._term(n)
            if n == self.nonneg_until and v >= 0:
                self.nonneg_until = n + 1
            s += v
        return s

    def _block(self, lo: int, hi: int, depth: int = 0) -> arb:
        """Enclosure of sum_{lo <= n < hi} b_n (Taylor model, split on failure)."""
        if hi - lo <= DIRECT:
            return self._direct(lo, hi)
        m = (lo + hi - 1) // 2
        h1, h2 = m - lo, hi - 1 - m
        self._count(2)
        try:
            cb = taylor(self.f, ball(lo, hi - 1), ORDER + 1)
            c = taylor(self.f, arb(m), ORDER)
        except (Undecided, ArithmeticError, ValueError):  # flint: series division by ~0
            cb = None
        if cb is None or not all(x.is_finite() for x in c) or not cb[ORDER].is_finite():
            return self._split(lo, hi, depth)
        p1, p2 = _power_sums(h1), _power_sums(h2)
        s = c[0] * (h1 + h2 + 1)
        for k in range(1, ORDER):
            s += c[k] * (p2[k] + (p1[k] if k % 2 == 0 else -p1[k]))
        rem = abs(cb[ORDER]).upper() * (p1[ORDER] + p2[ORDER])
        if (
            not rem.is_finite()
            or rem > self.tol * (hi - lo) / max(lo, 1) + abs(s).lower() * REL_TOL
        ):
            return self._split(lo, hi, depth)
        # lo < nonneg_until too: the first block of a late start begins at n0, before the
        # end of the direct terms that __init__ checked (the chain broke at n0 + DIRECT)
        if lo <= self.nonneg_until < hi and self._positive_on(ball(lo, hi - 1), cb[0]):
            self.nonneg_until = hi
        return s + _symmetric(rem)

    def _positive_on(self, x: arb, value: arb) -> bool:
        """b > 0 on the ball: its enclosure is >= 0, or log b (force-expanded: log of a
        product is the sum of the logs, each finite only for a positive argument; a log
        of a negative factor is written log(-X), :mod:`theory.series.positive_log`) is
        finite."""
        if value >= 0:
            return True
        if self.logf is None:
            return False
        try:
            return bool(self.logf(x).is_finite())
        except (Undecided, NotSupported, ArithmeticError):
            return False

    def _split(self, lo, hi, depth):
        if depth > 80:
            raise NotCertified(f"the block [{lo}, {hi}) does not resolve")
        mid = (lo + hi) // 2
        return self._block(lo, mid, depth + 1) + self._block(mid, hi, depth + 1)

    def _grid_sums(self):
        """Grid n0 = g_0 < g_1 < ... < g_r = X and suffix sums S_i = sum_{n >= g_i} b_n."""
        X = self.far.X
        grid = [self.n0]
        while grid[-1] < X:
            grid.append(min(X, grid[-1] + max(DIRECT, grid[-1] // 4)))
        blocks = [self._block(grid[i], grid[i + 1]) for i in range(len(grid) - 1)]
        suffix = [self.far.tail(X)]
        for blk in reversed(blocks):
            suffix.append(suffix[-1] + blk)
        self.grid, self.suffix = grid, suffix[::-1]

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        if a >= self.far.X:
            return self.far.tail(a)
        i = bisect.bisect_left(self.grid, a)
        return self._block(a, self.grid[i]) + self.suffix[i] if a < self.grid[i] else self.suffix[i]

    @ball_precision
    def partial(self, lo: int, hi: int) -> arb:
        """Enclosure of sum_{lo <= n < hi} b_n."""
        return self._block(int(lo), int(hi))

    # ------------------------------------------------------------------ far tail
    def _far_comparison(self) -> Comparison:
        data = _FarBoxes(self.b, FAR_LOG2[0])
        best = None
        for q, log_power, lim in data.families():
            for k in FAR_LOG2:
                comp = data.comparison(q, log_power, lim, k)
                if comp is None:
                    continue
                width = comp.tail(2**k).rad() * 2
                if best is None or width < best[0]:
                    best = (width, comp)
                if width <= self.tol:
                    return comp
        if best is None:
            raise NotCertified(
                "no comparison series bounds the far tail (terms not positive, or "
                "their logarithm not bounded by interval evaluation)"
            )
        return best[1]


def eventual_form(b: sp.Expr) -> sp.Expr:
    """b with every Piecewise/Min/Max/Abs replaced by the branch active at n = 2^(2^64)
    (decided in ball arithmetic): the form whose limits describe the far tail."""
    big = arb(2) ** (2**64)

    def choose(e):
        if isinstance(e, sp.Piecewise):
            for val, cond in e.args:
                if cond is sp.true:
                    return val
                lhs, rhs = (arb_function(x)(big) for x in (cond.lhs, cond.rhs))
                ok = {
                    sp.StrictLessThan: lhs < rhs,
                    sp.LessThan: lhs <= rhs,
                    sp.StrictGreaterThan: lhs > rhs,
                    sp.GreaterThan: lhs >= rhs,
                }.get(type(cond))
                if ok:
                    return val
            raise NotCertified(f"cannot decide the far branch of {e}")
        if isinstance(e, (sp.Min, sp.Max)):
            vals = [(arb_function(a)(big), a) for a in e.args]
            vals.sort(key=lambda t: float(t[0].mid().log()) if t[0] > 0 else -1e300)
            pick = vals[0] if isinstance(e, sp.Min) else vals[-1]
            others = [v for v in vals if v is not pick]
            if (
                isinstance(e, sp.Min)
                and all(pick[0] < v[0] for v in others)
                or isinstance(e, sp.Max)
                and all(pick[0] > v[0] for v in others)
            ):
                return pick[1]
            raise NotCertified(f"cannot decide the far branch of {e}")
        if isinstance(e, sp.Abs):
            v = arb_function(e.args[0])(big)
            if v > 0:
                return e.args[0]
            if v < 0:
                return -e.args[0]
            raise NotCertified(f"cannot decide the far sign in {e}")
        return e

    out = b
    for node in sp.postorder_traversal(b):
        if isinstance(node, (sp.Piecewise, sp.Min, sp.Max, sp.Abs)) and node.has(N):
            out = out.xreplace({node: choose(node)})
    return out


class _FarBoxes:
    """Interval data of log b on the far boxes: per box its centre value and the range of the
    derivative (mean-value form) and a direct enclosure."""

    def __init__(self, b: sp.Expr, k0: int):
        try:
            self.ev = eventual_form(b)
            with step_budget(3.0):  # real, or NotCertified: log((-1)**n g) = i pi n + log g
                self.logb = log_of_positive(self.ev)
            b = _prune_far_branches(b, k0)
            logb_far = loggamma_form(log_of_positive(b))
            remainder = remainder_log_form(logb_far)
            if remainder is not None:  # psi_k(r): tight on the boxes, and so is its D below
                logb_far = remainder
            self.L = arb_function(logb_far)
            self.D = self.D_recip = None
            try:  # D and its form in 1/n are optional: the families without them
                with step_budget(3.0):  # D = n (log b)' = d log b / d log n: ~ constant for powers
                    D = sp.expand(N * sp.diff(logb_far, N))
                    self.D = _optional(lambda: arb_function(D))
                with step_budget(RECIP_SECONDS):
                    # the same in t = 1/n, cancelled: -1.1 n/(n + 1/2) becomes -2.2/(t + 2)
                    self.D_recip = (
                        _optional(lambda: arb_function(sp.cancel(sp.together(D.subs(N, 1 / N)))))
                        if small_exponent_denominators(D)
                        else None  # cancel would build polynomials of astronomic degree (GMP dies)
                    )
            except StepTimeout:  # 1/sqrt(2n) - 1/sqrt(2n + 1) + ...: cancel with square roots
                pass
            try:
                self.recip = arb_function(b.subs(N, 1 / N))
            except NotSupported:
                self.recip = None
        except (NotSupported, Undecided) as exc:
            raise NotCertified(f"far tail: {exc}") from None
        self._models: dict = {}  # box index -> Taylor coefficients of log b (see _taylor_model)
        self.boxes = []  # (lo, hi, direct enclosure, value at centre, derivative, centre, half-width)
        for k, (lo, hi) in enumerate(_box_edges(k0), start=k0):
            ctx.prec = max(PREC, 2 * k + 128)  # cancellations like 1 - cos(1/n) lose 2k bits
            try:
                encs = self._split_enclosures(lo, hi)
            finally:
                ctx.prec = PREC
            if encs is None:
                raise NotCertified(
                    f"far tail: log b_n is not bounded by interval evaluation on "
                    f"[2^{k}, 2^{k + 1}] (terms not positive, or cancellation)"
                )
            self.boxes += encs

    def _split_enclosures(self, lo: arb, hi: arb):
        """The box [lo, hi] in 1, 2, 4, ... 16 equal parts until every part has an enclosure."""
        for parts in (1, 2, 4, 8, 16):
            edges = [lo + (hi - lo) * i / parts for i in range(parts + 1)]
            encs = [self._log_enclosure(a, b) for a, b in zip(edges, edges[1:])]
            if all(e is not None for e in encs):
                return [(a, b) + e for a, b, e in zip(edges, edges[1:], encs)]
        return None

    def _log_enclosure(self, lo: arb, hi: arb):
        """(direct enclosure of log b on [lo, hi], log b at the centre, n (log b)' on the box,
        centre, half-width): the mean-value form in log n is built from these per comparison."""
        box = lo.union(hi)
        m, h = (lo + hi) / 2, (hi - lo) / 2
        if not box > 0:
            return None
        try:
            direct = self.L(box)
            c = taylor(self.L, m, 1)[0]
            d = self.D(box) if self.D is not None else taylor(self.L, box, 2)[1] * box
            if self.D_recip is not None:
                dr = self.D_recip((1 / hi).union(1 / lo))
                if dr.is_finite() and (not d.is_finite() or dr.rad() < d.rad()):
                    d = dr
        except (Undecided, NotSupported, ArithmeticError, ValueError):
            return None
        if not (direct.is_finite() or (c.is_finite() and d.is_finite())):
            direct = self._reciprocal_model(lo, hi)
            if direct is None:
                return None
        return direct, c, d, m, h

    def _reciprocal_model(self, lo: arb, hi: arb):
        """log b on [lo, hi] from a Taylor model in t = 1/n (order 16, Lagrange remainder):
        cancellations such as exp(-1/n) - 1 + 1/n are analytic in t at 0, where the
        interval evaluation in n loses them."""
        if self.recip is None:
            return None
        tb = (1 / hi).union(1 / lo)
        tm, r = arb(tb.mid()), _symmetric(tb.rad()) + _symmetric(tb.mid() - arb(tb.mid()))
        K = 16
        try:
            c = taylor(self.recip, tm, K)
            cK = taylor(self.recip, tm + r, K + 1)[K]
        except (Undecided, NotSupported, ArithmeticError, ValueError):
            return None
        ru = abs(r).upper()
        total = c[0]
        for k in range(1, K):
            total += c[k] * (_symmetric(ru**k) if k % 2 else arb(0).union(ru**k))
        total += cK * _symmetric(ru**K)
        if not (total.is_finite() and total > 0):
            return None
        return total.log()

    def _taylor_model(self, i: int, qa: arb, log_power: bool) -> arb | None:
        """log(b/g) on box ``i`` from the Taylor models of log b and log g
        (:func:`~theory.series.arb_eval.box_taylor`, order :data:`MODEL_ORDER`): where log b
        is a product whose factors cancel (2 n log n log(1 - 1/n) + 2 log n -> 0), interval
        evaluation on [2^k, 2^(k+1)] loses about k, while the coefficients at the centre keep
        the cancellation. The model of log b is built once per box; None where it is not
        finite."""
        lo, hi = self.boxes[i][:2]

        def logg(x):  # log g, g = n^-q or 1/(n log(n)^q)
            return -qa * x.log() if not log_power else -x.log() - qa * x.log().log()

        old = ctx.prec  # as the boxes were built: cancellations lose about 2 log2(n) bits
        ctx.prec = max(PREC, 2 * int(float(hi.log().mid()) / math.log(2)) + 130)
        try:
            if i not in self._models:
                try:
                    self._models[i] = box_taylor(self.L, lo, hi, MODEL_ORDER)
                except (Undecided, NotSupported, ArithmeticError, ValueError):
                    self._models[i] = None
            if self._models[i] is None:
                return None
            cg = box_taylor(logg, lo, hi, MODEL_ORDER)
            total = taylor_range([a - b for a, b in zip(self._models[i], cg)], lo, hi)
        except (ArithmeticError, ValueError):
            return None
        finally:
            ctx.prec = old
        return total if total.is_finite() else None

    def families(self):
        """(q, log_power, limit of log(b/g)) for the comparison terms to try."""
        with step_budget(4.0):
            lam = limit_at_infinity(self.logb / sp.log(N))
        if lam is None or not (lam == -sp.oo or (lam.is_number and lam.is_finite and lam <= -1)):
            return []
        if lam == -sp.oo:
            return [
                (sp.Rational(q), False, -sp.oo)
                for q in ("2", "3/2", "6/5", "11/10", "21/20", "51/50", "101/100")
            ]
        if lam < -1:
            out = []
            with step_budget(4.0):
                L = limit_at_infinity(self.logb - lam * sp.log(N))
            if L is not None and (L == -sp.oo or (L.is_number and L.is_finite)):
                out.append((-lam, False, L))
            return out + [((1 - lam) / 2, False, -sp.oo)]
        with step_budget(4.0):
            mu = limit_at_infinity((self.logb + sp.log(N)) / sp.log(sp.log(N)))
        if mu is None or not (mu.is_number and mu.is_finite and mu < -1):
            return []
        out = []
        with step_budget(4.0):
            L = limit_at_infinity(self.logb + sp.log(N) - mu * sp.log(sp.log(N)))
        if L is not None and (L == -sp.oo or (L.is_number and L.is_finite)):
            out.append((-mu, True, L))
        return out + [((1 - mu) / 2, True, -sp.oo)]

    def comparison(self, q, log_power: bool, lim, k: int) -> Comparison | None:
        """``c_- <= b_n/g_n <= c_+`` on [2^k, oo) from the boxes (and the limit beyond them)."""
        qa = arb_function(sp.sympify(q))(arb(0))
        lo_b, hi_b = None, None
        for i, (lo, hi, direct, c, d, m, _h) in enumerate(self.boxes):
            if hi <= arb(2) ** k:
                continue
            lg_m = -qa * m.log() if not log_power else -m.log() - qa * m.log().log()
            box = lo.union(hi)
            dg = -qa if not log_power else -(1 + qa / box.log())  # n (log g)'
            du = _symmetric((m / lo).log().max((hi / m).log()))  # |log x - log m| on the box
            mv = c - lg_m + (d - dg) * du if c.is_finite() and d.is_finite() else None
            box = lo.union(hi)
            lg = -qa * box.log() if not log_power else -box.log() - qa * box.log().log()
            dr = direct - lg if direct.is_finite() else None
            enc = (
                mv
                if dr is None
                else (dr if mv is None else (dr.intersection(mv) if dr.overlaps(mv) else mv))
            )
            if enc is None or not (enc.rad() < MODEL_WIDTH or enc.upper() < MODEL_NEGLIGIBLE):
                model = self._taylor_model(i, qa, log_power)
                if model is not None and (enc is None or not model.rad() > enc.rad()):
                    enc = model
            if enc is None or not enc.is_finite():
                return None
            lo_b = enc.lower() if lo_b is None else lo_b.min(enc.lower())
            hi_b = enc.upper() if hi_b is None else hi_b.max(enc.upper())
        if lo_b is None:
            return None
        if lim == -sp.oo:  # b/g -> 0: no positive lower bound beyond the boxes
            c_lo, c_hi = arb(0), hi_b.exp()
        else:
            la = arb_function(sp.sympify(lim))(arb(0))
            c_lo, c_hi = lo_b.min(la.lower()).exp(), hi_b.max(la.upper()).exp()
        g = f"n^-{q}" if not log_power else f"1/(n log(n)^{q})"
        return Comparison(
            qa,
            log_power,
            c_lo,
            c_hi,
            2**k,
            f"g_n = {g}, b_n/g_n in [{c_lo.lower().str(3)}, {c_hi.upper().str(3)}] on n >= 2^{k}, proved "
            f"on boxes up to n = 2^{BOX_TOP_LOG2}; beyond that it rests on the "
            f"limit of log(b_n/g_n) = {lim} (sympy)",
        )


def _exp_of(g):
    """x -> exp(g(x)) for a compiled log-term g (a ball or a Taylor series)."""
    return lambda x: g(x).exp()


#: CPU seconds for D written in 1/n and cancelled (square roots make it slow)
RECIP_SECONDS = 1.5
MODEL_ORDER = 24  # K of the far boxes' Taylor models
MODEL_WIDTH = 0.5  # a box whose log(b/g) is enclosed wider than this tries its Taylor model,
MODEL_NEGLIGIBLE = -64  # unless log(b/g) < this on the whole box (b/g < e^-64 there anyway)


def _optional(build):
    """build() or None when the ball evaluator does not support the result (or sympy
    cannot form it: a polynomial of degree 10^400 overflows its gcd)."""
    try:
        return build()
    except (NotSupported, ValueError, TypeError, OverflowError):
        return None


def _prune_far_branches(b: sp.Expr, k0: int) -> sp.Expr:
    """b without the Piecewise branches whose condition is proved false on every box
    [2^k, 2^(k+1)], k0 <= k < BOX_TOP_LOG2 (e.g. a negative head value at n < 3, whose
    logarithm is complex): the same function on the far range."""
    boxes = [lo.union(hi) for lo, hi in _box_edges(k0)]

    def never(cond) -> bool:
        lhs, rhs = arb_function(cond.lhs), arb_function(cond.rhs)
        holds = {
            sp.StrictLessThan: lambda a, c: a < c,
            sp.LessThan: lambda a, c: a <= c,
            sp.StrictGreaterThan: lambda a, c: a > c,
            sp.GreaterThan: lambda a, c: a >= c,
        }
        fails = {
            sp.StrictLessThan: lambda a, c: a >= c,
            sp.LessThan: lambda a, c: a > c,
            sp.StrictGreaterThan: lambda a, c: a <= c,
            sp.GreaterThan: lambda a, c: a < c,
        }
        if type(cond) not in holds:
            return False
        return all(fails[type(cond)](lhs(x), rhs(x)) for x in boxes)

    def prune(e):
        if not isinstance(e, sp.Piecewise):
            return e
        kept = [(v, c) for v, c in e.args if c is sp.true or not never(c)]
        return kept[0][0] if len(kept) == 1 and kept[0][1] is sp.true else sp.Piecewise(*kept)

    def choose(e):
        """Min/Max whose winner, or Abs whose sign, is the same on every box."""
        if isinstance(e, sp.Abs):
            v = [arb_function(e.args[0])(x) for x in boxes]
            return (
                e.args[0] if all(x > 0 for x in v) else (-e.args[0] if all(x < 0 for x in v) else e)
            )
        vals = [[arb_function(a)(x) for x in boxes] for a in e.args]
        for i, a in enumerate(e.args):
            wins = all(
                all(
                    (vals[i][k] < vals[j][k])
                    if isinstance(e, sp.Min)
                    else (vals[i][k] > vals[j][k])
                    for j in range(len(e.args))
                    if j != i
                )
                for k in range(len(boxes))
            )
            if wins:
                return a
        return e

    b = b.replace(lambda e: isinstance(e, sp.Piecewise), prune)
    return b.replace(lambda e: isinstance(e, (sp.Min, sp.Max, sp.Abs)) and e.has(N), choose)


def _symmetric(r: arb) -> arb:
    """The ball [-|r|, |r|] (built without a float: radii beyond 1e308 or below 1e-308 stay exact)."""
    u = abs(r).upper()
    return (-u).union(u)


def _box_edges(k0: int):
    """[2^k, 2^(k+1)] for k0 <= k < BOX_TOP_LOG2 (a ball spanning a larger ratio loses its
    lower end to the mid-radius form: x*x of [1, 2^16] would contain negative numbers)."""
    two = arb(2)
    for k in range(k0, BOX_TOP_LOG2):
        yield two**k, two ** (k + 1)


@ball_precision
def arb_bounds(x: arb) -> tuple:
    """(lower, upper) of a ball as exact mpmath numbers (taken at PREC bits, rounded outwards)."""
    return _to_mpf(x.lower()), _to_mpf(x.upper())


def _to_mpf(v: arb):
    """An exact arb (an endpoint) as the same mpf: mantissa * 2^exponent, no rounding."""
    man, exp = v.mid().man_exp()
    man, exp = int(man), int(exp)
    with mpmath.workprec(max(53, man.bit_length() + 8)):  # mpf(man) must not round
        return mpmath.ldexp(mpmath.mpf(man), exp)


class CertifiedEstimate:
    """The Euler-Maclaurin engine interface (``tail(a) -> (value, error bound)``) on top of a
    certified tail, for the TRF search when the estimate engine does not apply."""

    def __init__(self, cert, b: sp.Expr):
        self.cert, self.b, self.em = cert, b, None

    def tail(self, a: float | mpmath.mpf, fast: bool = False) -> tuple[mpmath.mpf, mpmath.mpf]:
        far = getattr(getattr(self.cert, "far", None), "X", None)
        if far is not None and a >= far:  # beyond the blocks: the Euler-Maclaurin estimate
            if self.em is None:
                self.em = Tail(self.b)
            return self.em.tail(a, fast)
        v = self.cert.tail(int(mpmath.ceil(a)))
        lo, hi = arb_bounds(v)
        return (lo + hi) / 2, (hi - lo) / 2
