"""Every command of the project in one table, and the ``lengthx`` console script.

Each command is a package ``X`` run as ``python -m X`` (its ``__main__.py`` calls
``X.cli:main``) or as ``lengthx NAME``; :data:`COMMANDS` names it, says where its ``main``
is (as a string, imported only when the command runs: this table imports nothing of
``empirical``, ``figures`` or ``paper_checks``, and ``lengthx --help`` imports no torch)
and what it does in one line.  ``lengthx NAME ARGS`` calls that ``main(ARGS)``, so its
``--help``, ``--json``, exit statuses and ``error:`` lines are those of ``python -m X``.

>>> find("trf").module, find("paper-checks").entry
('theory.trf', 'paper_checks.cli:main')
>>> main(["tfr"])  # doctest: +SKIP
error: unknown command 'tfr' (did you mean trf? lengthx --help lists the commands)
2
"""

from __future__ import annotations

import difflib
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from theory.core.cli import CommandParser, command, invoked_as


@dataclass(frozen=True)
class Command:
    """One command: ``lengthx name`` and ``python -m module`` run ``entry``."""

    #: the subcommand of ``lengthx``
    name: str
    #: where its main is, ``"package.cli:main"`` (the package is the ``python -m`` form)
    entry: str
    #: what it does, in one line
    summary: str

    @property
    def module(self) -> str:
        """The ``python -m`` form: the package whose ``cli`` module holds ``main``."""
        return self.entry.split(":")[0].removesuffix(".cli")

    def load(self) -> Callable[[Sequence[str] | None], int]:
        """The command's ``main`` (importing its module now)."""
        module, name = self.entry.split(":")
        return getattr(importlib.import_module(module), name)


COMMANDS: tuple[Command, ...] = (
    Command(
        "trf",
        "theory.trf.cli:main",
        "convergence verdict, sum B and TRF of a series of exp(RPE) (RPE paper Sec. 3)",
    ),
    Command(
        "temperature",
        "theory.temperature.cli:main",
        "softmax temperature for length extrapolation: every rule, or Props. 1-2 derived",
    ),
    Command(
        "infoscale",
        "theory.infoscale.cli:main",
        "InfoScale factor (Eq. 15) and the exact entropy drift it leaves",
    ),
    Command(
        "cosscale",
        "theory.cosscale.cli:main",
        "CosScale's attention peak eta* (InfoScale paper Eq. 18)",
    ),
    Command(
        "paper-checks",
        "paper_checks.cli:main",
        "check every claim of the three papers and write the report",
    ),
    Command(
        "figures",
        "figures.cli:main",
        "the papers' figures with theory and experiment on the same axes",
    ),
    Command(
        "audit",
        "empirical.audit.cli:main",
        "audit a model's attention from its training length to long contexts",
    ),
    Command(
        "align",
        "empirical.align.cli:main",
        "Algorithm 1 and every temperature rule on a model",
    ),
    Command(
        "assumptions",
        "empirical.assumptions.cli:main",
        "Assumptions 1-2 (Gaussian sorted logits, lmax/sigma) on a model",
    ),
    Command(
        "collect",
        "empirical.collect.cli:main",
        "mergeable attention statistics of a model, on one process or under torchrun",
    ),
    Command(
        "train",
        "empirical.train.cli:main",
        "train a tiny language model with any RPE on a local corpus",
    ),
    Command(
        "extrapolate",
        "empirical.extrapolate.cli:main",
        "perplexity of trained runs beyond their training length",
    ),
    Command(
        "erf",
        "empirical.erf.cli:main",
        "empirical receptive field of trained runs beside the TRF of their RPE",
    ),
    Command(
        "bundle",
        "empirical.bundle.cli:main",
        "train and measure the seeded bundle the agreement tests and paper checks read",
    ),
    Command(
        "results",
        "empirical.results.cli:main",
        "the seeded bundle's measurements with their seed intervals",
    ),
    Command(
        "sweep",
        "empirical.capture.sweep.cli:main",
        "capture against eager attention on every text architecture of transformers",
    ),
)


def find(name: str) -> Command:
    """The command called ``name`` (KeyError if none)."""
    for c in COMMANDS:
        if c.name == name:
            return c
    raise KeyError(name)


def listing() -> str:
    """The commands and their summaries, one a line, as ``lengthx --help`` shows them."""
    width = max(len(c.name) for c in COMMANDS)
    return "\n".join(f"  {c.name:<{width}}  {c.summary}" for c in COMMANDS)


def build_parser() -> CommandParser:
    p = CommandParser(
        prog="lengthx",
        usage="lengthx [-h] [--version] COMMAND [ARGS ...]",
        description="Length extrapolation of Transformers: the theory of three papers, "
        "checked, and measured on real models.  lengthx COMMAND ARGS runs the command as "
        "python -m PACKAGE ARGS does (the docs' Commands page names both forms); "
        "lengthx COMMAND --help shows its options.",
        epilog="commands:\n" + listing(),
    )
    p.add_argument("command", nargs="?", metavar="COMMAND", help="the command to run")
    return p


@command
def main(argv: Sequence[str] | None = None) -> int:
    """``lengthx [--help | --version | COMMAND ARGS...]``: run one command with ARGS."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # the first word that is not an option is the command; what follows is its own
    i = next((k for k, arg in enumerate(argv) if not arg.startswith("-")), len(argv))
    parser = build_parser()
    name = parser.parse_args(argv[: i + 1]).command
    if name is None:
        parser.print_help()
        return 0
    names = [c.name for c in COMMANDS]
    if name not in names:
        near = difflib.get_close_matches(name, names, n=1)
        hint = f"did you mean {near[0]}? " if near else ""
        parser.error(f"unknown command {name!r} ({hint}lengthx --help lists the commands)")
    cmd = find(name)
    with invoked_as(f"python -m {cmd.module}", f"lengthx {cmd.name}"):
        return cmd.load()(argv[i + 1 :])
