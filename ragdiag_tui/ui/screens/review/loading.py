"""Loading the run file into the review screen: the worker (see run_loader.py), the
progress bar, and, once every run is in, the first view and the journal's word."""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol

from textual.containers import Horizontal
from textual.widgets import ProgressBar, Static

from ....core.common.collector import release
from ....core.common.text import plural, visible
from ...typeahead import wake
from .host import WorkerHost
from .in_place import count_source
from .load_gate import GateHost, LoadGate
from .run_loader import LoadFailed, RowsArrived, RunsLoaded, load_runs

if TYPE_CHECKING:
    from textual import Logger
    from textual.message import Message

    from ....core.review.state import Review, ReviewOptions
    from .run_index import RunIndex
    from .run_loader import LoadProgressed
    from .showing import Showing

LISTED_ORPHANS = 5  # run ids named in the notice of journal entries for runs not in the file
FIRST_ROWS_WAIT = 0.25  # seconds at most the screen waits for its first runs before it is first drawn
NOTICE_SECONDS = 20  # how long the journal's warnings stay up
UNMAPPED_SECONDS = 60  # how long "no run has the rule's fields" stays up: it says what to type


class LoadingHost(WorkerHost, GateHost, Protocol):
    """What loading uses of the review screen, beyond `WorkerHost`."""

    @property
    def spot_check(self) -> str | None:
        """The spot-check whose runs are shown, or None."""
        ...

    @property
    def log(self) -> Logger:
        """Textual's log (how long the load took)."""
        ...

    def call_after_refresh(self, callback: Callable[[], object]) -> bool:
        """Call `callback` once the screen has been drawn anew."""
        ...

    def on_runs_loaded(self, event: RunsLoaded) -> None:
        """The screen's handler of a load that ended well (called here when it ends early)."""
        ...

    def on_load_failed(self, event: LoadFailed) -> None:
        """The screen's handler of a load that failed (called here when it ends early)."""
        ...


class Loading:
    """Starts the load and shows its progress in a bar (`#load-status`) that goes once it ends.

    `index` and `showing` show the runs and their counts as they arrive;
    `open_spot_check(name)` opens the spot-check the app was asked to open (`--spot-check`).
    `gate` holds the keys typed meanwhile until the runs they need are in (load_gate.py)."""

    def __init__(
        self,
        screen: LoadingHost,
        options: ReviewOptions,
        index: RunIndex,
        showing: Showing,
        open_spot_check: Callable[[str], None],
    ) -> None:
        self.screen = screen
        self.options = options
        self.index = index
        self.showing = showing
        self.open_spot_check = open_spot_check
        self.gate = LoadGate(screen)
        self.bar = ProgressBar(id="load-progress", show_eta=False)
        label = Static(f"Loading {os.path.basename(screen.store.path)}", id="load-label", markup=False)
        self.status = Horizontal(label, self.bar, id="load-status")
        self.first_rows = 0  # the runs read when the screen is first drawn (see `start`)
        self._all_in = False  # whether those are every run (a small file: no first screenful announced)
        self._end_lock = threading.Lock()
        self._holding = False  # while `start` waits: the load's end is held for it, not queued
        self._held: RunsLoaded | LoadFailed | None = None

    async def start(self) -> None:
        """Fill the store in a worker; it posts `run_loader`'s messages to the screen.

        Returns once the first screenful of runs is in (or the load ended, or
        FIRST_ROWS_WAIT passed), with them in the table: the screen's first drawing shows
        them. Drawing it empty first would cost a whole frame, and share the interpreter
        with the reading, so the runs would show later. A load that ends within the wait
        (a small file) ends here too, its end handled before the first drawing instead of
        queued behind it: the screen is laid out and drawn once, with the view, the counts
        and the first run's detail, instead of once loading and again loaded."""
        first, ended, loop = asyncio.Event(), asyncio.Event(), asyncio.get_running_loop()
        deadline = loop.time() + FIRST_ROWS_WAIT
        self._holding = True
        self.screen.run_worker(
            lambda: self._load(first, ended, loop),
            name="load",
            group="load",
            exclusive=True,
            thread=True,
        )
        try:
            await asyncio.wait_for(first.wait(), FIRST_ROWS_WAIT)
            if self._all_in:  # the journal is replayed next: the end follows at once
                await asyncio.wait_for(ended.wait(), max(0.0, deadline - loop.time()))
        except TimeoutError:
            pass
        release()  # the collector held off while the app started (cli/review.py)
        with self._end_lock:
            self._holding = False
            held, self._held = self._held, None
        if held is None and not first.is_set():  # nothing in yet: drawn loading
            return
        if self.first_rows and self.screen.review is None:
            self.index.arrived(self.first_rows)
            self.showing.counts(loading=True)
        if held is None:
            return  # a big file: its first screenful is drawn first, the rest comes after
        self.index.mounting = True
        try:
            if isinstance(held, RunsLoaded):
                self.screen.on_runs_loaded(held)
                self.showing.run()  # the first run's detail, in the same first drawing
            else:
                self.screen.on_load_failed(held)
        finally:
            self.index.mounting = False

    def _load(self, first: asyncio.Event, ended: asyncio.Event, loop: asyncio.AbstractEventLoop) -> None:
        from textual.worker import get_current_worker

        worker = get_current_worker()

        def wake_start(event: asyncio.Event) -> None:
            with contextlib.suppress(RuntimeError):  # the app has already gone
                loop.call_soon_threadsafe(event.set)

        def post(message: Message) -> None:
            if isinstance(message, (RunsLoaded, LoadFailed)):
                with self._end_lock:
                    held = self._holding
                    if held:
                        self._held = message
                if held:  # `start` handles it before the first drawing
                    wake_start(first)
                    wake_start(ended)
                    return
            self.screen.post_message(message)
            if isinstance(message, (RowsArrived, RunsLoaded, LoadFailed)) and not first.is_set():
                if isinstance(message, RowsArrived):
                    self.first_rows = message.count
                    self._all_in = message.painted is None
                wake_start(first)

        load_runs(self.screen.store, self.options, post, lambda: worker.is_cancelled)

    def progressed(self, event: LoadProgressed) -> None:
        self.bar.update(total=max(event.total, 1), progress=event.done)

    def arrived(self, event: RowsArrived) -> None:
        """More runs are in (and once more when all are, before the journal is replayed)."""
        if event.painted is not None:  # the loader waits until the first screenful is drawn
            self.screen.call_after_refresh(event.painted.set)
        if self.screen.review is None:
            self.index.arrived(event.count)
            self.showing.counts(loading=True)
            wake(self.screen.app)  # keys typed ahead may have their runs now

    def loaded(self, event: RunsLoaded) -> None:
        """Every run is in (the screen has the review): the bar goes, the view is shown, and
        the reviewer is told what the journal says, and when no run has the rule's fields."""
        screen = self.screen
        self.status.display = False
        self.gate.ended()
        unmapped = event.unmapped
        screen.table.empty_message = (
            "No runs match this view and filter."
            if unmapped is None
            else f"{unmapped.headline()}: map them with --map or --preset (see the notification)."
        )
        spot_check = getattr(screen.app, "spot_check", None)
        if spot_check is not None:  # its runs are the first shown: no other run is, not even once
            self.open_spot_check(spot_check)
        if screen.spot_check is None:
            self.index.refilter()
        self.showing.counts()
        if screen.store.in_place:  # a dataset: its counts, by the engine, in a worker
            count_source(screen, self.showing.source_counted)
        screen.log.info(f"loaded {len(screen.store)} rows in {event.seconds:.2f} s")
        if unmapped is not None:
            screen.tell(
                unmapped.paragraph("review"),
                title="No run has the rule's fields",
                severity="warning",
                timeout=UNMAPPED_SECONDS,
            )
        for message, options in journal_notices(event.review, event.problems):
            screen.tell(message, **options)
        wake(screen.app)  # the keys typed ahead, in order

    def failed(self, event: LoadFailed) -> None:
        screen = self.screen
        self.status.display = False
        self.gate.ended()
        wake(screen.app)
        screen.table.empty_message = event.reason
        screen.table.show_rows(screen.store, None, range(0))
        screen.tell(event.reason, title="Cannot open the run file", severity="error", timeout=30)


