from empirical.capture.sweep.cli import main

raise SystemExit(main())
