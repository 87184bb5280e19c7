"""Safe parsing of user-typed formulas into sympy expressions.

User text is parsed with Python's :mod:`ast` and every node is checked against a
whitelist before a sympy object is built from it by hand.  Nothing is ever passed to
``eval``, ``exec`` or ``sympify``.

Accepted: numbers, the symbol ``n`` (the distance), parameter names (declared free, given
a value, or any short identifier when ``free_params=True``), the constants ``pi`` and
``E``, the operators ``+ - * / ** ^`` (``^`` means power), comparisons inside
``Piecewise``, the functions ``exp log ln sqrt cos sin Abs Min Max floor ceiling factorial
gamma binomial Piecewise`` and ``Product(term, (k, lo, hi))`` with its own index ``k``.

Parameter values (``values``) are put in while the formula is built, before sympy
simplifies anything: ``Abs(k)`` with ``k = -1`` is 1.  A declared parameter is a real
symbol unless an assumption (``k>0``, see :func:`parse_assumptions`) says more; with
``free_params=True`` undeclared short names are accepted as *positive* parameters (the
library's convention).  Any other name is an error, which names the nearest named RPE:

>>> parse_expression("Abs(k)*n", values={"k": -1})
n
>>> parse_expression("kerple")
Traceback (most recent call last):
...
theory.series.expressions.ExpressionError: unknown name 'kerple'; did you mean the named RPE 'kerple-log' (--rpe kerple-log)?

>>> parse_expression("exp(-ln(n)**2)")
exp(-log(n)**2)
>>> parse_expression("log(1 + k*n)^(-r)", free_params=True)
log(k*n + 1)**(-r)
>>> parse_expression("__import__('os').system('x')")
Traceback (most recent call last):
...
theory.series.expressions.ExpressionError: attribute access cannot be called
"""

from __future__ import annotations

import ast
import contextlib
import contextvars
import decimal
import math
import numbers
import re
from collections.abc import Iterable, Iterator

import sympy as sp

from theory.series.rpe_names import suggest_rpe_name

#: The distance variable of every RPE series, b_n, n = 1, 2, ...
N = sp.Symbol("n", positive=True)

MAX_LENGTH = 2000
MAX_NODES = 400
MAX_DEPTH = 60
#: largest number of decimal digits a numeric constant built from the input may have
MAX_DIGITS = 4000
#: binomial(x, k) with a literal integer 0 <= k <= this is parsed as its falling-factorial
#: polynomial x (x-1) ... (x-k+1)/k! (exact for every x; no gamma poles at x < k)
MAX_BINOMIAL_K = 64

_FUNCTIONS = {
    "exp": sp.exp,
    "log": sp.log,
    "ln": sp.log,
    "sqrt": sp.sqrt,
    "cos": sp.cos,
    "sin": sp.sin,
    "atan": sp.atan,
    "tan": lambda x: sp.sin(x) / sp.cos(x),  # as sin/cos: the engines read both
    # hyperbolic functions as the exponentials they are (the engines read exp)
    "cosh": lambda x: (sp.exp(x) + sp.exp(-x)) / 2,
    "sinh": lambda x: (sp.exp(x) - sp.exp(-x)) / 2,
    "tanh": lambda x: (sp.exp(2 * x) - 1) / (sp.exp(2 * x) + 1),
    # asinh(x) = log(x + sqrt(x^2 + 1)), real for every real x (the engines read log, sqrt)
    "asinh": lambda x: sp.log(x + sp.sqrt(x**2 + 1)),
    "Abs": sp.Abs,
    "Min": sp.Min,
    "Max": sp.Max,
    "floor": sp.floor,
    # ceiling(x) = -floor(-x): every engine that reads floor reads it
    "ceiling": lambda x: -sp.floor(-x),
    "ceil": lambda x: -sp.floor(-x),
    "factorial": sp.factorial,
    "gamma": sp.gamma,
    "binomial": sp.binomial,
}
_ARITY = {"log": (1, 2), "Min": (2, 16), "Max": (2, 16), "binomial": (2, 2)}
_CONSTANTS = {"pi": sp.pi, "E": sp.E}
_RESERVED = set(_FUNCTIONS) | set(_CONSTANTS) | {"Piecewise", "Product", "True", "False", "None"}
#: assumption words of :func:`parse_assumptions` -> sympy symbol assumptions
ASSUMPTIONS = {">": "positive", "<": "negative", ">=": "nonnegative", "<=": "nonpositive"}
#: names that are never accepted as parameters, even in free mode (they look like code)
_FORBIDDEN_NAMES = {
    "os",
    "sys",
    "eval",
    "exec",
    "open",
    "import",
    "compile",
    "globals",
    "locals",
    "getattr",
    "setattr",
    "delattr",
    "vars",
    "dir",
    "input",
    "print",
    "lambda",
    "subprocess",
    "builtins",
    "type",
    "object",
    "class",
    "nan",
    "inf",
    "oo",
    "zoo",
    "NaN",
    "Inf",
    "infinity",
}
_PARAM_RE = re.compile(r"^[A-Za-z][A-Za-z0-9]{0,7}(_[A-Za-z0-9]{1,4})?$")


