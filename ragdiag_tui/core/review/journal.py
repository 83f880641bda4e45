"""The review journal file: every label, note, tag, adjudication and spot-check, appended.

One record per line (`core.review.records` says what a line holds), in the file
`FILE.review.jsonl` beside the run file.

The file journal (`Journal`) writes each record as one `os.write` on a file opened
with O_APPEND, then fsyncs: a crash can tear at most the line being written, and two
processes appending to the same journal never interleave inside a line. The run file
itself is never written. It is one `ReviewLog` (`core.review.reviewlog`); the other
is PostgreSQL (`core.review.pgjournal`).
"""

from __future__ import annotations

import contextlib
import os
import stat
from typing import BinaryIO

from ..common.reads import JOURNAL, read_as, register_read
from .records import JournalError, Record, parse_record

JOURNAL_SUFFIX = ".review.jsonl"

try:  # flock keeps a second instance from journaling unawares; not on every OS.
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class JournalReplaced(JournalError):
    """The journal file on disk is no longer the one this process had open (deleted,
    or replaced by `sed -i` or an editor). The log has opened the file now at the
    path; nothing of the record was written: the caller writes its complete state anew."""


def journal_path(run_path: str | os.PathLike[str]) -> str:
    """The file journal of a run file: beside it, `FILE.review.jsonl`."""
    return os.fspath(run_path) + JOURNAL_SUFFIX


# -- the journal file ----------------------------------------------------------------


