"""The PostgreSQL review store's connections: one for writes and queries, one that
LISTENs on the review's channel; what a failure to connect means (a refusal, or an
outage to wait out); and reconnecting in a thread, never blocking the caller.

Every connection has timeouts (unless the URL sets its own): to connect, for each
statement and each wait for a lock, and TCP keepalives, so a server or network that
stops answering ends in an error (an outage, spooled) rather than a wait without end.
"""

from __future__ import annotations

import contextlib
import re
import threading
import time
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ..records import JournalError

RETRY_EVERY = 2.0  # seconds between two attempts to reach an absent server
CONNECT_TIMEOUT = 5
STATEMENT_TIMEOUT_MS = 10_000  # the server ends a statement (or a wait for a lock) that takes longer
# A TCP peer that stops answering is given up after this long (libpq ignores it on a Unix socket).
NETWORK_TIMEOUTS = {
    "keepalives": 1,
    "keepalives_idle": 10,
    "keepalives_interval": 5,
    "keepalives_count": 3,
    "tcp_user_timeout": 15_000,
}

# libpq's words for a server that answered but will not have us: not an outage.
_REFUSALS = ("authentication", "password", "does not exist", "permission denied", "not permitted", "SSL")


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


def lost_errors() -> tuple[type[BaseException], ...]:
    """psycopg's errors that mean the connection is gone (an outage, not a refusal)."""
    import psycopg

    return (psycopg.OperationalError, psycopg.InterfaceError)


class PgLink:
    """The two connections to the database at `url`, for one review (`review`, its
    fingerprint, names the channel it LISTENs on).

    `conn` and `listen` are None while the server is away; `offline` then says why.
    `name` (the URL without password) names the database in messages.
    `offline_ok`: a server that cannot be reached is an outage to wait out, not an error.
    """

    def __init__(self, url: str, name: str, offline_ok: bool) -> None:
        self.url = url
        self.name = name
        self.offline_ok = offline_ok
        self.review = ""
        self.channel = ""
        self.conn: Any = None  # writes and queries
        self.listen: Any = None  # LISTENs for the review's channel
        self.offline: str | None = None  # why the server is away, or None when connected
        self._params: dict[str, Any] = {}
        self._password = ""
        self._reconnect: threading.Thread | None = None
        self._reconnected: tuple[Any, Any] | None = None
        self._next_attempt = 0.0

    def serve(self, review: str) -> None:
        """Be the link of the review with fingerprint `review`."""
        self.review = review
        self.channel = "ragdiag_" + review[:40]

    def message(self, exc: BaseException) -> str:
        """An error's text on one line, the password masked."""
        text = " ".join(str(exc).split())
        if self._password:
            text = text.replace(self._password, "***")
        return text

    def parse_url(self) -> None:
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
            raise JournalError(f"{self.name}: not a usable PostgreSQL URL ({self.message(exc)})") from None
        self._password = str(self._params.get("password") or "")
        port = str(self._params.get("port") or "")
        if port and not all(part.strip().isdigit() for part in port.split(",")):
            raise JournalError(
                f"{self.name}: not a usable PostgreSQL URL (the port {port!r} is not a number)"
            )

    def connect(self) -> tuple[Any, Any]:
        """Two new connections: one for writes and queries, one to LISTEN."""
        import psycopg

        options: dict[str, Any] = {"autocommit": True, "application_name": "ragdiag-tui"}
        defaults: dict[str, Any] = {
            "connect_timeout": CONNECT_TIMEOUT,
            "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS} -c lock_timeout={STATEMENT_TIMEOUT_MS}"
            f" -c idle_in_transaction_session_timeout={STATEMENT_TIMEOUT_MS}",
            **NETWORK_TIMEOUTS,
        }
        options.update((key, value) for key, value in defaults.items() if key not in self._params)
        conn = psycopg.connect(self.url, **options)
        try:
            listen = psycopg.connect(self.url, **options)
        except BaseException:
            conn.close()
            raise
        return conn, listen

    def connect_or_explain(self) -> tuple[Any, Any] | None:
        """Both connections; None when the server cannot be reached and `offline_ok`.

        JournalError when the server refuses us (password, role, database) or the
        URL cannot work: no outage explains those, so nothing should wait for them.
        """
        import psycopg

        try:
            return self.connect()
        except psycopg.OperationalError as exc:
            message = self.message(exc)
            if any(word in message for word in _REFUSALS):
                raise JournalError(f"{self.name}: cannot open the review ({message})") from None
            if not self.offline_ok:
                raise JournalError(f"{self.name}: the server cannot be reached ({message})") from None
            self.go_offline(exc)
            return None
        except psycopg.Error as exc:
            raise JournalError(f"{self.name}: not a usable PostgreSQL URL ({self.message(exc)})") from None

    def adopt(self, conn: Any, listen: Any) -> None:
        """Use these connections from now on, listening on the review's channel."""
        from psycopg import sql

        self.conn, self.listen = conn, listen
        listen.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))
        self.offline = None

    def go_offline(self, exc: BaseException) -> None:
        """The server is away (`exc` says why): drop both connections, retry later."""
        self.offline = self.message(exc) or "connection lost"
        self._drop()
        self._next_attempt = time.monotonic() + RETRY_EVERY

    def drain(self) -> set[str]:
        """The payloads of the notifications waiting on the LISTEN connection, without blocking."""
        pgconn = self.listen.pgconn
        pgconn.consume_input()  # raises OperationalError when the server has gone
        payloads: set[str] = set()
        while (notify := pgconn.notifies()) is not None:
            payloads.add(notify.extra.decode("utf-8", "replace"))
        if pgconn.status != 0:  # CONNECTION_BAD
            import psycopg

            raise psycopg.OperationalError("the connection to the server was lost")
        return payloads

    def reconnected(self) -> tuple[Any, Any] | None:
        """New connections once the server is back, else None (it is tried in a thread,
        every few seconds, never blocking)."""
        if self._reconnected is not None:
            conns, self._reconnected = self._reconnected, None
            return conns
        if (
            self._reconnect is None or not self._reconnect.is_alive()
        ) and time.monotonic() >= self._next_attempt:
            self._next_attempt = time.monotonic() + RETRY_EVERY
            self._reconnect = threading.Thread(target=self._attempt, name="ragdiag-pg-reconnect", daemon=True)
            self._reconnect.start()
        return None

    def _attempt(self) -> None:
        try:
            self._reconnected = self.connect()
        except Exception as exc:  # still away: say why in the status
            self.offline = self.message(exc) or self.offline

    def close(self) -> None:
        """Close both connections, and forget any made by a reconnection meanwhile."""
        self._drop()
        self._reconnected = None

    def _drop(self) -> None:
        for conn in (self.conn, self.listen):
            if conn is not None:
                with contextlib.suppress(Exception):
                    conn.close()
        self.conn = self.listen = None
