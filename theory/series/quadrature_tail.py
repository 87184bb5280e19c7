r"""The integral :math:`I(a) = \int_a^\infty f` enclosed without an antiderivative, for a
positive term that is log-concave in :math:`u = \log x`.

With :math:`x = e^u`,

.. math::
   I(a) = \int_{\log a}^{\infty} g(u)\,du, \qquad g(u) = f(e^u)\,e^u = e^{h(u)}, \qquad
   h(u) = \log f(e^u) + u .

The part over :math:`[\log a, U]` is computed by rigorous quadrature (``acb.integral``,
python-flint / Arb's ``acb_calc_integrate``: Gauss-Legendre with error bounds from the
integrand's enclosure on complex ellipses, so the integrand is evaluated with the
``analytic`` flag and reports branch cuts of ``log`` and real powers as non-finite).  The
far part is bounded by log-concavity: when :math:`h'' \le 0` on :math:`[P, \infty)` (proved
from the factored :math:`h''`, :func:`theory.series.eventual_signs.derivative_sign`) and
:math:`h'(U) < 0` at some :math:`U \ge P` (ball arithmetic), then
:math:`h(u) \le h(U) + h'(U)(u - U)` for :math:`u \ge U` and

.. math::
   0 \le \int_U^\infty e^{h} \le \frac{e^{h(U)}}{|h'(U)|}.

:math:`h` is :math:`\log f` written from the structure that
:func:`theory.series.integral_test.decreasing_on` proves positive factor by factor
(:math:`\log \prod = \sum \log`, :math:`\log e^{z} = z`, :math:`\log y^{s} = s \log y`), with
:math:`\log e^u = u`; :math:`e^{-\log(n)^{1.01}}` gives :math:`h(u) = u - u^{1.01}`,
:math:`h'' = -0.0101\,u^{-0.99} < 0`.  Quadrature pieces run between the nodes
:math:`u_k = u_0 r^k` and are kept, so that a query costs one short integral plus a sum;
everything is in :math:`u`, so a huge :math:`a = e^t` is never formed.

>>> from theory.series.expressions import parse_expression as P
>>> q = QuadratureTail(P("exp(-log(n)**(101/100))"), 3)
>>> v = q.integral(arb(8))   # int_8^oo e^(u - u^1.01) du = 19.87718329813881396226854... (mpmath)
>>> v.overlaps(arb("19.87718329813881396226854125902920153571 +/- 1e-38")) and v.rad() < 1e-25
True
"""

from __future__ import annotations

import math
from collections.abc import Callable

import sympy as sp
from flint import acb, arb

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import NotCertified, NotSupported, arb_function, ball_precision
from theory.series.eventual_signs import derivative_sign
from theory.series.expressions import N
from theory.series.limits import limit_at_infinity

#: CPU seconds for writing h, its derivatives and the sign proof of h''
SYMBOLIC_SECONDS = 2.0
#: candidate starts P of the proved concave range in u (integers; log x >= 2 for log(u))
STARTS = tuple(2**k for k in range(1, 21))
#: the least power q of the far bound u^-q (pieces to 2^-100 grow like 1/(q - 1))
POWER_MIN = 1.3
#: ratio of consecutive quadrature nodes u_k = u_0 r^k
RATIO = 1.25
#: relative size of the far-part bound e^h(U)/|h'(U)| at which the nodes stop
FAR_REL = 2.0**-100
#: relative tolerance asked of each quadrature piece (Arb's goal; the ball is what counts)
REL_TOL = 2.0**-110
#: the largest relative radius of the integrand at a piece's ends before it is refused
PRECISE = 2.0**-40
#: e-folds of e^h over one local step where a piece between nodes is steeper
STEEP = 24.0
#: nodes one query may add before it is refused
MAX_PIECES = 4000


