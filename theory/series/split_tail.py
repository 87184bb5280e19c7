r"""The certified tail of a sum of convergent series, part by part.

Where no engine takes :math:`b_n = \sum_i t_{i,n}` as a whole (``(3**n - 2**n)/5**n``: two
geometric series of incommensurable ratios, whose difference the far boxes lose), and
every :math:`\sum_n t_{i,n}` is proved convergent, the tail is the sum of the parts' tails:

.. math::
   \sum_{n \ge a} b_n = \sum_i \sum_{n \ge a} t_{i,n},

each enclosed by its own engine (ball arithmetic; a part of terms proved <= 0 as the
negation of its negation's tail), so the enclosure holds by linearity of
convergent series.  The terms are nonnegative where every part's engine proves its own
terms so, or :func:`theory.series.lower_bounds.terms_nonnegative` proves it for b; else
the first 4096 are checked term by term.

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.sums import certify_tail
>>> t = SplitTail(P("(3**n - 2**n)/5**n"), 1, lambda e, m: certify_tail(e, m, sharpen=False))
>>> t.tail(1).overlaps(arb(3) / 2 - arb(2) / 3), t.nonneg_until > 10**20   # 3/2 - 2/3
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import (
    BallTerms,
    NotCertified,
    arb_function,
    ball_precision,
    head_suffix,
    tail_start,
)
from theory.series.convergence import decide_in_process
from theory.series.expressions import N
from theory.series.lower_bounds import terms_nonnegative

MAX_PARTS = 6  # a sum of more parts is not split
SIGN_HEAD = 4096  # terms whose sign is checked one by one where it is not proved
EVERYWHERE = 10**30  # nonneg_until when every term from n0 on is proved >= 0


def split_parts(b: sp.Expr) -> tuple[sp.Expr, ...]:
    """The summands of b (expanded where b is a product holding a sum), or () where b is
    not a sum of 2 to :data:`MAX_PARTS` parts."""
    try:
        with step_budget(1.0):
            parts = sp.Add.make_args(b if b.is_Add else sp.expand(b))
    except StepTimeout:
        return ()
    return parts if 2 <= len(parts) <= MAX_PARTS else ()


def leading_oscillating_split(b: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    r"""(L, b - L) with L = c(s) / n the first term of b's expansion in 1/n, each sin/cos
    atom s held fixed (``sin(n)/(n + sin(n))``: L = sin(n)/n, and
    :math:`b - L = -\sin^2 n/(n (n + \sin n))`, absolutely convergent), or None where the
    expansion does not start at 1/n.  The identity b = L + (b - L) is exact.

    >>> from theory.series.expressions import parse_expression as P
    >>> leading_oscillating_split(P("sin(n)/(n + sin(n))"))
    (sin(n)/n, -sin(n)**2/(n*(n + sin(n))))
    """
    atoms = sorted(b.atoms(sp.sin, sp.cos), key=str)
    if not atoms or b.is_Add:
        return None
    held = {a: sp.Dummy(f"s{i}", real=True) for i, a in enumerate(atoms)}
    t = sp.Dummy("t", positive=True)
    try:
        with step_budget(2.0):
            e = b.xreplace(held)
            if e.has(N) is False:
                return None
            e = e.subs(N, 1 / t)
            if e.has(sp.sin, sp.cos):
                return None
            ser = sp.series(e, t, 0, 2).removeO()
            c0, c1 = ser.coeff(t, 0), ser.coeff(t, 1)
            if c0 != 0 or c1 == 0 or c1.has(t):
                return None
            lead = c1.xreplace({v: a for a, v in held.items()}) / N
            rest = sp.factor(sp.together(b - lead))
    except (StepTimeout, TypeError, ValueError, NotImplementedError, sp.PoleError):
        return None
    return lead, rest


def log_shift_parts(b: sp.Expr, n0: int) -> tuple[sp.Expr, ...]:
    r"""The summands of b with every :math:`\log(n + c)` (c a nonzero number, n0 + c > 0)
    written :math:`\log n + \log(1 + c/n)`, exact for n >= max(n0, 1), and expanded:
    ``(-1)**n*log(n + 1)/n`` gives ``(-1)**n*log(n)/n`` and ``(-1)**n*log(1 + 1/n)/n``,
    each summed by its own engine; () where there is no such log or the parts are not 2
    to :data:`MAX_PARTS`.

    >>> from theory.series.expressions import parse_expression as P
    >>> sorted(map(str, log_shift_parts(P("(-1)**n*log(n + 1)/n"), 1)))
    ['(-1)**n*log(1 + 1/n)/n', '(-1)**n*log(n)/n']
    """
    logs = {}
    for a in b.atoms(sp.log):
        c = sp.expand(a.args[0] - N)
        if a.args[0].has(N) and not c.has(N) and c.is_number and c != 0:
            if not (n0 >= 1 and bool(n0 + c > 0)):
                return ()
            logs[a] = sp.log(N) + sp.log(1 + c / N, evaluate=False)
    if not logs:
        return ()
    try:
        with step_budget(1.0):
            parts = sp.Add.make_args(sp.expand(b.xreplace(logs), log=False, mul=True))
    except StepTimeout:
        return ()
    return parts if 2 <= len(parts) <= MAX_PARTS else ()


class SplitTail(BallTerms):
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``; ``tail_sup`` where every part has one or is of one sign) of a sum of
    convergent series (module doc); ``engine(t, n0)`` gives each part's certified tail
    engine; ``parts``, summands of b given by the caller (an exact identity), replaces
    b's own."""

    @ball_precision
    def __init__(
        self,
        b: sp.Expr,
        n0: int,
        engine: Callable[[sp.Expr, int], object],
        parts: tuple[sp.Expr, ...] | None = None,
    ):
        parts = split_parts(b) if parts is None else parts
        if not parts:
            raise NotCertified(f"the terms are not a sum of 2 to {MAX_PARTS} parts")
        self.n0, self.f = int(n0), arb_function(b)
        self.engines = []  # (sign, engine): a part of terms proved <= 0 as -(its negation)
        one_signed = []  # the parts whose terms are proved of one sign from n0 on
        for t in parts:
            d = decide_in_process(t, self.n0)
            if d.converges is not True:
                raise NotCertified(f"the part {t} is not proved convergent")
            sign = -1 if terms_nonnegative(-t, self.n0) else 1
            self.engines.append((sign, engine(sign * t, self.n0)))
            one_signed.append(sign < 0 or terms_nonnegative(t, self.n0))
        self._one_signed = one_signed
        every_part = all(s > 0 and e.nonneg_until >= EVERYWHERE for s, e in self.engines)
        if every_part or terms_nonnegative(b, self.n0):  # a sum of nonnegative parts
            self.nonneg_until = EVERYWHERE
        else:
            self.nonneg_until = head_suffix(self.f, self.n0, self.n0 + SIGN_HEAD)[1]
        if all(
            hasattr(e, "tail_sup") or one or e.nonneg_until >= EVERYWHERE
            for (_, e), one in zip(self.engines, one_signed)
        ):  # a bound on every later tail, part by part (the signed TRF's tail rule)
            self.tail_sup = self._tail_sup
        self.certificate = "the sum of the parts' tails, each convergent: " + "; ".join(
            f"[{t}] {'of its negation: ' if sign < 0 else ''}{e.certificate}"
            for t, (sign, e) in zip(parts, self.engines)
        )

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        return sum((sign * e.tail(a) for sign, e in self.engines), arb(0))

    @ball_precision
    def _tail_sup(self, a: int) -> arb:
        """An upper bound on |sum_{n >= k} b_n| for every k >= a: the parts' bounds added
        (a part of terms of one sign, proved or of nonnegative terms by its engine: its
        tail from a, which bounds every later one)."""
        a = tail_start(a, self.n0)
        total = arb(0)
        for (_, e), one in zip(self.engines, self._one_signed):
            if one or not hasattr(e, "tail_sup"):  # one sign: |tail| decreases
                total += abs(e.tail(a))
            else:
                total += e.tail_sup(a)
        return arb(total.upper())
