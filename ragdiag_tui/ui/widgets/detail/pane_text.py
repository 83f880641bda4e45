"""PaneText: a piece of the detail pane's text, measured by wrapping only its long lines.

Textual measures a `Static` by wrapping its whole text, and does so for each width a
layout tries (a scrolling panel tries its width with and without its scrollbar), then
wraps it again to draw it: for the 60 lines of a cut document that is most of what a
key costs beside a one-line one. Each line wraps on its own, and one no wider than the
width takes one row: the height is the number of lines plus what the wider ones take,
and only those are wrapped to measure it.
"""

from __future__ import annotations

from textual.content import Content
from textual.geometry import Size
from textual.visual import VisualType
from textual.widgets import Static

from ..text_lines import width_of


class PaneText(Static):
    """A `Static` (never markup) measured by wrapping only its lines wider than the width."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes, markup=False)
        self._lines: list[tuple[str, int]] | None = None
        """The lines of the text shown, each with the cells it takes; None: measured as a Static."""

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        plain = content.plain if isinstance(content, Content) else content
        if isinstance(plain, str) and "\t" not in plain:
            self._lines = [(line, width_of(line)) for line in plain.split("\n")]
        else:
            self._lines = None
        super().update(content, layout=layout)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        lines = self._lines
        if lines is None or width <= 0 or self.styles.line_pad:
            return super().get_content_height(container, viewport, width)
        styles = self.styles
        return sum(1 if cells <= width else Content(line).get_height(styles, width) for line, cells in lines)
