"""What a spot-check shows on the review screen: its runs, in sample order, and its
progress (this reviewer's and the team's, held, overturned, in conflict), which leads the
summary bar and its list (K), flagged there when the file lacks some of its runs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.content import Content

from ....core.analysis.progress import ReviewerProgress, spot_check_progress

if TYPE_CHECKING:
    from ....core.review.state import Review

# core.analysis.spotcheck (with its estimates and sampling) is loaded on first use: the
# first frame shows no spot-check.


def spot_check_rows(review: Review, name: str) -> list[int]:
    """The runs of spot-check `name` that are in the file, in sample order."""
    from ....core.analysis.spotcheck import sampled_rows

    return sampled_rows(review, review.spot_checks[name])[0]


def list_entry(review: Review, name: str) -> str:
    """A spot-check's line in the list (K): its progress, flagged when the file lacks its runs
    or the record repeats ids or has a size its ids disagree with."""
    from ....core.analysis.spotcheck import absent_note, sampled_rows

    spot_check = review.spot_checks[name]
    rows, absent = sampled_rows(review, spot_check)
    line = spot_check_progress(review, name, rows).text()
    flags = [absent_note(absent, len(spot_check.runs))] if absent else []
    flags.extend(spot_check.doubts())  # counts only: no text from the file
    return line + "".join(f" · ⚠ {flag}" for flag in flags)


def progress(review: Review, name: str) -> ReviewerProgress:
    """The progress of spot-check `name` (a known one): `wk48: mine 3/30 · team 25/30 · …`."""
    return spot_check_progress(review, name, spot_check_rows(review, name))


def summary_lead(review: Review | None, name: str | None) -> list[Content]:
    """What the summary shows first: the progress of spot-check `name`, when one is open."""
    if name is None or review is None or name not in review.spot_checks:
        return []
    lead = [Content.assemble((progress(review, name).text(), ".stage-summary--lead"))]
    stop = may_stop_text(review, name)
    return [*lead, Content.assemble((f"· {stop}", ".stage-summary--lead"))] if stop else lead


def may_stop_text(review: Review, name: str) -> str:
    """`you may stop: 12% ± 3.0%, valid at any stopping point` once a spot-check drawn with a
    margin has its anytime interval within it; "" before then, or in blind mode (it would
    tell the labels)."""
    spot_check = review.spot_checks[name]
    if spot_check.margin is None or review.blind:
        return ""
    from ....core.analysis.spotcheck import spot_check_report

    return spot_check_report(review, spot_check).may_stop_text()
