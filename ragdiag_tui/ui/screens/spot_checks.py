"""What a spot-check shows on the review screen: its runs, in sample order, and its
progress (reviewed, held, overturned, in conflict), which leads the summary bar and its list (K)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from ...core.common.text import visible

if TYPE_CHECKING:
    from ...core.review.state import Review


def progress_text(name: str, size: int, reviewed: int, held: int, overturned: int, conflicts: int = 0) -> str:
    """`lucky-50: 18/50 reviewed · 12 held · 4 overturned · 2 in conflict` (the last part only
    when a run is in conflict: such a run is neither held nor overturned)."""
    text = f"{visible(name)}: {reviewed}/{size} reviewed · {held} held · {overturned} overturned"
    return text + f" · {conflicts} in conflict" if conflicts else text


def spot_check_rows(review: Review, name: str) -> list[int]:
    """The runs of spot-check `name` that are in the file, in sample order."""
    store = review.store
    row_of = store.row_of
    # A sample of a view with invalid lines names each by its line (sampling.population_ids).
    line_of = {f"line {store.lines[row]}": row for row in store.errors}
    found = (row_of.get(run_id, line_of.get(run_id)) for run_id in review.spot_checks[name].ids)
    return [row for row in found if row is not None]


def summary_lead(review: Review | None, name: str | None) -> list[Content]:
    """What the summary shows first: the progress of spot-check `name`, when one is open."""
    if name is None or review is None or name not in review.spot_checks:
        return []
    size = len(review.spot_checks[name].ids)
    text = progress_text(name, size, *review.spot_check_progress(name))
    return [Content.assemble((text, ".stage-summary--lead"))]
