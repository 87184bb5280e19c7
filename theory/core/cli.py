"""What every command line of the project shares: argparse errors as one line.

>>> p = CommandParser(prog="demo")
>>> _ = p.add_argument("--n", type=int)
>>> p.parse_args(["--n", "3"]).n
3
"""
from __future__ import annotations

import argparse
import sys


class CommandParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose errors are one stderr line ``error: ...``, exit 2."""

    def error(self, message):
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)
