"""The one set of helpers of the app tests (tests/ui and tests/hostile): where the data is,
how to wait for a load, and how to read what the app shows, through public API only."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.segment import Segment
from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.strip import Strip

from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.ui.app import RagdiagApp
from ragdiag_tui.ui.screens.review.screen import ReviewScreen
from ragdiag_tui.ui.widgets.detail.run_detail import RunDetail
from ragdiag_tui.ui.widgets.table.run_table import RunTable

DATA = Path(__file__).resolve().parents[1] / "data"
REVIEW_RUNS = DATA / "review_runs.jsonl"
DEMO = Path(__file__).resolve().parents[2] / "sample_runs" / "demo.jsonl"
SIZE = (120, 40)

# Rows of review_runs.jsonl, in file order.
PASS, GEN, LUCKY, RETR, UNRES, BROKEN, NOLABEL, MARKUP_SLASH, MARKUP_CLICK, MARKUP_AB, BAD_CTX = range(11)

POLL = 0.01  # seconds between looks while waiting for a state


async def _load_ended(pilot: Pilot, seconds: float) -> ReviewScreen:
    app = pilot.app
    assert isinstance(app, RagdiagApp)
    for _ in range(int(seconds / POLL)):
        if not app.is_running:
            raise AssertionError("the app stopped while loading")
        screen = app.review_screen
        done = screen.review is not None or not screen.query_one("#load-status").display
        if done and screen.table.region.height:  # and laid out again since
            await pilot.pause()
            return screen
        await pilot.pause(POLL)
    raise AssertionError("the app never finished loading the file")


async def loaded(pilot: Pilot, seconds: float = 20.0) -> ReviewScreen:
    """Wait until every run is in and the journal is replayed; return the review screen."""
    screen = await _load_ended(pilot, seconds)
    assert screen.review is not None, "the load failed"
    return screen


async def settled(pilot: Pilot, seconds: float = 20.0) -> ReviewScreen:
    """Wait until the runs are in and the journal replayed, or the load has failed."""
    return await _load_ended(pilot, seconds)


async def wait_until(pilot: Pilot, condition: Callable[[], object], what: str, seconds: float = 10.0) -> None:
    """Let the app run until `condition()` holds; fail naming `what` after `seconds`."""
    for _ in range(int(seconds / POLL)):
        if condition():
            return
        await pilot.pause(POLL)
    raise AssertionError(f"timed out waiting for {what}")


def table(pilot: Pilot) -> RunTable:
    return pilot.app.screen.query_one(RunTable)


def table_lines(pilot: Pilot) -> list[str]:
    """The text of every line the run table draws now (header first)."""
    widget = table(pilot)
    return [widget.render_line(y).text for y in range(widget.scrollable_content_region.height)]


def detail_text(app: App[Any]) -> str:
    """The whole text of the review screen's detail pane (not only what fits on screen)."""
    assert isinstance(app, RagdiagApp)
    detail = app.review_screen.query_one(RunDetail)
    return "\n".join(str(static.visual) for static in detail.query("Static") if static.display)


def screen_lines(app: App[Any]) -> list[str]:
    """Every line of the active screen as drawn now, as plain text.

    The segments `App.export_screenshot` draws its SVG from (the same full update of the
    screen's compositor, over the same screen stack), cut into lines as its SVG is; without
    the SVG, which costs three times the drawing (tests/ui/test_helpers.py compares the two).
    """
    width, height = app.size
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console = Console(width=width, height=height, file=io.StringIO(), legacy_windows=False, safe_box=False)
    segments = Segment.filter_control(console.render(update))
    lines = ["".join(text for text, _style, _control in line) for line in Segment.split_and_crop_lines(
        segments, length=width
    )]  # fmt: skip
    lines += [""] * (height - len(lines))
    return [line.replace("\xa0", " ").rstrip() for line in lines[:height]]


def screen_text(app: App[Any]) -> str:
    """Every character of the active screen now, as plain text lines."""
    return "\n".join(screen_lines(app))


def screen_strips(app: App[Any]) -> list[Strip]:
    """Every row of the active screen as drawn now: its segments with their styles (colours,
    and the offsets a mouse selection reads)."""
    return app.screen._compositor.render_strips()


async def shown_soon(pilot: Pilot, text: str, seconds: float = 3.0) -> str:
    """The screen text once it shows `text` (a refresh may lag a message); fails after a while."""
    for _ in range(int(seconds / POLL)):
        drawn = screen_text(pilot.app)
        if text in drawn:
            return drawn
        await pilot.pause(POLL)
    raise AssertionError(f"{text!r} never appeared on:\n{screen_text(pilot.app)}")


def actions_on_screen(app: App[Any]) -> list[Any]:
    """Every click action (`@click` markup) in what any widget on the screen draws now."""
    found = []
    for widget in app.screen.walk_children(with_self=True):
        if not widget.display or not widget.region:
            continue
        for y in range(widget.size.height):
            for segment in widget.render_line(y):
                meta = segment.style.meta if segment.style is not None else {}
                found.extend(value for key, value in meta.items() if key.startswith("@click"))
    return found


def toast_texts(app: App[Any]) -> list[str]:
    """The text of every notification toast on screen, as drawn (toasts wrap, so not the screen)."""
    return [
        widget.render().plain  # type: ignore[attr-defined]
        for widget in app.screen.walk_children()
        if type(widget).__name__ == "Toast"
    ]


def record_notifications(app: App[Any]) -> list[tuple[str, str]]:
    """(message, severity) of every notification the app is asked to show, from now on."""
    seen: list[tuple[str, str]] = []
    notify = app.notify

    def recording(message: str, **options: Any) -> None:
        seen.append((message, options.get("severity", "information")))
        notify(message, **options)

    app.notify = recording  # type: ignore[method-assign]
    return seen


KEY_CHARACTERS = {"space": " ", "enter": "\r", "backspace": "\x7f", "escape": "\x1b"}


def burst(app: App[Any], *keys: str) -> None:
    """Send `keys` as a fast typist's burst (or a paste) reaches the app: all read before any
    is handled (`Pilot.press` waits for each key to be handled before it sends the next)."""
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else KEY_CHARACTERS.get(key))
        event.set_sender(app)  # as the terminal driver sends them
        app.post_message(event)


def journal_entries(run_path: Path) -> list[dict[str, Any]]:
    """Every entry of the run file's journal (the file beside it), in the order written."""
    file = Path(journal_path(run_path))
    if not file.exists():
        return []
    return [json.loads(line) for line in file.read_text(encoding="utf-8").splitlines() if line.strip()]
