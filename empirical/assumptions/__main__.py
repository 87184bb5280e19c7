from empirical.assumptions.cli import main

raise SystemExit(main())
