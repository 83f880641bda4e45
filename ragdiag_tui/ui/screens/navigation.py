"""Moving and ordering in the review screen: sorting by any column, jumping to the next
unreviewed run, moving between runs in the full-size detail, and moving on after a label.

Sorting keys: `o` cycles the sort column's order (ascending, descending, file order),
`<` and `>` sort by the previous or next column; a click on a column's title cycles it.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ...core.analysis.sorting import ASCENDING, DESCENDING, FILE_ORDER, SORT_COLUMNS, sort_rows
from ..widgets.run_table import SORT_ARROWS

if TYPE_CHECKING:
    from .review import ReviewScreen

NEXT_ORDER = {ASCENDING: DESCENDING, DESCENDING: FILE_ORDER, FILE_ORDER: ASCENDING}


def position_of(rows: Sequence[int], row: int, in_file_order: bool) -> int | None:
    """Where `row` stands in `rows`, or None if it is not there."""
    if in_file_order:
        at = bisect_left(rows, row)
        return at if at < len(rows) and rows[at] == row else None
    try:
        return rows.index(row)
    except ValueError:
        return None


class Navigation:
    """The review screen's sorting and moving; it uses only the screen's public members."""

    def __init__(self, screen: ReviewScreen) -> None:
        self.screen = screen

    # -- sorting ----------------------------------------------------------------

    @property
    def in_file_order(self) -> bool:
        """Whether the rows stand in file order (not sorted, not a spot-check's sample order)."""
        return self.screen.sort_direction == FILE_ORDER and self.screen.spot_check is None

    def sorted_rows(self, rows: list[int]) -> list[int]:
        """`rows` (in file order) in the order the reviewer chose."""
        screen = self.screen
        if screen.sort_direction == FILE_ORDER or screen.review is None:
            return rows
        return sort_rows(screen.store, screen.review, rows, screen.sort_column, screen.sort_direction)

    def order_text(self) -> str | None:
        """The order shown in the filter bar, e.g. 'stage ▼'; None in file order."""
        if self.screen.sort_direction == FILE_ORDER:
            return None
        return f"{self.screen.sort_column} {SORT_ARROWS[self.screen.sort_direction]}"

    def sort_by(self, column: str, direction: int) -> None:
        screen = self.screen
        if screen.review is None:
            screen.tell("Still loading the runs; sorting is ready in a moment.")
            return
        screen.sort_column, screen.sort_direction = column, direction
        screen.table.show_sort(column, direction)
        screen.refilter()

    def cycle_order(self) -> None:
        self.sort_by(self.screen.sort_column, NEXT_ORDER[self.screen.sort_direction])

    def step_column(self, step: int) -> None:
        """Sort by the column `step` places on (in file order: the sort column itself)."""
        column = self.screen.sort_column
        if self.screen.sort_direction != FILE_ORDER:
            column = SORT_COLUMNS[(SORT_COLUMNS.index(column) + step) % len(SORT_COLUMNS)]
        self.sort_by(column, ASCENDING)

    def header_clicked(self, column: str) -> None:
        if column == self.screen.sort_column:
            self.cycle_order()
        else:
            self.sort_by(column, ASCENDING)

    # -- moving -------------------------------------------------------------------

    def jump_unreviewed(self, step: int) -> None:
        """Move to the next (step 1) or previous (-1) unreviewed run of the view, wrapping."""
        screen = self.screen
        if screen.review is None or not screen.rows:
            return
        found = self.find_unreviewed(screen.table.cursor, step)
        if found is None:
            screen.tell("Every run in this view is reviewed.", title="Nothing left")
            return
        index, wrapped = found
        if wrapped:
            screen.tell("Back at the top of the view." if step > 0 else "Back at the bottom of the view.")
        screen.table.cursor = index

    def find_unreviewed(self, start: int, step: int) -> tuple[int, bool] | None:
        """(position, wrapped) of the first unreviewed run `step`-wise from `start`, or None.

        Runs another reviewer is on (a shared store's reservations) are skipped: two
        reviewers working one spot-check are handed different runs."""
        screen = self.screen
        review, rows = screen.review, screen.rows
        assert review is not None
        is_reviewed, is_valid = review.is_reviewed, screen.store.is_valid
        held = screen.live.held() if screen.live is not None else {}  # runs others are on
        count = len(rows)
        for offset in range(1, count + 1):
            index = (start + step * offset) % count
            row = rows[index]
            if is_valid(row) and not is_reviewed(row) and row not in held:
                return index, (index <= start) if step > 0 else (index >= start)
        return None

    # -- moving on after a label -------------------------------------------------------

    def toggle_auto_advance(self) -> None:
        screen = self.screen
        screen.auto_advance = not screen.auto_advance
        if screen.auto_advance:
            screen.tell("Auto-advance on: after a label, the cursor moves to the next unreviewed run.")
        else:
            screen.tell("Auto-advance off.")
        screen.show_summary()

    def moves_on(self) -> bool:
        """Whether a label moves the cursor on: always in a spot-check, else when toggled on."""
        return self.screen.auto_advance or self.screen.in_spot_check()

    def labelled(self, row: int) -> None:
        """After a label on `row`: on to the next unreviewed run, if the reviewer wants that."""
        screen = self.screen
        if not self.moves_on() or screen.table.cursor_row != row:
            return
        if screen.review is None or not screen.review.is_reviewed(row):
            return
        found = self.find_unreviewed(screen.table.cursor, 1)
        if found is not None:
            screen.table.cursor = found[0]
        elif screen.in_spot_check():
            screen.tell("Every run of the spot-check is reviewed.", title="Spot-check done")
