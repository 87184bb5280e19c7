"""Run held-out set 17 through ``python -m theory.trf --json`` and classify every answer
(:mod:`heldout_runner` judges, the truncated TRF of ``--truncate M`` and the comparison of
``--compare`` included; the cases and their references are in ``heldout17_cases``):

    python -m tests.theory.series.heldout17_run [--only ID ...] [--jobs 1] [--sigint 4]
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from heldout17_cases import CASES, EXTRA_CASES, SIGINT_SERIES  # noqa: E402
from heldout_runner import main, run_case  # noqa: E402

__all__ = ["CASES", "run_case"]


if __name__ == "__main__":
    raise SystemExit(main(CASES, EXTRA_CASES, SIGINT_SERIES, seed=17))
