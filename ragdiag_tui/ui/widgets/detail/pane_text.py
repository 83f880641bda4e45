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

A line may hang: its label (a field's name and the padding to its value, a reviewer's
`note: `) is marked with `hanging`, and the rows the line wraps to start under the character
after the label, as the question's do beside their name, rather than at the left edge. Such a
line is wrapped in the width beside its label; the text is then drawn as above, with each
hung line's rows drawn again in its two columns (with the same offsets for a mouse selection).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from itertools import accumulate
from typing import NamedTuple, Self

from textual.content import Content
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.visual import Visual, VisualType
from textual.widgets import Static

from ..text_lines import width_of

HANG = VisualStyle.from_meta({"pane-text-hang": True})
"""The style that marks a line's label in a PaneText: the rows the line wraps to start after it."""
MIN_HUNG_WIDTH = 20  # cells a hung line needs beside its label (else the label before it counts)


def hanging(label: Content | str) -> Content:
    """`label` marked as its line's label: the rows a long line wraps to start after it (a
    hanging indent). On a line with several, the last one that leaves MIN_HUNG_WIDTH cells
    beside it counts; with none, the line wraps from the left edge."""
    return (label if isinstance(label, Content) else Content(label)).stylize(HANG)


class Hang(NamedTuple):
    """Where a line's label ends: its characters and the cells they take."""

    chars: int
    cells: int


