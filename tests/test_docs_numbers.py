"""The documentation holds no typed results: every console output, timing, count and
measured value on a page is generated while the docs build (``docs/_ext/generate.py``:
the ``command-output`` directive, MyST substitutions, the ``_generated/`` fragments),
and the README points to those pages instead of copying numbers.

The scan covers README.md and the Markdown sources under docs/ (not the pages the build
writes).  What it rejects:

* a console block (``console``, ``text``, ``shell`` or no language) with a line that is not
  a command (``$ ...``, its continuation after a trailing backslash, or a ``#`` comment):
  typed output;
* a duration or speed (``40 min``, ``0.7 steps/s``) in prose;
* an entropy in nats, a signed percentage or a number with thousands separators in prose
  (``1.2 nats``, ``+159%``, ``607,927``);
* a claim table typed into a page (a table row with a verdict: those come from the report);
* a decimal with three or more digits after the point and two or more significant digits
  in prose (a measured or computed value; a setting is written with fewer digits or read
  from the code).

:data:`ALLOWED` lists the few settings that match a pattern, each with the code it comes
from; anything else that matches fails with the file and line.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
#: folders and pages the docs build writes (ignored by git); not sources
GENERATED = {"_build", "_generated", "commands", "api"}
#: console-like fences whose lines must all be commands
CONSOLE = {"", "console", "text", "shell", "shell-session"}

#: settings that match a pattern, exactly as written, with where each comes from
ALLOWED = {
    # theory.core.progress.default_interval: LENGTHX_PROGRESS_SECONDS, default 5
    "at most every 5 seconds",
}

DURATION = re.compile(
    r"(?<![\w.^-])~?\d+(?:[.,]\d+)?(?:\s*-\s*\d+(?:\.\d+)?)?\s?"
    r"(?:ms|s|sec|secs|seconds?|min|mins|minutes?|h|hours?|steps/s|it/s)(?![\w/])"
)
#: a measured quantity with its unit (an entropy in nats, a signed relative change) or
#: written with thousands separators
MEASURED_UNIT = re.compile(
    r"(?<![\w.])(?:\d+(?:\.\d+)?(?:-\d+(?:\.\d+)?)?\s?nats|[-+]\d+(?:\.\d+)?\s?%|\d{1,3}(?:,\d{3})+(?!\d))"
)
DECIMAL = re.compile(r"(?<![\w.])[-+]?\d+\.\d{3,}(?![\w.])")
VERDICT_ROW = re.compile(r"^\|.*\|\s*(holds|does not hold|cannot be checked here)\b")
INLINE_CODE = re.compile(r"`[^`]*`")
SUBSTITUTION = re.compile(r"\{\{[^}]*\}\}")
#: regions written by a command into a page (start marker, end marker)
WRITTEN_BY_COMMAND = [("<!-- sweep: begin (generated) -->", "<!-- sweep: end -->")]


def sources() -> list[Path]:
    pages = [ROOT / "README.md"]
    for p in sorted(DOCS.rglob("*.md")):
        rel = p.relative_to(DOCS)
        if rel.parts[0] in GENERATED or rel.as_posix() == "findings.md":
            continue
        pages.append(p)
    return pages


def console_output_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) of every line in a console-like fence that is not a command."""
    bad, fence, lang, continued = [], None, "", False
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r"^(\s*)(`{3,}|~{3,})(.*)$", line)
        if fence is None and m:
            fence, lang, continued = m.group(2), m.group(3).strip(), False
            continue
        if fence is not None and m and m.group(2).startswith(fence) and not m.group(3).strip():
            fence = None
            continue
        if fence is None or lang.startswith("{") or lang not in CONSOLE:
            continue
        s = line.strip()
        if s and not continued and not s.startswith(("$ ", "#")) and s != "$":
            bad.append((n, line))
        continued = s.endswith("\\")
    return bad


def prose_lines(text: str):
    """(line number, line without inline code and substitutions) outside fences and
    outside regions a command wrote."""
    fence, region = None, None
    for n, line in enumerate(text.splitlines(), 1):
        m = re.match(r"^\s*(`{3,}|~{3,})", line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif m.group(1).startswith(fence) and not line.strip().strip("`~"):
                fence = None
            continue
        if fence is not None:
            continue
        for start, end in WRITTEN_BY_COMMAND:
            if line.strip() == start:
                region = end
            elif region == end and line.strip() == end:
                region = None
        if region is not None:
            continue
        yield n, SUBSTITUTION.sub("", INLINE_CODE.sub("", line))


def measured(number: str) -> bool:
    """A decimal that reads as a result: two or more significant digits (``0.515``,
    ``1.392``), not a round setting such as ``0.001``."""
    return len(number.lstrip("+-").replace(".", "").lstrip("0")) >= 2


def typed_results(path: Path) -> list[str]:
    text = path.read_text()
    for allowed in ALLOWED:
        text = text.replace(allowed, "")
    name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    found = [
        f"{name}:{n}: console output typed: {line.strip()}"
        for n, line in console_output_lines(text)
    ]
    for n, line in prose_lines(text):
        hits = [("duration", m.group(0)) for m in DURATION.finditer(line)]
        hits += [
            ("measured value", m.group(0)) for m in DECIMAL.finditer(line) if measured(m.group(0))
        ]
        hits += [("measured value", m.group(0)) for m in MEASURED_UNIT.finditer(line)]
        found += [f"{name}:{n}: {what} typed: {s!r} in {line.strip()!r}" for what, s in hits]
        if VERDICT_ROW.search(line):
            found.append(f"{name}:{n}: claim verdict typed: {line.strip()[:100]}")
    return found


@pytest.mark.parametrize("path", sources(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_typed_results(path):
    found = typed_results(path)
    assert not found, "\n".join(found)


@pytest.mark.parametrize(
    "page, expected",
    [
        ("```console\n$ python -m theory.trf --rpe type1\nverdict: CONVERGES\n```\n", "console"),
        ("```text\n$ cmd \\\n    --flag\n# a comment\n$ other\n```\n", None),
        ("```{command-output} python -m theory.trf --rpe type1\n```\n", None),
        ("Training took 5-10 min per model.\n", "duration"),
        ("about 40 min on 1 busy core, 15 min idle\n", "duration"),
        ("Speed: 4.2 steps/s at 1 thread.\n", "duration"),
        ("the default is `--time-limit 10 s` in code\n", None),
        ("Prop. 2 matches (0.515 vs 0.509 at 512 -> 2048)\n", "measured value"),
        ("a factor 2 and 1e-6 tolerance, lr 2e-3, grid 0.30, 0.35\n", None),
        ("the drift is 1.2-3.0 nats; sinusoidal grows +159%\n", "measured value"),
        ("TRF(1e-6) of Type 1 is 607,927, not 10^6\n", "measured value"),
        ("cosine to 10%, a 90/5/5 split\n", None),
        ("| `align-eq2` | holds | proved |\n", "verdict"),
        ("<!-- sweep: begin (generated) -->\nit took 3.125 s\n<!-- sweep: end -->\n", None),
    ],
)
def test_scanner_catches_typed_results(tmp_path, page, expected):
    """The scan flags each kind of typed result it names and passes what is generated."""
    path = tmp_path / "page.md"
    path.write_text(page)
    found = typed_results(path)
    if expected is None:
        assert not found
    else:
        assert found and all(expected in f for f in found), found


def test_allowed_settings_are_in_use():
    """Each allowed phrase still occurs in a page (the allow-list does not outlive its use)."""
    text = "\n".join(p.read_text() for p in sources())
    assert [a for a in ALLOWED if a not in text] == []
