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

from ..common.text import visible
from .filtering import LABEL_STAGE_CODES
from .lucky import lucky_in_file

if TYPE_CHECKING:
    from ..review.state import Review
    from ..review.tags import Tag
    from .spotcheck import SpotCheckReport


@dataclass(frozen=True, slots=True)
class ShownCounts:
    """The review's counts as the reviewer may see them."""

    counts: list[int]
    """Runs per stage code."""
    lucky: int
    """Still lucky after review (by the labels in force; blind mode: of the revealed runs)."""
    conflicts: int
    hidden: int | None
    """Blind mode: runs in a label-decided stage that this reviewer has not labelled; else None."""
    lucky_in_file: int | None = None
    """Lucky answers in the file (by its labels); None in blind mode, where the file's labels
    are not told."""


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
        return ShownCounts(
            list(review.counts), review.lucky, len(review.conflicts), None, lucky_in_file(review)
        )
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


def blind_spot_checks(review: Review, tags: tuple[Tag, ...]) -> tuple[list[SpotCheckReport], list[str]]:
    """The spot-checks a blind reviewer may read: the report of each one whose runs in the
    file they have all labelled (every label of it is revealed to them), and for the others a
    line saying how far they are (its figures would tell labels they are not to see yet)."""
    from .spotcheck import sampled_rows, spot_check_report  # the statistics screen's, not the first frame's

    reports: list[SpotCheckReport] = []
    waiting: list[str] = []
    for spot_check in review.spot_checks.values():
        rows, _ = sampled_rows(review, spot_check)
        mine = sum(review.my_label(row) is not None for row in rows)
        if rows and mine == len(rows):
            reports.append(spot_check_report(review, spot_check, tags))
        else:
            waiting.append(
                f"{visible(spot_check.name)}: {mine:,} of {len(rows):,} labelled by you; its figures show "
                "once you have labelled every run of it (blind mode)"
            )
    return reports, waiting
