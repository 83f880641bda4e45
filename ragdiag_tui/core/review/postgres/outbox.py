"""Entries on their way into the PostgreSQL review store: inserted under the review's
lock when the server is there, else fsynced in the local spool (`core.review.spool`)
and sent, in order, once it is back (the app spools every entry and sends it in the
background: `core.review.pgbackground`). An entry keeps the session that wrote it, so
whoever sends it, its writer's polls skip it and everyone else's show it.
"""

from __future__ import annotations

import uuid

from ..records import Record, parse_record
from .link import PgLink
from .schema import LOCK_SPACE
from .spool import Spool, Spooled

_INSERT = (
    "INSERT INTO ragdiag.entries (id, review, run, digest, kind, reviewer, at, record, session)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING"
)


class Outbox:
    """Sends the entries of `session` over `link`, or keeps them in `spool` meanwhile.

    `spooled` is how many entries wait in the spool.
    """

    def __init__(self, link: PgLink, spool: Spool, session: uuid.UUID) -> None:
        self.link = link
        self.spool = spool
        self.session = session

    @property
    def spooled(self) -> int:
        """How many entries wait in the spool (read from the file: another thread may be sending it)."""
        return len(self.spool.waiting()[0])

    def insert(self, items: list[tuple[uuid.UUID | str, str, str, Record | None, str]]) -> None:
        """Insert (id, review, line, record, session) rows in one transaction, under the review's lock.

        The lock makes the order of `seq` the order of commits, so a poll that has
        seen seq N never misses a smaller one committed later.
        """
        rows = []
        for entry_id, review, line, record, session in items:
            if record is None:
                record = parse_record(line)
            rows.append(
                (
                    entry_id,
                    review,
                    getattr(record, "run", None),
                    getattr(record, "digest", ""),
                    record.kind,
                    record.reviewer,
                    record.at,
                    line.rstrip("\n"),
                    session or self.session,
                )
            )
        conn = self.link.conn
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [LOCK_SPACE, self.link.review])
            with conn.cursor() as cursor:
                cursor.executemany(_INSERT, rows)

    def send_spool(self) -> None:
        """Send every spooled entry, in order, then empty the spool."""

        def deliver(waiting: list[Spooled]) -> None:
            self.insert([(item.id, item.review, item.line, None, item.session) for item in waiting])

        self.spool.send(deliver)

    def keep(self, entry_id: uuid.UUID, line: bytes) -> None:
        """Spool one entry until the server is back. Raises OSError when the disk refuses."""
        self.spool.append(str(entry_id), self.link.review, line, str(self.session))
