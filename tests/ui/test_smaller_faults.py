"""Issue 16's smaller faults in the app: the export dialog reads a typed extension, the
baseline's offers keep their reviewers and the dialog shows its keys, the summary bar keeps
the stage counts at 80 columns, the document panel keeps the IDs in view, nested fields."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from textual.widgets import Input, RadioSet

from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.core.review.records import SpotCheck, utc_now
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.core.runs.corpus import DocsSource
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.confirm import ConfirmDialog
from ragdiag_tui.ui.screens.export import ExportDialog
from ragdiag_tui.ui.widgets.stage_summary import StageSummary

from .helpers import DEMO, detail_text, loaded, screen_lines, screen_text, table, wait_until

AFTER = DEMO.parent / "demo_after.jsonl"
DOCS = DEMO.parent / "docs.jsonl"


async def test_a_typed_extension_picks_the_export_format(demo_path: Path, tmp_path: Path) -> None:
    app = create_app(demo_path, reviewer="tester")
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, ExportDialog), "the export dialog")
        dialog = app.screen
        assert isinstance(dialog, ExportDialog)
        target = tmp_path / "typed.csv"
        path_input = dialog.query_one("#export-path", Input)
        path_input.value = str(target.with_suffix(""))  # the folder as given; the extension typed
        await pilot.press("end", *target.suffix)
        await wait_until(pilot, lambda: dialog.fmt == "csv", "the format to follow the extension")
        await pilot.pause()
        assert dialog.query_one("#export-format", RadioSet).pressed_index == 1  # CSV
        assert path_input.value == str(target)  # the typed path is kept
        await pilot.press("enter")
        await wait_until(pilot, target.exists, "the export")
    assert target.read_text(encoding="utf-8").startswith("id,")  # CSV, not JSON Lines


def journal_line(path: Path, **entry: object) -> None:
    record = {"v": 1, "note": "", "tags": [], "at": "2026-11-29T10:00:00Z", **entry}
    with open(journal_path(path), "a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")


async def test_applying_the_baselines_offer_keeps_notes_tags_and_reviewers(tmp_path: Path) -> None:
    old, new = tmp_path / "before.jsonl", tmp_path / "after.jsonl"
    shutil.copy(DEMO, old)
    shutil.copy(AFTER, new)
    journal_line(old, run="run-0002", label=True, note="checked twice", tags=["wrong-doc"], reviewer="alice")
    journal_line(old, run="run-0002", label=True, reviewer="dave")
    app = create_app(new, reviewer="bob", baseline=old)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.baselines.baseline is not None, "the baseline")
        await pilot.press("O")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the dialog")
        await pilot.pause()
        said = " ".join(screen_text(app).split())
        assert "tab: the other button · enter: the highlighted one · escape: Not now" in said
        assert "under the names of the" in said and "reviewers who gave them" in said
        await pilot.click("#yes")
        await pilot.pause()
        review = screen.review
        assert review is not None
        row = screen.store.row_of["run-0002"]
        assert set(review.reviewers(row)) == {"alice", "dave"}
        alice = review.state(row, "alice")
        assert alice is not None and alice.note == "checked twice" and alice.tags == ("wrong-doc",)
    entries = [json.loads(line) for line in Path(journal_path(new)).read_text().splitlines()]
    assert {entry["reviewer"] for entry in entries} == {"alice", "dave"}  # not bob, who applied them
    assert entries[0]["note"] == "checked twice" and entries[0]["tags"] == ["wrong-doc"]


async def test_at_80_columns_a_spot_check_keeps_the_stage_counts_readable(demo_path: Path) -> None:
    review = open_review(str(demo_path), reviewer="lead")
    ids = tuple(review.store.ids[:9])
    review.add_spot_check(SpotCheck("first-9", "all", "", 7, 80, 9, ids, "lead", utc_now()))
    app = create_app(demo_path, reviewer="tester", spot_check="first-9")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.spot_check == "first-9", "the spot-check to open")
        await pilot.pause()
        summary = screen.query_one(StageSummary)
        lines = screen_lines(app)[: summary.region.height]
        assert "first-9" in lines[0]
        counts = " ".join(lines)
        assert "retr 20·gen 12·pass 39·unres 4·label 5" in counts
        assert "reviewed 0/80" in counts


async def test_at_80x24_the_document_panel_keeps_the_run_ids_in_view(tmp_path: Path) -> None:
    runs = tmp_path / "demo.jsonl"
    shutil.copy(DEMO, runs)
    app = create_app(runs, reviewer="tester", docs=DocsSource(str(DOCS)))
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        table(pilot).cursor = 4  # run-0005: a lucky answer, one required document missing
        await pilot.pause()
        for number in (1, 2):  # the second has a text of several lines
            await pilot.press("full_stop")
            heading = f"Document {number} of"
            await wait_until(pilot, lambda: heading in screen_text(app), "the panel")  # noqa: B023
            await pilot.pause()
            text = screen_text(app)
            assert "Required (2)" in text and "Supplied (2)" in text  # the IDs' lists, headings and all
            assert "✗ missing  hr-policy-043" in text and "✓ present  hr-policy-042" in text
            assert "Stands" in text  # and the panel, beside them


NESTED = {
    "id": "n1",
    "question": "What is the PTO cap?",
    "answer": "5 days",
    "required": ["D1"],
    "context": ["D1", "D2"],
    "correct": True,
    "metric_dict": {"hit_rate": {"score": 1.0, "metadata": {}}, "mrr": {"score": 0.5}},
    "retrieved": [{"doc_id": "D1", "score": 0.91}, {"doc_id": "[b]D2[/b]", "score": 0.42}],
    "model": "gpt-4o",
}


async def test_nested_fields_show_as_indented_key_value_lines(tmp_path: Path) -> None:
    path = tmp_path / "nested.jsonl"
    path.write_text(json.dumps(NESTED) + "\n", encoding="utf-8")
    app = create_app(path, reviewer="tester")
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        text = detail_text(app)
        assert '{"hit_rate"' not in text and '[{"doc_id"' not in text  # no one-line JSON
        lines = text.splitlines()
        start = lines.index("metric_dict")
        assert lines[start : start + 6] == [
            "metric_dict",
            "  hit_rate",
            "    score     1.0",
            "    metadata  {}",
            "  mrr",
            "    score     0.5",  # one column for the values of a level
        ]
        start = lines.index("retrieved")
        assert lines[start : start + 5] == [
            "retrieved",
            "  - doc_id  D1",
            "    score   0.91",
            "  - doc_id  [b]D2[/b]",  # literally, never markup
            "    score   0.42",
        ]
        assert any(line.startswith("model") and line.endswith("gpt-4o") for line in lines)
