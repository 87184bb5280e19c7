r"""Forms of a term in which ball arithmetic on wide boxes loses nothing to cancellation:
the same values, rewritten before compilation (:mod:`theory.series.enclosure`).

* :func:`log1p_form` -- ``log(P/Q)`` with P/Q -> 1 as ``log(1 + (P - Q)/Q)``, and a power
  R**E with a growing exponent as exp(E log(1 + (R - 1)));
* :func:`remainder_log_form` -- E log(1 + r) with E r -> oo as the head of the logarithm's
  series plus :math:`E r^k \psi_k(r)` (:mod:`theory.series.log1p_remainder`), so that
  :math:`n^2 \log(1 + 1/n) - n` is :math:`\psi_2(1/n)`;
* :func:`dominant_exp_form` -- a sum holding a growing exponential with it factored out;
* :func:`exp_loggamma_form`, :func:`loggamma_form` -- Gamma functions through log Gamma.
"""

from __future__ import annotations

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.expressions import N
from theory.series.limits import limit_at_infinity
from theory.series.log1p_remainder import Log1pRemainder


def log1p_form(b: sp.Expr) -> sp.Expr:
    """b with every log(R), R = P/Q a rational function of n tending to 1, written
    log(1 + (P - Q)/Q): on a far box the quotient of the intervals of P and Q spans 1 (and
    expand_log would split it into logs that cancel), while (P - Q)/Q keeps its sign. A
    power R**E whose exponent grows with n is written exp(E log(1 + (P - Q)/Q)) for the same
    reason: the ball of 1 - 1/n near n = 2^1000 is 1 to all 192 bits, and its log times
    E ~ n is no number at all.

    >>> from theory.series.expressions import parse_expression as P
    >>> log1p_form(P("log((n + 1)**2/(n*(n + 2)))"))
    log(1 + 1/(n*(n + 2)))
    >>> log1p_form(P("(1 - 1/n)**(2*n*log(n))"))
    exp(2*n*log(n)*log(1 - 1/n))
    """

    def log1p_of(R):  # log(1 + (P - Q)/Q) where R = P/Q -> 1; None otherwise
        if not (R.has(N) and R.is_rational_function(N)):
            return None
        num, den = sp.fraction(sp.cancel(sp.together(R)))
        try:
            pn, pd = sp.Poly(num, N), sp.Poly(den, N)
        except sp.PolynomialError:
            return None
        if pd.degree() < 1 or pn.degree() != pd.degree() or pn.LC() != pd.LC():
            return None
        diff = sp.factor(sp.expand(num - den))
        return sp.log(1 + diff / sp.factor(den), evaluate=False) if diff != 0 else None

    def rewrite_log(e):
        out = log1p_of(e.args[0])
        return e if out is None else out

    def rewrite_pow(e):
        out = log1p_of(e.base)
        return e if out is None else sp.exp(e.exp * out, evaluate=False)

    b = b.replace(lambda e: isinstance(e, sp.log) and len(e.args) == 1, rewrite_log)
    return b.replace(lambda e: isinstance(e, sp.Pow) and e.exp.has(N), rewrite_pow)


def remainder_log_form(y: sp.Expr) -> sp.Expr | None:
    r"""A log-term y in which each summand :math:`E \log(1 + r)` with r -> 0 a rational
    function and :math:`E r \to \infty` is written
    :math:`E \sum_{j<k} (-1)^{j+1} r^j/j + E r^k \psi_k(r)` (k the least order with
    :math:`E r^k` bounded, :mod:`theory.series.log1p_remainder`), the rational parts then
    cancelled exactly; None when nothing is rewritten.  :math:`n^2 \log(1 + 1/n) - n` is
    :math:`\psi_2(1/n)`: no cancellation of two growing intervals is left.  Once one
    summand is rewritten so, those with E r bounded are too, as :math:`E r \psi_1(r)`
    (:math:`n \log(1 + 1/n)` is :math:`\psi_1(1/n)`, not a product of a wide n and a
    narrow logarithm).

    >>> from theory.series.expressions import parse_expression as P
    >>> remainder_log_form(P("n**2*log(1 + 1/n) - n - 2*log(n)"))
    -2*log(n) + Log1pRemainder(2, 1/n)
    >>> remainder_log_form(P("(n**2 + n)*log(1 + 1/n) - n"))
    Log1pRemainder(1, 1/n) + Log1pRemainder(2, 1/n)
    >>> remainder_log_form(P("n*log(1 + 1/n**3)")) is None     # E r -> 0: left as it is
    True
    """
    try:
        with step_budget(2.0):
            rational, other, ones, changed = [], [], [], False
            for t in sp.Add.make_args(sp.expand(y)):
                logs = [
                    a
                    for a in t.atoms(sp.log)
                    if isinstance(a.args[0], sp.Add)
                    and a.args[0].has(N)
                    and a.args[0].as_independent(N, as_Add=True)[0] == 1
                ]
                E = sp.cancel(t / logs[0]) if len(logs) == 1 else None
                r = logs[0].args[0] - 1 if E is not None else None
                if E is None or E.has(logs[0]) or not r.is_rational_function(N):
                    (rational if t.is_rational_function(N) else other).append(t)
                    continue
                k = next(
                    (
                        j
                        for j in range(1, 7)
                        if (lim := limit_at_infinity(E * r**j)) is not None and lim.is_finite
                    ),
                    None,
                )
                if k is None:
                    other.append(t)
                    continue
                changed = changed or k > 1
                head = sp.Add(*[sp.Integer(-1) ** (j + 1) * r**j / j for j in range(1, k)])
                rational.append(E * head)
                # k = 1 too (n log(1 + 1/n) = psi_1(1/n)), once the form is rewritten anyway
                ones.append(sp.cancel(E * r**k) * Log1pRemainder(sp.Integer(k), r))
            if not changed:
                return None
            other += ones
            return sp.cancel(sp.together(sp.Add(*rational))) + sp.Add(*other)
    except (StepTimeout, sp.PolynomialError, ValueError, TypeError):
        return None


