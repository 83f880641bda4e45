"""The README and the browser guide tell a labeller to open the URL `serve` prints, with
its token: a bare address answers 403 (the server's token guard)."""

from __future__ import annotations

import re
from pathlib import Path

from ragdiag_tui.serve import TOKEN_PARAM

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_says_to_open_the_printed_url_with_its_token() -> None:
    readme = (ROOT / "README.md").read_text().splitlines()
    serve_rows = [line for line in readme if "ragdiag-tui serve" in line]
    assert serve_rows
    assert all("token" in row for row in serve_rows)
    assert "http://127.0.0.1:8000/ " not in "".join(serve_rows)


def test_the_browser_guide_shows_the_address_as_the_server_prints_it() -> None:
    guide = (ROOT / "docs" / "guide" / "browser.md").read_text()
    printed = re.findall(r"serving \S+ on (\S+) \(Ctrl\+C to stop\)", guide)
    assert printed, "the guide shows the line the server prints"
    assert all(f"/?{TOKEN_PARAM}=" in url for url in printed)
