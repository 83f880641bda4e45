"""Parquet run files (Hugging Face `datasets` and pandas write them), through pyarrow.

pyarrow is optional: `pip install 'ragdiag-tui[parquet]'`. Without it, a Parquet
file is refused with a message naming the extra.

Reading: row group by row group, in batches (memory holds one batch, not the
file), each row becoming a JSON object (column name -> value; lists stay lists,
null stays null, NaN stays NaN) that is then validated exactly like a run of a
JSON file. A row's number (1-based) stands where a JSON file has its line
number, in errors and in the app. Values JSON has no type for (dates, bytes,
decimals) become text.

Writing (`export --format parquet`): one column per field; a column whose values
have no single Parquet type (a label that is `true` in one run and `"yes"` in
another, numbers beyond 64 bits) is written as JSON text, and its name listed in
the file's metadata under `ragdiag.json_columns`, so reading it back gives the
values as they were.
"""

from __future__ import annotations

import base64
import datetime
import decimal
import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO

from ..common.jsonutil import decode, dumps

MAGIC = b"PAR1"
INVALID_PARQUET = "invalid-parquet"
EXTRA_HINT = "install the `parquet` extra: pip install 'ragdiag-tui[parquet]'"
JSON_COLUMNS_KEY = b"ragdiag.json_columns"
BATCH_ROWS = 65_536
ROW_GROUP_ROWS = 65_536


class ParquetUnavailable(RuntimeError):
    """pyarrow is not installed. The message says how to install it."""


class ParquetFileError(ValueError):
    """The file is not a readable Parquet file. The message says why."""


@dataclass(frozen=True, slots=True)
class BadCell:
    """A row that cannot be read: a cell of its `field` holds what the column's type cannot
    (bytes that are not UTF-8 in a string column). The row is an invalid run; the rows
    around it are read as usual."""

    field: str
    reason: str


def is_parquet(head: bytes) -> bool:
    """Whether a file starting with `head` is Parquet (its magic number)."""
    return head.startswith(MAGIC)


def require() -> None:
    """Raise ParquetUnavailable unless pyarrow can be imported."""
    _pyarrow()


def _pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.parquet
    except ImportError:
        raise ParquetUnavailable(f"reading and writing Parquet needs pyarrow; {EXTRA_HINT}") from None
    return pyarrow


def _plain(value: Any) -> Any:
    """A value from pyarrow as JSON would hold it."""
    if isinstance(value, (str, bool, int, float)) or value is None:
        return value
    if isinstance(value, list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, tuple):  # a map column: a list of (key, value) pairs
        return [_plain(item) for item in value]
    if isinstance(value, (bytes, bytearray)):
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            return base64.b64encode(value).decode("ascii")
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, datetime.timedelta):
        return value.total_seconds()
    return str(value)


def dump_row(obj: dict[str, Any]) -> bytes:
    """A row's object (`plain_row`) as the JSON text `read_rows` gives with it."""
    return dumps(obj).encode("utf-8", "surrogatepass")


def _json_cell(text: Any) -> Any:
    if not isinstance(text, str):
        return text
    try:
        return decode(text)
    except (ValueError, RecursionError):  # not written by us after all: the text as it is
        return text


def json_columns_of(schema: Any) -> set[str]:
    """The columns of a file (its pyarrow schema) that `write_runs` stored as JSON text."""
    return set(json.loads((schema.metadata or {}).get(JSON_COLUMNS_KEY, b"[]")))


def plain_row(row: dict[str, Any], json_columns: set[str]) -> dict[str, Any]:
    """A row of pyarrow's `to_pylist` as the run object `read_rows` makes of it."""
    obj = {key: _plain(value) for key, value in row.items()}
    for key in json_columns.intersection(obj):
        obj[key] = _json_cell(obj[key])
    return obj


def _cell_problem(row: Any) -> BadCell:
    """Which cell of a one-row batch cannot be read, and why."""
    for name, column in zip(row.schema.names, row.columns, strict=True):
        try:
            column.to_pylist()
        except UnicodeDecodeError as exc:
            byte = exc.object[exc.start]
            return BadCell(name, f"not valid UTF-8 (byte 0x{byte:02x} at position {exc.start + 1})")
        except (ValueError, OverflowError) as exc:
            return BadCell(name, f"cannot be read ({exc})")
    return BadCell("", "the row cannot be read")


