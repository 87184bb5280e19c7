"""``python -m empirical.bundle``: the command of :mod:`empirical.training.bundle`."""

from empirical.training.bundle import main

if __name__ == "__main__":
    raise SystemExit(main())