def journal_notices(review: Review, problems: list[str]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(message, notify options) of what the reviewer is told once the journal is replayed."""
    journal: dict[str, Any] = {"title": "Review journal", "timeout": NOTICE_SECONDS}
    for problem in problems:
        yield problem, journal | {"severity": "error"}
    if review.restored:
        yield from restored_notice(review)
    if review.orphans:
        count = len(review.orphans)
        ids = ", ".join(repr(entry.run) for entry in review.orphans[:LISTED_ORPHANS])
        more = f" and {count - LISTED_ORPHANS} more" if count > LISTED_ORPHANS else ""
        entries = plural(count, "journal entry names a run", "journal entries name runs")
        yield (
            f"{count} {entries} not in this file (kept in the journal, not applied): {ids}{more}.",
            journal | {"severity": "warning"},
        )
    if review.stale:
        count = len(review.stale)
        entries = plural(
            count, "journal entry was made on a run that has", "journal entries were made on runs that have"
        )
        held = plural(
            count,
            "it is held aside, not applied (S lists it",
            "they are held aside, not applied (S lists them",
        )
        yield (
            f"{count} {entries} changed in the file since; {held}, to re-apply or drop).",
            journal | {"severity": "warning"},
        )
    for warning in review.warnings:
        yield warning, journal | {"severity": "warning"}


def restored_notice(review: Review) -> Iterator[tuple[str, dict[str, Any]]]:
    """What the journal restored, for this reviewer: "Welcome back" only to one who labelled
    runs of this file before, with their own count; a reviewer new to the file is told of
    the others' reviews (in blind mode, that they stay hidden until labelled)."""
    from ....core.analysis.blind import revealed_rows

    mine = len(revealed_rows(review))
    others = review.restored - mine if mine < review.restored else 0
    if mine:
        told = f"Restored your {mine} reviewed {plural(mine, 'run', 'runs')} from the journal."
        yield told, {"title": f"Welcome back, {visible(review.reviewer)}"}
        return
    runs = plural(others, "run reviewed", "runs reviewed")
    hidden = " (their labels stay hidden until you label each run: blind mode)" if review.blind else ""
    yield (
        f"The journal holds {others} {runs} by others; none by you yet{hidden}.",
        {
            "title": "Review journal",
            "timeout": NOTICE_SECONDS,
        },
    )
