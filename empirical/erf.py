"""``python -m empirical.erf``: the command of :mod:`empirical.training.erf`."""

from empirical.training.erf import main

if __name__ == "__main__":
    raise SystemExit(main())
