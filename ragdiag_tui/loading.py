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
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import msgspec

from .models import validate_run
from .rule import InvalidRun, diagnose_fields

Progress = Callable[[int, int], None]
"""Called as `progress(bytes_read, total_bytes)` while a file loads."""

NO_EXPECTED: Any = object()
"""`Run.expected` when the record carries no expectation (anything but a case file)."""

INVALID_JSON = "invalid-json"
INVALID_RUN = "invalid-run"

PROGRESS_EVERY = 8192  # lines between progress reports


class FileError(Exception):
    """The file as a whole cannot be read as a run file. The message names it."""


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

    @property
    def detail(self) -> str:
        return f"field '{self.field}': {self.reason}" if self.field else self.reason

    def message(self, path: str | os.PathLike[str]) -> str:
        return f"{os.fspath(path)}, line {self.line}: {self.detail}"


Record = Run | LoadError


class _Fields(msgspec.Struct):
    """msgspec's mirror of `models.RunFields`, for the fast path."""

    id: str | None = None
    required: list[str] | None = None
    context: list[str] | None = None
    correct: Any = None
    question: Any = None


_fast_decode = msgspec.json.Decoder(_Fields).decode


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


_json = json.JSONDecoder(parse_constant=_reject_constant)


def _parse_error(exc: BaseException) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"not valid JSON: {exc.msg} (column {exc.colno})"
    if isinstance(exc, RecursionError):
        return "not valid JSON: nested too deeply"
    return f"not valid JSON: {exc}"


class _Builder:
    """Turns parsed records into `Run`s, naming runs and catching repeated ids."""

    def __init__(self) -> None:
        self.position = 0
        self.first_seen: dict[str, int] = {}

    def build(
        self,
        line: int,
        fields: Any,
        raw: bytes,
        case_id: Any = None,
        expected: Any = NO_EXPECTED,
    ) -> Record:
        run_id = case_id if isinstance(case_id, str) else fields.id
        if run_id is None:
            run_id = str(self.position)
        first = self.first_seen.setdefault(run_id, line)
        if first != line:
            return LoadError(
                line,
                INVALID_RUN,
                f'duplicate id "{run_id}", first seen on line {first}',
                "id",
                run_id,
            )
        try:
            diagnosis = diagnose_fields(fields.required, fields.context, fields.correct)
        except InvalidRun as exc:
            return LoadError(line, INVALID_RUN, exc.reason, exc.field, run_id)
        question = fields.question if isinstance(fields.question, str) else None
        return Run(
            line,
            run_id,
            fields.required,
            fields.context,
            fields.correct,
            question,
            diagnosis,
            raw,
            expected,
        )

    def from_object(self, line: int, obj: Any, raw: bytes, case: dict[str, Any] | None = None) -> Record:
        self.position += 1
        case_id = case.get("id") if case is not None else None
        try:
            fields = validate_run(obj)
        except InvalidRun as exc:
            known = case_id if isinstance(case_id, str) else None
            if known is None and isinstance(obj, dict) and isinstance(obj.get("id"), str):
                known = obj["id"]
            return LoadError(line, INVALID_RUN, exc.reason, exc.field, known)
        expected = case.get("expected", NO_EXPECTED) if case is not None else NO_EXPECTED
        return self.build(line, fields, raw, case_id, expected)

    def from_line(self, line: int, raw: bytes) -> Record:
        """A JSON Lines record: the fast path first, the careful path on any doubt."""
        try:
            fields = _fast_decode(raw)
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            return self._careful_line(line, raw)
        self.position += 1
        return self.build(line, fields, raw)

    def _careful_line(self, line: int, raw: bytes) -> Record:
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


def _open_checked(path: str | os.PathLike[str]) -> tuple[Any, int]:
    name = os.fspath(path)
    try:
        handle = open(name, "rb")  # noqa: SIM115 - closed by the caller
    except FileNotFoundError:
        raise FileError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise FileError(f"{name}: is a directory, not a run file") from None
    except PermissionError:
        raise FileError(f"{name}: permission denied") from None
    except OSError as exc:
        raise FileError(f"{name}: cannot open ({exc.strerror})") from None
    if not os.path.isfile(name):
        handle.close()
        raise FileError(f"{name}: not a regular file")
    return handle, os.fstat(handle.fileno()).st_size


def _first_line(handle: Any, name: str) -> bytes:
    head = handle.readline()
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise FileError(f"{name}: the file is UTF-16, not UTF-8; convert it to UTF-8")
    if head.startswith(b"\xef\xbb\xbf"):
        head = head[3:]
    while not head.strip():
        more = handle.readline()
        if not more:
            raise FileError(f"{name}: the file is empty")
        head += more
    try:
        head.decode("utf-8")
    except UnicodeDecodeError:
        raise FileError(f"{name}: not a UTF-8 text file") from None
    return head


