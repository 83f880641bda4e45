"""NoteDialog: edit the free-text note on one run; dismisses with the text or None.

A text area prepares every line of its text when it opens (seconds for 100,000 lines),
so a note too long to edit in place (more than `EDIT_LINES` lines or `EDIT_CHARS`
characters, a merged or pasted log rather than a remark) is not loaded into it: the
dialog says how long the note is, that `t` reads it whole, and offers an empty text
area whose text *replaces* the note on save. Nothing changes until ctrl+s.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static, TextArea

from ...core.common.text import visible
from ..typeahead import focus_now
from ..widgets.text_keys import InOrderButton, hand_on, run_own_binding

EDIT_LINES = 1_000
"""A note of more lines than this is replaced, not edited in place."""
EDIT_CHARS = 50_000
"""A note of more characters than this is replaced, not edited in place."""


class NoteArea(TextArea):
    """The note's text area. ctrl+s saves here, in the order the keys were typed: left to
    bubble up to the dialog's binding, it would be handled after the keys typed behind it,
    which the area would take as text ("note" ctrl+s "y" saved as "notey"). A key that
    comes after the save (or after escape) is held (`Typeahead`) until the screen below has
    focus. The area's own keys (backspace, the arrows) act here too, in turn (text_keys.py)."""

    saved = False  # or cancelled: the dialog is closing

    async def _on_key(self, event: events.Key) -> None:
        if hand_on(self, event):
            return  # a tab before it moved on to the buttons
        if self.saved:
            self.app.typeahead.hold(event)  # type: ignore[attr-defined]
            return
        if event.key == "ctrl+s":
            event.prevent_default()
            event.stop()
            self.saved = True
            self.screen.action_save()  # type: ignore[attr-defined]
            return
        if event.key == "escape":
            self.saved = True  # the dialog's binding cancels it
            return
        if not await run_own_binding(self, event):
            await super()._on_key(event)


def too_long_to_edit(note: str) -> bool:
    """Whether `note` is past what the text area opens at once (see the module's docstring)."""
    return len(note) > EDIT_CHARS or note.count("\n", 0, EDIT_CHARS + 1) >= EDIT_LINES


def long_note_notice(note: str) -> str:
    """What the dialog says instead of showing a note too long to edit."""
    lines = note.count("\n") + 1
    return (
        f"The note in force is {lines:,} lines ({len(note):,} characters), too long to edit here; "
        "`t` in the detail reads it whole. What you type below replaces it when you save; "
        "escape keeps it as it is."
    )


class NoteDialog(ModalScreen[str | None]):
    """A text area for the note; ctrl+s saves, escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Not a priority binding: those act when the key is read, before the keys typed
        # just ahead of it have reached the text (a fast "text, ctrl+s" would save too little).
        Binding("ctrl+s", "save", "Save note"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, run_id: str, note: str) -> None:
        super().__init__(classes="dialog")
        self.run_id = run_id
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box", id="note-box"):
            yield Static(
                Content.assemble("Note on run ", (visible(self.run_id), "bold")),
                classes="dialog-title",
            )
            replace = too_long_to_edit(self.note)
            if replace:
                yield Static(long_note_notice(self.note), id="note-too-long", markup=False)
            text = "" if replace else self.note
            yield NoteArea(text, id="note-text", soft_wrap=True, show_line_numbers=False)
            yield Static("ctrl+s saves · escape cancels", classes="dialog-hint", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield InOrderButton("Save", variant="primary", id="save")
                yield InOrderButton("Cancel", id="cancel")

    def on_mount(self) -> None:
        area = self.query_one(TextArea)
        focus_now(area)  # keys typed right after `c` are waiting for it
        area.move_cursor(area.document.end)

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        self.dismiss(self.query_one(TextArea).text.strip())

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)
