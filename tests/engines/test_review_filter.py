"""A filter over a dataset in the review app (`/` text, FIELD:VALUE and is: terms, with a
view) found by the engine: the same runs in the same order as the app's local filter over
one file of the same runs, before and after labels change their views."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragdiag_tui.core.analysis.filtering import filter_rows, parse_query
from ragdiag_tui.core.analysis.source_views import filtered_rows, source_query
from ragdiag_tui.core.review.state import Review, open_review
from ragdiag_tui.core.runs.source_store import SourceStore
from ragdiag_tui.engines.dataset import open_dataset

from .conftest import write_jsonl, write_parquet

pytest.importorskip("duckdb")
from ragdiag_tui.engines.duckdb.review_rows import DatasetRows

DEMO = Path(__file__).resolve().parents[2] / "sample_runs" / "demo.jsonl"
EXTRA = ("question", "model", "source")
ODD = {  # non-ASCII text, folded as Python folds it (ß is ss)
    "id": "run-ÉTÉ",
    "question": "Wie groß ist die Straße?",
    "model": "Modèle-Ω",
    "source": "eval",
    "required": ["Doc-Ä"],
    "context": ["doc-b"],
    "correct": True,
}
FILTERS = [
    ("all", "pto"),
    ("all", "HR-POLICY-014"),
    ("all", "STRASSE"),
    ("all", "model:MODÈLE-ω"),
    ("all", "model:GPT-4O"),
    ("all", "model:=gpt-4o-mini pto"),
    ("retrieval", "model:llama"),
    ("all", "is:lucky"),
    ("all", "run-00 is:generation"),
    ("lucky", "hr"),
    ("unreviewed", ""),
    ("unreviewed", "model:gpt"),
    ("generation", "source:"),
    ("pass", "nothing-matches-this"),
    ("all", "doc:12"),  # not a field: plain text
]


def lake_and_file(folder: Path, kind: str) -> tuple[Path, Path]:
    runs = [json.loads(line) for line in DEMO.read_text(encoding="utf-8").splitlines()]
    runs.insert(40, ODD)
    if kind == "jsonl":
        write_jsonl(folder / "lake" / "a.jsonl", runs[:33])
        write_jsonl(folder / "lake" / "b.jsonl", runs[33:])
        return folder / "lake", write_jsonl(folder / "one.jsonl", runs)
    write_parquet(folder / "lake" / "a.parquet", runs[:33], EXTRA)
    write_parquet(folder / "lake" / "b.parquet", runs[33:], EXTRA)
    return folder / "lake", write_parquet(folder / "one.parquet", runs, EXTRA)


def lake_ids(review: Review, view: str, text: str) -> list[str]:
    store = review.store
    query = source_query(store, review, view, parse_query(store, text))
    assert query is not None
    rows = filtered_rows(store, review, query, store.source.filter_positions(query))  # type: ignore[attr-defined]
    return [store.ids[row] for row in rows]


def file_ids(review: Review, view: str, text: str) -> list[str]:
    return [review.store.ids[row] for row in filter_rows(review.store, review, view, text)]


@pytest.mark.parametrize("kind", ["jsonl", "parquet"])
def test_a_filter_over_a_lake_finds_the_runs_of_one_file_in_its_order(tmp_path: Path, kind: str) -> None:
    lake, one = lake_and_file(tmp_path, kind)
    on_lake = open_review(
        str(lake), store=SourceStore(DatasetRows(open_dataset([str(lake)]))), reviewer="ann"
    )
    in_file = open_review(one, reviewer="ann")
    found = {}
    for view, text in FILTERS:
        found[view, text] = file_ids(in_file, view, text)
        assert lake_ids(on_lake, view, text) == found[view, text], (view, text)
    assert found["all", "STRASSE"] == found["all", "model:MODÈLE-ω"] == ["run-ÉTÉ"]
    assert found["all", "pto"] and found["all", "is:lucky"] and found["retrieval", "model:llama"]
    assert not found["pass", "nothing-matches-this"]
    # Labels move runs between views: the lake's filter lays them over the files' own.
    for review in (on_lake, in_file):
        row_of = review.store.row_of
        review.set_label(row_of["run-0080"], True)
        review.set_label(row_of["run-0002"], True)
        review.set_label(row_of["run-ÉTÉ"], False)
    for view, text in FILTERS:
        assert lake_ids(on_lake, view, text) == file_ids(in_file, view, text), (view, text)
    assert "run-0002" not in lake_ids(on_lake, "unreviewed", "")


def test_what_a_lakes_filter_cannot_find_is_told_apart(tmp_path: Path) -> None:
    lake, _one = lake_and_file(tmp_path, "parquet")
    store = SourceStore(DatasetRows(open_dataset([str(lake)])))
    review = open_review(str(lake), store=store, reviewer="ann")
    assert source_query(store, review, "all", parse_query(store, "tag:wrong-doc")) is None
    assert source_query(store, review, "reviewed", parse_query(store, "pto")) is None
    blind = open_review(str(lake), store=store, reviewer="bob", blind=True)
    assert source_query(store, blind, "all", parse_query(store, "correct:true")) is None
    assert source_query(store, blind, "all", parse_query(store, "is:lucky")) is None
    assert source_query(store, blind, "all", parse_query(store, "model:gpt")) is not None


def test_a_run_labelled_while_the_engine_looked_leaves_the_runs_it_found(tmp_path: Path) -> None:
    """`U` then `n` typed fast: the query was asked before the label, its answer lands after
    it; the labelled run is not shown among the unreviewed runs."""
    lake, _one = lake_and_file(tmp_path, "parquet")
    store = SourceStore(DatasetRows(open_dataset([str(lake)])))
    review = open_review(str(lake), store=store, reviewer="ann")
    query = source_query(store, review, "unreviewed", parse_query(store, "pto"))
    assert query is not None and not query.touched
    found = list(store.source.filter_positions(query))  # type: ignore[attr-defined]
    first = found[0]
    review.set_label(first, False)
    rows = filtered_rows(store, review, query, found)
    assert list(rows) == found[1:]
