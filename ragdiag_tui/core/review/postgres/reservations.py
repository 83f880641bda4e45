"""Reservations in the PostgreSQL review store: which run each reviewer is on.

A reviewer's reservation is written when their cursor moves (throttled), renewed
while it stays, and lasts a few minutes; every write NOTIFYs the review's channel
(payload "r") so the others re-read who holds what.
"""

from __future__ import annotations

import contextlib
import time

from .link import PgLink, lost_errors

RESERVATION_MINUTES = 5
RESERVE_EVERY = 0.5  # seconds between two reservation writes (cursor moves are throttled)
RESERVE_REFRESH = 60.0  # a reservation held still is renewed this often
RESERVATIONS_REREAD = 15.0  # others' reservations are re-read this often (they expire)


class Reservations:
    """This session's reservation, and the runs other reviewers hold, over `link`."""

    def __init__(self, link: PgLink) -> None:
        self.link = link
        self._want: tuple[str | None, str] | None = None
        self._sent: tuple[str | None, str] | None = None
        self._sent_at = 0.0
        self._others: dict[str, str] = {}
        self._read_at = 0.0

    def want(self, run: str | None, reviewer: str) -> None:
        """Hold `run` for `reviewer` (None: hold nothing) from the next `send` on."""
        self._want = (run, reviewer)

    def reserve(self, run: str | None, reviewer: str) -> None:
        """Hold `run` for `reviewer` (None: hold nothing). Written now, or by `send` when throttled."""
        self.want(run, reviewer)
        if self.link.conn is not None:
            try:
                self.send()
            except lost_errors() as exc:
                self.link.go_offline(exc)

    def send(self) -> None:
        """Write the reservation wanted, unless it was written just now (or is still fresh)."""
        want = self._want
        if want is None:
            return
        now = time.monotonic()
        since = now - self._sent_at
        if (want == self._sent and since < RESERVE_REFRESH) or since < RESERVE_EVERY:
            return
        run, reviewer = want
        conn, review = self.link.conn, self.link.review
        with conn.transaction():
            if run is None:
                conn.execute(
                    "DELETE FROM ragdiag.reservations WHERE review = %s AND reviewer = %s", [review, reviewer]
                )
            else:
                conn.execute(
                    "INSERT INTO ragdiag.reservations (review, reviewer, run, until)"
                    " VALUES (%s, %s, %s, now() + make_interval(mins => %s))"
                    " ON CONFLICT (review, reviewer)"
                    " DO UPDATE SET run = excluded.run, until = excluded.until",
                    [review, reviewer, run, RESERVATION_MINUTES],
                )
            conn.execute("SELECT pg_notify(%s, 'r')", [self.link.channel])
        self._sent, self._sent_at = want, now

    def stale(self, payloads: set[str]) -> bool:
        """Whether others' reservations must be read again (one changed, or they may have expired)."""
        return "r" in payloads or time.monotonic() - self._read_at > RESERVATIONS_REREAD

    def read(self) -> None:
        """Read the runs other reviewers hold now."""
        me = self._want[1] if self._want else ""
        rows = self.link.conn.execute(
            "SELECT run, reviewer FROM ragdiag.reservations WHERE review = %s AND until > now()"
            " AND reviewer <> %s ORDER BY until",
            [self.link.review, me],
        ).fetchall()
        self._others = dict(rows)
        self._read_at = time.monotonic()

    def others(self) -> dict[str, str]:
        """Runs that other reviewers hold now: run id -> reviewer (empty while offline)."""
        if self.link.conn is None:
            return {}
        if not self._read_at:
            try:
                self.read()
            except lost_errors() as exc:
                self.link.go_offline(exc)
                return {}
        return dict(self._others)

    def known(self) -> dict[str, str]:
        """The runs other reviewers held when last read (empty while offline); never asks the server."""
        return {} if self.link.conn is None else dict(self._others)

    def give_back(self) -> None:
        """Drop this session's reservation, if it holds one (on closing; failures ignored)."""
        conn = self.link.conn
        if conn is not None and self._sent and self._sent[0] is not None:
            with contextlib.suppress(Exception):
                conn.execute(
                    "DELETE FROM ragdiag.reservations WHERE review = %s AND reviewer = %s",
                    [self.link.review, self._sent[1]],
                )
                conn.execute("SELECT pg_notify(%s, 'r')", [self.link.channel])
