"""Reading run files: format detection, streaming, and per-line validation.

Formats, detected by content: JSON Lines; a JSON array of runs; a JSON object with
a `runs` array; and the seed's case-file format (an array of objects with `input`
and optional `expected`). Every record becomes a `Run` or a `LoadError`; a bad
record never stops the rest of the file from loading. Problems with the file as a
whole (missing, a directory, empty, not UTF-8) raise `FileError` before anything
is yielded.

JSON Lines, the format of large sweeps, is read as a stream. Each line is first
decoded by msgspec into a typed mirror of `models.RunFields` (fast, strict, only
the fields the rule reads); any line it rejects is decoded again by the stdlib and
validated by pydantic, which words the error. Both paths apply the same strict
schema, and a test holds them to the same verdicts.

CSV files (see `csv_runs` for how they are recognised and read) go through the
same validation row by row. With a `mapping.FieldMap`, each record is decoded
generically, mapped, then validated as above; the typed fast path is only for
files in the rule's own field names. Either way a run keeps its original text.
"""

from __future__ import annotations

import itertools
import json
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from ..common.jsonutil import DECODER, MAX_DEPTH, decode_exact, dumps, nested_too_deeply
from ..common.reads import RUN_FILE, register_read
from . import csv_runs, parquet_runs, split_read, text_cache
from .detect import FileError, detect, value_end
from .mapping import FieldMap
from .rule import InvalidRun, as_diagnosis, outcome
from .stages import STAGE_CODE
from .texts import SIMILARITY

if TYPE_CHECKING:
    from .models import RunFields

Progress = Callable[[int, int], None]
"""Called as `progress(bytes_read, total_bytes)` while a file loads."""

NO_EXPECTED: Any = object()
"""`Run.expected` when the record carries no expectation (anything but a case file)."""

INVALID_JSON = "invalid-json"
INVALID_RUN = "invalid-run"

CHUNK_SIZE = 1 << 20  # bytes read at a time; progress is reported per chunk


@dataclass(slots=True)
class Run:
    """One valid run, as loaded. `raw` is the run's own JSON text, kept for export."""

    line: int
    id: str
    required: list[str] | None
    context: list[str] | None
    label: Any
    question: str | None
    diagnosis: dict[str, Any]
    raw: bytes
    expected: Any = NO_EXPECTED


@dataclass(slots=True)
class LoadError:
    """One record that is not a run the rule can evaluate."""

    line: int
    kind: str
    reason: str
    field: str | None = None
    id: str | None = None
    mapped_to: str | None = None  # the run field that `field` was mapped to, if any

    @property
    def detail(self) -> str:
        if not self.field:
            return self.reason
        if self.mapped_to:
            return f"field '{self.field}' (mapped to {self.mapped_to}): {self.reason}"
        return f"field '{self.field}': {self.reason}"

    def message(self, path: str | os.PathLike[str]) -> str:
        return f"{os.fspath(path)}, line {self.line}: {self.detail}"


Record = Run | LoadError


class RunSink(Protocol):
    """Where a `RecordBuilder` puts each valid run, instead of making a `Run` of it.

    The store and the `diagnose` writer are sinks: a big file's runs go into their
    columns or output with no object per run. `stage` is the stage code
    (`stages.STAGES`); `missing` is the diagnosis's `missing` (None if it has none).
    """

    def add_run(
        self,
        line: int,
        run_id: str,
        stage: int,
        label: Any,
        required: list[str] | None,
        context: list[str] | None,
        question: str | None,
        missing: list[str] | None,
        raw: bytes,
        expected: Any,
    ) -> None: ...


class _Fields(msgspec.Struct):
    """msgspec's mirror of `models.RunFields`, for the fast path."""

    id: str | None = None
    required: list[str] | None = None
    context: list[str] | None = None
    correct: Any = None
    question: Any = None


_fast_decode = msgspec.json.Decoder(_Fields).decode
_any_decode = msgspec.json.Decoder().decode


