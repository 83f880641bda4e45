"""A filter over a dataset in the review app (`/` text, FIELD:VALUE and is: terms, with a
view) found by the engine: the same runs in the same order as the app's local filter over
one file of the same runs, before and after labels change their views."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

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


def lake_rows(review: Review, view: str, text: str) -> list[int]:
    store = review.store
    query = source_query(store, review, view, parse_query(store, text))
    assert query is not None
    return list(filtered_rows(store, review, query, store.source.filter_positions(query)))  # type: ignore[attr-defined]


def lake_ids(review: Review, view: str, text: str) -> list[str]:
    return [review.store.ids[row] for row in lake_rows(review, view, text)]


def file_ids(review: Review, view: str, text: str) -> list[str]:
    return [review.store.ids[row] for row in filter_rows(review.store, review, view, text)]


@pytest.mark.parametrize(("kind", "ids_found"), [("jsonl", False), ("parquet", False), ("parquet", True)])
def test_a_filter_over_a_lake_finds_the_runs_of_one_file_in_its_order(
    tmp_path: Path, kind: str, ids_found: bool
) -> None:
    """With the runs' document IDs found (as the app finds them after the counts) or not."""
    lake, one = lake_and_file(tmp_path, kind)
    rows = DatasetRows(open_dataset([str(lake)]))
    if ids_found:
        rows.find_ids()
    on_lake = open_review(str(lake), store=SourceStore(rows), reviewer="ann")
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


FOLDING = [  # texts SQL's lower() does not fold as Python does, and an invalid run found by its id
    {"id": "KELVIN-\u212a-1", "question": "x", "required": ["a"], "context": ["a"], "correct": True},
    {
        "id": "fold-2",
        "question": "Die Stra\u00dfe",
        "required": ["\ufb01le-9"],
        "context": [],
        "correct": False,
    },
    {"id": "bad-3:7", "question": "q", "required": ["a"], "context": [None], "correct": True},
    {"question": "no id", "required": ["\u0130D-4"], "context": ["b"], "correct": True},
]


@pytest.mark.parametrize(
    "text",
    ["N-\u212a", "kelvin-k", "strasse", "STRASSE", "file-9", "-9", "bad-3:7", "3:7", "i\u0307d-4", "d-4"],
)
@pytest.mark.parametrize("ids_found", [False, True])
def test_a_lakes_text_filter_first_narrowed_on_the_columns_read_finds_what_one_file_finds(
    tmp_path: Path, text: str, ids_found: bool
) -> None:
    """The text is first looked for in the columns as read (its caseless characters as they
    are, or by SQL's lower() where that folds as Python does), the rule then worked out for
    the runs kept: the same runs as the app's filter over one file, where folding differs too;
    the same again once the runs' document IDs are known (the lists then read only when one
    of them holds the text)."""
    write_parquet(tmp_path / "lake" / "a.parquet", FOLDING[:2], ("question",))
    write_parquet(tmp_path / "lake" / "b.parquet", FOLDING[2:], ("question",))
    one = write_parquet(tmp_path / "one.parquet", FOLDING, ("question",))
    rows = DatasetRows(open_dataset([str(tmp_path / "lake")]))
    if ids_found:
        rows.find_ids()
    store = SourceStore(rows)
    on_lake = open_review(str(tmp_path / "lake"), store=store, reviewer="ann")
    on_file = open_review(str(one), reviewer="ann")
    expected = list(filter_rows(on_file.store, on_file, "all", text))
    assert expected and lake_rows(on_lake, "all", text) == expected
    assert lake_rows(on_lake, "all", "b.parquet:2") == [3]  # a run without an id: its name in the dataset


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    parts=st.lists(
        st.text(alphabet="aAkK\u212a\u00df\ufb01\u0130\u03a3\u03c2s-:0 \u00e9", max_size=8),
        min_size=4,
        max_size=4,
    ),
    cut=st.tuples(st.integers(0, 40), st.integers(1, 12)),
)
def test_the_narrowing_condition_holds_wherever_the_folded_text_holds_the_search(
    parts: list[str], cut: tuple[int, int]
) -> None:
    """Whatever the id, question and document IDs, and whatever part of their folded text is
    searched, the condition looked at first keeps the run (it may keep more)."""
    import duckdb

    from ragdiag_tui.engines.duckdb.review_filter import text_prefilter

    folded = "\n".join(parts).casefold()
    text = folded[cut[0] : cut[0] + cut[1]]
    assume(text and "\n" not in text)
    condition = text_prefilter(text, "v0")
    assert condition is not None
    with duckdb.connect() as con:
        rid, v0, req, ctx = parts
        kept = con.execute(
            f"SELECT {condition} FROM (SELECT ? AS rid, ? AS v0, ? AS req, ? AS ctx)",
            [rid, v0, [req], [ctx]],
        ).fetchone()
    assert kept == (True,)
