"""Run a computation under a wall-clock budget and a memory cap, in a forked child.

Symbolic (sympy) and arbitrary-precision (mpmath) work on user formulas can take
unbounded time or memory: ``limit`` on a pathological expression, or mpmath evaluating
``exp(exp(exp(n)))`` at ``n = 30`` (an integer with ~10^13 digits).  Python signals cannot
interrupt a single long C-level big-integer operation, so the work runs in a forked child
process that is killed when the budget runs out.  Inside the child, :func:`step_budget`
gives individual sympy calls a smaller budget with ``SIGALRM`` so that one hanging step
does not cost the whole budget.

>>> run_guarded(sum, ([1, 2, 3],), budget=5.0)
6
>>> run_guarded(_sleep_forever, (), budget=0.3)
Traceback (most recent call last):
...
theory.time_budget.BudgetExceeded: computation exceeded its time budget of 0.3 s
"""
from __future__ import annotations

import contextlib
import multiprocessing as mp
import os
import pickle
import signal
import threading
import time

#: memory cap (address space) of a guarded child, bytes
MEMORY_CAP = 3 * 2**30
_IN_CHILD = False


class BudgetExceeded(RuntimeError):
    """The guarded computation ran out of time or memory."""


class StepTimeout(Exception):
    """A single step inside the child ran past its own (smaller) budget."""


def _sleep_forever():  # used by the doctest
    while True:
        time.sleep(1)


def _child(conn, fn, args, kwargs):
    global _IN_CHILD
    _IN_CHILD = True
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
    except (ImportError, ValueError, OSError):  # pragma: no cover - platform dependent
        pass
    try:
        result = ("ok", fn(*args, **kwargs))
    except MemoryError:
        result = ("mem", None)
    except BaseException as exc:  # noqa: BLE001 - re-raised in the parent
        result = ("err", exc)
    try:
        conn.send_bytes(pickle.dumps(result))
    except Exception as exc:  # noqa: BLE001 - unpicklable result
        conn.send_bytes(pickle.dumps(("err", RuntimeError(f"result could not be returned: {exc}"))))
    conn.close()
    os._exit(0)


def run_guarded(fn, args=(), kwargs=None, budget: float = 8.0):
    """``fn(*args, **kwargs)`` in a forked child; :class:`BudgetExceeded` after ``budget`` s.

    Exceptions raised by ``fn`` are re-raised here.  Nested calls (already in a child)
    run directly.  Where ``fork`` is unavailable the call runs unguarded.
    """
    kwargs = kwargs or {}
    if _IN_CHILD or "fork" not in mp.get_all_start_methods():
        return fn(*args, **kwargs)
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn, args, kwargs), daemon=True)
    proc.start()
    child.close()
    try:
        if not parent.poll(budget):
            raise BudgetExceeded(f"computation exceeded its time budget of {budget:g} s")
        try:
            status, value = pickle.loads(parent.recv_bytes())
        except EOFError:
            raise BudgetExceeded("computation ran out of memory or crashed") from None
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(1.0)
        parent.close()
    if status == "mem":
        raise BudgetExceeded("computation ran out of memory")
    if status == "err":
        raise value
    return value


@contextlib.contextmanager
def step_budget(seconds: float):
    """Raise :class:`StepTimeout` inside the block after ``seconds`` (main thread only)."""
    if threading.current_thread() is not threading.main_thread() or seconds <= 0:
        yield
        return

    def _handler(signum, frame):
        raise StepTimeout(f"step exceeded {seconds:g} s")

    old = signal.signal(signal.SIGALRM, _handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
