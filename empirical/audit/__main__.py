"""``python -m empirical.audit``."""

from empirical.audit.command import main

raise SystemExit(main())
