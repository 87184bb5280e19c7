"""``python -m empirical.train``: the command of :mod:`empirical.training.train`."""

from empirical.training.train import main

if __name__ == "__main__":
    raise SystemExit(main())