def decode_fields(raw: bytes) -> Any:
    """The rule's fields (`id`, `required`, `context`, `correct`, `question`) of one run's
    JSON text, by the fast decoder: strict, no error wording. Raises ValueError (a
    msgspec error) on any doubt; `models.validate_run` then decides and words it."""
    return _fast_decode(raw)


def _fast_convert(obj: Any) -> _Fields:
    return msgspec.convert(obj, _Fields, strict=True)


def validate_run(obj: Any) -> RunFields:
    """`models.validate_run`: pydantic decides and words what the fast path doubted.

    Imported on first use, so a file whose every run the fast path accepts (and the
    app's first screen) never loads pydantic.
    """
    from .models import validate_run as validate

    return validate(obj)


def validate_mapped(obj: Any, field_map: FieldMap) -> RunFields:
    """`models.validate_run` on `obj` as mapped; an error names the source field."""
    try:
        return validate_run(field_map.apply(obj))
    except InvalidRun as exc:
        raise field_map.renamed(exc) from None


_JSON_WHITESPACE = b" \t\r\n"  # not \v or \f: a line of those is not blank to JSON
# NaN and Infinity outside the rule's fields are read (RULE.md); in them, a number is a number.
_json = DECODER


def _parse_error(exc: BaseException) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON: {exc.msg} (column {exc.colno})"
    if isinstance(exc, RecursionError):
        return NESTED_TOO_DEEPLY
    return f"not valid JSON: {exc}"


NESTED_TOO_DEEPLY = f"not valid JSON: nested too deeply (over {MAX_DEPTH} levels)"


