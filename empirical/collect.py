"""``python -m empirical.collect``: the command of :mod:`empirical.capture.collect`."""

from empirical.capture.collect import main

if __name__ == "__main__":
    raise SystemExit(main())
