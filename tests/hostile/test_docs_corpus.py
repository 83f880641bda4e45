"""The document corpus (`--docs`) as untrusted as the run file (issue 22): whatever bytes a
corpus holds, in any format, opening it raises only DocsError and looking a document up
never raises, even after the file is rewritten while open."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ragdiag_tui.core.runs.corpus import DocsError, DocStore

PIECES = [
    b'{"id": "D1", "text": "one"}',
    b'{"documents": [',
    b'{"id": ',
    b'"text": ',
    b'"D2"',
    b'"\\ud800"',
    b"id,text",
    b"id\ttext",
    b"D1,",
    b'"',
    b",",
    b"\t",
    b"\n",
    b"\r",
    b"\r\n",
    b"[" * 1200,
    b"{" * 600,
    b'{"a":' * 700,
    b"]",
    b"}",
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\x00",
    b"\x1b[2J",
    b"NaN",
    b"1e999",
    b"9" * 5000,  # past Python's limit on an integer's digits
    b"x" * 140_000,
]
hostile = st.lists(st.sampled_from(PIECES) | st.binary(max_size=24), max_size=12).map(b"".join)
SUFFIXES = [".jsonl", ".json", ".csv", ".tsv", ".txt"]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(suffix=st.sampled_from(SUFFIXES), content=hostile, rewritten=hostile, mapped=st.booleans())
@example(".csv", b'id,text\nD1,"' + b"x" * 140_000 + b'"\rD2,two\r', b"", False)
@example(".jsonl", b'{"id": "D1", "x": ' + b"[" * 2000 + b"]" * 2000 + b"}\n", b"[" * 3000, False)
@example(".json", b'[{"id": "D1", "x": ' + b"[" * 2000 + b"]" * 2000 + b"}]", b"", True)
def test_only_the_readers_own_error_escapes(
    suffix: str, content: bytes, rewritten: bytes, mapped: bool
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"docs{suffix}"
        path.write_bytes(content)
        try:
            docs = DocStore.open(path, {"id": "meta.id"} if mapped else None)
        except DocsError as exc:
            assert str(exc).startswith(str(path))
            return
        try:
            ids = list(docs)
            found = [docs.lookup(doc_id) for doc_id in [*ids, "absent"]]
            assert all(f.text is not None or f.reason for f in found)
            path.write_bytes(rewritten)  # the pipeline re-ran while the corpus was open
            for doc_id in ids:
                again = docs.lookup(doc_id)
                assert again.text is not None or again.reason
        finally:
            docs.close()