class RecordBuilder:
    """Turns the parsed records of one file into `Run`s and `LoadError`s, in file order.

    It names a run without an id by its 1-based position among the file's records,
    and makes a repeated id an invalid run ("duplicate id, first seen on line N"),
    so one builder must see every record of a file. Each reader of a format feeds it:
    `read_line` a JSON Lines line, `from_object` a decoded record (with its case, for
    a case file), `from_csv_row` a CSV row. Each returns the `LoadError` or the `Run`
    made, or None: for a blank line, or a run given to the builder's `sink`.
    """

    def __init__(self, field_map: FieldMap | None = None, sink: RunSink | None = None) -> None:
        self.sink = sink
        self.position = 0
        self.first_seen: dict[str, int] = {}
        self.field_map = field_map or None
        # One JSON Lines record; only files in the rule's own names get the typed fast path.
        self.read_line = self.from_line if self.field_map is None else self._mapped_line

    def build(
        self,
        line: int,
        fields: Any,
        raw: bytes,
        case_id: Any = None,
        expected: Any = NO_EXPECTED,
    ) -> Record | None:
        if len(raw) > MAX_DEPTH and nested_too_deeply(raw):
            return LoadError(line, INVALID_JSON, NESTED_TOO_DEEPLY)
        if raw.endswith(b"\r"):  # a CRLF line end; the text kept is the run's own
            raw = raw[:-1]
        run_id = case_id if case_id is not None and isinstance(case_id, str) else fields.id
        if run_id is None:
            run_id = str(self.position)
        seen = self.first_seen
        size = len(seen)
        first = seen.setdefault(run_id, line)
        if len(seen) == size:  # already seen: a repeated id, even on the same line
            return self._duplicate(line, run_id, first, in_run=not isinstance(case_id, str))
        required, context, label = fields.required, fields.context, fields.correct
        try:
            stage, missing = outcome(required, context, label)
        except InvalidRun as exc:
            return self._invalid(line, exc, run_id)
        question = fields.question if isinstance(fields.question, str) else None
        if self.sink is not None:
            self.sink.add_run(
                line, run_id, STAGE_CODE[stage], label, required, context, question, missing, raw, expected
            )
            return None
        diagnosis = as_diagnosis(stage, missing)
        return Run(line, run_id, required, context, label, question, diagnosis, raw, expected)

    def from_object(
        self, line: int, obj: Any, raw: bytes, case: dict[str, Any] | None = None
    ) -> Record | None:
        self.position += 1
        case_id = case.get("id") if case is not None else None
        field_map = self.field_map
        try:
            fields = validate_run(obj) if field_map is None else validate_mapped(obj, field_map)
        except InvalidRun as exc:
            known = case_id if isinstance(case_id, str) else None
            if known is None and field_map is not None:
                known = field_map.id_of(obj)
            elif known is None and isinstance(obj, dict) and isinstance(obj.get("id"), str):
                known = obj["id"]
            return self._invalid(line, exc, known)
        expected = case.get("expected", NO_EXPECTED) if case is not None else NO_EXPECTED
        return self.build(line, fields, raw, case_id, expected)

    def from_lines(self, lines: list[bytes], line: int) -> Iterator[Record]:
        """`read_line` over a chunk of JSON Lines lines, the first numbered `line + 1`.

        The hot loop of a big file: with the rule's own field names and a sink, each
        run the fast decoder accepts goes from its bytes to the sink in this one frame
        (the checks of `build`, in the same order); any doubt takes the careful path.
        """
        sink = self.sink
        if sink is not None and self.field_map is None:
            yield from self._fast_lines(lines, line, sink)
            return
        read_line = self.read_line
        for raw in lines:
            line += 1
            record = read_line(line, raw)
            if record is not None:
                yield record

    def _fast_lines(self, lines: list[bytes], line: int, sink: RunSink) -> Iterator[Record]:
        decode, add_run, stage_code = _fast_decode, sink.add_run, STAGE_CODE
        seen = self.first_seen
        position = self.position  # kept here, and in `self.position` whenever it is read
        try:
            for raw in lines:
                line += 1
                try:
                    fields = decode(raw)
                except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
                    self.position = position
                    record = self.careful_line(line, raw)
                    position = self.position
                    if record is not None:
                        yield record
                    continue
                position += 1
                if len(raw) > MAX_DEPTH and nested_too_deeply(raw):
                    yield LoadError(line, INVALID_JSON, NESTED_TOO_DEEPLY)
                    continue
                if raw[-1:] == b"\r":
                    raw = raw[:-1]
                run_id = fields.id
                if run_id is None:
                    run_id = str(position)
                if run_id in seen:
                    yield self._duplicate(line, run_id, seen[run_id])
                    continue
                seen[run_id] = line
                required, context, label = fields.required, fields.context, fields.correct
                try:
                    stage, missing = outcome(required, context, label)
                except InvalidRun as exc:
                    yield self._invalid(line, exc, run_id)
                    continue
                question = fields.question
                add_run(
                    line,
                    run_id,
                    stage_code[stage],
                    label,
                    required,
                    context,
                    question if question.__class__ is str else None,
                    missing,
                    raw,
                    NO_EXPECTED,
                )
        finally:
            self.position = position

    def from_line(self, line: int, raw: bytes) -> Record | None:
        """A JSON Lines record: the fast path first, the careful path on any doubt."""
        try:
            fields = _fast_decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            return self.careful_line(line, raw)
        self.position += 1
        return self.build(line, fields, raw)

    def _duplicate(self, line: int, run_id: str, first: int, in_run: bool = True) -> LoadError:
        repeated = InvalidRun("id", f'duplicate id "{run_id}", first seen on line {first}')
        return self._invalid(line, repeated, run_id, in_run=in_run)

    def _invalid(self, line: int, exc: InvalidRun, run_id: str | None, in_run: bool = True) -> LoadError:
        """An invalid run; with a field map, the error names the field as the file does."""
        if self.field_map is not None and in_run:
            exc = self.field_map.renamed(exc)
        return LoadError(line, INVALID_RUN, exc.reason, exc.field, run_id, getattr(exc, "mapped_to", None))

    def _mapped_line(self, line: int, raw: bytes) -> Record | None:
        """A JSON Lines record in other field names: decoded whole, then mapped.

        As in `from_line`, msgspec checks the mapped fields first; on any doubt the
        careful path (pydantic) decides and words the error.
        """
        try:
            obj = _any_decode(raw)
        except (msgspec.DecodeError, RecursionError):
            try:
                obj = _json.decode(raw.decode("utf-8"))
            except (ValueError, RecursionError):
                return self.careful_line(line, raw)
            return self.from_object(line, obj, raw)
        try:
            fields = _fast_convert(self.field_map.apply(obj))  # type: ignore[union-attr]
        except (InvalidRun, msgspec.ValidationError):
            return self.from_object(line, obj, raw)
        self.position += 1
        return self.build(line, fields, raw)

    def from_csv_row(self, line: int, row: dict[str, Any] | csv_runs.RowError) -> Record | None:
        """One row of a CSV file, as `csv_runs` read it."""
        if isinstance(row, dict):
            return self.from_object(line, row, csv_runs.dump(row))
        self.position += 1
        kind = csv_runs.INVALID_CSV if row.broken else INVALID_RUN
        return LoadError(line, kind, row.reason, row.field, row.run_id, row.mapped_to)

    def careful_line(self, line: int, raw: bytes) -> Record | None:
        """The stdlib and pydantic decide and word the error; None for a blank line."""
        if not raw.strip(_JSON_WHITESPACE):
            return None
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            self.position += 1
            byte = raw[exc.start]
            return LoadError(
                line,
                INVALID_JSON,
                f"not valid UTF-8 (byte 0x{byte:02x} at column {exc.start + 1})",
            )
        try:
            obj = _json.decode(text)
        except (ValueError, RecursionError) as exc:
            self.position += 1
            return LoadError(line, INVALID_JSON, _parse_error(exc))
        return self.from_object(line, obj, raw)


