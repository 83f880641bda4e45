"""Never lose a label: journal replay on reopening, orphans, and failed writes."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.core.runs.store import S_GENERATION
from ragdiag_tui.ui.app import create_app

from .helpers import GEN, LUCKY, PASS, SIZE, detail_text, loaded, screen_text, table, table_lines, wait_until


def notifications(app) -> list[str]:
    return [n.message for n in app._notifications]


async def test_reopening_replays_the_journal_and_says_how_many_were_restored(runs_path) -> None:
    before = runs_path.read_bytes()
    app = create_app(runs_path, reviewer="alice")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("n", "down", "c", *"looks odd", "ctrl+s", "down", "y")
    entries = [
        json.loads(line) for line in Path(journal_path(runs_path)).read_text(encoding="utf-8").splitlines()
    ]
    assert [(e["run"], e["label"], e["reviewer"]) for e in entries] == [
        ("pass-1", False, "alice"),
        ("gen-2", None, "alice"),
        ("lucky-3", True, "alice"),
    ]
    assert all(e["at"].endswith("Z") for e in entries)
    assert runs_path.read_bytes() == before  # the run file itself is never written

    app = create_app(runs_path, reviewer="alice")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        assert "Restored your 2 reviewed runs from the journal." in notifications(app)
        assert screen.review.label(PASS) is False
        assert screen.store.stage[PASS] == S_GENERATION
        assert screen.review.note(GEN) == "looks odd"
        assert screen.review.reviewer_label(LUCKY) is True
        assert table_lines(pilot)[1].split()[:3] == ["✓", "pass-1", "generation"]
        assert "reviewed 2/9" in screen_text(pilot.app)


async def test_journal_entries_for_runs_no_longer_in_the_file_are_reported(runs_path) -> None:
    entry = {
        "v": 1,
        "run": "gone-run",
        "label": True,
        "note": "",
        "reviewer": "bob",
        "at": "2025-01-01T00:00:00Z",
    }
    with open(journal_path(runs_path), "w", encoding="utf-8") as handle:
        handle.write(json.dumps(entry) + "\n")
    app = create_app(runs_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        assert [e.run for e in screen.review.orphans] == ["gone-run"]
        assert any(
            "'gone-run'" in message and "not in this file" in message for message in notifications(app)
        )
    assert "gone-run" in Path(journal_path(runs_path)).read_text(encoding="utf-8")  # kept, not dropped


async def test_a_label_that_cannot_be_saved_is_shown_as_not_saved(runs_path) -> None:
    os.mkdir(journal_path(runs_path))  # a folder where the journal should be: every write fails
    app = create_app(runs_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        assert any("NOT be saved" in message for message in notifications(app))
        await pilot.press("n")
        assert PASS in screen.review.unsaved
        assert screen.review.label(PASS) is False  # kept in memory
        assert table_lines(pilot)[1].startswith("!")
        assert "NOT SAVED" in detail_text(pilot.app)
        assert any("marked ! (not saved)" in message for message in notifications(app))
        await pilot.press("q")  # asks before losing it
        assert app.is_running
        assert "could not" in screen_text(pilot.app) or "not saved" in screen_text(pilot.app)
        await pilot.press("escape")
        assert app.is_running


async def test_q_quits(app) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_unsaved_changes_are_confirmed_before_quitting(runs_path) -> None:
    os.mkdir(journal_path(runs_path))
    app = create_app(runs_path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("y", "q")
        await pilot.pause()
        assert app.is_running
        await pilot.click("#yes")
        await pilot.pause()
        assert not app.is_running


async def test_cursor_starts_on_first_run_after_replay(runs_path) -> None:
    app = create_app(runs_path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("down", "y")
    app = create_app(runs_path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        assert table(pilot).cursor_row == PASS


async def test_messages_about_run_ids_and_paths_are_literal(runs_path) -> None:
    entry = {
        "v": 1,
        "run": "[@click=app.quit]gone[/]",
        "label": True,
        "note": "",
        "reviewer": "b",
        "at": "2026-11-30T15:00:00Z",
    }
    Path(journal_path(runs_path)).write_text(json.dumps(entry) + "\n", encoding="utf-8")
    app = create_app(runs_path)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await wait_until(
            pilot,
            lambda: any("'[@click=app.quit]gone[/]'" in message for message in notifications(app)),
            "the notification naming the run",
        )
        assert all(not n.markup for n in app._notifications)
        assert app.is_running
