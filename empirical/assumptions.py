"""``python -m empirical.assumptions``: the command of :mod:`empirical.audit.assumptions`."""

from empirical.audit.assumptions import main

if __name__ == "__main__":
    raise SystemExit(main())
