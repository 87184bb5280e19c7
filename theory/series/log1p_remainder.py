r"""The remainder of the logarithm's series, a primitive that ball arithmetic encloses
tightly on wide balls.

.. math::
   \psi_k(t) = \frac{\log(1 + t) - \sum_{j<k} (-1)^{j+1} t^j/j}{t^k}
   = (-1)^{k-1} \int_0^1 \frac{u^{k-1}}{1 + t u}\,du
   = \sum_{i \ge 0} \frac{(-1)^{k+i+1}\, t^i}{k + i}, \qquad t > -1,

(the integral from :math:`\log(1+t) = \int_0^1 t\,du/(1 + tu)` and the geometric sum of
:math:`1/(1 + tu)` to k - 1 terms).  Every derivative
:math:`\psi_k^{(m)}(t) = (-1)^{k-1+m} m! \int_0^1 u^{k-1+m} (1 + tu)^{-m-1}\,du` is monotone
in t, so on a ball its enclosure is the hull of the values at the two ends, each computed
at an exact point: there is no dependency problem.  A term such as
:math:`(1 + 1/n)^{n^2} e^{-n}/n^2` is :math:`e^{\psi_2(1/n)}/n^2`: evaluated as written, its
exponent :math:`n^2 \log(1 + 1/n) - n` on the box [10, 20] is the difference of two
intervals 30 wide, and :math:`e^{\pm 30}` is no enclosure at all.

At an exact point with :math:`|t| \le 1/4` the series is summed to I terms, with
:math:`\sum_{i \ge I} \binom{i}{m} |t|^{i-m}/(k + i) \le 2 \binom{I}{m} |t|^{I-m}` added to
the m-th coefficient (consecutive terms shrink by at most :math:`|t|(I+1)/(I+1-m) \le 1/2`
for :math:`I \ge 2m`); elsewhere the closed form is evaluated in ball arithmetic.

>>> from flint import arb
>>> t = arb(1) / 8                                     # exact; (log(9/8) - 1/8)/(1/64)
>>> v = log1p_remainder(2, t)
>>> bool(abs(v - ((1 + t).log() - t) / t**2) < 1e-13 and v.rad() < 1e-14)
True
>>> w = log1p_remainder(2, arb(1) / 20 + arb(0).union(arb(1) / 20))   # t in [1/20, 1/10]
>>> bool(w.lower() > -0.4840 and w.upper() < -0.4689)   # psi_2(1/20) = -0.48393..., psi_2(1/10) = -0.46898...
True
"""

from __future__ import annotations

import math

import sympy as sp
from flint import arb, arb_series, ctx

#: the largest absolute value of t at which an exact point is summed as a series (the closed
#: form beyond)
SERIES_RADIUS = arb(1) / 4


class Log1pRemainder(sp.Function):
    """psi_k(t) (module doc) as a sympy function of (k, t), k a positive integer; it only
    carries the form to :mod:`theory.series.arb_eval`, nothing symbolic is done with it."""

    nargs = 2

    @classmethod
    def eval(cls, k: sp.Expr, t: sp.Expr) -> None:
        if not (k.is_Integer and k > 0):
            raise ValueError("Log1pRemainder needs a positive integer order k")
        return None

    def fdiff(self, argindex: int = 2) -> sp.Expr:
        """d psi_k/dt = ((-1)^(k-1)/(1 + t) - k psi_k)/t, from t^k psi_k = log(1 + t) - P(t)
        and P'(t) = (1 - (-t)^(k-1))/(1 + t)."""
        if argindex != 2:
            raise sp.ArgumentIndexError(self, argindex)
        k, t = self.args
        return ((-1) ** (k - 1) / (1 + t) - k * self) / t


def log1p_with_remainder(r: sp.Expr, k: int) -> sp.Expr:
    """log(1 + r) = sum_(j<k) (-1)^(j+1) r^j/j + r^k psi_k(r), exactly (module doc)."""
    head = sp.Add(*[sp.Integer(-1) ** (j + 1) * r**j / j for j in range(1, k)])
    return head + r**k * Log1pRemainder(sp.Integer(k), r)


