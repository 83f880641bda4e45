"""The conflicts view, and what blind mode lets the views and counts tell."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.core.analysis.blind import shown_counts
from ragdiag_tui.core.analysis.filtering import filter_rows, row_matches
from ragdiag_tui.core.analysis.sorting import ASCENDING, DESCENDING, sort_rows
from ragdiag_tui.core.review.state import Review, open_review
from ragdiag_tui.core.runs.stages import S_GENERATION, S_PASS, S_RETRIEVAL, S_UNRESOLVED

RUNS: list[Any] = [
    {"id": "gap", "required": ["D1", "D2"], "context": ["D1"], "correct": True},  # lucky by the file
    {"id": "gen", "required": ["D1"], "context": ["D1"], "correct": False},
    {"id": "pass", "required": ["D1"], "context": ["D1"], "correct": True},
    {"id": "bare", "required": [], "context": ["D1"], "correct": True},  # unresolved
]
GAP, GEN, PASS, BARE = range(4)


@pytest.fixture
def run_file(write_runs: Callable[..., Path]) -> Path:
    path = write_runs(RUNS)
    for name, labels in (("ann", {GEN: True, PASS: True}), ("bo", {GEN: False, PASS: True})):
        review = open_review(path, reviewer=name)
        for row, label in labels.items():
            review.set_label(row, label)
        assert review.journal is not None
        review.journal.close()
    return path


def test_the_conflicts_view_lists_runs_whose_reviewers_disagree(run_file: Path) -> None:
    review = open_review(run_file, reviewer="cy")
    assert filter_rows(review.store, review, "conflicts") == [GEN]
    assert row_matches(review.store, review, GEN, "conflicts")
    assert not row_matches(review.store, review, PASS, "conflicts")
    review.adjudicate(GEN, True)
    assert filter_rows(review.store, review, "conflicts") == []
    assert not row_matches(review.store, review, GEN, "conflicts")


def test_counts_outside_blind_mode_are_the_reviews(run_file: Path) -> None:
    review = open_review(run_file, reviewer="cy")
    shown = shown_counts(review)
    assert (shown.counts, shown.lucky, shown.conflicts, shown.hidden) == (review.counts, 1, 1, None)


def blind(run_file: Path, reviewer: str) -> Review:
    return open_review(run_file, reviewer=reviewer, blind=True)


def test_blind_views_that_tell_a_label_list_only_runs_this_reviewer_labelled(run_file: Path) -> None:
    review = blind(run_file, "cy")
    store = review.store
    for view in ("retrieval", "generation", "pass", "lucky", "conflicts"):
        assert filter_rows(store, review, view) == [], view
    assert filter_rows(store, review, "unresolved") == [BARE]  # tells no label
    assert filter_rows(store, review, "all") == [GAP, GEN, PASS, BARE]
    review.set_label(GAP, True)
    assert filter_rows(store, review, "lucky") == [GAP]
    assert row_matches(store, review, GAP, "retrieval")
    assert not row_matches(store, review, PASS, "pass")


def test_blind_counts_only_the_labelled_runs_and_say_how_many_are_hidden(run_file: Path) -> None:
    review = blind(run_file, "ann")  # ann labelled GEN (in conflict with bo) and PASS
    shown = shown_counts(review)
    assert shown.counts[S_UNRESOLVED] == 1  # unresolved tells no label: always counted
    assert shown.counts[S_RETRIEVAL] == 0 and shown.lucky == 0  # GAP is hidden from ann
    assert shown.counts[S_PASS] == 1 and shown.counts[S_GENERATION] == 1  # PASS; GEN by the file
    assert shown.conflicts == 1
    assert shown.hidden == 1
    assert sum(shown.counts) + shown.hidden == len(review.store)


def test_blind_sorting_by_a_telling_column_keeps_unlabelled_runs_in_file_order(run_file: Path) -> None:
    review = blind(run_file, "cy")
    store = review.store
    rows = list(range(len(store)))
    for column in ("stage", "label", "from", "missing", "lucky"):
        for direction in (ASCENDING, DESCENDING):
            assert sort_rows(store, review, rows, column, direction) == rows, (column, direction)
    review.set_label(PASS, False)  # cy's own: now told, and sorted among the told
    assert sort_rows(store, review, rows, "label", ASCENDING) == [PASS, GAP, GEN, BARE]


def test_sorting_by_source_puts_adjudicated_then_agreed_then_conflicts_then_the_file(run_file: Path) -> None:
    review = open_review(run_file, reviewer="cy")
    review.adjudicate(PASS, True)  # PASS: adjudication; GEN: conflict; GAP, BARE: the file's
    assert [review.label_source(row) for row in (PASS, GEN, GAP)] == ["adjudication", "conflict", "file"]
    review.set_label(BARE, True)  # cy alone: a reviewer label
    order = sort_rows(review.store, review, range(4), "from", ASCENDING)
    assert order == [PASS, BARE, GEN, GAP]


def test_blind_toggle_starts_from_none_not_from_the_hidden_label(run_file: Path) -> None:
    review = blind(run_file, "cy")
    review.toggle_label(GEN)  # in force: the file's false (ann and bo disagree)
    assert review.my_label(GEN) is True  # none -> correct, whatever was hidden
    review.toggle_label(GEN)
    assert review.my_label(GEN) is False


def test_blind_filter_on_the_label_field_finds_only_labelled_runs(run_file: Path) -> None:
    review = blind(run_file, "cy")
    store = review.store
    assert filter_rows(store, review, "all", "correct:true") == []  # the file's labels stay hidden
    assert filter_rows(store, review, "all", "id:gap") == [GAP]  # other fields filter as ever
    review.set_label(GAP, False)
    assert filter_rows(store, review, "all", "correct:true") == [GAP]  # told now: the file says true
    seeing = open_review(run_file, reviewer="cy")
    assert filter_rows(seeing.store, seeing, "all", "correct:true") == [GAP, PASS, BARE]
