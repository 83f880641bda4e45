"""`ragdiag-tui diagnose`: stream a run file to JSON lines of diagnoses.

Memory stays flat whatever the file size: records are written as they are read.
The only thing that grows is the set of ids seen, which duplicate detection needs.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Callable, Iterable
from typing import Any, BinaryIO

import msgspec

from .atomic import STDOUT, open_output
from .journal import journal_path
from .jsonutil import dumps, escape_line_breaks_utf8, escape_terminal_controls_utf8
from .loading import LoadError, Record, Run, read_runs
from .mapping import FieldMap
from .metrics import defined, id_metrics
from .rule import GENERATION, LABEL_ERROR, PASS, RETRIEVAL, UNRESOLVED, stage_of
from .stats import Stats

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


def _error_line(record: LoadError) -> dict[str, Any]:
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
        flush = _flush_terminal if for_terminal else _flush
        return _write(read_runs(path, field_map=field_map), out, metrics, flush)
    finally:
        if was_enabled:
            gc.enable()


# Every diagnosis but retrieval's is one of four constant objects: encode each once.
_CONSTANT_TAILS = {
    stage: _encoder.encode(diagnosis)[1:]
    for stage, diagnosis in {
        GENERATION: {"stage": GENERATION, "missing": []},
        PASS: {"stage": PASS, "missing": []},
        UNRESOLVED: {"stage": UNRESOLVED},
        None: {"error": LABEL_ERROR},
    }.items()
}


def _append_run(buffer: bytearray, run: Run) -> None:
    """`{"id": ..., <diagnosis>}` and a newline, byte for byte as encoding the merged dict."""
    diagnosis = run.diagnosis
    tail = _CONSTANT_TAILS.get(diagnosis.get("stage"))
    start = len(buffer)
    if tail is not None:
        buffer += b'{"id":'
        try:
            _encoder.encode_into(run.id, buffer, -1)
        except (msgspec.EncodeError, UnicodeEncodeError):
            del buffer[start:]
        else:
            buffer += b","
            buffer += tail
            buffer += b"\n"
            return
    line = {"id": run.id}
    line.update(diagnosis)
    _append_line(buffer, line)


def _append_run_with_metrics(buffer: bytearray, run: Run) -> None:
    line = {"id": run.id}
    line.update(run.diagnosis)
    recall, precision = id_metrics(run.required, run.context)
    line["recall"] = defined(recall)
    line["precision"] = defined(precision)
    _append_line(buffer, line)


def _write(
    records: Iterable[Record],
    out: BinaryIO,
    metrics: bool = False,
    flush: Callable[[BinaryIO, bytearray], None] = _flush,
) -> Stats:
    """Write a line per record."""
    append_run = _append_run_with_metrics if metrics else _append_run
    stats = Stats()
    stages = stats.stages
    buffer = bytearray()
    for record in records:
        if type(record) is Run:
            append_run(buffer, record)
            diagnosis = record.diagnosis
            stage = stage_of(diagnosis)
            stages[stage] += 1
            lucky = record.label is True and stage == RETRIEVAL
            stats.lucky += lucky
        else:
            stats.invalid += 1
            _append_line(buffer, _error_line(record))
        if len(buffer) > FLUSH_AT:
            flush(out, buffer)
            buffer.clear()
    flush(out, buffer)
    stats.runs = sum(stages.values())
    return stats


def diagnose_file(
    path: str, output: str | None, field_map: FieldMap | None = None, metrics: bool = False
) -> int:
    """The `diagnose` command: exit 0 all valid, 1 some line invalid.

    `output` None or `-` is standard output; otherwise see `atomic.open_output`:
    never the run file nor any review journal, a device or FIFO as a stream.
    """
    from .text import visible

    with open_output(output or STDOUT, protect=(path, journal_path(path))) as out:
        stats = write_diagnoses(path, out, field_map, metrics, for_terminal=out.isatty())
    print(f"ragdiag-tui: {visible(os.fspath(path))}: {stats.summary()}", file=sys.stderr)
    return 1 if stats.invalid else 0
