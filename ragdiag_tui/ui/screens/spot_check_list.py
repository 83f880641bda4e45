"""SpotCheckList: the spot-checks in the journal, each with its progress; enter opens one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ..typeahead import focus_now


class SpotCheckList(ModalScreen[str | None]):
    """Choose a spot-check; dismisses with its name, or None (escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, entries: Sequence[tuple[str, str]]) -> None:
        super().__init__(classes="dialog")
        self.entries = list(entries)  # (name, progress line), the line already made safe

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box", id="spot-check-box"):
            yield Static("Spot-checks", classes="dialog-title", markup=False)
            yield OptionList(
                *(Option(Content(line), id=str(n)) for n, (_, line) in enumerate(self.entries)),
                id="spot-check-options",
            )
            yield Static(
                "enter opens its runs in sample order · escape closes", classes="dialog-hint", markup=False
            )

    def on_mount(self) -> None:
        focus_now(self.query_one(OptionList))

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.entries[event.option_index][0])

    def action_cancel(self) -> None:
        self.dismiss(None)
