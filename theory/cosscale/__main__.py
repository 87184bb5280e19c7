from theory.cosscale.cli import main

raise SystemExit(main())
