"""Live updates: what a teammate labels shows here within a second.

`LiveReview` polls the review log a few times a second (`ReviewLog.poll`: new
bytes of a shared journal file, or PostgreSQL's notifications; both cheap when
nothing changed), applies what others wrote through `Review.apply`, and posts
`ReviewChangedElsewhere` with the rows to redraw. It also posts
`LogStatusChanged` when the log's status changes (PostgreSQL going away, entries
spooled, the server back), and keeps the run under the cursor reserved for this
reviewer in a shared store, reading which runs the others hold.
"""

from __future__ import annotations

from textual.message import Message
from textual.timer import Timer
from textual.widget import Widget

from ..core.review.journal import Journal
from ..core.review.reviewlog import ReviewLog
from ..core.review.state import Review

POLL_SECONDS = 0.25


class ReviewChangedElsewhere(Message):
    """Records from other writers changed these rows (already applied to the review)."""

    def __init__(self, rows: set[int]) -> None:
        super().__init__()
        self.rows = rows


class LogStatusChanged(Message):
    """The review log's status line changed (None: all is well); `held` maps rows to the reviewer on them."""

    def __init__(self, status: str | None, held: dict[int, str]) -> None:
        super().__init__()
        self.status = status
        self.held = held


class LiveReview:
    """Polls one review's log for its owner widget (the review screen)."""

    def __init__(self, owner: Widget, review: Review) -> None:
        self.owner = owner
        self.review = review
        self._status: str | None = None
        self._held: dict[int, str] = {}
        self._reserved: str | None = None
        self._timer: Timer | None = None

    @property
    def log(self) -> ReviewLog | None:
        return self.review.journal

    def start(self) -> str | None:
        """Start polling; returns a word for the reviewer when others share the log."""
        log = self.log
        if log is None or self._timer is not None:
            return None
        background = getattr(log, "work_in_background", None)  # a database: never wait on the network
        if background is not None:
            background()
        self._timer = self.owner.set_interval(POLL_SECONDS, self.poll, name="live-review")
        self.poll()
        if not log.shared:
            return None
        if isinstance(log, Journal):
            return f"{log.name} is open in another ragdiag-tui too: each of you sees the other's labels live."
        return f"Reviewing in {log.name}: teammates' labels show here as they make them."

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def held(self) -> dict[int, str]:
        """Rows that other reviewers hold now (a shared store), row -> reviewer."""
        return self._held

    def reserve(self, row: int | None) -> None:
        """The reviewer is on `row`: hold it for them (a store without reservations ignores this)."""
        log = self.log
        if log is None:
            return
        run = None if row is None else self.review.store.ids[row]
        if run == self._reserved:
            return
        self._reserved = run
        log.reserve(run, self.review.reviewer)

    def poll(self) -> None:
        """Apply what others wrote; tell the owner what to redraw and any new status."""
        log = self.log
        if log is None:
            return
        rows = self.review.poll()
        if rows or self.review.notices:  # a notice: e.g. the journal was replaced and rewritten
            self.owner.post_message(ReviewChangedElsewhere(rows))
        status = log.status()
        held = self._read_held(log)
        if status != self._status or held != self._held:
            self._status, self._held = status, held
            self.owner.post_message(LogStatusChanged(status, held))

    def _read_held(self, log: ReviewLog) -> dict[int, str]:
        reservations = log.reservations()
        if not reservations:  # most polls: no need for the id index (a million rows: half a second)
            return {}
        row_of = self.review.store.row_of
        return {row_of[run]: who for run, who in reservations.items() if run in row_of}
