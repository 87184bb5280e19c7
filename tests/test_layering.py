"""The import rules of the project, checked statically on every module's imports.

* ``theory/`` imports nothing of ours and no torch; ``empirical/`` never imports
  ``figures`` or ``paper_checks``; ``figures`` never imports ``paper_checks``.
* No module imports a name starting with ``_`` from another of our modules.
* No import cycle between our modules (imports inside functions included).
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
OURS = ("theory", "empirical", "figures", "paper_checks", "benchmarks")
FORBIDDEN = {
    "theory": {"empirical", "figures", "paper_checks", "torch", "transformers"},
    "empirical": {"figures", "paper_checks"},
    "figures": {"paper_checks"},
}


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def sources():
    for pkg in OURS:
        yield from sorted((ROOT / pkg).rglob("*.py"))


def imports(path: pathlib.Path):
    """(module imported, names imported from it) for every import statement."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, ()
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            yield mod, tuple(a.name for a in node.names)


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layering(package):
    bad = [
        (str(p.relative_to(ROOT)), m)
        for p in (ROOT / package).rglob("*.py")
        for m, _ in imports(p)
        if m.split(".")[0] in FORBIDDEN[package]
    ]
    assert not bad, f"layering violated: {bad}"


def test_no_private_names_across_modules():
    bad = []
    for p in sources():
        me = module_name(p)
        for mod, names in imports(p):
            if mod.split(".")[0] not in OURS or mod == me:
                continue
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            if private or any(
                part.startswith("_") and not part.startswith("__") for part in mod.split(".")
            ):
                bad.append((me, mod, private))
    assert not bad, f"private names imported across modules: {bad}"


def import_graph() -> dict:
    known = {module_name(p) for p in sources()}
    graph = {}
    for p in sources():
        me = module_name(p)
        deps = set()
        for mod, names in imports(p):
            for cand in [mod] + [f"{mod}.{n}" for n in names]:
                if cand in known and cand != me:
                    deps.add(cand)
        graph[me] = deps
    return graph


def find_cycle(graph: dict):
    """A cycle as a list of modules, or None (iterative depth-first search).

    >>> find_cycle({"a": {"b"}, "b": {"a"}})
    ['a', 'b', 'a']
    >>> find_cycle({"a": {"b"}, "b": set()}) is None
    True
    """
    state = {}
    for start in sorted(graph):
        if state.get(start):
            continue
        stack, path = [(start, iter(sorted(graph[start])))], [start]
        state[start] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
                path.pop()
            elif state.get(nxt) == 1:
                return path[path.index(nxt) :] + [nxt]
            elif not state.get(nxt):
                state[nxt] = 1
                stack.append((nxt, iter(sorted(graph.get(nxt, ())))))
                path.append(nxt)
    return None


def test_no_import_cycle():
    # a package's __init__ importing its own submodules is not a cycle worth failing on
    graph = {
        m: {d for d in deps if not m.startswith(d + ".") and not d.startswith(m + ".")}
        for m, deps in import_graph().items()
    }
    assert find_cycle(graph) is None, f"import cycle: {find_cycle(graph)}"


def module_aliases(path: pathlib.Path) -> dict:
    """Local names bound to modules of ours (``import theory.x as y``, ``from theory.series
    import convergence as cv``), with the module each names."""
    known = {module_name(p) for p in sources()}
    out = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out.update({a.asname: a.name for a in node.names if a.asname and a.name in known})
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            for a in node.names:
                full = f"{node.module}.{a.name}"
                if full in known:
                    out[a.asname or a.name] = full
    return out


def test_no_private_attributes_of_other_modules():
    """``cv._helper`` reaches into another module as surely as ``from cv import _helper``."""
    bad = []
    for p in sources():
        me, aliases = module_name(p), module_aliases(p)
        for node in ast.walk(ast.parse(p.read_text())):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and aliases.get(node.value.id, me) != me
                and node.attr.startswith("_")
                and not node.attr.startswith("__")
            ):
                bad.append((me, f"{aliases[node.value.id]}.{node.attr}", node.lineno))
    assert not bad, f"private names of other modules used: {bad}"
