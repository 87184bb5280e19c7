"""Torch set-up shared by the ``empirical`` command lines (the generic command-line
machinery lives in :mod:`theory.core.cli`)."""

from __future__ import annotations

import argparse
import os

from theory.core.arguments import int_range

#: ``--threads``: torch CPU threads, 1 to 1024
threads_int = int_range(1, 1024)


def setup_torch(threads: int = 1) -> None:
    """Few threads (shared machine) and quiet transformers."""
    if threads < 1:
        raise ValueError(f"--threads must be >= 1, got {threads}")
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))
    import torch
    import transformers

    torch.set_num_threads(threads)
    transformers.logging.set_verbosity_error()


def add_device_map_argument(parser: argparse.ArgumentParser) -> None:
    """``--device-map`` (passed to ``empirical.capture.models.load_model``)."""
    parser.add_argument(
        "--device-map",
        default=None,
        metavar="MAP",
        help="split the model across devices (needs accelerate): auto, "
        "balanced, sequential, one device (cpu, cuda:0) or a JSON object "
        '{"module": device}; default: no map (CPU)',
    )
