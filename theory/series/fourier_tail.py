r"""Far tails of :math:`b_n = G(n)\,n^{-p}` with :math:`G` periodic and analytic: the mean of
:math:`G` times a Hurwitz zeta value, plus Fourier terms summed by parts twice.

For ``exp(cos(n))/n**2`` the power majorant of :mod:`theory.series.majorant_tail` bounds the
tail only within the range of :math:`G` (B to about 5 digits).  Here :math:`G(n) = H(\omega n)`
with :math:`H` :math:`2\pi`-periodic (every angle in :math:`G` is :math:`k n + c` with
:math:`k` an integer multiple of one frequency :math:`\omega`) and analytic in the strip
:math:`|\operatorname{Im} x| \le \rho`, where :math:`|H| \le M` (proved by interval evaluation
on complex boxes covering the strip; the principal branches of ``log`` and of real powers are
taken only on boxes in the right half-plane, and a divisor only where its box excludes 0).
With :math:`H(x) = \sum_j c_j e^{ijx}`:

* :math:`|c_j| \le M e^{-|j|\rho}` (the contour of :math:`c_j = \frac1{2\pi}\int_0^{2\pi}
  H(x) e^{-ijx}\,dx` moved to :math:`\operatorname{Im} x = \mp\rho`);
* the trapezoid rule with :math:`m` nodes gives the mean :math:`\mu = c_0` and
  :math:`c_j` to within :math:`2M e^{-(m-|j|)\rho} / (1 - e^{-m\rho})` (aliasing,
  Trefethen & Weideman, SIAM Rev. 56 (2014), Thm. 3.1);
* for :math:`z = e^{ij\omega} \ne 1` (proved: :math:`|\sin(j\omega/2)| > 0` in ball
  arithmetic), summation by parts twice, with :math:`h(n) = n^{-p}` decreasing and convex
  and :math:`|\sum_{n=a}^{b} z^n| \le 1/|\sin(j\omega/2)|`:

  .. math::
     \sum_{n \ge a} z^n h(n) = \frac{z^a h(a)}{1 - z}
     \pm \frac{h(a) - h(a+1)}{2 \sin^2(j\omega/2)}.

Together, for every integer :math:`a \ge 1`:

.. math::
   \sum_{n \ge a} b_n \in \mu\,\zeta(p, a)
   + h(a) \sum_{j=1}^{K} 2\,\mathrm{Re}\,\frac{c_j e^{ij\omega a}}{1 - e^{ij\omega}}
   \pm \Big((h(a) - h(a+1)) \sum_{j=1}^{K} \frac{|c_j|}{\sin^2(j\omega/2)}
   + \zeta(p, a) \sum_{j > K} 2 M e^{-j\rho}\Big).

>>> from theory.series.expressions import parse_expression as P
>>> t = FourierTail.power(P("exp(cos(n))"), 2)
>>> s = t.tail(10**5)                   # tail of exp(cos(n))/n**2 from 10^5
>>> s.rad() < 1e-13, 1.2e-5 < float(s.mid()) < 1.3e-5   # I_0(1) zeta(2, 10^5) = 1.266e-5
(True, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable

import sympy as sp
from flint import acb, arb

from theory.series.arb_eval import NotCertified, NotSupported, arb_function, ball_precision
from theory.series.expressions import N

#: strip half-widths tried, widest first
RHOS = (1.0, 0.5, 0.25, 0.125)
#: trapezoid nodes over one period of H
NODES = 128
#: Fourier terms bounded one by one (the rest by the strip bound)
TERMS = 48
#: the tail start at which the strips are compared (where the majorant engine's head ends)
REFERENCE_START = 2**16
#: boxes over one period of H (real direction) and across the strip
BOXES_RE, BOXES_IM = 256, 4


def linear_frequency(e: sp.Expr) -> sp.Expr | None:
    """k for sin(k n + c) or cos(k n + c) with k != 0 and c real constants, else None.

    >>> from theory.series.expressions import parse_expression as P
    >>> linear_frequency(P("sin(sqrt(2)*n + 1)")), linear_frequency(P("cos(n**2)"))
    (sqrt(2), None)
    """
    if not isinstance(e, (sp.sin, sp.cos)) or N not in e.free_symbols:
        return None
    k = sp.diff(e.args[0], N)
    rest = sp.expand(e.args[0] - k * N)
    if (
        N not in k.free_symbols
        and k.is_real
        and k.is_zero is False
        and N not in rest.free_symbols
        and rest.is_real
    ):
        return k
    return None


def periodic_part(g: sp.Expr) -> sp.Expr | None:
    """The frequency w > 0 when ``g`` depends on n only through sin/cos of ``k*n + c`` with
    every k an integer multiple of w (the k pairwise in rational ratio; w = k_1 / q, q the
    least common denominator of the ratios k_i / k_1), so that g(n) = H(w n) with H of period
    2 pi; None otherwise (n elsewhere, a free parameter, no angle at all, frequencies in
    irrational ratio).

    >>> from theory.series.expressions import parse_expression as P
    >>> periodic_part(P("exp(cos(n))")), periodic_part(P("1/(2 + sin(n/3) + cos(n/2))"))
    (1, 1/6)
    >>> periodic_part(P("exp(cos(sqrt(2)*n))")), periodic_part(P("cos(n) + cos(sqrt(2)*n)"))
    (sqrt(2), None)
    >>> periodic_part(P("exp(cos(n)) + 1/n")) is None
    True
    """
    if g.free_symbols != {N}:
        return None
    ks: list[sp.Expr] = []

    def ok(e: sp.Expr) -> bool:
        if N not in e.free_symbols:
            return True
        if isinstance(e, (sp.sin, sp.cos)):
            k = linear_frequency(e)
            if k is not None:
                ks.append(sp.Abs(k))
                return True
            return False
        if isinstance(e, (sp.Add, sp.Mul, sp.Pow, sp.exp, sp.log)):
            return all(ok(a) for a in e.args)
        return False

    if not ok(g) or not ks:
        return None
    ratios = [sp.nsimplify(k / ks[0]) if isinstance(k, sp.Float) else k / ks[0] for k in ks]
    ratios = [sp.simplify(r) for r in ratios]
    if not all(r.is_Rational for r in ratios):
        return None
    return ks[0] / math.lcm(*(int(r.q) for r in ratios))


class ComplexFunction:
    """``g`` compiled to a function of acb boxes, one per symbol of ``variables`` (default:
    n alone), analytic in each variable wherever it returns: NotCertified where a branch cut
    or a pole may meet the boxes.

    >>> from theory.series.expressions import parse_expression as P
    >>> t = sp.Symbol("t")
    >>> f = ComplexFunction(1 / (1 + t * P("n")), (N, t))
    >>> abs(f(acb(2), acb(0.5)) - acb(0.5)) < 1e-15
    True
    """

    def __init__(self, g: sp.Expr, variables: tuple[sp.Symbol, ...] = (N,)):
        self.variables = tuple(variables)
        self.f = self._compile(g)

    def __call__(self, *zs: acb) -> acb:
        if len(zs) != len(self.variables):
            raise TypeError(f"{len(self.variables)} boxes expected, {len(zs)} given")
        return self.f(zs)

    @staticmethod
    def _const(e: sp.Expr) -> acb:
        if e.free_symbols:
            raise NotCertified(f"{e} depends on {e.free_symbols}, not on the variables")
        try:
            v = acb(arb_function(e)(arb(1)))
        except (NotSupported, ArithmeticError, ValueError) as exc:
            raise NotCertified(f"the constant {e} is not evaluated: {exc}") from None
        return v

    @staticmethod
    def _right_half(w: acb, what: str) -> acb:
        if not w.real.lower() > 0:
            raise NotCertified(f"{what} may meet its branch cut in the strip")
        return w

    def _compile(self, e: sp.Expr):
        if not e.free_symbols & set(self.variables):
            c = self._const(e)
            return lambda z: c
        if e in self.variables:
            i = self.variables.index(e)
            return lambda z: z[i]
        parts = [self._compile(a) for a in e.args]
        if isinstance(e, sp.Add):
            return lambda z: sum((f(z) for f in parts[1:]), parts[0](z))
        if isinstance(e, sp.Mul):

            def product(z):
                out = parts[0](z)
                for f in parts[1:]:
                    out *= f(z)
                return out

            return product
        (f, *_), what = parts, str(e.args[0])
        if isinstance(e, sp.exp):
            return lambda z: f(z).exp()
        if isinstance(e, sp.sin):
            return lambda z: f(z).sin()
        if isinstance(e, sp.cos):
            return lambda z: f(z).cos()
        if isinstance(e, sp.log):
            return lambda z: self._right_half(f(z), f"log({what})").log()
        if isinstance(e, sp.Pow):
            ex = e.args[1]
            if ex.is_Integer:
                k = int(ex)

                def power(z):
                    w = f(z)
                    if k < 0 and not abs(w).lower() > 0:
                        raise NotCertified(f"{what} may vanish in the strip")
                    return w**k

                return power
            g = parts[1]
            return lambda z: (g(z) * self._right_half(f(z), f"the power {e}").log()).exp()
        raise NotCertified(f"{type(e).__name__} is not evaluated on complex boxes")


def _box(lo: arb, hi: arb) -> arb:
    return lo.union(hi)


class FourierTail:
    """``tail(a)`` of ``g(n) n^-p`` (module doc); NotCertified when g is not periodic and
    analytic in any strip of :data:`RHOS` (in the angle x = w n)."""

    @ball_precision
    def __init__(
        self,
        g: sp.Expr,
        h: sp.Expr,
        htail: Callable[[int], arb],
        hname: str = "",
        start: int = 1,
        sign: bool = False,
    ):
        """``h`` decreasing and convex with limit 0 from ``start`` on (the caller's proof),
        ``htail(a)`` an enclosure of sum_(n>=a) h(n) for a >= start, ``hname`` the name of
        that sum in the certificate.  ``sign``: the series is sum (-1)^n G(n) h(n), every
        frequency shifted by pi (z_j = e^(i (j w + pi)), the mean's term alternating too)."""
        w = periodic_part(g)
        if w is None:
            raise NotCertified(
                f"{g} is not a periodic function of sin/cos of rational multiples of n"
            )
        self.g, self.w_text = g, str(w)
        try:
            self.h = arb_function(h)
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self.htail, hname = htail, hname or f"sum_(n>=a) {h}"
        self.w = arb_function(w)(arb(1))  # the frequency: g(n) = H(w n)
        self.H = ComplexFunction(g)
        period = 2 * arb.pi() / self.w  # in n
        # H at the trapezoid nodes, and the roots of unity of the discrete Fourier transform
        self.values = [self.H(acb(period * i / NODES)) for i in range(NODES)]
        self.roots = [acb(0, -2 * arb.pi() * k / NODES).exp() for k in range(NODES)]
        self.sign, self.shift = sign, arb.pi() if sign else arb(0)
        # z_j = e^(i (j w + shift))
        self.turns = [acb(0, j * self.w + self.shift).exp() for j in range(TERMS + 1)]
        best = None
        for rho in RHOS:  # the strip whose bound gives the narrowest tail at REFERENCE_START
            try:
                M = self._strip_bound(period, arb(rho) / self.w)
            except NotCertified:
                continue
            fit = self._coefficients(M, arb(rho))
            width = self._tail(fit, max(REFERENCE_START, int(start))).rad()
            if best is None or width < best[0]:
                best = (width, M, arb(rho), fit)
        if best is None:
            raise NotCertified(f"{g} is not proved analytic in a strip around the real axis")
        _, self.M, self.rho, self.fit = best
        self.certificate = (
            f"the far tail of G h, h = {h}, is mean(G) T(a) + h(a) sum_(j<={TERMS}) 2 Re(c_j "
            f"e^(i j w a) / (1 - e^(i j w))) +/- ((h(a) - h(a+1)) sum_j |c_j|/sin(j w/2)^2 + "
            f"T(a) sum_(j>{TERMS}) 2 M e^(-j rho)) (Abel summation twice; T(a) = {hname}), "
            f"G = {g} = H(w n) with w = {w}, |H| <= {self.M.str(5, radius=False)} on the strip "
            f"|Im x| <= {float(self.rho):g}, mean(G) = {self.fit[0].str(20)} and c_j from the "
            f"trapezoid rule ({NODES} nodes) with their aliasing bounds"
        )
        if sign:
            self.certificate = (
                f"(-1)^n times {g}: every frequency j w shifted by pi (z_j = e^(i (j w + pi)), "
                "sin(j w/2) read as cos(j w/2)), the mean's term mean(G) ((-1)^a h(a)/2 +/- "
                f"(h(a) - h(a+1))/2) in place of mean(G) T(a); {self.certificate}"
            )

    def _strip_bound(self, period: arb, height: arb) -> arb:
        """max |H| on the boxes covering [0, period] x [-height, height] (upper bound)."""
        top = arb(0)
        for i in range(BOXES_RE):
            re = _box(period * i / BOXES_RE, period * (i + 1) / BOXES_RE)
            for k in range(BOXES_IM):
                im = _box(
                    height * (2 * k - BOXES_IM) / BOXES_IM,
                    height * (2 * k + 2 - BOXES_IM) / BOXES_IM,
                )
                v = self.H(acb(re, im))
                if not v.is_finite():
                    raise NotCertified("not finite on a box of the strip")
                top = top.max(abs(v).upper())
        return top

    def _coefficients(self, M: arb, rho: arb) -> tuple:
        """(mu, [c_j balls, j = 1..TERMS], sum_j |c_j| / sin(j w/2)^2, the pointwise bound of
        the Fourier terms beyond TERMS) for |H| <= M on the strip |Im x| <= rho; mu and the
        c_j carry their aliasing bounds."""
        m, values, roots = NODES, self.values, self.roots
        decay = 1 - (-m * rho).exp()

        def alias(j: int) -> arb:
            return arb(0, (2 * M * (-(m - j) * rho).exp() / decay).upper())

        mu = sum((v.real for v in values), arb(0)) / m + alias(0)
        cs, near = [], arb(0)
        for j in range(1, TERMS + 1):
            c = sum((v * roots[i * j % m] for i, v in enumerate(values)), acb(0)) / m
            c += acb(alias(j), alias(j))
            s = abs(((j * self.w + self.shift) / 2).sin())
            if not s.lower() > 0:  # e.g. w = 2 pi / 3: e^(i 3 w n) = 1, no cancellation
                raise NotCertified(
                    f"|sin(({j} w + shift)/2)| is not proved positive (w = {self.w_text})"
                )
            cs.append(c)
            near += abs(c).upper().min(M * (-j * rho).exp()) / s.lower() ** 2
        far = 2 * M * (-(TERMS + 1) * rho).exp() / (1 - (-rho).exp())
        return mu, cs, near.upper(), far.upper()

    def _tail(self, fit: tuple, n: int) -> arb:
        """The enclosure of the module doc's tail from a, for one fit of the coefficients:
        sum_(n>=a) z^n h(n) = z^a h(a)/(1 - z) - z/(1 - z) sum_(n>=a) z^n (h(n) - h(n+1)),
        the last sum at most (h(a) - h(a+1)) / |sin(j w/2)| by Abel summation (h(n) - h(n+1)
        decreases: h is convex)."""
        mu, cs, near, far = fit
        a = arb(n)
        h = self.h(a)
        step = h - self.h(a + 1)
        total = self.htail(n)
        main = arb(0)
        for j, c in enumerate(cs, 1):
            z_a = acb(0, a * (j * self.w + self.shift)).exp()
            main += 2 * (c * z_a / (1 - self.turns[j])).real
        err = step.upper() * near + total.upper() * far
        if self.sign:  # mu sum_(n>=a) (-1)^n h(n) = mu ((-1)^a h(a)/2 +/- (h(a) - h(a+1))/2)
            err += abs(mu).upper() * step.upper() / 2
            return mu * (-1) ** n * h / 2 + h * main + arb(0, err.upper())
        return mu * total + h * main + arb(0, err.upper())

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} G(n) h(n) (a an integer where h is proved decreasing and
        convex)."""
        return self._tail(self.fit, int(a))

    @ball_precision
    def tail_sup(self, a: int) -> arb:
        r"""A bound on :math:`|\sum_{n \ge k} G(n) h(n)|` for every :math:`k \ge a`: the
        module doc's enclosure in absolute values, :math:`|\mu| T(k) + h(k) \sum_j 2|c_j|/|1 -
        z_j| + (h(k) - h(k+1)) \sum_j |c_j|/\sin^2(j\omega/2) + T(k) \sum_{j>K} 2Me^{-j\rho}`,
        every part nonincreasing in k (T and h decrease, h is convex), taken at k = a."""
        mu, cs, near, far = self.fit
        x = arb(int(a))
        h, total = self.h(x), self.htail(int(a))
        step = h - self.h(x + 1)
        ring = sum(
            (2 * abs(c).upper() / abs(1 - self.turns[j]).lower() for j, c in enumerate(cs, 1)),
            arb(0),
        )
        lead = (h.upper() + step.upper()) / 2 if self.sign else total.upper()  # (see _tail)
        top = abs(mu).upper() * lead + h.upper() * ring + step.upper() * near + total.upper() * far
        return arb(top.upper())

    @classmethod
    def power(cls, g: sp.Expr, p: sp.Expr | int | float, sign: bool = False) -> FourierTail:
        """The tail of g(n) n^-p ((-1)^n g(n) n^-p with ``sign``), p > 1 (convex and
        decreasing for n > 0; the tails of n^-p are Hurwitz zeta values)."""
        pa = arb_function(sp.sympify(p))(arb(1))
        if not pa > 1:
            raise NotCertified("the power must exceed 1")
        zeta = lambda a: pa.zeta(arb(a))  # noqa: E731
        return cls(g, N ** (-sp.sympify(p)), zeta, "zeta(p, a)", sign=sign)
