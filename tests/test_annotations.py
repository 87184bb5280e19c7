"""Every public function and method in ``theory/``, ``figures/``, ``paper_checks/`` and
``empirical/`` is annotated.

Public: the function's name does not start with ``_``, nor does its module's (or any enclosing
package's or class's) name, ``__init__.py`` excepted. Annotated: every argument except
``self``/``cls`` and the return. Functions nested inside functions are private by construction
and are not checked.
"""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("theory", "figures", "paper_checks", "empirical")


def is_public_module(path: pathlib.Path) -> bool:
    parts = path.relative_to(ROOT).parts
    return not any(p.startswith("_") and p != "__init__.py" for p in parts)


def unannotated(body: list[ast.stmt], where: str, prefix: str = "") -> list[str]:
    """``file:line name [missing args] no-return`` for each public def lacking annotations."""
    out = []
    for node in body:
        if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            out += unannotated(node.body, where, f"{prefix}{node.name}.")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            if node.name.startswith("_"):
                continue
            a = node.args
            args = [*a.posonlyargs, *a.args, *a.kwonlyargs, *filter(None, [a.vararg, a.kwarg])]
            missing = [x.arg for x in args if x.annotation is None and x.arg not in ("self", "cls")]
            if missing or node.returns is None:
                ret = " no-return" if node.returns is None else ""
                out.append(f"{where}:{node.lineno} {prefix}{node.name} {missing}{ret}")
    return out


def offenders(package: str) -> list[str]:
    out = []
    for path in sorted((ROOT / package).rglob("*.py")):
        if is_public_module(path):
            where = str(path.relative_to(ROOT))
            out += unannotated(ast.parse(path.read_text()).body, where)
    return out


def test_detector_flags_missing_annotations() -> None:
    src = (
        "def f(x, y: int): ...\ndef g(self) -> int: ...\nclass C:\n    def m(self, z) -> None: ..."
    )
    found = unannotated(ast.parse(src).body, "m.py")
    assert found == ["m.py:1 f ['x'] no-return", "m.py:4 C.m ['z']"]


@pytest.mark.parametrize("package", PACKAGES)
def test_public_functions_are_annotated(package: str) -> None:
    bad = offenders(package)
    assert not bad, f"{len(bad)} public functions lack annotations:\n" + "\n".join(bad)