#: largest denominator of a rational exponent that sympy's polynomial algebra (cancel,
#: together, factor) is given: n**(7/10 + 1e-16) is a polynomial of degree
#: 7000000000000001 in n**(1/10**16) to it, and n**2.318614 one of degree 1159307 in
#: n**(1/500000), whose gcd runs in big-integer operations no timer interrupts
MAX_EXPONENT_DENOMINATOR = 10**4


def small_exponent_denominators(expr: sp.Expr) -> bool:
    """Every rational exponent in ``expr`` has a denominator of at most
    :data:`MAX_EXPONENT_DENOMINATOR` (so sympy's polynomial algebra may be given it).

    >>> small_exponent_denominators(N**sp.Rational(3, 2) + 1)
    True
    >>> small_exponent_denominators(N**sp.Rational(1159307, 500000) + 1)
    False
    """
    return all(
        not (p.exp.is_Rational and p.exp.q > MAX_EXPONENT_DENOMINATOR) for p in expr.atoms(sp.Pow)
    )


def constant_power_log(f: sp.Expr, absolute: bool = False) -> sp.Expr | None:
    """e(n) log|c| for a factor f = c^e(n), c a nonzero real number: log f where f > 0 at
    every integer n (c > 0, or c < 0 with e(n)/2 an integer), log|f| with ``absolute``;
    None otherwise.  sympy's ``expand_log(..., force=True)`` loops on log(sin(10)**(2*n)).

    >>> constant_power_log(sp.sin(10) ** (2 * N))
    2*n*log(-sin(10))
    >>> constant_power_log(sp.Integer(-2) ** N) is None
    True
    """
    base, e = f.as_base_exp()
    if not (base.is_number and e.has(N)) or base.is_zero is not False:
        return None
    if base.is_positive:
        return e * sp.log(base)
    if base.is_negative and (absolute or integer_valued(e / 2)):
        return e * sp.log(-base)
    return None


def log_of_positive_product(b: sp.Expr) -> sp.Expr:
    """log b of positive terms, expanded factor by factor; c^e(n) as e log c (an even e for
    c < 0: :func:`constant_power_log`), where ``expand_log(..., force=True)`` would loop.

    >>> log_of_positive_product(sp.sin(10) ** (2 * N) / N)
    2*n*log(-sin(10)) - log(n)
    """
    out = sp.Integer(0)
    for f in sp.Mul.make_args(b):
        power = constant_power_log(f)
        out += power if power is not None else sp.expand_log(sp.log(f), force=True)
    return out


