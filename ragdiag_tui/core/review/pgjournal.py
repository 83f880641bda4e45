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
  spool (`core.spool`), fsynced; they are sent, in order, once it is back, by this
  process or the next one to open the file.
- **Reservations.** `reserve(run, reviewer)` tells the others which run a reviewer is
  on (for a few minutes); `reservations()` says which runs others hold.

The schema lives in the `ragdiag` schema, created on first use and versioned
(`ragdiag.schema_version`, `MIGRATIONS`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import threading
import time
import uuid
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .records import JournalError, Record, parse_record
from .spool import Spool, Spooled, spool_path

SCHEMA_VERSION_TABLE = "ragdiag.schema_version"
LOCK_SPACE = 0x52414744  # "RAGD": the first key of this program's advisory locks
RESERVATION_MINUTES = 5
RESERVE_EVERY = 0.5  # seconds between two reservation writes (cursor moves are throttled)
RESERVE_REFRESH = 60.0  # a reservation held still is renewed this often
RESERVATIONS_REREAD = 15.0  # others' reservations are re-read this often (they expire)
RETRY_EVERY = 2.0  # seconds between two attempts to reach an absent server
CONNECT_TIMEOUT = 5

MIGRATIONS: list[tuple[int, str]] = [
    (
        1,
        """
        CREATE TABLE ragdiag.reviews (
            review text PRIMARY KEY,        -- the run file's fingerprint
            file_name text NOT NULL,        -- its name when first reviewed, for people
            created timestamptz NOT NULL DEFAULT now()
        );
        CREATE TABLE ragdiag.entries (
            seq bigserial PRIMARY KEY,      -- the order of the review
            id uuid NOT NULL UNIQUE,        -- made by the client: a resend is stored once
            review text NOT NULL,
            run text,                       -- null for a spot-check
            digest text NOT NULL DEFAULT '',
            kind text NOT NULL,
            reviewer text NOT NULL,
            at text NOT NULL,
            record text NOT NULL,           -- the journal line, as the file would hold it
            session uuid NOT NULL,          -- the app that sent it, so it skips its own
            stored timestamptz NOT NULL DEFAULT now()
        );
        CREATE INDEX entries_review_seq ON ragdiag.entries (review, seq);
        CREATE TABLE ragdiag.reservations (
            review text NOT NULL,
            reviewer text NOT NULL,
            run text NOT NULL,
            until timestamptz NOT NULL,
            PRIMARY KEY (review, reviewer)
        );
        CREATE FUNCTION ragdiag.notify_entry() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            PERFORM pg_notify('ragdiag_' || left(NEW.review, 40), '');
            RETURN NULL;
        END $$;
        CREATE TRIGGER entries_notify AFTER INSERT ON ragdiag.entries
            FOR EACH ROW EXECUTE FUNCTION ragdiag.notify_entry();
        CREATE FUNCTION ragdiag.append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'ragdiag.entries is append-only';
        END $$;
        CREATE TRIGGER entries_append_only BEFORE UPDATE OR DELETE ON ragdiag.entries
            FOR EACH ROW EXECUTE FUNCTION ragdiag.append_only();
        """,
    ),
]
SCHEMA_VERSION = MIGRATIONS[-1][0]

_INSERT = (
    "INSERT INTO ragdiag.entries (id, review, run, digest, kind, reviewer, at, record, session)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s) ON CONFLICT (id) DO NOTHING"
)
# libpq's words for a server that answered but will not have us: not an outage.
_REFUSALS = ("authentication", "password", "does not exist", "permission denied", "not permitted", "SSL")


def fingerprint(run_path: str | os.PathLike[str]) -> str:
    """The run file's content fingerprint (blake2b-128 of its bytes, read in chunks)."""
    hasher = hashlib.blake2b(digest_size=16)
    try:
        with open(run_path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                hasher.update(chunk)
    except OSError as exc:
        raise JournalError(f"{os.fspath(run_path)}: cannot read the run file ({exc.strerror})") from None
    return hasher.hexdigest()


def public_url(url: str) -> str:
    """The URL without its password (in the user part or a `password=` parameter)."""
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
        if "@" in netloc:
            user, _, host = netloc.rpartition("@")
            netloc = f"{user.partition(':')[0]}@{host}"
        query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if k != "password"], safe="/")
        return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))
    except ValueError:
        return re.sub(r"(://[^:/@]*):[^@]*@", r"\1@", url.split("?", 1)[0])


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
        self.review = ""
        self.offline: str | None = None  # why the server is away, or None when connected
        self._conn: Any = None  # writes and queries
        self._listen: Any = None  # LISTENs for the review's channel
        self._last_seq = 0  # the last entry read or polled
        self._resync = False  # the next poll returns the whole review (after an offline start)
        self._spooled = 0
        self._reconnect: threading.Thread | None = None
        self._reconnected: tuple[Any, Any] | None = None
        self._next_attempt = 0.0
        self._reserve_want: tuple[str | None, str] | None = None
        self._reserve_sent: tuple[str | None, str] | None = None
        self._reserve_sent_at = 0.0
        self._reservations: dict[str, str] = {}
        self._reservations_at = 0.0
        self._password = ""

    # -- connecting --------------------------------------------------------------

    def _message(self, exc: BaseException) -> str:
        text = " ".join(str(exc).split())
        if self._password:
            text = text.replace(self._password, "***")
        return text

    def _connect(self) -> tuple[Any, Any]:
        """Two connections: one for writes and queries, one that LISTENs."""
        import psycopg

        options: dict[str, Any] = {"autocommit": True, "application_name": "ragdiag-tui"}
        if "connect_timeout" not in self._params:
            options["connect_timeout"] = CONNECT_TIMEOUT
        conn = psycopg.connect(self.url, **options)
        try:
            listen = psycopg.connect(self.url, **options)
        except BaseException:
            conn.close()
            raise
        return conn, listen

    def _adopt(self, conn: Any, listen: Any) -> None:
        from psycopg import sql

        self._conn, self._listen = conn, listen
        listen.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self._channel)))
        self.offline = None

    def _go_offline(self, exc: BaseException) -> None:
        self.offline = self._message(exc) or "connection lost"
        for conn in (self._conn, self._listen):
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()
        self._conn = self._listen = None
        self._next_attempt = time.monotonic() + RETRY_EVERY

    def _parse_url(self) -> None:
        """Read the URL's parts; JournalError when psycopg is missing or the URL is malformed."""
        try:
            import psycopg
            from psycopg.conninfo import conninfo_to_dict
        except ImportError:
            raise JournalError(
                f"{self.name}: PostgreSQL needs psycopg: pip install 'ragdiag-tui[postgres]'"
            ) from None
        try:
            self._params = conninfo_to_dict(self.url)
        except psycopg.Error as exc:
            raise JournalError(f"{self.name}: not a usable PostgreSQL URL ({self._message(exc)})") from None
        self._password = str(self._params.get("password") or "")
        port = str(self._params.get("port") or "")
        if port and not all(part.strip().isdigit() for part in port.split(",")):
            raise JournalError(
                f"{self.name}: not a usable PostgreSQL URL (the port {port!r} is not a number)"
            )

    def _connect_or_explain(self) -> tuple[Any, Any] | None:
        """Both connections; None when the server cannot be reached and `offline_ok`.

        JournalError when the server refuses us (password, role, database) or the
        URL cannot work: no outage explains those, so nothing should wait for them.
        """
        import psycopg

        try:
            return self._connect()
        except psycopg.OperationalError as exc:
            message = self._message(exc)
            if any(word in message for word in _REFUSALS):
                raise JournalError(f"{self.name}: cannot open the review ({message})") from None
            if not self.offline_ok:
                raise JournalError(f"{self.name}: the server cannot be reached ({message})") from None
            self._go_offline(exc)
            return None
        except psycopg.Error as exc:
            raise JournalError(f"{self.name}: not a usable PostgreSQL URL ({self._message(exc)})") from None

    def check(self) -> str | None:
        """Try the URL and the login, before an app starts; returns why the server is away, if it is."""
        self._parse_url()
        conns = self._connect_or_explain()
        if conns is None:
            return self.offline
        for conn in conns:
            conn.close()
        return None

    def open(self) -> None:
        """Reach the server and make the schema ready; raise JournalError if the URL or login is wrong."""
        if self._conn is not None or (self.offline and self.review):
            return
        self._parse_url()
        import psycopg

        self.review = fingerprint(self.run_path)
        self._channel = "ragdiag_" + self.review[:40]
        self._spooled = len(self.spool.waiting()[0])
        conns = self._connect_or_explain()
        if conns is None:
            self._resync = True
            return
        conn, listen = conns
        try:
            self._migrate(conn)
            self._adopt(conn, listen)
        except psycopg.Error as exc:
            conn.close()
            listen.close()
            raise JournalError(
                f"{self.name}: cannot prepare the review tables ({self._message(exc)})"
            ) from None

    def _migrate(self, conn: Any) -> None:
        """Create or upgrade the schema; under a lock, so two first users do not race."""
        version = self._schema_version(conn)
        if version == SCHEMA_VERSION:
            pass
        else:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", [LOCK_SPACE])
                conn.execute("CREATE SCHEMA IF NOT EXISTS ragdiag")
                conn.execute(f"CREATE TABLE IF NOT EXISTS {SCHEMA_VERSION_TABLE} (version integer NOT NULL)")
                version = self._schema_version(conn)
                if version > SCHEMA_VERSION:
                    raise JournalError(
                        f"{self.name}: the database's review schema is version {version}, newer than this "
                        f"ragdiag-tui knows ({SCHEMA_VERSION}); upgrade ragdiag-tui"
                    )
                for number, statements in MIGRATIONS:
                    if number > version:
                        conn.execute(statements)
                        conn.execute(f"INSERT INTO {SCHEMA_VERSION_TABLE} VALUES (%s)", [number])
        conn.execute(
            "INSERT INTO ragdiag.reviews (review, file_name) VALUES (%s, %s) ON CONFLICT DO NOTHING",
            [self.review, os.path.basename(self.run_path)],
        )

    @staticmethod
    def _schema_version(conn: Any) -> int:
        exists = conn.execute("SELECT to_regclass(%s)", [SCHEMA_VERSION_TABLE]).fetchone()[0]
        if exists is None:
            return 0
        return conn.execute(f"SELECT coalesce(max(version), 0) FROM {SCHEMA_VERSION_TABLE}").fetchone()[0]

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
        if self._conn is not None:
            try:
                self._send_spool()
                rows = self._conn.execute(
                    "SELECT seq, record FROM ragdiag.entries WHERE review = %s ORDER BY seq", [self.review]
                ).fetchall()
                self._drain()
            except self._errors() as exc:
                self._go_offline(exc)
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
        others = self._conn.execute(
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

    @staticmethod
    def _errors() -> tuple[type[BaseException], ...]:
        import psycopg

        return (psycopg.OperationalError, psycopg.InterfaceError)

    def _drain(self) -> set[str]:
        """The payloads of the notifications waiting on the LISTEN connection, without blocking."""
        pgconn = self._listen.pgconn
        pgconn.consume_input()  # raises OperationalError when the server has gone
        payloads: set[str] = set()
        while (notify := pgconn.notifies()) is not None:
            payloads.add(notify.extra.decode("utf-8", "replace"))
        if pgconn.status != 0:  # CONNECTION_BAD
            import psycopg

            raise psycopg.OperationalError("the connection to the server was lost")
        return payloads

    def poll(self) -> list[Record]:
        """What others appended since the last read or poll (cheap when nothing did).

        Also: reconnects after an outage (then sends the spool), and writes this
        reviewer's reservation when it moved.
        """
        if self._conn is None and not self._try_reconnect():
            return []
        try:
            payloads = self._drain()
            self._send_reservation()
            if "r" in payloads or time.monotonic() - self._reservations_at > RESERVATIONS_REREAD:
                self._read_reservations()
            if not (payloads - {"r"}) and not self._resync:
                return []
            if self._resync:
                rows = self._conn.execute(
                    "SELECT seq, record FROM ragdiag.entries WHERE review = %s ORDER BY seq", [self.review]
                ).fetchall()
            else:
                rows = self._conn.execute(
                    "SELECT seq, record FROM ragdiag.entries WHERE review = %s AND seq > %s"
                    " AND session <> %s ORDER BY seq",
                    [self.review, self._last_seq, self.session],
                ).fetchall()
                if rows:
                    # own entries are skipped above; the newest seq of all moves the mark
                    self._last_seq = max(self._last_seq, rows[-1][0])
            if self._resync:
                self._last_seq = rows[-1][0] if rows else 0
                self._resync = False
        except self._errors() as exc:
            self._go_offline(exc)
            return []
        return self._parse(rows, None)

    def _try_reconnect(self) -> bool:
        """Whether the server is back (checked in a thread, every few seconds, never blocking)."""
        if self._reconnected is not None:
            conn, listen = self._reconnected
            self._reconnected = None
            try:
                self._migrate(conn)
                self._adopt(conn, listen)
                self._send_spool()
            except Exception as exc:
                self._go_offline(exc)
                return False
            return True
        if (
            self._reconnect is None or not self._reconnect.is_alive()
        ) and time.monotonic() >= self._next_attempt:
            self._next_attempt = time.monotonic() + RETRY_EVERY
            self._reconnect = threading.Thread(target=self._attempt, name="ragdiag-pg-reconnect", daemon=True)
            self._reconnect.start()
        return False

    def _attempt(self) -> None:
        try:
            self._reconnected = self._connect()
        except Exception as exc:  # still away: say why in the status
            self.offline = self._message(exc) or self.offline

    # -- writing ---------------------------------------------------------------------

    def _insert(self, items: list[tuple[uuid.UUID | str, str, str, Record | None]]) -> None:
        """Insert (id, review, line, record) rows in one transaction, under the review's lock.

        The lock makes the order of `seq` the order of commits, so a poll that has
        seen seq N never misses a smaller one committed later.
        """
        rows = []
        for entry_id, review, line, record in items:
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
                    self.session,
                )
            )
        with self._conn.transaction():
            self._conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [LOCK_SPACE, self.review])
            with self._conn.cursor() as cursor:
                cursor.executemany(_INSERT, rows)

    def _send_spool(self) -> None:
        def deliver(waiting: list[Spooled]) -> None:
            self._insert([(item.id, item.review, item.line, None) for item in waiting])

        self.spool.send(deliver)
        self._spooled = 0

    def append(self, record: Record) -> None:
        """Store one record: committed in the database, else fsynced in the spool."""
        self.open()
        line = record.to_json()
        entry_id = uuid.uuid4()
        if self._conn is not None:
            try:
                if self._spooled:
                    self._send_spool()  # the spool first: the order is the review's order
                self._insert([(entry_id, self.review, line.decode("utf-8"), record)])
                return
            except self._errors() as exc:
                self._go_offline(exc)  # it may have been stored: the spooled copy has the same id
            except Exception as exc:
                raise JournalError(f"{self.name}: label not saved ({self._message(exc)})") from None
        try:
            self.spool.append(str(entry_id), self.review, line)
        except OSError as exc:
            raise JournalError(
                f"{self.spool.path}: label not saved (the server is away and the spool "
                f"cannot be written: {exc.strerror or exc})"
            ) from None
        self._spooled += 1

    def status(self) -> str | None:
        """For the summary bar: the server away, and how many entries wait in the spool."""
        if self.offline is None and not self._spooled:
            return None
        waiting = f"{self._spooled} {'entry' if self._spooled == 1 else 'entries'} spooled"
        if self.offline is None:
            return f"PostgreSQL: {waiting}"
        return f"PostgreSQL offline: {waiting}"

    # -- reservations -------------------------------------------------------------------

    def reserve(self, run: str | None, reviewer: str) -> None:
        """Hold `run` for `reviewer` (None: hold nothing). Written now, or by the next poll when throttled."""
        self._reserve_want = (run, reviewer)
        if self._conn is not None:
            try:
                self._send_reservation()
            except self._errors() as exc:
                self._go_offline(exc)

    def _send_reservation(self) -> None:
        want = self._reserve_want
        if want is None:
            return
        now = time.monotonic()
        since = now - self._reserve_sent_at
        if (want == self._reserve_sent and since < RESERVE_REFRESH) or since < RESERVE_EVERY:
            return
        run, reviewer = want
        with self._conn.transaction():
            if run is None:
                self._conn.execute(
                    "DELETE FROM ragdiag.reservations WHERE review = %s AND reviewer = %s",
                    [self.review, reviewer],
                )
            else:
                self._conn.execute(
                    "INSERT INTO ragdiag.reservations (review, reviewer, run, until)"
                    " VALUES (%s, %s, %s, now() + make_interval(mins => %s))"
                    " ON CONFLICT (review, reviewer)"
                    " DO UPDATE SET run = excluded.run, until = excluded.until",
                    [self.review, reviewer, run, RESERVATION_MINUTES],
                )
            self._conn.execute("SELECT pg_notify(%s, 'r')", [self._channel])
        self._reserve_sent, self._reserve_sent_at = want, now

    def _read_reservations(self) -> None:
        me = self._reserve_want[1] if self._reserve_want else ""
        rows = self._conn.execute(
            "SELECT run, reviewer FROM ragdiag.reservations WHERE review = %s AND until > now()"
            " AND reviewer <> %s ORDER BY until",
            [self.review, me],
        ).fetchall()
        self._reservations = dict(rows)
        self._reservations_at = time.monotonic()

    def reservations(self) -> dict[str, str]:
        """Runs that other reviewers hold now: run id -> reviewer (empty while offline)."""
        if self._conn is None:
            return {}
        if not self._reservations_at:
            try:
                self._read_reservations()
            except self._errors() as exc:
                self._go_offline(exc)
                return {}
        return dict(self._reservations)

    def close(self) -> None:
        """Give back the reservation and close both connections."""
        if self._conn is not None and self._reserve_sent and self._reserve_sent[0] is not None:
            with contextlib.suppress(Exception):
                self._conn.execute(
                    "DELETE FROM ragdiag.reservations WHERE review = %s AND reviewer = %s",
                    [self.review, self._reserve_sent[1]],
                )
                self._conn.execute("SELECT pg_notify(%s, 'r')", [self._channel])
        for conn in (self._conn, self._listen):
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()
        self._conn = self._listen = None
        self._reconnected = None
