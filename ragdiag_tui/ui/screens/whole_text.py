"""WholeText: a long text read whole (`t`): the highlighted document, or the run's notes.

The detail pane cuts long text; this view holds all of it in `TextLines`, which draws
only the lines on screen, so 100,000 lines cost what a screenful does. The text arrives
made safe (`visible`, line by line) and is never markup.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from ...core.common.text import visible
from ..typeahead import focus_now
from ..widgets.text_lines import TextLines


class WholeText(ModalScreen[None]):
    """Texts read whole one after the other (the document, then the notes): `t` shows the
    next one, or closes after the last; escape closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("t", "next_text", "Next text", show=False),
    ]

    def __init__(self, texts: list[tuple[str, str]]) -> None:
        super().__init__(classes="dialog")
        self.texts = texts
        """(title, text made safe) of each text, in the order `t` shows them."""
        self.at = 0

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box", id="whole-text-box"):
            yield Static(classes="dialog-title", markup=False, id="whole-text-title")
            yield TextLines(id="whole-text")
            yield Static(classes="dialog-hint", markup=False, id="whole-text-hint")

    def on_mount(self) -> None:
        self._show()
        focus_now(self.query_one(TextLines))

    def _show(self) -> None:
        title, text = self.texts[self.at]
        count = len(self.texts)
        of = f"  ({self.at + 1} of {count})" if count > 1 else ""
        self.query_one("#whole-text-title", Static).update(Content.assemble((visible(title), "bold"), of))
        following = "t: the next text · " if self.at + 1 < count else ""
        hint = f"arrows, page keys, home and end scroll · {following}escape closes"
        self.query_one("#whole-text-hint", Static).update(hint)
        self.query_one(TextLines).show(text)

    def action_next_text(self) -> None:
        if self.at + 1 >= len(self.texts):
            self.dismiss(None)
            return
        self.at += 1
        self._show()

    def action_close(self) -> None:
        self.dismiss(None)
