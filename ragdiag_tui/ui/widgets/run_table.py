"""RunTable: the runs that pass the filter, drawn only a screenful at a time.

The table holds no object per run. It is given the store, the review and an
index (row numbers in file order) and draws each visible line from the store's
columns on demand, so moving the cursor costs the same on the last of a
million rows as on the first. Toolong's log view is the model.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len, set_cell_size
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

from ...core.analysis.baseline import NO_RUN, NOT_COMPARABLE
from ...core.analysis.filtering import LABEL_STAGE_CODES
from ...core.analysis.sorting import ASCENDING, FILE_ORDER, SORT_COLUMNS
from ...core.common.text import visible
from ...core.runs.stages import S_INVALID, S_RETRIEVAL, STAGES
from ...core.runs.store import label_value
from .stages import CONFLICT_MARK, HELD_MARK, LUCKY_MARK, STAGE_STYLE_CLASSES, STAGE_TITLES, label_word

if TYPE_CHECKING:
    from ...core.review.state import Review
    from ...core.runs.store import RunStore

MAX_ID_WIDTH = 28
# The "from" column: where the label in force comes from, in at most its 8 cells.
SOURCE_WORDS = {"adjudication": "adjudged"}
SOURCE_STYLES = {"reviewer": "reviewer", "adjudication": "reviewer", "conflict": "conflict"}
# (title, width, right-aligned); the id width is set from the data and the
# question takes what is left. The unnamed columns hold marks: reviewed (✓),
# not saved (!) and noted (✎) first, the lucky answer (★) before the question.
COLUMNS = (
    ("", 2, False),
    ("id", 0, False),
    ("stage", 11, False),
    ("label", 9, False),
    ("from", 8, False),
    ("miss", 4, True),
    ("req", 4, True),
    ("sup", 4, True),
    ("tags", 5, False),
    ("rec", 4, True),
    ("prec", 4, True),
    ("", 1, False),
    ("question", 0, False),
)
assert len(COLUMNS) == len(SORT_COLUMNS)
WIDE_ONLY_NAMES = ("tags", "recall", "precision")
WIDE_ONLY = {SORT_COLUMNS.index(name) for name in WIDE_ONLY_NAMES}
MIN_QUESTION = 60  # cells the question keeps before the tags, recall and precision columns show
SORT_ARROWS = {ASCENDING: "▲", -ASCENDING: "▼"}


WAS_COLUMN = ("was", 11, False)  # with a baseline: the stage the run had there, after `stage`
WAS_AT = 3


def fit(text: str, width: int, right: bool = False) -> str:
    """`text` padded or cut (with an ellipsis) to exactly `width` cells."""
    if width <= 0:
        return ""
    if len(text) > 4 * width:  # measure only the front of a long text (a question may be 10 MB)
        return set_cell_size(text[: 4 * width], width - 1) + "…"
    length = cell_len(text)
    if length > width:
        return set_cell_size(text, width - 1) + "…"
    pad = " " * (width - length)
    return pad + text if right else text + pad


def shown(text: str, limit: int = 4000) -> str:
    """The front of untrusted `text`, made safe: enough for any cell, cheap on a 10 MB one."""
    return visible(text[:limit])


def metric_cell(value: float) -> str:
    """A recall or precision in four cells: `0.50`, `1.00`; `none` where undefined (never 0)."""
    return "none" if value != value else f"{value:.2f}"


def count(n: int) -> str:
    """A count in at most four cells: exact to 9999, then 10k, 999k, 1.2M, 12M, 1.2G (rounded down)."""
    if n < 10_000:
        return str(n)
    if n < 1_000_000:
        return f"{n // 1_000}k"
    unit, size = ("M", 1_000_000) if n < 1_000_000_000 else ("G", 1_000_000_000)
    if n < 10 * size:
        tenths = n * 10 // size
        return f"{tenths // 10}.{tenths % 10}{unit}"
    return f"{n // size}{unit}"  # the store counts in 32 bits: at most 4.2G


def row_mark(review: Review, row: int) -> str:
    """The run's mark: not saved (!), in conflict (≠), reviewed (✓), or none."""
    if row in review.unsaved:
        return "!"
    if review.is_conflict(row):
        return CONFLICT_MARK
    return "✓" if review.is_reviewed(row) else ""


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
        self._id_width = 4
        self._widths_seen = 0
        self._last_posted: int | None = -1
        self._wrapped: tuple[tuple[str, int], list[str]] = (("", -1), [])
        self.sort_column = "id"
        self.sort_direction = FILE_ORDER
        self._metrics_shown = False  # read only when shown: the store works them out on first use
        self.extra_columns: bool | None = None
        """Show the tags, recall and precision columns: None when the width allows."""
        self.was: bytearray | None = None
        """With a baseline: each row's stage there (`core.baseline`), shown as the `was` column."""
        self.columns = COLUMNS
        self.sort_columns: tuple[str | None, ...] = SORT_COLUMNS  # None: a column not sorted by
        self._wide_only = WIDE_ONLY

    def toggle_extra_columns(self) -> bool:
        """Show the tags, recall and precision columns if hidden, hide them if shown."""
        self.extra_columns = not self._widths(self.scrollable_content_region.width)[min(self._wide_only)]
        self.refresh()
        return self.extra_columns

    def show_sort(self, column: str, direction: int) -> None:
        """Mark the sorted column's title (the rows come sorted already)."""
        self.sort_column, self.sort_direction = column, direction
        self.refresh_lines(0)

    # -- state in -------------------------------------------------------------

    def show_was(self, was: bytearray | None) -> None:
        """Show (or, with None, hide) the `was` column."""
        self.was = was
        columns, sort_columns = list(COLUMNS), list[str | None](SORT_COLUMNS)
        if was is not None:
            columns.insert(WAS_AT, WAS_COLUMN)
            sort_columns.insert(WAS_AT, None)
        self.columns, self.sort_columns = tuple(columns), tuple(sort_columns)
        self._wide_only = {sort_columns.index(name) for name in WIDE_ONLY_NAMES}
        self.refresh()

    def show_rows(
        self,
        store: RunStore,
        review: Review | None,
        rows: Sequence[int],
        cursor: int = 0,
    ) -> None:
        """Show `rows` (row numbers) with the cursor at position `cursor`."""
        self.store, self.review, self.rows = store, review, rows
        self._update_id_width()
        self._update_virtual_size()
        self.refresh()
        self._last_posted = -1  # the run under the cursor is told afresh, moved or not
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

    def _update_id_width(self) -> None:
        """Widen the id column for ids seen since last time (loads arrive in chunks)."""
        store = self.store
        if store is None or len(store) <= self._widths_seen:
            return
        new = store.ids[self._widths_seen :]
        longest = max(map(len, new), default=0)
        joined = "".join(new)
        if longest > self._id_width and not (joined.isascii() and joined.isprintable()):
            # Only ids with wide or control characters need measuring one by one; a
            # batch of printable ASCII ids (the usual million) is as wide as it is long.
            longest = max(cell_len(shown(i, 4 * MAX_ID_WIDTH)) for i in new if len(i) >= self._id_width)
        self._id_width = max(self._id_width, min(longest, MAX_ID_WIDTH))
        self._widths_seen = len(store)

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

    def _widths(self, width: int) -> list[int]:
        widths = [w for _, w, _ in self.columns]
        widths[1] = min(self._id_width, max(8, width // 5))  # leave the question room
        fixed = sum(widths) + len(widths) - 1
        extra = self.extra_columns
        if extra is None:  # automatic: only when the question keeps room enough
            extra = width - fixed >= MIN_QUESTION
        self._metrics_shown = bool(extra)
        if not extra:
            for n in self._wide_only:
                fixed -= widths[n] + 1
                widths[n] = 0
        widths[-1] = max(0, width - fixed)
        return widths

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
        cells = self._cells(self.rows[index])
        if self.was is not None:
            cells.insert(WAS_AT, self._was_cell(self.rows[index]))
        if index == self.cursor:
            cursor = self.get_component_rich_style("run-table--cursor")
            if not self.has_focus:
                cursor += Style(dim=True)
            cells = [(text, Style()) for text, _ in cells]
            base = base + cursor
        segments: list[Segment] = []
        for (text, style), cell_width, (_, _, right) in zip(
            cells, self._widths(width), self.columns, strict=True
        ):
            if not cell_width:
                continue  # a column the table is too narrow for
            if segments:
                segments.append(Segment(" ", base))
            segments.append(Segment(fit(text, cell_width, right), base + style))
        return Strip(segments).adjust_cell_length(width, base)

    def _header_clicked(self, x: int) -> None:
        start = 0
        widths = self._widths(self.scrollable_content_region.width)
        for column, cell_width in zip(self.sort_columns, widths, strict=True):
            if not cell_width:
                continue
            if start <= x < start + cell_width + 1:
                if column is not None:
                    self.post_message(self.HeaderClicked(column))
                return
            start += cell_width + 1

    def _header(self, width: int) -> Strip:
        style = self.rich_style + self.get_component_rich_style("run-table--header")
        parts = []
        widths = self._widths(width)
        titles = zip(self.columns, widths, self.sort_columns, strict=True)
        for (title, _, right), cell_width, column in titles:
            if not cell_width:
                continue
            arrow = SORT_ARROWS.get(self.sort_direction, "") if column == self.sort_column else ""
            if arrow:  # the arrow always shows; a narrow title gives way to it
                title = set_cell_size(title, max(0, cell_width - 1)).rstrip() + arrow
            parts.append(fit(title, cell_width, right))
        return Strip([Segment(" ".join(parts), style)]).adjust_cell_length(width, style)

    def _metric_cells(self, row: int) -> list[tuple[str, Style]]:
        """Recall and precision, once loaded and only while their columns show."""
        store = self.store
        if store is None or self.review is None or not self._metrics_shown:
            return [("", Style()), ("", Style())]
        muted = self._style("muted")
        return [
            (metric_cell(value), Style() if value == value else muted)
            for value in (store.recall[row], store.precision[row])
        ]

    def _tag_numbers(self, row: int) -> str:
        """The run's reason tags as their number keys (`13`); `+` for a tag not in the set."""
        if self.review is None:
            return ""
        keys = self.review.tags(row)
        if not keys:
            return ""
        numbers = {tag.key: str(tag.number) for tag in getattr(self.app, "reason_tags", ())}
        return "".join(numbers.get(key, "+") for key in keys)

    def _was_cell(self, row: int) -> tuple[str, Style]:
        assert self.was is not None
        code = self.was[row]
        if code == NO_RUN:
            return "new", self._style("muted")
        if code == NOT_COMPARABLE:
            return "≠ question", self._style("muted")
        return STAGE_TITLES[code], self.get_component_rich_style(STAGES[code].style_class)

    def _cells(self, row: int) -> list[tuple[str, Style]]:
        """The text and style of each cell of one run's line."""
        store, review = self.store, self.review
        assert store is not None
        code = store.stage[row]
        stage = (STAGE_TITLES[code], self.get_component_rich_style(STAGES[code].style_class))
        muted = self._style("muted")
        none = Style()
        if code == S_INVALID:
            error = store.errors[row]
            run_id = store.ids[row]
            return [
                ("", none),
                (shown(run_id), none) if run_id else ("—", muted),
                stage,
                ("", none),
                ("", none),
                ("", none),
                ("", none),
                ("", none),
                ("", none),
                ("", none),
                ("", none),
                ("", none),
                (shown(f"line {error.line}: {error.detail}"), muted),
            ]
        if review is None:  # still loading: the file's labels
            label = label_value(store.file_label[row])
            source, mark, noted = "file" if label is not None else "", "", ""
        elif not review.revealed(row):  # blind mode: nothing that tells a label until labelled
            return self._blind_cells(row, stage if code not in LABEL_STAGE_CODES else ("hidden", muted))
        else:
            label = review.label(row)
            source = review.label_source(row) or ""
            mark = row_mark(review, row)
            noted = "✎" if review.note(row) else ""
        lucky = label is True and code == S_RETRIEVAL
        label_style = self._style("lucky") if lucky else none
        if source == "reviewer":
            label_style = label_style + self._style("reviewer")
        n_missing = len(store.missing.get(row, ()))
        mark_style = {"!": "unsaved", CONFLICT_MARK: "conflict"}.get(mark, "reviewer")
        return [
            ((mark or " ") + noted, self._style(mark_style)),
            (shown(store.ids[row]), none),
            stage,
            (label_word(label), label_style if label is not None else muted),
            (SOURCE_WORDS.get(source, source), self._style(SOURCE_STYLES.get(source, "muted"))),
            (count(n_missing) if n_missing else "·", none if n_missing else muted),
            (count(store.n_required[row]), none),
            (count(store.n_context[row]), none),
            (self._tag_numbers(row), self._style("reviewer")),
            *self._metric_cells(row),
            (LUCKY_MARK if lucky else "", self._style("lucky")),
            self._question(row),
        ]

    def _blind_cells(self, row: int, stage: tuple[str, Style]) -> list[tuple[str, Style]]:
        """A run this reviewer has not labelled yet, in blind mode: no label, no lucky mark,
        no stage or missing count that would tell one."""
        store, muted, none = self.store, self._style("muted"), Style()
        assert store is not None
        return [
            (" ", none),
            (shown(store.ids[row]), none),
            stage,
            ("hidden", muted),
            ("", none),
            ("", none),
            (count(store.n_required[row]), none),
            (count(store.n_context[row]), none),
            ("", none),  # tags,
            ("", none),  # recall and
            ("", none),  # precision would tell whether a document is missing
            ("", none),
            self._question(row),
        ]

    def _question(self, row: int) -> tuple[str, Style]:
        """The question; led by who holds the run when another reviewer is on it."""
        assert self.store is not None
        question = shown(self.store.questions[row])
        holder = self.held.get(row)
        if holder is None:
            return question, Style()
        return f"{HELD_MARK} {shown(holder, 40)}: {question}", self._style("held")
