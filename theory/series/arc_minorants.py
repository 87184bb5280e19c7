r"""A trigonometric minorant of positive mean for a nonnegative continuous function of an angle.

For a factor :math:`f(n) = h(an)` with :math:`h \ge 0` a :math:`2\pi`-periodic function of
:math:`\theta` built from :math:`\sin, \cos` of :math:`\theta + c` (``exp(-1/Abs(sin(n)))``), the
search finds an arc :math:`I = \{\theta : \cos(\theta - \theta_0) \ge t_0\}` of half-width
:math:`\delta = \arccos t_0` on which ball arithmetic proves :math:`h \ge c > 0`, and

.. math::
   h \ge c\,\mathbf 1_I \ge c\, q(\cos(\theta - \theta_0)),\qquad
   q(u) = \frac{u - t_0}{1 - t_0}\Big(\frac{1 + u}{2}\Big)^m :

on :math:`[t_0, 1]` both factors of q lie in [0, 1], so :math:`q \le 1`; on
:math:`[-1, t_0)` the first factor is negative and the second nonnegative, so
:math:`q \le 0 \le h`.  With :math:`\cos^j\varphi = 2^{-j}\sum_i \binom{j}{i}\cos((j-2i)\varphi)`
q is a cosine polynomial :math:`\sum_{k \le m+1} d_k \cos(k\varphi)` with exact rational
:math:`d_k`; :math:`d_0` is its mean over a uniformly distributed angle (exact), and the partial
sums of :math:`c\,q(\cos(an - \theta_0))` are at least
:math:`c\,d_0 N - c\sum_{k\ge1} |d_k|/|\sin(ka/2)|` (Dirichlet's bound on
:math:`\sum_{n\le N} e^{ikan}`): the weighted fraction of angles :math:`an \bmod 2\pi` in I is
at least :math:`d_0` up to that discrepancy term.

>>> import sympy as sp
>>> from theory.series.expressions import parse_expression as P
>>> q = cosine_series(sp.Rational(1, 2), 3)
>>> q[0], sum(q.values())                 # the mean, and q(1) = 1
(5/32, 1)
>>> m = arc_minorant(P("exp(-1/Abs(sin(n)))"))
>>> m.c > 0 and m.mean > 0
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import sympy as sp
from flint import arb

from theory.series.arb_eval import NotSupported, arb_function
from theory.series.expressions import N

THETA = sp.Symbol("theta", real=True)
#: (t0, m): arcs cos(theta - theta0) >= t0 tried (half-widths pi/2, pi/3, 0.72, 0.51), each
#: with a degree m of ((1 + u)/2)^m near the largest mean d_0 (:func:`cosine_series`:
#: 1/4, 21/128, 0.112, 0.074)
ARCS = (
    (sp.Integer(0), 1),
    (sp.Rational(1, 2), 4),
    (sp.Rational(3, 4), 10),
    (sp.Rational(7, 8), 16),
)
#: narrower arcs, tried only when none of ARCS has h proved positive on it (h positive on
#: a short arc only: ``Max(0, -sin(n) - 99/100)``), each with m near the largest mean
NARROW_ARCS = (
    (sp.Rational(15, 16), 32),
    (sp.Rational(63, 64), 128),
    (sp.Rational(255, 256), 512),
    (sp.Rational(1023, 1024), 2048),
)
NARROW_GRID = 4096  # candidate centres of the narrow arcs
GRID = 64  # candidate centres theta0 = 2 pi j / GRID
CENTRES = 8  # of which those where h is largest on a window are tried
WINDOW = 4  # grid steps each side (0.39 rad)
PIECES = 16  # sub-intervals of the arc on which h is enclosed


@dataclass
class ArcMinorant:
    """f(n) >= p(n) = c q(cos(a n - theta0)); ``mean`` = c d_0."""

    a: sp.Expr
    theta0: sp.Expr
    t0: sp.Expr
    m: int
    c: sp.Rational
    coeffs: dict

    @property
    def mean(self) -> sp.Expr:
        return self.c * self.coeffs[0]

    def polynomial(self) -> sp.Expr:
        """p(n) as a cosine polynomial in a n - theta0."""
        phi = self.a * N - self.theta0
        return self.c * sp.Add(*[d * sp.cos(k * phi) for k, d in self.coeffs.items()])

    def note(self, f: sp.Expr) -> str:
        delta = math.acos(float(self.t0))
        return (
            f"{f} = h(theta) at theta = {self.a * N} with h >= 0 wherever defined (by its "
            f"structure) and h >= c = {self.c} on the arc I = [{self.theta0} - d, "
            f"{self.theta0} + d], d = acos({self.t0}) = {delta:.4f} (ball arithmetic on "
            f"{PIECES} pieces): h >= c 1_I >= c q(cos(theta - {self.theta0})) with "
            f"q(u) = (u - {self.t0})/(1 - {self.t0}) ((1 + u)/2)^{self.m} <= 1_(u >= "
            f"{self.t0}), degree K = {self.m + 1}, mean of q over a uniform angle "
            f"{_exact(self.coeffs[0])} (exact; the arc is a fraction {delta / math.pi:.4f} of the "
            f"circle), so the minorant has mean {_exact(self.mean)} = {float(self.mean):.4g} > 0 "
            "and its "
            "partial sums are >= mean N - c sum_k |d_k|/|sin(k a/2)|"
        )


def _exact(r: sp.Rational) -> str:
    """An exact rational as printed: p/q when short, else its numerator's and denominator's
    number of digits beside (the value is computed exactly all the same)."""
    text = str(r)
    if len(text) <= 48:
        return text
    p, q = sp.fraction(r)
    return f"a rational of {len(str(p))}/{len(str(q))} digits"


def cosine_series(t0: sp.Expr, m: int) -> dict:
    r"""{k: d_k}: q(cos phi) = sum_k d_k cos(k phi) exactly, q as in the module docstring.

    With :math:`(1 + \cos\varphi)/2 = \cos^2(\varphi/2)`,
    :math:`\cos^{2m}(\varphi/2) = 4^{-m}\big(\binom{2m}{m} + 2\sum_{k=1}^m \binom{2m}{m-k}
    \cos k\varphi\big)`, and the factor :math:`u - t_0` shifts each
    :math:`\cos k\varphi` by :math:`\cos\varphi\cos k\varphi = (\cos(k+1)\varphi +
    \cos(k-1)\varphi)/2`: O(m) exact operations."""
    t = Fraction(int(t0.p), int(t0.q))
    scale = 4**m
    a = {0: Fraction(math.comb(2 * m, m), scale)}
    for k in range(1, m + 1):
        a[k] = Fraction(2 * math.comb(2 * m, m - k), scale)
    d: dict = {}
    for k, v in a.items():
        for j in (k + 1, abs(k - 1)):
            d[j] = d.get(j, 0) + v / 2
        d[k] = d.get(k, 0) - t * v
    return {
        k: sp.Rational(v.numerator, v.denominator) / (1 - t0)
        for k, v in sorted(d.items())
        if v != 0 or k == 0
    }


def _real(e: sp.Expr) -> bool:
    """e is real wherever it is defined (structure only)."""
    if e.is_number or e.is_Symbol:
        return e.is_real is True
    if isinstance(e, (sp.sin, sp.cos, sp.exp, sp.Abs, sp.Max, sp.Min, sp.Add, sp.Mul)):
        return all(_real(x) for x in e.args)
    if isinstance(e, sp.log):
        return nonneg_where_defined(e.args[0])
    if isinstance(e, sp.Pow):
        base, ex = e.args
        return (_real(base) and ex.is_integer is True) or (nonneg_where_defined(base) and _real(ex))
    return False


def nonneg_where_defined(e: sp.Expr) -> bool:
    """e >= 0 at every point where it is defined (structure only: exp of a real, Abs,
    even powers, powers of nonnegatives, sums and products of nonnegatives, Max with a
    nonnegative argument)."""
    if e.is_number:
        return e.is_nonnegative is True
    if isinstance(e, (sp.exp, sp.Abs)):
        return _real(e.args[0])
    if isinstance(e, sp.Pow):
        base, ex = e.args
        even = ex.is_integer is True and ex.is_even is True
        return (nonneg_where_defined(base) and _real(ex)) or (even and _real(base))
    if isinstance(e, (sp.Add, sp.Mul, sp.Min)):
        return all(nonneg_where_defined(x) for x in e.args)
    if isinstance(e, sp.Max):
        return all(_real(x) for x in e.args) and any(nonneg_where_defined(x) for x in e.args)
    return False


def angle_function(f: sp.Expr) -> tuple[sp.Expr, sp.Expr] | None:
    """(a, h) with f(n) = h(a n), h a 2 pi-periodic function of THETA: n occurs only in
    sin/cos(a_j n + c_j) with every a_j / a a nonzero integer (for rational a_j, a is their
    gcd: ``sin(2*n)*sin(3*n)`` has a = 1)."""
    atoms = [t for t in f.atoms(sp.sin, sp.cos) if t.has(N)]
    if not atoms or f.subs({t: sp.Dummy() for t in atoms}).has(N):
        return None
    slopes = []
    for t in atoms:
        arg = sp.expand(t.args[0])
        a, c = arg.coeff(N), sp.expand(arg - arg.coeff(N) * N)
        if c.has(N) or a.has(N) or not (a.is_real and c.is_real) or a.is_zero is not False:
            return None
        slopes.append(a)
    if all(s.is_Rational for s in slopes):  # sin(2n) sin(3n): theta = n, the rational gcd
        a = sp.Rational(
            math.gcd(*(int(s.p) for s in slopes)), math.lcm(*(int(s.q) for s in slopes))
        )
    else:
        a = min(slopes, key=lambda s: abs(float(s)))
    if not all(sp.simplify(s / a).is_Integer for s in slopes):
        return None
    return a, f.subs(N, THETA / a)


def _centres(h: sp.Expr, grid: int = GRID, window: int = WINDOW) -> list:
    """Candidate centres theta0 = 2 pi j / grid: the CENTRES largest by the minimum of h
    (mpmath, 30 digits) over the grid points within ``window`` steps of j."""
    hf = sp.lambdify(THETA, h, modules="mpmath")
    vals = []
    with mpmath.workdps(30):
        for j in range(grid):
            try:
                v = complex(hf(2 * mpmath.pi * j / grid))
            except (ZeroDivisionError, ValueError, OverflowError, TypeError):
                v = complex(-1)
            ok = math.isfinite(v.real) and abs(v.imag) < 1e-20
            vals.append(v.real if ok else -1.0)
    score = [min(vals[(j + i) % grid] for i in range(-window, window + 1)) for j in range(grid)]
    best = sorted(((score[j], j) for j in range(grid) if score[j] > 0), reverse=True)
    return [2 * sp.pi * j / grid for _, j in best[:CENTRES]]


def _lower_bound(hb, theta0: sp.Expr, t0: sp.Expr) -> sp.Rational | None:
    """A rational c > 0 with h >= c on [theta0 - d, theta0 + d], d = acos(t0), or None."""
    d = (arb(int(t0.p)) / int(t0.q)).acos()
    lo, width = arb_function(theta0)(arb(0)) - d, 2 * d / PIECES
    low = None
    for i in range(PIECES):
        piece = (lo + i * width).union(lo + (i + 1) * width)
        try:
            v = hb(piece)
        except (ArithmeticError, ValueError, NotSupported):
            return None  # a branch (Abs, Max) undecided or h undefined on the piece
        if not (v.is_finite() and v > 0):
            return None
        low = v.lower() if low is None or v.lower() < low else low
    scale = 10 ** (3 - math.floor(math.log10(float(low))))  # four significant digits
    c = sp.Rational(math.floor(float(low) * scale * (1 - 1e-9)), scale)
    return c if c > 0 and low >= arb(int(c.p)) / int(c.q) else None


def arc_minorant(f: sp.Expr) -> ArcMinorant | None:
    """The arc minorant of largest mean over ARCS, or None (f not of the form h(a n) with
    h >= 0, or no arc where h is proved positive)."""
    ah = angle_function(f)
    if ah is None or not nonneg_where_defined(ah[1]):
        return None
    a, h = ah
    try:
        hb = arb_function(h.subs(THETA, N))
    except NotSupported:
        return None
    best = None
    for theta0 in _centres(h):
        for t0, m in ARCS:
            c = _lower_bound(hb, theta0, t0)
            if c is not None:
                cand = ArcMinorant(a, theta0, t0, m, c, cosine_series(t0, m))
                if best is None or cand.mean > best.mean:
                    best = cand
    for t0, m in NARROW_ARCS if best is None else ():
        half = math.acos(float(t0))  # the arc's half-width; centres scored on 0.8 of it
        window = max(1, int(0.8 * half * NARROW_GRID / (2 * math.pi)))
        for theta0 in _centres(h, NARROW_GRID, window):
            c = _lower_bound(hb, theta0, t0)
            if c is not None:
                return ArcMinorant(a, theta0, t0, m, c, cosine_series(t0, m))
    return best
