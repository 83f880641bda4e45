"""NoteDialog: edit the free-text note on one run; dismisses with the text or None."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Static, TextArea

from ...core.common.text import visible
from ..typeahead import focus_now


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
            yield TextArea(self.note, id="note-text", soft_wrap=True, show_line_numbers=False)
            yield Static("ctrl+s saves · escape cancels", classes="dialog-hint", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Save", variant="primary", id="save")
                yield Button("Cancel", id="cancel")

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
