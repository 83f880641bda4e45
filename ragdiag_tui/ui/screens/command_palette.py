"""Textual's command palette, typed into as fast as the rest of the app.

The palette searches in a worker, so an enter typed in the same burst as the text would
pick whatever the search before had highlighted (`correct` enter ran "Adjudicate"), and
the keys typed after enter went into the palette's box ("correctjy"). Here enter runs the
top match for exactly the text typed before it, once that search has finished, and the
keys typed after enter wait (ui/typeahead.py) until the palette has closed, then reach
the screen below in order. The keys that move in the list (the arrows, page up and down,
to the top or the bottom) wait for the search too: `corr` down enter picks the second match
for "corr", not the second of what the box offered before. Everything else (mouse,
escape, the look) is Textual's.
"""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.command import CommandInput, CommandPalette
from textual.widgets import Input
from textual.worker import Worker, WorkerState

from ..typeahead import wake
from ..widgets.text_keys import InOrderInput

LIST_MOVES = {
    key.strip(): binding.action
    for binding in CommandPalette.BINDINGS
    if isinstance(binding, Binding) and binding.action != "escape"
    for key in binding.key.split(",")
}
"""The palette's keys that move in its list of matches, and their actions (Textual's
`CommandPalette.BINDINGS`: down, up, page down and up, to the top or the bottom)."""


class PaletteInput(CommandInput, InOrderInput):
    """The palette's box: its keys act in the order typed; every key after enter waits for
    the palette to close (a reviewer who had waited would have typed it on the screen below).
    CommandInput first: styles and the palette's `AUTO_FOCUS` follow the first base."""

    HOLD_EVERY_KEY = True

    async def _on_key(self, event: events.Key) -> None:
        palette, typeahead = self.screen, getattr(self.app, "typeahead", None)
        if typeahead is not None and isinstance(palette, TypedAheadPalette):
            # A move waits for the search of the text typed before it, and what follows waits behind it.
            if typeahead.holds_earlier(event) or palette.key_waits(event.key):
                typeahead.hold(event)
                return
            # The palette's move runs here, in turn: bubbled up to the palette's binding, it
            # would act after an enter typed behind it had picked the match highlighted before.
            action = LIST_MOVES.get(event.key)
            if action is not None:
                event.prevent_default()
                event.stop()
                await self.app.run_action(action, palette)


class TypedAheadPalette(CommandPalette):
    """A `CommandPalette` whose enter acts on the text typed before it."""

    def __init__(self) -> None:
        super().__init__(id="--command-palette")  # as `App.action_command_palette` names it
        self._search: Worker[None] | None = None  # the search for the box's text as it is
        self._searched = ""  # the text it searches for
        self._enter_waits = False

    @property
    def working(self) -> bool:
        """Whether an enter waits for its search, or for the command it picks to close the
        palette (the typeahead holds the keys typed after it meanwhile)."""
        return self._enter_waits

    @property
    def key_gate(self) -> TypedAheadPalette:
        """The palette says which keys wait (ui/typeahead.py): see `key_waits`."""
        return self

    def key_waits(self, key: str) -> bool:
        """A move in the list waits for the search for the text typed before it (a letter
        just typed has changed the box, and its search has not even started yet)."""
        if key not in LIST_MOVES:
            return False
        typed = self.query_one(PaletteInput).value.strip()
        return typed != self._searched or self._search is None or not self._search.is_finished

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if type(widget) is CommandInput:
                widget = PaletteInput(placeholder=widget.placeholder, select_on_focus=False)
            yield widget

    def _gather_commands(self, search_value: str) -> Worker[None]:
        self._searched = search_value
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
        if search is self._search and search.is_finished:
            wake(self.app)  # the moves typed meanwhile, in order
        if not self._enter_waits or search is not self._search or not search.is_finished:
            return
        if search.state is not WorkerState.SUCCESS:
            self._enter_waits = False  # cancelled: a click picked a command, or closed the palette
            return
        # The top match is highlighted and the enter picks it; nothing found: the palette stays open.
        self._enter_waits = self._list_visible
        self._select_or_command()
