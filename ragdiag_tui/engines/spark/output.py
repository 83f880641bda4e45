"""Diagnosis rows out to a file: JSON Lines as the local `diagnose` writes its lines, or Parquet.

In Parquet each key is a column (null where a row has no such key); a lone surrogate (a
`\\ud800` escape in a JSON Lines run) cannot be Parquet text and is written as U+FFFD, as
the DuckDB engine writes it.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec

from ...core.common.atomic import open_output
from ...core.common.jsonutil import dumps, escape_line_breaks_utf8

COLUMNS = ("id", "file", "line", "stage", "error", "field", "detail", "missing")
BATCH_ROWS = 65_536
FLUSH_AT = 1 << 20


def write_diagnoses(out: Path, rows: Iterable[dict[str, Any]]) -> None:
    """Parquet when `out` ends in .parquet, else JSON Lines."""
    if out.suffix.lower() == ".parquet":
        _write_parquet(out, rows)
    else:
        _write_lines(out, rows)


def _write_lines(out: Path, rows: Iterable[dict[str, Any]]) -> None:
    encode_into = msgspec.json.Encoder().encode_into
    buffer = bytearray()
    with open_output(out) as handle:
        for row in rows:
            start = len(buffer)
            try:
                encode_into(row, buffer, -1)
            except (msgspec.EncodeError, UnicodeEncodeError):  # a lone surrogate: \\u escapes
                del buffer[start:]
                buffer += dumps(row, ascii_only=True).encode("ascii")
            buffer += b"\n"
            if len(buffer) > FLUSH_AT:
                handle.write(escape_line_breaks_utf8(buffer))
                buffer.clear()
        handle.write(escape_line_breaks_utf8(buffer))


def _write_parquet(out: Path, rows: Iterable[dict[str, Any]]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema(
        [(name, pa.int64() if name == "line" else pa.string()) for name in COLUMNS[:-1]]
        + [("missing", pa.list_(pa.string()))]
    )
    batch: list[dict[str, Any]] = []
    with open_output(out) as handle, pq.ParquetWriter(handle, schema) as writer:
        for row in rows:
            batch.append(row)
            if len(batch) >= BATCH_ROWS:
                writer.write_table(_table(batch, schema))
                batch.clear()
        writer.write_table(_table(batch, schema))


def _table(rows: list[dict[str, Any]], schema: Any) -> Any:
    import pyarrow as pa

    columns = {name: [_text(row.get(name)) for row in rows] for name in COLUMNS[:-1]}
    columns["missing"] = [
        None if row.get("missing") is None else [_text(doc) for doc in row["missing"]] for row in rows
    ]
    return pa.table(columns, schema=schema)


def _text(value: Any) -> Any:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in value)
    return value
