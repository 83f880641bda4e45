"""The document IDs a lake's runs name, kept for the text filter (review_ids.py): whether one
holds a text, case-folded as the filter folds, and nothing claimed once the files change or
the IDs are too many."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragdiag_tui.core.analysis.filtering import parse_query
from ragdiag_tui.core.analysis.source_views import source_query
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.core.runs.source_store import SourceStore
from ragdiag_tui.engines.dataset import open_dataset

from .conftest import write_parquet

pytest.importorskip("duckdb")
from ragdiag_tui.engines.duckdb import review_filter, review_ids
from ragdiag_tui.engines.duckdb.review_filter import text_prefilter
from ragdiag_tui.engines.duckdb.review_ids import DocumentIds
from ragdiag_tui.engines.duckdb.review_rows import DatasetRows
from ragdiag_tui.engines.duckdb.schema import literal

RUNS = [
    {"id": "run-1", "question": "Where is the PTO policy?", "required": ["HR-Policy-014"],
     "context": ["eng-7"], "correct": True},
    {"id": "run-2", "question": "Die Straße", "required": ["Doc-Ä"], "context": [], "correct": False},
    {"id": "run-3", "question": "q", "required": ["a"], "context": [None], "correct": True},
]  # fmt: skip


def lake(tmp_path: Path) -> DatasetRows:
    write_parquet(tmp_path / "lake" / "a.parquet", RUNS[:2], ("question",))
    write_parquet(tmp_path / "lake" / "b.parquet", RUNS[2:], ("question",))
    rows = DatasetRows(open_dataset([str(tmp_path / "lake")]))
    rows.count()
    return rows


def groups_of(rows: DatasetRows) -> list:
    from ragdiag_tui.engines.duckdb.sql import grouped_files

    return grouped_files(rows.ds.files, rows._plans())


def holds(ids: DocumentIds, text: str, groups: list) -> bool | None:
    with ids.filtering(text, groups) as known:
        return known


def test_the_ids_tell_whether_one_holds_a_text_once_found(tmp_path: Path) -> None:
    rows = lake(tmp_path)
    groups = groups_of(rows)
    assert holds(rows._ids, "policy-014", groups) is None  # not found yet: the lists are read
    rows.find_ids()
    assert holds(rows._ids, "policy-014", groups) is True
    assert holds(rows._ids, "doc-ä", groups) is True  # folded as the filter folds
    assert holds(rows._ids, "eng-7", groups) is True  # a context's ID
    assert holds(rows._ids, "run-1", groups) is False  # a run's id: no document holds it
    assert holds(rows._ids, "pto", groups) is False


def test_a_file_changed_since_or_too_many_ids_claim_nothing(tmp_path: Path, monkeypatch) -> None:
    rows = lake(tmp_path)
    rows.find_ids()
    groups = groups_of(rows)
    assert holds(rows._ids, "run-1", groups) is False
    changed = rows.ds.files[1]
    stat = changed.stat()
    os.utime(changed, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert holds(rows._ids, "run-1", groups) is None
    monkeypatch.setattr(review_ids, "CAP", 3)  # the lake names five IDs
    many = lake(tmp_path / "again")
    many.find_ids()
    assert holds(many._ids, "run-1", groups_of(many)) is None


@pytest.mark.parametrize("narrow_most", [1024, 1])
def test_a_filter_the_ids_rule_out_of_the_lists_finds_runs_by_id_and_question(
    tmp_path: Path, monkeypatch, narrow_most: int
) -> None:
    """The runs are found first by their ids and questions alone, then read again at those
    lines; or, when they are more than that second read would take, read all at once."""
    monkeypatch.setattr(review_filter, "NARROW_MOST", narrow_most)
    rows = lake(tmp_path)
    rows.find_ids()
    store = SourceStore(rows)
    review = open_review(str(rows.ds.root), store=store, reviewer="ann")
    cases = [("run-", ["run-1", "run-2", "run-3"]), ("strasse", ["run-2"]), ("policy-0", ["run-1"])]
    cases.append(("zz", []))
    for text, ids in cases:
        query = source_query(store, review, "all", parse_query(store, text))
        assert query is not None
        assert [store.ids[row] for row in rows.filter_positions(query)] == ids, text
    assert "req" not in (text_prefilter("run-", "v0", lists=False) or "")
    assert "req" in (text_prefilter("run-", "v0") or "")


ALPHABET = "aAkK\u212a\u00df\ufb01\u0130\u03a3\u03c2s-:0 \u00e9"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ids=st.lists(st.text(alphabet=ALPHABET, min_size=1, max_size=6), min_size=1, max_size=5),
    text=st.text(alphabet="ak\u00dfs-:0 \u00e9\u03c3i\u0307", min_size=1, max_size=4),
)  # fmt: skip
def test_the_ids_never_rule_out_a_text_an_id_holds_once_folded(ids: list[str], text: str) -> None:
    """Whatever the IDs and the (folded) text, `holds` is True exactly when one of them,
    case-folded as Python folds it, holds the text."""
    found = DocumentIds()
    items = ", ".join(literal(item) for item in ids)
    found.build(f"SELECT [{items}] AS req, CAST([] AS VARCHAR[]) AS ctx", [])
    folded = text.casefold()
    assert holds(found, folded, []) is any(folded in item.casefold() for item in ids)


def test_a_filter_goes_first_and_the_search_for_ids_begins_again_after_it(
    tmp_path: Path, monkeypatch
) -> None:
    """A filter asked while the IDs are being found stops that search (both would read the
    lists), reads the lists itself, and the search begins again once the filter is done."""
    import duckdb

    started = threading.Event()
    real_connect = review_ids.connect

    @contextmanager
    def gated() -> Iterator[duckdb.DuckDBPyConnection]:
        with real_connect() as con:
            con.create_function("gate", lambda x: started.set() or x, [int], int)
            yield con

    monkeypatch.setattr(review_ids, "connect", gated)
    slow = tmp_path / "slow"
    slow.touch()  # while it is there, the search is endless
    runs = (
        "SELECT ['doc-1'] AS req, ['doc-2'] AS ctx FROM range("
        f"(SELECT count(*) FROM glob({literal(str(slow))})) * 10000000000) AS r(i) WHERE gate(i) >= 0"
    )
    ids = DocumentIds()
    search = threading.Thread(target=ids.build, args=(runs, []), daemon=True)
    search.start()
    assert started.wait(60)  # the search is under way
    with ids.filtering("doc-1", []) as known:
        assert known is None  # not known: the filter reads the lists
        slow.unlink()
    search.join(60)
    assert not search.is_alive()  # stopped, begun again, ended (no rows the second time)
    assert holds(ids, "doc-1", []) is False
