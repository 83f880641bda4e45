"""`python -m ragdiag_tui.cli` is the `ragdiag-tui` command too."""

from .dispatch import main

if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
