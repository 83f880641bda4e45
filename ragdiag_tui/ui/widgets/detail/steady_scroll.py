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
"""

from __future__ import annotations

from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.reactive import Reactive


class SteadyScroll(VerticalScroll):
    """A `VerticalScroll` that takes a new content height without a second layout or repaint."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)
