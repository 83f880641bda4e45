"""`ragdiag-tui diagnose`: stream a run file to JSON lines of diagnoses.

Memory stays flat whatever the file size: records are written as they are read.
The only thing that grows is the set of ids seen, which duplicate detection needs.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import shutil
import sys
from array import array
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

import msgspec

from . import parallel
from .atomic import atomic_writer
from .loading import LoadError, Record, Run, _Builder, read_lines_range, read_runs
from .mapping import FieldMap
from .rule import GENERATION, LABEL_ERROR, PASS, RETRIEVAL, UNRESOLVED
from .stats import STAGE_ORDER, Stats

_encoder = msgspec.json.Encoder()
FLUSH_AT = 1 << 20  # bytes buffered between writes


# Valid JSON, but str.splitlines() and older JavaScript end a line at U+0085, U+2028
# and U+2029: written as \u escapes, as the export writes them. In UTF-8 these byte
# sequences can only be those characters.
_LINE_BREAKS = ((b"\xc2\x85", b"\\u0085"), (b"\xe2\x80\xa8", b"\\u2028"), (b"\xe2\x80\xa9", b"\\u2029"))


def _append_line(buffer: bytearray, obj: dict[str, Any]) -> None:
    start = len(buffer)
    try:
        _encoder.encode_into(obj, buffer, -1)
    except (msgspec.EncodeError, UnicodeEncodeError):  # lone surrogates from \ud800 escapes
        del buffer[start:]  # msgspec may have written part of the line before failing
        buffer += json.dumps(obj).encode("ascii")
    buffer += b"\n"


def _escape_breaks(buffer: bytearray) -> bytearray:
    for raw, escaped in _LINE_BREAKS:
        if raw in buffer:
            buffer = buffer.replace(raw, escaped)
    return buffer


def _flush(out: BinaryIO, buffer: bytearray) -> None:
    out.write(_escape_breaks(buffer))


def _error_line(record: LoadError) -> dict[str, Any]:
    line: dict[str, Any] = {"line": record.line}
    if record.id is not None:
        line["id"] = record.id
    line["error"] = record.kind
    if record.field:
        line["field"] = record.field
    line["detail"] = record.detail
    return line


def write_diagnoses(path: str, out: BinaryIO, field_map: FieldMap | None = None) -> Stats:
    """Write one line per record of `path` to `out`; return the counts.

    `field_map` says where the run fields are when the file uses other names. A big
    JSON Lines file is read on two cores (see `parallel`): a helper process
    diagnoses the later part into a file, which is appended once the names and
    repeated ids that only the whole file knows are settled.
    """
    # Nothing here forms reference cycles; the cyclic collector would only rescan
    # the growing set of seen ids again and again.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        split = parallel.split_point(path, field_map)
        if split is None:
            return _write(read_runs(path, field_map=field_map), out)
        return _write_split(path, split, out, field_map)
    finally:
        if was_enabled:
            gc.enable()


def _write_split(path: str, split: int, out: BinaryIO, field_map: FieldMap | None) -> Stats:
    size = os.path.getsize(path)
    try:
        helper = parallel.Helper(path, split, size, field_map, "diagnose")
    except OSError:
        return _write(read_runs(path, field_map=field_map), out)
    builder = _Builder(field_map)
    part = None
    try:
        stats = _write(read_runs(path, field_map=field_map, builder=builder, stop_at=split), out)
        part = helper.receive()
    finally:
        helper.stop()
    if part is None:  # the helper failed: its part is read here, as one pass would
        stats.merge(_write(read_lines_range(path, split, size, builder), out))
        return stats
    try:
        _append_part(out, builder, part, stats)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(part["output"])
    return stats


def write_part(path: str, start: int, end: int, field_map: FieldMap | None, output: str) -> dict[str, Any]:
    """In the helper process: diagnose a part of the file into the file `output`."""
    builder = _Builder(field_map)
    builder.name_prefix = parallel.PROVISIONAL
    ids: list[str] = []
    lines = array("I")
    errors: dict[int, LoadError] = {}
    codes = bytearray()

    def noted(records: Iterable[Record]) -> Iterator[Record]:
        for record in records:
            if type(record) is LoadError:
                errors[len(ids)] = record
            ids.append(record.id or "")
            lines.append(record.line)
            yield record

    with open(output, "wb") as out:
        stats = _write(noted(read_lines_range(path, start, end, builder)), out, codes)
    return {
        "output": output,
        "ids": ids,
        "lines": lines,
        "errors": errors,
        "claimed": parallel.claimed_rows(builder, ids, lines),
        "unnamed": builder.unnamed,
        "codes": codes,
        "stats": stats,
    }


_INVALID_CODE, _LUCKY_BIT = len(STAGE_ORDER), 8


def _append_part(out: BinaryIO, builder: _Builder, part: dict[str, Any], stats: Stats) -> None:
    """Copy the helper's lines to `out`, rewriting those the join settled otherwise."""
    settlement = parallel.settle(
        builder.first_seen,
        builder.position,
        part["ids"],
        part["lines"],
        part["errors"],
        part["claimed"],
        part["unnamed"],
    )
    stats.merge(part["stats"])
    with open(part["output"], "rb") as source:
        if not settlement.renamed and not settlement.duplicates:
            shutil.copyfileobj(source, out, FLUSH_AT)
            return
        lines = source.read().split(b"\n")
    for row, name in settlement.renamed.items():
        line = msgspec.json.decode(lines[row])
        line["id"] = name
        lines[row] = _encoded(line)
    for row, (run_id, first_line) in settlement.duplicates.items():
        error = parallel.duplicate_error(builder, part["lines"][row], run_id, first_line)
        lines[row] = _encoded(_error_line(error))
        code = part["codes"][row]
        if code != _INVALID_CODE:  # a run that turns out to be a duplicate is invalid after all
            stats.stages[STAGE_ORDER[code & 7]] -= 1
            stats.lucky -= bool(code & _LUCKY_BIT)
            stats.invalid += 1
    stats.runs = sum(stats.stages.values())
    out.write(b"\n".join(lines))


