"""The PostgreSQL review store against a real server: order, sharing, live polls, outages, reservations."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import psycopg
import pytest

from ragdiag_tui.core.review.postgres.schema import SCHEMA_VERSION
from ragdiag_tui.core.review.postgres.spool import Spool, Spooled, spool_path
from ragdiag_tui.core.review.postgres.store import PgJournal, fingerprint
from ragdiag_tui.core.review.records import Entry, JournalError, Record

from .server import PASSWORD, PASSWORD_ROLE, PgServer

REPO = Path(__file__).resolve().parents[2]


def entry(run: str, label: bool | None, reviewer: str = "alice", note: str = "", n: int = 0) -> Entry:
    return Entry(run, label, note, reviewer, f"2026-11-30T15:00:{n:02d}.000000Z", "d" * 16, tags=("t",))


def wait_for(condition: Callable[[], object], what: str, timeout: float = 10.0) -> object:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)  # wait-ok: polling until a deadline
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def run_file(tmp_path: Path) -> Path:
    path = tmp_path / "runs.jsonl"
    path.write_text(
        "".join(json.dumps({"id": f"r{i}", "required": ["D"], "context": ["D"]}) + "\n" for i in range(5))
    )
    return path


def stored(url: str, run_path: Path) -> list[tuple[str, str]]:
    """(run, reviewer+label) of every stored entry of the run file's review, in order."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT record FROM ragdiag.entries WHERE review = %s ORDER BY seq", [fingerprint(run_path)]
        ).fetchall()
    return [(json.loads(r)["run"], json.loads(r)["note"]) for (r,) in rows]


def key(records: list[Record]) -> list[tuple[str, str]]:
    return [(r.run, r.note) for r in records if isinstance(r, Entry)]


def test_entries_come_back_in_order_with_every_field(pg_url: str, run_file: Path) -> None:
    log = PgJournal(pg_url, run_file)
    log.open()
    written = [
        entry("r1", True, note="first", n=1),
        entry("r2", False, "bob", "sé [/] \u2028", 2),
        entry("r1", None, n=3),
    ]
    for record in written:
        log.append(record)
    log.close()
    again = PgJournal(pg_url, run_file)
    records, warnings = again.read()
    assert warnings == []
    assert [r.key() for r in records] == [r.key() for r in written]
    assert again.status() is None


def test_schema_is_versioned_and_entries_append_only(pg_url: str, run_file: Path) -> None:
    PgJournal(pg_url, run_file).open()
    PgJournal(pg_url, run_file).open()  # a second first use changes nothing
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT version FROM ragdiag.schema_version").fetchall() == [(SCHEMA_VERSION,)]
        log = PgJournal(pg_url, run_file)
        log.append(entry("r1", True))
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            conn.execute("UPDATE ragdiag.entries SET reviewer = 'x'")
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            conn.execute("DELETE FROM ragdiag.entries")
        conn.execute("INSERT INTO ragdiag.schema_version VALUES (99)")
    with pytest.raises(JournalError, match="version 99, newer"):
        PgJournal(pg_url, run_file).open()


