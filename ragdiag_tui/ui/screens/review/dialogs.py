"""The screens the review screen opens over itself: statistics (s), export (e), the
stale journal entries (S) and the keys (?). Each takes what it shows and hands back
what the reviewer chose, which the review screen then shows."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ...typeahead import focus_now
from .host import ReviewHost
from .keys import key_help

if TYPE_CHECKING:
    from .documents import Documents
    from .run_index import RunIndex
    from .showing import Showing


class DialogsHost(ReviewHost, Protocol):
    """What the opened screens use of the review screen, beyond `ReviewHost`."""

    def set_filter(self, view: str, search: str, missing_doc: str | None) -> None:
        """Change the whole filter at once."""
        ...

    @property
    def documents(self) -> Documents:
        """The documents' text: its corpus, once open, goes into the statistics screen's report."""
        ...


class Dialogs:
    """Opens the screens over the review screen; each waits for the runs to be in.

    `index` holds the rows shown: what an export writes, where a stale entry's run is
    brought; `showing` shows a run whose stale entry was applied."""

    def __init__(self, screen: DialogsHost, index: RunIndex, showing: Showing) -> None:
        self.screen = screen
        self.index = index
        self.showing = showing

    def _loading(self) -> bool:
        """Whether the runs are still loading (then say so)."""
        if self.screen.review is None:
            self.screen.tell("Still loading the runs.")
            return True
        return False

    def statistics(self) -> None:
        """The statistics; a document chosen there filters the runs missing it."""
        from ..statistics import StatisticsScreen

        screen = self.screen
        if self._loading():
            return
        assert screen.review is not None

        def chosen(document: str | None) -> None:
            if document is not None:
                screen.set_filter("all", "", document)
                focus_now(screen.table)

        # A dataset's figures fill in as the engine counts them (ui/screens/counting.py).
        counting = self.showing.dataset if screen.store.in_place else None
        statistics = StatisticsScreen(screen.store, screen.review, screen.documents.docs, counting)
        screen.app.push_screen(statistics, chosen)

    def export(self) -> None:
        """The export dialog, over the runs shown."""
        from ..export import ExportDialog

        screen = self.screen
        if self._loading():
            return
        assert screen.review is not None

        def finished(message: str | None) -> None:
            if message:
                screen.tell(message, title="Export")

        dialog = ExportDialog(screen.store, screen.review, self.index.rows, not self.index.is_plain())
        screen.app.push_screen(dialog, finished)

    def stale(self) -> None:
        """The journal entries held aside because their run changed; one chosen is brought into view."""
        from ..stale import StaleEntries

        screen = self.screen
        if self._loading():
            return
        assert screen.review is not None
        if not screen.review.stale:
            screen.tell("No stale journal entries: every entry matches its run as it is now.")
            return

        def closed(row: int | None) -> None:
            if row is not None:
                self.index.bring_into_view(row)

        screen.app.push_screen(StaleEntries(screen.review, self.showing.changed_run), closed)

    def help(self) -> None:
        """Every key of the screen, by section."""
        from ..help import HelpScreen

        self.screen.app.push_screen(HelpScreen(list(key_help(self.screen.app))))
