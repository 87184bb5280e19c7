"""Generated documentation pages, written before Sphinx reads the sources.

* ``commands/<name>.md``: the ``--help`` of every command (plain text, as a terminal shows
  it), benchmarks included;
* ``api/<package>.rst``: ``automodule`` of every module of our packages;
* ``findings.md``: the claims that do not hold (or hold only approximately), from the
  paper-check report ``report/report.json`` (made by ``python -m paper_checks`` when absent).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import pathlib
import pkgutil
import subprocess
import sys

DOCS = pathlib.Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
COMMANDS = {
    "theory.trf": "theory.series.cli",
    "theory.temperature": "theory.temperature.cli",
    "theory.infoscale": "theory.infoscale.cli",
    "theory.cosscale": "theory.infoscale.cosscale_cli",
    "paper_checks": "paper_checks.report",
    "figures": "figures.cli",
    "empirical.align": "empirical.audit.align",
    "empirical.assumptions": "empirical.audit.assumptions",
    "empirical.collect": "empirical.capture.collect",
    "empirical.train": "empirical.training.train",
    "empirical.extrapolate": "empirical.training.extrapolate",
    "empirical.erf": "empirical.training.erf",
    "empirical.bundle": "empirical.training.bundle",
    "empirical.audit": "empirical.audit.command",
    "empirical.results": "empirical.training.results",
    "benchmarks.trf": "benchmarks.trf",
    "benchmarks.capture": "benchmarks.capture",
    "benchmarks.bench_tiny_lm": "benchmarks.bench_tiny_lm",
    "benchmarks.bench_gaussian_softmax": "benchmarks.bench_gaussian_softmax",
}
#: width of the generated --help pages (argparse reads COLUMNS)
HELP_COLUMNS = "100"
PACKAGES = ("theory", "empirical", "figures", "paper_checks")


def write(path: pathlib.Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def help_text(module: str) -> str | None:
    """The ``--help`` output of a command's ``main``; None if the module is absent."""
    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError:
        return None
    out = io.StringIO()
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_COLUMNS
    try:
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            mod.main(["--help"])
    finally:
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    return out.getvalue()


def command_pages() -> None:
    names = []
    for command, module in COMMANDS.items():
        text = help_text(module)
        if text is None:
            continue
        names.append(command)
        write(
            DOCS / "commands" / f"{command}.md",
            f"# `python -m {command}`\n\n```text\n{text.rstrip()}\n```\n",
        )
    toc = "\n".join(names)
    write(
        DOCS / "commands" / "index.md",
        "# Commands\n\nEvery command takes `--help` and `--version`; bad input exits 2 with one line "
        "starting `error:`; `--json` prints one JSON object.\n\n"
        f"```{{toctree}}\n:maxdepth: 1\n\n{toc}\n```\n",
    )


def modules(package: str) -> list[str]:
    pkg = importlib.import_module(package)
    found = [package]
    for info in pkgutil.walk_packages(pkg.__path__, prefix=f"{package}."):
        if not info.name.endswith("__main__"):
            found.append(info.name)
    return sorted(found)


def api_pages() -> None:
    for package in PACKAGES:
        body = [package, "=" * len(package), ""]
        for name in modules(package):
            body += [f".. automodule:: {name}", "   :members:", ""]
        write(DOCS / "api" / f"{package}.rst", "\n".join(body))
    write(
        DOCS / "api" / "index.md",
        "# API\n\n```{toctree}\n:maxdepth: 1\n\n" + "\n".join(PACKAGES) + "\n```\n",
    )


def report() -> dict:
    path = ROOT / "report" / "report.json"
    if not path.exists():
        subprocess.run(
            [sys.executable, "-m", "paper_checks", "--no-figures", "--out", str(path.parent)],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return json.loads(path.read_text())


def cell(text) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def findings_page() -> None:
    claims = report()["claims"]
    lines = [
        "# Findings",
        "",
        "Generated from the paper-check report (`python -m paper_checks`): every claim "
        "whose verdict is not *holds*. Each verdict is computed from the evidence in the "
        "report.",
        "",
    ]
    for paper in sorted({c["paper"] for c in claims}):
        rows = [
            c
            for c in claims
            if c["paper"] == paper
            and c["verdict"] != "holds"
            and not c["verdict"].startswith("skipped")
        ]
        lines += [f"## {paper}", "", "| claim | where | verdict | evidence |", "|---|---|---|---|"]
        lines += [
            f"| `{c['id']}` | {cell(c['location'])} | {cell(c.get('label') or c['verdict'])} | {cell(c['summary'])} |"
            for c in rows
        ]
        lines.append("")
    write(DOCS / "findings.md", "\n".join(lines))


def setup(app) -> dict:
    command_pages()
    api_pages()
    findings_page()
    return {"parallel_read_safe": True}
