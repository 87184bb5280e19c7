"""Argument types for the command lines: each checks its value at the edge, so that a bad
value is an argparse error (one ``error:`` line, exit 2 through
:class:`theory.core.cli.CommandParser`), never a traceback later: integers and reals in a
range, existing input files, and output files and folders that can be written.

>>> positive_int("3"), float_range(0, 1)("0.5")
(3, 0.5)
"""

from __future__ import annotations

import argparse
import math
import os
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path


def _int(text: str) -> int:
    try:
        return int(str(text).strip().replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None


def int_range(lo: int | None = None, hi: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer in ``[lo, hi]`` (either end may be open).

    >>> int_range(2, 10)("7")
    7
    >>> int_range(2, 10)("11")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be an integer in [2, 10], got 11
    """

    def parse(text: str) -> int:
        v = _int(text)
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            want = (
                f"in [{lo}, {hi}]"
                if lo is not None and hi is not None
                else f">= {lo}"
                if lo is not None
                else f"<= {hi}"
            )
            raise argparse.ArgumentTypeError(f"must be an integer {want}, got {v}")
        return v

    parse.__name__ = "integer"
    return parse


#: largest count any command accepts (steps, sequences, lengths, threads, ...)
MAX_COUNT = 10**9

positive_int = int_range(1, MAX_COUNT)
positive_int.__doc__ = "An argparse type: an integer in [1, 10**9]."
nonnegative_int = int_range(0, MAX_COUNT)
nonnegative_int.__doc__ = "An argparse type: an integer in [0, 10**9]."


#: largest length a theory command accepts (it enters formulas; nothing is allocated)
MAX_LENGTH = 10**15

length_int = int_range(1, MAX_LENGTH)
length_int.__doc__ = "An argparse type: a length, an integer in [1, 10**15]."


def finite_float(text: str) -> float:
    """An argparse type: a finite real number.

    >>> finite_float("1e-3")
    0.001
    >>> finite_float("nan")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a finite number, got 'nan'
    """
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(v):
        raise argparse.ArgumentTypeError(f"must be a finite number, got {text!r}")
    return v


def open_unit_float(text: str) -> float:
    """An argparse type: a number in (0, 1) whose double is in (0, 1) too (a decimal that
    rounds to 0 or 1 as a double is refused by name, not read as its double).

    >>> open_unit_float("0.001")
    0.001
    >>> open_unit_float("0.99999999999999999999")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: 0.99999999999999999999 is in (0, 1) but rounds to 1.0 as a double (the values are read as doubles: at most 16 significant digits)
    """
    v = finite_float(text)
    try:
        exact = Fraction(text.strip())
    except ValueError:
        exact = Fraction(v)
    if not 0 < exact < 1:
        raise argparse.ArgumentTypeError(f"must be in (0, 1), got {text.strip()}")
    if not 0 < v < 1:
        how = "at most 16 significant digits" if v == 1 else "no fewer than 5e-324"
        raise argparse.ArgumentTypeError(
            f"{text.strip()} is in (0, 1) but rounds to {v!r} as a double (the values are "
            f"read as doubles: {how})"
        )
    return v


def positive_float(text: str) -> float:
    """An argparse type: a finite number > 0.

    >>> positive_float("0")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be > 0, got 0.0
    """
    v = finite_float(text)
    if v <= 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {v}")
    return v


def float_range(lo: float, hi: float) -> Callable[[str], float]:
    """An argparse type: a finite number in ``[lo, hi]`` (where the computation that uses
    it stays within floating point).

    >>> float_range(1e-6, 1e12)("1e-308")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a number in [1e-06, 1e+12], got 1e-308
    """

    def parse(text: str) -> float:
        v = finite_float(text)
        if not lo <= v <= hi:
            raise argparse.ArgumentTypeError(f"must be a number in [{lo:g}, {hi:g}], got {v:g}")
        return v

    parse.__name__ = "number"
    return parse


def _nearest_existing(path: Path) -> Path:
    p = path.absolute()
    while not p.exists() and p != p.parent:
        p = p.parent
    return p


def can_write_in(folder: Path) -> bool:
    """Whether a file can be created in ``folder`` (tried, not guessed from mode bits)."""
    import tempfile

    try:
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def existing_file(text: str) -> Path:
    """An argparse type: a readable file (not a folder)."""
    p = Path(text)
    if not p.exists():
        raise argparse.ArgumentTypeError(f"no such file: {text}")
    if not p.is_file():
        raise argparse.ArgumentTypeError(f"not a file: {text}")
    if not os.access(p, os.R_OK):
        raise argparse.ArgumentTypeError(f"cannot read {text}: permission denied")
    return p


def output_file(text: str) -> Path:
    """An argparse type: a file the command may write: its folder exists and is writable,
    and it is not a folder itself (nothing is created here)."""
    if not str(text).strip():
        raise argparse.ArgumentTypeError("empty file name")
    p = Path(text)
    if p.is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder, not a file")
    parent = p.absolute().parent
    if not parent.is_dir():
        raise argparse.ArgumentTypeError(f"folder {parent} does not exist")
    if not can_write_in(parent) or (p.exists() and not os.access(p, os.W_OK)):
        raise argparse.ArgumentTypeError(f"cannot write {text}: permission denied")
    return p


def output_dir(text: str) -> Path:
    """An argparse type: a folder the command may write into: an existing writable folder,
    or a new one whose nearest existing ancestor is a writable folder (it is created only
    when the run starts writing, see :func:`output_folder`)."""
    if not str(text).strip():
        raise argparse.ArgumentTypeError("empty folder name")
    p = Path(text)
    if p.exists() and not p.is_dir():
        raise argparse.ArgumentTypeError(f"{text} exists and is not a folder")
    base = _nearest_existing(p)
    if not base.is_dir():
        raise argparse.ArgumentTypeError(f"cannot create {text}: {base} is not a folder")
    if not can_write_in(base):
        raise argparse.ArgumentTypeError(f"cannot write into {base}: permission denied")
    return p