def test_two_run_files_in_one_database_and_copies_share_one_review(
    pg_url: str, run_file: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other.jsonl"
    other.write_text(run_file.read_text() + '{"id": "extra", "required": []}\n')
    copy = tmp_path / "elsewhere" / "runs.jsonl"
    copy.parent.mkdir()
    shutil.copy(run_file, copy)
    PgJournal(pg_url, run_file).append(entry("r1", True, note="on runs"))
    PgJournal(pg_url, other).append(entry("r1", False, note="on other"))
    assert key(PgJournal(pg_url, run_file).read()[0]) == [("r1", "on runs")]
    assert key(PgJournal(pg_url, other).read()[0]) == [("r1", "on other")]
    assert key(PgJournal(pg_url, copy).read()[0]) == [("r1", "on runs")]


def test_poll_returns_what_others_wrote_and_never_ones_own(pg_url: str, run_file: Path) -> None:
    alice, bob = PgJournal(pg_url, run_file), PgJournal(pg_url, run_file)
    alice.read()
    bob.read()
    assert alice.poll() == [] and bob.poll() == []
    alice.append(entry("r1", True, note="a1"))
    alice.append(entry("r2", False, note="a2"))
    got: list[Record] = []
    wait_for(lambda: got.extend(bob.poll()) or len(got) >= 2, "bob to see alice's entries")
    assert key(got) == [("r1", "a1"), ("r2", "a2")]
    assert alice.poll() == []
    bob.append(entry("r3", True, "bob", "b1"))
    got = []
    wait_for(lambda: got.extend(alice.poll()) or got, "alice to see bob's entry")
    assert key(got) == [("r3", "b1")]
    assert bob.poll() == []


def test_reservations_are_shown_to_others_and_given_back(pg_url: str, run_file: Path) -> None:
    alice, bob = PgJournal(pg_url, run_file), PgJournal(pg_url, run_file)
    alice.read()
    bob.read()
    bob.reserve("r4", "bob")
    alice.reserve("r1", "alice")
    wait_for(
        lambda: bob.poll() == [] and bob.reservations() == {"r1": "alice"}, "bob to see alice's reservation"
    )
    wait_for(lambda: alice.poll() == [] and alice.reservations() == {"r4": "bob"}, "alice to see bob's")
    alice.reserve("r2", "alice")  # the cursor moved: written now or by a poll soon after
    wait_for(
        lambda: alice.poll() == [] and bob.poll() == [] and bob.reservations() == {"r2": "alice"}, "the move"
    )
    alice.close()
    wait_for(lambda: bob.poll() == [] and bob.reservations() == {}, "alice's reservation to be given back")


def test_an_outage_in_the_middle_loses_nothing_and_sends_once_in_order(
    own_server: PgServer, run_file: Path
) -> None:
    url = own_server.new_database()
    log = PgJournal(url, run_file, offline_ok=True)
    log.read()
    log.append(entry("r1", True, note="1"))
    own_server.stop()
    log.append(entry("r2", True, note="2"))  # the server is gone: spooled
    log.append(entry("r3", False, note="3"))
    assert log.poll() == []
    assert log.status() == "PostgreSQL offline: 2 entries spooled"
    assert len(Path(spool_path(run_file)).read_text().splitlines()) == 2
    own_server.start()
    wait_for(lambda: log.poll() == [] and log.status() is None, "the spool to be sent", timeout=20)
    log.append(entry("r4", True, note="4"))
    assert stored(url, run_file) == [("r1", "1"), ("r2", "2"), ("r3", "3"), ("r4", "4")]
    assert not os.path.exists(spool_path(run_file))


def test_unreachable_at_start_the_app_carries_on_and_the_headless_commands_refuse(
    own_server: PgServer, run_file: Path
) -> None:
    url = own_server.new_database()
    PgJournal(url, run_file).append(entry("r1", True, "bob", "before"))
    own_server.stop()
    with pytest.raises(JournalError, match="cannot be reached"):
        PgJournal(url, run_file).read()
    log = PgJournal(url, run_file, offline_ok=True)
    records, warnings = log.read()
    assert records == [] and "cannot be reached" in warnings[-1]
    log.append(entry("r2", False, note="offline"))
    assert log.status() == "PostgreSQL offline: 1 entry spooled"
    own_server.start()
    got: list[Record] = []
    wait_for(lambda: got.extend(log.poll()) or got, "the review once the server is back", timeout=20)
    assert key(got) == [("r1", "before"), ("r2", "offline")]  # the whole review, in order
    assert log.status() is None
    assert stored(url, run_file) == [("r1", "before"), ("r2", "offline")]


def test_a_spool_sent_twice_is_stored_once(pg_url: str, run_file: Path, tmp_path: Path) -> None:
    offline = PgJournal(
        "postgresql://nobody@/none?host=" + str(tmp_path / "nowhere"), run_file, offline_ok=True
    )
    offline.read()
    offline.append(entry("r1", True, note="x"))
    saved = Path(spool_path(run_file)).read_bytes()
    assert PgJournal(pg_url, run_file).read()[0][0].note == "x"
    Path(spool_path(run_file)).write_bytes(saved)  # as if killed between sending and removing
    assert key(PgJournal(pg_url, run_file).read()[0]) == [("r1", "x")]


KILLED_APP = """
import sys, time
from ragdiag_tui.core.review.records import Entry
from ragdiag_tui.core.review.postgres.store import PgJournal
log = PgJournal(sys.argv[1], sys.argv[2], offline_ok=True)
log.read()
for i in range(5):
    log.append(Entry(f"r{i}", True, f"n{i}", "alice", f"2026-11-30T15:00:0{i}.000000Z", "d"))
print(log.status(), flush=True)
time.sleep(600)  # wait-ok: a child process waiting to be SIGKILLed
"""


def test_a_killed_app_loses_nothing_the_next_start_sends_the_spool(
    own_server: PgServer, run_file: Path
) -> None:
    url = own_server.new_database()
    PgJournal(url, run_file).open()
    own_server.stop()
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_APP, url, str(run_file)], stdout=subprocess.PIPE, text=True, cwd=REPO
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "PostgreSQL offline: 5 entries spooled"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    own_server.start()
    records, warnings = PgJournal(url, run_file).read()
    assert warnings == []
    assert key(records) == [(f"r{i}", f"n{i}") for i in range(5)]
    assert stored(url, run_file) == [(f"r{i}", f"n{i}") for i in range(5)]


