"""The rows the review screen shows: its filter applied to the runs, in the reviewer's order
(by a column, see navigation.py; in file order; or a spot-check's in sample order).

The index is derived from the screen's filter (view, search, missing document,
spot-check) by the core's `filter_rows`. A run whose stage changes under the cursor
stays in the index (it is *sticky*) until the cursor leaves it or the filter changes,
so a reviewer never loses the run they are looking at. A search that only grew longer
looks only among the runs that matched before.
"""

from __future__ import annotations

import threading
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ....core.analysis.filtering import REVEALING_VIEWS, filter_rows, narrows, parse_query, row_matches
from ....core.analysis.sorting import FILE_ORDER, sort_rows
from ....core.analysis.source_sorting import sort_few
from ....core.analysis.source_views import source_query, source_view
from ....core.analysis.views import BASELINE_VIEW_BY_NAME, VIEW_BY_NAME
from ....core.common.text import visible
from ...widgets.table.run_table import SORT_ARROWS
from .baseline import is_baseline_view
from .host import ReviewHost
from .in_place import find_filter, find_order, find_view, plain_again, refused
from .spot_checks import spot_check_rows

if TYPE_CHECKING:
    from ...widgets.filter_bar import FilterBar
    from .baseline import BaselineActions


def position_of(rows: Sequence[int], row: int, in_file_order: bool) -> int | None:
    """Where `row` stands in `rows`, or None if it is not there."""
    if in_file_order:
        at = bisect_left(rows, row)
        return at if at < len(rows) and rows[at] == row else None
    try:
        return rows.index(row)
    except ValueError:
        return None


class IndexHost(ReviewHost, Protocol):
    """What the index uses of the review screen, beyond `ReviewHost`: its filter, order and filter bar."""

    @property
    def sort_column(self) -> str:
        """The column the runs are sorted by."""
        ...

    @property
    def sort_direction(self) -> int:
        """`sorting.ASCENDING`, `DESCENDING` or `FILE_ORDER`."""
        ...

    @property
    def view(self) -> str:
        """The active view (a `views.VIEWS` or `views.BASELINE_VIEWS` name)."""
        ...

    @property
    def search(self) -> str:
        """Text the runs must contain."""
        ...

    @property
    def missing_doc(self) -> str | None:
        """Only runs missing this document, or None."""
        ...

    @property
    def spot_check(self) -> str | None:
        """The spot-check whose runs are shown, or None."""
        ...

    @property
    def is_mounted(self) -> bool:
        """Whether the screen's widgets are there to show the index."""
        ...

    @property
    def filter_bar(self) -> FilterBar:
        """The bar that shows the filter and how many runs pass it."""
        ...

    def set_reactive(self, reactive: Any, value: Any) -> None:
        """Set a reactive without calling its watchers (Textual's `DOMNode.set_reactive`)."""
        ...


