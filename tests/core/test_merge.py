"""`ragdiag-tui merge FILE JOURNAL...` and the export of every reviewer's label."""

from __future__ import annotations

import csv
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.cli import main
from ragdiag_tui.core.review.journal import journal_path
from ragdiag_tui.core.review.merge import MergeResult
from ragdiag_tui.core.review.state import open_review

WriteRuns = Callable[..., Path]
RUNS: list[Any] = [
    {"id": "a", "required": ["D1"], "context": ["D1"], "correct": True},
    {"id": "b", "required": ["D1"], "context": ["D1"], "correct": True},
    {"id": "c", "required": ["D1", "D2"], "context": ["D1"], "correct": True},
]


@pytest.fixture
def mine(write_runs: WriteRuns) -> Path:
    return write_runs(RUNS)


def colleague_copy(mine: Path, name: str, labels: dict[int, bool], runs: list[Any] | None = None) -> Path:
    """A colleague's copy of the run file (or of `runs`), reviewed by `name`; returns their journal."""
    folder = mine.parent / name
    folder.mkdir()
    copy = folder / mine.name
    if runs is None:
        shutil.copy(mine, copy)
    else:
        copy.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    review = open_review(copy, reviewer=name)
    for row, label in labels.items():
        review.set_label(row, label)
    review.journal.close()  # type: ignore[union-attr]
    return Path(journal_path(copy))


