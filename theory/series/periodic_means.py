r"""The mean of an analytic periodic factor, for Dirichlet's test beyond trigonometric
polynomials: :math:`p(n) = H(w n)`, w a nonzero rational, H :math:`2\pi`-periodic and
analytic in a strip :math:`|\operatorname{Im} x| \le \rho` (``exp(cos(n))*sin(n)``,
``cos(n)/(2 + sin(n))``).

With :math:`H(x) = \sum_j c_j e^{ijx}` and :math:`|H| \le M` on the strip,
:math:`|c_j| \le M e^{-\rho |j|}` (:mod:`theory.series.fourier_tail`, which proves the strip
and M on complex boxes).  The partial sums of :math:`e^{ijwn}` are at most
:math:`1/|\sin(jw/2)|`, and as :math:`\pi` has a finite irrationality measure
:math:`\mu` (Mahler 1953; :math:`\mu \le 7.11`, Zeilberger and Zudilin 2020) while jw/2 is
rational, :math:`|\sin(jw/2)| \ge C |j|^{1-\mu}`; so

.. math::
   \Bigl|\sum_{n \le N} \bigl(p(n) - c_0\bigr)\Bigr|
   \le \sum_{j \ne 0} \frac{M e^{-\rho|j|}}{|\sin(jw/2)|} < \infty

for every N: the partial sums of :math:`p - c_0` are bounded, and with g monotone to 0,
:math:`\sum g(n) p(n)` has the verdict of :math:`c_0 \sum g(n)` (Dirichlet's test).  The
mean :math:`c_0` is proved 0 by a symmetry that flips H (a reflection :math:`x \to c - x`,
c in {0, pi/2, pi, 3 pi/2}, or :math:`x \to x + \pi`), or proved nonzero by the trapezoid rule with
its aliasing bound; otherwise nothing is said.  A sign (-1)^n shifts every frequency by pi:
:math:`(-1)^n H(wn)` has mean 0 and bounded partial sums (:math:`|\cos(jw/2)| \ge C
|j|^{1-\mu}` likewise).

>>> from theory.series.expressions import parse_expression as P
>>> analytic_periodic_mean(P("exp(cos(n))*sin(n)")).zero
True
>>> analytic_periodic_mean(P("(-1)**n*exp(cos(n))")).zero    # frequencies j + pi
True
>>> m = analytic_periodic_mean(P("cos(n)*exp(cos(n))"))   # I_1(1) = 0.5651591...
>>> m.zero, m.mean[:8]
(False, '[0.56515')
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import NotCertified, NotSupported
from theory.series.expressions import N
from theory.series.fourier_tail import FourierTail, periodic_part

#: CPU seconds for each symmetry check
SYMMETRY_SECONDS = 1.0


@dataclass
class PeriodicMean:
    """``zero``: the mean c_0 is proved 0 (else proved nonzero, of sign ``sign``);
    ``mean``: its enclosure as text; ``certificate``: why the partial sums of p - c_0 stay
    bounded (module doc)."""

    zero: bool
    sign: int
    mean: str
    certificate: str


def _vanishes(e: sp.Expr) -> bool:
    try:
        with step_budget(SYMMETRY_SECONDS):
            return sp.simplify(e) == 0
    except (StepTimeout, TypeError, ValueError):
        return False


def _without_sign(p: sp.Expr) -> tuple[bool, sp.Expr]:
    """(True, q) for p = (-1)**n q, else (False, p)."""
    sign = sp.Pow(-1, N)
    factors = sp.Mul.make_args(p)
    if sign in factors:
        return True, sp.Mul(*[f for f in factors if f != sign])
    return False, p


def analytic_periodic(p: sp.Expr) -> FourierTail | None:
    """The Fourier data of p = H(w n), w a nonzero rational, H analytic in a strip (proved
    on complex boxes); None where p is not of that form.  Such a p that is not 0 at every
    integer does not tend to 0: H is continuous and not 0 everywhere, and n w mod 2 pi comes
    back near each angle infinitely often (w/(2 pi) is irrational)."""
    p = _without_sign(p)[1]  # |(-1)^n H(w n)| = |H(w n)|
    if not p.has(sp.sin, sp.cos):
        return None
    w = periodic_part(p)
    if w is None or not (w.is_Rational and w != 0):
        return None
    try:
        with step_budget(5.0):
            return FourierTail.power(p, 2)
    except (NotCertified, NotSupported, StepTimeout, ArithmeticError, ValueError, TypeError):
        return None


def analytic_periodic_mean(p: sp.Expr) -> PeriodicMean | None:
    """The mean of p = H(w n) with its proof (module doc); None where p is not of the form
    (no angle, w not a nonzero rational, no strip of analyticity) or the mean is neither
    proved 0 nor proved nonzero."""
    fourier = analytic_periodic(p)
    if fourier is None:
        return None
    sign, p = _without_sign(p)
    w = periodic_part(p)
    mu = fourier.fit[0]
    if sign:  # (-1)^n c_j e^(i j w n) = c_j e^(i (j w + pi) n): no frequency in 2 pi Z
        return PeriodicMean(
            True,
            0,
            "0",
            f"p(n) = (-1)^n H(w n), w = {w}, H = {p} (n -> x/w) 2 pi-periodic and analytic in "
            f"the strip |Im x| <= {float(fourier.rho):g}, |H| <= "
            f"{fourier.M.str(5, radius=False)} there, so |c_j| <= M e^(-rho |j|); (-1)^n "
            "e^(i j w n) = e^(i (j w + pi) n) with partial sums at most 1/|cos(j w/2)| >= C "
            "|j|^(1 - mu) (pi has a finite irrationality measure mu; w rational, so j w + pi is "
            "never in 2 pi Z): the partial sums of p are bounded, c_0 = 0",
        )
    why = (
        f"p(n) = H(w n), w = {w}, H = {p} (n -> x/w) 2 pi-periodic and analytic in the strip "
        f"|Im x| <= {float(fourier.rho):g}, |H| <= {fourier.M.str(5, radius=False)} there, so "
        "|c_j| <= M e^(-rho |j|); partial sums of e^(i j w n) at most 1/|sin(j w/2)| >= C "
        "|j|^(1 - mu) (pi has a finite irrationality measure mu; w rational): the partial sums "
        "of p - c_0 are bounded by sum_(j != 0) |c_j|/|sin(j w/2)| < oo"
    )
    for c in (0, sp.pi / 2, sp.pi, 3 * sp.pi / 2):  # a reflection x -> c - x that flips H
        if _vanishes(p.subs(N, c / w - N) + p):
            how = "H is odd (p(-n) = -p(n))" if c == 0 else f"H({c} - x) = -H(x)"
            return PeriodicMean(True, 0, "0", f"{why}; c_0 = 0 as {how}")
    if _vanishes(p.subs(N, N + sp.pi / w) + p):
        return PeriodicMean(True, 0, "0", f"{why}; c_0 = 0 as H(x + pi) = -H(x)")
    if mu > 0 or mu < 0:
        text = mu.str(10)
        return PeriodicMean(
            False,
            1 if mu > 0 else -1,
            text,
            why + f"; c_0 = {text} != 0 (trapezoid rule, {len(fourier.values)} nodes, with its "
            "aliasing bound)",
        )
    return None
