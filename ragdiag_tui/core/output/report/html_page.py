"""The HTML report: the answer first (the headline), then the charts and tables, then the
evidence, then what was reviewed; one self-contained page (inline style, inline SVG charts, the figures as
JSON data) that loads nothing and runs no script. Untrusted text is escaped by html_text."""

from __future__ import annotations

from .html_headline import headline_html, metadata_html
from .html_sections import agreement_html, baseline_html, missed_html, stages_html
from .html_spot_checks import evidence_html, spot_checks_html
from .html_text import embedded_json, esc
from .model import ReportData
from .page_style import CSP, STYLE

DATA_ID = "ragdiag-report"


def render_html(data: ReportData) -> str:
    """The whole page."""
    header = data.header
    body = "".join(
        (
            f'<header><h1>Review report: <span class="id">{esc(header.name)}</span></h1>'
            f"{headline_html(data)}</header>",
            stages_html(data),
            spot_checks_html(data),
            agreement_html(data),
            missed_html(data),
            baseline_html(data),
            evidence_html(data),
            metadata_html(data),
            f"<footer>ragdiag-tui {esc(header.version)} · the figures as JSON are in the element "
            f"#{DATA_ID} of this page.</footer>",
        )
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="referrer" content="no-referrer">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>Review report: {esc(header.name)}</title><style>{STYLE}</style></head>\n"
        f"<body>{body}\n"
        f'<script type="application/json" id="{DATA_ID}">{embedded_json(data.data())}</script>\n'
        "</body></html>\n"
    )