def _open_regular(path: str) -> BinaryIO:
    """`path` opened for reading without waiting: a FIFO opens at once (to be refused)."""
    return os.fdopen(os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb")


def _identity(info: os.stat_result) -> tuple[int, int]:
    return info.st_dev, info.st_ino


def _same_target(path: str, other: str) -> bool:
    try:
        return _identity(os.stat(path)) == _identity(os.stat(other))
    except OSError:
        return False


def check_journal_path(path: str, run_path: str | os.PathLike[str] | None) -> None:
    """Refuse a journal path that reaches the run file or another file's journal.

    Compared by device and inode, so a symlink or a hard link counts. A symlinked
    journal is accepted only when it leads to the journal of the run file's own target.
    """
    what = read_as(path)
    if what not in (None, JOURNAL):
        raise JournalError(f"{path}: refused as the review journal: it is {what}")
    if run_path is None:
        return
    run_path = os.fspath(run_path)
    if _same_target(path, run_path):
        raise JournalError(f"{path}: refused as the review journal: it is the run file {run_path}")
    if os.path.islink(path):
        target = os.path.realpath(path)
        if target != os.path.realpath(run_path) + JOURNAL_SUFFIX:
            what = "another file's review journal" if target.endswith(JOURNAL_SUFFIX) else "another file"
            raise JournalError(f"{path}: refused as the review journal: it is a link to {what}, {target}")
    try:
        info = os.stat(path)
    except OSError:
        return
    if info.st_nlink > 1 and stat.S_ISREG(info.st_mode):
        # Another name of the same file that is a journal: look beside the journal and
        # beside the run file (a hard link can be anywhere, but that is where they are).
        own = os.path.abspath(path)
        folders = dict.fromkeys(os.path.dirname(os.path.abspath(p)) for p in (path, run_path))
        for folder in folders:
            try:
                names = os.listdir(folder)
            except OSError:
                continue
            for name in names:
                other = os.path.join(folder, name)
                if other == own or not name.endswith(JOURNAL_SUFFIX) or not _same_target(other, path):
                    continue
                raise JournalError(
                    f"{path}: refused as the review journal: "
                    f"it is a hard link to another file's journal, {other}"
                )


class Journal:
    """The review journal file of one run file (the embedded `ReviewLog`).

    `run_path`, when given, lets `open` refuse a journal path that is a link to the
    run file or to another file's journal.
    """

    def __init__(self, path: str | os.PathLike[str], run_path: str | os.PathLike[str] | None = None) -> None:
        self.path = os.fspath(path)
        self.name = self.path
        self.run_path = os.fspath(run_path) if run_path is not None else None
        self._fd: int | None = None
        self._lock_fd: int | None = None  # the run file's, while no journal is there (see `open`)
        self._identity: tuple[int, int] | None = None  # of the file `_fd` has open
        self._clean = True  # False after a failed write, which may have left half a line
        self._mended_at: int | None = None  # where `open` ended a torn last line with "\n"
        self._read_at = 0  # bytes of the file read so far by `read`/`poll`
        self._read_identity: tuple[int, int] | None = None
        self._own: set[int] = set()  # offsets of lines this process wrote and has not read back
        self.shared = False  # another process holds the journal too

    def _read_bytes(self) -> tuple[bytes, tuple[int, int] | None]:
        """The whole journal; a FIFO or a device (`/dev/zero`), which could block or never
        end, is refused."""
        try:
            with _open_regular(self.path) as handle:
                info = os.fstat(handle.fileno())
                if not stat.S_ISREG(info.st_mode):
                    raise JournalError(f"{self.path}: not a regular file, so not a review journal")
                register_read(self.path, JOURNAL, info)
                return handle.read(), _identity(info)
        except FileNotFoundError:
            return b"", None
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot read the journal ({exc.strerror})") from None

    def read(self) -> tuple[list[Record], list[str]]:
        """All readable records, and a warning for each line that is not one."""
        check_journal_path(self.path, self.run_path)
        data, identity = self._read_bytes()
        records: list[Record] = []
        warnings: list[str] = []
        lines = data.split(b"\n")
        torn = lines[-1].strip() != b""  # the last write did not finish its line
        end = -1
        for number, raw in enumerate(lines, start=1):
            end += len(raw) + 1  # where the line's newline is (or would be)
            if not raw.strip():
                continue
            try:
                records.append(parse_record(raw.decode("utf-8"), number))
            except (ValueError, RecursionError) as exc:
                # torn: still unfinished, or finished by `open` with the newline at `_mended_at`
                last = (torn and number == len(lines)) or end == self._mended_at
                why = "torn by an interrupted write" if last else str(exc)
                warnings.append(f"{self.path}, line {number}: skipped ({why})")
        self._read_at = len(data) - len(lines[-1])  # an unfinished last line is read again later
        self._read_identity = identity
        self._own.clear()
        return records, warnings

    def poll(self) -> list[Record]:
        """Records other processes appended since the last read or poll, in order.

        Lines this process wrote are left out, and so is an unfinished last line (it
        is read once complete). A journal replaced on disk is read from its start.
        """
        try:
            with _open_regular(self.path) as handle:
                info = os.fstat(handle.fileno())
                if not stat.S_ISREG(info.st_mode):  # replaced by a device: the next full read says so
                    return []
                identity = _identity(info)
                if identity != self._read_identity or info.st_size < self._read_at:
                    self._read_at, self._read_identity = 0, identity
                    self._own.clear()
                handle.seek(self._read_at)
                data = handle.read()
        except OSError:
            return []
        complete = data.rfind(b"\n") + 1
        records: list[Record] = []
        offset = self._read_at
        for raw in data[:complete].split(b"\n")[:-1]:
            at, offset = offset, offset + len(raw) + 1
            if at in self._own:
                self._own.discard(at)
                continue
            if raw.strip():
                # a bad line is reported by the next full read
                with contextlib.suppress(ValueError, RecursionError):
                    records.append(parse_record(raw.decode("utf-8")))
        self._read_at += complete
        return records

    def open(self) -> None:
        """Open for appending now, so a read-only folder is reported before any review.

        A journal not there yet is created by the first `append`, not here: opening a
        run file to look at it leaves no empty journal behind.
        """
        if self._fd is not None:
            return
        check_journal_path(self.path, self.run_path)
        if os.path.lexists(self.path):
            self._open_for_append()
            return
        probe = f"{self.path}.{os.getpid()}.probe"  # can the folder take the journal? Leave nothing.
        try:
            os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            os.unlink(probe)  # writes-ok: the empty probe this check just made
        except FileExistsError:
            pass
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot write the journal ({exc.strerror})") from None
        self._lock_run_file()

    def _lock_run_file(self) -> None:
        """With no journal yet, the run file's lock tells a second instance it is not alone."""
        run_path = self.run_path
        if run_path is None and self.path.endswith(JOURNAL_SUFFIX):
            run_path = self.path[: -len(JOURNAL_SUFFIX)]
        if fcntl is None or run_path is None or self._lock_fd is not None:
            return
        try:  # non-blocking: a FIFO given as the run file must not hang the open
            self._lock_fd = os.open(run_path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except OSError:
            return
        if not stat.S_ISREG(os.fstat(self._lock_fd).st_mode):
            os.close(self._lock_fd)
            self._lock_fd = None
            return
        try:
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.shared = True
            os.close(self._lock_fd)
            self._lock_fd = None

    def _open_for_append(self) -> None:
        """Open (creating) the file for appending, locked when no other process holds it."""
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot write the journal ({exc.strerror})") from None
        self._identity = _identity(os.fstat(self._fd))
        if fcntl is not None:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                self.shared = True
        try:
            self._ensure_line_start()
        except OSError as exc:  # a full disk: the newline after a torn line cannot be written
            raise JournalError(f"{self.path}: cannot write the journal ({exc.strerror or exc})") from None

    def replaced(self) -> bool:
        """Whether the file at the path is no longer the one open for appending."""
        if self._fd is None or self._identity is None:
            return False
        try:
            return _identity(os.stat(self.path)) != self._identity
        except OSError:
            return True

    def append(self, record: Record) -> None:
        """Write one record and make it durable before returning.

        Raises JournalReplaced, having written nothing, when the journal was deleted
        or replaced on disk since it was opened; the next append goes to the new file.
        """
        data = record.to_json()
        if self.replaced():
            self.close()
            self.open()
            raise JournalReplaced(f"{self.path}: the journal was deleted or replaced while open")
        try:
            if self._fd is None:
                check_journal_path(self.path, self.run_path)
                self._open_for_append()
            assert self._fd is not None
            if not self._clean:  # a failed write may have left half a line: end it first
                self._ensure_line_start()
            self._clean = False
            written = os.write(self._fd, data)
            if written != len(data):
                raise OSError(28, "short write (disk full?)")
            self._clean = True
            self._own.add(os.lseek(self._fd, 0, os.SEEK_CUR) - written)
            os.fsync(self._fd)
        except OSError as exc:
            raise JournalError(f"{self.path}: label not saved ({exc.strerror or exc})") from None

    def status(self) -> str | None:
        """Nothing to report for a file: failures are raised by `append`."""
        return None

    def reserve(self, run: str | None, reviewer: str) -> None:
        """A journal file holds no reservations."""

    def reservations(self) -> dict[str, str]:
        return {}

    def _ensure_line_start(self) -> None:
        """After a line torn by a crash, start on a fresh one so new entries stay readable."""
        assert self._fd is not None
        size = os.fstat(self._fd).st_size
        if size == 0:
            return
        with open(self.path, "rb") as handle:
            handle.seek(size - 1)
            torn = handle.read(1) != b"\n"
        if torn:
            os.write(self._fd, b"\n")
            self._mended_at = size

    def close(self) -> None:
        """Close the file (and release the run file's lock); appending again reopens it."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
            self._identity = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


FileJournal = Journal
"""The file implementation of `ReviewLog`, under the name the design uses."""
