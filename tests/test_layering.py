"""theory/ imports nothing of ours and no torch; empirical/ never imports figures or
paper_checks.  Checked statically on every module's import statements."""
import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
FORBIDDEN = {
    "theory": {"empirical", "figures", "paper_checks", "torch", "transformers"},
    "empirical": {"figures", "paper_checks"},
    "figures": {"paper_checks"},
}


def imported_roots(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split(".")[0]


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_layering(package):
    bad = [(str(p.relative_to(ROOT)), m) for p in (ROOT / package).rglob("*.py")
           for m in imported_roots(p) if m in FORBIDDEN[package]]
    assert not bad, f"layering violated: {bad}"
