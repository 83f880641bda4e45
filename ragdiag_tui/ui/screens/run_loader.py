"""Loading a run file off the main thread, reporting as chunks arrive.

The worker fills one `RunStore` and posts a message every so many rows; the
first comes after a few hundred, so the first screenful appears at once. The main thread reads only rows
already announced, so it never sees a row half-added. Once every record is in,
the review journal is opened and replayed, still off the main thread.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

from textual.message import Message

from ...core.journal import Journal, JournalError, journal_path
from ...core.loading import FileError, read_runs
from ...core.review import Review
from ...core.store import ANNOUNCE_FIRST, RunStore

FIRST_PAINT_PAUSE = 0.05  # seconds the loader yields once the first screenful is in


class LoadProgressed(Message):
    """`done` of `total` bytes read."""

    def __init__(self, done: int, total: int) -> None:
        super().__init__()
        self.done = done
        self.total = total


class RowsArrived(Message):
    """The store now holds `count` rows, all safe to read."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count


class RunsLoaded(Message):
    """Every run is in and the journal is replayed; `problems` are for the reviewer."""

    def __init__(self, review: Review, problems: list[str], seconds: float) -> None:
        super().__init__()
        self.review = review
        self.problems = problems
        self.seconds = seconds


class LoadFailed(Message):
    """The file cannot be read at all."""

    def __init__(self, reason: str) -> None:
        super().__init__()
        self.reason = reason


def load_runs(
    store: RunStore,
    reviewer: str | None,
    post: Callable[[Message], object],
    cancelled: Callable[[], bool],
) -> None:
    """Fill `store` from its file and build the review; report through `post`."""
    started = time.perf_counter()
    last_report = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last_report
        now = time.perf_counter()
        if now - last_report > 0.25 or done >= total:
            last_report = now
            post(LoadProgressed(done, total))

    def announce(rows: int) -> bool:
        post(RowsArrived(rows))
        if rows == ANNOUNCE_FIRST:
            # Hand the interpreter to the screen for a moment: it draws the first
            # screenful now instead of waiting for the loading thread to pause.
            time.sleep(FIRST_PAINT_PAUSE)
        return not cancelled()

    try:
        store.extend(read_runs(store.path, progress, store.field_map), announce)
        post(RowsArrived(len(store)))
    except FileError as exc:
        post(LoadFailed(str(exc)))
        return
    except OSError as exc:
        post(LoadFailed(f"{os.fspath(store.path)}: {exc.strerror or exc}"))
        return
    if cancelled():
        return
    review, problems = open_review(store, reviewer)
    post(RunsLoaded(review, problems, time.perf_counter() - started))


def open_review(store: RunStore, reviewer: str | None) -> tuple[Review, list[str]]:
    """The review over `store` with its journal replayed, and what went wrong doing so."""
    journal = Journal(journal_path(store.path))
    problems: list[str] = []
    try:
        journal.open()
    except JournalError as exc:
        problems.append(f"{exc}. Labels you set now will NOT be saved.")
    if journal.shared:
        problems.append(f"{journal.path} is open in another ragdiag-tui; both append to it.")
    try:
        review = Review(store, journal, reviewer)
    except JournalError as exc:
        problems.append(f"{exc}. Earlier reviews could not be restored.")
        review = Review(store, None, reviewer)
        review.journal = journal  # keep saving, so failures are still reported
    return review, problems
