"""Labelling actions of the review screen: y, n, space, backspace, c and ctrl+z.

Each change goes through the core's `Review` (one run re-diagnosed, journaled
and fsynced), then the row, the detail pane and the summary are redrawn. When
the journal cannot be written the change stays on screen, marked unsaved.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...core.journal import JournalError
from ...core.review import Review
from ...core.store import S_INVALID

if TYPE_CHECKING:
    from ...core.store import RunStore
    from ..widgets.run_table import RunTable


class LabellingActions:
    """Mixed into `ReviewScreen`, which provides the attributes below."""

    store: RunStore
    review: Review | None
    rows: list[int] | range
    _sticky: int | None

    if TYPE_CHECKING:
        table: RunTable

        def tell(self, message: str, **options: Any) -> None: ...
        def _show_detail(self) -> None: ...
        def _show_summary(self, loading: bool = False) -> None: ...
        def _show_filter_state(self) -> None: ...
        def _release_sticky(self, row_now: int | None) -> None: ...

    def _editable_row(self) -> int | None:
        """The run under the cursor if it can be changed now, else None (and say why)."""
        row = self.table.cursor_row
        if self.review is None:
            self.tell("Still loading the runs; labels can be set in a moment.")
            return None
        if row is None:
            return None
        if self.store.stage[row] == S_INVALID:
            self.tell(
                f"Line {self.store.lines[row]} is not a valid run, so it cannot be labelled.",
                severity="warning",
            )
            return None
        return row

    def change_run(self, change: Callable[[Review, int], None]) -> None:
        """Apply one change to the run under the cursor, then show it everywhere."""
        row = self._editable_row()
        if row is None or self.review is None:
            return
        try:
            change(self.review, row)
        except JournalError as exc:
            self._not_saved(exc)
        self._run_changed(row)

    def _not_saved(self, exc: JournalError) -> None:
        self.tell(
            f"{exc}. The change is kept on screen and marked ! (not saved).",
            title="NOT SAVED",
            severity="error",
            timeout=30,
        )

    def _run_changed(self, row: int) -> None:
        self._sticky = row
        self.table.refresh_run(row)
        self._show_detail()
        self._show_summary()

    def action_label_correct(self) -> None:
        self.change_run(lambda review, row: review.set_label(row, True))

    def action_label_incorrect(self) -> None:
        self.change_run(lambda review, row: review.set_label(row, False))

    def action_toggle_label(self) -> None:
        self.change_run(Review.toggle_label)

    def action_clear_label(self) -> None:
        self.change_run(Review.clear_label)

    def action_edit_note(self) -> None:
        from .note import NoteDialog

        row = self._editable_row()
        if row is None or self.review is None:
            return
        note = self.review.note(row)

        def save(text: str | None) -> None:
            if text is not None and text != note and self.table.cursor_row == row:
                self.change_run(lambda review, row: review.set_note(row, text))

        self.app.push_screen(NoteDialog(self.store.ids[row], note), save)

    def action_undo(self) -> None:
        review = self.review
        if review is None:
            return
        try:
            row = review.undo()
        except JournalError as exc:  # undone in memory, but the journal did not take it
            self._not_saved(exc)
            row = exc.row
        if row is None:
            self.tell("Nothing to undo.")
            return
        self._bring_into_view(row)
        self._run_changed(row)

    def _bring_into_view(self, row: int) -> None:
        """Put the cursor on `row`, adding it to the index if the filter hides it."""
        self._release_sticky(row)
        rows = self.rows if isinstance(self.rows, list) else list(self.rows)
        at = bisect_left(rows, row)
        if at == len(rows) or rows[at] != row:
            rows.insert(at, row)
        self.rows = rows
        self.table.show_rows(self.store, self.review, rows, at)
        self._show_filter_state()
