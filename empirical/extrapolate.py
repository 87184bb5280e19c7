"""``python -m empirical.extrapolate``: the command of :mod:`empirical.training.extrapolate`."""

from empirical.training.extrapolate import main

if __name__ == "__main__":
    raise SystemExit(main())
