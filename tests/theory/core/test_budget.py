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
