"""WholeText: a long text read whole (`t`): the highlighted document, or the run's notes.

The detail pane cuts long text; this view holds all of it in a read-only `TextArea`,
which draws only the lines on screen, so 100,000 lines cost what a screenful does.
The text arrives made safe (`visible`, line by line) and is never markup.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from ...core.common.text import visible
from ..typeahead import focus_now


class WholeText(ModalScreen[None]):
    """The whole of one text, scrolled with the arrows and page keys; escape or `t` closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("t", "close", "Close", show=False),
    ]

    def __init__(self, title: str, text: str) -> None:
        super().__init__(classes="dialog")
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box", id="whole-text-box"):
            yield Static(Content.assemble((visible(self.title_text), "bold")), classes="dialog-title")
            yield TextArea(self.text, id="whole-text", read_only=True, soft_wrap=True, show_line_numbers=True)
            yield Static("arrows and page keys scroll · escape closes", classes="dialog-hint", markup=False)

    def on_mount(self) -> None:
        focus_now(self.query_one(TextArea))

    def action_close(self) -> None:
        self.dismiss(None)
