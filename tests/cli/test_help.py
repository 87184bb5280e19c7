"""``--help`` and ``--version`` of every command, run in-process through its ``main``.

The help is plain text (no Sphinx or LaTeX markup: descriptions come from docstrings and
are converted by ``theory.core.cli``), every option has a help line, and ``--version``
prints the package version.  The list of commands is the one the docs' command pages are
generated from (``docs/_ext/generate.py``), so a command missing here is missing there.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

from theory.core import cli, commands

ROOT = Path(__file__).resolve().parents[2]
MARKUP = (":math:", ".. math::", "``", ":mod:", ":func:", ":class:", ":meth:", "\\frac", "\\mathrm")


def _commands() -> dict:
    """``python -m`` name -> where its ``main`` is: the command table
    (:data:`theory.core.commands.COMMANDS`) and the benchmarks of docs/_ext/generate.py
    (``BENCHMARKS``, read as a literal: importing the file would need Sphinx, which the test
    extra does not install) -- the lists the docs' command pages are generated from."""
    found = {c.module: c.entry for c in commands.COMMANDS}
    tree = ast.parse((ROOT / "docs/_ext/generate.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "BENCHMARKS" for t in node.targets
        ):
            return found | {m: m for m in ast.literal_eval(node.value)}
    raise AssertionError("docs/_ext/generate.py has no BENCHMARKS list")


COMMANDS = _commands()
#: a typed duration (``~20 min``, ``4 steps/s``): the help is a docs page, and numbers in the
#: docs are generated, so a help says what a run's time depends on instead
DURATION = re.compile(
    r"(?<![\w.^-])~?\d+(?:\.\d+)?(?:\s*-\s*\d+(?:\.\d+)?)?\s?"
    r"(?:ms|sec|secs|seconds?|min|mins|minutes?|hours?|steps/s|it/s)(?![\w/])"
)
#: options known to lack a help line (none)
KNOWN_WITHOUT_HELP: dict = {}
#: commands whose parser is not yet a CommandParser (known failures, kept visible)
NOT_YET: set = set()


def _params():
    mark = pytest.mark.xfail(strict=True, reason="parser not yet a theory.core.cli.CommandParser")
    return [pytest.param(c, marks=[mark] if c in NOT_YET else []) for c in sorted(COMMANDS)]


def _main(entry: str):
    module, _, name = entry.partition(":")
    try:
        return getattr(importlib.import_module(module), name or "main")
    except ModuleNotFoundError as exc:  # the empirical extra (torch) is not installed
        pytest.skip(f"needs {exc.name}")


def run(module: str, argv: list, monkeypatch) -> tuple:
    """(exit status, stdout, stderr, the parsers whose help was formatted)."""
    parsers = []
    original = cli.CommandParser.format_help

    def spy(self):
        parsers.append(self)
        return original(self)

    monkeypatch.setattr(cli.CommandParser, "format_help", spy)
    monkeypatch.setenv("COLUMNS", "100")
    main = _main(module)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # a main that is not (yet) behind the shared entry point
            code = exc.code
    if code == 2 and "needs the optional package" in err.getvalue():
        pytest.skip(err.getvalue().strip())  # a command that imports torch before parsing
    return code, out.getvalue(), err.getvalue(), parsers


@pytest.mark.parametrize("command", _params())
def test_help_is_plain_text_with_every_option_explained(command, monkeypatch):
    code, out, err, parsers = run(COMMANDS[command], ["--help"], monkeypatch)
    assert code in (0, None) and err == "", err
    assert out.startswith("usage: "), out[:200]
    found = [m for m in MARKUP if m in out]
    assert not found, f"markup {found} in the help of {command}"
    assert parsers, f"{command} does not use theory.core.cli.CommandParser"
    missing = {
        a.option_strings[0] if a.option_strings else a.dest
        for p in parsers
        for a in p._actions
        if not (a.help or "").strip()
    }
    assert missing <= KNOWN_WITHOUT_HELP.get(command, set()), f"{command}: no help for {missing}"
    assert "--version" in out
    durations = DURATION.findall(out)
    assert not durations, f"typed durations {durations} in the help of {command} (docs/commands)"


@pytest.mark.parametrize("command", _params())
def test_version(command, monkeypatch):
    code, out, err, _ = run(COMMANDS[command], ["--version"], monkeypatch)
    assert code in (0, None) and err == "", err
    assert re.search(r"\(lengthx\) \d+\.\d+", out), out


def test_defaults_are_shown():
    p = cli.CommandParser(prog="demo")
    p.add_argument("--n", type=int, default=7, help="how many")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--tau", type=float, default=1.0, help="temperature (default 1)")
    p.add_argument("--flag", action="store_true", help="a switch")
    text = p.format_help()
    assert "how many (default: 7)" in text
    assert "(default: 0)" in text  # a zero default is still a default
    assert "(default 1)" in text and "(default: 1.0)" not in text  # said once
    assert "a switch (default" not in text


def test_markup_becomes_plain_text():
    p = cli.CommandParser(
        prog="demo",
        description="For :math:`b_n = \\exp(\\mathrm{RPE}(n))` see :mod:`theory.series` "
        "and ``--eps``.\n\n.. math::\n\n    \\frac{1}{n^2}\n\nend",
    )
    text = p.format_help()
    assert "b_n = exp(RPE(n)) see theory.series and --eps." in text
    assert "    1/n^2" in text and not any(m in text for m in MARKUP)


def test_version_falls_back_to_pyproject(monkeypatch):
    from importlib import metadata

    def missing(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", missing)
    assert re.fullmatch(r"\d+\.\d+\S*", cli.version())
