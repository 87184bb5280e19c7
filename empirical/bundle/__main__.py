from empirical.bundle.cli import main

raise SystemExit(main())