def integer_binomials(e: sp.Expr) -> sp.Expr:
    """Each ``binomial(j, n)`` with an integer j written in a form that evaluates at every
    integer n >= 0 (sympy's gamma form, and its binomial of a negative integer and a real n,
    have poles there): j < 0 as (-1)^n (n + 1) ... (n - j - 1) / (-j - 1)! (as
    (-1)^n Gamma(n - j)/(Gamma(-j) Gamma(n + 1)) beyond -j = 64 factors), j >= 0 as 0 beyond
    n = j.

    >>> integer_binomials(sp.binomial(-3, N, evaluate=False))
    (-1)**n*(n + 1)*(n + 2)/2
    >>> integer_binomials(sp.binomial(2, N))
    Piecewise((0, n > 2), (binomial(2, n), True))
    """

    def rewrite(j: sp.Integer) -> sp.Expr:
        if j >= 0:
            return sp.Piecewise((0, N > j), (sp.binomial(j, N), True))
        m = -int(j)
        if m > MAX_BINOMIAL_K:  # Gamma(n + m)/(Gamma(m) Gamma(n + 1)): no pole at n >= 0
            return sp.Pow(-1, N) * sp.gamma(N + m) / (sp.gamma(m) * sp.gamma(N + 1))
        rising = sp.Mul(*[N + i for i in range(1, m)])
        return sp.Pow(-1, N) * rising / sp.factorial(m - 1)

    return e.replace(
        lambda f: isinstance(f, sp.binomial) and f.args[1] == N and f.args[0].is_Integer,
        lambda f: rewrite(f.args[0]),
    )


#: stands for binomial while values are substituted (sympy evaluates binomial(-3, n) to zoo)
_HELD_BINOMIAL = sp.Function("held_binomial")


def substitute(e: sp.Expr, values: dict) -> sp.Expr:
    """``e.subs(values)`` with each binomial(A, n) whose A becomes an integer written by
    :func:`integer_binomials`.

    >>> a = sp.Symbol("a")
    >>> substitute(sp.binomial(a, N) / N, {a: -1})
    (-1)**n/n
    """
    if not e.has(sp.binomial):
        return e.subs(values)
    held = e.replace(sp.binomial, _HELD_BINOMIAL).subs(values)
    return integer_binomials(
        held.replace(_HELD_BINOMIAL, lambda x, k: sp.binomial(x, k, evaluate=not x.is_Integer))
    )


def integer_valued(e: sp.Expr) -> bool:
    """e is an integer at every integer n: sympy knows it (``floor(sqrt(2)*n)``), or e is a
    polynomial in n with integer coefficients (``n``, ``2*n + 1``).

    >>> integer_valued(N), integer_valued(sp.floor(sp.sqrt(2) * N)), integer_valued(N / 2)
    (True, True, False)
    """
    if e.is_integer:
        return True
    if not e.is_polynomial(N):
        return False
    return all(c.is_Integer for c in sp.Poly(e, N).all_coeffs())


#: set by :func:`keep_products`: a product without a real closed form is kept unevaluated
_KEEP_PRODUCTS = contextvars.ContextVar("keep_products", default=False)


@contextlib.contextmanager
def keep_products() -> Iterator[None]:
    """Inside the block, ``Product(...)`` without a real closed form is returned unevaluated
    (for :mod:`theory.series.product_terms`, which bounds it) instead of refused."""
    token = _KEEP_PRODUCTS.set(True)
    try:
        yield
    finally:
        _KEEP_PRODUCTS.reset(token)


class ExpressionError(ValueError):
    """The text is not an accepted formula; the message says why in one line."""


def parameter_symbol(name: str, kind: str = "positive") -> sp.Symbol:
    """The sympy symbol of a parameter: ``kind`` is ``real``, ``positive`` (the library's
    convention, the default), ``negative``, ``nonnegative`` or ``nonpositive``."""
    if kind == "real":
        return sp.Symbol(name, real=True)
    return sp.Symbol(name, **{kind: True})


def parse_expression(
    text: str,
    params: tuple | set = (),
    free_params: bool = False,
    variable: str = "n",
    values: dict | None = None,
    assumptions: dict | None = None,
) -> sp.Expr:
    """Parse ``text`` into a sympy expression in ``n`` using a whitelist.

    ``params`` are declared free parameters (real symbols unless ``assumptions`` maps the
    name to a kind of :func:`parameter_symbol`); ``values`` maps names to numbers that
    replace them as the formula is built; with ``free_params`` any other short identifier
    is accepted as a positive parameter too.  Raises :class:`ExpressionError` for
    anything else.
    """
    return parse_expression_names(text, params, free_params, variable, values, assumptions)[0]


