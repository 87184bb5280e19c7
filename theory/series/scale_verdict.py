r"""Convergence of :math:`\sum_{n \ge s} b_n` decided on the asymptotic scale, without sympy
(RPE paper Thm 3.4 asks only whether the series converges): the quick path of
``python -m theory.trf --verdict-only``.

The formula is read by the same whitelist as :mod:`theory.series.expressions` (Python's
``ast`` parser, no evaluation), restricted to what the scale of
:mod:`theory.series.scale_asymptotics` handles: ``n``, ``pi``, ``E``, numbers (as typed, in
exact decimal), ``+ - * / **`` (and ``^``), ``exp log ln sqrt sin cos tan atan sinh cosh
tanh Abs factorial gamma binomial``.  Anything else, and anything the scale cannot settle,
returns None: the caller then runs the full engine, which decides more.

The verdict comes from the term's eventual size, by comparison with the scale's series

.. math::

    \sum_n n^{a} (\log n)^{b} (\log\log n)^{c} (\log\log\log n)^{d} < \infty
    \iff (a, b, c, d) < (-1, -1, -1, -1) \text{ lexicographically}

(Cauchy condensation, applied level by level), and from :math:`e^{G(n)}` with :math:`G`
beyond every multiple of :math:`\log n` (terms beyond every power: converges if
:math:`G \to -\infty`; terms tending to infinity: diverges).  A divergence needs terms of one
sign eventually, a convergence is absolute.  Every term for :math:`n \ge s` is proved a finite
real number first (:mod:`theory.series.term_ranges`).

>>> quick_verdict("1/(n**2 + n + 1)").converges
True
>>> quick_verdict("1/(n*log(n)*log(log(n)))", start=3).converges
False
>>> quick_verdict("sin(n)/n**(3/5)") is None     # sign changes: the full engine decides
True
"""

from __future__ import annotations

import ast
import math
from dataclasses import dataclass
from fractions import Fraction

from theory.series.scale_asymptotics import (
    DEFAULT_ORDER,
    ONE,
    PI,
    E,
    Iv,
    Unsupported,
    Value,
    mono_text,
    taylor,
    time_limit,
)
from theory.series.term_ranges import (
    FIRST_TERMS,
    INF,
    NotProven,
    R,
    dominant_power_range,
    r_atan,
    r_exp,
    r_gamma,
    r_ipow,
    r_log,
    r_pow,
    r_sin_cos,
    r_sqrt,
    r_tan,
)

#: longest formula, most syntax nodes, most digits in a literal the quick path reads (the
#: full engine reads more, under its budget)
MAX_TEXT, MAX_NODES, MAX_LITERAL_DIGITS = 300, 120, 30
#: CPU seconds the quick path may spend before it leaves the formula to the full engine
QUICK_SECONDS = 0.5
#: the Taylor orders tried, in turn
ORDERS = (2, DEFAULT_ORDER, 12)  # a low order first: nested logs of shifts grow fast
FUNCTIONS = {
    "exp",
    "log",
    "ln",
    "sqrt",
    "sin",
    "cos",
    "tan",
    "atan",
    "sinh",
    "cosh",
    "tanh",
    "Abs",
    "factorial",
    "gamma",
    "binomial",
}
#: the scale's convergence boundary: sum m converges iff m < BOUNDARY
BOUNDARY = (Fraction(-1),) * 4


@dataclass(frozen=True)
class QuickVerdict:
    """A verdict of the quick path (never None: undecided formulas give no QuickVerdict)."""

    converges: bool
    certificate: str


class _Skip(Exception):
    """Outside the quick path's whitelist (the full engine reads it, or refuses it)."""


def quick_verdict(text: str, start: int = 1) -> QuickVerdict | None:
    """The verdict on :math:`\\sum_{n \\ge s} b_n` for the formula ``text`` of b_n, or None
    where the quick path does not decide (then nothing is claimed)."""
    try:
        with time_limit(QUICK_SECONDS):
            return _quick_verdict(text, start)
    except Exception:  # noqa: BLE001 - any failure here leaves the formula to the full engine
        return None


def _quick_verdict(text: str, start: int) -> QuickVerdict | None:
    try:
        tree = _parse(text)
        for order in ORDERS:
            try:
                v = _Builder(order).value(tree)
                verdict = _decide(v)
            except Unsupported:
                continue
            if verdict is not None:
                _Ranges(start).check(tree)
                return verdict
    except (_Skip, NotProven, Unsupported):
        return None
    return None


