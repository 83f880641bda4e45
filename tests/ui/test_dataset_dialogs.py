"""The statistics (`s`) and export (`e`) dialogs over a dataset read in place: the figures
`stats DATASET --json` gives with the review applied, and the same as one file of the same
runs; "being counted" until the engine's counts come, filled in when they do; the reviewed
runs exported byte for byte as `export DATASET --reviewed-only` writes them."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.core.review.records import SpotCheck, utc_now
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.core.runs.source_store import SourceStore
from ragdiag_tui.core.runs.stages import RULE_STAGE_NAMES, STAGE_CODE
from ragdiag_tui.core.runs.store import L_TRUE, S_GENERATION, S_INVALID, S_PASS, S_RETRIEVAL
from ragdiag_tui.engines.dataset import open_dataset
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.export import ExportDialog
from ragdiag_tui.ui.screens.statistics import StatisticsScreen
from ragdiag_tui.ui.widgets.spot_check_panel import SpotCheckPanel

from .helpers import burst, loaded, record_notifications, screen_text, wait_until

pytest.importorskip("duckdb")
pytest.importorskip("pyarrow")

from ragdiag_tui.engines.duckdb.review_rows import DatasetRows

from .test_dataset_review import SIZE, counted, demo_runs, lake_app, write_lake


def lake_store(lake: Path) -> SourceStore:
    return SourceStore(DatasetRows(open_dataset([str(lake)])))


def review_lake(lake: Path, one: Path) -> None:
    """Two reviewers' labels on the lake's journal (an overturned lucky answer, a generation
    run passed, a pass failed, one run in conflict) and a spot-check of four retrieval runs."""
    local = open_review(str(one), writable=False)
    store = local.store
    rows = range(len(store))
    lucky = [row for row in rows if store.stage[row] == S_RETRIEVAL and store.file_label[row] == L_TRUE]
    generation = [row for row in rows if store.stage[row] == S_GENERATION]
    passed = [row for row in rows if store.stage[row] == S_PASS]
    lead = open_review(str(lake), store=lake_store(lake), reviewer="lead")
    for row, label in ((lucky[0], False), (lucky[1], False), (generation[0], True), (passed[0], False)):
        lead.set_label(row, label)
    ids = tuple(store.ids[row] for row in lucky[:4])
    lead.add_spot_check(SpotCheck("gaps", "retrieval", "", 7, 20, 4, ids, "lead", utc_now()))
    bob = open_review(str(lake), store=lake_store(lake), reviewer="bob")
    bob.set_label(passed[0], True)  # the lead said incorrect: in conflict


async def statistics_of(pilot) -> StatisticsScreen:
    app = pilot.app
    await pilot.press("s")
    await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen), "the statistics")
    return app.screen


def figures_shown(screen: StatisticsScreen) -> dict:
    """The screen's figures as `stats --json` names them."""
    counts = screen.shown.counts
    return {
        "runs": sum(counts[STAGE_CODE[name]] for name in RULE_STAGE_NAMES),
        "stages": {name: counts[STAGE_CODE[name]] for name in RULE_STAGE_NAMES},
        "lucky_in_file": screen.shown.lucky_in_file,
        "still_lucky": screen.shown.lucky,
        "unresolved": counts[STAGE_CODE["unresolved"]],
        "label_errors": counts[STAGE_CODE["answer-label"]],
        "invalid_lines": counts[S_INVALID],
        "reviewed": screen.review.reviewed,
        "conflicts": len(screen.review.conflicts),
        "most_missed": [{"id": doc, "runs": runs} for doc, runs in screen.documents[:10]],
    }


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
async def test_s_over_a_lake_shows_stats_datasets_figures_and_one_files(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    lake, one = write_lake(tmp_path, kind)
    review_lake(lake, one)
    assert main(["stats", str(lake), "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)
    del expected["metrics"]  # the means are left to `stats DATASET` (every run read)
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await counted(pilot)
        screen = await statistics_of(pilot)
        await wait_until(pilot, lambda: screen.counting.done, "the most-missed documents")
        await wait_until(pilot, lambda: screen.query("#missed-documents"), "the documents' list")
        on_lake = figures_shown(screen)
        assert on_lake == expected
        assert expected["reviewed"] == 4 and expected["conflicts"] == 1
        assert expected["still_lucky"] == expected["lucky_in_file"] - 2
        text = screen_text(app)
        assert f"{expected['runs']:,} runs, 4 reviewed" in text
        notes = [str(note.visual) for note in screen.query(".stats-counting")]
        assert notes == ["Means of recall and precision: `ragdiag-tui stats DATASET` gives them."]
        lake_documents = list(screen.documents)
        lake_spot_checks = [report.sentence() for report in screen.query_one(SpotCheckPanel).reports]
    assert "2 overturned" in lake_spot_checks[0] and "2 of the 4 sampled" in lake_spot_checks[0]
    # The same runs and journal as one file: the same figures, documents and spot-check.
    shutil.copy(f"{lake}.review.jsonl", journal_path(one))
    async with create_app(str(one), reviewer="ann").run_test(size=SIZE) as pilot:
        await loaded(pilot)
        screen = await statistics_of(pilot)
        assert figures_shown(screen) == on_lake
        assert screen.documents == lake_documents
        assert [report.sentence() for report in screen.query_one(SpotCheckPanel).reports] == lake_spot_checks


async def test_s_says_a_lakes_figures_are_being_counted_and_fills_them_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lake, _one = write_lake(tmp_path, "parquet")
    release = threading.Event()
    tally = DatasetRows.tally

    def held(self: DatasetRows):  # the engine still counting until the test lets it go
        release.wait(30)
        return tally(self)

    monkeypatch.setattr(DatasetRows, "tally", held)
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        review_screen = await loaded(pilot)
        screen = await statistics_of(pilot)
        text = screen_text(app)
        assert "Being counted over the whole dataset" in text and "Being found over the whole" in text
        assert not screen.query("StageBars") and "Lucky answers" not in text
        assert f"{len(review_screen.store):,} rows" in text
        release.set()
        await wait_until(pilot, lambda: screen.query("#missed-documents"), "the documents' list")
        text = screen_text(app)
        assert screen.query("StageBars") and "Being" not in text
        assert screen.shown.counts == list(review_screen.review.counts)
        assert sum(screen.shown.counts) == len(review_screen.store)
        # The list is made again when the documents come after the counts: the one on screen, focused.
        await wait_until(
            pilot,
            lambda: any(app.focused is missed for missed in screen.query("#missed-documents")),
            "the documents' list focused",
        )
        said = record_notifications(app)
        await pilot.press("enter")  # the runs missing a document: not a filter over a dataset
        assert app.screen is screen and not said


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
async def test_e_over_a_lake_writes_export_datasets_reviewed_runs_byte_for_byte(
    tmp_path: Path, fmt: str
) -> None:
    lake, one = write_lake(tmp_path, "parquet")
    review_lake(lake, one)
    assert main(["export", str(lake), "--reviewed-only", "-o", str(tmp_path / f"cli.{fmt}")]) == 0
    out = tmp_path / f"app.{fmt}"
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, ExportDialog), "the export dialog")
        dialog = app.screen
        assert dialog.scope == "reviewed"
        assert [str(button.label) for button in dialog.query("#export-scope RadioButton")] == [
            "Reviewed only (4)"
        ]
        assert "`ragdiag-tui diagnose DATASET -o OUT`" in str(dialog.query_one("#export-error").visual)
        await pilot.press("ctrl+u")
        burst(app, *str(out), "enter")  # typed fast: the extension's format, then the export
        await wait_until(pilot, lambda: not isinstance(app.screen, ExportDialog), "the export", seconds=20)
    assert dialog.fmt == fmt
    assert out.read_bytes() == (tmp_path / f"cli.{fmt}").read_bytes()
    if fmt == "jsonl":
        assert len(out.read_text().splitlines()) == 4


async def test_e_over_a_lake_refuses_to_write_over_its_files_and_journal(tmp_path: Path) -> None:
    lake, one = write_lake(tmp_path, "jsonl")
    review_lake(lake, one)
    part = lake / "part-1.jsonl"
    before = part.read_bytes(), Path(f"{lake}.review.jsonl").read_bytes()
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        for target in (part, Path(f"{lake}.review.jsonl")):
            await pilot.press("e")
            await wait_until(pilot, lambda: isinstance(app.screen, ExportDialog), "the export dialog")
            dialog = app.screen
            await pilot.press("ctrl+u")
            burst(app, *str(target), "enter")
            await wait_until(pilot, lambda: "Not exported" in screen_text(app), "the refusal")
            await pilot.press("escape")
            await wait_until(pilot, lambda: not isinstance(app.screen, ExportDialog), "the dialog to close")
            assert not dialog.working
    assert (part.read_bytes(), Path(f"{lake}.review.jsonl").read_bytes()) == before


UNLABELLED = "kb/only-missed-by-unlabelled-runs"


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
async def test_labels_on_runs_without_one_move_a_lakes_most_missed_as_one_files(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = demo_runs()
    unlabelled = [row for row, run in enumerate(runs) if not isinstance(run.get("correct"), bool)][:3]
    assert len(unlabelled) == 3
    for row in unlabelled:  # a label error by the files: it misses nothing until labelled
        runs[row]["required"] = [*runs[row]["required"], UNLABELLED]
    lake, one = write_lake(tmp_path, kind, runs)
    lead = open_review(str(lake), store=lake_store(lake), reviewer="lead")
    for row in unlabelled:
        lead.set_label(row, True)
    lead.set_label(unlabelled[0], None)  # taken back: a label error again
    lead.set_label(unlabelled[0], False)
    assert main(["stats", str(lake), "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)["most_missed"]
    assert {"id": UNLABELLED, "runs": 3} in expected
    async with lake_app(lake, reviewer="ann").run_test(size=SIZE) as pilot:
        await loaded(pilot)
        screen = await statistics_of(pilot)
        await wait_until(pilot, lambda: screen.query("#missed-documents"), "the documents' list", seconds=20)
        assert figures_shown(screen)["most_missed"] == expected
        on_lake = list(screen.documents)
    shutil.copy(f"{lake}.review.jsonl", journal_path(one))
    async with create_app(str(one), reviewer="ann").run_test(size=SIZE) as pilot:
        await loaded(pilot)
        screen = await statistics_of(pilot)
        assert screen.documents == on_lake
    assert main(["stats", str(one), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["most_missed"] == expected


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
async def test_r_on_a_lakes_statistics_writes_the_report_report_dataset_writes(
    tmp_path: Path, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`s` then `r` over a lake: the report beside the lake's folder, its figures and spot-check
    those of `report DATASET` (written by a source and a read-only review of the worker's own)."""
    pytest.importorskip("matplotlib")
    from ..core.report_files import page

    lake, one = write_lake(tmp_path, kind)
    review_lake(lake, one)
    assert main(["report", str(lake), "-o", str(tmp_path / "cli.html")]) == 0
    capsys.readouterr()
    app = lake_app(lake, reviewer="ann")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        said = record_notifications(app)
        await statistics_of(pilot)
        await pilot.press("r")
        written = lambda: any(text.startswith(("Report written", "Report not written")) for text, _ in said)  # noqa: E731
        await wait_until(pilot, written, "the report's notice", seconds=30)
        await pilot.press("escape", "y")  # the screen still serves the review
    path = tmp_path / "lake.report.html"
    assert [text for text, _ in said if text.startswith("Report")][-1] == f"Report written to {path}"
    from_app, from_cli = page(path).data(), page(tmp_path / "cli.html").data()
    assert from_app["stats"] == from_cli["stats"]
    assert from_app["stats"]["reviewed"] == 4 and from_app["stats"]["spot_checks"][0]["overturned"] == 2
    assert (from_app["report"]["files"], from_app["report"]["runs"]) == (2, len(demo_runs()))
