"""Untrusted text: markup in run data shows literally and runs nothing; control
characters become visible escapes and cannot corrupt the screen. Every file of the hostile
corpus opened and browsed in the app: tests/hostile/test_corpus_app.py."""

from __future__ import annotations

import json
from pathlib import Path

from ragdiag_tui.ui.app import RagdiagApp, create_app

from .helpers import (
    MARKUP_AB,
    MARKUP_CLICK,
    MARKUP_SLASH,
    SIZE,
    detail_text,
    loaded,
    table,
    table_lines,
)

ROOM_FOR_QUESTIONS = (130, 40)  # still the narrow layout, wide enough for the whole questions


async def test_markup_ids_show_literally_in_table_and_detail(app: RagdiagApp) -> None:
    async with app.run_test(size=ROOM_FOR_QUESTIONS) as pilot:
        await loaded(pilot)
        lines = table_lines(pilot)
        assert lines[1 + MARKUP_SLASH].split()[0] == "[/]"
        assert lines[1 + MARKUP_CLICK].split()[0] == "[@click=app.quit]x[/]"
        assert lines[1 + MARKUP_AB].split()[0] == "a[b]c"
        assert "[bold]not bold[/bold] and [@click=app.quit]click[/]" in lines[1 + MARKUP_SLASH]
        table(pilot).cursor = MARKUP_SLASH
        await pilot.pause()
        text = detail_text(pilot.app)
        assert "[/]" in text and "✗ missing  [/]" in text and "✓ present  a[b]c" in text
        assert "[bold]not bold[/bold] and [@click=app.quit]click[/]" in text
        assert "Labelled correct, but" not in text  # labelled incorrect: the plain retrieval sentence
        assert "[/] never reached the model" in text


async def test_clicking_markup_text_runs_nothing(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        table(pilot).cursor = MARKUP_CLICK
        await pilot.pause()
        # click on the id in the table and in the detail pane: no action may run
        await pilot.click("RunTable", offset=(5, 1 + MARKUP_CLICK))
        await pilot.click("#run-heading", offset=(20, 0))
        await pilot.pause()
        assert app.is_running
        assert "[@click=app.quit]x[/]" in detail_text(pilot.app)


async def test_control_characters_become_visible_escapes(app: RagdiagApp) -> None:
    async with app.run_test(size=ROOM_FOR_QUESTIONS) as pilot:
        await loaded(pilot)
        line = table_lines(pilot)[1 + MARKUP_AB]
        assert "\x1b" not in line and "\x07" not in line and "\r" not in line
        assert "\\x1b[31mred\\x1b[0m bell\\x07 and\\x0dreturn" in line
        table(pilot).cursor = MARKUP_AB
        await pilot.pause()
        text = detail_text(pilot.app)
        assert "\x1b" not in text and "\\x1b[31mred" in text


async def test_a_note_with_markup_is_literal(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("c", *"[@click=app.quit]q[/]", "ctrl+s")
        assert screen.review.note(0) == "[@click=app.quit]q[/]"
        assert "[@click=app.quit]q[/]" in detail_text(pilot.app)
        assert app.is_running


async def test_escape_sequences_in_journal_fields_reach_the_screen_escaped(runs_path: Path) -> None:
    """Anyone can edit the journal: its time, reviewer and note never reach the terminal raw."""
    osc52 = "\x1b]52;c;cHduZWQ=\x07"  # would write the clipboard
    entry = {
        "v": 1,
        "run": "pass-1",
        "label": False,
        "note": f"note{osc52}",
        "reviewer": f"mallory{osc52}",
        "at": "2026-11-30T15:00:00Z",
    }
    # An `at` that is not a timestamp (escapes included) is refused since issue 22: the line
    # is skipped with a warning that does not echo it.
    bad_time = {**entry, "run": "gen-2", "at": "\x1b]52;c;eA==\x07"}
    lines = json.dumps(entry) + "\n" + json.dumps(bad_time) + "\n"
    Path(f"{runs_path}.review.jsonl").write_text(lines, encoding="utf-8")
    app = create_app(runs_path, reviewer="tester")
    async with app.run_test(size=(160, 50)) as pilot:
        await loaded(pilot)
        shown = detail_text(app)
        assert "mallory" in shown  # the entry was applied and is on screen
        assert "\x1b" not in shown and "\x07" not in shown
        assert "\\x1b]52" in shown  # the sequence shows as visible text
