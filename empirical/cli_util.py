"""Small helpers shared by the ``empirical`` command lines."""
from __future__ import annotations

import os
import sys


def fail(msg) -> int:
    """One line on stderr starting ``error:``; exit code 2."""
    text = str(msg).strip().splitlines()[0] if str(msg).strip() else type(msg).__name__
    print(f"error: {text}", file=sys.stderr)
    return 2


def setup_torch(threads: int = 1) -> None:
    """Few threads (shared machine) and quiet transformers."""
    os.environ.setdefault("OMP_NUM_THREADS", str(threads))
    import torch
    import transformers
    torch.set_num_threads(max(1, threads))
    transformers.logging.set_verbosity_error()


def add_device_map_argument(parser) -> None:
    """``--device-map`` (passed to ``empirical.models.load_model``)."""
    parser.add_argument("--device-map", default=None, metavar="MAP",
                        help="split the model across devices (needs accelerate): auto, "
                        "balanced, sequential, one device (cpu, cuda:0) or a JSON object "
                        "{\"module\": device}; default: no map (CPU)")