def check_readable(path: str | os.PathLike[str]) -> None:
    """Raise FileError, naming the file, unless `path` is a regular file that can be read.

    For a command to refuse a bad path before it starts (the app, `serve`); reading
    checks the same again, so a file that goes away in between is still reported.
    """
    handle, _ = _open_checked(path)
    handle.close()


def _open_checked(path: str | os.PathLike[str]) -> tuple[Any, int]:
    name = os.fspath(path)
    try:
        # Non-blocking: opening a named pipe with no writer would otherwise hang here.
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise FileError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise FileError(f"{name}: is a directory, not a run file") from None
    except PermissionError:
        raise FileError(f"{name}: permission denied") from None
    except OSError as exc:
        raise FileError(f"{name}: cannot open ({exc.strerror})") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        what = "is a directory, not a run file" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise FileError(f"{name}: {what}")
    os.set_blocking(fd, True)
    register_read(name, RUN_FILE, info)
    return os.fdopen(fd, "rb"), info.st_size


def read_runs(
    path: str | os.PathLike[str],
    progress: Progress | None = None,
    field_map: FieldMap | None = None,
    *,
    sink: RunSink | None = None,
    split: bool = False,
) -> Iterator[Record]:
    """Every record of the run file, in file order.

    `field_map` says where the run fields are when the file uses other names. With a
    `sink`, each valid run goes to `sink.add_run` as it is read and only the
    `LoadError`s are yielded: the consumer puts each where it belongs before the
    next run arrives, so the sink still sees the file in order. With `split` and a
    sink that can take them (a `SplitHost`), a big JSON Lines file's second part is
    read by a second process (`split_read`).
    Raises FileError (before yielding anything) when the file cannot be read at all.
    """
    name = os.fspath(path)
    handle, total = _open_checked(name)
    builder = RecordBuilder(field_map, sink)
    match = field_map.text_match if field_map is not None else None
    if match is not None and match.mode == SIMILARITY:
        text_cache.read_cache(name, match)
    yield from _read_records(handle, name, builder, progress, total, split)
    if match is not None and match.mode == SIMILARITY:
        text_cache.write_cache(name, match)


