r"""Exact rewrites that remove a cancellation from a term, for the certified sums.

A term such as ``1 - tanh(n)``, ``sqrt(n**4 + 1) - n**2`` or ``pi/2 - atan(n)`` is a
difference of nearly equal numbers: interval evaluation on the far boxes loses every digit,
and no engine bounds the tail.  Four identities, each valid at every n >= 1 under a
condition checked from the form (:func:`theory.series.angle_means.proved_positive`), write
it without the difference:

* a sum with exponentials over one denominator (exact algebra; the parser writes the
  hyperbolic functions with exp): :math:`1 - \tanh n = 2/(e^{2n} + 1)`;
* :math:`\pm(\sqrt{A} - B) = \pm(A - B^2)/(\sqrt{A} + B)` for B > 0 (then
  :math:`\sqrt{A} + B > 0`), :math:`A - B^2` expanded: :math:`\sqrt{n^4 + 1} - n^2 =
  1/(\sqrt{n^4 + 1} + n^2)`;
* :math:`\arctan x = \pi/2 - \arctan(1/x)` for x > 0: :math:`\pi/2 - \arctan n =
  \arctan(1/n)`;
* :math:`c \log A + d \log B = \log(A^c B^d)` for A, B > 0 and rational c, d:
  :math:`\log(n + 1) - \log n = \log((n + 1)/n)`.

>>> from theory.series.expressions import parse_expression as P
>>> without_cancellation(P("sqrt(n**4 + 1) - n**2"))
(1/(n**2 + sqrt(n**4 + 1)), 'sqrt(A) - B = (A - B^2)/(sqrt(A) + B) with B = n**2 > 0')
>>> without_cancellation(P("n + 1 - sqrt(n)*sqrt(n + 3)"))[0]   # sqrt(n) sqrt(n + 3) = sqrt(n^2 + 3 n)
(1 - n)/(sqrt(n)*sqrt(n + 3) + n + 1)
>>> without_cancellation(P("1 - tanh(n)"))[0]
2/(exp(2*n) + 1)
>>> without_cancellation(P("pi/2 - atan(n)"))[0]
atan(1/n)
>>> without_cancellation(P("(log(n + 1) - log(n))**2"))[0]
log((n + 1)/n)**2
>>> without_cancellation(P("1/n**2")) is None
True
"""

from __future__ import annotations

import sympy as sp

from theory.core.budget import StepTimeout, cache_answers, step_budget
from theory.series.angle_means import proved_positive
from theory.series.expressions import N, small_exponent_denominators


def _one_denominator(b: sp.Expr) -> tuple[sp.Expr, str] | None:
    """A sum with exponentials over one denominator (exact algebra), kept where the sum at
    the top is gone: 1 - tanh(n), which the parser writes with exp, is 2/(exp(2n) + 1)."""
    if not (b.is_Add and b.has(sp.exp)) or not small_exponent_denominators(b):
        return None
    out = sp.cancel(sp.together(b))
    if out.is_Add:
        return None
    return out, "the sum with exp over one denominator"


def _conjugate(b: sp.Expr) -> tuple[sp.Expr, str] | None:
    notes = []

    def radicand(a: sp.Expr) -> sp.Expr | None:
        """A where a = sqrt(A), or a = sqrt(A_1) ... sqrt(A_k) with every A_i > 0 from
        n = 1 on (then the product is sqrt(A_1 ... A_k)); None otherwise."""
        if a.is_Pow and a.exp == sp.S.Half and a.base.has(N):
            return a.base
        if not a.is_Mul or not all(f.is_Pow and f.exp == sp.S.Half for f in a.args):
            return None
        if not all(f.base.has(N) and _positive_from_one(f.base) for f in a.args):
            return None
        return sp.Mul(*[f.base for f in a.args])

    def swap(e: sp.Expr) -> sp.Expr:
        roots = [(a, 1, radicand(a)) for a in e.args]
        roots = [r for r in roots if r[2] is not None] or [
            r for r in ((-a, -1, radicand(-a)) for a in e.args) if r[2] is not None
        ]
        if len(roots) != 1:
            return e
        root, s, A = roots[0]
        B = -s * (e - s * root)  # e = s (sqrt(A) - B)
        if not proved_positive(B):
            return e
        notes.append(f"sqrt(A) - B = (A - B^2)/(sqrt(A) + B) with B = {B} > 0")
        return s * sp.expand(A - B**2) / (root + B)

    out = b.replace(lambda e: e.is_Add and e.has(N), swap)
    return (out, "; ".join(notes)) if notes else None


