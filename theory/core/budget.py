"""Run a computation under a wall-clock budget and a memory cap, in a forked child.

Symbolic (sympy) and arbitrary-precision (mpmath) work on user formulas can take
unbounded time or memory: ``limit`` on a pathological expression, or mpmath evaluating
``exp(exp(exp(n)))`` at ``n = 30`` (an integer with ~10^13 digits).  Python signals cannot
interrupt a single long C-level big-integer operation, so the work runs in a forked child
process that is killed when the budget runs out.  Inside the child, :func:`step_budget`
gives individual sympy calls a smaller budget with ``SIGPROF`` so that one hanging step
does not cost the whole budget.  Budgets count CPU time, so a busy machine does not turn
answers into time-outs (a wall-clock cap of :data:`WALL_CAP_FACTOR` times the budget
remains; the test-suite raises it to :data:`HANG_FACTOR`, a guard against a child that
only waits).

>>> run_guarded(sum, ([1, 2, 3],), budget=5.0)
6
>>> run_guarded(_sleep_forever, (), budget=0.3)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
theory.core.budget.BudgetExceeded: computation exceeded its wall-clock limit of ... s (... wall-clock time)
"""

from __future__ import annotations

import contextlib
import functools
import gc
import multiprocessing as mp
import os
import pickle
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

#: memory a guarded child may add to the address space it inherits at the fork, bytes (a
#: cap relative to what the parent has mapped: a parent that has imported torch already
#: maps gigabytes, which an absolute cap would leave the child without)
MEMORY_CAP = 3 * 2**30


def _address_space() -> int:
    """This process's mapped address space in bytes (0 where /proc does not say)."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


#: a guarded child's wall-clock cap, in multiples of its CPU budget (a child that waits
#: instead of computing); ``math.inf`` leaves CPU time as the only budget
WALL_CAP_FACTOR: float = 4.0
_IN_CHILD = False
_T = TypeVar("_T")


class BudgetExceeded(RuntimeError):
    """The guarded computation ran out of time or memory."""


class StepTimeout(Exception):
    """A single step inside the child ran past its own (smaller) budget."""


#: set by :func:`interrupt` once Ctrl-C has arrived: from then on a step's CPU-time timer
#: raises ``KeyboardInterrupt`` too, never a :class:`StepTimeout` that a caller catches
#: and goes on from (a timer that fires while the interrupt unwinds would otherwise
#: replace it, and the command would finish as if nothing had happened)
INTERRUPTED = threading.Event()


def interrupt(signum: int, frame: object) -> None:
    """The SIGINT handler a command runs under (see :func:`interrupts`): remember the
    interrupt, then raise ``KeyboardInterrupt`` as Python's own handler does."""
    INTERRUPTED.set()
    raise KeyboardInterrupt


@contextlib.contextmanager
def interrupts() -> Iterator[None]:
    """Run the block with :func:`interrupt` as the SIGINT handler (main thread only); on the
    way out every step timer is disarmed and the previous handler restored.

    >>> with interrupts():
    ...     signal.getsignal(signal.SIGINT) is interrupt
    True
    >>> signal.getsignal(signal.SIGINT) is interrupt
    False
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    INTERRUPTED.clear()
    previous = signal.signal(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        disarm_steps()
        signal.signal(signal.SIGINT, previous)
        INTERRUPTED.clear()  # a library call after this command must time out as usual


def disarm_steps() -> None:
    """Cancel any pending step timer (after an interrupt, before reporting it)."""
    if hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread():
        signal.setitimer(signal.ITIMER_PROF, 0)


def _sleep_forever():  # used by the doctest
    while True:
        time.sleep(1)


PR_SET_PDEATHSIG = 1  # linux/prctl.h


@functools.cache
def _libc_prctl() -> Callable[..., int] | None:
    """libc's ``prctl`` (None off Linux), loaded once by the parent before it forks: every
    guarded child inherits it instead of importing ctypes again (milliseconds a child)."""
    try:
        import ctypes  # Linux only (prctl), and only for guarded children

        return ctypes.CDLL(None, use_errno=True).prctl
    except (ImportError, OSError, AttributeError):  # pragma: no cover - not Linux
        return None


@functools.cache
def _resource() -> Any:
    """The ``resource`` module (None where the platform has none), imported once."""
    try:
        import resource  # Unix only

        return resource
    except ImportError:  # pragma: no cover - not Unix
        return None


def die_with_parent(parent_pid: int) -> None:
    """Make this (forked) process die when its parent does: the kernel sends SIGKILL on the
    parent's death (Linux prctl PR_SET_PDEATHSIG); a parent already gone ends it at once.
    The child also stays in the parent's process group, so a signal to the group reaches it.
    Elsewhere nothing is done (the parent's own clean-up still kills it)."""
    prctl = _libc_prctl()
    if prctl is not None:
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent_pid:  # the parent died before the prctl took effect
        os._exit(1)


def _child(conn, fn, args, kwargs, parent_pid):
    global _IN_CHILD
    _IN_CHILD = True
    # the objects inherited from the parent go to the permanent generation (no traversal):
    # a collection in the child would otherwise visit all of them, touching (and so
    # copying) every page of the parent's heap, tens of ms per child
    gc.freeze()
    die_with_parent(parent_pid)
    resource = _resource()
    try:
        cap = _address_space() + MEMORY_CAP
        if resource is not None:
            resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ValueError, OSError):  # pragma: no cover - platform dependent
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


