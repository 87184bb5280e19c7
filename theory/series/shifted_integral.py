r"""The integral test through a shift of the index: :math:`\log(n + c)` in a slowly
converging term.

The integral test (:mod:`theory.series.integral_test`) needs an antiderivative, or a
term log-concave in :math:`\log x`; :math:`1/(n \log(n+1)^2)` has neither, although it is
:math:`1/(m \log(m)^2)` up to a factor :math:`\to 1`, with :math:`m = n + 1`.  When

.. math::
   b_n = C \prod_i (n + d_i)^{-s_i}\, \Psi(n + c)

(every occurrence of :math:`n` in :math:`\Psi` is :math:`n + c`, :math:`c` an integer,
:math:`d_i, s_i` numbers; iterated logs :math:`L(n + k)^p`, :math:`L = \log` or
:math:`\log\log`, may carry other integer shifts k, and count as
:math:`L(n + c)^p` times the factor :math:`(L(n + k)/L(n + c))^p` of :math:`\rho`), put :math:`\varphi(m) = C m^{-S} \Psi(m)`, :math:`S = \sum s_i`.
Then :math:`b_n = \varphi(n + c)\,\rho(n)` with :math:`\rho(n) = \prod_i ((n + c)/(n +
d_i))^{s_i}`, and

.. math::
   \sum_{n \ge a} b_n = \sum_{m \ge a + c} \varphi(m) + \sum_{n \ge a} r_n, \qquad
   r_n = b_n - \varphi(n + c) = \varphi(n + c)(\rho(n) - 1) = O(\varphi(n + c)/n),

the first tail by the integral test on :math:`\varphi` (:class:`IntegralTail`), the second
by a certified tail engine of its own (the caller's, e.g.
:func:`theory.series.sums.certify_tail`; of
:math:`-r` where :math:`r \le 0` is proved); :math:`\sum r_n` converges, as
:math:`|r_n| \le \varphi(n + c) \sup |\rho - 1|` and :math:`\rho` is continuous on
:math:`[n_1, \infty)` with the limit 1.  The form holds from the first :math:`n_1 \ge n_0`
where every factor is positive (:func:`regular_start`); the terms before it are summed as
they are.  :math:`r` is first written without a cancellation where an identity removes one
(:func:`theory.series.cancellation.without_cancellation`: :math:`n + 1 - \sqrt{n}\sqrt{n + 3}
= (1 - n)/(n + 1 + \sqrt{n}\sqrt{n + 3})`).  Far away (:math:`x = e^t`, beyond any sum of terms)
each factor of :math:`\rho(n)` lies between 1 and its value at :math:`x` for every
:math:`n \ge x` (it is monotone and tends to 1: for the log factors, the derivative of
:math:`\log L(n + k) - \log L(n + c)` is :math:`1/q(n + k) - 1/q(n + c)` with
:math:`q(y) = y \log y` or :math:`y \log y \log\log y`, increasing for :math:`y > e`), so

.. math::
   R_b(\lceil x \rceil) \in R_\varphi(\lceil x + c \rceil) \cdot
   \prod_i \mathrm{hull}\bigl(1, ((x + c)/(x + d_i))^{s_i}\bigr),

a bracket as narrow as :math:`R_\varphi`'s up to a relative :math:`O(1/x)`.  The terms are
positive: :math:`\varphi > 0` is proved by the integral test and :math:`\rho > 0` for
:math:`n + d_i > 0`.

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.sums import certify_tail
>>> t = ShiftedIntegralTail(P("1/(n*log(n + 1)**2)"), 1, certify_tail)
>>> t.shift, t.phi
(1, 1/(n*log(n)**2))
>>> lo, hi = t.log_bounds(100.0)    # R(ceil(e^100)) = 1/log(e^100) + O(e^-100) = 1/100 + ...
>>> from flint import ctx
>>> with ctx.workprec(200):
...     [bool(abs(v - arb(1) / 100) < 1e-40) for v in (lo, hi)]
[True, True]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

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
from theory.series.cancellation import without_cancellation
from theory.series.enclosure import CertifiedTail
from theory.series.expressions import N
from theory.series.integral_test import LOG_SPACE, IntegralTail
from theory.series.lower_bounds import terms_nonnegative

#: CPU seconds for writing phi and the remainder r
SYMBOLIC_SECONDS = 2.0
#: integer tails from here on are the sandwich of :meth:`ShiftedIntegralTail.bounds`
SANDWICH = 2**64
#: at most this many terms before the shifted form holds are summed as they are
MAX_HEAD = 64
#: 2^-FAR_BITS bounds e^-t for t >= LOG_SPACE (e^-10^4 < 2^-14000)
FAR_BITS = 14000


@dataclass(frozen=True)
class ShiftForm:
    """b_n = const prod (n + d_i)^(-s_i) Psi(n + c) (module docstring): ``phi`` is
    phi(n) = const n^(-S) Psi(n), ``bare`` the pairs (d_i, s_i); ``logs`` the triples
    (k, depth, p) of factors L(n + k)^p with another shift k than c, L = log (depth 1) or
    log log (depth 2), which Psi holds as L(n + c)^p."""

    shift: int
    phi: sp.Expr
    bare: tuple
    logs: tuple = ()


def _iterated_log(f: sp.Expr) -> tuple | None:
    """(k, depth, p) where f = log(n + k)^p (depth 1) or log(log(n + k))^p (depth 2), k an
    integer and p a real number; None otherwise."""
    base, p = f.as_base_exp()
    if p.has(N) or not (p.is_number and p.is_real) or not isinstance(base, sp.log):
        return None
    arg, depth = base.args[0], 1
    if isinstance(arg, sp.log):
        arg, depth = arg.args[0], 2
    k = sp.expand(arg - N)
    return (k, depth, p) if k.is_Integer else None


def _shifts(e: sp.Expr) -> set | None:
    """The set of k such that n occurs in e as n + k (n alone, or in 2 n or n^2: k = 0);
    None where a sum holds n beside other terms in n.  Only a heuristic for the shift:
    b_n = phi(n + c) rho(n) holds for any c (phi is written from b)."""
    if e == N:
        return {sp.Integer(0)}
    if not e.has(N):
        return set()
    if e.is_Add and N in e.args:
        rest = [a for a in e.args if a != N]
        if not any(a.has(N) for a in rest):
            k = sp.Add(*rest)
            return {k} if k.is_number else None
        return None
    out: set = set()
    for a in e.args:
        s = _shifts(a)
        if s is None:
            return None
        out |= s
    return out


def _bare(f: sp.Expr) -> tuple | None:
    """(d, s, k) where f = k (n + d)^(-s) with numbers d, s and k > 0 (f = (a n + a d)^(-s),
    a > 0 rational, k = a^(-s)); None otherwise."""
    base, ex = f.as_base_exp()
    if ex.has(N) or not ex.is_number or not ex.is_real:
        return None
    poly = sp.Poly(base, N) if base.is_polynomial(N) else None
    if poly is None or poly.degree() != 1:
        return None
    a, ad = poly.all_coeffs()
    if not (a.is_Rational and a > 0 and ad.is_number and ad.is_real):
        return None
    return ad / a, -ex, a**ex


def shift_form(b: sp.Expr) -> ShiftForm | None:
    """The form of the module docstring, or None where b is not of it (no log of n + c
    with c != 0 or no bare factor with d_i != c: nothing for a shift to do).

    >>> from theory.series.expressions import parse_expression as P
    >>> shift_form(P("exp(-log(n + 1)**(101/100))"))
    ShiftForm(shift=1, phi=exp(-log(n)**(101/100)), bare=(), logs=())
    >>> shift_form(P("1/(n*log(2*n + 1)**2)")) is None
    True
    """
    const, bare, psi = sp.Integer(1), [], []
    for f in sp.Mul.make_args(b):
        if not f.has(N):
            const *= f
            continue
        triple = _bare(f)
        if triple is not None:
            bare.append(triple[:2])
            const *= triple[2]
            continue
        shifts = _shifts(f)
        if shifts is None or len(shifts) != 1:
            return None
        psi.append((next(iter(shifts)), f))
    if not psi:
        return None
    shifts = [k for k, _ in psi]
    # one shift c; other shifts only on iterated logs L(n + k)^p, which rho takes as
    # (L(n + k)/L(n + c))^p (the first that allows it of the commonest shifts, the larger
    # on a tie)
    for c in sorted(set(shifts), key=lambda k: (shifts.count(k), k), reverse=True):
        logs = [(k, _iterated_log(f)) for k, f in psi if k != c]
        if c.is_Integer and all(t is not None for _, t in logs):
            break
    else:
        return None
    if c == 0 and not logs and all(d == 0 for d, _ in bare):
        return None  # nothing shifted: the integral test itself applies or not
    S = sum((s for _, s in bare), sp.Integer(0))
    phi = const * N ** (-S) * sp.Mul(*[f.subs(N, N - k) for k, f in psi])
    return ShiftForm(int(c), phi, tuple(bare), tuple(t for _, t in logs))


def regular_start(form: ShiftForm, n0: int) -> int:
    """The first n >= n0 from which every factor of the form is defined and positive and
    each ratio of shifted iterated logs monotone: n + c >= 1, n + d_i > 0, L(n + k) > 0
    and L(n + c) > 0 (n + k > 1, or > e for log log), the bound of :meth:`_rho`.

    >>> from theory.series.expressions import parse_expression as P
    >>> regular_start(shift_form(P("1/((n + 3)*log(n + 3)*log(log(n + 1))**2)")), 1)
    2
    """
    n = max(n0, 1 - form.shift)
    for d, _s in form.bare:
        n = max(n, int(sp.floor(-d)) + 1)
    for k, depth, _p in form.logs:
        low = min(int(k), form.shift)
        n = max(n, (2 if depth == 1 else 3) - low)
    return n


def _rho_minus_one_form(form: ShiftForm) -> tuple[sp.Expr, int] | None:
    r"""(rho(n) - 1 written exp(U) - 1, its sign) where some bare exponent s_i is not a
    multiple of 1/2 (a cube root, which no rewrite takes out of b_n - phi(n + c)) or an
    iterated log has another shift than c (log(log(n + 1)) - log(log(n + 3)) cancels), and the
    summands of

    .. math::
       U = \sum_i s_i \log\Bigl(1 + \frac{c - d_i}{n + d_i}\Bigr)
         + \sum_j p_j \log\frac{L(n + k_j)}{L(n + c)}

    all have one sign (that of s_i (c - d_i) and p_j (k_j - c): L increases), else the
    sign of the leading term of U, sum_i s_i (c - d_i)/n (the sign of r far out; the
    engine of sign * r proves what it encloses, whichever sign is passed); None where that
    sum is 0. The evaluator takes exp(U) - 1 as expm1(U) and log(1 + u) as log1p(u)."""
    if not form.logs and all((2 * s).is_Integer for _, s in form.bare):
        return None
    c, terms, signs = form.shift, [], set()
    for d, s in form.bare:
        if d != c:
            terms.append(s * sp.log(1 + (c - d) / (N + d)))
            signs.add(sp.sign(s * (c - d)))
    for k, depth, p in form.logs:  # log(L(n + k)/L(n + c)) through log1p only:
        # log(n + k) - log(n + c) = log(1 + (k - c)/(n + c)) =: w, log(log(n + k)/log(n + c))
        # = log(1 + w/log(n + c)) =: w', and once more for log log
        w = sp.log(1 + (k - c) / (N + c))
        for level in range(depth):
            inner = sp.log(N + c) if level == 0 else sp.log(sp.log(N + c))
            w = sp.log(1 + w / inner)
        terms.append(p * w)
        signs.add(sp.sign(p * (k - c)))
    signs.discard(0)
    if len(signs) != 1:
        lead = sp.sign(sum((s * (c - d) for d, s in form.bare), sp.Integer(0)))
        if lead == 0:
            return None
        signs = {lead}
    return sp.exp(sp.Add(*terms), evaluate=False) - 1, int(signs.pop())


class _RemainderFar:
    """The far tail of sign r_n = sign phi(n + c) (rho(n) - 1) beyond X = SANDWICH:
    rho(n) lies in the ball rho(a) of :meth:`ShiftedIntegralTail._rho` for every n >= a,
    and phi > 0, so the tail from a lies in R_phi(a + c) sign (rho(a) - 1)."""

    X = SANDWICH
    note = "sign r_n = sign phi(n + c) (rho(n) - 1) with rho(n) in the ball rho(a) for n >= a"

    def __init__(self, owner: ShiftedIntegralTail):
        self.owner = owner

    def tail(self, a: int) -> arb:
        o = self.owner
        lo, hi = o.inner.bounds(arb(a) + o.shift)
        return lo.union(hi) * (o.sign * (o._rho(arb(a)) - 1))


class ShiftedIntegralTail(BallTerms):
    """Certified tails of b_n = phi(n + c) rho(n) (module docstring): ``tail(a)`` at
    integers a >= n0 and ``log_bounds(t)``, ``bounds(x)`` at x = e^t beyond them, as
    :class:`IntegralTail` gives them; ``nonneg_until`` every n (the terms are > 0);
    ``engine(r, n0)`` gives the remainder's certified tail engine."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int, engine: Callable[[sp.Expr, int], object]):
        form = shift_form(b)
        if form is None:
            raise NotCertified("the term is not a shifted integral-test form")
        self.shift, self.phi, self.f = form.shift, form.phi, arb_function(b)
        # the form holds from n1 on; the terms before it are summed as they are (b_n =
        # 1/((n + 3) log(n + 3) log(log(n + 1))^2) from n = 1, where log(log(2)) < 0)
        self.n0, self.n1 = int(n0), regular_start(form, int(n0))
        if self.n1 - self.n0 > MAX_HEAD:
            raise NotCertified(f"the shifted form holds only from n = {self.n1} on")
        self.suffix, until = head_suffix(self.f, self.n0, self.n1)
        if until < self.n1:
            raise NotCertified(f"the term at n = {until} is not proved >= 0")
        if self.n1 + self.shift < 1 or any(self.n1 + d <= 0 for d, _ in form.bare):
            raise NotCertified("a shifted factor is not positive from n1 on")
        self._logs = [(int(k), depth, arb_function(p)(arb(0))) for k, depth, p in form.logs]
        for k, depth, _p in self._logs:  # L(n + k), L(n + c) > 0 from n1 on (L increases)
            for low in (arb(self.n1 + k).log(), arb(self.n1 + self.shift).log()):
                if not (low if depth == 1 else low.log()) > 0:
                    raise NotCertified("a shifted iterated log is not positive from n1 on")
        self.inner = IntegralTail(self.phi, self.n1 + self.shift)
        # the numbers (d_i, s_i) as balls (exact sympy numbers from the parsed term)
        self._bare = [(arb_function(d)(arb(0)), arb_function(s)(arb(0))) for d, s in form.bare]
        self.rest, self.sign = None, 1
        r, sign = _rho_minus_one_form(form), None
        if r is not None:  # roots the rewrites do not remove: r = phi(n + c) (exp(U) - 1)
            r, sign = self.phi.subs(N, N + self.shift) * r[0], r[1]
        else:
            try:
                with step_budget(SYMBOLIC_SECONDS):
                    r = sp.factor(sp.together(b - self.phi.subs(N, N + self.shift)))
            except (StepTimeout, sp.PolynomialError, ValueError, TypeError):
                raise NotCertified("the remainder b_n - phi(n + c) is not written") from None
        if r != 0:
            rewritten = without_cancellation(r) if self.n0 >= 1 and sign is None else None
            r = r if rewritten is None else rewritten[0]  # n + 1 - sqrt(n) sqrt(n + 3)
            # sum r converges: |r_n| <= phi(n + c) sup |rho - 1|, and rho is continuous and
            # finite on [n1, oo) with the limit 1 (every factor is), phi summable (the
            # integral test above)
            if sign is None:
                sign = -1 if terms_nonnegative(-r, self.n1) else 1  # as SplitTail
            self.sign = sign
            try:  # blocks up to 2^64 and the sandwich beyond (no comparison series to find)
                self.rest = CertifiedTail(sign * r, self.n1, far=_RemainderFar(self))
            except (NotCertified, ArithmeticError, ValueError, TypeError):
                self.rest = engine(self.sign * r, self.n1)
        self.nonneg_until = 10**30
        c = self.shift
        neg = "minus the tail of its negation, " if self.sign < 0 else ""
        head = "" if self.n1 == self.n0 else f"the terms n < {self.n1} summed as they are; "
        remainder = (
            "" if r == 0 else f" + the tail of r_n = {sp.sstr(r)} ({neg}{self.rest.certificate})"
        )
        self.certificate = (
            f"{head}b_n = phi(n + {c}) rho(n), phi(m) = {sp.sstr(self.phi)}: the tail of b from a is "
            f"the tail of phi from a + {c} [{self.inner.certificate}]{remainder}"
        )

    @ball_precision
    def tail(self, a: int) -> arb:
        """An enclosure of R(a) = sum_{n >= a} b_n for an integer a >= n0."""
        a = tail_start(a, self.n0)
        if a < self.n1:  # the terms before the form holds, summed as they are
            return self.suffix[a - self.n0] + self.tail(self.n1)
        if self.rest is not None and a >= SANDWICH:  # rho(n) - 1 = O(1/a) is below 2^-64
            lo, hi = self.bounds(arb(a))
            return lo.union(hi)
        out = self.inner.tail(a + self.shift)
        return out if self.rest is None else out + self.sign * self.rest.tail(a)

    def _rho(self, x: arb | None) -> arb:
        """A ball holding rho(n) for every n >= x (x None: x >= e^LOG_SPACE, where
        |(c - d)/(x + d)| <= 2 |c - d| 2^-FAR_BITS)."""
        out = arb(1)
        for d, s in self._bare:
            if x is None:
                z = 2 * abs(arb(self.shift) - d) * arb(2) ** -FAR_BITS
                z = z.union(-z)
            else:
                z = (arb(self.shift) - d) / (x + d)
            out *= arb(1).union((1 + z) ** s)
        for k, depth, p in self._logs:  # (L(n + k)/L(n + c))^p: between 1 and its value at x
            if x is None:  # |L(x + k)/L(x + c) - 1| <= 2 |k - c|/x, as L(x + c) >= 1 there
                z = 2 * abs(arb(k - self.shift)) * arb(2) ** -FAR_BITS
                q = 1 + z.union(-z)
            else:  # monotone in n where x log x (log log x) increases: x + min(k, c) > e
                if not x + min(k, self.shift) > arb(1).exp():
                    raise NotCertified("a shifted iterated log is not monotone from x on")
                top, bottom = (x + k).log(), (x + self.shift).log()
                q = top / bottom if depth == 1 else top.log() / bottom.log()
            out *= arb(1).union(q**p)
        return out

    @ball_precision
    def bounds(self, x: arb) -> tuple[arb, arb]:
        """(lower, upper) enclosures with lower <= R(ceil(x)) <= upper, for real x with
        x + c >= the inner engine's M."""
        lo, hi = self.inner.bounds(x + self.shift)
        rho = self._rho(x)
        return lo * rho, hi * rho

    @ball_precision
    def log_bounds(self, t: float | arb) -> tuple[arb, arb]:
        """(lower, upper) enclosures of R(ceil(e^t)) for every t in the ball ``t``
        (:meth:`IntegralTail.log_bounds`, at t' = log(e^t + c) = t + log(1 + c e^-t))."""
        if not isinstance(t, arb) and t < LOG_SPACE:
            return self.bounds(arb(t).exp())
        if not arb(t) > LOG_SPACE:
            raise NotCertified("log_bounds takes an arb t only beyond LOG_SPACE")
        delta = 2 * abs(arb(self.shift)) * arb(2) ** -FAR_BITS  # |log(1 + y)| <= 2 |y|
        lo, hi = self.inner.log_bounds(arb(t) + delta.union(-delta))
        rho = self._rho(None)
        return lo * rho, hi * rho
