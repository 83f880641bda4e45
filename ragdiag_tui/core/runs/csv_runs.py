"""CSV run files: one run per row, under a header row.

Which files are CSV:
1. A file whose first non-blank line starts with `{` or `[` is JSON, whatever its name.
2. Otherwise `.csv` is CSV (comma-separated) and `.tsv` is CSV with tabs.
3. Otherwise a JSON name (`.jsonl`, `.ndjson`, `.json`, `.jsonlines`) is JSON Lines,
   so a CSV saved under a JSON name shows every line as invalid JSON.
4. Any other name is CSV when its first line, read as a comma- or tab-separated
   header, has a `required` column (or the column `--map required=...` names);
   otherwise it is JSON Lines.

How a row reads (columns are matched by their exact header names; a mapped
SOURCE names a column exactly, so `--map context=retrieval.doc_ids` reads the
column `retrieval.doc_ids`):
- `required` and `context`: a JSON array (`["a","b"]`, the only way to write an ID
  that starts with `[` or holds a `;`) or `;`-separated IDs (`a;b`). IDs are kept
  exactly: no trimming, and `a;;b` holds an empty ID. A cell starting with `[`
  that is not valid JSON is an invalid run, except under a preset (`--preset`),
  where it may be a Python list literal (`['a', 'b']`), as pandas' `to_csv` writes
  lists. An empty cell is an empty list: for
  `required` that leaves the run unresolved; for `context` it means nothing was
  supplied (CSV cannot tell an absent value from an empty one).
- `correct`: `true` or `false`, in any letter case (`TRUE` from spreadsheets,
  `True` from pandas), is the label. An empty cell is null and any other text is
  kept as text: both are "no label", so the rule gives the `answer-label` error.
- `id`: an empty cell means no id, so the run is named by its position.
- Every other column, `question` and `answer` included, is kept as a string.
- A text cell (and a header name) that starts with one or more `'` and then `=`, `+`,
  `-`, `@`, tab or carriage return loses one `'`: that is how the export neutralises
  formulas (`neutralise`), so an exported ID such as `=x` or `'=x` reads back exactly.
- The header must have a `required` column (or its mapped source), and no column
  may appear twice; otherwise the whole file is refused.

A row with more or fewer cells than the header, bad quoting, or bytes that are not
UTF-8 is an invalid row; the rest of the file still loads. Blank lines are
skipped. Line numbers are physical lines (`\\n`, `\\r\\n` and a bare `\\r` each end
one), and a row's number is the line where it starts, so a quoted cell that spans
lines moves the next row's number on.

Each row becomes a JSON object, header name -> value, with the list and label
columns as parsed: that object is the run's text for export and for reloading.
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ..common.jsonutil import decode_standard, dumps
from .mapping import FieldMap, literal_id_list
from .rule import InvalidRun

INVALID_CSV = "invalid-csv"
CSV_SUFFIXES = {".csv": ",", ".tsv": "\t"}
JSON_SUFFIXES = (".jsonl", ".ndjson", ".json", ".jsonlines")
PROGRESS_EVERY = 8192  # lines between progress reports
FIELD_LIMIT = 2**31 - 1  # characters of a cell: a context list or a document can far exceed csv's 128 KiB


def allow_long_fields() -> None:
    """Raise `csv`'s field size limit (process-wide) to FIELD_LIMIT, the most it can take."""
    if csv.field_size_limit() < FIELD_LIMIT:
        csv.field_size_limit(FIELD_LIMIT)


class CsvHeaderError(ValueError):
    """The header row cannot be used: the whole file is refused."""


class RowError(InvalidRun):
    """A row that is not a run. `broken`: the row itself (cells, quoting, bytes),
    else one cell's value (an invalid run naming its column, as `field`)."""

    def __init__(
        self,
        reason: str,
        field: str | None = None,
        mapped_to: str | None = None,
        run_id: str | None = None,
        broken: bool = True,
    ) -> None:
        super().__init__(field, reason)
        self.mapped_to = mapped_to
        self.run_id = run_id
        self.broken = broken


