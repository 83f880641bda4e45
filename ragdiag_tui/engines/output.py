"""Diagnosis rows out to a file, streaming: JSON Lines, or Parquet when OUT ends in .parquet.
Both engines write through `DiagnosisWriter`.

A row is the local `diagnose` line with the run's file (relative to the dataset's root)
and line: `{"id", "file", "line", "stage", "missing"}`, `{"id", "file", "line", "error":
"answer-label"}`, or an invalid line `{"id"?, "file", "line", "error", "field"?, "detail"}`.
JSON Lines lines are written as the local `diagnose` writes them. In Parquet each key is a
column (null where a row has no such key). A lone surrogate (a `\\ud800` escape in a JSON
Lines run) cannot be Parquet text: a Parquet output holding one is refused, naming the runs
(`UnwritableText`), rather than written with U+FFFD in its place; JSON Lines keeps it escaped.
The file is written atomically (`core.common.atomic.open_output`): a failed command leaves no
half-written file.
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from ..core.common.atomic import open_output
from ..core.common.jsonutil import dumps, escape_line_breaks_utf8
from .results import EngineError

BATCH = 65_536
COLUMNS = ("id", "file", "line", "stage", "error", "field", "detail", "missing")
NAMED = 5  # the runs a refusal names; the rest are counted


class UnwritableText(EngineError):
    """A Parquet output refused: some rows hold text Parquet cannot hold (a lone surrogate)."""


class DiagnosisWriter:
    """Collects rows and writes them in batches; use as a context manager."""

    def __init__(self, out: Path) -> None:
        self.out = out
        self.parquet = out.suffix.lower() == ".parquet"
        self.rows: list[dict[str, Any]] = []
        self.output: AbstractContextManager[BinaryIO] = open_output(out)
        self.handle: Any = None
        self.encoder = msgspec.json.Encoder()
        self.unwritable: list[str] = []  # the runs a Parquet output cannot hold, named

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

        for row in self.rows:
            if not _encodable(row):
                self.unwritable.append(_run_name(row))
        if self.unwritable:  # refused at the end, with every run named; nothing more written
            return
        columns = {name: [row.get(name) for row in self.rows] for name in COLUMNS}
        self.handle.write_table(pa.table(columns, schema=self.schema))

    def _refusal(self) -> UnwritableText:
        count = len(self.unwritable)
        named = "; ".join(self.unwritable[:NAMED]) + (f"; and {count - NAMED} more" if count > NAMED else "")
        return UnwritableText(
            f"{self.out}: {count} {'run holds' if count == 1 else 'runs hold'} a lone surrogate (a "
            f"\\ud800-style escape, legal in JSON) that Parquet text cannot hold: {named}; nothing "
            "written (JSON Lines keeps it escaped: -o OUT.jsonl)"
        )

    def __exit__(self, *exc: Any) -> None:
        try:
            if exc[0] is None:
                self.flush()
                if self.parquet:
                    self.handle.close()
                if self.unwritable:
                    raise self._refusal()
        except BaseException as failed:
            self.output.__exit__(type(failed), failed, failed.__traceback__)
            raise
        self.output.__exit__(*exc)


def write_diagnoses(out: Path, rows: Iterable[dict[str, Any]]) -> None:
    """All of `rows` to `out` (Parquet when it ends in .parquet, else JSON Lines)."""
    with DiagnosisWriter(out) as writer:
        writer.add_all(rows)


def _encodable(row: dict[str, Any]) -> bool:
    """Whether every text of a row can be UTF-8 (holds no lone surrogate)."""
    texts = [value for value in row.values() if isinstance(value, str)] + list(row.get("missing") or ())
    try:
        for text in texts:
            if not text.isascii():
                text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _run_name(row: dict[str, Any]) -> str:
    """A run as a refusal names it: its id (as JSON writes it), file and line."""
    where = f"{row.get('file')}, line {row.get('line')}"
    return where if row.get("id") is None else f"{dumps(row['id'], ascii_only=True)} ({where})"
