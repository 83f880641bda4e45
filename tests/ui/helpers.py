"""Helpers of the UI tests: where the data is, and how to read what is shown."""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from ragdiag_tui.ui.app import RagdiagApp
from ragdiag_tui.ui.screens.review import ReviewScreen
from ragdiag_tui.ui.widgets.run_detail import RunDetail
from ragdiag_tui.ui.widgets.run_table import RunTable

DATA = Path(__file__).resolve().parents[1] / "data"
REVIEW_RUNS = DATA / "review_runs.jsonl"
DEMO = Path(__file__).resolve().parents[2] / "sample_runs" / "demo.jsonl"
SIZE = (120, 40)

# Rows of review_runs.jsonl, in file order.
PASS, GEN, LUCKY, RETR, UNRES, BROKEN, NOLABEL, MARKUP_SLASH, MARKUP_CLICK, MARKUP_AB, BAD_CTX = range(11)


async def loaded(pilot: Pilot) -> ReviewScreen:
    """Wait until every run is in and the journal is replayed; return the review screen."""
    app = pilot.app
    assert isinstance(app, RagdiagApp)
    for _ in range(400):
        screen = app.review_screen
        if screen.review is not None:
            await pilot.pause()
            return screen
        await pilot.pause(0.01)
    raise AssertionError("the runs never finished loading")


def table(pilot: Pilot) -> RunTable:
    return pilot.app.screen.query_one(RunTable)


def table_lines(pilot: Pilot) -> list[str]:
    """The text of every line the run table draws now (header first)."""
    widget = table(pilot)
    return [widget.render_line(y).text for y in range(widget.scrollable_content_region.height)]


def detail_text(pilot: Pilot) -> str:
    """All text of the detail pane, as shown."""
    detail = pilot.app.screen.query_one(RunDetail)
    return "\n".join(str(static.visual) for static in detail.query("Static") if static.display)


def screen_text(pilot: Pilot) -> str:
    """Every character of the active screen now, as plain text lines."""
    strips = pilot.app.screen._compositor.render_strips()
    return "\n".join(strip.text for strip in strips)
