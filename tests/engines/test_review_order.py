"""A sort over a dataset in the review app, ordered by the engine with the review's labels,
tags and adjudications laid over it: for every column and both directions, the same runs in
the same order as the app's sort of one file of the same runs, over every run, a stage view
and a filter, before and after the review changes runs; in blind mode too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragdiag_tui.core.analysis.filtering import filter_rows, parse_query
from ragdiag_tui.core.analysis.sorting import ASCENDING, DESCENDING, SORT_COLUMNS, sort_rows
from ragdiag_tui.core.analysis.source_sorting import finish_order, plan_order, sort_few
from ragdiag_tui.core.analysis.source_views import filtered_rows, source_query, with_review
from ragdiag_tui.core.review.state import Review, open_review
from ragdiag_tui.core.runs.source_store import SourceStore
from ragdiag_tui.engines.dataset import open_dataset

from .conftest import write_jsonl, write_parquet

pytest.importorskip("duckdb")
from ragdiag_tui.engines.duckdb.review_rows import DatasetRows

DEMO = Path(__file__).resolve().parents[2] / "sample_runs" / "demo.jsonl"
EXTRA = ("question", "model")
ODD_RUNS = [
    {"id": "run-ÉTÉ", "question": "Wie groß ist die Straße?", "required": ["Doc-Ä"], "context": ["doc-b"]},
    {"id": "run-Ω", "question": "Ω first?", "required": ["a", "a", "b"], "context": ["a", "c", "c"]},
    {"id": "run-bad", "question": "invalid", "required": ["a"], "context": ["a", None], "correct": True},
    {"id": "run-open", "question": "", "required": [], "context": [], "correct": True},
    {"id": "Run-1", "required": ["x"], "context": ["x", "y"], "correct": False},
    {"id": "run-gap", "question": "no label", "required": ["a", "b"], "context": ["a"]},  # a label error
]
ODD_RUNS[0]["correct"] = True
VIEWS = [("all", ""), ("retrieval", ""), ("all", "pto"), ("unreviewed", "model:gpt")]


def lake_and_file(folder: Path, kind: str) -> tuple[Path, Path]:
    runs = [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines()]
    for at, run in enumerate(ODD_RUNS):
        runs.insert(7 + 11 * at, run)
    if kind == "jsonl":
        write_jsonl(folder / "lake" / "a.jsonl", runs[:40])
        write_jsonl(folder / "lake" / "b.jsonl", runs[40:])
        return folder / "lake", write_jsonl(folder / "one.jsonl", runs)
    write_parquet(folder / "lake" / "a.parquet", runs[:40], EXTRA)
    write_parquet(folder / "lake" / "b.parquet", runs[40:], EXTRA)
    return folder / "lake", write_parquet(folder / "one.parquet", runs, EXTRA)


def lake_rows(review: Review, view: str, text: str):
    store = review.store
    if not text and view == "all":
        return range(len(store))
    if not text and view != "unreviewed":
        return with_review(store, review, view, store.source.view_positions(view))  # type: ignore[attr-defined]
    query = source_query(store, review, view, parse_query(store, text))
    assert query is not None
    return filtered_rows(store, review, query, store.source.filter_positions(query))  # type: ignore[attr-defined]


def lake_order(review: Review, view: str, text: str, column: str, direction: int) -> list[str]:
    store = review.store
    rows = lake_rows(review, view, text)
    plan = plan_order(store, review, rows, column, direction)
    order = None if plan.request is None else store.source.order_positions(plan.request)  # type: ignore[attr-defined]
    return [store.ids[row] for row in finish_order(plan, order)]


def file_order(review: Review, view: str, text: str, column: str, direction: int) -> list[str]:
    rows = filter_rows(review.store, review, view, text)
    return [review.store.ids[row] for row in sort_rows(review.store, review, rows, column, direction)]


def assert_same_orders(on_lake: Review, in_file: Review, views=VIEWS) -> None:
    for view, text in views:
        for column in SORT_COLUMNS:
            for direction in (ASCENDING, DESCENDING):
                expected = file_order(in_file, view, text, column, direction)
                assert lake_order(on_lake, view, text, column, direction) == expected, (view, text, column)


def change_both(reviews: tuple[Review, ...]) -> None:
    """Labels that move runs between stages and lucky marks, a tag, a note, an adjudication."""
    for review in reviews:
        row_of = review.store.row_of
        review.set_label(row_of["run-0080"], True)  # a lucky answer now
        review.set_label(row_of["run-0002"], True)  # generation to pass
        review.set_label(row_of["run-ÉTÉ"], False)  # no longer lucky
        review.set_label(row_of["Run-1"], True)
        review.set_label(row_of["run-gap"], True)  # a label error now misses a document: lucky
        review.set_tags(row_of["run-0005"], ["wrong-doc"])  # tagged, not reviewed
        review.set_note(row_of["run-0009"], "look again")


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
def test_a_sort_over_a_lake_orders_the_runs_as_one_file_does(tmp_path: Path, kind: str) -> None:
    lake, one = lake_and_file(tmp_path, kind)
    store = SourceStore(DatasetRows(open_dataset([str(lake)])))
    assert store.read()
    on_lake = open_review(str(lake), store=store, reviewer="ann")
    in_file = open_review(one, reviewer="ann")
    assert_same_orders(on_lake, in_file)
    change_both((on_lake, in_file))
    assert_same_orders(on_lake, in_file)
    # Another reviewer disagrees on one run, then the lead settles it: "from" and the labels move.
    lake_store = SourceStore(DatasetRows(open_dataset([str(lake)])))
    for other, review in (
        (open_review(str(lake), store=lake_store, reviewer="bob"), on_lake),
        (open_review(one, reviewer="bob"), in_file),
    ):
        other.set_label(other.store.row_of["run-0080"], False)
        review.poll()
    assert in_file.is_conflict(in_file.store.row_of["run-0080"])
    assert_same_orders(on_lake, in_file)


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
def test_a_blind_reviewers_sort_over_a_lake_tells_what_one_files_tells(tmp_path: Path, kind: str) -> None:
    lake, one = lake_and_file(tmp_path, kind)
    store = SourceStore(DatasetRows(open_dataset([str(lake)])))
    assert store.read()
    on_lake = open_review(str(lake), store=store, reviewer="bob", blind=True)
    in_file = open_review(one, reviewer="bob", blind=True)
    for review in (on_lake, in_file):
        review.set_label(review.store.row_of["run-0003"], True)
        review.set_label(review.store.row_of["run-0040"], False)
    assert_same_orders(on_lake, in_file, [(view, text) for view, text in VIEWS if view != "retrieval"])


def test_a_spot_checks_few_runs_sort_without_ranking_the_dataset(tmp_path: Path) -> None:
    lake, one = lake_and_file(tmp_path, "parquet")
    store = SourceStore(DatasetRows(open_dataset([str(lake)])))
    assert store.read()
    on_lake = open_review(str(lake), store=store, reviewer="ann")
    in_file = open_review(one, reviewer="ann")
    rows = [3, 9, 12, 40, 41, 70]
    for column in SORT_COLUMNS:
        for direction in (ASCENDING, DESCENDING):
            expected = sort_rows(in_file.store, in_file, rows, column, direction)
            assert sort_few(store, on_lake, rows, column, direction) == expected, column


def test_a_lake_read_by_both_paths_orders_its_runs_together(tmp_path: Path, monkeypatch) -> None:
    """A Parquet file SQL cannot read exactly goes the exact path; its runs' keys and SQL's
    are ordered together."""
    from ragdiag_tui.engines.duckdb import schema

    field_sql = schema.field_sql

    def first_file_exact(path: Path, *args, **kwargs):
        if path.name == "a.parquet":
            raise schema.Unclean("read by the exact path in this test")
        return field_sql(path, *args, **kwargs)

    monkeypatch.setattr(schema, "field_sql", first_file_exact)
    lake, one = lake_and_file(tmp_path, "parquet")
    rows = DatasetRows(open_dataset([str(lake)]))
    assert [plan is None for plan in schema.plan(rows.ds.files, None, ())] == [True, False]
    store = SourceStore(rows)
    assert store.read()
    on_lake = open_review(str(lake), store=store, reviewer="ann")
    in_file = open_review(one, reviewer="ann")
    change_both((on_lake, in_file))
    assert_same_orders(on_lake, in_file)
