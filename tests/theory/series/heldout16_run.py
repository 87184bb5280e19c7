"""Run held-out set 16 through ``python -m theory.trf --json`` and classify every answer
(:mod:`heldout_runner` judges, the truncated TRF of ``--truncate M`` included; the cases and
their references are in ``heldout16_cases``):

    python -m tests.theory.series.heldout16_run [--only ID ...] [--jobs 1] [--sigint 4]
"""

from __future__ import annotations

import sys
from pathlib import Path

import mpmath as mp

sys.path.insert(0, str(Path(__file__).parent))
from heldout16_cases import CASES, EXTRA_CASES, SIGINT_SERIES  # noqa: E402
from heldout_runner import main, run_case  # noqa: E402

__all__ = ["CASES", "run_case"]


def _precompute(cases):
    """The references of the extra parts before the runs (no CPU taken from a run)."""
    for case in cases:
        try:
            with mp.workdps(50):
                if getattr(case, "truncated", None) is not None:
                    case.truncated()
                if getattr(case, "compare", None) is not None:
                    case.compare[1]()
        except Exception:  # noqa: BLE001 - judged (REFERR) with the case
            pass


if __name__ == "__main__":
    _precompute(CASES)
    raise SystemExit(main(CASES, EXTRA_CASES, SIGINT_SERIES, seed=16))
