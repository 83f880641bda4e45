"""A screen styled once before its first drawing, where Textual would style it three times.

Textual styles every widget as it mounts, then all of them again when the screen is first
shown (`ScreenResume`), and again when the first resize adds the width's class from
`HORIZONTAL_BREAKPOINTS`. For the review screen's fifty-odd widgets those two extra passes
were half of what its start spent on styles.
"""

from __future__ import annotations

from typing import TypeVar

from textual import events
from textual.screen import Screen

ResultType = TypeVar("ResultType")


def breakpoint_class(width: int, breakpoints: list[tuple[int, str]]) -> str:
    """The class of the widest breakpoint `width` reaches (as Textual picks it on a resize)."""
    return max((point for point in breakpoints if width >= point[0]), default=(0, ""))[1]


class StyledOnce(Screen[ResultType]):
    """A `Screen` that has its width's class from the start and skips the restyle of its first
    showing (later showings restyle when Textual asks for it)."""

    def __init__(self) -> None:
        breakpoints = self.HORIZONTAL_BREAKPOINTS or []
        super().__init__(classes=breakpoint_class(self.app.size.width, breakpoints) or None)
        self._shown = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Textual's own handler, which restyles when asked to.
        if not self._shown:
            self._shown = True
            event.refresh_styles = False
