"""The quit dialog after a failed save: its question and both buttons are in plain view."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button

from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.confirm import ConfirmDialog

from .helpers import loaded


def no_space(*args: Any, **kwargs: Any) -> Any:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_error_toasts_never_cover_the_quit_dialogs_buttons(
    runs_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    app = create_app(runs_path, reviewer="tester")
    async with app.run_test(size=size) as pilot:
        await loaded(pilot)
        monkeypatch.setattr(os, "fsync", no_space)
        await pilot.press("y", "down", "n", "down", "y")  # three failed saves, three error toasts
        await pilot.press("q")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmDialog)
        for button in dialog.query(Button):
            widget, _ = app.screen.get_widget_at(*button.region.center)
            assert widget is button, f"{button.label} is covered by {widget!r}"
