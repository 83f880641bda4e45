"""What one reviewer has left to do: *unreviewed by me*, and a spot-check's progress per reviewer.

A run is *unreviewed* to a reviewer while they have not set a label on it themselves
(as an adjudicator: nor adjudicated it), whatever other reviewers did: a team where each
reviewer labels the same runs needs every reviewer to reach every run. This is what the
`U` view (and `is:unreviewed`), `]` and `[`, a spot-check's opening run and the move after
a label follow. With one reviewer it is the same as "nobody labelled the run".

*Reviewed* (the ✓ mark, the `R` view, the summary's `reviewed N/M`) still means that
someone labelled the run.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..common.text import visible
from ..review.state import Review


def unreviewed_by_me(review: Review) -> Callable[[int], bool]:
    """A test of one row: whether this session's reviewer has yet to label (or adjudicate) it."""
    me = review.reviewer
    states, adjudications = review.states, review.adjudications

    def unreviewed(row: int) -> bool:
        mine = states.get(row, {}).get(me)
        if mine is not None and mine.label is not None:
            return False
        entry = adjudications.get(row)
        return entry is None or entry.reviewer != me

    return unreviewed


def labelled_by_others(review: Review, row: int) -> bool:
    """Whether a reviewer other than this session's set a label on the run (or adjudicated it)."""
    me = review.reviewer
    if any(name != me and state.label is not None for name, state in review.reviewers(row).items()):
        return True
    entry = review.adjudication(row)
    return entry is not None and entry.reviewer != me


@dataclass(frozen=True, slots=True)
class ReviewerProgress:
    """How far a spot-check is, for this reviewer and for the team.

    `held`, `overturned` and `conflicts` (core.review.intake.SpotCheckProgress) are None in
    blind mode: they would tell the labels of runs this reviewer has not labelled yet."""

    name: str
    size: int
    mine: int
    """Runs of the sample this reviewer labelled."""
    team: int
    """Runs of the sample anyone labelled."""
    others: bool
    """Whether another reviewer labelled some run of the sample."""
    held: int | None
    overturned: int | None
    conflicts: int | None

    def text(self) -> str:
        """`lucky-50: 18/50 reviewed · 12 held · 6 overturned` for a reviewer alone;
        `wk48: mine 3/30 · team 25/30 · 14 held · 9 overturned · 2 in conflict` once others
        labelled too (the last part only when a run is in conflict; blind mode: the first two)."""
        name = visible(self.name)
        if self.others:
            told = f"{name}: mine {self.mine}/{self.size} · team {self.team}/{self.size}"
        else:
            told = f"{name}: {self.team}/{self.size} reviewed"
        if self.held is not None:
            told += f" · {self.held} held · {self.overturned} overturned"
        if self.conflicts:
            told += f" · {self.conflicts} in conflict"
        return told


def spot_check_progress(review: Review, name: str, rows: list[int]) -> ReviewerProgress:
    """The progress of spot-check `name` (a known one), whose runs in the file are `rows` (each
    once): runs the file lacks are in no count (the list flags them: `spotcheck.absent_note`)."""
    unreviewed = unreviewed_by_me(review)
    mine = sum(1 for row in rows if not unreviewed(row))
    others = any(labelled_by_others(review, row) for row in rows)
    team = review.spot_check_progress(name)
    size = len(rows)
    if review.blind:
        return ReviewerProgress(name, size, mine, team.reviewed, others, None, None, None)
    return ReviewerProgress(
        name, size, mine, team.reviewed, others, team.held, team.overturned, team.conflicts
    )
