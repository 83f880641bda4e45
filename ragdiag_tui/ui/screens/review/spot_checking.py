"""Spot-checks on the review screen: draw one (`D`), open one (`K`, or
`review FILE --spot-check NAME`), review its runs in sample order with its progress
in the summary bar, and reason tags on the number keys 1-9.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from ....core.analysis.progress import unreviewed_by_me
from ....core.common.text import visible
from ....core.review.records import JournalError, SpotCheck, utc_now
from ....core.review.tags import DEFAULT_TAGS, tag_by_number
from ....core.runs.mapping import reading_of
from ...typeahead import focus_now
from .host import ReviewHost
from .spot_checks import list_entry

if TYPE_CHECKING:
    from ....core.analysis.sampling import Sample
    from .labelling import Labelling
    from .navigation import Navigation
    from .showing import Showing


class SpotCheckHost(ReviewHost, Protocol):
    """What spot-checks and reason tags use of the review screen, beyond `ReviewHost`."""

    @property
    def spot_check(self) -> str | None:
        """The spot-check shown, or None."""
        ...

    @property
    def view(self) -> str:
        """The active view (a sample is drawn from it)."""
        ...

    @property
    def search(self) -> str:
        """The filter's text (a sample is drawn within it)."""
        ...

    @property
    def rows(self) -> Sequence[int]:
        """The rows the table shows, in its order."""
        ...

    def show_spot_check(self, name: str) -> None:
        """Show the runs of spot-check `name` (a known one), in sample order."""
        ...


class SpotChecking:
    """The review screen's spot-check actions and reason tags.

    A tag is a change `labelling` makes; `navigation` finds where a spot-check goes on;
    `showing` shows its progress in the summary."""

    def __init__(
        self, screen: SpotCheckHost, labelling: Labelling, navigation: Navigation, showing: Showing
    ) -> None:
        self.screen = screen
        self.labelling = labelling
        self.navigation = navigation
        self.showing = showing

    def open(self, name: str) -> None:
        """Show only the runs of spot-check `name`, in sample order, the cursor on the first
        one this reviewer has still to label (so a spot-check reopened the next day goes on where
        it was, and a second reviewer starts on the first run they have not labelled)."""
        screen = self.screen
        review = screen.review
        if review is None:
            screen.tell("Still loading the runs.")
            return
        if name not in review.spot_checks:
            known = ", ".join(sorted(map(visible, review.spot_checks))) or "none yet (D draws one)"
            screen.tell(f"No spot-check named {visible(name)!r}. Spot-checks: {known}.", severity="error")
            return
        screen.show_spot_check(name)
        self.showing.counts()
        screen.table.cursor = 0
        if screen.rows and not unreviewed_by_me(review)(screen.rows[0]):
            found = self.navigation.find_unreviewed(0, 1)
            if found is not None:
                screen.table.cursor = found[0]
        focus_now(screen.table)

    def choose(self) -> None:
        """Pick a spot-check from a list (K)."""
        from ..spot_check_list import SpotCheckList

        screen = self.screen
        review = screen.review
        if review is None:
            screen.tell("Still loading the runs.")
            return
        if not review.spot_checks:
            screen.tell("No spot-checks yet: D draws one from the current view and filter.")
            return
        entries = [(name, list_entry(review, name)) for name in review.spot_checks]

        def chosen(name: str | None) -> None:
            if name is not None:
                self.open(name)

        screen.app.push_screen(SpotCheckList(entries), chosen)

    def draw(self) -> None:
        """The sample dialog (D) over the current view and filter."""
        screen = self.screen
        review = screen.review
        if review is None:
            screen.tell("Still loading the runs.")
            return

        def drawn(result: tuple[str, Sample] | None) -> None:
            if result is None:
                return
            name, sample = result
            record = SpotCheck(
                name,
                sample.view,
                sample.filter,
                sample.seed,
                sample.population,
                len(sample.ids),
                sample.ids,
                review.reviewer,
                utc_now(),
                reading=reading_of(review.store.field_map),
            )
            record.strata, record.margin = sample.strata, sample.margin
            try:
                review.add_spot_check(record)
            except JournalError as exc:
                screen.tell(f"{exc}. The spot-check is open, but NOT saved.", severity="error", timeout=30)
            screen.tell(f"Drew {len(sample.ids)} of {sample.population} runs as {visible(name)!r}.")
            self.open(name)

        from ..sample import SampleDialog

        taken = set(review.spot_checks)
        if screen.store.in_place:  # a dataset: its engine draws (sample_dataset.py)
            from ..sample_dataset import DatasetSampleDialog

            dialog: SampleDialog = DatasetSampleDialog(
                screen.store, review, screen.view, screen.search, taken, len(screen.rows)
            )
        else:
            dialog = SampleDialog(screen.store, review, screen.view, screen.search, taken)
        screen.app.push_screen(dialog, drawn)

    # -- reason tags ---------------------------------------------------------------

    def toggle_tag(self, number: int) -> None:
        screen = self.screen
        tag = tag_by_number(getattr(screen.app, "reason_tags", DEFAULT_TAGS), number)  # the app's --tags
        if tag is None:
            screen.tell(f"No reason tag on {number}: the tags in force are listed under ?.")
            return
        self.labelling.change_run(lambda review, row: review.toggle_tag(row, tag.key))
