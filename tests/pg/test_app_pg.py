"""Two apps on one PostgreSQL review: live labels, reservations, an outage mid-labelling; the CLI."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from textual.pilot import Pilot

from ragdiag_tui.cli import main
from ragdiag_tui.core.review.postgres.spool import spool_path
from ragdiag_tui.core.review.postgres.store import PgJournal, fingerprint
from ragdiag_tui.core.review.records import Entry, digest
from ragdiag_tui.core.review.reviewlog import JOURNAL_ENV
from ragdiag_tui.ui.app import RagdiagApp, create_app

from ..ui.helpers import (
    GEN,
    LUCKY,
    PASS,
    RETR,
    REVIEW_RUNS,
    SIZE,
    detail_text,
    loaded,
    table,
    table_lines,
    wait_until,
)
from .server import PASSWORD_ROLE, PgServer


def row_line(pilot: Pilot, row: int) -> str:
    return table_lines(pilot)[1 + table(pilot).rows.index(row)]


def summary_text(pilot: Pilot) -> str:
    return str(pilot.app.screen.query_one("#summary").visual)


@pytest.fixture
def runs_path(tmp_path: Path) -> Path:
    target = tmp_path / "runs.jsonl"
    shutil.copy(REVIEW_RUNS, target)
    return target


def stored(url: str, run_path: Path) -> list[tuple[str, str, bool | None]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT record FROM ragdiag.entries WHERE review = %s ORDER BY seq", [fingerprint(run_path)]
        ).fetchall()
    return [(json.loads(r)["run"], json.loads(r)["reviewer"], json.loads(r)["label"]) for (r,) in rows]


async def test_two_apps_on_one_database_see_each_others_work_live(pg_url: str, runs_path: Path) -> None:
    alice: RagdiagApp = create_app(runs_path, reviewer="alice", journal=pg_url)
    bob: RagdiagApp = create_app(runs_path, reviewer="bob", journal=pg_url)
    async with alice.run_test(size=SIZE) as a, bob.run_test(size=SIZE) as b:
        await loaded(a)
        await loaded(b)
        await a.press("down", "y", "c", *"seen it", "ctrl+s")
        await wait_until(b, lambda: row_line(b, GEN).startswith("✓"), "alice's mark in bob's table")
        await wait_until(b, lambda: "reviewed 1/" in summary_text(b), "bob's summary")
        await b.press("down")
        await wait_until(b, lambda: "seen it" in detail_text(b.app), "alice's note in bob's detail")
        await b.press("down", "n")
        await wait_until(a, lambda: row_line(a, LUCKY).startswith("✓"), "bob's mark in alice's table")
        assert alice.review_screen.review is not None
        assert alice.review_screen.review.reviewers(LUCKY)["bob"].label is False
    assert stored(pg_url, runs_path) == [
        ("gen-2", "alice", True),
        ("gen-2", "alice", True),
        ("lucky-3", "bob", False),
    ]


async def test_the_run_a_reviewer_is_on_is_shown_to_the_others(pg_url: str, runs_path: Path) -> None:
    alice: RagdiagApp = create_app(runs_path, reviewer="alice", journal=pg_url)
    bob: RagdiagApp = create_app(runs_path, reviewer="bob", journal=pg_url)
    async with alice.run_test(size=SIZE) as a, bob.run_test(size=SIZE) as b:
        await loaded(a)
        await loaded(b)
        await a.press("down", "down")  # alice is on lucky-3
        await wait_until(
            b, lambda: "◆ alice: " in row_line(b, LUCKY), "alice's reservation in bob's table", 30
        )
        assert "◆" not in row_line(b, PASS)
        assert not any("◆ alice" in line for line in table_lines(a))  # one's own is not shown
        await a.press("up")
        await wait_until(b, lambda: "◆ alice: " in row_line(b, GEN), "the reservation to follow alice")
        assert "◆" not in row_line(b, LUCKY)
        assert "◆ bob: " in row_line(a, PASS)


async def test_an_outage_while_labelling_is_shown_and_loses_nothing(
    own_server: PgServer, runs_path: Path
) -> None:
    url = own_server.new_database()
    app: RagdiagApp = create_app(runs_path, reviewer="alice", journal=url)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("y")
        # The app's thread sends the label a moment after the key: stopping the server before
        # then would leave three entries spooled, not two.
        await wait_until(pilot, lambda: len(stored(url, runs_path)) == 1, "the first label on the server")
        own_server.stop()
        await pilot.press("down", "n", "down", "y")
        await wait_until(
            pilot, lambda: "PostgreSQL offline: 2 entries spooled" in summary_text(pilot), "the status"
        )
        assert row_line(pilot, GEN).startswith("✓") and row_line(pilot, LUCKY).startswith("✓")
        assert app.review_screen.review is not None and not app.review_screen.review.unsaved
        own_server.start()
        await wait_until(
            pilot, lambda: "PostgreSQL" not in summary_text(pilot), "the status to clear once sent", 30
        )
        await pilot.press("down", "n")
    assert stored(url, runs_path) == [
        ("pass-1", "alice", True),
        ("gen-2", "alice", False),
        ("lucky-3", "alice", True),
        ("retr-4", "alice", False),
    ]


async def test_the_app_opens_offline_and_catches_up(own_server: PgServer, runs_path: Path) -> None:
    url = own_server.new_database()
    teammate = PgJournal(url, runs_path)
    teammate.append(Entry("pass-1", False, "from bob", "bob", "2026-11-30T15:00:00.000000Z", ""))
    own_server.stop()
    app: RagdiagApp = create_app(runs_path, reviewer="alice", journal=url)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        assert "PostgreSQL offline" in summary_text(pilot)
        await pilot.press("down", "y")
        own_server.start()
        await wait_until(
            pilot, lambda: row_line(pilot, PASS).startswith("✓"), "bob's label once the server is back"
        )
        await wait_until(pilot, lambda: "PostgreSQL" not in summary_text(pilot), "the status to clear")
    assert stored(url, runs_path) == [("pass-1", "bob", False), ("gen-2", "alice", True)]


def test_export_reads_the_review_from_the_database_by_flag_and_by_environment(
    pg_url: str, runs_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    PgJournal(pg_url, runs_path).append(Entry("gen-2", True, "ok", "bob", "2026-11-30T15:00:00.000000Z", ""))
    out = tmp_path / "out.jsonl"
    assert main(["export", str(runs_path), "-o", str(out), "--journal", pg_url, "--reviewed-only"]) in (0, 1)
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["gen-2"]
    monkeypatch.setenv(JOURNAL_ENV, pg_url)
    out.unlink()
    assert main(["export", str(runs_path), "-o", str(out), "--reviewed-only"]) in (0, 1)
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["gen-2"]


@pytest.mark.parametrize("command", ["review", "export", "serve"])
def test_a_wrong_password_or_a_bad_url_is_one_clear_message_and_exit_2(
    pg_server: PgServer,
    runs_path: Path,
    tmp_path: Path,
    command: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(RagdiagApp, "run", lambda self: pytest.fail("the app started"))
    monkeypatch.setattr("ragdiag_tui.serve.serve", lambda *a, **k: pytest.fail("the server started"))
    extra = ["-o", str(tmp_path / "out.jsonl")] if command == "export" else []
    wrong = pg_server.url("postgres", PASSWORD_ROLE, "hunter2-wrong")
    assert main([command, str(runs_path), "--journal", wrong, *extra]) == 2
    err = capsys.readouterr().err
    assert "password authentication failed" in err and "hunter2" not in err
    assert err.startswith(f"ragdiag-tui: postgresql://{PASSWORD_ROLE}@/postgres")
    assert len(err.strip().splitlines()) == 1
    for bad in ("postgresql://u:hunter2@/db?nosuchoption=1", "postgresql://u:hunter2@localhost:notaport/db"):
        assert main([command, str(runs_path), "--journal", bad, *extra]) == 2
        err = capsys.readouterr().err
        assert "hunter2" not in err and "not a usable PostgreSQL URL" in err


def test_headless_commands_refuse_a_review_they_cannot_reach(
    runs_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nowhere = f"postgresql://postgres@/db?host={tmp_path / 'no-server'}"
    assert main(["export", str(runs_path), "-o", str(tmp_path / "o.jsonl"), "--journal", nowhere]) == 2
    assert "the server cannot be reached" in capsys.readouterr().err
    assert not (tmp_path / "o.jsonl").exists()


def test_an_entry_written_by_the_app_is_the_journal_record(pg_url: str, runs_path: Path) -> None:
    record = Entry("gen-2", True, "n", "alice", "2026-11-30T15:00:00.000000Z", digest(b"x"), tags=("a",))
    PgJournal(pg_url, runs_path).append(record)
    with psycopg.connect(pg_url) as conn:
        (line,) = conn.execute("SELECT record FROM ragdiag.entries").fetchone()
    assert line.encode() + b"\n" == record.to_json()


async def test_next_unreviewed_skips_a_run_another_reviewer_is_on(pg_url: str, runs_path: Path) -> None:
    alice: RagdiagApp = create_app(runs_path, reviewer="alice", journal=pg_url)
    bob: RagdiagApp = create_app(runs_path, reviewer="bob", journal=pg_url)
    async with alice.run_test(size=SIZE) as a, bob.run_test(size=SIZE) as b:
        await loaded(a)
        await loaded(b)
        await a.press("down")  # alice is on gen-2, the next unreviewed run after pass-1
        await wait_until(b, lambda: "◆ alice: " in row_line(b, GEN), "alice's reservation in bob's table")
        await b.press("right_square_bracket")
        assert table(b).cursor_row == LUCKY  # gen-2 is skipped: alice has it
        await a.press("down", "down")  # alice moves on: gen-2 is free again
        await wait_until(b, lambda: "◆" not in row_line(b, GEN), "gen-2 to be free")
        await b.press("up", "up", "right_square_bracket")
        assert table(b).cursor_row == GEN


def test_compare_reads_both_files_reviews_from_one_database(
    pg_url: str, runs_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    after = tmp_path / "after.jsonl"
    after.write_text(runs_path.read_text().replace('"correct": false', '"correct": true', 1))
    PgJournal(pg_url, runs_path).append(Entry("gen-2", True, "", "bob", "2026-11-30T15:00:00.000000Z", ""))
    assert main(["compare", str(runs_path), str(after), "--json", "--journal", pg_url]) in (0, 1)
    with_review = json.loads(capsys.readouterr().out)
    assert main(["compare", str(runs_path), str(after), "--json"]) in (0, 1)
    without = json.loads(capsys.readouterr().out)
    assert with_review != without  # bob's label on the old file counts only through the database


def held_by(url: str, run_path: Path) -> list[tuple[str, str]]:
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            "SELECT reviewer, run FROM ragdiag.reservations WHERE review = %s AND until > now()",
            [fingerprint(run_path)],
        ).fetchall()
    return [tuple(row) for row in rows]


async def test_quitting_gives_the_reservation_back_at_once(pg_url: str, runs_path: Path) -> None:
    app: RagdiagApp = create_app(runs_path, reviewer="alice", journal=pg_url)
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("down")
        await wait_until(pilot, lambda: held_by(pg_url, runs_path) == [("alice", "gen-2")], "the reservation")
    assert held_by(pg_url, runs_path) == []  # not after 5 minutes: the others may take gen-2 now


def server_processes(server: PgServer) -> list[int]:
    """The postmaster and every process it started."""
    with open(os.path.join(server.data, "postmaster.pid")) as handle:
        postmaster = int(handle.readline())
    children = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[1]) == postmaster:
                children.append(int(entry))
    return [postmaster, *children]


@contextlib.contextmanager
def stalled(server: PgServer, give_up_after: float = 60.0) -> Iterator[threading.Event]:
    """The server frozen (SIGSTOP, as a hung network looks to a client) until the block ends.

    A watchdog resumes it after `give_up_after` seconds, so that an app that froze with it
    fails the test instead of hanging it; the event says it had to.
    """
    pids = server_processes(server)
    gave_up = threading.Event()

    def resume() -> None:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)

    def watchdog() -> None:
        gave_up.set()
        resume()

    timer = threading.Timer(give_up_after, watchdog)
    try:
        # The postmaster first, so that it forks no backend the list below would miss; a
        # backend that has ended since it was listed is simply gone.
        os.kill(pids[0], signal.SIGSTOP)
        pids = [pids[0], *server_processes(server)[1:]]
        for pid in pids[1:]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGSTOP)
        timer.start()
        yield gave_up
    finally:
        timer.cancel()
        resume()


async def test_a_hung_server_never_freezes_a_key_and_gets_the_labels_once_back(
    own_server: PgServer, runs_path: Path
) -> None:
    url = own_server.new_database()
    app: RagdiagApp = create_app(runs_path, reviewer="alice", journal=url)
    spool = Path(spool_path(runs_path))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("y")
        await wait_until(pilot, lambda: stored(url, runs_path) == [("pass-1", "alice", True)], "the first")
        with stalled(own_server) as gave_up:
            await pilot.press("down", "n", "down", "y")
            await wait_until(
                pilot,
                lambda: row_line(pilot, GEN).startswith("✓") and row_line(pilot, LUCKY).startswith("✓"),
                "the marks while the server hangs",
            )
            assert not gave_up.is_set(), "the app froze with the server"
            assert len(spool.read_text().splitlines()) == 2  # durable on this machine
            await wait_until(
                pilot,
                lambda: "PostgreSQL not answering: 2 entries spooled" in summary_text(pilot),
                "the status",
            )
            await pilot.press("down", "n")
            await wait_until(pilot, lambda: row_line(pilot, RETR).startswith("✓"), "a third mark")
            assert not gave_up.is_set(), "the app froze with the server"
        await wait_until(pilot, lambda: "PostgreSQL" not in summary_text(pilot), "the status to clear", 30)
        assert app.review_screen.review is not None and not app.review_screen.review.unsaved
    assert stored(url, runs_path) == [
        ("pass-1", "alice", True),
        ("gen-2", "alice", False),
        ("lucky-3", "alice", True),
        ("retr-4", "alice", False),
    ]
    assert not spool.exists()


async def test_quitting_while_the_server_hangs_gives_the_terminal_back_at_once_and_loses_nothing(
    own_server: PgServer, runs_path: Path
) -> None:
    """The issue's goal is a terminal back within a second: the exit waits half a second at most
    for the reservation to be given back (it lapses at its expiry otherwise); the label the app
    acknowledged while the server hung is in the spool, and on the server once it is back."""
    url = own_server.new_database()
    app: RagdiagApp = create_app(runs_path, reviewer="alice", journal=url)
    spool = Path(spool_path(runs_path))
    with contextlib.ExitStack() as frozen:
        async with app.run_test(size=SIZE) as pilot:
            await loaded(pilot)
            await wait_until(pilot, lambda: held_by(url, runs_path) == [("alice", "pass-1")], "the hold")
            gave_up = frozen.enter_context(stalled(own_server))
            await pilot.press("y")
            await wait_until(pilot, lambda: row_line(pilot, PASS).startswith("✓"), "the mark while it hangs")
            assert len(spool.read_text().splitlines()) == 1  # acknowledged: durable on this machine
            quitting = time.monotonic()
        took = time.monotonic() - quitting
        assert not gave_up.is_set(), "the exit waited for the server"
    assert took < 1.0, f"the exit took {took:.2f} s"
    PgJournal(url, runs_path).read()  # the next to open the file sends the spool
    assert stored(url, runs_path) == [("pass-1", "alice", True)]


def test_quitting_with_labels_only_in_the_spool_says_so_and_stats_too(
    own_server: PgServer,
    runs_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 39: labels made offline wait in this machine's spool; quitting (and `stats`) says how
    many and where, since teammates' figures lack them until the app sends them."""
    url = own_server.new_database()
    own_server.stop()

    def label_one_and_quit(app: RagdiagApp) -> None:
        async def session() -> None:
            async with app.run_test(size=SIZE) as pilot:
                await loaded(pilot)
                await pilot.press("y")
                await wait_until(pilot, lambda: os.path.exists(spool_path(runs_path)), "the label spooled")

        asyncio.run(session())

    monkeypatch.setattr(RagdiagApp, "run", label_one_and_quit)
    assert main(["review", str(runs_path), "--journal", url, "--reviewer", "alice"]) == 0
    said = capsys.readouterr().err
    assert f"1 review entry waits in the spool on this machine, {spool_path(runs_path)}" in said, said
    assert "teammates' stats and export lack them" in said
    main(["stats", str(runs_path), "--journal", url])
    assert "1 review entry waits in the spool on this machine" in capsys.readouterr().err