def run_guarded(
    fn: Callable[..., _T],
    args: Sequence[Any] = (),
    kwargs: Mapping[str, Any] | None = None,
    budget: float = 8.0,
    wall: float | None = None,
) -> _T:
    """``fn(*args, **kwargs)`` in a forked child; :class:`BudgetExceeded` after ``budget`` s
    of CPU time or ``wall`` s of wall-clock time (default ``WALL_CAP_FACTOR * budget``).

    Exceptions raised by ``fn`` are re-raised here.  Nested calls (already in a child)
    run directly.  Where ``fork`` is unavailable, or in a daemonic process (e.g. a data
    loader worker), the call runs unguarded.
    """
    kwargs = kwargs or {}
    if _IN_CHILD or "fork" not in mp.get_all_start_methods() or mp.current_process().daemon:
        return fn(*args, **kwargs)  # (daemonic processes may not have children)
    ctx = mp.get_context("fork")
    _libc_prctl(), _resource()  # loaded here, once, for every child forked from now on
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, fn, args, kwargs, os.getpid()), daemon=True)
    proc.start()
    child.close()
    try:
        cap = WALL_CAP_FACTOR * budget if wall is None else wall
        used = _wait(parent, proc.pid, budget, cap)
        if used is not None:
            limit = (
                f"its wall-clock limit of {cap:g} s"
                if used[1] > cap
                else f"its time budget of {budget:g} s"
            )
            raise BudgetExceeded(
                f"computation exceeded {limit}"
                f" ({used[0]} s of CPU time, {used[1]:.1f} s of wall-clock time)"
            )
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