def _read_records(
    handle: Any, name: str, builder: RecordBuilder, progress: Progress | None, total: int, split: bool
) -> Iterator[Record]:
    sink, field_map = builder.sink, builder.field_map
    with handle:
        if parquet_runs.is_parquet(handle.peek(len(parquet_runs.MAGIC))):
            yield from _read_parquet(handle, name, builder, progress, total)
            return
        kind, head = detect(handle, name, field_map)
        if kind == "csv":
            delimiter = csv_runs.delimiter_for(name, head.decode("utf-8"), field_map)
            yield from _read_csv(handle, head, name, delimiter, builder, progress, total)
        elif kind == "document":
            text = head + handle.read()
            yield from _read_document(text, name, progress, total, builder)
        else:
            part = None
            if split and sink is not None and builder.field_map is None:
                cut = split_read.cut_for(handle.fileno(), total, handle.tell())
                part = split_read.Part(name, cut) if cut is not None else None
            try:
                yield from _read_lines(handle, head, progress, total, builder, part)
            finally:
                if part is not None:
                    part.close()


def _read_csv(
    handle: Any,
    head: bytes,
    name: str,
    delimiter: str,
    builder: RecordBuilder,
    progress: Progress | None,
    total: int,
) -> Iterator[Record]:
    lines = itertools.chain(head.splitlines(keepends=True), handle)
    try:
        rows = csv_runs.CsvRunReader(lines, delimiter, builder.field_map, progress, total)
    except csv_runs.CsvHeaderError as exc:
        raise FileError(f"{name}: {exc}") from None
    for line, row in rows:
        record = builder.from_csv_row(line, row)
        if record is not None:
            yield record


def _read_parquet(
    handle: Any, name: str, builder: RecordBuilder, progress: Progress | None, total: int
) -> Iterator[Record]:
    """A Parquet file (see `parquet_runs`): each row validated as a run; its number is the row's."""
    rows = parquet_runs.read_rows(handle, progress, total)
    try:
        first = next(rows, None)
    except (parquet_runs.ParquetUnavailable, parquet_runs.ParquetFileError) as exc:
        raise FileError(f"{name}: {exc}") from None
    for number, obj, raw in itertools.chain([first] if first else [], rows):
        record = parquet_record(builder, number, obj, raw)
        if record is not None:
            yield record


def parquet_record(builder: RecordBuilder, number: int, item: Any, raw: bytes) -> Record | None:
    """A row of `parquet_runs.read_rows` as a record, for every reader of Parquet (this
    loader and both engines): a run, or an invalid one for a row with a cell that cannot
    be read (naming its field) and for the rest of a file that cannot be decoded."""
    if isinstance(item, parquet_runs.BadCell):
        builder.position += 1
        return LoadError(number, parquet_runs.INVALID_PARQUET, item.reason, item.field or None)
    if isinstance(item, str):
        builder.position += 1
        return LoadError(number, parquet_runs.INVALID_PARQUET, item)
    return builder.from_object(number, item, raw)


def unreadable_parquet(reason: str) -> LoadError:
    """A Parquet file of a dataset that cannot be read at all (not Parquet, truncated, empty,
    gone): one invalid run, its row 1, saying why. (A run file given alone is refused instead.)"""
    return LoadError(1, parquet_runs.INVALID_PARQUET, reason)


def line_chunks(handle: Any, head: bytes, limit: int | None = None) -> Iterator[tuple[list[bytes], int]]:
    """The lines of JSON Lines text (`head`, then the rest of `handle`), a chunk at a time,
    split at `\n` (a `\r` kept): (the chunk's whole lines, the bytes read for it; 0 at the end).

    With a `limit`, reading stops at that byte of the file: the file's first part, which
    must end just after a line end (`split_read`); no empty last line is made up there.
    """
    pending = head
    left = None if limit is None else limit - handle.tell()
    while True:
        chunk = handle.read(CHUNK_SIZE if left is None else min(CHUNK_SIZE, left))
        data = pending + chunk
        if chunk:
            if left is not None:
                left -= len(chunk)
            cut = data.rfind(b"\n") + 1
            pending = data[cut:]
            lines = data[:cut].split(b"\n")
            lines.pop()  # the empty piece after the last newline
        elif left is not None and not data:
            return
        else:
            lines = data.split(b"\n")
        yield lines, len(chunk)
        if not chunk:
            return


