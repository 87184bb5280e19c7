from figures.cli import main

raise SystemExit(main())
