"""`python -m ragdiag_tui` is the `ragdiag-tui` command."""

from .cli import main

raise SystemExit(main())
