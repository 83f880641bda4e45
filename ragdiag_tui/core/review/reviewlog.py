"""Where a review's records live: the interface every review store implements
(`ReviewLog`), and `open_log`, which picks the store of a run file: the journal file
beside it (`core.review.journal`) or a PostgreSQL database (`core.review.pgjournal`).
"""

from __future__ import annotations

import os
from typing import Protocol, runtime_checkable

from .journal import Journal, journal_path
from .records import Record

JOURNAL_ENV = "RAGDIAG_JOURNAL"


@runtime_checkable
class ReviewLog(Protocol):
    """Where a review's records live: the journal file, or a shared database.

    `name` is for messages (the journal path, or the database URL without password);
    `shared` is True when another process writes the same log.
    """

    name: str
    shared: bool

    def open(self) -> None:
        """Make the log ready for appending; raise JournalError (naming the file/URL) if unusable."""

    def read(self) -> tuple[list[Record], list[str]]:
        """Every record in order, and a warning for each one that cannot be read."""

    def append(self, record: Record) -> None:
        """Store one record, durable before returning, else raise JournalError."""

    def poll(self) -> list[Record]:
        """Records appended by OTHER writers since the last read or poll (live updates)."""

    def status(self) -> str | None:
        """A line for the summary bar when something is wrong (e.g. offline), else None."""

    def close(self) -> None:
        """Release the log; appending again reopens it."""

    def reserve(self, run: str | None, reviewer: str) -> None:
        """`reviewer` is on `run` (None: on no run): hold it for them, in a store that can."""

    def reservations(self) -> dict[str, str]:
        """Runs other reviewers hold now, run id -> reviewer (empty where there are none)."""


def open_log(
    run_path: str | os.PathLike[str], spec: str | None = None, *, offline_ok: bool = False
) -> ReviewLog:
    """The review log of a run file.

    `spec` None falls back to the environment variable RAGDIAG_JOURNAL, then to the
    journal file beside the run file. A `postgresql://` or `postgres://` URL is the
    PostgreSQL store (`pgjournal.PgJournal`, imported only then); anything else
    is the path of a journal file. `offline_ok` (the app): a PostgreSQL server that
    cannot be reached is not an error; entries wait in a local spool until it is back.
    """
    spec = spec if spec is not None else os.environ.get(JOURNAL_ENV) or None
    if spec is not None and spec.startswith(("postgresql://", "postgres://")):
        from .postgres.store import PgJournal

        return PgJournal(spec, run_path, offline_ok=offline_ok)
    return Journal(spec if spec is not None else journal_path(run_path), run_path)
