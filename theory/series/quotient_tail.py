r"""Certified tails of :math:`b_n = (-1)^n a/(d + (-1)^n e)` (a, d, e exp-log,
``(-1)**n/(n**0.7 + (-1)**n)``) by the exact split of
:mod:`theory.series.oscillating_families`:

.. math::
   b_n = (-1)^n \frac{a}{d} - \frac{a e}{d\,(d + (-1)^n e)} = A_n + C_n

(:math:`(-1)^{2n} = 1`).  :math:`\sum A_n` is an alternating series of a smooth g = a/d,
enclosed with a bound on every later tail (``tail_sup``, the Euler-transformed tails of
:class:`theory.series.oscillating.DirichletTail`); :math:`C_n` is smooth on each residue
class n = 2m + r, :math:`C_{2m+r} = -a e/(d (d + (-1)^r e))` at n = 2m + r, each class
enclosed by the certified engines with its sign proved (the terms of one class are all
>= 0 or all <= 0 up to the far point X of its enclosure, and beyond it every tail lies in
the far comparison bound :math:`U_X`).  Then
:math:`\sum_{n \ge a} b_n = \sum_{n \ge a} A_n + \sum_r \sum_{2m + r \ge a} C_{2m+r}`, and for
every k >= a

.. math::
   |R_k| \le \sup_{k \ge a} |R^A_k| + \sum_r \big(|R^{C_r}_a| + 2 U_{X_r}\big),

since a one-signed block :math:`\sum_{n=k}^{X-1} C_n` is at most :math:`|R^{C}_a - R^C_X|`.
"""

from __future__ import annotations

from collections.abc import Callable

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

EVERYWHERE = 10**30  # nonneg_until of an engine whose terms are all proved >= 0


class AlternatingQuotientTail:
    """The certified tail engine (``tail``, ``tail_sup``, ``term``, ``n0``,
    ``nonneg_until``, ``certificate``) of (-1)^n a/(d + (-1)^n e) from n0 on (module doc);
    ``engine(expr, n0)`` builds the engines of the parts."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, parts: tuple, engine: Callable):
        a, d, e = parts
        sign = sp.Pow(-1, N)
        self.n0, self.nonneg_until = int(n0), int(n0)
        try:
            self.f = arb_function(b)
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self.lead = engine(sign * a / d, self.n0)
        if not hasattr(self.lead, "tail_sup"):
            raise NotCertified("the alternating part has no bound on its later tails")
        self.classes = []  # (r, m0, s, engine of s*C_(2m+r) in m, as a series in N)
        for r in (0, 1):
            c = (-a * e / (d * (d + (-1) ** r * e))).subs(N, 2 * N + r)
            m0 = max(0, -(-(self.n0 - r) // 2))
            self.classes.append(self._one_signed(c, r, m0, engine))
        self.certificate = (
            f"b_n = (-1)^n a/d - a e/(d (d + (-1)^n e)) exactly, a = {a}, d = {d}, e = {e}: "
            f"the alternating part by {type(self.lead).__name__} ({self.lead.certificate}); "
            "the rest on the residue classes n = 2m, 2m + 1, each of one proved sign, "
            f"by {', '.join(type(t).__name__ for _r, _m, _s, t in self.classes)}"
        )

    @staticmethod
    def _one_signed(c: sp.Expr, r: int, m0: int, engine: Callable) -> tuple:
        """(r, m0, s, engine of s*c) with the terms s*c >= 0 proved up to the engine's far
        point (a CertifiedTail) or everywhere."""
        last = None
        for s in (-1, 1):
            try:
                t = engine(s * c, m0)
            except (NotCertified, ArithmeticError, ValueError, TypeError) as exc:
                last = exc
                continue
            top = t.far.X if isinstance(t, CertifiedTail) else EVERYWHERE
            if t.nonneg_until >= top:
                return r, m0, s, t
        raise NotCertified(f"the class n = 2m + {r} of the rest is not of one proved sign ({last})")

    def _class_start(self, a: int, r: int, m0: int) -> int:
        return max(m0, -(-(a - r) // 2))

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return term_ball(self.f, int(n))

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        total = self.lead.tail(a)
        for r, m0, s, t in self.classes:
            total += s * t.tail(self._class_start(a, r, m0))
        return total

    @ball_precision
    def tail_sup(self, a: int) -> arb:
        """An upper bound on |sum_{n >= k} b_n| for every k >= a (module doc)."""
        a = tail_start(a, self.n0)
        total = self.lead.tail_sup(a)
        for r, m0, _s, t in self.classes:
            total += abs(t.tail(self._class_start(a, r, m0)))
            if isinstance(t, CertifiedTail):
                total += 2 * abs(t.far.tail(t.far.X))
        return total.upper()