def delimiter_for(name: str, head: str, field_map: FieldMap | None = None) -> str | None:
    """The delimiter if the file is CSV, else None. `head`: its first non-blank line(s)."""
    text = head.lstrip()
    if text[:1] in ("{", "["):
        return None
    suffix = os.path.splitext(name)[1].lower()
    if suffix in CSV_SUFFIXES:
        return CSV_SUFFIXES[suffix]
    if suffix in JSON_SUFFIXES:
        return None
    required = (field_map or FieldMap()).source("required")
    first = text.splitlines()[0] if text else ""
    for delimiter in (",", "\t"):
        try:
            cells = next(csv.reader([first], delimiter=delimiter, strict=True))
        except (csv.Error, StopIteration):
            continue
        if required in cells:
            return delimiter
    return None


def _id_list(cell: str) -> list[Any]:
    if not cell:
        return []
    if cell.startswith("["):
        try:
            return decode_standard(cell)
        except json.JSONDecodeError as exc:
            raise ValueError(
                f'not a JSON array of IDs ({exc.msg}, column {exc.colno}); write ["a", "b"] or a;b'
            ) from None
        except (ValueError, RecursionError) as exc:
            raise ValueError(f"not a JSON array of IDs ({exc})") from None
    return cell.split(";")


def _literal_or_id_list(cell: str) -> list[Any]:
    """`_id_list`, or a Python list literal (`['a', 'b']`, as pandas' `to_csv` writes lists)."""
    try:
        return _id_list(cell)
    except ValueError:
        return literal_id_list(cell)


def _text_list(cell: str) -> list[Any]:
    """A cell of texts (`--match`): a JSON array or a Python list literal, else one text."""
    if not cell:
        return []
    if cell.lstrip()[:1] in ("[", "("):
        try:
            return _literal_or_id_list(cell)
        except ValueError:
            pass
    return [restore(cell)]


def _score_label(cell: str) -> bool | float | str | None:
    """A label cell under `--label-threshold`: a decimal number is the score; else as `_label`."""
    try:
        return float(cell) if cell.strip() and cell.strip().lower() not in _NOT_SCORES else _label(cell)
    except ValueError:
        return _label(cell)


_NOT_SCORES = ("nan", "+nan", "-nan", "inf", "+inf", "-inf", "infinity", "+infinity", "-infinity")


def _label(cell: str) -> bool | str | None:
    lowered = cell.lower()
    if lowered == "true":
        return True
    if lowered == "false":
        return False
    return cell or None


def _optional(cell: str) -> str | None:
    return restore(cell) or None


# -- formulas: what export writes and this reader reverses --------------------------

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NEUTRALISED = re.compile(r"'+[=+\-@\t\r]")
_TO_NEUTRALISE = re.compile(r"'*[=+\-@\t\r]")


def neutralise(text: str) -> str:
    """Text a spreadsheet cannot run as a formula (OWASP CSV injection), reversibly.

    A cell that starts with `=`, `+`, `-`, `@`, tab or carriage return, after any
    number of `'`, gets one more leading `'`; `restore` removes exactly that one.
    """
    return "'" + text if _TO_NEUTRALISE.match(text) else text


def restore(cell: str) -> str:
    """The text `neutralise` was given: one leading `'` removed before `'...` and a formula character."""
    return cell[1:] if _NEUTRALISED.match(cell) else cell


def plain_id(item: str) -> bool:
    """Whether an ID can be written in a `;`-separated list cell and read back as it is."""
    return bool(item) and ";" not in item and not item.startswith(("[", "'", *FORMULA_START))


class _Lines:
    """Physical lines of a binary file as text, for `csv.reader`.

    Splits on `\\n`, `\\r\\n` and bare `\\r`, so `csv.reader.line_num` counts
    physical lines. A line that is not UTF-8 is passed on repaired and remembered,
    so the row that holds it can be refused.
    """

    def __init__(
        self,
        lines: Iterable[bytes],
        progress: Callable[[int, int], None] | None,
        total: int,
    ) -> None:
        self._lines = lines
        self._progress = progress
        self._total = total
        self.bad: dict[int, str] = {}  # line number -> what is wrong with it

    def __iter__(self) -> Iterator[str]:
        number = done = 0
        progress = self._progress
        for chunk in self._lines:
            done += len(chunk)
            # bytes.splitlines splits only on \n, \r\n and \r (never on Unicode breaks).
            parts = chunk.splitlines(keepends=True) if b"\r" in chunk else (chunk,)
            for raw in parts:
                number += 1
                if progress is not None and number % PROGRESS_EVERY == 0:
                    progress(done, self._total)
                try:
                    yield raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    byte = raw[exc.start]
                    self.bad[number] = (
                        f"not valid UTF-8 (byte 0x{byte:02x} on line {number}, column {exc.start + 1})"
                    )
                    yield raw.decode("utf-8", "replace")
        if progress is not None:
            progress(self._total, self._total)


