"""A JSON corpus (`--docs FILE`, one array of documents, or an object with a `documents` array)
is indexed in a stream, as JSON Lines is (issue 22 item 8: it used to be parsed whole and kept,
peaking at 10-25 times its size): each document by its place in the file, its text read back
when asked, a warning naming its place in the array, a lookup naming its place and line."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ragdiag_tui.core.runs import corpus_json
from ragdiag_tui.core.runs.corpus import DocStore

from .corpus_memory import open_measured


def write(path: Path, value: Any, **dump: Any) -> Path:
    path.write_text(json.dumps(value, **dump), encoding="utf-8")
    return path


def test_a_json_corpus_keeps_offsets_and_reads_each_text_from_the_file(tmp_path: Path) -> None:
    path = write(
        tmp_path / "docs.json", [{"id": "D1", "text": "Refunds within 30 days."}, {"id": "D2", "text": "x"}]
    )
    docs = DocStore.open(path)
    assert docs.format == "json" and list(docs) == ["D1", "D2"]
    path.write_text(path.read_text(encoding="utf-8").replace("Refunds", "Returns"), encoding="utf-8")
    assert docs.text("D1") == "Returns within 30 days."  # read from the file, not kept parsed
    write(path, [{"id": "D2", "text": "x"}, {"id": "D1", "text": "Refunds within 30 days."}])
    assert docs.lookup("D1").reason == f"{path}, document 1 (line 1): changed since it was opened"
    docs.close()


def test_a_lookup_names_the_documents_place_and_line(tmp_path: Path) -> None:
    path = write(
        tmp_path / "docs.json",
        [{"id": "D1", "text": "t"}, {"id": "D2"}, {"id": "D3", "text": None}],
        indent=1,
    )
    docs = DocStore.open(path)
    assert docs.lookup("D2").reason == f"{path}, document 2 (line 6): no 'text' text"
    assert docs.lookup("D3").reason == f"{path}, document 3 (line 9): a null for its 'text' text"


def test_opening_a_json_corpus_holds_the_file_once_not_its_parsed_documents(tmp_path: Path) -> None:
    words = ["refund", "policy", "window", "deploy", "freeze", "approve", "leave", "guide", "vpn", "reset"]
    documents = [
        {"id": f"kb-{i}", "title": f"Document {i}", "text": " ".join(words * 3)} for i in range(20_000)
    ]
    path = write(tmp_path / "docs.json", documents)
    docs, peak = open_measured(path)
    assert len(docs) == 20_000 and docs.text("kb-19999") == " ".join(words * 3)
    assert peak < 2, f"opening peaked at {peak:.1f}x the file's size"  # was 3.7x


def test_documents_that_look_like_the_end_of_one_and_the_start_of_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(corpus_json, "PIECE", 48)  # a piece ends inside most documents
    documents: list[Any] = [
        {"id": "D1", "text": 'a "}, {" b }, { c'},
        {"id": "D2", "meta": {"nested": [{"id": "no"}, [1, 2]]}, "text": "two"},
        5,
        "D3",
        {"id": "D4", "text": "x" * 300},
        {"id": "D1", "text": "again"},
        {"text": "no id"},
        {"id": "D5", "text": 'é 😀 \\ " ,'},
    ]
    path = write(
        tmp_path / "docs.json", {"before": [1, {"a": "]"}], "documents": documents, "after": "}"}, indent=2
    )
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    docs = DocStore.open(path)
    assert list(docs) == ["D1", "D2", "D4", "D5"]
    assert [docs.text(d) for d in docs] == [documents[0]["text"], "two", "x" * 300, documents[7]["text"]]
    assert docs.warnings == [
        f"{path}, document 3: skipped (no string id)",
        f"{path}, document 4: skipped (no string id)",
        f"{path}, document 6: skipped (id 'D1' already document 1)",
        f"{path}, document 7: skipped (no string id)",
    ]


def test_a_json_corpus_msgspec_refuses_is_still_read(tmp_path: Path) -> None:
    # NaN (Python's json.dumps writes it) and a lone surrogate escape are read by the standard decoder.
    path = tmp_path / "docs.json"
    path.write_text(
        '[{"id": "D1", "score": NaN, "text": "one"}, {"id": "D2", "text": "\\ud800"}]', encoding="utf-8"
    )
    docs = DocStore.open(path)
    assert docs.text("D1") == "one" and docs.text("D2") == "\ud800"


layouts = st.sampled_from(
    [{}, {"indent": 1}, {"indent": "\t"}, {"separators": (",", ":")}, {"separators": (" ,\n ", ": ")}]
)
texts = st.text(alphabet=st.sampled_from(list('ab ,{}[]"\\\n😀é')), max_size=40)
values = st.recursive(
    st.none() | st.integers() | texts, lambda inner: st.lists(inner, max_size=3), max_leaves=6
)
documents = st.lists(
    st.fixed_dictionaries(
        {"id": st.sampled_from(["A", "B", "C", "D", "E", "F"]), "text": texts}, optional={"x": values}
    )
    | values,
    max_size=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(docs=documents, layout=layouts, piece=st.integers(1, 200), wrapped=st.booleans())
def test_any_array_indexes_as_the_standard_decoder_reads_it(
    docs: list[Any], layout: dict[str, Any], piece: int, wrapped: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(corpus_json, "PIECE", piece)
    expected: dict[str, str] = {}
    for doc in docs:
        if isinstance(doc, dict) and isinstance(doc.get("id"), str):
            expected.setdefault(doc["id"], doc["text"])
    with tempfile.TemporaryDirectory() as folder:
        path = write(
            Path(folder) / "docs.json", {"documents": docs} if wrapped else docs, ensure_ascii=False, **layout
        )
        if not expected:
            return
        store = DocStore.open(path)
        try:
            assert list(store) == list(expected)
            assert {doc_id: store.text(doc_id) for doc_id in store} == expected
        finally:
            store.close()
