r"""Certified tails of oscillating terms :math:`\sum_j c_j\, n^{-s_j} e^{i k_j n}` (Lerch transcendent).

Terms such as :math:`(2+\sin n)/n^2`, :math:`\cos^2 n / n^2` or :math:`\sin^3 n / n^{3/2}` are
rewritten with :math:`\sin, \cos` as exponentials and expanded; each piece sums in closed form

.. math::
   \sum_{n \ge a} \frac{e^{ikn}}{n^{s}} = e^{ika}\, \Phi(e^{ik}, s, a),

the Lerch transcendent (Hurwitz :math:`\zeta(s, a)` for :math:`k = 0`).  B is
:math:`\sum_j c_j \mathrm{Li}_{s_j}(e^{ik_j})` (Clausen-type sums: :math:`\sum \sin(n)/n^2 =
\mathrm{Cl}_2(1)`) in ball arithmetic; a tail from :math:`a \le 4096` is B minus the first terms,
a later one uses Hurwitz zeta and, for :math:`k \ne 0`, the Abel-summation bound
:math:`|\sum_{n\ge a} e^{ikn} n^{-s}| \le a^{-s}/|\sin(k/2)|`.
Terms that do not expand into such pieces (e.g. :math:`e^{\cos n}/n^2`) are not certified here.

>>> from theory.series.expressions import parse_expression as P
>>> t = OscillatingTail(P("(2 + sin(n))/n**2"), 1)
>>> t.tail(1).overlaps(arb.pi() ** 2 / 3 + arb("1.01395913236076850 +/- 1e-17"))   # 2 zeta(2) + Cl_2(1)
True
"""

from __future__ import annotations

import sympy as sp
from flint import acb, arb, ctx

from theory.core.budget import step_budget
from theory.series.arb_eval import (
    NotCertified,
    NotSupported,
    Undecided,
    arb_function,
    ball,
    ball_precision,
    tail_start,
)
from theory.series.enclosure import CertifiedTail
from theory.series.eventual_signs import periodic_pieces, signed_derivatives
from theory.series.expressions import N
from theory.series.limits import limit_at_infinity
from theory.series.monotone import completely_monotone
from theory.series.sign_changing import oscillating_split
from theory.series.trig_minorants import frequency_pieces

TRF_RANGE_LOG2 = 41  # positivity of the terms is checked up to 2^41 (TRFs up to 10^12)
PREFIX = 4096  # tails from a <= PREFIX: the full sum minus the first terms


def exponential_pieces(b: sp.Expr) -> list:
    """[(c, s, k)] with b = sum c n^-s e^(i k n) (c complex, s and k real constants), or
    NotCertified when b has another form."""
    with step_budget(3.0):
        e = sp.expand(sp.powsimp(sp.expand(b.rewrite(sp.exp)), combine="exp"))
    pieces = []
    for term in sp.Add.make_args(e):
        c, rest = term.as_independent(N, as_Add=False)
        s, k = sp.Integer(0), sp.Integer(0)
        for f in sp.Mul.make_args(rest):
            if f == N:
                s -= 1
            elif isinstance(f, sp.Pow) and f.base == N and not f.exp.has(N):
                s -= f.exp
            elif (
                isinstance(f, sp.exp)
                and sp.expand(f.args[0] / (sp.I * N)).is_real
                and not sp.expand(f.args[0] / (sp.I * N)).has(N)
            ):
                k += sp.expand(f.args[0] / (sp.I * N))
            elif f != 1:
                raise NotCertified(f"the term has a factor {f} outside c n^-s e^(ikn)")
        if not (s.is_real and k.is_real):
            raise NotCertified("exponent or frequency not real")
        pieces.append((c, s, k))
    return pieces


def _converges(s, k) -> bool:
    if s > 1:
        return True
    if s <= 0:
        return False
    on_one = sp.simplify(k / (2 * sp.pi)).is_integer
    return on_one is False


