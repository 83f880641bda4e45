"""Diagnosis rows out to a file, streaming: JSON Lines, or Parquet when OUT ends in .parquet.
Both engines write through `DiagnosisWriter`.

A row is the local `diagnose` line with the run's file (relative to the dataset's root)
and line: `{"id", "file", "line", "stage", "missing"}`, `{"id", "file", "line", "error":
"answer-label"}`, or an invalid line `{"id"?, "file", "line", "error", "field"?, "detail"}`.
JSON Lines lines are written as the local `diagnose` writes them. In Parquet each key is a
column (null where a row has no such key); a lone surrogate (a `\\ud800` escape in a JSON
Lines run) cannot be Parquet text and is written as U+FFFD. The file is written atomically
(`core.common.atomic.open_output`): a failed command leaves no half-written file.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from ..core.common.atomic import open_output
from ..core.common.jsonutil import dumps, escape_line_breaks_utf8

BATCH = 65_536
COLUMNS = ("id", "file", "line", "stage", "error", "field", "detail", "missing")


class DiagnosisWriter:
    """Collects rows and writes them in batches; use as a context manager."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.parquet = out.suffix.lower() == ".parquet"
        self.rows: list[dict[str, Any]] = []
        self.output: AbstractContextManager[BinaryIO] = open_output(out)
        self.handle: Any = None
        self.encoder = msgspec.json.Encoder()

    def __enter__(self) -> DiagnosisWriter:
        target = self.output.__enter__()
        if self.parquet:
            import pyarrow as pa
            import pyarrow.parquet as pq

            self.schema = pa.schema(
                [(name, pa.int64() if name == "line" else pa.string()) for name in COLUMNS[:-1]]
                + [("missing", pa.list_(pa.string()))]
            )
            self.handle = pq.ParquetWriter(target, self.schema)
        else:
            self.handle = target
        return self

    def add(self, row: dict[str, Any]) -> None:
        self.rows.append(row)
        if len(self.rows) >= BATCH:
            self.flush()

    def add_all(self, rows: Iterable[dict[str, Any]]) -> None:
        for row in rows:
            self.add(row)

    def flush(self) -> None:
        if not self.rows:
            return
        if self.parquet:
            self._parquet_batch()
        else:
            buffer = bytearray()
            for row in self.rows:
                start = len(buffer)
                try:
                    self.encoder.encode_into(row, buffer, -1)
                except (msgspec.EncodeError, UnicodeEncodeError):  # a lone surrogate (a \ud800 escape)
                    del buffer[start:]  # msgspec may have written part of the line before failing
                    buffer += dumps(row, ascii_only=True).encode("ascii")
                buffer += b"\n"
            self.handle.write(escape_line_breaks_utf8(buffer))
        self.rows.clear()

    def _parquet_batch(self) -> None:
        import pyarrow as pa

        columns = {name: [_text(row.get(name)) for row in self.rows] for name in COLUMNS}
        columns["missing"] = [
            None if row.get("missing") is None else [_text(doc) for doc in row["missing"]]
            for row in self.rows
        ]
        self.handle.write_table(pa.table(columns, schema=self.schema))

    def __exit__(self, *exc: Any) -> None:
        try:
            if exc[0] is None:
                self.flush()
                if self.parquet:
                    self.handle.close()
        except BaseException as failed:
            self.output.__exit__(type(failed), failed, failed.__traceback__)
            raise
        self.output.__exit__(*exc)


def write_diagnoses(out: Path, rows: Iterable[dict[str, Any]]) -> None:
    """All of `rows` to `out` (Parquet when it ends in .parquet, else JSON Lines)."""
    with DiagnosisWriter(out) as writer:
        writer.add_all(rows)


def _text(value: Any) -> Any:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return "".join("\ufffd" if "\ud800" <= char <= "\udfff" else char for char in value)
    return value