def read_runs(path: str | os.PathLike[str], progress: Progress | None = None) -> Iterator[Record]:
    """Every record of the run file, in file order.

    Raises FileError (before yielding anything) when the file cannot be read at all.
    """
    name = os.fspath(path)
    handle, total = _open_checked(name)
    with handle:
        head = _first_line(handle, name)
        first = head.lstrip()[:1]
        if first == b"[" or (first == b"{" and _is_single_document(head)):
            text = head + handle.read()
            yield from _read_document(text, name, progress, total)
            return
        yield from _read_lines(handle, head, progress, total)


def _is_single_document(head: bytes) -> bool:
    """Whether a file starting with `{` is one JSON document rather than JSON Lines."""
    try:
        obj = _json.decode(head.decode("utf-8"))
    except (ValueError, RecursionError):
        return True  # a first line that is not a whole object: a pretty-printed document
    return isinstance(obj, dict) and isinstance(obj.get("runs"), list)


def _read_lines(handle: Any, head: bytes, progress: Progress | None, total: int) -> Iterator[Record]:
    builder = _Builder()
    from_line = builder.from_line
    done = 0
    lines = head.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    line = 0
    for raw in lines:
        line += 1
        done += len(raw) + 1
        raw = raw.rstrip(b"\r")
        if raw.strip():
            yield from_line(line, raw)
    for raw in handle:
        line += 1
        done += len(raw)
        if line % PROGRESS_EVERY == 0 and progress is not None:
            progress(done, total)
        raw = raw.rstrip(b"\r\n")
        if raw and not raw.isspace():
            yield from_line(line, raw)
    if progress is not None:
        progress(total, total)


def _line_at(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _skip_ws(text: str, index: int) -> int:
    while index < len(text) and text[index] in " \t\r\n":
        index += 1
    return index


def _read_document(data: bytes, name: str, progress: Progress | None, total: int) -> Iterator[Record]:
    """A whole-file JSON document: an array of runs or cases, or an object with `runs`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise FileError(f"{name}, line {line}: not valid UTF-8") from None
    index = _skip_ws(text, 0)
    builder = _Builder()
    if text[index] == "{":
        # An object: find its `runs` array and read that element by element.
        try:
            _, end = _json.raw_decode(text, index)
        except (ValueError, RecursionError) as exc:
            yield LoadError(_line_at(text, index), INVALID_JSON, _parse_error(exc))
            yield from _read_lines_of_text(text, builder)
            return
        runs_at = _find_runs_array(text, index)
        if runs_at is None:
            raise FileError(f"{name}: a JSON object without a `runs` array is not a run file")
        yield from _read_array(text, runs_at, builder, in_object=True)
        trailing = _skip_ws(text, end)
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


def _read_lines_of_text(text: str, builder: _Builder) -> Iterator[Record]:
    """Fallback when a `{`-document does not parse: treat the rest as JSON Lines."""
    for line, raw in enumerate(text.split("\n"), start=1):
        if line == 1 or not raw.strip():
            continue
        yield builder.from_line(line, raw.rstrip("\r").encode("utf-8"))


def _find_runs_array(text: str, index: int) -> int | None:
    """The index of the `[` that opens the top-level `runs` array of the object at index."""
    index = _skip_ws(text, index + 1)
    while index < len(text) and text[index] != "}":
        key, index = _json.raw_decode(text, index)
        index = _skip_ws(text, index) + 1  # past the colon
        index = _skip_ws(text, index)
        if key == "runs" and text[index] == "[":
            return index
        _, index = _json.raw_decode(text, index)
        index = _skip_ws(text, index)
        if index < len(text) and text[index] == ",":
            index = _skip_ws(text, index + 1)
    return None


def _read_array(text: str, index: int, builder: _Builder, in_object: bool) -> Iterator[Record]:
    """Read `[ value, value, ... ]` one element at a time, with each element's line."""
    index = _skip_ws(text, index + 1)
    line, counted = 1, 0
    is_cases: bool | None = None
    while index < len(text) and text[index] != "]":
        line += text.count("\n", counted, index)
        counted = index
        try:
            obj, end = _json.raw_decode(text, index)
        except (ValueError, RecursionError) as exc:
            yield LoadError(
                line,
                INVALID_JSON,
                _parse_error(exc) + "; the rest of the array cannot be read",
            )
            return
        raw = text[index:end].encode("utf-8")
        if is_cases is None:
            is_cases = isinstance(obj, dict) and "input" in obj and "required" not in obj
        if is_cases and isinstance(obj, dict) and "input" in obj:
            run = obj["input"]
            run_raw = json.dumps(run, ensure_ascii=False).encode("utf-8", "surrogatepass")
            yield builder.from_object(line, run, run_raw, case=obj)
        else:
            yield builder.from_object(line, obj, raw)
        index = _skip_ws(text, end)
        if index < len(text) and text[index] == ",":
            index = _skip_ws(text, index + 1)
        elif index < len(text) and text[index] != "]":
            line += text.count("\n", counted, index)
            yield LoadError(
                line,
                INVALID_JSON,
                "expected ',' or ']' between runs; the rest cannot be read",
            )
            return
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
