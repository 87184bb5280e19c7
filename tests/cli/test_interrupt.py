"""Ctrl-C at any moment of ``python -m theory.trf``: while Python imports the command,
while the decision runs inside a CPU-time step budget (a pending step timer must not
replace the interrupt: the command once went on and exited 0), or while a guarded child
computes: always exit 130 and a last stderr line ``error: interrupted``, no traceback."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from theory.core import startup
from theory.core.budget import HANG_FACTOR, cpu_limit
from theory.core.startup import exit_interrupted, interrupt_well_while_starting

ROOT = Path(__file__).resolve().parents[2]
#: a decision that works for many CPU seconds (three free parameters of unknown sign, 27
#: sign cases: exp(1/n**a) keeps it outside the log-scale rule, which decides products of
#: powers of n and its iterated logs at once)
SLOW = ["-m", "theory.trf", "--rpe", "exp(1/n**a)/(n**b*log(n)**c)"]
SLOW += ["--free", "a", "--free", "b", "--free", "c", "--time-limit", "60"]
#: a command that ends within a second or two (B of exp(-n**(15*10**9)) from two terms): a
#: Ctrl-C lands anywhere in it, its interpreter's finalization included
QUICK = ["-m", "theory.trf", "--rpe", "exp(-n**(15*10**9))", "--time-limit", "60"]


def interrupted_at(delay: float, script: str | None = None, cmd=SLOW) -> tuple[int, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("LENGTHX_TRACEBACK", None)
    argv = [sys.executable, *cmd] if script is None else [script, "trf", *cmd[2:]]
    proc = subprocess.Popen(
        argv,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=env,
        preexec_fn=cpu_limit(120),
    )
    time.sleep(delay)  # the moment of the Ctrl-C, not a timing assertion
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120 * HANG_FACTOR)
    return proc.returncode, err.decode()


def check(code: int, err: str) -> None:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 130 and lines[-1:] == ["error: interrupted"], (code, err)
    assert "Traceback" not in err, err


@pytest.mark.parametrize("delay", [0.5, 2.0, 5.0])
def test_ctrl_c_while_starting_or_deciding(delay):
    """From the first import of our packages on (a delay under ~0.1 s can still land in
    the interpreter's own start-up, before any project code runs)."""
    check(*interrupted_at(delay))


@pytest.mark.skipif(shutil.which("lengthx") is None, reason="the lengthx script is not installed")
@pytest.mark.parametrize("delay", [0.3, 2.0])
def test_ctrl_c_under_the_console_script(delay):
    check(*interrupted_at(delay, shutil.which("lengthx")))


@pytest.mark.slow
def test_ctrl_c_at_twenty_random_moments():
    """From 0.3 s on: before ~0.1 s the signal can land in the interpreter's own start-up
    (site, the editable install's path hook), before any project code runs."""
    rng = random.Random(0)
    for delay in (rng.uniform(0.3, 3.0) for _ in range(20)):
        check(*interrupted_at(delay))


@pytest.mark.slow
def test_ctrl_c_at_twenty_random_moments_of_a_quick_command():
    """A command that may finish first: it then exits 0 with nothing on stderr; a Ctrl-C
    that arrives before the process has ended, during its interpreter's finalization
    included, ends it with 130 and the one line (it once died by the signal, status -2,
    or aborted with "Python runtime state: finalizing")."""
    rng = random.Random(1)
    for delay in (rng.uniform(0.3, 3.0) for _ in range(20)):
        code, err = interrupted_at(delay, cmd=QUICK)
        if code != 0 or err:
            check(code, err)


def test_startup_handler_only_for_commands(monkeypatch):
    """Importing the library changes no signal handler; starting a command does."""
    before = signal.getsignal(signal.SIGINT)
    assert interrupt_well_while_starting() is False
    assert signal.getsignal(signal.SIGINT) is before
    assert startup.COMMAND_STARTED is None  # the library's clock: each call's own
    monkeypatch.setattr(sys, "argv", ["-m"])
    monkeypatch.setattr(startup, "COMMAND_STARTED", None)
    # another program started with -m (pytest itself): not a command of ours, nothing changes
    monkeypatch.setattr(sys, "orig_argv", [sys.executable, "-m", "pytest", "-q"])
    assert interrupt_well_while_starting() is False and startup.COMMAND_STARTED is None
    monkeypatch.setattr(sys, "orig_argv", [sys.executable, "-X", "utf8", "-m", "theory.trf"])
    try:
        # ours to replace: Python's default, or SIG_IGN inherited from a shell's background job
        ours = before in (signal.default_int_handler, signal.SIG_IGN)
        assert interrupt_well_while_starting() is ours
    finally:
        signal.signal(signal.SIGINT, before)
    assert callable(exit_interrupted)
    # a command's --time-limit counts from the process's start (imports inside it): this
    # test process started (and imported pytest, sympy, ...) well before this line ran
    assert startup.COMMAND_STARTED is not None
    assert startup.COMMAND_STARTED < time.monotonic() - 0.01


def test_ctrl_c_while_starting_even_if_the_parent_ignored_it(monkeypatch):
    """A shell's background job inherits SIGINT ignored; main honours SIGINT regardless, so
    the start-up does too (an early SIGINT was once lost and the command exited 0)."""
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    monkeypatch.setattr(sys, "argv", ["-m"])
    monkeypatch.setattr(sys, "orig_argv", [sys.executable, "-m", "theory.trf"])
    monkeypatch.setattr(startup, "COMMAND_STARTED", None)  # this process's clock stays unset
    try:
        assert interrupt_well_while_starting() is True
        assert signal.getsignal(signal.SIGINT) is exit_interrupted
    finally:
        signal.signal(signal.SIGINT, before)


def test_time_limit_counts_from_the_process_start(monkeypatch):
    """As a command, the deadline is --time-limit after main's start less the CPU time the
    process spent starting (imports count; waiting on a busy machine does not)."""
    from theory.trf import analysis, cli

    seen = []

    class Recording(analysis.Deadline):
        def __init__(self, seconds, started=None):
            seen.append(started)
            raise analysis.ExpressionError("stop here")

    monkeypatch.setattr(analysis, "Deadline", Recording)
    monkeypatch.setattr(startup, "COMMAND_STARTED", None)  # the library: from main's start
    assert cli.main(["--rpe", "1/n**2"]) == 2
    assert seen == [None]
    monkeypatch.setattr(startup, "COMMAND_STARTED", 123.0)  # a command: its start-up counts
    assert cli.main(["--rpe", "1/n**2"]) == 2
    # this process has spent CPU time importing pytest and sympy before main ran
    assert seen[1] is not None and seen[1] < time.monotonic() - 0.01


def test_pending_step_timer_does_not_swallow_ctrl_c():
    """A StepTimeout that fires after Ctrl-C is a KeyboardInterrupt (caught by callers
    that go on after a time-out, it would have hidden the interrupt)."""
    from theory.core import budget

    with budget.interrupts():
        budget.INTERRUPTED.set()
        with pytest.raises(KeyboardInterrupt), budget.step_budget(0.05):
            try:
                while True:
                    pass
            except budget.StepTimeout:  # what check_terms did: go on after a time-out
                pass
    assert signal.getitimer(signal.ITIMER_PROF)[0] == 0
    assert not budget.INTERRUPTED.is_set()  # later library calls time out as usual


def test_an_error_raised_by_what_ctrl_c_broke_is_an_interrupt(capsys):
    """Ctrl-C during numpy's import comes out as ImportError ("IMPORTANT: PLEASE READ THIS
    ..."), seen once in CI at 0.3 s: once the interrupt has arrived, any error is reported
    as the interrupt (130), not as the error it caused (2)."""
    from theory.core import budget
    from theory.core.cli import run_command

    def main(argv):
        budget.INTERRUPTED.set()  # what the SIGINT handler records
        raise ImportError("IMPORTANT: PLEASE READ THIS FOR ADVICE ON HOW TO SOLVE THIS ISSUE!")

    assert run_command(main, []) == 130
    assert capsys.readouterr().err.strip().splitlines()[-1] == "error: interrupted"
