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
        f"{cpu}, {os.cpu_count()} CPUs ({usable} usable), {vector_isa()}, "
        f"Python {platform.python_version()}, {platform.system()}"
    )


#: the vector extensions that decide CPU kernel speed, widest first (/proc/cpuinfo flags)
ISA_FLAGS = ("amx_tile", "avx512_bf16", "avx512f", "avx2", "neon", "asimd")


def vector_isa() -> str:
    """The CPU's widest vector extensions and the kernels torch dispatches to, e.g.
    ``"ISA avx512f avx2 (torch AVX512)"``: speed ratios differ between them (Intel
    AVX-512 against AMD AVX2), so every timing names them.

    >>> vector_isa().startswith("ISA ")
    True
    """
    flags: set = set()
    try:
        with open("/proc/cpuinfo") as fh:
            for ln in fh:
                if ln.startswith(("flags", "Features")):
                    flags = set(ln.split(":", 1)[1].split())
                    break
    except OSError:
        pass
    have = [f for f in ISA_FLAGS if f in flags] or ["unknown"]
    try:
        import torch

        kernels = f" (torch {torch.backends.cpu.get_cpu_capability()})"
    except (ImportError, AttributeError):
        kernels = ""
    return "ISA " + " ".join(have) + kernels


def load_average() -> float | None:
    """The machine's 1-minute load average (None where the system does not say): a busy
    machine stretches timings, so every record keeps it."""
    try:
        return round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):
        return None
