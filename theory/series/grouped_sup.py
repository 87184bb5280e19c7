r"""A bound on every later tail of a series summed in groups of L terms.

For the tail rule of terms of both signs (the conventions page) a tail engine needs
``tail_sup(a)``, a bound on :math:`|R_k|` for every :math:`k \ge a`.  With the terms in
residue classes :math:`q_i(m) = b_{Lm+i}` (no periodic factor left,
:func:`theory.series.periodic.residue_classes`), the group sums
:math:`c_m = \sum_{i<L} q_i(m)` and :math:`C(m) = \sum_{j \ge m} c_j = R_{Lm}`,

.. math::
   R_{Lm'+r} = p_r(m') + C(m'+1), \qquad p_r(m) = \sum_{i=r}^{L-1} q_i(m) \quad (1 \le r < L).

When :math:`c` has one sign from :math:`P` on, :math:`|C|` decreases there; when each
:math:`s_r p_r` (:math:`s_r = \pm 1`) is proved :math:`\ge 0` and nonincreasing from
:math:`P` on (its structure, :func:`theory.series.integral_test.decreasing_on`, or the sign
of its derivative, :func:`theory.series.eventual_signs.derivative_sign`), then for every
:math:`m \ge P` and :math:`k \ge Lm`

.. math:: |R_k| \le \max_{1 \le r < L} s_r p_r(m) + |C(m)|.

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.periodic import residue_classes
>>> L, classes = residue_classes(P("(-1)**n/n + 1/n**2"))
>>> s = GroupSup.build(L, classes, 1)
>>> s.start, [sign for sign, _ in s.parts]  # p_1(m) = -2m/(2m + 1)^2: <= 0, decreasing in size
(4, [-1])
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import NotSupported, arb_function
from theory.series.eventual_signs import derivative_sign
from theory.series.expressions import N
from theory.series.integral_test import decreasing_on
from theory.series.lower_bounds import terms_nonnegative

#: starts P tried for the one-signed, nonincreasing range (groups m >= P)
STARTS = (1, 4, 16, 64, 256)
#: CPU seconds for the symbolic proofs of one class
SECONDS = 1.5


def _one_sign_from(e: sp.Expr, P: int) -> int | None:
    """+1 or -1 where e >= 0 or e <= 0 on m >= P is proved, else None."""
    if terms_nonnegative(e, P):
        return 1
    if terms_nonnegative(-e, P):
        return -1
    return None


def _nonincreasing(g: sp.Expr, P: int) -> bool:
    """g nonincreasing on [P, oo): its structure, or g' <= 0 proved factor by factor."""
    if not g.has(N) or decreasing_on(g, P):
        return True
    d = sp.factor(sp.together(sp.diff(g, N)))
    return d == 0 or derivative_sign(d, P) == -1


def class_majorant(p: sp.Expr, m0: int) -> tuple[int, int] | None:
    """(s, P): s p >= 0 and nonincreasing on m >= P (P >= m0, from :data:`STARTS`), else
    None."""
    try:
        with step_budget(SECONDS):
            g = sp.cancel(sp.together(p)) if p.is_rational_function(N) else p
            for P in sorted({max(m0, x) for x in STARTS}):
                s = _one_sign_from(g, P)
                if s is not None and _nonincreasing(s * g, P):
                    return s, P
    except (StepTimeout, RecursionError, ValueError, TypeError, NotImplementedError):
        return None
    return None


@dataclass
class GroupSup:
    """The bound of the module docstring from group ``start`` on: ``parts`` are
    (s_r, s_r p_r compiled) for r = 1..L-1."""

    start: int
    parts: list

    @classmethod
    def build(cls, L: int, classes: list, m0: int) -> GroupSup | None:
        """The bound for the classes q_i (i < L) of a series grouped from m0, or None where
        a sign or a monotonicity is not proved."""
        c = sp.Add(*classes)
        start = next((P for P in STARTS if P >= m0 and _one_sign_from(c, P)), None)
        if start is None:
            return None
        parts = []
        for r in range(1, L):
            found = class_majorant(sp.Add(*classes[r:]), m0)
            if found is None:
                return None
            s, P = found
            try:
                f: Callable = arb_function(s * sp.Add(*classes[r:]))
            except NotSupported:
                return None
            parts.append((s, f))
            start = max(start, P)
        return cls(start, parts)

    def bound(self, m: int, C: arb) -> arb:
        """An upper bound on |R_k| for every k >= L m (m >= start), C enclosing C(m)."""
        top = arb(0)
        for _, f in self.parts:
            top = top.union(f(arb(m)))  # s_r p_r(m) >= 0, the largest value from m on
        return arb((top + abs(C)).upper())