def test_merge_keeps_every_reviewer_and_writes_identical_entries_once(
    mine: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mine_review = open_review(mine, reviewer="alice")
    mine_review.set_label(0, False)
    mine_review.journal.close()  # type: ignore[union-attr]
    bob = colleague_copy(mine, "bob", {0: True, 1: False})
    assert main(["merge", str(mine), str(bob)]) == 0
    assert "2 entries added" in capsys.readouterr().err
    size = Path(journal_path(mine)).stat().st_size
    assert main(["merge", str(mine), str(bob)]) == 0  # again: nothing new
    err = capsys.readouterr().err
    assert "0 entries added" in err and "2 already there" in err
    assert Path(journal_path(mine)).stat().st_size == size
    review = open_review(mine, writable=False)
    assert sorted(review.reviewers(0)) == ["alice", "bob"]
    assert review.is_conflict(0) and review.label_source(0) == "conflict"
    assert review.label(1) is False and review.reviewers(1)["bob"].label is False


def test_merge_of_entries_made_on_changed_runs_holds_them_stale_and_exits_1(
    mine: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    older = [dict(run, question="an older text") if run["id"] == "b" else run for run in RUNS]
    bob = colleague_copy(mine, "bob", {0: False, 1: False}, runs=older)
    assert main(["merge", str(mine), str(bob)]) == 1
    err = capsys.readouterr().err
    assert "1 made on a run that has changed since" in err
    review = open_review(mine, writable=False)
    assert review.label(0) is False
    assert review.label(1) is True  # the file's: never applied silently
    assert [entry.run for entry in review.stale] == ["b"]


def test_merge_reports_unreadable_journals_and_lines_and_exits_1(
    mine: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bob = colleague_copy(mine, "bob", {2: False})
    with bob.open("a", encoding="utf-8") as handle:
        handle.write('{"run": 5}\n')
    missing = mine.parent / "nowhere.review.jsonl"
    assert main(["merge", str(mine), str(missing), str(bob), str(mine)]) == 1
    err = capsys.readouterr().err
    assert "nowhere.review.jsonl: cannot read" in err
    assert "line 2: skipped" in err
    assert "it is the run file" in err
    assert "1 entry added" in err
    assert "3 journals or lines unreadable" in err
    assert open_review(mine, writable=False).label(2) is False


def test_merge_summary_says_each_count_in_the_singular_or_the_plural() -> None:
    one = MergeResult(added=1, duplicates=1, stale=1, orphans=1, unreadable=["x"])
    assert one.summary("J") == (
        "1 entry added to J; 1 already there; "
        "1 made on a run that has changed since (held aside as stale, not applied: "
        "re-apply or drop it in the app); "
        "1 naming a run not in this file (kept, not applied); "
        "1 journal or line unreadable"
    )
    two = MergeResult(added=2, duplicates=2, stale=2, orphans=2, unreadable=["x", "y"])
    assert two.summary("J") == (
        "2 entries added to J; 2 already there; "
        "2 made on runs that have changed since (held aside as stale, not applied: "
        "re-apply or drop them in the app); "
        "2 naming runs not in this file (kept, not applied); "
        "2 journals or lines unreadable"
    )
    assert MergeResult().summary("J") == "0 entries added to J; 0 already there"


def test_merge_into_an_unwritable_journal_exits_2(mine: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bob = colleague_copy(mine, "bob", {0: False})
    folder = mine.parent / "missing-folder" / "j.review.jsonl"
    assert main(["merge", str(mine), str(bob), "--journal", str(folder)]) == 2
    assert "missing-folder" in capsys.readouterr().err


# -- export: every reviewer's label, tags and note -------------------------------------------


def test_export_lists_each_reviewers_label_tags_note_and_time(
    mine: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    review = open_review(mine, reviewer="alice")
    review.set_label(2, False)
    review.set_tags(2, ["answer-wrong"])
    review.set_note(2, "the answer cites D9")
    review.journal.close()  # type: ignore[union-attr]
    bob = colleague_copy(mine, "bob", {2: True})
    assert main(["merge", str(mine), str(bob)]) == 0
    out = mine.with_name("out.jsonl")
    assert main(["export", str(mine), "-o", str(out)]) == 0
    assert "1 runs in conflict" in capsys.readouterr().err
    run = [json.loads(line) for line in out.read_text("utf-8").splitlines()][2]
    assert run["label_source"] == "conflict" and run["correct"] is True  # the file's label
    assert run["tags"] == []  # alice's tag explains a label that is not in force: only in "reviewers"
    assert [(r["reviewer"], r["label"], r["tags"], r["note"]) for r in run["reviewers"]] == [
        ("alice", False, ["answer-wrong"], "the answer cites D9"),
        ("bob", True, [], None),
    ]
    assert all(r["at"].endswith("Z") for r in run["reviewers"])
    csv_out = mine.with_name("out.csv")
    assert main(["export", str(mine), "-o", str(csv_out)]) == 0
    rows = list(csv.DictReader(csv_out.open(encoding="utf-8")))
    assert rows[2]["tags"] == ""  # no settled label: no tag
    assert [r["reviewer"] for r in json.loads(rows[2]["reviewers"])] == ["alice", "bob"]
    assert rows[0]["tags"] == ""


def test_stats_and_export_say_what_the_journal_gave_and_no_journal_ignores_it(
    mine: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    review = open_review(mine, reviewer="alice")
    review.set_label(0, False)
    review.set_label(1, False)
    review.journal.close()  # type: ignore[union-attr]
    assert main(["stats", str(mine), "--json"]) == 0
    captured = capsys.readouterr()
    assert f"applied 2 labels from {journal_path(mine)}" in captured.err
    assert json.loads(captured.out)["stages"]["generation"] == 2
    assert main(["stats", str(mine), "--json", "--no-journal"]) == 0
    captured = capsys.readouterr()
    assert "--no-journal" in captured.err
    assert json.loads(captured.out)["stages"]["generation"] == 0


def test_diagnose_help_says_it_is_the_pure_rule(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["diagnose", "--help"])
    assert "review journal is not applied" in capsys.readouterr().out


# -- last writer by time (issue 22, item 9) -----------------------------------------------------


def _journal_line(run: str, label: bool, note: str, reviewer: str, at: str, run_digest: str = "") -> str:
    record = {"v": 1, "run": run, "label": label, "note": note, "tags": [], "reviewer": reviewer, "at": at}
    return json.dumps({**record, "digest": run_digest}) + "\n"


def test_merging_an_older_journal_of_the_same_reviewer_puts_nothing_older_back_in_force(
    mine: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One person on two machines: the older verdict, merged after the newer one, stays out of force."""
    here = open_review(mine, reviewer="root")
    here.set_label(0, False)
    here.set_note(0, "newer")
    here.journal.close()  # type: ignore[union-attr]
    old = mine.parent / "old.review.jsonl"
    old.write_text(
        _journal_line("a", True, "older", "root", "2020-01-01T00:00:00Z")
        + _journal_line("b", False, "only there", "root", "2020-01-01T00:00:00Z"),
        encoding="utf-8",
    )
    assert main(["merge", str(mine), str(old)]) == 0
    err = capsys.readouterr().err
    assert "2 entries added" in err
    assert "1 record older than what its reviewer already had" in err
    review = open_review(mine, writable=False)
    assert review.reviewers(0)["root"].label is False and review.reviewers(0)["root"].note == "newer"
    assert review.label(0) is False
    assert review.label(1) is False  # a record with nothing newer is in force as before


def test_merge_summary_counts_older_records() -> None:
    assert "1 record older than what its reviewer already had" in MergeResult(older=1).summary("x")
    assert "2 records older than what their reviewer already had" in MergeResult(older=2).summary("x")
    assert "older" not in MergeResult().summary("x")