def dominant_exp_form(b: sp.Expr) -> sp.Expr:
    r"""b with every sum that holds a growing exponential :math:`e^{u}` or :math:`c^{u}`
    (u a polynomial in n, c > 0 a constant, growing: the fastest of the sum) written with it
    factored out,

    .. math::
       e^{u} + r = e^{u} \left(1 + r e^{-u}\right), \qquad
       \log\left(e^{u} - 1\right) = u + \log\left(1 - e^{-u}\right):

    the same terms, but on a wide far box :math:`e^{u}` of a ball spans zero in mid-radius
    form (so :math:`\log(e^{u} - 1)` is NaN), while :math:`e^{-u}` stays a tiny ball.

    >>> from theory.series.expressions import parse_expression as P
    >>> dominant_exp_form(P("n/(exp(2*pi*n) - 1)"))
    n*exp(-2*pi*n)/(1 - exp(-2*pi*n))
    >>> dominant_exp_form(P("pi**n/(pi**n + n)"))
    1/(1 + n/pi**n)
    """

    def rate(f):  # (degree, leading rate) of a growing e^u or c^u; None otherwise
        if isinstance(f, sp.exp):
            u, log_c = f.args[0], sp.Integer(1)
        elif isinstance(f, sp.Pow) and f.base.is_number and f.base.is_positive:
            u, log_c = f.exp, sp.log(f.base)
        else:
            return None
        if not (u.has(N) and u.is_polynomial(N)):
            return None
        p = sp.Poly(u, N)
        lc = p.LC() * log_c
        if p.degree() < 1 or not (lc.is_number and lc.is_positive):
            return None
        return p.degree(), float(lc)

    def growth(t):
        ex = [(r, f) for f in sp.Mul.make_args(t) if (r := rate(f)) is not None]
        return (*ex[0][0], ex[0][1]) if len(ex) == 1 else None

    def rewrite(e):
        grown = [g for g in map(growth, e.args) if g is not None]
        if not grown:
            return e
        ex = max(grown, key=lambda g: g[:2])[2]
        return ex * sp.Add(*[sp.powsimp(t / ex) for t in e.args])

    try:
        return b.replace(
            lambda e: isinstance(e, sp.Add) and e.has(N) and any(map(growth, e.args)), rewrite
        )
    except (sp.PolynomialError, TypeError, ValueError, OverflowError):
        return b


def exp_loggamma_form(b: sp.Expr) -> sp.Expr:
    r"""b with every :math:`x!` and :math:`\Gamma(x)` (x depending on n) written
    :math:`e^{\log\Gamma}`: the same value where x > 0; where x <= 0 arb's lgamma is NaN,
    so a term there is never certified (never wrong).  On a block's ball :math:`[\ell, u]`,
    :math:`\Gamma` spans zero in mid-radius form while :math:`e^{-2\log\Gamma}` is a ball
    below :math:`e^{-2\log\Gamma(\ell)}`.

    >>> from theory.series.expressions import parse_expression as P
    >>> exp_loggamma_form(P("2**n/factorial(n)**2"))
    2**n*exp(-2*loggamma(n + 1))
    """
    if not b.has(sp.factorial, sp.gamma):
        return b
    return b.replace(
        lambda a: isinstance(a, (sp.factorial, sp.gamma)) and a.has(N),
        lambda a: sp.exp(sp.loggamma(a.args[0] + (1 if isinstance(a, sp.factorial) else 0))),
    )


def loggamma_form(e: sp.Expr) -> sp.Expr:
    r"""e with :math:`\log x!` and :math:`\log \Gamma(x)` written as ``loggamma``: on a far box
    :math:`\Gamma` of a ball spans zero in mid-radius form (its log is NaN), while
    :math:`\log\Gamma` of the ball is a narrow ball (the same function for x > 0).

    >>> from theory.series.expressions import parse_expression as P
    >>> loggamma_form(sp.expand_log(sp.log(P("2**n/factorial(n)**2")), force=True))
    n*log(2) - 2*loggamma(n + 1)
    """

    def rewrite(a):
        x = a.args[0]
        if isinstance(x, sp.factorial):
            return sp.loggamma(x.args[0] + 1)
        if isinstance(x, sp.gamma):
            return sp.loggamma(x.args[0])
        return a

    return e.replace(
        lambda a: isinstance(a, sp.log) and isinstance(a.args[0], (sp.factorial, sp.gamma)), rewrite
    )