def _batch_rows(batch: Any) -> list[dict[str, Any] | BadCell]:
    """A batch's rows as pyarrow makes them; a row with an unreadable cell as its BadCell."""
    try:
        return batch.to_pylist()
    except (UnicodeDecodeError, ValueError, OverflowError):
        pass
    rows: list[dict[str, Any] | BadCell] = []
    for index in range(batch.num_rows):
        row = batch.slice(index, 1)
        try:
            rows.extend(row.to_pylist())
        except (UnicodeDecodeError, ValueError, OverflowError):
            rows.append(_cell_problem(row))
    return rows


def read_rows(
    handle: BinaryIO, progress: Callable[[int, int], None] | None = None, total: int = 0
) -> Iterator[tuple[int, dict[str, Any] | BadCell | str, bytes]]:
    """`(row number, object, JSON text)` for every row, in order.

    A row with a cell that cannot be read (invalid UTF-8 in a string column) is
    `(row number, BadCell, b"")`; a part of the file that cannot be decoded ends the
    reading with `(row number, reason, b"")`. Raises ParquetUnavailable without pyarrow,
    and ParquetFileError when the file's metadata cannot be read (before yielding).
    """
    pa = _pyarrow()
    try:
        parquet = pa.parquet.ParquetFile(handle)
    except (pa.ArrowException, OSError, ValueError) as exc:
        raise ParquetFileError(f"not a readable Parquet file ({exc})") from None
    json_columns = json_columns_of(parquet.schema_arrow)
    rows = max(parquet.metadata.num_rows, 1)
    number = 0
    batches = parquet.iter_batches(batch_size=BATCH_ROWS)
    while True:
        try:
            batch = next(batches, None)
        except (pa.ArrowException, OSError, ValueError) as exc:
            yield number + 1, f"the Parquet data cannot be read from here on ({exc})", b""
            return
        if batch is None:
            break
        for obj in _batch_rows(batch):
            number += 1
            if isinstance(obj, BadCell):
                yield number, obj, b""
                continue
            obj = plain_row(obj, json_columns)
            yield number, obj, dump_row(obj)
        if progress is not None:
            progress(total * number // rows, total)


# -- writing ------------------------------------------------------------------------

_SCALARS = (str, bool, int, float)


def _native(values: list[Any]) -> bool:
    """Whether a column's values have one Parquet type: one scalar kind, or lists of one."""
    kinds = {type(value) for value in values if value is not None}
    if len(kinds) > 1:
        return False
    if not kinds or kinds.issubset(_SCALARS):
        return True
    if kinds != {list}:
        return False  # objects: kept exact as JSON text rather than as structs
    items = {type(item) for value in values if value for item in value}
    return len(items) <= 1 and items.issubset(_SCALARS)


def write_runs(out: BinaryIO, runs: Iterable[dict[str, Any]], json_text: Callable[[Any], str]) -> None:
    """Write run objects as one Parquet table; `json_text` writes a value as JSON."""
    pa = _pyarrow()
    rows = list(runs)
    names: dict[str, None] = {}
    for row in rows:
        names.update(dict.fromkeys(row))
    arrays, json_columns = [], []
    for name in names:
        values = [row.get(name) for row in rows]
        array = None
        if _native(values):
            try:
                array = pa.array(values)
            except (pa.ArrowException, OverflowError, TypeError, ValueError):
                array = None  # an integer beyond 64 bits, say
        if array is None:
            array = pa.array([None if value is None else json_text(value) for value in values], pa.string())
            json_columns.append(name)
        arrays.append(array)
    table = pa.Table.from_arrays(arrays, names=list(names)) if names else pa.table({})
    table = table.replace_schema_metadata({JSON_COLUMNS_KEY: json.dumps(json_columns).encode()})
    pa.parquet.write_table(table, out, row_group_size=ROW_GROUP_ROWS)
