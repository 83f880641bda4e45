"""Processes for the fault tests to kill: a review session, an export, a journal writer.

Run as `python drivers.py COMMAND ARGS...`. Each prints one JSON object per line to
stdout (flushed) when something is durable, so the test knows when to strike.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time


def say(**message: object) -> None:
    print(json.dumps(message), flush=True)


def review(path: str) -> None:
    """Label runs one after another in the headless app, announcing each saved label."""
    from ragdiag_tui.ui.app import create_app

    async def session() -> None:
        app = create_app(path, reviewer="driver")
        async with app.run_test(size=(100, 30)) as pilot:
            while app.review_screen.review is None:
                await pilot.pause(0.01)
            screen = app.review_screen
            review, store = screen.review, screen.store
            for index, row in enumerate(screen.rows):
                if not store.is_valid(row):
                    continue
                screen.table.cursor = index
                await pilot.pause(0)
                label = row % 2 == 0
                await pilot.press("y" if label else "n")
                # The app shows a label as saved only once the journal is fsynced.
                assert review.reviewer_label(row) is label
                assert row not in review.unsaved
                say(saved=store.ids[row], label=label)
            say(idle=True)
            await asyncio.sleep(3600)  # wait-ok: waits to be killed

    asyncio.run(session())


def export(path: str, out: str, fmt: str) -> None:
    """Export, and stop dead halfway through writing (to be killed there)."""
    from ragdiag_tui.core.output.export import export_runs
    from ragdiag_tui.core.review.state import Review
    from ragdiag_tui.core.runs.store import RunStore

    store = RunStore.load(path)

    def progress(done: int, total: int) -> None:
        if 2 * done >= total:
            say(halfway=done, of=total)
            time.sleep(3600)  # wait-ok: stops dead here until killed

    export_runs(store, Review(store), out, fmt, progress=progress)
    say(finished=True)


def append(journal: str, prefix: str, count: str, go: str) -> None:
    """Append `count` entries with long notes, starting when the file `go` appears."""
    from ragdiag_tui.core.review.journal import Journal
    from ragdiag_tui.core.review.records import Entry, utc_now

    writer = Journal(journal)
    writer.open()
    say(shared=writer.shared)
    while not os.path.exists(go):
        time.sleep(0.001)  # wait-ok: polling for the go file
    note = f"{prefix} " * 1500  # several kilobytes: more than one pipe buffer's atomic size
    for n in range(int(count)):
        writer.append(Entry(f"{prefix}-{n}", n % 2 == 0, note, prefix, utc_now()))
    say(done=int(count))


COMMANDS = {"review": review, "export": export, "append": append}

if __name__ == "__main__":
    COMMANDS[sys.argv[1]](*sys.argv[2:])
