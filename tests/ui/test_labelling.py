"""Labelling, live: each key changes the stage, reason, row, detail and summary at once."""

from __future__ import annotations

import json
import os
from pathlib import Path

from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.core.runs.store import S_GENERATION, S_LABEL_ERROR, S_PASS, S_RETRIEVAL
from ragdiag_tui.ui.app import RagdiagApp

from .helpers import GEN, LUCKY, NOLABEL, PASS, SIZE, detail_text, loaded, screen_text, table, table_lines


def row_line(pilot, row: int) -> str:
    return table_lines(pilot)[1 + row]


async def test_y_labels_correct_and_the_stage_changes_everywhere(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        table(pilot).cursor = GEN
        await pilot.pause()
        assert "generation 1" in screen_text(pilot.app)
        await pilot.press("y")
        assert screen.store.stage[GEN] == S_PASS
        assert row_line(pilot, GEN).split()[:4] == ["✓", "gen-2", "pass", "correct"]
        assert row_line(pilot, GEN).split()[4] == "reviewer"  # whose label is in force
        text = detail_text(pilot.app)
        assert "PASS" in text and "labelled correct" in text
        assert "Reviewer label correct" in text
        summary = screen_text(pilot.app)
        assert "generation 0" in summary and "pass 3" in summary and "reviewed 1/9" in summary


async def test_n_labels_incorrect(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("n")  # pass-1 was labelled correct in the file
        assert screen.store.stage[PASS] == S_GENERATION
        assert row_line(pilot, PASS).split()[:4] == ["✓", "pass-1", "generation", "incorrect"]
        assert "yet the answer is labelled incorrect" in detail_text(pilot.app)


async def test_space_toggles_none_correct_incorrect_correct(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        review = screen.review
        table(pilot).cursor = NOLABEL  # no Boolean label in the file
        await pilot.pause()
        assert review.label(NOLABEL) is None
        assert screen.store.stage[NOLABEL] == S_LABEL_ERROR
        seen = []
        for _ in range(3):
            await pilot.press("space")
            seen.append((review.label(NOLABEL), screen.store.stage[NOLABEL]))
        assert seen == [(True, S_PASS), (False, S_GENERATION), (True, S_PASS)]


async def test_backspace_removes_the_reviewers_label(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        table(pilot).cursor = LUCKY
        await pilot.pause()
        await pilot.press("n")
        assert screen.review.label_source(LUCKY) == "reviewer"
        await pilot.press("backspace")
        assert screen.review.label_source(LUCKY) == "file"
        assert screen.review.label(LUCKY) is True
        assert screen.store.stage[LUCKY] == S_RETRIEVAL
        assert "LUCKY ANSWER" in detail_text(pilot.app)
        assert "lucky 2" in screen_text(pilot.app)


async def test_ctrl_z_undoes_several_levels(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        review = screen.review
        await pilot.press("n", "down", "y", "down", "n")
        assert review.reviewed == 3
        await pilot.press("ctrl+z")
        assert review.reviewed == 2 and table(pilot).cursor_row == LUCKY
        await pilot.press("ctrl+z", "ctrl+z")
        assert review.reviewed == 0
        assert table(pilot).cursor_row == PASS
        assert screen.store.stage[PASS] == S_PASS
        await pilot.press("ctrl+z")  # nothing left: says so, changes nothing
        assert review.reviewed == 0


async def test_undo_brings_back_a_run_the_view_had_dropped(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("U", "y", "down")  # pass-1 reviewed, then left the view
        assert PASS not in screen.rows
        await pilot.press("ctrl+z")
        assert table(pilot).cursor_row == PASS
        assert PASS in screen.rows


async def test_c_adds_and_edits_a_note(app: RagdiagApp, runs_path) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("c")
        await pilot.press(*"check D2", "ctrl+s")
        assert screen.review.note(PASS) == "check D2"
        assert "check D2" in detail_text(pilot.app)
        assert row_line(pilot, PASS).startswith(" ✎")
        await pilot.press("c", "end", *" again", "ctrl+s")
        assert screen.review.note(PASS) == "check D2 again"
        await pilot.press("c", *"ignored", "escape")
        assert screen.review.note(PASS) == "check D2 again"
    entries = [
        json.loads(line) for line in Path(journal_path(runs_path)).read_text(encoding="utf-8").splitlines()
    ]
    assert [e["note"] for e in entries] == ["check D2", "check D2 again"]


async def test_c_on_a_note_too_long_to_edit_offers_to_replace_it(app: RagdiagApp) -> None:
    """A 100,000-line note is not loaded into the text area (seconds per press): the dialog
    says how long it is and that saving replaces it; escape keeps it whole."""
    from textual.widgets import TextArea

    from ragdiag_tui.ui.screens.note import EDIT_LINES

    long_note = "\n".join(f"line {n}" for n in range(100_000))
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        screen.review.set_note(PASS, long_note)
        await pilot.press("c")
        notice = str(app.screen.query_one("#note-too-long").render())
        assert "100,000 lines" in notice and "replaces it" in notice
        assert app.screen.query_one(TextArea).text == ""
        await pilot.press(*"typed", "escape")
        assert screen.review.note(PASS) == long_note  # escape keeps the long note
        await pilot.press("c", *"short now", "ctrl+s")
        assert screen.review.note(PASS) == "short now"
        # Just under the limit the note is still edited in place.
        editable = "\n".join("x" for _ in range(EDIT_LINES))
        screen.review.set_note(PASS, editable)
        await pilot.press("c")
        assert not app.screen.query("#note-too-long")
        assert app.screen.query_one(TextArea).text == editable
        await pilot.press("escape")


async def test_invalid_lines_cannot_be_labelled(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        table(pilot).cursor = 5
        await pilot.pause()
        await pilot.press("y", "c")
        assert screen.review.reviewed == 0
        assert len(app.screen_stack) == 1  # no note dialog either


async def test_undo_the_journal_refuses_still_shows_the_run_unsaved(app: RagdiagApp, monkeypatch) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        review = screen.review
        await pilot.press("n", "down", "down")  # pass-1 labelled, then the cursor moves on
        assert review.label(PASS) is False

        def no_space(fd: int) -> None:
            raise OSError(28, "No space left on device")

        monkeypatch.setattr(os, "fsync", no_space)
        await pilot.press("ctrl+z")
        assert review.label(PASS) is True  # undone in memory...
        assert review.unsaved == {PASS}  # ...but not in the journal, and it says so
        assert table(pilot).cursor_row == PASS
        assert row_line(pilot, PASS).split()[:2] == ["!", "pass-1"]
        assert "NOT SAVED" in detail_text(pilot.app)
