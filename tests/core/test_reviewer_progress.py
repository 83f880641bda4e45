"""Unreviewed by me, and a spot-check's progress per reviewer (core.analysis.progress)."""

from __future__ import annotations

import json
from pathlib import Path

from ragdiag_tui.core.analysis.filtering import filter_rows
from ragdiag_tui.core.analysis.progress import ReviewerProgress, spot_check_progress, unreviewed_by_me
from ragdiag_tui.core.review.records import SpotCheck, utc_now
from ragdiag_tui.core.review.state import open_review


def write_runs(path: Path, n: int) -> None:
    runs = [{"id": f"r{i}", "required": ["D"], "context": ["D"], "correct": True} for i in range(n)]
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), "utf-8")


def labels(path: Path, reviewer: str, values: dict[int, bool], **options: bool) -> None:
    review = open_review(path, reviewer=reviewer, **options)
    for row, value in values.items():
        review.set_label(row, value)
    assert review.journal is not None
    review.journal.close()


def test_unreviewed_is_by_this_reviewer_whatever_others_labelled(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    write_runs(path, 4)
    labels(path, "alice", {0: True, 1: True})
    labels(path, "bob", {1: True, 2: False})
    alice, bob = open_review(path, reviewer="alice"), open_review(path, reviewer="bob")
    assert [row for row in range(4) if unreviewed_by_me(bob)(row)] == [0, 3]
    assert filter_rows(alice.store, alice, "unreviewed") == [2, 3]
    assert filter_rows(bob.store, bob, "all", "is:unreviewed") == [0, 3]
    assert filter_rows(bob.store, bob, "reviewed") == [0, 1, 2]  # reviewed: by anyone


def test_an_adjudicator_has_reviewed_the_runs_they_adjudicated(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    write_runs(path, 2)
    labels(path, "alice", {0: True})
    labels(path, "bob", {0: False})
    labels(path, "cy", {0: True}, adjudicator=True)
    cy = open_review(path, reviewer="cy", adjudicator=True)
    assert cy.adjudication(0) is not None
    assert [row for row in range(2) if unreviewed_by_me(cy)(row)] == [1]


def test_progress_is_per_reviewer_once_another_labelled_and_blind_tells_no_verdicts(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    write_runs(path, 5)
    review = open_review(path, reviewer="lead")
    review.add_spot_check(
        SpotCheck("s", "all", "", 1, 5, 5, tuple(f"r{i}" for i in range(5)), "lead", utc_now())
    )
    assert review.journal is not None
    review.journal.close()
    labels(path, "alice", {0: True, 1: False, 2: True})
    alice = open_review(path, reviewer="alice")
    assert spot_check_progress(alice, "s", list(range(5))).text() == "s: 3/5 reviewed · 2 held · 1 overturned"
    labels(path, "bob", {0: True})
    bob = open_review(path, reviewer="bob")
    assert spot_check_progress(bob, "s", list(range(5))).text() == (
        "s: mine 1/5 · team 3/5 · 2 held · 1 overturned"
    )
    blind = open_review(path, reviewer="bob", blind=True)
    assert spot_check_progress(blind, "s", list(range(5))) == ReviewerProgress(
        "s", 5, 1, 3, True, None, None, None
    )
    assert spot_check_progress(blind, "s", list(range(5))).text() == "s: mine 1/5 · team 3/5"


def test_progress_names_the_spot_check_as_visible_text() -> None:
    assert (
        ReviewerProgress("a\x1bb", 2, 0, 0, False, 0, 0, 0).text()
        == "a\\x1bb: 0/2 reviewed · 0 held · 0 overturned"
    )


def test_progress_counts_runs_in_conflict_apart_except_in_blind_mode(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    write_runs(path, 3)
    review = open_review(path, reviewer="lead")
    review.add_spot_check(SpotCheck("s", "all", "", 1, 3, 3, ("r0", "r1", "r2"), "lead", utc_now()))
    assert review.journal is not None
    review.journal.close()
    labels(path, "alice", {0: True, 1: False})
    labels(path, "bob", {0: False})
    bob = open_review(path, reviewer="bob")
    assert spot_check_progress(bob, "s", [0, 1, 2]).text() == (
        "s: mine 1/3 · team 2/3 · 0 held · 1 overturned · 1 in conflict"
    )
    blind = open_review(path, reviewer="bob", blind=True)
    assert spot_check_progress(blind, "s", [0, 1, 2]).text() == "s: mine 1/3 · team 2/3"


def test_progress_counts_each_run_of_the_file_once(tmp_path: Path) -> None:
    """Issue 22, item 12: repeated ids are one run; ids the file lacks are in no count."""
    path = tmp_path / "runs.jsonl"
    write_runs(path, 4)
    review = open_review(path, reviewer="alice")
    ids = ("r0", "r0", "r0", "r1", "gone")
    review.add_spot_check(SpotCheck("dup", "all", "", 1, 4, len(ids), ids, "alice", utc_now()))
    review.set_label(0, False)
    rows = [0, 1]
    progress = spot_check_progress(review, "dup", rows)
    assert (progress.size, progress.mine, progress.team) == (2, 1, 1)
    assert progress.text() == "dup: 1/2 reviewed · 0 held · 1 overturned"