def parse_expression_names(
    text: str,
    params: tuple | set = (),
    free_params: bool = False,
    variable: str = "n",
    values: dict | None = None,
    assumptions: dict | None = None,
) -> tuple:
    """:func:`parse_expression` and the set of parameter names the formula uses."""
    if not isinstance(text, str):
        raise ExpressionError("expression must be a string")
    text = text.strip()
    if not text:
        raise ExpressionError("empty expression")
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"expression longer than {MAX_LENGTH} characters")
    if not text.isascii():
        bad = next(c for c in text if not c.isascii())
        raise ExpressionError(f"non-ASCII character {bad!r} in expression")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"syntax error at column {exc.offset}: {exc.msg}") from None
    nodes = list(ast.walk(tree))
    if len(nodes) > MAX_NODES:
        raise ExpressionError(f"expression has more than {MAX_NODES} syntax nodes")
    builder = _Builder(
        variable, set(params), free_params, source=text, values=values, assumptions=assumptions
    )
    return builder.build(tree.body, 0), builder.used


def parameter_value(name: str, v: object, keep_sympy_floats: bool = False) -> sp.Expr:
    """A parameter value as a sympy number: Python floats (and sympy Floats unless
    ``keep_sympy_floats``: learned values keep their digits) by their exact binary value
    (:func:`binary_value`; ``nsimplify`` turned 1e-300 into 0 and 0.7071067811865476 into
    sqrt(2)/2); text and other objects are refused (they never reach sympify).  Typed
    decimals (``--param k=0.1``) are parsed from their text, exactly, before they get here.

    >>> parameter_value("r", 1.5), parameter_value("k", 2), parameter_value("k", 1e-300) > 0
    (3/2, 2, True)
    >>> parameter_value("a", sp.Float(0.0625, 17), keep_sympy_floats=True)
    0.062500000000000000
    """
    if isinstance(v, bool) or not isinstance(v, (int, float, sp.Basic)):
        raise ExpressionError(f"parameter {name} must be a number, got {v!r}")
    if isinstance(v, float) and not math.isfinite(v):
        raise ExpressionError(f"parameter {name} must be a finite real number, got {v!r}")
    if isinstance(v, float):
        val = binary_value(v)
    elif isinstance(v, sp.Float) and not keep_sympy_floats:
        val = sp.Rational(v) if v.is_finite else v
    else:
        val = sp.sympify(v)
    if not (val.is_number and val.is_real and val.is_finite):
        raise ExpressionError(f"parameter {name} must be a finite real number, got {v!r}")
    return val


def binary_value(x: float) -> sp.Rational:
    """The exact value of a float64 as a rational (what a file or a model holds), not the
    decimal it prints as: ``nsimplify`` would read -3.2 as -16/5 and 1.4142135623730951
    as sqrt(2).

    >>> binary_value(-3.2), binary_value(0.5)
    (-3602879701896397/1125899906842624, 1/2)
    >>> binary_value(-3.2) == sp.Rational(-16, 5)
    False
    """
    if isinstance(x, numbers.Integral):
        return sp.Integer(int(x))
    num, den = float(x).as_integer_ratio()
    return sp.Rational(num, den)


def _check_size(base, exponent):
    """Refuse numeric powers whose value would have more than MAX_DIGITS digits."""
    if not (base.is_Number and exponent.is_Number):
        return
    b, e = abs(float(base)) if base.is_finite else math.inf, float(exponent)
    if b in (0.0, 1.0):
        return
    digits = abs(e) * abs(math.log10(b)) if math.isfinite(b) else math.inf
    if digits > MAX_DIGITS:
        raise ExpressionError(
            f"numeric constant {base}**{exponent} is too large "
            f"(about 10^{digits:.3g}); at most {MAX_DIGITS} digits"
        )


