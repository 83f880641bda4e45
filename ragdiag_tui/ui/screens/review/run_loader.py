"""Loading a run file off the main thread, reporting as chunks arrive.

The worker fills one `RunStore` and posts a message every so many rows; the
first comes after a few hundred, so the first screenful appears at once. The main thread reads only rows
already announced, so it never sees a row half-added. Once every record is in,
the review journal is opened and replayed, still off the main thread.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

from textual.message import Message

from ....core.review.records import JournalError
from ....core.review.state import Review, ReviewOptions
from ....core.runs.loading import FileError
from ....core.runs.store import ANNOUNCE_FIRST, RunStore
from ....core.runs.unmapped import Unmapped, unmapped_in_store

PROGRESS_EVERY = 0.5  # seconds between progress reports
FIRST_PAINT_WAIT = 0.5  # seconds at most the loader waits for the first screenful to be drawn


class LoadProgressed(Message):
    """`done` of `total` bytes read."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total


class RowsArrived(Message):
    """The store now holds `count` rows, all safe to read. `painted`, on the first
    screenful only, is to be set once the screen has drawn them: the loader waits."""

    def __init__(self, count: int, painted: threading.Event | None = None) -> None:
        super().__init__()
        self.count = count
        self.painted = painted


class RunsLoaded(Message):
    """Every run is in and the journal is replayed; `problems` are for the reviewer;
    `unmapped` says when the runs hold none of the rule's fields under the map in use."""

    def __init__(
        self, review: Review, problems: list[str], seconds: float, unmapped: Unmapped | None = None
    ) -> None:
        super().__init__()
        self.review = review
        self.problems = problems
        self.seconds = seconds
        self.unmapped = unmapped


class LoadFailed(Message):
    """The file cannot be read at all."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


def load_runs(
    store: RunStore,
    options: ReviewOptions,
    post: Callable[[Message], object],
    cancelled: Callable[[], bool],
) -> None:
    """Fill `store` from its file and open the review over it; report through `post`."""
    started = time.perf_counter()
    last_report = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last_report
        now = time.perf_counter()
        # Each report redraws the progress bar, and a redraw holds the interpreter
        # the loading thread needs: twice a second is enough to show it moving.
        if now - last_report > PROGRESS_EVERY or done >= total:
            last_report = now
            post(LoadProgressed(done, total))

    told = -1

    def announce(rows: int) -> bool:
        nonlocal told
        if rows == told:  # asked again while another process reads (`RunStore.still_wanted`)
            return not cancelled()
        told = rows
        if rows == ANNOUNCE_FIRST:
            # Hand the interpreter to the screen until it has drawn the first screenful:
            # loading on meanwhile would make the screen share it and draw later.
            painted = threading.Event()
            post(RowsArrived(rows, painted))
            painted.wait(FIRST_PAINT_WAIT)
        else:
            post(RowsArrived(rows))
        return not cancelled()

    try:
        review = options.open(store=store, progress=progress, announce=announce)
        post(RowsArrived(len(store)))
    except FileError as exc:
        post(LoadFailed(str(exc)))
        return
    except JournalError as exc:  # the review log cannot even be named (e.g. a bad URL)
        post(LoadFailed(str(exc)))
        return
    except OSError as exc:
        post(LoadFailed(f"{os.fspath(store.path)}: {exc.strerror or exc}"))
        return
    if cancelled():
        return
    unmapped = unmapped_in_store(store)  # the runs loaded, not the file read again
    post(RunsLoaded(review, review.problems, time.perf_counter() - started, unmapped))
