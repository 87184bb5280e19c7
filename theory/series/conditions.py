r"""Conditions on free parameters as sympy relations and as text.

A condition such as :math:`\lambda < -1` is brought to the form ``a + b > 1`` (the
parameters on the left, leading sign +, the constant on the right) by
:func:`normal_form`, and written as ``p > 1 or (p = 1 and q < -1)`` by :func:`bool_text`;
:func:`set_text` writes a set of values of one parameter.
"""

from __future__ import annotations

import sympy as sp

from theory.series.decision import Undecided

_FLIP = {
    sp.StrictLessThan: sp.StrictGreaterThan,
    sp.StrictGreaterThan: sp.StrictLessThan,
    sp.LessThan: sp.GreaterThan,
    sp.GreaterThan: sp.LessThan,
    sp.Equality: sp.Equality,
    sp.Unequality: sp.Unequality,
}
_OP_TEXT = {
    sp.StrictLessThan: "<",
    sp.StrictGreaterThan: ">",
    sp.LessThan: "<=",
    sp.GreaterThan: ">=",
    sp.Equality: "=",
    sp.Unequality: "!=",
}


def _normal_rel(rel):
    """``lam < -1`` as ``a + b > 1``: the parameters on the left (leading sign +), the
    constant on the right; a product of the parameters with a constant factor proved
    positive is divided by it (``q*log(2) > 0`` is ``q > 0``, ``q*log(2) > 1`` is
    ``q > 1/log(2)``: the same set of values).

    >>> p, q = sp.symbols("p q", real=True)
    >>> _normal_rel(q * sp.log(2) > 0), _normal_rel(sp.Eq(-2 * q * sp.pi, 1))
    (q > 0, Eq(q, -1/(2*pi)))
    >>> _normal_rel(p + q * sp.log(2) > 0)
    p + q*log(2) > 0
    """
    const, rest = sp.expand(rel.lhs - rel.rhs).as_coeff_Add()
    op = type(rel)
    if rest.could_extract_minus_sign():
        rest, const, op = -rest, -const, _FLIP[op]
    if isinstance(rest, sp.Mul):  # q*log(2) > 0 is q > 0: a constant factor proved > 0 goes
        factor, params = rest.as_independent(*rest.free_symbols, as_Add=False)
        if factor != 1 and factor.is_number and factor.is_positive is True:
            rest, const = params, sp.simplify(const / factor)
    return op(rest, -const)


def normal_form(cond: sp.Basic | bool) -> sp.Basic | bool:
    """Every relation of a condition in the form of :func:`_normal_rel`."""
    rels = cond.atoms(sp.core.relational.Relational) if isinstance(cond, sp.Basic) else ()
    return cond.xreplace({r: _normal_rel(r) for r in rels if type(r) in _FLIP})


def bool_text(c: sp.Basic) -> str:
    """A condition as text: ``a + b > 1``, ``p > 1 or (p = 1 and q < -1)``."""
    if c is sp.true:
        return "always"
    if c is sp.false:
        return "never"
    if isinstance(c, sp.Or):
        parts = sorted((bool_text(a) for a in c.args), key=lambda t: (t.count(" and "), t))
        return " or ".join(f"({t})" if " and " in t else t for t in parts)
    if isinstance(c, sp.And):
        return " and ".join(sorted(bool_text(a) for a in c.args))
    if type(c) in _OP_TEXT:
        return f"{sp.sstr(c.lhs)} {_OP_TEXT[type(c)]} {sp.sstr(c.rhs)}"
    return str(c)


def periodic_condition(c: sp.Basic) -> bool:
    """True for a condition on a trigonometric function of the parameters (``cos(a) != 1``,
    where :math:`a \\in 2\\pi\\mathbb{Z}` is left out): its set of values is periodic,
    which sympy's ``as_set`` cannot write (and spends seconds finding out)."""
    return isinstance(c, sp.Basic) and c.has(sp.sin, sp.cos, sp.tan)


