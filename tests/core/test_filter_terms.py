"""Terms in the filter text: `is:VIEW` combines views, `FIELD:VALUE` filters on a run's own fields."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from ragdiag_tui.core.analysis.filtering import (
    field_values,
    filter_rows,
    narrows,
    parse_query,
    row_matches,
)
from ragdiag_tui.core.review.state import Review
from ragdiag_tui.core.runs.store import RunStore

WriteRuns = Callable[..., Path]

RUNS: list[Any] = [
    {"id": "a", "model": "gpt-4o", "source": "eval-2026-11", "required": ["D1"], "context": [],
     "correct": True},
    {"id": "b", "model": "gpt-4o-mini", "source": "eval-2026-10", "required": ["D1"], "context": ["D1"],
     "correct": True},
    {"id": "c", "model": "GPT-4o", "required": ["D2"], "context": ["D1"], "correct": True, "score": 3},
    {"id": "doc:12", "source": "eval 2026 12", "required": ["D1"], "context": ["D1"], "correct": False},
    {"id": "e", "model": "gpt-4o", "required": ["D9"], "context": [], "correct": True, "score": 2.5},
    {"id": "f", "required": ["D1"], "context": 5, "correct": True},
]  # fmt: skip
A, B, C, DOC12, E, BROKEN = range(6)


@pytest.fixture
def store(write_runs: WriteRuns) -> RunStore:
    return RunStore.load(write_runs(RUNS))


@pytest.fixture
def review(store: RunStore) -> Review:
    return Review(store, reviewer="alice")


def test_field_term_matches_part_of_a_top_level_value_whatever_the_case(store, review) -> None:
    assert filter_rows(store, review, "all", "model:gpt-4o") == [A, B, C, E]
    assert filter_rows(store, review, "all", "model:mini") == [B]
    assert filter_rows(store, review, "all", "source:eval-2026-11") == [A]


def test_field_term_with_equals_matches_the_whole_value(store, review) -> None:
    assert filter_rows(store, review, "all", "model:=gpt-4o") == [A, C, E]


def test_field_term_without_a_value_keeps_runs_that_have_the_field(store, review) -> None:
    assert filter_rows(store, review, "all", "source:") == [A, B, DOC12]


def test_quoted_value_may_hold_spaces(store, review) -> None:
    assert filter_rows(store, review, "all", 'source:"eval 2026"') == [DOC12]


def test_non_string_values_match_as_their_json(store, review) -> None:
    assert filter_rows(store, review, "all", "score:=3") == [C]
    assert filter_rows(store, review, "all", "score:2.5") == [E]


def test_a_run_with_nan_in_another_field_is_matched_by_its_fields(write_runs: WriteRuns) -> None:
    line = '{"id": "n", "model": "gpt-4o", "required": ["D9"], "context": [], "correct": true, "score": NaN}'
    store = RunStore.load(write_runs([line, RUNS[0]]))
    if not store.is_valid(0):
        pytest.skip("this loader still refuses NaN outside the rule's fields")
    review = Review(store, reviewer="alice")
    assert filter_rows(store, review, "all", "score:nan") == [0]  # msgspec refuses NaN: the careful decoder
    assert filter_rows(store, review, "all", "model:=gpt-4o") == [0, 1]


def test_a_name_that_is_no_field_stays_plain_text(store, review) -> None:
    assert parse_query(store, "doc:12").text == "doc:12"
    assert filter_rows(store, review, "all", "doc:12") == [DOC12]


def test_views_combine_with_is_terms(store, review) -> None:
    assert filter_rows(store, review, "lucky") == [A, C, E]
    review.set_label(C, True)
    assert filter_rows(store, review, "lucky", "is:unreviewed") == [A, E]
    assert filter_rows(store, review, "all", "is:lucky is:reviewed") == [C]
    assert filter_rows(store, review, "lucky", "is:unreviewed model:=gpt-4o") == [A, E]


def test_terms_combine_with_plain_text(store, review) -> None:
    assert filter_rows(store, review, "all", "model:gpt D2") == [C]
    assert filter_rows(store, review, "all", "D1 model:gpt-4o") == [A, B, C]  # C was supplied D1


def test_unknown_view_name_in_is_term_stays_text(store, review) -> None:
    assert parse_query(store, "is:nonsense").views == ()
    assert filter_rows(store, review, "all", "is:nonsense") == []


def test_row_matches_agrees_with_filter_rows(store, review) -> None:
    review.set_label(A, False)
    for query in ("model:gpt-4o", "is:unreviewed", "is:lucky model:=gpt-4o", "source:eval d1", "doc:12"):
        for view in ("all", "lucky", "retrieval"):
            rows = filter_rows(store, review, view, query)
            assert [row for row in range(len(store)) if row_matches(store, review, row, view, query)] == rows


def test_field_values_are_read_once_and_kept(store) -> None:
    first = field_values(store, "model")
    assert first[A] == "gpt-4o" and first[DOC12] is None and first[BROKEN] is None
    assert field_values(store, "model") is first


def test_narrowing_is_only_for_plain_text() -> None:
    assert narrows("ab", "abc")
    assert not narrows("model", "model:")
    assert not narrows("model:g", "model:gp")
    assert not narrows("", "a")


def test_tag_term_keeps_runs_a_reviewer_gave_that_reason(store, review) -> None:
    review.set_label(A, False)
    review.toggle_tag(A, "answer-wrong")
    review.toggle_tag(C, "model-knowledge")
    assert filter_rows(store, review, "all", "tag:answer-wrong") == [A]
    assert filter_rows(store, review, "all", "tag:MODEL-knowledge") == [C]
    assert filter_rows(store, review, "lucky", "tag:model-knowledge is:unreviewed") == [C]
    assert filter_rows(store, review, "all", "tag:nobody-used-it") == []
    assert [
        row for row in range(len(store)) if row_matches(store, review, row, "all", "tag:answer-wrong")
    ] == [A]


# A field's text is one thing: the filter matches what the detail shows and export writes.

SAME_SCORE = [
    '{"id": "plain", "score": 0.90, "meta": {"k":1,"j":[1,2]}, "required": ["D1"], "context": ["D1"]}',
    '{"id": "nan", "score": 0.90, "meta": {"k": 1, "j": [1, 2]}, "latency": NaN, "required": ["D1"],'
    ' "context": ["D1"]}',
]


def test_exact_term_matches_identical_values_whatever_else_the_run_holds(write_runs) -> None:
    store = RunStore.load(write_runs(SAME_SCORE))
    review = Review(store, reviewer="alice")
    assert filter_rows(store, review, "all", "score:=0.90") == [0, 1]
    assert filter_rows(store, review, "all", "score:=0.9") == [0, 1]
    assert filter_rows(store, review, "all", 'meta:={"k": 1, "j": [1, 2]}'.replace(" ", "")) == []
    assert field_values(store, "meta")[0] == field_values(store, "meta")[1]


def test_filter_detail_and_export_give_a_field_the_same_text(write_runs, tmp_path) -> None:
    from ragdiag_tui.core.common.jsonutil import decode_exact, field_text
    from ragdiag_tui.core.output.export import csv_cell

    store = RunStore.load(write_runs(SAME_SCORE))
    for row in (0, 1):
        run = decode_exact(store.raw_text(row).decode())
        for name in ("score", "meta"):
            assert field_values(store, name)[row] == field_text(run[name]).casefold() == csv_cell(run[name])
