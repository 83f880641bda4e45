"""A stratified spot-check's strata as a small aligned table, for the statistics screen.

A row per stratum (its runs, its sample, how many reviewed, the overturned rate and its
95% interval), then the combined row (the stratified estimate) and the anytime-valid
interval; "you may stop" under them once it is within the margin. Every cell is literal
text (stratum names come from the run file: `visible`, never markup), and a long name is
cut with an ellipsis so that the figures keep their columns at any width: the table never
wraps on the screens' narrowest panel (80 columns).
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content

from ...core.analysis.estimate import Interval
from ...core.analysis.spotcheck import SpotCheckReport
from ...core.common.text import visible

NAME_WIDTH = 24
"""The most cells a stratum's name takes; a longer one is cut (the sentence above names it whole)."""
HEADERS = ("stratum", "runs", "sample", "reviewed", "overturned, 95% CI")
GAP = "  "


def rate_cell(rate: Interval | None) -> str:
    """`24% (14-37%)`, `67% (exact)` when every run was reviewed, or `none yet`."""
    if rate is None:
        return "none yet"
    bounds = "exact" if rate.exact else rate.ci_percent().removeprefix("95% CI ")
    return f"{rate.estimate_percent()} ({bounds})"


def _figures(report: SpotCheckReport) -> tuple[str, str, str, str]:
    return (
        f"{report.population:,}",
        f"{report.in_file:,}",
        f"{report.reviewed:,}",
        rate_cell(report.overturned_rate),
    )


def strata_rows(report: SpotCheckReport) -> list[tuple[str, tuple[str, str, str, str]]]:
    """(name, figures) per stratum, then the combined row and the anytime-valid row."""
    rows = [(visible(stratum.name), _figures(stratum)) for stratum in report.strata]
    rows.append(("combined", _figures(report)))
    if report.overturned_rate_anytime is not None:
        rows.append(("anytime-valid", ("", "", "", rate_cell(report.overturned_rate_anytime))))
    return rows


def strata_table(report: SpotCheckReport, indent: str = "  ") -> list[Content]:
    """The table's lines: a header, a row per stratum, the combined and anytime rows, then
    "you may stop" (bold) once the labeller may."""
    rows = strata_rows(report)
    names = [HEADERS[0], *(name for name, _ in rows)]
    name_width = min(NAME_WIDTH, max(Content(name).cell_length for name in names))
    widths = [max(len(HEADERS[i + 1]), *(len(figures[i]) for _, figures in rows)) for i in range(3)]

    def line(name: str, figures: Sequence[str], style: str = "") -> Content:
        numbers = GAP.join(figure.rjust(width) for figure, width in zip(figures[:3], widths, strict=True))
        cells = Content(name).truncate(name_width, ellipsis=True, pad=True)
        return Content.assemble(indent, cells, GAP, numbers, GAP, figures[3]).rstrip()

    lines = [line(HEADERS[0], HEADERS[1:]).stylize(".spot-check-panel--muted")]
    lines.extend(line(name, figures) for name, figures in rows)
    stop = report.may_stop_text()
    if stop:
        lines.append(Content.assemble(indent, (stop, "bold")))
    return lines
