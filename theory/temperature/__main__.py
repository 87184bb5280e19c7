from theory.temperature.cli import main

raise SystemExit(main())
