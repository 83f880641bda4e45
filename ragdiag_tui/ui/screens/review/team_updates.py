"""Following the review's log, which teammates may write too (see ui/live.py): the run
under the cursor is held for this reviewer, the summary says how the shared store is,
and the table marks the runs the others are on. (Their labels, tags and notes arrive as
`ReviewChangedElsewhere`, which the screen shows.)"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from .host import ReviewHost

if TYPE_CHECKING:
    from ...live import LiveReview, LogStatusChanged
    from ...widgets.stage_summary import StageSummary


class TeamHost(ReviewHost, Protocol):
    """What the team's updates use of the review screen, beyond `ReviewHost`."""

    @property
    def summary(self) -> StageSummary:
        """The summary bar, which also shows the shared store's status."""
        ...


class TeamUpdates:
    """Keeps the review screen in step with the review's log once the runs are in."""

    def __init__(self, screen: TeamHost) -> None:
        self.screen = screen
        self.live: LiveReview | None = None

    def start(self, live: LiveReview) -> None:
        """Follow the log from now on, and hold the run under the cursor."""
        self.live = live
        greeting = live.start()
        if greeting:
            self.screen.tell(greeting, title="Review journal")
        live.reserve(self.screen.table.cursor_row)

    def stop(self) -> None:
        """Stop following the log and close it (the app is exiting): a shared store gives this
        reviewer's reservation back at once, waiting a bounded time on a server that hangs."""
        if self.live is not None:
            self.live.stop()
            log = self.live.log
            if log is not None:
                log.close()

    def held(self) -> dict[int, str]:
        """The runs other reviewers are on now, row -> reviewer (none before the runs are in)."""
        return self.live.held() if self.live is not None else {}

    def cursor_moved(self, row: int | None) -> None:
        """The reviewer is on `row` now: hold it for them."""
        if self.live is not None:
            self.live.reserve(row)

    def status_changed(self, event: LogStatusChanged) -> None:
        """The shared store went away or came back, or who holds which run changed."""
        self.screen.summary.show_status(event.status)
        self.screen.table.held = event.held
        self.screen.table.refresh()
