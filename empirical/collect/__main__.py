from empirical.collect.cli import main

raise SystemExit(main())
