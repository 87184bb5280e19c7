"""Perturbation at the source (test helper): move a number the paper prints where a
check reads it, re-run the check, and see whether its verdict moves.

Two kinds of source are found for each claim:

* **table cells** -- numbers (and numbers printed as text) in the paper's printed tables
  and values (``theory/papers/<paper>.py``) that the check reads, directly or
  through the functions it calls;
* **literals** -- a number written in the check as the paper's value (``paper=...`` of an
  evidence item); the check is re-compiled with that literal changed.

:func:`probe` moves each source of a claim beyond its printed value (doubling it, halving
it, ...) until the verdict moves ("moved"), or reports that none did ("insensitive") or
that a moved value made the check raise ("crashed"; a check that has no answer for a
value raises :class:`~paper_checks.inferred.NotComputable`, which counts as an answer).
A table cell moved by a quarter of its last printed digit (within the paper's printed
precision) must leave the verdict as it is (:func:`probe_within`).  From the cells'
side, :func:`printed_cells` lists every cell of the printed modules, :func:`readers`
the claims whose checks read each, and :func:`moves_a_verdict` whether moving a cell
changes the verdict of some claim that reads it.
"""

from __future__ import annotations

import ast
import copy
import importlib
import inspect
import math
import sys
import textwrap
import types
from collections.abc import Iterator
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import numpy as np

from paper_checks.inferred import NotComputable, load_inferred
from paper_checks.registry import Claim, Context, evidence_of, verdict_of

#: modules whose module-level numbers are what the papers print
TABLE_MODULES = (
    "theory.papers.rpe",
    "theory.papers.align",
    "theory.papers.infoscale",
)
for _mod in TABLE_MODULES:
    importlib.import_module(_mod)
#: the factors tried, in order, to move a value beyond its tolerance (a positive integer,
#: a count or a length, stays a positive integer: doubled, halved, plus one)
FACTORS = (2.0, 0.5, -1.0, 10.0, 0.1)
INT_FACTORS = (2.0, 0.5, "+1")


@dataclass(frozen=True)
class Source:
    """One printed number: ``where`` names it; ``path`` locates it (module, name, keys)
    for a table cell, or (module, function, index of the literal) for a literal."""

    kind: str  # "cell" or "literal"
    where: str
    path: tuple
    value: object


def _is_number(x) -> bool:
    if isinstance(x, bool):
        return False
    if isinstance(x, (int, float)):
        return True
    return isinstance(x, str) and _decimal(x) is not None


def _decimal(text: str) -> Decimal | None:
    try:
        d = Decimal(text.strip())
    except (InvalidOperation, AttributeError):
        return None
    return d if d.is_finite() and text.strip()[:1] in "+-0123456789." else None


def _leaves(obj, path=()) -> Iterator[tuple[tuple, object]]:
    if isinstance(obj, str) and len(obj.split()) > 1:  # a printed row: "42.0 44.5 ..."
        for i, tok in enumerate(obj.split()):
            if _is_number(tok):
                yield path + (("token", i),), tok
        return
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            yield from _leaves(v, path + (i,))
    elif _is_number(obj):
        yield path, obj


def _names_read(fn, seen: set) -> set:
    """(module name, global name) pairs ``fn`` reads, following the paper_checks
    functions it calls (and the inferred quantities' rules)."""
    if fn in seen or not isinstance(fn, types.FunctionType):
        return set()
    seen.add(fn)
    inner = getattr(fn, "__wrapped__", None)  # a check wrapped by paper_checks.scale
    out = _names_read(inner, seen) if inner is not None else set()
    g = fn.__globals__
    names = set(fn.__code__.co_names)
    for const in fn.__code__.co_consts:  # nested functions and lambdas
        if isinstance(const, types.CodeType):
            names |= set(const.co_names)
            for inner in const.co_consts:
                if isinstance(inner, types.CodeType):
                    names |= set(inner.co_names)
    for name in names:
        obj = g.get(name)
        if isinstance(obj, types.ModuleType) and obj.__name__ in TABLE_MODULES:
            out |= {(obj.__name__, n) for n in names if hasattr(obj, n)}
        elif obj is not None:
            home = _home(name, obj, g)
            if home:
                out.add((home, name))
            if isinstance(obj, types.FunctionType) and obj.__module__.startswith("paper_checks"):
                out |= _names_read(obj, seen)
    if "inferred" in names:
        for q in load_inferred().values():
            out |= _names_read(q.compute, seen)
    return out


