"""`ragdiag-tui diagnose`: stream a run file to JSON lines of diagnoses.

Memory stays flat whatever the file size: records are written as they are read.
The only thing that grows is the set of ids seen, which duplicate detection needs.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable
from typing import Any, BinaryIO

import msgspec

from ..analysis.stats import Stats
from ..common.atomic import STDOUT, open_output
from ..common.jsonutil import dumps, escape_line_breaks_utf8, escape_terminal_controls_utf8
from ..review.journal import journal_path
from ..runs.loading import LoadError, read_runs
from ..runs.mapping import FieldMap
from ..runs.metrics import defined, id_metrics
from ..runs.rule import as_diagnosis
from ..runs.stages import (
    RULE_STAGE_NAMES,
    S_GENERATION,
    S_INVALID,
    S_LABEL_ERROR,
    S_PASS,
    S_RETRIEVAL,
    S_UNRESOLVED,
    STAGE_NAMES,
)

_encoder = msgspec.json.Encoder()
FLUSH_AT = 1 << 20  # bytes buffered between writes


def _append_line(buffer: bytearray, obj: dict[str, Any]) -> None:
    start = len(buffer)
    try:
        _encoder.encode_into(obj, buffer, -1)
    except (msgspec.EncodeError, UnicodeEncodeError):  # lone surrogates from \ud800 escapes
        del buffer[start:]  # msgspec may have written part of the line before failing
        buffer += dumps(obj, ascii_only=True).encode("ascii")
    buffer += b"\n"


def _flush(out: BinaryIO, buffer: bytearray) -> None:
    # U+0085, U+2028 and U+2029 as \u escapes, as every JSON line the project writes.
    out.write(escape_line_breaks_utf8(buffer))


def _flush_terminal(out: BinaryIO, buffer: bytearray) -> None:
    out.write(escape_terminal_controls_utf8(escape_line_breaks_utf8(buffer)))


def error_line(record: LoadError) -> dict[str, Any]:
    """An invalid line as `diagnose` writes it: line, id (when known), error, field, detail."""
    line: dict[str, Any] = {"line": record.line}
    if record.id is not None:
        line["id"] = record.id
    line["error"] = record.kind
    if record.field:
        line["field"] = record.field
    line["detail"] = record.detail
    return line


def write_diagnoses(
    path: str,
    out: BinaryIO,
    field_map: FieldMap | None = None,
    metrics: bool = False,
    *,
    for_terminal: bool = False,
) -> Stats:
    """Write one line per record of `path` to `out`, in one streaming pass; return the counts.

    `field_map` says where the run fields are when the file uses other names. With
    `metrics`, each run's line ends with "recall" and "precision" (core.metrics; null
    when undefined); without, the lines are exactly the reference's.
    `for_terminal`: C1 controls, DEL and bidi controls in ids are written as `\\u`
    escapes (still the same JSON), so a terminal shows them rather than obeys them.
    """
    # Nothing here forms reference cycles; the cyclic collector would only rescan
    # the growing set of seen ids again and again.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        writer = _DiagnosisWriter(out, metrics, _flush_terminal if for_terminal else _flush)
        for error in read_runs(path, field_map=field_map, sink=writer):
            writer.add_error(error)
        return writer.finish()
    finally:
        if was_enabled:
            gc.enable()


# Every diagnosis but retrieval's is one of four constant objects: encode each once.
_CONSTANT_TAILS: dict[int, bytes] = {
    code: _encoder.encode(as_diagnosis(STAGE_NAMES[code], [] if code in (S_GENERATION, S_PASS) else None))[1:]
    for code in (S_GENERATION, S_PASS, S_UNRESOLVED, S_LABEL_ERROR)
}


class _DiagnosisWriter:
    """A `loading.RunSink` that writes each run's line as it is read, and counts."""

    def __init__(
        self,
        out: BinaryIO,
        metrics: bool = False,
        write: Callable[[BinaryIO, bytearray], None] = _flush,
    ) -> None:
        self.out = out
        self.write = write  # how the buffer goes out: escaped for a terminal, or not
        self.metrics = metrics  # each line also has the run's recall and precision
        self.buffer = bytearray()
        self.counts = [0] * len(STAGE_NAMES)
        self.lucky = 0

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
    ) -> None:
        """`{"id": ..., <diagnosis>}` and a newline, byte for byte as encoding the merged dict."""
        self.counts[stage] += 1
        buffer = self.buffer
        tail = None if self.metrics else _CONSTANT_TAILS.get(stage)
        start = len(buffer)
        if tail is not None:
            buffer += b'{"id":'
            try:
                _encoder.encode_into(run_id, buffer, -1)
            except (msgspec.EncodeError, UnicodeEncodeError):
                del buffer[start:]
            else:
                buffer += b","
                buffer += tail
                buffer += b"\n"
                if len(buffer) > FLUSH_AT:
                    self.flush()
                return
        self.lucky += stage == S_RETRIEVAL and label is True
        line_object = {"id": run_id}
        line_object.update(as_diagnosis(STAGE_NAMES[stage], missing))
        if self.metrics:
            recall, precision = id_metrics(required, context)
            line_object["recall"] = defined(recall)
            line_object["precision"] = defined(precision)
        _append_line(buffer, line_object)
        if len(buffer) > FLUSH_AT:
            self.flush()

    def add_error(self, error: LoadError) -> None:
        self.counts[S_INVALID] += 1
        _append_line(self.buffer, error_line(error))
        if len(self.buffer) > FLUSH_AT:
            self.flush()

    def flush(self) -> None:
        self.write(self.out, self.buffer)
        self.buffer.clear()

    def finish(self) -> Stats:
        """Write what is left; the counts."""
        self.flush()
        stats = Stats()
        for code, name in enumerate(RULE_STAGE_NAMES):
            if self.counts[code]:
                stats.stages[name] = self.counts[code]
        stats.lucky = self.lucky
        stats.invalid = self.counts[S_INVALID]
        stats.runs = sum(stats.stages.values())
        return stats


def diagnose_file(
    path: str, output: str | None, field_map: FieldMap | None = None, metrics: bool = False
) -> int:
    """The `diagnose` command: exit 0 all valid, 1 some line invalid.

    `output` None or `-` is standard output; otherwise see `atomic.open_output`:
    never the run file nor any review journal, a device or FIFO as a stream.
    """
    from ..common.text import visible

    with open_output(output or STDOUT, protect=(path, journal_path(path))) as out:
        stats = write_diagnoses(path, out, field_map, metrics, for_terminal=out.isatty())
    print(f"ragdiag-tui: {visible(os.fspath(path))}: {stats.summary()}", file=sys.stderr)
    return 1 if stats.invalid else 0