def _cpu_seconds(pid):
    """CPU time (user + system) of a process from /proc, or None where unavailable;
    ``-1.0`` for a process that has ended (a zombie, or gone from /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        if fields[0] in ("Z", "X"):
            return -1.0
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except FileNotFoundError:
        return -1.0 if os.path.exists("/proc/self/stat") else None
    except (OSError, ValueError, IndexError):
        return None


def _wait(conn, pid, budget, wall_cap: float) -> tuple[str, float] | None:
    """Wait for a result: ``None`` once it is in the pipe, else the child's CPU time (as
    text, ``"unknown"`` where /proc is missing) and the wall-clock seconds when it ran out.
    The budget counts the child's CPU time (so that other processes loading the machine do
    not turn answers into time-outs), with a wall-clock cap; where /proc is missing the
    budget is wall-clock."""
    t0 = time.monotonic()
    while True:
        if conn.poll(0.05):
            return None
        cpu = _cpu_seconds(pid)
        wall = time.monotonic() - t0
        if cpu == -1.0:  # the child ended; its answer, if any, is in the pipe
            return None if conn.poll(0.5) else ("unknown", wall)
        if (cpu if cpu is not None else wall) > budget or wall > wall_cap:
            if conn.poll(0):
                return None
            return ("unknown" if cpu is None else f"{cpu:.1f}", wall)


#: step time-outs raised so far in this process (see :func:`cache_answers`)
_timeouts = 0


def cache_answers(maxsize: int | None = 256) -> Callable[[Callable], Callable]:
    """``functools.lru_cache`` for answers only: a result computed while a step time-out
    was raised inside the call (and caught there, e.g. returned as None: "not proved") is
    returned but not kept, so a later call with more time computes it again.  An
    enclosing block's time-out also fires inside the call (the inner timer is the shorter
    one), so a cached "not proved" could otherwise outlive the budget that caused it.
    ``maxsize`` None: unbounded.

    >>> calls = []
    >>> @cache_answers()
    ... def f(x):
    ...     calls.append(x)
    ...     try:
    ...         with step_budget(1e-3):
    ...             while x < 0:
    ...                 pass
    ...     except StepTimeout:
    ...         return None
    ...     return x
    >>> f(1), f(1), f(-1), f(-1), len(calls)
    (1, 1, None, None, 3)
    """

    def decorate(fn: Callable) -> Callable:
        store: dict = {}

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
            if key in store:
                return store[key]
            before = _timeouts
            out = fn(*args, **kwargs)
            if _timeouts == before:
                if maxsize is not None and len(store) >= maxsize:
                    store.pop(next(iter(store)))
                store[key] = out
            return out

        return wrapper

    return decorate


#: CPU seconds after which a step's time-out fires again while its block has not ended
REFIRE_SECONDS = 0.1


@contextlib.contextmanager
def step_budget(seconds: float, error: type[BaseException] = StepTimeout) -> Iterator[None]:
    """Raise ``error`` (:class:`StepTimeout`) inside the block after ``seconds`` of CPU
    time (main thread only; nested blocks: the inner one replaces the outer timer), and
    again every :data:`REFIRE_SECONDS` until the block ends: a time-out that something
    swallows does not leave the block without a timer."""
    if (
        threading.current_thread() is not threading.main_thread()
        or seconds <= 0
        or not hasattr(signal, "setitimer")
    ):
        yield
        return

    def _handler(signum, frame):
        if INTERRUPTED.is_set():  # Ctrl-C came first: it wins over the time-out
            raise KeyboardInterrupt
        global _timeouts
        _timeouts += 1
        # fire again soon: where the exception is swallowed (a garbage-collector callback,
        # a destructor, a library's broad ``except``) the block would run on without a
        # timer; the block's exit disarms this one
        signal.setitimer(signal.ITIMER_PROF, REFIRE_SECONDS)
        raise error(f"more than {seconds:g} s of CPU time")

    # CPU time of this process (ITIMER_PROF), not wall-clock: immune to a busy machine
    outer_left = signal.getitimer(signal.ITIMER_PROF)[0]
    start = time.process_time()
    old = signal.signal(signal.SIGPROF, _handler)
    signal.setitimer(signal.ITIMER_PROF, min(seconds, outer_left) if outer_left > 0 else seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
        if outer_left > 0:  # re-arm the enclosing block with what it has left
            signal.setitimer(
                signal.ITIMER_PROF, max(outer_left - (time.process_time() - start), 1e-3)
            )


#: a wall-clock guard of this many times a child's CPU budget catches only a child that
#: waits forever without computing (a busy machine never comes near it)
HANG_FACTOR = 20


def cpu_limit(seconds: int) -> Callable[[], None]:
    """A ``preexec_fn`` for ``subprocess``: the child is stopped after ``seconds`` of CPU
    time (``RLIMIT_CPU``: SIGXCPU, then SIGKILL), however busy the machine is.  Pair it
    with ``timeout=seconds * HANG_FACTOR`` as a guard against a child that only waits.

    >>> import subprocess, sys
    >>> cmd = [sys.executable, "-c", "while True: pass"]
    >>> subprocess.run(cmd, preexec_fn=cpu_limit(1), timeout=1 * HANG_FACTOR).returncode < 0
    True
    """

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 5))

    return limit
