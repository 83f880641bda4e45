"""HelpScreen: every key binding of the review screen, by section."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

KEY_WIDTH = 11


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


class HelpScreen(ModalScreen[None]):
    """The key bindings, shown over the review screen; any of escape, ? or q closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q", "close", "Close", key_display="esc"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"help-screen--section", "help-screen--key"}

    def __init__(self, rows: Sequence[tuple[str, str, str]]) -> None:
        super().__init__(classes="dialog")
        self.rows = rows

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box", id="help-box"):
            yield Static("Keys", classes="dialog-title", markup=False)
            with VerticalScroll(id="help-keys"):
                yield Static(key_table(self.rows), markup=False)
            yield Static("↑ ↓ scroll · escape closes", classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        self.query_one("#help-keys").focus()

    def action_close(self) -> None:
        self.dismiss(None)
