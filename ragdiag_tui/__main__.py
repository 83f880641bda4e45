"""`python -m ragdiag_tui` is the `ragdiag-tui` command."""

from .cli import main

# Guarded: a helper process started with "spawn" imports this module again.
if __name__ == "__main__":
    raise SystemExit(main())
