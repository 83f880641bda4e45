"""Views and text filters: which rows the table shows, in file order."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ragdiag_tui.core.analysis.filtering import VIEW_BY_NAME, VIEWS, filter_rows, view_rows
from ragdiag_tui.core.review.state import Review
from ragdiag_tui.core.runs.store import RunStore

WriteRuns = Callable[..., Path]

RUNS: list[Any] = [
    {"id": "R-gap", "question": "Where is the VPN guide?", "required": ["KB/vpn#2", "kb/vpn#3"],
     "context": ["KB/vpn#2"], "correct": False},
    {"id": "r-lucky", "question": "Refund window?", "required": ["billing-faq"], "context": ["pricing"],
     "correct": True},
    {"id": "gen-1", "question": "Who approves PTO?", "required": ["hr-012"], "context": ["hr-012"],
     "correct": False},
    {"id": "pass-1", "required": ["hr-012"], "context": ["hr-012", "Extra-Doc"], "correct": True},
    {"id": "unres", "question": "no required set", "required": [], "correct": True},
    {"id": "nolabel", "required": ["billing-faq"], "context": ["billing-faq"]},
    {"id": "broken-line", "required": ["hr-012"], "context": 5, "correct": True},
    {"id": "gap-2", "required": ["billing-faq", "kb/vpn#3"], "context": [], "correct": True},
    {"id": "pass-2", "question": "Who approves pto?", "required": ["hr-012"], "context": ["hr-012"],
     "correct": True},
]  # fmt: skip
GAP, LUCKY, GEN, PASS1, UNRES, NOLABEL, BROKEN, GAP2, PASS2 = range(9)


@pytest.fixture
def store(write_runs: WriteRuns) -> RunStore:
    return RunStore.load(write_runs(RUNS))


@pytest.fixture
def review(store: RunStore) -> Review:
    return Review(store, reviewer="alice")


# -- views -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("view", "rows"),
    [
        ("all", list(range(9))),
        ("retrieval", [GAP, LUCKY, GAP2]),
        ("generation", [GEN]),
        ("pass", [PASS1, PASS2]),
        ("unresolved", [UNRES]),
        ("answer-label", [NOLABEL]),
        ("invalid", [BROKEN]),
        ("lucky", [LUCKY, GAP2]),
        ("unreviewed", [GAP, LUCKY, GEN, PASS1, UNRES, NOLABEL, GAP2, PASS2]),
        ("reviewed", []),
    ],
)
def test_each_view_shows_its_rows_in_file_order(
    store: RunStore, review: Review, view: str, rows: list[int]
) -> None:
    assert view_rows(store, review, view) == rows
    assert filter_rows(store, review, view) == rows


def test_reviewed_and_unreviewed_views_follow_reviewer_labels(store: RunStore, review: Review) -> None:
    review.set_label(PASS2, False)
    review.set_label(GAP, True)
    review.set_note(GEN, "a note is not a review")
    assert filter_rows(store, review, "reviewed") == [GAP, PASS2]
    assert filter_rows(store, review, "unreviewed") == [LUCKY, GEN, PASS1, UNRES, NOLABEL, GAP2]


def test_stage_views_follow_relabelling(store: RunStore, review: Review) -> None:
    review.set_label(PASS2, False)
    review.set_label(NOLABEL, True)
    review.set_label(LUCKY, False)
    assert filter_rows(store, review, "generation") == [GEN, PASS2]
    assert filter_rows(store, review, "pass") == [PASS1, NOLABEL]
    assert filter_rows(store, review, "answer-label") == []
    # LUCKY, overturned, stays in the view (marked so in the app): issue 39.
    assert filter_rows(store, review, "lucky") == [LUCKY, GAP2]


def test_lucky_view_counts_reviewer_labels(store: RunStore, review: Review) -> None:
    review.set_label(GAP, True)
    assert filter_rows(store, review, "lucky") == [GAP, LUCKY, GAP2]
    assert len(filter_rows(store, review, "lucky")) == review.lucky


def test_every_declared_view_is_accepted_and_has_its_own_key(store: RunStore, review: Review) -> None:
    assert len({view.key for view in VIEWS}) == len(VIEWS)
    assert set(VIEW_BY_NAME) == {
        "all", "retrieval", "generation", "pass", "unresolved", "answer-label",
        "invalid", "lucky", "unreviewed", "reviewed", "conflicts",
    }  # fmt: skip
    for name in VIEW_BY_NAME:
        view_rows(store, review, name)


def test_unknown_view_is_refused(store: RunStore, review: Review) -> None:
    with pytest.raises(ValueError, match="unknown view"):
        filter_rows(store, review, "nonsense")


# -- text --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "rows"),
    [
        ("gen-1", [GEN]),  # id
        ("R-LUCKY", [LUCKY]),  # id, whatever the case
        ("r-gap", [GAP]),
        ("refund", [LUCKY]),  # question
        ("WHO APPROVES", [GEN, PASS2]),  # question, case-insensitive
        ("kb/VPN#3", [GAP, GAP2]),  # a required document
        ("extra-doc", [PASS1]),  # a supplied document
        ("pricing", [LUCKY]),  # a supplied document only
        ("billing", [LUCKY, NOLABEL, GAP2]),
        ("no such text", []),
    ],
)
def test_text_query_matches_id_question_and_document_ids_case_insensitively(
    store: RunStore, review: Review, query: str, rows: list[int]
) -> None:
    assert filter_rows(store, review, "all", query) == rows


def test_text_query_narrows_a_view(store: RunStore, review: Review) -> None:
    assert filter_rows(store, review, "retrieval", "billing") == [LUCKY, GAP2]
    assert filter_rows(store, review, "pass", "pto") == [PASS2]


def test_invalid_lines_are_found_by_their_id(store: RunStore, review: Review) -> None:
    assert filter_rows(store, review, "all", "broken-line") == [BROKEN]


def test_empty_query_filters_nothing(store: RunStore, review: Review) -> None:
    assert filter_rows(store, review, "all", "") == list(range(len(store)))


# -- missing document --------------------------------------------------------------------


def test_missing_doc_keeps_the_runs_that_miss_it(store: RunStore, review: Review) -> None:
    assert filter_rows(store, review, "all", missing_doc="kb/vpn#3") == [GAP, GAP2]
    assert filter_rows(store, review, "all", missing_doc="billing-faq") == [LUCKY, GAP2]
    # Exact, like the rule: another case of the same ID is another document.
    assert filter_rows(store, review, "all", missing_doc="KB/VPN#3") == []
    # Supplied is not missing.
    assert filter_rows(store, review, "all", missing_doc="KB/vpn#2") == []


def test_missing_doc_combines_with_view_and_query(store: RunStore, review: Review) -> None:
    assert filter_rows(store, review, "lucky", missing_doc="kb/vpn#3") == [GAP2]
    assert filter_rows(store, review, "all", "vpn guide", missing_doc="kb/vpn#3") == [GAP]


def test_missing_doc_follows_relabelling(store: RunStore, review: Review) -> None:
    review.set_label(NOLABEL, False)  # complete context: nothing missing either way
    assert filter_rows(store, review, "all", missing_doc="billing-faq") == [LUCKY, GAP2]


# -- narrowing ---------------------------------------------------------------------------


@pytest.mark.parametrize("view", list(VIEW_BY_NAME))
def test_narrowing_within_the_previous_result_equals_filtering_afresh(
    store: RunStore, review: Review, view: str
) -> None:
    review.set_label(GAP, True)
    for query in ("who approves pto", "kb/vpn#3", "r-lucky", "billing-faq"):
        previous = filter_rows(store, review, view, query[:1])
        for end in range(2, len(query) + 1):
            narrowed = filter_rows(store, review, view, query[:end], within=previous)
            assert narrowed == filter_rows(store, review, view, query[:end])
            previous = narrowed


DOCS = ["D1", "d1", "D10", "x"]


@st.composite
def generated_runs(draw: st.DrawFn) -> list[dict[str, Any]]:
    count = draw(st.integers(1, 12))
    return [
        {
            "id": f"run-{n}",
            "question": draw(st.sampled_from(["", "Why d1?", "What about X"])),
            "required": draw(st.lists(st.sampled_from(DOCS), max_size=3)),
            "context": draw(st.lists(st.sampled_from(DOCS), max_size=3)),
            "correct": draw(st.sampled_from([True, False, None])),
        }
        for n in range(count)
    ]


@settings(max_examples=60, deadline=None)
@given(
    runs=generated_runs(),
    view=st.sampled_from(list(VIEW_BY_NAME)),
    query=st.text(alphabet="dD1 0xwhy?", min_size=1, max_size=4),
    missing_doc=st.sampled_from([None, *DOCS]),
)
def test_filtering_is_the_conjunction_of_view_text_and_missing_doc(
    tmp_path_factory: pytest.TempPathFactory,
    runs: list[dict[str, Any]],
    view: str,
    query: str,
    missing_doc: str | None,
) -> None:
    import json

    path = tmp_path_factory.mktemp("runs") / "runs.jsonl"
    path.write_text("".join(json.dumps(run) + "\n" for run in runs), encoding="utf-8")
    store = RunStore.load(path)
    review = Review(store, reviewer="alice")
    in_view = set(view_rows(store, review, view))
    needle = query.casefold()
    expected = [
        row
        for row, run in enumerate(runs)
        if row in in_view
        and any(
            needle in text.casefold()
            for text in (run["id"], run["question"], *run["required"], *run["context"])
        )
        and (missing_doc is None or missing_doc in review.diagnosis(row).get("missing", ()))
    ]
    got = filter_rows(store, review, view, query, missing_doc=missing_doc)
    assert got == expected
    # Narrowing from a shorter query's result gives the same rows.
    shorter = filter_rows(store, review, view, query[:1], missing_doc=missing_doc)
    assert filter_rows(store, review, view, query, missing_doc=missing_doc, within=shorter) == expected