#: point series already computed: (k, exact t, length, precision) -> coefficients
_POINTS: dict = {}


def _point_series(k: int, t: arb, length: int) -> list:
    """[psi_k^(m)(t)/m!, m < length] at an exact point t > -1 (kept: the boxes of an
    enclosure share their ends)."""
    man, exp = t.mid().man_exp()
    key = (k, int(man), int(exp), length, ctx.prec)
    if key not in _POINTS:
        if len(_POINTS) > 100000:
            _POINTS.clear()
        _POINTS[key] = _point_series_uncached(k, t, length)
    return _POINTS[key]


def _point_series_uncached(k: int, t: arb, length: int) -> list:
    if abs(t) <= SERIES_RADIUS:
        terms = _series_terms(abs(t), length)
        h = arb_series([t, 1], prec=length)
        total = arb_series([arb(0)], prec=length)
        for i in range(terms - 1, -1, -1):  # Horner in (t + h)
            total = total * h + arb((-1) ** (k + i + 1)) / (k + i)
        coeffs = total.coeffs() + [arb(0)] * (length - len(total.coeffs()))
        at = abs(t)
        return [
            c + arb(0).union(2 * math.comb(terms, m) * at ** (terms - m)) * arb(1).union(-1)
            for m, c in enumerate(coeffs[:length])
        ]
    h = arb_series([t, 1], prec=length)
    head = arb_series([arb(0)], prec=length)
    for j in range(1, k):
        head = head + arb((-1) ** (j + 1)) / j * _series_pow(h, j, length)
    out = ((1 + h).log() - head) / _series_pow(h, k, length)
    return out.coeffs() + [arb(0)] * (length - len(out.coeffs()))


def _series_terms(at: arb, length: int) -> int:
    """The least I >= 2 (length - 1) + 1 with 2 C(I, m) |t|^(I - m) < 2^-(prec + 8) for every
    m < length (log2 estimates in floats with a margin; the bound added is exact anyway)."""
    bits = -float(at.upper().log()) / math.log(2) if at > 0 else math.inf
    need = ctx.prec + 8
    terms = max(2 * (length - 1) + 1, 1)
    while True:
        worst = max(1 + math.log2(math.comb(terms, m)) - (terms - m) * bits for m in range(length))
        if worst < -need or terms > 4 * need + 2 * length:
            return terms
        terms += 1 + terms // 8


def _series_pow(h: arb_series, j: int, length: int) -> arb_series:
    out = arb_series([arb(1)], prec=length)
    for _ in range(j):
        out = out * h
    return out


def _coefficients(k: int, x: arb, length: int) -> list:
    """Enclosures of psi_k^(m)(xi)/m! for every xi in the ball x (monotone: hull of the
    values at the ends)."""
    if not x.is_finite() or not x > -1:
        return [arb("nan")] * length
    lo, hi = arb(x.lower()), arb(x.upper())
    a = _point_series(k, lo, length)
    if lo == hi:
        return a
    b = _point_series(k, hi, length)
    return [p.union(q) for p, q in zip(a, b)]


def log1p_remainder(k: int, x: arb | arb_series) -> arb | arb_series:
    """psi_k at an arb ball or an arb_series x (its constant term a ball)."""
    if isinstance(x, arb):
        return _coefficients(k, x, 1)[0]
    coeffs = x.coeffs()
    length = x.prec
    x0 = coeffs[0] if coeffs else arb(0)
    c = _coefficients(k, x0, length)
    # y = x - x0 with the constant term exactly 0: psi(x0 + y) = sum c_m y^m to the length
    y = arb_series([arb(0)] + list(coeffs[1:]), prec=length)
    if any(not v.is_zero() for v in coeffs[1:]):  # python-flint refuses to compose with y = 0
        return arb_series(c, prec=length)(y)
    return arb_series([c[0]], prec=length)