def test_wrong_password_and_bad_urls_are_clear_and_never_echo_the_password(
    pg_server: PgServer, run_file: Path
) -> None:
    wrong = pg_server.url("postgres", PASSWORD_ROLE, "hunter2-wrong")
    with pytest.raises(JournalError) as failed:
        PgJournal(wrong, run_file).open()
    assert "password authentication failed" in str(failed.value)
    assert "hunter2" not in str(failed.value)
    assert str(failed.value).startswith(f"postgresql://{PASSWORD_ROLE}@/postgres")
    right = pg_server.new_database(PASSWORD_ROLE, PASSWORD)
    PgJournal(right, run_file).append(entry("r1", True))  # alice may, with her password
    for bad in ("postgresql://u:hunter2@/db?host=/tmp&bogus=1", "postgresql://u:hunter2@host:notaport/db"):
        with pytest.raises(JournalError) as failed:
            PgJournal(bad, run_file).open()
        assert "hunter2" not in str(failed.value)
        assert str(failed.value).startswith("postgresql://u@")


def test_an_edited_file_is_a_new_review_and_says_so(pg_url: str, run_file: Path) -> None:
    PgJournal(pg_url, run_file).append(entry("r1", True))
    run_file.write_text(run_file.read_text() + '{"id": "r9", "required": []}\n')
    records, warnings = PgJournal(pg_url, run_file).read()
    assert records == []
    assert "no review of this runs.jsonl yet" in warnings[0] and "another version" in warnings[0]


def test_an_append_never_waits_for_a_spool_being_sent(tmp_path: Path) -> None:
    spool = Spool(str(tmp_path / "runs.jsonl.review-spool.jsonl"))
    spool.append("1", "rev", b'{"run": "r1"}\n')
    appended = threading.Event()

    def deliver(waiting: list[Spooled]) -> None:  # the server hangs while these travel
        writer = threading.Thread(target=lambda: (spool.append("2", "rev", b'{"run": "r2"}'), appended.set()))
        writer.start()
        assert appended.wait(10), "an append waited for the spool being sent"
        writer.join()

    assert spool.send(deliver) == 1
    assert [item.id for item in spool.waiting()[0]] == ["2"]  # what came meanwhile stays, to send next


def test_an_entry_keeps_its_writers_session_whoever_sends_it(pg_url: str, run_file: Path) -> None:
    alice = PgJournal(pg_url, run_file, offline_ok=True)
    alice.read()
    alice.outbox.keep(uuid.uuid4(), entry("r1", True).to_json())  # as if the server had been away
    PgJournal(pg_url, run_file).read()  # another process on this machine sends the spool
    with psycopg.connect(pg_url) as conn:
        sessions = [row[0] for row in conn.execute("SELECT session FROM ragdiag.entries").fetchall()]
    assert sessions == [alice.session]  # so alice's polls skip it, and everyone else's show it


def test_every_statement_has_a_timeout(pg_url: str, run_file: Path) -> None:
    log = PgJournal(pg_url, run_file)
    log.open()
    for conn in (log.link.conn, log.link.listen):
        assert conn.execute("SHOW statement_timeout").fetchone()[0] == "10s"
        assert conn.execute("SHOW lock_timeout").fetchone()[0] == "10s"
    log.close()


def test_the_latest_record_by_time_is_in_force_in_the_store_whatever_its_order(
    pg_url: str, run_file: Path
) -> None:
    """Last writer by time (issue 22): a record stored later but made earlier (a merged older
    journal, a spool sent late) does not put an older verdict back in force, read or polled."""
    from ragdiag_tui.core.review.state import open_review

    log = PgJournal(pg_url, run_file)
    log.open()
    log.append(Entry("r1", True, "newer", "root", "2026-11-30T15:00:00Z", ""))
    log.append(Entry("r1", False, "older", "root", "2026-11-30T14:00:00Z", ""))
    log.close()
    review = open_review(run_file, journal_spec=pg_url, reviewer="bob")
    assert review.reviewers(1)["root"].note == "newer" and review.label(1) is True
    other = PgJournal(pg_url, run_file)
    other.open()
    other.append(Entry("r1", False, "older still", "root", "2026-11-30T13:00:00Z", ""))
    other.close()
    wait_for(lambda: review.poll() is not None and len(stored(pg_url, run_file)) == 3, "the third entry")
    review.poll()
    assert review.reviewers(1)["root"].note == "newer"
    review.journal.close()  # type: ignore[union-attr]
