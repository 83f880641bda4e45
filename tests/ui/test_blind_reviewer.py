"""A blind reviewer's first hour (issue 39): greeted for their own work only, their spot-check
on the statistics screen once they finished it, the summary on one line at 120 columns saying
who they are, their reason tags in view, and nothing the blind mode hides drawn while the file
loads, not even once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.core.review.records import SpotCheck, utc_now
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.core.runs.stages import S_GENERATION, S_LABEL_ERROR, S_PASS, S_RETRIEVAL
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.statistics import StatisticsScreen
from ragdiag_tui.ui.widgets.detail.run_detail import RunDetail
from ragdiag_tui.ui.widgets.spot_check_panel import SpotCheckPanel
from ragdiag_tui.ui.widgets.stage_summary import StageSummary
from ragdiag_tui.ui.widgets.table.run_table import RunTable

from .helpers import loaded, wait_until

SAMPLE = "lucky-6"
LABEL_STAGES = (S_RETRIEVAL, S_GENERATION, S_PASS, S_LABEL_ERROR)


def write_runs(path: Path, count: int) -> Path:
    """`count` runs; every third a lucky answer (correct, D2 missing), the others passing."""
    runs = [
        {
            "id": f"run-{n:04}",
            "question": f"Question {n}?",
            "required": ["D1", "D2"] if n % 3 == 0 else ["D1"],
            "context": ["D1"],
            "correct": True,
        }
        for n in range(count)
    ]
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), "utf-8")
    return path


def with_spot_check(path: Path, rows: list[int]) -> Path:
    review = open_review(path, reviewer="lead")
    ids = tuple(review.store.ids[row] for row in rows)
    review.add_spot_check(SpotCheck(SAMPLE, "lucky", "", 7, len(rows), len(rows), ids, "lead", utc_now()))
    assert review.journal is not None
    review.journal.close()
    return path


def label_as(
    path: Path, reviewer: str, labels: dict[int, bool], tags: dict[int, list[str]] | None = None
) -> None:
    review = open_review(path, reviewer=reviewer)
    for row, label in labels.items():
        review.set_label(row, label)
    for row, keys in (tags or {}).items():
        review.set_tags(row, keys)
    assert review.journal is not None
    review.journal.close()


SAMPLED = [0, 3, 6, 9, 12, 15]


@pytest.fixture
def alice_done(tmp_path: Path) -> Path:
    """30 runs, a spot-check of six lucky answers that alice labelled (four overturned)."""
    path = with_spot_check(write_runs(tmp_path / "runs.jsonl", 30), SAMPLED)
    label_as(path, "alice", {row: at >= 4 for at, row in enumerate(SAMPLED)}, {0: ["required-wrong"]})
    return path


def notices(app: Any) -> list[tuple[str, str]]:
    """(title, message) of every notification the app is asked to show, from now on."""
    seen: list[tuple[str, str]] = []
    notify = app.notify

    def recording(message: str, **options: Any) -> None:
        seen.append((options.get("title", ""), message))
        notify(message, **options)

    app.notify = recording
    return seen


async def test_a_blind_reviewer_new_to_the_file_is_not_welcomed_back(alice_done: Path) -> None:
    app = create_app(alice_done, reviewer="bob", blind=True, spot_check=SAMPLE)
    told = notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: told, "the journal's word")
        assert not any("Welcome back" in title or "Restored" in message for title, message in told), told
        assert any("none by you yet" in message for _, message in told), told
        await pilot.press("n", "y")  # bob labels two runs
        await wait_until(pilot, lambda: screen.review.my_label(SAMPLED[1]) is not None, "bob's labels")
    app = create_app(alice_done, reviewer="bob", blind=True, spot_check=SAMPLE)
    told = notices(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await wait_until(pilot, lambda: told, "the journal's word")
        assert ("Welcome back, bob", "Restored your 2 reviewed runs from the journal.") in told


async def test_the_blind_statistics_screen_shows_the_spot_check_once_finished(alice_done: Path) -> None:
    label_as(alice_done, "bob", {row: False for row in SAMPLED[:3]})
    app = create_app(alice_done, reviewer="bob", blind=True, spot_check=SAMPLE)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen), "the statistics")
        text = app.screen.query_one(SpotCheckPanel).text().plain
        assert "No spot-checks yet" not in text
        assert f"{SAMPLE}: 3 of 6 labelled by you" in text and "overturned" not in text
    label_as(alice_done, "bob", {row: False for row in SAMPLED[3:]})
    app = create_app(alice_done, reviewer="bob", blind=True, spot_check=SAMPLE)
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen), "the statistics")
        text = app.screen.query_one(SpotCheckPanel).text().plain
        assert "No spot-checks yet" not in text
        assert f"{SAMPLE}: the file's label was overturned on" in text


async def test_the_blind_summary_is_one_line_at_120_columns_and_names_the_reviewer(alice_done: Path) -> None:
    label_as(alice_done, "bob", {row: True for row in SAMPLED})  # a conflict or two with alice
    app = create_app(alice_done, reviewer="bob", blind=True, spot_check=SAMPLE)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.spot_check == SAMPLE, "the spot-check")
        await pilot.pause()
        summary = screen.query_one(StageSummary)
        shown = summary.render().plain  # type: ignore[union-attr]
        assert "\n" not in shown and summary.size.height == 1, shown
        assert "conflicts" in shown or "≠" in shown
        assert "bob" in shown and "hidden" in shown


async def test_reason_tags_are_in_view_at_120_columns_with_a_document_open(alice_done: Path) -> None:
    app = create_app(alice_done, reviewer="alice", spot_check=SAMPLE)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.table.cursor_row == 0, "the first run")
        await pilot.press("full_stop")  # a document open: the lower lines are below the fold
        await pilot.pause()
        detail = screen.query_one(RunDetail)
        reason = detail.query_one("#run-reason")
        assert "Reason tags  2 Required set is wrong" in reason.render().plain  # type: ignore[union-attr]
        assert detail.scrollable_content_region.contains_region(reason.region)


async def test_a_blind_reviewer_sees_their_own_tags_in_the_detail(alice_done: Path) -> None:
    app = create_app(alice_done, reviewer="bob", blind=True, spot_check=SAMPLE)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.spot_check == SAMPLE, "the spot-check")
        await pilot.press("3")  # a tag, no label yet: the run stays hidden
        await wait_until(pilot, lambda: screen.review.my_tags(SAMPLED[0]), "bob's tag")
        await pilot.pause()
        detail = screen.query_one(RunDetail)
        reason = detail.query_one("#run-reason").render().plain  # type: ignore[union-attr]
        assert "Your tags  3" in reason and "Required set is wrong" not in reason  # alice's stays hidden
        labels = detail.query_one("#run-labels").render().plain  # type: ignore[union-attr]
        assert "Your tags" in labels


async def test_blind_spot_check_never_draws_a_run_outside_the_sample_while_loading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every table update, detail and summary the screen is asked for, from the first: the load
    of 3,000 runs announces its first 500 before the review is open (the old code drew them)."""
    path = with_spot_check(write_runs(tmp_path / "big.jsonl", 3000), [30, 300, 2400])
    label_as(path, "alice", {30: False, 300: False, 2400: True})
    tables: list[tuple[bool, list[int]]] = []
    details: list[int | None] = []
    counts: list[list[int]] = []
    show_rows, show_run, show_counts = RunTable.show_rows, RunDetail.show_run, StageSummary.show_counts

    def recorded_rows(self: RunTable, store: Any, review: Any, rows: Any, *args: Any, **kw: Any) -> None:
        tables.append((review is None, list(rows)))
        show_rows(self, store, review, rows, *args, **kw)

    def recorded_run(self: RunDetail, store: Any, review: Any, row: Any, *args: Any, **kw: Any) -> None:
        details.append(row)
        show_run(self, store, review, row, *args, **kw)

    def recorded_counts(self: StageSummary, shown: Any, *args: Any, **kw: Any) -> None:
        counts.append(list(shown))
        show_counts(self, shown, *args, **kw)

    monkeypatch.setattr(RunTable, "show_rows", recorded_rows)
    monkeypatch.setattr(RunDetail, "show_run", recorded_run)
    monkeypatch.setattr(StageSummary, "show_counts", recorded_counts)
    app = create_app(path, reviewer="bob", blind=True, spot_check=SAMPLE)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.spot_check == SAMPLE and details, "the spot-check")
    sample = {30, 300, 2400}
    assert tables and all(set(rows) <= sample for _, rows in tables), [rows[:5] for _, rows in tables]
    assert all(row is None or row in sample for row in details), details
    # No count of a stage the label decides (bob labelled nothing): they would tell the labels.
    assert counts and all(shown[code] == 0 for shown in counts for code in LABEL_STAGES), counts
