"""The exact path: a file of a dataset read run by run by the local loader.

JSON Lines files always come this way, and so does a Parquet file whose columns the
SQL path cannot read exactly (see `schema`): the local loader (core.runs.loading's
`RecordBuilder`) decides each line or row, so the verdicts, the invalid lines with
their line numbers and the error wording are the local path's by construction.

Two things differ from reading a single run file, as a dataset defines them
(engines.results): a repeated id is not an error (each occurrence is a run), and a run
without an id is named `file:line`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec

from ...core.runs import parquet_runs
from ...core.runs.loading import (
    CHUNK_SIZE,
    INVALID_JSON,
    LoadError,
    RecordBuilder,
    line_chunks,
    parquet_record,
    unreadable_parquet,
)
from ...core.runs.mapping import FieldMap
from ...core.runs.stages import STAGE_NAMES
from ..records import error_row, exact_object, file_id
from ..results import dataset_run_id, filter_text, value_text

_decode = msgspec.json.Decoder().decode


@dataclass(slots=True)
class PyRun:
    """One line or row of a file: a valid run (`stage` set) or an invalid one (`error`)."""

    line: int
    id: str | None  # None: an invalid line that names no id
    stage: str | None
    label: Any
    missing: list[str] | None
    required: list[str] | None
    context: list[str] | None
    error: LoadError | None
    raw: bytes
    values: dict[str, str | None]  # the text of the fields asked for (group-by, filters)
    question: str | None = None

    def counts(self) -> tuple[int, int, int]:
        """(|required|, |context|, |required ∩ context|) over distinct IDs."""
        required = set(self.required or ())
        context = set(self.context or ())
        found = len(required & context) if required and context else 0
        return len(required), len(context), found


class _Sink:
    """Where the builder puts the one valid run it was just given."""

    def __init__(self) -> None:
        self.run: tuple[Any, ...] | None = None

    def add_run(self, line: int, run_id: str, stage: int, label: Any, required: list[str] | None,
                context: list[str] | None, question: str | None, missing: list[str] | None,
                raw: bytes, expected: Any) -> None:  # fmt: skip
        self.run = (run_id, STAGE_NAMES[stage], label, required, context, missing, question)


def json_lines(path: Path) -> Iterator[tuple[int, bytes]]:
    """(1-based line number, line bytes) as the local loader numbers them."""
    with open(path, "rb") as handle:
        head = handle.read(CHUNK_SIZE)
        if head.startswith(b"\xef\xbb\xbf"):
            head = head[3:]
        number = 0
        for lines, _ in line_chunks(handle, head):
            for raw in lines:
                number += 1
                yield number, raw


def _parquet_rows(path: Path) -> Iterator[tuple[int, Any, bytes]]:
    """Each row of a Parquet file; a file that cannot be read is one invalid row saying why."""
    try:
        with open(path, "rb") as handle:
            yield from parquet_runs.read_rows(handle)
    except parquet_runs.ParquetFileError as exc:
        yield 1, unreadable_parquet(str(exc)), b""
    except OSError as exc:
        yield 1, unreadable_parquet(f"cannot read it ({exc.strerror or exc})"), b""


def read_runs(
    path: Path, name: str, fmt: str, field_map: FieldMap | None, fields: Sequence[str] = (),
    filtering: bool = False,
) -> Iterator[PyRun]:  # fmt: skip
    """Every run and invalid line of one file, in order. `name` is the file's name in the
    dataset; `fields` the top-level fields whose text each run carries in `values`
    (`results.value_text`, or with `filtering` `results.filter_text`)."""
    records = json_lines(path) if fmt == "jsonl" else _parquet_rows(path)
    return runs_of(records, name, fmt, field_map, fields, filtering)


def runs_of(
    records: Iterable[tuple[Any, ...]], name: str, fmt: str, field_map: FieldMap | None,
    fields: Sequence[str] = (), filtering: bool = False,
) -> Iterator[PyRun]:  # fmt: skip
    """`read_runs` over records already read: (line, bytes) of JSON Lines, (row, object,
    bytes) of Parquet (a reason, not an object, for a part that cannot be decoded)."""
    sink = _Sink()
    builder = RecordBuilder(field_map, sink)
    for line, item, *rest in records:
        builder.first_seen.clear()  # in a dataset a repeated id is one more run
        if fmt == "jsonl":
            raw, obj = item, None
            record = builder.read_line(line, raw)
        elif isinstance(item, LoadError):  # the file cannot be read at all
            raw, obj, record = b"", None, item
        else:
            raw = rest[0]
            obj = item if isinstance(item, dict) else None
            record = parquet_record(builder, line, item, raw)
        if record is None and sink.run is None:
            continue  # a blank line
        values = _values(obj, raw, fields, filtering) if fields else {}
        if record is not None:
            if record.id is not None and record.id == str(builder.position):  # perhaps named by position
                record.id = dataset_run_id(_file_id(obj, raw, field_map), name, line)
            yield PyRun(line, record.id, None, None, None, None, None, record, raw, values)
            continue
        run_id, stage, label, required, context, missing, question = sink.run  # type: ignore[misc]
        sink.run = None
        if run_id == str(builder.position):  # perhaps no id: the builder named it by position
            run_id = dataset_run_id(_file_id(obj, raw, field_map), name, line)
        yield PyRun(line, run_id, stage, label, missing, required, context, None, raw, values, question)


def _file_id(obj: Any, raw: bytes, field_map: FieldMap | None) -> str | None:
    """The run's own id (mapped), when it has one that is a string."""
    return file_id(loose(raw) if obj is None else obj, field_map)


def loose(raw: bytes) -> Any:
    try:
        return _decode(raw)
    except (msgspec.DecodeError, RecursionError):
        from ...core.common.jsonutil import decode

        try:
            return decode(raw.decode("utf-8", "surrogatepass"))
        except (ValueError, RecursionError):
            return None


def _values(obj: Any, raw: bytes, fields: Sequence[str], filtering: bool) -> dict[str, str | None]:
    if obj is None:
        obj = loose(raw)
        if filtering and isinstance(obj, dict) and any(_is_number(obj.get(name)) for name in fields):
            obj = exact_object(raw)  # numbers as written, as the app's filter reads them
    if not isinstance(obj, dict):
        return dict.fromkeys(fields)
    if filtering:
        return {name: filter_text(obj, name) for name in fields}
    return {name: value_text(obj.get(name)) for name in fields}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def error_line(run: PyRun, name: str) -> dict[str, Any]:
    """An invalid line as a diagnosis row: the local `diagnose` error line, with its file."""
    assert run.error is not None
    return error_row(run.error, name)


__all__ = ["INVALID_JSON", "PyRun", "error_line", "json_lines", "loose", "read_runs", "runs_of"]
