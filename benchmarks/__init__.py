"""Speed and accuracy benchmarks, each a command: ``python -m benchmarks.<name> --help``.

Every benchmark prints ratios against what a user would otherwise use, measured in the
same run, and names the machine it ran on (:func:`machine`): its timings hold for that
machine only.
"""

from __future__ import annotations

import os
import platform


def machine() -> str:
    """The machine a timing was taken on, in one line (processor, cores, Python).

    >>> "CPU" in machine()
    True
    """
    cpu = platform.processor() or platform.machine() or "unknown processor"
    try:
        with open("/proc/cpuinfo") as fh:
            cpu = next(
                (ln.split(":", 1)[1].strip() for ln in fh if ln.startswith("model name")), cpu
            )
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (
        f"{cpu}, {os.cpu_count()} CPUs ({usable} usable), "
        f"Python {platform.python_version()}, {platform.system()}"
    )


def load_average() -> float | None:
    """The machine's 1-minute load average (None where the system does not say): a busy
    machine stretches timings, so every record keeps it."""
    try:
        return round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):
        return None