def log_positive(f: sp.Expr) -> sp.Expr:
    """log f for a term whose factors :func:`~theory.series.integral_test.decreasing_on`
    proved positive: products to sums, log(e^z) = z, log(y^s) = s log y (module doc)."""
    if not f.has(N):
        return sp.log(f)
    if isinstance(f, sp.Mul):
        return sp.Add(*[log_positive(a) for a in f.args])
    if isinstance(f, sp.exp):
        return f.args[0]
    if isinstance(f, sp.Pow) and not f.exp.has(N):
        base = f.base
        if isinstance(base, sp.Add):  # n log(n)^2 + n = n (log(n)^2 + 1): log n + ...
            try:
                with step_budget(0.5):
                    factored = sp.factor(base)
            except (StepTimeout, sp.PolynomialError, ValueError, TypeError):
                factored = base
            if isinstance(factored, sp.Mul) and all(a.is_positive for a in factored.args):
                base = factored  # log of the product = sum of the logs: every factor > 0
        return f.exp * log_positive(base)
    return sp.log(f)


def concave_start(h: sp.Expr, u0: float) -> int | None:
    """The least P in STARTS, P >= u0, with h'' <= 0 on [P, oo) proved, else None."""
    try:
        with step_budget(SYMBOLIC_SECONDS):
            d2 = sp.factor(sp.together(sp.diff(h, N, 2)))
            if d2 == 0:
                return next(P for P in STARTS if P >= u0)
            for P in STARTS:
                if P >= u0 and derivative_sign(d2, P) == -1:
                    return P
    except (StepTimeout, StopIteration, RecursionError, ValueError, TypeError):
        return None
    return None


def _concave_in_log(h: sp.Expr, u0: float) -> int | None:
    r"""The least P in STARTS, :math:`e^P \ge u_0`, with :math:`k'' \le 0` on
    :math:`[P, \infty)` proved for :math:`k(s) = h(e^s) + s`, else None.

    Then :math:`\int_U^\infty e^{h(u)}\,du = \int_{\log U}^\infty e^{k(s)}\,ds \le
    e^{k(S)}/|k'(S)| = U e^{h(U)}/|U h'(U) + 1|` at :math:`S = \log U \ge P` with
    :math:`k'(S) < 0` (the tangent of the concave k).  For :math:`h = -u^{0.7}` (the term
    :math:`e^{-\log(x)^{0.7}}/x`), :math:`k = s - e^{0.7 s}`, :math:`k'' = -0.49 e^{0.7 s}`.

    >>> _concave_in_log(-N**sp.Rational(7, 10), 1.0)
    2
    """
    try:
        with step_budget(SYMBOLIC_SECONDS):
            k = sp.expand(h.subs(N, sp.exp(N)) + N)
    except (StepTimeout, RecursionError, ValueError, TypeError):
        return None
    return concave_start(k, math.log(max(u0, 1.0)))


def power_start(d: sp.Expr, u0: float) -> int | None:
    r"""The least P in STARTS, :math:`P \ge u_0`, with d < 0 on :math:`[P, \infty)` proved
    (:func:`theory.series.eventual_signs.derivative_sign` of d factored), else None: for
    :math:`d = u h'(u) + q`, :math:`u^q e^{h(u)}` decreases there, so
    :math:`\int_U^\infty e^{h} \le U e^{h(U)}/(q - 1)` for q > 1.

    >>> u = N
    >>> power_start(-3 - 1/sp.log(u) + 2, 1.0)     # 1/(x log(x)^3 log(log(x))), q = 2
    2
    """
    try:
        with step_budget(SYMBOLIC_SECONDS):
            d = sp.factor(sp.together(d))
            for P in STARTS:
                if P >= u0 and derivative_sign(d, P) == -1:
                    return P
    except (StepTimeout, RecursionError, ValueError, TypeError):
        return None
    return None


