r"""Certified tails of terms with ``floor``/``ceiling`` of a rational-linear argument.

With :math:`L` the common denominator of the slopes, :math:`n = Lm + r` turns every
:math:`\lfloor p n/q + c \rfloor` into :math:`(pL/q) m + \lfloor p r/q + c \rfloor`, so each
residue class :math:`r = 0..L-1` is a smooth series in :math:`m` (geometric for
``(1/2)**floor(n/2)``), summed by :class:`theory.series.enclosure.CertifiedTail`:

.. math:: \sum_{n \ge a} b_n = \sum_{r=0}^{L-1} \sum_{m \ge \lceil (a-r)/L \rceil} b_{Lm+r}.

>>> from theory.series.expressions import parse_expression as P
>>> t = ResidueTail(P("(1/2)**floor(n/2)"), 1)
>>> t.tail(1).overlaps(arb(3))          # 1/2 + 1/2 + 1/4 + 1/4 + ... = 3
True
"""

from __future__ import annotations

import math

import sympy as sp
from flint import arb

from theory.series.arb_eval import (
    NotCertified,
    NotSupported,
    arb_function,
    ball_precision,
    tail_start,
    term_ball,
)
from theory.series.enclosure import CertifiedTail
from theory.series.expressions import N
from theory.series.grouped_sup import GroupSup
from theory.series.inverse_power_tail import InversePowerTail
from theory.series.periodic import MAX_PERIOD as MAX_GROUP
from theory.series.periodic import residue_classes

MAX_PERIOD = 8  # residue classes summed separately at most


def floor_period(b: sp.Expr) -> int | None:
    """L, the common denominator of the slopes of every floor/ceiling argument (linear in n
    with rational coefficients), or None when b has no such floor or another kind."""
    atoms = [a for a in b.atoms(sp.floor, sp.ceiling) if a.has(N)]
    if not atoms:
        return None
    L = 1
    for a in atoms:
        arg = sp.expand(a.args[0])
        slope = arg.coeff(N)
        if not (slope.is_Rational and sp.expand(arg - slope * N).is_Rational):
            return None
        L = L * slope.q // math.gcd(L, slope.q)
    return L