class OscillatingTail:
    """The certified-tail interface (``n0``, ``tail``, ``term``, ``nonneg_until``,
    ``certificate``) for sums of c n^-s e^(ikn)."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int):
        self.b, self.n0 = b, int(n0)
        pieces = exponential_pieces(b)
        if not pieces or not all(_converges(s, k) for _, s, k in pieces):
            raise NotCertified("a piece c n^-s e^(ikn) does not converge on its own")
        try:
            self.f = arb_function(b)
            self.pieces = [
                (
                    acb(arb_function(sp.re(c))(arb(0)), arb_function(sp.im(c))(arb(0))),
                    arb_function(s)(arb(0)),
                    arb_function(k)(arb(0)),
                )
                for c, s, k in pieces
            ]
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self._sum, self._prefixes = None, [arb(0), arb(0)]  # _prefixes[m] = sum_{1 <= n < m}
        self.nonneg_until = self._positive_range()
        self.certificate = (
            f"closed form: {len(pieces)} pieces c n^-s e^(ikn), each a Lerch "
            "transcendent e^(ika) Phi(e^(ik), s, a) in ball arithmetic (python-flint)"
        )

    def _positive_range(self) -> int:
        """b_n >= 0 proved for n0 <= n < returned value (term by term to 64, then on boxes)."""
        n = self.n0
        while n < self.n0 + 64:
            if not self.term(n) >= 0:
                return n
            n += 1
        try:  # log b finite on a ball proves b > 0 there (mid-radius products lose the sign)
            logf = arb_function(sp.expand_log(sp.piecewise_fold(sp.log(self.b)), force=True))
        except NotSupported:
            return n
        while n.bit_length() <= TRF_RANGE_LOG2:
            try:
                ok = self.f(ball(n, 2 * n)) >= 0 or logf(ball(n, 2 * n)).is_finite()
            except (Undecided, NotSupported, ArithmeticError):
                ok = False
            if not ok:
                return n
            n *= 2
        return n

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return self.f(arb(int(n)))

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n: Li_s(e^(ik)) minus the first terms for a <= PREFIX;
        beyond, Hurwitz zeta for k = 0 and, for k != 0, Abel summation (partial sums of
        e^(ikn) are at most ``1/|sin(k/2)|``, n^-s decreases): ``|sum_(n>=a)| <= a^-s/|sin(k/2)|``."""
        a = int(a)
        if a < max(self.n0, 1):
            raise ValueError(f"tail from {a} < n0 = {self.n0}")
        if a <= PREFIX:
            return self._total() - self._prefix(a)
        total = acb(0)
        for c, s, k in self.pieces:
            if k == 0:
                total += c * acb(s.zeta(arb(a)))
            else:
                bound = arb(a) ** (-s) / abs((k / 2).sin())
                total += c * acb(_symmetric(bound), _symmetric(bound))
        return self._real(total)

    def _total(self) -> arb:
        """sum_{n >= 1} b_n = sum c Li_s(e^(ik)) (zeta(s) for k = 0)."""
        if self._sum is None:
            total = acb(0)
            for c, s, k in self.pieces:
                total += c * (acb(s.zeta()) if k == 0 else (acb(0, 1) * k).exp().polylog(s))
            self._sum = self._real(total)
        return self._sum

    def _prefix(self, a: int) -> arb:
        """sum_{1 <= n < a} b_n (cached running sums)."""
        while len(self._prefixes) <= a:
            m = len(self._prefixes)  # sum_{1 <= n < m} = sum_{1 <= n < m-1} + b_(m-1)
            self._prefixes.append(self._prefixes[-1] + self.f(arb(m - 1)))
        return self._prefixes[a]

    @staticmethod
    def _real(total: acb) -> arb:
        if not (total.imag.contains(0) and total.real.is_finite()):
            raise NotCertified("the Lerch sum is not real or not finite")
        return total.real


def _symmetric(r: arb) -> arb:
    u = abs(r).upper()
    return (-u).union(u)


#: terms summed directly before the Euler-transformed tail, at least (more for small angles)
DIRECT_MIN = 256
#: the direct part is at most this long (small angles need about 64/abs(sin(theta/2)) terms)
DIRECT_MAX = 2**16
#: differences of g used in the Euler transform, at most
EULER_ORDER = 60


