"""Time the review app headlessly (through `App.run_test`) at 10k, 100k and 1M runs.

    python benchmarks/bench_app.py [--sizes 10000 100000 1000000]

Each size runs in a fresh interpreter, on a file from make_runs.py (cached under
benchmarks/data/). Printed per size: time from creating the app to the moment the
table first draws a run (the first screenful), and to
fully loaded (diagnosed, journal replayed, filterable); a filter keystroke; a label
change (row, detail and summary redrawn); a cursor move at the top and at the last
row; resident memory (and per run); and the time to quit. Key timings are the
median of several presses, each measured until Textual has processed the key and
refreshed the screen, in CPU time. Beside them, as a baseline from the same run:
a key that does nothing, i.e. the cost of the harness and of one redraw. Sorting:
a key that sorts every run by a column (and redraws), and a label that then moves on
to the next unreviewed run (auto-advance, as in a spot-check).

Nothing is asserted: these are figures to read and compare.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_diagnose import run_file  # the same cached run files


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


async def timed_presses(pilot, keys: list[str]) -> float:
    """Median CPU milliseconds to handle one key press and redraw the screen.

    CPU time, not wall time: the harness waits for the app to go idle by sleeping
    in coarse steps, which would drown a few milliseconds of work.
    """
    times = []
    for key in keys:
        start = time.process_time()
        await pilot.press(key)
        await pilot.pause()  # and the screen redrawn
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000


async def measure(path: str) -> dict[str, float]:
    from ragdiag_tui.ui.app import create_app
    from ragdiag_tui.ui.widgets.table.run_table import RunTable

    figures: dict[str, float] = {}
    base_rss = rss_mb()
    painted: list[float] = []
    draw_line = RunTable.render_line

    def timed_render_line(table: RunTable, y: int):  # the moment a run's row is first drawn
        strip = draw_line(table, y)
        if not painted and y > 0 and table.cursor_row is not None:
            painted.append(time.perf_counter())
        return strip

    RunTable.render_line = timed_render_line  # type: ignore[method-assign]
    start = time.perf_counter()
    app = create_app(path, reviewer="bench")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        while not painted:
            await asyncio.sleep(0.002)
        figures["first screen s"] = painted[0] - start
        RunTable.render_line = draw_line  # type: ignore[method-assign]
        while screen.review is None:
            await asyncio.sleep(0.005)
        await pilot.pause()
        figures["fully loaded s"] = time.perf_counter() - start
        figures["RSS MB"] = rss_mb()
        runs = len(screen.store)
        figures["bytes/run"] = (figures["RSS MB"] - base_rss) * 2**20 / runs

        figures["no-op key ms"] = await timed_presses(pilot, ["f12"] * 9)
        figures["cursor @top ms"] = await timed_presses(pilot, ["down", "up"] * 5)
        await pilot.press("end")
        figures["cursor @last ms"] = await timed_presses(pilot, ["up", "down"] * 5)
        await pilot.press("home")
        figures["label ms"] = await timed_presses(pilot, ["y", "n", "space", "backspace"] * 3)
        # Auto-advance (always on in a spot-check): each label also moves to the next unreviewed run.
        await pilot.press("A")
        figures["label+move on ms"] = await timed_presses(pilot, ["y"] * 9)
        await pilot.press("A", "home")

        # Sorting the whole file: `o` sorts by id (ranked once per store), again descending,
        # again back to file order; `>` then sorts by the stage, by the label, by recall.
        figures["sort id (1st) ms"] = await timed_presses(pilot, ["o"])
        figures["sort id desc ms"] = await timed_presses(pilot, ["o"])
        figures["sort back to file ms"] = await timed_presses(pilot, ["o"])
        await pilot.press("greater_than_sign")
        figures["sort stage ms"] = await timed_presses(pilot, ["greater_than_sign"])
        figures["sort label ms"] = await timed_presses(pilot, ["greater_than_sign"])
        for _ in range(5):  # from label on: from, missing, required, supplied, tags; then recall
            await pilot.press("greater_than_sign")
        figures["sort recall ms"] = await timed_presses(pilot, ["greater_than_sign"])
        await pilot.press("o", "o")  # back to file order

        await pilot.press("slash")
        # Each keystroke narrows the previous result; the first one scans every run.
        figures["filter 1st key ms"] = await timed_presses(pilot, ["k"])
        figures["filter next key ms"] = await timed_presses(pilot, list("b-12"))
        await pilot.press("escape")
        figures["filter clear ms"] = await timed_presses(pilot, ["L"])  # the lucky-answers view
        quit_start = time.perf_counter()
        app.exit()
    figures["quit s"] = time.perf_counter() - quit_start
    return figures


def child(path: str) -> None:
    # The journal goes beside the run file: work on a copy so every size starts fresh.
    folder = tempfile.mkdtemp()
    try:
        copy = Path(folder) / Path(path).name
        os.link(path, copy) if os.stat(path).st_dev == os.stat(folder).st_dev else shutil.copy(path, copy)
        print(json.dumps(asyncio.run(measure(str(copy)))))
    finally:
        shutil.rmtree(folder)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    rows = {}
    for n in args.sizes:
        path = run_file(n)
        done = subprocess.run(
            [sys.executable, __file__, "--child", str(path)], capture_output=True, text=True, check=False
        )
        if done.returncode:
            raise SystemExit(done.stderr)
        rows[n] = json.loads(done.stdout.strip().splitlines()[-1])
    names = list(next(iter(rows.values())))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores; size 120x40, headless")
    print(f"{'':<20}" + "".join(f"{n:>12,}" for n in rows))
    for name in names:
        print(f"{name:<20}" + "".join(f"{rows[n][name]:>12.3g}" for n in rows))


if __name__ == "__main__":
    main()
