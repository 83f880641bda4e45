"""Writing a report: HTML (one self-contained page) or Markdown (with its charts as SVG files
beside it), chosen by the output's extension. The page and its charts are one publication
(core.common.publish): every file is checked before any is written (never a file the command
read, never a review journal), and all are renamed into place together, or none."""

from __future__ import annotations

import os
from urllib.parse import quote

from ...common.atomic import STDOUT, WriteRefused
from ...common.publish import Publication
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


def write_report(data: ReportData, path: str) -> list[str]:
    """Write the report to `path` (and, for Markdown, its charts beside it); the files written.
    Raises ReportError for an unknown extension, atomic.WriteRefused (before anything is
    written) when a file may not be written, OSError when one cannot be (nothing is then
    published), charts.ChartsUnavailable without matplotlib."""
    fmt = report_format(path)
    charts.require_matplotlib()
    if path == STDOUT:
        raise WriteRefused("a report is written to a file: name OUT.html or OUT.md")
    with Publication() as publication:
        publication.add(path)
        if fmt == "html":
            _write(publication, path, render_html(data))
            return publication.publish()
        drawn = markdown_charts(data)
        stem = os.path.splitext(path)[0]
        files = {name: publication.add(f"{stem}-{name}.svg") for name in drawn}
        for name, file in files.items():
            svg = drawn[name].replace(*_STANDALONE, 1)
            _write(publication, file, '<?xml version="1.0" encoding="utf-8"?>\n' + svg)
        links = {name: quote(os.path.basename(file)) for name, file in files.items()}
        _write(publication, path, render_markdown(data, links))
        publication.publish()
    return [*files.values(), path]


def _write(publication: Publication, path: str, text: str) -> None:
    with publication.write(path) as out:
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
