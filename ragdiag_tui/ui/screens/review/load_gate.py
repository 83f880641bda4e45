"""Keys typed while the runs load wait for what they need (the review screen's `key_gate`).

Keys typed right after launching the app, before the screen has its first rows, wait for
them; moving up and down the rows already in acts at once, a move past them waits for
more, and every other key (a label, a view, the filter, a sort: they need the whole file
and its journal) waits for the load to end. A key that waits holds every key typed after
it (`ui/typeahead.py`), so a burst is replayed in the order typed once the screen can
take it, and no key is dropped or lands elsewhere.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from textual.widgets import Input, TextArea
from textual.worker import Worker

from ...typeahead import wake
from .host import ReviewHost

if TYPE_CHECKING:
    from textual.app import App
    from textual.binding import ActiveBinding

NEW_ROWS = frozenset(
    {
        "sort_cycle",
        "sort_previous_column",
        "sort_next_column",
        "focus_filter",
        "clear_filters",
        "help",
        "toggle_detail",
        "toggle_metric_columns",
    }
)
"""What a key may do while a dataset's rows are being found: ask for other rows, or look elsewhere."""
TEXT_BOXES = (Input, TextArea)
"""Where keys are text, never held for rows."""
ROWS_GROUP = "view"
"""The group of the workers that find a dataset's rows (ui/screens/review/in_place.py)."""

WITHOUT_RUNS = frozenset({"quit", "app.quit", "help_quit"})
"""What a key may do before any run is in (a file that never comes must not trap the reviewer)."""
WITH_FIRST_RUNS = frozenset({"cursor_up", "previous_run", "page_up", "first", "help", "toggle_detail"})
"""What a key may do once the first runs are in."""
NEXT_ROW = frozenset({"cursor_down", "next_run"})
"""Moves that need the row below the cursor."""


class GateHost(ReviewHost, Protocol):
    """What the gate uses of the review screen, beyond `ReviewHost`."""

    @property
    def is_mounted(self) -> bool:
        """Whether the screen's widgets are there."""
        ...

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """Key -> the binding it runs now (given the focus)."""
        ...


class LoadGate:
    """Says which keys must wait while the runs load; `ended()` once every run is in (or the load failed)."""

    def __init__(self, screen: GateHost) -> None:
        self.screen = screen
        self.loading = True

    def ended(self) -> None:
        self.loading = False

    def key_waits(self, key: str) -> bool:
        """Whether `key` must wait for more runs, or for the load to end, or (a dataset read in
        place) for the rows of the view, filter or order the engine is finding."""
        screen = self.screen
        if not self.loading:
            return self._rows_coming(key)
        if not screen.is_mounted:
            return True
        active = screen.active_bindings.get(key)
        action = None if active is None else active.binding.action
        if action in WITHOUT_RUNS:
            return False
        table = screen.table
        loaded = len(table.rows)
        if not loaded:
            return True
        if action in WITH_FIRST_RUNS:
            return False
        if action in NEXT_ROW:
            return table.cursor + 1 >= loaded
        if action == "page_down":
            return table.cursor + table.size.height >= loaded
        return True  # the rest needs every run and the journal (`end`: the file's last run)

    def _rows_coming(self, key: str) -> bool:
        """Over a dataset, a view, filter or order asked of the engine shows its rows once found
        (in a worker of the "view" group): a key typed after it (`L` `n`) is for those rows, so it
        waits for them, unless it goes into a box (the filter's text) or quits. The screen wakes
        the keys when the worker ends (`wake_after`)."""
        screen = self.screen
        if not (screen.store.in_place and screen.is_mounted) or isinstance(screen.app.focused, TEXT_BOXES):
            return False
        active = screen.active_bindings.get(key)
        action = "" if active is None else active.binding.action
        if action in WITHOUT_RUNS or action in NEW_ROWS or action.startswith("show_view("):
            return False  # another view, filter or order replaces the one being found: no need to wait
        return any(worker.group == ROWS_GROUP and not worker.is_finished for worker in screen.workers)


def wake_after(event: Worker.StateChanged, app: App[object]) -> None:
    """A worker of the screen's ended: if it found a dataset's rows, the keys waiting for them go on."""
    if event.worker.group == ROWS_GROUP and event.worker.is_finished:
        wake(app)
