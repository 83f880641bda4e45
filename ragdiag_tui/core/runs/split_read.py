"""A big JSON Lines file read by two processes: the second part by a child.

A million runs take seconds to read, nearly all of it decoding runs and applying the
rule one by one, in one thread. On a machine with a second core, the reader hands
the file's second part to a child process (`split_child`), which reads it into a
store of its own and sends the columns back through a pipe, while this process
reads the first part as before; the child's columns are then appended to the store.

The store must be exactly what one process reading the whole file would make. The
child numbers lines and records as the whole file does (it counts the first part's
lines, and those not blank, itself), so its errors, its "first seen on line N" and
the names of runs without an id read the same; both counts are checked against this
process's own when the parts meet, and so is every id of the second part against
those of the first (a repeated id is the later one's error). On any mismatch or
failure (the child cannot start, dies, or sends less than it should), this process
reads the second part itself, as it always did.

Frames on the child's standard output: `p` and the bytes read so far (8 bytes,
little-endian), now and then; then `r`, the length of a pickle of the columns and the
pickle, the length of the columns of strings in MessagePack (`STRINGS`, a list of
lists: much faster to write than a pickle) and those, and the runs' text
(`text_size` bytes, as it is).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, Protocol

import msgspec

SPLIT_MIN = 64 * 2**20
"""Bytes a file must have for a second process to be worth its start (about 0.15 s)."""

CHILD_SHARE = 0.42
"""The part of the file's bytes the child reads: the end of the file from there."""

LINE_END_SEARCH = 1 << 20
"""Bytes searched for a line end after the cut; a longer line there: no split."""

PIPE_SIZE = 1 << 20  # bytes the pipe from the child holds: the runs' text comes in fewer reads
READ_SIZE = 1 << 20  # bytes asked of the pipe at a time
WAIT_STEP = 0.25  # seconds between asking `keep_going` while waiting for the child
SWITCH = "RAGDIAG_SPLIT_READ"  # "0" in the environment: read every file in one process

_SIZE = struct.Struct("<Q")
STRINGS = ("ids", "questions", "search_text")  # the columns of strings, sent as MessagePack
_Strings = tuple[list[str], list[str], list[str]]


class SplitSink(Protocol):
    """A sink that can take the child's rows (`RunStore`); `still_wanted` is asked now
    and then while waiting for them (it may raise to stop the whole reading; False
    gives up the child and this process reads the second part itself)."""

    def absorb(self, columns: dict[str, Any], read_text: Callable[[bytearray, int], bool]) -> bool: ...

    def still_wanted(self) -> bool: ...


def cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def cut_for(fd: int, total: int, start: int) -> int | None:
    """Where the child's part begins: just after the first line end past the share,
    or None when the file is too small, the machine has one core, or it is switched off."""
    if total < SPLIT_MIN or os.environ.get(SWITCH) == "0" or cores() < 2 or not hasattr(os, "pread"):
        return None
    at = max(int(total * (1 - CHILD_SHARE)), start)
    found = os.pread(fd, LINE_END_SEARCH, at).find(b"\n")
    if found < 0 or at + found + 1 >= total:
        return None
    return at + found + 1


def child_command(path: str, cut: int) -> list[str]:
    """The command of the child that reads `path` from byte `cut` on."""
    return [sys.executable, "-m", f"{__package__}.split_child", path, str(cut)]


