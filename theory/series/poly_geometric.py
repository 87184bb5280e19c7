r"""Polynomial times geometric tails in closed form: :math:`b_n = n^k e^{a + c n}`, k a
positive integer, c < 0 (q = e^c).  With :math:`\operatorname{Li}_{-j}(q) = \sum_{i \ge 0}
i^j q^i = q A_j(q) / (1 - q)^{j+1}` (:math:`A_j` the Eulerian polynomial, j >= 1;
:math:`\operatorname{Li}_0 = 1/(1 - q)` counting i = 0),

.. math::
   \sum_{n \ge m} n^k q^n = q^m \sum_{j=0}^{k} \binom{k}{j} m^{k-j}
   \operatorname{Li}_{-j}(q),

a sum of positive terms (no cancellation) with :math:`1 - q = -\operatorname{expm1}(c)`
to full relative precision, so ``n**2*exp(-1e-100*n)`` (B ~ 2e300) is enclosed to working
precision.  TRF of Eq. 22 is the least i with :math:`R_i < \epsilon B`; the tail is
decreasing in i, so the crossing is found by bisection on proved comparisons.

>>> from theory.series.expressions import parse_expression as P
>>> t = PolyGeometricTail(P("n*exp(-n)"), 1)
>>> q = arb(-1).exp()
>>> t.tail(1).overlaps(q / (1 - q) ** 2)                 # Li_{-1}(1/e)
True
>>> t.trf(0.1, 10**6).value                              # R_i < B / 10 from i = 4 on
4
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import sympy as sp
from flint import arb, ctx

from theory.core.budget import step_budget
from theory.series.arb_eval import PREC, NotCertified, NotSupported, arb_function, ball_precision
from theory.series.expressions import N, log_of_positive_product
from theory.series.results import TRF

MAX_DEGREE = 64  # n^k with k above this is left to the other engines


def _eulerian(j: int) -> list[int]:
    """Coefficients of the Eulerian polynomial A_j (A_1 = 1, A_2 = 1 + q, A_3 = 1 + 4q + q^2)."""
    row = [1]
    for m in range(2, j + 1):
        row = [
            (i + 1) * (row[i] if i < len(row) else 0) + (m - i) * (row[i - 1] if i else 0)
            for i in range(m)
        ]
    return row


def _mag_bits(x: sp.Expr) -> int:
    """log2 |x| rounded up (0 for x = 0), a real sympy number."""
    v = mpmath.mpf(sp.N(x, 30))
    return 0 if not v else int(mpmath.mag(v))


class PolyGeometricTail:
    """The certified tail engine (``tail``, ``term``, ``n0``, ``nonneg_until``,
    ``certificate``, ``trf``) of :math:`n^k e^{a + c n}`, k >= 1, c < 0, from n0 >= 1 on."""

    @ball_precision
    def __init__(self, b: sp.Expr, n0: int):
        with step_budget(1.0):
            log_b = sp.expand(log_of_positive_product(b))
            k = log_b.coeff(sp.log(N))
            rest = sp.expand(log_b - k * sp.log(N))
            linear = rest.is_polynomial(N) and sp.diff(rest, N, 2) == 0
        if not (linear and k.is_Integer and 1 <= k <= MAX_DEGREE and int(n0) >= 1):
            raise NotCertified("not n^k times geometric")
        a, c = rest.coeff(N, 0), rest.coeff(N, 1)
        if not (a.is_number and c.is_number and a.is_real and c.is_real):
            raise NotCertified("not n^k times geometric: coefficients not real numbers")
        self.k, self.a_expr, self.c_expr, self.n0 = int(k), a, c, int(n0)
        # relative precision: the integer bits of a and c n, and -log2|c| (adjacent tails
        # differ by a factor ~ e^c, 1 - 1e-100 at c = -1e-100)
        self.extra_bits = max(0, _mag_bits(a)) + abs(_mag_bits(c)) + 64
        try:
            with _prec(PREC + self.extra_bits):
                self.c = arb_function(c)(arb(0))
        except (NotSupported, ArithmeticError, ValueError) as exc:
            raise NotCertified(f"not n^k times geometric: {exc}") from None
        if not self.c < 0:
            raise NotCertified("not n^k times geometric: the ratio exp(c) is not proved below 1")
        self.nonneg_until = 10**30  # every term is positive
        self._cache: dict = {}  # precision -> (a, c, [C(k,j) Li_(-j)(q)])
        self._B: dict = {}  # precision -> B
        self.certificate = (
            f"n^{k} times a geometric series: b_n = n^{k} exp({a} + ({c}) n); the tail from "
            "n = m is q^m sum_j C(k,j) m^(k-j) Li_(-j)(q), q = exp(c), Li_(-j)(q) = q A_j(q) / "
            "(1 - q)^(j+1) (Eulerian polynomials; 1 - q = -expm1(c)), closed form in ball "
            "arithmetic"
        )

    def _bits(self, m: int) -> int:
        """The working precision for m, rounded up to a multiple of 256 bits (so that the
        cached constants serve a whole range of m)."""
        bits = PREC + self.extra_bits + 2 * int(m).bit_length()
        return -(-bits // 256) * 256

    def _constants(self) -> tuple[arb, arb, list]:
        """(a, c, [C(k,j) Li_(-j)(q) for j = 0..k]) at the current precision; they do not
        depend on m, so they are computed once per precision (a TRF bisection to 10^300
        asks for about two thousand tails)."""
        bits = ctx.prec
        if bits not in self._cache:
            a, c = (arb_function(v)(arb(0)) for v in (self.a_expr, self.c_expr))
            q, one_minus_q = c.exp(), -c.expm1()
            lis = [1 / one_minus_q]
            for j in range(1, self.k + 1):
                A = sum((arb(e) * q**i for i, e in enumerate(_eulerian(j))), arb(0))
                lis.append(q * A / one_minus_q ** (j + 1))
            self._cache[bits] = (a, c, [arb(math.comb(self.k, j)) * v for j, v in enumerate(lis)])
        return self._cache[bits]

    def _tail(self, m: int) -> arb:
        """sum_{n >= m} b_n at the current precision."""
        a, c, lis = self._constants()
        M = arb(int(m))
        total = sum((M ** (self.k - j) * li for j, li in enumerate(lis)), arb(0))
        return (a + c * M).exp() * total

    @ball_precision
    def tail(self, m: int) -> arb:
        """An enclosure of sum_{n >= m} b_n (m >= n0)."""
        with _prec(self._bits(m)):
            return self._tail(m)

    @ball_precision
    def term(self, n: int) -> arb:
        with _prec(self._bits(n)):
            a, c = (arb_function(v)(arb(0)) for v in (self.a_expr, self.c_expr))
            return arb(int(n)) ** self.k * (a + c * arb(int(n))).exp()

    @ball_precision
    def trf(self, eps: float, exact_limit: int, head: Any = None) -> TRF | None:
        r"""TRF(eps) of Eq. 22: the least i >= 0 with :math:`R_i = \sum_{n \ge n_0 + i} b_n
        < \epsilon B` (eps the decimal as typed), by doubling and bisection on comparisons
        proved in ball arithmetic; a certified bracket where a comparison is undecided.
        None with a head (the caller searches it).  The integer is exact up to
        ``exact_limit`` (:data:`~theory.series.results.CLOSED_FORM_EXACT_LIMIT`), beyond it
        given to 30 digits."""
        if head is not None:
            return None
        e = sp.Rational(repr(eps))
        cap = 1 << 2048
        hi = 1
        while hi < cap and self._below(hi, e) is not True:
            hi <<= 1
        if hi >= cap:
            return TRF(eps, None, False, None, note="crossing beyond 2^2048 not enclosed")
        lo = hi >> 1  # R_lo < eps B not proved (or lo = 0: R_0 = B)
        lo = 0 if hi == 1 else lo
        while hi - lo > 1:
            mid = (lo + hi) // 2
            below = self._below(mid, e)
            if below is None:
                break
            lo, hi = (lo, mid) if below else (mid, hi)
        note = "closed form of the n^k q^n tail (Li_(-j)); crossing by proved bisection"
        if hi - lo > 1 or self._below(lo, e) is not False:
            return TRF(
                eps,
                None,
                False,
                None,
                note=note + ": certified bracket",
                lower_bound=lo + 1,
                upper_bound=hi,
            )
        j = hi
        log10 = math.log10(j) if j < 10**300 else float(mpmath.log10(mpmath.mpf(j)))
        if j <= exact_limit:
            return TRF(eps, j, True, log10, note=note)
        with mpmath.workdps(30):
            return TRF(eps, mpmath.mpf(j), False, log10, relative_accuracy=1e-12, note=note)

    def _below(self, i: int, e: sp.Rational) -> bool | None:
        """R_i < eps B proved (True), R_i >= eps B proved (False), else None."""
        with _prec(self._bits(self.n0 + i) + 64):
            if ctx.prec not in self._B:
                self._B[ctx.prec] = self._tail(self.n0)
            B, R = self._B[ctx.prec], self._tail(self.n0 + i)
            target = B * arb(int(e.p)) / arb(int(e.q))
            if R < target:
                return True
            if R >= target:
                return False
            return None


class _prec:
    """python-flint at ``bits`` bits inside the block (restored afterwards)."""

    def __init__(self, bits: int):
        self.bits = bits

    def __enter__(self):
        self.old, ctx.prec = ctx.prec, self.bits

    def __exit__(self, *exc):
        ctx.prec = self.old
