"""The columns of the run table: their titles and widths, the sorted column's arrow, and
which column a click on the header lands in.

The id column's width follows the ids seen so far; the question takes what is left.
The tags, recall and precision columns show only while the question keeps room enough,
unless the reviewer said otherwise (`extra`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from ....core.analysis.sorting import ASCENDING, SORT_COLUMNS
from ....core.common.text import visible

if TYPE_CHECKING:
    from ....core.runs.store import RunStore

MAX_ID_WIDTH = 28
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

Cell = tuple[str, Style]
"""A cell's text and style."""


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


def fit_id(text: str, width: int) -> str:
    """An id padded or cut to exactly `width` cells, cut in its middle: ids tell runs apart
    by their ends as much as by their fronts (`p000-run-0000001`, `part-000.parquet:12`),
    so a cut id keeps both (`p000-ru…0000001`), where `fit` would leave every one the same."""
    if width < 5 or len(text) > 4 * width or not (text.isascii() and text.isprintable()):
        return fit(text, width)  # wide or control characters: cut at the end, as cells are measured
    if len(text) <= width:
        return text + " " * (width - len(text))
    back = (width - 1) // 2
    return text[: width - 1 - back] + "…" + text[len(text) - back :]


def shown(text: str, limit: int = 4000) -> str:
    """The front of untrusted `text`, made safe: enough for any cell, cheap on a 10 MB one."""
    return visible(text[:limit])


class Columns:
    """The table's columns and their widths at a given width of the table."""

    def __init__(self) -> None:
        self.columns = COLUMNS
        self.sort_columns: tuple[str | None, ...] = SORT_COLUMNS  # None: a column not sorted by
        self.wide_only = WIDE_ONLY
        self.extra: bool | None = None
        """Show the tags, recall and precision columns: None when the width allows."""
        self.metrics_shown = False
        """Whether the recall and precision columns showed at the last `widths`."""
        self._id_width = 4
        self._widths_seen = 0

    def show_was(self, shown: bool) -> None:
        """With the `was` column (a baseline's stage) after `stage`, or without it."""
        columns, sort_columns = list(COLUMNS), list[str | None](SORT_COLUMNS)
        if shown:
            columns.insert(WAS_AT, WAS_COLUMN)
            sort_columns.insert(WAS_AT, None)
        self.columns, self.sort_columns = tuple(columns), tuple(sort_columns)
        self.wide_only = {sort_columns.index(name) for name in WIDE_ONLY_NAMES}

    def toggle_extra(self, width: int) -> bool:
        """Show the tags, recall and precision columns if hidden at `width`, hide them if shown."""
        self.extra = not self.widths(width)[min(self.wide_only)]
        return self.extra

    def widen_for(self, store: RunStore) -> None:
        """Widen the id column for ids seen since last time (loads arrive in chunks)."""
        if len(store) <= self._widths_seen:
            return
        new = store.ids[self._widths_seen :]
        longest = max(map(len, new), default=0)
        if longest > self._id_width and not ((joined := "".join(new)).isascii() and joined.isprintable()):
            # Only ids with wide or control characters need measuring one by one; a
            # batch of printable ASCII ids (the usual million) is as wide as it is long.
            longest = max(cell_len(shown(i, 4 * MAX_ID_WIDTH)) for i in new if len(i) >= self._id_width)
        self._id_width = max(self._id_width, min(longest, MAX_ID_WIDTH))
        self._widths_seen = len(store)

    def widths(self, width: int) -> list[int]:
        """Each column's width in a table `width` cells wide; 0 for a column not shown."""
        widths = [w for _, w, _ in self.columns]
        widths[1] = min(self._id_width, max(8, width // 5))  # leave the question room
        fixed = sum(widths) + len(widths) - 1
        extra = self.extra
        if extra is None:  # automatic: only when the question keeps room enough
            extra = width - fixed >= MIN_QUESTION
        self.metrics_shown = bool(extra)
        if not extra:
            for n in self.wide_only:
                fixed -= widths[n] + 1
                widths[n] = 0
        widths[-1] = max(0, width - fixed)
        return widths

    def line(self, cells: Sequence[Cell], width: int, base: Style) -> Strip:
        """A run's line: each shown cell fitted to its column, on `base`."""
        segments: list[Segment] = []
        for (text, style), cell_width, (title, _, right) in zip(
            cells, self.widths(width), self.columns, strict=True
        ):
            if not cell_width:
                continue  # a column the table is too narrow for
            if segments:
                segments.append(Segment(" ", base))
            cut = fit_id(text, cell_width) if title == "id" else fit(text, cell_width, right)
            segments.append(Segment(cut, base + style))
        return Strip(segments).adjust_cell_length(width, base)

    def header(self, width: int, sort_column: str, direction: int) -> str:
        """The titles of the shown columns, the sorted one's with its arrow."""
        parts = []
        titles = zip(self.columns, self.widths(width), self.sort_columns, strict=True)
        for (title, _, right), cell_width, column in titles:
            if not cell_width:
                continue
            arrow = SORT_ARROWS.get(direction, "") if column == sort_column else ""
            if arrow:  # the arrow always shows; a narrow title gives way to it
                title = set_cell_size(title, max(0, cell_width - 1)).rstrip() + arrow
            parts.append(fit(title, cell_width, right))
        return " ".join(parts)

    def sort_column_at(self, x: int, width: int) -> str | None:
        """The sort column (a `sorting.SORT_COLUMNS` name) whose title is at cell `x` of
        the header; None where no column, or one not sorted by, is."""
        start = 0
        for column, cell_width in zip(self.sort_columns, self.widths(width), strict=True):
            if not cell_width:
                continue
            if start <= x < start + cell_width + 1:
                return column
            start += cell_width + 1
        return None
