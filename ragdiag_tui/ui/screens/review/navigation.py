"""Moving and ordering in the review screen: sorting by any column, jumping to the next
unreviewed run, and moving on after a label. Unreviewed is *by this reviewer*
(core.analysis.progress): a second reviewer is led through the runs a first one labelled.

Sorting keys: `o` cycles the sort column's order (ascending, descending, file order),
`<` and `>` sort by the previous or next column; a click on a column's title cycles it.
The run index (run_index.py) puts the rows in the order chosen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from ....core.analysis.progress import unreviewed_by_me
from ....core.analysis.sorting import ASCENDING, DESCENDING, FILE_ORDER, SORT_COLUMNS
from .host import ReviewHost

if TYPE_CHECKING:
    from .run_index import RunIndex
    from .showing import Showing

NEXT_ORDER = {ASCENDING: DESCENDING, DESCENDING: FILE_ORDER, FILE_ORDER: ASCENDING}


class NavigationHost(ReviewHost, Protocol):
    """What sorting and moving use of the review screen, beyond `ReviewHost`."""

    sort_column: str
    sort_direction: int
    auto_advance: bool

    @property
    def spot_check(self) -> str | None:
        """The spot-check shown, or None."""
        ...


class Navigation:
    """The review screen's sorting and moving, over the rows of `index`.

    `showing` shows the counts (with the auto-advance flag); `held` tells which runs other
    reviewers are on now (row -> reviewer), to skip them."""

    def __init__(
        self, screen: NavigationHost, index: RunIndex, showing: Showing, held: Callable[[], dict[int, str]]
    ) -> None:
        self.screen = screen
        self.index = index
        self.showing = showing
        self.held = held

    # -- sorting ----------------------------------------------------------------

    def sort_by(self, column: str, direction: int) -> None:
        screen = self.screen
        if screen.review is None:
            screen.tell("Still loading the runs; sorting is ready in a moment.")
            return
        screen.sort_column, screen.sort_direction = column, direction
        screen.table.show_sort(column, direction)
        self.index.refilter()

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
        if screen.review is None or not self.index.rows:
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
        """(position, wrapped) of the first run this reviewer has not labelled, `step`-wise from
        `start`, or None.

        Runs another reviewer is on (a shared store's reservations) are skipped: two
        reviewers working one spot-check are handed different runs."""
        screen = self.screen
        review, rows = screen.review, self.index.rows
        assert review is not None
        unreviewed, is_valid = unreviewed_by_me(review), screen.store.is_valid
        held = self.held()  # runs others are on
        count = len(rows)
        for offset in range(1, count + 1):
            index = (start + step * offset) % count
            row = rows[index]
            if is_valid(row) and unreviewed(row) and row not in held:
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
        self.showing.counts()

    def moves_on(self) -> bool:
        """Whether a label moves the cursor on: always in a spot-check, else when toggled on."""
        return self.screen.auto_advance or self.screen.spot_check is not None

    def labelled(self, row: int) -> None:
        """After a label on `row`: on to the next unreviewed run, if the reviewer wants that."""
        screen = self.screen
        if not self.moves_on() or screen.table.cursor_row != row:
            return
        if screen.review is None or unreviewed_by_me(screen.review)(row):
            return
        found = self.find_unreviewed(screen.table.cursor, 1)
        if found is not None:
            screen.table.cursor = found[0]
        elif screen.spot_check is not None:
            screen.tell("Every run of the spot-check is reviewed.", title="Spot-check done")
