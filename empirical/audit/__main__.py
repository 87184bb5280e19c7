from empirical.audit.cli import main

raise SystemExit(main())
