r"""Free-parameter series whose terms are products, powers and sums of :math:`n`, iterated
logarithms, :math:`c^n`, :math:`e^{(\dots) n}`, :math:`\Gamma(kn + c)` and parameter-free
factors: the condition read off the exponents by the exact lexicographic rule, with no
sign cases and no symbolic limit in the parameters.

**The scale.**  With :math:`L_0 = n`, :math:`L_{j+1} = \log L_j` (``log(n)``,
``log(log(n))``, ...), a *log-scale form* is

.. math::  M_n = e^{\sigma n \log n}\, e^{\gamma n}\, L_0^{e_0} L_1^{e_1} \cdots L_m^{e_m},

σ, γ, :math:`e_j` real (expressions in the parameters).  When :math:`b_n > 0` and
:math:`b_n / M_n \to K \in (0, \infty)`, the limit comparison test gives

.. math::  \sum b_n < \infty \iff (\sigma,\ \gamma,\ e_0 + 1,\ e_1 + 1,\ \dots,\ e_m + 1)
           <_{\text{lex}} (0, \dots, 0),

i.e. the first nonzero entry is negative (all zero: diverges).

*Proof.*  Let t be the first nonzero entry.  (σ) Every other factor of :math:`M_n` is
:math:`e^{O(n)}`, so σ < 0 gives :math:`M_n \le e^{\sigma n \log n / 2} \le n^{-2}` and
σ > 0 gives :math:`M_n \to \infty`.  (γ, σ = 0) The rest is :math:`e^{O(\log n)}`:
γ < 0 gives :math:`M_n \le e^{\gamma n/2}` (geometric), γ > 0 gives :math:`M_n \to \infty`.
(:math:`e_j + 1`, σ = γ = 0, :math:`e_i = -1` for i < j) Put
:math:`P = L_0 \cdots L_{j-1}` and :math:`R = \prod_{k > j} L_k^{e_k}`; for every δ > 0,
:math:`R = o(L_j^{\delta})` and :math:`1/R = o(L_j^{\delta})` (each :math:`L_k`, k > j, is a
power of a logarithm of :math:`L_j`).  If :math:`e_j < -1`, take
:math:`s \in (1, -e_j)`: :math:`M_n = L_j^{-s}\,(L_j^{e_j + s} R)/P \le 1/(P L_j^s)` for
large n; if :math:`e_j > -1`, take :math:`s \in (-e_j, 1)`: :math:`M_n \ge 1/(P L_j^s)`.
:math:`\sum 1/(L_0 \cdots L_{j-1} L_j^s)` converges iff s > 1 (the integral test, or
Cauchy condensation, j times: Bertrand), and so does :math:`\sum M_n`; with every entry
0, :math:`M_n = 1/(L_0 \cdots L_m)`, which diverges (s = 1).  ∎

**The forms of the pieces** (each identity holds for every n ≥ start, all bases
positive there, which is checked, so every term is a positive real number for every
value of the parameters):

* a factor free of n: a constant, which must be positive for every admissible value
  (sympy's assumptions: ``2**a``, ``gamma(a + 1)`` with a > 0);
* :math:`L_j`, positive for n > 0, 1, e, :math:`e^e`, ... (j = 0, 1, 2, 3, ...); where
  that is later than the start, the terms before are not defined for every value (0 or a
  negative number to a parameter power), and the condition holds where they are (a
  finite head does not change convergence): ``n**p*log(n)**q`` from n = 1;
* :math:`F^p` with p real (a finite real expression in the parameters):
  :math:`e^{p \log F}` multiplies every exponent of F's form by p;
* :math:`c^{kn + m}` (c > 0): :math:`\gamma = k \log c`; :math:`n^{kn + m}`: σ = k,
  :math:`e_0 = m`; :math:`e^{A}` with A a linear
  combination of :math:`n \log n`, n, :math:`\log L_j` and a constant;
* :math:`\Gamma(kn + c)` (k > 0 a number, :math:`k \cdot start + c > 0`): Stirling,
  :math:`\log\Gamma(x) = (x - \tfrac12)\log x - x + \tfrac12 \log 2\pi + o(1)`, gives
  :math:`\log\Gamma(kn + c) = k\,n\log n + (k\log k - k)\,n + (c - \tfrac12)\log n + C + o(1)`
  (factorials, binomials and Pochhammer symbols are first written with Γ);
* :math:`\log(c + x)` with c >= 1 a number and x > 0 a sum of such terms (with
  parameters), by the sign of x's vector v: :math:`v <_{lex} 0` (x -> 0):
  :math:`\log(1 + x) \sim x`, or :math:`\log(c + x) \to \log c > 0` for c > 1; v = 0
  (x -> K > 0): :math:`\log(c + x) \to \log(c + K) > 0`; :math:`v >_{lex} 0` (x -> oo)
  with first nonzero entry :math:`v_i > 0`: :math:`\log(c + x) = \log x + o(1) \sim v_i\,
  n \log n`, :math:`v_i n` or :math:`v_i L_{j+1}` (:math:`v_i = e_j`), the other parts of
  :math:`\log x` being of lower order (``n**a*log(1 + 1/n**b)``: :math:`n^{a-b}`,
  :math:`\log 2\, n^a`, :math:`-b\, n^a \log n`);
* a sum of such positive terms: the sum over the lexicographically largest exponent
  vector dominates, :math:`\sum_k F_k / M_{k^*} \to \sum_{k: v_k = v_{k^*}} K_k > 0`; which
  term dominates depends on the parameters, so the form is piecewise: one piece per term,
  on the region where its vector is the largest (``1/(n**p + n**q)``);
* a parameter-free factor F outside these shapes (``n**(1/n) - 1``, ``sin(1/n)``): its
  exponents from limits free of the parameters, :math:`e_0 = \lim \log F/\log n`, then
  :math:`e_j = \lim \log(F / (L_0^{e_0} \cdots L_{j-1}^{e_{j-1}}))/L_{j+1}` until
  :math:`F/M \to K \in (0, \infty)`
  (:func:`theory.series.limits.limit_at_infinity`: Gruntz, complete for exp-log functions,
  cross-checked numerically outside them); it is checked positive in ball arithmetic
  where :func:`theory.series.numeric.check_terms` checks terms (the first 64 and
  n = 10^3 ... 10^24), and is positive for large n as :math:`F/M \to K > 0`.  Where
  :math:`\log F/\log n \to \pm\infty`, first :math:`\sigma = \lim \log F/(n \log n)` and
  :math:`\gamma = \lim (\log F - \sigma n \log n)/n` (both finite), then the exponents of
  :math:`F e^{-\sigma n \log n - \gamma n}` as above; the form is proved by the last
  limit, :math:`F/M \to K \in (0, \infty)` (``(1 + 1/n)**(n**2)``: γ = 1,
  :math:`K = e^{-1/2}`).

Anything else raises :class:`NotInScale` and is left to the sign cases.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy as sp
from flint import arb

from theory.core.budget import StepTimeout, step_budget
from theory.series.arb_eval import NotSupported, arb_function, ball_precision
from theory.series.arb_eval import Undecided as BallUndecided
from theory.series.conditions import normal_form
from theory.series.expressions import N
from theory.series.limits import CHECK_POINTS, limit_at_infinity, smooth

#: iterated logarithms L_1 .. L_MAX_LEVEL are recognised (L_4 > 0 only for n > e^e^e)
MAX_LEVEL = 4
#: CPU seconds for the whole rule (the limits of parameter-free factors may be slow):
#: past them the series is left to the sign cases
BUDGET = 4.0
#: iterated-log levels tried for the exponents of a parameter-free factor
FREE_LEVELS = 3
#: first terms of a parameter-free factor checked positive (as check_terms checks terms)
CHECKED_TERMS = 64
FACTORIALS = (sp.factorial, sp.binomial, sp.RisingFactorial, sp.FallingFactorial, sp.factorial2)


class NotInScale(ValueError):
    """The expression is not a log-scale form this module proves (the reason)."""


@dataclass(frozen=True)
class Form:
    r""":math:`K_n e^{\sigma n\log n} e^{\gamma n} \prod_j L_j^{e_j}` with :math:`K_n \to K > 0`."""

    sigma: sp.Expr
    gamma: sp.Expr
    exps: tuple  # e_0, e_1, ... (n, log n, log log n, ...)

    def vector(self, length: int) -> tuple:
        e = tuple(self.exps) + (sp.Integer(0),) * (length - len(self.exps))
        return (self.sigma, self.gamma) + e

    def times(self, other: Form) -> Form:
        m = max(len(self.exps), len(other.exps))
        a, b = self.vector(m), other.vector(m)
        return Form(a[0] + b[0], a[1] + b[1], tuple(x + y for x, y in zip(a[2:], b[2:])))

    def power(self, p: sp.Expr) -> Form:
        return Form(self.sigma * p, self.gamma * p, tuple(e * p for e in self.exps))


_ONE = Form(sp.Integer(0), sp.Integer(0), ())


def log_level(e: sp.Expr) -> int | None:
    """j where e is :math:`L_j(n)` (n: 0, log(n): 1, log(log(n)): 2, ...), else None."""
    j = 0
    while isinstance(e, sp.log) and len(e.args) == 1:
        e, j = e.args[0], j + 1
    return j if e == N else None


def _level_expr(j: int) -> sp.Expr:
    e = N
    for _ in range(j):
        e = sp.log(e)
    return e


def _tower(j: int) -> sp.Expr:
    """L_j(n) > 0 iff n > tower(j): 0, 1, e, e^e, e^e^e."""
    t = sp.Integer(0) if j == 0 else sp.Integer(1)
    for _ in range(j - 1):
        t = sp.exp(t)
    return t


def first_positive(j: int) -> int:
    """The first integer n with L_j(n) > 0: 1, 2, 3, 16, 3814280 for j = 0 ... 4."""
    if j > MAX_LEVEL:
        raise NotInScale(f"more than {MAX_LEVEL} iterated logarithms")
    return int(sp.floor(_tower(j))) + 1


def _real(p: sp.Expr) -> bool:
    return p.is_extended_real is True and p.is_finite is True


class _Builder:
    """Piecewise forms of an expression: lists of (condition on the parameters, Form)."""

    def __init__(self, start: int):
        self.start = start
        self.tail = start  # from here on every L_j used is positive
        self.limits = []  # (parameter-free factor, its form) found by limits

    def pieces(self, e: sp.Expr) -> list:
        try:
            return self._structural(e)
        except NotInScale:
            if not e.has(N) or e.free_symbols - {N}:
                raise
        return [(sp.true, self._free_form(e))]

    def _structural(self, e: sp.Expr) -> list:
        if not e.has(N):
            if e.is_positive is not True or e.is_finite is not True:
                raise NotInScale(f"the factor {e} is not positive for every value")
            return [(sp.true, _ONE)]
        j = log_level(e)
        if j is not None:
            self.tail = max(self.tail, first_positive(j))
            exps = (sp.Integer(0),) * j + (sp.Integer(1),)
            return [(sp.true, Form(sp.Integer(0), sp.Integer(0), exps))]
        if e.is_Mul:
            out = [(sp.true, _ONE)]
            for f in e.args:
                out = _product(out, self.pieces(f))
            return out
        if e.is_Pow:
            return self._pow(e.base, e.exp)
        if isinstance(e, sp.exp):
            form = _exp_form(sp.expand(e.args[0]))
            for j, _ in enumerate(form.exps):  # e^(c log L_j) = L_j^c needs L_j > 0
                self.tail = max(self.tail, first_positive(j))
            return [(sp.true, form)]
        if isinstance(e, sp.gamma):
            return [(sp.true, self._gamma(e.args[0]))]
        if isinstance(e, sp.log) and e.args[0].free_symbols - {N}:
            return self._log(e.args[0])
        if e.is_Add and e.free_symbols - {N}:
            out = None
            for t in e.args:
                p = self.pieces(t)
                out = p if out is None else _sum(out, p)
            return out
        raise NotInScale(f"{e} is not a product, power or sum of the scale's functions")

    def _pow(self, base, ex) -> list:
        if not ex.has(N):
            if not _real(ex):
                raise NotInScale(f"the exponent {ex} is not real for every value")
            return [(c, f.power(ex)) for c, f in self.pieces(base)]
        if base == N:  # n^(k n + m) = e^(k n log n) n^m
            k, m = _linear_in_n(sp.expand(ex))
            return [(sp.true, Form(k, sp.Integer(0), (m,)))]
        if base.has(N):
            raise NotInScale(f"{base}**({ex}): both depend on n")
        if base.is_positive is not True:
            raise NotInScale(f"the base {base} is not positive for every value")
        k, m = _linear_in_n(sp.expand(ex))
        return [(sp.true, Form(sp.Integer(0), k * sp.log(base), ()))]  # base^m: a constant

    def _log(self, arg) -> list:
        """log(c + x), c >= 1 a number and x > 0 a sum of the scale's pieces, by the sign
        of x's vector v: v <_lex 0 (x -> 0): log(1 + x) ~ x, or log(c + x) -> log c > 0;
        v = 0 (x -> K > 0): log(c + x) -> log(c + K) > 0; v >_lex 0 with first nonzero
        entry v_i > 0 (x -> oo): log(c + x) = log x + o(1) ~ v_i n log n, v_i n or
        v_i L_(j+1) (v_i = e_j, since e_j log L_j = e_j L_(j+1))."""
        c, x = arg.as_independent(N, as_Add=True)
        if not (c.is_number and (c - 1).is_nonnegative is True and x.has(N)):
            raise NotInScale(f"log({arg}) is not log(c + x) with c >= 1 a number")
        out = []
        for cond, f in self.pieces(x):
            v = f.vector(max(len(f.exps), 1))
            zero = (sp.Integer(0),) * len(v)
            flat = sp.And(*(sign_rel(sp.expand(d), sp.Eq) for d in v if sp.expand(d) != 0))
            out += [
                (sp.And(cond, lex_less(v, zero)), f if c == 1 else _ONE),
                (sp.And(cond, flat), _ONE),
            ]
            equal = []
            for i, vi in enumerate(v):
                vi = sp.expand(vi)
                if vi == 0:
                    continue
                lead = sp.And(cond, *equal, sign_rel(vi, sp.Gt))
                equal.append(sign_rel(vi, sp.Eq))
                if _simplify(lead) is sp.false:
                    continue
                if i < 2:
                    exps = (sp.Integer(1), sp.Integer(1)) if i == 0 else (sp.Integer(1),)
                else:
                    if i - 1 > MAX_LEVEL:
                        raise NotInScale(f"log({arg}) grows like more than {MAX_LEVEL} logs")
                    exps = (sp.Integer(0),) * (i - 1) + (sp.Integer(1),)
                out.append((lead, Form(sp.Integer(0), sp.Integer(0), exps)))
        pieces = [(_simplify(c_), f) for c_, f in out]
        return [(c_, f) for c_, f in pieces if c_ is not sp.false]

    def _gamma(self, arg) -> Form:
        k, c = _linear_in_n(sp.expand(arg))
        if not (k.is_number and k.is_positive) or not _real(c):
            raise NotInScale(f"gamma({arg}) is not gamma(k n + c) with k > 0")
        if (k * self.start + c).is_positive is not True:
            raise NotInScale(f"gamma({arg}) changes sign or has a pole for some n >= {self.start}")
        return Form(k, k * sp.log(k) - k, (c - sp.S.Half,))

    def _free_form(self, f) -> Form:
        """A parameter-free factor: its first terms positive, its exponents by limits
        (:func:`limit_form`)."""
        if not smooth(f):
            raise NotInScale(f"{f} oscillates or is not smooth")
        _first_terms_positive(f, self.start)
        form, k = limit_form(f)
        self.limits.append((f, form, k))
        return form


def limit_form(f: sp.Expr) -> tuple[Form, sp.Expr]:
    """(form, K) with f / M -> K in (0, oo), M the form's scale function: the exponents
    of a parameter-free smooth f by limits (module doc; sigma and gamma too where
    log(f)/log(n) -> +-oo: (1 + 1/n)**(n**2)), so f > 0 for large n; NotInScale where a
    limit fails or f is not eventually positive.

    >>> from theory.series.expressions import parse_expression as P
    >>> form, k = limit_form(P("exp(exp(-n)) - 1"))    # ~ e^(-n)
    >>> form.gamma, form.exps, k
    (-1, (0,), 1)
    """
    sigma, gamma, scaled = sp.Integer(0), sp.Integer(0), f
    e0 = _limit(sp.log(f) / sp.log(N))
    if e0 is not None and e0.is_infinite:
        sigma, gamma, scaled = _exponential_part(f)
        e0 = _limit(sp.log(scaled) / sp.log(N))
    if e0 is None or not e0.is_number or not e0.is_finite:
        raise NotInScale(f"log({f})/log(n) has no finite limit")
    exps, rest = [e0], scaled / N**e0
    for j in range(1, FREE_LEVELS + 1):
        k = _limit(rest)
        if k is not None and k.is_number and k.is_finite and k.is_positive:
            return Form(sigma, gamma, tuple(exps)), k
        ej = _limit(sp.log(rest) / _level_expr(j + 1))
        if ej is None or not ej.is_number or not ej.is_finite:
            break
        exps.append(ej)
        rest = rest / _level_expr(j) ** ej
    raise NotInScale(f"{f} is not a constant times a product of powers of iterated logs")


def _exponential_part(f: sp.Expr) -> tuple:
    r"""(sigma, gamma, f e^(-sigma n log n - gamma n)) with :math:`\sigma = \lim \log f/(n
    \log n)` and :math:`\gamma = \lim (\log f - \sigma n \log n)/n`, both finite numbers
    (only candidates: the form is proved by the limit of the quotient that follows)."""
    sigma = _limit(sp.log(f) / (N * sp.log(N)))
    if sigma is None or not sigma.is_number or not sigma.is_finite:
        raise NotInScale(f"log({f})/(n log(n)) has no finite limit")
    g = f * sp.exp(-sigma * N * sp.log(N))
    gamma = _limit(sp.log(g) / N)
    if gamma is None or not gamma.is_number or not gamma.is_finite:
        raise NotInScale(f"log({f})/n has no finite limit")
    return sigma, gamma, g * sp.exp(-gamma * N)


def _limit(e):
    """limit_at_infinity, None where it fails in any way."""
    try:
        return limit_at_infinity(e)
    except Exception:  # noqa: BLE001 - sympy/mpmath failing inside: no limit
        return None


def _linear_in_n(e) -> tuple:
    """(k, m) with e = k n + m, k and m free of n."""
    k, m = sp.Integer(0), sp.Integer(0)
    for t in sp.Add.make_args(e):
        c, s = t.as_independent(N, as_Add=False)
        if s == 1:
            m += c
        elif s == N:
            k += c
        else:
            raise NotInScale(f"{e} is not linear in n")
    if not (_real(k) and _real(m)):
        raise NotInScale(f"{e}: coefficients not real for every value")
    return k, m


def _exp_form(arg) -> Form:
    """exp(A), A = s n log n + g n + sum_j c_j log(L_j) + constant."""
    sigma, gamma, exps = sp.Integer(0), sp.Integer(0), {}
    for t in sp.Add.make_args(arg):
        c, s = t.as_independent(N, as_Add=False)
        if not _real(c):
            raise NotInScale(f"the coefficient {c} is not real for every value")
        if s == 1:
            continue  # e^c > 0: a constant factor
        if s == N * sp.log(N):
            sigma += c
        elif s == N:
            gamma += c
        elif isinstance(s, sp.log) and log_level(s) is not None:
            j = log_level(s) - 1
            exps[j] = exps.get(j, sp.Integer(0)) + c
        else:
            raise NotInScale(f"exp({arg}): {s} is not on the scale")
    m = max(exps, default=-1) + 1
    return Form(sigma, gamma, tuple(exps.get(j, sp.Integer(0)) for j in range(m)))


@ball_precision
def _first_terms_positive(f, start) -> None:
    try:
        g = arb_function(f)
        for n in list(range(start, start + CHECKED_TERMS)) + [n for n in CHECK_POINTS if n > start]:
            v = g(arb(n))
            if not (v.is_finite() and v > 0):
                raise NotInScale(f"{f} is not shown positive at n = {n}")
    except (NotSupported, BallUndecided, ArithmeticError, ValueError, TypeError) as exc:
        raise NotInScale(f"{f} could not be evaluated in ball arithmetic ({exc})") from None


def _product(a: list, b: list) -> list:
    out = []
    for (ca, fa), (cb, fb) in itertools.product(a, b):
        c = sp.And(ca, cb)
        if c is not sp.false:
            out.append((c, fa.times(fb)))
    return out


def _sum(a: list, b: list) -> list:
    """A + B of positive terms: the piece with the larger vector (ties: either, with the
    sum of their constants, still positive)."""
    out = []
    for (ca, fa), (cb, fb) in itertools.product(a, b):
        m = max(len(fa.exps), len(fb.exps))
        va, vb = fa.vector(m), fb.vector(m)
        a_wins, b_wins = lex_less(vb, va, strict=False), lex_less(va, vb)
        for c, f in ((sp.And(ca, cb, a_wins), fa), (sp.And(ca, cb, b_wins), fb)):
            c = _simplify(c)
            if c is not sp.false:
                out.append((c, f))
    return out


def _simplify(c):
    c = normal_form(sp.to_dnf(c)) if c not in (sp.true, sp.false) else c
    return c


def sign_rel(d: sp.Expr, op: type) -> sp.Basic:
    """``d op 0`` as a readable relation: a combination of logarithms
    :math:`\\sum c_i \\log x_i` (x_i > 0) as :math:`\\prod_{c_i > 0} x_i^{c_i}\\ op\
    \\prod_{c_i < 0} x_i^{-c_i}` (log(a/2) < 0 is a < 2), anything else as it is."""
    d = sp.expand(sp.expand_log(d, force=True))
    pos, neg, rest = sp.Integer(1), sp.Integer(1), sp.Integer(0)
    for t in sp.Add.make_args(d):
        c, s = t.as_independent(sp.log, as_Add=False)
        if isinstance(s, sp.log) and c.is_number and c.is_real and s.args[0].is_positive:
            if c > 0:
                pos *= s.args[0] ** c
            else:
                neg *= s.args[0] ** (-c)
        else:
            rest += t
    if rest == 0 and (pos != 1 or neg != 1):
        return op(pos, neg)
    return op(d, 0)


def lex_less(u: tuple, v: tuple, strict: bool = True) -> sp.Basic:
    """u <_lex v (or u <=_lex v) as a condition on the parameters.  Entries whose
    difference is identically 0 are skipped; with ``strict`` False the last entry that
    differs is compared with <= (the rest equal there: the vectors are equal)."""
    diffs = [sp.expand(x - y) for x, y in zip(u, v)]
    live = [d for d in diffs if d != 0]
    if not live:
        return sp.false if strict else sp.true
    terms, equal = [], []
    for i, d in enumerate(live):
        op = sp.Le if (not strict and i == len(live) - 1) else sp.Lt
        terms.append(sp.And(*equal, sign_rel(d, op)))
        equal.append(sign_rel(d, sp.Eq))
    return sp.Or(*terms)


def scale_text(f: Form) -> str:
    """The scale function of a form as text, its trivial factors left out.

    >>> scale_text(Form(sp.Integer(0), sp.Integer(-1), (sp.Integer(0),)))
    'e^(-n)'
    >>> scale_text(Form(sp.Integer(0), sp.Integer(0), (sp.Integer(-1), sp.Integer(-2))))
    'n^(-1) log(n)^(-2)'
    """
    parts = [f"e^({f.sigma} n log(n))"] if f.sigma != 0 else []
    parts += [f"e^({f.gamma * N})"] if f.gamma != 0 else []
    parts += [f"{_level_expr(j)}^({e})" for j, e in enumerate(f.exps) if e != 0]
    return " ".join(parts) or "1"


def form_region(f: Form) -> sp.Basic:
    """Where the series of terms with the form f converges (the rule of the module doc)."""
    m = max(len(f.exps), 1)
    v = f.vector(m)
    shifted = v[:2] + tuple(e + 1 for e in v[2:])
    return lex_less(shifted, (sp.Integer(0),) * len(shifted))


@dataclass
class ScaleResult:
    region: sp.Basic  # where the series converges (a condition on the parameters)
    pieces: list  # (condition, Form)
    limits: list  # (parameter-free factor, its Form, constant) found by limits
    start: int  # the series' first index
    tail: int  # from here on every term is positive for every value

    @property
    def undefined_head(self) -> bool:
        """Terms before ``tail`` (an iterated log <= 0 there, raised to a parameter) are
        not defined for every value: the region holds where they are."""
        return self.tail > self.start

    def certificate(self) -> str:
        def show(f: Form) -> str:
            m = max(len(f.exps), 1)
            v = f.vector(m)
            parts = [f"sigma = {v[0]}", f"gamma = {v[1]}"] + [
                f"e_{j} = {e}" for j, e in enumerate(v[2:])
            ]
            return ", ".join(parts)

        text = (
            "log-scale rule: b_n / (e^(sigma n log n) e^(gamma n) n^e_0 log(n)^e_1 ...) tends "
            "to a positive constant, so sum b_n converges iff (sigma, gamma, e_0 + 1, "
            "e_1 + 1, ...) < 0 lexicographically (Stirling, root test, Bertrand); "
        )
        if len(self.pieces) == 1:
            text += show(self.pieces[0][1])
        else:
            text += "; ".join(f"where {c}: {show(f)}" for c, f in self.pieces)
        for f, form, k in self.limits:
            scale = [f"e^({form.sigma} n log(n))"] if form.sigma != 0 else []
            scale += [f"e^({form.gamma} n)"] if form.gamma != 0 else []
            text += f"; {f} ~ {k} " + " ".join(
                scale + [f"{_level_expr(j)}^({e})" for j, e in enumerate(form.exps)]
            )
        if self.undefined_head:
            text += (
                f"; every term from n = {self.tail} on is positive, the first ones are not "
                "defined for every value (an iterated log <= 0 there): the region holds "
                "where they are"
            )
        return text


def log_scale_region(b: sp.Expr, start: int, budget: float | None = None) -> ScaleResult | None:
    """The region of convergence of ``sum b_n`` (n >= start) when b is a log-scale form
    with positive terms for every admissible value of its parameters, else None (also
    past ``budget`` CPU seconds, :data:`BUDGET` unless given)."""
    if start < 1 or not b.has(N):
        return None
    if b.has(*FACTORIALS):
        b = b.rewrite(sp.gamma)
    builder = _Builder(start)
    try:
        with step_budget(BUDGET if budget is None else budget):
            pieces = builder.pieces(b)
            region = sp.Or(*(sp.And(c, form_region(f)) for c, f in pieces))
            if region not in (sp.true, sp.false):
                region = normal_form(sp.to_dnf(region))
    except (NotInScale, StepTimeout):
        return None
    return ScaleResult(_settled(region), pieces, builder.limits, start, builder.tail)


def _domain(p: sp.Symbol) -> sp.Set:
    """The values a parameter may take under its assumptions."""
    for attr, s in (
        ("is_positive", sp.Interval.open(0, sp.oo)),
        ("is_negative", sp.Interval.open(-sp.oo, 0)),
        ("is_nonnegative", sp.Interval(0, sp.oo)),
        ("is_nonpositive", sp.Interval(-sp.oo, 0)),
    ):
        if getattr(p, attr):
            return s
    return sp.Reals


def _settled(region):
    """A condition on one parameter that holds for all or none of its admissible values as
    true or false ((k > 1) & (k < 1/2) is false); anything else as it is."""
    syms = region.free_symbols if isinstance(region, sp.Basic) else set()
    if len(syms) != 1 or region in (sp.true, sp.false):
        return region
    p = next(iter(syms))
    try:
        where = region.as_set() & _domain(p)
    except (NotImplementedError, TypeError, ValueError):
        return region
    if where is sp.EmptySet:
        return sp.false
    return sp.true if where == _domain(p) else region
