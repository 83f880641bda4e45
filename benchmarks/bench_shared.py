"""Time the shared review stores: replay on open, appends, and live updates between apps.

    python benchmarks/bench_shared.py [--entries 100000] [--live 20]

Starts a real PostgreSQL server in a temporary folder (as the tests do; fsync on,
as a real server runs), then on a run file of as many runs as entries:

- replay on open: reading N label entries (one per run) from the journal file and
  from PostgreSQL, and opening the whole review (`open_review`: load the runs,
  replay the log) with each store;
- one append, committed or fsynced: the journal file, PostgreSQL through psycopg,
  and PostgreSQL through a `psql` process per entry (what psycopg saves);
- live: from a label appended by a teammate to its mark drawn in another app's
  table (headless), through the journal file and through PostgreSQL.

Nothing is asserted: these are figures to read and compare.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ragdiag_tui.core.review.journal import Journal, journal_path
from ragdiag_tui.core.review.postgres.store import PgJournal
from ragdiag_tui.core.review.records import Entry, digest
from ragdiag_tui.core.review.state import open_review
from ragdiag_tui.core.runs.store import RunStore

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench_diagnose import run_file  # the same cached run files

from tests.pg.server import start_server  # the tests' server in a temporary folder


def entries_for(store: RunStore, n: int) -> list[Entry]:
    at = "2026-11-30T15:00:00.000000Z"
    return [
        Entry(store.ids[row], row % 3 == 0, "", f"reviewer{row % 5}", at, digest(store.raw_text(row)))
        for row in range(min(n, len(store)))
    ]


def timed(action) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def bulk_fill(log: PgJournal, records: list[Entry]) -> None:
    """Many entries at once (COPY), as a long review would have written them one by one."""
    import uuid

    import psycopg

    log.open()  # the schema
    with (
        psycopg.connect(log.url) as conn,
        conn.cursor() as cursor,
        cursor.copy(
            "COPY ragdiag.entries (id, review, run, digest, kind, reviewer, at, record, session) FROM STDIN"
        ) as copy,
    ):
        for record in records:
            line = record.to_json().decode().rstrip("\n")
            copy.write_row(
                (
                    uuid.uuid4(),
                    log.review,
                    record.run,
                    record.digest,
                    "label",
                    record.reviewer,
                    record.at,
                    line,
                    log.session,
                )
            )


def replay(path: Path, url: str, n: int) -> None:
    store = open_review(path, use_journal=False).store
    records = entries_for(store, n)
    with open(journal_path(path), "wb") as handle:
        handle.write(b"".join(record.to_json() for record in records))
    bulk_fill(PgJournal(url, path), records)
    file_read = timed(lambda: Journal(journal_path(path)).read())
    pg_read = timed(lambda: PgJournal(url, path).read())
    open_file = timed(lambda: open_review(path, None, None, "me", writable=False))
    open_pg = timed(lambda: open_review(path, None, url, "me", writable=False))
    open_none = timed(lambda: open_review(path, None, None, "me", use_journal=False))
    print(f"replay of {len(records):,} entries, {len(store):,} runs")
    print(f"  read the journal file        {file_read:7.3f} s")
    print(f"  read from PostgreSQL         {pg_read:7.3f} s   ({pg_read / file_read:.1f}x the file)")
    print(f"  open the review, no log      {open_none:7.3f} s   (load and diagnose the runs)")
    print(f"  open the review, file        {open_file:7.3f} s   (+{open_file - open_none:.3f} s)")
    print(f"  open the review, PostgreSQL  {open_pg:7.3f} s   (+{open_pg - open_none:.3f} s)")


def appends(path: Path, url: str, server_dir: str, bin_dir: str) -> None:
    record = Entry("run-1", True, "", "me", "2026-11-30T15:00:00.000000Z", "d")
    journal = Journal(str(path) + ".bench-journal.jsonl")
    pg = PgJournal(url, path)
    pg.open()
    file_times = [timed(lambda: journal.append(record)) for _ in range(200)]
    pg_times = [timed(lambda: pg.append(record)) for _ in range(200)]
    database = url.split("@/", 1)[1].split("?", 1)[0]
    sql = (
        "INSERT INTO ragdiag.entries (id, review, run, digest, kind, reviewer, at, record, session) VALUES "
        f"(gen_random_uuid(), '{pg.review}', 'run-1', 'd', 'label', 'me', 'x', '{{}}', gen_random_uuid())"
    )
    psql = [os.path.join(bin_dir, "psql"), "-h", server_dir, "-U", "postgres", "-d", database, "-qc", sql]
    psql_times = [timed(lambda: subprocess.run(psql, check=True)) for _ in range(20)]
    print("one append, durable (median)")
    print(f"  journal file (fsync)         {statistics.median(file_times) * 1000:7.2f} ms")
    print(f"  PostgreSQL, psycopg          {statistics.median(pg_times) * 1000:7.2f} ms")
    print(f"  PostgreSQL, a psql process   {statistics.median(psql_times) * 1000:7.2f} ms")


async def live(path: Path, spec: str, teammate, rounds: int) -> list[float]:  # type: ignore[no-untyped-def]
    """Seconds from a teammate's append to the ✓ drawn in this app's table, per round."""
    from ragdiag_tui.ui.app import create_app
    from ragdiag_tui.ui.widgets.table.run_table import RunTable

    app = create_app(path, reviewer="me", journal=spec)
    times: list[float] = []
    async with app.run_test(size=(140, 40)) as pilot:
        while app.review_screen.review is None:
            await pilot.pause(0.01)
        table = app.screen.query_one(RunTable)
        store = app.review_screen.store
        for row in range(rounds):
            table.cursor = row
            await pilot.pause()
            record = Entry(
                store.ids[row],
                True,
                "",
                "teammate",
                "2026-11-30T15:00:00.000000Z",
                digest(store.raw_text(row)),
            )
            started = time.perf_counter()
            teammate.append(record)
            while not table.render_line(table.cursor - table.scroll_offset.y + 1).text.startswith("✓"):
                await pilot.pause(0.005)
            times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--live", type=int, default=20, help="rounds of the live measure")
    args = parser.parse_args()
    server = start_server(fsync=True)
    try:
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "runs.jsonl"
            path.write_bytes(run_file(args.entries).read_bytes())
            replay(path, server.new_database(), args.entries)
            small = Path(folder) / "small.jsonl"
            small.write_bytes(run_file(10_000).read_bytes())
            appends(small, server.new_database(), server.dir, server.bin)
            for name, spec in (("journal file", None), ("PostgreSQL", server.new_database())):
                target = Path(folder) / f"live-{name[:4]}.jsonl"
                target.write_bytes(small.read_bytes())
                teammate = Journal(journal_path(target)) if spec is None else PgJournal(spec, target)
                times = asyncio.run(live(target, spec, teammate, args.live))
                print(
                    f"live, {name:<12}: label to mark in another app: median "
                    f"{statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms "
                    f"({len(times)} labels)"
                )
    finally:
        server.destroy()


if __name__ == "__main__":
    main()
