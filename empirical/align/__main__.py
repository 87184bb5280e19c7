from empirical.align.cli import main

raise SystemExit(main())
