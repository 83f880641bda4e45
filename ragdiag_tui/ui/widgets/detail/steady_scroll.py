"""SteadyScroll: a vertical scroll whose content may change height at no cost beyond its own.

A scrolling container's `virtual_size` (the height of what it holds) is a reactive that
asks for a second layout and a repaint of the whole container when it changes. In the
detail pane it changes on most keys (a label makes the reason two lines shorter, another
document has a line more), and the cost of that repaint grows with what the pane holds:
a pane full of text paid for it on every key, a nearly empty one did not. The layout
that measured the new size has already placed every child, the children that changed
repaint themselves, and the scrollbar is refreshed on its own (`_scroll_update`), so the
size is taken without either; a scrollbar that appears or goes still lays the pane out
(`show_vertical_scrollbar` asks for it).

The scrollbar itself is repainted whenever the content's height changes, and Textual
refreshes it once more after each layout, thumb changed or not: each repaint draws every
row of it anew (a 37-row bar costs what 30 lines of text do). `KeptScrollBar` keeps the
rows it drew for the last few thumbs: a label that lengthens the reason and its opposite
that shortens it again, or moving to and fro between two documents, draws nothing new.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from textual.containers import VerticalScroll
from textual.geometry import Region, Size
from textual.reactive import Reactive
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip

KEPT_THUMBS = 4  # drawings a scrollbar keeps


class KeptScrollBar(ScrollBar):
    """A `ScrollBar` that keeps what it drew for its last few thumbs."""

    def __init__(self, vertical: bool = True, name: str | None = None, *, thickness: int = 1) -> None:
        super().__init__(vertical, name, thickness=thickness)
        self._kept: OrderedDict[tuple[Any, ...], list[Strip]] = OrderedDict()

    def drawing(self, crop: Region) -> tuple[Any, ...]:
        """All that what the bar draws in `crop` depends on: its thumb and colours (what
        `render` gives), its size, its background, the app's colour filters and theme."""
        bar = self.render()
        thumb: tuple[Any, ...] = (type(bar),)
        if isinstance(bar, ScrollBarRender):
            thumb += (bar.virtual_size, bar.window_size, bar.position, bar.thickness, bar.vertical, bar.style)
        app = self.app
        theme = (tuple(self.get_line_filters()), app.ansi_theme, app.native_ansi_color)
        return (thumb, crop, self.size, self.background_colors, theme)

    def render_lines(self, crop: Region) -> list[Strip]:
        key = self.drawing(crop)
        kept = self._kept
        strips = kept.get(key)
        if strips is None:
            strips = kept[key] = super().render_lines(crop)
            if len(kept) > KEPT_THUMBS:
                kept.popitem(last=False)
        else:
            kept.move_to_end(key)
        return list(strips)


class SteadyScroll(VerticalScroll):
    """A `VerticalScroll` that takes a new content height without a second layout or repaint,
    and keeps the drawings of its scrollbar."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        # Textual's own property, with a KeptScrollBar for the ScrollBar it makes.
        bar = self._vertical_scrollbar
        if bar is None:
            bar = self._vertical_scrollbar = KeptScrollBar(
                vertical=True, name="vertical", thickness=self.scrollbar_size_vertical
            )
            bar.display = False
            self.app._start_widget(self, bar)
        return bar
