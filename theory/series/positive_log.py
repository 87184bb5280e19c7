r"""The logarithm of a positive term that is written with negative factors
(``-log(1 - 1/n**2)``, ``-log(cos(1/n))``), as a real expression.

sympy's ``expand_log(log(b), force=True)`` writes :math:`\log(-\log(1 - n^{-2}))` as
:math:`i\pi + \log\log(1 - n^{-2})`: formally right, but neither summand is real.  For
principal logarithms every expansion step keeps the modulus and the argument modulo
:math:`2\pi` (:math:`|xy| = |x||y|`, :math:`|x^p| = |x|^p` for real p), so for the
expansion :math:`E = \sum_j c_j \log X_j + i\pi k + R` of :math:`\log b`

.. math::
   \log |b| = \operatorname{Re} E = \sum_j c_j \log |X_j| + R, \qquad
   \arg b \equiv \pi \Bigl(k + \sum_{X_j < 0} c_j\Bigr) \pmod{2\pi}.

So where every :math:`X_j` that is negative appears only as a summand :math:`c_j \log X_j`
with rational :math:`c_j`, and :math:`k + \sum_{X_j<0} c_j` is an even integer, b is
positive and :math:`\log b = \sum_j c_j \log(\pm X_j) + R` with the sign making each
argument positive.  The signs are read at one far point; a caller evaluating the result on
an interval where some :math:`-X_j` is not positive gets an undefined ball (arb's log), never
a wrong value.  An odd total (b negative, ``-1/n**2``) or a non-constant imaginary part
(``(-1)**n/n**2``) is refused.

>>> from theory.series.expressions import parse_expression as P
>>> log_of_positive(P("-log(1 - 1/n**2)"))
log(-log(1 - 1/n**2))
>>> log_of_positive(P("n**(-2)"))
-2*log(n)
>>> log_of_positive(P("1/log(1 - 1/n**2)**2"))      # no I, but log of a negative number
-2*log(-log(1 - 1/n**2))
>>> log_of_positive(P("-1/n**2"))
Traceback (most recent call last):
...
theory.series.arb_eval.NotCertified: log b_n = -2*log(n) + I*pi: b_n is negative far out (its argument is pi)
"""

from __future__ import annotations

import sympy as sp
from flint import arb, ctx

from theory.series.arb_eval import NotCertified, NotSupported, Undecided, arb_function
from theory.series.expressions import N, log_of_positive_product

#: the far point where the signs of the logarithms' arguments are read
SIGN_POINT = 2**64


def log_of_positive(b: sp.Expr) -> sp.Expr:
    """``expand_log(log(b), force=True)`` (log taken into Piecewise branches) written as a real expression when b is positive
    (see the module text); the expansion unchanged when it is already real.  Raises
    :class:`NotCertified` when it cannot be made real or b is not positive far out."""
    if b.has(sp.Piecewise):
        expanded = sp.expand_log(sp.piecewise_fold(sp.log(b)), force=True)
    else:  # factor by factor: expand_log loops on log(sin(10)**(2*n))
        expanded = log_of_positive_product(b)
    if not expanded.has(sp.I) and not any(_negative_far(a.args[0]) for a in expanded.atoms(sp.log)):
        return expanded
    k, body = sp.Integer(0), []
    for t in sp.Add.make_args(expanded):
        if t.has(sp.I):
            c = sp.nsimplify(t / (sp.I * sp.pi)) if not t.has(N) else None
            if c is None or not c.is_Rational:
                raise NotCertified(f"log b_n = {expanded} is not real (terms not of one sign)")
            k += c
        else:
            body.append(t)
    rest = sp.Add(*body)
    flips = {}
    for atom in rest.atoms(sp.log):
        if _negative_far(atom.args[0]):
            c = rest.coeff(atom)
            if not c.is_Rational or (rest - c * atom).has(atom):
                raise NotCertified(f"log b_n = {expanded}: the negative {atom.args[0]} is nested")
            k += c
            flips[atom] = sp.log(sp.expand(-atom.args[0]))
    if not (k % 2 == 0):
        raise NotCertified(
            f"log b_n = {expanded}: b_n is negative far out (its argument is pi)"
            if k % 2 == 1
            else f"log b_n = {expanded} is not real far out"
        )
    return rest.xreplace(flips)


def _negative_far(x: sp.Expr) -> bool:
    """x < 0 at n = SIGN_POINT (ball arithmetic), False where undecided or not evaluable."""
    old = ctx.prec
    try:
        ctx.prec = 512
        v = arb_function(x)(arb(SIGN_POINT)) if x.has(N) else arb_function(x)(arb(1))
        return bool(v < 0)
    except (NotSupported, Undecided, ArithmeticError, ValueError, TypeError):
        return False
    finally:
        ctx.prec = old
