"""What every reviewer said about one run, for the detail pane.

Each reviewer's label, time, tags and note (the latest entry of each reviewer:
nobody's entry overwrites another's), and the adjudication if there is one. In
blind mode, before this reviewer labelled the run, only how many others
reviewed it is told: their labels, and their tags and notes (which can tell a
label), stay hidden.

The text uses the detail pane's component classes (`.run-detail--x`); every
name, tag and note is untrusted and goes through `visible`. Each line's label (the field's
name, the reviewer's name, `tags: `, `note: `) is marked with `hanging`: a long line wraps
under the text after it, never under the field names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual.content import Content

from ....core.common.text import visible
from ..stages import CONFLICT_MARK, label_word
from .detail_text import MAX_NOTE_LINES, detail_class, shown_lines
from .pane_text import hanging

if TYPE_CHECKING:
    from ....core.review.state import Review

MAX_NAME = 16  # cells of the name column; a longer name is cut with an ellipsis
UNDER_NAME = "  "  # a reviewer's tags and note, under their name (room for the note in a narrow pane)
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


def _note(note: str, pad: str = "") -> list[Content]:
    """A note's lines after `pad`: "note:" once, the rest (and every row they wrap to) under its text."""
    first, *rest = _lines(note)
    lines = [Content.assemble(hanging(Content.assemble(pad, ("note: ", _c("key")))), first)]
    lines.extend(Content.assemble(hanging(pad + " " * len("note: ")), line) for line in rest)
    return lines


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
                Content.assemble(
                    hanging(_name(name, width) + "  "), label, "  ", (when(state.at) + you, _c("muted"))
                )
            )
            if state.tags:
                tags = hanging(Content.assemble(UNDER_NAME, ("tags: ", _c("key"))))
                lines.append(Content.assemble(tags, ", ".join(map(visible, state.tags))))
            if state.note:
                lines.extend(_note(state.note, UNDER_NAME))
    block = _field("Reviewers", lines) if lines else Content("")
    if adjudication is not None:
        verdict = Content.assemble(
            (label_word(adjudication.label), _c("reviewer")),
            (f"  by {visible(adjudication.reviewer)}, {when(adjudication.at)}", _c("muted")),
        )
        note = _note(adjudication.note) if adjudication.note else []
        block = Content.assemble(block, _field("Adjudicated", [verdict, *note]))
    return block


def _field(title: str, lines: list[Content]) -> Content:
    """`title` beside the first line, the others under it in the value column (each line's
    rows too, unless the line has a label of its own)."""
    first, *rest = lines
    out = [Content.assemble(hanging(Content.styled(title.ljust(len(INDENT)), _c("key"))), first, "\n")]
    out.extend(Content.assemble(hanging(INDENT), line, "\n") for line in rest)
    return Content("").join(out)
