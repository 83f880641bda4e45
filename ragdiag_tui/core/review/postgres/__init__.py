"""The review in PostgreSQL, one store for a team (`--journal postgresql://...`): `PgJournal`
(store.py) composes the connections (link.py), the schema and its migrations (schema.py), the
entries on their way in (outbox.py) with the fsynced spool that keeps them through an outage
(spool.py), who is on which run (reservations.py), and the thread that does all of it off the
app's UI thread (background.py).
"""

from ...common.lazy import public_api

__getattr__, __all__ = public_api(
    __name__,
    {
        "store": ["PgJournal", "fingerprint"],
        "schema": ["SCHEMA_VERSION"],
        "spool": ["spool_notice", "spool_path"],
    },
)
