"""The spool: review records waiting for a shared store that cannot be reached.

While the PostgreSQL server is away, each record is appended here instead, exactly
as durably as the journal file would hold it (one `os.write` on O_APPEND, then
fsync), so neither an outage nor a SIGKILL loses a label. Each line carries the
record's unique id and the review it belongs to:

    {"id": "<uuid>", "review": "<fingerprint>", "session": "<uuid>", "record": {<the journal record>}}

(`session`, the writer's session, may be absent in older spools.) The app spools every
label first, and sends it from a thread of its own (`core.review.pgbackground`).
When the server is there the spool is sent in order and what was sent is removed. The
server ignores an id it already has, so a spool sent twice (a crash between sending and
removing) still lands exactly once. Two processes may share a spool: every append and
every change holds an exclusive `flock` on the file, but no lock is held while records
travel to the server, so a hung server never holds up an append.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: one process per spool
    fcntl = None  # type: ignore[assignment]

SPOOL_SUFFIX = ".review-spool.jsonl"


def spool_path(run_path: str | os.PathLike[str]) -> str:
    return os.fspath(run_path) + SPOOL_SUFFIX


@dataclass(frozen=True, slots=True)
class Spooled:
    """One waiting record: its unique id, its review, its journal line (no newline), and
    the session that wrote it ("" when the spool did not say)."""

    id: str
    review: str
    line: str
    session: str = ""


class Spool:
    """The spool file of one run file."""

    def __init__(self, path: str) -> None:
        self.path = path

    @contextlib.contextmanager
    def _locked(self, create: bool) -> Iterator[int | None]:
        """The spool's fd under an exclusive lock (None when it does not exist and `create` is off)."""
        while True:
            flags = os.O_RDWR | os.O_APPEND | (os.O_CREAT if create else 0)
            try:
                fd = os.open(self.path, flags, 0o644)
            except FileNotFoundError:
                yield None
                return
            try:
                if fcntl is not None:
                    fcntl.flock(fd, fcntl.LOCK_EX)
                if os.fstat(fd).st_nlink == 0:  # sent and removed while we waited: open anew
                    continue
                yield fd
                return
            finally:
                os.close(fd)

    def append(self, id: str, review: str, record_line: bytes, session: str = "") -> None:
        """Add one record, durable before returning. Raises OSError when the disk refuses."""
        fields = {"id": id, "review": review} | ({"session": session} if session else {})
        head = json.dumps(fields, ensure_ascii=True)[:-1]
        data = head.encode() + b', "record": ' + record_line.rstrip(b"\n") + b"}\n"
        with self._locked(create=True) as fd:
            assert fd is not None
            size = os.fstat(fd).st_size
            if size:
                os.lseek(fd, 0, os.SEEK_SET)
                held = os.read(fd, size)
                if not held.endswith(b"\n"):  # a write torn by a kill, never acknowledged: drop it
                    os.ftruncate(fd, held.rfind(b"\n") + 1)
            if os.write(fd, data) != len(data):
                raise OSError(28, "short write (disk full?)")
            os.fsync(fd)

    def _parse(self, data: bytes) -> tuple[list[Spooled], list[str], list[bytes]]:
        """The readable records; a warning and the raw bytes of each unreadable line."""
        waiting: list[Spooled] = []
        warnings: list[str] = []
        bad: list[bytes] = []
        lines = data.split(b"\n")
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            try:
                item = json.loads(raw)
                if not isinstance(item.get("id"), str) or not isinstance(item.get("review"), str):
                    raise ValueError("id or review is not a string")
                line = json.dumps(item["record"], ensure_ascii=False)
                session = item.get("session")
                session = session if isinstance(session, str) else ""
                waiting.append(Spooled(item["id"], item["review"], line, session))
            except (ValueError, KeyError, TypeError, AttributeError, RecursionError) as exc:
                if number == len(lines):  # unfinished: killed mid-write, so never acknowledged
                    warnings.append(f"{self.path}, line {number}: skipped (torn by an interrupted write)")
                    continue
                warnings.append(f"{self.path}, line {number}: kept, not sent ({exc})")
                bad.append(raw)
        return waiting, warnings, bad

    def waiting(self) -> tuple[list[Spooled], list[str]]:
        """The records waiting, in the order they were made, and warnings for unreadable lines."""
        try:
            with open(self.path, "rb") as handle:
                data = handle.read()
        except FileNotFoundError:
            return [], []
        waiting, warnings, _bad = self._parse(data)
        return waiting, warnings

    def count(self) -> int:
        try:
            with open(self.path, "rb") as handle:
                return handle.read().count(b"\n")
        except OSError:
            return 0

    def _read_all(self, fd: int) -> bytes:
        os.lseek(fd, 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)

    def send(self, deliver: Callable[[list[Spooled]], None]) -> int:
        """Hand every waiting record to `deliver`, in order; then remove them from the spool.

        The spool is read under its lock, but `deliver` runs without it (appends go on
        meanwhile); then the records sent are removed, keeping any appended since and
        every unreadable line. If `deliver` raises, the spool stays as it was (sending
        again is harmless: the store ignores ids it has). Returns how many were sent.
        """
        with self._locked(create=False) as fd:
            if fd is None:
                return 0
            data = self._read_all(fd)
        waiting, _warnings, _bad = self._parse(data)
        if waiting:
            deliver(waiting)
        self._forget({item.id for item in waiting})
        return len(waiting)

    def _forget(self, sent: set[str]) -> None:
        """Remove the records with these ids; the spool goes when nothing else is left in it."""
        with self._locked(create=False) as fd:
            if fd is None:
                return
            data = self._read_all(fd)
            lines = data.split(b"\n")
            if lines and lines[-1]:  # torn by an interrupted write, never acknowledged: dropped
                lines[-1] = b""
            kept = [raw for raw in lines if raw.strip() and _id_of(raw) not in sent]
            if not kept:
                os.unlink(self.path)  # writes-ok: the spool's own file, emptied under its lock
                return
            if len(kept) == len([raw for raw in lines if raw.strip()]):
                return
            # A new file renamed over the old: a crash leaves one or the other, never half of one.
            fresh = self.path + ".sending"
            out = os.open(fresh, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            try:
                os.write(out, b"".join(raw + b"\n" for raw in kept))
                os.fsync(out)
            finally:
                os.close(out)
            os.replace(fresh, self.path)  # writes-ok: the spool compacted; waiters on the old file reopen


def _id_of(raw: bytes) -> str | None:
    """The id of a spool line (None when unreadable)."""
    try:
        item = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    found = item.get("id") if isinstance(item, dict) else None
    return found if isinstance(found, str) else None


def spool_notice(run_path: str | os.PathLike[str]) -> str | None:
    """What to tell a reviewer when labels of this run file wait in this machine's spool (the
    server was unreachable): how many and where; until they reach the server, teammates'
    `stats` and `export` lack them. None when the spool is empty."""
    path = spool_path(run_path)
    waiting = Spool(path).count()
    if not waiting:
        return None
    entries = "1 review entry waits" if waiting == 1 else f"{waiting} review entries wait"
    return (
        f"{entries} in the spool on this machine, {path}: PostgreSQL could not be reached. "
        "They are sent when the app next opens this file here and the server answers; "
        "until then, teammates' stats and export lack them."
    )
