"""Devices and dtypes for the empirical command lines, and the ranks of a ``torchrun``.

``--device`` names where a model runs (``cpu``, ``cuda``, ``cuda:1``, ``mps``; default
``cpu``); asking for a device this machine does not have is a :class:`DeviceError`,
never a silent fall-back to the CPU.  ``--dtype`` is the weights' dtype
(``float32``, ``bfloat16``, ``float16``); attention statistics are always accumulated
in float32/float64 whatever the weights' dtype.

Under ``torchrun`` (``WORLD_SIZE > 1``) :func:`init_distributed` gives each process the
device ``cuda:LOCAL_RANK`` (``torch.cuda.set_device``) when the chosen device is CUDA,
and opens the process group (NCCL on CUDA, gloo on the CPU); collective tensors then go
to :func:`collective_device`, the rank's own device.

>>> resolve_device("cpu"), resolve_dtype("bfloat16")
(device(type='cpu'), torch.bfloat16)
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import torch

DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}


class DeviceError(ValueError):
    """A device or dtype this machine cannot provide (one-line message)."""


def resolve_dtype(name: str | None) -> torch.dtype:
    """``--dtype`` text -> torch dtype (None: float32)."""
    if name is None:
        return torch.float32
    if name not in DTYPES:
        raise DeviceError(f"unknown dtype {name!r}; one of {', '.join(DTYPES)}")
    return DTYPES[name]


def resolve_device(name: str | None, local_rank: int | None = None) -> torch.device:
    """``--device`` text -> an available torch device (None: the CPU).  A bare ``cuda``
    under torchrun means ``cuda:LOCAL_RANK``."""
    text = (name or "cpu").strip()
    try:
        dev = torch.device(text)
    except RuntimeError:
        raise DeviceError(f"unknown device {text!r} (use cpu, cuda, cuda:N or mps)") from None
    if dev.type == "cuda":
        if not torch.cuda.is_available():
            raise DeviceError(f"--device {text}: CUDA is not available on this machine")
        index = dev.index if dev.index is not None else (local_rank or 0)
        if index >= torch.cuda.device_count():
            raise DeviceError(
                f"--device {text}: cuda:{index} does not exist "
                f"({torch.cuda.device_count()} CUDA device(s))"
            )
        return torch.device("cuda", index)
    if dev.type == "mps" and not torch.backends.mps.is_available():
        raise DeviceError(f"--device {text}: MPS is not available on this machine")
    if dev.type not in ("cpu", "cuda", "mps"):
        raise DeviceError(f"unsupported device {text!r} (use cpu, cuda, cuda:N or mps)")
    return dev


@dataclass(frozen=True)
class Ranks:
    """This process's place in a (possibly single-process) run."""

    rank: int = 0
    world: int = 1
    local_rank: int = 0
    device: torch.device = torch.device("cpu")

    @property
    def distributed(self) -> bool:
        return self.world > 1


def ranks_from_env() -> tuple[int, int, int]:
    """(RANK, WORLD_SIZE, LOCAL_RANK) as torchrun sets them (defaults 0, 1, 0)."""
    return (
        int(os.environ.get("RANK", "0")),
        int(os.environ.get("WORLD_SIZE", "1")),
        int(os.environ.get("LOCAL_RANK", "0")),
    )


def init_distributed(device: str | None) -> Ranks:
    """Resolve ``device`` for this rank and, under torchrun, set the CUDA device from
    LOCAL_RANK and open the process group (NCCL on CUDA, gloo otherwise)."""
    rank, world, local = ranks_from_env()
    dev = resolve_device(device, local if world > 1 else None)
    if dev.type == "cuda":
        torch.cuda.set_device(dev)
    if world > 1:
        import torch.distributed as dist

        if not dist.is_initialized():
            dist.init_process_group("nccl" if dev.type == "cuda" else "gloo")
    return Ranks(rank, world, local, dev)


def collective_device() -> torch.device:
    """Where a tensor for a collective goes: this rank's CUDA device for NCCL, else the
    CPU (gloo)."""
    import torch.distributed as dist

    if dist.is_initialized() and dist.get_backend() == "nccl":
        return torch.device("cuda", torch.cuda.current_device())
    return torch.device("cpu")
