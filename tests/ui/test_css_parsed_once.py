"""The suite's apps share one parse of each stylesheet per worker (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.css import stylesheet

from ragdiag_tui.ui.app import create_app

from .helpers import SIZE, loaded


async def test_a_second_app_parses_no_stylesheet_again(
    runs_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parse = stylesheet.parse
    parsed: list[Any] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        parsed.append(args[1])
        return parse(*args, **kwargs)

    monkeypatch.setattr(stylesheet, "parse", counted)
    for _ in range(2):
        parsed.clear()
        async with create_app(runs_path, reviewer="tester").run_test(size=SIZE) as pilot:
            screen = await loaded(pilot)
            await pilot.press("question_mark")  # the keys screen: more widgets, more stylesheets
            await pilot.pause()
            assert screen.app.screen is not screen
    assert parsed == []  # the second app found every stylesheet parsed already
