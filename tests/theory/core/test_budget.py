"""The guarded child's memory cap is relative to what its parent has mapped."""

import mmap
import sys

import pytest
import sympy as sp

from theory.core.budget import MEMORY_CAP, BudgetExceeded, StepTimeout, run_guarded, step_budget


def _allocate(n_bytes: int) -> int:
    return len(bytearray(n_bytes))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc")
def test_a_parent_that_maps_gigabytes_leaves_its_child_the_whole_cap():
    # a parent that has imported torch maps gigabytes of address space; with an absolute
    # cap of MEMORY_CAP its child could not allocate a few hundred MiB (seen in the full
    # test run: a sum that needs 3 CPU-s alone ended as a "budget exceeded")
    reserved = mmap.mmap(-1, MEMORY_CAP + 2**30)  # address space, not memory (never touched)
    try:
        assert run_guarded(_allocate, (512 * 2**20,), budget=30) == 512 * 2**20
    finally:
        reserved.close()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc")
def test_the_cap_still_stops_a_child_that_allocates_beyond_it():
    with pytest.raises(BudgetExceeded, match="out of memory"):
        run_guarded(_allocate, (MEMORY_CAP + 2**30,), budget=30)


def test_a_limit_cut_short_by_an_enclosing_budget_is_not_cached():
    """An enclosing step budget that runs out inside limit_at_infinity makes it return None
    (its own step budget is the shorter timer); that None is no answer and must not be
    kept: the same limit asked again with time gives it (n (n^(1/n) - 1 + n^-5/13) ->
    oo, as n^(1/n) - 1 ~ log(n)/n)."""
    from theory.series.expressions import N
    from theory.series.limits import limit_at_infinity

    expr = N * (N ** (1 / N) - 1 + N ** (-5) / 13)  # used nowhere else: not in the cache
    try:
        with step_budget(1e-4):
            limit_at_infinity(expr)
    except StepTimeout:
        pass
    assert limit_at_infinity(expr) == sp.oo


def _spin(cpu_seconds: float) -> None:
    import time

    end = time.process_time() + cpu_seconds
    while time.process_time() < end:
        pass


def _swallow_once_then_spin() -> str:
    """A block whose first time-out is caught inside it (a library's broad ``except``), and
    which then computes on: the time-out must fire again, not leave it without a timer."""
    try:
        with step_budget(0.05):
            try:
                _spin(10)
            except StepTimeout:
                pass  # swallowed
            _spin(10)
    except StepTimeout:
        return "fired again"
    return "ran on"


def _swallowed_in_gc_callback() -> str:
    """The time-out fires inside a garbage-collector callback, where Python prints
    "Exception ignored" and drops it (seen with hypothesis's callback in the suite)."""
    import gc

    def callback(phase, info):
        if phase == "start":
            _spin(0.3)  # the 0.05 s timer fires in here, and is dropped

    gc.callbacks.append(callback)
    try:
        with step_budget(0.05):
            gc.collect()
            gc.callbacks.remove(callback)
            _spin(10)
    except StepTimeout:
        return "fired again"
    finally:
        if callback in gc.callbacks:
            gc.callbacks.remove(callback)
    return "ran on"


@pytest.mark.parametrize("fn", [_swallow_once_then_spin, _swallowed_in_gc_callback])
def test_a_swallowed_step_timeout_fires_again(fn):
    """Without the re-arming the block spins its whole 10 s and the guarded child's budget
    (3 s of CPU) ends it: BudgetExceeded instead of the answer."""
    assert run_guarded(fn, budget=3.0) == "fired again"
