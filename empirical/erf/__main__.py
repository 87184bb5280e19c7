from empirical.erf.cli import main

raise SystemExit(main())