def hangs_of(content: Content, lines: list[tuple[str, int]]) -> dict[int, tuple[Hang, ...]]:
    """The hangs of each line of `content` that has labels marked with `hanging` (`lines`:
    its lines with their cells), the last first, by line number."""
    ends = [span.end for span in content.spans if isinstance(span.style, VisualStyle) and span.style == HANG]
    if not ends:
        return {}
    starts = list(accumulate((len(line) + 1 for line, _ in lines), initial=0))
    chars: dict[int, set[int]] = {}
    for end in ends:
        number = bisect_right(starts, end - 1) - 1  # the line of the label's last character
        chars.setdefault(number, set()).add(min(end - starts[number], len(lines[number][0])))
    hangs = {}
    for number, counts in chars.items():
        line = lines[number][0]
        hangs[number] = tuple(Hang(count, width_of(line[:count])) for count in sorted(counts, reverse=True))
    return hangs


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
        self._hangs: dict[int, tuple[Hang, ...]] = {}
        """The hangs of each line with labels (`hanging`), the last first, by line number."""
        self._starts: dict[int, list[int]] = {}
        """Per width: the row each line starts at, then the text's height."""
        self._top_end: int | None = None
        """While a render draws rows from the top only, the row to draw down to at least."""
        self._view_rows = 0  # the rows in view, as last asked to render

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        width = self.size.width
        before = self._measure(width) if layout and self._measured_here() else None
        plain = content.plain if isinstance(content, Content) else content
        if isinstance(plain, str) and "\t" not in plain:
            self._lines = [(line, width_of(line)) for line in plain.split("\n")]
            self._hangs = hangs_of(content, self._lines) if isinstance(content, Content) else {}
        else:
            self._lines, self._hangs = None, {}
        self._starts = {}
        if before is not None:
            # A text that takes the room the one it replaces took leaves every widget where it
            # was: drawing it is enough (a key that shows another run changes a few short texts).
            layout = self._measure(width) != before
        super().update(content, layout=layout)

    def _measured_here(self) -> bool:
        """Whether this text's size on screen follows from the measures of `_measure` alone:
        shown and laid out, with no limit on its height that a layout would apply."""
        styles = self.styles
        unlimited = styles.max_height is None and styles.min_height is None
        return self.display and self.size.width > 0 and unlimited

    def _measure(self, width: int) -> tuple[int, int] | None:
        """The text's height at `width`, and its widest line when its width follows its text;
        None when it is measured as a Static."""
        starts = self.row_starts(width)
        if starts is None or self._lines is None:
            return None
        auto = self.styles.width is not None and self.styles.width.is_auto
        return starts[-1], max((cells for _line, cells in self._lines), default=0) if auto else 0

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
            for number, (line, cells) in enumerate(lines):
                if cells <= width:
                    row += 1
                elif (hang := self.hang(number, width)) is not None:
                    row += Content(line[hang.chars :]).get_height(styles, width - hang.cells)
                else:
                    row += Content(line).get_height(styles, width)
                starts.append(row)
            if len(self._starts) >= 4:
                self._starts.clear()
            self._starts[width] = starts
        return starts

    def hang(self, number: int, width: int) -> Hang | None:
        """Where line `number` hangs at `width`: after its last label that leaves MIN_HUNG_WIDTH
        cells beside it; None when it has none (it then wraps from the left edge)."""
        for hang in self._hangs.get(number, ()):
            if width - hang.cells >= MIN_HUNG_WIDTH:
                return hang
        return None

    def _hung(self, width: int, count: int) -> list[int]:
        """The lines among the first `count` that wrap under their labels at `width`."""
        lines = self._lines
        assert lines is not None
        return [n for n in sorted(self._hangs) if n < count and lines[n][1] > width and self.hang(n, width)]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        starts = self.row_starts(width)
        if starts is None:
            return super().get_content_height(container, viewport, width)
        return starts[-1]

    def render_lines(self, crop: Region) -> list[Strip]:
        width = self.size.width
        starts = self.row_starts(width)
        end = crop.bottom
        # Drawn here from the top when more rows than that are there to draw, or when lines
        # hang; else whole, as Textual draws a Static.
        own = starts is not None and isinstance(self.visual, Content)
        if own and starts is not None and starts[-1] <= end:
            own = bool(self._hung(width, len(starts) - 1))
        self._top_end = end if own else None
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
        strips = Visual.to_strips(self, visual[:chars], width, None, style)
        if self._hung(width, count):
            strips = self._hang_rows(strips, visual, count)
        return Drawn(width, style, strips)

    def _hang_rows(self, strips: list[Strip], visual: Content, count: int) -> list[Strip]:
        """`strips` (the first `count` lines of the text, each wrapped from the left edge)
        with the rows of each hung line drawn again under its label."""
        width, styles, lines = self.size.width, self.styles, self._lines
        assert lines is not None
        rows: list[Strip] = []
        row = start = 0  # where each line starts: its first row in `strips`, its first character
        for number, (line, cells) in enumerate(lines[:count]):
            height = 1 if cells <= width else Content(line).get_height(styles, width)
            hang = self.hang(number, width) if cells > width else None
            if hang is None:
                rows.extend(strips[row : row + height])
            else:
                rows.extend(self._hung_rows(visual[start : start + len(line)], number, hang))
            row += height
            start += len(line) + 1
        return rows

    def _hung_rows(self, line: Content, number: int, hang: Hang) -> list[Strip]:
        """The rows of line `number` of the text: its label, then its text wrapped beside it."""
        width, style = self.size.width, self.visual_style
        selection = self.text_selection
        if selection is not None and (span := selection.get_span(number)) is not None:
            selected = VisualStyle.from_styles(self.screen.get_component_styles("screen--selection"))
            start, end = span
            line = line.stylize(selected, start, len(line) if end == -1 else end)
        label, text = line[: hang.chars], line[hang.chars :]
        head = Visual.to_strips(self, label, hang.cells, None, style, apply_selection=False)[0]
        body = Visual.to_strips(self, text, width - hang.cells, None, style, apply_selection=False)
        background = style.background_style.rich_style
        head = head.extend_cell_length(hang.cells, background).apply_offsets(0, number)
        pad = Strip.blank(hang.cells, background)
        rows = [Strip.join([head, self._moved(body[0], hang.chars, number)])]
        rows.extend(Strip.join([pad, self._moved(strip, hang.chars, number)]) for strip in body[1:])
        return rows

    @staticmethod
    def _moved(strip: Strip, chars: int, number: int) -> Strip:
        """A row of a line's text drawn alone, with the offsets a mouse selection reads moved to
        where it is in line `number` of the text, `chars` characters in."""
        first = next(iter(strip), None)
        meta = first.style.meta if first is not None and first.style is not None else {}
        x, _ = meta.get("offset", (0, 0))
        return strip.apply_offsets(x + chars, number)