class RunIndex:
    """The rows the run table shows, computed afresh when the filter or the order changes."""

    def __init__(self, screen: IndexHost, baselines: BaselineActions) -> None:
        self.screen = screen
        self.baselines = baselines  # the baseline views' runs
        self.rows: list[int] | array[int] | range = range(0)  # an array: a dataset's view
        self.sticky: int | None = None  # a changed run kept in view while the cursor is on it
        self._narrowing: tuple[str, str, str | None] | None = None  # the filter the rows were found by
        self._typed = threading.Event()  # set on enter: a dataset's filter is scanned without waiting
        self.mounting = False
        """True while a load that ended early is shown from the screen's `on_mount` (see
        `Loading.start`): its widgets are there, though Textual counts it mounted only after."""

    def is_plain(self) -> bool:
        """Whether every run is shown: the view "all", no search, no document, no spot-check."""
        screen = self.screen
        return (
            screen.view == "all"
            and not screen.search
            and screen.missing_doc is None
            and screen.spot_check is None
        )

    @property
    def in_file_order(self) -> bool:
        """Whether the rows stand in file order (not sorted, not a spot-check's sample order)."""
        return self.screen.sort_direction == FILE_ORDER and self.screen.spot_check is None

    def sorted_rows(self, rows: list[int]) -> list[int]:
        """`rows` (in file order) in the order the reviewer chose. Over a dataset only a
        spot-check's few are sorted here; a view's order is the engine's (`show_every_run`), and
        a run brought into it stays where it was put."""
        screen = self.screen
        if screen.sort_direction == FILE_ORDER or screen.review is None:
            return rows
        if not screen.store.in_place:
            return sort_rows(screen.store, screen.review, rows, screen.sort_column, screen.sort_direction)
        if screen.spot_check is None:
            return rows
        return sort_few(screen.store, screen.review, rows, screen.sort_column, screen.sort_direction)

    def order_text(self) -> str | None:
        """The order shown in the filter bar, e.g. 'stage ▼'; None in file order."""
        if self.screen.sort_direction == FILE_ORDER:
            return None
        return f"{self.screen.sort_column} {SORT_ARROWS[self.screen.sort_direction]}"

    def show_state(self) -> None:
        """Show the view, filter, order and count in the filter bar."""
        screen = self.screen
        view = VIEW_BY_NAME.get(screen.view) or BASELINE_VIEW_BY_NAME[screen.view]
        pending = screen.review is None and not self.is_plain()
        title = view.title
        if screen.spot_check is not None:
            within = "" if screen.view == "all" else f" · {title}"
            title = f"Spot-check {visible(screen.spot_check)}{within}"
        screen.filter_bar.show_state(
            view.key,
            title,
            screen.missing_doc,
            None if pending else len(self.rows),
            len(screen.store),
            order=self.order_text(),
        )

    def arrived(self, count: int) -> None:
        """While loading: the plain view shows the `count` runs read so far; in blind mode
        none (the review that hides their labels is not open yet: blind is never shown)."""
        if self.is_plain() and not self.screen.options.blind:
            table = self.screen.table
            cursor = table.cursor
            self.rows = range(count)
            table.show_rows(self.screen.store, None, self.rows, cursor, retell=False)
        self.show_state()

    def refilter(self) -> None:
        """Compute the index afresh, the cursor staying on its run if the run is still in."""
        screen = self.screen
        if not (screen.is_mounted or self.mounting):
            return
        review = screen.review
        if review is None:  # applied once loading ends
            self.show_state()
            return
        if screen.store.in_place and screen.spot_check is None:
            self.show_every_run()
            return
        old_row = screen.table.cursor_row
        self.rows = self.sorted_rows(self._filtered_rows())
        in_file_order = self.in_file_order
        cursor = 0
        if old_row is not None:
            at = position_of(self.rows, old_row, in_file_order)
            cursor = at if at is not None else bisect_left(self.rows, old_row) if in_file_order else 0
        screen.table.show_rows(screen.store, review, self.rows, cursor)
        self.show_state()

    def show_every_run(self) -> None:
        """A dataset read in place: every run, in dataset order, or a view or filter its engine
        finds, sorted as the reviewer chose (in a worker: `view_found` shows it); a filter the
        engine cannot find is refused (in_place.py) and the screen's filter set back to none."""
        screen = self.screen
        view, review = screen.view, screen.review
        assert review is not None
        if screen.missing_doc is None and (screen.search or view == "unreviewed"):
            query = source_query(screen.store, review, view, parse_query(screen.store, screen.search))
            if query is not None:
                search = screen.search
                self._typed = threading.Event()
                find_filter(screen, query, lambda rows: self.view_found(view, rows, search), self._typed)
                return
        elif screen.missing_doc is None and view != "all" and source_view(screen.store, review, view):
            find_view(screen, view, self.view_found)
            return
        refusal = "blind" if review.blind and view in REVEALING_VIEWS else "filter"
        if not self.is_plain() and refused(screen, refusal):
            plain_again(screen)
        if screen.sort_direction != FILE_ORDER:
            self.view_found("all", range(len(screen.store)))
            return
        old_row = screen.table.cursor_row
        self.rows = range(len(screen.store))
        self.sticky = None
        screen.table.show_rows(screen.store, screen.review, self.rows, old_row or 0)
        self.show_state()

    def filter_typed(self) -> None:
        """The reviewer pressed enter in the filter: a dataset's filter waiting for the next key
        is scanned now (one already scanning or shown is left as it is)."""
        self._typed.set()

    def view_found(self, view: str, rows: Sequence[int], search: str = "") -> None:
        """A dataset's view (filtered by `search`) came from its engine: shown (sorted first, by
        the engine too, when the reviewer chose an order), unless the reviewer has moved on."""
        screen = self.screen
        if (view, search) != (screen.view, screen.search) or screen.missing_doc is not None:
            return
        if not screen.is_mounted:
            return
        if screen.sort_direction == FILE_ORDER:
            self.show_found(rows, screen.table.cursor_row)
            return
        order = (view, search, screen.sort_column, screen.sort_direction)

        def ordered(found: Sequence[int]) -> None:
            now = (screen.view, screen.search, screen.sort_column, screen.sort_direction)
            if now == order and screen.missing_doc is None and screen.is_mounted:
                self.show_found(found, screen.table.cursor_row)

        find_order(screen, rows, screen.sort_column, screen.sort_direction, ordered)

    def show_found(self, rows: Sequence[int], old_row: int | None) -> None:
        """Show a dataset's rows the engine found, the cursor on `old_row` if they hold it, else
        (in file order) on the run after it, as `refilter` places it over a file."""
        at = None if old_row is None else position_of(rows, old_row, self.in_file_order)
        if at is None and old_row is not None and self.in_file_order:
            at = min(bisect_left(rows, old_row), max(len(rows) - 1, 0))
        self.rows, self.sticky = rows, None  # type: ignore[assignment]
        self.screen.table.show_rows(self.screen.store, self.screen.review, rows, at or 0)
        self.show_state()

    def _filtered_rows(self) -> list[int]:
        """The rows that pass the filter, in file order (a spot-check's: in sample order)."""
        screen, review = self.screen, self.screen.review
        assert review is not None
        key = (screen.view, screen.search, screen.missing_doc)
        within = None
        previous = self._narrowing
        if (
            previous is not None
            and self.sticky is None
            and previous[0::2] == key[0::2]
            and narrows(previous[1], key[1])
            and isinstance(self.rows, list)
            and screen.spot_check is None
        ):
            within = self.rows  # the query only grew longer: search what matched before
        self._narrowing = key
        self.sticky = None
        view, baseline = screen.view, self.baselines.baseline
        if is_baseline_view(view) and baseline is not None:  # the baseline's rows, then the rest
            view, within = "all", within if within is not None else baseline.rows(view, screen.store.stage)
        if screen.spot_check is not None and screen.spot_check in review.spot_checks:
            screen.store.resolve_ids(review.spot_checks[screen.spot_check].runs)  # a dataset: one query
            return [row for row in spot_check_rows(review, screen.spot_check) if self.matches(row)]
        return filter_rows(screen.store, review, view, screen.search, screen.missing_doc, within=within)

    def matches(self, row: int) -> bool:
        """Whether one row passes the current filter (for a run that changed)."""
        screen = self.screen
        assert screen.review is not None
        view, baseline = screen.view, self.baselines.baseline
        if is_baseline_view(view):
            if baseline is None or not baseline.matches(row, view, screen.store.stage):
                return False
            view = "all"
        return row_matches(screen.store, screen.review, row, view, screen.search, screen.missing_doc)

    def release_sticky(self, row_now: int | None) -> None:
        """The cursor left a run that changed: drop it if it no longer matches."""
        sticky, self.sticky = self.sticky, None
        if sticky is None or sticky == row_now or self.matches(sticky):
            return
        if isinstance(self.rows, range):  # every run was shown: now all but one
            self.rows = array("q", self.rows)
        at = position_of(self.rows, sticky, self.in_file_order)
        if at is not None:
            del self.rows[at]
            table = self.screen.table
            cursor = table.cursor - (at < table.cursor)
            table.show_rows(self.screen.store, self.screen.review, self.rows, cursor)
            self.show_state()

    def cursor_moved(self, row: int | None) -> None:
        """The cursor is on `row` now: a changed run it left may leave the index."""
        if self.sticky is not None and self.sticky != row:
            self.release_sticky(row)

    def bring_into_view(self, row: int) -> None:
        """Put the cursor on `row`, adding it to the index if the filter hides it."""
        self.release_sticky(row)
        rows = self.rows
        in_file_order = self.in_file_order
        at = position_of(rows, row, in_file_order)
        if at is None:
            rows = rows if isinstance(rows, (list, array)) else list(rows)  # a dataset's: no copy
            rows.insert(bisect_left(rows, row) if in_file_order else len(rows), row)
            rows = self.sorted_rows(rows)
            at = position_of(rows, row, in_file_order)
            assert at is not None
        self.rows = rows
        self.screen.table.show_rows(self.screen.store, self.screen.review, rows, at)
        self.show_state()
