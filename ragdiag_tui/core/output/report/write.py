"""Writing a report: HTML (one self-contained page) or Markdown (with its charts as SVG files
beside it), chosen by the output's extension. Each file is written atomically, never over the
run file or a review journal (core.common.atomic)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from urllib.parse import quote

from ...common.atomic import open_output
from . import charts
from .html_page import render_html
from .markdown import render_markdown
from .model import ReportData, ReportError
from .tables import rates, strata_rates

FORMATS = {".html": "html", ".htm": "html", ".md": "md", ".markdown": "md"}
_STANDALONE = ('<svg role="img" ', '<svg role="img" style="background: #ffffff; color: #1b1f24" ')


def default_report_path(run_path: str | os.PathLike[str]) -> str:
    """Beside the run file: `runs.jsonl` -> `runs.report.html` (what the app's key writes)."""
    return f"{os.path.splitext(os.fspath(run_path))[0]}.report.html"


def report_format(path: str) -> str:
    """`html` or `md`, from the output's extension; ReportError for any other."""
    fmt = FORMATS.get(os.path.splitext(path)[1].lower())
    if fmt is None:
        raise ReportError(f"{path}: name an .html or .md file (the report's format follows its extension)")
    return fmt


def write_report(data: ReportData, path: str, protect: Iterable[str] = ()) -> list[str]:
    """Write the report to `path` (and, for Markdown, its charts beside it); the files written.
    Raises ReportError for an unknown extension, atomic.WriteRefused or OSError when a file
    cannot be written, charts.ChartsUnavailable without matplotlib."""
    fmt = report_format(path)
    charts.require_matplotlib()
    protect = tuple(protect)
    if fmt == "html":
        _write(path, render_html(data), protect)
        return [path]
    written = _write_charts(data, path, protect)
    _write(
        path,
        render_markdown(data, {name: quote(os.path.basename(file)) for name, file in written.items()}),
        protect,
    )
    return [*written.values(), path]


def _write(path: str, text: str, protect: tuple[str, ...]) -> None:
    with open_output(path, protect) as out:
        out.write(text.encode("utf-8", "surrogateescape"))


def markdown_charts(data: ReportData) -> dict[str, str]:
    """The SVG of each chart a Markdown report names, by chart name."""
    drawn = {"stages": charts.stage_chart(data.stats["stages"])}
    for at, section in enumerate(data.spot_checks):
        report = section.report
        if report.settled:
            drawn[f"rates-{at}"] = charts.rate_chart(f"{at}", rates(report, data.tag_names))
        if report.strata and report.settled:
            drawn[f"strata-{at}"] = charts.rate_chart(f"strata-{at}", strata_rates(report))
    if data.most_missed:
        drawn["missed"] = charts.missed_chart(data.most_missed)
    if data.baseline is not None:
        drawn["transitions"] = charts.transition_chart(data.baseline.figures["transitions"])
    return drawn


def _write_charts(data: ReportData, path: str, protect: tuple[str, ...]) -> dict[str, str]:
    stem = os.path.splitext(path)[0]
    written = {}
    for name, svg in markdown_charts(data).items():
        file = f"{stem}-{name}.svg"
        _write(file, '<?xml version="1.0" encoding="utf-8"?>\n' + svg.replace(*_STANDALONE, 1), protect)
        written[name] = file
    return written