class DirichletTail:
    r"""The certified-tail interface for :math:`b_n = g(n) p(n)`, g completely monotone
    (:func:`theory.series.monotone.completely_monotone`), or a sum of constants times such
    functions, each tending to 0 (``2/log(n + 1) - 1/(n log(n + 1))``), and
    :math:`p = c_0 + \sum_j c_j e^{i\theta_j n}`
    (:func:`theory.series.trig_minorants.frequency_pieces`).  With :math:`z = e^{i\theta}`,
    :math:`a_k = g(A + k)` and the forward differences :math:`\delta`, Euler's transform

    .. math::
       \sum_{k \ge 0} a_k z^k = \sum_{i<K} \frac{(\delta^i a)_0\, z^i}{(1-z)^{i+1}}
       + \Big(\frac{z}{1-z}\Big)^K \sum_{k \ge 0} (\delta^K a)_k z^k,\qquad
       \Big|\sum_{k \ge 0} (\delta^K a)_k z^k\Big| \le \frac{|(\delta^K a)_0|}{|\sin(\theta/2)|}

    holds because :math:`(-1)^K (\delta^K a)_k` decreases to 0 for a CM g (summation by
    parts; partial sums of :math:`z^k` are at most :math:`1/|\sin(\theta/2)|`).  A g that
    is not CM but tends to 0 with :math:`g^{(j)}` of proved one sign on :math:`[P, \infty)`,
    j = 1..J (:func:`theory.series.eventual_signs.signed_derivatives`, ``log(n)/sqrt(n)``),
    has :math:`\delta^K a` monotone from P on for K < J: the terms before
    :math:`M \ge P` are summed directly and only orders K <= J - 1 are used.  A periodic p
    without a frequency form (``(-1)**floor(n/2)``) is its discrete Fourier sum
    (:func:`theory.series.eventual_signs.periodic_pieces`).  K = 0 is
    the bound :math:`g(A)/|\sin(\theta/2)|`.  The component :math:`c_0 g` is a positive
    series (:class:`theory.series.enclosure.CertifiedTail`).  ``tail_sup(a)`` bounds
    :math:`|\sum_{n \ge k} b_n|` for every :math:`k \ge a` (each term of the bound decreases).

    >>> from theory.series.expressions import parse_expression as P
    >>> t = DirichletTail(P("(-1)**n*cos(n)/n"), 1)     # -log(2 cos(1/2))
    >>> t.tail(1).overlaps(-(2 * arb("0.5").cos()).log()), t.tail(1).rad() < 1e-40
    (True, True)
    """

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int):
        self.n0 = int(n0)
        self.x0 = max(self.n0, 1)  # g is proved completely monotone on [x0, oo)
        split = oscillating_split(b)
        if split is not None:  # a constant factor of g (-cos(n)/n) goes into p
            coeff, g = split[0].as_independent(N, as_Add=False)
            split = (g, coeff * split[1])
        fp = None
        if split is not None:
            fp = frequency_pieces(split[1]) or periodic_pieces(split[1])
        parts = None if fp is None else _cm_parts(split[0], self.x0)
        self.order, how = EULER_ORDER, "completely monotone functions (structural proof)"
        if parts is None and fp is not None and limit_at_infinity(split[0]) == 0:
            signs = signed_derivatives(split[0], self.x0)  # e.g. log(n)/sqrt(n)
            if signs is not None:
                parts, self.x0, self.order = (
                    [(sp.Integer(1), split[0])],
                    signs.start,
                    signs.orders - 1,
                )
                how = f"function tending to 0 with {signs.note}"
        if parts is None:
            raise NotCertified(
                "not g(n) p(n) with g a combination of completely monotone functions "
                "(or of derivatives of proved sign) tending to 0 and p trigonometric"
            )
        g = split[0]
        c0, pieces = fp
        try:
            self.f = arb_function(b)
            self.pieces = [
                (cc * _acb_const(k), z, s, arb_function(gi))
                for c, th in pieces
                for cc, z, s in [self._piece(c, th)]
                for k, gi in parts
            ]
            self._angles = [th for c, th in pieces for _ in parts]
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        # c0 k g_i(n): series of one sign, each summed as |c0 k| g_i by the positive-term engine
        self.const = []
        for k, gi in parts if c0 != 0 else []:
            sign = 1 if (c0 * k).is_positive else (-1 if (c0 * k).is_negative else None)
            if sign is None:
                raise NotCertified(f"the sign of the constant component {c0 * k} is not proved")
            self.const.append((sign, CertifiedTail(sign * c0 * k * gi, self.n0)))
        s_min = min((p[2] for p in self.pieces), key=lambda s: s.lower(), default=arb(1))
        self.M = max(self.n0, self.x0, DIRECT_MIN, int(64 / float(s_min.lower())) + 1)
        if self.M > DIRECT_MAX:
            raise NotCertified(f"an angle too close to 2 pi Z (|sin(theta/2)| >= {s_min})")
        self._prefix = {self.M: arb(0)}
        n = self.n0
        while n < self.n0 + 64 and self.term(n) >= 0:
            n += 1
        self.nonneg_until = n
        self.certificate = (
            f"g(n) p(n) with g = {g} = a combination of {len(parts)} {how} and "
            f"p = {c0} + {len(pieces)} pieces c e^(i theta n): terms from n = {self.M} on by "
            "Euler's transform with a summation-by-parts remainder (ball arithmetic)"
        )

    @staticmethod
    def _piece(c, theta):
        cc = _acb_const(c)
        th = arb_function(theta)(arb(0))
        s = abs((th / 2).sin())
        if not s > 0:
            raise NotCertified(f"|sin(theta/2)| not proved > 0 for theta = {theta}")
        return cc, acb(0, th).exp(), s

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        v = self.f(arb(int(n)))
        if not v.is_finite():
            raise NotCertified(f"b_{n} is not finite in ball arithmetic")
        return v

    def _phase(self, i: int, A: int) -> acb:
        """z^A = e^(i theta A) for piece i, theta evaluated with log2(A) more bits: acb's
        power of a ball around z = -1 straddles the branch cut of its logarithm for large A
        ((-1)^(10^20) came out as [+/- 1.01] + [+/- 1.01]j)."""
        old = ctx.prec
        ctx.prec = old + int(A).bit_length() + 16
        try:  # the function is built at this precision: it holds its constants (pi) so
            return +acb(0, arb_function(self._angles[i])(arb(0)) * int(A)).exp()
        finally:
            ctx.prec = old

    def _euler(self, g, A: int, z: acb, s: arb, sup: bool = False, zA: acb | None = None):
        """sum_{n >= A} g(n) z^n (``sup``: a bound on its modulus valid from every k >= A);
        orders i <= ``self.order``, for which (delta^i g)(n) is proved monotone for n >= A;
        ``zA``: z^A (default z**A)."""
        order = self.order
        vals = [g(arb(A + k)) for k in range(order + 1)]
        w = 1 / (1 - z)
        best, main, total_abs, diffs = None, acb(0), arb(0), vals
        for i in range(order + 1):
            d = diffs[0]  # (delta^i a)_0
            rem = abs(d) * (abs(z * w) ** i) / s
            cand = (total_abs if sup else main, rem)
            if (
                best is None
                or (cand[1] + (cand[0] if sup else 0)).upper()
                < (best[1] + (best[0] if sup else 0)).upper()
            ):
                best = cand
            if i == order:
                break
            main += d * z**i * w ** (i + 1)
            total_abs += abs(d) * abs(w) ** (i + 1)
            diffs = [diffs[k + 1] - diffs[k] for k in range(len(diffs) - 1)]
        head, rem = best
        if sup:
            return head + rem
        return (z**A if zA is None else zA) * (head + acb(_symmetric(rem), _symmetric(rem)))

    def _far(self, A: int) -> arb:
        total = acb(0)
        for i, (c, z, s, g) in enumerate(self.pieces):
            total += c * self._euler(g, A, z, s, zA=self._phase(i, A))
        out = OscillatingTail._real(total)
        return out + sum((sign * t.tail(A) for sign, t in self.const), arb(0))

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n."""
        a = tail_start(a, self.n0)
        if a >= self.M:
            return self._far(a)
        if a not in self._prefix:
            m = min(k for k in self._prefix if k > a)
            acc = self._prefix[m]
            for n in range(m - 1, a - 1, -1):
                acc = acc + self.term(n)
                self._prefix[n] = acc
        return self._prefix[a] + self._far(self.M)

    @ball_precision
    def tail_sup(self, a: int) -> arb:
        """An upper bound on abs(sum_{n >= k} b_n) for every k >= a (a >= n0); every term
        of the bound decreases in a (for a CM g, abs(delta^i g) decreases)."""
        a = int(a)
        if a < self.x0:  # |R_k| <= |b_k| + ... + |b_(x0-1)| + |R_(x0)| for a <= k < x0
            head = sum((abs(self.term(n)) for n in range(max(a, self.n0), self.x0)), arb(0))
            return head + self.tail_sup(self.x0)
        total = arb(0)
        for c, z, s, g in self.pieces:
            total += abs(c) * self._euler(g, a, z, s, sup=True)
        return total + sum((abs(t.tail(a)) for _, t in self.const), arb(0))


def _acb_const(k: sp.Expr) -> acb:
    return acb(arb_function(sp.re(k))(arb(0)), arb_function(sp.im(k))(arb(0)))


def _cm_parts(g: sp.Expr, x0: int) -> list | None:
    """[(k_i, g_i)] with g = sum k_i g_i, every g_i completely monotone on [x0, oo) and
    tending to 0 (g itself, else the terms of its expansion), or None."""
    expanded = [t.as_independent(N, as_Add=False) for t in sp.Add.make_args(sp.expand(g))]
    for parts in ([(sp.Integer(1), g)], expanded):
        if all(
            gi.has(N) and completely_monotone(gi, x0) and limit_at_infinity(gi) == 0
            for _, gi in parts
        ):
            return parts
    return None
