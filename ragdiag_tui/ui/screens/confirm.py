"""ConfirmDialog: a yes/no question; dismisses with True or False."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from ..typeahead import focus_now
from ..widgets.text_keys import InOrderButton


class ConfirmDialog(ModalScreen[bool]):
    """Asks before something that cannot be taken back."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "no", "Cancel")]

    def __init__(self, question: str, yes: str = "Yes", no: str = "No") -> None:
        super().__init__(classes="dialog")
        self.question = question
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Static(self.question, classes="dialog-text", markup=False)
            yield Static(
                f"tab: the other button · enter: the highlighted one · escape: {self.no}",
                classes="dialog-hint",
                markup=False,
            )
            with Horizontal(classes="dialog-buttons"):
                yield InOrderButton(self.yes, variant="error", id="yes")
                yield InOrderButton(self.no, variant="primary", id="no")

    def on_mount(self) -> None:
        focus_now(self.query_one("#no", Button))

    @on(Button.Pressed, "#yes")
    def action_yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#no")
    def action_no(self) -> None:
        self.dismiss(False)
