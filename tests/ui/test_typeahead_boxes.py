"""A burst through a text box: its own keys act in the order typed, and the keys typed
after the key that leaves it act on the runs, not as more text.

A box takes a printable key itself, at once; enter, backspace and the arrows are its
bindings, which acted only once the key had bubbled up to the app, after the keys typed
behind them were in the box: `/007` enter `y` filtered by "007y", `abc` backspace `d` read
"abc". See ui/widgets/text_keys.py, FilterBar's QueryInput and the note's NoteArea.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from ragdiag_tui.core.output.export import default_export_path
from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.ui.app import create_app

from .helpers import SIZE, burst, journal_entries, loaded, wait_until


async def test_keys_typed_after_enter_in_the_filter_act_on_the_runs(demo_path: Path) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        burst(app, "slash", "0", "0", "7", "enter", "y", "j", "n")
        await wait_until(pilot, lambda: len(journal_entries(demo_path)) >= 2, "two labels")
        assert screen.search == "007"
        labels = [(entry["run"], entry["label"]) for entry in journal_entries(demo_path)]
        assert labels == [("run-0007", True), ("run-0070", False)]
        assert screen.focused is screen.table


async def test_the_filter_boxs_editing_keys_act_in_the_order_typed(demo_path: Path) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        burst(app, "slash", "a", "b", "c", "backspace", "d", "left", "x", "enter")
        box = screen.filter_bar.query_input
        await wait_until(pilot, lambda: box.value and screen.focused is screen.table, "back at the table")
        assert box.value == "abxd"
        assert screen.search == "abxd"


async def test_the_notes_editing_keys_act_in_the_order_typed(demo_path: Path) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        burst(app, "c", "a", "b", "c", "backspace", "d", "left", "x", "ctrl+s", "y")
        await wait_until(pilot, lambda: len(journal_entries(demo_path)) >= 2, "the note, then the label")
        saved = [(entry["run"], entry["note"], entry["label"]) for entry in journal_entries(demo_path)]
        assert saved == [("run-0001", "abxd", None), ("run-0001", "abxd", True)]


async def test_keys_typed_after_enter_in_the_export_dialog_act_on_the_runs(
    demo_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(demo_path.parent)  # a path typed by mistake ("jy") would be written here
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        burst(app, "e", "enter", "j", "y")  # export to the path offered, then label the second run
        await wait_until(pilot, lambda: journal_entries(demo_path), "the label")
        labels = [(entry["run"], entry["label"]) for entry in journal_entries(demo_path)]
        assert labels == [("run-0002", True)]
        exported = Path(default_export_path(demo_path, "jsonl"))
        assert exported.exists()
        written = {demo_path.name, Path(journal_path(demo_path)).name, exported.name}
        assert {path.name for path in demo_path.parent.iterdir()} == written  # no "jy"


async def test_keys_typed_after_escape_in_the_note_act_on_the_run(demo_path: Path) -> None:
    app = create_app(demo_path, reviewer="typist")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        burst(app, "c", "a", "b", "escape", "y")  # a note begun and dropped, then the label
        await wait_until(pilot, lambda: journal_entries(demo_path), "the label")
        saved = [(entry["run"], entry["note"], entry["label"]) for entry in journal_entries(demo_path)]
        assert saved == [("run-0001", "", True)]
