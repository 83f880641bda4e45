"""What the review screen shows of the review, shown anew when it changes: the summary's
counts, the run under the cursor in the detail pane, a run that just changed, and what
the review has to tell the reviewer (e.g. that the journal was rewritten)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ....core.analysis.blind import shown_counts
from ....core.analysis.filtering import LABEL_STAGE_CODES
from ....core.runs.store import STAGE_CODE
from ..counting import DatasetCounting
from .host import ReviewHost
from .spot_checks import summary_lead

NOTICE_SECONDS = 15
MOST_MISSED_TOLD = 5  # documents named in the notice once a dataset's most-missed are found

if TYPE_CHECKING:
    from ...widgets.detail.run_detail import RunDetail
    from ...widgets.stage_summary import StageSummary
    from .baseline import BaselineActions
    from .in_place import SourceCounted
    from .run_index import RunIndex


class ShowingHost(ReviewHost, Protocol):
    """What showing uses of the review screen, beyond `ReviewHost`: the panes and two flags."""

    @property
    def summary(self) -> StageSummary:
        """The summary bar (the counts)."""
        ...

    @property
    def detail(self) -> RunDetail:
        """The detail pane (the run under the cursor)."""
        ...

    @property
    def auto_advance(self) -> bool:
        """Whether a label moves on to the next unreviewed run (the summary says so)."""
        ...

    @property
    def spot_check(self) -> str | None:
        """The spot-check shown (its progress leads the summary), or None."""
        ...


class Showing:
    """Shows the review's state in the summary and the detail pane."""

    def __init__(self, screen: ShowingHost, index: RunIndex, baselines: BaselineActions) -> None:
        self.screen = screen
        self.index = index  # the rows shown (a changed run stays there a while)
        self.baselines = baselines  # the run's baseline, in the detail
        self.counting = screen.store.in_place  # a dataset's counts are not in yet (see in_place.py)
        self.dataset = DatasetCounting()
        """How far a dataset's counting has come, for the statistics screen (a file's: never used)."""

    def counts(self, loading: bool = False) -> None:
        """Show the counts in the summary (while loading: of the runs read so far)."""
        screen, review = self.screen, self.screen.review
        field_map = screen.store.field_map
        screen.summary.show_rule(field_map.brief() if field_map is not None else None)
        if review is None:
            counts = [screen.store.stage.count(code) for code in range(len(STAGE_CODE))]
            hidden = None
            if screen.options.blind:  # the stages a label decides would tell the labels
                hidden = sum(counts[code] for code in LABEL_STAGE_CODES)
                counts = [0 if code in LABEL_STAGE_CODES else n for code, n in enumerate(counts)]
            reviewer = screen.options.reviewer if screen.options.blind else None
            screen.summary.show_counts(counts, None, None, loading=loading, hidden=hidden, reviewer=reviewer)
            return
        shown = shown_counts(review)  # blind mode: nothing that tells a hidden label
        screen.summary.show_counts(
            shown.counts,
            None if self.counting else shown.lucky,  # a dataset not yet counted: "…"
            None if self.counting else review.reviewed,
            loading=loading or self.counting,
            stale=len(review.stale),
            lead=summary_lead(review, screen.spot_check),
            flags=["auto-advance"] if screen.auto_advance else [],
            conflicts=shown.conflicts,
            hidden=shown.hidden,
            lucky_in_file=None if self.counting else shown.lucky_in_file,
            reviewer=review.reviewer if review.blind else None,  # beside what blind mode hides
        )

    def source_counted(self, event: SourceCounted) -> None:
        """The engine counted the dataset: its counts, with the review's changes over them."""
        screen, review = self.screen, self.screen.review
        if event.problem is not None or review is None:
            screen.tell(f"The dataset could not be counted: {event.problem}", severity="error", timeout=30)
            self.dataset.came(problem=event.problem or "the review is not open")
            return
        if event.tally is not None:
            review.team.add_base(event.tally.counts, event.tally.lucky)
            self.counting = False
            self.counts()
            self.dataset.came(stages=True)
            return
        missed = ", ".join(f"{doc} ({runs})" for doc, runs in event.most_missed[:MOST_MISSED_TOLD])
        if missed:
            screen.tell(f"Most missed: {missed}.", title="Dataset counted", timeout=NOTICE_SECONDS)
        self.dataset.came(documents=True)

    def run(self) -> None:
        """Show the run under the cursor, and its baseline, in the detail pane."""
        screen = self.screen
        row = screen.table.cursor_row
        screen.detail.show_run(screen.store, screen.review, row)
        screen.detail.show_baseline(self.baselines.content(row))

    def again(self) -> None:
        """Filter again, and show the table, counts and detail anew."""
        self.index.refilter()
        self.counts()
        self.run()

    def changed_run(self, row: int) -> None:
        """Redraw a run that just changed; it stays in the view until the cursor leaves it."""
        self.notices()  # e.g. the journal was rewritten
        self.index.sticky = row
        self.screen.table.refresh_run(row)
        self.run()
        self.counts()

    def changed_elsewhere(self, rows: set[int]) -> None:
        """Runs changed by a teammate: redraw them, the detail if it shows one, and the counts."""
        self.notices()  # e.g. the journal was replaced and rewritten
        table = self.screen.table
        for row in rows:
            table.refresh_run(row)
        if table.cursor_row in rows:
            self.run()
        self.counts()

    def notices(self) -> None:
        """Tell the reviewer what the review has to say."""
        review = self.screen.review
        if review is not None:
            for notice in review.take_notices():
                self.screen.tell(notice, title="Review journal", severity="warning", timeout=20)
