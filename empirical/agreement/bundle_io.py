"""Reading the seeded bundle (``bundle.json`` of :mod:`empirical.training.profile_bundle`).

``python -m empirical.bundle --profile ci|paper`` writes it; :func:`load_profile_bundle`
reads it from ``$LENGTHX_AGREEMENT``, else ``runs/paper``, else ``runs/ci``.  The helpers
below index its measurements (seeds, the training length, the temperature grid); no
theory number is stored in it or computed here.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np

#: where the seeded bundle is looked for (paper profile first); ``$LENGTHX_AGREEMENT``
#: overrides
PROFILE_CANDIDATES = ("runs/paper", "runs/ci")
#: how to make one when there is none
NO_BUNDLE = "no seeded bundle (python -m empirical.bundle --profile ci --out runs/ci)"
#: the layout of ``bundle.json`` and of each run's ``measure.json`` that this code reads
#: (the writer, :mod:`empirical.training.profile_bundle`, records it); a bundle of another
#: format is refused, never read field by field until something is missing
FORMAT = 4


class BundleError(ValueError):
    """A ``bundle.json`` this code cannot read: its message names the file and what is wrong."""


def find_profile_bundle() -> Path | None:
    """Folder of the seeded bundle: ``$LENGTHX_AGREEMENT``, else runs/paper, else runs/ci."""
    env = os.environ.get("LENGTHX_AGREEMENT")
    for c in [env] if env else list(PROFILE_CANDIDATES):
        if c and (Path(c) / "bundle.json").exists():
            return Path(c)
    return None


def load_profile_bundle(folder: str | Path | None = None) -> dict:
    """``bundle.json`` of the seeded bundle, checked by :func:`check_bundle` before anything
    reads it (``FileNotFoundError`` when there is none, :class:`BundleError` when it is
    not a complete bundle of this :data:`FORMAT`)."""
    if folder is not None and not str(folder).strip():
        raise BundleError("--bundle is empty: name the folder of a seeded bundle")
    folder = Path(folder) if folder is not None else find_profile_bundle()
    if folder is None:
        raise FileNotFoundError(NO_BUNDLE)
    path = folder / "bundle.json"
    if not path.is_file():
        raise FileNotFoundError(f"{folder}: no bundle.json ({NO_BUNDLE})")
    b = read_bundle(path)
    check_bundle(b, path)
    b["folder"] = str(folder)
    return b


def read_bundle(path: Path) -> object:
    """The JSON document in ``path``; a cut-off or non-JSON file is a :class:`BundleError`
    naming the file."""
    try:
        return json.loads(path.read_bytes().decode("utf-8"))
    except UnicodeDecodeError:
        raise BundleError(f"{path}: not UTF-8 text, so not a bundle.json") from None
    except json.JSONDecodeError as exc:
        raise BundleError(
            f"{path}: not a complete JSON document ({exc.msg} at line {exc.lineno} column "
            f"{exc.colno}); was it cut off while being written? Train it again "
            "(python -m empirical.bundle --profile ci --out FOLDER)"
        ) from None


def _positive_number(v: object) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v > 0


def check_bundle(b: object, path: str | Path = "bundle.json") -> None:
    """Refuse, naming the file and the entry, a bundle whose layout this code does not read:
    not an object, another :data:`FORMAT`, no settings or results, a run without its
    perplexities, or a perplexity that is not a finite positive number.

    >>> check_bundle([], "b.json")
    Traceback (most recent call last):
    ...
    empirical.agreement.bundle_io.BundleError: b.json: a JSON array, not a seeded bundle (a JSON object with format, settings and results)
    """
    if not isinstance(b, dict):
        kind = {list: "a JSON array", str: "a JSON string"}.get(
            type(b), f"a JSON {type(b).__name__}"
        )
        raise BundleError(
            f"{path}: {kind}, not a seeded bundle (a JSON object with format, settings and results)"
        )
    if b.get("format") != FORMAT:
        raise BundleError(
            f"{path}: bundle format {b.get('format')!r}, this code reads format {FORMAT}; "
            "train it again (python -m empirical.bundle --profile ci --out FOLDER)"
        )
    settings, results = b.get("settings"), b.get("results")
    if not isinstance(settings, dict) or not isinstance(settings.get("seq_len"), int):
        raise BundleError(f"{path}: no settings.seq_len (the training length)")
    if not isinstance(results, dict) or not results:
        raise BundleError(f"{path}: no results")
    for model, runs in results.items():
        if not isinstance(runs, dict) or not runs:
            raise BundleError(f"{path}: results.{model} holds no seeds")
        for seed, run in runs.items():
            where = f"results.{model}.{seed}"
            if not isinstance(run, dict) or not isinstance(run.get("ppl"), dict) or not run["ppl"]:
                raise BundleError(f"{path}: {where} has no perplexities (ppl)")
            bad = [L for L, v in run["ppl"].items() if not _positive_number(v)]
            if bad:
                raise BundleError(
                    f"{path}: {where}.ppl at length {bad[0]} is {run['ppl'][bad[0]]!r}, "
                    "not a finite positive number"
                )


def bundle_format(folder: str | Path) -> int | None:
    """The measurement format recorded in ``folder/bundle.json`` (None if older, or if the
    file is not a readable bundle)."""
    try:
        b = read_bundle(Path(folder) / "bundle.json")
    except (BundleError, OSError):
        return None
    return b.get("format") if isinstance(b, dict) else None


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