def _home(name: str, obj, g: dict) -> str:
    """The printed module that defines ``name``."""
    for mod in TABLE_MODULES:
        m = sys.modules.get(mod)
        if m is not None and getattr(m, name, None) is obj and not callable(obj):
            return mod
    return ""


def _cells_of(mod: str, name: str) -> list[Source]:
    out = []
    for path, value in _leaves(getattr(sys.modules[mod], name)):
        where = f"{mod.rsplit('.', 1)[-1]}.{name}" + "".join(
            f"[{k[1]}]" if isinstance(k, tuple) else f"[{k!r}]" for k in path
        )
        out.append(Source("cell", where, (mod, name) + path, value))
    return out


def cells(c: Claim) -> list[Source]:
    """The table cells claim ``c``'s check reads."""
    return [
        src for mod, name in sorted(_names_read(c.check, set())) for src in _cells_of(mod, name)
    ]


def printed_cells() -> list[Source]:
    """Every cell of every printed module (:data:`TABLE_MODULES`): each number, and each
    number of a printed row, of each module-level name that is not a function."""
    out = []
    for mod in TABLE_MODULES:
        m = sys.modules[mod]
        for name, obj in vars(m).items():
            if (
                not name.startswith("_")
                and not callable(obj)
                and not isinstance(obj, types.ModuleType)
            ):
                out += _cells_of(mod, name)
    return out


def readers(claims: list[Claim]) -> dict[tuple, list[Claim]]:
    """For each cell (by its path), the claims whose checks read it."""
    out: dict = {}
    for c in claims:
        for src in cells(c):
            out.setdefault(src.path, []).append(c)
    return out


def moves_a_verdict(src: Source, claims: list[Claim], ctx: Context) -> str:
    """The first move of cell ``src`` that changes the verdict of one of ``claims`` (each
    tried with the value its check compared the cell with, then the cell scaled), as
    ``"claim: value -> verdict"``; empty when none does."""
    for c in claims:
        ev = evidence_of(c, ctx)
        base, twins = verdict_of(c, ev).label, _twins(ev)
        for value in _candidates(src, [], twins):
            try:
                label = run_with(c, src, value, ctx)
            except NotComputable:
                continue
            except Exception as exc:  # a crash on a moved value is what this looks for
                return f"crashed: {c.id}: {src.value!r} -> {value!r}: {type(exc).__name__}: {exc}"
            if label != base:
                return f"{c.id}: {src.value!r} -> {value!r}: {base} -> {label}"
    return ""


def _paper_literals(tree: ast.AST) -> list[ast.Constant]:
    """Numeric constants given as an evidence item's ``paper=`` (alone, in a list or
    tuple, or as ``[x] * n``)."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and node.arg == "paper":
            skip = {
                id(c)
                for s in ast.walk(node.value)
                if isinstance(s, ast.Subscript)
                for c in ast.walk(s.slice)
            } | {  # arguments of the project's functions: they compute a reference
                id(c)
                for s in ast.walk(node.value)
                if isinstance(s, ast.Call) and not _is_arithmetic(s.func)
                for a in s.args + [k.value for k in s.keywords]
                for c in ast.walk(a)
            }
            for sub in ast.walk(node.value):
                if (
                    isinstance(sub, ast.Constant)
                    and isinstance(sub.value, (int, float))
                    and not isinstance(sub.value, bool)
                    and id(sub) not in skip
                    and not _is_repeat_count(node.value, sub)
                ):
                    found.append(sub)
    return found


def _is_arithmetic(func: ast.AST) -> bool:
    """A call of the standard library's arithmetic (math.log, float, ...)."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.value.id in ("math", "np", "mp")
    return isinstance(func, ast.Name) and func.id in ("float", "int", "abs", "max", "min")


def _is_repeat_count(expr: ast.AST, const: ast.Constant) -> bool:
    return any(
        isinstance(b, ast.BinOp) and isinstance(b.op, ast.Mult) and b.right is const
        for b in ast.walk(expr)
    )


def _source_tree(fn) -> ast.Module:
    src = textwrap.dedent(inspect.getsource(fn))
    tree = ast.parse(src)
    tree.body[0].decorator_list = []
    return tree


