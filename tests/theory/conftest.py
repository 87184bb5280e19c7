"""Budgets in the theory tests count CPU time only, so that a busy machine cannot turn an
answer into a time-out: the wall-clock caps of guarded computations become a hang guard
(``budget.HANG_FACTOR`` times the CPU budget) and the command's wall-clock deadline is
replaced by a CPU clock (a guarded child's own CPU time; the command's
CPU time with that of its finished workers)."""

import os

import pytest

from theory.core import budget
from theory.trf import analysis as cli


def _command_cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class _CpuDeadline(cli.Deadline):
    def __init__(self, seconds: float, started: float | None = None):
        # the CPU clock of a command run in-process starts with its main (the test's own
        # imports are not the command's)
        self.seconds, self.end = seconds, _command_cpu() + seconds

    def left(self, share: float = 1.0) -> float:
        return max(0.05, (self.end - _command_cpu()) * share)

    def wall(self, share: float = 1.0) -> float:
        return budget.HANG_FACTOR * self.left(share)  # a hang guard only


@pytest.fixture(autouse=True)
def _cpu_budgets(monkeypatch):
    # CPU time decides; the wall clock only catches a child that waits instead of computing
    monkeypatch.setattr(budget, "WALL_CAP_FACTOR", budget.HANG_FACTOR)
    monkeypatch.setattr(cli, "Deadline", _CpuDeadline)
