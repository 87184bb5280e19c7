"""``python -m theory.cosscale``: CosScale's peak eta* (implemented in
:mod:`theory.infoscale.cosscale_cli`)."""

from theory.infoscale.cosscale_cli import main

if __name__ == "__main__":
    raise SystemExit(main())
