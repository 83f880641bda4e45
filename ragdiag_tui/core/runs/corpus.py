"""Document texts: what the required and supplied IDs say, read on demand.

Two sources, looked up in this order:

1. **The run itself.** RAGAS samples carry the texts beside the IDs:
   `retrieved_contexts` aligned with the supplied IDs and `reference_contexts` with
   the required IDs (same length, position by position). `run_texts(store, row)`.
2. **A corpus file**, `--docs FILE`: JSON Lines, CSV (or TSV), or JSON (an array
   of objects, or an object with a `documents` array), each document with an id
   and a text field, `id` and `text` unless `--docs-map id=SOURCE --docs-map
   text=SOURCE` names others (SOURCE as in `--map`: a key, a dotted path, a CSV
   column).

A JSON Lines or CSV corpus is opened by indexing where each document starts in
the file (its id and byte offset: the texts are not kept), and a text is read
from the file when it is asked for, so a corpus of a million documents opens in
bounded memory. A JSON corpus is indexed the same way, each document of its array
by its place (`corpus_json`: opening holds the file once, then the index), except
one msgspec cannot read (`NaN`, a lone surrogate escape), which is read whole.
A document without a usable id, or that cannot be read at all (not
JSON, nested too deeply, not valid CSV, not UTF-8), is skipped with a warning naming
its line; the rest still loads. Asking for an ID the corpus lacks says so
(`DocText.text` is None and `reason` tells why), and so does a text read back that
no longer carries the id it was indexed under (the file changed while open).
Opening raises only DocsError; `lookup` never raises.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import os
import re
import stat
import weakref
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import accumulate
from typing import Any

import msgspec

from ..common.jsonutil import MAX_DEPTH, decode, nested_too_deeply
from ..common.reads import register_read
from .corpus_index import DocIndex, DocRun
from .corpus_json import (
    ID_LIST,
    ID_ONLY,
    PIECE,
    CorpusChanged,
    array_documents,
    array_region,
    check_utf8,
    line_ids,
)
from .csv_runs import FIELD_LIMIT, allow_long_fields
from .mapping import MapSpecError
from .rule import json_type_name
from .store import RunStore
from .texts import Nearest, content_id, is_content_id

TOO_DEEP = f"nested too deeply to read (over {MAX_DEPTH} levels)"

DOC_FIELDS = ("id", "text")
RUN_TEXT_FIELDS = {"context": "retrieved_contexts", "required": "reference_contexts"}
"""Per ID list of a run, the field of the run holding its texts, position by position (RAGAS's names)."""

MAX_WARNINGS = 100  # listed one by one; beyond that, counted
PROBE_LINE = 1 << 24  # bytes of a line read to tell JSON Lines from one JSON document
PROBE_LINES = 5  # non-blank lines read to tell them apart
CHANGED = "changed since it was opened"


class DocsError(Exception):
    """A corpus file that cannot be used at all. The message names the file."""


def check_docs_file(path: str | os.PathLike[str]) -> None:
    """Refuse, with DocsError, what cannot be a corpus: a missing or unreadable file, a
    folder, a FIFO or device (opening one could block or never end)."""
    name = os.fspath(path)
    try:
        mode = os.stat(name).st_mode
    except OSError as exc:
        raise DocsError(f"{name}: cannot read the documents ({exc.strerror or exc})") from None
    if stat.S_ISDIR(mode):
        raise DocsError(f"{name}: is a folder, not a file of documents")
    if not stat.S_ISREG(mode):
        raise DocsError(f"{name}: not a regular file")
    if not os.access(name, os.R_OK):
        raise DocsError(f"{name}: cannot read the documents (permission denied)")
    register_read(name, "the --docs corpus")


@dataclass(frozen=True, slots=True)
class DocText:
    """A document's text, or None with the reason there is none."""

    id: str
    text: str | None
    source: str  # "run", the corpus file's name, or "" when nowhere
    reason: str = ""


@dataclass(frozen=True, slots=True)
class DocsSource:
    """Where the documents' text is (`--docs FILE` and its `--docs-map`), not yet opened:
    indexing a big corpus takes a while, so the app opens it in a worker."""

    path: str
    docs_map: tuple[tuple[str, str], ...] = ()

    def open(self) -> DocStore:
        """Index the corpus (see `DocStore.open`). Raises DocsError."""
        return DocStore.open(self.path, dict(self.docs_map))


def parse_docs_map(specs: Sequence[str]) -> dict[str, str]:
    """`["id=doc_id", "text=body.content"]` -> {"id": "doc_id", "text": "body.content"}.

    Raises MapSpecError for a field other than id and text, or a bad SOURCE."""
    mapping: dict[str, str] = {}
    for spec in specs:
        field, sep, source = spec.partition("=")
        field = field.strip()
        if not sep:
            raise MapSpecError(f"'{spec}': write FIELD=SOURCE, as in text=content")
        if field not in DOC_FIELDS:
            raise MapSpecError(f"'{spec}': a document field is one of {', '.join(DOC_FIELDS)}")
        if not source or "" in source.split("."):
            raise MapSpecError(f"'{spec}': SOURCE is a key or keys joined by '.', as in text=body.content")
        mapping[field] = source
    return mapping


_ANY = msgspec.json.Decoder()


_NOTHING: Any = object()


def read_source(obj: Any, source: str) -> Any:
    """The value at `source` in a document: the key spelled exactly, else a dotted path
    into nested objects. `_NOTHING` when absent."""
    if not isinstance(obj, dict):
        return _NOTHING
    if source in obj:
        return obj[source]
    value: Any = obj
    for key in source.split("."):
        if not isinstance(value, dict) or key not in value:
            return _NOTHING
        value = value[key]
    return value


def ids_in_piece(piece: bytes, elements: list[msgspec.Raw], id_source: str = "id") -> list[Any]:
    """The ids of a piece of a JSON corpus's array (`corpus_json.IdsOf`) at `id_source`; None
    for an element that is not an object."""
    if id_source == "id":
        try:
            return [document.id for document in ID_LIST.decode(piece)]
        except msgspec.ValidationError:  # an element that is not an object: one by one
            pass
    found: list[Any] = []
    for raw in elements:
        try:
            found.append(read_source(_ANY.decode(raw), id_source))
        except (msgspec.DecodeError, RecursionError):
            found.append(None)
    return found


class DocStore:
    """A corpus of document texts, indexed by id. Open with `DocStore.open(path)`."""

    def __init__(self, path: str, id_source: str = "id", text_source: str = "text") -> None:
        self.path = path
        self.format = ""
        self.warnings: list[str] = []
        self.skipped = 0
        self.id_source = id_source
        self.text_source = text_source
        self._places = DocIndex()
        # Documents read one by one, indexed in runs; through a proxy, so that no cycle keeps a
        # store (and its index) alive once let go.
        self._run = DocRun(self._places, partial(DocStore._add, weakref.proxy(self)))
        self._texts: dict[str, Any] = {}  # JSON read whole: the parsed documents
        self._header: list[str] = []
        self._id_column = 0
        self._delimiter = ","
        self._fd: int | None = None

    @classmethod
    def open(cls, path: str | os.PathLike[str], docs_map: Mapping[str, str] | None = None) -> DocStore:
        """Index a corpus file. Raises DocsError when it cannot be read at all."""
        name = os.fspath(path)
        docs_map = docs_map or {}
        store = cls(name, docs_map.get("id", "id"), docs_map.get("text", "text"))
        check_docs_file(name)
        try:
            store._fd = os.open(name, os.O_RDONLY)
            with open(name, "rb") as handle:
                store._index(handle)
                store._run.flush()
        except OSError as exc:
            store.close()
            raise DocsError(f"{name}: cannot read the corpus ({exc.strerror or exc})") from None
        except UnicodeDecodeError:
            store.close()
            raise DocsError(f"{name}: not a UTF-8 text file") from None
        except MemoryError:
            store.close()
            raise DocsError(f"{name}: too big to read into memory; use JSON Lines") from None
        except DocsError:
            store.close()
            raise
        if not store._places and not store._texts:
            store.close()
            detail = f" ({store.warnings[0]})" if store.warnings else ""
            raise DocsError(f"{name}: no document with an id{detail}")
        return store

    def __len__(self) -> int:
        return len(self._places) or len(self._texts)

    def __iter__(self) -> Iterator[str]:
        """The ids of the documents, in the file's order."""
        return iter(self._places if self._places else self._texts)

    def __contains__(self, doc_id: object) -> bool:
        return doc_id in self._places or doc_id in self._texts

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    # -- indexing -----------------------------------------------------------

    def _warn(self, line: int, message: str, unit: str = "line") -> None:
        """A document skipped: `unit` `line` says where (a JSON corpus counts documents)."""
        self._run.flush()  # the documents before it first, as they come in the file
        self.skipped += 1
        if len(self.warnings) < MAX_WARNINGS:
            self.warnings.append(f"{self.path}, {unit} {line}: {message}")

    def _add(self, doc_id: Any, start: int, end: int, line: int) -> None:
        """Index a document, or say why it is skipped: no string id, or one already indexed."""
        if not isinstance(doc_id, str):
            what = "no" if doc_id is _NOTHING else f"a {json_type_name(doc_id)} for its"
            self._warn(line, f"skipped ({what} '{self.id_source}' id; ids are strings)")
            return
        if not self._places.add(doc_id, start, end, line):
            first = self._places.line(self._places.row(doc_id))  # type: ignore[arg-type]
            self._warn(line, f"skipped (id {doc_id!r} already on line {first})")

    def _index(self, handle: io.BufferedReader) -> None:
        self._places.size = os.fstat(handle.fileno()).st_size  # to foresee how many documents
        head = handle.read(4096)
        handle.seek(0)
        lower = self.path.lower()
        if lower.endswith((".csv", ".tsv")):
            self._delimiter = "\t" if lower.endswith(".tsv") else ","
            self.format = "csv"
            self._index_csv(handle)
            return
        first = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
        if first == b"[" or (first == b"{" and _one_json_document(handle)):
            self.format = "json"
            if self._load_json(handle, lines_too=first == b"{"):
                return
            handle.seek(0)  # one document on one line, or lines of them: JSON Lines after all
        self.format = "jsonl"
        self._index_jsonl(handle)

    def _index_jsonl(self, handle: io.BufferedReader) -> None:
        """Index JSON Lines a piece at a time, in runs read at once when ids are read at `id`."""
        offset = number = 0
        while lines := handle.readlines(PIECE):
            ends = list(accumulate(map(len, lines), initial=offset))
            if self.id_source == "id":
                self._index_runs(lines, ends, number)
            else:
                self._index_lines(lines, number, offset)
            offset, number = ends[-1], number + len(lines)

    def _index_runs(self, lines: list[bytes], ends: list[int], before: int) -> None:
        """Index a piece of JSON Lines (`ends`: where each line starts, then where the last ends;
        `before`: the lines before it) in runs read at once (`line_ids`, `DocIndex.add_run`), each
        up to a line that is no object (blank, not JSON, ...); that line, and a run with an id
        that is no string or not new, are read line by line."""
        rest, done = iter(lines), 0
        while done < len(lines):
            ids = line_ids(rest)
            end = done + len(ids)
            numbers = range(before + done + 1, before + end + 1)
            if ids and not self._places.add_run(ids, ends[done:end], ends[done + 1 : end + 1], numbers):
                self._index_lines(lines[done:end], before + done, ends[done])
            if end < len(lines):
                self._index_lines(lines[end : end + 1], before + end, ends[end])
            done = end + 1

    def _index_lines(self, lines: list[bytes], before: int, offset: int) -> None:
        """Index JSON Lines one by one (`before` lines and `offset` bytes before them)."""
        fast = self.id_source == "id"
        decode_id, decode_any, add = ID_ONLY.decode, _ANY.decode, self._run.add
        for number, raw in enumerate(lines, start=before + 1):
            start, offset = offset, offset + len(raw)
            body = raw.strip()
            if number == 1 and body.startswith(b"\xef\xbb\xbf"):
                body = body[3:]
                start += 3
            if not body:
                continue
            if len(body) > MAX_DEPTH and nested_too_deeply(body):
                self._warn(number, f"skipped ({TOO_DEEP})")
                continue
            try:
                doc_id = decode_id(body).id if fast else read_source(decode_any(body), self.id_source)
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                self._warn(number, f"skipped ({why_not_a_document(body, exc)})")
                continue
            except RecursionError:
                self._warn(number, f"skipped ({TOO_DEEP})")
                continue
            if fast and doc_id is None and b'"id"' not in body:
                doc_id = _NOTHING
            add(doc_id, start, offset, number)
        self._run.flush()  # before the lines after them

    def _index_csv(self, handle: io.BufferedReader) -> None:
        allow_long_fields()
        lines = _CsvLines(handle)
        reader = csv.reader(lines, delimiter=self._delimiter, strict=True)
        try:
            self._header = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise DocsError(f"{self.path}, line 1: the header row is not valid CSV ({exc})") from None
        if lines.bad:
            raise DocsError(f"{self.path}, line 1: the header row is {lines.bad}")
        for source in (self.id_source, self.text_source):
            if source not in self._header:
                raise DocsError(f"{self.path}: no column '{source}' (columns: {', '.join(self._header)})")
        self._id_column = self._header.index(self.id_source)
        add = self._run.add
        while True:
            lines.row_start = start = lines.offset
            line, lines.bad = lines.number + 1, ""
            try:
                row = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                self._warn(line, f"skipped ({_csv_problem(str(exc), line)})")
                lines.read_on_after_first_line(line)  # a quote never closed swallows no later row
                reader = csv.reader(lines, delimiter=self._delimiter, strict=True)
                continue
            if lines.bad:
                self._warn(line, f"skipped ({lines.bad})")
                continue
            if row:
                at = self._id_column
                add(row[at] if at < len(row) and row[at] else _NOTHING, start, lines.offset, line)

    def _load_json(self, handle: io.BufferedReader, lines_too: bool = False) -> bool:
        """Index a JSON corpus in a stream (`corpus_json`), or, when msgspec cannot read it,
        read it whole with the standard decoder (which words the error). False when it is JSON
        Lines after all (`lines_too`: the file starts with `{`, and holds one document or a
        document followed by more)."""
        data = handle.read()
        check_utf8(data)
        region = array_region(data, 3 if data.startswith(codecs.BOM_UTF8) else 0)
        if region is None or nested_too_deeply(data):  # the standard decoder says where
            text = data.decode("utf-8-sig")
            del data
            return self._load_json_whole(text, lines_too)
        del data
        index = self._places
        try:
            for spans in array_documents(handle, *region, partial(ids_in_piece, id_source=self.id_source)):
                if index.add_run(*spans):
                    continue
                for doc_id, start, end, line in zip(*spans, strict=True):
                    if isinstance(doc_id, str) and index.add(doc_id, start, end, line):
                        continue
                    position = index.skip()
                    if isinstance(doc_id, str):
                        first = index.position(index.row(doc_id))  # type: ignore[arg-type]
                        self._warn(position, f"skipped (id {doc_id!r} already document {first})", "document")
                    else:
                        self._warn(position, "skipped (no string id)", "document")
        except CorpusChanged as exc:
            raise DocsError(f"{self.path}: {exc}") from None
        return True

    def _load_json_whole(self, text: str, lines_too: bool) -> bool:
        """A JSON corpus msgspec cannot read (not JSON, `NaN`, a lone surrogate escape, nested
        too deeply, no `documents` array), read whole: the documents are kept parsed."""
        documents = _whole_json_documents(self.path, text, lines_too)
        if documents is None:
            return False
        first_at: dict[str, int] = {}
        for position, obj in enumerate(documents, start=1):
            doc_id = read_source(obj, self.id_source)
            if not isinstance(doc_id, str):
                self._warn(position, "skipped (no string id)", "document")
            elif doc_id in self._texts:
                already = f"skipped (id {doc_id!r} already document {first_at[doc_id]})"
                self._warn(position, already, "document")
            else:
                self._texts[doc_id] = obj
                first_at[doc_id] = position
        return True

    # -- reading --------------------------------------------------------------

    def lookup(self, doc_id: str) -> DocText:
        """The document's text, read from the file now; or why there is none. Never raises:
        a file changed since it was indexed says so."""
        if self._texts:
            obj = self._texts.get(doc_id)
            if obj is None:
                return DocText(doc_id, None, "", f"not in {self.path}")
            return self._text_of(doc_id, obj, "")
        row = self._places.row(doc_id)
        if row is None:
            return DocText(doc_id, None, "", f"not in {self.path}")
        if self._fd is None:
            return DocText(doc_id, None, "", f"{self.path} is closed")
        start, size, line = self._places.place(row)
        where = f", line {line}"
        if self.format == "json":
            where = f", document {self._places.position(row)} (line {line})"
        try:
            data = os.pread(self._fd, size, start)
            text = data.decode("utf-8")
        except (OSError, UnicodeDecodeError, MemoryError) as exc:
            return DocText(doc_id, None, "", f"{self.path}{where}: cannot read ({exc})")
        obj = self._read_back(text) if len(data) == size else None
        if isinstance(obj, str):  # why it cannot be read
            return DocText(doc_id, None, "", f"{self.path}{where}: {obj}")
        if obj is None or read_source(obj, self.id_source) != doc_id:
            return DocText(doc_id, None, "", f"{self.path}{where}: {CHANGED}")
        return self._text_of(doc_id, obj, where)

    def _read_back(self, text: str) -> dict[str, Any] | str | None:
        """The document indexed at this place, read back: None when the place no longer
        holds one document (the file changed), a string saying why it cannot be read."""
        if self.format == "csv":
            return _csv_row_back(text, self._header, self._delimiter)
        if nested_too_deeply(text):
            return TOO_DEEP
        try:
            obj = decode(text)
        except RecursionError:
            return TOO_DEEP
        except ValueError:
            return None
        return obj if isinstance(obj, dict) else None

    def _text_of(self, doc_id: str, obj: Any, where: str) -> DocText:
        text = read_source(obj, self.text_source)
        if isinstance(text, str):
            return DocText(doc_id, text, self.path)
        what = "no" if text is _NOTHING else f"a {json_type_name(text)} for its"
        return DocText(doc_id, None, "", f"{self.path}{where}: {what} '{self.text_source}' text")

    def text(self, doc_id: str) -> str | None:
        """The document's text, or None when the corpus has none for it."""
        return self.lookup(doc_id).text


class _CsvLines:
    """The physical lines of a CSV corpus as text, for `csv.reader`: split on `\\n`, `\\r\\n`
    and a bare `\\r` (old Mac files), counting lines and bytes so each row's place in the
    file is known. A row's bytes that are not UTF-8 are passed on repaired and said in `bad`."""

    def __init__(self, handle: io.BufferedReader) -> None:
        self.handle = handle
        self.offset = 0  # where the next line starts
        self.number = 0  # lines read
        self.bad = ""  # what is wrong with the current row's bytes
        self.row_start = 0  # where the current row starts (set by the reader of rows)
        self.first_end = 0  # where the current row's first line ends

    def __iter__(self) -> Iterator[str]:
        """The lines from where the file is now (a new pass after `read_on_after_first_line`)."""
        for raw in self.handle:
            # A carriage return other than the line's own \r\n splits it (bytes.splitlines
            # splits only on \n, \r\n and \r, never on Unicode breaks).
            bare = raw.count(b"\r") > raw.endswith(b"\r\n")
            for piece in raw.splitlines(keepends=True) if bare else (raw,):
                start = self.offset
                self.offset = end = start + len(piece)
                self.number += 1
                if start == self.row_start:
                    self.first_end = end
                try:
                    yield piece.decode("utf-8-sig" if start == 0 else "utf-8")
                except UnicodeDecodeError as exc:
                    if not self.bad:
                        self.bad = f"not valid UTF-8: byte 0x{piece[exc.start]:02x} on line {self.number}"
                    yield piece.decode("utf-8", "replace")

    def read_on_after_first_line(self, line: int) -> None:
        """Go back to the line after the first line of the row just read (line `line`)."""
        self.handle.seek(self.first_end)
        self.offset, self.number = self.first_end, line


def _csv_row_back(text: str, header: list[str], delimiter: str) -> dict[str, Any] | None:
    """A CSV corpus's row read back as a document (column: cell), or None when `text` is no
    longer one row (the file changed)."""
    rows = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    try:
        fields, more = next(rows, []), next(rows, None)
    except csv.Error:
        return None
    if more is not None:
        return None
    obj: dict[str, Any] = {}
    for column, cell in zip(header, fields, strict=False):
        obj.setdefault(column, cell)  # a column named twice: the first, as indexed
    return obj


def _csv_problem(message: str, line: int) -> str:
    if message == "unexpected end of data":
        return f"a quoted cell is never closed; read on from line {line + 1}"
    if message.startswith("field larger than field limit"):
        return f"a cell is longer than {FIELD_LIMIT:,} characters"
    return f"not valid CSV: {message}"


def _whole_json_documents(path: str, text: str, lines_too: bool) -> list[Any] | None:
    """The documents of a JSON corpus read whole by the standard decoder; None when it is JSON
    Lines after all (`lines_too`). Raises DocsError naming the line where it is not JSON."""
    if nested_too_deeply(text):
        raise DocsError(f"{path}, line {text.count(chr(10), 0, _deepest(text)) + 1}: {TOO_DEEP}")
    try:
        data = decode(text)
    except json.JSONDecodeError as exc:
        if lines_too and exc.msg == "Extra data":
            return None
        raise DocsError(f"{path}, line {exc.lineno}: not JSON ({exc.msg})") from None
    except RecursionError:
        line = text.count("\n", 0, _deepest(text)) + 1
        raise DocsError(f"{path}, line {line}: {TOO_DEEP}") from None
    except ValueError as exc:  # what the decoder itself refuses
        raise DocsError(f"{path}: not JSON ({exc})") from None
    if isinstance(data, dict) and isinstance(data.get("documents"), list):
        return data["documents"]
    if lines_too and isinstance(data, dict):
        return None
    if not isinstance(data, list):
        raise DocsError(f"{path}: expected a JSON array of documents, or an object with a 'documents' array")
    return data


def _deepest(text: str) -> int:
    """Where JSON text `text` first reaches its deepest nesting (strings skipped)."""
    depth = deepest = at = 0
    for match in _BRACKET_OR_STRING.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > deepest:
                deepest, at = depth, match.start()
        elif token in "]}":
            depth -= 1
    return at


_BRACKET_OR_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _probe_lines(handle: io.BufferedReader) -> Iterator[tuple[bytes, bool]]:
    """The first non-blank lines, each cut at PROBE_LINE bytes: (line, whether whole)."""
    found = 0
    while found < PROBE_LINES and (line := handle.readline(PROBE_LINE)):
        whole = len(line) < PROBE_LINE or line.endswith(b"\n")
        while not whole and (rest := handle.readline(PROBE_LINE)) and not rest.endswith(b"\n"):
            pass  # the rest of an over-long line, not kept
        if line.strip(b"\xef\xbb\xbf \t\r\n"):
            found += 1
            yield line, whole


def _parsed(line: bytes) -> tuple[Any, bool]:
    """(the line's JSON value or _NOTHING, whether it failed only by ending too soon)."""
    text = line.decode("utf-8-sig", "replace").strip()
    if nested_too_deeply(text):
        return _NOTHING, False
    try:
        return decode(text), False
    except json.JSONDecodeError as exc:
        return _NOTHING, exc.pos >= len(text)
    except (ValueError, RecursionError):
        return _NOTHING, False


def _is_document(value: Any) -> bool:
    return isinstance(value, dict) and not isinstance(value.get("documents"), list)


def _one_json_document(handle: io.BufferedReader) -> bool:
    """Whether a file that starts with `{` is one JSON object holding a `documents` array,
    rather than JSON Lines. The first line decides when it is whole and readable; a first
    line that is bad (not merely unfinished) means JSON Lines; an unfinished or over-long
    one means JSON when it opens the object (`{` alone, or naming `"documents"`), else
    unless one of the next lines is a document of its own (a first document cut short)."""
    try:
        probe = _probe_lines(handle)
        first, whole = next(probe, (b"", True))
        value, unfinished = _parsed(first) if whole else (_NOTHING, True)
        if value is not _NOTHING:
            return not _is_document(value)
        if not unfinished:
            return False
        if first.strip(b"\xef\xbb\xbf \t\r\n") == b"{" or b'"documents"' in first:
            return True
        return not any(whole and _is_document(_parsed(line)[0]) for line, whole in probe)
    finally:
        handle.seek(0)


def run_texts(store: RunStore, row: int) -> dict[str, str]:
    """The texts a run carries for its own document IDs: id -> text.

    RAGAS's `retrieved_contexts` and `reference_contexts` are read position by position
    beside the supplied and the required IDs, when a list has exactly as many strings as
    its ID list has IDs; otherwise that list is ignored (the positions cannot be matched).
    An ID listed twice takes its first text. Empty for an invalid row. A run whose documents
    are given as texts (`--match`, or a preset's text columns) gives each its content ID.
    """
    if not store.is_valid(row):
        return {}
    raw = store.raw(row)
    given = store.field_map.texts_of(raw) if store.field_map is not None else None
    if given is not None:  # documents given as texts: each is its own content ID's text
        _, required, supplied = given
        return {content_id(text): text for text in (*required, *supplied)}
    fields = store.fields(row)
    texts: dict[str, str] = {}
    for field, text_field in RUN_TEXT_FIELDS.items():
        ids = getattr(fields, field) or []
        values = raw.get(text_field) if isinstance(raw, dict) else None
        if not isinstance(values, list) or len(values) != len(ids):
            continue
        if not all(isinstance(value, str) for value in values):
            continue
        for doc_id, text in zip(ids, values, strict=True):
            texts.setdefault(doc_id, text)
    return texts


def missed_texts(store: RunStore, doc_ids: Sequence[str]) -> dict[str, str]:
    """The texts of the documents `doc_ids` (the most-missed ones) that are given as texts
    (content IDs), by ID, read from the first runs that miss them: a few runs for the most
    missed, and never a corpus. Empty when none of them is a content ID."""
    wanted = {doc for doc in doc_ids if is_content_id(doc)}
    found: dict[str, str] = {}
    for row, missing in store.missing.items():
        if not wanted:
            break
        if wanted.isdisjoint(missing):
            continue
        texts = run_texts(store, row)
        for doc in wanted.intersection(missing):
            if doc in texts:
                found[doc] = texts[doc]
                wanted.discard(doc)
    return found


def nearest_supplied(store: RunStore, row: int, required: str) -> Nearest | None:
    """For a required text of a run whose documents are texts, and not itself supplied word for
    word: its best similarity with the run's supplied texts (RAGAS's) and the closest of them.
    None for a run of IDs, or a text supplied as it is."""
    if store.field_map is None or not store.is_valid(row):
        return None
    given = store.field_map.texts_of(store.raw(row))
    if given is None:
        return None
    match, _, supplied = given
    if content_id(required) in {content_id(text) for text in supplied}:
        return None
    return match.nearest(required, supplied)


def document_text(doc_id: str, carried: Mapping[str, str], docs: DocStore | None) -> DocText:
    """A document's text: the run's own first, then the corpus; or why there is none."""
    text = carried.get(doc_id)
    if text is not None:
        return DocText(doc_id, text, "run")
    if docs is not None:
        return docs.lookup(doc_id)
    return DocText(doc_id, None, "", "no text: the run carries none and no --docs file is open")


_HIGH, _LOW = rb"\\u[dD][89abAB][0-9a-fA-F]{2}", rb"\\u[dD][c-fC-F][0-9a-fA-F]{2}"
_LONE_SURROGATE = re.compile(rb"%s(?!%s)|(?<!%s)%s" % (_HIGH, _LOW, _HIGH, _LOW))


def why_not_a_document(body: bytes, exc: Exception) -> str:
    """Why a JSON Lines line that msgspec refused is no document, as the standard decoder sees
    it: not UTF-8, not JSON (and where), nested too deeply, not an object, or holding a lone
    surrogate escape (legal JSON that msgspec refuses), rather than "not a JSON object" for all."""
    if nested_too_deeply(body):
        return TOO_DEEP
    try:
        obj = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        return "not UTF-8"
    except json.JSONDecodeError as error:
        return f"not JSON: {error.msg}, column {error.colno}"
    except RecursionError:
        return TOO_DEEP
    except ValueError as error:  # an integer of too many digits
        return f"not JSON that can be read ({error})"
    if not isinstance(obj, dict):
        kind = json_type_name(obj)
        return f"not a JSON object but {'an' if kind[0] in 'aeiou' else 'a'} {kind}"
    lone = _LONE_SURROGATE.search(body)
    if lone:
        return f"a lone surrogate escape ({lone.group().decode()}), which no UTF-8 text can hold"
    return f"not standard JSON ({exc})"
