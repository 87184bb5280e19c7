"""Free-parameter families c Max(x_1, ...) and c Min(x_1, ...) with positive exp-log
arguments (theory.series.max_min_families), and alternating families whose g holds atan
(theory.series.family_parts.exp_log): every condition against the proof in its comment,
and against the single-series verdicts at parameter values on both sides of each boundary
(a different code path: no free parameter there)."""

import json

import pytest

from benchmarks.free_params import holds_at
from theory.series.convergence import decide_in_process
from theory.series.expressions import parse_expression as P
from theory.trf.cli import main

CASES = [
    # Max converges iff every argument's series does; Min iff one does
    ("Max(n**(-p), n**(-2))", ["p"], "converges iff p > 1", [-1, 0, 0.5, 1, 1.5, 3]),
    ("Min(n**(-p), n**(-2))", ["p"], "converges for every real p", [-1, 0, 1, 3]),
    ("Min(n**(-p), 1)", ["p"], "converges iff p > 1", [-1, 0, 1, 2]),
    ("Max(n**(-p), 2**(-n))", ["p"], "converges iff p > 1", [0, 1, 2]),
    # (-1)^n g, g = atan(1/n)^p in a Hardy field: Leibniz where g -> 0 (p > 0), else the
    # terms do not tend to 0
    ("(-1)**n*atan(1/n)**p", ["p"], "converges iff p > 0", [-1, 0, 0.5, 2]),
]


@pytest.mark.parametrize("text, free, condition, points", CASES)
def test_condition_on_the_whole_line(text, free, condition, points, capsys):
    args = ["--rpe", text, "--verdict-only", "--json"]
    for f in free:
        args += ["--free", f]
    assert main(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["condition"] == condition, out["condition"]
    for v in points:
        single = decide_in_process(P(text.replace("p", f"({v})")), 1).converges
        if single is not None:  # the fixed-value analysis agrees wherever it decides
            assert holds_at(out, {"p": v}) is single, (text, v, out["condition"])


def test_max_of_two_free_powers():
    """Max(n^-p, n^-q) converges iff p > 1 and q > 1, on the whole plane (p or q = 0:
    Max(1, n^-q) >= 1)."""
    args = ["--rpe", "Max(n**(-p), n**(-q))", "--free", "p", "--free", "q"]
    from contextlib import redirect_stdout
    from io import StringIO

    buf = StringIO()
    with redirect_stdout(buf):
        assert main([*args, "--verdict-only", "--json"]) == 0
    out = json.loads(buf.getvalue())
    assert out["condition"] == "converges iff p > 1 and q > 1", out["condition"]
