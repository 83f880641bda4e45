"""Labelling the run under the cursor: y, n, space, backspace, c and ctrl+z.

Each change goes through the core's `Review` (one run re-diagnosed, journaled
and fsynced), then the screen shows the changed run everywhere. When the journal
cannot be written the change stays on screen, marked unsaved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ....core.review.records import JournalError
from ....core.review.state import Review
from ....core.runs.stages import S_INVALID

if TYPE_CHECKING:
    from .host import ReviewHost
    from .run_index import RunIndex
    from .showing import Showing


class Labelling:
    """The review screen's labelling actions, on the run under the cursor.

    A changed run is shown by `showing`; an undone one is brought into view by `index`;
    `labelled(row)` is called after a label is set on `row` (to move on, say)."""

    def __init__(
        self, screen: ReviewHost, index: RunIndex, showing: Showing, labelled: Callable[[int], None]
    ) -> None:
        self.screen = screen
        self.index = index
        self.showing = showing
        self.labelled = labelled

    def editable_row(self) -> int | None:
        """The run under the cursor if it can be changed now, else None (and say why)."""
        screen = self.screen
        row = screen.table.cursor_row
        if screen.review is None:
            screen.tell("Still loading the runs; labels can be set in a moment.")
            return None
        if row is None:
            return None
        if screen.store.stage[row] == S_INVALID:
            screen.tell(
                f"Line {screen.store.lines[row]} is not a valid run, so it cannot be labelled.",
                severity="warning",
            )
            return None
        return row

    def change_run(self, change: Callable[[Review, int], None]) -> None:
        """Apply one change to the run under the cursor, then show it everywhere."""
        row = self.editable_row()
        review = self.screen.review
        if row is None or review is None:
            return
        try:
            change(review, row)
        except JournalError as exc:
            self.not_saved(exc)
        self.showing.changed_run(row)

    def not_saved(self, exc: JournalError) -> None:
        self.screen.tell(
            f"{exc}. The change is kept on screen and marked ! (not saved).",
            title="NOT SAVED",
            severity="error",
            timeout=30,
        )

    def set_label(self, label: bool) -> None:
        self._label(lambda review, row: review.set_label(row, label))

    def toggle_label(self) -> None:
        self._label(Review.toggle_label)

    def _label(self, change: Callable[[Review, int], None]) -> None:
        row = self.screen.table.cursor_row
        self.change_run(change)
        if row is not None:
            self.labelled(row)

    def clear_label(self) -> None:
        self.change_run(Review.clear_label)

    def edit_note(self) -> None:
        from ..note import NoteDialog

        screen = self.screen
        row = self.editable_row()
        if row is None or screen.review is None:
            return
        note = screen.review.note(row)

        def save(text: str | None) -> None:
            if text is not None and text != note and screen.table.cursor_row == row:
                self.change_run(lambda review, row: review.set_note(row, text))

        screen.app.push_screen(NoteDialog(screen.store.ids[row], note), save)

    def undo(self) -> None:
        screen = self.screen
        review = screen.review
        if review is None:
            return
        try:
            row = review.undo()
        except JournalError as exc:  # undone in memory, but the journal did not take it
            self.not_saved(exc)
            row = exc.row
        if row is None:
            screen.tell("Nothing to undo.")
            return
        self.index.bring_into_view(row)
        self.showing.changed_run(row)
