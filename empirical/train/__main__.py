from empirical.train.cli import main

raise SystemExit(main())
