"""StageBars: runs per stage as horizontal bars, with counts and shares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.content import Content
from textual.widgets import Static

from ...core.runs.stages import STAGES
from .stages import STAGE_STYLE_CLASSES, stage_style

BAR_WIDTH = 40


class StageBars(Static):
    """One bar per stage code; a full bar would be every run (bars are shares of the total)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "stage-bars--muted",
        *STAGE_STYLE_CLASSES,
    }

    def __init__(self, counts: Sequence[int], *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.counts = list(counts)

    def on_mount(self) -> None:
        self.update(self.bars(self.counts))

    @staticmethod
    def bars(counts: Sequence[int]) -> Content:
        total = sum(counts) or 1
        number_width = max(len(f"{n:,}") for n in counts)
        lines = []
        for code, count in enumerate(counts):
            title = STAGES[code].view_title.lower()
            length = round(BAR_WIDTH * count / total)
            if count and not length:
                length = 1
            style = stage_style(code)
            lines.append(
                Content.assemble(
                    f"{title:<14}",
                    (f"{count:>{number_width},}", style),
                    "  ",
                    ("█" * length, style),
                    ("·" * (BAR_WIDTH - length), ".stage-bars--muted"),
                    (f" {100 * count / total:5.1f}%", ".stage-bars--muted"),
                )
            )
        return Content("\n").join(lines)