def acb_function(e: sp.Expr) -> Callable:
    """(x, analytic) -> e(x) in complex balls; with ``analytic`` true a ball that meets a
    branch cut (log, real powers) gives a non-finite value (``acb.integral``'s contract)."""
    if e == N:
        return lambda x, a: x
    if not e.has(N):
        c = acb(arb_function(e)(arb(0)))
        return lambda x, a: c
    if isinstance(e, (sp.Add, sp.Mul)):
        parts = [acb_function(p) for p in e.args]
        add = isinstance(e, sp.Add)

        def fold(x, a):
            out = parts[0](x, a)
            for p in parts[1:]:
                out = out + p(x, a) if add else out * p(x, a)
            return out

        return fold
    if isinstance(e, sp.Pow):
        base = acb_function(e.base)
        if e.exp.is_Integer:
            k = int(e.exp)
            return lambda x, a: base(x, a) ** k
        ex = acb_function(e.exp)
        return lambda x, a: base(x, a).pow(ex(x, a), analytic=a)
    if isinstance(e, sp.exp):
        z = acb_function(e.args[0])
        return lambda x, a: z(x, a).exp()
    if isinstance(e, sp.log):
        z = acb_function(e.args[0])
        return lambda x, a: z(x, a).log(analytic=a)
    if isinstance(e, (sp.sin, sp.cos)):
        z, name = acb_function(e.args[0]), type(e).__name__
        return lambda x, a: getattr(z(x, a), name)()
    raise NotSupported(f"{type(e).__name__} in the quadrature integrand")


def rigorous_integral(g: Callable, lo: arb, hi: arb) -> arb:
    """An enclosure of int_lo^hi g (g real on the real segment) by ``acb.integral``.  An
    exception inside the integrand (Ctrl-C, a step's time-out) stops the quadrature and is
    raised here as itself (python-flint would turn ``KeyboardInterrupt`` into
    ``SystemError``)."""
    caught: list = []

    def call(x, analytic):
        if caught:
            return acb("nan")
        try:
            return g(x, analytic)
        except BaseException as exc:  # re-raised below, unchanged
            caught.append(exc)
            return acb("nan")

    a, b = acb(lo), acb(hi)
    ga, gb = g(a, False).real, g(b, False).real
    if not all(v.is_finite() and v.rad() < PRECISE * v.mid() for v in (ga, gb)):
        raise NotCertified("the integrand has no digits left at this u (ball arithmetic)")
    size = (hi - lo) * ga.union(gb)  # a scale for the error goal only
    goal = size.upper() * arb(2) ** math.log2(REL_TOL) if size.is_finite() else None
    v = acb.integral(call, a, b, rel_tol=REL_TOL, abs_tol=goal)
    if caught:
        raise caught[0]
    if not (v.real.is_finite() and v.real > 0):  # g > 0: a ball reaching 0 lost its digits
        raise NotCertified("the quadrature of the tail integral did not converge")
    return v.real


def log_shifts(e: sp.Expr) -> set:
    """The rational c of the atoms log(n + c) in e (0 for log n).

    >>> sorted(log_shifts(sp.log(N + 1) / sp.log(N) + sp.log(sp.log(N - 2))))
    [-2, 0, 1]
    """
    args = {a.args[0] for a in e.atoms(sp.log) if a.has(N)}
    return {c for c in (sp.expand(a - N) for a in args) if c.is_Rational}


def log_shift(lf: sp.Expr) -> sp.Rational | None:
    """c when the logarithms of n in ``lf`` (log f) are log(n + c), one rational c != 0,
    and log(n), and n occurs in lf only inside them; else None."""
    shifts = log_shifts(lf)
    if len(shifts - {0}) != 1:
        return None
    c = next(iter(shifts - {0}))
    inside = lf.xreplace({sp.log(N + k): sp.Dummy() for k in shifts})
    return None if inside.has(N) else c


def shifted_exponent(lf: sp.Expr, c: sp.Rational) -> tuple[sp.Expr, sp.Expr, sp.Expr] | None:
    r"""(h, h0, kappa) in :math:`u = \log(x + c)` (module doc): with
    :math:`E = \log(1 - c e^{-u})`, :math:`\log x = u + E`,
    :math:`h = \log f(e^u - c) + u = h_0(u) + E \kappa(u)`; None when h is not of degree
    at most 1 in E.

    >>> lf = -sp.sqrt(sp.log(N + 1)) - sp.log(N)      # f = e^(-sqrt(log(x + 1)))/x
    >>> log_shift(lf)
    1
    >>> shifted_exponent(lf, 1)
    (-sqrt(n) - log(1 - exp(-n)), -sqrt(n), -1)
    """
    E = sp.Dummy("E")
    try:
        with step_budget(SYMBOLIC_SECONDS):
            g = lf.xreplace({sp.log(N + c): N, sp.log(N): N + E})
            hE = sp.expand(g + N)
            if hE.has(sp.exp) or not hE.is_polynomial(E) or sp.degree(hE, E) > 1:
                return None
            h0, kappa = hE.subs(E, 0), hE.coeff(E, 1)
    except (StepTimeout, sp.PolynomialError, RecursionError, ValueError, TypeError):
        return None
    return h0 + kappa * sp.log(1 - c * sp.exp(-N)), h0, kappa


