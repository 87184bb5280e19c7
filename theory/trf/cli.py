r"""``python -m theory.trf``: does an RPE extrapolate, and how far does it see?

For :math:`b_n = \exp(\mathrm{RPE}(n))` it prints the convergence verdict of
:math:`\sum_{n\ge s} b_n` with its certificate (RPE paper Thm 3.4), the sum :math:`B` with an
error bound, the TRF table (Eq. 22) and the asymptotic order of TRF(eps) as eps -> 0.  The
analysis is :mod:`theory.trf.analysis`; a ``--verdict-only`` question on a formula whose
size the asymptotic scale settles is answered first by :mod:`theory.trf.quick`, without
loading sympy.

>>> main(["--rpe", "1/n**2", "--eps", "0.01", "--json"])  # doctest: +ELLIPSIS
{"series": "n**(-2)", ..."trf": [{"eps": 0.01, "value": 61, "exact": true, ...
0
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from theory.core.cli import command, dumps
from theory.trf.quick import quick_answer
from theory.trf.report import verdict_lines

#: options whose value is a formula
FORMULA_OPTIONS = ("--rpe", "--bias", "--compare")


def glued_formulas(args: list[str]) -> list[str]:
    """``--rpe -log(1 - 1/n**2)`` as ``--rpe=-log(1 - 1/n**2)`` (``--bias`` and
    ``--compare`` alike): argparse takes a value
    that starts with ``-`` for an option (and says "expected one argument"); a formula is
    never one.

    >>> glued_formulas(["--rpe", "-1/n**2", "--json"])
    ['--rpe=-1/n**2', '--json']
    >>> glued_formulas(["--rpe", "--json"])
    ['--rpe', '--json']
    """
    out: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else None
        if a in FORMULA_OPTIONS and nxt and nxt[:1] == "-" and nxt[:2] != "--" and nxt != "-h":
            out.append(f"{a}={nxt}")
            i += 2
            continue
        out.append(a)
        i += 1
    return out


@command
def main(argv: Sequence[str] | None = None) -> int:
    args = glued_formulas(list(sys.argv[1:] if argv is None else argv))
    out = quick_answer(args)
    if out is None:
        from theory.trf.analysis import run

        return run(args)
    print(dumps(out) if "--json" in args else "\n".join(verdict_lines(out)))
    return 0
