"""Write a generated page of the site, or check that the committed one is current.

Shared by scripts/cli_reference.py and scripts/keys_reference.py, which run from the project's
folder as `python scripts/NAME.py [--check]`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def write_or_check(page: Path, render: Callable[[], str], argv: Sequence[str]) -> int:
    """Write `render()` to `page`; with `--check` in argv, exit status 1 if the page differs instead."""
    text = render()
    name = page.relative_to(ROOT)
    if "--check" in argv:
        current = page.read_text(encoding="utf-8") if page.exists() else ""
        if current != text:
            print(f"{name} is out of date: run python {sys.argv[0]}")
            return 1
        return 0
    page.parent.mkdir(parents=True, exist_ok=True)
    page.write_text(text, encoding="utf-8")
    print(f"wrote {name}")
    return 0