def literals(c: Claim) -> list[Source]:
    """The literal paper values written in claim ``c``'s check."""
    try:
        tree = _source_tree(c.check)
    except (OSError, TypeError):
        return []
    return [
        Source("literal", f"{c.check.__name__}: paper={n.value!r} (line {n.lineno})", (i,), n.value)
        for i, n in enumerate(_paper_literals(tree))
    ]


def sources(c: Claim) -> list[Source]:
    return cells(c) + literals(c)


# ------------------------------------------------------------------ moving one source
def _moved_value(value, factor):
    if factor == "+1":
        return value + 1
    if isinstance(value, int) and value > 0:
        return max(1, int(value * factor))
    if isinstance(value, str):
        d = _decimal(value)
        # a printed 0 is moved to 100 times the factor (scaling leaves it 0)
        new = d * Decimal(str(factor)) if d else Decimal(str(factor)) * 100
        places = -d.as_tuple().exponent if d.as_tuple().exponent < 0 else 0
        return f"{new:.{places}f}" if places else str(int(new))
    if value == 0:
        return factor if factor > 0 else -1.0
    new = value * factor
    return type(value)(new) if isinstance(value, int) and float(new).is_integer() else new


def _set_path(obj, path, value):
    """``obj`` with the leaf at ``path`` replaced (tuples rebuilt; dicts and lists copied;
    ``("token", i)`` is the i-th number of a printed row).

    >>> _set_path({"a": (1, "2.0 3.5")}, ("a", 1, ("token", 1)), "4.5")
    {'a': (1, '2.0 4.5')}
    """
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(head, tuple) and head[0] == "token":
        toks = obj.split()
        toks[head[1]] = value
        return " ".join(toks)
    if isinstance(obj, tuple):
        items = list(obj)
        items[head] = _set_path(items[head], rest, value)
        return tuple(items)
    new = copy.copy(obj)
    new[head] = _set_path(obj[head], rest, value)
    return new


def _rebind(mod: str, name: str, new) -> list:
    """Bind ``name`` to ``new`` in ``mod`` (a module of :mod:`theory.papers`) and in every
    paper_checks or figures module that imported the same object; returns what to undo."""
    old = getattr(sys.modules[mod], name)
    undo = []
    for m in list(sys.modules.values()):
        owner = getattr(m, "__name__", "")
        if owner.startswith(("paper_checks", "theory.papers", "figures")) and (
            getattr(m, name, None) is old
        ):
            undo.append((m, name, old))
            setattr(m, name, new)
    return undo


def _undo(undo: list) -> None:
    for m, name, old in undo:
        setattr(m, name, old)


def run_with(c: Claim, src: Source, value: object, ctx: Context) -> str:
    """The verdict label of ``c`` with source ``src`` set to ``value``."""
    if src.kind == "cell":
        mod, name, *path = src.path
        original = getattr(sys.modules[mod], name)
        if isinstance(original, dict) and path:
            # mutate in place (functions hold the dict), restore afterwards
            backup = copy.deepcopy(original)
            head = path[0]
            original[head] = _set_path(original[head], tuple(path[1:]), value)
            try:
                return verdict_of(c, evidence_of(c, ctx)).label
            finally:
                original.clear()
                original.update(backup)
        undo = _rebind(mod, name, _set_path(original, tuple(path), value))
        try:
            return verdict_of(c, evidence_of(c, ctx)).label
        finally:
            _undo(undo)
    tree = _source_tree(c.check)
    node = _paper_literals(tree)[src.path[0]]
    node.value = value
    code = compile(ast.fix_missing_locations(tree), inspect.getsourcefile(c.check), "exec")
    scope: dict = {}
    exec(code, c.check.__globals__, scope)  # noqa: S102 -- the project's own check, re-compiled
    moved = Claim(**{**c.__dict__, "check": scope[c.check.__name__]})
    return verdict_of(moved, evidence_of(moved, ctx)).label


@dataclass
class Probe:
    claim: str
    outcome: str  # "moved", "insensitive", "crashed", "no paper value"
    detail: str = ""


