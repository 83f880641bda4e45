"""Keys typed while the runs load act once they can, in the order typed, and none is lost.

A reviewer who launches the app and types at once (`j j y j n`) types before the review
screen has its rows; one who types while a big file loads types before the journal is
replayed. Keys that need what is not in yet wait for it (load_gate.py), with every key
typed after them, and are replayed in order: the same labels on the same runs as if the
reviewer had waited. The loader is held back here at a chosen message, so the keys are
typed at a known point of the load.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.message import Message

from ragdiag_tui.core.runs.store import ANNOUNCE_FIRST
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.review import loading
from ragdiag_tui.ui.screens.review.run_loader import RowsArrived, RunsLoaded

from .helpers import SIZE, burst, journal_entries, loaded, record_notifications, table, wait_until

STALL_LIMIT = 60.0  # seconds a held-back loader waits at most (the test lets it go long before)


class HeldLoad:
    """Holds the loader back at the first message `stops_at` picks, until `go()`."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, stops_at: Callable[[Message], bool]) -> None:
        self.released = threading.Event()
        real = loading.load_runs

        def load_runs(store: Any, options: Any, post: Callable[[Message], object], cancelled: Any) -> None:
            def post_in_turn(message: Message) -> object:
                if stops_at(message):
                    self.released.wait(STALL_LIMIT)
                return post(message)

            real(store, options, post_in_turn, cancelled)

        monkeypatch.setattr(loading, "load_runs", load_runs)

    def go(self) -> None:
        self.released.set()


@pytest.fixture
def held_load(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Callable[[Message], bool]], HeldLoad]]:
    made: list[HeldLoad] = []

    def hold(stops_at: Callable[[Message], bool]) -> HeldLoad:
        made.append(HeldLoad(monkeypatch, stops_at))
        return made[-1]

    yield hold
    for load in made:  # never leave a loader thread waiting
        load.go()


def journal(path: Path) -> list[tuple[str, Any]]:
    """(run, label) of every entry of the run file's journal, in the order written."""
    return [(entry["run"], entry["label"]) for entry in journal_entries(path)]


async def test_keys_typed_before_the_first_runs_arrive_are_replayed_in_order(
    demo_path: Path, held_load: Callable[..., HeldLoad]
) -> None:
    load = held_load(lambda message: isinstance(message, RowsArrived))
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        told = record_notifications(app)
        burst(app, "j", "j", "y", "j", "n")  # launched, and typed at once: no row is in yet
        await pilot.pause()
        load.go()
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: len(journal(demo_path)) >= 2, "the two labels in the journal")
        assert journal(demo_path) == [("run-0003", True), ("run-0004", False)]
        assert screen.table.cursor_row == 3
        assert not [message for message, _ in told if "Still loading" in message]


async def test_keys_typed_while_the_journal_loads_keep_their_order(
    demo_path: Path, held_load: Callable[..., HeldLoad]
) -> None:
    load = held_load(lambda message: isinstance(message, RunsLoaded))
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: len(table(pilot).rows) == 80, "the runs shown, still loading")
        burst(app, "j", "j", "y", "j", "n", "k")
        await pilot.pause()
        assert table(pilot).cursor_row == 2  # the moves before `y` act at once: their runs are in
        assert journal(demo_path) == []  # `y` waits for the journal, and the keys behind it
        load.go()
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: len(journal(demo_path)) >= 2, "the two labels in the journal")
        await wait_until(pilot, lambda: screen.table.cursor_row == 2, "`k` after the labels")
        assert journal(demo_path) == [("run-0003", True), ("run-0004", False)]


async def test_end_typed_during_the_load_goes_to_the_files_last_run(
    tmp_path: Path, held_load: Callable[..., HeldLoad]
) -> None:
    path = tmp_path / "runs.jsonl"
    count = ANNOUNCE_FIRST + 100  # a first screenful arrives; the rest waits
    runs = [{"id": f"r{n}", "required": ["D"], "context": ["D"], "correct": False} for n in range(count)]
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    load = held_load(lambda message: isinstance(message, RowsArrived) and message.count > ANNOUNCE_FIRST)
    app = create_app(path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: len(table(pilot).rows) == ANNOUNCE_FIRST, "the first runs")
        burst(app, "end", "y")  # the last run of the file, not of the runs in so far
        await pilot.pause()
        load.go()
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: journal(path), "the label in the journal")
        assert journal(path) == [(f"r{count - 1}", True)]
        assert screen.table.cursor_row == count - 1