def _read_lines(
    handle: Any,
    head: bytes,
    progress: Progress | None,
    total: int,
    builder: RecordBuilder,
    part: split_read.Part | None = None,
) -> Iterator[Record]:
    """JSON Lines, read in chunks split at newlines: the hot loop of a big file.

    Blank lines are recognised only after the fast decoder balks at them. With a
    `part`, a child process reads the file from `part.cut` on (`split_read`) and this
    reads up to there, then takes the child's rows, or reads on itself if it must.
    """
    done = len(head)
    line = 0
    chunks = line_chunks(handle, head, None if part is None else part.cut)
    while True:
        for lines, size in chunks:
            yield from builder.from_lines(lines, line)
            line += len(lines)
            if part is not None:
                part.begin()  # once the first chunk, and so the first screenful, is in
                part.poll()
            if size:
                done += size
                if progress is not None:
                    progress(done + (part.done if part is not None else 0), total)
        host: split_read.SplitSink = builder.sink  # type: ignore[assignment]
        if part is None or split_read.join(part, host, builder.first_seen, line, builder.position):
            break
        part, chunks = None, line_chunks(handle, b"")  # the child's rows refused: read them here
    if progress is not None:
        progress(total, total)


def _line_at(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _skip_ws(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\r\n":
        index += 1
    return index


def _read_document(
    data: bytes,
    name: str,
    progress: Progress | None,
    total: int,
    builder: RecordBuilder,
) -> Iterator[Record]:
    """A whole-file JSON document: an array of runs or cases, or an object with `runs`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FileError(f"{name}, line {line}: not valid UTF-8") from None
    index = _skip_ws(text, 0)
    if text[index] == "{":
        # An object: find its `runs` array and read that element by element. Its end is
        # found by brackets, so a bad run inside does not hide trailing text after it.
        end = value_end(text, index)
        try:
            runs_at = _find_runs_array(text, index)
        except (ValueError, RecursionError) as exc:
            position = getattr(exc, "pos", index)
            yield LoadError(_line_at(text, position), INVALID_JSON, _parse_error(exc))
            return
        if runs_at is None:
            raise FileError(f"{name}: a JSON object without a `runs` array is not a run file")
        yield from _read_array(text, runs_at, builder, in_object=True)
        trailing = _skip_ws(text, end) if end is not None else len(text)
        if trailing < len(text):
            yield LoadError(
                _line_at(text, trailing),
                INVALID_JSON,
                "unexpected text after the JSON document",
            )
    else:
        yield from _read_array(text, index, builder, in_object=False)
    if progress is not None:
        progress(total, total)


def _next_element_line(text: str, index: int) -> int | None:
    """Where the next element starts after a broken one whose brackets cannot be followed.

    The next line that opens an object at the broken element's own indentation (a
    nested object is indented deeper); None when the element does not start its line.
    """
    line_start = text.rfind("\n", 0, index) + 1
    indent = text[line_start:index]
    if indent.strip(" \t"):
        return None
    at = text.find("\n" + indent + "{", index)
    return None if at < 0 else at + 1 + len(indent)


def _find_runs_array(text: str, index: int) -> int | None:
    """The index of the `[` that opens the top-level `runs` array of the object at index."""
    index = _skip_ws(text, index + 1)
    while index < len(text) and text[index] != "}":
        key, index = _json.raw_decode(text, index)
        index = _skip_ws(text, index) + 1  # past the colon
        index = _skip_ws(text, index)
        if key == "runs" and text[index] == "[":
            return index
        try:
            _, index = _json.raw_decode(text, index)
        except (ValueError, RecursionError):
            skipped = value_end(text, index)  # a bad value under another key: not ours to judge
            if skipped is None or skipped == index:
                raise
            index = skipped
        index = _skip_ws(text, index)
        if index < len(text) and text[index] == ",":
            index = _skip_ws(text, index + 1)
    return None


def _read_array(text: str, index: int, builder: RecordBuilder, in_object: bool) -> Iterator[Record]:
    """Read `[ value, value, ... ]` one element at a time, with each element's line.

    An element that does not parse costs that element only: its extent is found by
    brackets and strings (`detect.value_end`), and reading goes on after it.
    """
    index = _skip_ws(text, index + 1)
    line, counted = 1, 0
    is_cases: bool | None = None
    while index < len(text) and text[index] != "]":
        line += text.count("\n", counted, index)
        counted = index
        try:
            obj, end = _json.raw_decode(text, index)
        except (ValueError, RecursionError) as exc:
            end = value_end(text, index)
            if end is None or (end == index and text[index] != ","):
                resume = _next_element_line(text, index)
                if resume is None:
                    rest = "; the rest of the array cannot be read"
                    yield LoadError(line, INVALID_JSON, _parse_error(exc) + rest)
                    return
                builder.position += 1
                yield LoadError(line, INVALID_JSON, _parse_error(exc))
                index = resume
                continue
            if end > index:  # an element, not an empty place between two commas
                builder.position += 1
            yield LoadError(line, INVALID_JSON, _parse_error(exc))
        else:
            if is_cases is None:
                # A case file holds runs under `input`; DeepEval's `input` is a question.
                required = builder.field_map.source("required") if builder.field_map else "required"
                is_cases = isinstance(obj, dict) and "input" in obj and required not in obj
            record = _element_record(builder, line, obj, text[index:end], is_cases)
            if record is not None:
                yield record
        index = _skip_ws(text, end)
        if index < len(text) and text[index] == ",":
            index = _skip_ws(text, index + 1)
        elif index < len(text) and text[index] != "]":
            line += text.count("\n", counted, index)
            counted = index
            yield LoadError(line, INVALID_JSON, "expected ',' or ']' between runs")
            if text[index] not in "[{":  # garbage between runs: skip to the next separator
                end = value_end(text, index)
                if end is None or end == index:  # never closed, or closed by the wrong bracket
                    yield LoadError(line, INVALID_JSON, "the rest of the array cannot be read")
                    return
                index = _skip_ws(text, end + (text[end] == ","))
    yield from _array_end(text, index, in_object)


def _element_record(builder: RecordBuilder, line: int, obj: Any, text: str, is_cases: bool) -> Record | None:
    """One parsed element (`obj`, read from `text`) of the array as a record: a run, or
    in a case file the case's `input` with the case as its expectation."""
    if is_cases and isinstance(obj, dict) and "input" in obj:
        # The run's own text, every number as written (`obj` has Python's readings).
        exact = decode_exact(text)["input"]
        run_raw = dumps(exact).encode("utf-8", "surrogatepass")
        return builder.from_object(line, obj["input"], run_raw, case=obj)
    return builder.from_object(line, obj, text.encode("utf-8"))


def _array_end(text: str, index: int, in_object: bool) -> Iterator[LoadError]:
    """What is wrong at the end of an array read up to `index`: not closed, or (at the
    top level) followed by more text."""
    if index >= len(text):
        yield LoadError(
            _line_at(text, len(text)),
            INVALID_JSON,
            "the JSON array is not closed (truncated file?)",
        )
        return
    if not in_object:
        trailing = _skip_ws(text, index + 1)
        if trailing < len(text):
            yield LoadError(
                _line_at(text, trailing),
                INVALID_JSON,
                "unexpected text after the JSON array",
            )
