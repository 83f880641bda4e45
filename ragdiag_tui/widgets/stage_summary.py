"""StageSummary: runs per stage, lucky answers, invalid lines and review progress."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.content import Content
from textual.widgets import Static

from ..store import S_INVALID
from .stages import STAGE_CLASSES, STAGE_TITLES


class StageSummary(Static):
    """One line of live counts (it wraps on a narrow terminal)."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "stage-summary--count",
        "stage-summary--muted",
        "stage-summary--lucky",
        *(f"stage-summary--{name}" for name in STAGE_CLASSES),
    }

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)

    def show_counts(
        self,
        counts: Sequence[int],
        lucky: int | None,
        reviewed: int | None,
        loading: bool = False,
    ) -> None:
        """Counts per stage code; lucky and reviewed are None until the review is ready."""
        parts: list[str | tuple[str, str]] = []
        for code, (title, name) in enumerate(zip(STAGE_TITLES, STAGE_CLASSES, strict=True)):
            parts += [
                ("● ", f".stage-summary--{name}"),
                f"{title} ",
                (f"{counts[code]:,}", ".stage-summary--count"),
                "  ",
            ]
        parts += [("│ ", ".stage-summary--muted")]
        parts += ["lucky ", (_number(lucky), ".stage-summary--lucky"), "  "]
        runs = sum(counts) - counts[S_INVALID]
        parts += [("│ ", ".stage-summary--muted"), "reviewed "]
        parts += [(f"{_number(reviewed)}/{runs:,}", ".stage-summary--count")]
        if loading:
            parts += [("  (loading…)", ".stage-summary--muted")]
        self.update(Content.assemble(*parts))


def _number(value: int | None) -> str:
    return "…" if value is None else f"{value:,}"