class _Builder:
    def __init__(
        self,
        variable,
        params,
        free_params,
        source="",
        values: dict | None = None,
        assumptions: dict | None = None,
    ):
        self.source = source
        self.variable = variable
        self.params = params
        self.free = free_params
        self.values = {k: parameter_value(k, v) for k, v in (values or {}).items()}
        self.assumptions = dict(assumptions or {})
        self.used = set()
        self.symbols = {variable: N if variable == "n" else sp.Symbol(variable, positive=True)}

    def build(self, node, depth):
        if depth > MAX_DEPTH:
            raise ExpressionError(f"expression nested deeper than {MAX_DEPTH}")
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise ExpressionError(f"{_describe(node)} is not allowed in a formula")
        return method(node, depth + 1)

    def _Constant(self, node, depth):
        v = node.value
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise ExpressionError(f"constant {v!r} is not a number")
        if isinstance(v, float):
            return self._decimal(node, v)
        if len(str(abs(v))) > MAX_DIGITS:
            raise ExpressionError(f"integer constant longer than {MAX_DIGITS} digits")
        return sp.Integer(v)

    def _decimal(self, node, v):
        """The exact decimal value of the literal as typed: Python's float would turn
        1e-400 into 0.0 (and 1e309 into inf), silently changing the series."""
        seg = (ast.get_source_segment(self.source, node) or repr(v)).replace("_", "")
        try:
            d = decimal.Decimal(seg)
        except decimal.InvalidOperation:
            d = decimal.Decimal(repr(v))
        if not d.is_finite():
            raise ExpressionError(f"constant {seg} is not finite")
        if d != 0 and abs(d.adjusted()) > MAX_DIGITS:
            raise ExpressionError(
                f"numeric constant {seg} is too large or too small "
                f"(10^{d.adjusted()}); at most {MAX_DIGITS} digits"
            )
        return sp.Rational(str(d))

    def _Name(self, node, depth):
        name = node.id
        if name in self.symbols:
            return self.symbols[name]
        if name in _CONSTANTS:
            return _CONSTANTS[name]
        if name in _FUNCTIONS or name == "Piecewise":
            raise ExpressionError(f"function {name!r} used without arguments")
        if name in self.values:
            self.used.add(name)
            return self.values[name]
        if name in self.params or (
            self.free
            and _PARAM_RE.match(name)
            and name not in _FORBIDDEN_NAMES
            and name not in _RESERVED
        ):
            kind = self.assumptions.get(name, "real" if name in self.params else "positive")
            sym = parameter_symbol(name, kind)
            self.symbols[name] = sym
            self.used.add(name)
            return sym
        raise ExpressionError(unknown_name_message(name, self.variable))

    def _UnaryOp(self, node, depth):
        operand = self.build(node.operand, depth)
        if isinstance(node.op, ast.USub):
            return -operand
        if isinstance(node.op, ast.UAdd):
            return operand
        raise ExpressionError(f"operator {type(node.op).__name__} is not allowed")

    def _BinOp(self, node, depth):
        left, right = self.build(node.left, depth), self.build(node.right, depth)
        op = node.op
        if isinstance(op, ast.Add):
            return left + right
        if isinstance(op, ast.Sub):
            return left - right
        if isinstance(op, ast.Mult):
            return left * right
        if isinstance(op, ast.Div):
            if right == 0:
                raise ExpressionError("division by zero")
            return left / right
        if isinstance(op, (ast.Pow, ast.BitXor)):
            _check_size(left, right)
            if left == 0 and right.free_symbols:
                raise ExpressionError(
                    f"power with base 0, 0**({right}): it is 0 or undefined "
                    "depending on the sign of the exponent; write the "
                    "series without it"
                )
            return left**right
        raise ExpressionError(f"operator {type(op).__name__} is not allowed")

    def _Call(self, node, depth):
        if not isinstance(node.func, ast.Name):
            raise ExpressionError(f"{_describe(node.func)} cannot be called")
        name = node.func.id
        if node.keywords:
            raise ExpressionError(f"keyword arguments are not allowed (in {name})")
        if name == "Piecewise":
            return self._piecewise(node, depth)
        if name == "Product":
            return self._product(node, depth)
        if name not in _FUNCTIONS:
            allowed = ", ".join(
                sorted(list(_FUNCTIONS) + list(_CONSTANTS) + ["Piecewise", "Product"])
            )
            raise ExpressionError(f"function {name!r} is not allowed; allowed: {allowed}")
        args = [self.build(a, depth) for a in node.args]
        arity = _ARITY.get(name, (1, 1))
        if not arity[0] <= len(args) <= arity[1]:
            raise ExpressionError(f"{name} takes {arity[0]}..{arity[1]} arguments, got {len(args)}")
        if name == "exp" and args[0].is_Number and float(args[0]) > 2.3 * MAX_DIGITS:
            raise ExpressionError(f"exp({args[0]}) is too large")
        if name == "binomial" and args[1].is_Integer and 0 <= args[1] <= MAX_BINOMIAL_K:
            # binomial(x, k) = x (x-1) ... (x-k+1) / k! for every x (k a nonnegative integer):
            # the gamma form Gamma(x+1)/(Gamma(k+1) Gamma(x-k+1)) that the numeric engines
            # print has poles at the integers x < k, where the coefficient is exactly 0
            return sp.expand_func(sp.binomial(*args))
        if name == "binomial" and args[1] == N and args[0].is_Integer:
            return integer_binomials(sp.binomial(*args, evaluate=False))
        return _FUNCTIONS[name](*args)

    def _product(self, node: ast.Call, depth: int) -> sp.Expr:
        """``Product(term, (k, lo, hi))``: the index k is a new integer symbol inside term."""
        if (
            len(node.args) != 2
            or not isinstance(node.args[1], ast.Tuple)
            or len(node.args[1].elts) != 3
            or not isinstance(node.args[1].elts[0], ast.Name)
        ):
            raise ExpressionError("Product takes (term, (k, lo, hi)) with an index name k")
        index = node.args[1].elts[0].id
        if (
            index in self.symbols
            or index in _RESERVED
            or index in self.values
            or not _PARAM_RE.match(index)
        ):
            raise ExpressionError(f"Product index {index!r} must be a new name")
        lo, hi = (self.build(e, depth) for e in node.args[1].elts[1:])
        k = sp.Symbol(index, integer=True)
        self.symbols[index] = k
        try:
            term = self.build(node.args[0], depth)
        finally:
            del self.symbols[index]
        p = sp.Product(term, (k, lo, hi))
        done = p.doit()
        if done.has(sp.Product):  # nothing downstream evaluates an unevaluated product
            if _KEEP_PRODUCTS.get():
                return p
            raise ExpressionError(
                f"{p}: sympy finds no closed form in factorials or gamma functions (not supported)"
            )
        try:
            return sp.combsimp(done)
        except TypeError:  # rf(1 - I, n) rf(1 + I, n) for prod (1 + 1/k^2)
            if _KEEP_PRODUCTS.get():
                return p
            raise ExpressionError(
                f"{p}: its closed form has gamma functions of complex arguments (not supported)"
            ) from None

    def _piecewise(self, node, depth):
        pieces = []
        for arg in node.args:
            if not isinstance(arg, ast.Tuple) or len(arg.elts) != 2:
                raise ExpressionError("Piecewise takes (value, condition) pairs")
            value = self.build(arg.elts[0], depth)
            pieces.append((value, self._condition(arg.elts[1], depth)))
        if not pieces:
            raise ExpressionError("Piecewise needs at least one (value, condition) pair")
        return sp.Piecewise(*pieces)

    def _condition(self, node, depth):
        if isinstance(node, ast.Constant) and node.value is True:
            return sp.true
        if not isinstance(node, ast.Compare) or len(node.ops) != 1:
            raise ExpressionError("a Piecewise condition is one comparison (<, <=, >, >=) or True")
        ops = {ast.Lt: sp.Lt, ast.LtE: sp.Le, ast.Gt: sp.Gt, ast.GtE: sp.Ge}
        rel = ops.get(type(node.ops[0]))
        if rel is None:
            raise ExpressionError("a Piecewise condition uses <, <=, > or >=")
        return rel(self.build(node.left, depth), self.build(node.comparators[0], depth))