class QuadratureTail:
    """I(a) = int_a^oo f for a positive term f that is log-concave in u = log x from
    x = e^P on (module docstring); ``integral(t)`` encloses I(e^t) for t >= log(x0)."""

    @ball_precision  # the constants of the compiled h and g are formed at PREC bits
    def __init__(self, f: sp.Expr, x0: int):
        try:
            with step_budget(SYMBOLIC_SECONDS):
                lf = log_positive(f)
                self.c = log_shift(lf)
                if self.c is not None and max(int(x0), 1) + self.c < 2:
                    self.c = None  # u = log(x + c) from u0 = log 2 > 0 on only
                parts = None if self.c is None else shifted_exponent(lf, self.c)
                if parts is None:  # u = log x
                    self.c = None
                    h = h0 = sp.expand(lf.subs(N, sp.exp(N)) + N)
                    kappa = sp.Integer(0)
                else:  # u = log(x + c)
                    h, h0, kappa = parts
                dh = sp.diff(h0, N)
        except (StepTimeout, RecursionError, ValueError, TypeError):
            raise NotCertified("log f(e^u) not written within its time") from None
        self._c = arb(0) if self.c is None else arb_function(self.c)(arb(0))
        self.u0 = math.log(max(int(x0), 1) + float(self.c or 0))
        P, self.level, self.q = concave_start(h0, self.u0), 1, None
        if P is None:  # e^(-log(x)^0.7)/x: h = -u^0.7 is convex; k(s) = h(e^s) + s is concave
            P, self.level = _concave_in_log(h0, self.u0), 2
            lim = limit_at_infinity(N * dh)
            if lim != -sp.oo:  # 1/(x log(x)^3 log(log(x))): u h' -> -3, a power of u
                P, self.level = None, 3
                if lim is not None and lim.is_number and lim.is_finite and lim < -POWER_MIN:
                    self.q = (1 - lim) / 2
                    P = power_start(N * dh + self.q, self.u0)
        if P is None:
            raise NotCertified(
                "log f(e^u) + u is not proved concave in u, nor in log u, nor below a "
                f"power u^-q with q > {POWER_MIN}"
            )
        try:
            self._g = acb_function(sp.exp(h))
            self._h, self._dh = arb_function(h0), arb_function(dh)
            self._h_full = arb_function(h)
            self._pert_start, self._pert, pert_text = self._perturbation(kappa)
        except NotSupported as exc:
            raise NotCertified(f"the integrand is not evaluated in balls ({exc})") from None
        self.P, self.h = P, h
        shown = sp.sstr(h.subs(N, sp.Symbol("u")))
        far = {
            1: f"e^h(U)/|h'(U)| (h'' < 0 on [{P}, oo) proved, h'(U) < 0 in balls)",
            2: f"U e^h(U)/|U h'(U) + 1| (k(s) = h(e^s) + s has k'' < 0 for s >= {P}, "
            "proved; k'(log U) = U h'(U) + 1 < 0 in balls)",
            3: f"U e^h(U)/(q - 1), q = {self.q} (u h'(u) + q < 0 on [{P}, oo) proved: "
            "u^q e^h(u) decreases)",
        }[self.level]
        if self.q is not None:
            self._q = arb_function(self.q)(arb(0))
        if self.c is None:
            where = "int_(log a)^oo e^h(u) du"
        else:
            where = f"int_(log(a + {self.c}))^oo e^h(u) du (x = e^u - {self.c})"
            far = f"{far}, h0 = {sp.sstr(h0.subs(N, sp.Symbol('u')))}, {pert_text}"
        self.certificate = (
            f"{where}, h(u) = {shown}: rigorous quadrature (acb.integral) up to U, beyond it {far}"
        )
        self._pieces: dict = {}
        self._walks: dict = {}  # node index -> (int_(u_k)^oo enclosed, its far part's bound)
        self._start = max(self.u0, 1.0)

    def _node(self, k: int) -> arb:
        """u_k = u_0 r^k as an exact ball (a float rounded to an exact value)."""
        try:
            return arb(self._start * RATIO**k)
        except OverflowError:
            raise NotCertified("the tail integral's nodes pass the float range") from None

    def _perturbation(self, kappa: sp.Expr) -> tuple[float, Callable, str]:
        r"""(U_p, U -> pbar(U), its text): :math:`h - h_0 = E \kappa \le \bar p(U)` on
        :math:`[U, \infty)` for :math:`U \ge U_p`, with :math:`|E| \le 2|c| e^{-u}` where
        :math:`|c| e^{-u} \le 1/2` (:math:`-\log(1 - y) \le 2y` for :math:`y \le 1/2`,
        :math:`\log(1 + y) \le y`), so :math:`\int_U^\infty e^h \le e^{\bar p(U)}
        \int_U^\infty e^{h_0}`: :math:`\bar p = 0` for :math:`c > 0`, :math:`\kappa \ge 0`
        (E <= 0), else :math:`\bar p(U) = 2|c| e^{-U} |\kappa(U)|` where
        :math:`e^{-u}|\kappa(u)|` is proved decreasing."""
        zero = lambda U: arb(0)  # noqa: E731 - no perturbation
        if self.c is None or kappa == 0:
            return 0.0, zero, ""
        try:
            with step_budget(SYMBOLIC_SECONDS):
                kf = sp.factor(sp.together(kappa))
                start = next(P for P in STARTS if P >= self.u0 and derivative_sign(kf, P))
                sign = derivative_sign(kf, start)
                if self.c > 0 and sign == 1:
                    return float(start), zero, "h - h0 = E kappa <= 0 (E <= 0, kappa >= 0)"
                q = sign * sp.exp(-N) * kappa
                dq = sp.factor(sp.together(sp.diff(q, N)))
                start = next(P for P in STARTS if P >= start and derivative_sign(dq, P) == -1)
        except (StepTimeout, StopIteration, RecursionError, ValueError, TypeError):
            raise NotCertified("log(1 - c e^-u) in h is not bounded beyond U") from None
        bound = arb_function(2 * abs(self.c) * q)
        start = max(float(start), math.log(2 * abs(float(self.c))) + 1e-9)
        text = (
            f"times e^(2|c| e^-U |kappa(U)|), kappa = {sp.sstr(kappa.subs(N, sp.Symbol('u')))} "
            f"(h = h0 + E kappa, |E| <= 2|c| e^-u, e^-u |kappa| decreasing from u = {start})"
        )
        return start, bound, text

    def _u(self, t: arb) -> arb:
        """u = log(e^t + c) = t + log(1 + c e^-t) for x = e^t, without forming e^t."""
        return t if self.c is None else t + (1 + self._c * (-t).exp()).log()

    def term(self, t: arb) -> arb:
        """f(e^t) = e^(h(u) - u), u = log(e^t + c), without forming e^t."""
        u = self._u(t)
        return (self._h_full(u) - u).exp()

    def _piece(self, k: int) -> arb:
        if k not in self._pieces:
            self._pieces[k] = rigorous_integral(self._g, self._node(k), self._node(k + 1))
        return self._pieces[k]

    def _far(self, U: arb) -> arb | None:
        """A bound of int_U^oo e^h, else None: e^h(U)/|h'(U)| where U >= P and h'(U) < 0
        are proved (level 1); U e^h(U)/|U h'(U) + 1| where log U >= P and
        U h'(U) + 1 < 0 are proved (level 2, :func:`_concave_in_log`)."""
        if not U > 0:
            return None
        if not (U >= self.P if self.level != 2 else U.log() >= self.P):
            return None
        if not U >= self._pert_start:
            return None
        lift = self._pert(U).exp()  # e^(pbar(U)): the far part of h, not h0
        if self.level == 3:  # int_U^oo u^-q (u^q e^h(u)) du <= U^q e^h(U) U^(1-q)/(q - 1)
            far = lift * self._h(U).exp() * U / (self._q - 1)
            return far if far.is_finite() else None
        d = self._dh(U) if self.level == 1 else U * self._dh(U) + 1
        if not (d.is_finite() and d < 0):
            return None
        far = lift * self._h(U).exp() / -d
        if self.level == 2:
            far *= U
        return far if far.is_finite() else None

    @ball_precision
    def integral(self, t: arb) -> arb:
        """An enclosure of I(e^t) = int_u^oo e^h, u = log(e^t + c), for every t in the ball
        ``t`` (I decreases in t: the enclosures at both ends of the ball, joined)."""
        if not t.is_finite():
            raise NotCertified("the tail integral's end is not finite")
        lo_end = arb(self._u(arb(t.lower())).lower())
        hi_end = arb(self._u(arb(t.upper())).upper())
        if not lo_end >= self._start:
            raise NotCertified(f"the tail integral is enclosed only from u = {self._start}")
        if lo_end == hi_end:
            return self._from_point(lo_end)
        return self._from_point(hi_end).union(self._from_point(lo_end))

    def _from_point(self, t: arb) -> arb:
        """int_t^oo e^h for an exact t: walk to the far bound through the kept pieces
        between nodes, or by local steps of STEEP e-folds where h' makes a piece steep.
        A walk that reaches a node whose own walk is kept adds it and stops (its far part
        is <= FAR_REL of its total, so of this larger one too); the walk's suffixes from
        its nodes are kept where the far part is <= FAR_REL of them (:meth:`_keep`)."""
        try:
            k = max(math.ceil(math.log(float(t) / self._start, RATIO)) - 1, 0)
        except (OverflowError, ValueError):
            raise NotCertified("the tail integral is enclosed for u below 1e308") from None
        while not self._node(k) >= t:
            k += 1
        u, total, steps = t, arb(0), []
        for _ in range(MAX_PIECES):
            at = k if u == self._node(k) else None
            if at is not None and at in self._walks:
                rest, far_up = self._walks[at]
                self._keep(steps, rest, far_up)
                return total + rest
            far = self._far(u)
            if far is not None and far.upper() <= FAR_REL * total.lower():
                end = arb(0).union(far)
                self._keep(steps, end, far.upper())
                return total + end
            if at is not None:
                k += 1
            step = self._local_step(u, self._node(k))
            if step is not None:
                inc, u = rigorous_integral(self._g, u, step), step
            elif u == self._node(k - 1) and k - 1 >= 0:
                inc, u = self._piece(k - 1), self._node(k)
            else:
                inc, u = rigorous_integral(self._g, u, self._node(k)), self._node(k)
            steps.append((at, inc))
            total += inc
            while self._node(k) <= u:
                k += 1
        raise NotCertified("the far part of the tail integral is not bounded")

    def _keep(self, steps: list, end: arb, far_up: arb) -> None:
        """Keep int_(u_j)^oo for the nodes u_j where the walk ``steps`` started a step: the
        later steps summed from the far end (no subtraction), where far_up <= FAR_REL of it."""
        acc = end
        for at, inc in reversed(steps):
            acc = inc + acc
            if at is not None and at not in self._walks and far_up <= FAR_REL * acc.lower():
                self._walks[at] = (acc, far_up)

    def _local_step(self, u: arb, node: arb) -> arb | None:
        """u + STEEP/|h'(u)| where [u, node] spans more than STEEP e-folds (u >= P, so
        |h'| only grows), else None.  (It places the pieces; each is enclosed by its own
        quadrature, whatever h does.)"""
        if self.level != 1 or not u >= self.P:
            return None
        d = self._dh(u)
        if not (d.is_finite() and d < 0 and -d * (node - u) > STEEP):
            return None
        v = arb(float(u) + STEEP / float(-d))
        if not v > u:
            raise NotCertified("the tail integral's steps pass the float resolution")
        return v
