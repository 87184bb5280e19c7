from theory.trf.cli import main

raise SystemExit(main())
