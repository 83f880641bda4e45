"""Export dialog, statistics screen, key help and the command palette."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, RadioSet

from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.ui.app import RagdiagApp
from ragdiag_tui.ui.screens.export import ExportDialog
from ragdiag_tui.ui.screens.help import HelpScreen
from ragdiag_tui.ui.screens.review.screen import ReviewScreen
from ragdiag_tui.ui.screens.statistics import StatisticsScreen
from ragdiag_tui.ui.widgets.table.run_table import RunTable

from .helpers import LUCKY, MARKUP_AB, RETR, SIZE, loaded, screen_text, wait_until


async def wait_for_screen(pilot, kind):
    for _ in range(200):
        if isinstance(pilot.app.screen, kind):
            return pilot.app.screen
        await pilot.pause(0.01)
    raise AssertionError(f"{kind.__name__} never showed")


async def wait_closed(pilot, kind):
    for _ in range(300):
        if not isinstance(pilot.app.screen, kind):
            return
        await pilot.pause(0.01)
    raise AssertionError(f"{kind.__name__} never closed")


async def test_export_dialog_defaults_beside_the_run_file_and_writes_jsonl(
    app: RagdiagApp, runs_path
) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("n")  # pass-1 relabelled incorrect
        await pilot.press("e")
        dialog = await wait_for_screen(pilot, ExportDialog)
        path_input = dialog.query_one("#export-path", Input)
        assert path_input.value == str(runs_path.with_name("runs.reviewed.jsonl"))
        await pilot.click("#export")
        await wait_closed(pilot, ExportDialog)
        assert any("Exported 9 runs" in n.message for n in app._notifications)
    runs = [json.loads(line) for line in runs_path.with_name("runs.reviewed.jsonl").open()]
    assert len(runs) == 9  # the two invalid lines are not runs
    first = runs[0]
    assert first["id"] == "pass-1" and first["model"] == "m-small"  # original fields kept
    assert first["correct"] is False and first["original_correct"] is True
    assert first["label_source"] == "reviewer" and first["reviewer"] == "tester"
    assert first["stage"] == "generation"


async def test_export_csv_of_reviewed_runs_only(app: RagdiagApp, runs_path) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("down", "down", "y")  # lucky-3 reviewed
        await pilot.press("e")
        dialog = await wait_for_screen(pilot, ExportDialog)
        formats = dialog.query_one("#export-format", RadioSet)
        formats.query("RadioButton")[1].value = True  # CSV
        await pilot.pause()
        assert dialog.query_one("#export-path", Input).value.endswith("runs.reviewed.csv")
        dialog.query_one("#export-scope", RadioSet).query("RadioButton")[2].value = True
        await pilot.pause()
        await pilot.click("#export")
        await wait_closed(pilot, ExportDialog)
    rows = list(csv.DictReader(runs_path.with_name("runs.reviewed.csv").open(encoding="utf-8")))
    assert [row["id"] for row in rows] == ["lucky-3"]
    assert rows[0]["missing"] == "D2"


async def test_export_current_filter_as_json(app: RagdiagApp, runs_path) -> None:
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("L", "e")
        dialog = await wait_for_screen(pilot, ExportDialog)
        dialog.query_one("#export-format", RadioSet).query("RadioButton")[2].value = True
        dialog.query_one("#export-scope", RadioSet).query("RadioButton")[1].value = True
        await pilot.pause()
        await pilot.click("#export")
        await wait_closed(pilot, ExportDialog)
    data = json.loads(runs_path.with_name("runs.reviewed.json").read_text(encoding="utf-8"))
    assert [run["id"] for run in data] == ["lucky-3", "a[b]c"]


async def test_export_asks_before_replacing_a_file(app: RagdiagApp, runs_path) -> None:
    target = runs_path.with_name("runs.reviewed.jsonl")
    target.write_text("old\n")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("e")
        await wait_for_screen(pilot, ExportDialog)
        await pilot.click("#export")
        await pilot.pause()
        assert "exists. Replace it?" in screen_text(pilot.app)
        await pilot.click("#no")
        await pilot.pause()
        assert target.read_text() == "old\n"


@pytest.mark.parametrize("target", ["run file", "journal", "journal by a link"])
async def test_export_to_the_run_file_or_its_journal_is_refused_before_asking_to_replace(
    app: RagdiagApp, runs_path, target: str
) -> None:
    journal = Path(journal_path(runs_path))
    journal.write_text("")
    path = {
        "run file": runs_path,
        "journal": journal,
        "journal by a link": runs_path.with_name("link.jsonl"),
    }[target]
    if target == "journal by a link":
        path.symlink_to(journal)
    before = runs_path.read_bytes(), journal.read_bytes()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("e")
        dialog = await wait_for_screen(pilot, ExportDialog)
        dialog.query_one("#export-path", Input).value = str(path)
        await pilot.click("#export")
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "Replace it?" not in text
        what = "the run file" if target == "run file" else "the review journal"
        assert "Not exported" in text and f"it is {what}" in text
        assert isinstance(pilot.app.screen, ExportDialog)
    assert (runs_path.read_bytes(), journal.read_bytes()) == before


async def test_statistics_screen_and_choosing_a_missed_document_filters(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("s")
        stats = await wait_for_screen(pilot, StatisticsScreen)
        text = screen_text(pilot.app)
        assert "Runs per stage" in text and "Lucky answers in the file  2" in text
        assert "Still lucky after review   2" in text
        assert stats.documents[0] == ("D2", 3)  # lucky-3, retr-4, a[b]c miss D2
        options = stats.query_one(OptionList)
        assert options.option_count == len(stats.documents)
        await pilot.press("enter")  # the first, most-missed document
        await wait_closed(pilot, StatisticsScreen)
        assert screen.missing_doc == "D2"
        assert list(screen.rows) == [LUCKY, RETR, MARKUP_AB]
        assert "missing D2" in screen_text(pilot.app)
        assert isinstance(app.focused, RunTable)
        await pilot.press("escape")  # clears the document filter
        assert screen.missing_doc is None


async def test_question_mark_shows_every_key_binding(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("question_mark")
        help_screen = await wait_for_screen(pilot, HelpScreen)
        text = str(help_screen.query_one("#help-keys Static").visual)
        for _section, keys, _description in screen.key_help():
            assert keys in text
        for word in ("Label the run correct", "Lucky answers", "Command palette", "Export"):
            assert word in text
        await pilot.press("escape")
        assert isinstance(app.screen, ReviewScreen)


async def test_keys_do_not_clash(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        keys = [keys for section, keys, _ in screen.key_help() if section != "Move"]
        flat = [key for group in keys for key in group.split(", ")]
        assert len(flat) == len(set(flat)), flat


async def test_command_palette_offers_every_action(app: RagdiagApp) -> None:
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        titles = {command.title for command in app.get_system_commands(screen)}
        for expected in (
            "Correct",
            "Incorrect",
            "Flip label",
            "File label",
            "Note",
            "Undo",
            "Filter",
            "Export",
            "Stats",
            "Keys",
            "Quit",
            "View: Lucky answers",
            "View: Unreviewed",
        ):
            assert expected in titles, expected
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"lucky answers")
        await wait_until(pilot, lambda: "View: Lucky answers" in screen_text(pilot.app), "the command")
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.view == "lucky", "the lucky-answers view")
