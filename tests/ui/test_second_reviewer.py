"""A second reviewer works through the same spot-check: *unreviewed* is by this reviewer
(`]`, `[`, where a spot-check opens, the move after a label, the U view), the progress is
shown per reviewer, and blind mode tells nothing of another reviewer's verdict."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from ragdiag_tui.core.analysis.sorting import ASCENDING, DESCENDING
from ragdiag_tui.core.review.records import SpotCheck, utc_now
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.spot_check_list import SpotCheckList

from .helpers import SIZE, detail_text, loaded, screen_text, table, table_lines, wait_until

RUNS = 30
SAMPLE = "wk48"


@pytest.fixture
def check_path(tmp_path: Path) -> Path:
    """30 runs, each with its evidence, half labelled correct in the file, all in spot-check wk48."""
    path = tmp_path / "runs.jsonl"
    runs = [
        {
            "id": f"run-{n:02}",
            "question": f"Question {n}?",
            "required": ["D1"],
            "context": ["D1"],
            "correct": n % 2 == 0,
        }
        for n in range(RUNS)
    ]
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), "utf-8")
    review = open_review(path, reviewer="lead")
    ids = tuple(run["id"] for run in runs)
    review.add_spot_check(SpotCheck(SAMPLE, "all", "", 7, RUNS, RUNS, ids, "lead", utc_now()))
    assert review.journal is not None
    review.journal.close()
    return path


def label_as(
    path: Path, reviewer: str, labels: dict[int, bool], tags: dict[int, list[str]] | None = None
) -> None:
    """`reviewer` labels rows through the core, as another app would."""
    review = open_review(path, reviewer=reviewer)
    for row, label in labels.items():
        review.set_label(row, label)
    for row, keys in (tags or {}).items():
        review.set_tags(row, keys)
    assert review.journal is not None
    review.journal.close()


async def test_two_reviewers_one_blind_each_finish_the_spot_check_with_label_and_tag_keys_alone(
    check_path: Path,
) -> None:
    # alice, not blind: labels every run "correct" (overturning the file on the odd rows), tags some
    app = create_app(check_path, reviewer="alice", spot_check=SAMPLE)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.spot_check == SAMPLE, "the spot-check")
        for n in range(RUNS):
            assert table(pilot).cursor_row == n
            if n % 3 == 0:
                await pilot.press("1")  # a reason tag
            await pilot.press("y")
        assert f"{SAMPLE}: {RUNS}/{RUNS} reviewed · 15 held · 15 overturned" in screen_text(app)
    # bob, blind: starts on the first run HE has not labelled, though alice labelled them all
    app = create_app(check_path, reviewer="bob", spot_check=SAMPLE, blind=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.spot_check == SAMPLE, "the spot-check")
        for n in range(RUNS):
            assert table(pilot).cursor_row == n, "bob is led through every run of the sample"
            shown = screen_text(app)
            assert f"{SAMPLE}: mine {n}/{RUNS} · team {RUNS}/{RUNS}" in shown
            assert "held" not in shown and "overturned" not in shown
            conflicts = re.search(r"conflicts (\d+)", shown)  # only among the runs bob labelled
            assert int(conflicts.group(1)) <= n if conflicts else True
            line = next(line for line in table_lines(pilot) if f"run-{n:02}" in line)
            assert "hidden" in line and "correct" not in line  # neither alice's label nor the file's
            assert "alice" not in detail_text(app) and "hidden until you label" in detail_text(app)
            await pilot.press("n" if n % 2 == 0 else "y")  # bob agrees with the file throughout
        assert screen.review is not None
        assert all(screen.review.my_label(row) is not None for row in range(RUNS))
        assert f"{SAMPLE}: mine {RUNS}/{RUNS} · team {RUNS}/{RUNS}" in screen_text(app)


async def test_the_second_reviewer_opens_on_the_first_run_they_have_not_labelled(check_path: Path) -> None:
    label_as(check_path, "alice", {row: True for row in range(10)})
    label_as(check_path, "bob", {0: True, 1: False})
    app = create_app(check_path, reviewer="bob", spot_check=SAMPLE)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.spot_check == SAMPLE, "the spot-check")
        assert table(pilot).cursor_row == 2  # not 10, the first run nobody labelled
        assert f"{SAMPLE}: mine 2/{RUNS} · team 10/{RUNS} · " in screen_text(app)


async def test_brackets_jump_to_runs_only_another_reviewer_labelled(check_path: Path) -> None:
    label_as(check_path, "alice", {row: True for row in range(RUNS)})
    label_as(check_path, "bob", {1: True, 2: True})
    app = create_app(check_path, reviewer="bob")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        assert table(pilot).cursor_row == 0
        await pilot.press("]")
        assert table(pilot).cursor_row == 3  # 1 and 2 are bob's; alice's labels do not count
        await pilot.press("[")
        assert table(pilot).cursor_row == 0


async def test_a_label_moves_on_to_the_next_run_this_reviewer_has_not_labelled(check_path: Path) -> None:
    label_as(check_path, "alice", {row: True for row in range(RUNS)})
    label_as(check_path, "bob", {1: True})
    app = create_app(check_path, reviewer="bob", spot_check=SAMPLE)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await wait_until(pilot, lambda: screen.spot_check == SAMPLE, "the spot-check")
        assert table(pilot).cursor_row == 0
        await pilot.press("y")
        assert table(pilot).cursor_row == 2  # past bob's own run 1, onto one alice labelled


async def test_u_lists_the_runs_this_reviewer_has_not_labelled(check_path: Path) -> None:
    label_as(check_path, "alice", {row: True for row in range(20)})
    label_as(check_path, "bob", {row: True for row in range(5)})
    app = create_app(check_path, reviewer="bob")
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("U")
        assert list(screen.rows) == list(range(5, RUNS))


async def test_blind_spot_check_list_and_summary_tell_no_held_or_overturned(check_path: Path) -> None:
    label_as(check_path, "alice", {row: False for row in range(RUNS)})
    app = create_app(check_path, reviewer="bob", blind=True)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("K")
        await wait_until(pilot, lambda: isinstance(app.screen, SpotCheckList), "the spot-check list")
        shown = screen_text(app)
        assert f"{SAMPLE}: mine 0/{RUNS} · team {RUNS}/{RUNS}" in shown
        assert "held" not in shown and "overturned" not in shown


async def test_blind_tag_filter_finds_no_run_by_another_reviewers_tags(check_path: Path) -> None:
    label_as(check_path, "alice", {5: False, 9: False}, tags={5: ["wrong-doc"], 9: ["wrong-doc"]})
    app = create_app(check_path, reviewer="bob", blind=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        await pilot.press("slash", *"tag:wrong-doc", "enter")
        await wait_until(pilot, lambda: screen.search == "tag:wrong-doc", "the filter")
        assert list(screen.rows) == []


async def test_blind_sort_by_tags_or_reviewed_keeps_runs_not_labelled_in_file_order(check_path: Path) -> None:
    label_as(check_path, "alice", {5: False, 9: False}, tags={5: ["wrong-doc"], 9: ["wrong-doc"]})
    app = create_app(check_path, reviewer="bob", blind=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = await loaded(pilot)
        for column in ("tags", "reviewed"):
            for direction in (ASCENDING, DESCENDING):
                screen.navigation.sort_by(column, direction)
                assert list(screen.rows) == list(range(RUNS)), (column, direction)
