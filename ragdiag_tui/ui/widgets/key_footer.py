"""The footer of keys, redrawn once however many times the bindings change before it is."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey  # not exported by textual.widgets


class KeyFooter(Footer):
    """Textual's Footer, which rebuilds its keys after each change of the screen's bindings:
    a focus change alone announces two or three, so a screen opening (or a dialog closing)
    rebuilt it as often, each time mounting a widget per key. This one rebuilds once for
    all the changes announced before the next refresh."""

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(compact=compact)
        self._rebuild_pending = False

    def bindings_changed(self, screen: Screen) -> None:
        if self._rebuild_pending:
            return
        super().bindings_changed(screen)  # schedules the rebuild when attached to a focused app
        self._rebuild_pending = self.is_attached and screen is self.screen and screen.app.app_focus

    def compose(self) -> ComposeResult:
        # A key is built with the footer's `-compact` class: else each one, once mounted, takes
        # it from the footer's `compact` and is styled a second time (a pass per key per rebuild).
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                widget.set_class(self.compact, "-compact", update=False)
            yield widget

    async def recompose(self) -> None:
        self._rebuild_pending = False
        await super().recompose()
