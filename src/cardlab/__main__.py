"""`python -m cardlab` runs the command line."""

from cardlab.cli import main

raise SystemExit(main())
