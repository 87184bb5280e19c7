"""Static check: no module of a paper's package names or constructs a verdict.

Check functions return evidence; only :func:`paper_checks.evidence.judge` makes verdicts
(and :func:`paper_checks.registry.verdict_of` refuses anything but evidence).  An ast
walk over every ``paper_checks/<paper>/*.py`` (the ``*claims`` modules and the helpers
they call) fails on a verdict constant
(``HOLDS``, ``APPROX``, ``FAILS``, ``CANNOT``, ``VERDICTS``), ``Verdict``/``judge``
(imported, called or referenced), or a string literal equal to a verdict.
"""

import ast
from pathlib import Path

import pytest

from paper_checks.evidence import SEVERITIES, VERDICTS

ROOT = Path(__file__).resolve().parents[2] / "paper_checks"
FORBIDDEN_NAMES = {
    "HOLDS",
    "APPROX",
    "FAILS",
    "CANNOT",
    "VERDICTS",
    "Verdict",
    "judge",
    "TYPO",
    "CHANGES",
    "OTHER_CAUSE",
    "UNASSESSED",
    "SEVERITIES",
}
FORBIDDEN_TEXT = {v.lower() for v in VERDICTS + SEVERITIES}
PAPER_MODULES = sorted(ROOT.glob("*/*.py"))


def literal_verdicts(source: str) -> list:
    """(line, what) for every verdict named or constructed in ``source``.

    >>> literal_verdicts("from x import HOLDS\\ndef f(ctx):\\n    return Verdict('holds', '')")
    [(1, 'import HOLDS'), (3, 'name Verdict'), (3, "text 'holds'")]
    """
    hits = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            hits += [
                (node.lineno, f"import {a.name}") for a in node.names if a.name in FORBIDDEN_NAMES
            ]
        elif isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
            hits.append((node.lineno, f"name {node.id}"))
        elif isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_NAMES:
            hits.append((node.lineno, f"attribute {node.attr}"))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and node.value.strip().lower() in FORBIDDEN_TEXT
        ):
            hits.append((node.lineno, f"text {node.value!r}"))
    return sorted(hits)


def test_claim_modules_found():
    assert {p.relative_to(ROOT).as_posix() for p in PAPER_MODULES} >= {
        "rpe/lemma32_claims.py",
        "rpe/appendix_b_claims.py",
        "rpe/empirical_claims.py",
        "align/prop1_prop2_claims.py",
        "align/sec6_1_assumptions_claims.py",
        "infoscale/sec3_1_infoscale_claims.py",
    }


@pytest.mark.parametrize(
    "path", PAPER_MODULES, ids=[p.relative_to(ROOT).as_posix() for p in PAPER_MODULES]
)
def test_no_literal_verdict_in_paper_module(path):
    hits = literal_verdicts(path.read_text())
    assert not hits, f"{path.name}: " + ", ".join(f"line {n}: {w}" for n, w in hits)


@pytest.mark.parametrize(
    "source,count",
    [
        ("def f(ctx):\n    return Evidence([Equal('B', 1.6, paper=1)])", 0),
        ("def f(ctx):\n    status = FAILS if x else HOLDS", 2),
        ("def f(ctx):\n    return registry.Verdict(status, 'x')", 1),
        ("def f(ctx):\n    s = 'Does not hold'", 1),
        ("def f(ctx):\n    s = 'the sum holds for r > 1'", 0),  # prose is fine
    ],
)
def test_detector(source, count):
    assert len(literal_verdicts(source)) == count
