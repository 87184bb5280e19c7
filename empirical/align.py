"""``python -m empirical.align``: the command of :mod:`empirical.audit.align`."""

from empirical.audit.align import main

if __name__ == "__main__":
    raise SystemExit(main())
