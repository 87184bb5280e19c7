"""Cached bundle results for figures and paper checks.

``bundle_results(quick, workdir)`` returns the bundle summary, perplexity rows and ERF
results from ``$LENGTHX_BUNDLE`` or ``runs/bundle`` when a finished bundle is there
(any budget); otherwise it trains one with the quick budget (60 steps per RPE) under
``workdir/bundle_quick`` -- a few minutes on 2 cores.
"""
from __future__ import annotations

import csv
import json
import os
from pathlib import Path

CANDIDATES = ("runs/bundle", "runs/bundle_quick")


def _load(folder: Path) -> dict:
    summary = json.loads((folder / "summary.json").read_text())
    with open(folder / "ppl_rows.csv") as fh:
        rows = [{k: (float(v) if k in ("nll", "ppl") else int(v) if k in
                     ("length", "train_len", "predictions") else v) for k, v in r.items()}
                for r in csv.DictReader(fh)]
    erf = json.loads((folder / "erf.json").read_text())
    return {"folder": str(folder), "summary": summary, "rows": rows, "erf": erf,
            "budget_steps": summary["settings"]["budget_steps"]}


def find_bundle() -> Path | None:
    env = os.environ.get("LENGTHX_BUNDLE")
    for c in ([env] if env else []) + list(CANDIDATES):
        if c and (Path(c) / "summary.json").exists():
            return Path(c)
    return None


def bundle_results(quick: bool = True, workdir=None) -> dict:
    """Cached results if present, else a quick bundle trained now under ``workdir``."""
    found = find_bundle()
    if found is not None:
        return _load(found)
    from .bundle import main as bundle_main
    out = Path(workdir or "runs") / "bundle_quick"
    argv = ["--quick", "--out", str(out), "--quiet", "--eval-tokens", "4096"]
    if bundle_main(argv) != 0:
        raise RuntimeError("quick bundle failed")
    return _load(out)
