"""`ragdiag-tui diagnose`: stream a run file to JSON lines of diagnoses.

Memory stays flat whatever the file size: records are written as they are read.
The only thing that grows is the set of ids seen, which duplicate detection needs.
"""

from __future__ import annotations

import os
import sys
from typing import Any, BinaryIO

import msgspec

from .atomic import atomic_writer
from .loading import Run, read_runs
from .stats import Stats

_encode = msgspec.json.Encoder().encode


def _line(obj: dict[str, Any]) -> bytes:
    try:
        return _encode(obj) + b"\n"
    except (msgspec.EncodeError, UnicodeEncodeError):  # lone surrogates from \ud800 escapes
        import json

        return json.dumps(obj).encode("ascii") + b"\n"


def write_diagnoses(path: str, out: BinaryIO) -> Stats:
    """Write one line per record of `path` to `out`; return the counts."""
    stats = Stats()
    write = out.write
    add = stats.add
    for record in read_runs(path):
        if type(record) is Run:
            diagnosis = record.diagnosis
            out_obj = {"id": record.id}
            out_obj.update(diagnosis)
            write(_line(out_obj))
            add(
                diagnosis.get("stage") or diagnosis["error"],
                record.label,
                diagnosis.get("missing", ()),
            )
        else:
            stats.invalid += 1
            error: dict[str, Any] = {"line": record.line}
            if record.id is not None:
                error["id"] = record.id
            error["error"] = record.kind
            if record.field:
                error["field"] = record.field
            error["detail"] = record.detail
            write(_line(error))
    return stats


def diagnose_file(path: str, output: str | None) -> int:
    """The `diagnose` command: exit 0 all valid, 1 some line invalid."""
    from .text import visible

    if output is None:
        stats = write_diagnoses(path, sys.stdout.buffer)
        sys.stdout.buffer.flush()
    else:
        with atomic_writer(output, protect=path) as out:
            stats = write_diagnoses(path, out)
    print(f"ragdiag-tui: {visible(os.fspath(path))}: {stats.summary()}", file=sys.stderr)
    return 1 if stats.invalid else 0
