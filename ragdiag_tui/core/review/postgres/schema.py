"""The PostgreSQL review store's schema: the `ragdiag` schema, created on first use and
versioned (`ragdiag.schema_version`, `MIGRATIONS`), and each review's row in it.
"""

from __future__ import annotations

from typing import Any

from ..records import JournalError

SCHEMA_VERSION_TABLE = "ragdiag.schema_version"
LOCK_SPACE = 0x52414744  # "RAGD": the first key of this program's advisory locks

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


def schema_version(conn: Any) -> int:
    """The version of the schema in the database (0: none yet)."""
    exists = conn.execute("SELECT to_regclass(%s)", [SCHEMA_VERSION_TABLE]).fetchone()[0]
    if exists is None:
        return 0
    return conn.execute(f"SELECT coalesce(max(version), 0) FROM {SCHEMA_VERSION_TABLE}").fetchone()[0]


def prepare(conn: Any, name: str, review: str, file_name: str) -> None:
    """Create or upgrade the schema, and name the review in it.

    Under a lock, so two first users do not race. JournalError (naming `name`, the
    database) when the schema is newer than this program knows.
    """
    if schema_version(conn) != SCHEMA_VERSION:
        with conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", [LOCK_SPACE])
            conn.execute("CREATE SCHEMA IF NOT EXISTS ragdiag")
            conn.execute(f"CREATE TABLE IF NOT EXISTS {SCHEMA_VERSION_TABLE} (version integer NOT NULL)")
            version = schema_version(conn)
            if version > SCHEMA_VERSION:
                raise JournalError(
                    f"{name}: the database's review schema is version {version}, newer than this "
                    f"ragdiag-tui knows ({SCHEMA_VERSION}); upgrade ragdiag-tui"
                )
            for number, statements in MIGRATIONS:
                if number > version:
                    conn.execute(statements)
                    conn.execute(f"INSERT INTO {SCHEMA_VERSION_TABLE} VALUES (%s)", [number])
    conn.execute(
        "INSERT INTO ragdiag.reviews (review, file_name) VALUES (%s, %s) ON CONFLICT DO NOTHING",
        [review, file_name],
    )
