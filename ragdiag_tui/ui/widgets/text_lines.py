"""TextLines: a long text read whole, drawing only the lines on screen (Toolong's model).

`TextArea` and `Log` prepare every line when the text arrives (wrapping, measuring,
highlighting): seconds for 100,000 lines. Here the text is split once and each line
is drawn when it scrolls into view, so opening and scrolling cost what a screenful
does. Lines are not wrapped; a long one scrolls sideways. The lines arrive made safe
(`visible`) and are drawn as plain text, never markup.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip


def width_of(line: str) -> int:
    """Cells `line` takes: its length for ASCII (fast over 100,000 lines), else measured."""
    return len(line) if line.isascii() else cell_len(line)


class TextLines(ScrollView, can_focus=True):
    """A read-only text, scrolled with the arrows, page keys, home and end."""

    DEFAULT_CSS = """
    TextLines { background: $surface; }
    TextLines:focus { background-tint: $foreground 3%; }
    """

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[str] = []
        """The text's lines, as given (made safe by the caller)."""
        self.show(text)

    def show(self, text: str) -> None:
        """Show `text` (made safe) from its first line."""
        self.lines = text.split("\n")
        self.virtual_size = Size(max(map(width_of, self.lines), default=0), len(self.lines))
        self.scroll_to(0, 0, animate=False, immediate=True)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        at = scroll_y + y
        width = self.scrollable_content_region.width
        if at >= len(self.lines):
            return Strip.blank(width, self.rich_style)
        strip = Strip([Segment(self.lines[at], self.rich_style)])
        return strip.crop_extend(scroll_x, scroll_x + width, self.rich_style)
