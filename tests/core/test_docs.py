"""Document texts: a corpus file read on demand, and texts the runs carry themselves."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from ragdiag_tui.core.runs.corpus import (
    DocsError,
    DocStore,
    DocText,
    document_text,
    parse_docs_map,
    run_texts,
)
from ragdiag_tui.core.runs.mapping import FieldMap, MapSpecError
from ragdiag_tui.core.runs.store import RunStore


def jsonl(tmp_path: Path, docs: list[object], name: str = "docs.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(doc) + "\n" for doc in docs), encoding="utf-8")
    return path


def test_a_json_lines_corpus_reads_each_text_when_asked(tmp_path: Path) -> None:
    path = jsonl(
        tmp_path, [{"id": "D1", "text": "Refunds within 30 days."}, {"id": "D2", "text": "ünïcode\nlines"}]
    )
    docs = DocStore.open(path)
    assert (len(docs), "D1" in docs, "D3" in docs) == (2, True, False)
    assert docs.text("D2") == "ünïcode\nlines"
    # Read from the file on demand: a text changed on disk in place is what is shown.
    path.write_text(path.read_text(encoding="utf-8").replace("Refunds", "Returns"), encoding="utf-8")
    assert docs.text("D1") == "Returns within 30 days."
    docs.close()


def test_the_index_keeps_offsets_not_texts(tmp_path: Path) -> None:
    path = jsonl(tmp_path, [{"id": f"D{i}", "text": "x" * 1000} for i in range(200)])
    docs = DocStore.open(path)
    assert not any(isinstance(value, str) and len(value) >= 1000 for value in vars(docs).values())
    assert docs.text("D199") == "x" * 1000


def test_an_id_with_no_text_says_so(tmp_path: Path) -> None:
    docs = DocStore.open(
        jsonl(tmp_path, [{"id": "D1"}, {"id": "D2", "text": None}, {"id": "D3", "text": "t"}])
    )
    missing = docs.lookup("nowhere")
    assert missing.text is None and "not in" in missing.reason and "docs.jsonl" in missing.reason
    assert docs.lookup("D1").reason.endswith("docs.jsonl, line 1: no 'text' text")
    assert "line 2: a null for its 'text' text" in docs.lookup("D2").reason


def test_bad_lines_are_skipped_with_their_line_and_the_rest_loads(tmp_path: Path) -> None:
    path = tmp_path / "docs.jsonl"
    path.write_text(
        '{"id": "D1", "text": "a"}\nnot json\n{"text": "no id"}\n{"id": 7, "text": "n"}\n'
        '{"id": "D1", "text": "again"}\n\n{"id": "D2", "text": "b"}',
        encoding="utf-8",
    )
    docs = DocStore.open(path)
    assert len(docs) == 2 and docs.text("D1") == "a" and docs.text("D2") == "b"
    assert [w.split(": ", 1)[0].rsplit(", ", 1)[1] for w in docs.warnings] == [
        "line 2",
        "line 3",
        "line 4",
        "line 5",
    ]
    assert "no 'id' id" in docs.warnings[1]
    assert "a number for its 'id' id" in docs.warnings[2]
    assert "already on line 1" in docs.warnings[3]


def test_a_csv_corpus_with_quoted_newlines(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    path.write_text('\ufeffdoc_id,body\nD1,"two\nlines, and a comma"\nD2,plain\n', encoding="utf-8")
    docs = DocStore.open(path, parse_docs_map(["id=doc_id", "text=body"]))
    assert docs.text("D1") == "two\nlines, and a comma"
    assert docs.text("D2") == "plain"
    with pytest.raises(DocsError, match=r"docs.csv: no column 'id' \(columns: doc_id, body\)"):
        DocStore.open(path)


def test_a_json_corpus_and_mapped_nested_fields(tmp_path: Path) -> None:
    path = tmp_path / "docs.json"
    path.write_text(json.dumps({"documents": [{"meta": {"key": "D1"}, "content": "c"}]}), encoding="utf-8")
    docs = DocStore.open(path, {"id": "meta.key", "text": "content"})
    assert docs.format == "json" and docs.text("D1") == "c"
    array = jsonl(tmp_path, [], "array.json")
    array.write_text('[\n{"id": "A", "text": "t"}\n]', encoding="utf-8")
    assert DocStore.open(array).text("A") == "t"


def test_a_mapped_id_in_json_lines(tmp_path: Path) -> None:
    docs = DocStore.open(jsonl(tmp_path, [{"doc": {"id": "D1"}, "text": "t"}]), {"id": "doc.id"})
    assert docs.text("D1") == "t"


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "cannot read the documents"), ("", "no document with an id"), ("[1, 2", "not JSON")],
)
def test_an_unusable_corpus_is_one_clear_error(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "corpus.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    with pytest.raises(DocsError, match=f"corpus.json.*{message}"):
        DocStore.open(path)


@pytest.mark.parametrize("spec", ["title=x", "text", "text=", "text=a..b"])
def test_a_bad_docs_map_is_refused(spec: str) -> None:
    with pytest.raises(MapSpecError):
        parse_docs_map([spec])


def test_texts_carried_by_a_ragas_run(write_runs: Callable[..., Path]) -> None:
    run = {
        "user_input": "q",
        "reference_context_ids": ["R1", "R2"],
        "reference_contexts": ["ref one", "ref two"],
        "retrieved_context_ids": ["R1", "X"],
        "retrieved_contexts": ["retrieved one", "extra"],
        "correct": True,
    }
    misaligned = dict(run, id="m", retrieved_contexts=["only one"])
    ragas = FieldMap.from_specs([], "ragas")
    store = RunStore.load(write_runs([run, misaligned, "not json"]), field_map=ragas)
    # An ID in both lists shows the text the generator was given.
    assert run_texts(store, 0) == {"R1": "retrieved one", "R2": "ref two", "X": "extra"}
    assert run_texts(store, 1) == {"R1": "ref one", "R2": "ref two"}
    assert run_texts(store, 2) == {}


def test_a_runs_own_text_comes_before_the_corpus(tmp_path: Path) -> None:
    docs = DocStore.open(jsonl(tmp_path, [{"id": "D1", "text": "corpus"}, {"id": "D2", "text": "two"}]))
    assert document_text("D1", {"D1": "carried"}, docs) == DocText("D1", "carried", "run")
    assert document_text("D2", {"D1": "carried"}, docs).text == "two"
    nowhere = document_text("D9", {}, None)
    assert nowhere.text is None and "no --docs file" in nowhere.reason


def test_a_folder_or_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    with pytest.raises(DocsError, match="is a folder"):
        DocStore.open(tmp_path)
    fifo = tmp_path / "docs.fifo"
    os.mkfifo(fifo)
    with pytest.raises(DocsError, match=r"docs\.fifo: not a regular file"):
        DocStore.open(fifo)


# -- a corpus as untrusted as the run file (issue 22) ----------------------------------


def test_a_csv_cell_longer_than_csvs_default_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "docs.tsv"
    long = "w" * 200_000  # csv's default field limit is 131,072 characters
    path.write_text(f"id\ttext\nD1\t{long}\nD2\tshort\n", encoding="utf-8")
    docs = DocStore.open(path)
    assert (docs.text("D1"), docs.text("D2"), docs.warnings) == (long, "short", [])


def test_a_csv_corpus_with_old_mac_line_ends(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    path.write_bytes(b'id,text\rD1,one\rD2,"two\rlines"\rD3,three\r')
    docs = DocStore.open(path)
    assert [docs.text(d) for d in ("D1", "D2", "D3")] == ["one", "two\rlines", "three"]
    assert docs.lookup("D3").reason == "" and docs.warnings == []


def test_a_bad_csv_row_is_skipped_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    path.write_bytes(b'id,text\nD1,"a"b\nD2,\xff\nD3,fine\n')
    docs = DocStore.open(path)
    assert len(docs) == 1 and docs.text("D3") == "fine"
    assert docs.warnings[0].startswith(f"{path}, line 2: skipped (not valid CSV")
    assert docs.warnings[1] == f"{path}, line 3: skipped (not valid UTF-8: byte 0xff on line 3)"


def test_an_unclosed_csv_quote_swallows_no_later_document(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    path.write_text('id,text\nD1,"never closed\nD2,two\nD3,three\n', encoding="utf-8")
    docs = DocStore.open(path)
    assert "D1" not in docs and docs.text("D2") == "two" and docs.text("D3") == "three"
    assert docs.warnings == [f"{path}, line 2: skipped (a quoted cell is never closed; read on from line 3)"]
    # Closed by a later cell's quote: the row is broken there, and the rest still loads.
    path.write_text('id,text\nD1,"never closed\nD2,two\nD3,"quoted\nlines"\n', encoding="utf-8")
    docs = DocStore.open(path)
    assert "D1" not in docs and docs.text("D2") == "two" and docs.text("D3") == "quoted\nlines"
    assert len(docs.warnings) == 1 and "line 2: skipped (not valid CSV" in docs.warnings[0]


DEEP = "[" * 5000 + "]" * 5000


@pytest.mark.parametrize("key", ["id", "key"])  # the fast id decoder, and a mapped id
def test_a_json_lines_document_nested_too_deeply_is_skipped(tmp_path: Path, key: str) -> None:
    path = tmp_path / "docs.jsonl"
    path.write_text(
        f'{{"{key}": "D1", "text": "one"}}\n{{"{key}": "D2", "x": {DEEP}}}\n{{"{key}": "D3", "text": "t"}}\n',
        encoding="utf-8",
    )
    docs = DocStore.open(path, {"id": key})
    assert docs.text("D1") == "one" and docs.text("D3") == "t" and "D2" not in docs
    assert docs.warnings == [f"{path}, line 2: skipped (nested too deeply to read (over 500 levels))"]


def test_a_json_corpus_nested_too_deeply_is_one_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "docs.json"
    path.write_text(f'[\n{{"id": "D1", "text": "t"}},\n{{"id": "D2", "x": {DEEP}}}\n]', encoding="utf-8")
    with pytest.raises(DocsError, match=r"docs\.json, line 3: nested too deeply to read"):
        DocStore.open(path)


@pytest.mark.parametrize("suffix", [".jsonl", ".json"])
def test_the_depth_limit_is_the_readers_own_the_same_on_every_python(tmp_path: Path, suffix: str) -> None:
    # 501 levels: within any interpreter's recursion limit, refused by the reader's own limit
    # (Python 3.13's json reads 5,000 levels where 3.11's raised RecursionError).
    within, over = "[" * 499 + "]" * 499, "[" * 500 + "]" * 500  # with the document's own braces
    lines = [f'{{"id": "D1", "x": {within}, "text": "a"}}', f'{{"id": "D2", "x": {over}, "text": "b"}}']
    path = tmp_path / f"docs{suffix}"
    if suffix == ".jsonl":
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        docs = DocStore.open(path)
        assert docs.text("D1") == "a" and "D2" not in docs
        assert docs.warnings == [f"{path}, line 2: skipped (nested too deeply to read (over 500 levels))"]
    else:
        shallower = lines[0].replace("[]", "", 1)  # 500 levels with the array's own
        path.write_text("[\n" + shallower + "\n]", encoding="utf-8")
        assert DocStore.open(path).text("D1") == "a"
        path.write_text("[\n" + lines[0] + ",\n" + lines[1] + "\n]", encoding="utf-8")
        with pytest.raises(DocsError, match=r"docs\.json, line 3: nested too deeply to read \(over 500"):
            DocStore.open(path)


def test_a_document_rewritten_deeply_while_open_says_why(tmp_path: Path) -> None:
    path = jsonl(tmp_path, [{"id": "D1", "text": "x" * 20_000}])
    docs = DocStore.open(path)
    path.write_text(f'{{"id": "D1", "x": {DEEP}}}'.ljust(20_000 + 25) + "\n", encoding="utf-8")
    found = docs.lookup("D1")
    assert (
        found.text is None and found.reason == f"{path}, line 1: nested too deeply to read (over 500 levels)"
    )


def test_a_corpus_rewritten_while_open_never_shows_another_documents_text(tmp_path: Path) -> None:
    path = jsonl(tmp_path, [{"id": "D1", "text": "one"}, {"id": "D2", "text": "two"}])
    docs = DocStore.open(path)
    # The pipeline re-ran: the same bytes now hold other documents.
    jsonl(tmp_path, [{"id": "D2", "text": "two"}, {"id": "D1", "text": "one"}])
    assert [docs.lookup(d).reason for d in ("D1", "D2")] == [
        f"{path}, line 1: changed since it was opened",
        f"{path}, line 2: changed since it was opened",
    ]
    jsonl(tmp_path, [{"id": "D1", "text": "one"}])  # cut short
    assert docs.lookup("D2").reason.endswith("line 2: changed since it was opened")


def test_a_csv_corpus_rewritten_or_cut_while_open_says_so(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    path.write_text('id,text\nD1,one\nD2,"two\nlines"\nD3,three\n', encoding="utf-8")
    docs = DocStore.open(path)
    path.write_text('id,text\nD9,one\nD2,"two\nli', encoding="utf-8")  # rewritten, then cut mid-row
    assert docs.lookup("D1").reason == f"{path}, line 2: changed since it was opened"
    assert docs.lookup("D2").reason == f"{path}, line 3: changed since it was opened"
    path.write_text('id,text\nD1,one\nD2,"two\nli"\nD3,three\n', encoding="utf-8")
    assert docs.lookup("D2").reason.endswith("line 3: changed since it was opened")  # a row cut short


@pytest.mark.parametrize(
    "first",
    [
        '{"id": "D0", "text": broken}',  # bad
        '{"id": "D0", "text": "cut sh',  # unfinished
        '{"id": "D0", "text": "' + "x" * (1 << 24) + '"}',  # longer than 16 MiB
    ],
)
def test_json_lines_are_recognised_by_more_than_the_first_line(tmp_path: Path, first: str) -> None:
    path = tmp_path / "docs.jsonl"
    path.write_text(first + '\n{"id": "D1", "text": "one"}\n{"id": "D2", "text": "two"}\n', encoding="utf-8")
    docs = DocStore.open(path)
    assert docs.format == "jsonl" and docs.text("D1") == "one" and docs.text("D2") == "two"
    assert len(docs) == (3 if len(first) > 1 << 24 else 2)


def test_one_big_document_on_one_line_is_json_lines(tmp_path: Path) -> None:
    path = tmp_path / "docs.jsonl"
    big = "x" * ((1 << 24) + 10)
    path.write_text(json.dumps({"id": "D1", "text": big}), encoding="utf-8")
    docs = DocStore.open(path)
    assert docs.format == "jsonl" and docs.text("D1") == big


@pytest.mark.parametrize(
    "content",
    [
        '{\n"documents": [\n{"id": "A", "text": "t"}\n]}',
        '{"documents": [\n{"id": "A", "text": "t"},\n{"id": "B", "text": "u"}\n]}',
        '{"documents": [{"id": "A", "text": "t"}]}',
    ],
)
def test_a_json_object_of_documents_is_still_json(tmp_path: Path, content: str) -> None:
    path = tmp_path / "docs.json"
    path.write_text(content, encoding="utf-8")
    docs = DocStore.open(path)
    assert docs.text("A") == "t"


def test_duplicate_ids_in_a_json_corpus_warn(tmp_path: Path) -> None:
    path = tmp_path / "docs.json"
    path.write_text(
        json.dumps([{"id": "A", "text": "first"}, {"id": "A", "text": "again"}]), encoding="utf-8"
    )
    docs = DocStore.open(path)
    assert docs.text("A") == "first" and docs.skipped == 1
    assert docs.warnings == [f"{path}, document 2: skipped (id 'A' already document 1)"]


def test_carriage_returns_of_every_kind_end_lines(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    path.write_bytes(b"id,text\r\nD1,one\r\rD2,two\rD3,three\r\r")
    docs = DocStore.open(path)
    assert [docs.text(d) for d in ("D1", "D2", "D3")] == ["one", "two", "three"]
    assert docs.warnings == [] and docs.lookup("D2").reason == ""


def test_a_number_past_pythons_digit_limit_is_read(tmp_path: Path) -> None:
    number = "9" * 5000  # int() refuses more than 4,300 digits
    path = tmp_path / "docs.jsonl"
    path.write_text(f'{{"id": "D1", "n": {number}, "text": "one"}}\n', encoding="utf-8")
    assert DocStore.open(path).lookup("D1") == DocText("D1", "one", str(path))
    array = tmp_path / "docs.json"
    array.write_text(f'[{{"id": "D1", "n": {number}, "text": "one"}}]', encoding="utf-8")
    assert DocStore.open(array).text("D1") == "one"


def test_a_csv_column_named_twice_reads_the_first_as_indexed(tmp_path: Path) -> None:
    path = tmp_path / "docs.csv"
    path.write_text("id,text,id\nD1,one,other\n", encoding="utf-8")
    assert DocStore.open(path).text("D1") == "one"
