"""What every reviewer said about one run, for the detail pane.

Each reviewer's label, time, tags and note (the latest entry of each reviewer:
nobody's entry overwrites another's), and the adjudication if there is one. In
blind mode, before this reviewer labelled the run, only how many others
reviewed it is told: their labels, and their tags and notes (which can tell a
label), stay hidden.

The text uses the detail pane's component classes (`.run-detail--x`); every
name, tag and note is untrusted and goes through `visible`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual.content import Content

from ....core.common.text import visible
from ..stages import CONFLICT_MARK, label_word
from .detail_text import MAX_NOTE_LINES, detail_class, shown_lines

if TYPE_CHECKING:
    from ....core.review.state import Review

MAX_NAME = 16  # cells of the name column; a longer name is cut with an ellipsis
INDENT = " " * 15  # the detail pane's value column (`detail_text.field_line`)


_c = detail_class


def when(at: str) -> str:
    """'2025-01-02T03:04:05.678Z' as '2025-01-02 03:04 UTC'; anything else shown escaped.

    `at` comes from the journal, which anyone can edit: an escape sequence in it
    (an OSC 52 would write the clipboard) must reach the screen as visible text.
    """
    return visible(f"{at[:10]} {at[11:16]} UTC" if len(at) >= 16 else at)


def _name(name: str, width: int) -> str:
    shown = visible(name) or "(no name)"
    if cell_len(shown) > width:
        return shown[: width - 1] + "…"
    return shown + " " * (width - cell_len(shown))


def _lines(text: str) -> list[str]:
    """A note's lines as shown: a long one cut (`t` shows it whole)."""
    return shown_lines(text, MAX_NOTE_LINES)


def team_label(review: Review, row: int) -> Content:
    """The review's label of the run: agreed, adjudicated, or in conflict."""
    if review.is_conflict(row):
        return Content.assemble(
            (f"{CONFLICT_MARK} in conflict", _c("conflict")),
            ("  (J adjudicates)", _c("muted")),
        )
    label = review.reviewer_label(row)
    if label is None:
        return Content.assemble(("none  (y correct, n incorrect, space flips)", _c("muted")))
    who = review.reviewed_by(row)
    by = f"  by {visible(who[0])}, {when(who[1])}" if who else ""
    return Content.assemble((label_word(label), _c("reviewer")), (by, _c("muted")))


def reviewers_block(review: Review, row: int) -> Content:
    """One line per reviewer (label, time), then their tags and note under it; then the
    adjudication. Empty when nobody reviewed the run."""
    states = review.reviewers(row)
    adjudication = review.adjudication(row)
    lines: list[Content] = []
    if states and not review.revealed(row):
        others = len([name for name in states if name != review.reviewer])
        reviewers = "reviewer has" if others == 1 else "reviewers have"
        lines.append(
            Content.assemble(
                (f"{others} other {reviewers} reviewed this run: hidden until you label it", _c("muted"))
            )
        )
        return _field("Reviewers", lines)
    if states:
        width = min(MAX_NAME, max(cell_len(visible(name)) for name in states))
        for name, state in states.items():
            you = "  (you)" if name == review.reviewer else ""
            label = (
                (f"{label_word(state.label):<9}", _c("reviewer"))
                if state.label is not None
                else (f"{'no label':<9}", _c("muted"))
            )
            lines.append(
                Content.assemble(_name(name, width), "  ", label, "  ", (when(state.at) + you, _c("muted")))
            )
            pad = " " * (width + 2)
            if state.tags:
                lines.append(
                    Content.assemble(pad, ("tags: ", _c("key")), ", ".join(map(visible, state.tags)))
                )
            if state.note:
                first, *rest = _lines(state.note)
                lines.append(Content.assemble(pad, ("note: ", _c("key")), first))
                lines.extend(Content(pad + "      " + line) for line in rest)
    block = _field("Reviewers", lines) if lines else Content("")
    if adjudication is not None:
        verdict = Content.assemble(
            (label_word(adjudication.label), _c("reviewer")),
            (f"  by {visible(adjudication.reviewer)}, {when(adjudication.at)}", _c("muted")),
        )
        note: list[Content] = []
        if adjudication.note:
            first, *rest = _lines(adjudication.note)  # "note:" once, the rest under its text
            note = [Content.assemble(("note: ", _c("key")), first)]
            note.extend(Content("      " + line) for line in rest)
        block = Content.assemble(block, _field("Adjudicated", [verdict, *note]))
    return block


def _field(title: str, lines: list[Content]) -> Content:
    """`title` beside the first line, the others under it in the value column."""
    first, *rest = lines
    out = [Content.assemble((title.ljust(len(INDENT)), _c("key")), first, "\n")]
    out.extend(Content.assemble(INDENT, line, "\n") for line in rest)
    return Content("").join(out)