def _encoded(obj: dict[str, Any]) -> bytes:
    buffer = bytearray()
    _append_line(buffer, obj)
    return bytes(_escape_breaks(buffer)[:-1])


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


def _write(records: Iterable[Record], out: BinaryIO, codes: bytearray | None = None) -> Stats:
    """Write a line per record; `codes` (if given) gets each record's stage and lucky bit."""
    stats = Stats()
    stages = stats.stages
    buffer = bytearray()
    code_of = {stage: code for code, stage in enumerate(STAGE_ORDER)}
    for record in records:
        if type(record) is Run:
            _append_run(buffer, record)
            diagnosis = record.diagnosis
            stage = diagnosis.get("stage") or diagnosis["error"]
            stages[stage] += 1
            lucky = record.label is True and stage == RETRIEVAL
            stats.lucky += lucky
            if codes is not None:
                codes.append(code_of[stage] | (_LUCKY_BIT if lucky else 0))
        else:
            stats.invalid += 1
            _append_line(buffer, _error_line(record))
            if codes is not None:
                codes.append(_INVALID_CODE)
        if len(buffer) > FLUSH_AT:
            _flush(out, buffer)
            buffer.clear()
    _flush(out, buffer)
    stats.runs = sum(stages.values())
    return stats


def diagnose_file(path: str, output: str | None, field_map: FieldMap | None = None) -> int:
    """The `diagnose` command: exit 0 all valid, 1 some line invalid."""
    from .text import visible

    if output is None:
        stats = write_diagnoses(path, sys.stdout.buffer, field_map)
        sys.stdout.buffer.flush()
    else:
        with atomic_writer(output, protect=path) as out:
            stats = write_diagnoses(path, out, field_map)
    print(f"ragdiag-tui: {visible(os.fspath(path))}: {stats.summary()}", file=sys.stderr)
    return 1 if stats.invalid else 0
