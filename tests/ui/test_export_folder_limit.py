"""An app started with an export folder (as `serve` starts each page's app) writes nowhere else."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Static

from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.export import ExportDialog

from .helpers import SIZE, loaded
from .test_export_stats_help import wait_closed, wait_for_screen


async def test_an_export_outside_the_allowed_folder_is_refused_and_writes_nothing(runs_path: Path) -> None:
    outside = runs_path.parent / "outside"
    outside.mkdir()
    allowed = runs_path.parent / "served"
    allowed.mkdir()
    (allowed / "link").symlink_to(outside)
    app = create_app(runs_path, reviewer="tester", export_dir=allowed)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("e")
        dialog = await wait_for_screen(pilot, ExportDialog)
        path_input = dialog.query_one("#export-path", Input)
        for target in (outside / "x.jsonl", allowed / "link" / "x.jsonl", allowed / ".." / "x.jsonl"):
            path_input.value = str(target)
            await pilot.press("enter")  # in the path box
            await pilot.pause()
            assert "Exports go only into" in str(dialog.query_one("#export-error", Static).visual)
            assert isinstance(app.screen, ExportDialog)  # still open: nothing was written
        path_input.value = str(allowed / "ok.jsonl")
        await pilot.press("enter")  # in the path box
        await wait_closed(pilot, ExportDialog)
    assert (allowed / "ok.jsonl").exists()
    assert list(outside.iterdir()) == []
    assert not (runs_path.parent / "x.jsonl").exists()
