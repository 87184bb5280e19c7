from empirical.results.cli import main

raise SystemExit(main())