class Part:
    """The file's part from byte `cut` to its end, read by a child process once `begin`
    starts it (after the first screenful: its start would slow that down)."""

    def __init__(self, path: str, cut: int) -> None:
        self.path = path
        self.cut = cut
        self.done = 0  # bytes the child says it has read
        self.process: subprocess.Popen[bytes] | None = None
        self._fd = -1
        self._drainer: threading.Thread | None = None
        self._arrived = threading.Condition()
        self._incoming: list[bytes] = []  # what the drainer read, not yet taken (b"" at the end)
        self._pending = bytearray()
        self._eof = False

    def begin(self) -> None:
        """Start the child (once); if it cannot start, this process reads the part."""
        if self._fd >= 0 or self._eof:
            return
        try:
            self._fd = self._open()
        except OSError:
            self._eof = True
            return
        self._drainer = threading.Thread(target=self._drain, name="split-read", daemon=True)
        self._drainer.start()

    def _open(self) -> int:
        """Start the child; the end of its output this process reads."""
        self.process = subprocess.Popen(
            child_command(self.path, self.cut),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        fd = self.process.stdout.fileno()  # type: ignore[union-attr]
        with contextlib.suppress(OSError, AttributeError, ImportError):  # fewer, larger reads (Linux only)
            import fcntl

            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, PIPE_SIZE)
        return fd

    # -- reading the pipe ---------------------------------------------------

    def _drain(self) -> None:
        """In a thread of its own: the child's output as it comes, so a child done before
        this process sends its columns meanwhile (a read holds no lock the loading needs)."""
        while True:
            try:
                data = os.read(self._fd, READ_SIZE)
            except OSError:
                data = b""
            with self._arrived:
                self._incoming.append(data)
                self._arrived.notify_all()
            if not data:
                return

    def _take(self, timeout: float | None = None) -> bool:
        """Move what the drainer read into `_pending`, waiting up to `timeout` seconds for
        something if nothing is there; whether anything (or the end) came."""
        chunks = self._chunks(timeout)
        for data in chunks:
            if data:
                self._pending += data
            else:
                self._eof = True
        return bool(chunks)

    def _chunks(self, timeout: float | None) -> list[bytes]:
        """What the drainer read since last asked (b"" for the end), waiting up to `timeout`
        seconds for something if nothing is there."""
        with self._arrived:
            if timeout and not self._incoming and self._drainer is not None:
                self._arrived.wait(timeout)
            chunks, self._incoming = self._incoming, []
        return chunks

    def poll(self) -> None:
        """Take in the child's progress so far, without waiting. Once its columns begin,
        what follows is left to `columns`, as it came."""
        if self._pending[:1] == b"r":
            return
        self._take()
        self._progress_frames()

    def _progress_frames(self) -> bool:
        """Consume whole progress frames; True if any was taken."""
        pending, taken = self._pending, 0
        while len(pending) - taken >= 9 and pending[taken] == ord("p"):
            (self.done,) = _SIZE.unpack_from(pending, taken + 1)
            taken += 9
        del pending[:taken]
        return taken > 0

    def _pieces(self, size: int, keep_going: Callable[[], bool]) -> Iterator[bytes | memoryview]:
        """The next `size` bytes, in the pieces they came in: what `_pending` holds, then the
        drainer's chunks as they are, the last cut where the `size` bytes end (its rest, and
        the chunks after it, wait in `_incoming`). Fewer bytes if the output ends first or
        `keep_going` says stop. Nothing is gathered before it is used: the columns and the
        run text (100-odd MB each) are copied once (this machine copies memory at about 1 GB/s)."""
        missing = size
        if self._pending:
            piece = bytes(self._pending[:missing])
            del self._pending[: len(piece)]
            missing -= len(piece)
            yield piece
        while missing:
            if self._eof or self._drainer is None:
                return
            chunks = self._chunks(WAIT_STEP)
            if not chunks and not keep_going():
                return
            for at, data in enumerate(chunks):
                if not data:
                    self._eof = True
                elif len(data) <= missing:
                    missing -= len(data)
                    yield data
                else:
                    view = memoryview(data)
                    with self._arrived:
                        self._incoming[:0] = [view[missing:], *chunks[at + 1 :]]
                    yield view[:missing]
                    return

    def _read_exactly(self, size: int, keep_going: Callable[[], bool]) -> bytes | None:
        """The next `size` bytes; None if the output ends first or `keep_going` says stop."""
        pieces = list(self._pieces(size, keep_going))
        if sum(map(len, pieces)) < size:
            return None
        return pieces[0] if len(pieces) == 1 and type(pieces[0]) is bytes else b"".join(pieces)

    # -- the result ---------------------------------------------------------

    def columns(self, keep_going: Callable[[], bool]) -> dict[str, Any] | None:
        """The child's columns once it is done; None on any failure."""
        while True:
            self._progress_frames()
            head = self._read_exactly(1, keep_going)
            if head is None:
                return None
            if head == b"p":  # a progress frame still coming in: its count no longer matters
                if self._read_exactly(_SIZE.size, keep_going) is None:
                    return None
                continue
            if head != b"r":
                return None
            body, strings = self._sized(keep_going), self._sized(keep_going)
            if body is None or strings is None:
                return None
            try:
                columns = pickle.loads(body)  # our own child's columns, through our own pipe: never a file
                columns.update(zip(STRINGS, msgspec.msgpack.decode(strings, type=_Strings), strict=True))
            except Exception:  # torn or foreign: read the part here instead
                return None
            return columns

    def _sized(self, keep_going: Callable[[], bool]) -> bytes | None:
        """A length (8 bytes), then that many bytes."""
        size = self._read_exactly(8, keep_going)
        return self._read_exactly(_SIZE.unpack(size)[0], keep_going) if size else None

    def read_text(self, into: bytearray, size: int) -> bool:
        """Append the `size` bytes of the runs' text the child sends after its columns;
        False if its output ended before all of it came (`into` then holds part of it)."""
        before = len(into)
        for piece in self._pieces(size, lambda: True):
            into += piece
        return len(into) - before == size

    def close(self) -> None:
        """Stop the child if it still runs, and reap it."""
        if self._fd < 0:
            return
        process, fd, self._fd = self.process, self._fd, -1
        if process is not None:
            if process.poll() is None:
                process.kill()
            process.wait()
        if self._drainer is not None:
            self._drainer.join()  # at the end of the output: the child is gone
        if process is None:
            os.close(fd)
        else:
            process.stdout.close()  # type: ignore[union-attr]


def join(part: Part, sink: SplitSink, seen: dict[str, int], line: int, position: int) -> bool:
    """Append the child's rows to `sink` after the first part (`line` lines, `position`
    records, ids `seen`); False, with nothing appended, when this process must read the
    second part itself."""
    try:
        columns = part.columns(sink.still_wanted)
        if columns is None or (columns["first_line"], columns["first_position"]) != (line, position):
            return False
        theirs = set(columns["ids"])
        theirs.update(columns["registered"])
        if not theirs.isdisjoint(seen):  # walks the first part's ids in order: half the time
            return False  # an id of the first part again: the child took it for a first sighting
        return sink.absorb(columns, part.read_text)
    finally:
        part.close()


__all__ = [
    "CHILD_SHARE",
    "SPLIT_MIN",
    "SWITCH",
    "Part",
    "SplitSink",
    "child_command",
    "cores",
    "cut_for",
    "join",
]
