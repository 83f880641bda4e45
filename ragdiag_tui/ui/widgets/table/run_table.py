"""RunTable: the runs that pass the filter, drawn only a screenful at a time.

The table holds no object per run. It is given the store, the review and an
index (row numbers in file order) and draws each visible line from the store's
columns on demand, so moving the cursor costs the same on the last of a
million rows as on the first. Toolong's log view is the model. The columns'
widths and header live in `table_columns.Columns`, a line's cells in
`run_cells.RunCells`; the table keeps the cursor and the scrolling.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Size
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ....core.analysis.sorting import FILE_ORDER
from ....core.common.text import visible
from ..stages import STAGE_STYLE_CLASSES
from .run_cells import RunCells
from .table_columns import SORT_ARROWS, Columns, fit

if TYPE_CHECKING:
    from ....core.review.state import Review
    from ....core.runs.store import RunStore

__all__ = ["SORT_ARROWS", "RunTable"]  # SORT_ARROWS: the screens name the sort order with it


class RunTable(ScrollView, can_focus=True):
    """A cursor over an index of rows; posts `CursorMoved` when the run under it changes."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "run-table--header",
        "run-table--cursor",
        "run-table--muted",
        "run-table--reviewer",
        "run-table--lucky",
        "run-table--unsaved",
        "run-table--conflict",
        "run-table--held",
        *STAGE_STYLE_CLASSES,
    }

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "cursor_up", "Up", show=False),
        Binding("down,j", "cursor_down", "Down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home", "first", "First run", show=False),
        Binding("end", "last", "Last run", show=False),
    ]

    class CursorMoved(Message):
        """The run under the cursor changed (row is None when the index is empty)."""

        def __init__(self, table: RunTable, row: int | None, index: int) -> None:
            super().__init__()
            self.table = table
            self.row = row
            self.index = index

        @property
        def control(self) -> RunTable:
            return self.table

    class HeaderClicked(Message):
        """The reviewer clicked the title of `column` (a `sorting.SORT_COLUMNS` name)."""

        def __init__(self, column: str) -> None:
            super().__init__()
            self.column = column

    cursor: var[int] = var(0, init=False)
    """The cursor's position in `rows` (not a row number); always a valid position, or 0."""

    def __init__(
        self, *, empty_message: str = "No runs.", id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.store: RunStore | None = None
        self.review: Review | None = None
        self.rows: Sequence[int] = ()
        self.empty_message = empty_message
        self.held: dict[int, str] = {}
        """Rows other reviewers are on (a shared store), row -> reviewer."""
        self._last_posted: int | None = -1
        self._wrapped: tuple[tuple[str, int], list[str]] = (("", -1), [])
        self.sort_column = "id"
        self.sort_direction = FILE_ORDER
        self.was: bytearray | None = None
        """With a baseline: each row's stage there (`core.baseline`), shown as the `was` column."""
        self._columns = Columns()
        self._cells = RunCells(self.get_component_rich_style)

    @property
    def extra_columns(self) -> bool | None:
        """Show the tags, recall and precision columns: None when the width allows."""
        return self._columns.extra

    @extra_columns.setter
    def extra_columns(self, shown: bool | None) -> None:
        self._columns.extra = shown

    @property
    def columns(self) -> tuple[tuple[str, int, bool], ...]:
        """(title, width, right-aligned) of each column, shown or not."""
        return self._columns.columns

    @property
    def sort_columns(self) -> tuple[str | None, ...]:
        """The sort column of each column (None: a column not sorted by)."""
        return self._columns.sort_columns

    def toggle_extra_columns(self) -> bool:
        """Show the tags, recall and precision columns if hidden, hide them if shown."""
        shown = self._columns.toggle_extra(self.scrollable_content_region.width)
        self.refresh()
        return shown

    def show_sort(self, column: str, direction: int) -> None:
        """Mark the sorted column's title (the rows come sorted already)."""
        self.sort_column, self.sort_direction = column, direction
        self.refresh_lines(0)

    # -- state in -------------------------------------------------------------

    def show_was(self, was: bytearray | None) -> None:
        """Show (or, with None, hide) the `was` column."""
        self.was = was
        self._columns.show_was(was is not None)
        self.refresh()

    def show_rows(
        self,
        store: RunStore,
        review: Review | None,
        rows: Sequence[int],
        cursor: int = 0,
        *,
        retell: bool = True,
    ) -> None:
        """Show `rows` (row numbers) with the cursor at position `cursor`. The run under
        the cursor is told afresh, moved or not, unless `retell` is False (more rows of
        the same index arrived while loading: the run shown is the same)."""
        self.store, self.review, self.rows = store, review, rows
        self._columns.widen_for(store)
        self._update_virtual_size()
        self.refresh()
        if retell:
            self._last_posted = -1
        self.cursor = cursor
        self._scroll_cursor_into_view()
        self._post_cursor()

    @property
    def cursor_row(self) -> int | None:
        """The row number under the cursor, if any."""
        return self.rows[self.cursor] if self.rows else None

    def refresh_run(self, row: int) -> None:
        """Redraw one run's line, if it is the one under the cursor or on screen."""
        if self.cursor_row == row:
            self.refresh_lines(self.cursor + 1)
        else:
            self.refresh()

    def validate_cursor(self, index: int) -> int:
        return max(0, min(index, len(self.rows) - 1))

    def watch_cursor(self, old: int, new: int) -> None:
        self.refresh_lines(old + 1)
        self.refresh_lines(new + 1)
        self._scroll_cursor_into_view()
        self._post_cursor()

    # -- sizing and scrolling -------------------------------------------------

    def _message_lines(self, width: int) -> list[str]:
        """The empty message wrapped to `width`: a failed load's reason carries a long path."""
        key = (self.empty_message, width)
        if self._wrapped[0] != key:
            lines = Content(visible(self.empty_message)).wrap(max(1, width - 2))
            self._wrapped = (key, [f" {line.plain}" for line in lines])
        return self._wrapped[1]

    def _update_virtual_size(self) -> None:
        # The header, then a line per run (or the lines of the empty message).
        width = self.scrollable_content_region.width
        height = (len(self.rows) or len(self._message_lines(width))) + 1
        grew_or_shrank = height != self.virtual_size.height
        self.virtual_size = Size(width, height)
        if grew_or_shrank and self.styles.height is not None and self.styles.height.is_auto:
            self.refresh(layout=True)  # the narrow layout sizes the table to its runs

    def on_resize(self, event: events.Resize) -> None:
        self._update_virtual_size()
        self._scroll_cursor_into_view()

    @property
    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - 1)

    def _scroll_cursor_into_view(self) -> None:
        top = round(self.scroll_offset.y)
        if self.cursor < top:
            self.scroll_to(y=self.cursor, animate=False)
        elif self.cursor >= top + self._page:
            self.scroll_to(y=self.cursor - self._page + 1, animate=False)

    def _post_cursor(self) -> None:
        row = self.cursor_row
        if row != self._last_posted:
            self._last_posted = row
            self.post_message(self.CursorMoved(self, row, self.cursor))

    # -- actions --------------------------------------------------------------

    def action_cursor_up(self) -> None:
        self.cursor -= 1

    def action_cursor_down(self) -> None:
        self.cursor += 1

    def action_page_up(self) -> None:
        self.cursor -= self._page

    def action_page_down(self) -> None:
        self.cursor += self._page

    def action_first(self) -> None:
        self.cursor = 0

    def action_last(self) -> None:
        self.cursor = len(self.rows) - 1

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        if offset.y == 0:
            self._header_clicked(offset.x)
            return
        self.cursor = round(self.scroll_offset.y) + offset.y - 1

    # -- drawing --------------------------------------------------------------

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.refresh()

    def _style(self, name: str) -> Style:
        # The full style, not the partial one: a partial style cannot resolve
        # "auto" colours such as $text-muted (they come out white on a light theme).
        return self.get_component_rich_style(f"run-table--{name}")

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style
        if y == 0:
            return self._header(width)
        index = round(self.scroll_offset.y) + y - 1
        if not self.rows:
            message = self._message_lines(width)
            if index < len(message):
                return Strip([Segment(fit(message[index], width), base + self._style("muted"))], width)
            return Strip.blank(width, base)
        if index >= len(self.rows):
            return Strip.blank(width, base)
        assert self.store is not None
        cells = self._cells.line(
            self.store,
            self.review,
            self.rows[index],
            held=self.held,
            was=self.was,
            reason_tags=getattr(self.app, "reason_tags", ()),
            metrics=self._columns.metrics_shown,
        )
        if index == self.cursor:
            cursor = self.get_component_rich_style("run-table--cursor")
            if not self.has_focus:
                cursor += Style(dim=True)
            cells = [(text, Style()) for text, _ in cells]
            base = base + cursor
        return self._columns.line(cells, width, base)

    def _header(self, width: int) -> Strip:
        style = self.rich_style + self.get_component_rich_style("run-table--header")
        text = self._columns.header(width, self.sort_column, self.sort_direction)
        return Strip([Segment(text, style)]).adjust_cell_length(width, style)

    def _header_clicked(self, x: int) -> None:
        column = self._columns.sort_column_at(x, self.scrollable_content_region.width)
        if column is not None:
            self.post_message(self.HeaderClicked(column))
