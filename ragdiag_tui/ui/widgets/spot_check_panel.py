"""SpotCheckPanel: each spot-check's conclusion on the statistics screen.

For each spot-check: the sentence a lead pastes into a report (the overturned rate
with its 95% interval, corrected for the finite population, over the runs with a
settled label; held, overturned and in conflict counted apart), then a small bar per
reason tag (its share of the runs with a settled label); a stratified spot-check's strata
as a table (ui/widgets/strata_table.py), and in sequential mode the anytime interval and
"you may stop". Under them, the mean ID-based recall and precision of the file.
Everything comes from the core (`core.spotcheck`, `core.metrics`); this only draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual.content import Content
from textual.widgets import Static

from ...core.analysis.spotcheck import SpotCheckReport
from ...core.common.text import visible
from ...core.review.tags import Tag
from ...core.runs.metrics import MetricMeans
from .strata_table import strata_table

BAR = 12  # cells of a tag's bar: its share of the sample's reviewed runs with a settled label


def bar(fraction: float, width: int = BAR) -> tuple[str, str]:
    """(filled, empty) parts of a bar of `width` cells for `fraction` in [0, 1]."""
    filled = round(max(0.0, min(1.0, fraction)) * width)
    return "█" * filled, "░" * (width - filled)


def mean_text(value: float | None, runs: int) -> str:
    return "none (no run defines it)" if value is None else f"{value:.2f} over {runs:,} runs"


class SpotCheckPanel(Static):
    """The spot-checks' conclusions and the ID metrics' means, as lines of text."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "spot-check-panel--name",
        "spot-check-panel--bar",
        "spot-check-panel--muted",
    }

    def __init__(
        self,
        reports: Sequence[SpotCheckReport],
        tags: Sequence[Tag],
        means: MetricMeans | None,
        *,
        waiting: Sequence[str] = (),
        id: str | None = None,
    ) -> None:
        super().__init__(id=id, markup=False)
        self.reports = list(reports)
        self.waiting = list(waiting)
        """Blind mode: a line per spot-check whose figures wait until the reviewer labelled it all."""
        self.tags = list(tags)
        self.means = means

    def on_mount(self) -> None:
        self.update(self.text())

    def text(self) -> Content:
        lines: list[Content] = []
        lines.extend(Content.assemble((line + ".", ".spot-check-panel--muted")) for line in self.waiting)
        if not self.reports and not self.waiting:
            lines.append(
                Content.assemble(
                    ("No spot-checks yet: D on the runs screen draws one.", ".spot-check-panel--muted")
                )
            )
        names = {tag.key: tag.name for tag in self.tags}
        for report in self.reports:
            lines.append(Content(report.sentence() + "."))
            if report.strata:  # a row per stratum, the combined one, the anytime interval
                lines.extend(strata_table(report))
            else:  # the anytime interval and "you may stop" (core.spotcheck)
                stop = report.may_stop_text()
                lines.extend(
                    Content.assemble("  ", (line, "bold") if line == stop else line)
                    for line in report.sequence_lines()
                )
            for tag in report.tags:
                share = tag.count / report.settled if report.settled else 0.0
                filled, empty = bar(share)
                # The rate in a fixed column and the name last: at any width only a long
                # name can wrap, never a number away from its interval.
                # Exact (the whole population reviewed): the sentence above says so in full.
                ci = ("exact" if tag.rate.exact else tag.rate.ci_percent()) if tag.rate else ""
                rate = f"{tag.rate.estimate_percent()} ({ci})" if tag.rate else ""
                lines.append(
                    Content.assemble(
                        "  ",
                        (filled, ".spot-check-panel--bar"),
                        (empty, ".spot-check-panel--muted"),
                        f" {tag.count:>3}  ",
                        (f"{rate:<22}", ".spot-check-panel--muted"),
                        visible(names.get(tag.key, tag.key)),
                    )
                )
            lines.append(Content(""))
        if self.means is not None:
            lines.append(
                Content.assemble(
                    ("ID metrics  ", "bold"),
                    f"mean recall {mean_text(self.means.recall_mean, self.means.recall_runs)}  ·  "
                    f"mean precision {mean_text(self.means.precision_mean, self.means.precision_runs)}",
                )
            )
        return Content("\n").join(lines).rstrip()