class ResidueTail:
    """The certified-tail interface over the residue classes n = L m + r."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, scale: float | None = None):
        L = floor_period(b)
        if L is None or L > MAX_PERIOD:
            raise NotCertified(
                "floor/ceiling of an argument that is not rational-linear in n "
                f"with a period <= {MAX_PERIOD}"
            )
        self.L, self.n0, self.parts = L, int(n0), []
        for r in range(L):
            m0 = max(0, -(-(self.n0 - r) // L))
            self.parts.append(_class_tail(b, L, r, m0, scale))
        self.nonneg_until = min(L * p.nonneg_until + r for r, p in enumerate(self.parts))
        self.certificate = f"{L} residue classes n = {L}m + r, each: " + self.parts[0].certificate

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n."""
        a = tail_start(a, self.n0)
        return sum(
            (p.tail(max(p.n0, -(-(a - r) // self.L))) for r, p in enumerate(self.parts)), arb(0)
        )

    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        r = int(n) % self.L
        return self.parts[r].term((int(n) - r) // self.L)


def class_term(b: sp.Expr, L: int, r: int, expand: bool = False) -> sp.Expr | None:
    """b_(L m + r) as a term in n (n standing for m, an integer), its floors reduced
    (``floor(m + 1/2) = m``); ``expand``: the whole term expanded first.  None where a floor
    does not reduce.

    >>> from theory.series.expressions import parse_expression as P
    >>> class_term(P("(ceiling(n/2) - floor(n/2))*2**(-n)"), 2, 1)
    2**(-2*n - 1)
    """
    m = sp.Symbol("m", integer=True, nonnegative=True)
    br = b.subs(N, L * m + r)
    if expand:
        br = sp.expand(br)
    br = br.replace(
        lambda e: isinstance(e, (sp.floor, sp.ceiling)),
        lambda e: e.func(sp.expand(e.args[0])),
    )
    return None if br.has(sp.floor, sp.ceiling) else br.subs(m, N)


def _class_tail(b: sp.Expr, L: int, r: int, m0: int, scale) -> object:
    """The certified tail of b_(L m + r) in m from m0 on: the floors reduced with the rest of
    the term as written (``sin(1/(5*m + 1)**3)``, whose far boxes the ball evaluation bounds),
    else with the term expanded (``(1/2)**(2*m + 1)``); each by its expansion in 1/m where
    it has one (:class:`~theory.series.inverse_power_tail.InversePowerTail`: 0.06 s for
    ``m*sin(1/(5*m + 1)**3)``, the Taylor blocks 2 s), else by the Taylor blocks."""
    err = NotCertified(f"floor does not reduce on the residue class {r} mod {L}")
    for expand in (False, True):
        br = class_term(b, L, r, expand)
        if br is None:
            continue
        try:
            return (
                _FirstTerm(br, InversePowerTail(br, max(m0, 1)))
                if m0 == 0
                else (InversePowerTail(br, m0))
            )
        except (NotCertified, ArithmeticError, ValueError, TypeError):
            pass
        try:
            return CertifiedTail(br, m0, scale)
        except NotCertified as exc:
            err = exc
    raise err


class _FirstTerm:
    """A tail engine from m = 0: the term at 0 (ball arithmetic) beside an engine from 1."""

    def __init__(self, b: sp.Expr, rest: object):
        self.rest, self.n0 = rest, 0
        try:
            self.first = term_ball(arb_function(b), 0)
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self.nonneg_until = rest.nonneg_until if self.first >= 0 else 0
        self.certificate = f"the term at m = 0, then: {rest.certificate}"

    def tail(self, a: int) -> arb:
        """Enclosure of sum_{m >= a} b_m."""
        return self.rest.tail(max(int(a), 1)) + (self.first if int(a) == 0 else arb(0))

    def term(self, m: int) -> arb:
        """Enclosure of b_m."""
        return self.first if int(m) == 0 else self.rest.term(m)


class GroupedTail:
    r"""The certified-tail interface for periodic factors (``(-1)**n``, ``cos(pi*n)``,
    ``(-1)**floor(n/2)``): L consecutive terms grouped,
    :math:`c_m = \sum_{r<L} b_{Lm+r}` (:func:`theory.series.periodic.residue_classes`), a
    series without periodic factors summed by :class:`CertifiedTail`; a tail from ``a``
    is the at most L - 1 terms up to the next multiple of L plus a tail of :math:`c`.

    >>> from theory.series.expressions import parse_expression as P
    >>> GroupedTail(P("(-1)**n/n"), 1).tail(1).overlaps(-arb(2).log())   # -ln 2
    True
    """

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, scale: float | None = None):
        split = residue_classes(b)
        if split is None:
            raise NotCertified(f"no period <= {MAX_GROUP} removes the periodic factors")
        self.L, classes = split
        c = sp.Add(*classes)
        if c.is_rational_function(N):
            c = sp.cancel(sp.together(c))
        try:
            self.f = arb_function(b)
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self.n0 = int(n0)
        self.m0 = max(1, -(-self.n0 // self.L))
        self.inner = CertifiedTail(c, self.m0, scale)
        n = self.n0
        while n < self.n0 + 64 and self.term(n) >= 0:
            n += 1
        self.nonneg_until = n
        self.certificate = (
            f"{self.L} consecutive terms grouped, c_m = {c.subs(N, sp.Symbol('m'))}: "
            + self.inner.certificate
        )
        self._sup = GroupSup.build(self.L, classes, self.m0)
        if self._sup is not None:  # a bound on every later tail (the signed TRF's tail rule)
            self.tail_sup = self._tail_sup

    def _direct(self, lo: int, hi: int) -> arb:
        return sum((self.term(n) for n in range(lo, hi)), arb(0))

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n (at an exact integer, where (-1)**n is exact)."""
        return term_ball(self.f, n)

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n."""
        a = tail_start(a, self.n0)
        m = max(self.m0, -(-a // self.L))
        return self._direct(a, self.L * m) + self.inner.tail(m)

    @ball_precision
    def _tail_sup(self, a: int) -> arb:
        """An upper bound on |R_k| for every k >= a (:mod:`theory.series.grouped_sup` from
        group m = max(ceil(a/L), start) on; the tails between a and L m one by one)."""
        a = tail_start(a, self.n0)
        m = max(self.m0, -(-a // self.L), self._sup.start)
        R = self.inner.tail(m)  # R_(L m) = C(m)
        top = self._sup.bound(m, R)
        for k in range(self.L * m - 1, a - 1, -1):
            R = R + self.term(k)
            top = top.union(abs(R))
        return arb(top.upper())
