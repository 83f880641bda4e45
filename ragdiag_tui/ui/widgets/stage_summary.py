"""StageSummary: runs per stage, lucky answers, invalid lines and review progress."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import events
from textual.content import Content
from textual.widgets import Static

from ...core.stages import S_INVALID
from .stages import LUCKY_MARK, STAGE_STYLE_CLASSES, STAGE_TITLES, stage_style

GAP = "  "


class StageSummary(Static):
    """Live counts on one line; on a narrow terminal, wrapped between items, never inside one."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "stage-summary--count",
        "stage-summary--muted",
        "stage-summary--lucky",
        "stage-summary--stale",
        *STAGE_STYLE_CLASSES,
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self._items: list[Content] = []

    def show_counts(
        self,
        counts: Sequence[int],
        lucky: int | None,
        reviewed: int | None,
        loading: bool = False,
        stale: int = 0,
    ) -> None:
        """Counts per stage code; lucky and reviewed are None until the review is ready;
        `stale` journal entries held aside (shown only when there are some)."""
        items = [
            Content.assemble(
                ("● ", stage_style(code)),
                f"{title} ",
                (f"{counts[code]:,}", ".stage-summary--count"),
            )
            for code, title in enumerate(STAGE_TITLES)
        ]
        runs = sum(counts) - counts[S_INVALID]
        items.append(
            Content.assemble(
                ("│ ", ".stage-summary--muted"),
                (f"{LUCKY_MARK} ", ".stage-summary--lucky"),
                "lucky ",
                (_number(lucky), ".stage-summary--lucky"),
            )
        )
        items.append(
            Content.assemble(
                ("│ ", ".stage-summary--muted"),
                "reviewed ",
                (f"{_number(reviewed)}/{runs:,}", ".stage-summary--count"),
            )
        )
        if stale:
            items.append(
                Content.assemble(
                    ("│ ", ".stage-summary--muted"),
                    ("stale ", ".stage-summary--stale"),
                    (f"{stale:,}", ".stage-summary--stale"),
                    (" (S)", ".stage-summary--muted"),
                )
            )
        if loading:
            items.append(Content.assemble(("(loading…)", ".stage-summary--muted")))
        self._items = items
        self._lay_out()

    def on_resize(self, event: events.Resize) -> None:
        self._lay_out()

    def _lay_out(self) -> None:
        width = self.content_region.width or 10_000
        lines: list[list[Content]] = [[]]
        used = 0
        for item in self._items:
            need = item.cell_length + (len(GAP) if lines[-1] else 0)
            if lines[-1] and used + need > width:
                lines.append([])
                used, need = 0, item.cell_length
            lines[-1].append(item)
            used += need
        self.update(Content("\n").join(Content(GAP).join(line) for line in lines))


def _number(value: int | None) -> str:
    return "…" if value is None else f"{value:,}"
