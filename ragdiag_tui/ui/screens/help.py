"""HelpScreen: every key binding of the review screen, by task, and what the table's marks mean."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from ..typeahead import focus_now
from ..widgets.stages import CONFLICT_MARK, LUCKY_MARK, OVERTURNED_MARK

KEY_WIDTH = 11

# (mark, its style class, what it means) for the marks of the run table.
MARKS = (
    (LUCKY_MARK, "lucky", "still lucky after review: labelled correct, evidence missing"),
    (OVERTURNED_MARK, "key", "lucky in the file, its label overturned by review (L lists both)"),
    ("✓", "reviewed", "reviewed: a reviewer set a label (a note or tags alone are not a review)"),
    ("!", "unsaved", "changed, but not saved to the journal"),
    (CONFLICT_MARK, "unsaved", "in conflict: reviewers disagree (C lists them, J adjudicates)"),
    ("✎", "reviewed", "has a note (c shows or edits it)"),
    ("from", "key", "whose label is in force: file, reviewer, adjudged (adjudicated) or conflict"),
    ("·", "key", "no required document is missing"),
)


def key_table(rows: Sequence[tuple[str, str, str]]) -> Content:
    """(section, keys, description) rows as aligned lines under section titles."""
    lines: list[Content] = []
    section = None
    for row_section, keys, description in rows:
        if row_section != section:
            if section is not None:
                lines.append(Content(""))
            lines.append(Content.assemble((row_section, ".help-screen--section")))
            section = row_section
        lines.append(Content.assemble((keys.rjust(KEY_WIDTH), ".help-screen--key"), "  ", description))
    return Content("\n").join(lines)


def marks_table() -> Content:
    """The legend of the run table's marks, laid out like the key table."""
    lines = [Content.assemble(("Marks in the run table", ".help-screen--section"))]
    for mark, style, meaning in MARKS:
        lines.append(Content.assemble((mark.rjust(KEY_WIDTH), f".help-screen--{style}"), "  ", meaning))
    return Content("\n").join(lines)


class HelpScreen(ModalScreen[None]):
    """The key bindings, shown over the review screen; any of escape, ? or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", "Close", key_display="esc"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "help-screen--section",
        "help-screen--key",
        "help-screen--lucky",
        "help-screen--reviewed",
        "help-screen--unsaved",
    }

    def __init__(self, rows: Sequence[tuple[str, str, str]]) -> None:
        super().__init__(classes="dialog")
        self.rows = rows

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box", id="help-box") as box:
            box.border_title = "Keys and marks"
            with VerticalScroll(id="help-keys"):
                yield Static(
                    Content("\n\n").join([key_table(self.rows), marks_table()]), id="help-text", markup=False
                )

    def on_mount(self) -> None:
        keys = self.query_one("#help-keys", VerticalScroll)
        focus_now(keys)
        self.watch(keys, "scroll_y", self._show_hint, init=False)
        self.call_after_refresh(self._show_hint)

    def on_resize(self) -> None:
        self.call_after_refresh(self._show_hint)

    def _show_hint(self) -> None:
        """Say in the frame whether there is more to scroll to, so no key goes unseen."""
        keys = self.query_one("#help-keys", VerticalScroll)
        if keys.max_scroll_y <= 0:
            hint = "escape closes"
        elif keys.scroll_y < keys.max_scroll_y:
            hint = "↓ more below · ↑ ↓ pgup pgdn scroll · escape closes"
        else:
            hint = "↑ more above · escape closes"
        self.query_one("#help-box").border_subtitle = hint

    def action_close(self) -> None:
        self.dismiss(None)