class CsvRunReader:
    """The rows of a CSV run file as run objects. The header is read on creation.

    Iterating yields `(line, object)` for each row, or `(line, RowError)` for a
    row that cannot become a run.
    """

    def __init__(
        self,
        lines: Iterable[bytes],
        delimiter: str = ",",
        field_map: FieldMap | None = None,
        progress: Callable[[int, int], None] | None = None,
        total: int = 0,
    ) -> None:
        allow_long_fields()
        self._lines = _Lines(lines, progress, total)
        self._reader = csv.reader(self._lines, delimiter=delimiter, strict=True)
        self.columns = self._read_header()
        self._check_header(field_map or FieldMap())

    def _read_header(self) -> list[str]:
        try:
            for cells in self._reader:
                if cells and not (len(cells) == 1 and not cells[0].strip()):
                    if self._lines.bad:
                        raise CsvHeaderError(f"the header row is {next(iter(self._lines.bad.values()))}")
                    return [restore(cell) for cell in cells]
        except csv.Error as exc:
            raise CsvHeaderError(f"the header row is not valid CSV ({exc})") from None
        raise CsvHeaderError("the file has no header row")

    def _check_header(self, field_map: FieldMap) -> None:
        columns = self.columns
        seen: set[str] = set()
        for column in columns:
            if column in seen:
                raise CsvHeaderError(f"the header names the column '{column}' twice")
            seen.add(column)
        required = field_map.source("required")
        texts = field_map.text_sources
        if required not in seen and texts.get("required") in seen:
            required = texts["required"]
        if required not in seen:
            shown = ", ".join(f"'{c}'" for c in columns[:12]) + (", ..." if len(columns) > 12 else "")
            raise CsvHeaderError(
                f"the header has no '{required}' column (it has {shown}); "
                "name the column of required IDs with --map required=COLUMN"
            )
        # What each column's cells become, and which run field it feeds (for errors).
        readers: dict[str, tuple[Callable[[str], Any], str]] = {}
        id_list = _literal_or_id_list if field_map.literal_lists else _id_list
        if field_map.text_match is not None:
            id_list = _text_list
        label = _label if field_map.label_threshold is None else _score_label
        for field, read in (("id", _optional), ("correct", label), ("context", id_list)):
            readers[field_map.source(field)] = (read, field)
        readers[required] = (id_list, "required")
        self._readers = [readers.get(column) for column in columns]
        id_source = field_map.source("id")
        self._id_at = columns.index(id_source) if id_source in seen else None

    def __iter__(self) -> Iterator[tuple[int, dict[str, Any] | RowError]]:
        reader, bad = self._reader, self._lines.bad
        width = len(self.columns)
        while True:
            start = reader.line_num + 1
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as exc:
                bad.clear()
                yield start, RowError(_csv_reason(str(exc)))
                continue
            if not cells or (len(cells) == 1 and not cells[0].strip()):
                continue
            run_id = self._run_id(cells)
            if bad:
                reason = next(iter(bad.values()))
                bad.clear()
                yield start, RowError(reason, run_id=run_id)
                continue
            if len(cells) != width:
                reason = f"the row has {len(cells)} cells; the header has {width}"
                yield start, RowError(reason, run_id=run_id)
                continue
            yield start, self._object(cells, run_id)

    def _run_id(self, cells: list[str]) -> str | None:
        at = self._id_at
        if at is None or at >= len(cells):
            return None
        return cells[at] or None

    def _object(self, cells: list[str], run_id: str | None) -> dict[str, Any] | RowError:
        obj: dict[str, Any] = {}
        for column, cell, how in zip(self.columns, cells, self._readers, strict=True):
            if how is None:
                obj[column] = restore(cell)
                continue
            read, field = how
            try:
                obj[column] = read(cell)
            except ValueError as exc:
                mapped_to = field if field != column else None
                return RowError(str(exc), column, mapped_to, run_id, broken=False)
        return obj


def _csv_reason(message: str) -> str:
    if message == "unexpected end of data":
        return "a quoted cell is never closed (truncated file?); the rest of the file is in it"
    return f"not valid CSV: {message}"


def dump(obj: dict[str, Any]) -> bytes:
    """A row object as the JSON text a run keeps for export."""
    return dumps(obj).encode("utf-8", "surrogatepass")