def set_relation(s: sp.Set, p: sp.Symbol) -> sp.Basic:
    """A subset of p > 0 (from solveset) as a condition on p."""
    if s is sp.EmptySet:
        return sp.false
    if isinstance(s, sp.FiniteSet):
        return sp.Or(*(sp.Eq(p, v) for v in s))
    if isinstance(s, sp.Union):
        return sp.Or(*(set_relation(a, p) for a in s.args))
    if isinstance(s, sp.Interval):
        lo = (p > s.left) if s.left_open else (p >= s.left)
        hi = sp.true if s.right == sp.oo else (p < s.right) if s.right_open else (p <= s.right)
        return lo & hi
    raise Undecided(f"cannot write {s} as a condition on {p}")


def merge_one_parameter(cond: sp.Basic) -> sp.Basic:
    """The disjuncts of a condition that each involve one and the same real parameter
    joined into one interval condition: ``(a < 0 and a > -1) or (a >= 0 and a < 1)`` is
    ``a > -1 and a < 1``.  The same set of values; other disjuncts are kept as they are.

    >>> a, b = sp.symbols("a b", real=True)
    >>> merge_one_parameter(((a < 0) & (a > -1)) | ((a >= 0) & (a < 1)) | (sp.Eq(a, 1) & (b > 1)))
    (Eq(a, 1) & (b > 1)) | ((a > -1) & (a < 1))
    """
    if not isinstance(cond, sp.Or):
        return cond
    groups, kept = {}, []
    for c in cond.args:
        syms = c.free_symbols
        if len(syms) == 1 and next(iter(syms)).is_real and not periodic_condition(c):
            groups.setdefault(next(iter(syms)), []).append(c)
        else:
            kept.append(c)
    for p, parts in groups.items():
        if len(parts) < 2:
            kept += parts
            continue
        try:
            joined = sp.Or(*parts).as_set()
            merged = _real_set_relation(joined, p)
        except (NotImplementedError, Undecided, TypeError):
            kept += parts
            continue
        kept.append(merged)
    return sp.Or(*kept)


def _real_set_relation(s: sp.Set, p: sp.Symbol) -> sp.Basic:
    """A set of real values of p as a condition (unbounded ends left out)."""
    if isinstance(s, sp.Interval):
        lo = sp.true if s.left == -sp.oo else (p > s.left) if s.left_open else (p >= s.left)
        hi = sp.true if s.right == sp.oo else (p < s.right) if s.right_open else (p <= s.right)
        return lo & hi
    if isinstance(s, sp.FiniteSet):
        return sp.Or(*(sp.Eq(p, v) for v in s))
    if isinstance(s, sp.Union):
        return sp.Or(*(_real_set_relation(a, p) for a in s.args))
    raise Undecided(f"cannot write {s} as a condition on {p}")


def set_text(s: sp.Set, p: sp.Symbol, domain: sp.Set = sp.Interval.open(0, sp.oo)) -> str:
    """A set of values of p as text, the bounds of ``domain`` (p's admissible values)
    left out."""
    if s is sp.EmptySet:
        return "never"
    if isinstance(s, sp.Interval):
        lo = "" if s.left == -sp.oo else f"{p} {'>' if s.left_open else '>='} {s.left}"
        hi = "" if s.right == sp.oo else f"{p} {'<' if s.right_open else '<='} {s.right}"
        if (s.left, s.left_open) == (domain.inf, domain.left_open) and hi:
            lo = ""  # the domain's own bound, e.g. p > 0 for a positive parameter
        if (s.right, s.right_open) == (domain.sup, domain.right_open) and lo:
            hi = ""
        return " and ".join(x for x in (lo, hi) if x) or f"{p} real"
    if isinstance(s, sp.FiniteSet):
        return " or ".join(f"{p} = {v}" for v in s)
    if isinstance(s, sp.Union):
        return " or ".join(set_text(a, p, domain) for a in s.args)
    return str(s)


# --------------------------------------------------------------------------- sign cases
