from empirical.extrapolate.cli import main

raise SystemExit(main())
