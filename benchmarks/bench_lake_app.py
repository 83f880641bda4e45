"""Time the review app over a lake of Parquet files, in a real (pseudo-)terminal.

    python benchmarks/bench_lake_app.py [--runs 10000000] [--files 10] [--size 140x40]

It builds (once, cached under benchmarks/data/lake-RUNS/) a lake of RUNS runs in FILES
Parquet files: make_runs.py's mix (several models, lucky answers, unresolved and
label-error runs), each file's ids prefixed with its number so every id is unique
(runs without an id are named file:row). Then, in the same run:

- the baseline: a plain DuckDB query of the stage counts over the same files (the
  rule as SQL, `engines.duckdb.sql.runs_sql`, grouped by stage), in a fresh interpreter,
  its imports included;
- the app, `python -m ragdiag_tui LAKE` in a pseudo-terminal read through pyte (as
  bench_terminal.py does), timed from the moment the command starts: the first
  screenful (the first run's id on screen); the stage counts on screen (the pass
  count the baseline found); `End` (the last run in the detail); a label (`y`:
  "reviewed 1/" in the summary); `L` (the lucky answers' count in the filter bar, found
  by DuckDB); a text filter over every run (the last run's id: "1 of N shown", found by
  DuckDB); moving by a line (`down`) and a page (`pagedown`) in the lucky view, each
  key to the detail's new line number; the app's peak resident memory;
- a second text filter (the first run's id), typed once the app has been idle half a
  second: the runs' document IDs, found in the background after the counts, then tell
  that no document holds the text, and the filter reads the ids and questions alone;
- the label in the journal (LAKE.review.jsonl) under the last run's dataset id, and
  `stats LAKE --json` counting it (`reviewed: 1`).

Each figure is printed beside its ratio to the baseline. Nothing is asserted: the
machine may be shared, so read the ratios more than the seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import select
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_diagnose import DATA, measure  # noqa: E402
from make_runs import write_runs  # noqa: E402

TIMEOUT = 600.0  # seconds before the app is given up
ROW_GROUP = 65_536
BASELINE = """
from pathlib import Path
from ragdiag_tui.engines.dataset import open_dataset
from ragdiag_tui.engines.duckdb.connect import connect
from ragdiag_tui.engines.duckdb.schema import plan
from ragdiag_tui.engines.duckdb.sql import grouped_files, runs_sql
ds = open_dataset([{lake!r}])
runs = runs_sql(ds, grouped_files(ds.files, plan(ds.files, None, ())), 0)
with connect() as con:
    counts = con.execute(f"SELECT stage, count(*) FROM ({{runs}}) GROUP BY stage").fetchall()
Path({out!r}).write_text(repr(dict(counts)))  # writes-ok: the benchmark's own scratch file
"""


def build_lake(runs: int, files: int) -> Path:
    """The lake of `runs` runs in `files` Parquet files (cached)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.json as pj
    import pyarrow.parquet as pq

    lake = DATA / f"lake-{runs}"
    done = lake / "_complete"
    if done.exists():
        return lake
    lake.mkdir(parents=True, exist_ok=True)
    for part in range(files):
        count = runs // files + (part < runs % files)
        with tempfile.TemporaryDirectory() as scratch:
            text = Path(scratch) / "part.jsonl"
            write_runs(count, str(text), part)
            table = pj.read_json(text)
        ids = table.column("id")
        unique = pc.binary_join_element_wise(pa.scalar(f"p{part:03d}-"), ids, "")
        table = table.set_column(table.schema.get_field_index("id"), "id", unique)
        pq.write_table(table, lake / f"part-{part:03d}.parquet", row_group_size=ROW_GROUP)
        print(f"  built part {part + 1}/{files}: {count:,} runs", file=sys.stderr)
    done.touch()  # writes-ok: the benchmark's cache marker, in its own data folder
    return lake