def _parse(text: str) -> ast.AST:
    if not isinstance(text, str) or not text.strip() or len(text) > MAX_TEXT or not text.isascii():
        raise _Skip
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError:
        raise _Skip from None
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_NODES:
        raise _Skip
    for node in nodes:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                raise _Skip
            if len(repr(node.value)) > MAX_LITERAL_DIGITS:
                raise _Skip
        elif isinstance(node, ast.Name):
            if node.id not in ("n", "pi", "E") and node.id not in FUNCTIONS:
                raise _Skip
        elif isinstance(node, ast.Call):
            ok_arity = len(node.args) == (2 if getattr(node.func, "id", "") == "binomial" else 1)
            if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
                raise _Skip
            if node.keywords or not ok_arity:
                raise _Skip
        elif not isinstance(
            node,
            (ast.BinOp, ast.UnaryOp, ast.Load, ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)
            + (ast.BitXor, ast.USub, ast.UAdd),
        ):
            raise _Skip
    _literals(tree, text.strip())
    return tree


def _literals(tree: ast.AST, source: str) -> None:
    """Each float literal gets its exact decimal value as typed (as the full parser does)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, float):
            seg = ast.get_source_segment(source, node) or ""
            if "_" in seg or not seg:
                raise _Skip
            try:
                node.exact = Fraction(seg)  # type: ignore[attr-defined]
            except ValueError:
                raise _Skip from None


def _literal(node: ast.Constant) -> Fraction:
    return getattr(node, "exact", None) or Fraction(node.value)


def _is_n(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "n"


def _func(node: ast.Call) -> str:
    name = node.func.id  # type: ignore[attr-defined]
    return "log" if name == "ln" else name


# --------------------------------------------------------------------------- asymptotics


class _Builder:
    """The :class:`Value` of each node as n -> oo."""

    def __init__(self, order: int):
        self.order = order

    def const(self, c) -> Value:
        return Value.const(c, self.order)

    def value(self, node: ast.AST) -> Value:
        if isinstance(node, ast.Constant):
            return self.const(_literal(node))
        if isinstance(node, ast.Name):
            if node.id == "n":
                return Value.n(self.order)
            return self.const(PI if node.id == "pi" else E)
        if isinstance(node, ast.UnaryOp):
            v = self.value(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp):
            return self._binop(node)
        if isinstance(node, ast.Call):
            return self._call(_func(node), node.args)
        raise _Skip

    def _binop(self, node: ast.BinOp) -> Value:
        if isinstance(node.op, (ast.Pow, ast.BitXor)):
            return self._power(node.left, node.right)
        a, b = self.value(node.left), self.value(node.right)
        if isinstance(node.op, ast.Add):
            return a + b
        if isinstance(node.op, ast.Sub):
            return a - b
        if isinstance(node.op, ast.Mult):
            return a * b
        return a / b

    def _power(self, base: ast.AST, expo: ast.AST) -> Value:
        if isinstance(base, ast.Name) and base.id == "E":
            return self.value(expo).exp()  # E**x = exp(x) exactly (log E = 1, not an interval)
        e = self.value(expo)
        r = _point(e)
        if r is not None:
            return self.value(base).power(r)
        c = _point(self.value(base)) if _constant(base) else None
        if c == -1 and _is_n(expo):
            return Value.rough(Fraction(-1), Fraction(1), self.order)  # (-1)**n
        b = self.value(base)
        return (e * b.log()).exp()

    def _call(self, name: str, args: list) -> Value:
        if name == "binomial":
            return self._binomial(*args)
        x = self.value(args[0]) if name not in ("sin", "cos", "atan") else None
        if name == "exp":
            return x.exp()
        if name == "log":
            return self.const(1) if isinstance(args[0], ast.Name) and args[0].id == "E" else x.log()
        if name == "sqrt":
            return x.power(Fraction(1, 2))
        if name == "Abs":
            s = x.sign()
            if s == 0:
                raise Unsupported("Abs of a term without an eventual sign")
            return x if s > 0 else -x
        if name in ("sinh", "cosh", "tanh"):
            return self._hyperbolic(name, x)
        if name in ("factorial", "gamma"):
            return self._gamma(x + self.const(1) if name == "factorial" else x)
        if name == "tan":
            return self._sin(x) / self._cos(x)
        return self._bounded(name, args[0])

    def _bounded(self, name: str, arg: ast.AST) -> Value:
        """sin, cos, atan: Taylor where the argument tends to 0, else a bounded factor."""
        try:
            x = self.value(arg)
            small = x.tends_to_zero() and not x.g and not x.p.rough
        except Unsupported:
            x, small = None, False
        if name == "atan":
            if small:
                return self._bounded_small_atan(x)
            if x is not None and x.tends_to_plus_infinity():
                half_pi = self.const(PI * Iv.point(Fraction(1, 2)))
                return half_pi - self._bounded_small_atan(self.const(1) / x)
            raise Unsupported("atan of an argument without a limit")
        if small:
            return self._sin(x) if name == "sin" else self._cos(x)
        return Value.rough(Fraction(-1), Fraction(1), self.order)

    def _bounded_small_atan(self, x: Value) -> Value:
        return self._odd_even(x, 1, lambda j: j)  # x - x^3/3 + x^5/5 - ...

    def _series(self, x: Value, coeffs: list) -> Value:
        return Value((), taylor(x.p, coeffs), self.order)

    def _odd_even(self, x: Value, parity: int, denominator) -> Value:
        """sum over j of the given parity of (-1)^(j // 2) x^j / denominator(j), x -> 0."""
        if x.g or not x.tends_to_zero():
            raise Unsupported("a Taylor series at an argument that does not tend to 0")
        coeffs = [
            Iv.point(Fraction((-1) ** (j // 2), denominator(j)) if j % 2 == parity else 0)
            for j in range(self.order)
        ]
        return self._series(x, coeffs)

    def _sin(self, x: Value) -> Value:
        return self._odd_even(x, 1, math.factorial)

    def _cos(self, x: Value) -> Value:
        return self._odd_even(x, 0, math.factorial)

    def _hyperbolic(self, name: str, x: Value) -> Value:
        half = self.const(Fraction(1, 2))
        if name == "tanh":
            e2 = (self.const(2) * x).exp()
            return (e2 - self.const(1)) / (e2 + self.const(1))
        ep, em = x.exp(), (-x).exp()
        return (ep - em) * half if name == "sinh" else (ep + em) * half

    def _gamma(self, x: Value) -> Value:
        r"""Stirling: :math:`\log\Gamma(x) = (x - \tfrac12)\log x - x + \tfrac12\log 2\pi
        + \frac{1}{12x} - \frac{1}{360x^3} + \frac{1}{1260x^5} + O(x^{-7})`, x -> +oo."""
        if not x.tends_to_plus_infinity():
            raise Unsupported("gamma of an argument that does not tend to +oo")
        c = self.const
        lx = x.log()
        inv = c(1) / x
        corr = inv * (
            c(Fraction(1, 12))
            - inv * inv * (c(Fraction(1, 360)) - c(Fraction(1, 1260)) * inv * inv)
        )
        rest = Value((), _error_term(x, 7), self.order)
        two_pi = c(PI * Iv.point(2))
        lg = (x - c(Fraction(1, 2))) * lx - x + c(Fraction(1, 2)) * two_pi.log() + corr + rest
        return lg.exp()

    def _binomial(self, top: ast.AST, bottom: ast.AST) -> Value:
        x = self.value(top)
        if isinstance(bottom, ast.Constant) and isinstance(bottom.value, int):
            k = bottom.value
            if not 0 <= k <= 64:
                raise _Skip
            out = self.const(Fraction(1, math.factorial(k)))
            for j in range(k):
                out = out * (x - self.const(j) if j else x)
            return out
        y = self.value(bottom)
        one = self.const(1)
        return self._gamma(x + one) / (self._gamma(y + one) * self._gamma(x - y + one))


def _error_term(x: Value, k: int):
    """The expansion O(x^-k) for x -> oo without an exponential part."""
    from theory.series.scale_asymptotics import Expansion, mono_pow

    if x.g:
        raise Unsupported("Stirling's formula at an exponentially large argument")
    m, _ = x.size()
    return Expansion.make({}, mono_pow(m, Fraction(-k)))


def _integer_valued(node: ast.AST) -> bool:
    """Built from n and integer literals by +, - and * only: an integer at every integer n."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int) and not isinstance(node.value, bool)
    if isinstance(node, ast.Name):
        return node.id == "n"
    if isinstance(node, ast.UnaryOp):
        return _integer_valued(node.operand)
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub, ast.Mult)):
        return _integer_valued(node.left) and _integer_valued(node.right)
    return False


def _constant(node: ast.AST) -> bool:
    return not any(_is_n(t) for t in ast.walk(node))


def _point(v: Value) -> Fraction | None:
    """The exact rational a value is, or None."""
    if v.g or v.p.rough or v.p.err is not None or len(v.p.terms) != 1:
        return None
    m, c = v.p.terms[0]
    return c.lo if m == ONE and c.is_point else None


# --------------------------------------------------------------------------- the verdict


def _decide(v: Value) -> QuickVerdict | None:
    s = v.g_sign()
    if s:
        lead_m, lead_c = v.g[0]
        g_text = f"{_coef(lead_c)} {mono_text(lead_m)}"
        if s < 0:
            return QuickVerdict(
                True,
                f"asymptotic scale: b_n = exp(G(n)) P(n) with G(n) ~ {g_text} -> -oo faster "
                "than any multiple of log(n) and P(n) of at most power size, so "
                "|b_n| <= n^-2 for all large n; sum n^-2 converges (comparison)",
            )
        if v.sign() == 0:
            return None
        return QuickVerdict(
            False,
            f"asymptotic scale: |b_n| = exp(G(n)) |P(n)| with G(n) ~ {g_text} -> +oo faster "
            "than any multiple of log(n): the terms do not tend to 0 (term test)",
        )
    m, c = v.size()
    form = f"n^a log(n)^b log(log(n))^c log(log(log(n)))^d with (a, b, c, d) = {_exps(m)}"
    if m < BOUNDARY:
        how = "b_n = O(m(n))" if c is None else f"|b_n| <= {_coef_abs(c)} m(n) eventually"
        return QuickVerdict(
            True,
            f"asymptotic scale: {how}, m(n) = {mono_text(m)} = {form} < (-1, -1, -1, -1) "
            "lexicographically, so sum m(n) converges (Cauchy condensation); the series "
            "converges absolutely (comparison)",
        )
    if c is None or c.sign() == 0:
        return None
    return QuickVerdict(
        False,
        f"asymptotic scale: b_n / m(n) eventually in [{_coef(c.lo)}, {_coef(c.hi)}] "
        f"(one sign), m(n) = {mono_text(m)} = {form} >= (-1, -1, -1, -1) "
        "lexicographically, so sum m(n) diverges (Cauchy condensation), and so does the "
        "series (comparison)",
    )


def _coef(c) -> str:
    if isinstance(c, Iv):
        if c.is_point:
            return _coef(c.lo)
        mid, half = (c.lo + c.hi) / 2, (c.hi - c.lo) / 2
        if abs(mid) > 0 and half < abs(mid) * Fraction(1, 10**9):
            return f"{float(mid):.9g}"
        return f"[{_coef(c.lo)}, {_coef(c.hi)}]"
    return str(c) if c.denominator < 10**6 else f"{float(c):.6g}"


def _coef_abs(c: Iv) -> str:
    return _coef(max(abs(c.lo), abs(c.hi)))


def _exps(m: tuple) -> str:
    return "(" + ", ".join(str(e) for e in m) + ")"


# --------------------------------------------------------------------------- definedness


class _Ranges:
    """Proves every term b_n, n >= start, a finite real number (else NotProven)."""

    def __init__(self, start: int):
        self.start = start
        self.builder = _Builder(DEFAULT_ORDER)

    def check(self, tree: ast.AST) -> None:
        if self.start < 0:
            raise NotProven("a negative start")
        self.tail = False
        for n in range(self.start, self.start + FIRST_TERMS):
            self.range(tree, R(float(n), float(n)), n)
        self.tail = True
        self.n0 = self.start + FIRST_TERMS
        self.range(tree, R(float(self.n0), INF), None)

    def range(self, node: ast.AST, n: R, point: int | None) -> R:
        if isinstance(node, ast.Constant):
            q = _literal(node)
            return R(q, q)
        if isinstance(node, ast.Name):
            if node.id == "n":
                return n
            c = PI if node.id == "pi" else E
            return R(c.lo, c.hi)
        if isinstance(node, ast.UnaryOp):
            x = self.range(node.operand, n, point)
            return -x if isinstance(node.op, ast.USub) else x
        if isinstance(node, ast.BinOp):
            return self._binop(node, n, point)
        return self._call(_func(node), node.args, n, point)

    def _binop(self, node: ast.BinOp, n: R, point: int | None) -> R:
        if isinstance(node.op, (ast.Pow, ast.BitXor)):
            return self._power(node, n, point)
        a, b = self.range(node.left, n, point), self.range(node.right, n, point)
        if isinstance(node.op, ast.Mult):
            return a * b
        if isinstance(node.op, ast.Div):
            return a * self._nonzero(node.right, b)
        out = a + b if isinstance(node.op, ast.Add) else a - b
        return out

    def _nonzero(self, node: ast.AST, r: R) -> R:
        """1/r, where r is the range of node; over the tail, a sum of powers of n that
        interval arithmetic cannot separate from 0 is bounded by its dominant power."""
        if r.has_zero() and self.tail:
            r = self._dominant(node)
        return r.inverse()

    def _positive(self, node: ast.AST, r: R) -> R:
        if r.lo <= 0 and self.tail:
            r = self._dominant(node)
        return r

    def _dominant(self, node: ast.AST) -> R:
        try:
            v = self.builder.value(node)
        except Unsupported:
            raise NotProven("a range that interval arithmetic cannot bound") from None
        if v.g or v.p.rough or v.p.err is not None:
            raise NotProven("a range that interval arithmetic cannot bound")
        terms = []
        for m, c in v.p.terms:
            if any(m[1:]) or not c.is_point:
                raise NotProven("a range that interval arithmetic cannot bound")
            terms.append((m[0], c.lo))
        return dominant_power_range(terms, self.n0)

    def _power(self, node: ast.BinOp, n: R, point: int | None) -> R:
        if _constant(node.right):
            try:
                r = _point(self.builder.value(node.right))
            except Unsupported:
                r = None
            if r is not None and r.denominator == 1 and abs(r) <= 10**6:
                base = self.range(node.left, n, point)
                if r < 0 and base.has_zero() and self.tail:
                    base = self._dominant(node.left)  # r_ipow then refuses a 0 it cannot exclude
                return r_ipow(base, int(r))
        if _constant(node.left) and _is_n(node.right):
            try:
                c = _point(self.builder.value(node.left))
            except Unsupported:
                c = None
            if c == -1:
                return (
                    R(-1.0, 1.0) if point is None else R(float((-1) ** point), float((-1) ** point))
                )
        base = self._positive(node.left, self.range(node.left, n, point))
        return r_pow(base, self.range(node.right, n, point))

    def _call(self, name: str, args: list, n: R, point: int | None) -> R:
        xs = [self.range(a, n, point) for a in args]
        x = xs[0]
        if name == "exp":
            return r_exp(x)
        if name == "log":
            return r_log(self._positive(args[0], x))
        if name == "sqrt":
            return r_sqrt(x if x.lo >= 0 else self._positive(args[0], x))
        if name in ("sin", "cos"):
            return r_sin_cos(x, math.sin if name == "sin" else math.cos)
        if name == "tan":
            return r_tan(x)
        if name == "atan":
            return r_atan(x)
        if name == "Abs":
            return R(0.0 if x.has_zero() else min(abs(x.lo), abs(x.hi)), max(abs(x.lo), abs(x.hi)))
        if name in ("sinh", "cosh", "tanh"):
            ep, em = r_exp(x), r_exp(-x)
            if name == "sinh":
                return (ep - em) * R(0.5, 0.5)
            if name == "cosh":
                return (ep + em) * R(0.5, 0.5)
            return R(-1.0, 1.0)
        one = R(1.0, 1.0)
        if name == "factorial":
            return r_gamma(self._positive(args[0], x) + one)
        if name == "gamma":
            return r_gamma(self._positive(args[0], x))
        # binomial(x, y) = Gamma(x + 1) / (Gamma(y + 1) Gamma(x - y + 1)), all arguments >= 1
        y = xs[1]
        diff = ast.BinOp(left=args[0], op=ast.Sub(), right=args[1])
        d = self._positive(diff, x - y) if (x - y).lo < 0 else x - y
        gx = r_gamma(self._positive(args[0], x) + one)
        gy = r_gamma(self._positive(args[1], y) + one)
        out = gx * (gy * r_gamma(d + one)).inverse()
        if _integer_valued(args[0]) and _integer_valued(args[1]) and y.lo >= 0 and d.lo >= 0:
            out = R(max(out.lo, 1.0), out.hi)  # a binomial coefficient C(x, y), 0 <= y <= x
        return out
