"""Driving the review app in the hostile tests: waiting for the load, reading the screen."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from ragdiag_tui.ui.app import RagdiagApp
from ragdiag_tui.ui.screens.review import ReviewScreen
from ragdiag_tui.ui.widgets.run_detail import RunDetail

SIZE = (100, 30)


async def settled(pilot: Pilot, seconds: float = 20.0) -> ReviewScreen:
    """Wait until the runs are in and the journal replayed, or the load has failed."""
    app = pilot.app
    assert isinstance(app, RagdiagApp)
    for _ in range(int(seconds / 0.01)):
        if not app.is_running:
            raise AssertionError("the app stopped while loading")
        screen = app.review_screen
        done = screen.review is not None or not screen.query_one("#load-status").display
        if done and screen.table.region.height:  # and laid out again since
            await pilot.pause()
            return screen
        await pilot.pause(0.01)
    raise AssertionError("the app never finished loading the file")


def screen_lines(app: RagdiagApp) -> list[str]:
    """Every line of the active screen, drawn now, as plain text."""
    # Textual has no public way to read the drawn screen as text.
    return [strip.text for strip in app.screen._compositor.render_strips()]


def screen_text(app: RagdiagApp) -> str:
    return "\n".join(screen_lines(app))


async def shown_soon(pilot: Pilot, text: str, seconds: float = 3.0) -> str:
    """The screen text once it shows `text` (a refresh may lag a message); fails after a while."""
    app = pilot.app
    assert isinstance(app, RagdiagApp)
    for _ in range(int(seconds / 0.02)):
        drawn = screen_text(app)
        if text in drawn:
            return drawn
        await pilot.pause(0.02)
    raise AssertionError(f"{text!r} never appeared on:\n{screen_text(app)}")


def actions_on_screen(app: RagdiagApp) -> list[Any]:
    """Every click action (`@click` markup) in what the screen draws now."""
    found = []
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            meta = segment.style.meta if segment.style is not None else {}
            found.extend(value for key, value in meta.items() if key.startswith("@click"))
    return found


def detail_text(screen: ReviewScreen) -> str:
    """The whole text of the detail pane (not only what fits on screen)."""
    detail = screen.query_one(RunDetail)
    return "\n".join(str(static.visual) for static in detail.query("Static") if static.display)


def toast_texts(app: RagdiagApp) -> list[str]:
    """The text of every notification toast on screen, as drawn (toasts wrap, so not the screen)."""
    return [
        widget.render().plain  # type: ignore[attr-defined]
        for widget in app.screen.walk_children()
        if type(widget).__name__ == "Toast"
    ]


def record_notifications(app: RagdiagApp) -> list[tuple[str, str]]:
    """(message, severity) of every notification the app is asked to show, from now on."""
    seen: list[tuple[str, str]] = []
    notify = app.notify

    def recording(message: str, **options: Any) -> None:
        seen.append((message, options.get("severity", "information")))
        notify(message, **options)

    app.notify = recording  # type: ignore[method-assign]
    return seen
