"""What a spot-check shows on the review screen: its runs, in sample order, and its
progress (this reviewer's and the team's, held, overturned), which leads the summary bar
and its list (K)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from ...core.analysis.progress import ReviewerProgress, spot_check_progress

if TYPE_CHECKING:
    from ...core.review.state import Review


def spot_check_rows(review: Review, name: str) -> list[int]:
    """The runs of spot-check `name` that are in the file, in sample order."""
    store = review.store
    row_of = store.row_of
    # A sample of a view with invalid lines names each by its line (sampling.population_ids).
    line_of = {f"line {store.lines[row]}": row for row in store.errors}
    found = (row_of.get(run_id, line_of.get(run_id)) for run_id in review.spot_checks[name].ids)
    return [row for row in found if row is not None]


def progress(review: Review, name: str) -> ReviewerProgress:
    """The progress of spot-check `name` (a known one): `wk48: mine 3/30 · team 25/30 · …`."""
    return spot_check_progress(review, name, spot_check_rows(review, name))


def summary_lead(review: Review | None, name: str | None) -> list[Content]:
    """What the summary shows first: the progress of spot-check `name`, when one is open."""
    if name is None or review is None or name not in review.spot_checks:
        return []
    return [Content.assemble((progress(review, name).text(), ".stage-summary--lead"))]
