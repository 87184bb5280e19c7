from theory.infoscale.cli import main

raise SystemExit(main())