def first_and_last_ids(lake: Path) -> tuple[str, str, int]:
    """The first and last runs' ids in the dataset (named file:row without one), and the last file's rows."""
    import pyarrow.parquet as pq

    parts = sorted(lake.glob("*.parquet"))
    first = pq.read_table(parts[0], columns=["id"]).column("id")[0].as_py()
    last_ids = pq.read_table(parts[-1], columns=["id"]).column("id")
    last = last_ids[len(last_ids) - 1].as_py()
    return first or f"{parts[0].name}:1", last or f"{parts[-1].name}:{len(last_ids)}", len(last_ids)


class Terminal:
    """The app in a pseudo-terminal, its screen read through pyte."""

    def __init__(self, argv: list[str], columns: int, lines: int) -> None:
        import fcntl
        import pty
        import termios

        import pyte

        self.screen = pyte.Screen(columns, lines)
        self.stream = pyte.ByteStream(self.screen)
        self.started = time.perf_counter()
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                os.environ["TERM"] = "xterm-256color"
                os.execv(sys.executable, [sys.executable, *argv])
            finally:
                os._exit(127)
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(
        self, seen: re.Pattern[str] | str, since: float | None = None, timeout: float = TIMEOUT
    ) -> float:
        """Seconds from `since` (default: the start) until the screen shows `seen`."""
        since = self.started if since is None else since
        pattern = re.compile(re.escape(seen)) if isinstance(seen, str) else seen
        deadline = time.perf_counter() + timeout
        while True:
            if pattern.search(self.text()):
                return time.perf_counter() - since
            if time.perf_counter() > deadline:
                raise SystemExit(f"never shown: {pattern.pattern}\n" + self.text())
            if select.select([self.fd], [], [], 0.02)[0]:
                self.stream.feed(os.read(self.fd, 1 << 20))

    def key(self, data: bytes, seen: re.Pattern[str] | str) -> float:
        """Seconds from sending `data` until the screen shows `seen`."""
        sent = time.perf_counter()
        os.write(self.fd, data)
        return self.wait_for(seen, sent)

    def move(self, data: bytes) -> float:
        """Seconds from a moving key to the detail's heading (the run's id and line) changing."""
        before = self.screen.display[2]
        sent = time.perf_counter()
        os.write(self.fd, data)
        while self.screen.display[2] == before:
            if time.perf_counter() - sent > TIMEOUT:
                raise SystemExit("the detail never moved:\n" + self.text())
            if select.select([self.fd], [], [], 0.005)[0]:
                self.stream.feed(os.read(self.fd, 1 << 20))
        return time.perf_counter() - sent

    def idle(self, quiet: float = 0.5) -> None:
        """Wait until the app has used no processor time for `quiet` seconds (its background
        work done), reading its screen meanwhile."""

        def used() -> int:
            with open(f"/proc/{self.pid}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)

        deadline = time.perf_counter() + TIMEOUT
        before, since = used(), time.perf_counter()
        while time.perf_counter() - since < quiet:
            if time.perf_counter() > deadline:
                raise SystemExit("the app never went idle")
            if select.select([self.fd], [], [], 0.05)[0]:
                self.stream.feed(os.read(self.fd, 1 << 20))
            now = used()
            if now - before > 1:  # more than a tick or two: still working
                before, since = now, time.perf_counter()

    def quit(self) -> float:
        """Quit; the app's peak resident memory in MB (NaN if it would not exit)."""
        os.write(self.fd, b"q")
        end = time.perf_counter() + 30
        while time.perf_counter() < end:
            if select.select([self.fd], [], [], 0.05)[0]:
                with contextlib.suppress(OSError):
                    os.read(self.fd, 1 << 20)
            done, _, usage = os.wait4(self.pid, os.WNOHANG)
            if done:
                self.pid = 0
                os.close(self.fd)
                return usage.ru_maxrss / 1024
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        return float("nan")


def compact(value: int) -> str:
    """A count as the summary's narrow form writes it (12k, 1.2M)."""
    if value < 10_000:
        return str(value)
    return f"{value // 1000}k" if value < 1_000_000 else f"{value / 1_000_000:.1f}M"


def drive(lake: Path, runs: int, expected_pass: int, columns: int, lines: int) -> dict[str, float]:
    first, last, _rows = first_and_last_ids(lake)
    term = Terminal(["-m", "ragdiag_tui", "review", str(lake), "--reviewer", "bench"], columns, lines)
    figures = {"first screenful": term.wait_for(first)}
    figures["stage counts"] = term.wait_for(
        re.compile(rf"pass ({expected_pass:,}|{compact(expected_pass)})\b")
    )
    figures["End"] = term.key(b"\x1b[F", last)  # in full: in the detail (the table cuts long ids)
    figures["a label"] = term.key(b"y", "reviewed 1/")
    figures["L lucky view"] = term.key(b"L", re.compile(rf"Lucky answers.* of {runs:,} shown"))
    # A text filter over every run: the last run's id, found by DuckDB (its count on screen).
    figures["/ text filter"] = term.key(
        b"a/" + last.encode() + b"\r", re.compile(rf"(?<![\d,])1 of {runs:,} shown")
    )
    term.key(b"\x1b", "to filter")
    term.key(b"L", re.compile(rf"Lucky answers.* of {runs:,} shown"))
    term.move(b"\x1b[H")  # home: the view keeps the cursor beside its run, the last one
    figures["moves by a line"] = statistics.median(term.move(key) for key in [b"\x1b[B"] * 6)
    figures["moves by a page"] = statistics.median(term.move(key) for key in [b"\x1b[6~"] * 4)
    # A text filter typed once the app has been idle a moment (the runs' document IDs found
    # after the counts, review_ids.py): the first run's id.
    term.key(b"\x1b", "to filter")
    term.idle()
    figures["/ filter, idle"] = term.key(
        b"a/" + first.encode() + b"\r", re.compile(rf"(?<![\d,])1 of {runs:,} shown")
    )
    figures["peak RSS MB"] = term.quit()
    figures["last id"] = last  # type: ignore[assignment]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=10_000_000)
    parser.add_argument("--files", type=int, default=10)
    parser.add_argument("--size", default="140x40", help="terminal COLUMNSxLINES")
    args = parser.parse_args()
    columns, lines = map(int, args.size.split("x"))
    lake = build_lake(args.runs, args.files)
    journal = Path(f"{lake}.review.jsonl")
    journal.unlink(missing_ok=True)  # writes-ok: each run starts without a review
    where = f"{args.runs:,} runs in {args.files} Parquet files"
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; {where}")
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "counts.txt"
        baseline, _ = measure(BASELINE.format(lake=str(lake), out=str(out)))
        counts = eval(out.read_text())
    print(f"baseline: DuckDB's stage counts over the files, {baseline:.2f} s: {counts}")
    figures = drive(lake, args.runs, counts.get("pass", 0), columns, lines)
    last = figures.pop("last id")
    goals = {"first screenful": 1.0, "stage counts": 1.5, "End": 0.25, "a label": 0.25}
    goals.update({"L lucky view": 0.5, "/ text filter": 0.5, "/ filter, idle": 0.5})
    print(f"{'figure':<18}{'seconds':>9}{'x baseline':>12}{'goal':>8}")
    for name, value in figures.items():
        if name == "peak RSS MB":
            print(f"{name:<18}{value:>9.0f}{'':>12}{'600':>8}")
        elif name.startswith("moves"):
            print(f"{name:<18}{value * 1000:>8.0f}ms{'':>12}{'100ms':>8}")
        else:
            print(f"{name:<18}{value:>9.2f}{value / baseline:>11.2f}x{goals[name]:>7.2f}x")
    entries = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    print(f"journal: {[(entry['run'], entry['label']) for entry in entries]} (last run: {last})")
    started = time.perf_counter()
    stats = subprocess.run(
        [sys.executable, "-m", "ragdiag_tui", "stats", str(lake), "--json"], capture_output=True, text=True
    )
    counted = json.loads(stats.stdout)
    print(f"stats LAKE: reviewed {counted.get('reviewed')}, still lucky {counted['still_lucky']:,} "
          f"({time.perf_counter() - started:.2f} s)")  # fmt: skip


if __name__ == "__main__":
    main()
