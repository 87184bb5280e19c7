"""``python -m empirical.results``: the command of :mod:`empirical.training.results`."""

from empirical.training.results import main

if __name__ == "__main__":
    raise SystemExit(main())
