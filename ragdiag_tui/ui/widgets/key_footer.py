"""The footer of keys, redrawn once however many times the bindings change before it is."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey  # not exported by textual.widgets

FOOTER_PALETTE_WIDTH = 100  # columns from which a footer also has room for "^p palette"


def wide_footer(width: int) -> bool:
    """Whether a footer `width` columns wide has room for the palette hint (under that, ctrl+p
    still works, and the help screen lists it)."""
    return width >= FOOTER_PALETTE_WIDTH


class KeyFooter(Footer):
    """Textual's Footer, which rebuilds its keys after each change of the screen's bindings:
    a focus change alone announces two or three, so a screen opening (or a dialog closing)
    rebuilt it as often, each time mounting a widget per key. This one rebuilds once for
    all the changes announced before the next refresh, and not at all when the keys it
    would show are those it shows (a focus moving between parts with the same keys)."""

    def __init__(self, *, compact: bool = False, show_command_palette: bool = True) -> None:
        super().__init__(compact=compact, show_command_palette=show_command_palette)
        self._rebuild_pending = False
        self._shown: tuple[object, ...] | None = None
        """What the keys shown were built from (see `_keys_to_show`); None before they are."""

    def bindings_changed(self, screen: Screen) -> None:
        if self._rebuild_pending:
            return
        super().bindings_changed(screen)  # schedules the rebuild when attached to a focused app
        self._rebuild_pending = self.is_attached and screen is self.screen and screen.app.app_focus

    def compose(self) -> ComposeResult:
        if self._shown is None and self.is_attached:
            # The first build, as the screen is put together: the keys of its bindings then,
            # so the screen is laid out and drawn with them. Textual's footer waits for the
            # screen's first focus to announce its bindings, then builds them, lays the screen
            # out and draws it again: for the same keys when the focus adds none (see
            # `recompose`), as on the review screen.
            self.set_reactive(Footer._bindings_ready, True)
            self._shown = self._keys_to_show()
        # A key is built with the footer's `-compact` class: else each one, once mounted, takes
        # it from the footer's `compact` and is styled a second time (a pass per key per rebuild).
        for widget in super().compose():
            if isinstance(widget, FooterKey):
                widget.set_class(self.compact, "-compact", update=False)
            yield widget

    def _keys_to_show(self) -> tuple[object, ...]:
        """Everything `compose` builds the keys from: each binding of the screen it shows (its
        key, how the app writes it, its action, text, group and tooltip, and whether it is
        enabled), the command palette's, and the footer's own settings."""
        app = self.app
        active = self.screen.active_bindings
        palette = active.get(app.COMMAND_PALETTE_BINDING)
        shown = [entry for entry in active.values() if entry[1].show]
        bindings = tuple(
            (binding.key, app.get_key_display(binding), binding.action, binding.description,
             binding.group, binding.tooltip, enabled, tooltip)
            for _node, binding, enabled, tooltip in [*shown, *([palette] if palette else [])]
        )  # fmt: skip
        return (bindings, self.compact, self.show_command_palette, self._bindings_ready)

    async def recompose(self) -> None:
        self._rebuild_pending = False
        if not self.is_attached:
            return
        keys = self._keys_to_show()
        if keys == self._shown:
            return
        self._shown = keys
        await super().recompose()
