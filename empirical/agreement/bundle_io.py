"""Reading the seeded bundle (``bundle.json`` of :mod:`empirical.training.profile_bundle`).

``python -m empirical.bundle --profile ci|paper`` writes it; :func:`load_profile_bundle`
reads it from ``$LENGTHX_AGREEMENT``, else ``runs/paper``, else ``runs/ci``.  The helpers
below index its measurements (seeds, the training length, the temperature grid); no
theory number is stored in it or computed here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np

#: where the seeded bundle is looked for (paper profile first); ``$LENGTHX_AGREEMENT``
#: overrides
PROFILE_CANDIDATES = ("runs/paper", "runs/ci")
#: how to make one when there is none
NO_BUNDLE = "no seeded bundle (python -m empirical.bundle --profile ci --out runs/ci)"


def find_profile_bundle() -> Path | None:
    """Folder of the seeded bundle: ``$LENGTHX_AGREEMENT``, else runs/paper, else runs/ci."""
    env = os.environ.get("LENGTHX_AGREEMENT")
    for c in [env] if env else list(PROFILE_CANDIDATES):
        if c and (Path(c) / "bundle.json").exists():
            return Path(c)
    return None


def load_profile_bundle(folder: str | Path | None = None) -> dict:
    """``bundle.json`` of the seeded bundle (``FileNotFoundError`` when there is none)."""
    folder = Path(folder) if folder else find_profile_bundle()
    if folder is None:
        raise FileNotFoundError(NO_BUNDLE)
    b = json.loads((folder / "bundle.json").read_text())
    b["folder"] = str(folder)
    return b


def bundle_format(folder: str | Path) -> int | None:
    """The measurement format recorded in ``folder/bundle.json`` (None if older)."""
    return json.loads((Path(folder) / "bundle.json").read_text()).get("format")


def seeds(b: dict, model: str) -> list[str]:
    """The seeds ``model`` was trained with, in numeric order."""
    return sorted(b["results"][model], key=int)


def train_len(b: dict) -> int:
    """The training length m of the bundle's models."""
    return int(b["settings"]["seq_len"])


def tau_grid(b: dict, seed: str, model: str = "t5") -> np.ndarray:
    """The temperature grid the window statistics and perplexities were stored on."""
    return np.asarray(b["results"][model][seed]["tau_grid"], dtype=float)


def heads(b: dict, seed: str, L: int, model: str = "t5") -> list[dict]:
    """Window statistics per layer and head at length L (sigma, keys, entropy, P_max)."""
    return b["results"][model][seed]["heads"][str(L)]


def window(b: dict, model: str, seed: str, L: int) -> dict:
    """Window entropy and P_max per temperature at length L (NoPE / CosScale models)."""
    return b["results"][model][seed]["window"][str(L)]
