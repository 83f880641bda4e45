"""PaneText: a piece of the detail pane's text, measured by wrapping only its long lines and
drawn down to the last row in view.

Textual measures a `Static` by wrapping its whole text, and does so for each width a
layout tries (a scrolling panel tries its width with and without its scrollbar), then
wraps it again to draw it: for the 60 lines of a cut document that is most of what a
key costs beside a one-line one. Each line wraps on its own, and one no wider than the
width takes one row: the height is the number of lines plus what the wider ones take,
and only those are wrapped to measure it. The row each line starts at is kept per width.

Textual also draws a `Static` whole when it changes, though the document panel shows 20
of its rows. A text taller than what is in view is drawn from its first line down to the
last row in view, the same way and with the same offsets for a mouse selection (the lines
drawn are the text's own first lines); scrolling below that draws down to a screenful
further. Drawn rows are kept until Textual would draw the widget anew (a change of text,
width, style or selection).
"""

from __future__ import annotations

from bisect import bisect_left
from typing import NamedTuple, Self

from textual.content import Content
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.visual import Visual, VisualType
from textual.widgets import Static

from ..text_lines import width_of


class Drawn(NamedTuple):
    """Rows drawn from the top of a text at a width."""

    width: int
    style: VisualStyle
    strips: list[Strip]


class PaneText(Static):
    """A `Static` (never markup) measured by wrapping only its lines wider than the width, and
    drawn only down to the rows in view."""

    _drawn: Drawn | None = None

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, markup=False)
        self.set_reactive(PaneText.auto_links, False)  # no links in it: no link style to apply per row
        self._lines: list[tuple[str, int]] | None = None
        """The lines of the text shown, each with the cells it takes; None: measured as a Static."""
        self._starts: dict[int, list[int]] = {}
        """Per width: the row each line starts at, then the text's height."""
        self._top_end: int | None = None
        """While a render draws rows from the top only, the row to draw down to at least."""
        self._view_rows = 0  # the rows in view, as last asked to render

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        plain = content.plain if isinstance(content, Content) else content
        if isinstance(plain, str) and "\t" not in plain:
            self._lines = [(line, width_of(line)) for line in plain.split("\n")]
        else:
            self._lines = None
        self._starts = {}
        super().update(content, layout=layout)

    def notify_style_update(self) -> None:
        self._starts = {}  # a style may wrap lines otherwise
        super().notify_style_update()

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        if repaint:  # Textual draws the text anew: so do the rows drawn here
            self._drawn = None
        super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        return self

    def row_starts(self, width: int) -> list[int] | None:
        """The row each line of the text starts at, at `width`, then the text's height; None
        when it is measured and drawn as a Static (tabs, padded lines, not plain text)."""
        lines = self._lines
        if lines is None or width <= 0 or self.styles.line_pad:
            return None
        starts = self._starts.get(width)
        if starts is None:
            styles = self.styles
            starts = [0]
            row = 0
            for line, cells in lines:
                row += 1 if cells <= width else Content(line).get_height(styles, width)
                starts.append(row)
            if len(self._starts) >= 4:
                self._starts.clear()
            self._starts[width] = starts
        return starts

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        starts = self.row_starts(width)
        if starts is None:
            return super().get_content_height(container, viewport, width)
        return starts[-1]

    def render_lines(self, crop: Region) -> list[Strip]:
        width = self.size.width
        starts = self.row_starts(width)
        end = crop.bottom
        # Drawn from the top only when more rows than that are there to draw; else whole, as
        # Textual draws a Static.
        tall = starts is not None and starts[-1] > end and isinstance(self.visual, Content)
        self._top_end = end if tall else None
        self._view_rows = crop.height
        drawn = self._drawn
        if drawn is not None and (drawn.width != width or drawn.style != self.visual_style):
            self._drawn = None  # a new size (which Textual does not `refresh`) or style
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        end = self._top_end
        if end is None:
            return super().render_line(y)
        drawn = self._drawn
        if drawn is None:
            drawn = self._drawn = self._draw_top(max(end, y + 1))
        elif y >= len(drawn.strips):  # scrolled below what was drawn: a screenful more
            drawn = self._drawn = self._draw_top(max(end, y + 1) + self._view_rows)
        if y < len(drawn.strips):
            return drawn.strips[y]
        return Strip.blank(drawn.width, drawn.style.rich_style)

    def _draw_top(self, end: int) -> Drawn:
        """The rows of the text's first lines, down to row `end` at least."""
        width, style, visual = self.size.width, self.visual_style, self.visual
        starts, lines = self.row_starts(width), self._lines
        assert starts is not None and lines is not None and isinstance(visual, Content)
        count = min(bisect_left(starts, end), len(lines))  # the lines whose rows reach `end`
        chars = sum(len(line) for line, _ in lines[:count]) + count - 1
        return Drawn(width, style, Visual.to_strips(self, visual[:chars], width, None, style))
