r"""Certified tails of a smooth term perturbed by bounded oscillating atoms:
:math:`b_n = n^{-p}\,\Psi(1/n, s_1(n), \dots, s_m(n))`, :math:`s_j = \sin(k_j n + c_j)` or ``cos``.

For ``1/(n**2 + sin(n))`` the power majorant of :mod:`theory.series.majorant_tail` evaluates
:math:`n^2 b_n` on wide boxes of n and leaves B at 4 digits.  Here the atoms become independent
variables :math:`S_j \in [-1, 1]` and :math:`t = 1/n` (:math:`t = n^{-1/q}` where b holds
rational powers of n with least common denominator q, :math:`1/(n^{3/2} + 10 \sin n)`:
q = 2, :math:`\Psi = 1/(1 + 10 S t^3)`; read :math:`n^{-p-k}` below as :math:`n^{-p-k/q}` and
:math:`1/(Mr)` as :math:`M^{-1/q}/r`, with :math:`K = 6q`):

1. :math:`\Psi(t, S) = n^p b_n` with :math:`n = 1/t` (sympy: ``cancel`` for rational terms),
   p the exponent of the power envelope of :func:`theory.series.majorant_tail.power_envelope`;
2. its Taylor coefficients :math:`c_k(S)`, :math:`k < K`, from sympy's ``series`` in t
   (checked against :math:`\Psi` in ball arithmetic at :math:`t = 1/M` and several S);
3. :math:`\Psi(\cdot, S)` is proved analytic on the disk :math:`|t| \le r` for every real
   :math:`S \in [-1, 1]^m`, with :math:`|\Psi| \le B_r` there, by interval evaluation on complex
   boxes covering disk :math:`\times` S (:class:`theory.series.fourier_tail.ComplexFunction`
   refuses a box that a pole or a branch cut may meet).  Cauchy's estimate
   :math:`|c_k(S)| \le B_r r^{-k}` then gives, for every :math:`n \ge M > 1/r`,

   .. math::
      \Big|b_n - \sum_{k<K} c_k(s(n))\, n^{-p-k}\Big| \le
      C\, n^{-p-K},\qquad C = \frac{B_r\, r^{-K}}{1 - 1/(M r)};

4. the terms :math:`n_0 \le n < M` are summed one by one in ball arithmetic; a tail from
   :math:`a \ge M` is :math:`\sum_{k<K} T_k(a) \pm C\,\zeta(p+K, a)`, :math:`T_k(a)` the tail of
   :math:`c_k(s(n))\, n^{-p-k}`: :math:`c_k\,\zeta(p+k, a)` for a constant :math:`c_k`, else the
   narrowest at M of :class:`theory.series.fourier_tail.FourierTail`, the caller's engine
   (``sub_tail``) and :math:`\pm \sup |c_k|\,\zeta(p+k, a)`.

Every inequality holds for every :math:`n \ge M`, not only for large n; a step that cannot be
proved raises :class:`NotCertified`.

>>> from theory.series.expressions import parse_expression as P
>>> t = PerturbationTail(P("1/(n**2 + sin(n))"), 1)
>>> s = t.tail(1)
>>> s.rad() < 1e-20, 1.1444 < float(s.mid()) < 1.1445
(True, True)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import sympy as sp
from flint import acb, arb
from sympy.core.function import PoleError

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import (
    NotCertified,
    NotSupported,
    arb_function,
    ball_precision,
    head_suffix,
    tail_start,
    term_ball,
)
from theory.series.expressions import N
from theory.series.fourier_tail import (
    ComplexFunction,
    FourierTail,
    linear_frequency,
    periodic_part,
)
from theory.series.limits import limit_at_infinity
from theory.series.majorant_tail import power_envelope
from theory.series.ratio_tails import EVERYWHERE

HEAD_LOG2 = 14  # terms n0 <= n < n0 + 2^14 are summed one by one
ORDER = 6  # Taylor coefficients c_k(S), k < ORDER, summed as series of their own
RADII = (2, 4, 8, 16, 64, 256)  # disks |t| <= 1/R tried for the Cauchy estimate
GRID = 8  # complex boxes per side of the square around the disk
SPLIT = 4  # real boxes per atom across [-1, 1]
MAX_ATOMS = 3
MAX_ROOT = 4  # t = n^(-1/q) for q <= MAX_ROOT (the expansion has ORDER q coefficients)
NEGLIGIBLE = arb(2) ** -160  # a coefficient tail bounded by sup|c_k| zeta when below this

T = sp.Symbol("t", positive=True)


def oscillating_atoms(b: sp.Expr) -> list[sp.Expr]:
    """The subexpressions sin(k n + c), cos(k n + c) of b, k != 0 and c real constants.

    >>> from theory.series.expressions import parse_expression as P
    >>> oscillating_atoms(P("1/(n**2 + sin(n) + cos(sqrt(2)*n))"))
    [sin(n), cos(sqrt(2)*n)]
    """
    found: list[sp.Expr] = []
    for e in sp.preorder_traversal(b):
        if linear_frequency(e) is not None and e not in found:
            found.append(e)
    return sorted(found, key=sp.default_sort_key)


def expansion(
    b: sp.Expr, order: int = ORDER
) -> tuple[sp.Expr, list[sp.Expr], list[sp.Symbol], sp.Expr, list[sp.Expr], int]:
    """(p, atoms, S symbols, Psi(t, S), [c_0(S), ..., c_(order q - 1)(S)], q) of the module
    doc, with t = n^(-1/q): q = 1, or the least common denominator of the rational powers of n
    in b and of p (``1/(n**1.5 + sin(n))``: t = n^(-1/2)); NotCertified when b is not of that
    form.

    >>> from theory.series.expressions import parse_expression as P
    >>> p, atoms, S, psi, c, q = expansion(P("1/(n**2 + sin(n))"), 5)
    >>> p, atoms, psi, c, q
    (2, [sin(n)], 1/(S0*t**2 + 1), [1, 0, -S0, 0, S0**2], 1)
    >>> p, atoms, S, psi, c, q = expansion(P("1/(n**(3/2) + sin(n))"), 2)
    >>> p, psi, c, q
    (3/2, 1/(S0*t**3 + 1), [1, 0, 0, -S0], 2)
    """
    atoms = oscillating_atoms(b)
    if not atoms or len(atoms) > MAX_ATOMS:
        raise NotCertified(f"{len(atoms)} oscillating atoms sin/cos(k n + c)")
    S = [sp.Symbol(f"S{j}", real=True) for j in range(len(atoms))]
    e = b.xreplace(dict(zip(atoms, S)))
    p = _power(b, e.subs({s: 0 for s in S}))
    if e.has(sp.sin, sp.cos) and any(N in a.free_symbols for a in e.atoms(sp.sin, sp.cos)):
        raise NotCertified("an angle that is not k n + c")
    q = _root_order(e, p)
    order *= q
    try:
        with step_budget(4.0):
            psi = sp.powsimp(e.subs(N, T ** (-q)) * T ** (-p * q))
            if psi.is_rational_function(T, *S):
                psi = sp.cancel(sp.together(psi))
            else:  # e.g. n^2 (e^cos(n)/n^2 - 1/n^3) -> e^S - t
                psi = sp.powsimp(sp.expand(psi))
            ser = sp.series(psi, T, 0, order).removeO()
            poly = sp.Poly(sp.expand(ser), T)
            coeffs = [sp.simplify(poly.coeff_monomial(T**k)) for k in range(order)]
    except (
        StepTimeout,
        sp.PolynomialError,
        PoleError,
        ArithmeticError,
        ValueError,
        TypeError,
    ) as exc:
        raise NotCertified(f"no Taylor expansion in t = n^(-1/{q}): {exc}") from None
    if N in psi.free_symbols or any(N in c.free_symbols or T in c.free_symbols for c in coeffs):
        raise NotCertified("n^p b_n is not a function of t and the atoms alone")
    return p, atoms, S, psi, coeffs, q


def _root_order(e: sp.Expr, p: sp.Expr) -> int:
    """The least common denominator q of p and of the rational exponents of the powers
    of n in e (1 when all are integers): n = t^-q makes them integer powers of t."""
    q = p.q
    for a in e.atoms(sp.Pow):
        if a.base == N and a.exp.is_Rational:
            q = sp.ilcm(q, a.exp.q)
    if q > MAX_ROOT:
        raise NotCertified(f"powers n^(k/{q}): the expansion in n^(-1/{q}) is too long")
    return int(q)


def _power(b: sp.Expr, unperturbed: sp.Expr) -> sp.Expr:
    """p of the module doc: the exponent of the power envelope of b, else the decay
    exponent of b with the atoms set to 0 (any p serves where Psi is proved analytic)."""
    env = power_envelope(b)
    if env is not None:
        p = env[0]
    else:
        try:
            with step_budget(3.0):
                lam = limit_at_infinity(sp.log(unperturbed) / sp.log(N))
        except (StepTimeout, ArithmeticError, ValueError, TypeError):
            lam = None
        p = None if lam is None or not lam.is_number else -lam
    if p is None or not p.is_Rational or not p > 1:
        raise NotCertified("no rational power n^-p, p > 1, of the terms")
    return p


def _s_boxes(m: int) -> list[tuple[acb, ...]]:
    """Real boxes covering [-1, 1]^m (SPLIT pieces per atom)."""
    cuts = [arb(-1) + arb(2) * i / SPLIT for i in range(SPLIT + 1)]
    pieces = [acb(u.union(v)) for u, v in zip(cuts, cuts[1:])]
    return list(itertools.product(pieces, repeat=m))


def _disk_boxes(r: arb) -> list[acb]:
    """Complex boxes covering the disk |t| <= r."""
    edges = [-r + 2 * r * i / GRID for i in range(GRID + 1)]
    out = []
    for x0, x1 in zip(edges, edges[1:]):
        for y0, y1 in zip(edges, edges[1:]):
            nx = arb(0) if x0 < 0 < x1 else x0.abs_lower().min(x1.abs_lower())
            ny = arb(0) if y0 < 0 < y1 else y0.abs_lower().min(y1.abs_lower())
            if nx**2 + ny**2 <= r**2:
                out.append(acb(x0.union(x1), y0.union(y1)))
    return out


class PerturbationTail:
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``) of b_n from n0 on, from the expansion of the module doc.  ``sub_tail(e, m)``
    (optional) is a certified tail engine of e from m on, tried for each non-constant
    coefficient series."""

    @ball_precision
    def __init__(
        self,
        b: sp.Expr,
        n0: int,
        sub_tail: Callable[[sp.Expr, int], object] | None = None,
        head_log2: int = HEAD_LOG2,
        order: int = ORDER,
    ) -> None:
        p, atoms, S, psi, coeffs, q = expansion(b, order)
        self.n0, self.M = int(n0), int(n0) + 2 ** int(head_log2)
        self.p, self.K, self.q = p, len(coeffs), q
        try:
            self.f = arb_function(b)
            self.pa = arb_function(p)(arb(1))
            self.t_M = arb(self.M) ** (-arb(1) / q)  # t = n^(-1/q) at n = M
            self.psi = ComplexFunction(psi, (T, *S))
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        self.boxes = _s_boxes(len(S))
        self.C, r = self._remainder_constant()
        self._check_identity(atoms)
        self._check_coefficients(coeffs, S)
        self.parts = [
            self._coefficient_tail(k, c, atoms, S, psi, sub_tail) for k, c in enumerate(coeffs)
        ]
        self.suffix, self.nonneg_until = head_suffix(self.f, self.n0, self.M)
        if self.nonneg_until == self.M and self._positive_beyond():
            self.nonneg_until = EVERYWHERE
        names = ", ".join(f"S{j} = {a}" for j, a in enumerate(atoms))
        t = "1/n" if q == 1 else f"n^(-1/{q})"
        self.certificate = (
            f"ball arithmetic: terms n0 = {self.n0} <= n < {self.M} one by one; beyond, "
            f"n^({p}) b_n = Psi(t, S) with t = {t}, {names}, Psi = {psi} analytic on "
            f"|t| <= 1/{r} for all real S in [-1, 1] (complex interval evaluation), so "
            f"|n^({p}) b_n - sum_(k<{self.K}) c_k(S) t^k| <= {self.C.str(5, radius=False)} "
            f"t^{self.K} for every n >= {self.M} (Cauchy's estimate; c_k by sympy's series, "
            "checked in ball arithmetic); the coefficient series: "
            + "; ".join(w for _, w in self.parts)
        )

    def _remainder_constant(self) -> tuple[arb, int]:
        """(C, R): the least C of step 3 over the disks |t| <= 1/R of RADII (R t_M < 1/2)."""
        best = None
        for R in RADII:
            if not 2 * R * self.t_M < 1:
                break
            r = arb(1) / R
            try:
                top = arb(0)
                for z in _disk_boxes(r):
                    for s in self.boxes:
                        v = self.psi(z, *s)
                        if not v.is_finite():
                            raise NotCertified("not finite on a box")
                        top = top.max(abs(v).upper())
            except (NotCertified, ArithmeticError, ValueError) as exc:
                last = exc
                continue
            C = (top * arb(R) ** self.K / (1 - arb(R) * self.t_M)).upper()
            if best is None or C < best[0]:
                best = (C, R)
        if best is None:
            raise NotCertified(f"n^p b_n is not proved analytic in t near 0 ({last})")
        return best

    def _check_identity(self, atoms: list[sp.Expr]) -> None:
        """n^p b_n and Psi(n^(-1/q), s(n)) overlap at a few n (sympy's rewriting checked)."""
        try:
            fs = [arb_function(a) for a in atoms]
        except NotSupported as exc:
            raise NotCertified(f"the ball evaluator does not support {exc}") from None
        for n in (self.M, 3 * self.M + 7, 2**40 + 3):
            x = arb(n)
            left = term_ball(self.f, n) * x**self.pa
            right = self.psi(acb(x ** (-arb(1) / self.q)), *(acb(g(x)) for g in fs))
            if not acb(left).overlaps(right):
                raise NotCertified(f"n^p b_n and Psi(t, S) differ at n = {n}")

    def _check_coefficients(self, coeffs: list[sp.Expr], S: list[sp.Symbol]) -> None:
        """|Psi(t, S) - sum c_k(S) t^k| <= C t^K at t = t_M for a few S (sympy's series
        disagreeing with Psi: NotCertified)."""
        t = acb(self.t_M)
        polys = [ComplexFunction(c, tuple(S)) if c.free_symbols else None for c in coeffs]
        consts = [acb(arb_function(c)(arb(1))) if not c.free_symbols else None for c in coeffs]
        for x in ("-1", "-0.3", "0", "0.7", "1"):
            s = [acb(arb(x) * (1 - arb(j) / 7)) for j in range(len(S))]
            approx = sum(
                (
                    (consts[k] if polys[k] is None else polys[k](*s)) * t**k
                    for k in range(len(coeffs))
                ),
                acb(0),
            )
            diff = abs(self.psi(t, *s) - approx)
            if not diff.lower() <= self.C * abs(t) ** self.K:
                raise NotCertified("the Taylor coefficients disagree with n^p b_n")

    def _coefficient_tail(self, k, c, atoms, S, psi, sub_tail):
        """(a -> enclosure of sum_(n>=a) c_k(s(n)) n^(-p-k/q), a >= M; its description)."""
        q = self.p + sp.Rational(k, self.q)
        qa = arb_function(q)(arb(1))
        if not c.free_symbols:
            ca = arb_function(c)(arb(1))
            if ca == 0:
                return (lambda a: arb(0)), f"c_{k} = 0"
            return (lambda a: ca * qa.zeta(arb(a))), f"c_{k} = {c}: Hurwitz zeta"
        sup = self._sup(c, S, k)
        candidates = [
            (
                (lambda a: arb(0, (sup * qa.zeta(arb(a))).upper())),
                f"|c_{k}| <= {sup.str(5, radius=False)}",
            )
        ]
        if candidates[0][0](self.M).rad() > NEGLIGIBLE:
            g = c.xreplace(dict(zip(S, atoms)))
            if periodic_part(g) is not None:
                try:
                    with step_budget(5.0):
                        ft = FourierTail.power(g, q)
                    candidates.append((ft.tail, f"c_{k} n^-{q}: Fourier tail"))
                except (NotCertified, NotSupported, StepTimeout, ArithmeticError, ValueError):
                    pass
            if len(candidates) == 1 and sub_tail is not None and T in psi.free_symbols:
                try:
                    eng = sub_tail(g * N ** (-q), self.M)
                    candidates.append((eng.tail, f"c_{k} n^-{q}: {eng.certificate}"))
                except (NotCertified, StepTimeout, ArithmeticError, ValueError, TypeError):
                    pass
        widths = []
        for fn, _ in candidates:
            try:
                v = fn(self.M)
                widths.append(v.rad() if v.is_finite() else arb("inf"))
            except (NotCertified, ArithmeticError, ValueError):
                widths.append(arb("inf"))
        i = min(range(len(candidates)), key=lambda j: widths[j])
        if not widths[i].is_finite():
            raise NotCertified(f"no tail of the coefficient series c_{k}")
        return candidates[i]

    def _sup(self, c: sp.Expr, S: list[sp.Symbol], k: int) -> arb:
        """An upper bound of |c_k(S)| on [-1, 1]^m (interval evaluation)."""
        f = ComplexFunction(c, tuple(S))
        top = arb(0)
        for s in self.boxes:
            v = f(*s)
            if not v.is_finite():
                raise NotCertified(f"c_{k} is not bounded on [-1, 1]")
            top = top.max(abs(v).upper())
        return top

    def _positive_beyond(self) -> bool:
        """Psi(t, S) > 0 for 0 <= t <= t_M and real S in [-1, 1]^m (so b_n > 0 for n >= M)."""
        t = acb(arb(0).union(self.t_M))
        try:
            return all(self.psi(t, *s).real.lower() > 0 for s in self.boxes)
        except (NotCertified, ArithmeticError, ValueError):
            return False

    @ball_precision
    def term(self, n: int) -> arb:
        """Enclosure of b_n."""
        return term_ball(self.f, int(n))

    @ball_precision
    def tail(self, a: int) -> arb:
        """Enclosure of sum_{n >= a} b_n (a an integer >= n0)."""
        a = tail_start(a, self.n0)
        far = max(a, self.M)
        out = arb(0, (self.C * (self.pa + arb(self.K) / self.q).zeta(arb(far))).upper())
        for fn, _ in self.parts:
            out += fn(far)
        return out if a >= self.M else self.suffix[a - self.n0] + out
