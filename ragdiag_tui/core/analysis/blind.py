"""What a reviewer in blind mode may be told: counts that give away no label.

In blind mode (`Review(blind=True)`) the file's label, the other reviewers'
labels and the lucky-answer mark of a run stay hidden until this reviewer has
labelled it (`Review.revealed`). A stage the label decides (retrieval,
generation, pass, label error) tells the label in force, so the summary counts
those stages, lucky answers and conflicts over the revealed runs only, and says
how many runs are hidden. Unresolved runs and invalid lines tell no label.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .filtering import LABEL_STAGE_CODES

if TYPE_CHECKING:
    from ..review.state import Review


@dataclass(frozen=True, slots=True)
class ShownCounts:
    """The review's counts as the reviewer may see them."""

    counts: list[int]
    """Runs per stage code."""
    lucky: int
    conflicts: int
    hidden: int | None
    """Blind mode: runs in a label-decided stage that this reviewer has not labelled; else None."""


def revealed_rows(review: Review) -> list[int]:
    """The rows this reviewer has labelled (what blind mode reveals), in no particular order."""
    me = review.reviewer
    return [
        row for row, states in review.states.items() if (mine := states.get(me)) and mine.label is not None
    ]


def shown_counts(review: Review) -> ShownCounts:
    """The counts of the summary bar and the statistics screen; blind mode counts only what is revealed.

    Costs one pass over the runs this reviewer labelled, not over the file.
    """
    if not review.blind:
        return ShownCounts(list(review.counts), review.lucky, len(review.conflicts), None)
    stage = review.store.stage
    counts = [0 if code in LABEL_STAGE_CODES else n for code, n in enumerate(review.counts)]
    lucky = conflicts = 0
    for row in revealed_rows(review):
        code = stage[row]
        if code in LABEL_STAGE_CODES:
            counts[code] += 1
        lucky += review.is_lucky(row)
        conflicts += review.is_conflict(row)
    hidden = sum(review.counts[code] - counts[code] for code in LABEL_STAGE_CODES)
    return ShownCounts(counts, lucky, conflicts, hidden)
