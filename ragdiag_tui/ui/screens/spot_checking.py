"""Spot-checks on the review screen: draw one (`D`), open one (`K`, or
`review FILE --spot-check NAME`), review its runs in sample order with its progress
in the summary bar, and reason tags on the number keys 1-9.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from ...core.analysis.sampling import Sample
from ...core.common.text import visible
from ...core.review.records import JournalError, SpotCheck, utc_now
from ...core.review.tags import tag_by_number

if TYPE_CHECKING:
    from .review import ReviewScreen


def progress_text(name: str, size: int, reviewed: int, held: int, overturned: int) -> str:
    """`lucky-50: 18/50 reviewed · 12 held · 6 overturned`."""
    return f"{visible(name)}: {reviewed}/{size} reviewed · {held} held · {overturned} overturned"


class SpotChecking:
    """The review screen's spot-check actions; it uses only the screen's public members."""

    def __init__(self, screen: ReviewScreen) -> None:
        self.screen = screen

    def rows(self, name: str) -> list[int]:
        """The spot-check's runs that are in the file, in sample order."""
        screen = self.screen
        assert screen.review is not None
        store = screen.store
        row_of = store.row_of
        # A sample of a view with invalid lines names each by its line (sampling.population_ids).
        line_of = {f"line {store.lines[row]}": row for row in store.errors}
        found = (row_of.get(run_id, line_of.get(run_id)) for run_id in screen.review.spot_checks[name].ids)
        return [row for row in found if row is not None]

    def summary_lead(self) -> list[Content]:
        screen = self.screen
        name, review = screen.spot_check, screen.review
        if name is None or review is None or name not in review.spot_checks:
            return []
        reviewed, held, overturned = review.spot_check_progress(name)
        size = len(review.spot_checks[name].ids)
        text = progress_text(name, size, reviewed, held, overturned)
        return [Content.assemble((text, ".stage-summary--lead"))]

    def open(self, name: str) -> None:
        """Show only the runs of spot-check `name`, in sample order."""
        screen = self.screen
        review = screen.review
        if review is None:
            screen.tell("Still loading the runs.")
            return
        if name not in review.spot_checks:
            known = ", ".join(sorted(map(visible, review.spot_checks))) or "none yet (D draws one)"
            screen.tell(f"No spot-check named {visible(name)!r}. Spot-checks: {known}.", severity="error")
            return
        screen.open_spot_check(name)

    def choose(self) -> None:
        """Pick a spot-check from a list (K)."""
        from .spot_check_list import SpotCheckList

        screen = self.screen
        review = screen.review
        if review is None:
            screen.tell("Still loading the runs.")
            return
        if not review.spot_checks:
            screen.tell("No spot-checks yet: D draws one from the current view and filter.")
            return
        entries = []
        for name, spot_check in review.spot_checks.items():
            reviewed, held, overturned = review.spot_check_progress(name)
            entries.append((name, progress_text(name, len(spot_check.ids), reviewed, held, overturned)))

        def chosen(name: str | None) -> None:
            if name is not None:
                self.open(name)

        screen.app.push_screen(SpotCheckList(entries), chosen)

    def draw(self) -> None:
        """The sample dialog (D) over the current view and filter."""
        from .sample import SampleDialog

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
            )
            try:
                review.add_spot_check(record)
            except JournalError as exc:
                screen.tell(f"{exc}. The spot-check is open, but NOT saved.", severity="error", timeout=30)
            screen.tell(f"Drew {len(sample.ids)} of {sample.population} runs as {visible(name)!r}.")
            self.open(name)

        screen.app.push_screen(
            SampleDialog(screen.store, review, screen.view, screen.search, set(review.spot_checks)), drawn
        )

    # -- reason tags ---------------------------------------------------------------

    def toggle_tag(self, number: int) -> None:
        screen = self.screen
        tag = tag_by_number(screen.reason_tags, number)
        if tag is None:
            screen.tell(f"No reason tag on {number}: the tags in force are listed under ?.")
            return
        screen.labelling.change_run(lambda review, row: review.toggle_tag(row, tag.key))
