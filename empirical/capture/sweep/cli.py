"""``python -m empirical.capture.sweep``: capture against eager attention on every text
architecture of the installed transformers (:mod:`empirical.capture.sweep.architectures`);
prints the counts and the table, ``--write-docs`` writes the table into the capture guide."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import torch
import transformers

from empirical.capture.sweep.architectures import (
    BEGIN,
    DTYPES,
    END,
    compare,
    merged,
    parse_table,
    table,
    text_model_types,
    write_docs,
)
from theory.core.arguments import existing_file
from theory.core.cli import CommandParser, UsageError, command


def build_parser() -> CommandParser:
    p = CommandParser(
        prog="python -m empirical.capture.sweep",
        description="Capture against eager attention on every text architecture of the "
        "installed transformers; prints the counts (exact / refused / not buildable) and "
        "exits 1 if any architecture is silently different or crashed.",
        epilog="examples:\n  python -m empirical.capture.sweep --types llama gpt_oss\n"
        "  python -m empirical.capture.sweep --types llama bert --dtype bfloat16",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--types", nargs="+", metavar="TYPE", help="model types (all text types)")
    p.add_argument(
        "--dtype",
        choices=tuple(DTYPES),
        default="float32",
        help="the models' floating-point type, eager attention and the audit in it too, "
        "against the tolerances declared for it (default: float32)",
    )
    p.add_argument(
        "--write-docs",
        metavar="MD",
        type=existing_file,
        help="write the table here; with --types, only those types' rows are replaced "
        "and the other rows of the table in MD are kept",
    )
    return p


def _checked(a) -> list:
    """The model types to sweep, and the docs file's markers, checked before the run."""
    known = text_model_types()
    unknown = sorted(set(a.types or ()) - set(known))
    if unknown:
        raise UsageError(f"not a text model type of this transformers: {', '.join(unknown)}")
    if a.write_docs and not {BEGIN, END} <= set(a.write_docs.read_text().splitlines()):
        raise UsageError(f"{a.write_docs} has no sweep table markers ({BEGIN} ... {END})")
    if a.write_docs and a.dtype != "float32":
        raise UsageError("--write-docs writes the float32 table; leave out --dtype")
    return a.types or known


@command
def main(argv: list[str] | None = None) -> int:
    a = build_parser().parse_args(argv)
    transformers.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()  # saving a checkpoint: no bar
    types = _checked(a)
    torch.set_num_threads(1)
    verdicts = []
    for t in types:
        verdicts.append(compare(t, dtype=DTYPES[a.dtype]))
        print(f"{t}: {verdicts[-1].verdict} ({verdicts[-1].detail})", file=sys.stderr)
    text = table(verdicts, a.dtype)
    print(text, end="")
    if a.write_docs:
        if a.types:  # the other types' rows as the docs have them
            doc = Path(a.write_docs).read_text()
            old = parse_table(doc[doc.index(BEGIN) + len(BEGIN) : doc.index(END)])
            text = table(merged(old, verdicts, text_model_types()))
        write_docs(text, Path(a.write_docs))
    bad = [v for v in verdicts if v.verdict in ("different", "crashed")]
    return 1 if bad else 0
