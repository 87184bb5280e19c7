"""One way in: the command table (``theory.core.commands``), the ``lengthx`` console script
built on it, and the layout every command follows (a package ``X`` run as ``python -m X``,
whose ``__main__.py`` is two lines and whose ``cli.py`` holds the parser and ``main``).

``lengthx`` runs in-process (``main([...])``), as the installed script would call it; a few
``python -m`` forms run as subprocesses and must print what ``lengthx`` prints.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from theory.core import commands

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("theory", "empirical", "figures", "paper_checks")
HAS_TORCH = importlib.util.find_spec("torch") is not None


def lengthx(argv: list) -> tuple:
    """(exit status, stdout, stderr) of ``lengthx ARGV``, run in-process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = commands.main(argv)
    return code, out.getvalue(), err.getvalue()


def _params():
    return [pytest.param(c, id=c.name) for c in commands.COMMANDS]


def test_the_table_is_well_formed():
    names = [c.name for c in commands.COMMANDS]
    assert len(set(names)) == len(names)
    assert all(re.fullmatch(r"[a-z][a-z-]*", n) for n in names)
    for c in commands.COMMANDS:
        assert re.fullmatch(r"[a-z_.]+\.cli:main", c.entry), c.entry
        assert c.summary and "\n" not in c.summary and len(c.summary) <= 90, c.name
    assert {"trf", "paper-checks", "audit", "figures", "sweep"} <= set(names)


@pytest.mark.parametrize("cmd", _params())
def test_every_command_resolves_and_helps_through_lengthx(cmd, monkeypatch):
    if cmd.module.startswith("empirical") and not HAS_TORCH:
        pytest.skip("needs torch")
    monkeypatch.setenv("COLUMNS", "100")
    assert callable(cmd.load())
    code, out, err = lengthx([cmd.name, "--help"])
    assert code == 0 and err == "", err
    assert out.startswith(f"usage: lengthx {cmd.name} "), out[:200]
    code, out, err = lengthx([cmd.name, "--version"])
    assert code == 0 and re.search(rf"^lengthx {cmd.name} \(lengthx\) \d+\.\d+", out), out


@pytest.mark.parametrize("name", ["trf", "cosscale", "paper-checks", "train"])
def test_python_m_prints_what_lengthx_prints(name):
    cmd = commands.find(name)
    if cmd.module.startswith("empirical") and not HAS_TORCH:
        pytest.skip("needs torch")
    env = dict(os.environ, COLUMNS="100", PYTHONPATH=str(ROOT))
    res = subprocess.run(
        [sys.executable, "-m", cmd.module, "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    assert res.returncode == 0 and res.stderr == "", res.stderr
    assert res.stdout.startswith(f"usage: python -m {cmd.module} ")
    # the same help, but for the name in the usage lines
    body = lambda text: text[text.index("\n\n") :]  # noqa: E731
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("COLUMNS", "100")
        code, out, _ = lengthx([name, "--help"])
    assert code == 0 and body(out) == body(res.stdout)


def test_arguments_exit_statuses_and_errors_pass_through():
    code, out, err = lengthx(["trf", "--rpe", "exp(-ln(n)**2)", "--eps", "0.01", "--json"])
    assert code == 0 and json.loads(out)["converges"] is True, err
    direct_err = io.StringIO()
    with contextlib.redirect_stderr(direct_err), contextlib.redirect_stdout(io.StringIO()):
        direct = commands.find("trf").load()(["--rpe", "exp("])
    code, out, err = lengthx(["trf", "--rpe", "exp("])
    assert code == direct == 2 and out == ""
    assert err == direct_err.getvalue() and err.startswith("error: ") and err.count("\n") == 1


def test_lengthx_help_lists_every_command():
    code, out, err = lengthx(["--help"])
    assert code == 0 and err == ""
    for c in commands.COMMANDS:
        assert re.search(rf"^  {re.escape(c.name)} +{re.escape(c.summary)}$", out, re.M), c.name
    assert lengthx([])[:2] == (0, out)  # no command: the same help


def test_lengthx_version():
    code, out, err = lengthx(["--version"])
    assert code == 0 and re.fullmatch(r"lengthx \(lengthx\) \d+\.\d+\S*\n", out), out


@pytest.mark.parametrize(
    "argv, wanted",
    [
        (["tfr"], "did you mean trf?"),
        (["no-such-command", "--help"], "unknown command 'no-such-command'"),
        (["--no-such-flag"], "unrecognized arguments"),
    ],
)
def test_unknown_command_is_one_error_line(argv, wanted):
    code, out, err = lengthx(argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and wanted in err, err


def test_the_console_script_is_the_table():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"lengthx": "theory.core.commands:main"}


def test_lengthx_help_imports_no_command():
    code = (
        "import sys, io, contextlib; from theory.core.commands import main\n"
        "with contextlib.redirect_stdout(io.StringIO()): main(['--help'])\n"
        "heavy = [m for m in ('torch', 'sympy', 'numpy', 'empirical', 'figures',"
        " 'paper_checks') if m in sys.modules]\n"
        "assert not heavy, heavy"
    )
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr


@pytest.mark.parametrize("cmd", _params())
def test_every_command_is_a_package_with_a_two_line_main(cmd):
    folder = ROOT / cmd.module.replace(".", "/")
    assert (folder / "__init__.py").is_file() and (folder / "cli.py").is_file(), folder
    lines = [ln for ln in (folder / "__main__.py").read_text().splitlines() if ln.strip()]
    assert lines == [f"from {cmd.module}.cli import main", "raise SystemExit(main())"], lines
    assert re.search(r"^def main\(", (folder / "cli.py").read_text(), re.M)


def test_no_shim_modules_and_no_main_blocks_in_the_library():
    """Every ``__main__.py`` belongs to a command of the table; no module of the library
    runs as a script (``if __name__ == "__main__"``): the only way in is a command's
    package (the benchmarks, scripts outside the library, keep theirs)."""
    modules = {c.module for c in commands.COMMANDS}
    blocks, mains = set(), set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if path.name == "__main__.py":
                mains.add(path.parent.relative_to(ROOT).as_posix().replace("/", "."))
            elif re.search(r"^if __name__ == .__main__.:", path.read_text(), re.M):
                blocks.add(rel)
    assert not blocks, sorted(blocks)
    assert mains <= modules, sorted(mains - modules)
    for shim in ("theory/trf.py", "theory/cosscale.py", "empirical/align.py", "empirical/erf.py"):
        assert not (ROOT / shim).exists(), shim