def unknown_name_message(name: str, variable: str = "n") -> str:
    """The error for a name that is neither the variable, a function, nor a parameter."""
    guess = suggest_rpe_name(name)
    if guess is not None:
        return f"unknown name {name!r}; did you mean the named RPE {guess!r} (--rpe {guess})?"
    return (
        f"unknown name {name!r}; the variable is {variable!r}; declare a parameter with "
        f"--free {name} or give it a value with --param {name}=VALUE"
    )


def parse_assumptions(texts: list | tuple | None) -> dict:
    """``["k>0", "r>=0"]`` -> ``{"k": "positive", "r": "nonnegative"}`` (only ``NAME OP 0``
    with OP one of ``> < >= <=``; ``NAME real`` is the default and accepted too).

    >>> parse_assumptions(["k>0", "r <= 0", "s real"])
    {'k': 'positive', 'r': 'nonpositive', 's': 'real'}
    """
    out = {}
    for text in texts or ():
        m = re.fullmatch(r"\s*([A-Za-z][A-Za-z0-9_]*)\s*(>=|<=|>|<)\s*0\s*", text) or re.fullmatch(
            r"\s*([A-Za-z][A-Za-z0-9_]*)\s+(real)\s*", text
        )
        if m is None:
            raise ExpressionError(
                f"assumption {text!r} is not of the form NAME>0, NAME<0, "
                "NAME>=0, NAME<=0 or 'NAME real'"
            )
        name, op = m.groups()
        if not _PARAM_RE.match(name) or name in _RESERVED | _FORBIDDEN_NAMES or name == "n":
            raise ExpressionError(f"invalid parameter name {name!r} in assumption {text!r}")
        out[name] = "real" if op == "real" else ASSUMPTIONS[op]
    return out


