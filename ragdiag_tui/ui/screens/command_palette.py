"""Textual's command palette, typed into as fast as the rest of the app.

The palette searches in a worker, so an enter typed in the same burst as the text would
pick whatever the search before had highlighted (`correct` enter ran "Adjudicate"), and
the keys typed after enter went into the palette's box ("correctjy"). Here enter runs the
top match for exactly the text typed before it, once that search has finished, and the
keys typed after enter wait (ui/typeahead.py) until the palette has closed, then reach
the screen below in order. Everything else (mouse, arrows, escape, the look) is Textual's.
"""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.command import CommandInput, CommandPalette
from textual.widgets import Input
from textual.worker import Worker, WorkerState

from ..widgets.text_keys import InOrderInput


class PaletteInput(CommandInput, InOrderInput):
    """The palette's box: its keys act in the order typed; every key after enter waits for
    the palette to close (a reviewer who had waited would have typed it on the screen below).
    CommandInput first: styles and the palette's `AUTO_FOCUS` follow the first base."""

    HOLD_EVERY_KEY = True


class TypedAheadPalette(CommandPalette):
    """A `CommandPalette` whose enter acts on the text typed before it."""

    def __init__(self) -> None:
        super().__init__(id="--command-palette")  # as `App.action_command_palette` names it
        self._search: Worker[None] | None = None  # the search for the box's text as it is
        self._enter_waits = False

    @property
    def working(self) -> bool:
        """Whether an enter waits for its search, or for the command it picks to close the
        palette (the typeahead holds the keys typed after it meanwhile)."""
        return self._enter_waits

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if type(widget) is CommandInput:
                widget = PaletteInput(placeholder=widget.placeholder, select_on_focus=False)
            yield widget

    def _gather_commands(self, search_value: str) -> Worker[None]:
        self._search = super()._gather_commands(search_value)
        return self._search

    @on(Input.Submitted)
    def _wait_for_search(self, event: Input.Submitted) -> None:
        # Runs before Textual's handler, which picks what is highlighted now.
        if self._search is not None and not self._search.is_finished:
            event.prevent_default()
            event.stop()
            self._enter_waits = True

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        search = event.worker
        if not self._enter_waits or search is not self._search or not search.is_finished:
            return
        if search.state is not WorkerState.SUCCESS:
            self._enter_waits = False  # cancelled: a click picked a command, or closed the palette
            return
        # The top match is highlighted and the enter picks it; nothing found: the palette stays open.
        self._enter_waits = self._list_visible
        self._select_or_command()
