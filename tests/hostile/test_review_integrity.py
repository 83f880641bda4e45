"""A label belongs to the run it was given to, the journal written is the journal on
disk, and "reviewed" means one thing everywhere (issue 9: sections 3, 4 and 8)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.analysis.filtering import filter_rows
from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.ui.app import create_app
from ragdiag_tui.ui.screens.help import MARKS
from ragdiag_tui.ui.screens.stale import StaleEntries

from ..ui.helpers import record_notifications, screen_text, settled, table_lines, wait_until

SIZE = (120, 30)


def run(run_id: str, label: Any = True, **extra: Any) -> dict[str, Any]:
    return {"id": run_id, "required": ["D1"], "context": ["D1"], "correct": label, **extra}


def write(path: Path, runs: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(item) + "\n" for item in runs), encoding="utf-8")
    return path


def journal_lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in Path(journal_path(path)).read_text("utf-8").splitlines()]


@pytest.fixture
def changed_since(tmp_path: Path) -> Path:
    """Three runs labelled incorrect; then `b` is edited and a new run takes position 3."""
    path = write(tmp_path / "runs.jsonl", [run("a"), run("b"), run("c")])
    review = open_review(path, reviewer="alice")
    for row in range(3):
        review.set_label(row, False)
    review.journal.close()  # type: ignore[union-attr]
    write(path, [run("a"), run("b", question="edited since"), run("c", model="other")])
    return path


# -- 4. a label belongs to the run it was given to ---------------------------------------


def test_entries_of_changed_runs_are_never_applied_silently(changed_since: Path) -> None:
    review = open_review(changed_since, writable=False)
    assert [review.label(row) for row in range(3)] == [False, True, True]
    assert sorted(entry.run for entry in review.stale) == ["b", "c"]


def test_an_unnamed_run_replaced_at_its_position_does_not_inherit_the_label(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    unnamed = [{"required": ["D1"], "context": ["D1"], "correct": True, "q": n} for n in range(2)]
    write(path, unnamed)
    review = open_review(path, reviewer="alice")
    review.set_label(1, False)  # the run at position 2
    review.journal.close()  # type: ignore[union-attr]
    write(path, [unnamed[0], {**unnamed[1], "q": "another run"}])
    again = open_review(path, writable=False)
    assert again.label(1) is True and [entry.run for entry in again.stale] == ["2"]


def test_a_run_file_symlink_pointing_elsewhere_applies_none_of_the_old_labels(tmp_path: Path) -> None:
    first = write(tmp_path / "first.jsonl", [run("a"), run("b")])
    second = write(tmp_path / "second.jsonl", [run("a", model="x"), run("b", model="x")])
    link = tmp_path / "runs.jsonl"
    link.symlink_to(first)
    review = open_review(link, reviewer="alice")
    review.set_label(0, False)
    review.journal.close()  # type: ignore[union-attr]
    link.unlink()
    link.symlink_to(second)
    again = open_review(link, writable=False)
    assert again.label(0) is True and len(again.stale) == 1


def test_export_and_stats_leave_stale_entries_out_and_say_how_many(
    changed_since: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = changed_since.with_name("out.jsonl")
    assert main(["export", str(changed_since), "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert "2 journal entries left out" in err and "--apply-stale" in err
    assert "applied 1 label from" in err
    assert [row["correct"] for row in map(json.loads, out.read_text().splitlines())] == [False, True, True]

    assert main(["export", str(changed_since), "-o", str(out), "--apply-stale"]) == 0
    assert "2 journal entries applied although" in capsys.readouterr().err
    assert [row["correct"] for row in map(json.loads, out.read_text().splitlines())] == [False] * 3

    assert main(["stats", str(changed_since), "--json"]) == 0
    captured = capsys.readouterr()
    assert "2 journal entries left out" in captured.err
    assert json.loads(captured.out)["stages"]["generation"] == 1
    assert main(["stats", str(changed_since), "--json", "--apply-stale"]) == 0
    assert json.loads(capsys.readouterr().out)["stages"]["generation"] == 3


async def test_app_counts_stale_entries_and_lets_the_reviewer_reapply_or_drop_them(
    changed_since: Path,
) -> None:
    app = create_app(changed_since, reviewer="bob")
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        review = screen.review
        assert review is not None
        assert "stale 2" in screen_text(app)
        await pilot.press("S")
        await wait_until(pilot, lambda: isinstance(app.screen, StaleEntries), "the stale view")
        text = screen_text(app)
        assert "alice" in text and "incorrect" in text
        await pilot.press("a")  # b: re-applied to the run as it is now
        await wait_until(pilot, lambda: len(review.stale) == 1, "one entry re-applied")
        await pilot.press("d")  # c: dropped
        await wait_until(pilot, lambda: not review.stale, "the other dropped")
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, StaleEntries), "back")
        assert "stale" not in screen_text(app)
        assert [review.label(row) for row in range(3)] == [False, False, True]
    again = open_review(changed_since, writable=False)
    assert again.stale == [] and [again.label(row) for row in range(3)] == [False, False, True]


# -- 3. the journal written is the journal on disk ---------------------------------------


@pytest.mark.parametrize("how", ["rm", "sed -i"])
async def test_app_notices_a_deleted_or_replaced_journal_and_writes_the_review_anew(
    tmp_path: Path, how: str
) -> None:
    path = write(tmp_path / "runs.jsonl", [run(f"r{n}") for n in range(4)])
    journal = Path(journal_path(path))
    app = create_app(path, reviewer="tester")
    notes = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await pilot.press("n", "down", "n")
        await wait_until(pilot, lambda: journal.exists() and len(journal_lines(path)) == 2, "two labels")
        if how == "rm":
            journal.unlink()
        else:  # sed -i writes a new file and renames it over the old one
            replacement = tmp_path / "sed.tmp"
            replacement.write_text(journal.read_text("utf-8").replace('"label": false', '"label": true', 1))
            os.replace(replacement, journal)
        await pilot.press("down", "n")
        await wait_until(
            pilot, lambda: any("deleted or replaced" in message for message, _ in notes), "the notice"
        )
        assert "!" not in "".join(table_lines(pilot))  # nothing is marked unsaved
    again = open_review(path, writable=False)
    assert [again.label(row) for row in range(4)] == [False, False, False, True]


async def test_app_with_a_journal_that_links_to_the_run_file_never_writes_the_run_file(
    tmp_path: Path,
) -> None:
    path = write(tmp_path / "runs.jsonl", [run("a"), run("b")])
    before = path.read_bytes()
    os.symlink(path.name, journal_path(path))
    app = create_app(path, reviewer="tester")
    notes = record_notifications(app)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        assert any("it is the run file" in message for message, _ in notes)
        await pilot.press("n")
        await wait_until(
            pilot,
            lambda: any("NOT SAVED" in message or "not saved" in message for message, _ in notes),
            "refusal",
        )
    assert path.read_bytes() == before


# -- 8. one definition of reviewed ------------------------------------------------------------


async def test_a_run_with_only_a_note_is_not_reviewed_anywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "runs.jsonl", [run("noted"), run("labelled")])
    review = open_review(path, reviewer="tester")
    review.set_note(0, "only a note")
    review.set_label(1, False)
    review.journal.close()  # type: ignore[union-attr]
    again = open_review(path, reviewer="tester")
    assert again.reviewed == 1 and again.reviewed_rows() == [1]
    assert filter_rows(again.store, again, "reviewed") == [1]
    assert filter_rows(again.store, again, "unreviewed") == [0]
    out = tmp_path / "reviewed.jsonl"
    assert main(["export", str(path), "-o", str(out), "--reviewed-only"]) == 0
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["labelled"]
    assert "a note or tags alone are not a review" in dict((mark, text) for mark, _, text in MARKS)["✓"]
    again.journal.close()  # type: ignore[union-attr]
    app = create_app(path, reviewer="tester")
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        lines = table_lines(pilot)
        noted = next(line for line in lines if "noted" in line)
        labelled = next(line for line in lines if "labelled" in line)
        assert "✓" not in noted and "✎" in noted
        assert "✓" in labelled