def _describe(node) -> str:
    kinds = {
        "Attribute": "attribute access",
        "Lambda": "lambda",
        "Subscript": "indexing",
        "JoinedStr": "f-string",
        "List": "a list",
        "Dict": "a dict",
        "Set": "a set",
        "Tuple": "a tuple",
        "Compare": "a comparison outside Piecewise",
        "BoolOp": "and/or",
        "IfExp": "if/else",
        "ListComp": "a comprehension",
        "GeneratorExp": "a generator",
        "NamedExpr": "assignment",
        "Starred": "*args",
        "Call": "a call",
        "Await": "await",
        "Yield": "yield",
    }
    return kinds.get(type(node).__name__, type(node).__name__)


_ASSIGN_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,31}$")  # formula names are checked later


def parse_assignments(pairs: Iterable[str] | None) -> dict:
    """Parse ``["k=1", "r=1.5"]`` into ``{"k": Rational/Float}`` (numbers only); ``true`` and
    ``false`` are 1 and 0 (switches such as T5's ``bidirectional``).

    >>> parse_assignments(["k=1", "r=3/2", "num_buckets=8", "bidirectional=true"])
    {'k': 1, 'r': 3/2, 'num_buckets': 8, 'bidirectional': 1}
    >>> parse_assignments(["k=1", "k=2"])
    Traceback (most recent call last):
    ...
    theory.series.expressions.ExpressionError: --param k is given twice; give each parameter once
    >>> parse_assignments(["r=nan"])
    Traceback (most recent call last):
    ...
    theory.series.expressions.ExpressionError: --param r=nan: the value 'nan' is not a finite real number
    """
    out = {}
    for pair in pairs or ():
        if "=" not in pair:
            raise ExpressionError(f"parameter {pair!r} is not of the form name=value")
        name, value = (s.strip() for s in pair.split("=", 1))
        if not _ASSIGN_NAME_RE.match(name) or name in _RESERVED or name == "n":
            raise ExpressionError(f"--param {pair}: invalid parameter name {name!r}")
        if name in out:
            raise ExpressionError(f"--param {name} is given twice; give each parameter once")
        out[name] = _assigned_value(pair, value)
    return out


def _assigned_value(pair: str, value: str) -> sp.Expr:
    switch = {"true": sp.Integer(1), "false": sp.Integer(0)}.get(value.lower())
    if switch is not None:
        return switch
    bad = f"--param {pair}: the value {value!r} is not a finite real number"
    if value.lower().lstrip("+-") in {"nan", "inf", "infinity", "oo", "zoo"}:
        raise ExpressionError(bad)
    try:
        val = parse_expression(value)
    except ExpressionError as exc:
        detail = "" if str(exc).startswith("unknown name") else f" ({exc})"
        raise ExpressionError(bad + detail) from None
    if not (val.is_number and val.is_real and val.is_finite):
        raise ExpressionError(bad)
    return sp.nsimplify(val) if isinstance(val, sp.Float) else val
