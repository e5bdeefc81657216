from atelier.cli import main

raise SystemExit(main())
