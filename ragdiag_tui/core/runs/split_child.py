"""The child of `split_read`: reads a JSON Lines file from a byte offset to its end
into a store of its own and writes the columns to its standard output.

    python -m ragdiag_tui.core.runs.split_child FILE CUT

Only the reader (`split_read.Part`) starts it; the frames it writes are described there.
"""

from __future__ import annotations

import gc
import os
import pickle
import re
import struct
import sys
from typing import Any

import msgspec

from .loading import CHUNK_SIZE, RecordBuilder, line_chunks
from .split_read import STRINGS
from .store import RunStore, columns_of

_SIZE = struct.Struct("<Q")


_BLANK_AFTER = re.compile(rb"\n[ \t\r]*(?=\n)")  # a line end, then a blank line
_BLANK_FIRST = re.compile(rb"[ \t\r]*\n")
_BOM = b"\xef\xbb\xbf"


def count_before(handle: Any, cut: int) -> tuple[int, int]:
    """The lines before byte `cut` (just after a line end), and how many are not blank:
    the line number and the record position (`RecordBuilder.position`) reached there."""
    lines = blank = at = 0
    fd, line_start = handle.fileno(), True
    while at < cut:
        data = os.pread(fd, min(CHUNK_SIZE * 8, cut - at), at)
        if not data:
            break
        end = data.rfind(b"\n") + 1 or len(data)  # a chunk of whole lines, if it has any
        segment = data[:end]
        ends = segment.count(b"\n")
        # Lines that begin with "{" are not blank: only when some line does not is it
        # worth looking for the blank ones (a run file seldom has any).
        if segment.count(b"\n{") + segment.startswith(b"{") < ends + (not segment.endswith(b"\n")):
            if line_start:
                first = segment[len(_BOM) :] if at == 0 and segment.startswith(_BOM) else segment
                blank += _BLANK_FIRST.match(first) is not None
            blank += sum(1 for _ in _BLANK_AFTER.finditer(segment))
        lines += ends
        line_start = segment.endswith(b"\n")
        at += end
    return lines, lines - blank


def read_part(path: str, cut: int, write: Any) -> dict[str, Any]:
    """The store of the file from `cut` on, as columns (`store.columns_of`)."""
    store = RunStore(path)
    builder = RecordBuilder(None, store)
    with open(path, "rb") as handle:
        first_line, builder.position = count_before(handle, cut)
        first_position, line = builder.position, first_line
        handle.seek(cut)
        done = 0
        for lines, size in line_chunks(handle, b""):
            for error in builder.from_lines(lines, line):
                store.add_error(error)
            line += len(lines)
            done += size
            write(b"p" + _SIZE.pack(done))
    valid = set(store.ids)
    columns = columns_of(store)
    columns.update(
        first_line=first_line,
        first_position=first_position,
        registered=[run_id for run_id in builder.first_seen if run_id not in valid],
    )
    return columns


def payload(columns: dict[str, Any]) -> list[bytes]:
    """The `r` frame of `columns` (from `read_part`), in its pieces (see `split_read`)."""
    text = columns.pop("text")
    strings = msgspec.msgpack.encode([columns.pop(name) for name in STRINGS])
    body = pickle.dumps(columns, protocol=pickle.HIGHEST_PROTOCOL)
    return [b"r" + _SIZE.pack(len(body)), body, _SIZE.pack(len(strings)), strings, text]


def main(argv: list[str]) -> int:
    gc.disable()  # nothing here forms cycles; the collector would only rescan the columns
    out = os.fdopen(sys.stdout.fileno(), "wb", closefd=False)

    def write(frame: bytes) -> None:
        out.write(frame)
        out.flush()

    for piece in payload(read_part(argv[1], int(argv[2]), write)):
        out.write(piece)
    out.flush()
    return 0


if __name__ == "__main__":
    try:
        code = main(sys.argv)
    except BrokenPipeError:  # the reader went away (the app quit): nothing to say to anyone
        code = 1
    os._exit(code)  # at once: freeing every run's objects one by one would take a while
