"""Fixtures of the PostgreSQL tests: a real server per test session, a fresh database per test.

Only the tests in this folder start a server. When PostgreSQL is not installed at
all (no initdb anywhere; `.ci/run` installs it on Debian) they are skipped, saying why.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .server import PgServer, find_bin, start_server


def _server_or_skip() -> PgServer:
    if find_bin() is None:
        pytest.skip("PostgreSQL is not installed: no initdb on PATH or in /usr/lib/postgresql/*/bin")
    pytest.importorskip("psycopg")
    return start_server()


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """One server for the session (per xdist worker), stopped after."""
    server = _server_or_skip()
    yield server
    server.destroy()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """The URL of a fresh database on the session's server."""
    return pg_server.new_database()


@pytest.fixture
def own_server() -> Iterator[PgServer]:
    """A server of the test's own, for tests that stop and restart it (outages)."""
    server = _server_or_skip()
    yield server
    server.destroy()