def _twins(evidence) -> dict:
    """For each paper value an evidence item compares with, the computed value it was
    compared with (setting the printed number to it is the move that makes them agree)."""
    items = list(evidence.items) + [it for r in evidence.readings for it in r.items]
    out: dict = {}
    for it in items:
        p, cmp = getattr(it, "paper", None), getattr(it, "computed", None)
        try:
            ps, cs = np.ravel(np.asarray(p, float)), np.ravel(np.asarray(cmp, float))
        except (TypeError, ValueError):
            continue
        if ps.size == cs.size:
            for a, b in zip(ps.tolist(), cs.tolist()):
                if math.isfinite(b) and a != b:
                    out.setdefault(a, b)
    return out


def _as_float(value) -> float:
    return float(_decimal(value)) if isinstance(value, str) else float(value)


def _like(value, template):
    """``value`` in the type (and printed decimals) of ``template``."""
    if isinstance(template, str):
        d = _decimal(template)
        places = max(0, -d.as_tuple().exponent) if d is not None else 0
        return f"{value:.{places}f}"
    if isinstance(template, int) and float(value).is_integer():
        return int(value)
    return float(value)


def _candidates(src: Source, found: list, twins: dict) -> list:
    """Moved values for ``src``: the value the check computed where it compared with it
    (when there is one), its value scaled (:data:`FACTORS`), then the values of the other
    cells of its table or the other literals of its check."""
    positive_int = isinstance(src.value, int) and src.value > 0
    out = []
    if _as_float(src.value) in twins:
        out.append(_like(twins[_as_float(src.value)], src.value))
    out += [_moved_value(src.value, f) for f in (INT_FACTORS if positive_int else FACTORS)]
    if src.kind == "cell":
        kin = [s.value for s in found if s.kind == "cell" and s.path[:2] == src.path[:2]]
    else:
        kin = [s.value for s in found if s.kind == "literal"]
    for v in kin:
        if v != src.value and type(v) is type(src.value) and v not in out:
            out.append(v)
    return [v for v in out if v != src.value][: len(FACTORS) + 5]


def probe(c: Claim, ctx: Context, max_moves: int = 400) -> Probe:
    """Move ``c``'s sources one at a time beyond their printed values until its verdict
    moves, in at most ``max_moves`` re-runs (literals first, then table cells)."""
    if c.unperturbable:  # declared: no printed value it reads can move its verdict
        return Probe(c.id, "no paper value", c.unperturbable)
    ev = evidence_of(c, ctx)
    base, twins = verdict_of(c, ev).label, _twins(ev)
    found = literals(c) + cells(c)
    if not found:
        return Probe(c.id, "no paper value", "the check reads no printed number")
    found.sort(key=lambda src: _as_float(src.value) not in twins)  # compared values first
    tried = 0
    for src in found:
        for value in _candidates(src, found, twins):
            if tried >= max_moves:
                return Probe(c.id, "insensitive", f"{tried} moves of {len(found)} sources")
            tried += 1
            try:
                label = run_with(c, src, value, ctx)
            except NotComputable:
                continue
            except Exception as exc:  # a crash on a moved value is what this looks for
                return Probe(
                    c.id, "crashed", f"{src.where} = {value!r}: {type(exc).__name__}: {exc}"
                )
            if label != base:
                return Probe(
                    c.id, "moved", f"{src.where}: {src.value!r} -> {value!r}: {base} -> {label}"
                )
    return Probe(c.id, "insensitive", f"{tried} moves of {len(found)} sources: none moved it")


def probe_within(c: Claim, ctx: Context, limit: int = 6) -> list[str]:
    """Table cells of ``c`` (numbers, at most ``limit``) moved by a quarter of their last
    printed digit: the sources whose move changed the verdict (should be none)."""
    base = verdict_of(c, evidence_of(c, ctx)).label
    changed = []
    # a number printed as text ("0.9") is the printed form itself: moving it within its
    # precision leaves the same text, so only numbers stored as floats are moved
    for src in [s for s in cells(c) if isinstance(s.value, float)][:limit]:
        d = _decimal(repr(src.value))
        if d is None:
            continue
        value = float(d + Decimal(1).scaleb(d.as_tuple().exponent) / 4)
        try:
            label = run_with(c, src, value, ctx)
        except NotComputable:
            continue
        if label != base:
            changed.append(f"{src.where}: {src.value!r} -> {value!r}: {base} -> {label}")
    return changed
