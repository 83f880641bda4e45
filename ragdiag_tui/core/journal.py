"""The review journal: every label and note, appended to `FILE.review.jsonl`.

Each entry is the full review state of one run after a change (label and note),
so replay is "last entry per run wins". An entry is one line written with a
single `os.write` on a file opened with O_APPEND, then fsynced: a crash can tear
at most the line being written, and two processes appending to the same journal
never interleave inside a line. The run file itself is never written.
"""

from __future__ import annotations

import getpass
import hashlib
import os
from dataclasses import dataclass
from datetime import UTC, datetime

from .jsonutil import decode_standard, line_bytes

JOURNAL_SUFFIX = ".review.jsonl"
FORMAT_VERSION = 1

try:  # flock keeps a second instance from journaling unawares; not on every OS.
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


class JournalError(Exception):
    """A journal could not be written or opened. The message names the file.

    `row` is set when a review change was kept in memory but not saved.
    """

    row: int | None = None


def journal_path(run_path: str | os.PathLike[str]) -> str:
    return os.fspath(run_path) + JOURNAL_SUFFIX


def default_reviewer() -> str:
    try:
        return getpass.getuser()
    except Exception:  # no login name in some containers
        return "reviewer"


def digest(raw_text: bytes) -> str:
    """A short fingerprint of a run's text, to notice runs changed since review."""
    return hashlib.blake2b(raw_text, digest_size=8).hexdigest()


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(slots=True)
class Entry:
    """One run's review state after a change. `label` None: the file's label is back."""

    run: str
    label: bool | None
    note: str
    reviewer: str
    at: str
    digest: str = ""
    line: int = 0  # the entry's line in the journal, for messages

    def to_json(self) -> bytes:
        data = {
            "v": FORMAT_VERSION,
            "run": self.run,
            "label": self.label,
            "note": self.note,
            "reviewer": self.reviewer,
            "at": self.at,
            "digest": self.digest,
        }
        # One line: line breaks and lone surrogates (legal \ud800 escapes) as \u escapes.
        return line_bytes(data) + b"\n"


def _parse_entry(text: str, line: int) -> Entry:
    data = decode_standard(text)
    if not isinstance(data, dict) or not isinstance(data.get("run"), str):
        raise ValueError("not a journal entry")
    label = data.get("label")
    if label is not None and not isinstance(label, bool):
        raise ValueError("label is not true, false or null")
    note = data.get("note") or ""
    if not isinstance(note, str):
        raise ValueError("note is not a string")
    return Entry(
        data["run"],
        label,
        note,
        str(data.get("reviewer") or ""),
        str(data.get("at") or ""),
        str(data.get("digest") or ""),
        line,
    )


class Journal:
    """Append-only review journal next to a run file."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._fd: int | None = None
        self._clean = True  # False after a failed write, which may have left half a line
        self._mended_at: int | None = None  # where `open` ended a torn last line with "\n"
        self.shared = False  # another process holds the journal too

    def read(self) -> tuple[list[Entry], list[str]]:
        """All readable entries, and a warning for each line that is not one."""
        try:
            with open(self.path, "rb") as handle:
                data = handle.read()
        except FileNotFoundError:
            return [], []
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot read the journal ({exc.strerror})") from None
        entries: list[Entry] = []
        warnings: list[str] = []
        lines = data.split(b"\n")
        torn = lines[-1].strip() != b""  # the last write did not finish its line
        end = -1
        for number, raw in enumerate(lines, start=1):
            end += len(raw) + 1  # where the line's newline is (or would be)
            if not raw.strip():
                continue
            try:
                entries.append(_parse_entry(raw.decode("utf-8"), number))
            except (ValueError, RecursionError) as exc:
                # torn: still unfinished, or finished by `open` with the newline at `_mended_at`
                last = (torn and number == len(lines)) or end == self._mended_at
                why = "torn by an interrupted write" if last else str(exc)
                warnings.append(f"{self.path}, line {number}: skipped ({why})")
        return entries, warnings

    def open(self) -> None:
        """Open for appending now, so a read-only folder is reported before any review."""
        if self._fd is not None:
            return
        try:
            self._fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot write the journal ({exc.strerror})") from None
        if fcntl is not None:
            try:
                fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                self.shared = True
        try:
            self._ensure_line_start()
        except OSError as exc:  # a full disk: the newline after a torn line cannot be written
            raise JournalError(f"{self.path}: cannot write the journal ({exc.strerror or exc})") from None

    def append(self, entry: Entry) -> None:
        """Write one entry and make it durable before returning."""
        data = entry.to_json()
        try:
            self.open()
            assert self._fd is not None
            if not self._clean:  # a failed write may have left half a line: end it first
                self._ensure_line_start()
            self._clean = False
            written = os.write(self._fd, data)
            if written != len(data):
                raise OSError(28, "short write (disk full?)")
            self._clean = True
            os.fsync(self._fd)
        except OSError as exc:
            raise JournalError(f"{self.path}: label not saved ({exc.strerror or exc})") from None

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
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