def _positive_from_one(a: sp.Expr) -> bool:
    """a > 0 at every n >= 1: by its form, or by sympy's sign rules at n = 1 + m, m >= 0."""
    m = sp.Dummy("m", nonnegative=True)
    return proved_positive(a) or a.subs(N, 1 + m).is_positive is True


def _log_quotient(b: sp.Expr) -> tuple[sp.Expr, str] | None:
    """A sum of logs with rational coefficients as one log: c log A + d log B =
    log(A^c B^d) for A, B > 0 (each argument proved positive), so log(n + 1) - log(n) is
    log((n + 1)/n), which the far boxes take as log(1 + 1/n); logs with one common factor w
    likewise (the sum expanded where that finds one): (n + 2) log(n + 2) - n log(n + 1) =
    n log((n + 2)/(n + 1)) + 2 log(n + 2).

    >>> from theory.series.expressions import parse_expression as P
    >>> _log_quotient(P("(n + 2)*log(n + 2) - n*log(n + 1)"))[0]
    n*log((n + 2)/(n + 1)) + 2*log(n + 2)
    """
    notes = []

    def groups(terms) -> tuple[dict, list]:
        """{w: [(c, A)]} for the terms c w log(A) (c rational, A depending on n), the rest."""
        out, rest = {}, []
        for t in terms:
            c, f = t.as_coeff_Mul()
            logs = [g for g in sp.Mul.make_args(f) if isinstance(g, sp.log) and g.has(N)]
            if c.is_Rational and len(logs) == 1 and not (f / logs[0]).has(sp.log):
                out.setdefault(f / logs[0], []).append((c, logs[0].args[0]))
            else:
                rest.append(t)
        return out, rest

    def combine(e: sp.Expr) -> sp.Expr:
        found, rest = groups(e.args)
        if all(len(v) < 2 for v in found.values()):  # n log(n + 2) - n log(n + 1) + ...
            found, rest = groups(sp.Add.make_args(sp.expand(e, log=False, mul=True)))
        if all(len(v) < 2 for v in found.values()):
            return e
        out = list(rest)
        for w, logs in found.items():
            if len(logs) < 2 or not all(_positive_from_one(a) for _, a in logs):
                out += [c * w * sp.log(a) for c, a in logs]
                continue
            inner = sp.cancel(sp.together(sp.Mul(*(a**c for c, a in logs))))
            notes.append("c log A + d log B = log(A^c B^d) for A, B > 0")
            out.append(w * sp.log(inner))
        return sp.Add(*out)

    out = b.replace(lambda e: e.is_Add and e.has(sp.log), combine)
    return (out, "; ".join(notes)) if notes else None


def _arctangent(b: sp.Expr) -> tuple[sp.Expr, str] | None:
    atoms = [a for a in b.atoms(sp.atan) if a.has(N) and proved_positive(a.args[0])]
    if not atoms or not b.has(sp.pi):
        return None
    out = b.subs({a: sp.pi / 2 - sp.atan(1 / a.args[0]) for a in atoms})
    if out.count(sp.pi) >= b.count(sp.pi):  # no pi/2 cancelled: keep b as it is
        return None
    return out, "atan(x) = pi/2 - atan(1/x) for x > 0"


def without_cancellation(b: sp.Expr) -> tuple[sp.Expr, str] | None:
    """(b', the identities used) with b' = b at every n >= 1 and the difference gone, or
    None when no rewrite applies or changes b (or sympy runs out of time: not remembered,
    a later call with time tries again)."""
    try:
        return _rewritten(b)
    except (StepTimeout, TypeError, ValueError, NotImplementedError):
        return None


@cache_answers(256)
def _rewritten(b: sp.Expr) -> tuple[sp.Expr, str] | None:
    notes, out = [], b
    with step_budget(2.0):
        for rewrite in (_one_denominator, _conjugate, _arctangent, _log_quotient):
            r = rewrite(out)
            if r is not None and r[0] != out:
                out = r[0]
                notes.append(r[1])
    return (out, "; ".join(notes)) if notes else None
