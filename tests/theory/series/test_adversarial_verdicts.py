"""The adversarial set (adversarial_verdicts.py): no verdict is ever wrong, bad input is
refused with exit 2 and one ``error:`` line.  One case per class and the T5 family run in
the default suite; the whole set under ``slow`` (and in ``python -m benchmarks.trf``)."""

import pytest
from adversarial_verdicts import CASES, ERR

from theory.series.convergence import decide
from theory.series.expressions import parse_assignments
from theory.series.rpe_library import resolve_rpe
from theory.trf.cli import main


def _argv(case):
    argv = ["--rpe", case.text, "--start", str(case.start), "--eps", "0.1", "--json"]
    for k, v in case.params.items():
        argv += ["--param", f"{k}={v}"]
    return argv


def check(case, capsys):
    if case.truth == ERR:
        assert main(_argv(case)) == 2
        cap = capsys.readouterr()
        assert cap.out == "" and cap.err.startswith("error:") and cap.err.count("\n") == 1
        return
    rpe = resolve_rpe(case.text, parse_assignments([f"{k}={v}" for k, v in case.params.items()]))
    d = decide(rpe.b, rpe.start if rpe.source != "user" else case.start)
    assert d.converges in (None, case.truth), d.certificate
    if case.cls == 7:  # T5-like tails must be decided, not just not wrong
        assert d.converges is case.truth, d.certificate


def _fast():
    seen, out = set(), []
    for c in CASES:
        if c.cls not in seen or (c.cls == 7 and len([x for x in out if x.cls == 7]) < 3):
            seen.add(c.cls)
            out.append(c)
    return out


FAST = _fast()


@pytest.mark.parametrize("case", FAST, ids=[f"{c.cls}:{c.text}" for c in FAST])
def test_adversarial_fast(case, capsys):
    check(case, capsys)


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[f"{c.cls}:{c.text}:{c.params}" for c in CASES])
def test_adversarial_all(case, capsys):
    check(case, capsys)


def test_set_covers_every_class():
    assert {c.cls for c in CASES} == set(range(1, 11)) and len(CASES) >= 150
