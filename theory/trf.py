"""``python -m theory.trf``: convergence verdict, B and TRF of a series of exp(RPE)
(implemented in :mod:`theory.series.cli`)."""

from theory.series.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
