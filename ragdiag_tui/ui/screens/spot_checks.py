"""What a spot-check shows on the review screen: its runs, in sample order, and its
progress (reviewed, held, overturned, in conflict), which leads the summary bar and its list (K)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from ...core.analysis.spotcheck import absent_note, sampled_rows
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
    return sampled_rows(review, review.spot_checks[name])[0]


def list_entry(review: Review, name: str) -> str:
    """A spot-check's line in the list (K): its progress, flagged when the file lacks its runs."""
    spot_check = review.spot_checks[name]
    line = progress_text(name, len(spot_check.ids), *review.spot_check_progress(name))
    absent = sampled_rows(review, spot_check)[1]
    return f"{line} · ⚠ {absent_note(absent, len(spot_check.ids))}" if absent else line


def summary_lead(review: Review | None, name: str | None) -> list[Content]:
    """What the summary shows first: the progress of spot-check `name`, when one is open."""
    if name is None or review is None or name not in review.spot_checks:
        return []
    size = len(review.spot_checks[name].ids)
    text = progress_text(name, size, *review.spot_check_progress(name))
    return [Content.assemble((text, ".stage-summary--lead"))]
