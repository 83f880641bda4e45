"""The review in PostgreSQL: one store for a team (`--journal postgresql://...`).

A `ReviewLog` like the journal file, kept in a database instead:

- **Keyed by the run file's content.** A review is named by a fingerprint of the run
  file's bytes (blake2b), so one database holds the reviews of many run files, and
  two copies of the same file on two machines share one review. Each entry also
  keeps its run's id and digest, as the journal file does.
- **Append-only.** An entry is the journal record, exactly as the file would hold
  it, inserted and committed before `append` returns; a trigger refuses updates and
  deletes. Each entry has an id made by the client, so sending it twice (after an
  outage) stores it once.
- **Live.** Every insert NOTIFYs the review's channel; `poll` drains notifications
  from a second, LISTENing connection without blocking and returns what others wrote.
- **Outages lose nothing.** When the server cannot be reached, entries go to a local
  spool (`core.review.spool`), fsynced; they are sent, in order, once it is back, by this
  process or the next one to open the file.
- **Reservations.** `reserve(run, reviewer)` tells the others which run a reviewer is
  on (for a few minutes); `reservations()` says which runs others hold; `close` gives
  the reservation back at once.
- **Never waiting on the network (the app).** After `work_in_background`, every
  exchange with the server runs in a thread of its own (`pgbackground`): `append`
  waits only for the spool's fsync (the durable step), and the thread sends it;
  `poll`, `reserve`, `reservations` and `status` only hand over what the thread
  found or must do. A hung server (every statement also has a timeout) therefore
  never freezes a keystroke; the status says when it stops answering.

`PgJournal` composes the parts, each in its module: the connections (`pglink`),
the schema (`pgschema`: the `ragdiag` schema, created on first use and versioned),
the entries on their way in (`pgoutbox`) and the reservations (`pgreserve`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import uuid
from collections import deque
from typing import Any

from ..records import JournalError, Record, parse_record
from .background import Background
from .link import PgLink, lost_errors, public_url
from .outbox import Outbox
from .reservations import Reservations
from .schema import prepare
from .spool import Spool, spool_path

STALLED_AFTER = 2.0  # seconds a round of server traffic may take before the status says so
_ALL_ROWS = "SELECT seq, record FROM ragdiag.entries WHERE review = %s ORDER BY seq"
_NEW_ROWS = (
    "SELECT seq, record FROM ragdiag.entries WHERE review = %s AND seq > %s AND session <> %s ORDER BY seq"
)


def fingerprint(run_path: str | os.PathLike[str]) -> str:
    """The run file's content fingerprint (blake2b-128 of its bytes, read in chunks); for a
    dataset's folder (reviewed in place), of its files' names and sizes: its content would
    be gigabytes read before the first label, and every teammate's copy names them alike."""
    hasher = hashlib.blake2b(digest_size=16)
    if os.path.isdir(run_path):
        for name, size in _folder_files(os.fspath(run_path)):
            hasher.update(f"{len(name)}:{name}:{size}\n".encode("utf-8", "surrogatepass"))
        return hasher.hexdigest()
    try:
        with open(run_path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                hasher.update(chunk)
    except OSError as exc:
        raise JournalError(f"{os.fspath(run_path)}: cannot read the run file ({exc.strerror})") from None
    return hasher.hexdigest()


def _folder_files(folder: str) -> list[tuple[str, int]]:
    """(path relative to `folder` with '/', size) of its files, hidden ones left out, in order."""
    found = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = [name for name in dirnames if not name.startswith((".", "_"))]
        for name in filenames:
            if not name.startswith((".", "_")):
                path = os.path.join(dirpath, name)
                with contextlib.suppress(OSError):
                    found.append((os.path.relpath(path, folder).replace(os.sep, "/"), os.path.getsize(path)))
    return sorted(found)


class PgJournal:
    """The review of one run file in a PostgreSQL database (a `ReviewLog`).

    `offline_ok`: when the server cannot be reached at `open`, carry on with the
    spool (the app) instead of raising JournalError (the headless commands, which
    must not export or count a review they cannot see).
    """

    shared = True

    def __init__(self, url: str, run_path: str | os.PathLike[str], *, offline_ok: bool = False) -> None:
        self.url = url
        self.name = public_url(url)
        self.run_path = os.fspath(run_path)
        self.offline_ok = offline_ok
        self.spool = Spool(spool_path(run_path))
        self.path = self.spool.path  # the one local file of this review (never an export's target)
        self.session = uuid.uuid4()
        self.link = PgLink(url, self.name, offline_ok)
        self.outbox = Outbox(self.link, self.spool, self.session)
        self.held = Reservations(self.link)
        self._last_seq = 0  # the last entry read or polled
        self._resync = False  # the next poll returns the whole review (after an offline start)
        self.background: Background | None = None  # the thread the server traffic runs in, once started
        self._arrived: deque[Record] = deque()  # what the thread read, for the next `poll`

    @property
    def review(self) -> str:
        """The run file's fingerprint, which names its review ("" before `open`)."""
        return self.link.review

    @property
    def offline(self) -> str | None:
        """Why the server is away, or None when connected."""
        return self.link.offline

    # -- connecting --------------------------------------------------------------

    def check(self) -> str | None:
        """Try the URL and the login, before an app starts; returns why the server is away, if it is."""
        self.link.parse_url()
        conns = self.link.connect_or_explain()
        if conns is None:
            return self.offline
        for conn in conns:
            conn.close()
        return None

    def open(self) -> None:
        """Reach the server and make the schema ready; raise JournalError if the URL or login is wrong."""
        if self.link.conn is not None or (self.offline and self.review):
            return
        self.link.parse_url()
        import psycopg

        self.link.serve(fingerprint(self.run_path))
        conns = self.link.connect_or_explain()
        if conns is None:
            self._resync = True
            return
        conn, listen = conns
        try:
            prepare(conn, self.name, self.review, os.path.basename(self.run_path))
            self.link.adopt(conn, listen)
        except psycopg.Error as exc:
            conn.close()
            listen.close()
            raise JournalError(
                f"{self.name}: cannot prepare the review tables ({self.link.message(exc)})"
            ) from None

    def _reconnect(self) -> bool:
        """Whether the server is back (then the schema is made ready and the spool sent)."""
        conns = self.link.reconnected()
        if conns is None:
            return False
        try:
            prepare(conns[0], self.name, self.review, os.path.basename(self.run_path))
            self.link.adopt(*conns)
            self.outbox.send_spool()
        except Exception as exc:
            self.link.go_offline(exc)
            return False
        return True

    # -- reading -------------------------------------------------------------------

    def _parse(self, rows: list[tuple[int, str]], warnings: list[str] | None) -> list[Record]:
        records: list[Record] = []
        for seq, line in rows:
            try:
                records.append(parse_record(line, seq))
            except (ValueError, RecursionError) as exc:
                if warnings is not None:
                    warnings.append(f"{self.name}, entry {seq}: skipped ({exc})")
        return records

    def read(self) -> tuple[list[Record], list[str]]:
        """Every record of the review in order (the spooled ones last), and warnings."""
        self.open()
        warnings: list[str] = []
        if self.link.conn is not None:
            try:
                self.outbox.send_spool()
                rows = self.link.conn.execute(_ALL_ROWS, [self.review]).fetchall()
                self.link.drain()
            except lost_errors() as exc:
                self.link.go_offline(exc)
            else:
                self._last_seq = rows[-1][0] if rows else 0
                self._resync = False
                if not rows:
                    warnings.extend(self._other_versions())
                return self._parse(rows, warnings), warnings
        waiting, spool_warnings = self.spool.waiting()
        warnings.extend(spool_warnings)
        warnings.append(
            f"{self.name}: the server cannot be reached ({self.offline}); showing only the "
            f"{len(waiting)} entries spooled on this machine until it is back"
        )
        self._resync = True
        return self._parse(
            [(0, item.line) for item in waiting if item.review == self.review], warnings
        ), warnings

    def _other_versions(self) -> list[str]:
        """A word when this exact file has no review yet but a file of the same name has."""
        name = os.path.basename(self.run_path)
        others = self.link.conn.execute(
            "SELECT count(*) FROM ragdiag.reviews r WHERE r.file_name = %s AND r.review <> %s"
            " AND EXISTS (SELECT 1 FROM ragdiag.entries e WHERE e.review = r.review)",
            [name, self.review],
        ).fetchone()[0]
        if not others:
            return []
        versions = "another version" if others == 1 else f"{others} other versions"
        return [
            f"{self.name}: no review of this {name} yet, but the database holds reviews of {versions} "
            "of a file of that name (a review belongs to the file's exact content: edited since?)"
        ]

    def poll(self) -> list[Record]:
        """What others appended since the last read or poll (cheap when nothing did).

        Also: reconnects after an outage (then sends the spool), and writes this
        reviewer's reservation when it moved. In the background: what the thread read.
        """
        if self.background is not None:
            arrived: list[Record] = []
            while self._arrived:
                arrived.append(self._arrived.popleft())
            return arrived
        return self._poll_now()

    def _poll_now(self) -> list[Record]:
        if self.link.conn is None and not self._reconnect():
            return []
        try:
            payloads = self.link.drain()
            self.held.send()
            if self.held.stale(payloads):
                self.held.read()
            if not (payloads - {"r"}) and not self._resync:
                return []
            rows = self._new_rows()
        except lost_errors() as exc:
            self.link.go_offline(exc)
            return []
        return self._parse(rows, None)

    def _new_rows(self) -> list[Any]:
        """The rows others stored since the last read or poll (all of them after a resync)."""
        conn = self.link.conn
        if self._resync:
            rows = conn.execute(_ALL_ROWS, [self.review]).fetchall()
            self._last_seq = rows[-1][0] if rows else 0
            self._resync = False
            return rows
        rows = conn.execute(_NEW_ROWS, [self.review, self._last_seq, self.session]).fetchall()
        if rows:
            # own entries are skipped above; the newest seq of all moves the mark
            self._last_seq = max(self._last_seq, rows[-1][0])
        return rows

    # -- writing ---------------------------------------------------------------------

    def append(self, record: Record) -> None:
        """Store one record: committed in the database, else fsynced in the spool."""
        if self.background is not None:
            self._keep(uuid.uuid4(), record.to_json())  # durable here; the thread sends it
            self.background.wake()
            return
        self.open()
        line = record.to_json()
        entry_id = uuid.uuid4()
        if self.link.conn is not None:
            try:
                if self.outbox.spooled:
                    self.outbox.send_spool()  # the spool first: the order is the review's order
                self.outbox.insert([(entry_id, self.review, line.decode("utf-8"), record, "")])
                return
            except lost_errors() as exc:
                self.link.go_offline(exc)  # it may have been stored: the spooled copy has the same id
            except Exception as exc:
                raise JournalError(f"{self.name}: label not saved ({self.link.message(exc)})") from None
        self._keep(entry_id, line)

    def _keep(self, entry_id: uuid.UUID, line: bytes) -> None:
        try:
            self.outbox.keep(entry_id, line)
        except OSError as exc:
            raise JournalError(
                f"{self.spool.path}: label not saved (the server is away and the spool "
                f"cannot be written: {exc.strerror or exc})"
            ) from None

    def status(self) -> str | None:
        """For the summary bar: the server away, and how many entries wait in the spool."""
        spooled = self.outbox.spooled
        waiting = f"{spooled} {'entry' if spooled == 1 else 'entries'} spooled"
        if self.background is not None and self.background.busy_for() > STALLED_AFTER:
            return f"PostgreSQL not answering: {waiting}"
        if self.offline is None and (not spooled or self.background is not None):
            return None  # in the background, entries spooled a moment ago are on their way
        if self.offline is None:
            return f"PostgreSQL: {waiting}"
        return f"PostgreSQL offline: {waiting}"

    # -- in the background (the app) ------------------------------------------------------

    def work_in_background(self) -> None:
        """From now on, talk to the server only from a thread of its own (see the module's doc)."""
        if self.background is None:
            if not self.review:
                self.open()
            self.background = Background(self._tick, self._finish)
            self.background.start()

    def _tick(self) -> None:
        """One round of the thread: send the spool, then do what `poll` does (into `_arrived`)."""
        try:
            if self.link.conn is not None:
                self.outbox.send_spool()
            self._arrived.extend(self._poll_now())
        except Exception as exc:  # whatever it was, the thread lives on: retry later
            self.link.go_offline(exc)

    def _finish(self) -> None:
        """The thread's last round: what `close` does without it."""
        self.held.give_back()
        self.link.close()

    # -- reservations -------------------------------------------------------------------

    def reserve(self, run: str | None, reviewer: str) -> None:
        """Hold `run` for `reviewer` (None: hold nothing). Written now, or by the next poll when throttled."""
        if self.background is not None:
            self.held.want(run, reviewer)
            self.background.wake()
            return
        self.held.reserve(run, reviewer)

    def reservations(self) -> dict[str, str]:
        """Runs that other reviewers hold now: run id -> reviewer (empty while offline)."""
        if self.background is not None:
            return self.held.known()
        return self.held.others()

    def close(self) -> None:
        """Give back the reservation and close both connections (waiting a bounded time for the thread)."""
        if self.background is not None:
            if self.background.running:
                self.background.stop()
            return
        self._finish()
