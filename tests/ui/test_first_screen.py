"""The screen's first drawing: the runs already in it when they come fast, the loading bar
when they do not (see `Loading.start`); and what the loader tells the screen as rows come."""

from __future__ import annotations

import gc
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest
from textual import events
from textual.message import Message

from ragdiag_tui.core.common import collector
from ragdiag_tui.core.runs.loading import FileError
from ragdiag_tui.core.runs.store import ANNOUNCE_FIRST
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.review import loading
from ragdiag_tui.ui.screens.review.run_loader import LoadFailed, RowsArrived, load_runs
from ragdiag_tui.ui.screens.review.screen import ReviewScreen
from ragdiag_tui.ui.widgets.table.run_table import RunTable

from .helpers import SIZE, detail_text, loaded, table, wait_until
from .test_typeahead_loading import STALL_LIMIT, HeldLoad, held_load  # noqa: F401 (a fixture)


def write_runs(path: Path, count: int) -> Path:
    runs = ({"id": f"r{n}", "required": ["D"], "context": ["D"], "correct": True} for n in range(count))
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    return path


@pytest.fixture
def first_drawn(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of rows the run table held each time it drew its first line."""
    drawn: list[int] = []
    real = RunTable.render_line

    def render_line(self: RunTable, y: int):  # type: ignore[no-untyped-def]
        if y == 0:
            drawn.append(len(self.rows))
        return real(self, y)

    monkeypatch.setattr(RunTable, "render_line", render_line)
    return drawn


async def test_the_first_drawing_of_a_big_file_already_shows_its_first_runs(
    tmp_path: Path, first_drawn: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # However slow the machine, the first screenful is read before the screen is drawn.
    monkeypatch.setattr(loading, "FIRST_ROWS_WAIT", STALL_LIMIT, raising=False)
    path = write_runs(tmp_path / "runs.jsonl", ANNOUNCE_FIRST + 100)
    app = create_app(path, reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        # Not an empty table drawn first, then the runs: one frame fewer before they show.
        assert first_drawn[0] >= ANNOUNCE_FIRST
        assert "r0" in table(pilot).render_line(1).text


async def test_the_collector_held_while_the_app_starts_runs_again_before_the_first_drawing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `ragdiag-tui FILE` holds the collector's passes off while the app starts (cli/review.py):
    # the screen lets it run again before it first draws, so the reviewer's session has it.
    before = gc.get_threshold()
    at_first_drawing: list[tuple[int, ...]] = []
    real = RunTable.render_line

    def render_line(self: RunTable, y: int):  # type: ignore[no-untyped-def]
        at_first_drawing.append(gc.get_threshold())
        return real(self, y)

    monkeypatch.setattr(RunTable, "render_line", render_line)
    path = write_runs(tmp_path / "runs.jsonl", ANNOUNCE_FIRST + 100)
    collector.hold()
    try:
        app = create_app(path, reviewer="tester")
        async with app.run_test(size=SIZE) as pilot:
            await loaded(pilot)
            assert at_first_drawing[0] == before
            assert gc.get_threshold() == before
    finally:
        collector.release()
        gc.set_threshold(*before)
        gc.unfreeze()


async def test_a_file_slow_to_give_its_first_runs_is_drawn_loading_meanwhile(
    tmp_path: Path,
    first_drawn: list[int],
    held_load: Callable[..., HeldLoad],  # noqa: F811
) -> None:
    path = write_runs(tmp_path / "runs.jsonl", ANNOUNCE_FIRST + 100)
    load = held_load(lambda message: isinstance(message, RowsArrived))
    app = create_app(path, reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        while not first_drawn:  # drawn without the runs: the screen does not wait for ever
            await pilot.pause()
        assert first_drawn[0] == 0
        assert "Loading…" in table(pilot).render_line(1).text
        assert pilot.app.screen.query_one("#load-status").display
        load.go()
        screen = await loaded(pilot)
        assert len(screen.rows) == ANNOUNCE_FIRST + 100


async def test_a_small_file_is_drawn_first_loaded_with_its_first_runs_detail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file read before the first drawing is drawn once, loaded: the review open (its view
    and counts), the loading bar gone and the first run in the detail, not drawn loading first
    and laid out and drawn again when the end of the load comes through the queue."""
    monkeypatch.setattr(loading, "FIRST_ROWS_WAIT", STALL_LIMIT, raising=False)  # however slow the machine
    at_first_drawing: list[tuple[bool, bool, str]] = []
    real = RunTable.render_line

    def render_line(table: RunTable, y: int):  # type: ignore[no-untyped-def]
        if not at_first_drawing:
            screen = cast(ReviewScreen, table.screen)
            bar = screen.query_one("#load-status").display
            at_first_drawing.append((screen.review is not None, bar, detail_text(table.app)))
        return real(table, y)

    monkeypatch.setattr(RunTable, "render_line", render_line)
    path = write_runs(tmp_path / "runs.jsonl", 30)
    app = create_app(path, reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
    ((review_open, bar_shown, detail),) = at_first_drawing
    assert review_open and not bar_shown
    assert "r0" in detail


def test_the_loader_tells_the_screen_of_each_count_once() -> None:
    """While another process reads the file's second part, the store asks again and again
    whether the load is still wanted (`RunStore.still_wanted`), with the same count: the
    screen is told of new rows only, not shown the same rows anew every time."""
    told: list[Message] = []

    class Options:
        def open(self, *, store: Any, progress: Any, announce: Callable[[int], bool]) -> Any:
            for rows in (ANNOUNCE_FIRST, ANNOUNCE_FIRST, ANNOUNCE_FIRST, 900, 900, 1200):
                assert announce(rows)
            raise FileError("stop here")

    def post(message: Message) -> None:
        if isinstance(message, RowsArrived) and message.painted is not None:
            message.painted.set()
        told.append(message)

    load_runs(cast(Any, None), cast(Any, Options()), post, lambda: False)
    counts = [message.count for message in told if isinstance(message, RowsArrived)]
    assert counts == [ANNOUNCE_FIRST, 900, 1200]
    assert isinstance(told[-1], LoadFailed)


@pytest.mark.parametrize(("width", "width_class"), [(80, "-narrow"), (160, "-wide")])
async def test_the_screen_has_its_widths_class_before_it_is_first_styled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, width: int, width_class: str
) -> None:
    """Added at the first resize (as Textual does), the class would restyle every widget once more."""
    classes_at_mount: list[frozenset[str]] = []
    real = ReviewScreen.on_mount

    async def on_mount(screen: ReviewScreen) -> None:
        classes_at_mount.append(frozenset(screen.classes))
        await real(screen)

    monkeypatch.setattr(ReviewScreen, "on_mount", on_mount)
    path = write_runs(tmp_path / "runs.jsonl", 10)
    app = create_app(path, reviewer="tester")
    async with app.run_test(size=(width, 30)) as pilot:
        screen = await loaded(pilot)
        assert classes_at_mount == [frozenset({width_class})]
        assert screen.has_class(width_class)


async def test_the_first_showing_does_not_restyle_the_screen_and_a_later_one_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Textual restyles every widget when a screen is shown; the first showing follows the
    mounting that styled them all, so it is skipped (styled_once.py)."""
    restyled: list[str] = []
    real = ReviewScreen.update_node_styles

    def update_node_styles(screen: ReviewScreen, animate: bool = True) -> None:
        restyled.append("screen")
        real(screen, animate)

    monkeypatch.setattr(ReviewScreen, "update_node_styles", update_node_styles)
    path = write_runs(tmp_path / "runs.jsonl", 10)
    app = create_app(path, reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        assert restyled == []
        screen.post_message(events.ScreenResume())  # shown again, as after a screen pushed over it
        await wait_until(pilot, lambda: restyled == ["screen"], "the screen restyled as it shows again")
