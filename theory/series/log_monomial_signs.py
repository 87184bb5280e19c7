r"""Signs of products of sums of monomials in :math:`n`, :math:`\log n` and
:math:`\log\log n`, proved on a whole half-line.

sympy's assumptions know that :math:`n > 0` but not that :math:`\log\log n > 0` for
:math:`n \ge 3`, nor that :math:`n \log^2 n - 1 > 0` there.  With :math:`x = n`,
:math:`y = \log n`, :math:`z = \log\log n`, all positive and increasing for
:math:`n \ge n_1` (:math:`n_1 = 2` where y occurs, 3 where z does), a sum of monomials
:math:`c\,x^a y^b z^d` is nondecreasing in n when every monomial with :math:`c > 0` has
:math:`a, b, d \ge 0` and every one with :math:`c < 0` has :math:`a, b, d \le 0`; then its
value at :math:`n_1`, if positive in ball arithmetic, proves it positive for every real
:math:`n \ge n_1`.  A sum of monomials all with :math:`c > 0` is positive outright.  A
product of such factors (to any real power) has the sign of its constant.

>>> from theory.series.expressions import parse_expression as P
>>> log_monomial_sign(P("-log(log(n))/(n*(log(n)**2 + log(log(n)))*log(n)**2)"), 1)
(-1, 3)
>>> log_monomial_sign(P("1/(n*(n*log(n)**2 - 1)*log(n)**2)"), 1)   # 3 log(3)^2 - 1 > 0
(1, 3)
>>> log_monomial_sign(P("log(n)**2 - n"), 1) is None                # not monotone
True
"""

from __future__ import annotations

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import NotSupported, Undecided, arb_function, ball_precision
from theory.series.expressions import N

#: CPU seconds for expanding the factors
EXPAND_SECONDS = 1.0

#: later starts tried where a factor is not yet positive at the first
LATER = (4, 8, 16, 64)

_X, _Y, _Z = (sp.Dummy(s, positive=True) for s in "xyz")
_L1 = sp.log(N)
_L2 = sp.log(sp.log(N))


def _exponents(m: sp.Expr) -> tuple[sp.Expr, list] | None:
    """(c, [a, b, d]) of a monomial c x^a y^b z^d (numbers), or None."""
    c, rest = m.as_coeff_Mul()
    powers = rest.as_powers_dict() if rest != 1 else {}
    if not c.is_number or any(k not in (_X, _Y, _Z) for k in powers):
        return None
    out = [powers.get(s, sp.Integer(0)) for s in (_X, _Y, _Z)]
    if not all(e.is_number and e.is_real for e in out):
        return None
    return c, out


def _positive_from(g: sp.Expr, at: int) -> int | None:
    """The first of at, at + 1, at + 2 and :data:`LATER` from which g(x, y, z) > 0 for
    every real n (module doc), or None."""
    try:
        with step_budget(EXPAND_SECONDS):
            monomials = sp.Add.make_args(sp.expand(g))
    except StepTimeout:
        return None
    signs = []
    for m in monomials:
        parts = _exponents(m)
        if parts is None:
            return None
        c, ex = parts
        if c > 0 and all(e >= 0 for e in ex):
            signs.append(1)
        elif c < 0 and all(e <= 0 for e in ex):
            signs.append(-1)
        else:
            return None
    if all(s > 0 for s in signs):
        return at
    back = g.xreplace({_X: N, _Y: _L1, _Z: _L2})
    for n in (at, at + 1, at + 2, *(m for m in LATER if m > at + 2)):
        try:
            if _value(back, n) > 0:
                return n
        except (NotSupported, Undecided, ArithmeticError, ValueError, TypeError):
            return None
    return None


@ball_precision
def _value(e: sp.Expr, n: int) -> arb:
    return arb_function(e)(arb(n))


def log_monomial_sign(b: sp.Expr, n0: int) -> tuple[int, int] | None:
    """(sign, n1): b has the sign ``sign`` (1 or -1) at every integer n >= n1 >= n0, b
    a product of powers of positive sums of monomials in n, log(n), log(log(n)) (module
    doc); None where that is not proved."""
    atoms = b.atoms(sp.Function)
    if not atoms <= {_L1, _L2} or b.free_symbols - {N}:
        return None
    n1 = max(n0, 1, 2 if b.has(_L1) else 1, 3 if b.has(_L2) else 1)
    e = b.xreplace({_L2: _Z}).xreplace({_L1: _Y}).xreplace({N: _X})
    if e.has(N) or e.has(sp.log):
        return None
    coeff, factors = e.as_coeff_mul()
    if not (coeff.is_number and coeff.is_real and coeff != 0):
        return None
    start = n1
    for f in factors:
        base, _ = f.as_base_exp()
        if base in (_X, _Y, _Z):
            continue
        if not base.free_symbols:
            if base.is_positive is not True:
                return None
            continue
        m = _positive_from(base, n1)
        if m is None:
            return None
        start = max(start, m)
    return (1 if coeff > 0 else -1), start
