"""Ctrl-C while a command is still starting: exit 130 with one ``error: interrupted`` line.

``python -m theory.trf`` spends from a fraction of a second (sympy) to several seconds
(torch, transformers, on a busy machine) importing before its ``main`` runs, and
:func:`theory.core.cli.run_command` turns Ctrl-C into that line only once ``main`` has
started.  Before then Python's own handler would print a traceback and die by SIGINT.
Each of our top-level packages calls :func:`interrupt_well_while_starting` when it is
imported; it acts only while Python is starting a module as a command (``python -m``,
``sys.argv[0] == "-m"`` while the module is being found), under the ``lengthx`` console
script, or when asked (``force=True``), so importing the library elsewhere changes no
signal handler.  This
module imports only the standard library's ``atexit``, ``os``, ``sys``, ``time`` and the
interpreter's own ``_signal`` (the ``signal`` module would first import ``enum``, some
milliseconds of a start that is itself some tens): the handler is in place before anything
slow is imported, and it is the first thing the start-up does.  While a command starts, matplotlib is also given a
writable configuration folder where ``$HOME`` has none (:func:`matplotlib_config_quietly`),
and the moment the process started is kept (:data:`COMMAND_STARTED`): a command's
``--time-limit`` counts from there, so the interpreter's start and every import are inside it.

The end is guarded too: once ``main`` has returned, the process ends with its status right
after the ``atexit`` handlers (:func:`exit_at_once`), without the interpreter's finalization,
where CPython resets SIGINT to its default (a Ctrl-C there killed the command by the signal,
status -2 and no message, or aborted it: "Python runtime state: finalizing").
"""

from __future__ import annotations

import _signal as signal  # the C module: no enum import before the handler is in place
import atexit
import os
import sys
import time

#: exit status of Ctrl-C (as :data:`theory.core.cli.EXIT_INTERRUPT`)
EXIT_INTERRUPTED = 130

#: ``time.monotonic()`` when this process started, set once a command is starting (see
#: :func:`interrupt_well_while_starting`); None when the library is imported elsewhere
COMMAND_STARTED: float | None = None


#: the top-level packages whose modules are commands (``python -m PACKAGE.module``)
PACKAGES = ("theory", "empirical", "figures", "paper_checks", "benchmarks")


def started_module() -> str:
    """The top-level package of the module this process was started with by ``-m`` (from
    the interpreter's own command line, :data:`sys.orig_argv`), or "" when none: another
    program started with ``-m`` (``python -m pytest``) is not one of our commands.

    >>> started_module() in ("", "pytest") or started_module()
    True
    """
    argv = list(getattr(sys, "orig_argv", ()))
    for i, a in enumerate(argv[1:], 1):
        if a == "-m":
            return argv[i + 1].split(".")[0] if i + 1 < len(argv) else ""
        if a.startswith("-m") and len(a) > 2:
            return a[2:].split(".")[0]
    return ""


def is_command_process() -> bool:
    """Whether this process runs one of our commands: started as ``python -m`` one of
    :data:`PACKAGES` (:func:`started_module`), or as the ``lengthx`` console script."""
    script = os.path.basename(sys.argv[0] if sys.argv else "")
    return started_module() in PACKAGES or script in ("lengthx", "lengthx.exe")


def process_age() -> float:
    """Seconds since this process started (its start time in /proc/self/stat against
    /proc/uptime, both in the kernel's clock ticks); 0.0 where /proc does not say."""
    try:
        with open("/proc/self/stat") as fh:
            ticks = int(fh.read().rsplit(")", 1)[1].split()[19])  # field 22, starttime
        with open("/proc/uptime") as fh:
            uptime = float(fh.read().split()[0])
        return max(0.0, uptime - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


#: the status ``main`` returned (set by :func:`theory.core.cli.command`); None before that
EXIT_STATUS: int | None = None


def exit_at_once() -> None:
    """The last ``atexit`` handler of a command process: with ``main``'s status known, flush
    the standard streams and end the process with that status at once (module doc)."""
    if EXIT_STATUS is None or not is_command_process():
        return  # main did not return (an error while importing), or a host program: as usual
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed or broken pipe: nothing more to say
            pass
    os._exit(EXIT_STATUS)


def exit_interrupted(signum: int, frame: object) -> None:
    """The SIGINT handler before (and after) ``main``: one line, exit 130 at once (no
    traceback, no interpreter shutdown for a second Ctrl-C to land in)."""
    os.write(2, b"error: interrupted\n")
    os._exit(EXIT_INTERRUPTED)


def _writable(folder: str) -> bool:
    """Whether ``folder`` exists (or can be made) and a file can be written in it."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def matplotlib_config_quietly() -> str | None:
    """Point ``MPLCONFIGDIR`` at a fresh temporary folder when matplotlib's own (under
    ``$HOME``, e.g. a read-only one) cannot be written, so that importing matplotlib warns
    about nothing (its two warning lines would break ``--quiet``); the folder is removed at
    exit.  Nothing happens when ``MPLCONFIGDIR`` is set or the default is writable.
    Returns the folder set, or None."""
    if os.environ.get("MPLCONFIGDIR"):
        return None
    home = os.path.expanduser("~")
    config = os.path.join(os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config"))
    cache = os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache"))
    if _writable(os.path.join(config, "matplotlib")) and _writable(
        os.path.join(cache, "matplotlib")
    ):
        return None
    import atexit
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="lengthx-matplotlib-")
    atexit.register(shutil.rmtree, folder, True)
    os.environ["MPLCONFIGDIR"] = folder
    return folder


def interrupt_well_while_starting(force: bool = False) -> bool:
    """Install :func:`exit_interrupted` as the SIGINT handler if a command is starting
    (see the module docstring); True when it did.

    >>> interrupt_well_while_starting()  # a library import: nothing changes
    False
    """
    starting = (sys.argv[:1] == ["-m"] and started_module() in PACKAGES) or os.path.basename(
        sys.argv[0] if sys.argv else ""
    ) in ("lengthx", "lengthx.exe")
    if not (force or starting):
        return False
    # SIG_IGN comes from the parent (a shell's background job): the command's main honours
    # SIGINT whatever it inherited, so its start-up does too (else an early one is lost)
    ours = signal.getsignal(signal.SIGINT) in (signal.default_int_handler, signal.SIG_IGN)
    if ours:
        signal.signal(signal.SIGINT, exit_interrupted)  # first, before any file is read
    global COMMAND_STARTED
    if starting and COMMAND_STARTED is None:
        COMMAND_STARTED = time.monotonic() - process_age()
        atexit.register(exit_at_once)  # registered first, so it runs after every other
    matplotlib_config_quietly()
    return ours  # False: the embedding program has its own handler
